"""Chart builders and their aggregations (stsa.stats, stsa.charts) on small hand-made frames:
the numbers each chart is given, and the marks, encodings and tooltips it draws."""

import pandas as pd
import pytest

from stsa import charts, stats

SETUPS = pd.DataFrame({"setup_id": ["legacy", "uprising"], "base_game": ["Legacy", "Uprising"]})
NAMES = {"legacy": "Legacy", "uprising": "Uprising"}


def standings(scores, zones):
    n = len(scores)
    return pd.DataFrame({"rank": range(1, n + 1), "player_id": range(1, n + 1),
                         "name": [f"P{i}" for i in range(1, n + 1)], "best_score": scores,
                         "zone": zones, "tie_at_cut": False})


@pytest.fixture
def table():
    """10 players (R16: 4 to the final, the next 4 to the semifinal)."""
    return standings([30, 25, 24, 22, 22, 20, 18, 15, 15, 10],
                     ["final"] * 4 + ["semifinal"] * 4 + ["out"] * 2)


@pytest.fixture
def scored():
    """Two sittings: a 4-player Legacy game and a 3-player Uprising game, then one Legacy game."""
    rows = [  # game, player, sitting, table, seat, leader, setup, placing, score
        (1, 1, 1, 1, 1, "Paul", "legacy", 1, 23), (1, 2, 1, 1, 2, "Leto", "legacy", 2, 16),
        (1, 3, 1, 1, 3, "Ilban", "legacy", 3, 11), (1, 4, 1, 1, 4, "Paul", "legacy", 4, 0),
        (2, 5, 1, 2, 1, "Feyd", "uprising", 2, 15), (2, 6, 1, 2, 2, "Paul", "uprising", 1, 22),
        (2, 7, 1, 2, 3, "Jessica", "uprising", 3, 10),
        (3, 1, 2, 1, 1, "Leto", "legacy", 4, 0), (3, 2, 2, 1, 2, "Paul", "legacy", 3, 12),
        (3, 3, 2, 1, 3, "Ilban", "legacy", 2, 17), (3, 4, 2, 1, 4, "Ariana", "legacy", 1, 26),
    ]
    cols = ["game_id", "player_id", "sitting_no", "table_no", "seat", "leader", "setup_id",
            "placing", "qualifier_score"]
    frame = pd.DataFrame(rows, columns=cols)
    return frame.assign(name="P" + frame["player_id"].astype(str))


def encoding(chart, layer=None):
    spec = chart.to_dict()
    return spec["layer"][layer]["encoding"] if layer is not None else spec["encoding"]


def tooltip_fields(enc):
    return {t["field"] for t in enc["tooltip"]}


# --- aggregations ------------------------------------------------------------------------------

def test_cut_counts_positions_by_zone(table):
    assert stats.cut(table) == stats.Cut(direct=4, semifinal=8)
    assert stats.cut(standings([9, 8], ["", ""])) == stats.Cut(0, 0)


def test_ranked_scores_keeps_the_top_players():
    big = standings(list(range(100, 60, -1)), ["final"] * 2 + ["semifinal"] * 12 + ["out"] * 26)
    ranked = stats.ranked_scores(big)
    assert len(ranked) == stats.TOP == 30
    assert ranked["position"].tolist() == list(range(1, 31))
    assert ranked["best_score"].iloc[0] == 100 and ranked["zone"].iloc[-1] == "out"


def test_a_chart_of_the_top_players_says_how_many_it_leaves_out():
    """The words beside the best scores chart (Statistics and TV): "top 30 of 40 players"
    when the chart stops short of the standings, nothing when every player has a bar."""
    from stsa.ui import statistics
    assert statistics.top_words(40) == "top 30 of 40 players"
    assert statistics.top_words(31) == "top 30 of 31 players"
    assert statistics.top_words(stats.TOP) == statistics.top_words(0) == ""


def test_distance_to_the_cut(table):
    assert stats.distance_to_cut(table, 10) == {"final": 12, "semifinal": 5}
    assert stats.distance_to_cut(table, 5) == {"final": 0, "semifinal": -7}
    assert stats.distance_sentence(table, 10) == (
        "12 points behind the last spot straight to the final; 5 points behind the last "
        "semifinal spot.")
    assert stats.distance_sentence(table, 5) == (
        "Level on points with the last spot straight to the final (tie-breaks decide); in the "
        "semifinal zone.")
    assert stats.distance_sentence(table, 1) == "In the zone straight to the final."
    small = standings([9, 8, 7], ["", "", ""])
    assert stats.distance_to_cut(small, 3) == {"final": None, "semifinal": None}
    assert stats.distance_sentence(small, 3).startswith("No cut yet")


def test_score_spread_is_five_numbers_per_sitting(scored):
    spread = stats.score_spread(scored)
    assert spread["sitting"].tolist() == ["Qualifier 1", "Qualifier 2"]
    first = spread.iloc[0]
    assert (first["scores"], first["min"], first["median"], first["max"]) == (7, 0, 15, 23)
    assert spread.iloc[1]["q1"] == 9.0 and spread.iloc[1]["q3"] == pytest.approx(19.25)
    assert stats.score_spread(scored.iloc[0:0]).empty


def test_leaders_picked_and_won_per_base_game(scored):
    leaders = stats.leader_stats(scored, SETUPS).set_index("label")
    assert leaders.loc["Paul · Legacy", ["picked", "wins"]].tolist() == [3, 1]
    assert leaders.loc["Paul · Uprising", ["picked", "wins"]].tolist() == [1, 1]
    assert leaders.loc["Ariana · Legacy", "win_rate"] == 1.0
    assert leaders.index[0] == "Paul · Legacy"  # most picked first
    assert len(stats.leader_stats(scored, SETUPS, top=2)) == 2


def test_seat_win_rates_by_table_size(scored):
    seats = stats.seat_stats(scored).set_index(["table_size", "seat"])
    assert seats.loc[(4, 1), ["games", "wins", "win_rate"]].tolist() == [2, 1, 0.5]
    assert seats.loc[(4, 4), "wins"] == 1 and seats.loc[(4, 2), "wins"] == 0
    assert seats.loc[(3, 2), ["games", "wins"]].tolist() == [1, 1]
    assert seats.loc[(4, 1), "fair"] == 0.25 and seats.loc[(3, 1), "fair"] == 0.333


def test_setup_usage_counts_tables(scored):
    usage = stats.setup_usage({"legacy": 2, "mystery": 1, "uprising": 1}, NAMES, SETUPS)
    assert usage[["setup", "base_game", "tables"]].values.tolist() == [
        ["Legacy", "Legacy", 2], ["Uprising", "Uprising", 1], ["mystery", "Other", 1]]


def test_player_scores_by_sitting(scored):
    rows = stats.player_scores(scored, [1, 4])
    assert rows[["name", "sitting", "score"]].values.tolist() == [
        ["P1", "Qualifier 1", 23], ["P1", "Qualifier 2", 0],
        ["P4", "Qualifier 1", 0], ["P4", "Qualifier 2", 26]]


def test_sitting_progress_names_the_tables_still_playing():
    sitting = {"kind": "qualifier", "number": 2, "status": "published", "tables": 5}
    assert stats.sitting_progress({"sitting": None}) == "No sitting drawn yet."
    assert stats.sitting_progress({"sitting": sitting, "missing_tables": [2, 5]}) == (
        "Qualifier 2: 3 of 5 tables have reported; still playing: tables 2, 5.")
    assert stats.sitting_progress({"sitting": sitting, "missing_tables": []}) == (
        "Qualifier 2: all 5 tables have reported.")
    assert "not published" in stats.sitting_progress(
        {"sitting": {**sitting, "status": "drawn"}, "missing_tables": []})


# --- charts ------------------------------------------------------------------------------------

def test_best_scores_bars_coloured_by_zone_with_cut_rules(table):
    chart = charts.best_scores(stats.ranked_scores(table), 4, 8)
    spec = chart.to_dict()
    assert [layer["mark"]["type"] for layer in spec["layer"]] == ["bar", "rule"]
    bars = encoding(chart, 0)
    assert (bars["x"]["field"], bars["x2"]["field"], bars["y"]["field"]) == (
        "left", "right", "best_score")
    assert bars["color"]["scale"]["range"] == [charts.ZONE_COLOURS[z] for z in
                                               ("final", "semifinal", "out")]
    assert tooltip_fields(bars) == {"rank", "name", "best_score", "zone_label"}
    rules = spec["datasets"][spec["layer"][1]["data"]["name"]]
    assert [r["position"] for r in rules] == [4.5, 8.5]
    assert tooltip_fields(encoding(chart, 1)) == {"line"}


def test_score_spread_is_a_layered_box_plot(scored):
    chart = charts.score_spread(stats.score_spread(scored))
    spec = chart.to_dict()
    assert [layer["mark"]["type"] for layer in spec["layer"]] == ["rule", "bar", "tick"]
    for layer in range(3):
        assert {"min", "q1", "median", "q3", "max"} <= tooltip_fields(encoding(chart, layer))


def test_leader_chart_pairs_picked_and_won(scored):
    chart = charts.leaders(stats.leader_stats(scored, SETUPS))
    enc = encoding(chart)
    assert chart.to_dict()["mark"]["type"] == "bar"
    assert enc["y"]["field"] == "label" and enc["yOffset"]["field"] == "measure"
    assert enc["color"]["scale"]["range"] == list(charts.MEASURE_COLOURS.values())
    assert {"leader", "base_game", "games", "win_rate"} <= tooltip_fields(enc)
    rows = next(iter(chart.to_dict()["datasets"].values()))
    assert len(rows) == 2 * len(stats.leader_stats(scored, SETUPS))


def test_seat_chart_has_fair_share_rules(scored):
    chart = charts.seats(stats.seat_stats(scored))
    spec = chart.to_dict()
    assert [layer["mark"]["type"] for layer in spec["layer"]] == ["bar", "rule"]
    bars = encoding(chart, 0)
    assert bars["x"]["field"] == "seat" and bars["xOffset"]["field"] == "size"
    assert bars["color"]["scale"]["range"] == [charts.SIZE_COLOURS["4 players"],
                                               charts.SIZE_COLOURS["3 players"]]
    fair = spec["datasets"][spec["layer"][1]["data"]["name"]]
    assert sorted(r["fair"] for r in fair) == [0.25, 0.333]
    assert {"seat", "games", "wins", "win_rate"} <= tooltip_fields(bars)


def test_setup_chart_colours_by_base_game():
    usage = stats.setup_usage({"legacy": 1, "uprising": 1}, NAMES, SETUPS)
    enc = encoding(charts.setups(usage))
    assert enc["y"]["field"] == "setup" and enc["x"]["field"] == "tables"
    assert enc["color"]["scale"]["range"] == [charts.BASE_COLOURS["Legacy"],
                                              charts.BASE_COLOURS["Uprising"]]
    assert tooltip_fields(enc) == {"setup", "base_game", "tables"}


def test_player_chart_is_one_line_per_player(scored):
    chart = charts.player_scores(stats.player_scores(scored, [1, 2]))
    spec = chart.to_dict()
    assert spec["mark"] == {"type": "line", "point": True}
    assert spec["encoding"]["color"]["field"] == "name"
    assert {"name", "sitting", "score", "placing"} <= tooltip_fields(spec["encoding"])


# --- readable: whole-number counts, whole names --------------------------------------------------

def test_every_count_axis_has_whole_number_ticks(table, scored):
    """Games, tables and standings are counted: no 0.5 tick on their axes."""
    counts = [encoding(charts.leaders(stats.leader_stats(scored, SETUPS)))["x"],
              encoding(charts.setups(stats.setup_usage({"legacy": 1}, NAMES, SETUPS)))["x"],
              encoding(charts.best_scores(stats.ranked_scores(table), 4, 8), 0)["x"]]
    for axis in counts:
        assert axis["axis"]["tickMinStep"] == 1 and axis["axis"]["format"] == "d", axis


def test_leader_and_setup_names_are_never_cut(scored):
    long = scored.assign(leader=scored["leader"].replace(
        "Paul", "Duncan Idaho, Swordmaster of the Ginaz (a very long name)"))
    chart = charts.leaders(stats.leader_stats(long, SETUPS))
    assert encoding(chart)["y"]["axis"]["labelLimit"] == 0  # 0: no limit
    usage = stats.setup_usage({"legacy": 1}, NAMES, SETUPS)
    assert encoding(charts.setups(usage))["y"]["axis"]["labelLimit"] == 0


def test_best_scores_draws_before_anybody_has_a_score(table):
    """A TV asks for the chart before the first result is in: nobody is ranked yet, and the
    chart is drawn empty rather than failing."""
    chart = charts.best_scores(stats.ranked_scores(table.head(0)), 0, 0, names=True)
    assert encoding(chart, 0)["y"]["scale"]["domain"] == [0, 2]


def test_best_scores_names_each_bar_for_the_tv(table):
    """With `names` (the TV) each bar's player is written under it, whole; the names are
    quoted, so a name that looks like code is only shown."""
    table = table.assign(name=table["name"].where(table["rank"] != 2, "O'Neil \"x\" || 1"))
    chart = charts.best_scores(stats.ranked_scores(table), 4, 8, names=True)
    axis = encoding(chart, 0)["x"]["axis"]
    assert axis["values"] == list(range(1, 11)) and axis["labelLimit"] == 0
    assert axis["labelExpr"].startswith('["P1","O\'Neil \\"x\\" || 1","P3",')
    assert "labelExpr" not in encoding(charts.best_scores(stats.ranked_scores(table), 4, 8),
                                       0)["x"]["axis"]
