"""Live standings in a real browser: a spectator's Standings page shows new results by itself,
without a reload, a few seconds after the organizer loads the demo tournament (the table's
fragment reads again every few seconds through the shared cache)."""

import time

import pytest

from stsa.ui import live
from tests.e2e.conftest import ORGANIZER_PIN, PHONE, go_to

pytestmark = pytest.mark.e2e


def test_standings_update_on_a_spectators_page_without_a_reload(open_app, fresh_server):
    spectator = open_app("standings", viewport=PHONE, app=fresh_server)
    spectator.get_by_text("No results yet").wait_for()
    spectator.evaluate("() => { window.stsaNotReloaded = true; }")  # gone if the page reloads

    organizer = open_app(as_=("Olivia", ORGANIZER_PIN), app=fresh_server)
    go_to(organizer, "Home")
    organizer.get_by_role("button", name="Load demo tournament").click()
    organizer.get_by_text("Demo tournament loaded").wait_for()
    loaded = time.monotonic()

    spectator.get_by_text("24 players: the top 3 go straight to the final").wait_for(
        timeout=(live.REFRESH_SECONDS + 8) * 1000)
    assert time.monotonic() - loaded <= live.REFRESH_SECONDS + 8
    assert spectator.evaluate("() => window.stsaNotReloaded === true")
    spectator.locator('[data-testid="stDataFrame"]').first.wait_for()
    assert not spectator.get_by_text("No results yet").count()
