"""The checks entry makes (`stsa.store.checks`): every table's result checked at once
(`plainly_right`) never lets through what the one-table check (`check_result_rows`) refuses
(R9-R13), and passes every result entry takes as it is."""

from __future__ import annotations

from types import SimpleNamespace

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stsa.domain import TournamentError
from stsa.store import checks

LEADERS = ["Paul Atreides", "Duncan Idaho", "Gurney Halleck", "Lady Jessica", "Feyd-Rautha"]
FIELDS = list(checks.NUMBER_RANGES)

# A value a result's cell may hold: mostly plain numbers, sometimes anything a file can hold.
odd_numbers = st.one_of(st.integers(-3, 12), st.none(), st.just("7"), st.just(7.0),
                        st.just(True), st.just(100_001), st.just(""))


@st.composite
def tables(draw) -> tuple[pd.DataFrame, pd.DataFrame, dict]:
    """A few tables' seats and results, each table's result right or wrong in one of the ways
    a workbook can be (numbers, leaders, players, ties), and the leaders each table has."""
    seats, results, leaders = [], [], {}
    for table_id in range(1, draw(st.integers(1, 4)) + 1):
        size = draw(st.sampled_from([3, 4]))
        players = [table_id * 10 + seat for seat in range(1, size + 1)]
        allowed = draw(st.sampled_from([LEADERS[:size], LEADERS, []]))
        leaders[table_id] = set(allowed)
        seats += [{"table_id": table_id, "player_id": p, "seat": s}
                  for s, p in enumerate(players, start=1)]
        tie = draw(st.integers(0, 3)) == 0
        for seat, player in enumerate(players, start=1):
            row = {"table_id": table_id, "player_id": player, "seat": seat,
                   "leader": LEADERS[seat - 1], "vp": seat, "spice": 1, "solari": 2,
                   "troops": 3, "water": 0, "variant_points": 0, "tiebreak": None}
            if tie and seat <= 2:  # seats 1 and 2 equal on all five, maybe settled
                row.update(vp=5, tiebreak=draw(st.sampled_from([None, seat, 1])))
            if draw(st.integers(0, 5)) == 0:
                row[draw(st.sampled_from(FIELDS))] = draw(odd_numbers)
            if draw(st.integers(0, 3)) == 0:
                row["leader"] = draw(st.sampled_from(
                    ["", None, " Paul  Atreides", "Glossu Rabban", LEADERS[4], LEADERS[0], 3]))
            if draw(st.integers(0, 9)) == 0:
                row["player_id"] = draw(st.sampled_from([players[0], 999, str(player), None]))
            results.append(row)
        if draw(st.integers(0, 9)) == 0:
            results.pop()  # a seat without its row
    return (pd.DataFrame(results, dtype=object), pd.DataFrame(seats, dtype=object), leaders)


def one_by_one(results: pd.DataFrame, seats: pd.DataFrame, leaders: dict) -> dict[int, bool]:
    """{table id: whether `check_result_rows` takes its result}, one table at a time."""
    taken = {}
    for table_id, rows in results.groupby("table_id"):
        mine = seats.loc[seats["table_id"] == table_id]
        seated = {p: SimpleNamespace(seat=s, name=f"P{p}")
                  for p, s in zip(mine["player_id"], mine["seat"])}
        try:
            checks.check_result_rows(rows.to_dict("records"), seated,
                                     sorted(leaders[table_id]), [], "Table", True)
            taken[table_id] = True
        except TournamentError:
            taken[table_id] = False
    return taken


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(tables())
def test_every_table_found_right_at_once_is_one_the_check_takes(drawn):
    results, seats, leaders = drawn
    right = checks.plainly_right(results, seats, leaders)
    taken = one_by_one(results, seats, leaders)
    assert all(taken[t] for t in right)


def test_results_entry_takes_as_they_are_are_found_right_at_once():
    results = pd.DataFrame([
        {"table_id": t, "player_id": t * 10 + s, "leader": LEADERS[s - 1], "vp": 10 - s,
         "spice": 1, "solari": 0, "troops": 2, "water": 1, "variant_points": None,
         "tiebreak": None} for t in (1, 2) for s in range(1, 5)], dtype=object)
    seats = results[["table_id", "player_id"]].assign(seat=[1, 2, 3, 4] * 2)
    leaders = {1: set(LEADERS), 2: set()}  # table 2 lists none: any leader
    assert checks.plainly_right(results, seats, leaders) == {1, 2}
    assert one_by_one(results, seats, leaders) == {1: True, 2: True}
    spaced = results.assign(leader=results["leader"].where(results.index != 0, " Paul Atreides"))
    assert checks.plainly_right(spaced, seats, leaders) == {2}  # the check reads it once more


def test_a_table_anything_could_be_wrong_with_is_left_to_the_check():
    """Each way a result can be wrong keeps its table out; a full tie too, settled or not
    (the check looks at the settled order)."""
    clean = pd.DataFrame([
        {"table_id": 1, "player_id": 10 + s, "leader": LEADERS[s - 1], "vp": 10 - s,
         "spice": 1, "solari": 0, "troops": 2, "water": 1, "variant_points": 0,
         "tiebreak": None} for s in range(1, 5)], dtype=object)
    seats = clean[["table_id", "player_id"]].assign(seat=[1, 2, 3, 4])
    leaders = {1: set(LEADERS)}
    assert checks.plainly_right(clean, seats, leaders) == {1}

    def changed(row: int, **values) -> pd.DataFrame:
        out = clean.copy()
        for column, value in values.items():
            out.loc[row, column] = value
        return out

    for wrong in (changed(1, leader=LEADERS[0]),  # a leader taken twice
                  changed(1, leader="Glossu Rabban"),  # not one of the table's
                  changed(2, vp=-1), changed(2, water=None), changed(0, tiebreak=0),
                  changed(3, player_id=99), changed(3, player_id=10),
                  changed(1, vp=9, tiebreak=1).pipe(lambda d: d.assign(
                      tiebreak=[2, 1, None, None])),  # a full tie, settled
                  clean.iloc[:3]):  # a seat without its row
        assert checks.plainly_right(wrong, seats, leaders) == set()
