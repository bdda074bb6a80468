"""R27: the few columns of one tournament that the season standing and the rating need, read
in one snapshot, one query per table (`stsa.services.season`). The season reads every
tournament of the installation, so it reads only these, in the public view (R20, R22): results
of published sittings (the only ones with results), published and complete sittings, and the
players' public names (the nickname, else the name as the public sees it)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import sqlalchemy as sa
from sqlalchemy.engine import Connection

from stsa.store import frames
from stsa.store.checks import STATS
from stsa.store.schema import KINDS
from stsa.store.schema import players as players_t
from stsa.store.schema import results as results_t
from stsa.store.schema import sittings as sittings_t
from stsa.store.schema import tables as tables_t
from stsa.store.sitting_reads import VISIBLE

RESULT_SPEC = {"game_id": "int64", "player_id": "int64",
               **{c: "int64" for c in (*STATS, "variant_points")}, "tiebreak": "Int64",
               "sitting_id": "int64", "kind": "str"}
SITTING_SPEC = {"sitting_id": "int64", "kind": "str", "status": "str",
                "completed_at": frames.UTC_TIME}
NAME_SPEC = {"player_id": "int64", "name": "str"}


_SQL: dict[tuple[int, str], str] = {}  # each query's text, per query and database dialect


def _raw_frame(conn: Connection, query, spec: dict[str, str]) -> pd.DataFrame:
    """`frames.query_frame` for plain columns (numbers and text), on the connection's own
    driver cursor: thousands of rows per tournament, read for every tournament at once, where
    building a row object per row costs more than the read. The query's text is made once."""
    key = (id(query), conn.dialect.name)
    if key not in _SQL:
        _SQL[key] = str(query.compile(dialect=conn.dialect,
                                      compile_kwargs={"literal_binds": True}))
    driver = conn.connection.dbapi_connection
    assert driver is not None  # a connection reading is checked out, with its driver's
    cursor = driver.cursor()
    try:
        cursor.execute(_SQL[key])
        rows = cursor.fetchall()
    finally:
        cursor.close()
    columns = list(zip(*rows)) if rows else [() for _ in spec]
    return pd.DataFrame({c: pd.array(list(v), dtype=d) if d in ("Int64", "str")
                         else np.array(v, dtype=d) for (c, d), v in zip(spec.items(), columns)},
                        columns=list(spec))


def season_frames(conn: Connection) -> dict[str, pd.DataFrame]:
    """On one read connection (`store.snapshot`) of a tournament: `results` (as
    `store.results(kind=None)`'s first columns: `game_id` (the table), `player_id`, the five
    stats, `variant_points, tiebreak, sitting_id, kind`), `sittings` (`sitting_id, kind,
    status, completed_at` of the published and complete ones, in order) and `names`
    (`player_id, name`: the public name, R22)."""
    results = _raw_frame(conn, _RESULTS, RESULT_SPEC)
    sittings = frames.query_frame(conn, _SITTINGS, SITTING_SPEC)
    names = _raw_frame(conn, _NAMES, NAME_SPEC)
    return {"results": results, "sittings": sittings, "names": names}


_RESULTS = (sa.select(results_t.c.table_id.label("game_id"), results_t.c.player_id,
                      *[results_t.c[c] for c in (*STATS, "variant_points", "tiebreak")],
                      tables_t.c.sitting_id, sittings_t.c.kind)
            .join(tables_t, tables_t.c.id == results_t.c.table_id)
            .join(sittings_t, sittings_t.c.id == tables_t.c.sitting_id)
            .order_by(sittings_t.c.id, tables_t.c.table_no, results_t.c.seat))
_SITTINGS = (sa.select(sittings_t.c.id.label("sitting_id"), sittings_t.c.kind,
                       sittings_t.c.status, sittings_t.c.completed_at)
             .where(sittings_t.c.status.in_(VISIBLE))
             .order_by(sa.case({k: i for i, k in enumerate(KINDS)}, value=sittings_t.c.kind),
                       sittings_t.c.number))
_NAMES = (sa.select(players_t.c.id.label("player_id"),
                    sa.func.coalesce(sa.func.nullif(players_t.c.nickname, ""),
                                     players_t.c.name).label("name"))
          .order_by(players_t.c.id))
