"""The tournament workbook parsed back into plain frames for a restore (R19).

Every file passes the hostile-file guards first; then each cell is read as the kind
its column holds (a whole number, a date and time, Yes or No, JSON, a label or its code …),
also as a spreadsheet application writes them back after opening and saving the file (numbers
as 3.0, dates as day numbers, times to the millisecond, TRUE/FALSE or 1/0 for yes and no), and
from workbooks of earlier releases (their snake_case headings, the extra details as JSON under
"Extra details", without the sheets and columns added since), in any of STSA's languages
(`workbook_sheets`). A cell that is not of its kind
raises one `RestoreError` whose problems name each sheet and row. Whether the values make
sense for a tournament is the service's check (`stsa.services.restore`), with the validators
entry uses. A workbook's log is the file's own record, which anyone with a spreadsheet
application can edit: every event a restore brings in is marked as coming from that file
(`mark_imported`), so it is never taken for this installation's own history (R19).
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import pandas as pd

from stsa import i18n
from stsa.domain import Problem, whole_number
from stsa.formats import guards, xlsx_reader
from stsa.formats.guards import WORKBOOK_LIMITS, SpreadsheetError, at_row, cell_text
from stsa.formats.workbook_sheets import (
    EARLIER_HEADINGS,
    HEADING_OF,
    KEY_LINE,
    LEGACY_HEADINGS,
    NEW_COLUMNS,
    OPTIONAL_SHEETS,
    SHEET_OF,
    SHEETS,
    key_index,
    lookup_order,
    names_in,
    word_code,
    yes_no,
)
from stsa.formats.xlsx_writer import Step  # the same progress callback both ways
from stsa.i18n import _, ngettext

INT_MAX = 2**31 - 1  # what an integer column holds on every database STSA runs on
SHOWN_PROBLEMS = 50


class RestoreError(SpreadsheetError):
    """A file that is not a readable STSA tournament workbook, or rows a tournament cannot
    hold; `problems` name each sheet and row."""


def restore_error(problems: list[Problem]) -> RestoreError:
    """One error listing every problem (the first `SHOWN_PROBLEMS` in its message)."""
    text = "; ".join(str(p) for p in problems[:SHOWN_PROBLEMS])
    more = len(problems) - SHOWN_PROBLEMS
    if more > 0:
        return RestoreError(_("Nothing was restored: {problems}; and {count} more.").format(
            problems=text, count=more), problems)
    return RestoreError(_("Nothing was restored: {problems}.").format(problems=text), problems)



# -- parsing -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class ParsedWorkbook:
    """A tournament workbook read back: {store table: frame} with the store's column names,
    plain Python values (None for blank cells, lists of leader names, JSON as text) and the
    spreadsheet's row numbers as the index; `source` is the file's name."""

    tables: dict[str, pd.DataFrame]
    source: str
    #: The address key the Summary records (`KEY_LINE`), as written; None without one.
    key: str | None = None
    #: The file's language (recorded, or the one its sheets are named in; None: unknown) and
    #: how it names each table's sheet ({store table: sheet}) and column ({(table, column):
    #: heading}), for messages that point into it.
    language: str | None = None
    sheets: Mapping[str, str] = field(default_factory=dict)
    headings: Mapping[tuple[str, str], str] = field(default_factory=dict)


# -- the log of a restored workbook (R19) --------------------------------------------------------
ACTOR_MAX = 100  # what the log's actor column holds
SOURCE_SHOWN = 32  # characters of the file's name in an imported event's actor
#: An imported event's mark after its actor: " (from the workbook spring.xlsx, restored
#: 2026-03-07 09:41 UTC)"; the name of the file is left out when there is none.
IMPORTED_MARK = re.compile(r" \(from (?:the workbook .+|a workbook), restored "
                           r"\d{4}-\d\d-\d\d \d\d:\d\d UTC\)$")


def _shortened(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:max(limit - 1, 0)] + "…"


def imported_mark(source: str | None, at: dt.datetime) -> str:
    """R19: what follows the actor of an event a restore brought in from the workbook named
    `source` at `at`: " (from the workbook spring.xlsx, restored 2026-03-07 09:41 UTC)"."""
    name = " ".join(str(source or "").split())
    where = f"the workbook {_shortened(name, SOURCE_SHOWN)}" if name else "a workbook"
    when = at.astimezone(dt.UTC) if at.tzinfo else at
    return f" (from {where}, restored {when:%Y-%m-%d %H:%M} UTC)"


def imported_actor(actor: Any, source: str | None, at: dt.datetime) -> str:
    """R19: `actor` as the log of a restored tournament names it: the name the file gives (an
    earlier restore's mark taken off, shortened to fit) and `imported_mark`."""
    mark = imported_mark(source, at)
    name = IMPORTED_MARK.sub("", str(actor or "").strip())
    return _shortened(name, ACTOR_MAX - len(mark)) + mark


def is_imported(actor: Any) -> bool:
    """R19: whether a log event's actor carries `imported_mark` (it came in with a
    restore)."""
    return isinstance(actor, str) and IMPORTED_MARK.search(actor) is not None


def mark_imported(events: pd.DataFrame, source: str | None, at: dt.datetime) -> pd.DataFrame:
    """R19: the Log sheet's events (`parse_workbook`'s `events` frame) as a restore writes
    them: each one's actor marked as coming from the workbook `source`, restored at `at`
    (`imported_actor`), everything else as the file has it."""
    return events.assign(actor=[imported_actor(a, source, at) for a in events["actor"]])


class _Bad(ValueError):
    """A cell that is not of its column's kind; the message says what was expected."""


def _whole(value: Any) -> int:
    value = whole_number(value)
    if value is None:
        raise _Bad(_("a whole number"))
    if abs(value) > INT_MAX:
        raise _Bad(_("a whole number from {lowest} to {highest}").format(
            lowest=i18n.number(-INT_MAX), highest=i18n.number(INT_MAX)))
    return value


# Yes and No as STSA writes them (in any of its languages: `_truths`); TRUE/FALSE as earlier
# releases wrote them and 1/0 as some spreadsheet applications save them.
_TRUTH = {"yes": True, "no": False, "true": True, "false": False, "1": True, "0": False}


@cache
def _truths() -> dict[str, bool]:
    found = dict(_TRUTH)
    for code in lookup_order(None):
        with i18n.language(code):
            found.update({yes_no(v).strip().casefold(): v for v in (True, False)
                          if yes_no(v).strip().casefold() not in found})
    return found


def _truth(value: Any) -> bool:
    if isinstance(value, str) and value.strip().casefold() in _truths():
        return _truths()[value.strip().casefold()]
    if isinstance(value, (bool, int)) and value in (0, 1):
        return bool(value)
    raise _Bad(_("Yes or No"))


def _time(value: Any) -> dt.datetime:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        value = _serial_time(value)  # a date a spreadsheet saved without its format
    if isinstance(value, dt.datetime):  # to the millisecond, as written (no float noise)
        value = (value.replace(microsecond=0)
                 + dt.timedelta(milliseconds=round(value.microsecond / 1000)))
    if isinstance(value, str):
        try:
            value = dt.datetime.fromisoformat(value.strip())
        except ValueError:
            raise _Bad(_("a date and time")) from None
    if not isinstance(value, dt.datetime):
        raise _Bad(_("a date and time"))
    return value if value.tzinfo else value.replace(tzinfo=dt.UTC)


def _serial_time(value: float) -> dt.datetime:
    """A spreadsheet's day number (days since 1899-12-30, the time of day as the fraction)."""
    if not 1 <= value < 2_958_466:  # 1900-01-01 … 9999-12-31
        raise _Bad(_("a date and time"))
    return dt.datetime(1899, 12, 30) + dt.timedelta(days=value)


def _json_text(value: Any) -> str:
    text = cell_text(value)
    try:
        json.loads(text)
    except ValueError:
        raise _Bad(_("valid JSON")) from None
    return text


_READ = {"int": _whole, "bool": _truth, "time": _time, "json": _json_text, "text": cell_text,
         "list": lambda v: [p.strip() for p in cell_text(v).split(";")]}


def _value(kind: str, value: Any) -> Any:
    """A cell as its column's kind; None for a blank cell; `_Bad` if it is not of that kind."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return [] if kind == "list" else None
    if kind.startswith("word:"):
        return word_code(kind[5:], cell_text(value))
    return _READ[kind](value)


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "…"


def _join_long(columns: list[tuple[str, str | None, str]], records: list[tuple[int, dict]]
               ) -> list[tuple[int, dict]]:
    """The rows `workbook_writer._split_long` wrote for a long JSON text joined back into one."""
    json_cols = [h for h, _x, kind in columns if kind == "json"]
    if not json_cols:
        return records
    key = key_index(columns)
    first = columns[key][0]
    others = [h for i, (h, _x, _x) in enumerate(columns) if i != key and h not in json_cols]
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


def _found(found: dict[str, int], heading: str, table: str | None, col: str,
           names: list[str]) -> tuple[int, str] | tuple[None, None]:
    """Where the column `col` is among a sheet's headings (`found`: heading → index) and
    under which: under `heading` in one of STSA's languages (`names`: its translations, the
    file's language first), else the heading of an earlier readable release, else the
    snake_case one. The current heading comes first: "Extra details" is words now and JSON
    in earlier files."""
    for name in (*names, EARLIER_HEADINGS.get((table, col)),
                 LEGACY_HEADINGS.get((table, col), col)):
        if name is not None and name in found:
            return found[name], name
    return None, None


@dataclass(frozen=True)
class _Naming:
    """How a workbook names things: its language (recorded, or the one its sheet names are
    in; None when neither tells), {English title: the file's sheet name} and, per sheet read,
    {English heading: the file's heading}."""

    language: str | None
    sheets: dict[str, str]
    headings: dict[str, dict[str, str]] = field(default_factory=dict)

    def sheet(self, title: str) -> str:
        return self.sheets.get(title) or names_in(self.language or i18n.ENGLISH)[0][title]

    def heading(self, title: str, heading: str) -> str:
        found = self.headings.get(title, {}).get(heading)
        return found or names_in(self.language or i18n.ENGLISH)[1][title].get(heading, heading)


def _naming(sheetnames: list[str], recorded: str | None) -> _Naming:
    """Which of the file's sheets is which (`sheetnames`), in any of STSA's languages: the
    recorded language first, English next; without a recorded language, the one that names
    the most sheets is the file's."""
    present = {n.strip().casefold(): n for n in sheetnames}

    def matches(code: str) -> int:
        return sum(name.casefold() in present for name in names_in(code)[0].values())

    language = i18n.known(recorded)
    if language is None:
        best = max(lookup_order(None), key=matches)  # ties: English first
        language = best if matches(best) else None
    order = lookup_order(language)
    sheets = {}
    for title in SHEETS:
        for code in order:
            found = present.get(names_in(code)[0][title].casefold())
            if found is not None:
                sheets[title] = found
                break
    return _Naming(language, sheets)


def _damaged(title: str) -> RestoreError:
    return RestoreError(_("The sheet {sheet} is damaged and cannot be read: open the file in "
                          "your spreadsheet program and save it again as .xlsx.").format(
        sheet=repr(title)))


def _too_many_rows(title: str) -> RestoreError:
    return RestoreError(_("The sheet {sheet} has more than {rows} rows; STSA reads at most "
                          "{rows}.").format(sheet=repr(title),
                                            rows=i18n.number(WORKBOOK_LIMITS.rows)))


def _too_wide(title: str, width: int, row: int) -> RestoreError:
    return RestoreError(_("The sheet {sheet} has cells in column {column} (row {row}); STSA "
                          "reads at most {columns} columns.").format(
        sheet=repr(title), column=i18n.number(width), row=row,
        columns=WORKBOOK_LIMITS.columns))


def _book_rows(book: xlsx_reader.Book, title: str) -> Iterator[tuple[int, list]]:
    """`guards.sheet_rows` for a workbook `formats.xlsx_reader` reads: the same limits, the same
    rows (each without its blank cells at the end)."""
    limits = WORKBOOK_LIMITS
    try:
        for number, values in book.rows(title):
            if number > limits.rows:
                raise _too_many_rows(title)
            values = guards.trimmed(values)
            if len(values) > limits.columns:
                raise _too_wide(title, len(values), number)
            yield number, values
    except SpreadsheetError:
        raise
    except Exception as exc:  # any failure to parse is a damaged file
        raise _damaged(title) from exc


#: A sheet's cells below its header: the numbers of the rows that hold a value and {column
#: index: those rows' values}.
_Cells = tuple[list[int], dict[int, list]]


def _book_table(book: xlsx_reader.Book, title: str, choose: Callable[[list], Collection[int]]
                ) -> _Cells | None:
    """`_book_rows` column by column (`xlsx_reader.Book.table`), with the same limits and the same
    messages; None for a sheet the quick pass leaves to `_book_rows`."""
    limits = WORKBOOK_LIMITS
    try:
        table = book.table(title, choose)
    except SpreadsheetError:
        raise
    except Exception as exc:  # any failure to parse is a damaged file
        raise _damaged(title) from exc
    if table is None:
        return None
    wide = next(((n, w) for n, w in zip(table.numbers, table.widths) if w > limits.columns),
                None)
    if wide is not None and wide[0] <= limits.rows:  # the first of the two `_book_rows` meets
        raise _too_wide(title, wide[1], wide[0])
    if table.last > limits.rows:
        raise _too_many_rows(title)
    head = 1 if table.numbers[:1] == [1] else 0  # row 1, the header, when it holds a value
    return table.numbers[head:], {j: c[head:] for j, c in table.columns.items()}


def _sheet_cells(ws, title: str, choose: Callable[[list], Collection[int]]) -> _Cells:
    """The cells of a sheet's filled rows below its header (`_Cells`), in the columns
    `choose(header)` names: a sheet of an openpyxl workbook, or (a `formats.xlsx_reader` book, the
    sheet's name)."""
    if isinstance(ws, tuple):
        book, there = ws
        quick = _book_table(book, there, choose)
        if quick is not None:
            return quick
    rows = (guards.sheet_rows(ws, WORKBOOK_LIMITS, RestoreError) if not isinstance(ws, tuple)
            else _book_rows(*ws))
    _row, header = next(rows, (1, []))
    wanted = choose(header)
    filled = [(number, cells) for number, cells in rows if any(c is not None for c in cells)]
    return [n for n, _c in filled], {
        j: [cells[j] if j < len(cells) else None for _n, cells in filled] for j in wanted}


def _sheet_records(ws, title: str, naming: _Naming | None = None
                   ) -> tuple[list[int], dict[str, list]]:
    """(row numbers, {heading: raw values}) of a sheet's filled rows, long JSON joined. A
    column is found under its heading in any of STSA's languages (the file's first), else
    the one readable workbooks had before (`EARLIER_HEADINGS`), else the snake_case one of
    the first releases (`LEGACY_HEADINGS`); a column older workbooks lack (`NEW_COLUMNS`)
    reads as blank. `naming` learns the file's headings."""
    naming = naming or _Naming(None, {})
    table, columns = SHEETS[title]
    name = naming.sheet(title)
    index: dict[str, int | None] = {}

    def choose(header: list) -> set[int]:
        """The columns to read, found under their headings in the header row."""
        found = {cell_text(h).strip(): i for i, h in enumerate(header)}
        order = lookup_order(naming.language)
        headings = naming.headings.setdefault(title, {})
        for h, col, _kind in columns:
            if col:
                names = [names_in(code)[1][title][h] for code in order]
                index[h], as_named = _found(found, h, table, col, list(dict.fromkeys(names)))
                if as_named is not None:
                    headings[h] = as_named
        lacking = [naming.heading(title, h) for h, col, _kind in columns
                   if col and index[h] is None and (table, col) not in NEW_COLUMNS]
        if lacking:
            raise RestoreError(ngettext(
                "The sheet {sheet} lacks the column {columns}: is this an STSA tournament "
                "workbook?",
                "The sheet {sheet} lacks the columns {columns}: is this an STSA tournament "
                "workbook?", len(lacking)).format(sheet=name, columns=", ".join(lacking)))
        return {i for i in index.values() if i is not None}

    numbers, cells = _sheet_cells(ws, title, choose)
    blank = [None] * len(numbers)
    values = {h: blank if i is None else cells.get(i, blank) for h, i in index.items()}
    key = values.get(columns[key_index(columns)][0], blank)
    if any(kind == "json" for _h, _c, kind in columns) and any(
            a == b for a, b in zip(key, key[1:])):  # a long text continues below
        records = _join_long(columns, [(n, dict(zip(values, row)))
                                       for n, row in zip(numbers, zip(*values.values()))])
        numbers = [n for n, _rec in records]
        values = {h: [rec[h] for _n, rec in records] for h in values}
    return numbers, values


def _sheet_frame(ws, title: str, problems: list[Problem],
                 naming: _Naming | None = None) -> pd.DataFrame:
    """A sheet as a frame of its store table's columns, each cell read as its kind; a cell
    that is not of its kind is None here and a problem naming its row (the sheet and the
    column as the file names them)."""
    naming = naming or _Naming(None, {})
    _table, columns = SHEETS[title]
    kept = [(h, col, kind) for h, col, kind in columns if col]
    numbers, values = _sheet_records(ws, title, naming)
    found: list[tuple[int, int, Problem]] = []  # (row, column, problem): in reading order
    sheet = naming.sheet(title)

    def read(j: int, heading: str, kind: str) -> list:
        """The column's cells as its kind, column by column (the common cells quickly)."""
        def other(i: int, raw: Any) -> Any:
            try:
                return _value(kind, raw)
            except _Bad as exc:
                what = _("{column} must be {expected}, not {value}").format(
                    column=naming.heading(title, heading), expected=exc, value=_shown(raw))
                found.append((i, j, at_row(numbers[i], what, sheet)))
                return None

        cells = values[heading]
        if kind == "int":
            return [raw if type(raw) is int and -INT_MAX <= raw <= INT_MAX else
                    None if raw is None else other(i, raw) for i, raw in enumerate(cells)]
        if kind == "text":
            return [raw if type(raw) is str and raw and not raw.isspace() else
                    None if raw is None else other(i, raw) for i, raw in enumerate(cells)]
        if kind == "time":  # a time to the millisecond already, as this writer wrote it
            return [raw.replace(tzinfo=dt.UTC) if type(raw) is dt.datetime
                    and raw.tzinfo is None and not raw.microsecond % 1000 else
                    None if raw is None else other(i, raw) for i, raw in enumerate(cells)]
        if kind == "list":  # a blank cell is no leaders: `_value` says so
            return [other(i, raw) for i, raw in enumerate(cells)]
        return [None if raw is None else other(i, raw) for i, raw in enumerate(cells)]

    cols = {col: read(j, heading, kind) for j, (heading, col, kind) in enumerate(kept)}
    problems += [problem for _i, _j, problem in sorted(found, key=lambda f: f[:2])]
    return pd.DataFrame(cols, index=pd.Index(numbers, name="row", dtype="int64"),
                        columns=[col for _h, col, _k in kept], dtype=object)


def _empty(title: str) -> pd.DataFrame:
    """The frame of a sheet an older workbook lacks."""
    return pd.DataFrame(columns=[col for _h, col, _k in SHEETS[title][1] if col], dtype=object,
                        index=pd.Index([], name="row", dtype="int64"))


def _recorded_key(sheet: Any) -> str | None:
    """The address key the Summary sheet records on its `KEY_LINE` (in any of STSA's
    languages), as written (the store makes it a key again); None when it records none."""
    labels = set()
    for code in lookup_order(None):
        with i18n.language(code):
            labels.add(_(KEY_LINE).casefold())
    _rows, cells = _sheet_cells(sheet, "Summary", lambda _header: [0, 1])
    for what, value in zip(cells.get(0, []), cells.get(1, [])):
        if isinstance(what, str) and what.strip().casefold() in labels and value is not None:
            return str(value).strip()[:200] or None
    return None


def parse_workbook(source: Any, *, only: Iterable[str] | None = None,
                   sheet_step: Step | None = None) -> ParsedWorkbook:
    """A tournament workbook (from `tournament_workbook`) as plain frames, one per store table
    (`ParsedWorkbook`). `source` is a path, bytes or a file-like object.

    A workbook in any of STSA's languages is read (its sheets and headings named in English,
    Swedish or French; the language its properties record is tried first), and so are
    workbooks of earlier releases. Refused with a `RestoreError`: a file that is hostile,
    damaged or not an .xlsx, a workbook that lacks a sheet or a column STSA wrote, and cells
    that are not of their column's kind, every one named by sheet and row as the file names
    them. Computed columns (names, labels, placings, standings, finals) are not read. With
    `only`, only those store tables' sheets are read (the others are not checked).
    `sheet_step(index, title)` is called before each sheet is read, with its English title.
    """
    tables_wanted = set(SHEET_OF if only is None else only)
    key = None
    data, name = guards.read_source(source, WORKBOOK_LIMITS, RestoreError)
    if guards.file_kind(data, name, RestoreError) != "xlsx":
        raise RestoreError(_("A tournament is restored from the .xlsx workbook STSA "
                             "exported; this file is not one."))
    guards.check_zip(data, WORKBOOK_LIMITS, RestoreError)
    book = xlsx_reader.open_book(data)  # the quick reader; openpyxl for files laid out otherwise
    workbook: Any = book or guards.open_workbook(data, WORKBOOK_LIMITS, RestoreError, checked=True)
    problems: list[Problem] = []
    try:
        recorded = book.language if book is not None else getattr(
            getattr(workbook, "properties", None), "language", None)
        naming = _naming(list(workbook.sheetnames), recorded)
        missing = [naming.sheet(t) for t in SHEET_OF.values()
                   if t not in naming.sheets and t not in OPTIONAL_SHEETS]
        if missing:
            raise RestoreError(ngettext(
                "This is not an STSA tournament workbook: it lacks the sheet {sheets}.",
                "This is not an STSA tournament workbook: it lacks the sheets {sheets}.",
                len(missing)).format(sheets=", ".join(missing)))
        tables: dict[str, pd.DataFrame] = {}
        for step, (table, title) in enumerate((t, s) for t, s in SHEET_OF.items()
                                              if t in tables_wanted):
            if sheet_step:
                sheet_step(step, title)
            there = naming.sheets.get(title)
            if there is None:
                tables[table] = _empty(title)
                continue
            sheet: Any = (book, there) if book is not None else workbook[there]
            tables[table] = _sheet_frame(sheet, title, problems, naming)
        if "Summary" in naming.sheets:
            key = _recorded_key((book, naming.sheets["Summary"]) if book is not None
                                else workbook[naming.sheets["Summary"]])
    finally:
        workbook.close()
    if "settings" in tables:  # a default never set has no author: nothing to store
        settings: pd.DataFrame = tables["settings"]
        tables["settings"] = settings.loc[settings["updated_by"].notna()
                                          | settings["updated_at"].notna()]
    if problems:
        raise restore_error(problems)
    return ParsedWorkbook(tables, name, key, naming.language,
                          {table: naming.sheet(SHEET_OF[table]) for table in SHEET_OF},
                          {(table, col): naming.heading(SHEET_OF[table], h)
                           for (table, col), h in HEADING_OF.items()})
