"""Reads the pages show as the store keeps them, with no rule to add: whether the tournament
is archived (R27), who sits a sitting out and the waiting list (R1, R21), the log and the
tables' numbers for it (R19), the backup files; the hidden parts (unpublished draws, the log)
only for the staff, whom the store's reads name as `SYSTEM`."""

from __future__ import annotations

import pandas as pd
from sqlalchemy.engine import Engine

from stsa import store
from stsa.auth import Actor

SYSTEM: Actor = store.db.SYSTEM  # who the log names for what STSA does by itself
NotFound = store.NotFound  # what asking for something that is not there raises


def archived(engine: Engine) -> bool:
    """R27: whether this tournament is archived."""
    return store.archived(engine) is not None


def sit_outs(engine: Engine, sitting_id: int, *, actor: Actor | None) -> pd.DataFrame:
    """R1: who the draw chose to sit sitting `sitting_id` out."""
    return store.sit_outs(engine, sitting_id, actor=actor)


def waiting(engine: Engine, sitting_id: int, *, actor: Actor | None) -> pd.DataFrame:
    """R21: a qualifier's waiting list."""
    return store.waiting(engine, sitting_id, actor=actor)


def events(engine: Engine, *, actor: Actor | None, action: str | None = None,
           by: str | None = None, subject: str | None = None,
           limit: int | None = None) -> pd.DataFrame:
    """The audit log, oldest first (R19), as `actor` may read it."""
    return store.events(engine, actor=actor, action=action, by=by, subject=subject,
                        limit=limit)


def table_numbers(engine: Engine, *, actor: Actor | None) -> pd.DataFrame:
    """Every table's sitting and number, for naming tables in the log."""
    return store.table_numbers(engine, actor=actor)


def backups(engine: Engine) -> pd.DataFrame:
    """The backup files, newest first."""
    return store.backups(engine)
