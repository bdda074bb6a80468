"""Each sitting's clock (R26), kept as its actions: start, pause, resume, extend everyone,
extend one table (with a reason), call time. The table is append-only like the log; the state
is the actions folded in order (`stsa.clock.state`), so every screen and every process reads
the same clock, and a restart loses nothing.

An action is appended in one short transaction that locks the sitting's row first, reads the
actions so far and checks the new one against them (`stsa.clock.check`): two judges pressing
Start at once give one start and one clear refusal. Judges and the organizer only, on a
published sitting; every action is logged (R19), so it moves the data version and every page
reads the new clock at its next refresh.
"""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from stsa import clock, i18n
from stsa.auth import Actor, require
from stsa.domain import Action, Role, SittingStatus, TournamentError, sitting_label
from stsa.i18n import N_, _
from stsa.settings import current as current_settings
from stsa.store import audit, db, frames
from stsa.store.errors import InvalidState
from stsa.store.schema import clock_actions as clock_t
from stsa.store.schema import schedule_items as schedule_t
from stsa.store.schema import settings as settings_t
from stsa.store.schema import sittings as sittings_t
from stsa.store.schema import tables as tables_t

MAX_REASON = 200
MAX_MINUTES = 600  # one extension at most: ten hours


def _reason(reason: str | None) -> str:
    reason = " ".join(str(reason or "").split())
    if len(reason) > MAX_REASON:
        raise TournamentError(_("The reason is longer than {count} characters.").format(
            count=MAX_REASON))
    return reason


def sitting_seconds(conn: Connection, kind: str, number: int) -> int:
    """R26: a sitting's length in seconds: its schedule item's minutes when the schedule has
    one for it, else the `sitting_minutes` setting."""
    planned = conn.execute(sa.select(schedule_t.c.minutes).where(
        schedule_t.c.sitting_kind == str(kind),
        schedule_t.c.sitting_number == int(number))).scalar()
    if planned:
        return int(planned) * 60
    stored = {r.key: frames.loads(r.value) for r in conn.execute(
        sa.select(settings_t).where(settings_t.c.key == "sitting_minutes"))}
    return int(current_settings(stored)["sitting_minutes"]) * 60


def _actions(conn: Connection, sitting_id: int) -> list[clock.ClockAction]:
    rows = conn.execute(sa.select(clock_t).where(clock_t.c.sitting_id == int(sitting_id))
                        .order_by(clock_t.c.id))
    return [clock.ClockAction.of(dict(row._mapping)) for row in rows]


def clock_actions(engine: Engine | Connection, sitting_id: int) -> list[clock.ClockAction]:
    """R26: a sitting's clock actions in the order they were taken (anyone may read them:
    the clock is public)."""
    with db.reading(engine) as conn:
        return _actions(conn, sitting_id)


def clock_state(engine: Engine | Connection, sitting_id: int, *, now=None) -> clock.ClockState:
    """R26: a sitting's clock at `now` (default: this moment), read in one snapshot."""
    with db.reading(engine) as conn:
        sitting = conn.execute(sa.select(sittings_t).where(
            sittings_t.c.id == int(sitting_id))).one()
        length = sitting_seconds(conn, sitting.kind, sitting.number)
        return clock.state(_actions(conn, sitting_id), length=length, now=now or db.now())


_WORDS = {"start": "Started", "pause": "Paused", "resume": "Resumed",
          "extend": "Gave everyone more time", "extend_table": "Gave one table more time",
          "call": "Called time"}


def clock_action(engine: Engine, sitting_id: int, action: str, *, actor: Actor,
                 minutes: int = 0, table_no: int | None = None,
                 reason: str = "") -> clock.ClockState:
    """R26: tell a published sitting's clock `action` (`stsa.clock.ACTIONS`): `minutes` for
    the extensions, `table_no` and a `reason` for one table's. Judges and the organizer only;
    refused in plain words when it makes no sense after the actions so far (`clock.check`).
    One transaction with the sitting's row locked; logged. Returns the clock after it."""
    require(actor, Role.JUDGE, Role.ORGANIZER, action=N_("run the clock"))
    if action not in clock.ACTIONS:
        raise TournamentError(_("The clock cannot be told {action}.").format(action=repr(action)))
    extends = action in ("extend", "extend_table")
    try:
        minutes = int(minutes) if extends else 0
    except (TypeError, ValueError):
        raise TournamentError(_("Give more time in whole minutes.")) from None
    if extends and not 1 <= minutes <= MAX_MINUTES:
        raise TournamentError(_("Give more time in whole minutes, 1 to {count}.").format(
            count=MAX_MINUTES))
    reason = _reason(reason)
    if action == "extend_table" and not reason:
        raise TournamentError(_("Say why this table gets more time (the reason is logged)."))

    def work(conn: Connection) -> clock.ClockState:
        sitting = db.lock_row(conn, sittings_t, int(sitting_id), "sitting")
        label = sitting_label(sitting.kind, sitting.number)  # English: the log keeps it
        shown = i18n.cell(label)  # the messages' words
        if sitting.status == SittingStatus.DRAWN:
            raise InvalidState(_("{sitting} is not published yet: its clock starts once it "
                                 "is.").format(sitting=shown))
        table = None
        if action == "extend_table":
            table = int(table_no) if table_no is not None else None
            known = conn.execute(sa.select(tables_t.c.table_no).where(
                tables_t.c.sitting_id == sitting.id, tables_t.c.table_no == table)).scalar()
            if table is None or known is None:
                raise TournamentError(_("{sitting} has no table {table}.").format(
                    sitting=shown, table=table_no))
        length = sitting_seconds(conn, sitting.kind, sitting.number)
        before = _actions(conn, sitting.id)
        at = db.now()
        new = clock.ClockAction(action, at, seconds=minutes * 60, table_no=table,
                                reason=reason, actor=actor.name)
        try:
            clock.check(before, new, length=length)
        except TournamentError as exc:
            raise InvalidState(_("{sitting}: {problem}").format(sitting=shown,
                                                                problem=exc)) from None
        conn.execute(sa.insert(clock_t).values(
            sitting_id=sitting.id, action=action, table_no=table, seconds=minutes * 60,
            reason=reason, at=at, actor=actor.name))
        after: dict[str, object] = {"sitting": label, "action": action,
                                    "words": _WORDS[action]}
        after |= {"minutes": minutes} if extends else {}
        after |= {"table_no": table} if table is not None else {}
        after |= {"reason": reason} if reason else {}
        audit.log(conn, actor, Action.SITTING_CLOCK, f"sitting {int(sitting.id)}",
                  after=after, at=at)
        return clock.state([*before, new], length=length, now=at)

    return db.write(engine, work)
