"""The live pages in a real browser (issue 32): Standings, Home and Schedule are live elements
that poll the feed's shared answers and redraw themselves (`stsa.ui.live_element`). A save
shows on a spectator's open page by itself, without a reload and with no Python run on the
server (counted server-side); the search and "All columns" run in the browser; a hidden tab
stops polling and catches up when shown; a phone offline for a minute says how old its data is
and recovers. Time is moved with Playwright's clock, never waited for."""

from __future__ import annotations

import datetime as dt
import re

import pandas as pd
import pytest
from playwright.sync_api import expect

from stsa import demo, store, tournament
from stsa.auth import Actor, Role
from stsa.services import schedule
from tests.e2e.conftest import PHONE, TIMEOUT_MS, live_grid

pytestmark = pytest.mark.e2e

ORGANIZER, JUDGE = Actor("Olivia", Role.ORGANIZER), Actor("Jamal", Role.JUDGE)
CUT = "24 players: the top 3 go straight to the final"
LIVE = re.compile(r"/api/v1/tournaments/[^/]+/live/")


@pytest.fixture
def engine_of(counted_server):
    engine = store.connect(counted_server.database_url)
    yield engine
    engine.dispose()


def not_reloaded(page) -> None:
    page.evaluate("() => { window.stsaNotReloaded = true; }")  # gone if the page reloads


def still_loaded(page) -> bool:
    return page.evaluate("() => window.stsaNotReloaded === true")


def lift_the_last(engine) -> str:
    """A judge corrects the first table so that its last player jumps to the top (through
    the store, as the Results page saves); that player's name."""
    table = store.tables(engine, actor=JUDGE).iloc[0]
    stored = store.table_result(engine, int(table["table_id"]))
    last = stored.rows.sort_values("vp").iloc[0]["player_id"]
    rows = stored.rows.assign(vp=lambda d: d["vp"].where(d["player_id"] != last, 40))
    store.submit_table_result(engine, int(table["table_id"]), rows,
                              expected_version=stored.version, submission_id=None,
                              actor=JUDGE)
    name = store.player(engine, int(last))["name"]
    assert tournament.standings_table(engine)["name"].iloc[0] == name
    return name


def top_player(page):
    """The standings table's first player's cell."""
    return page.locator(".stsa-live tbody tr").first.locator("td").nth(1)


def set_visibility(page, state: str) -> None:
    """The tab hidden or shown again, as the browser says it when a phone locks or the
    person switches tabs."""
    page.evaluate("""state => {
        Object.defineProperty(document, "visibilityState", {value: state, configurable: true});
        document.dispatchEvent(new Event("visibilitychange"));
    }""", state)


def test_standings_update_by_themselves_with_no_python_run(open_app, counted_server,
                                                          engine_of):
    spectator = open_app("standings", viewport=PHONE, app=counted_server)
    spectator.get_by_text("No results yet").wait_for()
    not_reloaded(spectator)
    runs = counted_server.script_runs()

    # the demo's players and results arrive in the tournament the spectator watches
    demo.load_demo(engine_of, actor=ORGANIZER)
    spectator.get_by_text(CUT).wait_for()  # within a poll: every 5 s
    assert not spectator.get_by_text("No results yet").is_visible()
    assert len(live_grid(spectator, "Rank", "Player", "Zone", rows=24)) == 24

    # a judge's save moves a player to the top
    name = lift_the_last(engine_of)
    expect(top_player(spectator)).to_have_text(name, timeout=TIMEOUT_MS)
    assert live_grid(spectator, "Rank", "Player")[0]["Player"] == name
    assert still_loaded(spectator)
    assert counted_server.script_runs() == runs, "the page ran Python to update"


def test_home_and_schedule_update_by_themselves_with_no_python_run(open_app, counted_server,
                                                                  engine_of):
    names = [f"Player {i:02d}" for i in range(8)]
    ids = store.import_players(engine_of, pd.DataFrame({"name": names}),
                               actor=ORGANIZER)["player_id"].tolist()
    drawn = tournament.draw_qualifier(engine_of, ids, seed=3, actor=ORGANIZER)
    store.publish_sitting(engine_of, drawn["sitting_id"], actor=ORGANIZER)
    home = open_app(viewport=PHONE, app=counted_server)
    home.get_by_text("Tables still missing results: 1, 2.").wait_for()
    plan = open_app("schedule", viewport=PHONE, app=counted_server)
    plan.get_by_text("Nothing is on the schedule yet").wait_for()
    not_reloaded(home), not_reloaded(plan)
    runs = counted_server.script_runs()

    seats = store.seats(engine_of, drawn["sitting_id"], actor=ORGANIZER)
    first = store.tables(engine_of, drawn["sitting_id"], actor=ORGANIZER).iloc[0]
    at = seats.loc[seats["table_id"] == first["table_id"]]
    store.submit_table_result(engine_of, int(first["table_id"]), pd.DataFrame({
        "player_id": at["player_id"].to_numpy(), "leader": first["available_leaders"][:4],
        "vp": [9, 7, 5, 3], "spice": 0, "solari": 0, "troops": 0, "water": 0}),
        expected_version=0, submission_id=None, actor=JUDGE)
    home.get_by_text("Tables still missing results: 2.").wait_for()
    home.get_by_text("(1 of 2 tables reported)").wait_for()

    start = pd.Timestamp.now(tz="UTC").floor("min") + pd.Timedelta(days=1)
    schedule.plan_item(engine_of, kind="other", title="Prize <b>giving</b>",
                       starts_at=start.to_pydatetime(), minutes=30, actor=ORGANIZER)
    rows = live_grid(plan, "Starts", "Ends", "What", rows=1)
    assert rows[0]["What"] == "Prize <b>giving</b>"  # typed text shows as typed
    plan.get_by_text(re.compile(r"^Next: Prize <b>giving</b> at \w+ \d\d:\d\d$")).wait_for()
    home.get_by_text(re.compile(r"^Next: Prize <b>giving</b> at ")).wait_for()
    assert still_loaded(home) and still_loaded(plan)
    assert counted_server.script_runs() == runs, "a page ran Python to update"


def test_search_all_columns_and_cards_run_in_the_browser(open_app, counted_server, engine_of):
    demo.load_demo(engine_of, actor=ORGANIZER)
    phone = open_app("standings", viewport=PHONE, app=counted_server)
    phone.get_by_text(CUT).wait_for()
    runs = counted_server.script_runs()
    find = phone.get_by_label("Find a player")

    find.fill("  aLIa ")
    rows = live_grid(phone, "Rank", "Player", rows=1)
    assert rows[0]["Player"] == "Alia Brandt"
    card = phone.locator(".card")
    card.get_by_role("heading", name="Alia Brandt").wait_for()
    card.get_by_text(re.compile(r"^Best score \d+, rank 11, 3 games, 1 win\.$")).wait_for()
    assert card.locator("strong").inner_text().isdigit()  # the best score in bold
    games = live_grid(phone, "Sitting", "Table", "Placing", "VP", "Score", rows=3)
    assert [g["Sitting"] for g in games] == ["Qualifier 1", "Qualifier 2", "Qualifier 3"]
    card.get_by_text("points behind the last spot straight to the final").wait_for()

    find.fill("a")
    phone.get_by_text(re.compile(r"^\d+ players match: type more of a name")).wait_for()
    assert phone.locator(".card").count() == 0
    find.fill("Zebedee (")
    phone.get_by_text("No player's name contains “Zebedee (”.").wait_for()
    find.fill("")
    live_grid(phone, "Rank", rows=24)

    heads = phone.locator(".stsa-live thead th").all_inner_texts()
    assert heads == ["Rank", "Player", "Zone", "Best", "Games"]
    phone.get_by_role("switch", name="All columns").check()
    wide = phone.locator(".stsa-live table").first.locator("thead th").all_inner_texts()
    assert wide[:5] == heads and {"Wins", "Placing", "VP"} <= set(wide)
    assert counted_server.script_runs() == runs, "searching ran Python"


def test_a_hidden_tab_stops_polling_and_catches_up_when_shown(open_app, counted_server,
                                                             engine_of):
    demo.load_demo(engine_of, actor=ORGANIZER)
    phone = open_app(viewport=PHONE, app=counted_server)
    phone.clock.install()
    polls, answered = [], []
    phone.on("request", lambda r: polls.append(r.url) if LIVE.search(r.url) else None)
    phone.on("response", lambda r: answered.append(r.status) if LIVE.search(r.url) else None)
    phone.goto(f"{counted_server.url}/standings")
    phone.get_by_text(CUT).wait_for()
    phone.clock.run_for(6_000)  # the first poll, at a random moment of the first 5 s
    expect(phone.locator(".stsa-live")).to_have_attribute("data-polls", re.compile(r"\d"))
    assert answered[:1] == [304], "the page's run handed the element the feed's very answer"

    set_visibility(phone, "hidden")
    hidden = len(polls)
    name = lift_the_last(engine_of)
    phone.clock.run_for(60_000)  # a minute in a pocket
    assert len(polls) == hidden, "a hidden tab polled"

    # time stands still from here: only being shown again can make it poll, at once
    phone.clock.pause_at(dt.datetime.fromtimestamp(phone.evaluate("Date.now()") / 1000 + 1,
                                                   dt.UTC))
    with phone.expect_request(LIVE):
        set_visibility(phone, "visible")
    phone.clock.resume()
    expect(top_player(phone)).to_have_text(name, timeout=TIMEOUT_MS)  # caught up


def test_a_phone_offline_for_a_minute_says_how_old_its_data_is_and_recovers(
        open_app, counted_server, engine_of):
    demo.load_demo(engine_of, actor=ORGANIZER)
    phone = open_app(viewport=PHONE, app=counted_server)
    phone.clock.install()
    phone.goto(f"{counted_server.url}/standings")
    phone.get_by_text(CUT).wait_for()
    status = phone.locator(".stsa-live-updated")
    phone.clock.run_for(6_000)
    phone.get_by_text(re.compile(r"^Updated \d\d:\d\d:\d\d$")).wait_for()
    said = status.inner_text()

    phone.context.set_offline(True)
    phone.clock.run_for(60_000)
    stale = phone.get_by_role("status").filter(has_text="Not updated since")
    stale.wait_for()
    assert stale.inner_text() == said.replace("Updated", "Not updated since") + \
        ": trying again…"
    name = lift_the_last(engine_of)  # saved while the phone was away

    phone.context.set_offline(False)
    phone.clock.run_for(31_000)  # at the latest, the next try after backing off
    expect(top_player(phone)).to_have_text(name, timeout=TIMEOUT_MS)
    phone.get_by_text(re.compile(r"^Updated \d\d:\d\d:\d\d$")).wait_for()
    assert not stale.count() or not stale.is_visible()


def test_a_long_table_shows_a_page_of_rows_at_a_time(open_app, counted_server, engine_of):
    """Past a hundred rows (`ui.tables.PAGE_ROWS`) the table shows one page of rows, chosen
    above it, in the browser."""
    names = [f"Player {i:03d}" for i in range(120)]
    store.set_settings(engine_of, {"capacity": len(names)}, actor=ORGANIZER)  # one sitting
    ids = store.import_players(engine_of, pd.DataFrame({"name": names}),
                               actor=ORGANIZER)["player_id"].tolist()
    drawn = tournament.draw_qualifier(engine_of, ids, seed=5, actor=ORGANIZER)
    store.publish_sitting(engine_of, drawn["sitting_id"], actor=ORGANIZER)
    first = store.tables(engine_of, drawn["sitting_id"], actor=ORGANIZER).iloc[0]
    seats = store.seats(engine_of, drawn["sitting_id"], actor=ORGANIZER)
    at = seats.loc[seats["table_id"] == first["table_id"]]
    store.submit_table_result(engine_of, int(first["table_id"]), pd.DataFrame({
        "player_id": at["player_id"].to_numpy(), "leader": first["available_leaders"][:4],
        "vp": [9, 7, 5, 3], "spice": 0, "solari": 0, "troops": 0, "water": 0}),
        expected_version=0, submission_id=None, actor=JUDGE)
    phone = open_app("standings", viewport=PHONE, app=counted_server)
    phone.get_by_text("120 players: the top").wait_for()
    runs = counted_server.script_runs()
    assert len(live_grid(phone, "Rank", "Player", rows=100)) == 100
    pages = phone.get_by_label("Rows shown")
    assert pages.locator("option").all_inner_texts() == ["1–100 of 120", "101–120 of 120"]
    pages.select_option(label="101–120 of 120")
    assert len(live_grid(phone, "Rank", "Player", rows=20)) == 20
    assert counted_server.script_runs() == runs
