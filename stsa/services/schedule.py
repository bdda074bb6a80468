"""The schedule as the pages ask for it (R26): the public schedule with every time in the
tournament's time zone, what comes next ("Next: Lunch at 12:30"), the organizer's plans and
changes with the warnings they call for (sittings that overlap), "running late", a player's
sittings and the calendar files.

Times are entered and shown in the tournament's zone (the `time_zone` setting, else this
laptop's, `Settings.zone`); the store keeps UTC. The shared schedule frame names its items in
English (`label`); what a page shows is named in its reader's language here (`shown_labels`).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from stsa import i18n, local_time, store
from stsa import schedule as plan
from stsa.auth import Actor
from stsa.domain import Kind, TournamentError, sitting_label
from stsa.formats import calendar
from stsa.i18n import N_, _, ngettext
from stsa.settings import Settings

#: What the organizer's form offers as an item's kind, in words.
KIND_CHOICES = {Kind.QUALIFIER.value: N_("Qualifier"), Kind.SEMIFINAL.value: N_("Semifinal"),
                Kind.FINAL.value: N_("Final"), plan.OTHER: N_("Something else")}
#: The public schedule's columns as a day's table shows them (the day is its heading).
SHOWN = {"starts": N_("Starts"), "ends": N_("Ends"), "label": N_("What"),
         "minutes": N_("Minutes")}


@dataclass(frozen=True)
class Outcome:
    """What an organizer's change did: the item (None after a removal or a shift), the ids
    moved by a shift, what to tell them (`done`) and what to warn about (`warnings`)."""

    done: str
    item: dict[str, Any] | None = None
    moved: tuple[int, ...] = ()
    warnings: tuple[str, ...] = field(default_factory=tuple)


def zone(engine) -> dt.tzinfo:
    """The tournament's time zone (R26)."""
    return store.typed_settings(engine).zone


def schedule(engine) -> pd.DataFrame:
    """R26: the schedule frame (`stsa.schedule.schedule_frame`) with each item's `label`
    ("Qualifier 2", "Lunch") and when it last changed (`updated_at`)."""
    items = store.schedule_items(engine)
    frame = plan.schedule_frame(items)
    return frame.assign(label=plan.labels(frame),
                        updated_at=frame["item_id"].map(dict(zip(items["item_id"],
                                                                 items["updated_at"]))))


def shown_label(title: str, kind: Any, number: Any) -> str:
    """An item as people name it (`stsa.schedule.labels`), in this run's language: a sitting
    named after itself by its translated name, else "Qualifier 2: Uprising only"; other items
    by the title they were given."""
    english = (sitting_label(kind, int(number) if pd.notna(number) else 1)
               if isinstance(kind, str) and kind else "")  # no sitting: NaN or None
    if not english:
        return title
    sitting = str(i18n.cell(english))
    if title == english:
        return sitting
    return _("{sitting}: {title}").format(sitting=sitting, title=title)


def shown_labels(frame: pd.DataFrame) -> pd.Series:
    """`shown_label` of each item of a schedule frame."""
    return pd.Series([shown_label(t, k, n) for t, k, n in zip(
        frame["title"], frame["sitting_kind"], frame["sitting_number"])], index=frame.index,
        dtype=object)


def public_schedule(frame: pd.DataFrame, tz: dt.tzinfo) -> pd.DataFrame:
    """R26: the schedule as everyone reads it, in the tournament's zone and this run's
    language: `item_id, day` ("Saturday 7 March"), `starts, ends` ("14:00"), `label,
    minutes`, in order."""
    starts = local_time.column(frame["starts_at"], tz)
    ends = local_time.column(frame["ends_at"], tz)
    days = {d: i18n.day(d, "EEEE d MMMM") for d in starts.dt.date.unique()}
    return pd.DataFrame({"item_id": frame["item_id"], "day": starts.dt.date.map(days),
                         "starts": starts.dt.strftime("%H:%M"),
                         "ends": ends.dt.strftime("%H:%M"), "label": shown_labels(frame),
                         "minutes": frame["minutes"]}).reset_index(drop=True)


def next_words(frame: pd.DataFrame, tz: dt.tzinfo, at: dt.datetime) -> str:
    """R26: "Next: Lunch at 12:30" (the day too when it is not today: "Next: Final at
    Sunday 10:00"); "" when nothing is left on the schedule."""
    item = plan.next_item(frame, at)
    if item is None:
        return ""
    start = item["starts_at"].to_pydatetime()
    same_day = local_time.local(start, tz).date() == local_time.local(at, tz).date()
    return _next_sentence(item, tz, same_day)


def _next_sentence(item: Mapping[str, Any], tz: dt.tzinfo, same_day: bool) -> str:
    start = pd.Timestamp(item["starts_at"]).to_pydatetime()
    when = local_time.clock_words(start, tz) if same_day else local_time.day_words(start, tz)
    return _("Next: {item} at {time}").format(
        item=shown_label(item["title"], item["sitting_kind"], item["sitting_number"]),
        time=when)


def coming_up(frame: pd.DataFrame, tz: dt.tzinfo) -> list[dict[str, str]]:
    """R26: `next_words` for a browser to choose by its own clock: each item in schedule
    order with its start (`starts_at`, ISO with offset), its day in the tournament's zone
    (`date`, "2027-03-06") and the line said on that day (`today`: "Next: Lunch at 12:30")
    or on another (`later`: "Next: Final at Sunday 10:00"). The next item is the first
    that starts at or after now (`stsa.schedule.next_item`)."""
    items = frame.sort_values(["starts_at", "item_id"], kind="stable").to_dict("records")
    return [{"starts_at": pd.Timestamp(item["starts_at"]).isoformat(),
             "date": local_time.local(pd.Timestamp(item["starts_at"]).to_pydatetime(),
                                      tz).date().isoformat(),
             "today": _next_sentence(item, tz, True), "later": _next_sentence(item, tz, False)}
            for item in items]


def overlap_warnings(frame: pd.DataFrame, tz: dt.tzinfo,
                     item_id: int | None = None) -> tuple[str, ...]:
    """R26: each pair of overlapping sittings in words ("Qualifier 2 (11:00–13:30) overlaps
    Qualifier 1 (09:00–11:30)"), only those with `item_id` when given."""
    pairs = plan.overlaps(frame)
    if item_id is not None:
        pairs = pairs.loc[pairs["item_id"].eq(item_id) | pairs["other_id"].eq(item_id)]
    by_id = frame.set_index("item_id")

    def span(i: int) -> str:
        row = by_id.loc[i]
        return _("{item} ({start}–{end})").format(
            item=shown_label(row["title"], row["sitting_kind"], row["sitting_number"]),
            start=local_time.day_words(row["starts_at"], tz),
            end=local_time.clock_words(row["ends_at"], tz))

    return tuple(_("{item} overlaps {other}: the same players cannot play both.").format(
        item=span(a), other=span(b)) for a, b in pairs.itertuples(index=False, name=None))


def start_of(day: dt.date, at: dt.time, tz: dt.tzinfo) -> dt.datetime:
    """A day and a time of day typed in the tournament's zone, as an aware time."""
    if not isinstance(day, dt.date) or not isinstance(at, dt.time):
        raise TournamentError(_("Schedule item: give the day and the time it starts."))
    return dt.datetime.combine(day, at.replace(tzinfo=None)).replace(tzinfo=tz)


def _values(kind: str, number: Any, title: str, starts_at: dt.datetime,
            minutes: int | None) -> dict[str, Any]:
    sitting = kind in {k.value for k in Kind}
    return {"sitting_kind": kind if sitting else None,
            "sitting_number": (number if kind == Kind.QUALIFIER else 1) if sitting else None,
            "title": title, "starts_at": starts_at, "minutes": minutes}


def _changed(engine, item: dict[str, Any], done: str) -> Outcome:
    tz = zone(engine)
    return Outcome(done=done, item=item,
                   warnings=overlap_warnings(schedule(engine), tz, item["item_id"]))


def plan_item(engine, *, kind: str, number: Any = None, title: str = "",
              starts_at: dt.datetime, minutes: int | None = None, actor: Actor) -> Outcome:
    """R26: put an item on the schedule (organizer only): `kind` qualifier, semifinal, final
    or other; a qualifier's `number`; a title (a sitting's defaults to its name); an aware
    start; `minutes` (None: the `sitting_minutes` setting). Saved even when it overlaps
    another sitting: the outcome warns."""
    item = store.add_schedule_item(engine, **_values(kind, number, title, starts_at, minutes),
                                   actor=actor)
    when = local_time.day_words(item["starts_at"], zone(engine))
    return _changed(engine, item, _("Planned {item} for {time}.").format(item=_label(item),
                                                                           time=when))


def edit_item(engine, item_id: int, *, kind: str, number: Any = None, title: str = "",
              starts_at: dt.datetime, minutes: int, actor: Actor) -> Outcome:
    """R26: change an item (organizer only), as `plan_item` takes it; warns like it."""
    item = store.update_schedule_item(engine, item_id,
                                      **_values(kind, number, title, starts_at, minutes),
                                      actor=actor)
    return _changed(engine, item, _("Saved {item}.").format(item=_label(item)))


def remove_item(engine, item_id: int, *, actor: Actor) -> Outcome:
    """R26: take an item off the schedule (organizer only)."""
    store.delete_schedule_item(engine, item_id, actor=actor)
    return Outcome(done=_("Taken off the schedule."))


def running_late(engine, minutes: int, *, at: dt.datetime | None = None,
                 after_item: int | None = None, later_days: bool = False,
                 actor: Actor) -> Outcome:
    """R26, "running N minutes late" (organizer only): every item that starts at or after
    `at` (or after `after_item` starts) on the same day in the tournament's zone, and on the
    later days too given `later_days`, moves `minutes` later; logged (`undo_last_move` takes
    it back). Warns about the overlaps the move leaves."""
    moved = store.shift_schedule(engine, minutes, at=at, after_item=after_item,
                                 later_days=later_days, actor=actor)
    if not moved:
        return Outcome(done=_("Nothing starts later: the schedule is unchanged."))
    done = (_("Moved {items} {minutes} later.") if minutes > 0 else
            _("Moved {items} {minutes} earlier.")).format(items=_items(len(moved)),
                                                          minutes=_minutes(minutes))
    return Outcome(done=done, moved=tuple(moved),
                   warnings=overlap_warnings(schedule(engine), zone(engine)))


def _items(count: int) -> str:
    return ngettext("{count} item", "{count} items", count).format(count=count)


def _minutes(minutes: int) -> str:
    return ngettext("{count} minute", "{count} minutes", abs(minutes)).format(
        count=abs(minutes))


@dataclass(frozen=True)
class LastMove:
    """Issue 33: the last "running late" move, as the organizer's undo offers it: in words
    (`words`), whether it may be undone now (`undoable`) and else why not (`reason`)."""

    words: str
    undoable: bool
    reason: str


def last_move(engine, *, actor: Actor) -> LastMove | None:
    """Issue 33: the last "running late" move still to undo (organizer only), None when
    there is none (none made, or undone already): "Last move: 3 items 20 minutes later, from
    Saturday 17:00 on."; refused once the schedule changed since (`store.undo_shift`)."""
    found = store.last_shift(engine, actor=actor)
    if found is None:
        return None
    minutes = int(found["minutes"] or 0)
    count = len(found["items"] or [])
    words = (_("Last move: {items} {minutes} later, from {start} on.") if minutes > 0 else
             _("Last move: {items} {minutes} earlier, from {start} on.")).format(
        items=_items(count), minutes=_minutes(minutes),
        start=local_time.day_words(found["since"].to_pydatetime(), zone(engine)))
    refused = str(found["refused"] or "")  # English (`store.schedule.CHANGED_SINCE`)
    return LastMove(words=words, undoable=not refused, reason=_(refused) if refused else "")


def undo_last_move(engine, *, actor: Actor) -> Outcome:
    """Issue 33: undo the last "running late" move (organizer only): its items start exactly
    where they did before it; refused with the reason (`TournamentError`, nothing written)
    when there is none, or the schedule changed since. Logged."""
    back = store.undo_shift(engine, actor=actor)
    done = ngettext("Undone: {items} is back at its time before the move.",
                    "Undone: {items} are back at their times before the move.",
                    len(back)).format(items=_items(len(back)))
    return Outcome(done=done, moved=tuple(back),
                   warnings=overlap_warnings(schedule(engine), zone(engine)))


def tournament_days(settings: Settings, frame: pd.DataFrame) -> tuple[str | None, str | None]:
    """Issue 33: the tournament's first and last day ("2026-03-07") as the feed and the list
    of tournaments give them: once items are planned, the days of its first and its last item
    in its time zone (`stsa.schedule.days`); before, the days the organizer gave (or None)."""
    first, last = plan.days(frame, settings.zone)
    if first is None or last is None:
        return settings.starts_on or None, settings.ends_on or None
    return first.isoformat(), last.isoformat()


def _label(item: dict[str, Any]) -> str:
    return shown_label(item["title"], item.get("sitting_kind"), item.get("sitting_number") or 1)


# --- a player's sittings and the calendars ------------------------------------------------------
def sittings_of(frame: pd.DataFrame, include: Iterable[tuple[str, int]]) -> pd.DataFrame:
    """R26: the schedule's items for the sittings `include` names ((kind, number) pairs: the
    sittings a player plays or has booked), in order."""
    wanted = pd.DataFrame(list(include), columns=["sitting_kind", "sitting_number"])
    keys = wanted.astype({"sitting_kind": object}).assign(
        sitting_number=lambda d: d["sitting_number"].astype("int64"), wanted=True)
    planned = plan.sittings(frame)
    return (planned.assign(sitting_number=planned["sitting_number"].astype("int64"))
            .merge(keys.drop_duplicates(), on=["sitting_kind", "sitting_number"], how="inner")
            .drop(columns="wanted")
            .assign(sitting_number=lambda d: d["sitting_number"].astype("Int64"))
            .sort_values(["starts_at", "item_id"]).reset_index(drop=True))


def player_sitting_keys(engine, player_id: int, frame: pd.DataFrame) -> list[tuple[str, int]]:
    """R26: the sittings a player's calendar holds: every published sitting they have a seat
    in, and every qualifier on the schedule not drawn yet that they booked (R25) or that has
    no booking list (any player may play it, R2)."""
    seats = store.seats(engine, actor=None)
    mine = seats.loc[seats["player_id"].eq(int(player_id)), ["kind", "sitting_no"]]
    drawn = store.sittings(engine, actor=None)
    drawn_keys = set(zip(drawn["kind"], drawn["number"].astype(int)))
    planned = plan.sittings(frame)
    booked = store.bookings(engine)
    listed = set(booked["sitting_number"].astype(int))
    mine_booked = set(booked.loc[booked["player_id"].eq(int(player_id)),
                                 "sitting_number"].astype(int))
    open_qualifiers = [(k, int(n)) for k, n in zip(planned["sitting_kind"],
                                                   planned["sitting_number"])
                       if k == Kind.QUALIFIER and (k, int(n)) not in drawn_keys
                       and (int(n) in mine_booked or int(n) not in listed)]
    mine = mine.drop_duplicates()
    seated = [(str(k), int(n)) for k, n in zip(mine["kind"], mine["sitting_no"])]
    return list(dict.fromkeys([*seated, *open_qualifiers]))


def tournament_calendar(engine, frame: pd.DataFrame | None = None) -> bytes:
    """R26: the whole schedule as a calendar file (.ics), in the tournament's zone."""
    current = store.typed_settings(engine)
    frame = schedule(engine) if frame is None else frame
    frame = frame.assign(label=shown_labels(frame))  # the events named in the reader's words
    return calendar.calendar_ics(frame, tournament=current.tournament_name,
                                 calendar_name=current.tournament_name, tz=current.zone)


def player_calendar(engine, player_id: int, nickname: str,
                    include: Iterable[tuple[str, int]] | None = None) -> bytes:
    """R26: one player's sittings as a calendar file (.ics): those `include` names, else
    `player_sitting_keys`. Named by the player's nickname only (R22)."""
    current = store.typed_settings(engine)
    frame = schedule(engine)
    keys = player_sitting_keys(engine, player_id, frame) if include is None else include
    mine = sittings_of(frame, keys)
    mine = mine.assign(label=shown_labels(mine))  # the events named in the reader's words
    name = f"{nickname} · {current.tournament_name}"  # i18n: as is (two names)
    notes = {int(i): _("{player}'s sitting at {tournament}").format(
        player=nickname, tournament=current.tournament_name) for i in mine["item_id"]}
    return calendar.calendar_ics(mine, tournament=current.tournament_name,
                                 calendar_name=name, tz=current.zone, descriptions=notes)
