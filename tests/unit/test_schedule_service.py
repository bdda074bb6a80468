"""The schedule as the pages ask for it (R26): times in the tournament's zone, the next item,
warnings for overlapping sittings, running late, a player's sittings and the calendar files
(read back with icalendar), players by nickname only (R22)."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import icalendar

from stsa import store
from stsa.services import log, schedule
from tests.support.store_helpers import ORGANIZER

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
