"""Booking lists per qualifier sitting, check-in per sitting and self check-in (R25).

The organizer imports a convention's booking list for a planned qualifier sitting: its rows are
matched to the roster (`formats.booking_file.match_bookings`); rows that match nobody may be
added as new players in the same transaction; a row that matches two players, a player booked
twice or a bad row refuses the whole file. Importing again replaces the sitting's list and
says who was added, removed or moved.

Self check-in: from `sitting_plan.WINDOW_MINUTES` before a qualifier's planned start until its
check-in deadline, the room's code (on the TV and the staff's Home) lets a player check
themselves in on My seat. The window and the code are checked here and in the store, never
only on the page.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import pandas as pd

from stsa import i18n, local_time, store
from stsa.auth import Actor, require
from stsa.domain import PlayerStatus, Role, SittingStatus, TournamentError
from stsa.formats import booking_file
from stsa.formats.booking_file import BookingError, booking_error
from stsa.formats.guards import at_row
from stsa.i18n import N_, _, ngettext
from stsa.services import sitting_plan
from stsa.services.capacity import next_queue
from stsa.services.snapshot import Snapshot

# My seat's lines are shared per data version (`stsa.ui.data`): written in English from these
# templates, and translated where My seat shows them (`i18n.cell`). The longer form first: the
# short one would match it too.
BOOKED_WITH_START = i18n.template(N_("You are booked for Qualifier {number} ({weekday} {time}); "
                                     "check in by {deadline}."))
BOOKED = i18n.template(N_("You are booked for Qualifier {number}."))
WAITING_PLACE = i18n.template(N_("You are number {position} on the waiting list for Qualifier "
                                 "{number}."))
WEEKDAYS = (N_("Monday"), N_("Tuesday"), N_("Wednesday"), N_("Thursday"), N_("Friday"),
            N_("Saturday"), N_("Sunday"))  # local_time.WEEKDAYS, marked for My seat's lines


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


# -- importing a list ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Preview:
    """A read booking file matched to the roster: `rows` (`booking_file.MATCH_COLUMNS` plus
    `player`, the matched player's name) in booking order, `unmatched` (the row numbers that
    match nobody), and `problems` (ambiguous and twice-booked rows: nothing can be imported
    until the file is fixed)."""

    rows: pd.DataFrame
    unmatched: list[int]
    problems: list

    def error(self) -> BookingError | None:
        return booking_error(self.problems) if self.problems else None


def preview(engine, source: Any, *, actor: Actor) -> Preview:
    """R25: read a booking file (`booking_file.read_bookings`; a bad file raises
    `BookingError`) and match its rows to the roster. Organizer only; writes nothing."""
    require(actor, Role.ORGANIZER, action=N_("import booking lists"))
    rows = (source if isinstance(source, pd.DataFrame)
            else booking_file.read_bookings(source))
    players = store.players(engine, actor=actor)
    matched, problems = booking_file.match_bookings(rows, players)
    names = dict(zip(players["player_id"], players["name"]))
    matched = matched.assign(player=matched["player_id"].map(names).fillna(""))
    unmatched = matched.loc[matched["player_id"].isna(), "row"].astype(int).tolist()
    return Preview(matched, unmatched, problems)


def _new_entry(row: dict, nickname: str = "") -> dict:
    name = row["name"] or row["nickname"] or row["email"].split("@")[0]
    return {"name": name, "nickname": nickname or row["nickname"] or "",
            "email": row["email"] or ""}


def _typed(nicknames: Mapping[int, str] | None) -> dict[int, str]:
    """The nicknames the organizer typed for new players, by row, blanks left out."""
    return {int(r): " ".join(str(n).split()) for r, n in (nicknames or {}).items()
            if str(n or "").strip()}


def import_bookings(engine, source: Any, sitting_number: int, *, add_rows=(),
                    nicknames: Mapping[int, str] | None = None,
                    actor: Actor, zone: dt.tzinfo | None = None) -> dict:
    """R25: import a booking file (or a `preview`'s rows) as qualifier `sitting_number`'s
    list, replacing the one it had, all or nothing. `add_rows` are the row numbers of rows
    that match nobody to add as new players (in the same transaction); any other unmatched
    row refuses the import, named by row. Booking times are taken in the tournament's zone
    (`zone`). Returns `store.import_bookings`'s changes, and `words`: what changed in words.

    R22: a new player is shown in public by nickname, so each added row needs one: the
    organizer's (`nicknames`, by row) or else the file's; a row with neither refuses the
    import (a booking system's name column holds real names nobody chose to show; typing the
    name as the nickname is a choice, a blank is not)."""
    require(actor, Role.ORGANIZER, action=N_("import booking lists"))
    seen = preview(engine, source.rows if isinstance(source, Preview) else source,
                   actor=actor)
    problems = list(seen.problems)
    adding = {int(r) for r in add_rows}
    typed = _typed(nicknames)
    problems += [at_row(r, _("matches no player on the roster: tick it to add it as a new "
                             "player, or fix the name")) for r in seen.unmatched
                 if r not in adding]
    given = dict(zip(seen.rows["row"].astype(int), seen.rows["nickname"].fillna("")))
    problems += [at_row(r, _("give the new player a nickname: it is what spectators see"))
                 for r in seen.unmatched if r in adding and not typed.get(r)
                 and not str(given.get(r, "")).strip()]
    if problems:
        raise booking_error(sorted(problems, key=lambda p: p.row or 0))
    if zone is None:
        with Snapshot(engine) as snap:
            zone = snap.settings.zone
    tz = zone
    booked: list[dict] = []
    new_players: list[dict] = []
    for rec in seen.rows.to_dict("records"):
        when = rec["booked_at"]
        at = None if pd.isna(when) else pd.Timestamp(when).tz_localize(
            tz, ambiguous=True, nonexistent="shift_forward")  # a clock change's hour
        if pd.isna(rec["player_id"]):
            booked.append({"new": len(new_players), "booked_at": at})
            new_players.append(_new_entry(rec, typed.get(int(rec["row"]), "")))
        else:
            booked.append({"player_id": int(rec["player_id"]), "booked_at": at})
    change = store.import_bookings(engine, int(sitting_number), booked,
                                   new_players=new_players, actor=actor)
    return {**change, "words": change_words(change, len(booked))}


def change_words(change: dict, total: int) -> str:
    """What importing a booking list changed, in words (R25): "12 booked: 3 added (1 new
    player), 1 removed, 2 moved"."""
    added, removed, moved = (len(change[k]) for k in ("added", "removed", "moved"))
    if change["new_players"]:
        new = len(change["new_players"])
        return ngettext("{total} booked: {added} added ({count} new player), {removed} removed, "
                        "{moved} moved.", "{total} booked: {added} added ({count} new players), "
                        "{removed} removed, {moved} moved.", new).format(
            total=total, added=added, count=new, removed=removed, moved=moved)
    return _("{total} booked: {added} added, {removed} removed, {moved} moved.").format(
        total=total, added=added, removed=removed, moved=moved)


def next_qualifier_number(engine) -> int:
    """The qualifier checked in for next (R25: the booking list to import first)."""
    with Snapshot(engine, actor=None) as snap:
        return sitting_plan.next_qualifier(snap)


# -- check-in per sitting -----------------------------------------------------------------------
@dataclass(frozen=True)
class CheckInView:
    """The next qualifier sitting's check-in (R25): its `plan`, and the players in groups:
    `booked_here`, `booked_missing`, `drop_ins` (here, not booked) and `waiting`, each a
    frame `player_id, name, nickname, self_check_in` (waiting also has `position`);
    `offers`: after the deadline, for each missing booked player's seat not yet given away,
    the first waiting player (`player_id, name, replacement_id, replacement`)."""

    plan: sitting_plan.SittingPlan
    booked_here: pd.DataFrame
    booked_missing: pd.DataFrame
    drop_ins: pd.DataFrame
    waiting: pd.DataFrame
    offers: pd.DataFrame
    deadline_passed: bool


def check_in_view(engine, *, actor: Actor, now: dt.datetime | None = None) -> CheckInView:
    """R25: who is booked for the next qualifier and here, booked and missing, here without a
    booking, and waiting (the queue as the draw would take it now). The organizer's."""
    require(actor, Role.ORGANIZER, action=N_("see the check-in"))
    now = now or _now()
    with Snapshot(engine, actor=actor) as snap:
        plan = sitting_plan.plan_of(snap, sitting_plan.next_qualifier(snap))
        players = snap.players
        self_in = set(store.self_checked_in(snap.engine))
        players = players.assign(self_check_in=players["player_id"].isin(self_in))
        present = players.loc[(players["status"] == PlayerStatus.ACTIVE)
                              & players["checked_in"]]
        queue = next_queue(snap, present["player_id"], now=now) if len(present) else None
    cols = ["player_id", "name", "nickname", "self_check_in"]
    booked_ids = plan.booked["player_id"].tolist()
    here = present.loc[present["player_id"].isin(booked_ids)]
    order = {p: i for i, p in enumerate(booked_ids)}
    booked_here = here.assign(_o=here["player_id"].map(order)).sort_values("_o")[cols]
    missing_ids = [p for p in booked_ids if p not in set(present["player_id"])]
    by_id = players.set_index("player_id")
    booked_missing = (by_id.loc[missing_ids].reset_index()[cols] if missing_ids
                      else players.head(0)[cols])
    waiting = players.head(0)[cols].assign(position=pd.Series(dtype="int64"))
    waiting_ids: list[int] = []
    if queue is not None:
        waits = queue.loc[~queue["plays"]]
        waiting_ids = waits["player_id"].astype(int).tolist()
        waiting = (by_id.loc[waiting_ids].reset_index()[cols]
                   .assign(position=waits["waiting"].astype("int64").to_numpy()))
    drop_ins = present.loc[~present["player_id"].isin(booked_ids)
                           & ~present["player_id"].isin(waiting_ids), cols]
    passed = plan.deadline_passed(now)
    offers = _offers(plan, missing_ids, waiting_ids, by_id) if passed else _no_offers()
    return CheckInView(plan, booked_here.reset_index(drop=True),
                       booked_missing.reset_index(drop=True), drop_ins.reset_index(drop=True),
                       waiting.reset_index(drop=True), offers, passed)


def _no_offers() -> pd.DataFrame:
    return pd.DataFrame({"player_id": pd.Series(dtype="int64"), "name": pd.Series(dtype="str"),
                         "replacement_id": pd.Series(dtype="int64"),
                         "replacement": pd.Series(dtype="str")})


def _offers(plan, missing_ids: list[int], waiting_ids: list[int], by_id) -> pd.DataFrame:
    """Each missing booked player's seat not yet given away, in booking order, with the next
    waiting player (the first for the first seat, the second for the second, …)."""
    open_seats = plan.booked.loc[plan.booked["player_id"].isin(missing_ids)
                                 & plan.booked["replaced_by"].isna(), "player_id"].tolist()
    pairs = list(zip(open_seats, waiting_ids))
    if not pairs:
        return _no_offers()
    return pd.DataFrame({"player_id": [a for a, _b in pairs],
                         "name": [by_id.loc[a, "name"] for a, _b in pairs],
                         "replacement_id": [b for _a, b in pairs],
                         "replacement": [by_id.loc[b, "name"] for _a, b in pairs]})


def confirm_replacement(engine, player_id: int, replacement_id: int, *, actor: Actor,
                        now: dt.datetime | None = None) -> int:
    """R25: after the next qualifier's check-in deadline, give missing booked player
    `player_id`'s seat to waiting player `replacement_id`: the replacement takes the booked
    player's priority in the queue the Draw page seats by. Only the seat offered (the first
    waiting player for it) may be confirmed; organizer only; logged. Returns the sitting's
    number."""
    require(actor, Role.ORGANIZER, action=N_("give booked seats to waiting players"))
    view = check_in_view(engine, actor=actor, now=now)
    if not view.deadline_passed:
        raise TournamentError(_("Check-in is still open: a booked seat is given away only "
                                "after the check-in deadline."))
    offer = view.offers.loc[(view.offers["player_id"] == int(player_id))
                            & (view.offers["replacement_id"] == int(replacement_id))]
    if offer.empty:
        raise TournamentError(_("That seat is no longer offered to that player (the check-in "
                                "changed): look at the offers again."))
    store.replace_booking(engine, view.plan.number, int(player_id), int(replacement_id),
                          actor=actor)
    return view.plan.number


# -- self check-in ------------------------------------------------------------------------------
@dataclass(frozen=True)
class RoomCode:
    """The room's code while self check-in is open: `code`, for qualifier `number`, until
    `deadline` (UTC; None: until the organizer closes it)."""

    code: str
    number: int
    deadline: dt.datetime | None


def next_plan(snap: Snapshot) -> sitting_plan.SittingPlan:
    """R25: the plan of the qualifier checked in for now (pages share it per data version)."""
    return sitting_plan.plan_of(snap, sitting_plan.next_qualifier(snap))


def open_plan(engine, now: dt.datetime | None = None,
              plan: sitting_plan.SittingPlan | None = None) -> sitting_plan.SittingPlan | None:
    """The next qualifier's plan (`plan`, else read now) while self check-in for it is open
    (R25), else None."""
    now = now or _now()
    if plan is None:
        with Snapshot(engine, actor=None) as snap:
            plan = next_plan(snap)
    return plan if plan.window_open(now) else None


def room_code(engine, *, actor: Actor | None, now: dt.datetime | None = None,
              plan: sitting_plan.SittingPlan | None = None) -> RoomCode | None:
    """R25: the room's check-in code to show on the TV and the staff's Home while self
    check-in is open (`plan`: the next qualifier's, if the page has it); None otherwise. The
    TV is in the room (anyone there may read it)."""
    now = now or _now()
    plan = open_plan(engine, now, plan)
    if plan is None:
        return None
    return RoomCode(store.room_code(engine, now), plan.number, plan.deadline)


def self_check_in(engine, player_id: int, code: str, *, client: str,
                  now: dt.datetime | None = None) -> str:
    """R25: a player checks in on My seat with the room's code: refused (a `TournamentError`
    that says why) outside the check-in window, for a wrong code (counted against this
    address and the installation, `store.self_check_in`) and while wrong codes make it wait.
    Returns the words to show."""
    plan = open_plan(engine, now)
    if plan is None:
        raise TournamentError(_("Check-in on this page is closed now: check in with the "
                                "organizer."))
    if not store.self_check_in(engine, int(player_id), str(code or ""), client=client):
        raise TournamentError(_("That code is not right: type the code shown on the TV."))
    return _("You are checked in for Qualifier {number}.").format(number=plan.number)


def open_self_check_in(engine, opened: bool, *, actor: Actor) -> bool:
    """R25: the organizer opens (or closes) check-in on My seat for a qualifier without a
    planned start; closing it counts as its check-in deadline. Logged as a settings change."""
    store.set_settings(engine, {"self_check_in_open": bool(opened)}, actor=actor)
    return bool(opened)


def undo_self_check_in(engine, player_id: int, *, actor: Actor) -> bool:
    """R25: the organizer undoes a player's own check-in (logged)."""
    return store.undo_self_check_in(engine, int(player_id), actor=actor)


# -- My seat ------------------------------------------------------------------------------------
def my_bookings(engine, player_id: int, *, now: dt.datetime | None = None) -> list[str]:
    """R25: a player's bookings in words, for My seat: "You are booked for Qualifier 3
    (Saturday 14:00); check in by 13:50" (times in the tournament's zone; without a planned
    start just "You are booked for Qualifier 3"), for the qualifiers not yet drawn and the
    one being drawn; between sittings, with the player's place on the next one's waiting
    list when they would wait (once drawn, My seat shows the sitting's own waiting list)."""
    with Snapshot(engine, actor=None) as snap:
        return bookings_of(snap, player_id, now=now)


def bookings_of(snap: Snapshot, player_id: int, *, now: dt.datetime | None = None) -> list[str]:
    """`my_bookings` from a snapshot (the pages' shared one): English, from the templates
    `BOOKED_WITH_START`, `BOOKED` and `WAITING_PLACE` (a page shows them with `i18n.cell`)."""
    now = now or _now()
    next_number = sitting_plan.next_qualifier(snap)
    mine = snap.bookings.loc[(snap.bookings["player_id"] == int(player_id))
                             & (snap.bookings["sitting_number"] >= next_number)]
    tz = snap.settings.zone
    lines = []
    for number in mine["sitting_number"].astype(int):
        plan = sitting_plan.plan_of(snap, number)
        if plan.starts_at is not None and plan.deadline is not None:
            start = local_time.local(plan.starts_at, tz)
            lines.append(BOOKED_WITH_START.format(
                number=number, weekday=local_time.WEEKDAYS[start.weekday()],
                time=local_time.clock_words(plan.starts_at, tz),
                deadline=local_time.clock_words(plan.deadline, tz)))
        else:
            lines.append(BOOKED.format(number=number))
    players = snap.players
    present = players.loc[(players["status"] == PlayerStatus.ACTIVE)
                          & players["checked_in"], "player_id"]
    current = snap.current()
    between = current is None or current["status"] == SittingStatus.COMPLETE
    if between and int(player_id) in set(present):  # a drawn sitting says it itself
        queue = next_queue(snap, present, now=now).set_index("player_id")
        waits = queue.loc[int(player_id), "waiting"]
        if not pd.isna(waits):
            lines.append(WAITING_PLACE.format(position=int(waits), number=next_number))
    return lines
