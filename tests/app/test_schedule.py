"""The Schedule page (R26) for each role: everyone reads the plan in the tournament's time zone
with titles as typed (plain text) and can download it as a calendar; only the organizer plans,
changes, removes and moves items (running late), each logged; overlapping sittings warn. Home,
TV and My seat say what comes next.

The plan and "next" are a live element (`ui.live_schedule`, and Home's `ui.live_home`) drawn in
the browser from the feed's answer the page's run hands it: read here from its data; which
item is next is chosen in the browser by its clock (tests/e2e)."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import icalendar
import pytest

from stsa import store
from stsa.services import schedule
from tests.app.conftest import JUDGE, ORGANIZER, live_data, shown

PAGE = "views/schedule.py"
# a page run right after a write hands its element the new answer (in use: within a poll)
pytestmark = pytest.mark.usefixtures("answers_at_once")
ROOM = ZoneInfo("Europe/Stockholm")
TITLE = "Lunch *at* [the bar](http://x.example)"  # typed markup shows as typed


def tomorrow(hour: int, minute: int = 0) -> dt.datetime:
    day = dt.datetime.now(ROOM).date() + dt.timedelta(days=1)
    return schedule.start_of(day, dt.time(hour, minute), ROOM)


@pytest.fixture
def day(engine):
    store.set_settings(engine, {"time_zone": "Europe/Stockholm"}, actor=ORGANIZER)
    schedule.plan_item(engine, kind="qualifier", number=1, starts_at=tomorrow(9),
                       actor=ORGANIZER)
    schedule.plan_item(engine, kind="other", title=TITLE, starts_at=tomorrow(12, 30),
                       minutes=60, actor=ORGANIZER)
    return engine


def cells(at) -> list[list]:
    """The plan's rows as the element starts from them: starts, ends, what, minutes."""
    return [[i["starts"], i["ends"], i["title"], i["minutes"]]
            for i in live_data(at, "schedule")["answer"]["items"]]


@pytest.mark.parametrize("who", [None, JUDGE], ids=["spectator", "judge"])
def test_everyone_reads_the_plan_but_only_the_organizer_changes_it(open_page, day, who,
                                                                   downloads):
    at = open_page(PAGE, as_=who)
    assert not at.exception and not at.error
    assert [r[:3] for r in cells(at)] == [["09:00", "11:30", "Qualifier 1"],
                                          ["12:30", "13:30", TITLE]]
    assert not at.expander and not at.button  # no forms
    assert "Europe/Stockholm" in live_data(at, "schedule")["answer"]["zone_note"]
    assert not at.dataframe  # the element draws the tables
    name, make = downloads["schedule_ics"]
    assert name.endswith(".ics")
    events = list(icalendar.Calendar.from_ical(make()).walk("VEVENT"))
    assert [str(e["SUMMARY"]) for e in events] == ["Qualifier 1", TITLE]


def test_an_empty_schedule_says_so(open_page, engine):
    found = live_data(open_page(PAGE), "schedule")
    assert found["answer"]["items"] == []
    assert found["words"]["empty"] == ("Nothing is on the schedule yet. The organizer's plan "
                                       "for the day shows here.")
    organizer = live_data(open_page(PAGE, as_=ORGANIZER), "schedule")
    assert organizer["words"]["empty"].endswith("Plan the sittings and the rest of the day "
                                                "above.")


def test_the_organizer_plans_a_day_and_is_warned_of_an_overlap(open_page, engine):
    store.set_settings(engine, {"time_zone": "Europe/Stockholm"}, actor=ORGANIZER)
    at = open_page(PAGE, as_=ORGANIZER)
    assert not at.exception
    day = tomorrow(9).date()
    for kind, number, start in (("qualifier", 1, dt.time(9)), ("qualifier", 2, dt.time(11))):
        at.selectbox(key="schedule_new_kind").select(kind)
        at.number_input(key="schedule_new_number").set_value(number)
        at.date_input(key="schedule_new_day").set_value(day)
        at.time_input(key="schedule_new_time").set_value(start)
        at.button(key="schedule_plan_save").click().run()
        assert not at.exception and not at.error
    assert shown(at.success) == ["Planned Qualifier 2 for " + tomorrow(11).strftime("%A") +
                                 " 11:00."]
    assert [w for w in shown(at.warning) if "overlaps" in w] == [
        f"Qualifier 1 ({tomorrow(9):%A} 09:00–11:30) overlaps Qualifier 2 ({tomorrow(9):%A} "
        f"11:00–13:30): the same players cannot play both."]
    items = store.schedule_items(engine)
    assert items["starts_at"].dt.tz_convert(ROOM).dt.strftime("%H:%M").tolist() == [
        "09:00", "11:00"]
    # running late: everything after Qualifier 1 moves 30 minutes: no overlap left
    first = int(items["item_id"].iloc[0])
    at.selectbox(key="schedule_late_after").select(first)
    at.number_input(key="schedule_late_minutes").set_value(30)
    at.button(key="schedule_late_move").click().run()
    assert shown(at.success) == ["Moved 1 item 30 minutes later."]
    assert not [w for w in shown(at.warning) if "overlaps" in w]
    assert [r[:3] for r in cells(at)] == [["09:00", "11:30", "Qualifier 1"],
                                          ["11:30", "14:00", "Qualifier 2"]]
    # change and remove
    second = int(items["item_id"].iloc[1])
    at.selectbox(key="schedule_edit_item").select(second)
    at.run()
    at.text_input(key=f"schedule_edit_{second}_title").input("Uprising only")
    at.button(key="schedule_edit_save").click().run()
    assert store.schedule_items(engine)["title"].tolist() == ["Qualifier 1", "Uprising only"]
    at.button(key="schedule_remove").click().run()
    assert store.schedule_items(engine)["title"].tolist() == ["Qualifier 1"]
    assert store.events(engine, actor=ORGANIZER, action="schedule.")["action"].tolist() == [
        "schedule.add", "schedule.add", "schedule.shift", "schedule.edit", "schedule.remove"]


def test_a_bad_item_is_refused_on_the_page_and_nothing_is_saved(open_page, engine):
    at = open_page(PAGE, as_=ORGANIZER)
    at.selectbox(key="schedule_new_kind").select("other")
    at.button(key="schedule_plan_save").click().run()
    assert shown(at.error) == ["Schedule item: the title is empty; say what the item is "
                               "(Lunch, Prize giving …)."]
    assert store.schedule_items(engine).empty


@pytest.mark.parametrize("name", ["home", "schedule"])
def test_home_and_the_schedule_say_what_comes_next_by_the_browsers_clock(open_page, day,
                                                                         name):
    """Every item with its start, its day and both ways of saying it: the browser says the
    first one still ahead, "at 09:00" on its own day, "at Saturday 09:00" before it."""
    at = open_page(f"views/{name}.py")
    assert not at.exception
    coming = live_data(at, name)["answer"]["coming"]
    assert [dt.datetime.fromisoformat(c["starts_at"]) for c in coming] == [
        tomorrow(9), tomorrow(12, 30)]
    assert coming[0]["date"] == tomorrow(9).date().isoformat()
    assert coming[0]["today"] == "Next: Qualifier 1 at 09:00"
    assert coming[0]["later"] == "Next: Qualifier 1 at " + tomorrow(9).strftime("%A") + " 09:00"
    assert coming[1]["today"] == f"Next: {TITLE} at 12:30"


def test_tv_says_what_comes_next(open_page, day):
    """The TV's element is given what comes next; the browser says it by its own clock."""
    at = open_page("views/tv.py")
    assert not at.exception
    coming = live_data(at, "tv")["answer"]["coming"]
    assert coming[0]["later"] == "Next: Qualifier 1 at " + tomorrow(9).strftime("%A") + " 09:00"


def test_my_seat_says_what_comes_next_and_offers_my_sittings(open_page, day, downloads):
    store.add_player(day, "Ann Lee", nickname="Sandrider", email="ann@example.com",
                     actor=ORGANIZER)
    player_id = int(store.players(day)["player_id"].iloc[0])
    at = open_page("views/player.py", query={"player": str(player_id)})
    assert not at.exception
    coming = live_data(at, "seat")["answer"]["coming"]
    assert coming[0]["today"] == "Next: Qualifier 1 at 09:00"
    name, make = downloads["player_ics"]
    text = make().decode()
    assert "Sandrider" in text and "Ann Lee" not in text and "ann@example.com" not in text
    assert [str(e["SUMMARY"]) for e in icalendar.Calendar.from_ical(text).walk("VEVENT")] == [
        "Qualifier 1"]


@pytest.mark.parametrize("who", [None, JUDGE, ORGANIZER], ids=["spectator", "judge", "organizer"])
def test_the_plan_is_a_live_element_with_no_timer_that_reruns_the_page(open_page, day, who,
                                                                      timers):
    at = open_page(PAGE, as_=who)
    assert not at.exception
    found = live_data(at, "schedule")
    assert found["live"]["url"].endswith("/live/schedule?lang=en")
    assert [i["title"] for i in found["answer"]["items"]] == ["Qualifier 1", TITLE]
    assert timers == []


SATURDAY, SUNDAY = dt.date(2026, 3, 7), dt.date(2026, 3, 8)


def on(day: dt.date, hour: int) -> dt.datetime:
    return schedule.start_of(day, dt.time(hour), ROOM)


def room_starts(engine) -> list[str]:
    items = store.schedule_items(engine)
    return items["starts_at"].dt.tz_convert(ROOM).dt.strftime("%a %H:%M").tolist()


@pytest.fixture
def weekend(engine):
    store.set_settings(engine, {"time_zone": "Europe/Stockholm"}, actor=ORGANIZER)
    two = schedule.plan_item(engine, kind="qualifier", number=2, starts_at=on(SATURDAY, 14),
                             actor=ORGANIZER)
    schedule.plan_item(engine, kind="qualifier", number=3, starts_at=on(SATURDAY, 17),
                       actor=ORGANIZER)
    schedule.plan_item(engine, kind="semifinal", starts_at=on(SUNDAY, 10), actor=ORGANIZER)
    schedule.plan_item(engine, kind="other", title="Prize giving", minutes=30,
                       starts_at=on(SUNDAY, 16), actor=ORGANIZER)
    return int(two.item["item_id"])


def test_running_late_names_the_days_moves_that_day_only_and_undoes(open_page, engine,
                                                                    weekend):
    """Issue 33: the running-late choice names each item's day; 20 minutes late after
    Saturday's Qualifier 2 moves Saturday's Qualifier 3 only (Sunday on request); the last
    move can be undone, not once the schedule changed since."""
    at = open_page(PAGE, as_=ORGANIZER)
    assert not at.exception
    assert [i["day"] for i in live_data(at, "schedule")["answer"]["items"]] == [
        "Saturday 7 March", "Saturday 7 March", "Sunday 8 March", "Sunday 8 March"]
    choice = at.selectbox(key="schedule_late_after")
    assert choice.options == ["Qualifier 2 · Saturday 7 March 14:00",
                              "Qualifier 3 · Saturday 7 March 17:00",
                              "Semifinal · Sunday 8 March 10:00",
                              "Prize giving · Sunday 8 March 16:00"]
    assert not [b for b in at.button if b.key == "schedule_late_undo"]  # nothing moved yet
    choice.select(weekend)
    at.number_input(key="schedule_late_minutes").set_value(20)
    assert at.radio(key="schedule_late_days").value == "day"  # the same day by default
    at.button(key="schedule_late_move").click().run()
    assert not at.exception and shown(at.success) == ["Moved 1 item 20 minutes later."]
    assert room_starts(engine) == ["Sat 14:00", "Sat 17:20", "Sun 10:00", "Sun 16:00"]
    assert "Last move: 1 item 20 minutes later, from Saturday 17:00 on." in shown(at.caption)
    at.button(key="schedule_late_undo").click().run()
    assert shown(at.success) == ["Undone: 1 item is back at its time before the move."]
    assert room_starts(engine) == ["Sat 14:00", "Sat 17:00", "Sun 10:00", "Sun 16:00"]
    assert not [b for b in at.button if b.key == "schedule_late_undo"]
    # later days too, on request; then a change since the move: the undo is refused
    at.selectbox(key="schedule_late_after").select(weekend)
    at.number_input(key="schedule_late_minutes").set_value(15)
    at.radio(key="schedule_late_days").set_value("later")
    at.button(key="schedule_late_move").click().run()
    assert room_starts(engine) == ["Sat 14:00", "Sat 17:15", "Sun 10:15", "Sun 16:15"]
    schedule.plan_item(engine, kind="other", title="Lunch", starts_at=on(SATURDAY, 12),
                       actor=ORGANIZER)
    at.run()
    assert at.button(key="schedule_late_undo").disabled
    assert ("The schedule changed after the last move, so it cannot be undone: change the "
            "times on each item's form instead.") in shown(at.caption)
    assert store.events(engine, actor=ORGANIZER, action="schedule.")["action"].tolist()[
        -4:] == ["schedule.shift", "schedule.undo", "schedule.shift", "schedule.add"]


def test_after_planning_an_item_the_form_is_empty_for_the_next(open_page, engine):
    """Issue 33: a new item starts with an empty form: "Player meeting" typed for the
    previous item does not become Qualifier 1's title."""
    store.set_settings(engine, {"time_zone": "Europe/Stockholm"}, actor=ORGANIZER)
    at = open_page(PAGE, as_=ORGANIZER)
    at.selectbox(key="schedule_new_kind").select("other")
    at.text_input(key="schedule_new_title").input("Player meeting")
    at.date_input(key="schedule_new_day").set_value(SATURDAY)
    at.time_input(key="schedule_new_time").set_value(dt.time(8, 30))
    at.number_input(key="schedule_new_minutes").set_value(20)
    at.button(key="schedule_plan_save").click().run()
    assert not at.exception and not at.error
    assert at.text_input(key="schedule_new_title").value == ""
    assert at.selectbox(key="schedule_new_kind").value == "qualifier"
    assert at.number_input(key="schedule_new_minutes").value == 150  # the setting's length
    assert at.time_input(key="schedule_new_time").value == dt.time(9, 0)
    at.number_input(key="schedule_new_number").set_value(1)
    at.date_input(key="schedule_new_day").set_value(SATURDAY)
    at.button(key="schedule_plan_save").click().run()
    assert not at.error
    assert store.schedule_items(engine)["title"].tolist() == ["Player meeting", "Qualifier 1"]
    assert [r[2] for r in cells(at)] == ["Player meeting", "Qualifier 1"]
