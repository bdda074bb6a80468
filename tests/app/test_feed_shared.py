"""The data feed reads what the pages read (DESIGN.md, "Shared state"): its standings come off
the shelf a spectator's Standings page filled, and its answer is made once per data version,
however many pollers ask."""

from __future__ import annotations

import json

from stsa import store
from stsa.ui import feed
from stsa.ui import finals as finals_view
from tests.app.conftest import count_calls
from tests.support import feed_routes
from tests.support.store_helpers import published_sitting


def _get(path: str, **params) -> tuple[int, dict, bytes]:
    answer = feed_routes.answer(path, **params)
    return answer.status_code, dict(answer.headers), bytes(answer.body)


def test_the_feed_takes_the_standings_the_page_computed_and_makes_its_answer_once(
        open_page, engine, monkeypatch):
    published_sitting(engine)
    key = store.tournaments(engine)["key"].iloc[0]
    at = open_page("views/standings.py")
    assert not at.exception
    made = count_calls(monkeypatch, finals_view, "standings_frame")
    shaped = count_calls(monkeypatch, feed.shape, "standings")
    route = "/api/v1/tournaments/{key}/standings"
    status, headers, body = _get(route, key=key)
    assert status == 200 and json.loads(body)["tournament"] == key
    for _ in range(3):  # more pollers at the same version
        assert _get(route, key=key)[2] == body
    assert made == [] and shaped == [1]  # the page's standings; one answer for all four
    store.add_player(engine, "Late Comer", actor=store.db.SYSTEM)
    assert _get(route, key=key)[1]["etag"] == headers["etag"]  # given again for a moment…
    feed.forget_recent()  # …until its version is read again
    status, moved, _ = _get(route, key=key)
    assert moved["etag"] != headers["etag"] and made == [1] and shaped == [1, 1]
