"""Results: scored games and the qualifier standings (R11–R16), the result form's preview, and
a table's result submitted through the store with every rule checked (R11, R13, R19); what a
correction would change once the finals are drawn (R14–R17, R20)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from stsa import rules, store
from stsa.auth import Actor, require
from stsa.domain import (
    SITTING_STATUS_WORDS,
    Kind,
    Role,
    SittingStatus,
    Stage,
    TournamentError,
    sitting_label,
    table_label,
)
from stsa.i18n import N_, _
from stsa.services.snapshot import Snapshot
from stsa.store import checks

STATS = tuple(rules.PLACING_ORDER)  # vp, spice, solari, troops, water (R11)
TableResult = store.TableResult  # a table's result as stored (R13)
ConflictError = store.ConflictError  # a save based on an older version (R19)
SeatingChanged = store.game_results.SeatingChanged  # the table's seats changed since (R3, R19)
seating_changes = store.game_results.seating_changes  # how they changed, in words


STANDINGS_COLUMNS = ["rank", "player_id", "name", "best_score", "games", "wins", "placing",
                     *rules.PLACING_ORDER, "zone", "tie_at_cut"]


# --- scores and standings ---------------------------------------------------------------------

def scored(snap: Snapshot, kind: Kind | None = Kind.QUALIFIER) -> pd.DataFrame:
    """R11–R13: the snapshot's results of `kind` (every kind for None) with `placing`,
    `qualifier_score`, `tied` and the players' names."""
    frame = rules.score_games(snap.results_of(kind), base_points=snap.settings.base_points)
    return frame.merge(snap.names, on="player_id", how="left")


def scored_results(engine, kind: Kind | None = Kind.QUALIFIER) -> pd.DataFrame:
    """R11–R13: stored results with `placing`, `qualifier_score`, `tied`, and player names."""
    with Snapshot(engine) as snap:
        return scored(snap, kind)


def qualifier_players(snap: Snapshot) -> list:
    """R16: the players seated at a qualifier table still being played (published, not
    complete), in seat order: with the players who have a result (every seated player of a
    complete sitting has one), everyone seated at a published qualifier. Only the open
    sittings' seats are read (one sitting, usually), not every seat of the tournament."""
    sittings = snap.sittings
    open_ = sittings.loc[(sittings["kind"] == Kind.QUALIFIER)
                         & (sittings["status"] == SittingStatus.PUBLISHED), "sitting_id"]
    seated = [snap.sitting_seats(int(s))["player_id"] for s in open_]
    return pd.unique(pd.concat(seated)).tolist() if seated else []


def sitting_results(scored: pd.DataFrame, sitting_id: int) -> pd.DataFrame:
    """A sitting's stored results for everyone (R13, R20: leaders picked are public), by table
    and placing: `Table, Placing, Player` (the nickname), `Leader, VP, Score, Seat, Tied`."""
    rows = scored.loc[scored["sitting_id"] == sitting_id].sort_values(["table_no", "placing"])
    return pd.DataFrame({"Table": rows["table_no"], "Placing": rows["placing"],
                         "Player": rows["name"], "Leader": rows["leader"], "VP": rows["vp"],
                         "Score": rows["qualifier_score"], "Seat": rows["seat"],
                         "Tied": rows["tied"]}).reset_index(drop=True)


def standings(scored_games: pd.DataFrame, names: pd.DataFrame, seated=()) -> pd.DataFrame:
    """R14–R16: the qualifier standings of `scored_games` with `names` (`player_id, name`),
    and each player's zone at the cut; columns as `standings_table`.

    N (R16) counts every player in the standings: those with a result and the `seated` ones
    with none yet, listed last (by name) with no score, rank after every scored player and no
    zone."""
    table = rules.standings(scored_games.drop(columns=["name"], errors="ignore"))
    scored_n = len(table)
    have = set(table["player_id"])
    waiting = [p for p in dict.fromkeys(seated) if p not in have]
    if waiting:
        extra = (pd.DataFrame({"player_id": pd.Series(waiting, dtype=table["player_id"].dtype)})
                 .merge(names, on="player_id", how="left")
                 .sort_values("name", key=lambda s: s.astype(str).str.casefold(),
                              kind="stable")
                 .drop(columns="name")
                 .assign(rank=scored_n + 1, games=0, wins=0))
        table = pd.concat([table, extra], ignore_index=True).astype(
            {"rank": "int64", "games": "int64", "wins": "int64"})
    table = table.merge(names, on="player_id", how="left")
    zone = np.full(len(table), "", dtype=object)
    tie = np.zeros(len(table), dtype=bool)
    if len(table) >= 4:
        fmt = rules.finals_format(len(table))
        position = np.arange(len(table))
        zone = np.select([position < fmt.direct, position < fmt.cut],
                         [Stage.FINAL.value, Stage.SEMIFINAL.value],
                         Stage.OUT.value).astype(object)
        zone[scored_n:] = ""
        tie = table["player_id"].isin(rules.cut_ties(table)["player_id"]).to_numpy(copy=True)
        tie[scored_n:] = False
    return table.assign(zone=zone, tie_at_cut=tie)[STANDINGS_COLUMNS]


def standings_table(engine, scored_games: pd.DataFrame | None = None) -> pd.DataFrame:
    """R14–R16: the qualifier standings with names, and each player's zone at the cut.

    Columns: `rank, player_id, name, best_score, games, wins, placing, vp, spice, solari,
    troops, water, zone` ("final", "semifinal" or "out" by position once there are 4 players;
    empty before, and for a player seated with no result yet), `tie_at_cut` (a shared rank
    across a cut line, for the organizer to settle).
    `scored_games` are the scored qualifier results when the caller has them already.
    """
    with Snapshot(engine) as snap:
        games = scored(snap) if scored_games is None else scored_games
        return standings(games, snap.names, qualifier_players(snap))


# --- one table's result -----------------------------------------------------------------------

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


def _full_tie(rows: pd.DataFrame) -> pd.Series:
    """R11: which rows are equal on all five to another row (rows with every number filled)."""
    numbers = np.column_stack([pd.to_numeric(rows[c], errors="coerce").to_numpy(
        dtype="float64", na_value=np.nan) for c in STATS]) if len(rows) else np.empty((0, 5))
    filled = ~np.isnan(numbers).any(axis=1)
    tie = np.zeros(len(rows), dtype=bool)
    tie[filled] = pd.DataFrame(numbers[filled]).duplicated(keep=False).to_numpy()
    return pd.Series(tie, index=rows.index)


def full_ties(rows: pd.DataFrame) -> list[int]:
    """R11: seats of players equal on all five to another player (filled rows only)."""
    return rows.loc[_full_tie(rows), "seat"].astype(int).tolist()


def unsettled_tie(rows: pd.DataFrame, seats: pd.DataFrame, where: str,
                  base_points=rules.BASE_POINTS) -> str | None:
    """R11: why a table's result cannot be saved yet — players equal on all five whose settled
    order is missing or not distinct — or None. `seats` name the table's seated players
    (`player_id, seat, name`); `where` names the table ("Qualifier 2, table 4")."""
    tied = _full_tie(rows)
    if not tied.any():
        return None
    scored_rows = preview_result(rows, base_points)
    still = set(scored_rows.loc[scored_rows["tied"], "player_id"])
    open_ = [p for p in rows.loc[tied, "player_id"] if p in still]
    if not open_:
        return None
    seated = seats.set_index("player_id")
    who = checks.and_list(_("seat {seat} ({player})").format(seat=seated.at[p, "seat"],
                                                       player=seated.at[p, "name"])
                   if p in seated.index else _("player {player}").format(player=p)
                   for p in open_)
    return _("{table}: {players} are equal on VP, spice, solari, troops and water: enter their "
             "settled order (1, 2, …) before saving. Nothing was saved.").format(
                 table=where, players=who)


#: The most one player usually ends a game with (a Legacy or Uprising game ends near 10 VP):
#: a save above these asks the judge to confirm the numbers first (100 typed for 10).
USUAL_MAX = {"vp": 20, "spice": 40, "solari": 40, "troops": 20, "water": 20,
             "variant_points": 20}


def unusual_numbers(rows: pd.DataFrame, names: dict | None = None) -> list[str]:
    """The numbers of `rows` above `USUAL_MAX` (R11, R12), in seat order and in words ("seat 2
    (Paul): VP 100"; `names` by player, when known): a save asks to confirm them first."""
    if not isinstance(rows, pd.DataFrame) or rows.empty or "seat" not in rows:
        return []
    fields = [f for f in USUAL_MAX if f in rows]
    # The form's three or four rows on every judge's run: plain arrays, not a reshaped frame.
    numbers = np.column_stack([pd.to_numeric(rows[f], errors="coerce").to_numpy(
        dtype="float64", na_value=np.nan) for f in fields])
    high = numbers > np.array([USUAL_MAX[f] for f in fields])
    if not high.any():
        return []
    order = np.argsort(rows["seat"].to_numpy(), kind="stable")
    seats, players = rows["seat"].to_numpy()[order], rows.get("player_id", rows["seat"])
    players = players.to_numpy()[order]
    found_rows, found_cols = np.nonzero(high[order])
    names = names or {}
    return [(_("seat {seat} ({player}): {field} {number}") if players[r] in names
             else _("seat {seat}: {field} {number}")).format(
                seat=seats[r], player=names.get(players[r]),
                field=_(checks.NUMBER_WORDS[fields[c]]), number=int(numbers[order][r, c]))
            for r, c in zip(found_rows, found_cols)]


def unusual_problem(rows) -> str | None:
    """Why a save with unusual numbers (`unusual_numbers`) waits for a confirmation, or None."""
    found = unusual_numbers(rows) if isinstance(rows, pd.DataFrame) else []
    if not found:
        return None
    return _("Unusually high for one game: {numbers}. Check these numbers; if they are right, "
             "confirm them and save again. Nothing was saved.").format(numbers="; ".join(found))


def _plain_number(value) -> bool:
    """A number `_full_tie` reads as itself: an int a float holds exactly, or a float."""
    return (type(value) is int and abs(value) < 2 ** 53) or type(value) is float


def _untied_rows(rows) -> list[dict] | None:
    """R11 in plain Python, for the usual form: the rows without `seat`, as plain rows, when
    `unsettled_tie` would find nothing (every number plain or blank, and no two filled rows
    equal on all five); None when it must decide (a possible full tie, text, a missing
    column, no rows)."""
    columns = rows.columns.tolist() if isinstance(rows, pd.DataFrame) else []
    if len(set(columns)) != len(columns) or not set(STATS) <= set(columns) or rows.empty:
        return None
    records, seen = checks.records(rows), set()
    for rec in records:
        five = tuple(rec[c] for c in STATS)
        if not all(v is None or _plain_number(v) for v in five):
            return None
        if all(v is not None and v == v for v in five):  # filled: no blank, no NaN
            if five in seen:
                return None
            seen.add(five)
    return [{k: v for k, v in rec.items() if k != "seat"} for rec in records]


def _with_variant_points(rows) -> list[dict]:
    """The rows giving variant points other than 0 (text that is no whole number is left to
    the store's check of the numbers)."""
    try:
        entered = checks.records(rows)
    except TournamentError:
        return []
    return [r for r in entered if checks.whole_number(r.get("variant_points")) not in (None, 0)]


def variant_points_problem(engine, table_id: int, rows) -> str | None:
    """R12, R24: why these rows' variant points cannot be saved at the table, or None.

    Players earn variant points only in a sitting with a rule change (R24). A sitting whose
    stored results already carry variant points (entered before sittings named their rule
    changes) keeps taking them, so a tournament from an earlier release can still be finished
    and corrected. Reads the database only when some variant points are not 0."""
    given = _with_variant_points(rows)
    if not given:
        return None
    with Snapshot(engine) as snap:
        return _variant_points_problem(snap, table_id, given)


def _variant_points_problem(snap: Snapshot, table_id: int, given: list[dict]) -> str | None:
    """`variant_points_problem` for the rows `given` variant points, read through `snap`."""
    table = snap.table(table_id)
    if table.empty:
        return None  # the store names an unknown table
    sitting = snap.sitting(int(table["sitting_id"].iloc[0]))
    if sitting["rule_change"]:
        return None
    earlier = store.results(snap.engine, None, sitting_id=int(sitting["sitting_id"]))
    if (earlier["variant_points"] != 0).any():
        return None
    seats = snap.table_seats(table_id)
    seat_of: dict[int | None, tuple] = {
        int(p): (s, n) for p, s, n in zip(seats["player_id"], seats["seat"], seats["name"])}
    who = [seat_of.get(checks.whole_number(r.get("player_id"))) for r in given]
    named = ", ".join(_("seat {seat} ({player})").format(seat=s, player=n)
                      for s, n in sorted(w for w in who if w is not None))
    where = table_label(sitting["kind"], int(sitting["number"]), int(table["table_no"].iloc[0]))
    if named:
        return _("{table}: this sitting has no rule change, so nobody earns variant points: "
                 "enter 0 variant points for {players}. Nothing was saved.").format(
                     table=where, players=named)
    return _("{table}: this sitting has no rule change, so nobody earns variant points: enter "
             "0 variant points. Nothing was saved.").format(table=where)


def _tie_problem(snap: Snapshot, table_id: int, entered: pd.DataFrame) -> str | None:
    """R11 for rows that may hold a full tie, on the table's seats and settings (with the
    players' names in the message); an unknown table is `NotFound`."""
    seats = snap.table_seats(table_id)
    if seats.empty:
        raise store.NotFound(_("There is no table with id {id}.").format(id=table_id))
    first = seats.iloc[0]
    where = table_label(first["kind"], int(first["sitting_no"]), int(first["table_no"]))
    return unsettled_tie(entered, seats, where, snap.settings.base_points)


def submit_result(engine, table_id: int, rows: pd.DataFrame, *, expected_version: int,
                  submission_id: str | None, actor: Actor, seating=None,
                  confirm_complete: bool = False,
                  confirm_after_finals: bool = False,
                  confirm_unusual: bool = False,
                  over_theirs: bool = False) -> store.TableResult:
    """Save a table's result (R11–R13, R19) after every rule is checked: a full tie needs its
    settled order first; the store then checks the rows, the version and the role.

    `rows` holds one row per seated player (`player_id`, `leader`, the five numbers, optional
    `variant_points` and `tiebreak`; a `seat` column is ignored). A save based on an older
    version raises the store's `ConflictError`, with what is stored now. Variant points other
    than 0 need a sitting with a rule change (`variant_points_problem`, R24). Rows with no two
    players equal on all five (the usual form) go straight to the store, which reads the table
    in its own transaction; an unknown table is still refused as such before anything else.
    The checks that need the database read it through one snapshot, opened only when one
    of them is needed.

    Where the save lands (R19, R20), checked by the store in the save's transaction:
    `seating` ({seat: player_id} as the form showed the table) refuses a save on a table
    whose seating changed since (`store.game_results.SeatingChanged`); a correction of a
    complete sitting needs `confirm_complete`; once the finals are drawn only the organizer
    corrects a qualifier result, with `confirm_after_finals`, and the log keeps what it
    changed (`correction_impact`) with its flag. Numbers above a usual game's
    (`unusual_problem`) need `confirm_unusual`; `over_theirs` marks a save the judge chose
    over another judge's that came first (the log says whose version it replaced)."""
    require(actor, Role.JUDGE, Role.ORGANIZER, action=N_("enter results"))
    unusual = None if confirm_unusual else unusual_problem(rows)
    if unusual:
        raise TournamentError(unusual)
    landing = {"seating": seating, "confirm_complete": bool(confirm_complete),
               "confirm_after_finals": bool(confirm_after_finals),
               "over_theirs": bool(over_theirs)}
    given = _with_variant_points(rows)
    entered = _untied_rows(rows)
    weighs_finals = bool(confirm_after_finals and expected_version
                         and actor.role == Role.ORGANIZER)
    unknown = None
    if given or weighs_finals or entered is None:
        with Snapshot(engine) as snap:
            problem = _variant_points_problem(snap, table_id, given) if given else None
            if problem:
                raise TournamentError(problem)
            if weighs_finals:
                impact = _impact(snap, table_id, rows)
                landing["finals_note"] = impact.words if impact is not None else ""
            if entered is None:
                entered = rows.drop(columns="seat", errors="ignore")
                problem = _tie_problem(snap, table_id, entered)
                if problem:
                    raise TournamentError(problem)
            unknown = snap.table_seats(table_id).empty
    try:
        return store.submit_table_result(engine, int(table_id), entered,
                                         expected_version=expected_version,
                                         submission_id=submission_id, actor=actor, **landing)
    except TournamentError:
        if unknown is None:
            with Snapshot(engine) as snap:
                unknown = snap.table_seats(table_id).empty
        if unknown:
            raise store.NotFound(_("There is no table with id {id}.").format(
                id=table_id)) from None
        raise


def stored_result(engine, table_id: int, version: int) -> store.TableResult:
    """Table `table_id`'s stored result as a `TableResult` (R13), read only when `version`
    (the table's result version as the caller read it) says there is one: a table waiting
    for its first result has version 0 and no rows."""
    if version:
        return store.table_result(engine, table_id)
    return store.TableResult(table_id=table_id, version=0,
                             rows=pd.DataFrame(columns=store.game_results.ROW_COLUMNS))


# --- a correction once the finals are drawn (R14–R17, R20) -----------------------------------

FINALS_KINDS = (Kind.SEMIFINAL, Kind.FINAL)
STAGE_WORDS = {Stage.FINAL.value: N_("the final"), Stage.SEMIFINAL.value: N_("the semifinal"),
               Stage.OUT.value: N_("out of the finals"), "": N_("not ranked yet")}
# The changes' headings, used by code in English (a page shows them with `i18n.headings`).
IMPACT_COLUMNS = [N_("Player"), N_("Rank before"), N_("Rank after"), N_("Cut before"),
                  N_("Cut after"), N_("Finals before"), N_("Finals after")]


@dataclass(frozen=True)
class CorrectionImpact:
    """What a correction of a qualifier result would change once the finals are drawn (R14–R17):
    `finals` the semifinal and final sittings drawn, in words ("Semifinal (published)");
    `changes` one row per player whose rank, place at the cut (`zone`) or finals seat
    changes (`IMPACT_COLUMNS`); `words` all of it in one line, for the log and Home."""

    finals: list[str]
    changes: pd.DataFrame
    words: str


def finals_drawn(sittings: pd.DataFrame) -> list[str]:
    """R16, R20: the semifinal and final sittings of `sittings` (the staff's view: drafts
    too), in words: "Semifinal (published)"."""
    drawn = sittings.loc[sittings["kind"].isin(FINALS_KINDS)]
    return [f"{sitting_label(k, n)} ({SITTING_STATUS_WORDS.get(s, s)})"
            for k, n, s in zip(drawn["kind"], drawn["number"], drawn["status"])]


def _finals_in_words(sittings: pd.DataFrame) -> list[str]:
    """`finals_drawn` in this run's language (`finals_drawn` is kept once per data version
    for everyone, so it stays English)."""
    drawn = sittings.loc[sittings["kind"].isin(FINALS_KINDS)]
    return [f"{sitting_label(k, n)} ({_(SITTING_STATUS_WORDS.get(s, s))})"
            for k, n, s in zip(drawn["kind"], drawn["number"], drawn["status"])]


def _corrected(stored: pd.DataFrame, table_id: int, rows: pd.DataFrame) -> pd.DataFrame:
    """The qualifier results with table `table_id`'s rows replaced by `rows` (blank numbers
    count as 0, as in the preview)."""
    def number(column: str) -> np.ndarray:
        if column not in rows:
            return np.zeros(len(rows), dtype="int64")
        return pd.to_numeric(rows[column], errors="coerce").fillna(0).astype("int64").to_numpy()

    order = (pd.to_numeric(rows["tiebreak"], errors="coerce") if "tiebreak" in rows
             else pd.Series(np.nan, index=rows.index))
    new = pd.DataFrame({"game_id": np.full(len(rows), int(table_id), dtype="int64"),
                        "player_id": rows["player_id"].astype("int64").to_numpy(),
                        **{c: number(c) for c in (*STATS, "variant_points")},
                        "tiebreak": pd.array(order.astype("Float64"), dtype="Int64")})
    kept = stored.loc[stored["game_id"] != int(table_id), list(new.columns)]
    return pd.concat([kept, new], ignore_index=True)


def _finals_places(table: pd.DataFrame, absent) -> pd.Series:
    """R16, R17: each player's finals seat by the standings `table` ("final", "semifinal",
    "final (wildcard)" …; "" for none), by player id."""
    if len(table) < 4:
        return pd.Series(dtype="str")
    present = set(table["player_id"]) - set(absent)
    entrants = rules.finals_entrants(table, present=present)
    return pd.Series((entrants["stage"].astype(str)
                      + np.where(entrants["wildcard"], " (wildcard)", "")).to_numpy(),
                     index=entrants["player_id"].to_numpy())


def _where_each_stands(table: pd.DataFrame, absent) -> pd.DataFrame:
    places = _finals_places(table, absent)
    return pd.DataFrame({"player_id": table["player_id"].to_numpy(),
                         "name": table["name"].to_numpy(),
                         "rank": table["rank"].to_numpy(),
                         "zone": table["zone"].fillna("").astype(str).to_numpy(),
                         "finals": table["player_id"].map(places).fillna("").to_numpy()})


def _stage_words(value: str) -> str:
    """"the final", "the final (wildcard)": a finals place in this run's language."""
    stage, _space, wildcard = str(value).partition(" ")
    words = _(STAGE_WORDS[stage]) if stage in STAGE_WORDS else stage
    return _("{stage} (wildcard)").format(stage=words) if wildcard else words


def _finals_words(value: str) -> str:
    return _stage_words(value) if value else _("no finals seat")


def impact_of(before: pd.DataFrame, after: pd.DataFrame, absent) -> pd.DataFrame:
    """R14–R17: the players whose rank, place at the cut or finals seat differs between the
    standings `before` and `after` (`standings` frames), in words (`IMPACT_COLUMNS`),
    in the order of `after`."""
    then, now = _where_each_stands(before, absent), _where_each_stands(after, absent)
    both = now.merge(then.drop(columns="name"), on="player_id", how="left",
                     suffixes=("_after", "_before"))
    moved = both.loc[(both["rank_after"] != both["rank_before"])
                     | (both["zone_after"] != both["zone_before"])
                     | (both["finals_after"] != both["finals_before"])]
    return pd.DataFrame({
        "Player": moved["name"].astype(str).to_numpy(),
        "Rank before": moved["rank_before"].astype("Int64").to_numpy(),
        "Rank after": moved["rank_after"].astype("Int64").to_numpy(),
        "Cut before": moved["zone_before"].map(_stage_words).to_numpy(),
        "Cut after": moved["zone_after"].map(_stage_words).to_numpy(),
        "Finals before": moved["finals_before"].map(_finals_words).to_numpy(),
        "Finals after": moved["finals_after"].map(_finals_words).to_numpy()},
        columns=IMPACT_COLUMNS)


def impact_words(changes: pd.DataFrame) -> str:
    """R14–R17: `impact_of` in one sentence: "It moves rank 4 → 5 and the final → the
    semifinal for Ann; rank 5 → 4 for Bo.", or that nothing moves."""
    if changes.empty:
        return _("The standings, the cut and the finals seats stay as they are.")
    parts = []
    for rec in changes.to_dict("records"):
        moves = []
        if rec["Rank before"] != rec["Rank after"]:
            moves.append(_("rank {before} → {after}").format(before=rec["Rank before"],
                                                             after=rec["Rank after"]))
        if rec["Cut before"] != rec["Cut after"]:
            moves.append(_("at the cut {before} → {after}").format(before=rec["Cut before"],
                                                                   after=rec["Cut after"]))
        if rec["Finals before"] != rec["Finals after"]:
            moves.append(f"{rec['Finals before']} → {rec['Finals after']}")
        parts.append(_("{changes} for {player}").format(changes=checks.and_list(moves),
                                                        player=rec["Player"]))
    return _("It moves {changes}.").format(changes="; ".join(parts))


def correction_impact(engine, table_id: int, rows: pd.DataFrame) -> CorrectionImpact | None:
    """R14–R17, R20: what correcting qualifier table `table_id` to `rows` would change once a
    semifinal or final is drawn: the qualifier ranks, the cut and the finals seats before and
    after, computed with `stsa.rules` on the results as stored and as corrected (absences
    kept). None for a finals table, or before the finals are drawn (nothing to confirm)."""
    with Snapshot(engine) as snap:
        return _impact(snap, table_id, rows)


def _impact(snap: Snapshot, table_id: int, rows: pd.DataFrame) -> CorrectionImpact | None:
    """`correction_impact` read through `snap`."""
    table = snap.table(int(table_id))
    if table.empty or table["kind"].iloc[0] != Kind.QUALIFIER:
        return None
    finals = _finals_in_words(snap.sittings)
    if not finals:
        return None
    stored = snap.results_of(Kind.QUALIFIER)
    points, seated = snap.settings.base_points, qualifier_players(snap)
    before = standings(rules.score_games(stored, base_points=points), snap.names, seated)
    corrected = _corrected(stored, int(table_id), rows)
    after = standings(rules.score_games(corrected, base_points=points), snap.names, seated)
    changes = impact_of(before, after, snap.absences["player_id"])
    return CorrectionImpact(finals=finals, changes=changes, words=impact_words(changes))
