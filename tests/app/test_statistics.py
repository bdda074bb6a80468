"""Statistics page: everyone can open it; an empty tournament says what comes next; with the
demo tournament each chart (one at a time) draws from a small aggregated frame, and the player
chart follows the players chosen."""

import json

import pyarrow as pa
import pytest

from stsa import demo, tournament
from tests.app.conftest import JUDGE, ORGANIZER

PAGE = "views/statistics.py"


def chart_specs(at):
    """The Vega-Lite specs of the charts on the page (all tabs render on the server)."""
    return [json.loads(c.proto.spec) for c in at.get("vega_lite_chart")]


def chart_rows(at) -> list[list[dict]]:
    """Per chart, the rows it sends the browser (its Arrow datasets)."""
    return [[row for ds in c.proto.datasets
             for row in pa.ipc.open_stream(ds.data.data).read_all().to_pylist()]
            for c in at.get("vega_lite_chart")]


@pytest.fixture
def demo_tournament(engine):
    demo.load_demo(engine, actor=ORGANIZER)
    return engine


@pytest.mark.parametrize("who", [None, JUDGE, ORGANIZER])
def test_empty_tournament_says_what_comes_next(open_page, who):
    at = open_page(PAGE, as_=who)
    assert not at.exception
    assert at.title[0].value == "Statistics"
    assert "No results yet" in at.info[0].value
    assert not chart_specs(at)


TITLES = {"Best scores": "Best qualifier scores", "Sittings": "Qualifier scores per sitting",
          "Players": "Scores across sittings", "Leaders": "Leaders: picked and won",
          "Seats": "Win rate by seat", "Setups": "Setups played"}


@pytest.mark.parametrize("who", [None, JUDGE, ORGANIZER])
def test_demo_tournament_shows_the_best_scores_first(open_page, demo_tournament, who):
    at = open_page(PAGE, as_=who)
    assert not at.exception
    assert "Qualifier 3: all 6 tables have reported." in at.caption[1].value
    assert [s.get("title") for s in chart_specs(at)] == ["Best qualifier scores"]
    ranked = chart_rows(at)[0]
    expected = tournament.standings_table(demo_tournament)
    assert [r["name"] for r in ranked if "name" in r] == expected["name"].tolist()
    assert "Dashed lines: the finals cut." in at.caption[-1].value


def test_every_chart_draws_from_a_small_frame(open_page, demo_tournament):
    at = open_page(PAGE)
    for name, title in TITLES.items():
        at.button_group(key="stats_chart").set_value(name).run()
        assert not at.exception, name
        assert [s.get("title") for s in chart_specs(at)] == [title]
        assert all(0 < len(rows) <= 200 for rows in chart_rows(at)), name
        assert at.caption or at.multiselect  # every chart is explained or has its input


def test_player_chart_follows_the_chosen_players(open_page, demo_tournament):
    at = open_page(PAGE)
    at.button_group(key="stats_chart").set_value("Players").run()
    table = tournament.standings_table(demo_tournament)
    box = at.multiselect(key="stats_players")
    assert box.value == table["player_id"].head(3).tolist()
    box.set_value([int(table["player_id"].iloc[-1])]).run()
    assert not at.exception
    titles = [s.get("title") for s in chart_specs(at)]
    names = {r["name"] for r in chart_rows(at)[titles.index("Scores across sittings")]}
    assert names == {table["name"].iloc[-1]}
    at.multiselect(key="stats_players").set_value([]).run()
    assert "Choose one or more players" in at.info[0].value
