"""The clock of the sitting being played, as the pages show it (R26): what every screen counts
down to, in UTC epoch milliseconds, with the server's own "now" so the browser can allow for
its clock being off; each table's time for the judges; a player's own table for My seat.

`SittingClock` holds what only changes with a logged write (the sitting, its length, its
actions, its tables and which of them have a result), so the pages keep one per data version,
shared by every session (`stsa.ui.data`); the time left is worked out from it at each page run,
which is cheap.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import pandas as pd

from stsa import clock, i18n, store
from stsa.domain import SittingStatus, sitting_label
from stsa.i18n import _
from stsa.services.snapshot import Snapshot


def epoch_ms(at: dt.datetime) -> int:
    """R26: a UTC time as milliseconds since 1970, as a browser's `Date.now()` counts."""
    return int(round(at.timestamp() * 1000))


@dataclass(frozen=True)
class Countdown:
    """What a countdown shows at one moment (R26): `status` in words ("running", "paused",
    "not started", "time called"); `deadline_ms` when it runs (None otherwise); `left_ms`
    the time left at `now_ms` (the server's now); `words`: the tournament's words at time.
    Made at each page run, so `label` (and `words` while they are the default) are in the run's
    language."""

    status: str
    deadline_ms: int | None
    left_ms: int
    now_ms: int
    words: str
    label: str

    @property
    def called(self) -> bool:
        """R26: whether time is called (for everyone, or this table)."""
        return self.status == clock.Status.CALLED

    def as_data(self) -> dict:
        """R26: the countdown for the browser (plain JSON)."""
        return {"status": self.status, "deadline_ms": self.deadline_ms, "left_ms": self.left_ms,
                "now_ms": self.now_ms, "words": self.words, "label": self.label}


@dataclass(frozen=True)
class SittingClock:
    """A published sitting's clock as its actions left it (R26): its `label`, `length` in
    seconds, its `actions` in order, its table numbers and those still playing (no saved
    result), and the tournament's `words` for time."""

    sitting_id: int
    label: str
    length: int
    actions: tuple[clock.ClockAction, ...]
    tables: tuple[int, ...]
    playing: frozenset[int]
    words: str
    sound: bool

    def state(self, now: dt.datetime | None = None) -> clock.ClockState:
        """R26: the clock at `now` (default: this moment)."""
        return clock.state(self.actions, length=self.length,
                           now=now or dt.datetime.now(dt.UTC))

    def countdown(self, now: dt.datetime | None = None,
                  table_no: int | None = None) -> Countdown:
        """R26: everyone's countdown at `now` (default: this moment), or one table's (its own
        extensions on top)."""
        found = self.state(now)
        left = found.left if table_no is None else found.table_left(int(table_no))
        status = found.status
        if table_no is not None and status is clock.Status.CALLED and left > 0:
            status = clock.Status.RUNNING  # a table given more time after time was called
        deadline = None
        if status is clock.Status.RUNNING:
            deadline = epoch_ms(found.now) + int(round(left * 1000))
        sitting = str(i18n.cell(self.label))
        label = sitting if table_no is None else _("{sitting}, table {table}").format(
            sitting=sitting, table=int(table_no))
        return Countdown(status=str(status), deadline_ms=deadline,
                         left_ms=int(round(left * 1000)), now_ms=epoch_ms(found.now),
                         words=str(i18n.cell(self.words)), label=label)

    def table_countdowns(self, now: dt.datetime | None = None) -> list[dict]:
        """R26: each table's countdown at `now` (default: this moment), worked out once for
        all tables, for the browser (plain JSON): `table`, `status`, `deadline_ms` (when it
        runs), `left_ms`, `added_minutes` (given to it alone), `playing` (no result yet)."""
        found = self.state(now)
        at = epoch_ms(found.now)
        tables = []
        for no in self.tables:
            left = found.table_left(no)
            status = found.status
            if status is clock.Status.CALLED and left > 0:
                status = clock.Status.RUNNING  # given more time after time was called
            tables.append({
                "table": int(no), "status": str(status),
                "deadline_ms": at + int(round(left * 1000))
                if status is clock.Status.RUNNING else None,
                "left_ms": int(round(left * 1000)),
                "added_minutes": int(found.table_extra.get(no, 0) // 60),
                "playing": no in self.playing})
        return tables

    def table_times(self, now: dt.datetime | None = None) -> pd.DataFrame:
        """R26: each table's time for the judges: `table_no, left` (mm:ss), `extra` (minutes
        given to it alone), `playing` (no result saved yet), `at_time` (still playing when
        its time is up)."""
        found = self.state(now)
        rows = [{"table_no": no, "left": clock.minutes_words(found.table_left(no)),
                 "extra": int(found.table_extra.get(no, 0) // 60),
                 "playing": no in self.playing,
                 "at_time": no in self.playing and found.table_called(no)}
                for no in self.tables]
        return pd.DataFrame(rows, columns=["table_no", "left", "extra", "playing", "at_time"])


def clock_of(snap: Snapshot, sitting_id: int | None = None) -> SittingClock | None:
    """R26: the clock of `sitting_id` (default: the sitting being played), if it is published
    and not complete yet; None otherwise (no clock to show)."""
    try:
        sitting = snap.current() if sitting_id is None else snap.sitting(int(sitting_id))
    except store.NotFound:  # a draft, or gone: no clock
        return None
    if sitting is None or sitting.status != SittingStatus.PUBLISHED:
        return None
    tables = snap.sitting_tables(sitting.sitting_id)
    with store.snapshot(snap.engine) as conn:
        actions = tuple(store.clock_actions(conn, sitting.sitting_id))
        length = store.sitting_seconds(conn, sitting.kind, sitting.number)
    settings = snap.settings
    return SittingClock(
        sitting_id=int(sitting.sitting_id), label=sitting_label(sitting.kind, sitting.number),
        length=length, actions=actions,
        tables=tuple(int(t) for t in tables["table_no"]),
        playing=frozenset(int(t) for t in tables.loc[tables["version"] == 0, "table_no"]),
        words=settings.time_words, sound=bool(settings.clock_sound))


def act(engine, sitting_id: int, action: str, *, actor, minutes: int = 0,
        table_no: int | None = None, reason: str = "") -> clock.ClockState:
    """R26: tell a sitting's clock `action` (`store.clock_action`: judges and the organizer
    only, checked and logged in one transaction)."""
    return store.clock_action(engine, int(sitting_id), action, actor=actor, minutes=minutes,
                              table_no=table_no, reason=reason)
