"""Judges' unsaved result entries (R19): what a judge typed into a table's form and has not
saved yet, kept in the database under their name and the table, so that a reload, Back or a
phone that lost its connection finds it again. A draft is its judge's alone: nobody else reads
it, no standings or page counts it, and the judge's save of that table removes it in the
save's transaction. Drafts are not tournament data: writing one adds nothing to the log and
does not move the data version (a thousand spectators' pages do not read again for a judge's
keystroke), and a restore does not bring any back."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

import pandas as pd
import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from stsa.auth import Actor, require
from stsa.domain import Action, Role, TournamentError
from stsa.i18n import N_, _
from stsa.store import audit, checks, db, frames
from stsa.store.schema import result_drafts as drafts_t

DRAFT_FIELDS = ("leader", "vp", "spice", "solari", "troops", "water", "variant_points",
                "tiebreak")
MAX_ROWS = 8  # a table seats four; a draft with more rows is no form's


@dataclass(frozen=True)
class Draft:
    """A judge's unsaved entry: the result version it was typed over, the table's seating the
    form showed ({seat: player_id}), the rows (`player_id` and `DRAFT_FIELDS`, blanks as
    missing) and when it was last written."""

    table_id: int
    base_version: int
    seating: dict[int, int]
    rows: pd.DataFrame
    saved_at: dt.datetime


def _clean_rows(rows: Any) -> list[dict]:
    """The draft's rows as plain JSON values: a player id, a leader (text or None) and whole
    numbers or None; anything else is no form's entry and is refused."""
    records = checks.records(rows)
    if len(records) > MAX_ROWS:
        raise TournamentError(_("A draft holds at most {count} players.").format(
            count=MAX_ROWS))
    clean = []
    for rec in records:
        pid = checks.whole_number(rec.get("player_id"))
        if pid is None:
            raise TournamentError(_("A draft's row names no player."))
        leader = rec.get("leader")
        leader = None if leader is None or leader != leader else str(leader)[:100]
        numbers = {}
        for field in DRAFT_FIELDS[1:]:
            value = rec.get(field)
            number = None if value is None or value != value else checks.whole_number(value)
            if number is not None and abs(number) > checks.MAX_NUMBER:
                number = None
            numbers[field] = number
        clean.append({"player_id": pid, "leader": leader, **numbers})
    return clean


def save_draft(engine: Engine, table_id: int, rows: Any, *, base_version: int,
               seating: dict[int, int], actor: Actor) -> None:
    """Keep `rows` as `actor`'s unsaved entry for the table (replacing their earlier one), typed
    over result version `base_version` with the form's `seating`. Judges and the organizer
    only; not logged (a save is), but refused like a logged write in an archived tournament
    (`InvalidState`) or by another tournament's judge (`PermissionDenied`, R27). A table gone
    since (a voided sitting) keeps nothing."""
    require(actor, Role.JUDGE, Role.ORGANIZER, action=N_("enter results"))
    clean, version = _clean_rows(rows), checks.whole_number(base_version)
    if version is None or version < 0:
        raise TournamentError(_("A draft's base version is a whole number ≥ 0."))
    values = {"table_id": int(table_id), "judge": actor.name, "role": actor.role.value,
              "base_version": version, "rows": frames.dumps(clean),
              "seating": frames.dumps({str(int(s)): int(p) for s, p in seating.items()}),
              "saved_at": db.now()}

    def work(conn: Connection) -> None:
        audit.may_change_unlogged(conn, actor, Action.RESULT_SUBMIT)  # R27
        key = (drafts_t.c.table_id == int(table_id)) & (drafts_t.c.judge == actor.name)
        if conn.execute(sa.update(drafts_t).where(key).values(**values)).rowcount:
            return
        try:
            with conn.begin_nested():
                conn.execute(sa.insert(drafts_t).values(**values))
        except sa.exc.IntegrityError:  # no such table (any more): nothing to keep
            return

    db.write(engine, work)


def draft(engine: Engine, table_id: int, *, actor: Actor) -> Draft | None:
    """`actor`'s unsaved entry for the table, or None. Only ever the asker's own."""
    require(actor, Role.JUDGE, Role.ORGANIZER, action=N_("enter results"))
    with db.reading(engine) as conn:
        row = conn.execute(sa.select(drafts_t).where(
            (drafts_t.c.table_id == int(table_id)) & (drafts_t.c.judge == actor.name))).first()
    if row is None:
        return None
    rows = pd.DataFrame(frames.loads(row.rows), columns=["player_id", *DRAFT_FIELDS])
    return Draft(table_id=int(row.table_id), base_version=int(row.base_version),
                 seating={int(s): int(p) for s, p in frames.loads(row.seating).items()},
                 rows=rows.astype({f: "Int64" for f in DRAFT_FIELDS[1:]} | {"player_id": "int64",
                                                                            "leader": object}),
                 saved_at=row.saved_at)


def clear_draft(engine: Engine | Connection, table_id: int, *, actor: Actor) -> bool:
    """Forget `actor`'s unsaved entry for the table; whether there was one. In a connection
    (a save's transaction), it goes with that transaction."""
    key = (drafts_t.c.table_id == int(table_id)) & (drafts_t.c.judge == actor.name)
    if isinstance(engine, Connection):
        return bool(engine.execute(sa.delete(drafts_t).where(key)).rowcount)
    require(actor, Role.JUDGE, Role.ORGANIZER, action=N_("enter results"))

    def work(conn: Connection) -> bool:
        audit.may_change_unlogged(conn, actor, Action.RESULT_SUBMIT)  # R27
        return bool(conn.execute(sa.delete(drafts_t).where(key)).rowcount)

    return db.write(engine, work)
