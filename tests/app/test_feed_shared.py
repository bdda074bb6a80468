"""The data feed reads what the pages read (DESIGN.md, "Shared state"): its standings come off
the shelf a spectator's Standings page filled, and its answer is made once per data version,
however many pollers ask."""

from __future__ import annotations

import json

from stsa import store
from stsa.ui import data
from stsa.ui import finals as finals_view
from stsa.web import feed
from tests.app.conftest import count_calls
from tests.support import feed_routes
from tests.support.store_helpers import ORGANIZER, published_sitting, rows_for


def _get(path: str, **params) -> tuple[int, dict, bytes]:
    answer = feed_routes.answer(path, **params)
    return answer.status_code, dict(answer.headers), bytes(answer.body)


def test_the_feed_takes_the_standings_the_page_computed_and_makes_its_answer_once(
        open_page, engine, monkeypatch):
    _, tables = published_sitting(engine)
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

    # A write that the standings do not show: built again, the same content, the same ETag
    store.add_player(engine, "Late Comer", actor=store.db.SYSTEM)
    assert _get(route, key=key)[1]["etag"] == headers["etag"]  # given again for a moment…
    assert shaped == [1]
    feed.forget_recent()  # …until it is built again (at most once a second)
    status, same, _ = _get(route, key=key)
    assert shaped == [1, 1] and made == [1] and same["etag"] == headers["etag"]
    unchanged = feed_routes.answer(route, key=key, headers={"if-none-match": same["etag"]})
    assert unchanged.status_code == 304 and not bytes(unchanged.body)

    # A result moves the standings: a new answer under a new ETag
    table_id = int(tables["table_id"].iloc[0])
    store.submit_table_result(engine, table_id, rows_for(engine, table_id),
                              expected_version=0, submission_id=None, actor=ORGANIZER)
    feed.forget_recent()
    status, moved, after = _get(route, key=key)
    assert moved["etag"] != headers["etag"] and shaped == [1, 1, 1]
    assert json.loads(after)["standings"] != json.loads(body)["standings"]


def test_a_page_run_hands_its_live_element_the_very_answer_the_feed_gives(engine, monkeypatch):
    published_sitting(engine)
    listed = store.tournaments(engine)
    key, tid = listed["key"].iloc[0], int(listed["tournament_id"].iloc[0])
    shaped = count_calls(monkeypatch, feed.shape, "standings")
    etag, body = feed.shared_answer(data.public(tid), key, "standings")
    status, headers, polled = _get("/api/v1/tournaments/{key}/standings", key=key)
    assert (headers["etag"], polled) == (etag, body) and shaped == [1]  # built once for both
    held = feed_routes.answer("/api/v1/tournaments/{key}/standings", key=key,
                              headers={"if-none-match": etag})
    assert held.status_code == 304  # the element's first poll costs no body
