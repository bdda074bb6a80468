"""The schedule as the pages ask for it (R26): times in the tournament's zone, the next item,
warnings for overlapping sittings, running late, a player's sittings and the calendar files
(read back with icalendar), players by nickname only (R22)."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import icalendar
import pytest

from stsa import store
from stsa.services import log, schedule
from stsa.store import PermissionDenied, TournamentError
from tests.support.store_helpers import JUDGE, ORGANIZER

ROOM = ZoneInfo("Europe/Stockholm")
DAY = dt.date(2026, 3, 7)


def at(hour: int, minute: int = 0) -> dt.datetime:
    return schedule.start_of(DAY, dt.time(hour, minute), ROOM)


def planned(engine):
    store.set_settings(engine, {"time_zone": "Europe/Stockholm",
                                "tournament_name": "Spice Cup"}, actor=ORGANIZER)
    one = schedule.plan_item(engine, kind="qualifier", number=1, starts_at=at(9),
                             actor=ORGANIZER)
    two = schedule.plan_item(engine, kind="qualifier", number=2, starts_at=at(11),
                             actor=ORGANIZER)
    lunch = schedule.plan_item(engine, kind="other", title="Lunch", starts_at=at(12, 30),
                               minutes=60, actor=ORGANIZER)
    return one, two, lunch


def test_times_read_in_the_tournament_zone_and_overlaps_warn(sqlite_engine):
    one, two, lunch = planned(sqlite_engine)
    assert one.warnings == () and lunch.warnings == ()
    assert two.warnings == ("Qualifier 1 (Saturday 09:00–11:30) overlaps Qualifier 2 "
                            "(Saturday 11:00–13:30): the same players cannot play both.",)
    assert two.done == "Planned Qualifier 2 for Saturday 11:00."
    frame = schedule.schedule(sqlite_engine)
    shown = schedule.public_schedule(frame, ROOM)
    assert shown[["day", "starts", "ends", "label"]].values.tolist() == [
        ["Saturday 7 March", "09:00", "11:30", "Qualifier 1"],
        ["Saturday 7 March", "11:00", "13:30", "Qualifier 2"],
        ["Saturday 7 March", "12:30", "13:30", "Lunch"]]
    assert store.schedule_items(sqlite_engine)["starts_at"].dt.hour.tolist() == [8, 10, 11]
    assert schedule.next_words(frame, ROOM, at(12)) == "Next: Lunch at 12:30"
    assert schedule.next_words(frame, ROOM, at(8) - dt.timedelta(days=1)) == \
        "Next: Qualifier 1 at Saturday 09:00"
    assert schedule.next_words(frame, ROOM, at(14)) == ""


def test_running_late_and_the_log_in_words(sqlite_engine):
    one, two, lunch = planned(sqlite_engine)
    moved = schedule.running_late(sqlite_engine, 150, after_item=one.item["item_id"],
                                  actor=ORGANIZER)
    assert moved.done == "Moved 2 items 150 minutes later." and moved.warnings == ()
    assert schedule.next_words(schedule.schedule(sqlite_engine), ROOM, at(12)) == \
        "Next: Qualifier 2 at 13:30"
    events = store.events(sqlite_engine, actor=ORGANIZER, action="schedule.")
    words = log.event_sentences(events, log.Places()).tolist()
    assert words[0] == "Planned Qualifier 1: Saturday 09:00, 150 minutes."
    assert words[-1] == ("Running late: moved 2 items from Saturday 11:00 on 150 minutes "
                         "later: Qualifier 2 and Lunch.")
    schedule.edit_item(sqlite_engine, lunch.item["item_id"], kind="other", title="Lunch break",
                       starts_at=at(15), minutes=45, actor=ORGANIZER)
    schedule.remove_item(sqlite_engine, lunch.item["item_id"], actor=ORGANIZER)
    events = store.events(sqlite_engine, actor=ORGANIZER, action="schedule.")
    words = log.event_sentences(events, log.Places()).tolist()
    assert words[-2] == ("Changed Lunch on the schedule: title Lunch → Lunch break; length "
                         "60 min → 45 min.")  # the start was 15:00 already (running late)
    assert words[-1] == "Took Lunch break off the schedule (it was at Saturday 15:00)."


def events_of(data: bytes) -> list:
    return list(icalendar.Calendar.from_ical(data).walk("VEVENT"))


def test_the_calendars_read_back_with_their_zone_and_stable_uids(sqlite_engine):
    planned(sqlite_engine)
    store.add_player(sqlite_engine, "Ann Lee", nickname="Sandrider",
                     email="ann@example.com", actor=ORGANIZER)
    whole = schedule.tournament_calendar(sqlite_engine)
    parsed = icalendar.Calendar.from_ical(whole)
    assert [t["TZID"] for t in parsed.walk("VTIMEZONE")] == ["Europe/Stockholm"]
    events = events_of(whole)
    assert [str(e["SUMMARY"]) for e in events] == ["Qualifier 1", "Qualifier 2", "Lunch"]
    assert events[0].decoded("DTSTART") == at(9) and events[0]["DTSTART"].params["TZID"] == \
        "Europe/Stockholm"
    assert events[2].decoded("DTEND") == at(13, 30)
    assert [str(e["UID"]) for e in events] == [str(e["UID"]) for e in events_of(
        schedule.tournament_calendar(sqlite_engine))]  # the same file each time
    assert len({str(e["UID"]) for e in events}) == 3
    player_id = int(store.players(sqlite_engine)["player_id"].iloc[0])
    mine = schedule.player_calendar(sqlite_engine, player_id, "Sandrider")
    text = mine.decode()
    assert "Ann Lee" not in text and "ann@example.com" not in text and "Sandrider" in text
    assert [str(e["SUMMARY"]) for e in events_of(mine)] == ["Qualifier 1", "Qualifier 2"]
    only = schedule.player_calendar(sqlite_engine, player_id, "Sandrider",
                                    include=[("qualifier", 2)])
    assert [str(e["UID"]) for e in events_of(only)] == [str(events[1]["UID"])]


@pytest.mark.slow
def test_a_players_calendar_holds_the_qualifiers_they_booked_and_those_without_a_list(
        sqlite_engine):
    """R25, R26: a qualifier with a booking list is in the calendars of its booked players
    only; one without a list is in everyone's (any player may play it)."""
    planned(sqlite_engine)
    for name, nickname in (("Ann Lee", "Sandrider"), ("Bo Ek", "Baliset")):
        store.add_player(sqlite_engine, name, nickname=nickname, actor=ORGANIZER)
    ids = store.players(sqlite_engine).set_index("nickname")["player_id"].astype(int)
    store.import_bookings(sqlite_engine, 1, [{"player_id": int(ids["Baliset"])}],
                          actor=ORGANIZER)
    ann = schedule.player_calendar(sqlite_engine, int(ids["Sandrider"]), "Sandrider")
    bo = schedule.player_calendar(sqlite_engine, int(ids["Baliset"]), "Baliset")
    assert [str(e["SUMMARY"]) for e in events_of(ann)] == ["Qualifier 2"]
    assert [str(e["SUMMARY"]) for e in events_of(bo)] == ["Qualifier 1", "Qualifier 2"]


SUNDAY = DAY + dt.timedelta(days=1)


def weekend(engine):
    """Saturday's Qualifier 2 at 14:00 and Qualifier 3 at 17:00; Sunday's semifinal at 10:00
    and prize giving at 16:00 (the room's time)."""
    store.set_settings(engine, {"time_zone": "Europe/Stockholm"}, actor=ORGANIZER)
    two = schedule.plan_item(engine, kind="qualifier", number=2, starts_at=at(14),
                             actor=ORGANIZER)
    schedule.plan_item(engine, kind="qualifier", number=3, starts_at=at(17), actor=ORGANIZER)
    schedule.plan_item(engine, kind="semifinal", actor=ORGANIZER,
                       starts_at=schedule.start_of(SUNDAY, dt.time(10), ROOM))
    schedule.plan_item(engine, kind="other", title="Prize giving", minutes=30,
                       starts_at=schedule.start_of(SUNDAY, dt.time(16), ROOM), actor=ORGANIZER)
    return int(two.item["item_id"])


def starts(engine) -> list[str]:
    items = store.schedule_items(engine)
    return items["starts_at"].dt.tz_convert(ROOM).dt.strftime("%a %H:%M").tolist()


def test_running_late_moves_the_same_day_only_unless_later_days_are_asked_for(sqlite_engine):
    """Issue 33: 20 minutes late after Saturday's Qualifier 2 moved Qualifier 3 and all of
    Sunday; only Saturday's later items move, Sunday's on request."""
    two = weekend(sqlite_engine)
    moved = schedule.running_late(sqlite_engine, 20, after_item=two, actor=ORGANIZER)
    assert moved.done == "Moved 1 item 20 minutes later."
    assert starts(sqlite_engine) == ["Sat 14:00", "Sat 17:20", "Sun 10:00", "Sun 16:00"]
    both = schedule.running_late(sqlite_engine, 10, after_item=two, later_days=True,
                                 actor=ORGANIZER)
    assert both.done == "Moved 3 items 10 minutes later."
    assert starts(sqlite_engine) == ["Sat 14:00", "Sat 17:30", "Sun 10:10", "Sun 16:10"]


def test_undo_puts_back_the_times_before_the_last_move_and_is_logged(sqlite_engine):
    two = weekend(sqlite_engine)
    before = store.schedule_items(sqlite_engine)["starts_at"].tolist()
    assert schedule.last_move(sqlite_engine, actor=ORGANIZER) is None
    schedule.running_late(sqlite_engine, 25, after_item=two, later_days=True, actor=ORGANIZER)
    last = schedule.last_move(sqlite_engine, actor=ORGANIZER)
    assert last is not None and last.undoable and last.words == (
        "Last move: 3 items 25 minutes later, from Saturday 17:00 on.")
    undone = schedule.undo_last_move(sqlite_engine, actor=ORGANIZER)
    assert undone.done == "Undone: 3 items are back at their times before the move."
    assert store.schedule_items(sqlite_engine)["starts_at"].tolist() == before
    assert schedule.last_move(sqlite_engine, actor=ORGANIZER) is None  # nothing left to undo
    with pytest.raises(TournamentError, match="There is no move to undo"):
        schedule.undo_last_move(sqlite_engine, actor=ORGANIZER)
    events = store.events(sqlite_engine, actor=ORGANIZER, action="schedule.")
    assert events["action"].tolist()[-2:] == ["schedule.shift", "schedule.undo"]
    words = log.event_sentences(events, log.Places()).tolist()
    assert words[-1] == ("Undid running late: moved 3 items back 25 minutes earlier: "
                         "Qualifier 3, Semifinal and Prize giving.")
    with pytest.raises(PermissionDenied):
        schedule.undo_last_move(sqlite_engine, actor=JUDGE)


def test_undo_is_refused_once_the_schedule_changed_since_the_move(sqlite_engine):
    two = weekend(sqlite_engine)
    schedule.running_late(sqlite_engine, 20, after_item=two, actor=ORGANIZER)
    lunch = schedule.plan_item(sqlite_engine, kind="other", title="Lunch", minutes=45,
                               starts_at=at(12), actor=ORGANIZER)
    kept = store.schedule_items(sqlite_engine)["starts_at"].tolist()
    last = schedule.last_move(sqlite_engine, actor=ORGANIZER)
    assert last is not None and not last.undoable
    refused = ("The schedule changed after the last move, so it cannot be undone: change "
               "the times on each item's form instead.")
    assert last.reason == refused
    with pytest.raises(TournamentError) as caught:
        schedule.undo_last_move(sqlite_engine, actor=ORGANIZER)
    assert str(caught.value) == refused
    assert store.schedule_items(sqlite_engine)["starts_at"].tolist() == kept
    assert store.events(sqlite_engine, actor=ORGANIZER, action="schedule.")[
        "action"].tolist()[-1] == "schedule.add"  # nothing written
    schedule.remove_item(sqlite_engine, lunch.item["item_id"], actor=ORGANIZER)
    with pytest.raises(TournamentError, match="changed after the last move"):
        schedule.undo_last_move(sqlite_engine, actor=ORGANIZER)
