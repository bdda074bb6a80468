"""What the Standings and Finals pages show, as frames and sentences (R14–R18).

No Streamlit here: each function turns the service layer's frames into the columns and words a
page renders, so it can be tested on small frames. Sentences hold player names as typed; pages
escape them (`widgets.plain`) before showing them as Markdown.
"""

from __future__ import annotations

import pandas as pd

from stsa.domain import Kind, Stage, plural, sitting_label
from stsa.services import roster
from stsa.services.finals import stage_players

ZONES = {Stage.FINAL: "Final", Stage.SEMIFINAL: "Semifinal", Stage.OUT: "Out", "": ""}
STAGES = {Stage.FINAL: "Final", Stage.SEMIFINAL: "Semifinal", Kind.QUALIFIER: "Qualifier"}
CSV_TRIGGERS = ("=", "+", "-", "@", "\t", "\r")  # a spreadsheet would run these as formulas


def table_height(rows: int, max_rows: int = 25) -> int | str:
    """A table shows all its rows up to `max_rows`, then scrolls (about `max_rows` high)."""
    return "content" if rows <= max_rows else 38 + 35 * max_rows


# --- standings --------------------------------------------------------------------------------

def cut_caption(table: pd.DataFrame) -> str:
    """R16 in one line from the standings' zones: who goes where, out of how many players."""
    n = len(table)
    if n < 4:
        return f"{plural(n, 'player')} so far: finals need at least 4 (R16)."
    direct = int((table["zone"] == Stage.FINAL).sum())
    semi = int((table["zone"] == Stage.SEMIFINAL).sum())
    semi_text = f"the next {semi} play the semifinal" if semi else "there is no semifinal"
    return (f"{n} players: the top {direct} go straight to the final, {semi_text}, "
            f"{n - direct - semi} are out (R16).")


def tie_warnings(table: pd.DataFrame) -> list[str]:
    """R14: one sentence per shared rank that straddles a cut line, naming the players."""
    tied = table.loc[table["tie_at_cut"]]
    out = []
    for rank, group in tied.groupby("rank", sort=True):
        line = Stage.FINAL if (group["zone"] == Stage.FINAL).any() else Stage.SEMIFINAL
        out.append(f"Rank {rank} is shared across the {line} cut line by "
                   f"{', '.join(group['name'].astype(str))}: settle who goes through (R14) "
                   f"before drawing the finals.")
    return out


def search(table: pd.DataFrame, query: str) -> pd.DataFrame:
    """The rows whose name contains `query` (as typed, any case; not a pattern)."""
    return table.loc[roster.name_matches(table["name"], query)]


def standings_frame(table: pd.DataFrame) -> pd.DataFrame:
    """The standings as shown: rank, player, best score, the zone at the cut (first, so that
    a phone shows it without scrolling), games, wins, the best game's placing and VP, and the
    tie flag when any rank is shared at a cut line."""
    shown = pd.DataFrame({
        "Rank": table["rank"], "Player": table["name"].astype(str),
        "Best score": table["best_score"], "Zone": table["zone"].map(ZONES).fillna(""),
        "Games": table["games"], "Wins": table["wins"],
        "Placing": table["placing"], "VP": table["vp"],
    })
    if table["tie_at_cut"].any():
        shown["Tie at cut"] = table["tie_at_cut"].astype(bool)
    return shown.reset_index(drop=True)


def player_games(scored: pd.DataFrame, player_id) -> pd.DataFrame:
    """One player's qualifier games (R12, R13): sitting, table, placing, VP, score."""
    games = scored.loc[scored["player_id"] == player_id].sort_values(["sitting_no", "table_no"])
    return pd.DataFrame({
        "Sitting": [sitting_label(Kind.QUALIFIER, n) for n in games["sitting_no"]],
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


def entrants_frame(view) -> pd.DataFrame:
    """R16, R17: who plays where, finalists first, wildcards marked."""
    standing = view.standings[["player_id", "rank", "best_score"]]
    rows = view.entrants.merge(standing, on="player_id", how="left")
    return pd.DataFrame({
        "Stage": rows["stage"].map(STAGES), "Qualifier rank": rows["rank"],
        "Player": rows["name"].astype(str), "Best score": rows["best_score"],
        "Wildcard": rows["wildcard"].astype(bool),
    })


def seating_frame(overview: pd.DataFrame, scored: pd.DataFrame | None, wildcards,
                  staff: bool) -> pd.DataFrame:
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
    if staff:
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
                    f"{names[weakest]}'s final seat (R16)."]
        return [f"{who} won the semifinal with {score} points, not more than "
                f"{names[weakest]}'s best qualifier score of {best[weakest]}: {names[weakest]} "
                f"keeps the final seat (R16)."]
    listed = ", ".join(f"{names[p]} ({int(s)} points at table {t})" for p, s, t in
                       zip(winners["player_id"], winners["qualifier_score"], winners["table_no"]))
    return [f"Semifinal winners: {listed}.",
            f"{' and '.join(names[p] for p in advanced)} "
            f"{'advances' if len(advanced) == 1 else 'advance'} to the final (R16)."]


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
    """CSV for a spreadsheet: text cells that a spreadsheet would read as a formula get a
    leading quote; booleans read yes/no."""
    out = frame.copy()
    for col in out.columns:
        if out[col].dtype == bool:
            out[col] = out[col].map({True: "yes", False: "no"})
        elif not pd.api.types.is_numeric_dtype(out[col]):
            text = out[col].astype(str)
            out[col] = text.where(~text.str.startswith(CSV_TRIGGERS), "'" + text)
    return out.to_csv(index=False)
