"""R25 on the pages: the organizer imports a booking list on the Roster page (rows that match
nobody ticked to add), sees the next qualifier's check-in by booking and undoes a player's own
check-in; the Draw page offers a missing booked player's seat after the deadline; the room's
code on the TV and the staff's Home (never a spectator's Home); My seat's bookings and self
check-in with the code."""

from __future__ import annotations

import datetime as dt

from stsa import store
from stsa.services import bookings
from tests.app.conftest import JUDGE, ORGANIZER, shown
from tests.support.bookings_helpers import csv_bytes, plan_qualifier

ROSTER, DRAW, PLAYER, TV, HOME = ("views/roster.py", "views/draw.py", "views/player.py",
                                  "views/tv.py", "views/home.py")


def players(engine, *names: str) -> dict[str, int]:
    frame = store.import_players(engine, [{"name": n} for n in names], actor=ORGANIZER)
    return dict(zip(frame["name"], frame["player_id"]))


def texts(at) -> str:
    return "\n".join(shown([*at.markdown, *at.info, *at.success, *at.error, *at.caption]))


def tv_room(at) -> str:
    """The room's code as the TV's live element shows it ("" while check-in is closed): it
    comes with the page's run, not in the feed's answer."""
    from stsa.services import feed
    from stsa.ui import live_element

    (mounted,) = [e for e in at.get("bidi_component")
                  if e.proto.component_name.endswith("stsa_live_tv")]
    found = live_element.data_of(mounted.proto.json)
    assert not [f for f in feed.paths(found["answer"]) if "code" in f]  # never in the feed
    return found["room"]["line"] if found["room"] else ""


def test_the_organizer_imports_a_booking_list_and_adds_the_unknown_row(open_page, engine):
    ids = players(engine, "Ann Lee", "Bo Ek")
    at = open_page(ROSTER, as_=ORGANIZER)
    at.number_input(key="bookings_number").set_value(2).run()
    data = csv_bytes([["Participant", "Booked at"], ["Bo Ek", "2026-03-01 10:00"],
                      ["<b>New</b> Person", "2026-03-01 11:00"], ["ann lee", "2026-02-01 09:00"]])
    at.file_uploader(key="bookings_file").upload("q2.csv", data).run()
    assert not at.exception
    assert "3 bookings; 1 match nobody on the roster." in texts(at)
    at.checkbox(key="bookings_add_3").check().run()
    # Issue 33: the nickname is asked beside the tick; without it nothing is imported
    assert at.text_input(key="bookings_nick_3").label == \
        "Nickname of row 3 (what spectators see)"
    at.button(key="bookings_import").click().run()
    assert "give the new player a nickname" in " ".join(shown(at.error))
    assert store.bookings(engine, 2).empty and len(store.players(engine)) == 2
    at.text_input(key="bookings_nick_3").input("Newcomer").run()
    at.button(key="bookings_import").click().run()
    assert shown(at.success) == ["Qualifier 2: 3 booked: 3 added (1 new player), 0 removed, "
                                 "0 moved."]
    booked = store.bookings(engine, 2)
    new = store.players(engine).set_index("name").loc["Newcomer", "player_id"]
    assert booked["player_id"].tolist() == [ids["Ann Lee"], ids["Bo Ek"], new]
    assert store.players(engine, actor=ORGANIZER).set_index("player_id").loc[
        new, "name"] == "<b>New</b> Person"  # the real name stays the staff's


def test_a_judge_cannot_open_the_import_and_a_bad_file_says_which_row(open_page, engine):
    players(engine, "Ann Lee")
    at = open_page(ROSTER, as_=ORGANIZER)
    at.file_uploader(key="bookings_file").upload(
        "q.csv", csv_bytes([["Name", "Booked"], ["Ann Lee", "soon"]])).run()
    assert "row 2" in at.error[0].value and "soon" in at.error[0].value
    assert all(b.key != "bookings_import" for b in at.button)
    assert store.bookings(engine).empty


def test_check_in_by_booking_and_undoing_a_self_check_in(open_page, engine):
    now = dt.datetime.now(dt.UTC)
    ids = players(engine, "Ann Lee", "Bo Ek", "Cy")
    bookings.import_bookings(engine, csv_bytes([["Name"], ["Ann Lee"], ["Bo Ek"]]), 1,
                             actor=ORGANIZER)
    plan_qualifier(engine, 1, now + dt.timedelta(minutes=30))
    store.check_in(engine, [ids["Cy"]], actor=ORGANIZER)
    assert store.self_check_in(engine, ids["Ann Lee"], store.room_code(engine), client="x")
    at = open_page(ROSTER, as_=ORGANIZER)
    page = texts(at)
    assert "**Booked and here** (1)" in page and "**Booked and missing** (1)" in page
    assert "**Here, not booked** (1)" in page and "**Checked in on My seat** (1)" in page
    at.button(key=f"self_undo_{ids['Ann Lee']}").click().run()
    assert shown(at.success) == ["Checked Ann Lee out."]
    assert not store.player(engine, ids["Ann Lee"])["checked_in"]


def test_the_draw_page_offers_a_missing_booked_players_seat(open_page, engine):
    now = dt.datetime.now(dt.UTC)
    ids = players(engine, "Ann", "Bo", "Cy", "Dee")
    store.set_settings(engine, {"capacity": 3}, actor=ORGANIZER)
    bookings.import_bookings(engine, csv_bytes([["Name"], ["Ann"], ["Bo"], ["Cy"]]), 1,
                             actor=ORGANIZER)
    store.check_in(engine, [ids["Ann"], ids["Cy"], ids["Dee"]], actor=ORGANIZER)
    plan_qualifier(engine, 1, now - dt.timedelta(minutes=5))  # check-in closed 15 min ago
    at = open_page(DRAW, as_=ORGANIZER)
    assert "**2 play, 1 waits**" in texts(at)  # Bo's seat is held: nobody moved by itself
    assert "Bo's seat → Dee (first on the waiting list)" in texts(at)
    at.button(key=f"offer_{ids['Bo']}_{ids['Dee']}").click().run()
    assert shown(at.success) == ["Dee takes Bo's seat."]
    assert store.bookings(engine, 1)["replaced_by"].tolist()[1] == ids["Dee"]
    assert "**3 play, 0 wait**" in texts(at) or "seats go first" not in texts(at)


def test_the_room_code_shows_on_the_tv_and_the_staffs_home_only_while_open(open_page, engine):
    now = dt.datetime.now(dt.UTC)
    players(engine, "Ann")
    assert "the code" not in tv_room(open_page(TV))
    plan_qualifier(engine, 1, now + dt.timedelta(minutes=30))
    code = store.room_code(engine)
    assert f"the code **{code}**" in tv_room(open_page(TV))
    assert f"the code **{code}**" in texts(open_page(HOME, as_=JUDGE))
    assert "the code" not in texts(open_page(HOME))


def test_my_seat_says_the_booking_and_checks_in_with_the_code(open_page, engine):
    now = dt.datetime.now(dt.UTC)
    ids = players(engine, "Ann")
    bookings.import_bookings(engine, csv_bytes([["Name"], ["Ann"]]), 1, actor=ORGANIZER)
    at = open_page(PLAYER, query={"player": str(ids["Ann"])})
    assert "You are booked for Qualifier 1." in texts(at)
    assert all(t.key != "self_code" for t in at.text_input)  # nothing planned: closed
    plan_qualifier(engine, 1, now + dt.timedelta(minutes=30))
    at = open_page(PLAYER, query={"player": str(ids["Ann"])})
    at.text_input(key="self_code").input("99999" if store.room_code(engine) != "99999"
                                         else "11111")
    at.button(key="FormSubmitter:self_check_in-Check me in").click().run()
    assert "That code is not right" in at.error[0].value
    at.text_input(key="self_code").input(store.room_code(engine))
    at.button(key="FormSubmitter:self_check_in-Check me in").click().run()
    assert "You are checked in for Qualifier 1." in texts(at)
    assert store.player(engine, ids["Ann"])["checked_in"]


def test_without_a_planned_start_the_organizer_opens_check_in_on_my_seat(open_page, engine):
    players(engine, "Ann")
    at = open_page(ROSTER, as_=ORGANIZER)
    at.button(key="self_check_in_open").click().run()
    assert shown(at.success) == ["Check-in on My seat is open."]
    code = store.room_code(engine)
    assert f"the code **{code}**" in tv_room(open_page(TV))
    at.button(key="self_check_in_open").click().run()
    assert shown(at.success) == ["Check-in on My seat is closed."]
    assert "the code" not in tv_room(open_page(TV))
