"""The Standings table's rank in every language (issue 33): its first column shows each
player's rank (1 … N, tied players sharing one), never the placing of their best game, and no
two of its columns share a heading, in English, Swedish and French. What a page gives its
element (the columns' headings, the feed's answer) is read here the way a person reads the
table: a column by its heading. The browser's own drawing: tests/e2e/test_ranks_languages.py."""

from __future__ import annotations

import json

import pytest

from stsa import demo, i18n, store, tournament
from stsa.i18n import _
from stsa.services import feed as shape
from stsa.ui import live_standings
from stsa.web import feed
from tests.app.conftest import ORGANIZER, live_data
from tests.support import feed_routes

PAGE = "views/standings.py"
LANGUAGES = ("en", "fr", "sv")
pytestmark = pytest.mark.usefixtures("answers_at_once")


@pytest.fixture
def demo_tournament(engine):
    """The demo: 24 players after three qualifiers, 18 game winners among them."""
    demo.load_demo(engine, actor=ORGANIZER)
    feed.forget_recent()
    return engine


def heading(code: str, message: str) -> str:
    with i18n.language(code):
        return _(message)


def by_heading(columns: list[dict], rows: list[dict]) -> list[dict]:
    """`rows` as a reader sees them: {heading: value}, the headings the element shows."""
    return [{c["label"]: row.get(c["key"]) for c in columns} for row in rows]


def shares_ranks(ranks: list[int]) -> bool:
    """1 … N in order, where a tied player shares the rank of the one above."""
    return ranks[:1] == [1] and all(r == i + 1 or r == ranks[i - 1]
                                    for i, r in enumerate(ranks) if i)


def test_the_demo_has_ranks_that_are_not_its_placings(demo_tournament):
    table = tournament.standings_table(demo_tournament)
    assert (table["placing"] == 1).sum() >= 10 and shares_ranks(table["rank"].tolist())
    assert (table["rank"] != table["placing"]).sum() >= 20


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_standings_first_column_is_the_rank_in_every_language(open_page, demo_tournament,
                                                                  code):
    at = open_page(PAGE, query={"lang": code})
    assert not at.exception
    found = live_data(at, "standings")
    columns = [c for c in found["columns"] if c["key"] in found["answer"]["columns"]]
    labels = [c["label"] for c in columns]
    assert len(set(labels)) == len(labels), f"two columns share a heading: {labels}"
    assert labels[0] == heading(code, "Rank")
    rows = by_heading(columns, found["answer"]["standings"])
    expected = tournament.standings_table(demo_tournament)
    assert [r[heading(code, "Player")] for r in rows] == expected["name"].tolist()
    ranks = [r[heading(code, "Rank")] for r in rows]
    assert ranks == expected["rank"].tolist() and shares_ranks(ranks)
    assert [r[heading(code, "Placing")] for r in rows] == expected["placing"].tolist()
    # the games a player's card lists: Placing is a heading of its own there too
    games = found["words"]["games"]
    assert len(set(games)) == len(games) == len(live_standings.GAMES)


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_live_standings_answer_sends_ranks_in_every_language(demo_tournament, code):
    key = str(store.tournaments(demo_tournament)["key"].iloc[0])
    answer = feed_routes.answer(f"{shape.PREFIX}/tournaments/{{key}}/live/standings",
                                lang=code, key=key)
    assert answer.status_code == 200
    rows = json.loads(bytes(answer.body))["standings"]
    expected = tournament.standings_table(demo_tournament)
    assert [r["rank"] for r in rows] == expected["rank"].tolist()
    assert [r["placing"] for r in rows] == expected["placing"].tolist()
    assert shares_ranks([r["rank"] for r in rows])
