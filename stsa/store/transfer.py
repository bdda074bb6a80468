"""A whole tournament as plain rows, out and back in: what the tournament workbook
(`stsa.excel.tournament_workbook`, `stsa.excel.restore_workbook`) is made of (R19).

`dump_tournament` reads every tournament table in one snapshot, as stored. `load_tournament`
writes such rows into an empty database in one transaction, keeping every id, version, author
and time, so that printed table slips, the log and result versions still line up. The rows go
through the checks entry uses first (`check_tournament_rows`, with `stsa.store.checks`): nothing
gets in that a page would refuse. PINs are not part of a tournament and never leave the
installation.
"""

from __future__ import annotations

import datetime as dt
import functools
import json
import math
import numbers
from collections.abc import Callable, Mapping
from types import SimpleNamespace
from typing import Any

import pandas as pd
import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from stsa.auth import Actor, require
from stsa.domain import (
    Action,
    PlayerStatus,
    Problem,
    Role,
    SittingStatus,
    TournamentError,
    table_label,
)
from stsa.i18n import N_, _, ngettext
from stsa.settings import REGISTRY
from stsa.store import audit, checks, db, roster, schema
from stsa.store.errors import InvalidState

# Parents before children; the order rows are written in.
TOURNAMENT_TABLES = (schema.players, schema.sittings, schema.tables, schema.sit_outs,
                     schema.waiting, schema.seats, schema.results, schema.leader_votes,
                     schema.wild_cards, schema.absences, schema.schedule_items,
                     schema.bookings, schema.settings,
                     schema.events)
_DERIVED = {"players": ("name_key", "nickname_key")}  # recomputed on load, never read
_CHUNK = 1000
_MOST = 50  # problems named in one message


def _seed_text(value: str) -> str:
    return str(checks.check_seed(value))


#: The checks entry makes on single values, by (table, column), after the column's type.
VALUE_CHECKS: dict[tuple[str, str], Callable[[Any], Any]] = {
    ("sittings", "seed"): _seed_text,  # R3
    ("sittings", "kind"): checks.check_kind,
    ("sittings", "status"): functools.partial(checks.check_status, words=SittingStatus),
    ("players", "status"): functools.partial(checks.check_status, words=PlayerStatus),
    **{("results", field): functools.partial(checks.result_number, field)
       for field in checks.NUMBER_RANGES},  # R11-R13
}
#: The result numbers' ranges (`checks.result_number`): within them a number is kept as is.
NUMBER_RANGES_OF = {("results", field): limits for field, limits in checks.NUMBER_RANGES.items()}


def dump_tournament(engine: Engine) -> dict[str, list[dict]]:
    """Every row of the tournament's tables (`players, sittings, tables, sit_outs, waiting,
    seats, results, leader_votes, wild_cards, absences, schedule_items, bookings, settings,
    events`; players without their derived name and nickname keys), as stored, in one
    consistent snapshot: {table
    name: [row dict, …]} ordered by key. JSON columns stay JSON text; times are UTC-aware."""
    out: dict[str, list[dict]] = {}
    with db.reading(engine) as conn:
        for table in TOURNAMENT_TABLES:
            skip = _DERIVED.get(table.name, ())
            cols = [c for c in table.columns if c.name not in skip]
            times = {c.name for c in cols if isinstance(c.type, schema.UTCDateTime)}
            rows = conn.execute(sa.select(*(  # times as the database hands them, read below
                sa.type_coerce(c, _AsStored).label(c.name) if c.name in times else c
                for c in cols)).order_by(*table.primary_key.columns)).all()
            columns = {c.name: [r[i] for r in rows] for i, c in enumerate(cols)}
            for name in times:  # a column at a time instead of a call per value
                columns[name] = [None if v is None else _utc(v) for v in columns[name]]
            out[table.name] = [dict(zip(columns, values)) for values in zip(*columns.values())]
    return out


class _AsStored(sa.types.TypeDecorator):
    """A time column as the database hands it (text on SQLite, a naive datetime elsewhere),
    for `dump_tournament` to read a column at a time (`_utc`)."""

    impl = sa.types.NullType
    cache_ok = True


def load_tournament(engine: Engine, data: Mapping[str, Any], *, actor: Actor,
                    source: str = "a tournament file",
                    checked: Callable[[], None] | None = None) -> dict[str, int]:
    """Recreate a tournament from `dump_tournament`-shaped rows ({table: frame or records}) in
    an EMPTY database (no players, no sittings), in one transaction: all or nothing.

    Organizer only (R20). Every row goes through the checks entry uses
    (`check_tournament_rows`): a bad value raises one `TournamentError` whose `problems` name
    each table and row ("results row 7"), and nothing is written. Ids, versions, authors and
    times are kept; the log's events keep their ids when this database has none yet, else
    follow its own, and one `tournament.restore` event naming `source` closes them (R19).
    Settings in the file replace the same settings here. A database that already holds a
    tournament raises `InvalidState`. Returns how many rows each table received. `checked()`
    is called once every row has passed, before the writing begins (a restore's progress).
    """
    require(actor, Role.ORGANIZER, action=N_("restore a tournament"))
    rows = check_tournament_rows(data)
    if checked is not None:
        checked()

    def work(conn: Connection) -> dict[str, int]:
        _refuse_a_held_tournament(conn)
        offset = conn.execute(sa.select(sa.func.max(schema.events.c.id))).scalar() or 0
        for item in rows["events"]:
            item["id"] += offset
        _write(conn, rows)
        audit.new_epoch(conn)
        counts = {name: len(batch) for name, batch in rows.items()}
        audit.log(conn, actor, Action.TOURNAMENT_RESTORE, "tournament",
               after={"source": source, "rows": counts, "event_id_offset": offset})
        return counts

    try:
        return db.write(engine, work)
    except sa.exc.IntegrityError as exc:
        raise TournamentError(_("{source} could not be restored: its rows contradict each "
                                "other ({reason}). Nothing was changed.").format(
            source=source, reason=str(exc.orig).splitlines()[0])) from exc


def _refuse_a_held_tournament(conn: Connection) -> None:
    held = {t.name: conn.execute(sa.select(sa.func.count()).select_from(t)).scalar_one()
            for t in (schema.players, schema.sittings)}
    if held["players"] or held["sittings"]:
        players = ngettext("{count} player", "{count} players", held["players"]).format(
            count=held["players"])
        sittings = ngettext("{count} sitting", "{count} sittings", held["sittings"]).format(
            count=held["sittings"])
        raise InvalidState(_("This database already holds a tournament ({players}, "
                             "{sittings}): restore into a new, empty database. Nothing was "
                             "changed.").format(players=players, sittings=sittings))


def _write(conn: Connection, rows: dict[str, list[dict]]) -> None:
    """The rows, parents first; the file's settings replace the same settings here."""
    keys = [r["key"] for r in rows["settings"]]
    if keys:
        conn.execute(sa.delete(schema.settings).where(schema.settings.c.key.in_(keys)))
    for table in TOURNAMENT_TABLES:
        batch = rows[table.name]
        if not _insert_quickly(conn, table, batch):
            for start in range(0, len(batch), _CHUNK):
                conn.execute(sa.insert(table), batch[start:start + _CHUNK])
    db.advance_sequences(conn, schema.ID_TABLES)


def _insert_quickly(conn: Connection, table: sa.Table, batch: list[dict]) -> bool:
    """`batch` inserted in one executemany of the driver, each column's values bound as its
    type binds them (a column at a time, not a call per row): for SQLite's driver, whose
    rows here all hold the same columns. False (nothing done) otherwise."""
    names = list(batch[0]) if batch else []
    keys = set(names)
    if conn.dialect.paramstyle != "qmark" or not names or any(r.keys() != keys for r in batch):
        return False
    values = []
    for name in names:
        column = [r[name] for r in batch]
        bind = table.c[name].type.bind_processor(conn.dialect)
        values.append(column if bind is None else [bind(v) for v in column])
    quote = conn.dialect.identifier_preparer.quote
    conn.exec_driver_sql(f"INSERT INTO {quote(table.name)} ({', '.join(map(quote, names))}) "
                         f"VALUES ({', '.join('?' * len(names))})", list(zip(*values)))
    return True


def check_tournament_rows(data: Mapping[str, Any]) -> dict[str, list[dict]]:
    """`dump_tournament`-shaped rows as `load_tournament` writes them, checked as entry checks
    them, in three rounds: each value (its column's type and length, then the entry checks of
    `VALUE_CHECKS`: seeds R3, kinds, statuses, result numbers R11-R13), the rows together
    (JSON, names, versions, settings), then the tournament's rules (sitting statuses R20, each
    table's result as result entry takes it, R9-R13). Raises one `TournamentError` whose
    `problems` name the table and row of each."""
    unknown = sorted(set(data) - {t.name for t in TOURNAMENT_TABLES})
    if unknown:
        raise TournamentError(_("Unknown tournament tables: {tables}.").format(
            tables=", ".join(unknown)))
    problems: list[Problem] = []
    rows = {t.name: _clean_table(t, data.get(t.name), problems) for t in TOURNAMENT_TABLES}
    _refuse(problems)
    _refuse(_consistency_problems(rows))
    _refuse(_rule_problems(rows))
    return rows


def _row(table: str, row: int) -> str:
    """"players row 3": a row of the rows given, by its table's name."""
    return _("{table} row {row}").format(table=table, row=row)


def _refuse(problems: list[Problem]) -> None:
    if problems:
        raise TournamentError(_("Nothing was restored: {problems}.").format(
            problems="; ".join(map(str, problems[:_MOST]))), problems)


# -- round 1: each value -----------------------------------------------------------------------
def _records(value: Any) -> list[dict]:
    if value is None:
        return []
    if isinstance(value, pd.DataFrame):
        return value.astype(object).where(value.notna(), None).to_dict("records")
    return [dict(r) for r in value]


def _coerce(column: sa.Column, value: Any):
    """`value` as the Python type of `column`; ValueError says what was expected."""
    kind = column.type
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):  # numpy scalars
        value = value.item()
    if isinstance(kind, schema.UTCDateTime):
        return _utc(value)
    if isinstance(kind, sa.Boolean):
        if isinstance(value, str) and value.strip().lower() in ("true", "false", "1", "0"):
            return value.strip().lower() in ("true", "1")
        if isinstance(value, (bool, numbers.Integral)) and value in (0, 1):
            return bool(value)
        raise ValueError(_("TRUE or FALSE"))
    if isinstance(kind, (sa.Integer, sa.BigInteger)):
        n = checks.whole_number(value)
        if n is None:
            raise ValueError(_("a whole number"))
        return n
    text = value if isinstance(value, str) else str(value)
    length = getattr(kind, "length", None)
    if length and len(text) > length:
        raise ValueError(_("at most {limit} characters").format(limit=length))
    return text


def _utc(value: Any) -> dt.datetime:
    """A time as the store keeps it: UTC-aware (a naive one, or text, read as UTC)."""
    if isinstance(value, str):
        value = dt.datetime.fromisoformat(value.strip())
    if isinstance(value, pd.Timestamp):
        value = value.to_pydatetime()
    if not isinstance(value, dt.datetime):
        raise ValueError(_("a date and time"))
    return value if value.tzinfo else value.replace(tzinfo=dt.UTC)


def _default(column: sa.Column):
    """The Python value of a column's server default ("", "{}", "[]", 0, false, "active")."""
    arg = column.server_default.arg  # type: ignore[union-attr]
    if isinstance(column.type, sa.Boolean):
        return False
    text = arg if isinstance(arg, str) else str(arg)
    return int(text) if isinstance(column.type, sa.Integer) else text


def _value(table: sa.Table, col: sa.Column, raw: Any, where: str, problems: list[Problem]):
    """One cell as stored: blank → NULL or the default, else its type, then entry's check."""
    if checks.blank(raw):
        if col.nullable:
            return None
        if col.server_default is not None:  # e.g. an empty club, no leaders
            return _default(col)
        problems.append(Problem(where, _("{column} is missing").format(column=col.name)))
        return None
    try:
        value = _coerce(col, raw)
    except (ValueError, TypeError) as exc:
        problems.append(Problem(where, _("{column} must be {expected}, not {value}").format(
            column=col.name, expected=exc, value=repr(raw))))
        return None
    check = VALUE_CHECKS.get((table.name, col.name))
    try:
        return value if check is None else check(value)
    except ValueError as exc:  # a TournamentError is a ValueError
        problems.append(Problem(where, str(exc).rstrip(".")))
        return None


def _player_name(row: dict, where: str, problems: list[Problem]) -> None:
    """R19: a name as roster entry takes it, and its key for the same-name check; R22: the
    nickname the same way, the name where there is none (files from before nicknames)."""
    try:
        row["name"] = checks.text(row["name"], "name", roster.NAME_MAX, where, required=True)
        row["name_key"] = roster.normalize_name(row["name"])
        row["nickname"] = checks.text(row.get("nickname") or row["name"], "nickname",
                                      roster.NICKNAME_MAX, where, required=True)
        row["nickname_key"] = roster.normalize_name(row["nickname"])
    except TournamentError as exc:
        problems.append(Problem(where, str(exc).removeprefix(f"{where}: ").rstrip(".")))


def _clean_table(table: sa.Table, value: Any, problems: list[Problem]) -> list[dict]:
    skip = _DERIVED.get(table.name, ())
    columns = [c for c in table.columns if c.name not in skip]
    quick = _clean_columns(table, columns, value)
    return quick if quick is not None else _clean_rows(table, columns, value, problems)


def _columns(value: Any, names: list[str]) -> tuple[int, dict[str, list]]:
    """The rows given (a frame or records) column by column, as `_records` reads them:
    (how many, {column: values}), a frame's blanks (NaN, NaT, NA) as None."""
    if isinstance(value, pd.DataFrame):
        return len(value), {
            name: (value[name].astype(object).where(value[name].notna(), None).tolist()
                   if name in value else [None] * len(value)) for name in names}
    records = _records(value)
    return len(records), {name: [r.get(name) for r in records] for name in names}


def _clean_columns(table: sa.Table, columns: list[sa.Column], value: Any) -> list[dict] | None:
    """`_clean_rows` column by column for rows that are all as entry keeps them (the usual
    values taken as they are, the others through `_value`); None at the first problem, for
    `_clean_rows` to name every one in its order."""
    count, given = _columns(value, [c.name for c in columns])
    found: list[Problem] = []
    cleaned = []
    for col in columns:
        cleaned.append(_clean_column(table, col, given[col.name], found))
        if found:
            return None
    rows = [dict(zip(given, values)) for values in zip(*cleaned)] if columns else [
        {} for _x in range(count)]
    if table.name == "players":
        for row in rows:
            if row.get("name") is not None:
                _player_name(row, "", found)
                if found:
                    return None
    return rows


def _clean_column(table: sa.Table, col: sa.Column, values: list, problems: list[Problem]
                  ) -> list:
    """One column's values as `_value` keeps them; the usual ones (an int in range, text
    within its length, a bool, a UTC time) without a call each."""
    def other(raw: Any) -> Any:
        return _value(table, col, raw, "", problems)

    kind = col.type
    limit = NUMBER_RANGES_OF.get((table.name, col.name))
    if (table.name, col.name) in VALUE_CHECKS and limit is None:
        return [other(v) for v in values]
    if limit is not None:
        low, high = limit
        return [v if type(v) is int and low <= v <= high else other(v) for v in values]
    if isinstance(kind, schema.UTCDateTime):
        return [v if type(v) is dt.datetime and v.tzinfo is not None else other(v)
                for v in values]
    if isinstance(kind, sa.Boolean):
        return [v if type(v) is bool else other(v) for v in values]
    if isinstance(kind, (sa.Integer, sa.BigInteger)):
        return [v if type(v) is int else other(v) for v in values]
    length = getattr(kind, "length", None) or math.inf
    return [v if type(v) is str and v and len(v) <= length and not v.isspace() else other(v)
            for v in values]


def _clean_rows(table: sa.Table, columns: list[sa.Column], value: Any,
                problems: list[Problem]) -> list[dict]:
    """Each row's values through `_value`, row by row, every problem named in order."""
    out = []
    for i, rec in enumerate(_records(value), start=1):
        where = _row(table.name, i)
        row = {col.name: _value(table, col, rec.get(col.name), where, problems)
               for col in columns}
        if table.name == "players" and row.get("name") is not None:
            _player_name(row, where, problems)
        out.append(row)
        if len(problems) > _MOST:
            break
    return out


# -- round 2: the rows together ----------------------------------------------------------------
def _json(text: str, table: str, row: int, what: str, problems: list[Problem]):
    """The JSON `text` of `table`'s row `row` read, or None and a problem naming it."""
    try:
        return json.loads(text)
    except (TypeError, ValueError):
        problems.append(Problem(_row(table, row), _("{column} is not valid JSON").format(
            column=what)))
        return None


def _player_problems(players: list[dict]) -> list[Problem]:
    problems: list[Problem] = []
    seen: dict[str | None, int] = {}
    nicknames: dict[str | None, int] = {}
    for i, p in enumerate(players, start=1):
        key = p.get("name_key")
        if key in seen:
            problems.append(Problem(_row("players", i), _(
                "the same name as row {row} ({name})").format(row=seen[key],
                                                              name=repr(p["name"]))))
        seen.setdefault(key, i)
        nick = p.get("nickname_key")
        if nick in nicknames:
            problems.append(Problem(_row("players", i), _(
                "the same nickname as row {row} ({nickname})").format(
                    row=nicknames[nick], nickname=repr(p["nickname"]))))
        nicknames.setdefault(nick, i)
        extra = _json(p.get("extra", "{}"), "players", i, "extra", problems)
        if extra is not None and not isinstance(extra, dict):
            problems.append(Problem(_row("players", i), _(
                "{column} must be a JSON object").format(column="extra")))
    return problems


def _table_problems(rows: dict[str, list[dict]]) -> list[Problem]:
    """Leader lists are JSON lists; each result row carries its table's version."""
    problems: list[Problem] = []
    for i, t in enumerate(rows["tables"], start=1):
        for col in ("removed_leaders", "available_leaders"):
            value = _json(t.get(col, "[]"), "tables", i, col, problems)
            if value is not None and not isinstance(value, list):
                problems.append(Problem(_row("tables", i), _("{column} must be a list").format(
                    column=col)))
    versions = {t["id"]: t.get("result_version", 0) for t in rows["tables"]}
    for i, r in enumerate(rows["results"], start=1):
        want = versions.get(r["table_id"])
        if want is not None and r["version"] != want:
            problems.append(Problem(_row("results", i), _(
                "version is {version} but table {table} says {expected}").format(
                    version=r["version"], table=r["table_id"], expected=want)))
    return problems


def _setting_problems(settings: list[dict]) -> list[Problem]:
    """R4, R5, R7, R9, R10, R12: each setting through `set_settings`' validator."""
    problems: list[Problem] = []
    for i, s in enumerate(settings, start=1):
        where = _row("settings", i)
        value = _json(s["value"], "settings", i, _("setting {key}").format(key=s["key"]),
                      problems)
        found = REGISTRY.get(s["key"])
        if found is None:
            problems.append(Problem(where, _("{key} is not a setting").format(
                key=repr(s["key"]))))
        elif value is not None:
            try:
                found.check(value)
            except TournamentError as exc:
                problems.append(Problem(where, f"{s['key']} {exc}"))
    return problems


def _consistency_problems(rows: dict[str, list[dict]]) -> list[Problem]:
    """What the schema cannot check: JSON columns, duplicate names, result versions, settings."""
    problems = [*_player_problems(rows["players"]), *_table_problems(rows),
                *_setting_problems(rows["settings"])]
    for i, e in enumerate(rows["events"], start=1):
        for col in ("before", "after"):
            if e.get(col) is not None:
                _json(e[col], "events", i, col, problems)
    return problems


# -- round 3: the tournament's rules -----------------------------------------------------------
def _status_problems(rows: dict[str, list[dict]]) -> list[Problem]:
    """R20: no results in a sitting that is only drawn; a complete one has every result."""
    reported = {r["table_id"] for r in rows["results"]}
    problems = []
    for i, s in enumerate(rows["sittings"], start=1):
        mine = [t for t in rows["tables"] if t["sitting_id"] == s["id"]]
        without = sorted(t["table_no"] for t in mine if t["id"] not in reported)
        wrong = checks.status_problem(s["kind"], s["number"], s["status"],
                                      len(mine) - len(without), without)
        if wrong:
            problems.append(Problem(_row("sittings", i), wrong))
    return problems


def _seated(rows: dict[str, list[dict]]) -> dict[int, dict[int, SimpleNamespace]]:
    """{table id: {player id: (seat, name)}}, as result entry looks a table's players up."""
    names = {p["id"]: p["name"] for p in rows["players"]}
    seated: dict[int, dict[int, SimpleNamespace]] = {}
    for s in rows["seats"]:
        seated.setdefault(s["table_id"], {})[s["player_id"]] = SimpleNamespace(
            seat=s["seat"], name=names.get(s["player_id"]))
    return seated


def _result_problems(rows: dict[str, list[dict]]) -> list[Problem]:
    """R9-R13: each table's result through result entry's check (named at its first row), and
    each row in its player's seat."""
    tables = {t["id"]: t for t in rows["tables"]}
    sittings = {s["id"]: s for s in rows["sittings"]}
    seated = _seated(rows)
    by_table: dict[int, list[tuple[int, dict]]] = {}
    problems = []
    right = checks.plainly_right(  # the wild card may have changed since: removed ones too
        pd.DataFrame(rows["results"], columns=["table_id", "player_id", "leader",
                                               *checks.NUMBER_RANGES], dtype=object),
        pd.DataFrame(rows["seats"], columns=["table_id", "player_id"], dtype=object),
        {t["id"]: {*json.loads(t["available_leaders"]), *json.loads(t["removed_leaders"])}
         for t in rows["tables"]})
    for i, r in enumerate(rows["results"], start=1):
        by_table.setdefault(r["table_id"], []).append((i, r))
        seat = seated.get(r["table_id"], {}).get(r["player_id"])
        if seat is not None and seat.seat != r["seat"]:
            problems.append(Problem(_row("results", i), _(
                "seat is {seat} but player {player} sits in seat {other}").format(
                    seat=r["seat"], player=r["player_id"], other=seat.seat)))
    for table_id, numbered in by_table.items():
        t = tables.get(table_id)
        if table_id in right and t is not None:
            continue
        if t is None:
            problems.append(Problem(_row("results", numbered[0][0]),
                                    _("table_id {table} is not a table").format(
                                        table=table_id)))
            continue
        s = sittings.get(t["sitting_id"], {"kind": "?", "number": 0})
        label = table_label(s["kind"], s["number"], t["table_no"])
        try:  # the wild card may have changed since: a removed leader is one of the table's
            checks.check_result_rows([r for _x, r in numbered], seated.get(table_id, {}),
                                     json.loads(t["available_leaders"]),
                                     json.loads(t["removed_leaders"]), label, True)
        except TournamentError as exc:
            problems.append(Problem(_row("results", numbered[0][0]),
                                    str(exc).removesuffix(" Nothing was saved.").rstrip(".")))
    return problems


def _rule_problems(rows: dict[str, list[dict]]) -> list[Problem]:
    return [*_status_problems(rows), *_result_problems(rows)]
