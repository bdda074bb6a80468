"""The Standings table's rank in a real browser, in English, French and Swedish (issue 33):
with every column shown, the first column is each player's rank (1 … N, tied players sharing
one), its heading is the rank's own, and the column headed by the best game's placing shows
the placings; no two columns share a heading, so a person (or a screen reader) reading a
column by its heading reads the right one. The demo: 24 players after three qualifiers, most
of them winners of a game."""

from __future__ import annotations

import pytest

from stsa import demo, i18n, store, tournament
from stsa.auth import Actor, Role
from stsa.i18n import _
from tests.e2e.conftest import live_grid

pytestmark = pytest.mark.e2e
OLIVIA = Actor("Olivia", Role.ORGANIZER)


@pytest.fixture(scope="module")
def standings(server):
    """The demo in the module's app; its standings (`tournament.standings_table`)."""
    engine = store.connect(server.database_url)
    demo.load_demo(engine, actor=OLIVIA)
    table = tournament.standings_table(engine)
    engine.dispose()
    return table


def said(code: str, message: str) -> str:
    with i18n.language(code):
        return _(message)


@pytest.mark.parametrize("code", ["en", "fr", "sv"])
def test_the_first_column_is_the_rank_with_every_column_shown(open_app, standings, code):
    page = open_app(f"standings?lang={code}")
    page.get_by_role("switch", name=said(code, "All columns")).check()
    rank, player, placing = (said(code, m) for m in ("Rank", "Player", "Placing"))
    rows = live_grid(page, rank, player, placing, rows=len(standings))
    table = page.locator(".stsa-live table").first
    heads = [h.strip() for h in table.locator("thead th").all_inner_texts()]
    assert heads[0] == rank and len(set(heads)) == len(heads), heads
    first = [c.strip() for c in table.locator("tbody tr td:first-child").all_inner_texts()]
    ranks = [str(r) for r in standings["rank"]]
    assert first == ranks  # by position: what the eye reads down the first column
    assert [r[rank] for r in rows] == ranks  # by heading: what a reader of the heading reads
    assert [r[player] for r in rows] == standings["name"].tolist()
    assert [r[placing] for r in rows] == [str(p) for p in standings["placing"]]
