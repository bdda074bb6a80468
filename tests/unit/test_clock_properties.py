"""R26: the clock's arithmetic (`stsa.clock`) against a plain oracle that lets the clock run
second by second: pauses, everyone's extensions, one table's extensions, time called early or
at zero, and the actions the clock refuses."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stsa import clock
from stsa.domain import TournamentError

BASE = dt.datetime(2027, 3, 6, 9, 0, tzinfo=dt.UTC)
TABLES = (1, 2, 3)


def at(second: int) -> dt.datetime:
    return BASE + dt.timedelta(seconds=second)


@dataclass
class Oracle:
    """A clock that counts whole seconds down, one at a time: everyone's counter, and a
    counter of its own for each table given more time alone."""

    length: int
    started: bool = False
    paused: bool = False
    called: bool = False
    left: int = -1  # the whole length until the start
    tables: dict[int, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.left = self.length

    def up(self) -> bool:
        return self.called or (self.started and self.left == 0)

    def allows(self, action: str) -> bool:
        if not self.started:
            return action == "start"
        if action == "start":
            return False
        if self.up():
            return action == "extend_table"
        if action == "pause":
            return not self.paused
        if action == "resume":
            return self.paused
        return True

    def apply(self, action: str, seconds: int, table_no: int | None) -> None:
        if action == "start":
            self.started = True
        elif action == "pause":
            self.paused = True
        elif action == "resume":
            self.paused = False
        elif action == "extend":
            self.left += seconds
            self.tables = {no: left + seconds for no, left in self.tables.items()}
        elif action == "extend_table":
            assert table_no is not None
            self.tables[table_no] = self.tables.get(table_no, self.left) + seconds
        elif action == "call":
            self.called, self.paused, self.left, self.tables = True, False, 0, {}

    def tick(self) -> None:
        if self.started and not self.paused:
            self.left = max(0, self.left - 1)
            self.tables = {no: max(0, left - 1) for no, left in self.tables.items()}

    def status(self) -> clock.Status:
        if not self.started:
            return clock.Status.NOT_STARTED
        if self.up():
            return clock.Status.CALLED
        return clock.Status.PAUSED if self.paused else clock.Status.RUNNING

    def table_left(self, table_no: int) -> int:
        return self.tables.get(table_no, self.left)


steps = st.lists(st.tuples(
    st.integers(min_value=0, max_value=200),  # seconds after the step before
    st.sampled_from(clock.ACTIONS),
    st.integers(min_value=1, max_value=120),  # an extension's seconds
    st.sampled_from(TABLES)), max_size=14)


def run(length: int, plan, until: int):
    """Both clocks through `plan` (second gaps and actions), asked at `until` seconds after
    the last action. Each action is checked first; the oracle says whether it is allowed."""
    oracle, kept = Oracle(length), []
    second, schedule = 0, []
    for gap, action, seconds, table_no in plan:
        second += gap
        schedule.append((second, action, seconds, table_no))
    end = second + until
    pending = list(schedule)
    for t in range(end + 1):
        while pending and pending[0][0] == t:
            _, action, seconds, table_no = pending.pop(0)
            new = clock.ClockAction(action, at(t), seconds=seconds,
                                    table_no=table_no if action == "extend_table" else None)
            allowed = oracle.allows(action)
            try:
                clock.check(kept, new, length=length)
                refused = None
            except TournamentError as exc:
                refused = str(exc)
            assert (refused is None) == allowed, (t, action, refused, oracle)
            if allowed:
                oracle.apply(action, seconds, new.table_no)
                kept.append(new)
        if t < end:
            oracle.tick()
    return oracle, clock.state(kept, length=length, now=at(end))


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(length=st.integers(min_value=30, max_value=600), plan=steps,
       until=st.integers(min_value=0, max_value=900), started=st.booleans())
def test_R26_the_clock_reads_as_a_clock_run_second_by_second(length, plan, until, started):
    plan = [(0, "start", 1, 1)] * started + plan  # mostly a clock that started
    oracle, found = run(length, plan, until)
    assert found.status is oracle.status()
    assert found.left == oracle.left
    for table_no in TABLES:
        assert found.table_left(table_no) == oracle.table_left(table_no)
        assert found.table_called(table_no) == (oracle.up() and oracle.table_left(table_no) == 0)
    if found.status is clock.Status.RUNNING:  # the deadline the browser counts down to
        assert found.deadline == found.now + dt.timedelta(seconds=oracle.left)
        for table_no in TABLES:
            assert found.table_deadline(table_no) == found.now + dt.timedelta(
                seconds=oracle.table_left(table_no))


def test_R26_refusals_are_in_plain_words():
    start = clock.ClockAction("start", at(0))
    pause = clock.ClockAction("pause", at(10))
    with pytest.raises(TournamentError, match="has not started yet"):
        clock.check([], pause, length=600)
    with pytest.raises(TournamentError, match="started already"):
        clock.check([start], clock.ClockAction("start", at(5)), length=600)
    with pytest.raises(TournamentError, match="The clock is already paused."):
        clock.check([start, pause], clock.ClockAction("pause", at(20)), length=600)
    with pytest.raises(TournamentError, match="nothing to resume"):
        clock.check([start], clock.ClockAction("resume", at(20)), length=600)
    with pytest.raises(TournamentError, match="Time has been called already"):
        clock.check([start], clock.ClockAction("extend", at(700), seconds=60), length=600)
    with pytest.raises(TournamentError, match="at least one"):
        clock.check([start], clock.ClockAction("extend", at(20), seconds=0), length=600)
    clock.check([start], clock.ClockAction("extend_table", at(700), seconds=60, table_no=2),
                length=600)  # after time: one table may still get more time


def test_R26_an_early_call_stops_every_table_and_a_table_gets_time_from_then():
    actions = [clock.ClockAction("start", at(0)),
               clock.ClockAction("extend_table", at(10), seconds=300, table_no=2),
               clock.ClockAction("call", at(100)),
               clock.ClockAction("extend_table", at(160), seconds=120, table_no=3)]
    found = clock.state(actions, length=600, now=at(200))
    assert found.called and found.called_early
    assert found.table_left(2) == 0 and found.table_called(2)
    assert found.table_left(3) == 80 and not found.table_called(3)


def test_R26_an_action_stamped_before_the_last_counts_at_the_last():
    actions = [clock.ClockAction("start", at(100)), clock.ClockAction("pause", at(90))]
    found = clock.state(actions, length=600, now=at(400))
    assert found.paused and found.left == 600


@pytest.mark.parametrize(("seconds", "words"), [(0, "00:00"), (0.2, "00:01"), (59, "00:59"),
                                                (3599, "59:59"), (3600, "1:00:00"),
                                                (9000, "2:30:00")])
def test_R26_time_left_reads_as_a_clock(seconds, words):
    assert clock.minutes_words(seconds) == words
