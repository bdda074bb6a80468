"""The standings and the champion on a phone (390 × 844), in a real browser, with 40 players
after the final:

- Standings (a live element's HTML table): no wider than the screen, scrolling neither
  sideways nor inside itself: rank, player, zone, best score and games in view, every row at
  its full height, the page the only thing that scrolls;
- Home: the champion on the first screen, with a link to the final standings, which open the
  Finals page (R18, R22).
"""

from __future__ import annotations

import re

import pandas as pd
import pytest

from stsa import store, tournament
from stsa.auth import Actor, Role
from tests.e2e.conftest import PHONE, go_to, live_grid, published_qualifier, wait_ready

pytestmark = pytest.mark.e2e

ORGANIZER, JUDGE = Actor("Olivia", Role.ORGANIZER), Actor("Jamal", Role.JUDGE)
NAMES = [f"Wensicia Corrino-Atreides {i:02d}" if i % 8 == 0 else f"Player {i:02d}"
         for i in range(40)]


def _play(engine, sitting_id: int, offset: int = 0) -> None:
    """Enter every table of a published sitting, every VP different (no ties to settle)."""
    seats = store.seats(engine, sitting_id, actor=ORGANIZER)
    for t, table in enumerate(store.tables(engine, sitting_id, actor=ORGANIZER).itertuples()):
        at = seats.loc[seats["table_id"] == table.table_id]
        vps = [30 + 7 * t + offset, 20 + 3 * t + offset, 10 + t + offset, t + offset]
        rows = pd.DataFrame({"player_id": at["player_id"].to_numpy(),
                             "leader": table.available_leaders[:len(at)],
                             "vp": vps[:len(at)], "spice": 0, "solari": 0, "troops": 0,
                             "water": 0})
        store.submit_table_result(engine, table.table_id, rows, expected_version=0,
                                  submission_id=None, actor=JUDGE)


def _publish_and_play(engine, drawn, offset: int = 0) -> None:
    store.publish_sitting(engine, drawn["sitting_id"], actor=ORGANIZER)
    _play(engine, int(drawn["sitting_id"]), offset)


@pytest.fixture(scope="module")
def finished(server):
    """40 players: two qualifiers, three semifinals and the final played; the champion's
    nickname."""
    engine = store.connect(server.database_url)
    store.set_settings(engine, {"capacity": len(NAMES)}, actor=ORGANIZER)  # one sitting for all
    engine.dispose()
    with published_qualifier(server, NAMES, seed=5) as (engine, _):
        _play(engine, int(store.sittings(engine, actor=ORGANIZER)["sitting_id"].iloc[0]))
        ids = store.players(engine)["player_id"].tolist()
        _publish_and_play(engine, tournament.draw_qualifier(engine, ids, seed=6,
                                                            actor=ORGANIZER), offset=50)
        _publish_and_play(engine, tournament.draw_semifinal(engine, seed=7, actor=ORGANIZER))
        _publish_and_play(engine, tournament.draw_final(engine, seed=8, actor=ORGANIZER))
        final = store.results(engine, "final").sort_values("vp", ascending=False)
        yield store.player(engine, int(final["player_id"].iloc[0]))["name"]


SCROLL_JS = """box => ({scrollWidth: box.scrollWidth, clientWidth: box.clientWidth,
                         scrollHeight: box.scrollHeight, clientHeight: box.clientHeight,
                         page: document.documentElement.scrollWidth})"""


def test_a_phone_sees_the_whole_standings_without_a_swipe_or_an_inner_scroll(open_app,
                                                                             finished):
    phone = open_app("standings", viewport=PHONE)
    phone.get_by_text("40 players: the top 2 go straight to the final").wait_for()
    rows = live_grid(phone, "Rank", "Player", rows=40)
    assert [r["Rank"] for r in rows] == [str(n) for n in range(1, 41)]
    assert rows[0]["Player"] == finished
    table = phone.locator(".stsa-live table").first
    heads = table.locator("thead th").all_inner_texts()
    assert [h.strip() for h in heads] == ["Rank", "Player", "Zone", "Best", "Games"]
    box = table.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box
    sizes = phone.locator(".stsa-live .wrap").first.evaluate(SCROLL_JS)
    assert sizes["page"] <= PHONE["width"], f"the page scrolls sideways: {sizes}"
    assert sizes["scrollWidth"] <= sizes["clientWidth"], f"the table scrolls sideways: {sizes}"
    assert sizes["scrollHeight"] <= sizes["clientHeight"], f"the table scrolls inside: {sizes}"
    assert box["height"] > 25 * 40, "every row at the table's full height"
    assert {r["Player"] for r in rows} == set(NAMES), "long names show whole, wrapped"


def test_after_the_final_home_shows_the_champion_on_the_first_screen(open_app, finished):
    phone = open_app(viewport=PHONE)
    champion = phone.get_by_role("heading", name=re.compile(r"Champion: "))
    champion.wait_for()
    assert champion.inner_text().strip().endswith(f"Champion: {finished}")  # after its icon
    top = champion.bounding_box()
    assert top["y"] + top["height"] < PHONE["height"] / 2, top  # the top half of the screen
    link = phone.get_by_role("link", name="Final standings")
    assert link.bounding_box()["y"] < PHONE["height"]
    link.click()
    phone.wait_for_url(re.compile(r"/finals"))
    wait_ready(phone)
    heading = phone.get_by_role("heading", name="Final standings")
    heading.wait_for()
    assert heading.bounding_box()["y"] < PHONE["height"] / 2
    go_to(phone, "Home")  # and back, through the navigation, as a person would
    champion.wait_for()


TAGS_JS = """root => [...root.querySelectorAll('.standings td .tag')].map(tag => {
  const box = tag.getBoundingClientRect(), cell = tag.closest('td').getBoundingClientRect();
  return {words: tag.textContent, scrollWidth: tag.scrollWidth, clientWidth: tag.clientWidth,
          left: box.left, right: box.right, cellLeft: cell.left, cellRight: cell.right,
          lines: Math.round(box.height / parseFloat(getComputedStyle(tag).lineHeight))};
})"""


@pytest.fixture
def wildcard(fresh_server):
    """32 players after one qualifier, the leader absent for the finals: a wildcard takes
    the final seat (R17); the wildcard's nickname."""
    names = [f"Player {i:02d}" for i in range(32)]
    engine = store.connect(fresh_server.database_url)
    store.set_settings(engine, {"capacity": len(names)}, actor=ORGANIZER)
    engine.dispose()
    with published_qualifier(fresh_server, names, seed=5) as (engine, _):
        _play(engine, int(store.sittings(engine, actor=ORGANIZER)["sitting_id"].iloc[0]))
        leader = tournament.standings_table(engine)["player_id"].iloc[0]
        store.mark_absent(engine, int(leader), actor=ORGANIZER)
    return fresh_server


@pytest.mark.parametrize("width", [390, 360])
def test_a_phone_shows_the_wildcard_tag_whole(open_app, wildcard, width):
    """Issue 33: the Zone column's tags ("Final", "Wildcard") show whole on a phone: no tag
    is wider than its words need, none sticks out of its cell or the screen, none is broken
    inside a word."""
    phone = open_app("standings", viewport={"width": width, "height": 844}, app=wildcard)
    phone.locator(".stsa-live .tag", has_text="Wildcard").first.wait_for()
    host = phone.locator(".stsa-live").first.evaluate_handle("e => e.getRootNode()")
    tags = host.evaluate(TAGS_JS)
    assert any(t["words"] == "Wildcard" for t in tags), tags
    for tag in tags:
        assert tag["scrollWidth"] <= tag["clientWidth"], f"cut off: {tag}"
        assert tag["cellLeft"] <= tag["left"] and tag["right"] <= tag["cellRight"] + 0.5, \
            f"out of its cell: {tag}"
        assert tag["left"] >= 0 and tag["right"] <= width, f"off the screen: {tag}"
        assert tag["lines"] == 1, f"broken inside a word: {tag}"


HEADINGS_JS = """root => [...root.querySelectorAll('.stsa-live table th')]
    .filter(th => th.offsetParent !== null)
    .map(th => ({words: th.textContent.trim(), scrollWidth: th.scrollWidth,
                 clientWidth: th.clientWidth}))"""


@pytest.mark.parametrize("lang", ["en", "fr", "sv"])
def test_the_standings_headings_fit_their_columns_on_a_small_phone(open_app, wildcard, lang):
    """Issue 33: on a 360 px phone no heading of the Standings runs into the next column, in
    any language ("Meilleur" and "Parties" overlapped in French)."""
    phone = open_app(f"standings?lang={lang}", viewport={"width": 360, "height": 800},
                     app=wildcard)
    phone.locator(".stsa-live .tag").first.wait_for()
    host = phone.locator(".stsa-live").first.evaluate_handle("e => e.getRootNode()")
    headings = host.evaluate(HEADINGS_JS)
    assert len(headings) >= 5, headings
    assert [h for h in headings if h["scrollWidth"] > h["clientWidth"]] == []
