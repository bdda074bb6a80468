"""Settings (with defaults) and reading the audit log (R19, R20)."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

import pandas as pd
import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from stsa.auth import Actor, Role, require
from stsa.domain import BattleOfWills, PickMethod
from stsa.store import db
from stsa.store.errors import TournamentError
from stsa.store.schema import events as events_t
from stsa.store.schema import settings as settings_t

# Every setting an organizer can change, with its default (R4, R5, R7, R9, R10, R12, R21).
DEFAULT_SETTINGS: dict[str, Any] = {
    "tournament_name": "DUNE: Imperium tournament",
    "enabled_setups": None,  # R5: setup ids; None = every setup of the catalog
    "battle_of_wills": BattleOfWills.FINALS.value,  # R5, R23: the stages that play it
    "pick_method": PickMethod.HIDDEN_PICKS.value,  # R9, R10: "hidden_picks" or "vote_off"
    "wild_card": False,  # R10
    "vote_off_votes": 2,  # R10: X of "Vote Off (X)", the leaders each player votes off
    "hidden_picks": {"Legacy": 6, "Uprising": 3},  # R9: X per base game
    "leader_decks": None,  # R7: {setup_id: [leader, …]}; None = the catalog's decks
    "colours": ["red", "green", "blue", "yellow"],  # R4
    "base_points": [20, 15, 10, 0],  # R12: 1st, 2nd, 3rd, 4th
    "draw_mode": "random",  # R3: "random" or "balanced" (fewer repeat meetings, even seats)
    "auto_backup": True,  # backups after each publish and completed sitting
    "public_url": None,  # the app's address as judges' phones reach it (slip QR codes)
    "capacity": 16,  # R21: the seats of a qualifier sitting; the rest wait
}


def _bool(v):
    if not isinstance(v, bool):
        raise ValueError("must be true or false")
    return v


def battle_of_wills_stages(v):
    """R23: the stages that play Battle of Wills. Before it was a choice it was on or off:
    an old true reads as every stage, an old false as the default (the final rounds)."""
    if isinstance(v, bool):
        return (BattleOfWills.BOTH if v else BattleOfWills.FINALS).value
    if v not in {s.value for s in BattleOfWills}:
        raise ValueError(f"must be one of {', '.join(s.value for s in BattleOfWills)}")
    return str(v)


def _text(limit: int) -> Callable:
    def check(v):
        if not isinstance(v, str) or not v.strip():
            raise ValueError("must be non-empty text")
        v = " ".join(v.split())
        if len(v) > limit:
            raise ValueError(f"must have at most {limit} characters")
        return v
    return check


def _names(v, *, minimum: int = 0, allow_none: bool = False, distinct: bool = True):
    if v is None and allow_none:
        return None
    if isinstance(v, str) or not isinstance(v, (list, tuple)):
        raise ValueError("must be a list of names")
    out = [" ".join(str(x).split()) for x in v]
    if any(not x for x in out) or (distinct and len(set(out)) != len(out)):
        raise ValueError("must list different, non-empty names")
    if len(out) < minimum:
        raise ValueError(f"must list at least {minimum}")
    return out


def _colours(v):
    """R4: at least four colours, all different ignoring case ("Red" and "red" are one colour
    at the table); a clash is named as the settings page names it."""
    out = _names(v, minimum=4, distinct=False)
    keys = [c.casefold() for c in out]
    for later, key in enumerate(keys):
        if key in keys[:later]:
            raise ValueError(f"must all differ: colour {keys.index(key) + 1} and colour "
                             f"{later + 1} are both “{out[later]}”; choose {len(out)} "
                             f"different colours")
    return out


def _choice(*options: str) -> Callable:
    def check(v):
        if v not in options:
            raise ValueError(f"must be one of {', '.join(options)}")
        return v
    return check


def _whole_between(v, low: int, high: int) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or not low <= v <= high:
        raise ValueError(f"must be a whole number from {low} to {high}")
    return v


def _counts(v):
    if not isinstance(v, dict) or not v:
        raise ValueError("must map each base game to a number")
    out = {}
    for k, n in v.items():
        if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= 30:
            raise ValueError(f"{k}: must be a whole number from 0 to 30")
        out[str(k)] = n
    return out


def _decks(v):
    if v is None:
        return None
    if not isinstance(v, dict):
        raise ValueError("must map setup ids to lists of leaders")
    return {str(k): _names(d, minimum=1) for k, d in v.items()}


def _base_points(v):
    if (not isinstance(v, (list, tuple)) or len(v) != 4
            or any(isinstance(x, bool) or not isinstance(x, int) for x in v)):
        raise ValueError("must be four whole numbers (1st, 2nd, 3rd, 4th)")
    if any(x < 0 or x > 1000 for x in v) or list(v) != sorted(v, reverse=True):
        raise ValueError("must run from highest to lowest, each between 0 and 1000")
    return list(v)


def _public_url(v):
    """The app's web address for the QR codes on table slips; None or blank clears it."""
    if v is None or (isinstance(v, str) and not v.strip()):
        return None
    if not isinstance(v, str):
        raise ValueError("must be a web address")
    v = v.strip()
    if any(c.isspace() for c in v):
        raise ValueError("must be a web address without spaces")
    if len(v) > 200:
        raise ValueError("must have at most 200 characters")
    parts = urlsplit(v)
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        raise ValueError("must start with http:// or https:// and name the computer, as "
                         "phones reach it (e.g. http://192.168.1.20:8501)")
    try:
        parts.port  # noqa: B018 - a port that is not a number is refused here
    except ValueError:
        raise ValueError("has a port that is not a number") from None
    if parts.query or parts.fragment:
        raise ValueError("must be the app's address only, without ? or # parts")
    return v.rstrip("/")


CAPACITY_MAX = 10_000


def _capacity(v):
    """R21: the seats of a qualifier sitting, a number of players R1 can seat (3, 4, 6 …)."""
    v = _whole_between(v, 3, CAPACITY_MAX)
    if v == 5:
        raise ValueError("cannot be 5: five players cannot be seated at tables of three or "
                         "four; choose 4 or 6")
    return v


VALIDATORS: dict[str, Callable[[Any], Any]] = {
    "tournament_name": _text(200),
    "enabled_setups": lambda v: _names(v, minimum=1, allow_none=True),
    "battle_of_wills": battle_of_wills_stages,
    "pick_method": _choice(*(m.value for m in PickMethod)),
    "wild_card": _bool,
    "vote_off_votes": lambda v: _whole_between(v, 1, 10),
    "hidden_picks": _counts,
    "leader_decks": _decks,
    "colours": _colours,
    "base_points": _base_points,
    "draw_mode": _choice("random", "balanced"),
    "auto_backup": _bool,
    "public_url": _public_url,
    "capacity": _capacity,
}


# Stored values from an earlier release, read as this release means them (R23).
_OLD_VALUES: dict[str, Callable[[Any], Any]] = {"battle_of_wills": battle_of_wills_stages}


def _stored(conn: Connection) -> dict[str, Any]:
    return {r.key: db.loads(r.value) for r in conn.execute(sa.select(settings_t))}


def _current(stored: dict[str, Any]) -> dict[str, Any]:
    """Every setting: `stored` over the defaults, old values read as they are meant now."""
    out = copy.deepcopy(DEFAULT_SETTINGS)
    out.update({k: v for k, v in stored.items() if k in DEFAULT_SETTINGS})
    for key, read in _OLD_VALUES.items():
        try:
            out[key] = read(out[key])
        except ValueError:
            out[key] = copy.deepcopy(DEFAULT_SETTINGS[key])
    return out


def settings(engine: Engine) -> dict[str, Any]:
    """Every setting: the organizer's values over `DEFAULT_SETTINGS` (R4, R5, R7, R9, R10,
    R12, R23). Unknown keys in an old database are ignored; an old Battle of Wills on/off
    reads as its stages (R23)."""
    with db.reading(engine) as conn:
        return _current(_stored(conn))


def set_settings(engine: Engine, changes: dict[str, Any], *, actor: Actor) -> dict[str, Any]:
    """Change settings (organizer only, R20); each value is checked, an unknown key or a bad
    value is refused with its name and nothing changes. Logged with old and new values (R19).
    Returns all settings."""
    require(actor, Role.ORGANIZER, action="change settings")
    if not isinstance(changes, dict) or not changes:
        raise TournamentError("No settings to change.")
    clean, problems = {}, []
    for key, value in changes.items():
        if key not in VALIDATORS:
            problems.append(f"{key!r} is not a setting (settings: {', '.join(VALIDATORS)})")
            continue
        try:
            clean[key] = VALIDATORS[key](value)
        except ValueError as exc:
            problems.append(f"{key} {exc}")
    if problems:
        raise TournamentError("Settings unchanged: " + "; ".join(problems) + ".")

    def work(conn: Connection) -> None:
        stored = _stored(conn)
        current = {**stored, **_current(stored)}
        changed = {k: v for k, v in clean.items() if current.get(k) != v}
        if not changed:
            return
        at = db.now()
        for key, value in changed.items():
            values = {"value": db.dumps(value), "updated_by": actor.name, "updated_at": at}
            if key in stored:
                conn.execute(sa.update(settings_t).where(settings_t.c.key == key).values(**values))
            else:
                conn.execute(sa.insert(settings_t).values(key=key, **values))
        db.log(conn, actor, "settings.change", "settings",
               before={k: current.get(k) for k in changed}, after=changed, at=at)

    db.write(engine, work)
    return settings(engine)


# -- the audit log ---------------------------------------------------------------------------
EVENT_COLUMNS = {"event_id": "int64", "at": db.UTC_TIME, "actor": "str", "role": "str",
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
        r["before"], r["after"] = db.loads(r["before"]), db.loads(r["after"])
    return db.frame(rows, EVENT_COLUMNS)
