"""Results: submit, correct and settle a table's result; the frames `stsa.rules` scores.

Every table's result carries a version (0 = none yet). A save names the version it was based
on: if someone saved in between, it raises `ConflictError` with what is stored now, and changes
nothing. A save carries a submission id: the same id twice is stored once. Corrections are new
versions; the old rows stay in the audit log (R19).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import math
import numbers
import re
import uuid
from dataclasses import dataclass, field
from typing import Any, Iterable

import pandas as pd
import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from stsa.auth import Actor, Role, require
from stsa.store import db
from stsa.store import draws
from stsa.store.errors import ConflictError, InvalidState, NotFound, TournamentError
from stsa.store.schema import KINDS
from stsa.store.schema import players as players_t
from stsa.store.schema import results as results_t
from stsa.store.schema import seats as seats_t
from stsa.store.schema import settings as settings_t
from stsa.store.schema import sittings as sittings_t
from stsa.store.schema import submissions as submissions_t
from stsa.store.schema import tables as tables_t

STATS = ("vp", "spice", "solari", "troops", "water")  # R11's order
ROW_SPEC = {"player_id": "int64", "seat": "int64", "leader": "str",
            **{c: "int64" for c in (*STATS, "variant_points")}, "tiebreak": "Int64"}
ROW_COLUMNS = list(ROW_SPEC)
RESULT_SPEC = {"game_id": "int64", "player_id": "int64",
               **{c: "int64" for c in (*STATS, "variant_points")}, "tiebreak": "Int64",
               "sitting_id": "int64", "kind": "str", "sitting_no": "int64", "table_no": "int64",
               "seat": "int64", "leader": "str", "setup_id": "str", "version": "int64",
               "saved_by": "str"}
MAX_NUMBER = 100_000
_WHOLE = re.compile(r"^[+-]?\d+$")


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
def _is_blank(value: Any) -> bool:
    if value is None or value is pd.NA:
        return True
    if isinstance(value, float) and math.isnan(value):
        return True
    return isinstance(value, str) and not value.strip()


def _whole(value: Any) -> int | None:
    """A whole number from an int, an integral float or digits; None if it is not one."""
    if isinstance(value, bool):
        return None
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        f = float(value)
        return int(f) if math.isfinite(f) and f.is_integer() else None
    if isinstance(value, str) and _WHOLE.match(value.strip()):
        return int(value.strip())
    return None


def _records(rows: Any) -> list[dict]:
    if isinstance(rows, pd.DataFrame):
        return rows.to_dict("records")
    try:
        records = [dict(r) for r in rows]
    except (TypeError, ValueError) as exc:
        raise TournamentError("A result is a list of rows, one per player.") from exc
    return records


def _check_rows(records: list[dict], seated: dict[int, Any], available: list[str],
                removed: list[str], where: str, wild_card: bool) -> list[dict]:
    """Validate a table's submitted rows against its seats; every problem named in one error."""
    problems: list[str] = []
    by_player: dict[int, dict] = {}
    for i, rec in enumerate(records, start=1):
        pid = _whole(rec.get("player_id"))
        if pid is None or pid not in seated:
            problems.append(f"row {i}: player {rec.get('player_id')!r} is not seated at this "
                            f"table")
            continue
        s = seated[pid]
        if pid in by_player:
            problems.append(f"seat {s.seat} ({s.name}) has more than one row")
            continue
        by_player[pid] = rec
    for pid, s in seated.items():
        if pid not in by_player:
            problems.append(f"seat {s.seat} ({s.name}) has no result")
    allowed = set(available) | (set(removed) if wild_card else set())
    clean, taken = [], {}
    for pid, rec in sorted(by_player.items(), key=lambda kv: seated[kv[0]].seat):
        s = seated[pid]
        who = f"seat {s.seat} ({s.name})"
        row = {"player_id": pid, "seat": s.seat}
        for name in (*STATS, "variant_points", "tiebreak"):
            raw = rec.get(name)
            if _is_blank(raw):
                if name in STATS:
                    problems.append(f"{who}: {name} is missing")
                row[name] = 0 if name == "variant_points" else None
                continue
            n = _whole(raw)
            low = -MAX_NUMBER if name == "variant_points" else (1 if name == "tiebreak" else 0)
            if n is None or not low <= n <= MAX_NUMBER:
                rule = ("a whole number" if name == "variant_points"
                        else f"a whole number of {low} or more")
                problems.append(f"{who}: {name} must be {rule} (up to {MAX_NUMBER}), "
                                f"not {raw!r}")
                continue
            row[name] = n
        leader = rec.get("leader")
        leader = "" if _is_blank(leader) else " ".join(str(leader).split())
        if not leader:
            problems.append(f"{who}: leader is missing")
        elif allowed and leader not in allowed:
            problems.append(f"{who}: leader {leader!r} is not one of this table's leaders")
        elif leader in taken:
            problems.append(f"{who}: leader {leader!r} is already taken by {taken[leader]}")
        else:
            taken[leader] = who
        row["leader"] = leader
        clean.append(row)
    if problems:
        raise TournamentError(f"{where}: " + "; ".join(problems) + ". Nothing was saved.")
    return [{c: r[c] for c in ROW_COLUMNS} for r in clean]


def _table_context(conn: Connection, table_id: int):
    """The table's row (locked until commit), its sitting's kind, number and status, and a
    label for messages ("Qualifier 2, table 3")."""
    q = (sa.select(tables_t, sittings_t.c.kind, sittings_t.c.number, sittings_t.c.status)
         .join(sittings_t, sittings_t.c.id == tables_t.c.sitting_id)
         .where(tables_t.c.id == table_id).with_for_update(of=tables_t))
    t = conn.execute(q).first()
    if t is None:
        raise NotFound(f"There is no table with id {table_id}.")
    return t, f"{draws.label(t.kind, t.number)}, table {t.table_no}"


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


def submit_table_result(engine: Engine, table_id: int, rows: Any, *, expected_version: int,
                        submission_id: str | None, actor: Actor) -> TableResult:
    """Save a table's result: one row per seated player with `player_id, leader, vp, spice,
    solari, troops, water`, optional `variant_points` (default 0) and `tiebreak` (R11-R13).

    Judges and the organizer only (R20). `expected_version` is the version the form showed (0
    for a first result): if another save came first, `ConflictError` carries the stored rows,
    version, who and when, and nothing is overwritten. The same `submission_id` twice is stored
    once; the second call returns the first outcome (`duplicate=True`). A correction
    (`expected_version` ≥ 1) is a new version; the previous rows stay in the log (R19). Every
    bad value is named by seat and field, and nothing is saved. The sitting completes (and is
    backed up) with its last table's first result.
    """
    require(actor, Role.JUDGE, Role.ORGANIZER, action="enter results")
    expected = _whole(expected_version)
    if expected is None or expected < 0:
        raise TournamentError(f"expected_version must be a whole number ≥ 0, not "
                              f"{expected_version!r}.")
    sid = str(submission_id).strip() if submission_id is not None else uuid.uuid4().hex
    if not sid or len(sid) > 100:
        raise TournamentError("A submission id has 1 to 100 characters.")
    records = _records(rows)

    def work(conn: Connection) -> dict:
        t, where = _table_context(conn, int(table_id))
        prior = conn.execute(sa.select(submissions_t)
                             .where(submissions_t.c.submission_id == sid)).first()
        if prior is not None:
            if prior.table_id != t.id:
                raise TournamentError(f"Submission {sid} was already used for another table "
                                      f"(id {prior.table_id}); nothing was saved.")
            return {"table_id": t.id, "version": prior.version,
                    "rows": db.loads(prior.outcome), "saved_by": prior.saved_by,
                    "saved_at": prior.saved_at, "submission_id": sid, "duplicate": True}
        if t.status == "drawn":
            raise InvalidState(f"{where}: the sitting is not published yet; results can be "
                               f"entered once it is.")
        if t.result_version != expected:
            raise _conflict(conn, t, where, expected)
        clean = _check_rows(records, _seated(conn, t.id), db.loads(t.available_leaders),
                            db.loads(t.removed_leaders), where, _wild_card(conn))
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

    done = db.write(engine, work)  # the frame is built after the commit, outside the lock
    sitting_id = done.pop("sitting_id", None)
    out = TableResult(**{**done, "rows": _rows_frame(done["rows"])})
    if out.duplicate or expected != 0:
        return out
    if out.completed_sitting:
        draws.after_complete(engine, sitting_id)
    elif not db.is_sqlite(engine):
        # PostgreSQL: the last two first results may commit side by side (see complete_if_done)
        if draws.complete_if_done(engine, sitting_id, actor):
            out = dataclasses.replace(out, completed_sitting=True)
    return out


def settle_tie(engine: Engine, table_id: int, order: Iterable[int], *, expected_version: int,
               actor: Actor) -> TableResult:
    """R11: record a judge's settled order (e.g. after a roll-off) for players equal on VP,
    spice, solari, troops and water: `order` lists their player ids, best first.

    Every player of a tie group must be listed. Judges and the organizer (R20); a new version
    with the previous rows logged (R19); a stale `expected_version` raises `ConflictError`.
    """
    require(actor, Role.JUDGE, Role.ORGANIZER, action="settle ties")
    ids = [_whole(p) for p in order]
    if any(p is None for p in ids) or len(set(ids)) != len(ids) or len(ids) < 2:
        raise TournamentError("A settled order lists two or more different player ids.")
    expected = _whole(expected_version)
    if expected is None or expected < 1:
        raise TournamentError(f"expected_version must be the result's version (1 or more), "
                              f"not {expected_version!r}.")

    def work(conn: Connection) -> dict:
        t, where = _table_context(conn, int(table_id))
        if t.result_version == 0:
            raise InvalidState(f"{where} has no result yet; enter it before settling a tie.")
        if t.result_version != expected:
            raise _conflict(conn, t, where, expected)
        rows = _plain_rows(conn, t.id)
        seated = _seated(conn, t.id)
        stranger = [p for p in ids if p not in seated]
        if stranger:
            raise TournamentError(f"{where}: players {stranger} are not seated at this table.")
        groups: dict[tuple, list[int]] = {}
        for r in rows:
            groups.setdefault(tuple(r[c] for c in STATS), []).append(r["player_id"])
        group_of = {pid: g for g in groups.values() for pid in g}
        for pid in ids:
            if len(group_of[pid]) < 2:
                s = seated[pid]
                raise TournamentError(f"{where}: seat {s.seat} ({s.name}) is not tied with "
                                      f"anyone on VP, spice, solari, troops and water.")
        for pid in ids:
            left_out = [seated[g] for g in group_of[pid] if g not in ids]
            if left_out:
                s = seated[pid]
                names = " and ".join(f"seat {o.seat} ({o.name})" for o in left_out)
                raise TournamentError(f"{where}: {names} is tied with seat {s.seat} ({s.name}) "
                                      f"and must be in the settled order too.")
        rank = {pid: i for i, pid in enumerate(ids, start=1)}
        new_rows = [{**r, "tiebreak": rank.get(r["player_id"], r["tiebreak"])} for r in rows]
        version, at = t.result_version + 1, db.now()
        _write_rows(conn, t.id, new_rows, version, actor, at, None)
        db.log(conn, actor, "result.settle_tie", f"table {t.id}",
               before={"version": t.result_version, "rows": rows},
               after={"version": version, "rows": new_rows, "order": ids}, at=at)
        return {"table_id": t.id, "version": version, "rows": new_rows,
                "saved_by": actor.name, "saved_at": at}

    done = db.write(engine, work)
    return TableResult(**{**done, "rows": _rows_frame(done["rows"])})


def results(engine: Engine, kind: str | None = "qualifier", *,
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
        if kind not in KINDS:
            raise TournamentError(f"Unknown sitting kind {kind!r}: use {', '.join(KINDS)}.")
        q = q.where(sittings_t.c.kind == kind)
    if sitting_id is not None:
        q = q.where(tables_t.c.sitting_id == int(sitting_id))
    with db.reading(engine) as conn:
        return db.query_frame(conn, q, RESULT_SPEC)
