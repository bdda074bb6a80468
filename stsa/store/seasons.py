"""The installation's seasons (R27): named groups of tournaments, each with its standing, the
format's own logic by default (`stsa.season`) or a table of points per final rank (*setting*).

Seasons live in the installation's database (`db.installation`), whichever tournament's
engine is passed; which tournaments a season holds is the list's (`tournaments.set_season`).
Every write is the organizer's, one transaction, logged in the installation's log as
`Action.SEASON_SET`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd
import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from stsa.auth import Actor, require
from stsa.domain import Action, Role, TournamentError, whole_number
from stsa.i18n import N_, _
from stsa.store import audit, db, frames, schema
from stsa.store.errors import DuplicateName, NotFound

s = schema.seasons
NAME_MAX = 200  # the column's length
POINTS_MAX = 1000  # final ranks in a points table: far more than any tournament has players
SEASON_COLUMNS = {"season_id": "int64", "name": "str", "points": "object"}


def check_name(name: Any) -> str:
    """A season's name with its spaces tidied, or a `TournamentError` saying what is wrong."""
    text = " ".join(str(name if name is not None else "").split())
    if not text:
        raise TournamentError(_("A season needs a name."))
    if len(text) > NAME_MAX:
        raise TournamentError(_("A season's name has at most {limit} characters (this one has "
                                "{count}).").format(limit=NAME_MAX, count=len(text)))
    return text


def check_points(points: Mapping | None) -> dict[int, int] | None:
    """R27: a points table {final rank: points} checked: ranks 1, 2, … N (every one, whole),
    points whole and at least 0; None (the default standing) stays None."""
    if points is None:
        return None
    if not isinstance(points, Mapping):
        raise TournamentError(_("A points table gives the points of each final rank "
                                "({example}).").format(example="{1: 25, 2: 18, …}"))
    if not points:
        raise TournamentError(_("A points table needs the points of final rank 1 at least; "
                                "for the format's own standing choose no table."))
    table: dict[int, int] = {}
    for rank, value in points.items():
        r, p = whole_number(rank), whole_number(value)
        if r is None or r < 1:
            raise TournamentError(_("A final rank in a points table is a whole number from 1 "
                                    "({typed} is not).").format(typed=repr(str(rank)[:20])))
        if p is None or p < 0:
            raise TournamentError(_("Final rank {rank}: points are a whole number, 0 or more "
                                    "({typed} is not).").format(
                rank=r, typed=repr(str(value)[:20])))
        if r in table:
            raise TournamentError(_("Final rank {rank} is given twice in the points table.")
                                  .format(rank=r))
        table[r] = p
    if len(table) > POINTS_MAX:
        raise TournamentError(_("A points table has at most {count} final ranks.").format(
            count=POINTS_MAX))
    missing = sorted(set(range(1, max(table) + 1)) - set(table))
    if missing:
        raise TournamentError(_("The points table skips final rank {ranks}: give ranks 1 to "
                                "{last}, each once.").format(
            ranks=", ".join(map(str, missing[:5])), last=max(table)))
    return dict(sorted(table.items()))


def _stored(points: dict[int, int] | None) -> str | None:
    return None if points is None else frames.dumps({str(k): v for k, v in points.items()})


def _loaded(text: str | None) -> dict[int, int] | None:
    found = frames.loads(text)
    return None if found is None else {int(k): int(v) for k, v in found.items()}


def _unique(conn: Connection, name: str, season_id: int | None = None) -> None:
    q = sa.select(s.c.id, s.c.name)
    taken = [r for r in conn.execute(q) if r.name.casefold() == name.casefold()
             and r.id != season_id]
    if taken:
        raise DuplicateName(_("There is a season named “{season}” already: choose another "
                              "name.").format(season=taken[0].name))


def create_season(engine: Engine, name: str, *, points: Mapping | None = None,
                  actor: Actor) -> int:
    """R27: a new season named `name` (unique, case aside; at most 200 characters) with its
    points table (`check_points`; None: the format's own standing). Organizer only; logged.
    Returns its id. Tournaments join it with `set_season`."""
    require(actor, Role.ORGANIZER, action=N_("create seasons"))
    clean, table = check_name(name), check_points(points)

    def work(conn: Connection) -> int:
        _unique(conn, clean)
        made = int(conn.execute(sa.insert(s).values(
            name=clean, points=_stored(table), created_by=actor.name,
            created_at=db.now())).inserted_primary_key[0])  # type: ignore[index]
        audit.log(conn, actor, Action.SEASON_SET, f"season {made}",
                  after={"name": clean, "points": table})
        return made

    return db.write(db.installation(engine), work)


def seasons(engine: Engine | Connection) -> pd.DataFrame:
    """R27: the installation's seasons, oldest first: `season_id, name, points` (the points
    table as {final rank: points}, or None for the format's own standing)."""
    inst = engine if isinstance(engine, Connection) else db.installation(engine)
    with db.reading(inst) as conn:
        rows = [{"season_id": r.id, "name": r.name, "points": _loaded(r.points)}
                for r in conn.execute(sa.select(s.c.id, s.c.name, s.c.points).order_by(s.c.id))]
    return frames.frame(rows, SEASON_COLUMNS)


def season(engine: Engine, season_id: int) -> dict:
    """One season as a dict (a row of `seasons`); `NotFound` if there is none."""
    found = seasons(engine)
    found = found.loc[found["season_id"] == int(season_id)]
    if found.empty:
        raise NotFound(_("There is no season with id {season}.").format(season=season_id))
    row = found.iloc[0]
    return {"season_id": int(row["season_id"]), "name": row["name"], "points": row["points"]}


def _change(engine: Engine, season_id: int, values: dict, *, actor: Actor,
            name: str | None = None) -> bool:
    def work(conn: Connection) -> bool:
        row = db.lock_row(conn, s, int(season_id), "season")
        if name is not None:
            _unique(conn, name, row.id)
        before = {"name": row.name, "points": _loaded(row.points)}
        after = {**before, **{k: (_loaded(v) if k == "points" else v)
                              for k, v in values.items()}}
        if after == before:
            return False
        conn.execute(sa.update(s).where(s.c.id == row.id).values(**values))
        audit.log(conn, actor, Action.SEASON_SET, f"season {row.id}",
                  before={k: before[k] for k in values}, after={k: after[k] for k in values})
        return True

    return db.write(db.installation(engine), work)


def set_season_points(engine: Engine, season_id: int, points: Mapping | None, *,
                      actor: Actor) -> bool:
    """R27 (*setting*): season `season_id` ranks by the points table `points` ({final rank:
    points}: ranks 1 … N, each once, whole; points whole, 0 or more), or by the format's own
    standing for None. Organizer only; logged. False if nothing changed."""
    require(actor, Role.ORGANIZER, action=N_("change seasons"))
    return _change(engine, season_id, {"points": _stored(check_points(points))}, actor=actor)


def rename_season(engine: Engine, season_id: int, name: str, *, actor: Actor) -> bool:
    """R27: season `season_id` named `name` (checked as in `create_season`). Organizer only;
    logged. False if it had that name already."""
    require(actor, Role.ORGANIZER, action=N_("rename seasons"))
    clean = check_name(name)
    return _change(engine, season_id, {"name": clean}, actor=actor, name=clean)
