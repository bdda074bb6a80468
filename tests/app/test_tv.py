"""TV page: everyone can open it; its live element cycles the slides in the browser (standings
in two large columns, then the charts as SVG from the feed, then the season) from the shared
`live/tv` answer (its data is in the element tree); an empty tournament says what comes next;
the sidebar is hidden by a static style block."""

import pandas as pd
import pytest

from stsa import demo, store, tournament
from stsa.ui import live, live_element
from stsa.web import feed
from tests.app.conftest import JUDGE, ORGANIZER
from tests.support import feed_routes

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


def element(at) -> dict:
    """TV's live element as the page mounted it: its data and its answer (`answer`)."""
    (mounted,) = [e for e in at.get("bidi_component")
                  if e.proto.component_name.endswith("stsa_live_tv")]
    return live_element.data_of(mounted.proto.json)


def svg(engine, chart: str) -> str:
    """The TV's chart `chart` as the feed draws it."""
    feed.forget_recent()
    key = store.tournaments(engine)["key"].iloc[0]
    answer = feed_routes.answer(f"/api/v1/tournaments/{{key}}/live/charts/{chart}.svg",
                                key=key)
    assert answer.status_code == 200
    return bytes(answer.body).decode()


@pytest.mark.parametrize("who", [None, JUDGE, ORGANIZER])
def test_empty_tournament_says_what_comes_next(open_page, who):
    at = open_page(PAGE, as_=who)
    assert not at.exception
    found = element(at)
    assert found["answer"]["standings"] == [] and found["answer"]["slides"][0]["heading"] == \
        "Standings"
    assert found["words"]["empty"].startswith("No results yet")


@pytest.mark.parametrize("who", [None, JUDGE, ORGANIZER])
def test_first_slide_is_every_player_in_two_columns(open_page, demo_tournament, who):
    """24 players fit one slide: two columns of 12, ranks shown, nothing left over; the
    slides cycle in the browser (no fragment runs the page again)."""
    at = open_page(PAGE, as_=who)
    assert not at.exception
    found = element(at)
    answer = found["answer"]
    assert answer["name"] == "Demo: Swordmasters Open"
    (standings, best, sittings) = answer["slides"]
    assert standings == {"kind": "standings", "heading": "Standings",
                         "columns": [[0, 12], [12, 24]]}
    assert found["words"]["columns"] == ["Rank", "Player", "Best score", "Zone", "Games",
                                         "Wins"]
    expected = tournament.standings_table(demo_tournament)
    assert [r["player"] for r in answer["standings"]] == expected["name"].tolist()
    assert answer["standings"][-1]["rank"] == expected["rank"].tolist()[-1]
    assert answer["standings"][0]["tint"] == live.ROW_COLOURS["Final"]
    assert "more on the Standings page" not in answer["cut"]
    assert found["words"]["slide"].format(number=1, count=len(answer["slides"]),
                                          seconds=found["seconds"]) == \
        "Slide 1 of 3; the next in 15 s."
    assert any("display: none" in h.proto.body for h in at.get("html"))
    at.run()  # a run of its own (a person acting) shows the same: slides are the browser's
    assert element(at)["answer"] == answer and not at.title


def test_a_large_field_pages_through_the_standings():
    """Two columns of 16 a slide (issue 33: 32 players on one screen): 32 take one slide, 70
    three (places 1–32, 33–64, 65–70); 130 take the most there are, four, and the rest read
    the Standings page."""
    assert live.tv_pages(24) == [(0, 24)]
    assert live.tv_pages(32) == [(0, 32)]
    assert live.tv_pages(70) == [(0, 32), (32, 64), (64, 70)]
    assert live.tv_pages(130) == [(0, 32), (32, 64), (64, 96), (96, 128)]
    assert live.tv_pages(0) == [(0, 0)]
    columns = live.tv_columns(pd.DataFrame({"Rank": range(1, 16)}))
    assert [c["Rank"].tolist() for c in columns] == [list(range(1, 9)), list(range(9, 16))]


def test_best_scores_slide_names_every_bar(engine, demo_tournament):
    drawn = svg(engine, "best-scores")
    names = tournament.standings_table(demo_tournament)["name"].tolist()
    assert all(f">{name}<" in drawn for name in names)
    assert "Best qualifier scores" in drawn


def test_the_slides_are_the_standings_then_the_charts(open_page, demo_tournament, engine):
    at = open_page(PAGE)
    slides = element(at)["answer"]["slides"]
    assert [(s["kind"], s["heading"]) for s in slides] == [
        ("standings", "Standings"), ("chart", "Best scores"), ("chart", "Scores per sitting")]
    for slide in slides[1:]:
        assert slide["alt"] and element(at)["charts"][slide["chart"]].endswith(
            f"/live/charts/{slide['chart']}.svg?lang=en")
        assert svg(engine, slide["chart"]).startswith("<svg")


def test_the_best_scores_slide_says_it_shows_only_the_top(open_page, forty_players, engine):
    """40 players: the chart has bars for the best 30, and its slide's heading says so."""
    slides = element(open_page(PAGE))["answer"]["slides"]
    assert slides[0]["heading"] == "Standings, places 1–32"
    assert slides[2]["heading"] == "Best scores, top 30 of 40 players"
    drawn = svg(engine, "best-scores")
    shown_ = tournament.standings_table(forty_players)["name"].tolist()
    assert sum(f">{name}<" in drawn for name in shown_) == 30


def test_standings_page_with_tv_query_opens_tv_mode(open_page, demo_tournament):
    at = open_page("views/standings.py", query={"tv": "1"})
    assert not at.exception
    assert element(at)["answer"]["standings"]
