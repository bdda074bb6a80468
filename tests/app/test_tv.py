"""TV page: everyone can open it; slides cycle (standings in a large table, then charts); an
empty tournament says what comes next; the sidebar is hidden by a static style block."""

import json

import pytest

from stsa import demo, tournament
from tests.app.conftest import JUDGE, ORGANIZER

PAGE = "views/tv.py"


@pytest.fixture
def demo_tournament(engine):
    demo.load_demo(engine, actor=ORGANIZER)
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
def test_first_slide_is_the_standings_around_the_cut(open_page, demo_tournament, who):
    at = open_page(PAGE, as_=who)
    assert not at.exception
    assert at.title[0].value.replace("\\", "") == "Demo: Swordmasters Open · Standings"
    shown = at.table[0].value
    expected = tournament.standings_table(demo_tournament)
    assert list(shown.columns) == ["Rank", "Player", "Best score", "Zone", "Games", "Wins"]
    assert len(shown) == 13  # the semifinal cut (11) + 2
    assert shown["Player"].tolist() == expected["name"].head(13).tolist()
    assert "11 more on the Standings page" in at.markdown[-1].value
    assert "Slide 1 of 3" in at.caption[-1].value
    assert any("display: none" in h.proto.body for h in at.get("html"))


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


def test_standings_page_with_tv_query_opens_tv_mode(open_page, demo_tournament):
    at = open_page("views/standings.py", query={"tv": "1"})
    assert not at.exception
    assert at.title[0].value.endswith("· Standings") and at.table
