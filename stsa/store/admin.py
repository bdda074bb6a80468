"""The tournament's settings as the store keeps them: read over their defaults, changed by the
organizer after every check of `stsa.settings`, each change logged (R19, R20)."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from stsa.auth import Actor, require
from stsa.domain import Action, Role, TournamentError
from stsa.i18n import N_, _
from stsa.settings import DEFAULTS, Settings
from stsa.settings import check as check_setting
from stsa.settings import current as current_settings
from stsa.store import audit, db, frames
from stsa.store.schema import settings as settings_t

# Every setting an organizer can change, with its default (`stsa.settings.REGISTRY`): the name
# scripts know.
DEFAULT_SETTINGS = DEFAULTS


def _stored(conn: Connection) -> dict[str, Any]:
    return {r.key: frames.loads(r.value) for r in conn.execute(sa.select(settings_t))}


def settings(engine: Engine | Connection) -> dict[str, Any]:
    """Every setting: the organizer's values over `DEFAULT_SETTINGS` (R4, R5, R7, R9, R10,
    R12, R23). Unknown keys in an old database are ignored; an old Battle of Wills on/off
    reads as its stages (R23)."""
    with db.reading(engine) as conn:
        return current_settings(_stored(conn))


def typed_settings(engine: Engine | Connection) -> Settings:
    """`settings` as the typed, frozen `Settings` (`settings.capacity`): the one read the
    services and the store's own checks use; `settings` stays the plain dict scripts know."""
    with db.reading(engine) as conn:
        return Settings.of(_stored(conn))


def set_settings(engine: Engine, changes: dict[str, Any], *, actor: Actor) -> dict[str, Any]:
    """Change settings (organizer only, R20); each value is checked, an unknown key or a bad
    value is refused with its name and nothing changes. Logged with old and new values (R19).
    Returns the settings changed ({} when none). The tournament's key follows a new name
    through `tournaments.set_settings`, which is the store's `set_settings`."""
    require(actor, Role.ORGANIZER, action=N_("change settings"))
    if not isinstance(changes, dict) or not changes:
        raise TournamentError(_("No settings to change."))
    clean, problems = {}, []
    for key, value in changes.items():
        try:
            clean[key] = check_setting(key, value)
        except TournamentError as exc:
            problems.append(str(exc))
    if problems:
        raise TournamentError(_("Settings unchanged: {problems}.").format(
            problems="; ".join(problems)))

    def work(conn: Connection) -> dict[str, Any]:
        stored = _stored(conn)
        current = {**stored, **current_settings(stored)}
        changed = {k: v for k, v in clean.items() if current.get(k) != v}
        if not changed:
            return changed
        at = db.now()
        for key, value in changed.items():
            values = {"value": frames.dumps(value), "updated_by": actor.name, "updated_at": at}
            if key in stored:
                conn.execute(sa.update(settings_t).where(settings_t.c.key == key).values(**values))
            else:
                conn.execute(sa.insert(settings_t).values(key=key, **values))
        audit.log(conn, actor, Action.SETTINGS_CHANGE, "settings",
               before={k: current.get(k) for k in changed}, after=changed, at=at)
        return changed

    return db.write(engine, work)
