"""R25 on R21: the queue of a sitting with a booking list (booked players in booking order,
then drop-ins in check-in order; a booked player who missed the check-in deadline loses the
priority, a confirmed replacement takes it) against a plain oracle."""

from __future__ import annotations

import datetime as dt

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stsa import rules
from stsa.errors import TournamentError
from tests.support import oracle
from tests.unit.test_capacity import START, queue_input


def booking_list(rows: list[tuple]) -> pd.DataFrame:
    """(player_id, position, replaced_by or None) per booking."""
    return pd.DataFrame({"player_id": [r[0] for r in rows], "position": [r[1] for r in rows],
                         "replaced_by": pd.array([r[2] if len(r) > 2 else None for r in rows],
                                                 dtype="Int64")})


def at(minutes: int) -> pd.Timestamp:
    return pd.Timestamp(START + dt.timedelta(minutes=minutes))


def test_R25_booked_players_first_in_booking_order_then_drop_ins_by_check_in():
    players = queue_input([
        (1, 1, 1),       # pre-registered for the tournament, not booked here: a drop-in
        (2, None, 50),   # booked second, checked in late but before the deadline
        (3, None, 40),   # booked first
        (4, None, 2),    # a drop-in
        (5, None, 3),    # booked for another sitting only: a drop-in here
    ])
    queue = rules.seat_queue(players, 2, bookings=booking_list([(3, 1), (2, 2)]))
    assert queue["player_id"].tolist() == [3, 2, 1, 4, 5]
    assert queue["priority"].tolist() == ["booked", "booked", "drop-in", "drop-in", "drop-in"]
    assert queue["booking_order"].tolist() == [1, 2, pd.NA, pd.NA, pd.NA]
    assert queue["plays"].tolist() == [True, True, False, False, False]


def test_R25_without_a_list_registration_order_still_applies():
    players = queue_input([(1, None, 1), (2, 1, 50)])
    queue = rules.seat_queue(players, 1)
    assert queue["player_id"].tolist() == [2, 1] and "priority" not in queue


def test_R25_a_seat_is_held_for_a_booked_player_not_here_yet():
    players = queue_input([(1, None, 5), (2, None, 1), (3, None, 2)])
    bookings = booking_list([(9, 1), (1, 2)])  # player 9 has not come
    queue = rules.seat_queue(players, 3, bookings=bookings)
    assert queue["player_id"].tolist() == [1, 2, 3]
    assert queue["plays"].tolist() == [True, True, False]  # one seat is 9's


def test_R25_after_the_deadline_nobody_is_moved_until_the_organizer_confirms():
    players = queue_input([(1, None, 5), (3, None, 1), (4, None, 2)])
    late = rules.seat_queue(players, 2, bookings=booking_list([(9, 1), (1, 2)]),
                            deadline=at(20))
    assert late["plays"].tolist() == [True, False, False]  # 9's seat still held
    bookings = booking_list([(9, 1, 4), (1, 2)])  # the organizer gave 9's seat to 4
    queue = rules.seat_queue(players, 2, bookings=bookings, deadline=at(20))
    assert queue["player_id"].tolist() == [4, 1, 3]
    assert queue["priority"].tolist() == ["replacement", "booked", "drop-in"]
    assert queue["plays"].tolist() == [True, True, False]
    before = rules.seat_queue(players, 2, bookings=bookings)  # deadline not passed yet
    assert before["player_id"].tolist() == [1, 3, 4] and before["plays"].sum() == 1


def test_R25_a_booked_player_whose_seat_was_given_away_queues_as_a_drop_in():
    players = queue_input([(1, None, 30), (4, None, 2), (5, None, 3)])
    bookings = booking_list([(1, 1, 4)])
    queue = rules.seat_queue(players, 2, bookings=bookings, deadline=at(20))
    assert queue["player_id"].tolist() == [4, 5, 1]
    assert queue["priority"].tolist() == ["replacement", "drop-in", "replaced"]
    assert queue.loc[queue["player_id"] == 1, "booking_order"].item() == 1  # kept
    unreplaced = rules.seat_queue(players, 2, bookings=booking_list([(1, 1)]),
                                  deadline=at(20))
    assert unreplaced["priority"].tolist() == ["late", "drop-in", "drop-in"]


def test_R25_the_bookings_need_their_columns():
    with pytest.raises(TournamentError, match="position"):
        rules.seat_queue(queue_input([(1, None, 1)]), 1,
                         bookings=pd.DataFrame({"player_id": [1]}))


rows_strategy = st.lists(
    st.tuples(st.one_of(st.none(), st.integers(1, 6)), st.one_of(st.none(), st.integers(0, 8)),
              st.booleans()),
    max_size=24)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(rows_strategy, st.integers(0, 20), st.one_of(st.none(), st.integers(0, 8)),
       st.lists(st.integers(1, 30), max_size=6), st.randoms(use_true_random=False),
       st.integers(0, 2))
def test_R25_queue_matches_the_plain_oracle(rows, capacity, deadline, absent, rnd, extra):
    players = [(i, order, minutes) for i, (order, minutes, _) in enumerate(rows, start=1)]
    booked_ids = [i for i, (_, _, booked) in enumerate(rows, start=1) if booked]
    booked_ids += [100 + a for a in sorted(set(absent))]  # booked, not here at all
    rnd.shuffle(booked_ids)
    here = [p for p, _, _ in players]
    bookings = []
    for position, pid in enumerate(booked_ids, start=1):
        by = rnd.choice(here + [999]) if here and rnd.random() < 0.3 else None
        bookings.append({"player_id": pid, "position": position, "replaced_by": by})
    frame = queue_input(players)
    plain = [{"player_id": p, "registration_order": o, "checked_in_at": m}
             for p, o, m in players]
    waits = sum(not e["plays"] for e in oracle.booked_seat_queue(plain, bookings, capacity, 0,
                                                                 deadline))
    table = pd.DataFrame(bookings, columns=["player_id", "position", "replaced_by"]).astype(
        {"player_id": "int64", "position": "int64", "replaced_by": "Int64"})
    passed = None if deadline is None else at(deadline)
    if 4 * extra > waits:  # more extra tables than the waiting list fills
        with pytest.raises(TournamentError, match="exactly four"):
            rules.seat_queue(frame, capacity, extra, bookings=table, deadline=passed)
        extra = 0
    expected = oracle.booked_seat_queue(
        [{"player_id": p, "registration_order": o, "checked_in_at": m} for p, o, m in players],
        bookings, capacity, extra, deadline)
    got = rules.seat_queue(frame, capacity, extra, bookings=table, deadline=passed)
    assert got["player_id"].tolist() == [e["player_id"] for e in expected]
    assert got["plays"].tolist() == [e["plays"] for e in expected]
    assert [None if pd.isna(w) else int(w) for w in got["waiting"]] == [
        e["waiting"] for e in expected]
