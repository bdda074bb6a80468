"""Judges' invitations (R20): a judge signs in with no typing, by scanning a QR code on the
organizer's screen.

An invitation is a random 256-bit token for one judge's name, valid for 1 to 24 hours until
the organizer withdraws it, or a recovery step withdraws it with the rest (issue 33: "Sign
everyone out", a new PIN, `make pins`: `sessions.withdraw_invitations`). The token is in the
QR code (and the link shown beside it) only: the database keeps its SHA-256 hash, and the
log names the judge, never the token. Joining needs no PIN and has no back-off (256 random
bits cannot be guessed); it opens a judge session in the invitation's name that
carries the invitation's id, so withdrawing the invitation ends those sessions too. None of
this is in a backup or a workbook (`schema.ACCESS_TABLES`).
"""

from __future__ import annotations

import datetime as dt

import pandas as pd
import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from stsa import auth
from stsa.auth import Actor, require
from stsa.domain import Action, Role, TournamentError, whole_number
from stsa.i18n import N_, _
from stsa.store import audit, credentials, db, devices, frames, sessions
from stsa.store.errors import InvalidState
from stsa.store.schema import invitations as invitations_t
from stsa.store.schema import tournaments as tournaments_t
from stsa.store.sessions import Redeemed
from stsa.store.tournaments import archived

INVITATION_HOURS = range(1, 25)  # how long an invitation may last, in whole hours
INVALID = N_("This invitation is not valid (it may have expired or been withdrawn). Ask the "
             "organizer for a new one.")
INVITATION_COLUMNS = {"id": "int64", "name": "str", "created_at": frames.UTC_TIME,
                      "expires_at": frames.UTC_TIME, "revoked": "bool", "uses": "int64"}
OPEN_COLUMNS = {"id": "int64", "name": "str", "tournament": "str",
                "expires_at": frames.UTC_TIME, "uses": "int64"}


def _hours(hours) -> int:
    whole = whole_number(hours, text=False)
    if whole is None or whole not in INVITATION_HOURS:
        raise TournamentError(_("An invitation lasts {least} to {most} whole hours.").format(
            least=INVITATION_HOURS[0], most=INVITATION_HOURS[-1]))
    return whole


def create_invitation(engine: Engine, name: str, *, hours: int = 6,
                      actor: Actor) -> tuple[int, str]:
    """R20: the organizer invites the judge `name` (for the log, at most 60 characters) to sign
    in by QR code for `hours` (1 to 24). Returns (the invitation's id, its token): show the
    token once, in the QR code of `<app address>/join#<token>`; only its hash is stored.
    Logged without the token. An archived tournament takes none (`InvalidState`, R27)."""
    require(actor, Role.ORGANIZER, action=N_("invite judges"))
    name, hours = credentials.clean_name(name, "the judge's"), _hours(hours)
    if archived(engine) is not None:
        raise InvalidState(_("This tournament is archived, so it takes no new judge "
                             "invitations. Reopen it on the Tournaments page to invite one."))
    token = auth.new_token()

    def work(conn: Connection) -> int:
        now = db.now()
        made = conn.execute(sa.insert(invitations_t).values(
            token_hash=auth.token_hash(token), name=name, role=Role.JUDGE.value,
            created_by=actor.name, created_at=now, expires_at=now + dt.timedelta(hours=hours),
            uses=0, tournament_id=tid)).inserted_primary_key[0]  # type: ignore[index]
        audit.log(conn, actor, Action.INVITATION_CREATE, f"invitation {made}",
               after={"name": name, "hours": hours, "tournament_id": tid})
        return int(made)

    tid = db.tournament_id(engine)
    return db.write(db.installation(engine), work), token


def invitations(engine: Engine, *, actor: Actor) -> pd.DataFrame:
    """The invitations made, newest first (organizer only): `id, name, created_at,
    expires_at, revoked, uses` (no token, no hash)."""
    require(actor, Role.ORGANIZER, action=N_("see the invitations"))
    t = invitations_t
    inst, tid = db.installation(engine), db.tournament_id(engine)
    mine = t.c.tournament_id == tid  # R27: this tournament's (before version 7: the own one)
    if tid is not None and tid == db.tournament_id(inst):
        mine |= t.c.tournament_id.is_(None)
    with db.reading(inst) as conn:
        return frames.query_frame(conn, sa.select(
            t.c.id, t.c.name, t.c.created_at, t.c.expires_at,
            sa.case((t.c.revoked_at.is_(None), False), else_=True).label("revoked"),
            t.c.uses).where(mine if tid is not None else sa.true())
            .order_by(t.c.id.desc()), INVITATION_COLUMNS)


def open_invitations(engine: Engine, *, actor: Actor) -> pd.DataFrame:
    """The invitations that still sign a judge in, in every tournament of the installation,
    newest first (organizer only, for the list beside who is signed in): `id, name,
    tournament` (its key), `expires_at, uses` (no token, no hash)."""
    require(actor, Role.ORGANIZER, action=N_("see the invitations"))
    t, listed, inst = invitations_t, tournaments_t, db.installation(engine)
    whose = sa.func.coalesce(t.c.tournament_id, db.tournament_id(inst))
    with db.reading(inst) as conn:
        return frames.query_frame(conn, sa.select(
            t.c.id, t.c.name, sa.func.coalesce(listed.c.key, "").label("tournament"),
            t.c.expires_at, t.c.uses)
            .select_from(t.outerjoin(listed, listed.c.id == whose))
            .where(t.c.revoked_at.is_(None), t.c.expires_at > db.now())
            .order_by(t.c.id.desc()), OPEN_COLUMNS)


def revoke_invitation(engine: Engine, invitation_id: int, *, actor: Actor) -> int:
    """R20: the organizer withdraws an invitation: its QR code signs nobody in any more, and
    every session opened with it ends. Logged; returns how many sessions ended. Withdrawing it
    again changes nothing (0)."""
    require(actor, Role.ORGANIZER, action=N_("withdraw invitations"))

    def work(conn: Connection) -> int:
        row = db.lock_row(conn, invitations_t, int(invitation_id), "invitation")
        if row.revoked_at is not None:
            return 0
        conn.execute(sa.update(invitations_t).where(invitations_t.c.id == row.id)
                     .values(revoked_at=db.now()))
        ended = sessions.end_sessions_of_invitation(conn, actor, row.id)
        audit.log(conn, actor, Action.INVITATION_REVOKE, f"invitation {row.id}",
               after={"name": row.name, "ended": ended})
        return ended

    return db.write(db.installation(engine), work)


def join(engine: Engine, token: str, *, client: str = "local",
         device: str | None = None) -> Redeemed:
    """R20: sign in with an invitation's token (the `/join#<token>` page): opens a judge session
    in the invitation's name, counts the use and logs it (`invitation.use`). No PIN, so no
    back-off. An unknown, expired or withdrawn token raises `TournamentError` and writes
    nothing. `device` is the browser's device token: kept when trusted, else a new one is
    issued; `Redeemed.device` is the one to keep."""
    if credentials.plausible_token(token) is None:
        raise TournamentError(_(INVALID))
    key, session_id = auth.token_hash(token), auth.new_session_id()

    def work(conn: Connection) -> Redeemed:
        now = db.now()
        row = conn.execute(sa.select(invitations_t).where(invitations_t.c.token_hash == key)
                           .with_for_update()).first()
        if row is None or row.revoked_at is not None or row.expires_at <= now:
            raise TournamentError(_(INVALID))
        theirs = row.tournament_id if row.tournament_id is not None else own
        who = Actor(row.name, Role.JUDGE, theirs)
        sessions.open_session(conn, session_id, who, client, now, invitation_id=row.id,
                            tournament_id=theirs)
        conn.execute(sa.update(invitations_t).where(invitations_t.c.id == row.id)
                     .values(uses=invitations_t.c.uses + 1))
        kept = devices.keep_device(conn, device, Role.JUDGE, now)
        audit.log(conn, who, Action.INVITATION_USE, f"invitation {row.id}",
               after={"name": row.name, "uses": row.uses + 1})
        return Redeemed(session_id, kept, who)

    own = db.tournament_id(db.installation(engine))
    return db.write(db.installation(engine), work)
