"""The seats of a qualifier sitting (R21): who plays and who waits under the capacity setting,
why, and the waiting list."""

from __future__ import annotations

import datetime as dt

import pandas as pd

from stsa import i18n, local_time, rules, store
from stsa.auth import Actor
from stsa.domain import Kind, PlayerStatus, SittingStatus, TournamentError
from stsa.i18n import _, ngettext
from stsa.services import sitting_plan
from stsa.services.snapshot import Snapshot
from stsa.settings import Settings


def queue_of(players: pd.DataFrame, player_ids, settings: Settings,
             extra_tables: int = 0, *, bookings: pd.DataFrame | None = None,
             deadline: pd.Timestamp | None = None) -> pd.DataFrame:
    """R21 for the players `player_ids` of the roster frame `players`: `rules.seat_queue`
    under the capacity setting (`player_id, registration_order, checked_in_at, queue, plays,
    waiting`), with `name` and `reason`, why each player plays or waits in words: "pre-registered,
    number 12 in registration order", "dropped in at 10:42", and for those who wait "over the
    16-seat limit". A player named twice or not on the roster is refused.

    R25: with the sitting's `bookings` (and its passed check-in `deadline`, see
    `rules.seat_queue`), booked players come first in booking order ("booked, number 3 in
    booking order"), then drop-ins in check-in order."""
    ids = [int(p) for p in player_ids]
    if len(set(ids)) != len(ids):
        raise TournamentError(_("A player is named twice among the players to seat."))
    chosen = players.loc[players["player_id"].isin(ids)]
    unknown = sorted(set(ids) - set(chosen["player_id"].astype(int)))
    if unknown:
        raise store.NotFound(_("No player with id {ids}.").format(
            ids=", ".join(map(str, unknown))))
    capacity = int(settings["capacity"])
    queue = rules.seat_queue(chosen, capacity, extra_tables, bookings=bookings,
                             deadline=deadline)
    names = dict(zip(players["player_id"], players["name"]))
    return queue.assign(name=queue["player_id"].map(names),
                        reason=queue_reasons(queue, capacity, extra_tables, settings.zone))


def queue_reasons(queue: pd.DataFrame, capacity: int, extra_tables: int = 0,
                  tz: dt.tzinfo | None = None) -> pd.Series:
    """Why each player of a `rules.seat_queue` frame plays or waits, in words (R21); check-in
    times in the tournament's time zone `tz` (R26; None: this laptop's)."""
    times = local_time.column(queue["checked_in_at"], tz or local_time.zone(None)).dt.strftime(
        "%H:%M").fillna("")
    checked = queue["checked_in_at"].notna()
    if "priority" in queue:  # R25: the sitting has a booking list
        booked = queue["booking_order"].astype("string").fillna("")
        words = {"booked": _("booked, number {number} in booking order"),
                 "late": _("booked, number {number} in booking order (checked in after the "
                           "deadline)"),
                 "replacement": _("given a missing booked player's seat"),
                 "replaced": _("booked, but the seat was given away after the deadline; "
                               "dropped in at {time}")}
        base = [(words[p] if p in words else _("dropped in at {time}") if seen
                 else _("seated by hand, not checked in")).format(number=n, time=t)
                for p, n, t, seen in zip(queue["priority"], booked, times, checked)]
        return _limit(pd.Series(base, index=queue.index, dtype="str"), queue, capacity,
                      extra_tables)
    order = queue["registration_order"].astype("string").fillna("")
    base = [(_("pre-registered, number {number} in registration order") if pd.notna(r)
             else _("dropped in at {time}") if seen
             else _("seated by hand, not checked in")).format(number=n, time=t)
            for r, n, t, seen in zip(queue["registration_order"], order, times, checked)]
    return _limit(pd.Series(base, index=queue.index, dtype="str"), queue, capacity,
                  extra_tables)


def _limit(base: pd.Series, queue: pd.DataFrame, capacity: int, extra_tables: int) -> pd.Series:
    if extra_tables:
        said = ngettext("{reason}; over the {capacity}-seat limit and {count} extra table",
                        "{reason}; over the {capacity}-seat limit and {count} extra tables",
                        extra_tables)
    else:
        said = _("{reason}; over the {capacity}-seat limit")
    over = pd.Series([said.format(reason=r, capacity=capacity, count=extra_tables)
                      for r in base], index=base.index, dtype="str")
    return base.where(queue["plays"], over)


def seat_queue(engine, player_ids, *, extra_tables: int = 0) -> pd.DataFrame:
    """R21, R25: `queue_of` the roster and settings as they are now: who plays the next
    qualifier and who waits, in queue order, with the reasons (its booking list, if any)."""
    with Snapshot(engine) as snap:
        return next_queue(snap, player_ids, extra_tables)


def next_queue(snap: Snapshot, player_ids, extra_tables: int = 0,
               now: dt.datetime | None = None) -> pd.DataFrame:
    """R21, R25: `queue_of` for the next qualifier sitting (`sitting_plan.next_qualifier`),
    with its booking list and check-in deadline when it has them."""
    plan = sitting_plan.plan_of(snap, sitting_plan.next_qualifier(snap))
    return queue_of(snap.players, player_ids, snap.settings, extra_tables,
                    **sitting_plan.queue_inputs(plan, now or dt.datetime.now(dt.UTC)))


def waiting_list(engine, *, actor: Actor | None = None) -> pd.DataFrame:
    """R21: the waiting list now, `player_id, position, reason` (position 1 = next in line).

    While a qualifier sitting that `actor` may see (R20) is drawn or being played, its stored
    waiting list; before the next qualifier (none yet, or the latest complete), the live queue
    of the players checked in; once the semifinal or final is drawn, nobody waits. The
    reasons are English: pages share the list per data version (`stsa.ui.data`)."""
    with Snapshot(engine, actor=actor) as snap:
        return waiting_of(snap, actor=actor)


def waiting_of(snap: Snapshot, *, actor: Actor | None = None) -> pd.DataFrame:
    """`waiting_list` from the reads of `snap` (a snapshot `actor` may read: the pages'
    shared one per data version reads nothing twice)."""
    with i18n.language(i18n.ENGLISH):
        sitting = snap.current()
        if sitting is not None and sitting["kind"] != Kind.QUALIFIER:
            return _no_one_waits()
        settings = snap.settings
        capacity = int(settings["capacity"])
        if sitting is not None and sitting["status"] != SittingStatus.COMPLETE:
            stored = store.waiting(snap.engine, int(sitting["sitting_id"]), actor=actor)
            queue = (stored[["player_id", "position"]]
                     .merge(snap.players[["player_id", *rules.QUEUE_COLUMNS[1:]]],
                            on="player_id", how="left")
                     .assign(plays=False))
            if sitting_plan.plan_of(snap, int(sitting["number"])).has_list:
                # R25: with a booking list, registration order did not count: they dropped in
                queue = queue.assign(registration_order=pd.NA)
            seated = len(snap.sitting_seats(int(sitting["sitting_id"])))
            extra = max(seated - capacity, 0) // 4
            return queue.assign(reason=queue_reasons(queue, capacity, extra, settings.zone))[
                ["player_id", "position", "reason"]]
        players = snap.players
        present = players.loc[(players["status"] == PlayerStatus.ACTIVE)
                              & players["checked_in"], "player_id"]
        queue = next_queue(snap, present)
        waiting = queue.loc[~queue["plays"]]
        return (waiting.assign(position=waiting["waiting"].astype("int64"))
                [["player_id", "position", "reason"]].reset_index(drop=True))


def _no_one_waits() -> pd.DataFrame:
    return pd.DataFrame({"player_id": pd.Series(dtype="int64"),
                         "position": pd.Series(dtype="int64"),
                         "reason": pd.Series(dtype="str")})
