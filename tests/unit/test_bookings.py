"""R25: booking lists in the store and the services (SQLite and PostgreSQL): import all or
nothing with new players, replace and say what changed, logged, organizer only; the queue of
the Draw page with bookings; check-in per sitting and the offers after the deadline; self
check-in with the room's code, its window and its limits."""

from __future__ import annotations

import datetime as dt

import pytest

from stsa import auth, store
from stsa.domain import Action
from stsa.errors import TournamentError
from stsa.formats.booking_file import BookingError
from stsa.services import bookings, capacity, draws
from stsa.store.errors import PermissionDenied
from tests.support.bookings_helpers import csv_bytes, plan_qualifier
from tests.support.store_helpers import JUDGE, ORGANIZER, later


def roster(engine, *names: str) -> dict[str, int]:
    frame = store.import_players(engine, [{"name": n, "email": f"{n.lower()}@example.com"}
                                          for n in names], actor=ORGANIZER)
    return dict(zip(frame["name"], frame["player_id"]))


def test_import_replace_and_what_changed_is_logged(engine):
    ids = roster(engine, "Ann", "Bo", "Cy", "Dee")
    first = bookings.import_bookings(engine, csv_bytes([["Name"], ["Ann"], ["Bo"], ["Cy"]]), 3,
                                     actor=ORGANIZER)
    assert first["added"] == [ids["Ann"], ids["Bo"], ids["Cy"]]
    again = bookings.import_bookings(
        engine, csv_bytes([["E-mail", "Position"], ["cy@example.com", 1], ["dee@example.com", 2],
                           ["ann@example.com", 3]]), 3, actor=ORGANIZER)
    assert again["added"] == [ids["Dee"]] and again["removed"] == [ids["Bo"]]
    assert again["moved"] == [ids["Cy"], ids["Ann"]]
    assert again["words"] == "3 booked: 1 added, 1 removed, 2 moved."
    stored = store.bookings(engine, 3)
    assert stored["player_id"].tolist() == [ids["Cy"], ids["Dee"], ids["Ann"]]
    assert stored["position"].tolist() == [1, 2, 3]
    logged = store.events(engine, actor=ORGANIZER, action=Action.BOOKINGS_IMPORT)
    assert len(logged) == 2


def test_unmatched_rows_are_refused_unless_ticked_and_then_added_with_the_list(engine):
    roster(engine, "Ann")
    data = csv_bytes([["Name", "Nickname"], ["Ann", ""], ["New Person", "Newbie"]])
    with pytest.raises(BookingError, match="row 3.*matches no player"):
        bookings.import_bookings(engine, data, 1, actor=ORGANIZER)
    assert store.bookings(engine).empty and len(store.players(engine)) == 1
    change = bookings.import_bookings(engine, data, 1, add_rows=[3], actor=ORGANIZER)
    players = store.players(engine, actor=ORGANIZER).set_index("name")
    assert players.loc["New Person", "nickname"] == "Newbie"
    assert change["new_players"] == [int(players.loc["New Person", "player_id"])]
    assert players.loc["New Person", "registration_order"] is not None


def test_a_new_player_from_a_booking_list_needs_a_nickname(engine):
    """Issue 33, R22: a row added as a new player is shown in public by its nickname, never by
    a real name nobody chose to show: without a nickname in the file or typed by the
    organizer, the whole list is refused, named by row; a typed one wins over the file's."""
    roster(engine, "Ann")
    data = csv_bytes([["Name", "Nickname"], ["Ann", ""], ["Real Name", ""], ["Other", "Oth"]])
    with pytest.raises(BookingError, match="row 3.*nickname"):
        bookings.import_bookings(engine, data, 1, add_rows=[3, 4], actor=ORGANIZER)
    with pytest.raises(BookingError, match="row 3.*nickname"):
        bookings.import_bookings(engine, data, 1, add_rows=[3, 4], nicknames={3: "  "},
                                 actor=ORGANIZER)
    assert len(store.players(engine)) == 1 and store.bookings(engine).empty
    bookings.import_bookings(engine, data, 1, add_rows=[3, 4],
                             nicknames={3: " Sand Walker ", 4: "Othello"}, actor=ORGANIZER)
    public = store.players(engine)  # the spectators' view
    assert sorted(public["name"]) == ["Ann", "Othello", "Sand Walker"]


def test_a_refused_list_adds_no_new_player(engine):
    roster(engine, "Ann")
    data = csv_bytes([["Name"], ["Ann"], ["New Person"], ["ann"]])  # Ann twice
    with pytest.raises(BookingError, match="row 4.*booked twice"):
        bookings.import_bookings(engine, data, 1, add_rows=[3], actor=ORGANIZER)
    assert len(store.players(engine)) == 1 and store.bookings(engine).empty


def test_only_the_organizer_imports(engine):
    roster(engine, "Ann")
    with pytest.raises(PermissionDenied):
        store.import_bookings(engine, 1, [{"player_id": 1}], actor=JUDGE)


def test_the_draw_page_queue_uses_the_next_qualifiers_bookings(engine):
    ids = roster(engine, *(f"P{i}" for i in range(1, 7)))
    store.check_in(engine, list(ids.values()), actor=ORGANIZER)  # P1 first … P6 last
    bookings.import_bookings(engine, csv_bytes([["Name"], ["P6"], ["P5"]]), 1, actor=ORGANIZER)
    store.set_settings(engine, {"capacity": 4}, actor=ORGANIZER)
    queue = capacity.seat_queue(engine, list(ids.values()))
    assert queue["name"].tolist()[:3] == ["P6", "P5", "P1"]
    assert queue["reason"].iloc[0] == "booked, number 1 in booking order"
    assert queue["reason"].iloc[-1].endswith("over the 4-seat limit")
    waiting = capacity.waiting_list(engine, actor=ORGANIZER)
    assert waiting["player_id"].tolist() == [ids["P3"], ids["P4"]]
    drawn = draws.draw_qualifier(engine, list(ids.values()), seed=1, actor=ORGANIZER)
    seated = set(store.seats(engine, drawn["sitting_id"], actor=ORGANIZER)["player_id"])
    assert seated == {ids["P6"], ids["P5"], ids["P1"], ids["P2"]}


@pytest.mark.slow
def test_after_the_deadline_the_organizer_confirms_each_offer(engine, monkeypatch):
    now = dt.datetime.now(dt.UTC)
    ids = roster(engine, "Ann", "Bo", "Cy", "Dee", "Eve")
    store.set_settings(engine, {"capacity": 3}, actor=ORGANIZER)
    bookings.import_bookings(engine, csv_bytes([["Name"], ["Ann"], ["Bo"], ["Cy"]]), 1,
                             actor=ORGANIZER)
    plan_qualifier(engine, 1, now + dt.timedelta(minutes=30))
    store.check_in(engine, [ids["Ann"], ids["Dee"], ids["Eve"], ids["Cy"]], actor=ORGANIZER)
    before = bookings.check_in_view(engine, actor=ORGANIZER)
    assert before.booked_here["name"].tolist() == ["Ann", "Cy"]
    assert before.booked_missing["name"].tolist() == ["Bo"]
    # Bo's seat is held for him: Dee and Eve wait
    assert before.waiting["name"].tolist() == ["Dee", "Eve"] and before.drop_ins.empty
    assert before.offers.empty and not before.deadline_passed
    with pytest.raises(TournamentError, match="still open"):
        bookings.confirm_replacement(engine, ids["Bo"], ids["Dee"], actor=ORGANIZER)
    after_deadline = now + dt.timedelta(minutes=25)
    view = bookings.check_in_view(engine, actor=ORGANIZER, now=after_deadline)
    assert view.offers[["name", "replacement"]].values.tolist() == [["Bo", "Dee"]]
    assert view.waiting["name"].tolist() == ["Dee", "Eve"]  # nobody moved by itself
    with pytest.raises(TournamentError, match="no longer offered"):
        bookings.confirm_replacement(engine, ids["Bo"], ids["Eve"], actor=ORGANIZER,
                                     now=after_deadline)
    bookings.confirm_replacement(engine, ids["Bo"], ids["Dee"], actor=ORGANIZER,
                                 now=after_deadline)
    assert store.bookings(engine, 1)["replaced_by"].tolist()[1] == ids["Dee"]
    view = bookings.check_in_view(engine, actor=ORGANIZER, now=after_deadline)
    assert view.waiting["name"].tolist() == ["Eve"] and view.offers.empty
    assert len(store.events(engine, actor=ORGANIZER, action=Action.BOOKING_REPLACE)) == 1


# -- self check-in -------------------------------------------------------------------------------
def test_self_check_in_with_the_room_code_in_the_window(engine):
    now = dt.datetime.now(dt.UTC)
    ids = roster(engine, "Ann", "Bo")
    assert bookings.room_code(engine, actor=None) is None  # nothing planned: closed
    with pytest.raises(TournamentError, match="closed"):
        bookings.self_check_in(engine, ids["Ann"], "12345", client="10.0.0.5")
    plan_qualifier(engine, 1, now + dt.timedelta(minutes=30))
    shown = bookings.room_code(engine, actor=None)
    assert shown is not None and len(shown.code) == auth.ROOM_CODE_DIGITS
    wrong = "00000" if shown.code != "00000" else "11111"
    with pytest.raises(TournamentError, match="not right"):
        bookings.self_check_in(engine, ids["Ann"], wrong, client="10.0.0.5")
    assert not store.player(engine, ids["Ann"])["checked_in"]
    assert bookings.self_check_in(engine, ids["Ann"], shown.code, client="10.0.0.5") == (
        "You are checked in for Qualifier 1.")
    assert store.player(engine, ids["Ann"])["checked_in"]
    assert store.self_checked_in(engine) == [ids["Ann"]]
    assert bookings.undo_self_check_in(engine, ids["Ann"], actor=ORGANIZER)
    assert not store.player(engine, ids["Ann"])["checked_in"]
    logged = store.events(engine, actor=ORGANIZER)
    assert {Action.PLAYER_SELF_CHECK_IN, Action.PLAYER_SELF_CHECK_IN_UNDO} <= set(
        logged["action"])


@pytest.mark.slow
def test_self_check_in_closes_at_the_deadline_and_opens_an_hour_before(engine):
    ids = roster(engine, "Ann")
    start = dt.datetime.now(dt.UTC) + dt.timedelta(hours=3)
    plan_qualifier(engine, 1, start)
    minutes = [-61, -59, -11, -10]  # from the planned start; the deadline is 10 minutes before
    assert [bookings.room_code(engine, actor=None, now=start + dt.timedelta(minutes=m))
            is not None for m in minutes] == [False, True, True, False]
    with pytest.raises(TournamentError, match="closed"):  # now: three hours before
        bookings.self_check_in(engine, ids["Ann"], store.room_code(engine), client="x")


def test_the_code_changes_and_the_previous_one_still_works():
    now = dt.datetime.now(dt.UTC)
    key = "k" * 64
    slot = auth.code_slot(now.timestamp())
    at = (slot + 1) * auth.ROOM_CODE_SECONDS + 1.0
    assert auth.room_code_matches(key, auth.room_code(key, slot), at)
    assert not auth.room_code_matches(key, auth.room_code(key, slot - 1), at)
    assert len({auth.room_code(key, s) for s in range(50)}) > 40


def test_wrong_codes_are_limited_per_phone_and_for_every_phone_together(engine, monkeypatch):
    now = dt.datetime.now(dt.UTC)
    ids = roster(engine, "Ann")
    plan_qualifier(engine, 1, now + dt.timedelta(minutes=30))
    right = store.room_code(engine)
    wrong = "00000" if right != "00000" else "11111"
    for _ in range(auth.CODE_CLIENT_BACKOFF.free):
        assert not store.self_check_in(engine, ids["Ann"], wrong, client="10.0.0.5")
    with pytest.raises(store.SignInPaused, match="Too many wrong codes"):
        store.self_check_in(engine, ids["Ann"], right, client="10.0.0.5")  # even the right one
    assert store.self_check_in(engine, ids["Ann"], store.room_code(engine), client="10.0.0.6")
    # many phones: the installation's budget
    for i in range(auth.CODE_INSTALLATION_BACKOFF.free - auth.CODE_CLIENT_BACKOFF.free):
        assert not store.self_check_in(engine, ids["Ann"], wrong, client=f"10.1.{i}.1")
    with pytest.raises(store.SignInPaused):
        store.self_check_in(engine, ids["Ann"], wrong, client="10.2.0.1")
    # wrong codes never pause PIN sign-in
    assert store.sign_in_pause(engine) == 0
    later(monkeypatch, days=1, seconds=10)
    assert not store.self_check_in(engine, ids["Ann"], wrong, client="10.2.0.1")


def test_my_seat_words(engine):
    ids = roster(engine, "Ann", "Bo")
    bookings.import_bookings(engine, csv_bytes([["Name"], ["Ann"]]), 1, actor=ORGANIZER)
    bookings.import_bookings(engine, csv_bytes([["Name"], ["Ann"]]), 2, actor=ORGANIZER)
    store.set_settings(engine, {"time_zone": "Europe/Stockholm"}, actor=ORGANIZER)
    start = dt.datetime(2026, 3, 7, 13, 0, tzinfo=dt.UTC)  # a Saturday, 14:00 in Stockholm
    plan_qualifier(engine, 2, start)
    assert bookings.my_bookings(engine, ids["Ann"]) == [
        "You are booked for Qualifier 1.",
        "You are booked for Qualifier 2 (Saturday 14:00); check in by 13:50."]
    assert bookings.my_bookings(engine, ids["Bo"]) == []


@pytest.mark.slow
def test_bookings_survive_the_tournament_workbook_round_trip(tmp_path):
    import io

    import openpyxl

    from stsa import excel
    source = store.connect(f"sqlite:///{tmp_path / 'a.db'}", backup_dir=tmp_path / "ba")
    target = store.connect(f"sqlite:///{tmp_path / 'b.db'}", backup_dir=tmp_path / "bb")
    try:
        ids = roster(source, "Ann", "Bo", "Cy")
        bookings.import_bookings(
            source, csv_bytes([["Name", "Booked at"], ["Bo", "2026-03-01 10:00"], ["Ann", ""]]),
            2, actor=ORGANIZER, zone=dt.UTC)
        store.replace_booking(source, 2, ids["Ann"], ids["Cy"], actor=ORGANIZER)
        data = excel.tournament_workbook(source)
        sheet = openpyxl.load_workbook(io.BytesIO(data))["Bookings"]
        assert [c.value for c in sheet[1]][:4] == ["Qualifier", "Position", "Name", "Nickname"]
        excel.restore_workbook(target, io.BytesIO(data), actor=ORGANIZER)
        columns = ["sitting_number", "player_id", "position", "booked_at", "replaced_by"]
        assert store.bookings(target)[columns].equals(store.bookings(source)[columns])
        assert store.bookings(target)["booked_at"].iloc[0] == dt.datetime(2026, 3, 1, 10,
                                                                          tzinfo=dt.UTC)
    finally:
        source.dispose()
        target.dispose()


def test_my_seat_says_the_place_on_the_next_waiting_list(engine):
    ids = roster(engine, "Ann", "Bo", "Cy", "Dee")
    store.set_settings(engine, {"capacity": 3}, actor=ORGANIZER)
    bookings.import_bookings(engine, csv_bytes([["Name"], ["Ann"], ["Bo"], ["Cy"]]), 1,
                             actor=ORGANIZER)
    store.check_in(engine, list(ids.values()), actor=ORGANIZER)
    assert bookings.my_bookings(engine, ids["Dee"]) == [
        "You are number 1 on the waiting list for Qualifier 1."]
    assert bookings.my_bookings(engine, ids["Ann"]) == ["You are booked for Qualifier 1."]


@pytest.mark.slow
def test_without_a_planned_start_the_organizer_opens_and_closes_check_in(engine):
    ids = roster(engine, "Ann", "Bo", "Cy", "Dee", "Eve")
    store.set_settings(engine, {"capacity": 3}, actor=ORGANIZER)
    bookings.import_bookings(engine, csv_bytes([["Name"], ["Ann"]]), 1, actor=ORGANIZER)
    store.check_in(engine, [ids["Cy"], ids["Dee"]], actor=ORGANIZER)
    view = bookings.check_in_view(engine, actor=ORGANIZER)
    assert view.deadline_passed and view.offers.empty  # nobody waits yet
    bookings.open_self_check_in(engine, True, actor=ORGANIZER)
    shown = bookings.room_code(engine, actor=None)
    assert shown is not None and shown.deadline is None
    bookings.self_check_in(engine, ids["Bo"], shown.code, client="10.0.0.9")
    store.check_in(engine, [ids["Eve"]], actor=ORGANIZER)
    view = bookings.check_in_view(engine, actor=ORGANIZER)
    assert view.waiting["name"].tolist() == ["Bo", "Eve"] and view.offers.empty  # Ann's seat
    bookings.open_self_check_in(engine, False, actor=ORGANIZER)  # closing: the deadline
    assert bookings.room_code(engine, actor=None) is None
    view = bookings.check_in_view(engine, actor=ORGANIZER)
    assert view.offers[["name", "replacement"]].values.tolist() == [["Ann", "Bo"]]
    bookings.confirm_replacement(engine, ids["Ann"], ids["Bo"], actor=ORGANIZER)
    assert bookings.check_in_view(engine, actor=ORGANIZER).waiting["name"].tolist() == ["Eve"]


def test_a_withdrawn_booked_player_holds_no_seat(engine):
    ids = roster(engine, "Ann", "Bo", "Cy", "Dee")
    store.set_settings(engine, {"capacity": 3}, actor=ORGANIZER)
    bookings.import_bookings(engine, csv_bytes([["Name"], ["Ann"]]), 1, actor=ORGANIZER)
    store.withdraw_player(engine, ids["Ann"], actor=ORGANIZER)
    store.check_in(engine, [ids["Bo"], ids["Cy"], ids["Dee"]], actor=ORGANIZER)
    view = bookings.check_in_view(engine, actor=ORGANIZER)
    assert view.waiting.empty and view.booked_missing.empty


def test_a_booking_time_in_the_hour_a_clock_change_skips_is_taken(engine):
    roster(engine, "Ann")
    store.set_settings(engine, {"time_zone": "Europe/Stockholm"}, actor=ORGANIZER)
    bookings.import_bookings(engine, csv_bytes([["Name", "Booked at"],
                                                ["Ann", "2026-03-29 02:30"]]), 1,
                             actor=ORGANIZER)
    assert store.bookings(engine, 1)["booked_at"].iloc[0] == dt.datetime(2026, 3, 29, 1,
                                                                         tzinfo=dt.UTC)


def test_a_workbook_booking_of_a_player_it_does_not_hold_is_refused(tmp_path):
    import io

    import openpyxl

    from stsa import excel
    source = store.connect(f"sqlite:///{tmp_path / 'a.db'}", backup_dir=tmp_path / "ba")
    target = store.connect(f"sqlite:///{tmp_path / 'b.db'}", backup_dir=tmp_path / "bb")
    try:
        roster(source, "Ann")
        bookings.import_bookings(source, csv_bytes([["Name"], ["Ann"]]), 1, actor=ORGANIZER)
        wb = openpyxl.load_workbook(io.BytesIO(excel.tournament_workbook(source)))
        sheet = wb["Bookings"]
        column = [c.value for c in sheet[1]].index("Player id") + 1
        sheet.cell(row=2, column=column, value=999)
        out = io.BytesIO()
        wb.save(out)
        with pytest.raises(TournamentError, match="Bookings sheet, row 2.*999"):
            excel.restore_workbook(target, io.BytesIO(out.getvalue()), actor=ORGANIZER)
        assert store.bookings(target).empty
    finally:
        source.dispose()
        target.dispose()


def test_a_drawn_sittings_waiting_list_gives_the_booked_sittings_reasons(engine):
    frame = store.import_players(engine, [{"name": n} for n in ("Ann", "Bo", "Cy", "Dee")],
                                 pre_registered=True, actor=ORGANIZER)  # a registration file
    ids = dict(zip(frame["name"], frame["player_id"]))
    store.set_settings(engine, {"capacity": 3}, actor=ORGANIZER)
    bookings.import_bookings(engine, csv_bytes([["Name"], ["Dee"]]), 1, actor=ORGANIZER)
    store.check_in(engine, list(ids.values()), actor=ORGANIZER)
    draws.draw_qualifier(engine, list(ids.values()), seed=3, actor=ORGANIZER)
    waiting = capacity.waiting_list(engine, actor=ORGANIZER)
    assert waiting["player_id"].tolist() == [ids["Cy"]]
    assert waiting["reason"].iloc[0].startswith("dropped in at ")
