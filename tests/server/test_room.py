"""A very full room: My seat (the one page still refreshed by a Python fragment) spaces its
refreshes as more pages open, and closes them up again as the room empties
(stsa.ui.live.refresh_seconds), against a real server. The room's share is set low
(`STSA_ROOM_REFRESHES`) so that a dozen pages make a full room. (Standings, Home and Schedule
are live elements that poll the feed: they have no refresh to space.)"""

from __future__ import annotations

import pytest

from stsa import store
from stsa.auth import Actor, Role
from tests.server.conftest import assert_clean
from tests.support.appserver import started

pytestmark = pytest.mark.server


def interval(run) -> float:
    (seconds,) = run.fragments.values()
    return seconds


def test_live_pages_refresh_less_often_as_the_room_fills_and_more_as_it_empties(
        tmp_path, connect):
    # one refresh a second for the process: up to 10 pages every 10 s, 11–15 every 15 s
    with started(tmp_path, env={"STSA_ROOM_REFRESHES": "1"}) as app:
        engine = store.connect(app.database_url)
        try:
            ann = store.add_player(engine, "Ann", actor=Actor("Olivia", Role.ORGANIZER))
        finally:
            engine.dispose()
        mine = f"player={ann['player_id']}"
        first = connect(app, path="player", query=mine)
        opened = assert_clean(first.run())
        assert interval(opened) == 10
        assert "updates by itself every 10 s" in opened.text()

        crowd = [connect(app, path="player", query=mine) for _ in range(11)]
        for tab in crowd:
            assert_clean(tab.run())
        assert interval(crowd[-1].last) == 15, "the 12th page opened in a fuller room"
        assert "updates by itself every 15 s" in crowd[-1].last.text()

        # the first page's next refresh finds the fuller room: the whole page comes back
        # with the room's interval, as the browser then keeps it
        again = assert_clean(first.rerun_fragment())
        assert interval(again) == 15
        assert "updates by itself every 15 s" in again.text()
        assert first.auto_reruns and set(first.auto_reruns.values()) == {15}
        quiet = first.rerun_fragment()
        assert quiet.status == "fragment_finished", "at its new interval the page stays put"

        for tab in crowd:  # everyone else leaves: 15 s is then two steps above the room's 5
            tab.close()
        # the server notices each close on its own loop: refresh until it has (each refresh
        # is a round trip through that loop), at most a few hundred times
        for _ in range(500):
            crowd_gone = first.rerun_fragment()
            if crowd_gone.status != "fragment_finished":
                break
        assert_clean(crowd_gone)
        assert interval(crowd_gone) == 10
