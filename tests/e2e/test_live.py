"""Live standings in a real browser: a spectator's Standings page shows new results by itself,
without a reload, a few seconds after the organizer loads the demo tournament (the table's
fragment reads again every few seconds through the shared cache)."""

import time

import pytest

from stsa.ui import live
from tests.e2e.conftest import PHONE, grid

pytestmark = pytest.mark.e2e


def test_standings_update_on_a_spectators_page_without_a_reload(open_app, fresh_server):
    spectator = open_app("standings", viewport=PHONE, app=fresh_server)
    spectator.get_by_text("No results yet").wait_for()
    spectator.evaluate("() => { window.stsaNotReloaded = true; }")  # gone if the page reloads

    # the demo's players and results arrive in the tournament the spectator watches (the
    # Home page's demo button makes a tournament of its own: R27)
    from stsa import demo, store
    from stsa.auth import Actor, Role

    engine = store.connect(fresh_server.database_url)
    try:
        demo.load_demo(engine, actor=Actor("Olivia", Role.ORGANIZER))
    finally:
        engine.dispose()
    loaded = time.monotonic()

    spectator.get_by_text("24 players: the top 3 go straight to the final").wait_for(
        timeout=(live.REFRESH_SECONDS + 8) * 1000)
    assert time.monotonic() - loaded <= live.REFRESH_SECONDS + 8
    assert spectator.evaluate("() => window.stsaNotReloaded === true")
    spectator.locator('[data-testid="stDataFrame"]').first.wait_for()
    assert not spectator.get_by_text("No results yet").count()


def test_a_judges_save_shows_on_a_spectators_standings_without_a_reload(open_app, fresh_server):
    """A judge corrects a table (through the store, as the Results page does) so that a player
    jumps to the top; the spectator's open Standings page shows it within a refresh."""
    from stsa import demo, store, tournament
    from stsa.auth import Actor, Role

    engine = store.connect(fresh_server.database_url)
    demo.load_demo(engine, actor=Actor("Olivia", Role.ORGANIZER))
    spectator = open_app("standings", viewport=PHONE, app=fresh_server)
    spectator.get_by_text("24 players: the top 3 go straight to the final").wait_for()
    spectator.evaluate("() => { window.stsaNotReloaded = true; }")

    table = store.tables(engine, actor=Actor("J", Role.JUDGE)).iloc[0]
    stored = store.table_result(engine, int(table["table_id"]))
    last = stored.rows.sort_values("vp").iloc[0]["player_id"]
    rows = stored.rows.assign(vp=lambda d: d["vp"].where(d["player_id"] != last, 40))
    store.submit_table_result(engine, int(table["table_id"]), rows,
                              expected_version=stored.version, submission_id=None,
                              actor=Actor("Jamal", Role.JUDGE))
    saved = time.monotonic()
    name = store.player(engine, int(last))["name"]
    assert tournament.standings_table(engine)["name"].iloc[0] == name
    deadline = saved + live.REFRESH_SECONDS + 10
    while grid(spectator, "Player")[0]["Player"] != name:  # the table draws on a canvas
        assert time.monotonic() < deadline, "the standings did not update by themselves"
        spectator.wait_for_timeout(500)
    assert spectator.evaluate("() => window.stsaNotReloaded === true")
    engine.dispose()
