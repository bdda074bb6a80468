"""Results: submit and correct a table's result (a settled tie is a correction with its
order, R11); the frames `stsa.rules` scores.

Every table's result carries a version (0 = none yet). A save names the version it was based
on: if someone saved in between, it raises `ConflictError` with what is stored now, and changes
nothing. A save carries a submission id: the same id twice is stored once. Corrections are new
versions; the old rows stay in the audit log (R19). The rows are checked by
`checks.check_result_rows`, as a restore checks them.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import uuid
from dataclasses import dataclass, field
from typing import Any

import pandas as pd
import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from stsa.auth import Actor, Role, require
from stsa.domain import Kind, SittingStatus, table_label
from stsa.store import checks, db, draws
from stsa.store.checks import MAX_NUMBER, STATS  # noqa: F401 - MAX_NUMBER: the pages' bound
from stsa.store.errors import ConflictError, InvalidState, NotFound, TournamentError
from stsa.store.schema import players as players_t
from stsa.store.schema import results as results_t
from stsa.store.schema import seats as seats_t
from stsa.store.schema import settings as settings_t
from stsa.store.schema import sittings as sittings_t
from stsa.store.schema import submissions as submissions_t
from stsa.store.schema import tables as tables_t

ROW_SPEC = {"player_id": "int64", "seat": "int64", "leader": "str",
            **{c: "int64" for c in (*STATS, "variant_points")}, "tiebreak": "Int64"}
ROW_COLUMNS = list(ROW_SPEC)
RESULT_SPEC = {"game_id": "int64", "player_id": "int64",
               **{c: "int64" for c in (*STATS, "variant_points")}, "tiebreak": "Int64",
               "sitting_id": "int64", "kind": "str", "sitting_no": "int64", "table_no": "int64",
               "seat": "int64", "leader": "str", "setup_id": "str", "version": "int64",
               "saved_by": "str"}

# The names `stsa.services.restore` imports; the checks themselves live in `checks`.
_whole = checks.whole_number
_check_rows = checks.check_result_rows


@dataclass(frozen=True)
class TableResult:
    """A table's result as stored: `rows` has `player_id, seat, leader, vp, spice, solari,
    troops, water, variant_points, tiebreak` by seat; `version` 0 means no result yet."""

    table_id: int
    version: int
    rows: pd.DataFrame = field(repr=False)
    saved_by: str | None = None
    saved_at: dt.datetime | None = None
    submission_id: str | None = None
    duplicate: bool = False  # True: this submission id was stored before; nothing new written
    completed_sitting: bool = False  # True: this save completed its sitting
    sitting_id: int | None = None  # the table's sitting (None where not known)


def _rows_frame(rows: list[dict]) -> pd.DataFrame:
    return db.frame(rows, ROW_SPEC)


def _plain_rows(conn: Connection, table_id: int) -> list[dict]:
    q = (sa.select(*[results_t.c[c] for c in ROW_COLUMNS])
         .where(results_t.c.table_id == table_id).order_by(results_t.c.seat))
    return [dict(r._mapping) for r in conn.execute(q)]


def _current(conn: Connection, table_id: int, version: int) -> TableResult:
    rows = _plain_rows(conn, table_id)
    meta = conn.execute(sa.select(results_t.c.saved_by, results_t.c.saved_at,
                                  results_t.c.submission_id)
                        .where(results_t.c.table_id == table_id).limit(1)).first()
    return TableResult(table_id=table_id, version=version, rows=_rows_frame(rows),
                       saved_by=meta.saved_by if meta else None,
                       saved_at=meta.saved_at if meta else None,
                       submission_id=meta.submission_id if meta else None)


def table_result(engine: Engine, table_id: int) -> TableResult:
    """A table's current result and version (version 0 and no rows before the first save),
    as a `TableResult` (R13); the version to pass back as `expected_version`."""
    with db.reading(engine) as conn:
        version = conn.execute(sa.select(tables_t.c.result_version)
                               .where(tables_t.c.id == int(table_id))).scalar()
        if version is None:
            raise NotFound(f"There is no table with id {table_id}.")
        return _current(conn, int(table_id), version)


# -- checking a submitted result ---------------------------------------------------------------
def _records(rows: Any) -> list[dict]:
    if isinstance(rows, pd.DataFrame):
        return rows.to_dict("records")
    try:
        records = [dict(r) for r in rows]
    except (TypeError, ValueError) as exc:
        raise TournamentError("A result is a list of rows, one per player.") from exc
    return records


def _table_context(conn: Connection, table_id: int):
    """The table's row (locked until commit), its sitting's kind, number and status, and a
    label for messages ("Qualifier 2, table 3")."""
    q = (sa.select(tables_t, sittings_t.c.kind, sittings_t.c.number, sittings_t.c.status)
         .join(sittings_t, sittings_t.c.id == tables_t.c.sitting_id)
         .where(tables_t.c.id == table_id).with_for_update(of=tables_t))
    t = conn.execute(q).first()
    if t is None:
        raise NotFound(f"There is no table with id {table_id}.")
    return t, table_label(t.kind, t.number, t.table_no)


def _seated(conn: Connection, table_id: int) -> dict[int, Any]:
    q = (sa.select(seats_t.c.player_id, seats_t.c.seat, players_t.c.name)
         .join(players_t, players_t.c.id == seats_t.c.player_id)
         .where(seats_t.c.table_id == table_id).order_by(seats_t.c.seat))
    return {r.player_id: r for r in conn.execute(q)}


def _wild_card(conn: Connection) -> bool:
    value = conn.execute(sa.select(settings_t.c.value)
                         .where(settings_t.c.key == "wild_card")).scalar()
    return bool(db.loads(value)) if value is not None else False


def _write_rows(conn: Connection, table_id: int, rows: list[dict], version: int, actor: Actor,
                at: dt.datetime, submission_id: str | None) -> None:
    conn.execute(sa.delete(results_t).where(results_t.c.table_id == table_id))
    conn.execute(sa.insert(results_t), [
        {**r, "table_id": table_id, "version": version, "saved_by": actor.name, "saved_at": at,
         "submission_id": submission_id} for r in rows])
    conn.execute(sa.update(tables_t).where(tables_t.c.id == table_id)
                 .values(result_version=version))


def _conflict(conn: Connection, t, where: str, expected: int) -> ConflictError:
    current = _current(conn, t.id, t.result_version)
    if t.result_version == 0:
        msg = (f"{where} has no result yet, but this save expected version {expected}. "
               f"Nothing was saved.")
    else:
        when = current.saved_at.strftime("%H:%M:%S") if current.saved_at else "?"
        msg = (f"{where} was saved by {current.saved_by} at {when} UTC (version "
               f"{current.version}) after you opened it; nothing was overwritten. Check their "
               f"result and correct it if needed.")
    return ConflictError(msg, current)


def _request(expected_version: Any, submission_id: Any) -> tuple[int, str]:
    """The version a save is based on and its submission id (a new one if none is given)."""
    expected = checks.whole_number(expected_version)
    if expected is None or expected < 0:
        raise TournamentError(f"expected_version must be a whole number ≥ 0, not "
                              f"{expected_version!r}.")
    sid = str(submission_id).strip() if submission_id is not None else uuid.uuid4().hex
    if not sid or len(sid) > 100:
        raise TournamentError("A submission id has 1 to 100 characters.")
    return expected, sid


def _stored_before(conn: Connection, sid: str, t) -> dict | None:
    """The outcome of submission `sid` if it was stored before (for this table), else None."""
    prior = conn.execute(sa.select(submissions_t)
                         .where(submissions_t.c.submission_id == sid)).first()
    if prior is None:
        return None
    if prior.table_id != t.id:
        raise TournamentError(f"Submission {sid} was already used for another table "
                              f"(id {prior.table_id}); nothing was saved.")
    return {"table_id": t.id, "version": prior.version, "rows": db.loads(prior.outcome),
            "saved_by": prior.saved_by, "saved_at": prior.saved_at, "submission_id": sid,
            "duplicate": True, "sitting_id": t.sitting_id}


def _save(conn: Connection, t, clean: list[dict], expected: int, sid: str,
          actor: Actor) -> dict:
    """Write the checked rows as the next version, the submission and the log entry (R19); a
    first result completes its sitting when it is the last one."""
    before = _plain_rows(conn, t.id) if expected else None
    version, at = expected + 1, db.now()
    _write_rows(conn, t.id, clean, version, actor, at, sid)
    conn.execute(sa.insert(submissions_t).values(
        submission_id=sid, table_id=t.id, version=version, outcome=db.dumps(clean),
        saved_by=actor.name, saved_at=at))
    db.log(conn, actor, "result.correct" if expected else "result.submit", f"table {t.id}",
           before=None if before is None else {"version": expected, "rows": before},
           after={"version": version, "rows": clean, "submission_id": sid}, at=at)
    completed = expected == 0 and draws.try_complete(conn, t.sitting_id, actor)
    return {"table_id": t.id, "version": version, "rows": clean, "saved_by": actor.name,
            "saved_at": at, "submission_id": sid, "completed_sitting": completed,
            "sitting_id": t.sitting_id}


def save_table_result(engine: Engine, table_id: int, rows: Any, *, expected_version: int,
                      submission_id: str | None, actor: Actor) -> TableResult:
    """The database step of `store.submit_table_result` (see there; R11-R13, R19, R20): the
    same checks, versions and submission ids, and the sitting completes with its last table's
    first result; the automatic backup of a completed sitting is the caller's."""
    require(actor, Role.JUDGE, Role.ORGANIZER, action="enter results")
    expected, sid = _request(expected_version, submission_id)
    records = _records(rows)

    def work(conn: Connection) -> dict:
        t, where = _table_context(conn, int(table_id))
        stored = _stored_before(conn, sid, t)
        if stored is not None:
            return stored
        if t.status == SittingStatus.DRAWN:
            raise InvalidState(f"{where}: the sitting is not published yet; results can be "
                               f"entered once it is.")
        if t.result_version != expected:
            raise _conflict(conn, t, where, expected)
        clean = checks.check_result_rows(records, _seated(conn, t.id),
                                         db.loads(t.available_leaders),
                                         db.loads(t.removed_leaders), where, _wild_card(conn))
        return _save(conn, t, clean, expected, sid, actor)

    done = db.write(engine, work)  # the frame is built after the commit, outside the lock
    out = TableResult(**{**done, "rows": _rows_frame(done["rows"])})
    if out.duplicate or expected != 0 or out.completed_sitting or db.is_sqlite(engine):
        return out
    # PostgreSQL: the last two first results may commit side by side (see complete_if_done)
    if draws.complete_if_done(engine, out.sitting_id, actor):
        out = dataclasses.replace(out, completed_sitting=True)
    return out


def results(engine: Engine, kind: str | None = Kind.QUALIFIER, *,
            sitting_id: int | None = None) -> pd.DataFrame:
    """One row per player per game, ready for `stsa.rules.score_games` (R11-R14): `game_id`
    (the table id), `player_id, vp, spice, solari, troops, water, variant_points, tiebreak`
    (nullable Int64), and `sitting_id, kind, sitting_no, table_no, seat, leader, setup_id,
    version, saved_by` (when: `table_result`). `kind=None` gives every kind. Results exist only
    for published sittings, which everyone may see (R20)."""
    q = (sa.select(results_t.c.table_id.label("game_id"), results_t.c.player_id,
                   *[results_t.c[c] for c in (*STATS, "variant_points", "tiebreak")],
                   tables_t.c.sitting_id, sittings_t.c.kind,
                   sittings_t.c.number.label("sitting_no"), tables_t.c.table_no,
                   results_t.c.seat, results_t.c.leader, tables_t.c.setup_id,
                   results_t.c.version, results_t.c.saved_by)
         .join(tables_t, tables_t.c.id == results_t.c.table_id)
         .join(sittings_t, sittings_t.c.id == tables_t.c.sitting_id)
         .order_by(sittings_t.c.id, tables_t.c.table_no, results_t.c.seat))
    if kind is not None:
        q = q.where(sittings_t.c.kind == checks.check_kind(kind))
    if sitting_id is not None:
        q = q.where(tables_t.c.sitting_id == int(sitting_id))
    with db.reading(engine) as conn:
        return db.query_frame(conn, q, RESULT_SPEC)
