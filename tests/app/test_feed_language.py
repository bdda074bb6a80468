"""The data feed and the overlays in the tournament's language (issue 25): the words meant for
people follow the tournament's language setting, the field names and machine values stay
English, and each language's answer is made once per data version, under its own ETag."""

from __future__ import annotations

import json

from stsa import store
from stsa.web import feed
from tests.app.conftest import count_calls
from tests.support import feed_routes
from tests.support.store_helpers import ORGANIZER, published_sitting

ROUTE = "/api/v1/tournaments/{key}"


def _get(path: str, **params) -> tuple[int, dict, dict | str]:
    answer = feed_routes.answer(path, **params)
    body = bytes(answer.body).decode()
    media = answer.headers.get("content-type", "")
    return answer.status_code, dict(answer.headers), \
        json.loads(body) if media.startswith("application/json") else body


def test_the_feed_speaks_the_tournaments_language_once_per_version(engine, monkeypatch):
    published_sitting(engine)
    key = store.tournaments(engine)["key"].iloc[0]
    status, headers, english = _get(ROUTE, key=key)
    assert status == 200 and english["current_sitting"] == "Qualifier 1"
    store.set_settings(engine, {"language": "sv"}, actor=ORGANIZER)
    feed.forget_recent()
    shaped = count_calls(monkeypatch, feed.shape, "tournament")
    status, moved, swedish = _get(ROUTE, key=key)
    assert status == 200 and swedish["current_sitting"] == "Kvalomgång 1"
    assert feed.shape.paths(swedish) == feed.shape.paths(english)  # the same machine fields
    assert (swedish["key"], swedish["players"]) == (english["key"], english["players"])
    assert moved["etag"] != headers["etag"]
    feed.forget_recent()
    assert _get(ROUTE, key=key)[2] == swedish and shaped == [1]  # once for this version


def test_an_overlay_and_its_page_speak_the_tournaments_language(engine):
    published_sitting(engine)
    store.set_settings(engine, {"language": "fr"}, actor=ORGANIZER)
    _id, token = store.create_overlay(engine, "table", table_no=1, actor=ORGANIZER)
    status, _headers, answer = _get("/api/v1/overlays/{token}", token=token)
    assert status == 200 and answer["sitting"] == "Qualification 1"
    assert answer["kind"] == "table" and answer["seats"][0]["seat"] == 1
    status, _headers, page = _get("/overlay/{token}", token=token)
    assert status == 200 and '<html lang="fr">' in page and "Table {table}" in page
    assert "Pas encore tirée" in page
    status, _headers, gone = _get("/api/v1/overlays/{token}", token="nothing-like-a-token")
    assert status == 404 and "withdrawn" in gone["error"]  # no tournament known: English
