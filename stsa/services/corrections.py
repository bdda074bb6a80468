"""Corrections after a sitting is published (R1, R3, R6, R9, R19, R20): voiding a sitting
without results, a no-show's seat taken by a present player or left empty, and a table's setup
set by hand."""

from __future__ import annotations

import pandas as pd

from stsa import draw, store
from stsa.auth import Actor, require
from stsa.domain import (
    Kind,
    PlayerStatus,
    Role,
    SittingStatus,
    TournamentError,
    sitting_label,
)
from stsa.i18n import N_, _, ngettext
from stsa.services import setups
from stsa.services.snapshot import Snapshot


def void_problem(sittings: pd.DataFrame, sitting_id: int) -> str | None:
    """Why sitting `sitting_id` of `sittings` (the staff's view) cannot be voided, or None:
    only a published sitting without any result, with no sitting drawn after it (the store
    checks the same when voiding)."""
    row = sittings.loc[sittings["sitting_id"] == int(sitting_id)].iloc[0]
    label = sitting_label(row["kind"], row["number"])
    if row["status"] == SittingStatus.DRAWN:
        return _("{sitting} is not published yet: discard the draft instead.").format(
            sitting=label)
    if row["results"]:
        n = int(row["results"])
        return ngettext("{sitting} cannot be voided: {count} table already has a result. "
                        "Correct a wrong result on the Results page instead.",
                        "{sitting} cannot be voided: {count} tables already have a result. "
                        "Correct a wrong result on the Results page instead.", n).format(
                            sitting=label, count=n)
    later = sittings.loc[sittings["sitting_id"] > int(sitting_id)]
    if len(later):
        last = later.sort_values("sitting_id").iloc[-1]
        return _("{later} was drawn after {sitting}: discard or void it first.").format(
            later=sitting_label(last["kind"], last["number"]), sitting=label)
    return None


def void(engine, sitting_id: int, *, reason: str = "",
         actor: Actor) -> store.SittingRow:
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


def _table(snap: Snapshot, table_id: int) -> pd.Series:
    found = snap.table(table_id)
    if found.empty:
        raise TournamentError(_("There is no table with id {id}.").format(id=table_id))
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
            warnings.append(_("Another table of this sitting already plays {setup}, and there "
                              "are enough enabled setups for every table to differ.").format(
                                  setup=names.get(setup_id)))
        if table["kind"] == Kind.QUALIFIER:
            counts = pd.Series(snap.setup_counts(include_drawn=True), dtype="int64")
            counts = counts.reindex(enabled, fill_value=0)
            if table["setup_id"] in counts.index:
                counts[table["setup_id"]] -= 1
            if setup_id in counts.index:
                counts[setup_id] += 1
            if len(counts) and counts.max() - counts.min() > 1:
                warnings.append(_("Setup uses would then range from {lowest} to {highest}: "
                                  "more than one apart.").format(lowest=counts.min(),
                                                                 highest=counts.max()))
            if setup_id not in enabled:
                warnings.append(_("{setup} is not an enabled setup.").format(
                    setup=names.get(setup_id, setup_id)))
        return warnings


def override_setup(engine, table_id: int, setup_id: str, *, reason: str, actor: Actor,
                   seed: int | None = None) -> dict:
    """R6, R7, R9: set a table's setup by hand (an enabled setup, with a reason; logged).
    Organizer only: a setup is part of the draw (R20).

    When the new setup's leader deck or hidden picks differ from the old one's, its hidden
    picks are drawn afresh (from `seed`, a fresh one if None), so that the removed and
    available leaders the judges see belong to the setup being played.
    """
    require(actor, Role.ORGANIZER, action=N_("change a table's setup"))
    with Snapshot(engine) as snap:
        old = _table(snap, table_id)
        enabled = setups.from_settings(snap.settings, old["kind"])
        chosen = enabled.loc[enabled["setup_id"] == setup_id]
        name = setups.setup_names().get(setup_id, setup_id)
        if chosen.empty:
            raise TournamentError(_("{setup} is not an enabled setup: enable it in Settings "
                                    "first.").format(setup=name))
        if setup_id == old["setup_id"]:
            raise TournamentError(_("Table {table} already plays {setup}.").format(
                table=old["table_no"], setup=name))
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
