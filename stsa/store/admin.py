"""Settings (with defaults) and reading the audit log (R19, R20)."""

from __future__ import annotations

from typing import Any

import pandas as pd
import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from stsa.auth import Actor, require
from stsa.domain import Action, Role, TournamentError
from stsa.settings import DEFAULTS
from stsa.settings import check as check_setting
from stsa.settings import current as current_settings
from stsa.store import audit, db, frames
from stsa.store.schema import events as events_t
from stsa.store.schema import settings as settings_t

# Every setting an organizer can change, with its default (`stsa.settings.REGISTRY`): the name
# scripts know.
DEFAULT_SETTINGS = DEFAULTS


def _stored(conn: Connection) -> dict[str, Any]:
    return {r.key: frames.loads(r.value) for r in conn.execute(sa.select(settings_t))}


def settings(engine: Engine) -> dict[str, Any]:
    """Every setting: the organizer's values over `DEFAULT_SETTINGS` (R4, R5, R7, R9, R10,
    R12, R23). Unknown keys in an old database are ignored; an old Battle of Wills on/off
    reads as its stages (R23)."""
    with db.reading(engine) as conn:
        return current_settings(_stored(conn))


def set_settings(engine: Engine, changes: dict[str, Any], *, actor: Actor) -> dict[str, Any]:
    """Change settings (organizer only, R20); each value is checked, an unknown key or a bad
    value is refused with its name and nothing changes. Logged with old and new values (R19).
    Returns all settings."""
    require(actor, Role.ORGANIZER, action="change settings")
    if not isinstance(changes, dict) or not changes:
        raise TournamentError("No settings to change.")
    clean, problems = {}, []
    for key, value in changes.items():
        try:
            clean[key] = check_setting(key, value)
        except TournamentError as exc:
            problems.append(str(exc))
    if problems:
        raise TournamentError("Settings unchanged: " + "; ".join(problems) + ".")

    def work(conn: Connection) -> None:
        stored = _stored(conn)
        current = {**stored, **current_settings(stored)}
        changed = {k: v for k, v in clean.items() if current.get(k) != v}
        if not changed:
            return
        at = db.now()
        for key, value in changed.items():
            values = {"value": frames.dumps(value), "updated_by": actor.name, "updated_at": at}
            if key in stored:
                conn.execute(sa.update(settings_t).where(settings_t.c.key == key).values(**values))
            else:
                conn.execute(sa.insert(settings_t).values(key=key, **values))
        audit.log(conn, actor, Action.SETTINGS_CHANGE, "settings",
               before={k: current.get(k) for k in changed}, after=changed, at=at)

    db.write(engine, work)
    return settings(engine)


# -- the audit log ---------------------------------------------------------------------------
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
    require(actor, Role.ORGANIZER, action="read the log")
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
