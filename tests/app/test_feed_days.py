"""The data feed's tournament days follow the schedule (issue 33): once items are planned, a
tournament's `first_day` and `last_day` are the days of its first and last item in its time
zone, in the list of tournaments and in the tournament's own answer; before, the days the
organizer gave (none: null)."""

from __future__ import annotations

import datetime as dt
import json
from zoneinfo import ZoneInfo

from stsa import store
from stsa.services import schedule
from stsa.web import feed
from tests.support import feed_routes
from tests.support.store_helpers import ORGANIZER

ROOM = ZoneInfo("Europe/Stockholm")


def _get(path: str, **params) -> dict:
    answer = feed_routes.answer(path, **params)
    assert answer.status_code == 200
    return json.loads(bytes(answer.body).decode())


def _days(key: str) -> tuple[tuple, tuple]:
    feed.forget_recent()
    listed = next(t for t in _get("/api/v1/tournaments")["tournaments"] if t["key"] == key)
    one = _get("/api/v1/tournaments/{key}", key=key)
    return (listed["first_day"], listed["last_day"]), (one["first_day"], one["last_day"])


def test_the_first_and_last_day_follow_the_planned_schedule(engine):
    key = store.tournaments(engine)["key"].iloc[0]
    assert _days(key) == ((None, None), (None, None))
    store.set_settings(engine, {"time_zone": "Europe/Stockholm"}, actor=ORGANIZER)
    schedule.plan_item(engine, kind="qualifier", number=1, actor=ORGANIZER,
                       starts_at=schedule.start_of(dt.date(2026, 3, 7), dt.time(9), ROOM))
    assert _days(key) == (("2026-03-07", "2026-03-07"), ("2026-03-07", "2026-03-07"))
    # the prize giving at 00:30 on Monday in the room (Sunday 23:30 in UTC)
    schedule.plan_item(engine, kind="other", title="Prize giving", minutes=30, actor=ORGANIZER,
                       starts_at=schedule.start_of(dt.date(2026, 3, 9), dt.time(0, 30), ROOM))
    assert _days(key) == (("2026-03-07", "2026-03-09"), ("2026-03-07", "2026-03-09"))
