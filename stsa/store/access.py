"""Who may get in (R20): PINs per role, sign-in with a back-off on wrong PINs, and sessions.

All of it lives in the database, never in a process's memory or a Streamlit cache: any client
can clear those caches, and several app processes on one PostgreSQL must agree. A sign-in
records a failure *before* it checks the PIN, in the same transaction, and removes it again
only when the PIN was right: a burst of guesses sent at once cannot get past the count.
Sessions are random ids of which only the hash is stored; they end on sign-out, when their
role's PIN changes, when the organizer signs everyone out, or after `SESSION_IDLE_HOURS`
without use. No secret is derived from a PIN hash, and none of these tables is in a backup.
"""

from __future__ import annotations

import datetime as dt
import os
from dataclasses import dataclass

import pandas as pd
import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from stsa import auth
from stsa.auth import Actor, Role, require
from stsa.domain import plural
from stsa.store import db
from stsa.store.errors import TournamentError
from stsa.store.schema import sessions as sessions_t
from stsa.store.schema import sign_in_failures as failures_t
from stsa.store.schema import users as users_t

PIN_ENV = {Role.ORGANIZER: "STSA_ORGANIZER_PIN", Role.JUDGE: "STSA_JUDGE_PIN"}
SESSION_IDLE_HOURS = 12
SEEN_EVERY_SECONDS = 60  # how often a session's last-seen time is written (not every run)
_SIGN_IN_LOCK_KEY = 0x53544731  # PostgreSQL advisory lock: one PIN check at a time
NAME_MAX = 60


class SignInPaused(TournamentError):
    """Too many wrong PINs: sign-in waits `seconds` before the next try."""

    def __init__(self, message: str, seconds: float):
        super().__init__(message)
        self.seconds = seconds


@dataclass(frozen=True)
class SignedIn:
    """A successful sign-in: who, and the session id that keeps them signed in."""

    actor: Actor
    session_id: str


def _pin_role(role: Role) -> Role:
    role = Role(role)
    if role not in PIN_ENV:
        raise TournamentError("Only the organizer and judges sign in with a PIN.")
    return role


def _hashes(conn: Connection, *, lock: bool = False) -> dict[str, str]:
    query = sa.select(users_t.c.role, users_t.c.pin_hash)
    return {r.role: r.pin_hash for r in conn.execute(query.with_for_update() if lock else query)}


def _role_for_pin(hashes: dict[str, str], pin: str) -> Role | None:
    if not isinstance(pin, str) or not pin:
        return None
    return next((role for role in (Role.ORGANIZER, Role.JUDGE)
                 if auth.verify_pin(pin, hashes.get(role.value))), None)


# -- PINs ------------------------------------------------------------------------------------
def _store_pin(conn: Connection, role: Role, pin: str, actor: Actor) -> None:
    auth.check_pin_format(pin)
    hashes = _hashes(conn, lock=True)
    for other, stored in hashes.items():
        if other != role.value and auth.verify_pin(pin, stored):
            raise TournamentError(f"The {role.value} PIN must differ from the {other} PIN.")
    values = {"pin_hash": auth.hash_pin(pin), "updated_by": actor.name, "updated_at": db.now()}
    if role.value in hashes:
        conn.execute(sa.update(users_t).where(users_t.c.role == role.value).values(**values))
    else:
        conn.execute(sa.insert(users_t).values(role=role.value, **values))
    _revoke(conn, actor, role=role)
    db.log(conn, actor, "pin.set", f"role {role.value}")


def set_pin(engine: Engine, role: Role, pin: str, *, actor: Actor, current_pin: str,
            client: str = "local") -> None:
    """Set the organizer's or the judges' PIN (R20). Only the organizer may, and only with the
    current organizer PIN (an open session alone is not enough); a wrong current PIN counts as
    a wrong sign-in. The new PIN has 6 to 64 characters and differs from the other role's; it
    is stored as a salted hash and every open session of that role ends."""
    require(actor, Role.ORGANIZER, action="change PINs")
    role = _pin_role(role)
    auth.check_pin_format(pin)
    if _attempt(engine, current_pin, client) is not Role.ORGANIZER:
        raise TournamentError("The current organizer PIN is not right. Nothing changed.")
    db.write(engine, lambda conn: _store_pin(conn, role, pin, actor))


def check_pin(engine: Engine, pin: str) -> Role | None:
    """The role whose PIN this is, or None, without counting anything: for scripts and tests
    on this machine. People sign in through `sign_in`, which counts wrong PINs."""
    with db.reading(engine) as conn:
        return _role_for_pin(_hashes(conn), pin)


def _new_pin(taken: dict[str, str], made: dict[Role, str]) -> str:
    while True:
        pin = auth.new_pin()
        if pin not in made.values() and _role_for_pin(taken, pin) is None:
            return pin


def _install_pins(conn: Connection, *, reset: bool) -> dict[Role, str]:
    made: dict[Role, str] = {}
    for role, env in PIN_ENV.items():
        stored = _hashes(conn, lock=True)
        if role.value in stored and not reset:
            continue
        chosen = os.environ.get(env)
        pin = chosen or _new_pin(stored, made)
        _store_pin(conn, role, pin, db.SYSTEM)
        if not chosen:
            made[role] = pin
    return made


def ensure_pins(engine: Engine) -> dict[Role, str]:
    """Give the organizer and judges a PIN where none is stored: `STSA_ORGANIZER_PIN` /
    `STSA_JUDGE_PIN` when set, else a new random 8-digit PIN. A stored PIN is never replaced
    (a PIN changed in the app stays changed). Returns the PINs made now, to show once."""
    return db.write(engine, lambda conn: _install_pins(conn, reset=False))


def reset_pins(engine: Engine) -> dict[Role, str]:
    """Set both PINs anew (from the environment variables when set, else random), end every
    session and forget every wrong PIN: `python -m stsa pins --reset`, for a lost PIN, from the
    console of the machine that runs STSA. Returns the PINs made now, to show once."""
    def work(conn: Connection) -> dict[Role, str]:
        made = _install_pins(conn, reset=True)
        conn.execute(sa.delete(failures_t))
        return made

    return db.write(engine, work)


# -- sign-in ---------------------------------------------------------------------------------
def _seconds(at: dt.datetime) -> float:
    return at.timestamp()


def _pause(conn: Connection, client: str, now: dt.datetime) -> tuple[float, str]:
    since = now - dt.timedelta(seconds=auth.TOURNAMENT_BACKOFF.window_seconds)
    rows = conn.execute(sa.select(failures_t.c.client, failures_t.c.at)
                        .where(failures_t.c.at > since)).all()
    everyone = [_seconds(r.at) for r in rows]
    mine = [_seconds(r.at) for r in rows if r.client == client]
    at = _seconds(now)
    return max((auth.CLIENT_BACKOFF.wait(mine, at), "mine"),
               (auth.TOURNAMENT_BACKOFF.wait(everyone, at), "everyone"))


def _wait_words(seconds: float) -> str:
    whole = int(seconds) + 1
    return plural(whole, "second") if whole < 120 else f"{(whole + 59) // 60} minutes"


def _attempt(engine: Engine, pin: str, client: str) -> Role | None:
    """One counted PIN check: refused while paused; a failure is written before the check and
    stays unless the PIN is right. Commits before it answers."""
    def work(conn: Connection) -> tuple[Role | None, float, str]:
        if not db.is_sqlite(conn):
            conn.execute(sa.text("SELECT pg_advisory_xact_lock(:k)"), {"k": _SIGN_IN_LOCK_KEY})
        now = db.now()
        wait, whose = _pause(conn, client, now)
        if wait > 0:
            return None, wait, whose
        failure = conn.execute(sa.insert(failures_t).values(client=client, at=now)).inserted_primary_key[0]
        role = _role_for_pin(_hashes(conn), pin)
        if role is not None:
            conn.execute(sa.delete(failures_t).where(
                (failures_t.c.client == client) | (failures_t.c.id == failure)))
        return role, 0.0, whose

    role, wait, whose = db.write(engine, work)
    if wait > 0:
        if whose == "mine":
            raise SignInPaused(f"Too many wrong PINs: try again in {_wait_words(wait)}.", wait)
        raise SignInPaused(f"Too many wrong PINs were tried here today: sign-in is paused for "
                           f"{_wait_words(wait)}. The organizer can reset the PINs from the "
                           f"console of the machine that runs STSA.", wait)
    return role


def sign_in(engine: Engine, name: str, pin: str, *, client: str = "local") -> SignedIn:
    """R20: sign in with a display name (for the log) and a PIN, from `client` (the address
    wrong PINs are counted under). Opens a session; raises `TournamentError` for a wrong PIN,
    `SignInPaused` while wrong PINs make sign-in wait (`auth.CLIENT_BACKOFF`, and
    `auth.TOURNAMENT_BACKOFF` for every address together)."""
    name = " ".join(str(name or "").split())
    if not name:
        raise TournamentError("Enter your name: it goes into the log with what you do.")
    if len(name) > NAME_MAX:
        raise TournamentError(f"Your name can have at most {NAME_MAX} characters.")
    role = _attempt(engine, pin or "", str(client)[:100])
    if role is None:
        raise TournamentError("That PIN is not right.")
    who, session_id = Actor(name, role), auth.new_session_id()

    def work(conn: Connection) -> None:
        now = db.now()
        # Sessions are listed on the Settings page, not in the tournament's log.
        conn.execute(sa.insert(sessions_t).values(
            id_hash=auth.session_hash(session_id), actor=who.name, role=role.value,
            client=str(client)[:100], created_at=now, last_seen_at=now))

    db.write(engine, work)
    return SignedIn(who, session_id)


# -- sessions --------------------------------------------------------------------------------
def session_actor(engine: Engine, session_id: str | None) -> Actor | None:
    """The person an open session stands for, or None once it was signed out, revoked or
    unused for `SESSION_IDLE_HOURS`. Checked on every run of every page; writes the last-seen
    time at most once a minute."""
    if not isinstance(session_id, str) or not 20 <= len(session_id) <= 200:
        return None
    key, now = auth.session_hash(session_id), db.now()
    with db.reading(engine) as conn:
        row = conn.execute(sa.select(sessions_t).where(sessions_t.c.id_hash == key)).first()
    if row is None or row.revoked_at is not None:
        return None
    if now - row.last_seen_at > dt.timedelta(hours=SESSION_IDLE_HOURS):
        return None
    if (now - row.last_seen_at).total_seconds() > SEEN_EVERY_SECONDS:
        db.write(engine, lambda conn: conn.execute(
            sa.update(sessions_t).where(sessions_t.c.id_hash == key).values(last_seen_at=now)))
    return Actor(row.actor, Role(row.role))


def _revoke(conn: Connection, actor: Actor, *, role: Role | None = None,
            id_hash: str | None = None, keep: str | None = None) -> int:
    where = sessions_t.c.revoked_at.is_(None)
    if role is not None:
        where &= sessions_t.c.role == Role(role).value
    if id_hash is not None:
        where &= sessions_t.c.id_hash == id_hash
    if keep is not None:
        where &= sessions_t.c.id_hash != keep
    return conn.execute(sa.update(sessions_t).where(where).values(
        revoked_at=db.now(), revoked_by=actor.name)).rowcount


def sign_out(engine: Engine, session_id: str | None) -> None:
    """End this session: its address no longer signs anyone in."""
    if not isinstance(session_id, str):
        return
    key = auth.session_hash(session_id)

    def work(conn: Connection) -> None:
        row = conn.execute(sa.select(sessions_t).where(sessions_t.c.id_hash == key)).first()
        if row is not None:
            _revoke(conn, Actor(row.actor, Role(row.role)), id_hash=key)

    db.write(engine, work)


def sign_everyone_out(engine: Engine, *, actor: Actor, keep: str | None = None) -> int:
    """The organizer ends every open session but `keep` (their own); returns how many ended."""
    require(actor, Role.ORGANIZER, action="sign everyone out")
    keep_hash = auth.session_hash(keep) if isinstance(keep, str) else None

    def work(conn: Connection) -> int:
        ended = _revoke(conn, actor, keep=keep_hash)
        db.log(conn, actor, "session.revoke_all", "sessions", after={"ended": ended})
        return ended

    return db.write(engine, work)


SESSION_COLUMNS = {"actor": "str", "role": "str", "client": "str", "created_at": db.UTC_TIME,
                   "last_seen_at": db.UTC_TIME}


def open_sessions(engine: Engine, *, actor: Actor) -> pd.DataFrame:
    """Open sessions, newest first (organizer only): who, as what, from where, since when."""
    require(actor, Role.ORGANIZER, action="see who is signed in")
    since = db.now() - dt.timedelta(hours=SESSION_IDLE_HOURS)
    with db.reading(engine) as conn:
        return db.query_frame(conn, sa.select(*[sessions_t.c[c] for c in SESSION_COLUMNS])
                              .where(sessions_t.c.revoked_at.is_(None),
                                     sessions_t.c.last_seen_at > since)
                              .order_by(sessions_t.c.created_at.desc()), SESSION_COLUMNS)
