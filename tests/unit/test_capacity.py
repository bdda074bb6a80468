"""R21, a sitting's capacity and its waiting list: the queue (pre-registered players in
registration order, then drop-ins in check-in order) against a plain oracle, the qualifier draw
that seats only the players who play and keeps the others' waiting list, extra tables of
exactly four, the setting, check-in times, and registration order from a roster file."""

from __future__ import annotations

import datetime as dt

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stsa import draw, rules, store, tournament
from stsa.auth import Actor, Role
from stsa.errors import TournamentError
from stsa.services import capacity as capacity_service
from stsa.services import draws, finals, log, roster_import
from tests.support import oracle

ORGANIZER = Actor("Olivia", Role.ORGANIZER)
START = dt.datetime(2025, 3, 1, 9, 0, tzinfo=dt.UTC)


def queue_input(rows: list[tuple]) -> pd.DataFrame:
    """(player_id, registration_order or None, minutes after 9:00 or None) per player."""
    return pd.DataFrame({
        "player_id": [r[0] for r in rows],
        "registration_order": pd.array([r[1] for r in rows], dtype="Int64"),
        "checked_in_at": pd.Series([None if r[2] is None else START + dt.timedelta(minutes=r[2])
                                    for r in rows], dtype="datetime64[us, UTC]")})


# --- the queue (rules.seat_queue) ------------------------------------------------------------

def test_R21_pre_registered_first_in_registration_order_then_drop_ins_by_check_in():
    players = queue_input([
        (1, None, 5),     # a drop-in who came early
        (2, 3, 90),       # pre-registered number 3, checked in late: still ahead of drop-ins
        (3, 1, 30),
        (4, None, 2),     # the first drop-in
        (5, 2, None),     # pre-registered, seated by hand without checking in
        (6, None, None),  # a drop-in seated by hand: last
        (7, None, 5),     # checked in at the same minute as player 1: the id decides
    ])
    queue = rules.seat_queue(players, capacity=4)
    assert queue["player_id"].tolist() == [3, 5, 2, 4, 1, 7, 6]
    assert queue["queue"].tolist() == list(range(1, 8))
    assert queue["plays"].tolist() == [True] * 4 + [False] * 3
    assert queue["waiting"].tolist() == [pd.NA] * 4 + [1, 2, 3]


def test_R21_a_late_pre_registered_check_in_takes_a_drop_ins_seat():
    early = queue_input([(p, None, p) for p in range(1, 17)])
    assert rules.seat_queue(early, 16)["plays"].all()
    late = pd.concat([early, queue_input([(17, 1, 120)])], ignore_index=True)
    queue = rules.seat_queue(late, 16)
    assert queue["player_id"].iloc[0] == 17 and queue["plays"].iloc[0]
    assert queue.loc[~queue["plays"], "player_id"].tolist() == [16]  # the latest drop-in


@pytest.mark.parametrize("checked_in, extra, playing, waiting", [
    (16, 0, 16, 0), (19, 0, 16, 3), (20, 0, 16, 4), (20, 1, 20, 0), (23, 0, 16, 7),
    (23, 1, 20, 3)])
def test_R21_capacity_16(checked_in, extra, playing, waiting):
    queue = rules.seat_queue(queue_input([(p, None, p) for p in range(1, checked_in + 1)]),
                             16, extra)
    assert (queue["plays"].sum(), (~queue["plays"]).sum()) == (playing, waiting)
    assert queue.loc[queue["plays"], "player_id"].tolist() == list(range(1, playing + 1))
    assert queue["waiting"].dropna().tolist() == list(range(1, waiting + 1))


@pytest.mark.parametrize("checked_in, extra", [(19, 1), (23, 2), (16, 1), (10, 1)])
def test_R21_extra_tables_only_of_four_from_the_waiting_list(checked_in, extra):
    players = queue_input([(p, None, p) for p in range(1, checked_in + 1)])
    with pytest.raises(TournamentError, match="an extra table seats exactly four"):
        rules.seat_queue(players, 16, extra)


@pytest.mark.parametrize("capacity, extra", [(16, -1), (16, 1.5), (True, 0), (-4, 0)])
def test_R21_capacity_and_extra_tables_are_whole_numbers(capacity, extra):
    with pytest.raises(TournamentError, match="whole number"):
        rules.seat_queue(queue_input([(1, None, 1)]), capacity, extra)


players_strategy = st.lists(
    st.tuples(st.one_of(st.none(), st.integers(1, 6)), st.one_of(st.none(), st.integers(0, 8))),
    max_size=30)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(players_strategy, st.integers(0, 24), st.integers(0, 3))
def test_R21_queue_matches_the_plain_oracle(rows, capacity, extra):
    rows = [(i, order, minutes) for i, (order, minutes) in enumerate(rows, start=1)]
    frame = queue_input(rows)
    if extra and 4 * extra > len(rows) - capacity:
        with pytest.raises(TournamentError):
            rules.seat_queue(frame, capacity, extra)
        return
    expected = oracle.seat_queue([{"player_id": p, "registration_order": o,
                                   "checked_in_at": m} for p, o, m in rows], capacity, extra)
    got = rules.seat_queue(frame, capacity, extra)
    assert got["player_id"].tolist() == [e["player_id"] for e in expected]
    assert got["queue"].tolist() == [e["queue"] for e in expected]
    assert got["plays"].tolist() == [e["plays"] for e in expected]
    assert [None if pd.isna(w) else int(w) for w in got["waiting"]] == [
        e["waiting"] for e in expected]


# --- the setting ----------------------------------------------------------------------------

def test_R21_capacity_setting_defaults_to_16_and_refuses_what_cannot_be_seated(sqlite_engine):
    assert store.settings(sqlite_engine)["capacity"] == 16
    for bad, why in ((5, "cannot be 5"), (2, "from 3 to"), ("16", "whole number"),
                     (16.5, "whole number"), (None, "whole number")):
        with pytest.raises(TournamentError, match=why):
            store.set_settings(sqlite_engine, {"capacity": bad}, actor=ORGANIZER)
    assert store.set_settings(sqlite_engine, {"capacity": 20}, actor=ORGANIZER)["capacity"] == 20


# --- the roster: pre-registered, drop-ins, check-in times -------------------------------------

def _roster(engine, pre_registered: int, drop_ins: int = 0) -> list[int]:
    """`pre_registered` imported players and `drop_ins` added ones, checked in one by one
    (drop-ins in the order added); the ids, pre-registered first."""
    ids = store.import_players(engine, pd.DataFrame(
        {"name": [f"Registered {i:02d}" for i in range(1, pre_registered + 1)]}),
        actor=ORGANIZER, pre_registered=True)["player_id"].tolist() if pre_registered else []
    store.check_in(engine, ids, actor=ORGANIZER)
    for i in range(1, drop_ins + 1):
        pid = store.add_player(engine, f"Drop-in {i:02d}", actor=ORGANIZER)["player_id"]
        store.check_in(engine, [pid], actor=ORGANIZER)
        ids.append(pid)
    return ids


def test_R21_import_registers_in_order_after_earlier_imports_and_added_players_drop_in(
        sqlite_engine):
    _roster(sqlite_engine, 3, 1)
    more = store.import_players(sqlite_engine, [{"name": "Late Registration"}],
                                actor=ORGANIZER, pre_registered=True)
    assert more["registration_order"].tolist() == [4]
    pasted = store.import_players(sqlite_engine, [{"name": "Pasted"}], actor=ORGANIZER)
    roster = store.players(sqlite_engine).set_index("name")
    assert roster["registration_order"].tolist() == [1, 2, 3, pd.NA, 4, pd.NA]
    assert pasted["registration_order"].isna().all()


def test_R21_check_in_time_is_set_at_check_in_and_cleared_at_check_out(sqlite_engine):
    ann, bo = _roster(sqlite_engine, 0, 2)
    before = store.players(sqlite_engine).set_index("player_id")["checked_in_at"]
    assert before[ann] <= before[bo] and before.notna().all()
    store.check_in(sqlite_engine, [ann, bo], actor=ORGANIZER)  # already in: the time stays
    assert store.players(sqlite_engine)["checked_in_at"].tolist() == before.tolist()
    store.check_in(sqlite_engine, [ann], checked_in=False, actor=ORGANIZER)
    store.withdraw_player(sqlite_engine, bo, actor=ORGANIZER)
    assert store.players(sqlite_engine)["checked_in_at"].isna().all()
    store.check_in(sqlite_engine, [ann], actor=ORGANIZER)
    assert store.players(sqlite_engine).set_index("player_id").loc[ann, "checked_in_at"] > \
        before[bo]
    store.clear_check_ins(sqlite_engine, actor=ORGANIZER)
    assert store.players(sqlite_engine)["checked_in_at"].isna().all()


def test_R21_roster_file_orders_by_registration_time_else_by_row(sqlite_engine):
    csv = (b"Name,Timestamp\nAnn,2025-03-02 10:00\nBo,2025-03-01 09:00:30\nCy,\n"
           b"Di,01.03.2025 08:00\nEd,2025/03/01 08:30\n")
    sheet = roster_import.read_roster(csv)
    assert sheet["registered"].notna().tolist() == [True, True, False, True, True]
    roster_import.import_roster(sqlite_engine, csv, actor=ORGANIZER)
    roster = store.players(sqlite_engine, actor=ORGANIZER).sort_values("registration_order")
    assert roster["name"].tolist() == ["Di", "Ed", "Bo", "Ann", "Cy"]
    assert roster["extra"].iloc[0] == {"registered": "2025-03-01 08:00:00"}
    plain = roster_import.import_roster(sqlite_engine, b"Name\nFay\nGus\n", actor=ORGANIZER)
    assert plain["registration_order"].tolist() == [6, 7]  # row order, after the others


def test_R21_bad_registration_times_are_named_by_row_and_nothing_is_added(sqlite_engine):
    csv = b"Name,Registered\nAnn,2025-03-01 10:00\nBo,tomorrow\nCy,2025-13-01\n"
    with pytest.raises(roster_import.roster_file.RosterError) as refused:
        roster_import.import_roster(sqlite_engine, csv, actor=ORGANIZER)
    message = str(refused.value)
    assert "row 3: the registration time “tomorrow” is not a date and time" in message
    assert "row 4: the registration time “2025-13-01”" in message
    assert "row 2" not in message
    assert store.players(sqlite_engine).empty


# --- the qualifier draw and the waiting list ----------------------------------------------------

@pytest.mark.parametrize("drop_ins, extra, seated, waiting", [
    (3, 0, 16, 3), (4, 0, 16, 4), (4, 1, 20, 0), (7, 0, 16, 7), (7, 1, 20, 3)])
def test_R21_the_draw_seats_the_capacity_and_keeps_the_waiting_list(
        sqlite_engine, drop_ins, extra, seated, waiting):
    ids = _roster(sqlite_engine, 12, 4 + drop_ins)  # 19, 20 or 23 checked in
    sitting = draws.draw_qualifier(sqlite_engine, ids, seed=7, extra_tables=extra,
                                     actor=ORGANIZER)
    seats = store.seats(sqlite_engine, sitting["sitting_id"], actor=ORGANIZER)
    assert len(seats) == seated
    assert set(seats["player_id"]) == set(ids[:seated])  # the 12 registered, then drop-ins
    waits = store.waiting(sqlite_engine, sitting["sitting_id"], actor=ORGANIZER)
    assert waits["player_id"].tolist() == ids[seated:]
    assert waits["position"].tolist() == list(range(1, waiting + 1))
    logged = store.events(sqlite_engine, action="sitting.draw", actor=ORGANIZER)
    assert logged["after"].iloc[-1].get("waiting", []) == ids[seated:]


def test_R21_extra_tables_refused_unless_four_wait_for_each(sqlite_engine):
    ids = _roster(sqlite_engine, 16, 3)
    for extra in (1, -1):
        with pytest.raises(TournamentError):
            draws.draw_qualifier(sqlite_engine, ids, seed=7, extra_tables=extra,
                                   actor=ORGANIZER)
    assert store.sittings(sqlite_engine, actor=ORGANIZER).empty


def test_R21_a_waiting_player_cannot_keep_a_table(sqlite_engine):
    ids = _roster(sqlite_engine, 16, 1)
    with pytest.raises(TournamentError, match="Drop-in 01 cannot keep a table"):
        draws.draw_qualifier(sqlite_engine, ids, seed=7, pins={ids[-1]: 1}, actor=ORGANIZER)


def test_R21_redraw_and_discard_replace_and_remove_the_waiting_list(sqlite_engine):
    ids = _roster(sqlite_engine, 16, 3)
    first = draws.draw_qualifier(sqlite_engine, ids, seed=1, actor=ORGANIZER)
    again = draws.draw_qualifier(sqlite_engine, ids[:-1], seed=2, actor=ORGANIZER)
    assert again["sitting_id"] == first["sitting_id"]
    assert store.waiting(sqlite_engine, actor=ORGANIZER)["player_id"].tolist() == ids[16:18]
    redraw = store.events(sqlite_engine, action="sitting.redraw", actor=ORGANIZER).iloc[-1]
    assert redraw["before"]["waiting"] == ids[16:]
    draws.discard(sqlite_engine, first["sitting_id"], actor=ORGANIZER)
    assert store.waiting(sqlite_engine, actor=ORGANIZER).empty


def test_R21_store_refuses_a_waiting_list_that_contradicts_the_draw(sqlite_engine):
    ids = _roster(sqlite_engine, 8)
    drawn = draw.draw_sitting(ids[:4], tournament.enabled_setups(sqlite_engine), seed=3)
    for waiting, why in (([ids[0]], "both drawn and waiting"), ([ids[5], ids[5]], "twice"),
                         (["x"], "whole number")):
        with pytest.raises(TournamentError, match=why):
            store.save_draw(sqlite_engine, drawn, kind="qualifier", waiting=waiting,
                            actor=ORGANIZER)
    with pytest.raises(TournamentError, match="Only a qualifier"):
        store.save_draw(sqlite_engine, drawn, kind="semifinal", waiting=[ids[5]],
                        actor=ORGANIZER)


def test_R21_a_player_who_waited_is_withdrawn_not_deleted(sqlite_engine):
    ids = _roster(sqlite_engine, 16, 1)
    draws.draw_qualifier(sqlite_engine, ids, seed=1, actor=ORGANIZER)
    with pytest.raises(store.InvalidState, match="waiting list"):
        store.remove_player(sqlite_engine, ids[-1], actor=ORGANIZER)


def test_R21_waiting_list_live_then_stored_then_live_again(sqlite_engine):
    ids = _roster(sqlite_engine, 12, 7)
    live = capacity_service.waiting_list(sqlite_engine)
    assert live["player_id"].tolist() == ids[16:] and live["position"].tolist() == [1, 2, 3]
    local = store.players(sqlite_engine).set_index("player_id")["checked_in_at"]
    at = local[ids[16]].tz_convert(dt.datetime.now().astimezone().tzinfo).strftime("%H:%M")
    assert live["reason"].iloc[0] == f"dropped in at {at}; over the 16-seat limit"

    sitting = draws.draw_qualifier(sqlite_engine, ids, seed=5, actor=ORGANIZER)
    store.check_in(sqlite_engine, [ids[17]], checked_in=False, actor=ORGANIZER)
    drafted = capacity_service.waiting_list(sqlite_engine, actor=ORGANIZER)
    assert drafted["player_id"].tolist() == ids[16:]  # as drawn, whatever changed since
    assert capacity_service.waiting_list(sqlite_engine)["player_id"].tolist() == [ids[16], ids[18]]

    store.publish_sitting(sqlite_engine, sitting["sitting_id"], actor=ORGANIZER)
    public = capacity_service.waiting_list(sqlite_engine)
    assert public["player_id"].tolist() == ids[16:] and public["position"].tolist() == [1, 2, 3]


def test_R21_reasons_in_words(sqlite_engine):
    ids = _roster(sqlite_engine, 16, 1)
    hand = store.add_player(sqlite_engine, "Seated By Hand", actor=ORGANIZER)["player_id"]
    queue = capacity_service.seat_queue(sqlite_engine, [*ids, hand]).set_index("player_id")
    assert queue.loc[ids[11], "reason"] == "pre-registered, number 12 in registration order"
    assert queue.loc[ids[16], "reason"].startswith("dropped in at ")
    assert queue.loc[hand, "reason"] == ("seated by hand, not checked in; over the 16-seat "
                                         "limit")


@pytest.mark.slow
def test_R21_between_qualifiers_the_live_queue_and_none_once_the_finals_are_drawn(demo_copy):
    engine = demo_copy(3)  # three complete qualifiers, 24 players, seats for all 24
    ids = store.players(engine)["player_id"].tolist()
    store.check_in(engine, ids, actor=ORGANIZER)
    assert capacity_service.waiting_list(engine).empty
    store.set_settings(engine, {"capacity": 16}, actor=ORGANIZER)
    live = capacity_service.waiting_list(engine)
    assert live["player_id"].tolist() == ids[16:]  # checked in at once: by id
    assert live["position"].tolist() == list(range(1, 9))
    drawn = finals.draw_semifinal(engine, seed=1, actor=ORGANIZER)
    assert capacity_service.waiting_list(engine, actor=ORGANIZER).empty
    assert len(capacity_service.waiting_list(engine)) == 8  # spectators: the semifinal is a draft
    store.publish_sitting(engine, drawn["sitting_id"], actor=ORGANIZER)
    assert capacity_service.waiting_list(engine).empty


def test_R21_the_log_says_who_waited_and_the_capacity_setting_in_words(sqlite_engine):
    ids = _roster(sqlite_engine, 16, 3)
    draws.draw_qualifier(sqlite_engine, ids, seed=9, actor=ORGANIZER)
    store.set_settings(sqlite_engine, {"capacity": 20}, actor=ORGANIZER)
    events = store.events(sqlite_engine, actor=ORGANIZER)
    places = log.places_of(store.players(sqlite_engine, actor=ORGANIZER),
                           store.sittings(sqlite_engine, actor=ORGANIZER),
                           store.tables(sqlite_engine, actor=ORGANIZER), events)
    words = log.event_sentences(events, places).tolist()
    assert "Drew Qualifier 1: 4 tables, 16 players, 3 players waiting, seed 9." in words
    assert "Changed the settings: Seats per qualifier sitting 16 → 20." in words
