"""What the Standings and Finals pages show, as frames and sentences (R14–R18).

No Streamlit calls here: each function turns the service layer's frames into the columns and
words a page renders, so it can be tested on small frames. Sentences hold player names as typed;
pages escape them (`widgets.plain`) before showing them as Markdown.
"""

from __future__ import annotations

import pandas as pd

from stsa import rules
from stsa.domain import FINALS_STATUS_LABELS, FinalsStatus, Kind, Role, Stage, plural, sitting_label
from stsa.formats import csv as csv_format
from stsa.services import roster
from stsa.services.finals import podium, stage_players
from stsa.ui import tables

ZONES = {Stage.FINAL: "Final", Stage.SEMIFINAL: "Semifinal", Stage.OUT: "Out", "": ""}
STAGES = {Stage.FINAL: "Final", Stage.SEMIFINAL: "Semifinal", Kind.QUALIFIER: "Qualifier"}
# Where a player stands in the finals (`services.finals.finals_status`), in words.
STATUS_LABELS = FINALS_STATUS_LABELS
WILDCARD = " (wildcard)"


# What a phone shows of a finals table without a swipe (`ui.tables.phone_layout`): who, with
# their rank, stage or table and seat, how they got there and whether they are a wildcard (R17),
# in narrow columns with short headings; the other columns follow, a swipe away.
PHONE_FIRST = ("Rank", "Stage", "Table", "Seat", "Player", "Way in", "Stage reached",
               "Wildcard", "Colour", "Best score")
PHONE_COLUMNS: dict[str, dict] = {
    "Rank": {"width": 42}, "Stage": {"width": 68}, "Table": {"width": 48},
    "Seat": {"width": 40}, "Way in": {"width": 112}, "Wildcard": {"width": 66},
    "Colour": {"width": 60},
    "Stage reached": {"width": 68, "label": "Reached",
                      "help": "How far the player went: the final, the semifinal or a qualifier"},
    "Best score": {"width": 40, "label": "Best", "help": "The best qualifier score"},
}


def phone_first(frame: pd.DataFrame) -> dict:
    """`st.dataframe`'s `column_order` and `column_config` that show `frame`'s `PHONE_FIRST`
    columns first, narrow enough for a phone."""
    return tables.phone_layout(frame.columns, PHONE_FIRST, PHONE_COLUMNS)


# --- standings --------------------------------------------------------------------------------

def cut_caption(table: pd.DataFrame) -> str:
    """The finals cut in one line, from N: every player in the standings, those seated at a
    qualifier with no result yet included."""
    n = len(table)
    waiting = int(table["best_score"].isna().sum()) if n else 0
    tail = f" {plural(waiting, 'player')} seated in a qualifier have no result yet." \
        if waiting else ""
    if n < 4:
        return f"{plural(n, 'player')} so far: finals need at least 4.{tail}"
    fmt = rules.finals_format(n)
    semi_text = (f"the next {fmt.semifinal} play the semifinal" if fmt.semifinal
                 else "there is no semifinal")
    return (f"{n} players: the top {fmt.direct} go straight to the final, {semi_text}, "
            f"{n - fmt.cut} are out.{tail}")


def tie_warnings(table: pd.DataFrame) -> list[str]:
    """One sentence per shared rank that straddles a cut line, naming the players."""
    tied = table.loc[table["tie_at_cut"]]
    out = []
    for rank, group in tied.groupby("rank", sort=True):
        line = Stage.FINAL if (group["zone"] == Stage.FINAL).any() else Stage.SEMIFINAL
        out.append(f"Rank {rank} is shared across the {line} cut line by "
                   f"{', '.join(group['name'].astype(str))}: settle who goes through "
                   f"before drawing the finals.")
    return out


def status_labels(status: pd.DataFrame) -> pd.Series:
    """Each player's finals status in words, wildcards marked, indexed by player id."""
    words = status["status"].map(STATUS_LABELS).fillna("")
    words = words.where(~status["wildcard"].astype(bool), words + WILDCARD)
    return pd.Series(words.to_numpy(), index=status["player_id"].to_numpy())


def podium_line(status: pd.DataFrame, names: dict) -> str:
    """The champion and podium in one sentence once the final is in ("" before)."""
    top = podium(status)
    if top.empty:
        return ""
    return "; ".join(f"{STATUS_LABELS[s]}: {names.get(p, str(p))}"
                     for p, s in zip(top["player_id"], top["status"])) + "."


def podium_words(top: tuple[tuple[FinalsStatus, str], ...]) -> tuple[str, str]:
    """The podium (`services.home.HomeStatus.podium`) for the top of Home: the champion's
    line and the others' ("Champion: Ann", "Runner-up: Ben · Third: Cy"); ("", "") before
    the final is in."""
    lines = [f"{STATUS_LABELS[s]}: {name}" for s, name in top]
    return (lines[0], " · ".join(lines[1:])) if lines else ("", "")


def search(table: pd.DataFrame, query: str) -> pd.DataFrame:
    """The rows whose name contains `query` (as typed, any case; not a pattern)."""
    return table.loc[roster.name_matches(table["name"], query)]


def standings_frame(table: pd.DataFrame, status: pd.DataFrame | None = None) -> pd.DataFrame:
    """The standings as shown: rank, player, best score, the zone (first, so that a phone
    shows it without scrolling), games, wins, the best game's placing and VP, and the tie flag
    when any rank is shared at a cut line.

    With `status` (`services.finals.finals_status`), the zone says where each player stands
    in the finals (wildcards, absences, a lost seat, the podium); once the final is in, the
    rows follow the final standings, `Rank` is the final rank and `Qualifier rank` follows."""
    if status is not None and len(status):
        have = set(table["player_id"])
        table = table.set_index("player_id").loc[
            [p for p in status["player_id"] if p in have]].reset_index()
        zone = table["player_id"].map(status_labels(status)).fillna("")
    else:
        zone = table["zone"].map(ZONES).fillna("")
    shown = pd.DataFrame({
        "Rank": table["rank"], "Player": table["name"].astype(str),
        "Best score": table["best_score"].astype("Int64"), "Zone": zone,
        "Games": table["games"], "Wins": table["wins"],
        "Placing": table["placing"].astype("Int64"), "VP": table["vp"].astype("Int64"),
    })
    if status is not None and status["final_rank"].notna().any():
        ranks = dict(zip(status["player_id"], status["final_rank"]))
        shown.insert(1, "Qualifier rank", table["rank"])
        shown["Rank"] = table["player_id"].map(ranks).astype("Int64")
    if table["tie_at_cut"].any():
        shown["Tie at cut"] = table["tie_at_cut"].astype(bool)
    return shown.reset_index(drop=True)


def player_games(scored: pd.DataFrame, player_id) -> pd.DataFrame:
    """One player's games (R12, R13), the qualifiers first, then the semifinal and the final
    once played: sitting, table, placing, VP, score."""
    order = {Kind.QUALIFIER: 0, Kind.SEMIFINAL: 1, Kind.FINAL: 2}
    games = (scored.loc[scored["player_id"] == player_id]
             .assign(stage=lambda d: d["kind"].map(order) if "kind" in d else 0)
             .sort_values(["stage", "sitting_no", "table_no"]))
    kinds = games["kind"] if "kind" in games else [Kind.QUALIFIER] * len(games)
    return pd.DataFrame({
        "Sitting": [sitting_label(k, n) for k, n in zip(kinds, games["sitting_no"])],
        "Table": games["table_no"],
        "Placing": games["placing"], "VP": games["vp"], "Score": games["qualifier_score"],
    }).reset_index(drop=True)


# --- finals -----------------------------------------------------------------------------------

def format_lines(fmt) -> list[str]:
    """R16 for this tournament's size, in words."""
    lines = [f"{fmt.n_players} players played a qualifier: the top {fmt.direct} go straight "
             f"to the final."]
    if not fmt.semifinal:
        lines.append("There is no semifinal: too few players are left below the top 4.")
    elif fmt.challenge:
        lines.append(f"The next {fmt.semifinal} play one semifinal. Its winner takes the seat "
                     f"of the weakest finalist seated in the final (the lowest best qualifier "
                     f"score there, a wildcard included) if the winner's semifinal score is "
                     f"higher than that finalist's best qualifier score; on a tie the finalist "
                     f"keeps it.")
    else:
        best = ("the best of the winners takes the last final seat" if fmt.advance == 1 else
                f"the {fmt.advance} best winners take the last {fmt.advance} final seats")
        lines.append(f"The next {fmt.semifinal} play {fmt.semifinal_tables} semifinals; {best} "
                     f"(by semifinal score, then VP, spice, solari, troops, water).")
    return lines


def entrants_frame(view, status: pd.DataFrame | None = None) -> pd.DataFrame:
    """Who the cut sends where, finalists first, wildcards marked; with `status`
    (`services.finals.finals_status`), where each one stands now (`Now`, and a `Note` such as
    the finalist who lost the seat to the semifinal winner)."""
    standing = view.standings[["player_id", "rank", "best_score"]]
    rows = view.entrants.merge(standing, on="player_id", how="left")
    shown = pd.DataFrame({
        "Stage": rows["stage"].map(STAGES), "Qualifier rank": rows["rank"],
        "Player": rows["name"].astype(str), "Best score": rows["best_score"].astype("Int64"),
        "Wildcard": rows["wildcard"].astype(bool),
    })
    if status is not None:
        now = status.set_index("player_id")
        shown["Now"] = rows["player_id"].map(now["status"]).map(STATUS_LABELS).fillna("")
        shown["Note"] = rows["player_id"].map(now["note"]).fillna("")
    return shown


def seating_frame(overview: pd.DataFrame, scored: pd.DataFrame | None, wildcards,
                  viewer: Role) -> pd.DataFrame:
    """A finals sitting's tables (R3), with results once in (R11, R12); wildcards marked (R17);
    the pick order (R9) for judges and the organizer only."""
    rows = overview
    if scored is not None and len(scored):
        rows = rows.merge(scored[["game_id", "player_id", "placing", "vp", "qualifier_score"]],
                          left_on=["table_id", "player_id"], right_on=["game_id", "player_id"],
                          how="left")
    shown = pd.DataFrame({
        "Table": rows["table_no"], "Seat": rows["seat"], "Player": rows["name"].astype(str),
        "Wildcard": rows["player_id"].isin(list(wildcards)), "Colour": rows["colour"],
        "Setup": rows["setup"],
    })
    if viewer.is_staff:
        shown["Pick order"] = rows["pick_order"]
    if "placing" in rows:
        shown = shown.assign(Placing=rows["placing"].astype("Int64"),
                             VP=rows["vp"].astype("Int64"),
                             Score=rows["qualifier_score"].astype("Int64"))
    return shown.reset_index(drop=True)


def advance_notes(view) -> list[str]:
    """R16: who took the final seats and why, in words (once `view.final_players` is known).
    A lone semifinal winner contests `view.contested`: the weakest finalist seated in the
    final, a wildcard included."""
    names = dict(zip(view.standings["player_id"], view.standings["name"].astype(str)))
    best = dict(zip(view.standings["player_id"], view.standings["best_score"]))
    direct = stage_players(view, Stage.FINAL)
    semifinal_scored = view.semifinal_results
    if not stage_players(view, Stage.SEMIFINAL) or semifinal_scored is None:
        return [f"No semifinal: the {len(direct)} direct finalists play the final."]
    winners = (semifinal_scored.loc[semifinal_scored["placing"] == 1]
               .sort_values("qualifier_score", ascending=False))
    advanced = [p for p in view.final_players if p not in direct]
    if view.format.challenge:
        w = winners.iloc[0]
        who, score = names[w["player_id"]], int(w["qualifier_score"])
        if len(direct) < view.format.direct:
            return [f"{who} won the semifinal ({score} points) and takes the open final seat."]
        weakest = view.contested
        if w["player_id"] in advanced:
            return [f"{who} won the semifinal with {score} points, more than "
                    f"{names[weakest]}'s best qualifier score of {best[weakest]}: {who} takes "
                    f"{names[weakest]}'s final seat."]
        return [f"{who} won the semifinal with {score} points, not more than "
                f"{names[weakest]}'s best qualifier score of {best[weakest]}: {names[weakest]} "
                f"keeps the final seat."]
    listed = ", ".join(f"{names[p]} ({int(s)} points at table {t})" for p, s, t in
                       zip(winners["player_id"], winners["qualifier_score"], winners["table_no"]))
    return [f"Semifinal winners: {listed}.",
            f"{' and '.join(names[p] for p in advanced)} "
            f"{'advances' if len(advanced) == 1 else 'advance'} to the final."]


def final_table_frame(view) -> pd.DataFrame:
    """R16: the players seated at the final and how each got there."""
    direct = set(stage_players(view, Stage.FINAL))
    wild = view.wildcards
    rows = (pd.DataFrame({"player_id": view.final_players})
            .merge(view.standings[["player_id", "rank", "name", "best_score"]],
                   on="player_id", how="left"))
    return pd.DataFrame({
        "Player": rows["name"].astype(str), "Qualifier rank": rows["rank"],
        "Best score": rows["best_score"],
        "Way in": ["Direct" if p in direct else "Semifinal winner" for p in rows["player_id"]],
        "Wildcard": rows["player_id"].isin(wild),
    })


def final_standings_frame(view) -> pd.DataFrame:
    """R18: everyone, finalists first, with their qualifier rank and wildcards marked."""
    wild = view.wildcards
    rows = view.final_standings.merge(view.standings[["player_id", "rank", "best_score"]],
                                      on="player_id", how="left")
    return pd.DataFrame({
        "Rank": rows["final_rank"], "Player": rows["name"].astype(str),
        "Stage reached": rows["stage"].map(STAGES),
        "Wildcard": rows["player_id"].isin(wild), "Qualifier rank": rows["rank"],
        "Best score": rows["best_score"],
    })


def to_csv(frame: pd.DataFrame) -> str:
    """CSV for a spreadsheet, through the one formula guard (`formats.csv.frame_text`: a
    formula-like start of a cell, or of a piece after a separator, gets a quote); booleans
    read Yes or No, as in every CSV STSA writes."""
    yes_no = {c: frame[c].map({True: "Yes", False: "No"})
              for c in frame.columns if frame[c].dtype == bool}
    return csv_format.frame_text(frame.assign(**yes_no))
