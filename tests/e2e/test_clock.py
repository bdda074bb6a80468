"""R26 in a real browser: the countdown runs in the page, not on the server. With the page's
timers under the test's control (Playwright's clock), the TV countdown moves on by exactly the
time that passed while the server ran no script (the slides change in the browser too), and a
pause shows at the element's next poll; a page whose timers were frozen for six
minutes (a phone that slept) shows the right time the moment it is back in view; time called
shows on TV, My seat and the judges' Results page; two app processes on one PostgreSQL database
show the same clock."""

from __future__ import annotations

import contextlib
import re

import pytest

from stsa import store
from stsa.auth import Actor, Role
from tests.e2e.conftest import (
    JUDGE_PIN,
    PHONE,
    go_to,
    load,
    new_page,
    published_qualifier,
    runs,
    sign_in,
)

pytestmark = pytest.mark.e2e

JUDGE = Actor("Jamal", Role.JUDGE)
ORGANIZER = Actor("Olivia", Role.ORGANIZER)
NAMES = [f"Player {n}" for n in range(8)]
TIME = ".stsa-countdown-time"
WORDS = "Pens down, please."


def seconds(text: str) -> int:
    """"1:29:58" or "29:58" → seconds."""
    assert re.fullmatch(r"(\d+:)?\d+:\d\d", text), text
    parts = [int(p) for p in text.split(":")]
    return sum(p * 60 ** i for i, p in enumerate(reversed(parts)))


def clocked_page(browser, url: str, viewport: dict | None = None):
    """A page whose timers and clock the test moves (installed before the app loads)."""
    page = new_page(browser, viewport)
    page._stsa_sent = []  # the messages the page sends the server (a script run starts so)
    page.on("websocket", lambda ws: ws.on("framesent", lambda f: page._stsa_sent.append(f)))
    page.clock.install()
    load(page, url)
    page.locator(TIME).first.wait_for()
    return page


def frozen(page) -> int:
    """Stop the page's timers and clock where they are; the countdown's seconds then. An
    answer to a poll still on its way would move the countdown after the freeze: each live
    element has had its first answer first (the next poll is seconds away)."""
    page.wait_for_function(
        "() => [...document.querySelectorAll('.stsa-live')].every(e => e.dataset.polls)")
    page.clock.pause_at(page.evaluate("Date.now()") / 1000 + 1)  # seconds, here
    return seconds(page.locator(TIME).first.inner_text())


@contextlib.contextmanager
def running_clock(app, *, words: str = WORDS):
    with published_qualifier(app, NAMES, seed=11) as (engine, tables):
        store.set_settings(engine, {"time_words": words}, actor=ORGANIZER)
        sitting_id = int(store.sittings(engine, actor=ORGANIZER)["sitting_id"].iloc[-1])
        store.clock_action(engine, sitting_id, "start", actor=JUDGE)
        yield engine, sitting_id, tables


def test_R26_the_tv_countdown_ticks_while_the_server_runs_no_script(browser, fresh_server):
    with running_clock(fresh_server):
        page = clocked_page(browser, f"{fresh_server.url}/tv")
        before, finished = frozen(page), runs(page).finished
        sent = len(page._stsa_sent)
        assert 149 * 60 < before <= 150 * 60
        page.clock.run_for(10_000)  # ten seconds of the page's timers, and only those
        after = seconds(page.locator(TIME).first.inner_text())
        page.evaluate("1")  # every websocket event of those ten seconds is delivered by now
        assert before - after == 10
        assert runs(page).finished == finished, "no script ran on the server"
        assert len(page._stsa_sent) == sent, "the page asked the server for nothing"
        page.clock.run_for(6_000)  # the TV's slide changes in the browser: still no run
        page.get_by_role("heading", name=re.compile("Best scores")).wait_for()
        page.evaluate("1")
        assert runs(page).finished == finished and len(page._stsa_sent) == sent


def test_R26_a_tv_whose_clock_jumps_takes_the_servers_time_at_its_next_poll(browser,
                                                                            fresh_server):
    with running_clock(fresh_server):
        page = clocked_page(browser, f"{fresh_server.url}/tv")
        before = frozen(page)
        # Someone sets the TV's clock five minutes ahead; no timer runs meanwhile.
        page.clock.set_system_time(page.evaluate("Date.now()") / 1000 + 5 * 60)
        page.clock.run_for(16_000)  # the element polls: its answer carries the server's time
        page.locator(".stsa-live[data-polls]").first.wait_for(state="attached")
        page.clock.run_for(1_000)
        after = seconds(page.locator(TIME).first.inner_text())
        assert 0 <= before - after < 60, "the countdown follows the server, not the TV's clock"


def test_R26_an_open_tv_shows_a_pause_at_its_next_poll(browser, fresh_server):
    with running_clock(fresh_server) as (engine, sitting_id, tables):
        page = clocked_page(browser, f"{fresh_server.url}/tv")
        page.evaluate("() => { window.stsaNotReloaded = true; }")  # gone if the page reloads
        store.clock_action(engine, sitting_id, "pause", actor=JUDGE)
        paused = seconds(page.locator(TIME).first.inner_text())
        page.clock.run_for(16_000)  # the element polls the TV's answer: the clock is paused
        page.get_by_text("Paused").wait_for()
        assert seconds(page.locator(TIME).first.inner_text()) >= paused - 1
        page.clock.run_for(30_000)  # paused: it stands still
        page.get_by_text("Paused").wait_for()
        assert page.evaluate("() => window.stsaNotReloaded === true")
        store.clock_action(engine, sitting_id, "resume", actor=JUDGE)
        page.clock.run_for(16_000)
        page.get_by_text("Paused").wait_for(state="detached")


def test_R26_a_page_frozen_for_six_minutes_shows_the_right_time_at_once(browser,
                                                                        fresh_server):
    with published_qualifier(fresh_server, NAMES, seed=12) as (engine, tables):
        sitting_id = int(store.sittings(engine, actor=ORGANIZER)["sitting_id"].iloc[-1])
        store.clock_action(engine, sitting_id, "start", actor=JUDGE)
        player_id = int(store.seats(engine, sitting_id, actor=ORGANIZER)["player_id"].iloc[0])
        page = clocked_page(browser, f"{fresh_server.url}/player?player={player_id}", PHONE)
        before = frozen(page)
        # The phone sleeps: no timer runs for six minutes while the time of day goes on.
        page.clock.set_system_time(page.evaluate("Date.now()") / 1000 + 6 * 60)
        assert seconds(page.locator(TIME).first.inner_text()) == before  # nothing ran
        page.evaluate("() => document.dispatchEvent(new Event('visibilitychange'))")
        assert seconds(page.locator(TIME).first.inner_text()) == before - 6 * 60


def test_R26_time_called_shows_on_tv_my_seat_and_the_judges_page(browser, fresh_server):
    with running_clock(fresh_server) as (engine, sitting_id, tables):
        player_id = int(store.seats(engine, sitting_id, actor=ORGANIZER)["player_id"].iloc[0])
        judge = new_page(browser)
        load(judge, f"{fresh_server.url}/sign_in")
        sign_in(judge, "Jamal", JUDGE_PIN)
        go_to(judge, "Results")
        judge.get_by_text("Yes, call time for every table now").click()
        judge.get_by_role("button", name="Call time now").click()
        judge.get_by_text("Time is called.").first.wait_for()
        judge.get_by_text(WORDS).first.wait_for()
        judge.get_by_text("Still playing at time: table 1, 2.").wait_for()
        for path, viewport in (("tv", None), (f"player?player={player_id}", PHONE)):
            page = new_page(browser, viewport)
            load(page, f"{fresh_server.url}/{path}")
            page.get_by_text(WORDS).first.wait_for()
            assert page.locator(".stsa-countdown").first.get_attribute("data-state") \
                == "time called"


def test_R26_two_app_processes_on_one_database_show_the_same_clock(browser, two_servers):
    a, b = two_servers
    with running_clock(a) as (engine, sitting_id, tables):
        store.clock_action(engine, sitting_id, "pause", actor=JUDGE)
        shown = []
        for app in (a, b):
            page = new_page(browser)
            load(page, f"{app.url}/tv")
            page.get_by_text("Paused").first.wait_for()
            shown.append(page.locator(TIME).first.inner_text())
        assert shown[0] == shown[1] and seconds(shown[0]) <= 150 * 60


def test_R26_the_clock_pages_have_no_serious_accessibility_violation(browser, fresh_server):
    from tests.e2e.test_accessibility import severe_violations

    with running_clock(fresh_server) as (engine, sitting_id, tables):
        store.set_settings(engine, {"clock_sound": True}, actor=ORGANIZER)
        player_id = int(store.seats(engine, sitting_id, actor=ORGANIZER)["player_id"].iloc[0])
        problems = {}
        for path in ("", "tv", f"player?player={player_id}"):
            page = new_page(browser)
            load(page, f"{fresh_server.url}/{path}")
            page.locator(TIME).first.wait_for()
            problems[path or "home"] = severe_violations(page)
        judge = new_page(browser)
        load(judge, f"{fresh_server.url}/sign_in")
        sign_in(judge, "Jamal", JUDGE_PIN)
        go_to(judge, "Results")
        judge.locator(TIME).first.wait_for()
        problems["results"] = severe_violations(judge)
        assert not any(problems.values()), problems
