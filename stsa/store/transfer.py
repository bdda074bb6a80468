"""A whole tournament as plain rows, out and back in: what the tournament workbook
(`stsa.excel.tournament_workbook`, `stsa.excel.restore_workbook`) is made of (R19).

`dump_tournament` reads every tournament table in one snapshot, as stored. `load_tournament`
writes such rows into an empty database in one transaction, keeping every id, version, author
and time, so that printed table slips, the log and result versions still line up. PINs are not
part of a tournament and never leave the installation.
"""

from __future__ import annotations

import datetime as dt
import json
import math
import numbers
from typing import Any, Mapping

import pandas as pd
import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from stsa.auth import Actor, Role, require
from stsa.store import admin, db, roster, schema
from stsa.store.errors import InvalidState, TournamentError

# Parents before children; the order rows are written in.
TOURNAMENT_TABLES = (schema.players, schema.sittings, schema.tables, schema.sit_outs,
                     schema.seats, schema.results, schema.absences, schema.settings,
                     schema.events)
_DERIVED = {"players": ("name_key",)}  # recomputed on load, never read from a file
_CHUNK = 1000


def dump_tournament(engine: Engine) -> dict[str, list[dict]]:
    """Every row of the tournament's tables (`players, sittings, tables, sit_outs, seats,
    results, absences, settings, events`), as stored, in one consistent snapshot: {table name:
    [row dict, …]} ordered by key. JSON columns stay JSON text; times are UTC-aware."""
    out: dict[str, list[dict]] = {}
    with db.reading(engine) as conn:
        for table in TOURNAMENT_TABLES:
            skip = _DERIVED.get(table.name, ())
            cols = [c for c in table.columns if c.name not in skip]
            rows = conn.execute(sa.select(*cols).order_by(*table.primary_key.columns))
            out[table.name] = [dict(r._mapping) for r in rows]
    return out


def load_tournament(engine: Engine, data: Mapping[str, Any], *, actor: Actor,
                    source: str = "a tournament file") -> dict[str, int]:
    """Recreate a tournament from `dump_tournament`-shaped rows ({table: frame or records}) in
    an EMPTY database (no players, no sittings), in one transaction: all or nothing.

    Organizer only (R20). Ids, versions, authors and times are kept; the log's events keep
    their ids when this database has none yet, else follow its own, and one
    `tournament.restore` event naming `source` closes them (R19). Settings in the file
    replace the same settings here. Every bad value is named by table, row and column in one
    `TournamentError`; a database that already holds a tournament raises `InvalidState`.
    Returns how many rows each table received.
    """
    require(actor, Role.ORGANIZER, action="restore a tournament")
    unknown = sorted(set(data) - {t.name for t in TOURNAMENT_TABLES})
    if unknown:
        raise TournamentError(f"Unknown tournament tables: {', '.join(unknown)}.")
    rows = {t.name: _clean_table(t, data.get(t.name)) for t in TOURNAMENT_TABLES}
    _check_consistency(rows)

    def work(conn: Connection) -> dict[str, int]:
        held = {t.name: conn.execute(sa.select(sa.func.count()).select_from(t)).scalar()
                for t in (schema.players, schema.sittings)}
        if held["players"] or held["sittings"]:
            raise InvalidState(
                f"This database already holds a tournament ({held['players']} players, "
                f"{held['sittings']} sittings): restore into a new, empty database. Nothing "
                f"was changed.")
        offset = conn.execute(sa.select(sa.func.max(schema.events.c.id))).scalar() or 0
        for item in rows["events"]:
            item["id"] += offset
        keys = [r["key"] for r in rows["settings"]]
        if keys:
            conn.execute(sa.delete(schema.settings).where(schema.settings.c.key.in_(keys)))
        for table in TOURNAMENT_TABLES:
            batch = rows[table.name]
            for start in range(0, len(batch), _CHUNK):
                conn.execute(sa.insert(table), batch[start:start + _CHUNK])
        db.advance_sequences(conn, schema.ID_TABLES)
        counts = {name: len(batch) for name, batch in rows.items()}
        db.log(conn, actor, "tournament.restore", "tournament",
               after={"source": source, "rows": counts, "event_id_offset": offset})
        return counts

    try:
        return db.write(engine, work)
    except sa.exc.IntegrityError as exc:
        raise TournamentError(f"{source} could not be restored: its rows contradict each other "
                              f"({str(exc.orig).splitlines()[0]}). Nothing was changed.") from exc


# -- checking rows -----------------------------------------------------------------------------
def _records(value: Any) -> list[dict]:
    if value is None:
        return []
    if isinstance(value, pd.DataFrame):
        return value.astype(object).where(value.notna(), None).to_dict("records")
    return [dict(r) for r in value]


def _blank(value: Any) -> bool:
    return value is None or value is pd.NA or value is pd.NaT or (
        isinstance(value, float) and math.isnan(value)) or (
        isinstance(value, str) and not value.strip())


def _coerce(column: sa.Column, value: Any):
    """`value` as the Python type of `column`; ValueError says what was expected."""
    kind = column.type
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):  # numpy scalars
        value = value.item()
    if isinstance(kind, schema.UTCDateTime):
        if isinstance(value, str):
            value = dt.datetime.fromisoformat(value.strip())
        if isinstance(value, pd.Timestamp):
            value = value.to_pydatetime()
        if not isinstance(value, dt.datetime):
            raise ValueError("a date and time")
        return value if value.tzinfo else value.replace(tzinfo=dt.timezone.utc)
    if isinstance(kind, sa.Boolean):
        if isinstance(value, str) and value.strip().lower() in ("true", "false", "1", "0"):
            return value.strip().lower() in ("true", "1")
        if isinstance(value, (bool, numbers.Integral)) and value in (0, 1):
            return bool(value)
        raise ValueError("TRUE or FALSE")
    if isinstance(kind, (sa.Integer, sa.BigInteger)):
        if isinstance(value, bool):
            raise ValueError("a whole number")
        if isinstance(value, numbers.Integral):
            return int(value)
        if isinstance(value, float) and value.is_integer():
            return int(value)
        if isinstance(value, str) and value.strip().lstrip("+-").isdigit():
            return int(value.strip())
        raise ValueError("a whole number")
    text = value if isinstance(value, str) else str(value)
    length = getattr(kind, "length", None)
    if length and len(text) > length:
        raise ValueError(f"at most {length} characters")
    return text


def _default(column: sa.Column):
    """The Python value of a column's server default ("", "{}", "[]", 0, false, "active")."""
    arg = column.server_default.arg
    if isinstance(column.type, sa.Boolean):
        return False
    text = arg if isinstance(arg, str) else str(arg)
    return int(text) if isinstance(column.type, sa.Integer) else text


def _clean_table(table: sa.Table, value: Any) -> list[dict]:
    skip = _DERIVED.get(table.name, ())
    columns = [c for c in table.columns if c.name not in skip]
    out, problems = [], []
    for i, rec in enumerate(_records(value), start=1):
        row = {}
        for col in columns:
            raw = rec.get(col.name)
            if _blank(raw):
                if col.nullable:
                    row[col.name] = None
                elif col.server_default is not None:  # e.g. an empty club, no leaders
                    row[col.name] = _default(col)
                else:
                    problems.append(f"{table.name} row {i}: {col.name} is missing")
                continue
            try:
                row[col.name] = _coerce(col, raw)
            except (ValueError, TypeError) as exc:
                problems.append(f"{table.name} row {i}: {col.name} must be {exc}, not {raw!r}")
        if table.name == "players" and "name" in row:
            try:
                row["name"] = roster._text(row["name"], "name", roster.NAME_MAX,
                                           f"players row {i}", required=True)
                row["name_key"] = roster.normalize_name(row["name"])
            except TournamentError as exc:
                problems.append(str(exc).rstrip("."))
        out.append(row)
        if len(problems) > 50:
            break
    if problems:
        raise TournamentError("Nothing was restored: " + "; ".join(problems[:50]) + ".")
    return out


def _json(text: str, where: str, problems: list[str]):
    try:
        return json.loads(text)
    except (TypeError, ValueError):
        problems.append(f"{where} is not valid JSON")
        return None


def _check_consistency(rows: dict[str, list[dict]]) -> None:
    """What the schema cannot check: JSON columns, duplicate names, result versions, settings."""
    problems: list[str] = []
    seen: dict[str, int] = {}
    for p in rows["players"]:
        key = p.get("name_key")
        if key in seen:
            problems.append(f"players {seen[key]} and {p['id']} have the same name "
                            f"({p['name']!r})")
        seen.setdefault(key, p["id"])
        extra = _json(p.get("extra", "{}"), f"player {p['id']}'s extra", problems)
        if extra is not None and not isinstance(extra, dict):
            problems.append(f"player {p['id']}'s extra must be a JSON object")
    versions = {t["id"]: t.get("result_version", 0) for t in rows["tables"]}
    for t in rows["tables"]:
        for col in ("removed_leaders", "available_leaders"):
            value = _json(t.get(col, "[]"), f"table {t['id']}'s {col}", problems)
            if value is not None and not isinstance(value, list):
                problems.append(f"table {t['id']}'s {col} must be a list")
    for r in rows["results"]:
        want = versions.get(r["table_id"])
        if want is not None and r["version"] != want:
            problems.append(f"the result of table {r['table_id']} is version {r['version']} "
                            f"but the table says {want}")
    for s in rows["settings"]:
        value = _json(s["value"], f"setting {s['key']}", problems)
        check = admin.VALIDATORS.get(s["key"])
        if check is None:
            problems.append(f"{s['key']!r} is not a setting")
        elif value is not None:
            try:
                check(value)
            except ValueError as exc:
                problems.append(f"setting {s['key']} {exc}")
    for e in rows["events"]:
        for col in ("before", "after"):
            if e.get(col) is not None:
                _json(e[col], f"event {e['id']}'s {col}", problems)
    if problems:
        raise TournamentError("Nothing was restored: " + "; ".join(problems[:50]) + ".")
