"""A journey in a real browser (R26): the organizer plans tomorrow's first qualifier and lunch
on the Schedule page, in the tournament's time zone; a spectator's phone shows the plan, and
Home says what comes next."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest

from stsa import store
from stsa.auth import Actor, Role
from tests.e2e.conftest import (
    ORGANIZER_PIN,
    PHONE,
    click,
    go_to,
    live_grid,
)

pytestmark = pytest.mark.e2e

ORGANIZER = ("Olivia", ORGANIZER_PIN)
ROOM = "Europe/Stockholm"


def pick(form, label: str, option: str) -> None:
    """Choose `option` in a select box of a form (a form's widgets wait for its button: no
    run starts until then)."""
    box = form.locator(f'input[role="combobox"][aria-label="{label}"]').first
    box.click()
    box.fill(option)
    form.page.get_by_role("option", name=option, exact=True).first.click()
    assert box.input_value() == option or form.get_by_text(option).count()


def fill(form, label: str, text: str) -> None:
    """Type into a form's text or number box (no run starts until the form's button)."""
    box = form.locator(f'input[aria-label="{label}"]').first
    box.fill(text)
    box.press("Tab")


def set_time(form, label: str, hour: int, minute: int) -> None:
    """Type the time of day into a time box's hour and minute, as a person would."""
    for part, value in (("hour", hour), ("minute", minute)):
        box = form.get_by_role("spinbutton", name=f"{part}, {label}").first
        box.click()
        box.press_sequentially(f"{value:02d}")
    hidden = form.locator('[data-testid="stTimeInput"] input[type="hidden"]').first
    assert hidden.input_value().startswith(f"{hour:02d}:{minute:02d}")


def set_day(page, day: dt.date) -> None:
    """Type the day into the form's date box, as a person would, and close the calendar."""
    box = page.locator('[data-testid="stDateInput"] input').first
    box.fill(day.isoformat())
    box.press("Enter")
    box.press("Escape")


def test_the_organizer_plans_a_day_and_a_spectator_sees_it(fresh_server, open_app):
    app = fresh_server
    engine = store.connect(app.database_url)
    try:
        store.set_settings(engine, {"time_zone": ROOM}, actor=Actor("Olivia", Role.ORGANIZER))
    finally:
        engine.dispose()
    tomorrow = dt.datetime.now(ZoneInfo(ROOM)).date() + dt.timedelta(days=1)
    organizer = open_app(as_=ORGANIZER, app=app)
    go_to(organizer, "Schedule")
    organizer.get_by_text("Nothing is on the schedule yet.").wait_for()

    form = organizer.locator('[data-testid="stForm"]').first
    pick(form, "What", "Qualifier")
    set_day(organizer, tomorrow)
    click(organizer, "Put it on the schedule",
          expect=f"Planned Qualifier 1 for {tomorrow:%A} 09:00.")

    form = organizer.locator('[data-testid="stForm"]').first
    if not form.is_visible():  # the form folds once the schedule has an item
        organizer.get_by_text("Plan an item").click()
        form.wait_for()
    pick(form, "What", "Something else")
    fill(form, "Title", "Lunch")
    set_day(organizer, tomorrow)
    set_time(form, "Starts", 12, 30)
    fill(form, "Length", "45")
    click(organizer, "Put it on the schedule", expect=f"Planned Lunch for {tomorrow:%A} 12:30.")
    rows = live_grid(organizer, "Starts", "Ends", "What", rows=2)
    assert [(r["Starts"], r["Ends"], r["What"]) for r in rows] == [
        ("09:00", "11:30", "Qualifier 1"), ("12:30", "13:15", "Lunch")]

    spectator = open_app(viewport=PHONE, app=app)
    spectator.get_by_text(f"Next: Qualifier 1 at {tomorrow:%A} 09:00").wait_for()  # Home
    go_to(spectator, "Schedule")
    rows = live_grid(spectator, "Starts", "What", rows=2)
    assert [r["What"] for r in rows] == ["Qualifier 1", "Lunch"]
    spectator.get_by_text(f"Times are in the tournament's time zone ({ROOM}).").wait_for()
    assert spectator.get_by_role("button", name="Plan an item").count() == 0
    spectator.get_by_role("button", name="Add to your calendar (.ics)").wait_for()
