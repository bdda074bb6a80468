"""Altair chart builders: a small pre-aggregated frame in (see `stsa.stats`), a chart out.

One palette for every chart, so a zone, a base game or a table size has the same colour
wherever it shows; every mark has a tooltip; widths follow the container (phones). Every colour
stands out from the page's background at 3:1 at least (README, Accessibility); axes that count
(games, tables, standings) have whole-number ticks only.

The frames in are shared per data version and hold English words; a chart is built at each
page run, so its titles, axis and legend titles and the words it shows (zones, "Qualifier 2",
"4 players") are put in the run's language here, on a copy, never in the shared frame.
"""

from __future__ import annotations

import json
from typing import Any

import altair as alt
import pandas as pd

from stsa import i18n
from stsa.i18n import N_, _, ngettext

ZONE_COLOURS = {"final": "#946200", "semifinal": "#2f6f9f", "out": "#6b7379", "none": "#6b7379"}
ZONE_LABELS = {"final": N_("Final"), "semifinal": N_("Semifinal"), "out": N_("Out"),
               "none": N_("No cut yet")}
BASE_COLOURS = {"Legacy": "#b5651d", "Uprising": "#3c7a89", N_("Other"): "#7f8a90"}
MEASURE_COLOURS = {N_("Picked"): "#a0803e", N_("Won"): "#8c4a1c"}
SIZE_COLOURS = {"4 players": "#8c4a1c", "3 players": "#3c7a89"}  # i18n: as is (keys; `_size`)
ACCENT = "#8c4a1c"
RULE = "#444444"
HEIGHT = 320
# A count has whole-number ticks only.
COUNT_AXIS: dict[str, Any] = {"tickMinStep": 1, "format": "d"}


def _scale(colours: dict[str, str], domain=None, shown=None) -> alt.Scale:
    """The colour scale of `colours` (English keys), its domain the keys as the chart's data
    says them (`shown`: a key in the run's language, default `_`)."""
    keys = list(colours) if domain is None else list(domain)
    name = shown or _
    return alt.Scale(domain=[name(k) for k in keys], range=[colours[k] for k in keys])


def _size(players: int) -> str:
    """"4 players": a table size in the run's language."""
    return ngettext("{count} player", "{count} players", players).format(count=players)


def _bar_height(rows: int) -> int:
    return max(120, 22 * rows + 40)


def best_scores(ranked: pd.DataFrame, direct: int, semifinal: int,
                names: bool = False) -> alt.LayerChart:
    """`stats.ranked_scores`: best score by position, coloured by zone, with a rule after the
    last direct-final spot and after the last semifinal spot (R16). `names`: each bar's player
    is named under it (the TV, where nobody can point at a bar for its tooltip)."""
    data = ranked.assign(zone_label=ranked["zone"].map(lambda z: _(ZONE_LABELS[z])),
                         left=ranked["position"] - 0.4, right=ranked["position"] + 0.4)
    present = [z for z in ZONE_LABELS if z in set(data["zone"])] or ["none"]
    # before the first result nobody has a score: the empty chart still draws
    highest = int(data["best_score"].fillna(0).max()) if len(data) else 0
    axis = alt.Axis(**COUNT_AXIS)
    if names:
        axis = alt.Axis(values=data["position"].tolist(), labelExpr=_label_lookup(data["name"]),
                        labelAngle=-45, labelAlign="right", labelLimit=0, labelOverlap=False)
    bars = alt.Chart(data).mark_bar().encode(
        x=alt.X("left:Q", title=None if names else _("Standing"), axis=axis,
                scale=alt.Scale(domain=[0.5, len(data) + 0.5])),
        x2="right:Q",
        y=alt.Y("best_score:Q", title=_("Best qualifier score"),
                scale=alt.Scale(domain=[0, max(1, highest + 2)])),
        y2=alt.datum(0),
        color=alt.Color("zone_label:N", title=_("Zone"), legend=alt.Legend(orient="top"),
                        scale=_scale({ZONE_LABELS[z]: ZONE_COLOURS[z] for z in present})),
        tooltip=[alt.Tooltip("rank:Q", title=_("Rank")), alt.Tooltip("name:N", title=_("Player")),
                 alt.Tooltip("best_score:Q", title=_("Best score")),
                 alt.Tooltip("zone_label:N", title=_("Zone"))],
    )
    lines = pd.DataFrame({
        "position": [p + 0.5 for p in (direct, semifinal) if 0 < p < len(data) + 1],
        "line": [_cut_line(label, p) for label, p in
                 (("final", direct), ("semifinal", semifinal)) if 0 < p < len(data) + 1],
    }).drop_duplicates("position")
    rules = alt.Chart(lines).mark_rule(color=RULE, strokeDash=[6, 3], size=2).encode(
        x="position:Q", tooltip=[alt.Tooltip("line:N", title=_("Cut line"))])
    return (bars + rules).properties(height=HEIGHT, title=_("Best qualifier scores"))


def _cut_line(line: str, players: int) -> str:
    """"Cut: final (8 players)": a cut line's tooltip."""
    if line == "final":
        return ngettext("Cut: final ({count} player)", "Cut: final ({count} players)",
                        players).format(count=players)
    return ngettext("Cut: semifinal ({count} player)", "Cut: semifinal ({count} players)",
                    players).format(count=players)


def _label_lookup(names: pd.Series) -> str:
    """A Vega expression naming position 1, 2, … by `names` (each quoted as a string literal,
    so a name is only ever shown, never read as an expression)."""
    return "[" + ",".join(json.dumps(str(n)) for n in names) + "][datum.value - 1] || ''"


def score_spread(spread: pd.DataFrame) -> alt.LayerChart:
    """`stats.score_spread`: a box plot per sitting from its five numbers (min–max whisker,
    quartile box, median tick)."""
    tooltip = [alt.Tooltip("sitting:N", title=_("Sitting")),
               alt.Tooltip("scores:Q", title=_("Scores")),
               alt.Tooltip("min:Q", title=_("Lowest")),
               alt.Tooltip("q1:Q", title=_("Lower quartile")),
               alt.Tooltip("median:Q", title=_("Median")),
               alt.Tooltip("q3:Q", title=_("Upper quartile")),
               alt.Tooltip("max:Q", title=_("Highest")), alt.Tooltip("mean:Q", title=_("Mean"))]
    spread = spread.assign(sitting=i18n.cells(spread["sitting"])) if len(spread) else spread
    base = alt.Chart(spread).encode(
        x=alt.X("sitting:N", title=None, sort=alt.SortField("sitting_no")), tooltip=tooltip)
    whisker = base.mark_rule(color=RULE).encode(y=alt.Y("min:Q", title=_("Qualifier score")),
                                                y2="max:Q")
    box = base.mark_bar(color=ACCENT, opacity=0.55, size=28).encode(y="q1:Q", y2="q3:Q")
    median = base.mark_tick(color="black", size=28, thickness=2).encode(y="median:Q")
    return (whisker + box + median).properties(height=HEIGHT,
                                               title=_("Qualifier scores per sitting"))


def leaders(stats: pd.DataFrame) -> alt.Chart:
    """`stats.leader_stats`: for each leader (per base game), games picked and games won."""
    long = stats.melt(id_vars=["label", "leader", "base_game", "win_rate"],
                      value_vars=["picked", "wins"], var_name="measure", value_name="games")
    long["measure"] = long["measure"].map({"picked": _("Picked"), "wins": _("Won")})
    long["base_game"] = i18n.cells(long["base_game"])
    long["label"] = long["leader"] + " · " + long["base_game"]  # i18n: as is (a name · a game)
    order = (stats["leader"] + " · " + i18n.cells(stats["base_game"])).tolist()  # i18n: as is
    return alt.Chart(long).mark_bar().encode(
        y=alt.Y("label:N", title=None, sort=order,
                axis=alt.Axis(labelLimit=0)),  # whole names, however long
        yOffset=alt.YOffset("measure:N", sort=[_(m) for m in MEASURE_COLOURS]),
        x=alt.X("games:Q", title=_("Games"), axis=alt.Axis(**COUNT_AXIS)),
        color=alt.Color("measure:N", title=None, scale=_scale(MEASURE_COLOURS),
                        legend=alt.Legend(orient="top")),
        tooltip=[alt.Tooltip("leader:N", title=_("Leader")),
                 alt.Tooltip("base_game:N", title=_("Base game")),
                 alt.Tooltip("measure:N", title=_("Count")),
                 alt.Tooltip("games:Q", title=_("Games")),
                 alt.Tooltip("win_rate:Q", title=_("Win rate"), format=".0%")],
    ).properties(height=_bar_height(2 * len(stats)), title=_("Leaders: picked and won"))


def seats(stats: pd.DataFrame) -> alt.LayerChart:
    """`stats.seat_stats`: win rate by seat (1 = first player), 4- and 3-player tables side by
    side, each against its fair share (a dashed rule: 25% at four players)."""
    sizes = stats["table_size"].astype(int)
    keys = sizes.astype(str) + " players"  # i18n: as is (SIZE_COLOURS' keys)
    data = stats.assign(size=[_size(n) for n in sizes])
    present = [s for s in SIZE_COLOURS if s in set(keys)] or list(SIZE_COLOURS)
    shown = {k: _size(int(k.split()[0])) for k in SIZE_COLOURS}.get
    colour = alt.Color("size:N", title=_("Table"), scale=_scale(SIZE_COLOURS, present, shown),
                       legend=alt.Legend(orient="top"))
    bars = alt.Chart(data).mark_bar().encode(
        x=alt.X("seat:O", title=_("Seat (1 = first player)"), axis=alt.Axis(labelAngle=0)),
        xOffset=alt.XOffset("size:N", sort=[shown(s) or s for s in present]),
        y=alt.Y("win_rate:Q", title=_("Win rate"), axis=alt.Axis(format="%")),
        color=colour,
        tooltip=[alt.Tooltip("size:N", title=_("Table")), alt.Tooltip("seat:O", title=_("Seat")),
                 alt.Tooltip("games:Q", title=_("Games")), alt.Tooltip("wins:Q", title=_("Wins")),
                 alt.Tooltip("win_rate:Q", title=_("Win rate"), format=".0%"),
                 alt.Tooltip("fair:Q", title=_("Fair share"), format=".0%")])
    fair = data.drop_duplicates("size")[["size", "fair"]]
    rules = alt.Chart(fair).mark_rule(strokeDash=[6, 3], size=2).encode(
        y="fair:Q", color=colour,
        tooltip=[alt.Tooltip("size:N", title=_("Table")),
                 alt.Tooltip("fair:Q", title=_("Fair share"), format=".0%")])
    return (bars + rules).properties(height=HEIGHT, title=_("Win rate by seat"))


def setups(usage: pd.DataFrame) -> alt.Chart:
    """`stats.setup_usage`: qualifier tables per setup (R6: the counts differ by at most one)."""
    present = [b for b in BASE_COLOURS if b in set(usage["base_game"])] or ["Other"]
    usage = usage.assign(base_game=i18n.cells(usage["base_game"])) if len(usage) else usage
    return alt.Chart(usage).mark_bar().encode(
        y=alt.Y("setup:N", title=None, sort=usage["setup"].tolist(),
                axis=alt.Axis(labelLimit=0)),
        x=alt.X("tables:Q", title=_("Tables"), axis=alt.Axis(**COUNT_AXIS)),
        color=alt.Color("base_game:N", title=_("Base game"),
                        scale=_scale(BASE_COLOURS, present, i18n.cell),
                        legend=alt.Legend(orient="top")),
        tooltip=[alt.Tooltip("setup:N", title=_("Setup")),
                 alt.Tooltip("base_game:N", title=_("Base game")),
                 alt.Tooltip("tables:Q", title=_("Tables"))],
    ).properties(height=_bar_height(len(usage)), title=_("Setups played"))


def player_scores(scores: pd.DataFrame) -> alt.Chart:
    """`stats.player_scores`: each chosen player's qualifier scores across sittings."""
    scores = scores.assign(sitting=i18n.cells(scores["sitting"])) if len(scores) else scores
    return alt.Chart(scores).mark_line(point=True).encode(
        x=alt.X("sitting:N", title=None, sort=alt.SortField("sitting_no")),
        y=alt.Y("score:Q", title=_("Qualifier score")),
        color=alt.Color("name:N", title=_("Player"),
                        legend=alt.Legend(orient="top", labelLimit=0)),
        tooltip=[alt.Tooltip("name:N", title=_("Player")),
                 alt.Tooltip("sitting:N", title=_("Sitting")),
                 alt.Tooltip("table_no:Q", title=_("Table")),
                 alt.Tooltip("placing:Q", title=_("Placing")),
                 alt.Tooltip("score:Q", title=_("Score"))],
    ).properties(height=HEIGHT, title=_("Scores across sittings"))


RATING_COLOURS = {N_("Skill"): "#8c4a1c", N_("Conservative rating"): "#3c7a89"}


def rating_history(history: pd.DataFrame) -> alt.Chart:
    """A person's unofficial rating after each game (`services.season.PlayerPage.history`):
    the skill estimate (mu) and the conservative rating (mu − 3σ) by game played, in the order
    played; the tooltip names the tournament."""
    data = (history.reset_index(drop=True)
            .assign(game=lambda d: d.index + 1, tournament=lambda d: d["tournament"].astype(str))
            .rename(columns={"mu": "Skill", "ordinal": "Conservative rating"})
            .melt(id_vars=["game", "tournament", "sigma"],
                  value_vars=list(RATING_COLOURS), var_name="measure", value_name="value"))
    data["measure"] = data["measure"].map(_)
    return alt.Chart(data).mark_line(point=True).encode(
        x=alt.X("game:Q", title=_("Games played"), axis=alt.Axis(**COUNT_AXIS)),
        y=alt.Y("value:Q", title=_("Rating")),
        color=alt.Color("measure:N", title=None, scale=_scale(RATING_COLOURS),
                        legend=alt.Legend(orient="top")),
        tooltip=[alt.Tooltip("game:Q", title=_("Game")),
                 alt.Tooltip("tournament:N", title=_("Tournament")),
                 alt.Tooltip("measure:N", title=_("Measure")),
                 alt.Tooltip("value:Q", title=_("Value"), format=".1f"),
                 alt.Tooltip("sigma:Q", title=_("Uncertainty"), format=".1f")],
    ).properties(height=HEIGHT, title=_("Unofficial rating over time"))
