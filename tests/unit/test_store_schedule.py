"""The schedule in the store (R26), on SQLite and on PostgreSQL: the organizer plans, changes,
removes and shifts items, each logged; bad input says what and where and writes nothing."""

from __future__ import annotations

import datetime as dt

import pytest

from stsa import store
from stsa.domain import Action
from stsa.store import PermissionDenied, TournamentError
from tests.support.store_helpers import JUDGE, ORGANIZER

NINE = dt.datetime(2026, 3, 7, 9, 0, tzinfo=dt.UTC)


def logged(engine) -> list[str]:
    return store.events(engine, actor=ORGANIZER, action="schedule.")["action"].tolist()


def test_plan_change_shift_and_remove(engine):
    store.set_settings(engine, {"sitting_minutes": 120}, actor=ORGANIZER)
    first = store.add_schedule_item(engine, sitting_kind="qualifier", sitting_number=1,
                                    starts_at=NINE, actor=ORGANIZER)
    assert first["title"] == "Qualifier 1" and first["minutes"] == 120  # the setting's length
    lunch = store.add_schedule_item(engine, title="  Lunch  ", minutes=45, actor=ORGANIZER,
                                    starts_at=NINE + dt.timedelta(hours=2))
    final = store.add_schedule_item(engine, sitting_kind="final", actor=ORGANIZER,
                                    starts_at=NINE + dt.timedelta(hours=4))
    assert (lunch["title"], lunch["sitting_kind"], final["sitting_number"]) == ("Lunch", None, 1)
    version = store.data_version(engine)
    store.update_schedule_item(engine, lunch["item_id"], minutes=60, actor=ORGANIZER)
    assert store.data_version(engine) > version
    moved = store.shift_schedule(engine, 15, after_item=first["item_id"], actor=ORGANIZER)
    assert moved == [lunch["item_id"], final["item_id"]]
    items = store.schedule_items(engine)
    assert items["title"].tolist() == ["Qualifier 1", "Lunch", "Final"]
    assert items["starts_at"].dt.strftime("%H:%M").tolist() == ["09:00", "11:15", "13:15"]
    assert items["minutes"].tolist() == [120, 60, 120]
    store.delete_schedule_item(engine, lunch["item_id"], actor=ORGANIZER)
    assert store.schedule_items(engine)["title"].tolist() == ["Qualifier 1", "Final"]
    assert logged(engine) == [Action.SCHEDULE_ADD] * 3 + [
        Action.SCHEDULE_EDIT, Action.SCHEDULE_SHIFT, Action.SCHEDULE_REMOVE]


@pytest.mark.parametrize(("values", "words"), [
    ({"sitting_kind": "semi"}, "'semi' is not a kind of item"),
    ({"sitting_kind": "qualifier", "sitting_number": 0}, "number must be a whole number"),
    ({"sitting_kind": "qualifier", "sitting_number": 1, "minutes": 0}, "from 1 to 1440"),
    ({"title": "Lunch", "minutes": 1441}, "from 1 to 1440"),
    ({"title": "Lunch", "starts_at": "noon"}, "the start must be a date and time"),
    ({"title": "Lunch", "starts_at": dt.datetime(2026, 3, 7, 12)}, "with its time zone"),
    ({"title": "   "}, "the title is empty"),
    ({"title": "x" * 101}, "longer than 100 characters"),
])
def test_bad_input_says_what_and_where_and_writes_nothing(sqlite_engine, values, words):
    args = {"starts_at": NINE, **values}
    with pytest.raises(TournamentError, match=words) as caught:
        store.add_schedule_item(sqlite_engine, actor=ORGANIZER, **args)
    assert str(caught.value).startswith("Schedule item")
    assert store.schedule_items(sqlite_engine).empty and logged(sqlite_engine) == []


def test_a_sitting_is_planned_once_and_only_by_the_organizer(sqlite_engine):
    store.add_schedule_item(sqlite_engine, sitting_kind="qualifier", sitting_number=2,
                            starts_at=NINE, actor=ORGANIZER)
    with pytest.raises(TournamentError, match="Qualifier 2 is on the schedule already"):
        store.add_schedule_item(sqlite_engine, sitting_kind="qualifier", sitting_number=2,
                                starts_at=NINE, actor=ORGANIZER)
    with pytest.raises(PermissionDenied):
        store.add_schedule_item(sqlite_engine, title="Lunch", starts_at=NINE, actor=JUDGE)
    with pytest.raises(PermissionDenied):
        store.shift_schedule(sqlite_engine, 10, at=NINE, actor=JUDGE)
    with pytest.raises(TournamentError, match="minutes must be a whole number"):
        store.shift_schedule(sqlite_engine, 0, at=NINE, actor=ORGANIZER)
    assert store.shift_schedule(sqlite_engine, 10, at=NINE + dt.timedelta(days=1),
                                actor=ORGANIZER) == []
    assert logged(sqlite_engine) == [Action.SCHEDULE_ADD]


def test_a_renumbered_sitting_follows_its_name(sqlite_engine):
    item = store.add_schedule_item(sqlite_engine, sitting_kind="qualifier", sitting_number=2,
                                   starts_at=NINE, actor=ORGANIZER)
    changed = store.update_schedule_item(sqlite_engine, item["item_id"], sitting_number=3,
                                         sitting_kind="qualifier", actor=ORGANIZER)
    assert changed["title"] == "Qualifier 3"
    other = store.update_schedule_item(sqlite_engine, item["item_id"], sitting_kind="other",
                                       title="Player meeting", actor=ORGANIZER)
    assert (other["sitting_kind"], other["sitting_number"]) == (None, None)


def test_the_last_move_is_undone_exactly_once_on_both_databases(engine):
    """Issue 33: an undo puts back the starts before the last move, is logged, and a second
    one finds nothing to undo."""
    first = store.add_schedule_item(engine, sitting_kind="qualifier", sitting_number=1,
                                    starts_at=NINE, actor=ORGANIZER)
    lunch = store.add_schedule_item(engine, title="Lunch", minutes=45, actor=ORGANIZER,
                                    starts_at=NINE + dt.timedelta(hours=3))
    before = store.schedule_items(engine)["starts_at"].tolist()
    assert store.shift_schedule(engine, 7, after_item=first["item_id"],
                                actor=ORGANIZER) == [lunch["item_id"]]
    assert store.last_shift(engine, actor=ORGANIZER)["refused"] == ""
    assert store.undo_shift(engine, actor=ORGANIZER) == [lunch["item_id"]]
    assert store.schedule_items(engine)["starts_at"].tolist() == before
    assert store.last_shift(engine, actor=ORGANIZER) is None
    with pytest.raises(TournamentError, match="no move to undo"):
        store.undo_shift(engine, actor=ORGANIZER)
    assert logged(engine)[-2:] == [Action.SCHEDULE_SHIFT, Action.SCHEDULE_UNDO]
