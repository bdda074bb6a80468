"""R25 in a real browser: the organizer imports a qualifier's booking list on the Roster page
(one row matches nobody and is ticked to be added), the room's code shows on the organizer's
Home while check-in is open, and a player checks themselves in on My seat with that code; the
organizer sees who checked themselves in."""

from __future__ import annotations

import datetime as dt
import re

import pandas as pd
import pytest

from stsa import store
from stsa.auth import Actor, Role
from tests.e2e.conftest import ORGANIZER_PIN, PHONE, click, field, go_to, rerun
from tests.support.bookings_helpers import csv_bytes, plan_qualifier

pytestmark = pytest.mark.e2e

ORGANIZER = ("Olivia", ORGANIZER_PIN)


def test_a_booking_list_imported_and_a_player_checks_in_with_the_code(fresh_server, open_app):
    app = fresh_server
    engine = store.connect(app.database_url)
    try:
        store.import_players(engine, pd.DataFrame({"name": ["Ann Lee", "Bo Ek"],
                                                   "nickname": ["Annie", "Bo"]}),
                             actor=Actor("Olivia", Role.ORGANIZER))
        plan_qualifier(engine, 1, dt.datetime.now(dt.UTC) + dt.timedelta(minutes=30))
    finally:
        engine.dispose()
    organizer = open_app(as_=ORGANIZER, app=app)

    go_to(organizer, "Roster")
    part = organizer.locator('[data-testid="stExpander"]', has_text="Import a booking list")
    part.get_by_text("Import a booking list").click()
    data = csv_bytes([["Nickname", "E-mail", "Booked at"], ["bo", "", "2026-03-01 10:00"],
                      ["Cy New", "cy@example.com", "2026-03-01 10:05"],
                      ["ANNIE", "", "2026-03-01 09:00"]])
    with rerun(organizer, "the booking list's preview"):
        part.locator('input[type="file"]').set_input_files(
            {"name": "qualifier-1.csv", "mimeType": "text/csv", "buffer": data})
    organizer.get_by_text("3 bookings; 1 match nobody on the roster.").wait_for()
    with_label = "Row 3: add Cy New · cy@example.com as a new player"
    with rerun(organizer, "the ticked row"):
        organizer.get_by_text(with_label).click()
    organizer.get_by_label(with_label).wait_for(state="attached")
    click(organizer, "Import booking list",
          expect="Qualifier 1: 3 booked: 3 added (1 new player), 0 removed, 0 moved.")

    go_to(organizer, "Home")
    shown = organizer.get_by_text(re.compile(r"Check in on My seat with the code \d{5}"))
    shown.wait_for()
    code = re.search(r"code (\d{5})", shown.inner_text()).group(1)

    engine = store.connect(app.database_url)
    try:
        bo = int(store.players(engine).set_index("nickname").loc["Bo", "player_id"])
    finally:
        engine.dispose()
    phone = open_app(f"player?player={bo}", viewport=PHONE, app=app)
    phone.get_by_text("You are booked for Qualifier 1").wait_for()
    field(phone, "Code on the TV").fill(code)  # a form's field: its button sends it
    click(phone, "Check me in", expect="You are checked in for Qualifier 1.")

    go_to(organizer, "Roster")
    organizer.get_by_text("Checked in on My seat (1)").wait_for()
    engine = store.connect(app.database_url)
    try:
        assert store.self_checked_in(engine) == [bo]
    finally:
        engine.dispose()
