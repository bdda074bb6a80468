"""What a qualifier sitting's queue depends on besides the roster (R25): which qualifier is
next, its booking list, its planned start (from the schedule) and its check-in deadline."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import pandas as pd

from stsa.domain import Kind, SittingStatus
from stsa.services.snapshot import Snapshot

#: Self check-in opens this long before a qualifier's planned start (it closes at the deadline).
WINDOW_MINUTES = 60


@dataclass(frozen=True)
class SittingPlan:
    """One qualifier sitting's plan: `number` (qualifier N), `starts_at` (UTC, None when not
    on the schedule), `deadline` (the check-in deadline, None without a start) and `booked`
    (its booking list, `player_id, position, booked_at, replaced_by`; `has_list` False when
    it has none) and `opened`: whether the organizer has opened check-in on My seat (what
    decides for a sitting without a planned start)."""

    number: int
    starts_at: dt.datetime | None
    deadline: dt.datetime | None
    booked: pd.DataFrame
    opened: bool = False

    @property
    def has_list(self) -> bool:
        return len(self.booked) > 0

    def deadline_passed(self, now: dt.datetime) -> bool:
        """R25: whether check-in has closed: the deadline has passed; without a planned start,
        whenever the organizer has not opened check-in on My seat."""
        if self.deadline is None:
            return not self.opened
        return now >= self.deadline

    def window(self) -> tuple[dt.datetime, dt.datetime] | None:
        """R25: when self check-in opens and closes (`WINDOW_MINUTES` before the planned start
        until the deadline); None for a sitting without a planned start (the organizer opens
        and closes it: `opened`)."""
        if self.starts_at is None or self.deadline is None:
            return None
        return self.starts_at - dt.timedelta(minutes=WINDOW_MINUTES), self.deadline

    def window_open(self, now: dt.datetime) -> bool:
        """R25: self check-in is open from `WINDOW_MINUTES` before the planned start until
        the deadline; for a sitting without a planned start, while the organizer has opened
        it (Roster page)."""
        window = self.window()
        if window is None:
            return self.opened
        return window[0] <= now < window[1]


def next_qualifier(snap: Snapshot) -> int:
    """The number of the qualifier sitting checked in for now (R2, R25): a drawn qualifier not yet
    published (it may be drawn again), else the one after the latest qualifier drawn."""
    sittings = snap.sittings
    qualifiers = sittings.loc[sittings["kind"] == Kind.QUALIFIER]
    drawn = qualifiers.loc[qualifiers["status"] == SittingStatus.DRAWN, "number"]
    if len(drawn):
        return int(drawn.iloc[-1])
    return int(qualifiers["number"].max()) + 1 if len(qualifiers) else 1


def plan_of(snap: Snapshot, number: int) -> SittingPlan:
    """R25: qualifier `number`'s booking list (withdrawn players left out: no seat is held for
    them), planned start and check-in deadline (`check_in_minutes` before the start)."""
    booked = snap.bookings
    booked = booked.loc[(booked["sitting_number"] == int(number))
                        & ~booked["withdrawn"]].reset_index(drop=True)
    starts = snap.planned_starts
    row = starts.loc[starts["sitting_number"] == int(number), "starts_at"]
    start = row.iloc[0].to_pydatetime() if len(row) else None
    deadline = (None if start is None
                else start - dt.timedelta(minutes=int(snap.settings.check_in_minutes)))
    return SittingPlan(int(number), start, deadline, booked,
                       bool(snap.settings.self_check_in_open))


def queue_inputs(plan: SittingPlan, now: dt.datetime) -> dict:
    """The `bookings` and `deadline` arguments of `rules.seat_queue` for `plan` at `now` (R25):
    no list, no bookings (R21's registration order applies); the deadline only once it has
    passed (without a planned start: `now`, once the organizer has closed check-in)."""
    if not plan.has_list:
        return {"bookings": None, "deadline": None}
    closed = pd.Timestamp(plan.deadline or now) if plan.deadline_passed(now) else None
    return {"bookings": plan.booked[["player_id", "position", "replaced_by"]],
            "deadline": closed}
