"""TV page: everyone can open it; slides cycle (standings in a large table, then charts); an
empty tournament says what comes next; the sidebar is hidden by a static style block."""

import json

import pandas as pd
import pytest

from stsa import demo, store, tournament
from stsa.ui import live
from tests.app.conftest import JUDGE, ORGANIZER

PAGE = "views/tv.py"


@pytest.fixture
def demo_tournament(engine):
    demo.load_demo(engine, actor=ORGANIZER)
    return engine


@pytest.fixture
def forty_players(engine):
    """40 players with a result each: one qualifier of ten tables, every result in."""
    store.set_settings(engine, {"capacity": 40}, actor=ORGANIZER)
    names = pd.DataFrame({"name": [f"Player {i:02d}" for i in range(1, 41)]})
    ids = store.import_players(engine, names, actor=ORGANIZER)["player_id"].tolist()
    sitting = tournament.draw_qualifier(engine, ids, seed=3, actor=ORGANIZER)["sitting_id"]
    store.publish_sitting(engine, sitting, actor=ORGANIZER)
    seats = store.seats(engine, sitting, actor=ORGANIZER)
    tables = store.tables(engine, sitting, actor=ORGANIZER)
    for table_id, leaders in zip(tables["table_id"], tables["available_leaders"]):
        seated = seats.loc[seats["table_id"] == table_id, "player_id"]
        rows = pd.DataFrame({"player_id": seated, "vp": [10, 7, 5, 2][:len(seated)],
                             "spice": 0, "solari": 0, "troops": 0, "water": 0,
                             "leader": leaders[:len(seated)]})
        store.submit_table_result(engine, int(table_id), rows, expected_version=0,
                                  submission_id=None, actor=ORGANIZER)
    return engine


def charts(at):
    return [json.loads(c.proto.spec) for c in at.get("vega_lite_chart")]


@pytest.mark.parametrize("who", [None, JUDGE, ORGANIZER])
def test_empty_tournament_says_what_comes_next(open_page, who):
    at = open_page(PAGE, as_=who)
    assert not at.exception
    assert at.title[0].value.endswith("· Standings")
    assert "No results yet" in at.info[0].value


@pytest.mark.parametrize("who", [None, JUDGE, ORGANIZER])
def test_first_slide_is_every_player_in_two_columns(open_page, demo_tournament, who):
    """24 players fit one slide: two columns of 12, ranks shown, nothing left over."""
    at = open_page(PAGE, as_=who)
    assert not at.exception
    assert at.title[0].value.replace("\\", "") == "Demo: Swordmasters Open · Standings"
    expected = tournament.standings_table(demo_tournament)
    left, right = at.table[0].value, at.table[1].value
    assert list(left.columns) == ["Rank", "Player", "Best score", "Zone", "Games", "Wins"]
    assert (len(left), len(right)) == (12, 12)
    assert (left["Player"].tolist() + right["Player"].tolist()
            == expected["name"].tolist())
    assert right["Rank"].tolist()[-1] == expected["rank"].tolist()[-1]
    assert "more on the Standings page" not in at.markdown[-1].value
    assert "Slide 1 of 3" in at.caption[-1].value
    assert any("display: none" in h.proto.body for h in at.get("html"))


def test_a_large_field_pages_through_the_standings():
    """Two columns of 14 a slide: 70 players take three slides (places 1–28, 29–56, 57–70);
    130 take the most there are, four, and the rest read the Standings page."""
    assert live.tv_pages(24) == [(0, 24)]
    assert live.tv_pages(70) == [(0, 28), (28, 56), (56, 70)]
    assert live.tv_pages(130) == [(0, 28), (28, 56), (56, 84), (84, 112)]
    assert live.tv_pages(0) == [(0, 0)]
    columns = live.tv_columns(pd.DataFrame({"Rank": range(1, 16)}))
    assert [c["Rank"].tolist() for c in columns] == [list(range(1, 9)), list(range(9, 16))]


def test_best_scores_slide_names_every_bar(open_page, demo_tournament):
    at = open_page(PAGE)
    at.run()
    bars = charts(at)[0]["layer"][0]["encoding"]["x"]["axis"]
    names = tournament.standings_table(demo_tournament)["name"].tolist()
    assert bars["values"] == list(range(1, 25))
    assert all(json.dumps(name) in bars["labelExpr"] for name in names)


def test_slides_cycle_to_the_charts(open_page, demo_tournament):
    at = open_page(PAGE)
    at.run()
    assert at.title[0].value.endswith("· Best scores")
    assert "Best qualifier scores" in json.dumps(charts(at)[0]["title"])
    at.run()
    assert at.title[0].value.endswith("· Scores per sitting")
    assert not at.table
    at.run()
    assert at.title[0].value.endswith("· Standings")


def test_the_best_scores_slide_says_it_shows_only_the_top(open_page, forty_players):
    """40 players: the chart has bars for the best 30, and its slide's heading says so."""
    at = open_page(PAGE)
    assert at.title[0].value.endswith("· Standings, places 1–28")
    at.run()
    at.run()
    assert at.title[0].value.endswith("· Best scores, top 30 of 40 players")
    bars = charts(at)[0]["layer"][0]["encoding"]["x"]["axis"]
    assert bars["values"] == list(range(1, 31))


def test_standings_page_with_tv_query_opens_tv_mode(open_page, demo_tournament):
    at = open_page("views/standings.py", query={"tv": "1"})
    assert not at.exception
    assert at.title[0].value.endswith("· Standings") and at.table
