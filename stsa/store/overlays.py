"""Stream overlays: transparent pages a stream loads as a browser source (README, "Overlays").

An overlay shows one thing of one tournament: a filmed table of the sitting being played
(`table`, by its number), the standings with the cut (`standings`) or what comes next on the
schedule (`next`). Its address holds a random 256-bit token: the database keeps only the token's
hash (like an invitation's), the log names the overlay, never the token, and the organizer
withdraws it, after which its address shows nothing. An overlay shows only what a spectator may
see (the feed's allow-lists), so the token grants no more than the public pages; it keeps a
stream's address from being guessed and lets the organizer end it. Kept in the installation's
database, like every token; never in a backup or a workbook (`schema.ACCESS_TABLES`).
"""

from __future__ import annotations

import pandas as pd
import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from stsa import auth
from stsa.auth import Actor, require
from stsa.domain import Action, Role, TournamentError, whole_number
from stsa.i18n import N_, _
from stsa.store import audit, db, frames
from stsa.store.errors import InvalidState
from stsa.store.schema import overlays as overlays_t
from stsa.store.tournaments import archived

KINDS = ("table", "standings", "next")
OVERLAY_COLUMNS = {"id": "int64", "kind": "str", "table_no": "Int64", "label": "str",
                   "created_at": frames.UTC_TIME, "revoked": "bool"}
LABEL_CHARACTERS = 100


def _checked(kind, table_no, label) -> tuple[str, int | None, str]:
    if kind not in KINDS:
        raise TournamentError(_("An overlay shows a table, the standings or what comes next."))
    if kind == "table":
        whole = whole_number(table_no, text=False)
        if whole is None or whole < 1:
            raise TournamentError(_("A table's overlay needs the table's number (1 or more)."))
        table_no = whole
    else:
        table_no = None
    label = " ".join(str(label or "").split())
    if len(label) > LABEL_CHARACTERS:
        raise TournamentError(_("An overlay's label is at most {count} characters.")
                              .format(count=LABEL_CHARACTERS))
    return kind, table_no, label


def create_overlay(engine: Engine, kind: str, *, table_no: int | None = None,
                   label: str = "", actor: Actor) -> tuple[int, str]:
    """A new overlay of this tournament (organizer only): `kind` "table" (with `table_no`,
    the filmed table of the sitting being played), "standings" or "next"; `label` says which
    camera or scene (at most 100 characters). Returns (its id, its token): show the token
    once, in the overlay's address; only its hash is stored. Logged without the token."""
    require(actor, Role.ORGANIZER, action=N_("make stream overlays"))
    kind, table_no, label = _checked(kind, table_no, label)
    token, tid = auth.new_token(), db.tournament_id(engine)
    if tid is None:
        raise TournamentError(_("This database holds no tournament list: open it with this "
                                "STSA first."))
    if archived(engine) is not None:  # R27: kept as it was (issue 33)
        raise InvalidState(_("This tournament is archived, so it takes no new stream "
                             "overlays. Reopen it on the Tournaments page to make one."))

    def work(conn: Connection) -> int:
        made = conn.execute(sa.insert(overlays_t).values(
            token_hash=auth.token_hash(token), tournament_id=tid, kind=kind,
            table_no=table_no, label=label, created_by=actor.name, created_at=db.now(),
        )).inserted_primary_key[0]  # type: ignore[index]
        audit.log(conn, actor, Action.OVERLAY_CREATE, f"overlay {made}",
                  after={"kind": kind, "table_no": table_no, "label": label,
                         "tournament_id": tid})
        return int(made)

    return db.write(db.installation(engine), work), token


def overlays(engine: Engine, *, actor: Actor) -> pd.DataFrame:
    """This tournament's overlays, newest first (organizer only): `id, kind, table_no,
    label, created_at, revoked` (no token, no hash)."""
    require(actor, Role.ORGANIZER, action=N_("see the stream overlays"))
    t = overlays_t
    with db.reading(db.installation(engine)) as conn:
        return frames.query_frame(conn, sa.select(
            t.c.id, t.c.kind, t.c.table_no, t.c.label, t.c.created_at,
            sa.case((t.c.revoked_at.is_(None), False), else_=True).label("revoked"))
            .where(t.c.tournament_id == db.tournament_id(engine))
            .order_by(t.c.id.desc()), OVERLAY_COLUMNS)


def revoke_overlay(engine: Engine, overlay_id: int, *, actor: Actor) -> bool:
    """Withdraw an overlay (organizer only): its address shows nothing from now on. Logged;
    False (and nothing logged) when it was withdrawn already."""
    require(actor, Role.ORGANIZER, action=N_("withdraw stream overlays"))

    def work(conn: Connection) -> bool:
        row = db.lock_row(conn, overlays_t, int(overlay_id), "overlay")
        if row.revoked_at is not None:
            return False
        if row.tournament_id != db.tournament_id(engine):
            raise TournamentError(_("That overlay belongs to another tournament."))
        conn.execute(sa.update(overlays_t).where(overlays_t.c.id == row.id)
                     .values(revoked_at=db.now()))
        audit.log(conn, actor, Action.OVERLAY_REVOKE, f"overlay {row.id}",
                  after={"kind": row.kind, "table_no": row.table_no, "label": row.label})
        return True

    return db.write(db.installation(engine), work)


def overlay_of_token(installation: Engine, token: str) -> dict | None:
    """What the overlay with `token` shows, `{id, tournament_id, kind, table_no, label}`, or
    None for a token that is unknown or withdrawn. Public: the token is the overlay's
    address."""
    t = overlays_t
    with db.reading(installation) as conn:
        row = conn.execute(sa.select(t.c.id, t.c.tournament_id, t.c.kind, t.c.table_no,
                                     t.c.label)
                           .where(t.c.token_hash == auth.token_hash(str(token)),
                                  t.c.revoked_at.is_(None))).first()
    return None if row is None else dict(row._mapping)


def live_overlays(installation: Engine) -> dict[str, dict]:
    """Every overlay not withdrawn, by its token's hash (`{id, tournament_id, kind, table_no,
    label}`): for a server that keeps them per installation data version (making and
    withdrawing are logged there)."""
    t = overlays_t
    with db.reading(installation) as conn:
        rows = conn.execute(sa.select(t.c.token_hash, t.c.id, t.c.tournament_id, t.c.kind,
                                      t.c.table_no, t.c.label)
                            .where(t.c.revoked_at.is_(None))).all()
    return {row.token_hash: {k: v for k, v in row._mapping.items() if k != "token_hash"}
            for row in rows}
