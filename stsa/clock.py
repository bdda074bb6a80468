"""A sitting's clock (R26), as plain arithmetic: its actions, in the order they were taken,
folded into the clock's state at a moment (`state`), and the check that refuses an action that
makes no sense after the ones before it (`check`). No I/O, no Streamlit: the store keeps the
actions (append-only), the services read the state, the browser counts down to its deadline.

How the actions combine (the rules `check` enforces):
- *start* once, then *pause* and *resume* in turn; every pause moves the deadline on by its
  length. *extend* gives everyone more time; *extend_table* one table alone, on top of
  everyone's (a reason is asked for by the store, not here).
- Time is called when everyone's time reaches zero, or early by *call* (then every table stops
  at once, extended tables included). After time is called the only action left is to give a
  table more time alone: a table still playing gets it on top of its own time, a table whose
  time is up gets it counted from that moment. Pausing, resuming, extending everyone or calling
  again are refused then.
- Nothing but *start* before the clock starts; *call* while paused is allowed (the time left
  is dropped).
- An action stamped earlier than the one before it (two servers' clocks a little apart) counts
  as taken at the same moment as that one.
"""

from __future__ import annotations

import datetime as dt
import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from stsa.domain import TournamentError
from stsa.i18n import _

ACTIONS = ("start", "pause", "resume", "extend", "extend_table", "call")


class Status(str, enum.Enum):
    """Where a sitting's clock is (R26)."""

    NOT_STARTED = "not started"
    RUNNING = "running"
    PAUSED = "paused"
    CALLED = "time called"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class ClockAction:
    """One thing a judge or the organizer told the clock (a `clock_actions` row, R26):
    `action` one of `ACTIONS`, `at` a UTC time, `seconds` for the extensions, `table_no` for
    extend_table."""

    action: str
    at: dt.datetime
    seconds: int = 0
    table_no: int | None = None
    reason: str = ""
    actor: str = ""

    @classmethod
    def of(cls, row: Mapping[str, Any]) -> ClockAction:
        """R26: an action from a stored row (a mapping with at least `action` and `at`)."""
        table_no = row.get("table_no")
        return cls(action=str(row["action"]), at=_utc(row["at"]),
                   seconds=int(row.get("seconds") or 0),
                   table_no=None if table_no is None or table_no != table_no else int(table_no),
                   reason=str(row.get("reason") or ""), actor=str(row.get("actor") or ""))


def _utc(at: Any) -> dt.datetime:
    if hasattr(at, "to_pydatetime"):
        at = at.to_pydatetime()
    if at.tzinfo is None:
        at = at.replace(tzinfo=dt.UTC)
    return at.astimezone(dt.UTC)


def _seconds(at: dt.datetime) -> float:
    return _utc(at).timestamp()


@dataclass
class _Fold:
    """The actions so far, in seconds since the epoch."""

    started: float | None = None
    paused_since: float | None = None
    paused_total: float = 0.0
    extra: int = 0
    table_extra: dict[int, float] = field(default_factory=dict)
    called_at: float | None = None
    last: float | None = None

    def end(self, length: int) -> float | None:
        """R26: everyone's deadline with no pause now running (None before the start)."""
        if self.started is None:
            return None
        if self.called_at is not None:
            return self.called_at
        return self.started + length + self.paused_total + self.extra

    def everyone_up(self, length: int, t: float) -> bool:
        """R26: whether everyone's time is up at `t`: called early, or run down to zero."""
        end = self.end(length)
        return self.called_at is not None or (
            end is not None and self.paused_since is None and t >= end)


def _fold(actions: Iterable[ClockAction], length: int) -> _Fold:
    state = _Fold()
    for action in actions:
        t = _seconds(action.at)
        t = t if state.last is None else max(t, state.last)
        state.last = t
        _apply(state, action, t, length)
    return state


def _apply(state: _Fold, action: ClockAction, t: float, length: int) -> None:
    kind = action.action
    if kind == "start":
        state.started = t
    elif kind == "pause":
        state.paused_since = t
    elif kind == "resume":
        state.paused_total += t - (state.paused_since or t)
        state.paused_since = None
    elif kind == "extend":
        state.extra += int(action.seconds)
    elif kind == "extend_table":
        no = int(action.table_no or 0)
        if state.everyone_up(length, t):
            end = state.end(length) or t
            own = end + state.table_extra.get(no, 0.0)
            state.table_extra[no] = max(own, t) + int(action.seconds) - end
        else:
            state.table_extra[no] = state.table_extra.get(no, 0.0) + int(action.seconds)
    elif kind == "call":
        state.called_at = t
        state.paused_since = None
        state.table_extra = {}


@dataclass(frozen=True)
class ClockState:
    """A sitting's clock at one moment (R26). `deadline`: when everyone's time is up (while
    paused, as if resumed at `now`; None before the start); `left`: everyone's seconds left
    (the whole length before the start, 0 once time is called); `table_extra`: each extended
    table's seconds on top of everyone's deadline."""

    status: Status
    now: dt.datetime
    length: int
    started_at: dt.datetime | None
    deadline: dt.datetime | None
    left: float
    table_extra: Mapping[int, float]
    called_early: bool

    @property
    def called(self) -> bool:
        """R26: whether time is called for everyone (early, or at zero)."""
        return self.status is Status.CALLED

    @property
    def paused(self) -> bool:
        """R26: whether the clock is paused."""
        return self.status is Status.PAUSED

    def table_deadline(self, table_no: int) -> dt.datetime | None:
        """R26: when one table's time is up: everyone's deadline and its own extensions."""
        if self.deadline is None:
            return None
        return self.deadline + dt.timedelta(seconds=self.table_extra.get(int(table_no), 0.0))

    def table_left(self, table_no: int) -> float:
        """R26: one table's seconds left at `now` (everyone's and its own extensions)."""
        extra = self.table_extra.get(int(table_no), 0.0)
        if self.status is Status.CALLED:
            deadline = self.table_deadline(table_no)
            assert deadline is not None  # time is called only after the start
            return max(0.0, (deadline - self.now).total_seconds())
        return self.left + extra

    def table_called(self, table_no: int) -> bool:
        """R26: whether one table's time is up (its extensions spent, or time called early)."""
        return self.status is Status.CALLED and self.table_left(table_no) <= 0


def state(actions: Iterable[ClockAction | Mapping[str, Any]], *, length: int,
          now: dt.datetime) -> ClockState:
    """R26: a sitting's clock at `now`, from its actions in the order they were taken and its
    length in seconds (the `sitting_minutes` setting, or the schedule's minutes)."""
    fold = _fold(_actions(actions), int(length))
    t = _seconds(now)
    if fold.last is not None:
        t = max(t, fold.last)
    at = dt.datetime.fromtimestamp(t, dt.UTC)
    end = fold.end(int(length))
    started = None if fold.started is None else dt.datetime.fromtimestamp(fold.started, dt.UTC)
    if end is None:
        return ClockState(Status.NOT_STARTED, at, int(length), None, None, float(length), {},
                          False)
    extra = dict(fold.table_extra)
    if fold.everyone_up(int(length), t):
        return ClockState(Status.CALLED, at, int(length), started,
                          dt.datetime.fromtimestamp(end, dt.UTC), 0.0, extra,
                          fold.called_at is not None)
    if fold.paused_since is not None:
        left = end - fold.paused_since
        return ClockState(Status.PAUSED, at, int(length), started,
                          dt.datetime.fromtimestamp(t + left, dt.UTC), left, extra, False)
    return ClockState(Status.RUNNING, at, int(length), started,
                      dt.datetime.fromtimestamp(end, dt.UTC), end - t, extra, False)


def _actions(actions: Iterable[ClockAction | Mapping[str, Any]]) -> list[ClockAction]:
    return [a if isinstance(a, ClockAction) else ClockAction.of(a) for a in actions]


def check(actions: Iterable[ClockAction | Mapping[str, Any]], new: ClockAction, *,
          length: int) -> None:
    """R26: refuse `new` after `actions` (in order) with a `TournamentError` in plain words
    when it makes no sense then ("The clock is already paused."); the rules are in this
    module's docstring. `length`: the sitting's length in seconds (it says when time is up)."""
    if new.action not in ACTIONS:
        raise TournamentError(_("The clock cannot be told {action}.").format(
            action=repr(new.action)))
    if new.action in ("extend", "extend_table") and int(new.seconds) <= 0:
        raise TournamentError(_("Give more time in whole minutes, at least one."))
    if new.action == "extend_table" and (new.table_no is None or int(new.table_no) < 1):
        raise TournamentError(_("Choose the table that gets more time."))
    before = _actions(actions)
    fold = _fold(before, int(length))
    t = _seconds(new.at) if fold.last is None else max(_seconds(new.at), fold.last)
    if fold.started is None:
        if new.action != "start":
            raise TournamentError(_("The clock has not started yet: start it first."))
        return
    if new.action == "start":
        raise TournamentError(_("The clock has started already."))
    if fold.everyone_up(int(length), t):
        if new.action != "extend_table":
            raise TournamentError(_("Time has been called already: only one table can be "
                                    "given more time now."))
        return
    if new.action == "pause" and fold.paused_since is not None:
        raise TournamentError(_("The clock is already paused."))
    if new.action == "resume" and fold.paused_since is None:
        raise TournamentError(_("The clock is running: there is nothing to resume."))


def minutes_words(seconds: float) -> str:
    """R26: "1:05:09", "42:07", "05:00": time left as a clock shows it (whole seconds,
    rounded up, so 00:00 shows only when time is up)."""
    whole = int(-(-max(0.0, seconds) // 1))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes:02d}:{secs:02d}"
