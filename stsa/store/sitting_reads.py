"""Sittings as they are read (R3, R6, R20): one sitting (`SittingRow`), the sittings in order,
their tables, seats, sit-outs and waiting lists, the table numbers and how often each setup
was drawn; unpublished draws only for the judges and the organizer. `stsa.store.draws` writes
them.
"""

from __future__ import annotations

import datetime as dt
from typing import TypedDict, cast

import pandas as pd
import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from stsa.auth import Actor, can_see_hidden
from stsa.domain import (
    Kind,
    SittingStatus,
)
from stsa.i18n import _
from stsa.store import checks, db, frames
from stsa.store.errors import NotFound
from stsa.store.schema import KINDS
from stsa.store.schema import players as players_t
from stsa.store.schema import seats as seats_t
from stsa.store.schema import sit_outs as sit_outs_t
from stsa.store.schema import sittings as sittings_t
from stsa.store.schema import tables as tables_t
from stsa.store.schema import waiting as waiting_t

SITTING_COLUMNS = {"sitting_id": "int64", "kind": "str", "number": "int64", "seed": "int64",
                   "status": "str", "created_by": "str", "created_at": frames.UTC_TIME,
                   "published_at": frames.UTC_TIME, "completed_at": frames.UTC_TIME,
                   "tables": "int64", "results": "int64", "rule_change": "str",
                   "rule_change_points": "str"}
TABLE_COLUMNS = {"table_id": "int64", "sitting_id": "int64", "kind": "str", "sitting_no": "int64",
                 "table_no": "int64", "setup_id": "str", "setup_override": "bool",
                 "removed_leaders": "object", "available_leaders": "object", "version": "int64",
                 "players": "int64"}
SEAT_COLUMNS = {"table_id": "int64", "sitting_id": "int64", "kind": "str", "sitting_no": "int64",
                "table_no": "int64", "seat": "int64", "player_id": "int64", "name": "str",
                "colour": "str", "pick_order": "int64", "nickname": "str"}
VISIBLE = (SittingStatus.PUBLISHED.value, SittingStatus.COMPLETE.value)  # R20: for spectators


class SittingRow(TypedDict):
    """One sitting as the store returns it (a row of the sittings table, its id as
    `sitting_id`, its seed as an int): what a draw, a publish, a completion or `sitting`
    returns. A typed dict, so mypy names a wrong key where STSA reads one."""

    sitting_id: int
    kind: str
    number: int
    seed: int
    status: str
    created_by: str
    created_at: dt.datetime
    published_at: dt.datetime | None
    completed_at: dt.datetime | None
    rule_change: str
    rule_change_points: str


def sitting_row(row) -> SittingRow:
    m = dict(row._mapping)
    return cast(SittingRow, {"sitting_id": m.pop("id"), **m, "seed": int(m["seed"])})


# -- the reads -------------------------------------------------------------------------------
def sitting(engine: Engine, sitting_id: int) -> SittingRow:
    """One sitting as a dict (`sitting_id, kind, number, seed` (R3), `status, …`); `NotFound`
    if none."""
    with db.reading(engine) as conn:
        row = conn.execute(sa.select(sittings_t)
                           .where(sittings_t.c.id == int(sitting_id))).first()
    if row is None:
        raise NotFound(_("There is no sitting with id {sitting}.").format(sitting=sitting_id))
    return sitting_row(row)


def sittings(engine: Engine, *, kind: str | None = None,
             actor: Actor | None = None) -> pd.DataFrame:
    """Sittings in order (qualifiers, semifinal, final; by number): `sitting_id, kind, number,
    seed, status, created_by, created_at, published_at, completed_at, tables, results` (counts
    of tables and of tables with a result). R20: unpublished draws only for judges/organizer."""
    counts = (sa.select(tables_t.c.sitting_id, sa.func.count().label("n"),
                        sa.func.sum(sa.case((tables_t.c.result_version > 0, 1), else_=0))
                        .label("done"))
              .group_by(tables_t.c.sitting_id).subquery())
    order = sa.case({k: i for i, k in enumerate(KINDS)}, value=sittings_t.c.kind)
    q = (sa.select(sittings_t, sa.func.coalesce(counts.c.n, 0).label("tables"),
                   sa.func.coalesce(counts.c.done, 0).label("results"))
         .outerjoin(counts, counts.c.sitting_id == sittings_t.c.id)
         .order_by(order, sittings_t.c.number))
    if kind is not None:
        q = q.where(sittings_t.c.kind == checks.check_kind(kind))
    if not can_see_hidden(actor):
        q = q.where(sittings_t.c.status.in_(VISIBLE))
    with db.reading(engine) as conn:
        rows = [sitting_row(r) for r in conn.execute(q)]
    return frames.frame(rows, SITTING_COLUMNS)


def _scope(q, *, sitting_id, kind, actor, table_id=None):
    if sitting_id is not None:
        q = q.where(sittings_t.c.id == int(sitting_id))
    if kind is not None:
        q = q.where(sittings_t.c.kind == checks.check_kind(kind))
    if table_id is not None:
        q = q.where(tables_t.c.id == int(table_id))
    if not can_see_hidden(actor):
        q = q.where(sittings_t.c.status.in_(VISIBLE))
    return q


def tables(engine: Engine | Connection, sitting_id: int | None = None, *, kind: str | None = None,
           table_id: int | None = None, actor: Actor | None = None) -> pd.DataFrame:
    """Tables: `table_id` (the results' game id), `sitting_id, kind, sitting_no, table_no,
    setup_id, setup_override, removed_leaders, available_leaders, version` (0 = no result yet),
    `players`. R20: leader lists are None (hidden) unless `actor` is a judge or the organizer;
    spectators see published sittings only. R6: `setup_override` flags hand-set setups."""
    n_players = (sa.select(seats_t.c.table_id, sa.func.count().label("n"))
                 .group_by(seats_t.c.table_id).subquery())
    q = (sa.select(tables_t.c.id.label("table_id"), tables_t.c.sitting_id, sittings_t.c.kind,
                   sittings_t.c.number.label("sitting_no"), tables_t.c.table_no,
                   tables_t.c.setup_id, tables_t.c.setup_override, tables_t.c.removed_leaders,
                   tables_t.c.available_leaders, tables_t.c.result_version.label("version"),
                   sa.func.coalesce(n_players.c.n, 0).label("players"))
         .join(sittings_t, sittings_t.c.id == tables_t.c.sitting_id)
         .outerjoin(n_players, n_players.c.table_id == tables_t.c.id)
         .order_by(tables_t.c.sitting_id, tables_t.c.table_no))
    q = _scope(q, sitting_id=sitting_id, kind=kind, actor=actor, table_id=table_id)
    hidden = not can_see_hidden(actor)
    with db.reading(engine) as conn:
        rows = [dict(r._mapping) for r in conn.execute(q)]
    for r in rows:
        r["setup_override"] = bool(r["setup_override"])
        for col in ("removed_leaders", "available_leaders"):
            r[col] = None if hidden else frames.loads(r[col])
    return frames.frame(rows, TABLE_COLUMNS)


def table_numbers(engine: Engine, *, actor: Actor | None = None) -> pd.DataFrame:
    """Every table's `table_id, sitting_id, table_no`: how people name a table (the log in
    words, R19). One light read, without leader lists; spectators see published sittings
    only (R20)."""
    q = (sa.select(tables_t.c.id.label("table_id"), tables_t.c.sitting_id, tables_t.c.table_no)
         .join(sittings_t, sittings_t.c.id == tables_t.c.sitting_id)
         .order_by(tables_t.c.id))
    q = _scope(q, sitting_id=None, kind=None, actor=actor)
    with db.reading(engine) as conn:
        rows = [dict(r._mapping) for r in conn.execute(q)]
    return frames.frame(rows, {"table_id": "int64", "sitting_id": "int64", "table_no": "int64"})


# R22: a player's nickname (their name where none was stored)
_NICKNAME = sa.func.coalesce(sa.func.nullif(players_t.c.nickname, ""), players_t.c.name)


def _name(actor: Actor | None):
    """The player's name as `actor` may see it: the real name for judges and the organizer,
    else the nickname (R22)."""
    return players_t.c.name if can_see_hidden(actor) else _NICKNAME.label("name")


def seats(engine: Engine, sitting_id: int | None = None, *, kind: str | None = None,
          table_id: int | None = None, actor: Actor | None = None) -> pd.DataFrame:
    """Seats of drawn sittings: `table_id, sitting_id, kind, sitting_no, table_no, seat,
    player_id, name, colour, pick_order, nickname`, by sitting, table, seat (R3, R9). R20:
    spectators see published sittings only; R22: their `name` is the nickname."""
    q = (sa.select(seats_t.c.table_id, seats_t.c.sitting_id, sittings_t.c.kind,
                   sittings_t.c.number.label("sitting_no"), tables_t.c.table_no, seats_t.c.seat,
                   seats_t.c.player_id, _name(actor), seats_t.c.colour,
                   seats_t.c.pick_order, _NICKNAME.label("nickname"))
         .join(tables_t, tables_t.c.id == seats_t.c.table_id)
         .join(sittings_t, sittings_t.c.id == seats_t.c.sitting_id)
         .join(players_t, players_t.c.id == seats_t.c.player_id)
         .order_by(seats_t.c.sitting_id, tables_t.c.table_no, seats_t.c.seat))
    q = _scope(q, sitting_id=sitting_id, kind=kind, actor=actor, table_id=table_id)
    with db.reading(engine) as conn:
        return frames.query_frame(conn, q, SEAT_COLUMNS)


def _sitting_players(engine: Engine, table: sa.Table, sitting_id: int | None,
                     actor: Actor | None, *numbers: str) -> pd.DataFrame:
    """`sitting_id, player_id, name, nickname` (R22: for spectators `name` is the nickname)
    and the whole-number columns `numbers` of a table of players per sitting, by sitting,
    `numbers` and player. R20: spectators see published sittings only."""
    extra = [table.c[n] for n in numbers]
    q = (sa.select(table.c.sitting_id, table.c.player_id, _name(actor),
                   _NICKNAME.label("nickname"), *extra)
         .join(players_t, players_t.c.id == table.c.player_id)
         .join(sittings_t, sittings_t.c.id == table.c.sitting_id)
         .order_by(table.c.sitting_id, *extra, table.c.player_id))
    q = _scope(q, sitting_id=sitting_id, kind=None, actor=actor)
    with db.reading(engine) as conn:
        return frames.query_frame(conn, q, {"sitting_id": "int64", "player_id": "int64",
                                        "name": "str", "nickname": "str",
                                        **{n: "int64" for n in numbers}})


def sit_outs(engine: Engine, sitting_id: int | None = None, *,
             actor: Actor | None = None) -> pd.DataFrame:
    """R1: players the draw chose to sit a sitting out: `sitting_id, player_id, name,
    nickname` (R22: for spectators `name` is the nickname)."""
    return _sitting_players(engine, sit_outs_t, sitting_id, actor)


def waiting(engine: Engine, sitting_id: int | None = None, *,
            actor: Actor | None = None) -> pd.DataFrame:
    """R21: the players a qualifier sitting had no seat for: `sitting_id, player_id, name,
    nickname` (R22: for spectators `name` is the nickname), `position` (1 = next in line), by
    sitting and position. R20: spectators see published sittings only."""
    return _sitting_players(engine, waiting_t, sitting_id, actor, "position")


def setup_counts(engine: Engine, *, include_drawn: bool = False) -> dict[str, int]:
    """R6: how many tables used each setup across the qualifier sittings so far (published or
    complete; also unpublished ones with `include_drawn`), for the next draw's balancing."""
    statuses = (SittingStatus.DRAWN.value, *VISIBLE) if include_drawn else VISIBLE
    q = (sa.select(tables_t.c.setup_id, sa.func.count())
         .join(sittings_t, sittings_t.c.id == tables_t.c.sitting_id)
         .where(sittings_t.c.kind == Kind.QUALIFIER.value, sittings_t.c.status.in_(statuses))
         .group_by(tables_t.c.setup_id).order_by(tables_t.c.setup_id))
    with db.reading(engine) as conn:
        return {setup: int(n) for setup, n in conn.execute(q)}
