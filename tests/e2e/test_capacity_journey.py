"""A journey in a real browser with more players than seats (R21): twelve players pre-registered
from the registration file, seven drop in on the day; 19 checked in for a 16-seat sitting. The
organizer sees the three who wait and why before drawing, draws, and 16 are seated; the three
stay on the sitting's waiting list, which a spectator sees once the draw is published."""

from __future__ import annotations

import pandas as pd
import pytest

from stsa import store
from stsa.auth import Actor, Role
from tests.e2e.conftest import ORGANIZER_PIN, click, go_to, grid, type_text

pytestmark = pytest.mark.e2e

ORGANIZER = ("Olivia", ORGANIZER_PIN)
REGISTERED = [f"Registered {i:02d}" for i in range(1, 13)]
DROP_INS = ["Alia Brandt", "Duncan Moss", "Gurney Hale", "Irulan Reyes", "Jessica Lund",
            "Leto Marsh", "Liet Kynes"]


def test_19_checked_in_for_16_seats_three_wait(fresh_server, open_app):
    app = fresh_server
    engine = store.connect(app.database_url)
    try:  # the registration file, imported before the day
        store.import_players(engine, pd.DataFrame({"name": REGISTERED}), pre_registered=True,
                             actor=Actor("Olivia", Role.ORGANIZER))
    finally:
        engine.dispose()
    organizer = open_app(as_=ORGANIZER, app=app)

    go_to(organizer, "Roster")  # on the day: seven drop in, everyone checks in
    organizer.get_by_text("Import players").click()  # folded once the roster has players
    type_text(organizer, "Players", "\n".join(DROP_INS))
    click(organizer, "Import list", expect="Imported 7 players.")
    click(organizer, "Check in all active", expect="Checked in 19 more players.")
    organizer.get_by_text("3 wait for a seat (the 16-seat limit").wait_for()
    roster = grid(organizer, "Name", "Registration", "Checked in at")  # by name, first rows
    kinds = {row["Name"]: row["Registration"] for row in roster}
    assert kinds["Registered 01"] == "pre-registered #1" and kinds["Liet Kynes"] == "drop-in"

    go_to(organizer, "Draw")
    organizer.get_by_text("19 players checked in").wait_for()
    organizer.get_by_text("16 play, 3 wait").wait_for()
    organizer.get_by_text("16 players: 4 tables (4 + 4 + 4 + 4).").wait_for()
    waiting = grid(organizer, "Position", "Player", "Why", rows=3)
    assert [row["Player"] for row in waiting] == ["Jessica Lund", "Leto Marsh", "Liet Kynes"]
    assert all(row["Why"].endswith("over the 16-seat limit") for row in waiting)

    click(organizer, "Draw", expect="Qualifier 1 drawn from seed")
    grid(organizer, "Table", "Seat", "Player")
    engine = store.connect(app.database_url)
    try:
        seated = store.seats(engine, actor=Actor("Olivia", Role.ORGANIZER))
    finally:
        engine.dispose()
    assert len(seated) == 16
    assert set(seated["name"]) == set(REGISTERED) | set(DROP_INS[:4])
    organizer.get_by_text("waiting for a seat: 1. Jessica Lund, 2. Leto Marsh, "
                          "3. Liet Kynes").wait_for()
    click(organizer, "Publish", expect="Published: everyone now sees this draw.")

    spectator = open_app("draw", app=app)
    spectator.get_by_text("waiting for a seat: 1. Jessica Lund").wait_for()
    assert grid(spectator, "Table", "Seat", "Player")[0]["Table"] == "1"
