"""Draws: the table plan (R1), qualifier draws (R1, R3, R6, R9) within the sitting's capacity
(R21), the draw report (R3, R6), a sitting's rule change (R24), publishing a draw (R20) and
discarding one."""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from stsa import draw, fairness, rules, store
from stsa.auth import Actor, require
from stsa.domain import PLAYED, DrawMode, Kind, Role, SittingStatus, TournamentError
from stsa.i18n import N_, _, ngettext
from stsa.services import finals, setups
from stsa.services.capacity import next_queue
from stsa.services.sittings import unfinished_warning
from stsa.services.snapshot import Snapshot

LONG_PLAN = 12  # a plan of more tables than this is said in counts


def new_seed() -> int:
    """A fresh seed for a draw (R3): 9 digits, easy to read aloud and type back in."""
    return draw.new_seed()


@dataclass(frozen=True)
class TablePlan:
    """R1 for the players to seat: the table sizes (none when they cannot be seated), the
    tables in words ("2 tables (4 + 3)") and the whole plan, or why it cannot be drawn."""

    sizes: tuple[int, ...]
    tables: str
    text: str

    @property
    def ok(self) -> bool:
        return bool(self.sizes)


def table_plan(n_players: int, *, sit_out: bool = False) -> TablePlan:
    """R1 for `n_players`, one of them sitting out with `sit_out` (5 players only)."""
    if n_players == 5 and sit_out:
        return TablePlan((4,), _("1 table of 4"),
                         _("5 players: 1 table of 4; the draw picks 1 player to sit this "
                           "sitting out."))
    try:
        sizes = rules.table_sizes(n_players)
    except TournamentError as exc:
        return TablePlan((), "", str(exc))
    count = len(sizes)
    if count > LONG_PLAN:
        tables = ngettext("{count} table, {fours} of 4 players and {threes} of 3",
                          "{count} tables, {fours} of 4 players and {threes} of 3",
                          count).format(count=count, fours=sizes.count(4),
                                        threes=sizes.count(3))
    else:
        tables = ngettext("{count} table ({sizes})", "{count} tables ({sizes})", count).format(
            count=count, sizes=" + ".join(map(str, sizes)))
    return TablePlan(tuple(sizes), tables,
                     ngettext("{count} player: {tables}.", "{count} players: {tables}.",
                              n_players).format(count=n_players, tables=tables))


def pin_problem(pins: dict[int, int], names: dict, n_tables: int) -> str | None:
    """Why these pins (player_id → table_no) cannot be drawn with `n_tables` tables (a table
    number too high), or None; the draw itself refuses a table with more pins than seats."""
    for pid, table_no in pins.items():
        if table_no > n_tables:
            return ngettext("{player} keeps table {table}, but this sitting has {count} table: "
                            "choose a table from 1 to {count}.",
                            "{player} keeps table {table}, but this sitting has {count} tables: "
                            "choose a table from 1 to {count}.", n_tables).format(
                player=names[pid], table=table_no, count=n_tables)
    return None


def draw_qualifier(engine, player_ids, *, seed: int, sit_out: bool = False,
                   pins: dict | None = None, confirm: bool = False, extra_tables: int = 0,
                   actor: Actor) -> store.SittingRow:
    """R1, R3, R6, R9, R21: draw the next qualifier sitting for `player_ids` and save it
    unpublished.

    R21: when more players are given than the capacity setting seats, seats go by
    `queue_of` (pre-registered players in registration order, then drop-ins in check-in
    order; R25: with a booking list for this qualifier, booked players in booking order),
    plus `extra_tables` tables of exactly four from the front of the waiting list;
    the draw seats only the players who play and the store keeps the others' waiting list.
    Redrawing before publishing replaces the unpublished draw (the store logs both). The setup
    balance counts every earlier published qualifier sitting. The draw mode setting chooses a
    plain random or a balanced draw (against the earlier published qualifier seats); `pins`
    maps player_id to the table_no that player keeps (a waiting player keeps none). While a
    published sitting still waits for results (`unfinished_warning`), nothing is drawn unless
    `confirm` is given.
    """
    require(actor, Role.ORGANIZER, action=N_("save draws"))
    with Snapshot(engine) as snap:
        warning = unfinished_warning(snap.sittings)
        if warning and not confirm:
            raise TournamentError(_("{warning} Confirm that you want to draw the next "
                                    "qualifier anyway. Nothing was drawn.").format(
                                        warning=warning))
        settings = snap.settings
        queue = next_queue(snap, player_ids, extra_tables)  # R25: the sitting's bookings
        waits = queue.loc[~queue["plays"]]
        pinned = waits.loc[waits["player_id"].isin(list(pins or {}))]
        if len(pinned):
            raise TournamentError(_("Nothing was drawn: {players} cannot keep a table while "
                                    "on the waiting list.").format(
                                        players=", ".join(pinned["name"])))
        playing = set(queue.loc[queue["plays"], "player_id"])
        mode = settings.draw_mode
        pool = setups.from_settings(settings, Kind.QUALIFIER)  # R23: the qualifiers' setups
        drawn = draw.draw_sitting([int(p) for p in player_ids if int(p) in playing], pool,
                                  seed=seed,
                                  setup_counts=snap.setup_counts(),
                                  colours=settings.colours, sit_out=sit_out, mode=mode,
                                  history=history(snap) if mode == DrawMode.BALANCED else None,
                                  pins=pins)
        return store.save_draw(engine, drawn, kind=Kind.QUALIFIER, actor=actor,
                               waiting=waits["player_id"].tolist())


def history(snap: Snapshot, before: int | None = None) -> pd.DataFrame:
    """The seats of the published and complete qualifier sittings (only those drawn before
    sitting `before`, when given): `sitting_id, table_no, seat, player_id, setup_id`.

    A complete sitting has a result row for every seat (with its table's setup), so its seats
    come from the results, which the standings read anyway; a sitting still being played is
    read seat by seat."""
    sittings = snap.sittings
    done = sittings.loc[(sittings["kind"] == Kind.QUALIFIER) & sittings["status"].isin(PLAYED)]
    if before is not None:
        done = done.loc[done["sitting_id"] < before]
    if done.empty:
        return fairness.empty_history()
    columns = list(fairness.HISTORY_COLUMNS)
    complete = done.loc[done["status"] == SittingStatus.COMPLETE, "sitting_id"]
    played = snap.results_of(Kind.QUALIFIER)
    parts = [played.loc[played["sitting_id"].isin(complete), columns]]
    for sitting_id in done.loc[done["status"] != SittingStatus.COMPLETE, "sitting_id"]:
        seats = snap.sitting_seats(int(sitting_id))
        tables = snap.sitting_tables(int(sitting_id))[["table_id", "setup_id"]]
        parts.append(seats.merge(tables, on="table_id", how="left")[columns])
    rows = pd.concat(parts, ignore_index=True) if len(parts) > 1 else parts[0]
    return rows.sort_values(["sitting_id", "table_no", "seat"]).reset_index(drop=True)


def draw_report(engine, sitting_id: int) -> fairness.DrawReport:
    """A sitting's fairness checklist against the qualifier sittings drawn before it (R3, R6):
    repeat meetings, seats a player had most often or twice, setups played again; each frame
    with the players' names (`name`, or `name_a`, `name_b`). For judges and the organizer."""
    with Snapshot(engine) as snap:
        return report_of(snap, sitting_id)


def report_of(snap: Snapshot, sitting_id: int) -> fairness.DrawReport:
    """`draw_report` from the frames of `snap` (the system's view: it reads drafts)."""
    sitting_id = int(sitting_id)
    seats = snap.sitting_seats(sitting_id)
    report = fairness.draw_report(seats, snap.sitting_tables(sitting_id),
                                  history(snap, before=sitting_id))
    names = dict(zip(seats["player_id"], seats["name"]))
    return fairness.DrawReport(
        repeats=report.repeats.assign(name_a=report.repeats["player_a"].map(names),
                                      name_b=report.repeats["player_b"].map(names)),
        seats=report.seats.assign(name=report.seats["player_id"].map(names)),
        setups=report.setups.assign(name=report.setups["player_id"].map(names)))


def publish(engine, sitting_id: int, *, actor: Actor) -> store.SittingRow:
    """Publish a drawn sitting (R20): spectators see it and judges can enter its results. A
    semifinal or final is refused when it no longer seats who plays (an absence or a result
    changed since it was drawn, R16, R17): it must be drawn again."""
    require(actor, Role.ORGANIZER, action=N_("publish sittings"))
    with Snapshot(engine) as snap:
        sitting = snap.sitting(sitting_id)
        if sitting["kind"] != Kind.QUALIFIER and sitting["status"] == SittingStatus.DRAWN:
            problem = finals.publish_problem(snap, sitting)
            if problem:
                raise store.InvalidState(_("{problem} Nothing was published.").format(
                    problem=problem))
        return store.publish_sitting(engine, int(sitting_id), actor=actor)


def set_rule_change(engine, sitting_id: int, name: str, points: str, *,
                    actor: Actor) -> store.SittingRow:
    """R24: a sitting's rule change (its name, and how its extra points are earned; both empty
    for none), set by the organizer before the sitting is published; refused after, with
    nothing changed. Logged (R19). Returns the sitting."""
    return store.set_rule_change(engine, int(sitting_id), name, points, actor=actor)


def discard(engine, sitting_id: int, *, actor: Actor) -> store.SittingRow:
    """Delete an unpublished draw (organizer); it stays in the log (R19)."""
    return store.discard_draw(engine, int(sitting_id), actor=actor)
