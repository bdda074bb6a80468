"""The tournament service: what the pages ask for, composed from the store, the rules and the draw.

`stsa.rules` and `stsa.draw` are pure; `stsa.store` keeps the data. This module is the manager
between them (like a draw manager in other tournament software): it reads what a ruling needs
from the store, runs the pure function, and writes the outcome back through the store. Pages
call these functions and only render what comes back. Every write takes the acting person
(`actor`), whose role the store checks (R20).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from stsa import catalog, draw, fairness, rules, store
from stsa.auth import Actor, Role, require
from stsa.errors import TournamentError

STAGE_LABELS = {"final": "Final", "semifinal": "Semifinal", "out": ""}


# --- setups ---------------------------------------------------------------------------------

def enabled_setups(engine) -> pd.DataFrame:
    """R5, R7, R9: the setups this tournament draws from, with its settings applied.

    The enabled base setups (all of the catalog when none are chosen), their Battle of Wills
    versions when that is on, each setup's hidden picks from the per-base-game setting and its
    leader deck from the organizer's decks where given.
    """
    settings = store.settings(engine)
    frame = catalog.setups()
    chosen = settings.get("enabled_setups")
    if chosen:
        unknown = sorted(set(chosen) - set(frame["setup_id"]))
        if unknown:
            raise TournamentError(f"Enabled setups not in the catalog: {', '.join(unknown)}.")
        frame = frame.loc[frame["setup_id"].isin(chosen)]
    if settings.get("battle_of_wills"):
        frame = catalog.with_battle_of_wills(frame)
    picks = settings.get("hidden_picks") or {}
    decks = settings.get("leader_decks") or {}
    return frame.assign(
        hidden_picks=frame["base_game"].map(picks).fillna(frame["hidden_picks"]).astype("int64"),
        leader_deck=[list(decks.get(s, deck)) for s, deck in
                     zip(frame["setup_id"], frame["leader_deck"])],
    ).reset_index(drop=True)


def setup_names() -> dict[str, str]:
    """setup_id → its name, for every setup of the catalog and its Battle of Wills version."""
    every = catalog.with_battle_of_wills(catalog.setups())
    return dict(zip(every["setup_id"], every["name"]))


def override_warnings(engine, table_id: int, setup_id: str) -> list[str]:
    """R6: which setup rule a hand-set setup for `table_id` would break (empty if none).

    Within one sitting no two tables share a setup while there are enough enabled setups; across
    the qualifier sittings the uses of the enabled setups never differ by more than one.
    """
    table = store.tables(engine, table_id=table_id, actor=_system())
    if table.empty:
        raise TournamentError(f"There is no table with id {table_id}.")
    sitting_id = int(table["sitting_id"].iloc[0])
    sitting_tables = store.tables(engine, sitting_id, actor=_system())
    others = sitting_tables.loc[sitting_tables["table_id"] != table_id, "setup_id"]
    enabled = enabled_setups(engine)["setup_id"].tolist()
    names = setup_names()
    warnings = []
    if setup_id in set(others) and len(enabled) >= len(sitting_tables):
        warnings.append(f"Another table of this sitting already plays {names.get(setup_id)}, "
                        f"and there are enough enabled setups for every table to differ (R6).")
    if table["kind"].iloc[0] == "qualifier":
        counts = pd.Series(store.setup_counts(engine, include_drawn=True), dtype="int64")
        counts = counts.reindex(enabled, fill_value=0)
        old = table["setup_id"].iloc[0]
        if old in counts.index:
            counts[old] -= 1
        if setup_id in counts.index:
            counts[setup_id] += 1
        if len(counts) and counts.max() - counts.min() > 1:
            warnings.append(f"Setup uses would then range from {counts.min()} to "
                            f"{counts.max()}: more than one apart (R6).")
        if setup_id not in enabled:
            warnings.append(f"{names.get(setup_id, setup_id)} is not an enabled setup.")
    return warnings


def override_setup(engine, table_id: int, setup_id: str, *, reason: str, actor: Actor,
                   seed: int | None = None) -> dict:
    """R6, R7, R9: set a table's setup by hand (an enabled setup, with a reason; logged).

    When the new setup's leader deck or hidden picks differ from the old one's, its hidden
    picks are drawn afresh (from `seed`, a fresh one if None), so that the removed and
    available leaders the judges see belong to the setup being played.
    """
    require(actor, Role.ORGANIZER, Role.JUDGE, action="override a table's setup")
    table = store.tables(engine, table_id=table_id, actor=_system())
    if table.empty:
        raise TournamentError(f"There is no table with id {table_id}.")
    old = table.iloc[0]
    setups = enabled_setups(engine)
    chosen = setups.loc[setups["setup_id"] == setup_id]
    name = setup_names().get(setup_id, setup_id)
    if chosen.empty:
        raise TournamentError(f"{name} is not an enabled setup: enable it in Settings first.")
    if setup_id == old["setup_id"]:
        raise TournamentError(f"Table {old['table_no']} already plays {name}.")
    new = chosen.iloc[0]
    old_deck = sorted([*old["removed_leaders"], *old["available_leaders"]])
    if old_deck == sorted(new["leader_deck"]) and len(old["removed_leaders"]) == new[
            "hidden_picks"]:
        return store.override_setup(engine, table_id, setup_id, reason=reason, actor=actor)
    players = store.seats(engine, table_id=table_id, actor=_system())["player_id"].tolist()
    drawn = draw.draw_groups([players], chosen, seed=draw.new_seed() if seed is None else seed)
    picks = drawn.tables.iloc[0]
    return store.override_setup(engine, table_id, setup_id, reason=reason, actor=actor,
                                available_leaders=list(picks["available_leaders"]),
                                removed_leaders=list(picks["removed_leaders"]))


# --- scores and standings ---------------------------------------------------------------------

def scored_results(engine, kind: str | None = "qualifier") -> pd.DataFrame:
    """R11–R13: stored results with `placing`, `qualifier_score`, `tied`, and player names."""
    results = store.results(engine, kind)
    base = tuple(store.settings(engine)["base_points"])
    scored = rules.score_games(results, base_points=base)
    return scored.merge(_names(engine), on="player_id", how="left")


def preview_result(rows: pd.DataFrame, base_points=rules.BASE_POINTS) -> pd.DataFrame:
    """R11, R12 for one table being entered: placings and scores before saving.

    `rows` has the seated players' `player_id, vp, spice, solari, troops, water`, optional
    `variant_points` and `tiebreak`; blanks count as 0 so a half-filled form still previews.
    """
    filled = rows.assign(game_id=0, **{c: pd.to_numeric(rows[c], errors="coerce").fillna(0)
                                       for c in rules.PLACING_ORDER if c in rows})
    if "variant_points" in filled:
        filled["variant_points"] = pd.to_numeric(filled["variant_points"],
                                                 errors="coerce").fillna(0)
    return rules.score_games(filled, base_points=base_points)


def standings_table(engine, scored: pd.DataFrame | None = None) -> pd.DataFrame:
    """R14–R16: the qualifier standings with names, and each player's zone at the cut.

    Columns: `rank, player_id, name, best_score, games, wins, placing, vp, spice, solari,
    troops, water, zone` ("final", "semifinal" or "out" by position once there are 4 players;
    empty before), `tie_at_cut` (a shared rank across a cut line, for the organizer to settle).
    """
    scored = scored_results(engine) if scored is None else scored
    table = rules.standings(scored.drop(columns=["name"], errors="ignore"))
    table = table.merge(_names(engine), on="player_id", how="left")
    zone = np.full(len(table), "", dtype=object)
    tie = np.zeros(len(table), dtype=bool)
    if len(table) >= 4:
        fmt = rules.finals_format(len(table))
        position = np.arange(len(table))
        zone = np.select([position < fmt.direct, position < fmt.cut], ["final", "semifinal"],
                         "out").astype(object)
        tie = table["player_id"].isin(rules.cut_ties(table)["player_id"]).to_numpy()
    return table.assign(zone=zone, tie_at_cut=tie)[
        ["rank", "player_id", "name", "best_score", "games", "wins", "placing",
         *rules.PLACING_ORDER, "zone", "tie_at_cut"]]


# --- sittings ---------------------------------------------------------------------------------

def draw_qualifier(engine, player_ids, *, seed: int, sit_out: bool = False,
                   pins: dict | None = None, actor: Actor) -> dict:
    """R1, R3, R6, R9: draw the next qualifier sitting for `player_ids` and save it unpublished.

    Redrawing before publishing replaces the unpublished draw (the store logs both). The setup
    balance counts every earlier published qualifier sitting. The draw mode setting chooses a
    plain random or a balanced draw (against the earlier published qualifier seats); `pins`
    maps player_id to the table_no that player keeps.
    """
    settings = store.settings(engine)
    mode = settings.get("draw_mode") or "random"
    history = _history(engine) if mode == "balanced" else None
    drawn = draw.draw_sitting(list(player_ids), enabled_setups(engine), seed=seed,
                              setup_counts=store.setup_counts(engine),
                              colours=settings.get("colours"), sit_out=sit_out,
                              mode=mode, history=history, pins=pins)
    return store.save_draw(engine, drawn, kind="qualifier", actor=actor)


def draw_report(engine, sitting_id: int) -> fairness.DrawReport:
    """A sitting's fairness checklist against the qualifier sittings drawn before it (R3, R6):
    repeat meetings, seats a player had most often or twice, setups played again; each frame
    with the players' names (`name`, or `name_a`, `name_b`). For judges and the organizer."""
    sitting_id = int(sitting_id)
    seats = store.seats(engine, sitting_id, actor=_system())
    tables = store.tables(engine, sitting_id, actor=_system())
    report = fairness.draw_report(seats, tables, _history(engine, before=sitting_id))
    names = dict(zip(seats["player_id"], seats["name"]))
    return fairness.DrawReport(
        repeats=report.repeats.assign(name_a=report.repeats["player_a"].map(names),
                                      name_b=report.repeats["player_b"].map(names)),
        seats=report.seats.assign(name=report.seats["player_id"].map(names)),
        setups=report.setups.assign(name=report.setups["player_id"].map(names)))


def _history(engine, before: int | None = None) -> pd.DataFrame:
    """The seats of the published and complete qualifier sittings (only those drawn before
    sitting `before`, when given): `sitting_id, table_no, seat, player_id, setup_id`."""
    sittings = store.sittings(engine, kind="qualifier", actor=_system())
    done = sittings.loc[sittings["status"].isin(["published", "complete"]), "sitting_id"]
    if before is not None:
        done = done.loc[done < before]
    if done.empty:
        return fairness.empty_history()
    seats = store.seats(engine, kind="qualifier", actor=_system())
    tables = store.tables(engine, kind="qualifier", actor=_system())
    rows = seats.loc[seats["sitting_id"].isin(done)].merge(
        tables[["table_id", "setup_id"]], on="table_id", how="left")
    return rows[list(fairness.HISTORY_COLUMNS)].reset_index(drop=True)


def current_sitting(engine, *, actor: Actor | None = None) -> dict | None:
    """The sitting being played or about to be: the latest not yet complete, else the latest."""
    sittings = store.sittings(engine, actor=actor)
    if sittings.empty:
        return None
    open_ = sittings.loc[sittings["status"] != "complete"]
    row = (open_ if not open_.empty else sittings).iloc[-1]
    return row.to_dict()


def sitting_overview(engine, sitting_id: int, *, actor: Actor | None = None) -> pd.DataFrame:
    """R3, R9, R20: one row per seat of a sitting with table, setup name, colour, pick order,
    and whether the table has reported; removed leaders only for judges and the organizer."""
    seats = store.seats(engine, sitting_id, actor=actor)
    tables = store.tables(engine, sitting_id, actor=actor)
    names = setup_names()
    return seats.merge(
        tables[["table_id", "setup_id", "version", "removed_leaders", "available_leaders"]],
        on="table_id", how="left",
    ).assign(setup=lambda d: d["setup_id"].map(names), reported=lambda d: d["version"] > 0)


def home_status(engine, *, actor: Actor | None = None) -> dict:
    """What happens now: tournament name, players, the current sitting and tables missing
    results, for the Home page."""
    settings = store.settings(engine)
    roster = store.players(engine)
    sitting = current_sitting(engine, actor=actor)
    status = {"tournament_name": settings["tournament_name"],
              "players": int((roster["status"] == "active").sum()) if len(roster) else 0,
              "checked_in": int(roster["checked_in"].sum()) if len(roster) else 0,
              "sitting": sitting, "missing_tables": []}
    if sitting is not None and sitting["status"] == "published":
        tables = store.tables(engine, int(sitting["sitting_id"]), actor=actor)
        status["missing_tables"] = tables.loc[tables["version"] == 0, "table_no"].tolist()
    return status


# --- finals -----------------------------------------------------------------------------------

@dataclass
class Finals:
    """R16–R18 as they stand: the format, who plays where, the sittings and the final standings."""

    standings: pd.DataFrame
    format: rules.FinalsFormat | None = None
    reason: str = ""
    entrants: pd.DataFrame = field(default_factory=pd.DataFrame)
    cut_ties: pd.DataFrame = field(default_factory=pd.DataFrame)
    absent: list = field(default_factory=list)
    semifinal: dict | None = None
    final: dict | None = None
    final_players: list | None = None
    final_blocker: str = ""
    final_standings: pd.DataFrame | None = None


def finals(engine) -> Finals:
    """R16, R17, R18: the cut, wildcards for absent players, the semifinal and final sittings,
    the final table once the semifinal is in, and the final standings once the final is.

    When the semifinal results cannot set the final table yet (a tie for first not settled,
    R11), `final_players` stays None and `final_blocker` says why and what to do."""
    scored = scored_results(engine)
    table = standings_table(engine, scored)
    view = Finals(standings=table)
    if len(table) < 4:
        view.reason = (f"{len(table)} player{'s' if len(table) != 1 else ''} "
                       f"played a qualifier: finals need at least 4 (R16).")
        return view
    view.format = rules.finals_format(len(table))
    view.absent = store.absences(engine)["player_id"].tolist()
    present = set(table["player_id"]) - set(view.absent)
    view.entrants = rules.finals_entrants(table, present=present).merge(
        _names(engine), on="player_id", how="left")
    view.cut_ties = rules.cut_ties(table)
    sittings = store.sittings(engine, actor=_system())
    for kind in ("semifinal", "final"):
        rows = sittings.loc[sittings["kind"] == kind]
        setattr(view, kind, rows.iloc[-1].to_dict() if len(rows) else None)
    semifinal = _kind_results(engine, "semifinal", view.semifinal)
    final = _kind_results(engine, "final", view.final)
    needs_semifinal = view.format.semifinal > 0 and (view.entrants["stage"] == "semifinal").any()
    if not needs_semifinal or (view.semifinal and view.semifinal["status"] == "complete"):
        try:
            view.final_players = rules.final_table(table, view.entrants, semifinal)
        except TournamentError as exc:
            view.final_blocker = str(exc)
    if view.final and view.final["status"] == "complete":
        view.final_standings = rules.final_standings(table, semifinal, final).merge(
            _names(engine), on="player_id", how="left")
    return view


def draw_semifinal(engine, *, seed: int, actor: Actor) -> dict:
    """R16: seat the semifinalists (and wildcards, R17) at random tables; saved unpublished."""
    view = finals(engine)
    if view.format is None:
        raise TournamentError(view.reason)
    players = view.entrants.loc[view.entrants["stage"] == "semifinal", "player_id"].tolist()
    if not players:
        raise TournamentError("This tournament has no semifinal: draw the final directly.")
    settings = store.settings(engine)
    drawn = draw.draw_sitting(players, enabled_setups(engine), seed=seed,
                              colours=settings.get("colours"))
    return store.save_draw(engine, drawn, kind="semifinal", actor=actor)


def draw_final(engine, *, seed: int, actor: Actor) -> dict:
    """R16: seat the final table at random; saved unpublished."""
    view = finals(engine)
    if view.format is None:
        raise TournamentError(view.reason)
    if view.final_blocker:
        raise TournamentError(view.final_blocker)
    if view.final_players is None:
        raise TournamentError("The semifinal is not complete yet: the final table is known "
                              "once every semifinal result is in.")
    if len(view.final_players) < 3:
        raise TournamentError(f"Only {len(view.final_players)} players can take a final seat; "
                              f"the final needs at least 3.")
    settings = store.settings(engine)
    drawn = draw.draw_groups([view.final_players], enabled_setups(engine), seed=seed,
                             colours=settings.get("colours"))
    return store.save_draw(engine, drawn, kind="final", actor=actor)


def _kind_results(engine, kind: str, sitting: dict | None) -> pd.DataFrame | None:
    if sitting is None:
        return None
    results = store.results(engine, kind)
    if results.empty:
        return None
    base = tuple(store.settings(engine)["base_points"])
    return rules.score_games(results, base_points=base)


# --- helpers ----------------------------------------------------------------------------------

def _names(engine) -> pd.DataFrame:
    return store.players(engine)[["player_id", "name"]]


def _system() -> Actor:
    """Reads that need the judges' view (removed leaders, unpublished draws) for a check the
    app makes itself, never shown to a spectator."""
    return Actor("STSA", Role.ORGANIZER)
