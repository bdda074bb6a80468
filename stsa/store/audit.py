"""The audit log (R19): every change to the tournament appends one event in its own
transaction (`log`), the organizer reads it (`events`), and the count of events within the
restore epoch is the data version that derived tables are cached by."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pandas as pd
import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from stsa.auth import Actor, require
from stsa.domain import Action, Role
from stsa.i18n import N_
from stsa.store import db, frames, schema
from stsa.store.db import now
from stsa.store.errors import InvalidState, PermissionDenied
from stsa.store.frames import dumps
from stsa.store.schema import events as events_t

#: What the installation's log records of the installation itself (R27): allowed while the
#: tournament of its own database is archived.
INSTALLATION_ACTIONS = frozenset({
    Action.PIN_SET, Action.SESSION_REVOKE_ALL, Action.SIGN_IN_UNLOCK, Action.SIGN_IN_CODE,
    Action.INVITATION_CREATE,
    Action.INVITATION_USE, Action.INVITATION_REVOKE, Action.TOURNAMENT_CREATE,
    Action.TOURNAMENT_REOPEN, Action.TOURNAMENT_DELETE, Action.TOURNAMENT_KEY, Action.SEASON_SET,
    Action.DIRECTORY_LINK, Action.DIRECTORY_MERGE, Action.DIRECTORY_SPLIT,
    Action.OVERLAY_CREATE, Action.OVERLAY_REVOKE})


ARCHIVED = ("This tournament is archived: it is kept as it was and takes no changes. The "
            "organizer can reopen it on the Tournaments page.")


def may_change(conn: Connection, actor: Actor, action: str) -> None:
    """R27: a judge signed in to one tournament changes no other (`PermissionDenied`). (That an
    archived tournament takes no change is checked by `log` as it appends.)"""
    if action in INSTALLATION_ACTIONS:
        return
    here = db.tournament_id(conn)
    if actor.role is Role.JUDGE and actor.tournament is not None and here is not None \
            and actor.tournament != here:
        raise PermissionDenied("You are signed in as a judge of another tournament: sign in "
                               "to this one to change it.")


def may_change_unlogged(conn: Connection, actor: Actor, action: str) -> None:
    """The checks `log` makes, for a write the log does not record (a judge's unsaved entry,
    `stsa.store.drafts`): `may_change`, and that the tournament is not archived (one read, in
    that write's own transaction)."""
    may_change(conn, actor, action)
    if conn.execute(sa.select(schema.tournament_state.c.archived_at)).scalar() is not None:
        raise InvalidState(ARCHIVED)


def log(conn: Connection, actor: Actor, action: str, subject: str, *, before: Any = None,
        after: Any = None, at: dt.datetime | None = None) -> None:
    """Append one event to the audit log (R19). Every change to the tournament is logged, so
    every committed change moves the data version (`data_version`); a change the tournament
    may not take is refused here, before it commits (`may_change`), and so is any change to
    an archived tournament (R27): the entry is appended only while the tournament is open, in
    the same statement, so the write path gains no query."""
    may_change(conn, actor, action)
    values = {"at": at or now(), "actor": actor.name, "role": actor.role.value,
              "action": action, "subject": subject,
              "before": None if before is None else dumps(before),
              "after": None if after is None else dumps(after)}
    row = sa.select(*[sa.literal(v, type_=events_t.c[k].type).label(k)
                      for k, v in values.items()])
    if action not in INSTALLATION_ACTIONS:
        state = schema.tournament_state
        row = row.where(~sa.exists().where(state.c.archived_at.is_not(None)))
    appended = conn.execute(sa.insert(events_t).from_select(list(values), row)
                            .returning(events_t.c.id)).first()
    if appended is None:
        raise InvalidState(ARCHIVED)


_EPOCH_SPAN = 10**12  # more log entries than one tournament will ever have


def data_version(engine: Engine) -> int:
    """The tournament's data version, which derived tables are cached by: it changes with every
    committed write and never comes back. It counts the log's entries (every write appends one,
    nothing deletes one, so the count grows with each commit, in commit order) within the
    restore epoch (a restore replaces the log, and moves the epoch on: `new_epoch`). No row is
    updated by every write, so writers on PostgreSQL never queue on it. One small read.

    On SQLite the newest entry's id stands in for the count: writers take turns there, so ids
    grow in commit order, and the id is one look into the key's index where a count reads the
    whole log (every page run asks). On PostgreSQL ids are handed out before commit, not in its
    order, so the count it is."""
    # A read: on SQLite a deferred snapshot, never the write lock (every page run asks, and
    # must not queue behind a judge's save).
    with db.reading(engine) as conn:
        epoch = conn.execute(sa.select(schema.data_version.c.version)).scalar_one()
        logged = conn.execute(
            sa.select(sa.func.coalesce(sa.func.max(schema.events.c.id), 0))
            if db.is_sqlite(conn) else
            sa.select(sa.func.count()).select_from(schema.events)).scalar_one()
    return int(epoch) * _EPOCH_SPAN + int(logged)


def new_epoch(conn: Connection) -> None:
    """A restore replaced the tournament (and its log): move the data version's epoch on, in
    the restore's own transaction."""
    conn.execute(sa.update(schema.data_version).where(schema.data_version.c.id == 1)
                 .values(version=schema.data_version.c.version + 1))


EVENT_COLUMNS = {"event_id": "int64", "at": frames.UTC_TIME, "actor": "str", "role": "str",
                 "action": "str", "subject": "str", "before": "object", "after": "object"}


def events(engine: Engine | Connection, *, actor: Actor | None, action: str | None = None,
           by: str | None = None, subject: str | None = None, since_id: int | None = None,
           limit: int | None = None) -> pd.DataFrame:
    """The audit log, oldest first (R19): `event_id, at, actor, role, action, subject, before,
    after` (before/after parsed from JSON). The organizer only (R20): the log holds removed
    leaders, votes, contact details and every change of the roster, settings and draws; the
    pages read for judges only what they show them. Filters: `action` (exact, or a prefix
    ending in "." such as "result."), `by` (who acted), `subject` ("table 12"), `since_id`,
    `limit` (the latest n)."""
    require(actor, Role.ORGANIZER, action=N_("read the log"))
    q = sa.select(events_t)
    if action:
        if action.endswith("."):
            q = q.where(sa.func.substr(events_t.c.action, 1, len(action)) == action)
        else:
            q = q.where(events_t.c.action == action)
    if by:
        q = q.where(events_t.c.actor == by)
    if subject:
        q = q.where(events_t.c.subject == subject)
    if since_id is not None:
        q = q.where(events_t.c.id > int(since_id))
    if limit is not None:
        q = q.order_by(events_t.c.id.desc()).limit(int(limit))
    else:
        q = q.order_by(events_t.c.id)
    with db.reading(engine) as conn:
        rows = [dict(r._mapping) for r in conn.execute(q)]
    rows.sort(key=lambda r: r["id"])
    for r in rows:
        r["event_id"] = r.pop("id")
        r["before"], r["after"] = frames.loads(r["before"]), frames.loads(r["after"])
    return frames.frame(rows, EVENT_COLUMNS)
