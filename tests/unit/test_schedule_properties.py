"""Property tests (R26): the schedule's vectorized shift, next item and overlaps agree with a
plain, obviously-correct Python oracle on generated schedules (items of any length, many
starting at the same minute, sittings and other items mixed)."""

from __future__ import annotations

import datetime as dt

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stsa import schedule

pytestmark = pytest.mark.slow  # hypothesis runs each property on many generated schedules

DAY = dt.datetime(2026, 3, 7, 8, 0, tzinfo=dt.UTC)


@st.composite
def items(draw):
    """A schedule of 0-12 items on one day, starts on a coarse grid so that ties and touching
    ends happen often."""
    n = draw(st.integers(min_value=0, max_value=12))
    rows = []
    for i in range(n):
        kind = draw(st.sampled_from([None, "qualifier", "qualifier", "semifinal", "final"]))
        rows.append({"item_id": i + 1, "title": f"Item {i + 1}", "sitting_kind": kind,
                     "sitting_number": i + 1 if kind else None,
                     "starts_at": DAY + dt.timedelta(minutes=30 * draw(st.integers(0, 20))),
                     "minutes": draw(st.sampled_from([1, 30, 45, 60, 90, 150]))})
    return rows


def frame_of(rows: list[dict]) -> pd.DataFrame:
    columns = ["item_id", "title", "sitting_kind", "sitting_number", "starts_at", "minutes"]
    return schedule.schedule_frame(pd.DataFrame(rows, columns=columns))


# --- the oracle: one item at a time ----------------------------------------------------------
def oracle_order(rows):
    return sorted(rows, key=lambda r: (r["starts_at"], r["item_id"]))


def oracle_end(row):
    return row["starts_at"] + dt.timedelta(minutes=row["minutes"])


def oracle_next(rows, at):
    for row in oracle_order(rows):
        if row["starts_at"] >= at:
            return row["item_id"]
    return None


def oracle_shift(rows, minutes, at=None, after_item=None):
    if after_item is not None:
        mine = [r for r in rows if r["item_id"] == after_item]
        moved = [r["starts_at"] > mine[0]["starts_at"] if mine else False for r in rows]
    else:
        moved = [r["starts_at"] >= at for r in rows]
    out = []
    for row, move in zip(rows, moved):
        start = row["starts_at"] + dt.timedelta(minutes=minutes if move else 0)
        out.append({**row, "starts_at": start})
    return {r["item_id"]: (r["starts_at"], oracle_end(r)) for r in out}


def oracle_overlaps(rows):
    ordered = [r for r in oracle_order(rows) if r["sitting_kind"]]
    pairs = []
    for i, a in enumerate(ordered):
        for b in ordered[i + 1:]:
            if a["starts_at"] < oracle_end(b) and b["starts_at"] < oracle_end(a):
                pairs.append((a["item_id"], b["item_id"]))
    return pairs


times = st.integers(min_value=-2, max_value=22).map(lambda n: DAY + dt.timedelta(minutes=30 * n))


@settings(max_examples=150, deadline=None)
@given(items(), times)
def test_next_item_matches_the_oracle(rows, at):
    found = schedule.next_item(frame_of(rows), at)
    assert (None if found is None else int(found["item_id"])) == oracle_next(rows, at)


@settings(max_examples=150, deadline=None)
@given(items(), st.integers(min_value=-120, max_value=240), times)
def test_shift_from_a_time_matches_the_oracle(rows, minutes, at):
    shifted = schedule.shift(frame_of(rows), minutes, at=at)
    got = {int(i): (s.to_pydatetime(), e.to_pydatetime()) for i, s, e in
           zip(shifted["item_id"], shifted["starts_at"], shifted["ends_at"])}
    assert got == oracle_shift(rows, minutes, at=at)
    assert shifted["starts_at"].is_monotonic_increasing  # still in schedule order


@settings(max_examples=150, deadline=None)
@given(items(), st.integers(min_value=1, max_value=120), st.integers(min_value=0, max_value=13))
def test_shift_after_an_item_matches_the_oracle(rows, minutes, item):
    shifted = schedule.shift(frame_of(rows), minutes, after_item=item)
    got = {int(i): (s.to_pydatetime(), e.to_pydatetime()) for i, s, e in
           zip(shifted["item_id"], shifted["starts_at"], shifted["ends_at"])}
    assert got == oracle_shift(rows, minutes, after_item=item)
    assert (shifted.set_index("item_id")["minutes"].sort_index()
            .equals(frame_of(rows).set_index("item_id")["minutes"].sort_index()))


@settings(max_examples=150, deadline=None)
@given(items())
def test_overlaps_match_the_oracle(rows):
    found = schedule.overlaps(frame_of(rows))
    assert list(found.itertuples(index=False, name=None)) == oracle_overlaps(rows)
