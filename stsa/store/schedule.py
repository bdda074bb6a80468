"""The schedule as the store keeps it (R26): the tournament's planned sittings and other items
(a player meeting, lunch, the prize giving), each with a start (UTC) and a length in minutes.

The organizer plans, changes and removes items and says "running N minutes late"
(`shift_schedule`); each is one short transaction, checked first (nothing is written when a
value is wrong: the message says what and where) and logged (R19), which moves the data
version. A sitting's item takes the `sitting_minutes` setting as its length unless told.
Overlapping sittings are saved: `stsa.services.schedule` warns about them.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pandas as pd
import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from stsa import i18n, local_time
from stsa import schedule as plan
from stsa.auth import Actor, require
from stsa.domain import Action, Kind, Role, TournamentError, is_whole, sitting_label
from stsa.i18n import N_, _
from stsa.store import admin, audit, checks, db, frames, schema
from stsa.store.errors import NotFound

TITLE_MAX = 100  # what the title column holds
OTHER = plan.OTHER  # the kind of an item that is not a sitting (stored as no kind)
ITEM_COLUMNS = {"item_id": "int64", "title": "str", "sitting_kind": "object",
                "sitting_number": "Int64", "starts_at": frames.UTC_TIME, "minutes": "int64",
                "updated_by": "str", "updated_at": frames.UTC_TIME}
_KEEP: Any = object()  # an argument not given: the item keeps what it has
items_t = schema.schedule_items


def _shown(value: Any) -> str:
    """A value as a message quotes it: numbers as they are, text quoted and cut short."""
    if isinstance(value, str):
        return repr(value[:40])
    return repr(value) if is_whole(value) or isinstance(value, float) else repr(str(value)[:40])


def _kind(value: Any, where: str) -> str | None:
    if value is None or (isinstance(value, str) and value.strip().casefold() in ("", OTHER)):
        return None
    kinds = {k.value for k in Kind}
    text = value.strip().casefold() if isinstance(value, str) else value
    if text not in kinds:
        raise TournamentError(_("{where}: {value} is not a kind of item; choose qualifier, "
                                "semifinal, final or other.").format(where=where,
                                                                    value=_shown(value)))
    return str(text)


def _number(value: Any, kind: str | None, where: str) -> int | None:
    if kind is None:
        return None
    if value is None and kind != Kind.QUALIFIER:
        return 1  # the semifinal and the final are one sitting each
    if not is_whole(value) or value < 1:
        raise TournamentError(_("{where}: the sitting's number must be a whole number from 1, "
                                "not {value}.").format(where=where, value=_shown(value)))
    return int(value)


def _minutes(value: Any, where: str) -> int:
    if not is_whole(value) or not 1 <= value <= plan.MINUTES_MAX:
        raise TournamentError(_("{where}: the length must be a whole number of minutes from 1 "
                                "to {most}, not {value}.").format(
            where=where, most=plan.MINUTES_MAX, value=_shown(value)))
    return int(value)


def _start(value: Any, where: str) -> dt.datetime:
    if isinstance(value, pd.Timestamp) and value is not pd.NaT:
        value = value.to_pydatetime()
    if not isinstance(value, dt.datetime) or value.tzinfo is None:
        raise TournamentError(_("{where}: the start must be a date and time (with its time "
                                "zone), not {value}.").format(where=where, value=_shown(value)))
    return value.astimezone(dt.UTC)


def _title(value: Any, kind: str | None, number: int | None, where: str) -> str:
    title = checks.text(value, "title", TITLE_MAX, where)
    if not title and kind is not None:
        return sitting_label(kind, number or 1)
    if not title:
        raise TournamentError(_("{where}: the title is empty; say what the item is (Lunch, "
                                "Prize giving …).").format(where=where))
    return title


def _where(title: Any, kind: Any = None, number: Any = None) -> str:
    named = " ".join(str(title).split())[:40] if isinstance(title, str) and title.strip() \
        else ""
    if not named and kind in {k.value for k in Kind}:
        named = str(i18n.cell(sitting_label(kind, number if is_whole(number) else 1)))
    return _("Schedule item {title}").format(title=repr(named)) if named else _("Schedule item")


def _clean(*, title, starts_at, minutes, sitting_kind, sitting_number, default_minutes: int,
           where: str) -> dict[str, Any]:
    kind = _kind(sitting_kind, where)
    number = _number(sitting_number, kind, where)
    return {"title": _title(title, kind, number, where), "sitting_kind": kind,
            "sitting_number": number, "starts_at": _start(starts_at, where),
            "minutes": _minutes(default_minutes if minutes is None else minutes, where)}


def check_item(row: dict[str, Any], where: str) -> None:
    """R26: a stored item as a restore brings it (`title, sitting_kind, sitting_number,
    minutes`, its start a time): checked as planning it checks, a `TournamentError` saying
    what is wrong."""
    kind = _kind(row.get("sitting_kind"), where)
    if kind is None and row.get("sitting_number") is not None:
        raise TournamentError(_("{where}: an item that is not a sitting has no number.").format(
            where=where))
    _number(row.get("sitting_number"), kind, where)
    if not checks.text(row.get("title"), "title", TITLE_MAX, where):
        raise TournamentError(_("{where}: the title is empty.").format(where=where))
    _minutes(row.get("minutes"), where)


def _logged(row: dict[str, Any], tz: dt.tzinfo) -> dict[str, Any]:
    """An item as the log keeps it: its values, and its start in words (English: the log's
    data is the same whoever wrote it)."""
    with i18n.language(i18n.ENGLISH):
        starts = local_time.day_words(row["starts_at"], tz)
    return {"title": row["title"], "sitting_kind": row["sitting_kind"],
            "sitting_number": row["sitting_number"], "starts_at": row["starts_at"],
            "minutes": int(row["minutes"]), "starts": starts}


def _taken(conn: Connection, kind: str | None, number: int | None, item_id: int | None,
           where: str) -> None:
    if kind is None:
        return
    q = sa.select(items_t.c.id).where(items_t.c.sitting_kind == kind,
                                      items_t.c.sitting_number == number)
    if item_id is not None:
        q = q.where(items_t.c.id != item_id)
    if conn.execute(q).first() is not None:
        raise TournamentError(_("{where}: {sitting} is on the schedule already; change that "
                                "item instead.").format(
            where=where, sitting=i18n.cell(sitting_label(kind, number or 1))))


def _row(conn: Connection, item_id: Any) -> dict[str, Any]:
    if not is_whole(item_id):
        raise NotFound(_("There is no schedule item {item}.").format(item=_shown(item_id)))
    return dict(db.lock_row(conn, items_t, int(item_id), "schedule item")._mapping)


def add_schedule_item(engine: Engine, *, title: str = "", starts_at: dt.datetime,
                      minutes: int | None = None, sitting_kind: str | None = None,
                      sitting_number: int | None = None, actor: Actor) -> dict[str, Any]:
    """R26: plan an item (organizer only, R20): a sitting (`sitting_kind` qualifier,
    semifinal or final and its number; its title defaults to its name) or another item
    (`sitting_kind` None or "other"; a title needed). `starts_at` is an aware time;
    `minutes` defaults to the `sitting_minutes` setting. A bad value or a sitting already
    planned raises `TournamentError` and nothing is written. Logged. Returns the item
    (`item_id`, its columns)."""
    require(actor, Role.ORGANIZER, action=N_("plan the schedule"))
    where = _where(title, sitting_kind, sitting_number)

    def work(conn: Connection) -> dict[str, Any]:
        current = admin.typed_settings(conn)
        row = _clean(title=title, starts_at=starts_at, minutes=minutes,
                     sitting_kind=sitting_kind, sitting_number=sitting_number,
                     default_minutes=current.sitting_minutes, where=where)
        _taken(conn, row["sitting_kind"], row["sitting_number"], None, where)
        at = db.now()
        item_id = conn.execute(sa.insert(items_t).values(**row, updated_by=actor.name,
                                                         updated_at=at)
                               .returning(items_t.c.id)).scalar_one()
        audit.log(conn, actor, Action.SCHEDULE_ADD, f"schedule item {item_id}",
                  after=_logged(row, current.zone), at=at)
        return {"item_id": int(item_id), **row, "updated_by": actor.name, "updated_at": at}

    return db.write(engine, work)


def update_schedule_item(engine: Engine, item_id: int, *, title: Any = _KEEP,
                         starts_at: Any = _KEEP, minutes: Any = _KEEP,
                         sitting_kind: Any = _KEEP, sitting_number: Any = _KEEP,
                         actor: Actor) -> dict[str, Any]:
    """R26: change an item (organizer only): whatever is given, the rest kept. Checked as
    `add_schedule_item` checks; nothing changes on a bad value. Logged with before and
    after (R19). Returns the item."""
    require(actor, Role.ORGANIZER, action=N_("change the schedule"))

    def work(conn: Connection) -> dict[str, Any]:
        current = admin.typed_settings(conn)
        old = _row(conn, item_id)
        given = {"title": title, "starts_at": starts_at, "minutes": minutes,
                 "sitting_kind": sitting_kind, "sitting_number": sitting_number}
        merged = {k: old[k] if v is _KEEP else v for k, v in given.items()}
        if sitting_kind is not _KEEP and title is _KEEP and old["sitting_kind"] and \
                old["title"] == sitting_label(old["sitting_kind"], old["sitting_number"]):
            merged["title"] = ""  # a sitting named after itself follows its new name
        where = _where(old["title"])
        row = _clean(**merged, default_minutes=current.sitting_minutes, where=where)
        _taken(conn, row["sitting_kind"], row["sitting_number"], old["id"], where)
        before = {k: old[k] for k in row}
        if before == row:
            return {"item_id": old["id"], **row, "updated_by": old["updated_by"],
                    "updated_at": old["updated_at"]}
        at = db.now()
        conn.execute(sa.update(items_t).where(items_t.c.id == old["id"])
                     .values(**row, updated_by=actor.name, updated_at=at))
        audit.log(conn, actor, Action.SCHEDULE_EDIT, f"schedule item {old['id']}",
                  before=_logged(before, current.zone), after=_logged(row, current.zone), at=at)
        return {"item_id": old["id"], **row, "updated_by": actor.name, "updated_at": at}

    return db.write(engine, work)


def delete_schedule_item(engine: Engine, item_id: int, *, actor: Actor) -> None:
    """R26: take an item off the schedule (organizer only). Logged with what it was."""
    require(actor, Role.ORGANIZER, action=N_("change the schedule"))

    def work(conn: Connection) -> None:
        old = _row(conn, item_id)
        conn.execute(sa.delete(items_t).where(items_t.c.id == old["id"]))
        audit.log(conn, actor, Action.SCHEDULE_REMOVE, f"schedule item {old['id']}",
                  before=_logged(old, admin.typed_settings(conn).zone))

    db.write(engine, work)


def _shift_minutes(value: Any) -> int:
    if not is_whole(value) or value == 0 or abs(value) > plan.MINUTES_MAX:
        raise TournamentError(_("Running late: the minutes must be a whole number from 1 to "
                                "{most} (or down to -{most} to move items earlier), not "
                                "{value}.").format(most=plan.MINUTES_MAX, value=_shown(value)))
    return int(value)


def shift_schedule(engine: Engine, minutes: int, *, at: dt.datetime | None = None,
                   after_item: int | None = None, later_days: bool = False,
                   actor: Actor) -> list[int]:
    """R26, "running N minutes late" (organizer only): every item that starts at or after
    `at`, or after the item `after_item` starts, on the same day in the tournament's zone
    (and on later days too given `later_days`: `stsa.schedule.later_mask`), moves `minutes`
    later (negative: earlier), lengths kept. One transaction, one log entry naming the items
    moved and each one's start before and after (what `undo_shift` puts back). Returns their
    ids (none: nothing written)."""
    require(actor, Role.ORGANIZER, action=N_("change the schedule"))
    minutes = _shift_minutes(minutes)
    if (at is None) == (after_item is None):
        raise TournamentError(_("Running late: say from when (a time or an item) the items "
                                "move."))
    if at is not None:
        at = _start(at, _("Running late"))

    def work(conn: Connection) -> list[int]:
        current = frames.query_frame(conn, _select(), ITEM_COLUMNS)
        if after_item is not None and not (current["item_id"] == after_item).any():
            raise NotFound(_("There is no schedule item {item}.").format(
                item=_shown(after_item)))
        tz = admin.typed_settings(conn).zone
        whole = plan.schedule_frame(current)
        moved = whole.loc[plan.later_mask(whole, at=at, after_item=after_item, tz=tz,
                                          later_days=later_days)]
        if moved.empty:
            return []
        stamp = db.now()
        shifted = plan.shift(moved, minutes, at=moved["starts_at"].min(), later_days=True)
        changes = plan.moves(moved, shifted)
        for item_id, start in zip(changes["item_id"], changes["now"]):
            conn.execute(sa.update(items_t).where(items_t.c.id == int(item_id)).values(
                starts_at=start.to_pydatetime(), updated_by=actor.name, updated_at=stamp))
        titles = plan.labels(moved).tolist()
        with i18n.language(i18n.ENGLISH):  # the log's data, the same whoever wrote it
            since = local_time.day_words(moved["starts_at"].min().to_pydatetime(), tz)
        audit.log(conn, actor, Action.SCHEDULE_SHIFT, "schedule", at=stamp, after={
            "minutes": minutes, "items": [int(i) for i in moved["item_id"]], "titles": titles,
            "from": since, "later_days": bool(later_days),
            "was": _isos(changes["was"]), "now": _isos(changes["now"])})
        return [int(i) for i in moved["item_id"]]

    return db.write(engine, work)


def _isos(starts: pd.Series) -> list[str]:
    return [pd.Timestamp(v).isoformat() for v in starts]


def _last_schedule_event(conn: Connection) -> dict[str, Any] | None:
    """The latest schedule event of the log (`schedule.…`), its `after` parsed; None."""
    events_t = schema.events
    row = conn.execute(sa.select(events_t.c.id, events_t.c.action, events_t.c.after)
                       .where(sa.func.substr(events_t.c.action, 1, 9) == "schedule.")
                       .order_by(events_t.c.id.desc()).limit(1)).first()
    if row is None:
        return None
    return {"event_id": int(row.id), "action": row.action,
            "after": frames.loads(row.after) or {}}


def _move_of(event: dict[str, Any] | None) -> pd.DataFrame | None:
    """The move a shift's log entry records (`item_id, was, now`); None when `event` is not a
    shift that recorded its starts."""
    if event is None or event["action"] != Action.SCHEDULE_SHIFT:
        return None
    after = event["after"]
    if not {"was", "now"} <= set(after):  # logged before undo existed: nothing to put back
        return None
    return pd.DataFrame({"item_id": pd.Series(after["items"], dtype="int64"),
                         "was": pd.to_datetime(pd.Series(after["was"], dtype=object), utc=True),
                         "now": pd.to_datetime(pd.Series(after["now"], dtype=object), utc=True)})


NOTHING_TO_UNDO = N_("There is no move to undo.")
CHANGED_SINCE = N_("The schedule changed after the last move, so it cannot be undone: change "
                   "the times on each item's form instead.")


def last_shift(engine: Engine | Connection, *, actor: Actor) -> dict[str, Any] | None:
    """Issue 33: the last "running late" move an undo would take back (organizer only: it is
    read from the log): its log entry's `event_id, minutes, items, titles, from, later_days`,
    `since` (the first moved item's start before the move, UTC) and `refused`, the English
    reason an undo is refused now ("" when it may be: no schedule change since and every
    item where the move put it). None when there is no such move (none made, or the last
    one was undone)."""
    require(actor, Role.ORGANIZER, action=N_("read the log"))
    with db.reading(engine) as conn:
        found = _last_move(conn)
    if found is None:
        return None
    event, move, refused = found
    return {"event_id": event["event_id"], **{k: event["after"].get(k) for k in (
        "minutes", "items", "titles", "from", "later_days")}, "since": move["was"].min(),
        "refused": refused}


def _last_move(conn: Connection) -> tuple[dict[str, Any], pd.DataFrame, str] | None:
    """The latest move that was not undone, with why an undo is refused ("" if it is not)."""
    events_t = schema.events
    last = _last_schedule_event(conn)
    if last is not None and last["action"] == Action.SCHEDULE_SHIFT:
        move = _move_of(last)
        if move is None:
            return None
        current = plan.schedule_frame(frames.query_frame(conn, _select(), ITEM_COLUMNS))
        refused = "" if plan.undo_conflicts(current, move).empty else CHANGED_SINCE
        return last, move, refused
    shifts = conn.execute(sa.select(events_t.c.id, events_t.c.action, events_t.c.after)
                          .where(events_t.c.action.in_([Action.SCHEDULE_SHIFT,
                                                        Action.SCHEDULE_UNDO]))
                          .order_by(events_t.c.id.desc()).limit(1)).first()
    if shifts is None or shifts.action != Action.SCHEDULE_SHIFT:
        return None  # never moved, or the last move was undone
    event = {"event_id": int(shifts.id), "action": shifts.action,
             "after": frames.loads(shifts.after) or {}}
    move = _move_of(event)
    return None if move is None else (event, move, CHANGED_SINCE)


def undo_shift(engine: Engine, *, actor: Actor) -> list[int]:
    """Issue 33: undo the last "running late" move (organizer only): each item it moved
    starts exactly where it did before it. Refused (`TournamentError`, nothing written) when
    there is none to undo (none made, or undone already), and when the schedule changed
    since: any schedule change logged after it, or an item of it gone or moved since. One
    transaction, logged (`schedule.undo`, naming the items and their starts). Returns the
    ids put back."""
    require(actor, Role.ORGANIZER, action=N_("change the schedule"))

    def work(conn: Connection) -> list[int]:
        found = _last_move(conn)
        if found is None:
            raise TournamentError(_(NOTHING_TO_UNDO))
        event, move, refused = found
        if refused:
            raise TournamentError(_(refused))
        for item_id in move["item_id"]:  # held until commit: a second undo waits, then sees
            _row(conn, int(item_id))     # the items back and is refused below
        current = plan.schedule_frame(frames.query_frame(conn, _select(), ITEM_COLUMNS))
        if not plan.undo_conflicts(current, move).empty:
            raise TournamentError(_(CHANGED_SINCE))
        stamp = db.now()
        for item_id, start in zip(move["item_id"], move["was"]):
            conn.execute(sa.update(items_t).where(items_t.c.id == int(item_id)).values(
                starts_at=start.to_pydatetime(), updated_by=actor.name, updated_at=stamp))
        after = event["after"]
        audit.log(conn, actor, Action.SCHEDULE_UNDO, "schedule", at=stamp, before={
            "event_id": event["event_id"], "now": after["now"]}, after={
            "minutes": after.get("minutes"), "items": after.get("items"),
            "titles": after.get("titles"), "from": after.get("from"), "was": after["was"]})
        return [int(i) for i in move["item_id"]]

    return db.write(engine, work)


def _select():
    return (sa.select(items_t.c.id.label("item_id"), items_t.c.title, items_t.c.sitting_kind,
                      items_t.c.sitting_number, items_t.c.starts_at, items_t.c.minutes,
                      items_t.c.updated_by, items_t.c.updated_at)
            .order_by(items_t.c.starts_at, items_t.c.id))


def schedule_items(engine: Engine | Connection) -> pd.DataFrame:
    """R26: every item, in order of start: `item_id, title, sitting_kind` (None for an item
    that is not a sitting), `sitting_number, starts_at` (UTC), `minutes, updated_by,
    updated_at`. Public: the schedule is for everyone."""
    with db.reading(engine) as conn:
        return frames.query_frame(conn, _select(), ITEM_COLUMNS)
