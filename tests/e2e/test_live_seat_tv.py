"""My seat and TV as live elements in a real browser: they follow their shared answers of the
feed (`live/players`, `live/tv`) and redraw themselves, so the server runs no script after the
page opened (counted on the server: `run_app(count_runs=True)`). A player's page shows a judge's
save (the new game, the new rank) and a newly published table within a poll; the TV cycles its
slides, the charts among them, in the browser; a hidden phone stops polling and catches up at
once when shown; a phone that was offline for a minute says how old its data is and recovers.
"""

from __future__ import annotations

import re
import time

import pytest

from stsa import demo, store
from stsa.auth import Actor, Role
from stsa.services import draws
from tests.e2e.conftest import PHONE, load, new_page
from tests.support.appserver import started
from tests.support.store_helpers import rows_for

pytestmark = pytest.mark.e2e

ORGANIZER = Actor("Olivia", Role.ORGANIZER)
JUDGE = Actor("Jamal", Role.JUDGE)
TV = {"width": 1920, "height": 1080}


@pytest.fixture
def counted(tmp_path):
    """An app of this test's own that logs each script run it starts."""
    with started(tmp_path / "app", count_runs=True) as app:
        yield app


@pytest.fixture
def in_play(counted):
    """The demo (24 players, three qualifiers) and a published fourth qualifier for all;
    (app, engine, seats)."""
    engine = store.connect(counted.database_url)
    demo.load_demo(engine, actor=ORGANIZER)
    drawn = draws.draw_qualifier(engine, store.players(engine)["player_id"].tolist(), seed=21,
                                 actor=ORGANIZER)
    draws.publish(engine, drawn["sitting_id"], actor=ORGANIZER)
    try:
        yield counted, engine, store.seats(engine, drawn["sitting_id"])
    finally:
        engine.dispose()


def save_table(engine, table_id: int) -> None:
    """A judge's save of a whole table, through the store as the Results page saves it."""
    offered = store.tables(engine, table_id=table_id, actor=JUDGE)["available_leaders"].iloc[0]
    rows = [dict(row, leader=leader) for row, leader in zip(rows_for(engine, table_id),
                                                            offered)]
    store.submit_table_result(engine, table_id, rows, expected_version=0,
                              submission_id=None, actor=JUDGE)


def runs_reach(app, page, count: int) -> None:
    """Wait until the server has started `count` script runs (a failure after 20 s)."""
    deadline = time.monotonic() + 20
    while app.script_runs() < count:
        assert time.monotonic() < deadline, f"{app.script_runs()} runs, not {count}"
        page.wait_for_timeout(50)


def games(page) -> int:
    return page.locator("table.games tbody tr").count()


def test_my_seat_shows_a_judges_save_and_a_new_table_with_no_run(browser, in_play):
    app, engine, seats = in_play
    mine = seats.loc[seats["seat"] == 1].iloc[0]
    phone = new_page(browser, PHONE)
    load(phone, f"{app.url}/player?player={mine['player_id']}")
    phone.get_by_role("heading", name=f"Table {mine['table_no']} · seat 1").wait_for()
    assert games(phone) == 3
    rank = phone.locator("p.rank").inner_text()
    opened = app.script_runs()

    save_table(engine, int(mine["table_id"]))  # a judge saves the player's table
    phone.locator("table.games tbody tr").nth(3).wait_for()  # the new game, by itself
    assert "Qualifier 4" in phone.locator("table.games").inner_text()
    assert phone.locator("p.rank").inner_text() != rank  # "· 4 games" at least
    assert "4 games" in phone.locator("p.rank").inner_text()

    for table_id in seats.loc[seats["table_id"] != mine["table_id"], "table_id"].unique():
        save_table(engine, int(table_id))
    drawn = draws.draw_qualifier(engine, store.players(engine)["player_id"].tolist(),
                                 seed=22, actor=ORGANIZER)
    draws.publish(engine, drawn["sitting_id"], actor=ORGANIZER)
    new = store.seats(engine, drawn["sitting_id"]).set_index("player_id").loc[
        int(mine["player_id"])]
    phone.get_by_role("heading", name=f"Table {new['table_no']} · seat {new['seat']}").wait_for()
    phone.get_by_text(re.compile(r"^Qualifier 5 · ")).wait_for()
    assert app.script_runs() == opened, "the page ran no script after it opened"


def test_the_tv_cycles_its_slides_with_no_run(browser, in_play):
    app, engine, seats = in_play
    tv = new_page(browser, TV)
    charts = []
    tv.on("response", lambda r: charts.append(r.status) if "/live/charts/" in r.url else None)
    tv.clock.install()
    load(tv, f"{app.url}/tv")
    heading = tv.get_by_role("heading", level=1)
    tv.get_by_role("heading", name="Demo: Swordmasters Open · Standings").wait_for()
    assert tv.locator(".tv table").count() == 2  # two columns of the standings
    tv.get_by_text("Slide 1 of 3; the next in 15 s.").wait_for()
    opened = app.script_runs()

    tv.clock.run_for(15_000)
    tv.get_by_role("heading", name="Demo: Swordmasters Open · Best scores").wait_for()
    chart = tv.get_by_role("img", name=re.compile("^Best scores: A bar for each player"))
    chart.wait_for()
    tv.wait_for_function("img => img.complete && img.naturalWidth > 0",
                         arg=chart.element_handle())
    tv.clock.run_for(15_000)
    tv.get_by_role("heading", name="Demo: Swordmasters Open · Scores per sitting").wait_for()
    tv.clock.run_for(15_000)
    tv.get_by_text("Slide 1 of 3; the next in 15 s.").wait_for()
    assert heading.inner_text().endswith("· Standings")
    assert charts and set(charts) <= {200, 304}
    assert app.script_runs() == opened, "no slide ran a script"


def polls(page, name: str) -> list[str]:
    """The element's polls of `live/{name}`, as they are made."""
    made: list[str] = []
    page.on("request", lambda r: made.append(r.url) if f"/live/{name}?" in r.url else None)
    return made


def hide(page, hidden: bool) -> None:
    """The tab goes out of (or back into) view, as a phone that locks its screen."""
    page.evaluate("""hidden => {
        Object.defineProperty(document, "visibilityState",
                              {configurable: true, get: () => hidden ? "hidden" : "visible"});
        document.dispatchEvent(new Event("visibilitychange")); }""", hidden)


def test_a_hidden_phone_stops_polling_and_catches_up_when_shown(browser, in_play):
    app, engine, seats = in_play
    mine = seats.loc[seats["seat"] == 2].iloc[0]
    phone = new_page(browser, PHONE)
    made = polls(phone, "players")
    phone.clock.install()
    load(phone, f"{app.url}/player?player={mine['player_id']}")
    phone.get_by_role("heading", name=f"Table {mine['table_no']} · seat 2").wait_for()
    phone.clock.run_for(6_000)  # the first poll, at a random moment of the first 5 s
    phone.evaluate("1")
    hide(phone, True)
    before = len(made)
    save_table(engine, int(mine["table_id"]))
    phone.clock.run_for(60_000)  # a minute hidden: twelve polls' time
    phone.evaluate("1")
    assert len(made) == before, "no poll while hidden"
    assert games(phone) == 3
    with phone.expect_request(lambda r: "/live/players?" in r.url):
        hide(phone, False)  # shown again: it polls at once, and shows the save
    phone.locator("table.games tbody tr").nth(3).wait_for()


def test_an_offline_tv_says_how_old_its_data_is_and_recovers(browser, in_play):
    app, engine, seats = in_play
    tv = new_page(browser, TV)
    tv.clock.install()
    load(tv, f"{app.url}/tv")
    tv.get_by_role("heading", name="Demo: Swordmasters Open · Standings").wait_for()
    tv.clock.run_for(6_000)
    tv.get_by_text(re.compile(r"^Updated \d\d:\d\d:\d\d$")).wait_for()
    tv.context.set_offline(True)
    tv.clock.run_for(60_000)  # a minute without the network
    tv.get_by_text(re.compile(r"^Not updated since \d\d:\d\d:\d\d: trying again…$")).wait_for()
    save_table(engine, int(seats["table_id"].iloc[0]))
    tv.context.set_offline(False)
    tv.evaluate("() => window.dispatchEvent(new Event('online'))")
    tv.get_by_text(re.compile(r"^Updated \d\d:\d\d:\d\d$")).wait_for()
    tv.get_by_text(re.compile(r"Qualifier 4: 1 of \d tables has reported")).wait_for()


def test_my_seat_and_every_tv_slide_have_no_serious_accessibility_violation(browser, in_play):
    from tests.e2e.test_accessibility import severe_violations

    app, engine, seats = in_play
    mine = seats.loc[seats["seat"] == 1].iloc[0]
    sitting_id = int(store.sittings(engine, actor=ORGANIZER)["sitting_id"].iloc[-1])
    store.clock_action(engine, sitting_id, "start", actor=JUDGE)
    store.set_settings(engine, {"clock_sound": True}, actor=ORGANIZER)
    problems = {}
    phone = new_page(browser, PHONE)
    load(phone, f"{app.url}/player?player={mine['player_id']}")
    phone.locator("table.games tbody tr").first.wait_for()
    phone.locator('.stsa-countdown[data-state="running"]').wait_for()
    problems["my seat"] = severe_violations(phone)
    tv = new_page(browser, TV)
    tv.clock.install()
    load(tv, f"{app.url}/tv")
    for slide in ("Standings", "Best scores", "Scores per sitting"):
        tv.get_by_role("heading", name=f"Demo: Swordmasters Open · {slide}").wait_for()
        problems[slide] = severe_violations(tv)
        tv.clock.run_for(15_000)
    assert not any(problems.values()), problems


def test_check_in_opening_runs_each_page_once(browser, in_play):
    """R25: the organizer opens check-in on My seat: the player's page shows its form and the
    TV the room's code, each after one run it asks for; when the code's time is up the TV asks
    for one more run (the old code shows meanwhile: it is still taken)."""
    from stsa import auth

    app, engine, seats = in_play  # the fourth qualifier is played: check-in is for the fifth
    mine = seats.loc[seats["seat"] == 2].iloc[0]
    phone, tv = new_page(browser, PHONE), new_page(browser, TV)
    for page, path in ((phone, f"player?player={mine['player_id']}"), (tv, "tv")):
        page.clock.install()
        load(page, f"{app.url}/{path}")
    phone.get_by_role("heading", name=f"Table {mine['table_no']} · seat 2").wait_for()
    tv.get_by_role("heading", name="Demo: Swordmasters Open · Standings").wait_for()
    assert not phone.get_by_label("Code on the TV").count()
    opened = app.script_runs()

    store.set_settings(engine, {"self_check_in_open": True}, actor=ORGANIZER)
    for page in (phone, tv):
        page.clock.run_for(6_000)  # the next poll brings the answer: check-in is open…
        page.wait_for_function(
            "() => [...document.querySelectorAll('*')].some(e => e.shadowRoot && "
            "e.shadowRoot.querySelector('.stsa-live[data-etag^=\"\\\\\"\"]'))")
        page.clock.run_for(11_000)  # …and the element asks for its run within 10 s
    phone.get_by_label("Code on the TV").wait_for()
    shown = tv.get_by_text(re.compile(r"Check in on My seat with the code \d{5}"))
    shown.wait_for()
    assert app.script_runs() == opened + 2, "one run each"

    tv.clock.fast_forward(auth.ROOM_CODE_SECONDS * 1000)  # the code's time is up…
    tv.clock.run_for(11_000)  # …and the TV asks for the new one within 10 s
    runs_reach(app, tv, opened + 3)
    shown.wait_for()  # the code shows all along (the old one is still taken)
    assert app.script_runs() == opened + 3


@pytest.fixture
def thirty_two(counted):
    """32 players after Qualifier 1, Qualifier 2 published and its clock running;
    (app, engine)."""
    import pandas as pd

    engine = store.connect(counted.database_url)
    store.set_settings(engine, {"capacity": 32}, actor=ORGANIZER)
    names = pd.DataFrame({"name": [f"Player {i:02d}" for i in range(1, 33)]})
    ids = store.import_players(engine, names, actor=ORGANIZER)["player_id"].tolist()
    first = draws.draw_qualifier(engine, ids, seed=3, actor=ORGANIZER)
    draws.publish(engine, first["sitting_id"], actor=ORGANIZER)
    for table_id in store.tables(engine, first["sitting_id"])["table_id"]:
        save_table(engine, int(table_id))
    second = draws.draw_qualifier(engine, ids, seed=4, actor=ORGANIZER)
    draws.publish(engine, second["sitting_id"], actor=ORGANIZER)
    store.clock_action(engine, int(second["sitting_id"]), "start", actor=JUDGE)
    try:
        yield counted, engine
    finally:
        engine.dispose()


ROWS_JS = """() => {
  const host = [...document.querySelectorAll('*')].find(
    e => e.shadowRoot && e.shadowRoot.querySelector('.tv'));
  return [...host.shadowRoot.querySelectorAll('.tv .columns tbody tr')].map(tr => {
    const box = tr.getBoundingClientRect();
    return {text: tr.innerText, top: box.top, bottom: box.bottom, left: box.left,
            right: box.right};
  });
}"""


def test_the_tv_fits_32_players_and_the_clock_on_one_1080p_screen(browser, thirty_two):
    """Issue 33: at 1920 × 1080, the standings of 32 players and the running clock fit one
    screen with no scrolling, and the TV shows no page controls (no language switch, no
    Streamlit header, menu or sidebar toggle, no navigation link)."""
    app, engine = thirty_two
    tv = new_page(browser, TV)
    load(tv, f"{app.url}/tv")
    tv.locator('.stsa-countdown[data-state="running"]').wait_for()
    tv.get_by_text(re.compile(r"^Slide 1 of \d+")).wait_for()
    rows = tv.evaluate(ROWS_JS)
    assert len(rows) == 32, [r["text"] for r in rows]
    outside = [r for r in rows if r["top"] < 0 or r["bottom"] > TV["height"]
               or r["left"] < 0 or r["right"] > TV["width"]]
    assert not outside, f"{len(outside)} of 32 rows outside the screen: {outside[:3]}"
    clock = tv.locator(".stsa-countdown").bounding_box()
    assert clock["y"] >= 0 and clock["y"] + clock["height"] <= TV["height"], clock
    scrolled = tv.evaluate("""() => [document.scrollingElement,
        document.querySelector('[data-testid="stMain"]'),
        document.querySelector('[data-testid="stAppViewContainer"]')]
        .filter(Boolean).some(e => e.scrollHeight > e.clientHeight + 1)""")
    assert not scrolled, "the TV scrolls"
    assert not tv.get_by_role("radio", name="English").count()  # the language switch
    assert not tv.get_by_role("button", name=re.compile("^(English|Svenska|Français)$")).count()
    for control in ('[data-testid="stHeader"]', '[data-testid="stSidebar"]',
                    '[data-testid="stExpandSidebarButton"]', '[data-testid="stMainMenu"]',
                    '[data-testid="stSidebarCollapsedControl"]', '[data-testid="stToolbar"]'):
        assert not tv.locator(control).filter(visible=True).count(), control
    # no link (Streamlit's "Skip to main content" shows only to a keyboard, on focus)
    links = tv.locator('a:not([data-testid="stSkipToContent"])').filter(visible=True)
    assert not links.count(), links.all_inner_texts()
