"""The schedule's pure functions by example (R26): the frame, labels, overlaps, an item that
ends before it starts, the next item and "running late"."""

from __future__ import annotations

import datetime as dt

import pandas as pd
import pytest

from stsa import schedule

NINE = dt.datetime(2026, 3, 7, 9, 0, tzinfo=dt.UTC)


def day() -> pd.DataFrame:
    return schedule.schedule_frame(pd.DataFrame([
        {"id": 3, "title": "Lunch", "sitting_kind": None, "sitting_number": None,
         "starts_at": NINE + dt.timedelta(hours=3), "minutes": 60},
        {"id": 1, "title": "Qualifier 1", "sitting_kind": "qualifier", "sitting_number": 1,
         "starts_at": NINE, "minutes": 150},
        {"id": 2, "title": "Uprising only", "sitting_kind": "qualifier", "sitting_number": 2,
         "starts_at": NINE + dt.timedelta(hours=2), "minutes": 150},
    ]))


def test_the_frame_is_in_order_with_each_end():
    frame = day()
    assert frame.columns.tolist() == schedule.COLUMNS
    assert frame["item_id"].tolist() == [1, 2, 3]
    assert frame["ends_at"].iloc[0] == pd.Timestamp(NINE + dt.timedelta(minutes=150))
    assert schedule.labels(frame).tolist() == ["Qualifier 1", "Qualifier 2: Uprising only",
                                               "Lunch"]


def test_sittings_overlap_but_lunch_beside_them_does_not():
    assert schedule.overlaps(day()).values.tolist() == [[1, 2]]


def test_an_item_of_no_length_ends_before_it_starts():
    frame = day().assign(minutes=[150, 0, 60])
    frame = frame.assign(ends_at=frame["starts_at"] + pd.to_timedelta(frame["minutes"], "min"))
    assert schedule.ends_before_start(frame)["item_id"].tolist() == [2]


def test_the_next_item_and_what_is_running():
    frame = day()
    assert schedule.next_item(frame, NINE + dt.timedelta(minutes=1))["title"] == "Uprising only"
    assert schedule.next_item(frame, NINE)["item_id"] == 1  # starting now is next
    assert schedule.next_item(frame, NINE + dt.timedelta(hours=5)) is None
    assert schedule.running(frame, NINE + dt.timedelta(hours=2, minutes=15))[
        "item_id"].tolist() == [1, 2]


def test_running_late_moves_what_starts_later():
    late = schedule.shift(day(), 15, at=NINE + dt.timedelta(hours=2))
    assert late["starts_at"].dt.strftime("%H:%M").tolist() == ["09:00", "11:15", "12:15"]
    after = schedule.shift(day(), 20, after_item=1)
    assert after["starts_at"].dt.strftime("%H:%M").tolist() == ["09:00", "11:20", "12:20"]
    assert schedule.shift(day(), 20, after_item=99).equals(day())
    with pytest.raises(ValueError):
        schedule.shift(day(), 5)
