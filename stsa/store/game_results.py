"""Results: submit and correct a table's result (a settled tie is a correction with its
order, R11); the frames `stsa.rules` scores.

Every table's result carries a version (0 = none yet). A save names the version it was based
on: if someone saved in between, it raises `ConflictError` with what is stored now, and changes
nothing. A save carries a submission id: the same id twice is stored once. Corrections are new
versions; the old rows stay in the audit log (R19). The rows are checked by
`checks.check_result_rows`, as a restore checks them.

Saves land where the judge meant (R19, R20), each checked inside the save's transaction: a
save may name the table's seating its form was opened with (`seating`), and is refused
(`SeatingChanged`, a `ConflictError`) when the table's players or seats changed since; once
a semifinal or final is drawn, only the organizer corrects a qualifier result, and the
correction is logged with an `after_finals` flag; a correction of a complete sitting, and
the organizer's correction after the finals are drawn, can be made to need a confirmation.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd
import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from stsa import local_time
from stsa.auth import Actor, PermissionDenied, require
from stsa.domain import (
    Action,
    Kind,
    Role,
    SittingStatus,
    TournamentError,
    sitting_label,
    table_label,
)
from stsa.i18n import N_, _
from stsa.store import admin, audit, checks, db, drafts, draws, frames
from stsa.store.checks import MAX_NUMBER, STATS  # noqa: F401 - MAX_NUMBER: the pages' bound
from stsa.store.errors import ConflictError, InvalidState, NotFound
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
# ROW_SPEC with its text dtype resolved once (resolving "str" costs more than the column)
_ROW_DTYPES = {c: pd.array([], dtype=d).dtype if d == "str" else d for c, d in ROW_SPEC.items()}
RESULT_SPEC = {"game_id": "int64", "player_id": "int64",
               **{c: "int64" for c in (*STATS, "variant_points")}, "tiebreak": "Int64",
               "sitting_id": "int64", "kind": "str", "sitting_no": "int64", "table_no": "int64",
               "seat": "int64", "leader": "str", "setup_id": "str", "version": "int64",
               "saved_by": "str"}

# The names `stsa.services.restore` imports; the checks themselves live in `checks`.
_whole = checks.whole_number
_check_rows = checks.check_result_rows

FINALS_KINDS = (Kind.SEMIFINAL.value, Kind.FINAL.value)
MAX_FINALS_NOTE = 2000  # characters of the words on what a late correction changed
ONLY_THE_ORGANIZER = N_("Only the organizer can correct a qualifier result once the finals "
                        "are drawn. {table} stays as it is; nothing was saved.")


class SeatingChanged(ConflictError):
    """R19, R20: the table's players or seats changed since the result form was opened (a
    no-show replaced, a seat left empty): nothing was saved. `seating` is the table's
    seating now ({seat: player_id}), `changes` each seat that differs, in words."""

    def __init__(self, message: str, seating: dict[int, int], changes: list[str]):
        super().__init__(message, None)
        self.seating = seating
        self.changes = changes


def seating_changes(opened: Mapping[int, int], now: Mapping[int, int],
                    names: Mapping[int, str]) -> list[str]:
    """R3: each seat whose player differs between the seating a form was opened with and the
    seating now (both {seat: player_id}), in words: "seat 2 is now Bob", "seat 4 is empty
    now"; `names` by player id. Empty when nothing changed."""
    changes = []
    for seat in sorted(set(opened) | set(now)):
        was, is_ = opened.get(seat), now.get(seat)
        if was == is_:
            continue
        changes.append(_("seat {seat} is empty now").format(seat=seat) if is_ is None else
                       _("seat {seat} is now {player}").format(
                           seat=seat,
                           player=names.get(is_) or _("player {player}").format(player=is_)))
    return changes


def _seating(value: Any) -> dict[int, int] | None:
    """A form's seating as {seat: player_id} (None: not checked)."""
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise TournamentError(_("The seating must map each seat to its player's id."))
    out = {checks.whole(seat, N_("A seat number")): checks.whole(player, N_("A seated player id"))
           for seat, player in value.items()}
    if len(set(out.values())) != len(out):
        raise TournamentError(_("The seating names a player twice."))
    return out


def _check_seating(seated: dict, opened: dict[int, int] | None, where: str) -> None:
    """R3, R19: refuse a save whose form was opened on another seating of the table."""
    if opened is None:
        return
    now = {int(r.seat): int(p) for p, r in seated.items()}
    changes = seating_changes(opened, now, {int(p): r.name for p, r in seated.items()})
    if changes:
        raise SeatingChanged(
            _("The table changed since you opened it ({table}): {changes}. Nothing was saved: "
              "check each player's numbers and save again.").format(
                  table=where, changes=", ".join(changes)), now, changes)


def _finals_note(value: Any) -> str:
    note = " ".join(str(value or "").split())
    if len(note) > MAX_FINALS_NOTE:
        raise TournamentError(_("The words on what the correction changes are longer than "
                                "{limit} characters.").format(limit=MAX_FINALS_NOTE))
    return note


def drawn_finals(conn: Connection) -> list[str]:
    """R16, R20: the semifinal and final sittings drawn so far, in words ("Semifinal"),
    drafts included."""
    rows = conn.execute(sa.select(sittings_t.c.kind, sittings_t.c.number)
                        .where(sittings_t.c.kind.in_(FINALS_KINDS))
                        .order_by(sittings_t.c.id)).fetchall()
    return [sitting_label(r.kind, r.number) for r in rows]


def _after_finals(conn: Connection, t, expected: int, actor: Actor, where: str,
                  confirmed: bool, note: str) -> dict | None:
    """R16, R20: a correction of a qualifier result once a semifinal or final is drawn moves
    the standings and the cut under the finals: only the organizer makes it, confirmed.
    Returns the log's `after_finals` flag (None for any other save)."""
    if not expected or t.kind != Kind.QUALIFIER:
        return None
    finals = drawn_finals(conn)
    if not finals:
        return None
    if actor.role != Role.ORGANIZER:
        raise PermissionDenied(_(ONLY_THE_ORGANIZER).format(table=where))
    if not confirmed:
        raise InvalidState(_("{table}: the finals are drawn ({finals}), so this correction may "
                             "move the standings and the cut under them. Check what it changes "
                             "and confirm it. Nothing was saved.").format(
                                 table=where, finals=", ".join(finals)))
    return {"table": where, "finals": finals, "changes": note}


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
    """The rows as a frame shaped by `ROW_SPEC`, as `frames.frame` shapes it, built from its
    arrays directly (a result is a few rows: the frame's set-up is most of its cost)."""
    data: dict[str, Any] = {}
    for col, dtype in _ROW_DTYPES.items():
        values = [r[col] for r in rows]
        if dtype == "int64":
            data[col] = np.array(values, dtype="int64")
        elif dtype == "Int64":
            data[col] = pd.arrays.IntegerArray(
                np.array([0 if v is None else v for v in values], dtype="int64"),
                np.array([v is None for v in values], dtype=bool))
        else:
            data[col] = pd.array(values, dtype=dtype)
    return pd.DataFrame(data, index=pd.RangeIndex(len(rows)), copy=False)


def _stored(conn: Connection, table_id: int) -> tuple[list[dict], dict]:
    """The table's stored rows (`ROW_COLUMNS`, by seat) and who saved them, when and with
    which submission id (every row of a version is written together), in one read: a save
    reads its table's rows once."""
    found = conn.execute(_STORED_ROWS, {"table_id": table_id}).fetchall()
    rows = [{c: r._mapping[c] for c in ROW_COLUMNS} for r in found]
    meta = {c: getattr(found[0], c) if found else None for c in _SAVED}
    return rows, meta


def _current(conn: Connection, table_id: int, version: int) -> TableResult:
    rows, meta = _stored(conn, table_id)
    return TableResult(table_id=table_id, version=version, rows=_rows_frame(rows), **meta)


def table_result(engine: Engine, table_id: int) -> TableResult:
    """A table's current result and version (version 0 and no rows before the first save),
    as a `TableResult` (R13); the version to pass back as `expected_version`."""
    with db.reading(engine) as conn:
        version = conn.execute(sa.select(tables_t.c.result_version)
                               .where(tables_t.c.id == int(table_id))).scalar()
        if version is None:
            raise NotFound(_("There is no table with id {id}.").format(id=table_id))
        return _current(conn, int(table_id), version)


# -- checking a submitted result ---------------------------------------------------------------
# The statements of a save, built once: a save runs each of them with its values.
_ENTRY = (
    sa.select(tables_t.c.id, tables_t.c.sitting_id, tables_t.c.table_no,
              tables_t.c.result_version, tables_t.c.available_leaders,
              tables_t.c.removed_leaders, sittings_t.c.kind, sittings_t.c.number,
              sittings_t.c.status,
              sa.select(settings_t.c.value).where(settings_t.c.key == "wild_card")
              .scalar_subquery().label("wild_card"),
              sa.select(submissions_t.c.table_id)
              .where(submissions_t.c.submission_id == sa.bindparam("sid"))
              .scalar_subquery().label("prior_table"),
              seats_t.c.player_id, seats_t.c.seat, players_t.c.name)
    .select_from(tables_t.join(sittings_t, sittings_t.c.id == tables_t.c.sitting_id)
                 .outerjoin(seats_t, seats_t.c.table_id == tables_t.c.id)
                 .outerjoin(players_t, players_t.c.id == seats_t.c.player_id))
    .where(tables_t.c.id == sa.bindparam("table_id"))
    .order_by(seats_t.c.seat)
    .with_for_update(of=tables_t))
_PRIOR = sa.select(submissions_t).where(submissions_t.c.submission_id == sa.bindparam("sid"))
_SAVED = ("saved_by", "saved_at", "submission_id")
_STORED_ROWS = (sa.select(*[results_t.c[c] for c in (*ROW_COLUMNS, *_SAVED)])
                .where(results_t.c.table_id == sa.bindparam("table_id"))
                .order_by(results_t.c.seat))
_DELETE_ROWS = sa.delete(results_t).where(results_t.c.table_id == sa.bindparam("table_id"))
_INSERT_ROWS = sa.insert(results_t)
_SET_VERSION = (sa.update(tables_t).where(tables_t.c.id == sa.bindparam("table_id"))
                .values(result_version=sa.bindparam("new_version")))
_INSERT_SUBMISSION = sa.insert(submissions_t)


def _entry(conn: Connection, table_id: int, sid: str):
    """In one statement: the table's row (locked until commit) with its sitting's kind, number
    and status, the `wild_card` setting and the table submission `sid` went to (`prior_table`);
    its seated players {player_id: row with `seat`, `name`}; and a label for messages
    ("Qualifier 2, table 3")."""
    found = conn.execute(_ENTRY, {"table_id": table_id, "sid": sid}).fetchall()
    if not found:
        raise NotFound(_("There is no table with id {id}.").format(id=table_id))
    t = found[0]
    seated = {r.player_id: r for r in found if r.player_id is not None}
    return t, seated, table_label(t.kind, t.number, t.table_no)


def _wild_card(t) -> bool:
    """R10: whether removed leaders may be played (the `wild_card` setting, off if unset)."""
    return bool(frames.loads(t.wild_card)) if t.wild_card is not None else False


def _write_rows(conn: Connection, t, rows: list[dict], version: int, actor: Actor,
                at: dt.datetime, submission_id: str | None) -> None:
    """The rows as the table's version `version`: a correction replaces the stored rows (a
    table has rows exactly when its version is above 0), all rows in one batch."""
    if version > 1:
        conn.execute(_DELETE_ROWS, {"table_id": t.id})
    conn.execute(_INSERT_ROWS, [
        {**r, "table_id": t.id, "version": version, "saved_by": actor.name, "saved_at": at,
         "submission_id": submission_id} for r in rows])
    conn.execute(_SET_VERSION, {"table_id": t.id, "new_version": version})


def _conflict(conn: Connection, t, where: str, expected: int) -> ConflictError:
    current = _current(conn, t.id, t.result_version)
    if t.result_version == 0:
        msg = _("{table} has no result yet, but this save expected version {version}. Nothing "
                "was saved.").format(table=where, version=expected)
    else:
        zone = admin.typed_settings(conn).zone
        when = local_time.clock_words(current.saved_at, zone, seconds=True) \
            if current.saved_at else "?"  # in the tournament's time zone (R26)
        msg = _("{table} was saved by {judge} at {time} (version {version}) after you opened "
                "it; nothing was overwritten. Check their result and correct it if "
                "needed.").format(table=where, judge=current.saved_by, time=when,
                                  version=current.version)
    return ConflictError(msg, current)


def _request(expected_version: Any, submission_id: Any) -> tuple[int, str]:
    """The version a save is based on and its submission id (a new one if none is given)."""
    expected = checks.whole_number(expected_version)
    if expected is None or expected < 0:
        raise TournamentError(_("expected_version must be a whole number ≥ 0, not "
                                "{value}.").format(value=repr(expected_version)))
    sid = str(submission_id).strip() if submission_id is not None else uuid.uuid4().hex
    if not sid or len(sid) > 100:
        raise TournamentError(_("A submission id has 1 to 100 characters."))
    return expected, sid


def _stored_before(conn: Connection, sid: str, t) -> dict | None:
    """The outcome of submission `sid` if it was stored before (for this table), else None.
    SQLite's entry read ran under the write lock, so its `prior_table` is final; PostgreSQL
    reads again after the row lock, so a twin save that committed meanwhile is seen."""
    if t.prior_table is None and db.is_sqlite(conn):
        return None
    prior = conn.execute(_PRIOR, {"sid": sid}).first()
    if prior is None:
        return None
    if prior.table_id != t.id:
        raise TournamentError(_("Submission {submission} was already used for another table "
                                "(id {id}); nothing was saved.").format(submission=sid,
                                                                       id=prior.table_id))
    return {"table_id": t.id, "version": prior.version, "rows": frames.loads(prior.outcome),
            "saved_by": prior.saved_by, "saved_at": prior.saved_at, "submission_id": sid,
            "duplicate": True, "sitting_id": t.sitting_id}


def _save(conn: Connection, t, clean: list[dict], expected: int, sid: str,
          actor: Actor, flag: dict | None = None, over_theirs: bool = False) -> dict:
    """Write the checked rows as the next version, the submission and the log entry (R19),
    with the `after_finals` flag of a correction made once the finals are drawn and, for a
    save chosen over another judge's (`over_theirs`), whose version it replaced; the saver's
    unsaved entry for the table goes (`drafts`). A first result completes its sitting when it
    is the last one (R20)."""
    before, saved = _stored(conn, t.id) if expected else (None, {})
    over = ({"over": {"version": expected, "saved_by": saved["saved_by"]}}
            if over_theirs and expected else {})
    version, at = expected + 1, db.now()
    _write_rows(conn, t, clean, version, actor, at, sid)
    outcome = frames.dumps(clean)
    conn.execute(_INSERT_SUBMISSION, {
        "submission_id": sid, "table_id": t.id, "version": version, "outcome": outcome,
        "saved_by": actor.name, "saved_at": at})
    action = Action.RESULT_CORRECT if expected else Action.RESULT_SUBMIT
    audit.log(conn, actor, action, f"table {t.id}",
           before=None if before is None else {"version": expected, "rows": before},
           after={"version": version, "rows": clean, "submission_id": sid,
                  **({"after_finals": flag} if flag else {}), **over}, at=at)
    drafts.clear_draft(conn, t.id, actor=actor)
    completed = expected == 0 and draws.try_complete(conn, t.sitting_id, actor)
    return {"table_id": t.id, "version": version, "rows": clean, "saved_by": actor.name,
            "saved_at": at, "submission_id": sid, "completed_sitting": completed,
            "sitting_id": t.sitting_id}


def save_table_result(engine: Engine, table_id: int, rows: Any, *, expected_version: int,
                      submission_id: str | None, actor: Actor,
                      seating: Mapping[int, int] | None = None, confirm_complete: bool = True,
                      confirm_after_finals: bool = True, finals_note: str = "",
                      over_theirs: bool = False) -> TableResult:
    """The database step of `store.submit_table_result` (see there; R11-R13, R19, R20): the
    same checks, versions and submission ids, and the sitting completes with its last table's
    first result; the automatic backup of a completed sitting is the caller's. One read (the
    table with its seats, setting and submission id; PostgreSQL reads the id again after the
    lock) and one batch of writes per table.

    Where the save lands, checked in the same transaction (R19, R20):
    - `seating`: the table's {seat: player_id} when the form was opened; a table whose
      players or seats changed since raises `SeatingChanged` (None: not checked);
    - once a semifinal or final is drawn, a correction of a qualifier result is the
      organizer's only (`PermissionDenied` for a judge), needs `confirm_after_finals` and is
      logged with an `after_finals` flag (the table, the finals drawn and `finals_note`, the
      words on what it changes);
    - a correction of a complete sitting needs `confirm_complete`.
    Both confirmations default to given, for scripts; the services ask for them.
    `over_theirs`: the judge chose this save over another judge's that came first (R19); the
    log names the version and the judge it replaced."""
    require(actor, Role.JUDGE, Role.ORGANIZER, action=N_("enter results"))
    expected, sid = _request(expected_version, submission_id)
    opened, note = _seating(seating), _finals_note(finals_note)
    records = checks.records(rows)

    def work(conn: Connection) -> dict:
        t, seated, where = _entry(conn, int(table_id), sid)
        stored = _stored_before(conn, sid, t)
        if stored is not None:
            return stored
        if t.status == SittingStatus.DRAWN:
            raise InvalidState(_("{table}: the sitting is not published yet; results can be "
                                 "entered once it is.").format(table=where))
        _check_seating(seated, opened, where)
        flag = _after_finals(conn, t, expected, actor, where, confirm_after_finals, note)
        if t.result_version != expected:
            raise _conflict(conn, t, where, expected)
        if expected and t.status == SittingStatus.COMPLETE and not confirm_complete:
            raise InvalidState(_("{sitting} is complete: confirm that you want to correct the "
                                 "result of {table}. Nothing was saved.").format(
                                     sitting=sitting_label(t.kind, t.number), table=where))
        clean = checks.check_result_rows(records, seated, frames.loads(t.available_leaders),
                                         frames.loads(t.removed_leaders), where, _wild_card(t))
        return _save(conn, t, clean, expected, sid, actor, flag, over_theirs)

    done = db.write(engine, work)  # the frame is built after the commit, outside the lock
    out = TableResult(**{**done, "rows": _rows_frame(done["rows"])})
    if out.duplicate or expected != 0 or out.completed_sitting or db.is_sqlite(engine):
        return out
    # PostgreSQL: the last two first results may commit side by side (see complete_if_done)
    assert out.sitting_id is not None  # a save knows its table's sitting
    if draws.complete_if_done(engine, out.sitting_id, actor):
        out = dataclasses.replace(out, completed_sitting=True)
    return out


def results(engine: Engine | Connection, kind: str | None = Kind.QUALIFIER, *,
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
        return frames.query_frame(conn, q, RESULT_SPEC)
