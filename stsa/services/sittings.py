"""Sittings: the table plan (R1), qualifier draws (R1, R3, R6, R9) within the sitting's
capacity (R21), the draw report, hand-set setups (R6), a sitting's rule change (R24),
publishing (R20), corrections after publishing (voiding a sitting, replacing a no-show), the
current sitting, a sitting's seats as shown, and the waiting list (R21)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import numpy as np
import pandas as pd

from stsa import draw, fairness, rules, store
from stsa.auth import Actor, Role, require
from stsa.domain import Kind, PlayerStatus, SittingStatus, plural, sitting_label
from stsa.errors import TournamentError
from stsa.services import finals, roster, setups
from stsa.services.snapshot import Snapshot

DONE = (SittingStatus.PUBLISHED, SittingStatus.COMPLETE)
LONG_PLAN = 12  # a plan of more tables than this is said in counts


# --- the table plan (R1) ----------------------------------------------------------------------

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
        return TablePlan((4,), "1 table of 4",
                         "5 players: 1 table of 4; the draw picks 1 player to sit this "
                         "sitting out.")
    try:
        sizes = rules.table_sizes(n_players)
    except TournamentError as exc:
        return TablePlan((), "", str(exc))
    tables = plural(len(sizes), "table")
    if len(sizes) > LONG_PLAN:
        tables += f", {sizes.count(4)} of 4 players and {sizes.count(3)} of 3"
    else:
        tables += f" ({' + '.join(map(str, sizes))})"
    return TablePlan(tuple(sizes), tables, f"{plural(n_players, 'player')}: {tables}.")


def pin_problem(pins: dict[int, int], names: dict, n_tables: int) -> str | None:
    """Why these pins (player_id → table_no) cannot be drawn with `n_tables` tables (a table
    number too high), or None; the draw itself refuses a table with more pins than seats."""
    for pid, table_no in pins.items():
        if table_no > n_tables:
            return (f"{names[pid]} keeps table {table_no}, but this sitting has "
                    f"{plural(n_tables, 'table')}: choose a table from 1 to {n_tables}.")
    return None


# --- draws ------------------------------------------------------------------------------------

def draw_qualifier(engine, player_ids, *, seed: int, sit_out: bool = False,
                   pins: dict | None = None, confirm: bool = False, extra_tables: int = 0,
                   actor: Actor) -> dict:
    """R1, R3, R6, R9, R21: draw the next qualifier sitting for `player_ids` and save it
    unpublished.

    R21: when more players are given than the capacity setting seats, seats go by
    `queue_of` (pre-registered players in registration order, then drop-ins in check-in
    order), plus `extra_tables` tables of exactly four from the front of the waiting list;
    the draw seats only the players who play and the store keeps the others' waiting list.
    Redrawing before publishing replaces the unpublished draw (the store logs both). The setup
    balance counts every earlier published qualifier sitting. The draw mode setting chooses a
    plain random or a balanced draw (against the earlier published qualifier seats); `pins`
    maps player_id to the table_no that player keeps (a waiting player keeps none). While a
    published sitting still waits for results (`unfinished_warning`), nothing is drawn unless
    `confirm` is given.
    """
    require(actor, Role.ORGANIZER, action="save draws")
    with Snapshot(engine) as snap:
        warning = unfinished_warning(snap.sittings)
        if warning and not confirm:
            raise TournamentError(f"{warning} Confirm that you want to draw the next qualifier "
                                  f"anyway. Nothing was drawn.")
        settings = snap.settings
        queue = queue_of(snap.players, player_ids, settings, extra_tables)
        waits = queue.loc[~queue["plays"]]
        pinned = waits.loc[waits["player_id"].isin(list(pins or {}))]
        if len(pinned):
            raise TournamentError(f"Nothing was drawn: {', '.join(pinned['name'])} cannot keep "
                                  f"a table while on the waiting list.")
        playing = set(queue.loc[queue["plays"], "player_id"])
        mode = settings.get("draw_mode") or "random"
        pool = setups.from_settings(settings, Kind.QUALIFIER)  # R23: the qualifiers' setups
        drawn = draw.draw_sitting([int(p) for p in player_ids if int(p) in playing], pool,
                                  seed=seed,
                                  setup_counts=snap.setup_counts(),
                                  colours=settings.get("colours"), sit_out=sit_out, mode=mode,
                                  history=history(snap) if mode == "balanced" else None,
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
    done = sittings.loc[(sittings["kind"] == Kind.QUALIFIER) & sittings["status"].isin(DONE)]
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


def publish(engine, sitting_id: int, *, actor: Actor) -> dict:
    """Publish a drawn sitting (R20): spectators see it and judges can enter its results. A
    semifinal or final is refused when it no longer seats who plays (an absence or a result
    changed since it was drawn, R16, R17): it must be drawn again."""
    require(actor, Role.ORGANIZER, action="publish sittings")
    with Snapshot(engine) as snap:
        sitting = snap.sitting(sitting_id)
        if sitting["kind"] != Kind.QUALIFIER and sitting["status"] == SittingStatus.DRAWN:
            problem = finals.publish_problem(snap, sitting)
            if problem:
                raise store.InvalidState(f"{problem} Nothing was published.")
        return store.publish_sitting(engine, int(sitting_id), actor=actor)


def set_rule_change(engine, sitting_id: int, name: str, points: str, *, actor: Actor) -> dict:
    """R24: a sitting's rule change (its name, and how its extra points are earned; both empty
    for none), set by the organizer before the sitting is published; refused after, with
    nothing changed. Logged (R19). Returns the sitting."""
    return store.set_rule_change(engine, int(sitting_id), name, points, actor=actor)


def discard(engine, sitting_id: int, *, actor: Actor) -> dict:
    """Delete an unpublished draw (organizer); it stays in the log (R19)."""
    return store.discard_draw(engine, int(sitting_id), actor=actor)


# --- unfinished sittings, and corrections after publishing (R1, R6, R19, R20) -----------------

def unfinished_warning(sittings: pd.DataFrame) -> str | None:
    """What is still being played: the published sittings with tables waiting for a result, in
    words ("Qualifier 2 is still being played: 3 of 4 tables have no result yet."), or None.
    A new draw needs a confirmation while there is any."""
    open_ = sittings.loc[sittings["status"] == SittingStatus.PUBLISHED]
    if open_.empty:
        return None
    return " ".join(
        f"{sitting_label(kind, number)} is still being played: {missing} of "
        f"{plural(tables, 'table')} {'has' if missing == 1 else 'have'} no result yet."
        for kind, number, tables, missing in zip(
            open_["kind"], open_["number"], open_["tables"], open_["tables"] - open_["results"]))


def void_problem(sittings: pd.DataFrame, sitting_id: int) -> str | None:
    """Why sitting `sitting_id` of `sittings` (the staff's view) cannot be voided, or None:
    only a published sitting without any result, with no sitting drawn after it (the store
    checks the same when voiding)."""
    row = sittings.loc[sittings["sitting_id"] == int(sitting_id)].iloc[0]
    label = sitting_label(row["kind"], row["number"])
    if row["status"] == SittingStatus.DRAWN:
        return f"{label} is not published yet: discard the draft instead."
    if row["results"]:
        return (f"{label} cannot be voided: {plural(int(row['results']), 'table')} already "
                f"{'has' if row['results'] == 1 else 'have'} a result. Correct a wrong result "
                f"on the Results page instead.")
    later = sittings.loc[sittings["sitting_id"] > int(sitting_id)]
    if len(later):
        last = later.sort_values("sitting_id").iloc[-1]
        return (f"{sitting_label(last['kind'], last['number'])} was drawn after {label}: "
                f"discard or void it first.")
    return None


def void(engine, sitting_id: int, *, reason: str = "", actor: Actor) -> dict:
    """Void a published sitting without results (organizer): spectators no longer see it, its
    setups stop counting for R6, the next draw takes its number, and the log keeps its seed
    and seating (R3, R19). Refused once a table has a result (`store.void_sitting`)."""
    return store.void_sitting(engine, int(sitting_id), reason=reason, actor=actor)


def replacement_candidates(players: pd.DataFrame, seats: pd.DataFrame) -> pd.DataFrame:
    """Who may take a no-show's seat (R20, the organizer's view of `players`): active,
    checked-in players without a seat in the sitting of `seats` (those sitting out or waiting
    included), by name."""
    present = ((players["status"] == PlayerStatus.ACTIVE) & players["checked_in"]
               & ~players["player_id"].isin(seats["player_id"]))
    return players.loc[present].sort_values("name", key=lambda n: n.str.casefold())


def replace_no_show(engine, table_id: int, seat: int, player_id: int | None, *,
                    reason: str = "", actor: Actor) -> dict:
    """R1, R3, R9: the player at `seat` of a qualifier table did not come. With `player_id`,
    that present player takes the seat, keeping its number, colour and pick order; with None
    the seat is left empty, which turns a table of four into a table of three (a table of
    three cannot lose a player). Organizer only, refused once the table has a result; every
    rule is checked by the store (`store.replace_player`, `store.leave_seat_empty`)."""
    if player_id is None:
        return store.leave_seat_empty(engine, int(table_id), int(seat), reason=reason,
                                      actor=actor)
    return store.replace_player(engine, int(table_id), int(seat), int(player_id),
                                reason=reason, actor=actor)


# --- hand-set setups (R6) ---------------------------------------------------------------------

def _table(snap: Snapshot, table_id: int) -> pd.Series:
    found = snap.table(table_id)
    if found.empty:
        raise TournamentError(f"There is no table with id {table_id}.")
    return found.iloc[0]


def override_warnings(engine, table_id: int, setup_id: str) -> list[str]:
    """R6: which setup rule a hand-set setup for `table_id` would break (empty if none).

    Within one sitting no two tables share a setup while there are enough enabled setups; across
    the qualifier sittings the uses of the enabled setups never differ by more than one.
    """
    with Snapshot(engine) as snap:
        table = _table(snap, table_id)
        sitting_tables = snap.sitting_tables(int(table["sitting_id"]))
        others = sitting_tables.loc[sitting_tables["table_id"] != int(table_id), "setup_id"]
        enabled = setups.from_settings(snap.settings, table["kind"])["setup_id"].tolist()
        names = setups.setup_names()
        warnings = []
        if setup_id in set(others) and len(enabled) >= len(sitting_tables):
            warnings.append(f"Another table of this sitting already plays {names.get(setup_id)}, "
                            f"and there are enough enabled setups for every table to differ.")
        if table["kind"] == Kind.QUALIFIER:
            counts = pd.Series(snap.setup_counts(include_drawn=True), dtype="int64")
            counts = counts.reindex(enabled, fill_value=0)
            if table["setup_id"] in counts.index:
                counts[table["setup_id"]] -= 1
            if setup_id in counts.index:
                counts[setup_id] += 1
            if len(counts) and counts.max() - counts.min() > 1:
                warnings.append(f"Setup uses would then range from {counts.min()} to "
                                f"{counts.max()}: more than one apart.")
            if setup_id not in enabled:
                warnings.append(f"{names.get(setup_id, setup_id)} is not an enabled setup.")
        return warnings


def override_setup(engine, table_id: int, setup_id: str, *, reason: str, actor: Actor,
                   seed: int | None = None) -> dict:
    """R6, R7, R9: set a table's setup by hand (an enabled setup, with a reason; logged).
    Organizer only: a setup is part of the draw (R20).

    When the new setup's leader deck or hidden picks differ from the old one's, its hidden
    picks are drawn afresh (from `seed`, a fresh one if None), so that the removed and
    available leaders the judges see belong to the setup being played.
    """
    require(actor, Role.ORGANIZER, action="change a table's setup")
    with Snapshot(engine) as snap:
        old = _table(snap, table_id)
        enabled = setups.from_settings(snap.settings, old["kind"])
        chosen = enabled.loc[enabled["setup_id"] == setup_id]
        name = setups.setup_names().get(setup_id, setup_id)
        if chosen.empty:
            raise TournamentError(f"{name} is not an enabled setup: enable it in Settings first.")
        if setup_id == old["setup_id"]:
            raise TournamentError(f"Table {old['table_no']} already plays {name}.")
        new = chosen.iloc[0]
        old_deck = sorted([*old["removed_leaders"], *old["available_leaders"]])
        if old_deck == sorted(new["leader_deck"]) and len(old["removed_leaders"]) == new[
                "hidden_picks"]:
            return store.override_setup(engine, table_id, setup_id, reason=reason, actor=actor)
        players = snap.table_seats(table_id)["player_id"].tolist()
        drawn = draw.draw_groups([players], chosen, seed=draw.new_seed() if seed is None else seed)
        picks = drawn.tables.iloc[0]
        return store.override_setup(engine, table_id, setup_id, reason=reason, actor=actor,
                                    available_leaders=list(picks["available_leaders"]),
                                    removed_leaders=list(picks["removed_leaders"]))


# --- what the pages show ----------------------------------------------------------------------

def current(sittings: pd.DataFrame) -> dict | None:
    """The sitting being played or about to be: the latest not yet complete, else the latest."""
    if sittings.empty:
        return None
    open_ = sittings.loc[sittings["status"] != SittingStatus.COMPLETE]
    return (open_ if not open_.empty else sittings).iloc[-1].to_dict()


def current_sitting(engine, *, actor: Actor | None = None) -> dict | None:
    """`current` of the sittings `actor` may see (R20)."""
    return current(store.sittings(engine, actor=actor))


def sitting_overview(engine, sitting_id: int, *, actor: Actor | None = None) -> pd.DataFrame:
    """R3, R9, R20: one row per seat of a sitting with table, setup name, colour, pick order,
    and whether the table has reported; removed leaders only for judges and the organizer."""
    with Snapshot(engine, actor=actor) as snap:
        return overview_of(snap, sitting_id)


def overview_of(snap: Snapshot, sitting_id: int) -> pd.DataFrame:
    """`sitting_overview` from the frames of `snap` (as its actor may see them)."""
    names = setups.setup_names()
    return snap.sitting_seats(sitting_id).merge(
        snap.sitting_tables(sitting_id)[["table_id", "setup_id", "version", "removed_leaders",
                                         "available_leaders"]],
        on="table_id", how="left",
    ).assign(setup=lambda d: d["setup_id"].map(names), reported=lambda d: d["version"] > 0)


def tables_with_player(overview: pd.DataFrame, query: str) -> pd.DataFrame:
    """The seats of every table where a player's name or nickname (R22) contains `query`
    (any case)."""
    hit = roster.name_matches(overview["name"], query) | roster.name_matches(
        overview["nickname"], query)
    return overview.loc[overview["table_id"].isin(overview.loc[hit, "table_id"])]


# --- capacity and the waiting list (R21) ------------------------------------------------------

def queue_of(players: pd.DataFrame, player_ids, settings: dict,
             extra_tables: int = 0) -> pd.DataFrame:
    """R21 for the players `player_ids` of the roster frame `players`: `rules.seat_queue`
    under the capacity setting (`player_id, registration_order, checked_in_at, queue, plays,
    waiting`), with `name` and `reason`, why each player plays or waits in words: "pre-registered,
    number 12 in registration order", "dropped in at 10:42", and for those who wait "over the
    16-seat limit". A player named twice or not on the roster is refused."""
    ids = [int(p) for p in player_ids]
    if len(set(ids)) != len(ids):
        raise TournamentError("A player is named twice among the players to seat.")
    chosen = players.loc[players["player_id"].isin(ids)]
    unknown = sorted(set(ids) - set(chosen["player_id"].astype(int)))
    if unknown:
        raise store.NotFound(f"No player with id {', '.join(map(str, unknown))}.")
    capacity = int(settings["capacity"])
    queue = rules.seat_queue(chosen, capacity, extra_tables)
    names = dict(zip(players["player_id"], players["name"]))
    return queue.assign(name=queue["player_id"].map(names),
                        reason=queue_reasons(queue, capacity, extra_tables))


def queue_reasons(queue: pd.DataFrame, capacity: int, extra_tables: int = 0) -> pd.Series:
    """Why each player of a `rules.seat_queue` frame plays or waits, in words (R21); check-in
    times in this computer's time zone."""
    times = queue["checked_in_at"].dt.tz_convert(_local_zone()).dt.strftime("%H:%M")
    order = queue["registration_order"].astype("string")
    base = pd.Series(np.select(
        [queue["registration_order"].notna(), queue["checked_in_at"].notna()],
        ["pre-registered, number " + order.fillna("") + " in registration order",
         "dropped in at " + times.fillna("")],
        "seated by hand, not checked in"), index=queue.index, dtype="str")
    limit = f"over the {capacity}-seat limit"
    if extra_tables:
        limit += f" and {plural(extra_tables, 'extra table')}"
    return base.where(queue["plays"], base + "; " + limit)


def _local_zone():
    return dt.datetime.now().astimezone().tzinfo


def seat_queue(engine, player_ids, *, extra_tables: int = 0) -> pd.DataFrame:
    """R21: `queue_of` the roster and settings as they are now: who plays the next qualifier
    and who waits, in queue order, with the reasons."""
    with Snapshot(engine) as snap:
        return queue_of(snap.players, player_ids, snap.settings, extra_tables)


def waiting_list(engine, *, actor: Actor | None = None) -> pd.DataFrame:
    """R21: the waiting list now, `player_id, position, reason` (position 1 = next in line).

    While a qualifier sitting that `actor` may see (R20) is drawn or being played, its stored
    waiting list; before the next qualifier (none yet, or the latest complete), the live queue
    of the players checked in; once the semifinal or final is drawn, nobody waits."""
    with Snapshot(engine, actor=actor) as snap:
        sitting = current(snap.sittings)
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
            seated = len(snap.sitting_seats(int(sitting["sitting_id"])))
            extra = max(seated - capacity, 0) // 4
            return queue.assign(reason=queue_reasons(queue, capacity, extra))[
                ["player_id", "position", "reason"]]
        players = snap.players
        present = players.loc[(players["status"] == PlayerStatus.ACTIVE)
                              & players["checked_in"], "player_id"]
        queue = queue_of(players, present, settings)
        waiting = queue.loc[~queue["plays"]]
        return (waiting.assign(position=waiting["waiting"].astype("int64"))
                [["player_id", "position", "reason"]].reset_index(drop=True))


def _no_one_waits() -> pd.DataFrame:
    return pd.DataFrame({"player_id": pd.Series(dtype="int64"),
                         "position": pd.Series(dtype="int64"),
                         "reason": pd.Series(dtype="str")})
