"""Sessions (R20): signing in opens one, every page run checks it, a one-time code hands it to a
browser, and the recovery steps end it.

Sessions are random ids of which only the hash is stored; they end on sign-out, when their
role's PIN changes, when the organizer signs everyone out or withdraws the invitation they came
from, after `SESSION_IDLE_HOURS` without use, or `SESSION_MAX_HOURS` after they began. No
secret is derived from a PIN hash, and none of these tables is in a backup.

With several tournaments (R27) every session lives in the installation's database
(`db.installation`), and a judge's session belongs to the tournament it was opened in: another
tournament's pages do not sign it in, and the store refuses its writes there
(`audit.may_change`). The invitations that open judges' sessions are withdrawn here with the
sessions they opened (`withdraw_invitations`): the recovery steps end both at once, and
`invites` builds on this module.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from dataclasses import dataclass
from typing import Any, TypeGuard

import pandas as pd
import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from stsa import auth
from stsa.auth import Actor, require
from stsa.domain import Action, Role, TournamentError
from stsa.i18n import N_, _
from stsa.store import audit, db, frames
from stsa.store.credentials import clean_name, judge_role_key, plausible_token, tournament_of
from stsa.store.devices import keep_device
from stsa.store.pause import attempt
from stsa.store.schema import handoffs as handoffs_t
from stsa.store.schema import invitations as invitations_t
from stsa.store.schema import sessions as sessions_t

SESSION_IDLE_HOURS = 12
SESSION_MAX_HOURS = 18  # a session ends this long after it began, however much it is used
SEEN_EVERY_SECONDS = 60  # how often a session's last-seen time is written (not every run)
HANDOFF_SECONDS = 120  # a handoff code turns into a session cookie within this time, once
SIGN_IN_ENDED = N_("This sign-in has ended: sign in again.")


@dataclass(frozen=True)
class SignedIn:
    """A successful sign-in: who, and the session id that keeps them signed in."""

    actor: Actor
    session_id: str


@dataclass(frozen=True)
class Redeemed:
    """A session handed to a browser (`redeem_handoff`, `invites.join`): the raw session
    id for its cookie, the device token it should keep (R20), and who it signs in."""

    session_id: str
    device: str
    actor: Actor


@dataclass(frozen=True)
class Ended:
    """What a recovery step ended (issue 33: each says exactly what): the judges signed out
    (people: a name in a tournament) and their open sessions, the organizer's open sessions,
    the open invitations withdrawn and the trusted devices no longer trusted."""

    judges: int = 0
    judge_sessions: int = 0
    organizer_sessions: int = 0
    invitations: int = 0
    devices: int = 0

    def __add__(self, other: Ended) -> Ended:
        return Ended(*(a + b for a, b in zip(dataclasses.astuple(self),
                                             dataclasses.astuple(other), strict=True)))

    def logged(self) -> dict[str, int]:
        """For the log entry of the step: "ended" (sessions) as before, and the rest."""
        return {"ended": self.judge_sessions + self.organizer_sessions,
                "invitations": self.invitations, "devices": self.devices}



def sign_in(engine: Engine, name: str, pin: str, *, client: str = "local",
            device: str | None = None, console_code: str | None = None) -> SignedIn:
    """R20: sign in with a display name (for the log) and a PIN, from `client` (the address;
    wrong PINs are counted under `auth.client_key(client)`). Opens a session; raises
    `TournamentError` for a wrong PIN, `SignInPaused` while wrong PINs make sign-in wait.

    With `device`, a device token this installation issued after an earlier sign-in and still
    trusts, wrong PINs are counted against that device alone (`auth.DEVICE_BACKOFF`) and
    neither the address's pause (`auth.CLIENT_BACKOFF`) nor the tournament-wide one
    (`auth.TOURNAMENT_BACKOFF`) applies: no number of wrong PINs from elsewhere keeps it out.
    An unknown or withdrawn device counts as none.

    With `console_code` (`make_console_code`, printed at the console) the organizer signs in
    once whatever those pauses say: only the organizer's PIN is checked, wrong ones count on
    the code alone and wait at most `auth.CONSOLE_BACKOFF.cap_seconds`; a code that is not
    right, used or expired raises `TournamentError` and counts nothing."""
    name = clean_name(name)
    session_id = auth.new_session_id()
    tid = tournament_of(engine)

    def open_it(conn: Connection, role: Role, now: dt.datetime) -> None:
        # Sessions are listed on the Settings page, not in the tournament's log.
        open_session(conn, session_id, Actor(name, role), client, now, tournament_id=tid)

    role = attempt(db.installation(engine), pin or "", client, device, then=open_it,
                    judge=judge_role_key(engine), console=console_code)
    if role is None:
        raise TournamentError(_("That PIN is not right."))
    return SignedIn(Actor(name, role, tid if role is Role.JUDGE else None), session_id)



# -- sessions --------------------------------------------------------------------------------
def open_session(conn: Connection, session_id: str, who: Actor, client: str, now: dt.datetime,
                 *, invitation_id: int | None = None, tournament_id: int | None = None) -> None:
    """Store a new session (only the hash of its id), for `who`, from address `client`; a
    judge's belongs to tournament `tournament_id` (R27)."""
    conn.execute(sa.insert(sessions_t).values(
        id_hash=auth.session_hash(session_id), actor=who.name, role=who.role.value,
        client=str(client)[:100], created_at=now, last_seen_at=now,
        invitation_id=invitation_id,
        tournament_id=tournament_id if who.role is Role.JUDGE else None))


def session_person(row: Any, here: int | None, own: int | None) -> Actor | None:
    """Who an open session's row stands for on tournament `here` (R27): a judge only on the
    tournament the session was opened in (a session of before version 7: the installation's
    own, `own`)."""
    who = Actor(row.actor, Role(row.role))
    if who.role is not Role.JUDGE:
        return who
    theirs = row.tournament_id if row.tournament_id is not None else own
    if here is not None and theirs is not None and theirs != here:
        return None
    return Actor(who.name, who.role, theirs)


def session_open(row: Any, now: dt.datetime) -> TypeGuard[sa.Row]:
    """R20: a session is open until revoked, `SESSION_IDLE_HOURS` unused, or
    `SESSION_MAX_HOURS` after it began."""
    return (row is not None and row.revoked_at is None
            and now - row.last_seen_at <= dt.timedelta(hours=SESSION_IDLE_HOURS)
            and now - row.created_at < dt.timedelta(hours=SESSION_MAX_HOURS))


def session_actor(engine: Engine, session_id: str | None, *,
                  any_tournament: bool = False) -> Actor | None:
    """The person an open session stands for, or None once it was signed out, revoked,
    unused for `SESSION_IDLE_HOURS` or begun `SESSION_MAX_HOURS` ago. Checked on every run
    of every page; writes the last-seen time at most once a minute. R27: a judge's session
    stands for them only on their own tournament (`Actor.tournament`), unless
    `any_tournament` (the pages ask, to keep a judge signed in who looks at another one)."""
    session_id = plausible_token(session_id)
    if session_id is None:
        return None
    key, now = auth.session_hash(session_id), db.now()
    inst = db.installation(engine)
    with db.reading(inst) as conn:
        row = conn.execute(sa.select(sessions_t).where(sessions_t.c.id_hash == key)).first()
    if not session_open(row, now):
        return None
    who = session_person(row, None if any_tournament else db.tournament_id(engine),
                          db.tournament_id(inst))
    if who is None:
        return None
    if (now - row.last_seen_at).total_seconds() > SEEN_EVERY_SECONDS:
        db.write(inst, lambda conn: conn.execute(
            sa.update(sessions_t).where(sessions_t.c.id_hash == key).values(last_seen_at=now)))
    return who


def _sessions_where(conn: Connection, *, role: Role | None = None, id_hash: str | None = None,
                    keep: str | None = None, invitation_id: int | None = None,
                    tournament_id: int | None = None) -> sa.ColumnElement[bool]:
    """The sessions not yet revoked that `_revoke` ends (`role`: of that role only; `keep`:
    all but that one; `tournament_id`: the judges of that tournament …)."""
    where: sa.ColumnElement[bool] = sessions_t.c.revoked_at.is_(None)
    if role is not None:
        where &= sessions_t.c.role == Role(role).value
    if tournament_id is not None:  # the judges of one tournament (R27)
        own = db.tournament_id(conn)
        mine = sessions_t.c.tournament_id == tournament_id
        where &= (mine | sessions_t.c.tournament_id.is_(None)) if own == tournament_id else mine
    if invitation_id is not None:
        where &= sessions_t.c.invitation_id == invitation_id
    if id_hash is not None:
        where &= sessions_t.c.id_hash == id_hash
    if keep is not None:
        where &= sessions_t.c.id_hash != keep
    return where


def _revoke(conn: Connection, actor: Actor, **which) -> int:
    """End the sessions `_sessions_where(conn, **which)` finds; how many rows changed."""
    return conn.execute(sa.update(sessions_t).where(_sessions_where(conn, **which)).values(
        revoked_at=db.now(), revoked_by=actor.name)).rowcount


def end_sessions(conn: Connection, actor: Actor, **which) -> Ended:
    """`_revoke`, counting the open sessions it ended (a stale one, ended by time already,
    is revoked too but not counted): the judges (a name in a tournament) and their
    sessions, and the organizer's sessions."""
    now, own = db.now(), db.tournament_id(conn)
    rows = [r for r in conn.execute(sa.select(sessions_t).where(_sessions_where(conn, **which)))
            if session_open(r, now)]
    _revoke(conn, actor, **which)
    judges = [r for r in rows if r.role == Role.JUDGE.value]
    return Ended(judges=len({(r.actor, r.tournament_id if r.tournament_id is not None else own)
                             for r in judges}),
                 judge_sessions=len(judges), organizer_sessions=len(rows) - len(judges))


def withdraw_invitations(conn: Connection, tournament_id: int | None, *,
                         every: bool = False) -> int:
    """Withdraw the open invitations of tournament `tournament_id` (`every`: of every
    tournament), so their QR codes and links sign nobody in; how many were open. Their
    sessions are judges' sessions, which the step that calls this ends. (Issue 33.)"""
    now, t = db.now(), invitations_t
    where = t.c.revoked_at.is_(None) & (t.c.expires_at > now)
    if not every:
        mine = t.c.tournament_id == tournament_id
        if tournament_id is not None and tournament_id == db.tournament_id(conn):
            mine |= t.c.tournament_id.is_(None)  # made before version 7: the own one's
        where &= mine
    return conn.execute(sa.update(t).where(where).values(revoked_at=now)).rowcount


def end_sessions_of_invitation(conn: Connection, actor: Actor, invitation_id: int) -> int:
    """End every open session opened with invitation `invitation_id`; how many ended."""
    return _revoke(conn, actor, invitation_id=int(invitation_id))


# -- handing a session to a browser ----------------------------------------------------------
def handoff(engine: Engine, session_id: str) -> str:
    """R20: a one-time code (256 random bits, URL-safe) that `redeem_handoff` turns back into
    the open session `session_id` within `HANDOFF_SECONDS`: the address can carry the code,
    never the session id. The database keeps only the code's SHA-256 hash and the session id
    sealed with a key derived from the code (`auth.seal`), so neither it nor a copy of it can
    give the session away. Raises `TournamentError` when the session has ended."""
    if plausible_token(session_id) is None:
        raise TournamentError(_(SIGN_IN_ENDED))
    key, code = auth.session_hash(session_id), auth.new_token()

    def work(conn: Connection) -> None:
        now = db.now()
        conn.execute(sa.delete(handoffs_t).where(handoffs_t.c.expires_at <= now))
        row = conn.execute(sa.select(sessions_t).where(sessions_t.c.id_hash == key)).first()
        if not session_open(row, now):
            raise TournamentError(_(SIGN_IN_ENDED))
        conn.execute(sa.insert(handoffs_t).values(
            code_hash=auth.token_hash(code), session_hash=key,
            sealed=auth.seal(session_id, code), created_at=now,
            expires_at=now + dt.timedelta(seconds=HANDOFF_SECONDS)))

    db.write(db.installation(engine), work)
    return code


def redeem_handoff(engine: Engine, code: str, *, device: str | None = None) -> Redeemed | None:
    """R20: the session a `handoff` code stands for, once: the code is gone after this call
    (or once `HANDOFF_SECONDS` passed). None for an unknown, used or expired code, or a session
    that has ended. `device` is the browser's device token, if it has one: kept when trusted,
    else a new one is issued (`keep_device`); `Redeemed.device` is the one to keep."""
    if plausible_token(code) is None:
        return None
    key = auth.token_hash(code)

    def work(conn: Connection) -> Redeemed | None:
        now = db.now()
        row = conn.execute(sa.select(handoffs_t).where(handoffs_t.c.code_hash == key)).first()
        if row is None:
            return None
        if conn.execute(sa.delete(handoffs_t).where(handoffs_t.c.code_hash == key)).rowcount != 1:
            return None  # redeemed at this moment by another request
        session_id = auth.unseal(row.sealed, code)
        if row.expires_at <= now or session_id is None \
                or auth.session_hash(session_id) != row.session_hash:
            return None
        found = conn.execute(sa.select(sessions_t)
                             .where(sessions_t.c.id_hash == row.session_hash)).first()
        if not session_open(found, now):
            return None
        who = session_person(found, None, own)
        assert who is not None  # on no tournament in particular, every open session is someone
        return Redeemed(session_id, keep_device(conn, device, who.role, now), who)

    own = db.tournament_id(db.installation(engine))
    return db.write(db.installation(engine), work)


def sign_out(engine: Engine, session_id: str | None) -> None:
    """End this session: its address no longer signs anyone in."""
    if not isinstance(session_id, str):
        return
    key = auth.session_hash(session_id)

    def work(conn: Connection) -> None:
        row = conn.execute(sa.select(sessions_t).where(sessions_t.c.id_hash == key)).first()
        if row is not None:
            _revoke(conn, Actor(row.actor, Role(row.role)), id_hash=key)

    db.write(db.installation(engine), work)


def sign_everyone_out(engine: Engine, *, actor: Actor, keep: str | None = None) -> Ended:
    """The organizer ends every open session but `keep` (their own) and withdraws every open
    invitation, in every tournament of the installation (its sessions and invitations are
    the installation's, like the organizer's PIN; issue 33: a photographed QR code signed a
    judge in after this). Trusted devices stay trusted: a device signs nobody in by itself,
    and it keeps the judges' phones out of a pause that a leaked PIN's guessers may cause.
    Logged; returns what ended."""
    require(actor, Role.ORGANIZER, action=N_("sign everyone out"))
    keep_hash = auth.session_hash(keep) if isinstance(keep, str) else None

    def work(conn: Connection) -> Ended:
        ended = end_sessions(conn, actor, keep=keep_hash) + Ended(
            invitations=withdraw_invitations(conn, None, every=True))
        audit.log(conn, actor, Action.SESSION_REVOKE_ALL, "sessions", after=ended.logged())
        return ended

    return db.write(db.installation(engine), work)


SESSION_COLUMNS = {"actor": "str", "role": "str", "client": "str", "created_at": frames.UTC_TIME,
                   "last_seen_at": frames.UTC_TIME}


def open_sessions(engine: Engine, *, actor: Actor) -> pd.DataFrame:
    """Open sessions, newest first (organizer only): who, as what, from where, since when."""
    require(actor, Role.ORGANIZER, action=N_("see who is signed in"))
    now = db.now()
    with db.reading(db.installation(engine)) as conn:
        return frames.query_frame(conn, sa.select(*[sessions_t.c[c] for c in SESSION_COLUMNS])
                              .where(sessions_t.c.revoked_at.is_(None),
                                     sessions_t.c.last_seen_at
                                     >= now - dt.timedelta(hours=SESSION_IDLE_HOURS),
                                     sessions_t.c.created_at
                                     > now - dt.timedelta(hours=SESSION_MAX_HOURS))
                              .order_by(sessions_t.c.created_at.desc()), SESSION_COLUMNS)
