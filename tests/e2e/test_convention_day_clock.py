"""A convention day with its timeline, in a real browser (R21, R25, R26): the day is on the
schedule in the tournament's time zone; the organizer imports Qualifier 1's booking list; a
player checks herself in on her phone with the code on the TV; the rest are checked in by the
pasted list; the draw is published and the clock waits for a judge; the judge starts it on
the Results page and the TV counts down; the room runs 15 minutes late and lunch moves; the
judge saves table 1, calls time, and the TV, the player's My seat and the judges' page say so;
table 2 is saved and Home names lunch, at its new time, as what comes next."""

from __future__ import annotations

import datetime as dt
import re
from zoneinfo import ZoneInfo

import pandas as pd
import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from stsa import store
from stsa.auth import Actor, Role
from tests.e2e.conftest import (
    DESKTOP,
    JUDGE_PIN,
    ORGANIZER_PIN,
    PHONE,
    click,
    enter_result,
    field,
    go_to,
    live_plan,
    rerun,
    seat_names,
    type_text,
    wait_ready,
)
from tests.e2e.test_convention_journey import ROSTER, table  # the same eight players
from tests.support.bookings_helpers import csv_bytes

pytestmark = pytest.mark.e2e

ORGANIZER = ("Olivia", ORGANIZER_PIN)
JUDGE = ("Ana", JUDGE_PIN)
ROOM = "Europe/Stockholm"
AT_TIME = "Pens down, please."
CAME = [nick for _, nick in ROSTER if nick != "Usul"]  # Paul booked but did not come
TIME = ".stsa-countdown-time"
COUNTDOWN = re.compile(r"^(\d+:)?\d\d:\d\d$")


@pytest.fixture
def planned_day(fresh_server):
    """The roster and the day's plan as the organizer made them that morning: a player meeting
    that is over, Qualifier 1 starting in 20 minutes, lunch after it, Qualifier 2 after lunch."""
    olivia = Actor("Olivia", Role.ORGANIZER)
    engine = store.connect(fresh_server.database_url)
    try:
        store.import_players(engine, pd.DataFrame(ROSTER, columns=["name", "nickname"]),
                             actor=olivia)
        store.set_settings(engine, {"time_zone": ROOM, "time_words": AT_TIME}, actor=olivia)
        now = dt.datetime.now(dt.UTC).replace(second=0, microsecond=0)
        q1 = now + dt.timedelta(minutes=20)
        lunch = q1 + dt.timedelta(minutes=165)
        for title, kind, number, starts, minutes in (
                ("Player meeting", None, None, now - dt.timedelta(minutes=30), 15),
                ("", "qualifier", 1, q1, 150),
                ("Lunch", None, None, lunch, 45),
                ("", "qualifier", 2, lunch + dt.timedelta(minutes=60), 150)):
            store.add_schedule_item(engine, title=title, sitting_kind=kind,
                                    sitting_number=number, starts_at=starts, minutes=minutes,
                                    actor=olivia)
        ids = store.players(engine).set_index("nickname")["player_id"].astype(int).to_dict()
    finally:
        engine.dispose()
    return fresh_server, lunch, ids


def open_part(page, title: str, inside: str) -> None:
    """Open the expander `title` until its field `inside` shows (a live rerun of the page may
    come between the tap and the opening)."""
    part = page.locator('[data-testid="stExpander"]', has_text=title).first
    for _ in range(5):
        if page.get_by_label(inside).first.is_visible():
            return
        part.locator("summary").click()
        try:
            page.get_by_label(inside).first.wait_for(timeout=4000)
        except PlaywrightTimeout:
            continue
    page.get_by_label(inside).first.wait_for()


def test_a_convention_day_runs_on_its_schedule_and_clock(planned_day, open_app):
    app, lunch, ids = planned_day
    here = ZoneInfo(ROOM)
    organizer = open_app(as_=ORGANIZER, app=app, viewport=DESKTOP)
    judge = open_app(as_=JUDGE, app=app, viewport=PHONE)
    tv = open_app("tv", app=app, viewport=DESKTOP)

    # The schedule, in the room's time: lunch at its planned time.
    go_to(organizer, "Schedule")
    rows = live_plan(organizer, "Starts", "What", rows=4)
    assert [r["What"] for r in rows] == ["Player meeting", "Qualifier 1", "Lunch", "Qualifier 2"]
    assert rows[2]["Starts"] == f"{lunch.astimezone(here):%H:%M}"

    # Qualifier 1's booking list, from the convention's export.
    go_to(organizer, "Roster")
    part = organizer.locator('[data-testid="stExpander"]', has_text="Import a booking list")
    part.get_by_text("Import a booking list").click()
    booked = [["Nickname", "Booked at"], *[[nick, f"2026-03-01 10:{i:02d}"]
                                           for i, (_, nick) in enumerate(ROSTER)]]
    with rerun(organizer, "the booking list's preview"):
        part.locator('input[type="file"]').set_input_files(
            {"name": "qualifier-1.csv", "mimeType": "text/csv", "buffer": csv_bytes(booked)})
    organizer.get_by_text("8 bookings").first.wait_for()
    wait_ready(organizer)
    click(organizer, "Import booking list",
          expect="Qualifier 1: 8 booked: 8 added, 0 removed, 0 moved.")

    # Jessica checks herself in on her phone with the code on the TV.
    shown = tv.get_by_text(re.compile(r"Check in on My seat with the code \d{5}"))
    shown.wait_for()
    code = re.search(r"code (\d{5})", shown.inner_text()).group(1)
    bene = open_app(f"player?player={ids['Bene']}", viewport=PHONE, app=app)
    bene.get_by_text(re.compile(r"You are booked for Qualifier 1 \(\w+ \d\d:\d\d\); "
                                r"check in by \d\d:\d\d")).wait_for()
    field(bene, "Code on the TV").fill(code)  # a form's field: its button sends it
    click(bene, "Check me in", expect="You are checked in for Qualifier 1.")

    # The others who came, by the pasted list; Paul did not come.
    open_part(organizer, "Check in a list", "Names or nicknames")
    type_text(organizer, "Names or nicknames", "\n".join(CAME))
    click(organizer, "Check in this list", expect=re.compile(r"Checked in \d players?[.;]"))
    organizer.get_by_text("7 of 8 active players checked in.").first.wait_for()

    # The draw is published; the clock waits for a judge.
    go_to(organizer, "Draw")
    click(organizer, "Draw", expect="Qualifier 1 drawn from seed")
    click(organizer, "Publish", expect="Published: everyone now sees this draw.")
    tv.locator(".stsa-countdown-note").filter(has_text="Not started").first.wait_for()
    assert tv.locator(TIME).first.inner_text().strip() == "2:30:00"

    # Qualifier 1 begins early, as the clock starts (the organizer's change to its start, as
    # the Change form saves it). It is stored before the clock starts, so a page that shows the
    # running clock has read it too (the app reads the data's version at most every quarter
    # second).
    engine = store.connect(app.database_url)
    try:
        items = store.schedule_items(engine).set_index("title")
        store.update_schedule_item(engine, int(items.loc["Qualifier 1", "item_id"]),
                                   starts_at=dt.datetime.now(dt.UTC),
                                   actor=Actor("Olivia", Role.ORGANIZER))
    finally:
        engine.dispose()

    # The judge starts it: the TV counts down from two and a half hours.
    go_to(judge, "Results")
    click(judge, "Start the clock")
    tv.locator('.stsa-countdown[data-state="running"]').first.wait_for()
    assert COUNTDOWN.match(tv.locator(TIME).first.inner_text().strip())

    # The room runs 15 minutes late: lunch moves.
    go_to(organizer, "Schedule")
    open_part(organizer, "Running late", "moves this many minutes later")
    # the item being played is the one chosen to start from
    late = organizer.locator('[data-testid="stForm"]', has_text="moves this many minutes later")
    chosen = late.locator('input[role="combobox"]').first
    assert (chosen.input_value() or "").startswith("Qualifier 1 · ") or \
        late.get_by_text(re.compile(r"^Qualifier 1 · .*\d\d:\d\d$")).count()
    # the rest of the plan moves, even when an evening run puts it past midnight (issue 33:
    # only the same day moves unless asked)
    late.get_by_text("That day and every later day").click()
    click(organizer, "Move them", expect=re.compile(r"Moved 2 items 15 minutes later\."))
    later = (lunch + dt.timedelta(minutes=15)).astimezone(here)
    organizer.locator(".stsa-live tr").filter(has_text="Lunch").filter(
        has_text=f"{later:%H:%M}").wait_for()  # the element drew the page's new answer
    rows = live_plan(organizer, "Starts", "What", rows=4)
    assert rows[2]["What"] == "Lunch" and rows[2]["Starts"] == f"{later:%H:%M}"

    # Table 1 is saved; then the judge calls time for the room.
    go_to(judge, "Results")
    enter_result(judge, table(11, 8, 5, 2)[:len(seat_names(judge))], table=1)
    judge.get_by_text("Yes, call time for every table now").click()
    click(judge, "Call time now")
    judge.get_by_text("still playing at time").first.wait_for()
    tv.locator(TIME).filter(has_text=AT_TIME).first.wait_for()
    seats = store_seats(app)
    at_table_2 = seats.loc[seats["table_no"] == 2, "player_id"].astype(int).tolist()
    phone = open_app(f"player?player={at_table_2[0]}", viewport=PHONE, app=app)
    phone.locator(TIME).filter(has_text=AT_TIME).first.wait_for()

    # Table 2 is saved; Home names lunch, at its new time, as what comes next.
    enter_result(judge, table(10, 7, 4)[:len(seat_names(judge))], table=2)
    spectator = open_app(app=app, viewport=PHONE)
    spectator.get_by_text(re.compile(rf"Next: Lunch at (\w+ )?{later:%H:%M}")).wait_for()
    assert not any(name in spectator.content() for name, _ in ROSTER), "nicknames only"


def store_seats(app) -> pd.DataFrame:
    engine = store.connect(app.database_url)
    try:
        return store.seats(engine, actor=Actor("Olivia", Role.ORGANIZER))
    finally:
        engine.dispose()
