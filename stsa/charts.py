"""Altair chart builders: a small pre-aggregated frame in (see `stsa.stats`), a chart out.

One palette for every chart, so a zone, a base game or a table size has the same colour
wherever it shows; every mark has a tooltip; widths follow the container (phones). Every colour
stands out from the page's background at 3:1 at least (README, Accessibility); axes that count
(games, tables, standings) have whole-number ticks only.
"""

from __future__ import annotations

import json
from typing import Any

import altair as alt
import pandas as pd

from stsa.domain import plural

ZONE_COLOURS = {"final": "#946200", "semifinal": "#2f6f9f", "out": "#6b7379", "none": "#6b7379"}
ZONE_LABELS = {"final": "Final", "semifinal": "Semifinal", "out": "Out", "none": "No cut yet"}
BASE_COLOURS = {"Legacy": "#b5651d", "Uprising": "#3c7a89", "Other": "#7f8a90"}
MEASURE_COLOURS = {"Picked": "#a0803e", "Won": "#8c4a1c"}
SIZE_COLOURS = {"4 players": "#8c4a1c", "3 players": "#3c7a89"}
ACCENT = "#8c4a1c"
RULE = "#444444"
HEIGHT = 320
# A count has whole-number ticks only.
COUNT_AXIS: dict[str, Any] = {"tickMinStep": 1, "format": "d"}


def _scale(colours: dict[str, str], domain=None) -> alt.Scale:
    keys = list(colours) if domain is None else list(domain)
    return alt.Scale(domain=keys, range=[colours[k] for k in keys])


def _bar_height(rows: int) -> int:
    return max(120, 22 * rows + 40)


def best_scores(ranked: pd.DataFrame, direct: int, semifinal: int,
                names: bool = False) -> alt.LayerChart:
    """`stats.ranked_scores`: best score by position, coloured by zone, with a rule after the
    last direct-final spot and after the last semifinal spot (R16). `names`: each bar's player
    is named under it (the TV, where nobody can point at a bar for its tooltip)."""
    data = ranked.assign(zone_label=ranked["zone"].map(ZONE_LABELS),
                         left=ranked["position"] - 0.4, right=ranked["position"] + 0.4)
    present = [z for z in ZONE_LABELS if z in set(data["zone"])] or ["none"]
    axis = alt.Axis(**COUNT_AXIS)
    if names:
        axis = alt.Axis(values=data["position"].tolist(), labelExpr=_label_lookup(data["name"]),
                        labelAngle=-45, labelAlign="right", labelLimit=0, labelOverlap=False)
    bars = alt.Chart(data).mark_bar().encode(
        x=alt.X("left:Q", title=None if names else "Standing", axis=axis,
                scale=alt.Scale(domain=[0.5, len(data) + 0.5])),
        x2="right:Q",
        y=alt.Y("best_score:Q", title="Best qualifier score",
                scale=alt.Scale(domain=[0, max(1, int(data["best_score"].max() or 0) + 2)])),
        y2=alt.datum(0),
        color=alt.Color("zone_label:N", title="Zone", legend=alt.Legend(orient="top"),
                        scale=_scale({ZONE_LABELS[z]: ZONE_COLOURS[z] for z in present})),
        tooltip=[alt.Tooltip("rank:Q", title="Rank"), alt.Tooltip("name:N", title="Player"),
                 alt.Tooltip("best_score:Q", title="Best score"),
                 alt.Tooltip("zone_label:N", title="Zone")],
    )
    lines = pd.DataFrame({
        "position": [p + 0.5 for p in (direct, semifinal) if 0 < p < len(data) + 1],
        "line": [f"Cut: {label} ({plural(p, 'player')})" for label, p in
                 (("final", direct), ("semifinal", semifinal)) if 0 < p < len(data) + 1],
    }).drop_duplicates("position")
    rules = alt.Chart(lines).mark_rule(color=RULE, strokeDash=[6, 3], size=2).encode(
        x="position:Q", tooltip=[alt.Tooltip("line:N", title="Cut line")])
    return (bars + rules).properties(height=HEIGHT, title="Best qualifier scores")


def _label_lookup(names: pd.Series) -> str:
    """A Vega expression naming position 1, 2, … by `names` (each quoted as a string literal,
    so a name is only ever shown, never read as an expression)."""
    return "[" + ",".join(json.dumps(str(n)) for n in names) + "][datum.value - 1] || ''"


def score_spread(spread: pd.DataFrame) -> alt.LayerChart:
    """`stats.score_spread`: a box plot per sitting from its five numbers (min–max whisker,
    quartile box, median tick)."""
    tooltip = [alt.Tooltip("sitting:N", title="Sitting"), alt.Tooltip("scores:Q", title="Scores"),
               alt.Tooltip("min:Q", title="Lowest"), alt.Tooltip("q1:Q", title="Lower quartile"),
               alt.Tooltip("median:Q", title="Median"), alt.Tooltip("q3:Q", title="Upper quartile"),
               alt.Tooltip("max:Q", title="Highest"), alt.Tooltip("mean:Q", title="Mean")]
    base = alt.Chart(spread).encode(
        x=alt.X("sitting:N", title=None, sort=alt.SortField("sitting_no")), tooltip=tooltip)
    whisker = base.mark_rule(color=RULE).encode(y=alt.Y("min:Q", title="Qualifier score"),
                                                y2="max:Q")
    box = base.mark_bar(color=ACCENT, opacity=0.55, size=28).encode(y="q1:Q", y2="q3:Q")
    median = base.mark_tick(color="black", size=28, thickness=2).encode(y="median:Q")
    return (whisker + box + median).properties(height=HEIGHT,
                                               title="Qualifier scores per sitting")


def leaders(stats: pd.DataFrame) -> alt.Chart:
    """`stats.leader_stats`: for each leader (per base game), games picked and games won."""
    long = stats.melt(id_vars=["label", "leader", "base_game", "win_rate"],
                      value_vars=["picked", "wins"], var_name="measure", value_name="games")
    long["measure"] = long["measure"].map({"picked": "Picked", "wins": "Won"})
    return alt.Chart(long).mark_bar().encode(
        y=alt.Y("label:N", title=None, sort=stats["label"].tolist(),
                axis=alt.Axis(labelLimit=0)),  # whole names, however long
        yOffset=alt.YOffset("measure:N", sort=list(MEASURE_COLOURS)),
        x=alt.X("games:Q", title="Games", axis=alt.Axis(**COUNT_AXIS)),
        color=alt.Color("measure:N", title=None, scale=_scale(MEASURE_COLOURS),
                        legend=alt.Legend(orient="top")),
        tooltip=[alt.Tooltip("leader:N", title="Leader"),
                 alt.Tooltip("base_game:N", title="Base game"),
                 alt.Tooltip("measure:N", title="Count"), alt.Tooltip("games:Q", title="Games"),
                 alt.Tooltip("win_rate:Q", title="Win rate", format=".0%")],
    ).properties(height=_bar_height(2 * len(stats)), title="Leaders: picked and won")


def seats(stats: pd.DataFrame) -> alt.LayerChart:
    """`stats.seat_stats`: win rate by seat (1 = first player), 4- and 3-player tables side by
    side, each against its fair share (a dashed rule: 25% at four players)."""
    data = stats.assign(size=stats["table_size"].astype(int).astype(str) + " players")
    present = [s for s in SIZE_COLOURS if s in set(data["size"])] or list(SIZE_COLOURS)
    colour = alt.Color("size:N", title="Table", scale=_scale(SIZE_COLOURS, present),
                       legend=alt.Legend(orient="top"))
    bars = alt.Chart(data).mark_bar().encode(
        x=alt.X("seat:O", title="Seat (1 = first player)", axis=alt.Axis(labelAngle=0)),
        xOffset=alt.XOffset("size:N", sort=present),
        y=alt.Y("win_rate:Q", title="Win rate", axis=alt.Axis(format="%")),
        color=colour,
        tooltip=[alt.Tooltip("size:N", title="Table"), alt.Tooltip("seat:O", title="Seat"),
                 alt.Tooltip("games:Q", title="Games"), alt.Tooltip("wins:Q", title="Wins"),
                 alt.Tooltip("win_rate:Q", title="Win rate", format=".0%"),
                 alt.Tooltip("fair:Q", title="Fair share", format=".0%")])
    fair = data.drop_duplicates("size")[["size", "fair"]]
    rules = alt.Chart(fair).mark_rule(strokeDash=[6, 3], size=2).encode(
        y="fair:Q", color=colour,
        tooltip=[alt.Tooltip("size:N", title="Table"),
                 alt.Tooltip("fair:Q", title="Fair share", format=".0%")])
    return (bars + rules).properties(height=HEIGHT, title="Win rate by seat")


def setups(usage: pd.DataFrame) -> alt.Chart:
    """`stats.setup_usage`: qualifier tables per setup (R6: the counts differ by at most one)."""
    present = [b for b in BASE_COLOURS if b in set(usage["base_game"])] or ["Other"]
    return alt.Chart(usage).mark_bar().encode(
        y=alt.Y("setup:N", title=None, sort=usage["setup"].tolist(),
                axis=alt.Axis(labelLimit=0)),
        x=alt.X("tables:Q", title="Tables", axis=alt.Axis(**COUNT_AXIS)),
        color=alt.Color("base_game:N", title="Base game", scale=_scale(BASE_COLOURS, present),
                        legend=alt.Legend(orient="top")),
        tooltip=[alt.Tooltip("setup:N", title="Setup"),
                 alt.Tooltip("base_game:N", title="Base game"),
                 alt.Tooltip("tables:Q", title="Tables")],
    ).properties(height=_bar_height(len(usage)), title="Setups played")


def player_scores(scores: pd.DataFrame) -> alt.Chart:
    """`stats.player_scores`: each chosen player's qualifier scores across sittings."""
    return alt.Chart(scores).mark_line(point=True).encode(
        x=alt.X("sitting:N", title=None, sort=alt.SortField("sitting_no")),
        y=alt.Y("score:Q", title="Qualifier score"),
        color=alt.Color("name:N", title="Player",
                        legend=alt.Legend(orient="top", labelLimit=0)),
        tooltip=[alt.Tooltip("name:N", title="Player"), alt.Tooltip("sitting:N", title="Sitting"),
                 alt.Tooltip("table_no:Q", title="Table"),
                 alt.Tooltip("placing:Q", title="Placing"),
                 alt.Tooltip("score:Q", title="Score")],
    ).properties(height=HEIGHT, title="Scores across sittings")


RATING_COLOURS = {"Skill": "#8c4a1c", "Conservative rating": "#3c7a89"}


def rating_history(history: pd.DataFrame) -> alt.Chart:
    """A person's unofficial rating after each game (`services.season.PlayerPage.history`):
    the skill estimate (mu) and the conservative rating (mu − 3σ) by game played, in the order
    played; the tooltip names the tournament."""
    data = (history.reset_index(drop=True)
            .assign(game=lambda d: d.index + 1, tournament=lambda d: d["tournament"].astype(str))
            .rename(columns={"mu": "Skill", "ordinal": "Conservative rating"})
            .melt(id_vars=["game", "tournament", "sigma"],
                  value_vars=list(RATING_COLOURS), var_name="measure", value_name="value"))
    return alt.Chart(data).mark_line(point=True).encode(
        x=alt.X("game:Q", title="Games played", axis=alt.Axis(**COUNT_AXIS)),
        y=alt.Y("value:Q", title="Rating"),
        color=alt.Color("measure:N", title=None, scale=_scale(RATING_COLOURS),
                        legend=alt.Legend(orient="top")),
        tooltip=[alt.Tooltip("game:Q", title="Game"),
                 alt.Tooltip("tournament:N", title="Tournament"),
                 alt.Tooltip("measure:N", title="Measure"),
                 alt.Tooltip("value:Q", title="Value", format=".1f"),
                 alt.Tooltip("sigma:Q", title="Uncertainty", format=".1f")],
    ).properties(height=HEIGHT, title="Unofficial rating over time")
