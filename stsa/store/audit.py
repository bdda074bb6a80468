"""The audit log (R19) and the data version: every change to the tournament appends one event
in its own transaction, and the count of events within the restore epoch is the version that
derived tables are cached by."""

from __future__ import annotations

import datetime as dt
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from stsa.auth import Actor
from stsa.store import schema
from stsa.store.db import now
from stsa.store.frames import dumps


def log(conn: Connection, actor: Actor, action: str, subject: str, *, before: Any = None,
        after: Any = None, at: dt.datetime | None = None) -> None:
    """Append one event to the audit log (R19). Every change to the tournament is logged, so
    every committed change moves the data version (`data_version`)."""
    conn.execute(sa.insert(schema.events).values(
        at=at or now(), actor=actor.name, role=actor.role.value, action=action, subject=subject,
        before=None if before is None else dumps(before),
        after=None if after is None else dumps(after)))


_EPOCH_SPAN = 10**12  # more log entries than one tournament will ever have


def data_version(engine: Engine) -> int:
    """The tournament's data version, which derived tables are cached by: it changes with every
    committed write and never comes back. It counts the log's entries (every write appends one,
    nothing deletes one, so the count grows with each commit, in commit order) within the
    restore epoch (a restore replaces the log, and moves the epoch on: `new_epoch`). No row is
    updated by every write, so writers on PostgreSQL never queue on it. One small read."""
    with engine.connect() as conn:
        epoch = conn.execute(sa.select(schema.data_version.c.version)).scalar_one()
        logged = conn.execute(sa.select(sa.func.count()).select_from(schema.events)).scalar_one()
    return int(epoch) * _EPOCH_SPAN + int(logged)


def new_epoch(conn: Connection) -> None:
    """A restore replaced the tournament (and its log): move the data version's epoch on, in
    the restore's own transaction."""
    conn.execute(sa.update(schema.data_version).where(schema.data_version.c.id == 1)
                 .values(version=schema.data_version.c.version + 1))
