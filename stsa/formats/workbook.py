"""The tournament workbook: written from plain rows, and parsed back into plain frames for a
restore (R19).

Writing: one sheet per table of the tournament, each with a bold frozen header, a filter,
widths to fit and times as dates (UTC); text a spreadsheet would take for a formula is stored
as text. The workbook holds hidden information (removed leaders, emails, the log): organizer
only (R20).

Parsing: every file passes the hostile-file guards first; then each cell is read as the kind
its column holds (a whole number, a date and time, TRUE or FALSE, JSON …). A cell that is not
raises one `RestoreError` whose problems name each sheet and row. Whether the values make sense
for a tournament is the service's check (`stsa.services.restore`), with the validators entry
uses.
"""

from __future__ import annotations

import datetime as dt
import io
import json
from dataclasses import dataclass
from typing import Any, Iterable, Mapping

import openpyxl
import pandas as pd
from openpyxl.cell import WriteOnlyCell
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.utils import get_column_letter

from stsa import catalog
from stsa.domain import Problem, sitting_label
from stsa.formats import guards
from stsa.formats.csv import looks_like_formula
from stsa.formats.guards import WORKBOOK_LIMITS, SpreadsheetError, at_row, cell_text

HEADER_FONT = Font(bold=True)
HEADER_FILL = PatternFill("solid", fgColor="DDE3EA")
TIME_FORMAT = "yyyy-mm-dd hh:mm:ss"
EXCEL_TEXT_MAX = 16_000  # Excel holds 32,767 UTF-16 units in a cell; any character is ≤ 2
INT_MAX = 2**31 - 1  # what an integer column holds on every database STSA runs on
SHOWN_PROBLEMS = 50

Sheet = tuple[list[str], list[list]]  # (headings, rows)

# sheet -> (store table it restores, or None) and [(heading, table column or None, kind)];
# kinds: int, text, bool, time, list (leaders, "; "-separated), json (JSON text), num
SHEETS: dict[str, tuple[str | None, list[tuple[str, str | None, str]]]] = {
    "Players": ("players", [
        ("player_id", "id", "int"), ("name", "name", "text"), ("club", "club", "text"),
        ("email", "email", "text"), ("status", "status", "text"),
        ("checked_in", "checked_in", "bool"), ("extra", "extra", "json"),
        ("created_by", "created_by", "text"), ("created_at", "created_at", "time")]),
    "Sittings": ("sittings", [
        ("sitting_id", "id", "int"), ("kind", "kind", "text"), ("number", "number", "int"),
        ("label", None, "text"), ("seed", "seed", "text"), ("status", "status", "text"),
        ("tables", None, "int"), ("results", None, "int"),
        ("created_by", "created_by", "text"), ("created_at", "created_at", "time"),
        ("published_at", "published_at", "time"), ("completed_at", "completed_at", "time")]),
    "Tables": ("tables", [
        ("table_id", "id", "int"), ("sitting_id", "sitting_id", "int"), ("kind", None, "text"),
        ("sitting_no", None, "int"), ("table_no", "table_no", "int"),
        ("setup_id", "setup_id", "text"), ("setup", None, "text"),
        ("setup_override", "setup_override", "bool"), ("players", None, "int"),
        ("removed_leaders", "removed_leaders", "list"),
        ("available_leaders", "available_leaders", "list"),
        ("version", "result_version", "int")]),
    "Seats": ("seats", [
        ("table_id", "table_id", "int"), ("sitting_id", "sitting_id", "int"),
        ("kind", None, "text"), ("sitting_no", None, "int"), ("table_no", None, "int"),
        ("seat", "seat", "int"), ("player_id", "player_id", "int"), ("name", None, "text"),
        ("colour", "colour", "text"), ("pick_order", "pick_order", "int")]),
    "Results": ("results", [
        ("game_id", "table_id", "int"), ("sitting_id", None, "int"), ("kind", None, "text"),
        ("sitting_no", None, "int"), ("table_no", None, "int"), ("setup_id", None, "text"),
        ("seat", "seat", "int"), ("player_id", "player_id", "int"), ("name", None, "text"),
        ("leader", "leader", "text"), ("vp", "vp", "int"), ("spice", "spice", "int"),
        ("solari", "solari", "int"), ("troops", "troops", "int"), ("water", "water", "int"),
        ("variant_points", "variant_points", "int"), ("tiebreak", "tiebreak", "int"),
        ("placing", None, "int"), ("qualifier_score", None, "num"), ("tied", None, "bool"),
        ("version", "version", "int"), ("saved_by", "saved_by", "text"),
        ("saved_at", "saved_at", "time"), ("submission_id", "submission_id", "text")]),
    "Votes": ("leader_votes", [  # R10 Vote Off: judges' and organizer's eyes only (R20)
        ("table_id", "table_id", "int"), ("player_id", "player_id", "int"),
        ("name", None, "text"), ("leader", "leader", "text"),
        ("entered_by", "entered_by", "text"), ("entered_at", "entered_at", "time")]),
    "Wild cards": ("wild_cards", [  # R10 Wild Card
        ("table_id", "table_id", "int"), ("seat", "seat", "int"),
        ("player_id", "player_id", "int"), ("name", None, "text"),
        ("picked_leader", "picked_leader", "text"), ("swapped", "swapped", "bool"),
        ("leader", "leader", "text"), ("entered_by", "entered_by", "text"),
        ("entered_at", "entered_at", "time")]),
    "Standings": (None, []),  # headings from the standings frame
    "Finals": (None, [
        ("final_rank", None, "int"), ("player_id", None, "int"), ("name", None, "text"),
        ("stage", None, "text"), ("wildcard", None, "bool")]),
    "Sit-outs": ("sit_outs", [
        ("sitting_id", "sitting_id", "int"), ("player_id", "player_id", "int"),
        ("name", None, "text")]),
    "Absences": ("absences", [
        ("stage", "stage", "text"), ("player_id", "player_id", "int"), ("name", None, "text"),
        ("marked_by", "marked_by", "text"), ("marked_at", "marked_at", "time")]),
    "Settings": ("settings", [
        ("key", "key", "text"), ("value", "value", "json"),
        ("updated_by", "updated_by", "text"), ("updated_at", "updated_at", "time")]),
    "Log": ("events", [
        ("event_id", "id", "int"), ("at", "at", "time"), ("actor", "actor", "text"),
        ("role", "role", "text"), ("action", "action", "text"), ("subject", "subject", "text"),
        ("before", "before", "json"), ("after", "after", "json")]),
}
SHEET_OF = {table: title for title, (table, _) in SHEETS.items() if table}  # table -> sheet
HEADING_OF = {(table, col): heading for table, columns in SHEETS.values() if table
              for heading, col, _ in columns if col}  # (table, column) -> its heading


class RestoreError(SpreadsheetError):
    """A file that is not a readable STSA tournament workbook, or rows a tournament cannot
    hold; `problems` name each sheet and row."""


def restore_error(problems: list[Problem]) -> RestoreError:
    """One error listing every problem (the first `SHOWN_PROBLEMS` in its message)."""
    text = "; ".join(str(p) for p in problems[:SHOWN_PROBLEMS])
    more = len(problems) - SHOWN_PROBLEMS
    return RestoreError(f"Nothing was restored: {text}" + (f"; and {more} more" if more > 0
                                                           else "") + ".", problems)


# -- values as cells -----------------------------------------------------------------------------
def plain(value: Any) -> Any:
    """A Python value for a cell: numpy scalars unwrapped, every kind of missing as None."""
    if value is None or value is pd.NA or value is pd.NaT:
        return None
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):
        value = value.item()
    if isinstance(value, float) and value != value:
        return None
    return value


def excel_time(value: Any) -> dt.datetime | None:
    """UTC, naive (Excel has no time zones), to the millisecond (what a workbook keeps)."""
    if value is None or value is pd.NaT:
        return None
    if isinstance(value, pd.Timestamp):
        value = value.to_pydatetime()
    if value.tzinfo is not None:
        value = value.astimezone(dt.timezone.utc).replace(tzinfo=None)
    return value.replace(microsecond=value.microsecond // 1000 * 1000)


def _sheet_value(kind: str, value: Any) -> Any:
    value = plain(value)
    if value is None:
        return None
    if kind == "time":
        return excel_time(value)
    if kind == "list":
        return "; ".join(json.loads(value) if isinstance(value, str) else list(value))
    if kind == "int":
        return int(value)
    if kind == "bool":
        return bool(value)
    return value


def frame_sheet(frame: pd.DataFrame, columns: list[str] | None = None) -> Sheet:
    """A frame as (headings, rows) of plain values."""
    frame = frame if columns is None else frame[columns]
    return list(frame.columns), [[plain(v) for v in row]
                                 for row in frame.itertuples(index=False, name=None)]


# -- the tournament as sheets --------------------------------------------------------------------
def _split_long(columns: list[tuple[str, str | None, str]], rows: list[list]) -> list[list]:
    """A JSON text longer than a cell holds continues in the rows below, which repeat the
    first column (the id) and leave the others blank; `_join_long` puts it back together."""
    long = [i for i, (_, _, kind) in enumerate(columns) if kind == "json"]
    out = []
    for row in rows:
        parts = {i: [row[i][k:k + EXCEL_TEXT_MAX] for k in range(0, len(row[i]), EXCEL_TEXT_MAX)]
                 for i in long if isinstance(row[i], str) and len(row[i]) > EXCEL_TEXT_MAX}
        out.append([parts[i][0] if i in parts else v for i, v in enumerate(row)])
        for n in range(1, max((len(p) for p in parts.values()), default=0)):
            out.append([row[0]] + [parts[i][n] if i in parts and n < len(parts[i]) else None
                                   for i in range(1, len(row))])
    return out


def _joined(dump: Mapping[str, list[dict]], scored: pd.DataFrame) -> dict[str, list[dict]]:
    """Each table's rows with what a reader wants beside them: names, sitting labels, setup
    names, counts, and the results' placings and scores (R11, R12)."""
    names = {p["id"]: p["name"] for p in dump["players"]}
    sittings = {s["id"]: s for s in dump["sittings"]}
    tables = {t["id"]: t for t in dump["tables"]}
    setup_names = dict(catalog.setups(battle_of_wills=True)[["setup_id", "name"]]
                       .itertuples(index=False, name=None))
    seated = pd.Series([s["table_id"] for s in dump["seats"]], dtype="int64").value_counts()
    by_sitting = pd.DataFrame(dump["tables"], columns=["sitting_id", "result_version"])
    counts = by_sitting.groupby("sitting_id")["result_version"].agg(
        tables="size", results=lambda v: int((v > 0).sum()))
    score = {(int(g), int(p)): (pl, qs, bool(t)) for g, p, pl, qs, t in scored[
        ["game_id", "player_id", "placing", "qualifier_score", "tied"]].itertuples(
        index=False, name=None)}

    def at_table(table_id: int) -> dict:
        t = tables[table_id]
        s = sittings[t["sitting_id"]]
        return {"sitting_id": s["id"], "kind": s["kind"], "sitting_no": s["number"],
                "table_no": t["table_no"], "setup_id": t["setup_id"]}

    def place(rows: Iterable[dict]) -> list[dict]:
        return sorted(rows, key=lambda r: (r["sitting_id"], r["table_no"], r["seat"]))

    return {
        "players": dump["players"],
        "sittings": [{**s, "label": sitting_label(s["kind"], s["number"]),
                      "tables": counts["tables"].get(s["id"], 0),
                      "results": counts["results"].get(s["id"], 0)} for s in dump["sittings"]],
        "tables": [{**t, "kind": sittings[t["sitting_id"]]["kind"],
                    "sitting_no": sittings[t["sitting_id"]]["number"],
                    "setup": setup_names.get(t["setup_id"], t["setup_id"]),
                    "players": seated.get(t["id"], 0)} for t in dump["tables"]],
        "seats": place({**s, **at_table(s["table_id"]), "name": names.get(s["player_id"])}
                       for s in dump["seats"]),
        "results": place({**r, **at_table(r["table_id"]), "name": names.get(r["player_id"]),
                          **dict(zip(("placing", "qualifier_score", "tied"),
                                     score.get((r["table_id"], r["player_id"]),
                                               (None, None, None))))}
                         for r in dump["results"]),
        "leader_votes": [{**v, "name": names.get(v["player_id"])}
                         for v in dump.get("leader_votes", [])],
        "wild_cards": [{**w, "name": names.get(w["player_id"])}
                       for w in dump.get("wild_cards", [])],
        "sit_outs": [{**s, "name": names.get(s["player_id"])} for s in dump["sit_outs"]],
        "absences": [{**a, "name": names.get(a["player_id"])} for a in dump["absences"]],
        "settings": dump["settings"],
        "events": dump["events"],
    }


def tournament_sheets(dump: Mapping[str, list[dict]], *, scored: pd.DataFrame,
                      standings: pd.DataFrame | None = None,
                      finals: pd.DataFrame | None = None,
                      titles: Iterable[str] = tuple(SHEETS)) -> dict[str, Sheet]:
    """{sheet title: (headings, rows)} for the sheets named in `titles`, from one snapshot of
    the store's tables (`dump`, as `store.dump_tournament` returns it), the results scored
    (`game_id, player_id, placing, qualifier_score, tied`), and for the Standings and Finals
    sheets the frames to show (Finals: `final_rank, player_id, name, stage, wildcard`)."""
    joined = _joined(dump, scored)
    shown = {"Standings": standings, "Finals": finals}
    sheets = {}
    for title in titles:
        table, columns = SHEETS[title]
        if table is None:
            frame = shown[title]
            names = [h for h, _, _ in columns] or None
            sheets[title] = frame_sheet(frame, names) if frame is not None else (names or [], [])
            continue
        rows = [[_sheet_value(kind, rec.get(col or h)) for h, col, kind in columns]
                for rec in joined[table]]
        sheets[title] = ([h for h, _, _ in columns], _split_long(columns, rows))
    return sheets


# -- writing -------------------------------------------------------------------------------------
def _text_cell(ws, value: str) -> Any:
    """A string for a write-only sheet: stored as text, never as a formula."""
    if ILLEGAL_CHARACTERS_RE.search(value):
        value = ILLEGAL_CHARACTERS_RE.sub("\ufffd", value)
    if not looks_like_formula(value):
        return value
    cell = WriteOnlyCell(ws, value=value)
    cell.data_type = "s"
    cell.quotePrefix = True  # Excel's own mark for "text, even if it looks like a formula"
    return cell


def _cell(ws, value: Any) -> Any:
    if isinstance(value, str):
        return _text_cell(ws, value)
    if isinstance(value, dt.datetime):
        cell = WriteOnlyCell(ws, value=value)
        cell.number_format = TIME_FORMAT
        return cell
    return value


def _widths(ws, headings: list[str], rows: list[list]) -> None:
    """Column widths from the header and the first 1,000 rows; times as wide as their format."""
    sample = rows[:1000]
    for index, heading in enumerate(headings):
        values = [r[index] for r in sample if r[index] is not None]
        width = max([len(heading)] + [len(v if isinstance(v, str) else str(v)) for v in values])
        if any(isinstance(v, dt.datetime) for v in values):
            width = len(TIME_FORMAT)
        ws.column_dimensions[get_column_letter(index + 1)].width = min(max(width + 2, 8), 60)


def _write_sheet(wb, title: str, headings: list[str], rows: list[list]) -> None:
    """A sheet with a bold frozen header, a filter, widths from the content, dates as dates."""
    ws = wb.create_sheet(title)
    _widths(ws, headings, rows)
    ws.freeze_panes = "A2"
    ws.auto_filter.ref = f"A1:{get_column_letter(max(len(headings), 1))}{len(rows) + 1}"
    header = []
    for heading in headings:
        cell = WriteOnlyCell(ws, value=heading)
        cell.font, cell.fill = HEADER_FONT, HEADER_FILL
        cell.alignment = Alignment(vertical="top")
        header.append(cell)
    ws.append(header)
    for row in rows:
        ws.append([_cell(ws, v) for v in row])


def workbook_bytes(wb) -> bytes:
    """An openpyxl workbook saved as .xlsx bytes, made by STSA."""
    wb.properties.creator = "STSA"
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def write_workbook(sheets: Mapping[str, Sheet]) -> bytes:
    """An .xlsx with one styled sheet per item of {title: (headings, rows)}, in order."""
    wb = openpyxl.Workbook(write_only=True)
    for title, (headings, rows) in sheets.items():
        _write_sheet(wb, title, headings, rows)
    return workbook_bytes(wb)


# -- parsing -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class ParsedWorkbook:
    """A tournament workbook read back: {store table: frame} with the store's column names,
    plain Python values (None for blank cells, lists of leader names, JSON as text) and the
    spreadsheet's row numbers as the index; `source` is the file's name."""

    tables: dict[str, pd.DataFrame]
    source: str


class _Bad(ValueError):
    """A cell that is not of its column's kind; the message says what was expected."""


def _whole(value: Any) -> int:
    if isinstance(value, bool):
        raise _Bad("a whole number")
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, str) and value.strip().lstrip("+-").isdigit():
        value = int(value.strip())
    if not isinstance(value, int):
        raise _Bad("a whole number")
    if abs(value) > INT_MAX:
        raise _Bad(f"a whole number from {-INT_MAX:,} to {INT_MAX:,}")
    return value


def _truth(value: Any) -> bool:
    if isinstance(value, str) and value.strip().lower() in ("true", "false", "1", "0"):
        return value.strip().lower() in ("true", "1")
    if isinstance(value, (bool, int)) and value in (0, 1):
        return bool(value)
    raise _Bad("TRUE or FALSE")


def _time(value: Any) -> dt.datetime:
    if isinstance(value, str):
        try:
            value = dt.datetime.fromisoformat(value.strip())
        except ValueError:
            raise _Bad("a date and time") from None
    if not isinstance(value, dt.datetime):
        raise _Bad("a date and time")
    return value if value.tzinfo else value.replace(tzinfo=dt.timezone.utc)


def _json_text(value: Any) -> str:
    text = cell_text(value)
    try:
        json.loads(text)
    except ValueError:
        raise _Bad("valid JSON") from None
    return text


_READ = {"int": _whole, "bool": _truth, "time": _time, "json": _json_text, "text": cell_text,
         "list": lambda v: [p.strip() for p in cell_text(v).split(";")]}


def _value(kind: str, value: Any) -> Any:
    """A cell as its column's kind; None for a blank cell; `_Bad` if it is not of that kind."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return [] if kind == "list" else None
    return _READ[kind](value)


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "…"


def _join_long(columns: list[tuple[str, str | None, str]], records: list[tuple[int, dict]]
               ) -> list[tuple[int, dict]]:
    """The rows `_split_long` wrote for a long JSON text joined back into one."""
    json_cols = [h for h, _, kind in columns if kind == "json"]
    if not json_cols:
        return records
    first = columns[0][0]
    others = [h for h, _, _ in columns[1:] if h not in json_cols]
    out: list[tuple[int, dict]] = []
    for number, rec in records:
        if out and rec.get(first) == out[-1][1].get(first) and all(
                rec.get(h) is None for h in others):
            for h in json_cols:
                if rec.get(h):
                    out[-1][1][h] = (out[-1][1].get(h) or "") + rec[h]
            continue
        out.append((number, dict(rec)))
    return out


def _sheet_records(ws, title: str) -> list[tuple[int, dict]]:
    """(row number, {heading: raw value}) of a sheet's filled rows, long JSON joined."""
    _, columns = SHEETS[title]
    rows = guards.sheet_rows(ws, WORKBOOK_LIMITS, RestoreError)
    _, header = next(rows, (1, []))
    index = {cell_text(h).strip(): i for i, h in enumerate(header)}
    lacking = [h for h, col, _ in columns if col and h not in index]
    if lacking:
        raise RestoreError(f"The sheet {title} lacks the column{'s' if len(lacking) > 1 else ''}"
                           f" {', '.join(lacking)}: is this an STSA tournament workbook?")
    records = [(number, {h: cells[index[h]] if index[h] < len(cells) else None
                         for h, col, _ in columns if col})
               for number, cells in rows if any(c is not None for c in cells)]
    return _join_long(columns, records)


def _sheet_frame(ws, title: str, problems: list[Problem]) -> pd.DataFrame:
    """A sheet as a frame of its store table's columns, each cell read as its kind; a cell
    that is not of its kind is None here and a problem naming its row."""
    _, columns = SHEETS[title]
    kept = [(h, col, kind) for h, col, kind in columns if col]
    numbers, values = [], []
    for number, rec in _sheet_records(ws, title):
        row = []
        for heading, _, kind in kept:
            try:
                row.append(_value(kind, rec[heading]))
            except _Bad as exc:
                problems.append(at_row(number, f"{heading} must be {exc}, not "
                                               f"{_shown(rec[heading])}", title))
                row.append(None)
        numbers.append(number)
        values.append(row)
    return pd.DataFrame(values, index=pd.Index(numbers, name="row", dtype="int64"),
                        columns=[col for _, col, _ in kept], dtype=object)


def parse_workbook(source: Any) -> ParsedWorkbook:
    """A tournament workbook (from `tournament_workbook`) as plain frames, one per store table
    (`ParsedWorkbook`). `source` is a path, bytes or a file-like object.

    Refused with a `RestoreError`: a file that is hostile, damaged or not an .xlsx, a workbook
    that lacks a sheet or a column STSA wrote, and cells that are not of their column's kind,
    every one named by sheet and row. Computed columns (names, labels, placings, standings,
    finals) are not read.
    """
    data, name = guards.read_source(source, WORKBOOK_LIMITS, RestoreError)
    if guards.file_kind(data, name, RestoreError) != "xlsx":
        raise RestoreError("A tournament is restored from the .xlsx workbook STSA exported; "
                           "this file is not one.")
    workbook = guards.open_workbook(data, WORKBOOK_LIMITS, RestoreError)
    problems: list[Problem] = []
    try:
        missing = [t for t in SHEET_OF.values() if t not in workbook.sheetnames]
        if missing:
            raise RestoreError(f"This is not an STSA tournament workbook: it lacks the sheet"
                               f"{'s' if len(missing) > 1 else ''} {', '.join(missing)}.")
        tables = {table: _sheet_frame(workbook[title], title, problems)
                  for table, title in SHEET_OF.items()}
    finally:
        workbook.close()
    if problems:
        raise restore_error(problems)
    return ParsedWorkbook(tables, name)
