"""The tournament's schedule as pandas (R26): its sittings and other items (a player meeting,
lunch, the prize giving) in time. Pure and vectorized: no I/O, no clock of its own (every
function is told the time), no row-wise loops.

A schedule frame has one row per item: `item_id, title, sitting_kind, sitting_number,
starts_at, ends_at, minutes` (`starts_at`/`ends_at` UTC-aware; `sitting_kind` None for an item
that is not a sitting), ordered by start, then id. The store keeps the items; this module
answers what the pages and the store ask of them: which sittings overlap, which items end
before they start, what comes next, and "running N minutes late".
"""

from __future__ import annotations

import datetime as dt

import pandas as pd

from stsa.domain import sitting_label

COLUMNS = ["item_id", "title", "sitting_kind", "sitting_number", "starts_at", "ends_at",
           "minutes"]
OTHER = "other"  # the kind of an item that is not a sitting (stored as no kind)
MINUTES_MAX = 1440  # one day: the longest an item (or a shift) may be


def _ordered(frame: pd.DataFrame) -> pd.DataFrame:
    return frame.sort_values(["starts_at", "item_id"], kind="stable").reset_index(drop=True)


def schedule_frame(items: pd.DataFrame) -> pd.DataFrame:
    """R26: the schedule frame of the store's items (`item_id` or `id`, `title`,
    `sitting_kind`, `sitting_number`, `starts_at`, `minutes`): each item's end added
    (`ends_at` = start + minutes), times as UTC, in order of start then id."""
    items = items.rename(columns={"id": "item_id"})
    return (items.reindex(columns=[c for c in COLUMNS if c != "ends_at"])
            .assign(item_id=lambda d: d["item_id"].astype("int64"),
                    starts_at=lambda d: pd.to_datetime(d["starts_at"], utc=True),
                    minutes=lambda d: d["minutes"].astype("int64"),
                    sitting_kind=lambda d: d["sitting_kind"].astype(object)
                    .where(d["sitting_kind"].notna(), None),
                    sitting_number=lambda d: d["sitting_number"].astype("Int64"))
            .assign(ends_at=lambda d: d["starts_at"] + pd.to_timedelta(d["minutes"], unit="min"))
            [COLUMNS]
            .pipe(_ordered))


def labels(frame: pd.DataFrame) -> pd.Series:
    """Each item as people name it: a sitting by its name ("Qualifier 2") when its title is
    just that, else its title ("Qualifier 2: Uprising only"); other items by their title."""
    sitting = pd.Series([sitting_label(k, n) if k else ""
                         for k, n in zip(frame["sitting_kind"], frame["sitting_number"])],
                        index=frame.index, dtype=object)
    return frame["title"].where(sitting.eq("") | frame["title"].eq(sitting),
                                sitting + ": " + frame["title"])


def sittings(frame: pd.DataFrame) -> pd.DataFrame:
    """The items that are sittings (a kind and a number)."""
    return frame.loc[frame["sitting_kind"].notna()]


def overlaps(frame: pd.DataFrame) -> pd.DataFrame:
    """R26: every pair of sittings whose times overlap (one starts before the other ends; one
    that ends as the next starts does not), as `item_id, other_id`, the earlier-ordered item
    first, in schedule order. Other items (lunch beside a sitting) never count."""
    planned = sittings(frame).reset_index(drop=True).assign(order=lambda d: d.index)
    pairs = planned.merge(planned, how="cross", suffixes=("", "_other"))
    clash = ((pairs["order"] < pairs["order_other"])
             & (pairs["starts_at"] < pairs["ends_at_other"])
             & (pairs["starts_at_other"] < pairs["ends_at"]))
    return (pairs.loc[clash, ["item_id", "item_id_other", "order", "order_other"]]
            .sort_values(["order", "order_other"])
            .rename(columns={"item_id_other": "other_id"})[["item_id", "other_id"]]
            .astype("int64").reset_index(drop=True))


def ends_before_start(frame: pd.DataFrame) -> pd.DataFrame:
    """R26: the items that end before (or as) they start: a length under one minute."""
    return frame.loc[frame["minutes"].lt(1) | frame["ends_at"].le(frame["starts_at"])]


def next_item(frame: pd.DataFrame, at: dt.datetime) -> pd.Series | None:
    """R26: the next item at time `at`: the first (by start, then id) that starts at or after
    `at`; None when nothing is left."""
    ahead = frame.loc[frame["starts_at"].ge(pd.Timestamp(at))].pipe(_ordered)
    return None if ahead.empty else ahead.iloc[0]


def running(frame: pd.DataFrame, at: dt.datetime) -> pd.DataFrame:
    """R26: the items going on at `at` (started, not yet ended)."""
    when = pd.Timestamp(at)
    return frame.loc[frame["starts_at"].le(when) & frame["ends_at"].gt(when)]


def local_days(frame: pd.DataFrame, tz: dt.tzinfo) -> pd.Series:
    """Each item's day as the room reads it: the date of its start in the zone `tz`."""
    return frame["starts_at"].dt.tz_convert(tz).dt.date


def days(frame: pd.DataFrame, tz: dt.tzinfo) -> tuple[dt.date | None, dt.date | None]:
    """R26, R27: the schedule's first and last day in the zone `tz` (the days its first and
    its last item start); (None, None) for an empty schedule."""
    if frame.empty:
        return None, None
    found = local_days(frame, tz)
    return found.min(), found.max()


def later_mask(frame: pd.DataFrame, *, at: dt.datetime | None = None,
               after_item: int | None = None, tz: dt.tzinfo = dt.UTC,
               later_days: bool = False) -> pd.Series:
    """Which items "running late" moves: those that start at or after `at`, or (given
    `after_item`) those that start after that item starts (the item itself and the ones
    beside it stay). Only those on the same day as `at` (or the item's start) in the zone
    `tz`, unless `later_days`: a room running late on Saturday does not move Sunday (issue
    33). Exactly one of `at` and `after_item` is given; an unknown item moves nothing."""
    if (at is None) == (after_item is None):
        raise ValueError("give either a time or an item")
    if at is not None:
        start = pd.Timestamp(at)
        later = frame["starts_at"].ge(start)
    else:
        found = frame.loc[frame["item_id"].eq(after_item), "starts_at"]
        if found.empty:
            return pd.Series(False, index=frame.index)
        start = found.iloc[0]
        later = frame["starts_at"].gt(start)
    if later_days:
        return later
    return later & local_days(frame, tz).eq(start.tz_convert(tz).date())


def shift(frame: pd.DataFrame, minutes: int, *, at: dt.datetime | None = None,
          after_item: int | None = None, tz: dt.tzinfo = dt.UTC,
          later_days: bool = False) -> pd.DataFrame:
    """R26, "running N minutes late": the schedule with every later item (`later_mask`: the
    same day in `tz` only, unless `later_days`) moved `minutes` later (earlier when
    negative), lengths kept, in schedule order again."""
    moved = later_mask(frame, at=at, after_item=after_item, tz=tz, later_days=later_days)
    delta = pd.to_timedelta(moved.astype("int64") * int(minutes), unit="min")
    return (frame.assign(starts_at=frame["starts_at"] + delta, ends_at=frame["ends_at"] + delta)
            .pipe(_ordered))


def moves(before: pd.DataFrame, after: pd.DataFrame) -> pd.DataFrame:
    """What a move changed: `item_id, was, now` (UTC starts) of every item whose start differs
    between the schedule frames `before` and `after`, in `before`'s order."""
    paired = before[["item_id", "starts_at"]].merge(
        after[["item_id", "starts_at"]], on="item_id", suffixes=("", "_now"))
    changed = paired.loc[paired["starts_at"].ne(paired["starts_at_now"])]
    return (changed.rename(columns={"starts_at": "was", "starts_at_now": "now"})
            [["item_id", "was", "now"]].reset_index(drop=True))


def undo_conflicts(frame: pd.DataFrame, moved: pd.DataFrame) -> pd.DataFrame:
    """Issue 33: the items of a move (`moves`) an undo cannot put back: gone from `frame`, or
    no longer starting where the move put them (`item_id, was, now, starts_at`: the start now,
    NaT when gone). Empty: the move can be undone."""
    found = moved.merge(frame[["item_id", "starts_at"]], on="item_id", how="left")
    return found.loc[found["starts_at"].isna() | found["starts_at"].ne(found["now"])] \
        .reset_index(drop=True)


def undo(frame: pd.DataFrame, moved: pd.DataFrame) -> pd.DataFrame:
    """Issue 33: `frame` with the move `moved` (`moves`) undone: each of its items starts
    where it did before it (`was`), exactly; the others as they are. A `ValueError` when the
    items moved again or went since (`undo_conflicts`)."""
    if not undo_conflicts(frame, moved).empty:
        raise ValueError("the schedule changed since the move")
    was = frame["item_id"].map(dict(zip(moved["item_id"], moved["was"])))
    starts = pd.to_datetime(was, utc=True).fillna(frame["starts_at"])
    return (frame.assign(starts_at=starts,
                         ends_at=starts + pd.to_timedelta(frame["minutes"], unit="min"))
            .pipe(_ordered))
