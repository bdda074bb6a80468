"""The schedule's pure functions by example (R26): the frame, labels, overlaps, an item that
ends before it starts, the next item and "running late"."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

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


ROOM = ZoneInfo("Europe/Stockholm")


def weekend() -> pd.DataFrame:
    """Saturday: Qualifier 2 at 14:00, Qualifier 3 at 17:00 and a late party at 23:30 (still
    Saturday in the room, Sunday in UTC: 22:30); Sunday: the semifinal at 10:00 and the
    prize giving at 16:00 (times in Stockholm, UTC+1 in March)."""
    sat, sun = dt.date(2026, 3, 7), dt.date(2026, 3, 8)

    def local(day: dt.date, hour: int, minute: int = 0) -> dt.datetime:
        return dt.datetime.combine(day, dt.time(hour, minute), tzinfo=ROOM)

    return schedule.schedule_frame(pd.DataFrame([
        {"id": 1, "title": "Qualifier 2", "sitting_kind": "qualifier", "sitting_number": 2,
         "starts_at": local(sat, 14), "minutes": 150},
        {"id": 2, "title": "Qualifier 3", "sitting_kind": "qualifier", "sitting_number": 3,
         "starts_at": local(sat, 17), "minutes": 150},
        {"id": 3, "title": "Party", "sitting_kind": None, "sitting_number": None,
         "starts_at": local(sat, 23, 30), "minutes": 60},
        {"id": 4, "title": "Semifinal", "sitting_kind": "semifinal", "sitting_number": 1,
         "starts_at": local(sun, 10), "minutes": 150},
        {"id": 5, "title": "Prize giving", "sitting_kind": None, "sitting_number": None,
         "starts_at": local(sun, 16), "minutes": 30},
    ]))


def local_starts(frame: pd.DataFrame) -> list[str]:
    return frame["starts_at"].dt.tz_convert(ROOM).dt.strftime("%a %H:%M").tolist()


def test_running_late_moves_the_rest_of_the_same_day_only_unless_asked():
    """Issue 33: 20 minutes late after Saturday's Qualifier 2 moves Saturday's later items
    (the day as the room reads it, not UTC's), not Sunday's; later days move on request."""
    same_day = schedule.shift(weekend(), 20, after_item=1, tz=ROOM)
    assert local_starts(same_day) == ["Sat 14:00", "Sat 17:20", "Sat 23:50", "Sun 10:00",
                                      "Sun 16:00"]
    assert schedule.later_mask(weekend(), after_item=1, tz=ROOM).tolist() == [
        False, True, True, False, False]
    every_day = schedule.shift(weekend(), 20, after_item=1, tz=ROOM, later_days=True)
    assert local_starts(every_day) == ["Sat 14:00", "Sat 17:20", "Sat 23:50", "Sun 10:20",
                                       "Sun 16:20"]
    from_time = schedule.later_mask(weekend(), at=dt.datetime(2026, 3, 7, 16, tzinfo=ROOM),
                                    tz=ROOM)
    assert from_time.tolist() == [False, True, True, False, False]


def test_undoing_a_move_puts_back_exactly_the_times_before_it():
    before = weekend()
    after = schedule.shift(before, 20, after_item=1, tz=ROOM)
    moves = schedule.moves(before, after)
    assert moves["item_id"].tolist() == [2, 3]
    assert schedule.undo_conflicts(after, moves).empty
    undone = schedule.undo(after, moves)
    assert undone.equals(before)


def test_a_move_cannot_be_undone_once_its_items_moved_again_or_went():
    before = weekend()
    after = schedule.shift(before, 20, after_item=1, tz=ROOM)
    moves = schedule.moves(before, after)
    again = schedule.shift(after, 5, after_item=2, tz=ROOM)  # the party moved once more
    assert schedule.undo_conflicts(again, moves)["item_id"].tolist() == [3]
    gone = after.loc[after["item_id"].ne(2)]
    assert schedule.undo_conflicts(gone, moves)["item_id"].tolist() == [2]
    with pytest.raises(ValueError):
        schedule.undo(again, moves)


def test_the_days_of_a_schedule_are_those_of_its_first_and_last_item_in_the_room():
    assert schedule.days(weekend(), ROOM) == (dt.date(2026, 3, 7), dt.date(2026, 3, 8))
    assert schedule.days(weekend().iloc[:3], ROOM) == (dt.date(2026, 3, 7), dt.date(2026, 3, 7))
    assert schedule.days(weekend().iloc[:0], ROOM) == (None, None)
