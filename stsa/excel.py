"""Spreadsheets in and out: the roster import, the roster template, the tournament workbook, CSV
downloads, and restoring a tournament from its workbook.

Reading: every file is checked before a spreadsheet library parses it (size, zip proportions,
XML declarations, sheet size), so a broken, huge or hostile file gets a plain message within
bounded time and memory, and nothing changes (DESIGN.md). Writing: any text a spreadsheet would
take for a formula (it starts with =, +, -, @, a tab or a carriage return) is stored as text.
The workbook holds hidden information (removed leaders, emails, the log): organizer only (R20).
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import os
import re
import unicodedata
import zipfile
from dataclasses import dataclass
from typing import Any, Iterable, Iterator

import defusedxml.ElementTree as safe_et
import openpyxl
import pandas as pd
from defusedxml import DefusedXmlException
from openpyxl.cell import WriteOnlyCell
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.utils import get_column_letter

from stsa import store, tournament
from stsa.auth import Actor, Role, require
from stsa.errors import TournamentError
from stsa.store import draws as store_draws
from stsa.store import roster as store_roster

__all__ = ["MAX_UPLOAD_BYTES", "MAX_WORKBOOK_BYTES", "EXAMPLE_NAME", "ROSTER_COLUMNS",
           "SpreadsheetError", "RosterError", "RestoreError", "read_roster", "import_roster",
           "roster_template", "tournament_workbook", "standings_csv", "results_csv",
           "restore_workbook", "neutralise"]

MAX_UPLOAD_BYTES = 5 * 1024 * 1024  # a roster file
MAX_WORKBOOK_BYTES = 50 * 1024 * 1024  # a tournament workbook offered for restore
EXAMPLE_NAME = "Example Player"  # the template's example row, skipped on import
ROSTER_COLUMNS = ["name", "club", "city", "email", "player_id"]
FIELD_LIMITS = {"name": store_roster.NAME_MAX, "club": store_roster.CLUB_MAX, "city": 200,
                "email": store_roster.EMAIL_MAX, "player_id": 200}
FIELD_LABELS = {"name": "name", "club": "club", "city": "city", "email": "email",
                "player_id": "player id", "first": "first name", "last": "last name"}


class SpreadsheetError(TournamentError):
    """A file that cannot be used as it is; the message says what and where. `problems` lists
    (spreadsheet row number or None, what is wrong) for a page to show as a table."""

    def __init__(self, message: str, problems: list[tuple[int | None, str]] | None = None):
        super().__init__(message)
        self.problems = problems or []


class RosterError(SpreadsheetError):
    """A roster file with bad rows, or one that is not a readable spreadsheet."""


class RestoreError(SpreadsheetError):
    """A file that is not a readable STSA tournament workbook."""


@dataclass(frozen=True)
class Limits:
    """How big a file may be, packed and unpacked, before STSA refuses to open it."""

    upload_bytes: int
    unpacked_bytes: int  # sum of the zip entries' sizes
    ratio: int  # unpacked / packed, checked above 1 MB unpacked
    entries: int
    part_bytes: int  # one XML part other than a sheet or the shared strings
    rows: int  # per sheet
    columns: int
    elements: int  # rows, cells and shared strings in one XML part


ROSTER_LIMITS = Limits(MAX_UPLOAD_BYTES, 50 * 2**20, 100, 1000, 5 * 2**20, 20_000, 50, 250_000)
WORKBOOK_LIMITS = Limits(MAX_WORKBOOK_BYTES, 500 * 2**20, 100, 1000, 5 * 2**20, 1_048_576, 50,
                         10_000_000)

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2066-\u2069]")
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_ELEMENT = re.compile(rb"<(?:[A-Za-z_][\w.-]*:)?(?:c|si|row)[\s/>]")
_ROW = re.compile(rb"<(?:[A-Za-z_][\w.-]*:)?row[\s/>]")
_CELL = re.compile(rb"<(?:[A-Za-z_][\w.-]*:)?c[\s/>]")
_MAGIC = [  # (leading bytes, what it is)
    (b"%PDF", "a PDF document"), (b"\x89PNG", "a PNG image"), (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF8", "a GIF image"), (b"\x1f\x8b", "a gzip archive"), (b"Rar!", "a RAR archive"),
    (b"7z\xbc\xaf", "a 7-Zip archive"), (b"RIFF", "a media file"), (b"\x7fELF", "a program"),
    (b"SQLite format 3", "a database"), (b"{\\rtf", "an RTF document"),
]
_OLE = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"

# Headings are compared casefolded, with punctuation and spaces collapsed ("E-mail" = "e mail").
HEADINGS = {
    "name": {"name", "player", "player name", "players", "full name", "namn", "spelare",
             "spelarnamn", "nombre", "jugador", "participant", "deltagare", "navn", "nimi"},
    "club": {"club", "klubb", "club name", "klubbnamn", "team", "lag", "store", "club team",
             "förening", "forening", "club store", "group"},
    "city": {"city", "stad", "ort", "town", "location", "ciudad", "hometown", "hemort"},
    "email": {"email", "e mail", "mail", "email address", "e mail address", "e post",
              "epost", "e postadress", "mailadress", "correo", "correo electrónico"},
    "player_id": {"player id", "playerid", "id", "player no", "player number", "member id",
                  "member number", "membership number", "spelar id", "spelarid",
                  "medlemsnummer", "id number"},
    "first": {"first name", "firstname", "given name", "förnamn", "fornamn"},
    "last": {"last name", "lastname", "surname", "family name", "efternamn", "apellidos"},
}
_HEADING_OF = {h: field for field, names in HEADINGS.items() for h in names}


# -- reading files safely ------------------------------------------------------------------------
def _read_source(source: Any, limits: Limits, error: type) -> tuple[bytes, str]:
    """The file's bytes (at most `limits.upload_bytes`) and its name, from a path, bytes or
    a file-like object such as Streamlit's UploadedFile."""
    too_big = (f"The file is larger than {limits.upload_bytes // 2**20} MB, the upload limit; "
               f"a roster or tournament workbook is far smaller. Check that it is the right file.")
    if isinstance(source, (str, os.PathLike)):
        try:
            if os.path.getsize(source) > limits.upload_bytes:
                raise error(too_big)
            with open(source, "rb") as f:
                data = f.read(limits.upload_bytes + 1)
        except OSError as exc:
            raise error(f"The file cannot be opened ({exc.strerror or exc}).") from exc
        name = os.path.basename(os.fspath(source))
    elif isinstance(source, (bytes, bytearray, memoryview)):
        data, name = bytes(source), ""
    elif hasattr(source, "read") or hasattr(source, "getvalue"):
        name = os.path.basename(str(getattr(source, "name", "") or ""))
        size = getattr(source, "size", None)
        if isinstance(size, int) and size > limits.upload_bytes:
            raise error(too_big)
        seekable = getattr(source, "seekable", None)
        if hasattr(source, "read") and callable(seekable) and seekable():
            source.seek(0)
            data = source.read(limits.upload_bytes + 1)
            source.seek(0)
        elif hasattr(source, "read"):
            data = source.read(limits.upload_bytes + 1)
        else:
            data = source.getvalue()
        if isinstance(data, str):
            data = data.encode("utf-8")
    else:
        raise error(f"Cannot read a spreadsheet from {type(source).__name__}.")
    if len(data) > limits.upload_bytes:
        raise error(too_big)
    if not data.strip():
        raise error("The file is empty.")
    return data, name


def _kind(data: bytes, name: str, error: type) -> str:
    """"xlsx" or "csv", from the content first and the name second; refuses everything else."""
    suffix = os.path.splitext(name)[1].lower()
    if data.startswith((b"PK\x03\x04", b"PK\x05\x06", b"PK\x07\x08")):
        return "xlsx"
    if data.startswith(_OLE):
        raise error("This file is password-protected or in the old .xls format, which STSA "
                    "cannot read: save it as .xlsx without a password (or as .csv).")
    for magic, what in _MAGIC:
        if data.startswith(magic):
            raise error(f"This file is not a spreadsheet: it looks like {what}. Save the "
                        f"roster as .xlsx or .csv.")
    if suffix in (".xlsx", ".xlsm", ".xltx"):
        raise error("This file is named like an .xlsx workbook but is damaged or not one: "
                    "open it in your spreadsheet program and save it again as .xlsx.")
    if suffix in (".xls", ".ods", ".numbers"):
        raise error(f"STSA reads .xlsx and .csv files, not {suffix}: save the roster as .xlsx "
                    f"or .csv.")
    head = data[:4096]
    if head.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<"):
        raise error("This file is a web page or XML, not a spreadsheet STSA reads: save the "
                    "roster as .xlsx or .csv.")
    if b"\x00" in head and not head.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise error("This file is not a spreadsheet or a text (CSV) file. Save the roster as "
                    ".xlsx or .csv.")
    return "csv"


def _check_xml_prolog(stream: Any, part: str, error: type) -> None:
    """Refuse a DTD or entity declaration in an XML part (entity bombs, external entities),
    with defusedxml's parser, reading only up to the root element."""

    class Root(Exception):
        pass

    class Target:
        def start(self, tag, attrib):
            raise Root

        def data(self, text):
            pass

        def end(self, tag):
            pass

        def close(self):
            return None

    parser = safe_et.DefusedXMLParser(target=Target(), forbid_dtd=True, forbid_entities=True,
                                      forbid_external=True)
    try:
        while chunk := stream.read(65536):
            parser.feed(chunk)
    except Root:
        return
    except DefusedXmlException as exc:
        raise error(f"The workbook's part {part} declares XML entities or a DTD, which a "
                    f"spreadsheet never needs (an “XML bomb”); STSA does not open it.") from exc
    except safe_et.ParseError as exc:
        raise error(f"The workbook is damaged (its part {part} is not valid XML): open it "
                    f"in your spreadsheet program and save it again.") from exc


def _size(n: int) -> str:
    return f"{n / 2**20:,.0f} MB" if n >= 2**20 else f"{max(n // 1024, 1):,} KB"


def _check_zip(data: bytes, limits: Limits, error: type) -> None:
    """Everything about an .xlsx that can be checked before a spreadsheet library opens it."""
    damaged = ("The workbook is damaged (it is not a complete .xlsx file): open it in your "
               "spreadsheet program and save it again as .xlsx.")
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, OSError) as exc:
        raise error(damaged) from exc
    with archive:
        infos = archive.infolist()
        if len(infos) > limits.entries:
            raise error(f"The workbook holds {len(infos)} files inside; a spreadsheet has a "
                        f"few dozen. STSA does not open it.")
        unpacked = sum(i.file_size for i in infos)
        if unpacked > limits.unpacked_bytes or (
                unpacked > 2**20 and unpacked > limits.ratio * len(data)):
            raise error(f"The workbook would unpack to {_size(unpacked)} from "
                        f"{_size(len(data))}, out of proportion for a spreadsheet "
                        f"(a “zip bomb”); STSA does not open it.")
        names = {i.filename for i in infos}
        if "mimetype" in names:
            kind = archive.read("mimetype")[:100].decode("ascii", "replace")
            what = ("an OpenDocument spreadsheet (.ods)" if "spreadsheet" in kind
                    else "an OpenDocument file")
            raise error(f"This file is {what}: save it as .xlsx or .csv.")
        if "[Content_Types].xml" not in names or not any(n.startswith("xl/") for n in names):
            raise error("This file is a zip archive, not an .xlsx workbook: save the roster "
                        "as .xlsx or .csv.")
        for info in infos:
            if info.flag_bits & 0x1:
                raise error("The workbook is encrypted (password-protected): save it as .xlsx "
                            "without a password.")
            if not info.filename.endswith((".xml", ".rels", ".vml")):
                continue
            big_part = "worksheets/" in info.filename or "sharedStrings" in info.filename
            if info.file_size > limits.part_bytes and not big_part:
                raise error(f"The workbook's part {info.filename} is "
                            f"{info.file_size / 2**20:,.0f} MB, far too big for a spreadsheet; "
                            f"STSA does not open it.")
            try:
                with archive.open(info) as stream:
                    _check_xml_prolog(stream, info.filename, error)
                if info.file_size > 65536:
                    with archive.open(info) as stream:
                        _count_elements(stream, info.filename, limits, error)
            except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, OSError,
                    NotImplementedError, RuntimeError) as exc:
                raise error(damaged) from exc


def _count_elements(stream: Any, part: str, limits: Limits, error: type) -> None:
    """Refuse a part with more cells or shared strings than any sheet STSA reads could have,
    or (a sheet) more cells than its rows can hold within the column limit: counted at C speed
    in 1 MB chunks, stopping at the limit, before a parser builds them. (A tag split between
    two chunks goes uncounted; the limits are generous.)"""
    elements = rows = cells = 0
    sheet = "worksheets/" in part
    while chunk := stream.read(2**20):
        elements += sum(1 for _ in _ELEMENT.finditer(chunk))
        if sheet:
            rows += sum(1 for _ in _ROW.finditer(chunk))
            cells += sum(1 for _ in _CELL.finditer(chunk))
        if elements > limits.elements:
            raise error(f"The workbook's part {part} holds more than {limits.elements:,} "
                        f"cells; STSA reads sheets of at most {limits.rows:,} rows and "
                        f"{limits.columns} columns.")
    if cells > max(rows, 1) * limits.columns:
        raise error(f"The workbook's part {part} has rows of more than {limits.columns} "
                    f"columns ({cells:,} cells in {rows:,} rows); STSA reads at most "
                    f"{limits.columns} columns.")


def _open_workbook(data: bytes, limits: Limits, error: type):
    _check_zip(data, limits, error)
    try:
        return openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except DefusedXmlException as exc:
        raise error("The workbook declares XML entities (an “XML bomb”); STSA does not open "
                    "it.") from exc
    except Exception as exc:  # noqa: BLE001 - any failure to parse is a damaged file
        raise error("The workbook is damaged or not an .xlsx file STSA can read: open it in "
                    "your spreadsheet program and save it again as .xlsx.") from exc


def _sheet_rows(ws, limits: Limits, error: type) -> Iterator[tuple[int, list]]:
    """(spreadsheet row number, cell values) of a read-only sheet, checked against `limits`."""
    where = f"The sheet {ws.title!r}"
    if (ws.max_column or 0) > limits.columns or (ws.max_row or 0) > limits.rows:
        raise error(f"{where} reaches row {ws.max_row or 0:,} and column "
                    f"{ws.max_column or 0:,}; STSA reads at most {limits.rows:,} rows and "
                    f"{limits.columns} columns.")
    ws.reset_dimensions()  # a wrong size in the file must not cut rows off
    try:
        for number, values in enumerate(ws.iter_rows(values_only=True), start=1):
            if number > limits.rows:
                raise error(f"{where} has more than {limits.rows:,} rows; STSA reads at most "
                            f"{limits.rows:,}.")
            values = list(values)
            while values and (values[-1] is None or values[-1] == ""):
                values.pop()
            if len(values) > limits.columns:
                raise error(f"{where} has cells in column {len(values):,} (row {number}); "
                            f"STSA reads at most {limits.columns} columns.")
            yield number, values
    except SpreadsheetError:
        raise
    except DefusedXmlException as exc:
        raise error("The workbook declares XML entities (an “XML bomb”); STSA does not open "
                    "it.") from exc
    except Exception as exc:  # noqa: BLE001 - any failure to parse is a damaged file
        raise error(f"{where} is damaged and cannot be read: open the file in your "
                    f"spreadsheet program and save it again as .xlsx.") from exc


def _decode(data: bytes) -> str:
    """CSV text: UTF-8 with or without BOM, UTF-16 with BOM, else Windows-1252."""
    if data.startswith(b"\xef\xbb\xbf"):
        return data[3:].decode("utf-8", errors="replace")
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16", errors="replace")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        try:
            return data.decode("cp1252")
        except UnicodeDecodeError:
            return data.decode("latin-1")


def _csv_rows(data: bytes, limits: Limits, error: type) -> Iterator[tuple[int, list]]:
    """(row number as a spreadsheet shows it, cells) of a CSV file; the delimiter (comma,
    semicolon or tab) is the one that makes a recognisable header, else the most common."""
    text = _decode(data)
    if "\x00" in text:
        raise error("This file is not a spreadsheet or a text (CSV) file. Save the roster as "
                    ".xlsx or .csv.")
    head = text[:65536]
    lines = [line for line in head.splitlines() if line.strip()][:10]

    def header_width(delimiter: str) -> int:
        try:
            rows = list(csv.reader(io.StringIO("\n".join(lines)), delimiter=delimiter))
        except csv.Error:
            return -1
        return max((len(r) for r in rows if _header_map(r)), default=-1)

    scores = {d: header_width(d) for d in (",", ";", "\t")}
    delimiter = max(scores, key=lambda d: (scores[d],
                                           lines[0].count(d) if lines else 0))
    if scores[delimiter] < 0 and lines:
        delimiter = max((",", ";", "\t"), key=lines[0].count)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    try:
        for number, cells in enumerate(reader, start=1):
            if number > limits.rows:
                raise error(f"The file has more than {limits.rows:,} rows; STSA reads at most "
                            f"{limits.rows:,}.")
            while cells and not cells[-1].strip():
                cells.pop()
            if len(cells) > limits.columns:
                raise error(f"Row {number} has {len(cells):,} columns; STSA reads at most "
                            f"{limits.columns}.")
            yield number, cells
    except csv.Error as exc:
        raise error(f"The CSV file cannot be read near row {reader.line_num} ({exc}): check "
                    f"its quotes, or save it again from your spreadsheet program.") from exc


# -- the roster ----------------------------------------------------------------------------------
def _heading(value: Any) -> str:
    text = unicodedata.normalize("NFKC", str(value or "")).casefold()
    return " ".join(re.sub(r"[\s_\-.:/#*()]+", " ", text).split())


def _header_map(cells: list) -> dict[str, int]:
    """{field: column index} if `cells` is a roster header (a name, or first and last name)."""
    found: dict[str, int] = {}
    for index, cell in enumerate(cells):
        field = _HEADING_OF.get(_heading(cell))
        if field and field not in found:
            found[field] = index
    if "name" in found or {"first", "last"} <= found.keys():
        return found
    return {}


def _cell_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, dt.datetime):
        return value.date().isoformat() if value.time() == dt.time() else value.isoformat(" ")
    if isinstance(value, (dt.date, dt.time)):
        return value.isoformat()
    return str(value)


def _clean(value: Any, field: str, problems: list[str]) -> str:
    text = unicodedata.normalize("NFC", _cell_text(value)).strip()
    label = FIELD_LABELS[field]
    if _CONTROL.search(text):
        problems.append(f"the {label} contains a control character (such as a line break or "
                        f"tab)")
    text = " ".join(text.split())
    limit = FIELD_LIMITS.get(field, FIELD_LIMITS["name"])
    if len(text) > limit:
        problems.append(f"the {label} is longer than {limit} characters ({len(text)})")
    return text


def _ranges(numbers: list[int]) -> str:
    parts, start = [], None
    for i, n in enumerate(numbers):
        if start is None:
            start = n
        if i + 1 == len(numbers) or numbers[i + 1] != n + 1:
            parts.append(str(start) if start == n else f"{start}–{n}")
            start = None
    return ", ".join(parts)


def _roster_error(problems: list[tuple[int, str]]) -> RosterError:
    shown = problems[:30]
    text = "; ".join(f"row {row}: {what}" for row, what in shown)
    if len(problems) > len(shown):
        rest = sorted({row for row, _ in problems[len(shown):]})
        text += f"; and more in rows {_ranges(rest)}"
    count = len({row for row, _ in problems})
    return RosterError(f"Nothing was imported: {count} row{'s' if count != 1 else ''} "
                       f"need{'s' if count == 1 else ''} fixing ({text}).", problems)


def _find_header(rows: Iterator[tuple[int, list]]) -> tuple[dict[str, int], list[tuple]]:
    """Look for the header in the first 10 rows (title rows may come first); ({} if none,
    the rows read while looking)."""
    seen = []
    for number, cells in rows:
        seen.append((number, cells))
        mapping = _header_map(cells)
        if mapping:
            return mapping, seen
        if len(seen) >= 10:
            break
    return {}, seen


def _roster_records(mapping: dict[str, int], rows: Iterable[tuple[int, list]]) -> pd.DataFrame:
    records, problems, keys = [], [], {}
    for number, cells in rows:
        if all(_cell_text(c).strip() == "" for c in cells):
            continue
        wrong: list[str] = []
        get = (lambda f: _clean(cells[mapping[f]], f, wrong)
               if f in mapping and mapping[f] < len(cells) else "")
        record = {f: get(f) for f in ROSTER_COLUMNS if f != "name"}
        name = get("name") if "name" in mapping else " ".join(
            p for p in (get("first"), get("last")) if p)
        if not name:
            wrong.append("no name")
        elif store.normalize_name(name) == store.normalize_name(EXAMPLE_NAME):
            continue  # the template's example row
        else:
            key = store.normalize_name(name)
            if key in keys:
                wrong.append(f"the same name as row {keys[key]} ({name})")
            else:
                keys[key] = number
        if wrong:
            problems.append((number, "; ".join(wrong)))
            continue
        records.append({"name": name, **record, "row": number})
    if problems:
        raise _roster_error(problems)
    frame = pd.DataFrame(records, columns=[*ROSTER_COLUMNS, "row"])
    return frame.astype({c: object for c in ROSTER_COLUMNS} | {"row": "int64"})


def read_roster(source: Any) -> pd.DataFrame:
    """A roster spreadsheet (.xlsx or .csv) as a frame: `name, club, city, email, player_id`
    (cleaned text, empty when the file lacks the column) and `row`, the row number the
    spreadsheet shows (the header is row 1 when it comes first).

    `source` is a path, bytes, or a file-like object such as Streamlit's UploadedFile. The
    header is found in the first 10 rows of the first sheet that has one, under headings such
    as Name, Player, Player name, Namn (or First name + Last name); Club, City, Email and
    Player ID under common English and Swedish headings. Names are trimmed, inner spaces
    collapsed, Unicode NFC. Blank rows, and a row named exactly "Example Player" (the
    template's example), are skipped. Every bad row (no name, a name that repeats another
    ignoring case and spaces, a value too long, a control character) is named by row number in
    one `RosterError`; so is a file that is too big, hostile, protected, damaged or not a
    spreadsheet. Nothing is imported here: see `import_roster`.
    """
    data, name = _read_source(source, ROSTER_LIMITS, RosterError)
    if _kind(data, name, RosterError) == "csv":
        sheets = [_csv_rows(data, ROSTER_LIMITS, RosterError)]
        workbook = None
    else:
        workbook = _open_workbook(data, ROSTER_LIMITS, RosterError)
        sheets = (_sheet_rows(ws, ROSTER_LIMITS, RosterError) for ws in workbook.worksheets)
    try:
        first_rows = None
        for rows in sheets:
            mapping, seen = _find_header(rows)
            if mapping:
                header_row = seen[-1][0]
                rest = [r for r in seen if r[0] > header_row]
                return _roster_records(mapping, [*rest, *rows])
            first_rows = first_rows or seen
    finally:
        if workbook is not None:
            workbook.close()
    found = [str(c) for c in (first_rows[0][1] if first_rows else []) if _cell_text(c).strip()]
    raise RosterError(
        "No name column found: the first rows need a heading such as Name, Player, Player "
        "name or Namn" + (f" (the first row has: {', '.join(found[:8])[:200]})." if found
                          else "."))


_ENTRY = re.compile(r"\b([Ee])ntry (\d+)")


def import_roster(engine, source: Any, *, actor: Actor) -> pd.DataFrame:
    """Read a roster file (see `read_roster`; a frame `read_roster` returned is also taken, so a
    page can preview first) and add every player in one transaction: all or nothing (R19,
    R20). City and the file's player id are kept with each player as extra details (`city`,
    `roster_id`). A clash with a player already on the roster is named by spreadsheet row.
    Returns the added players as a `store.players` frame; empty, writing nothing, when the file
    holds no players (e.g. the untouched template)."""
    require(actor, Role.ORGANIZER, action="change the roster")
    frame = source if isinstance(source, pd.DataFrame) else read_roster(source)
    if frame.empty:
        return store.players(engine, actor=actor).head(0)
    rows = frame["row"].tolist() if "row" in frame else list(range(1, len(frame) + 1))
    get = (lambda rec, col: rec.get(col) or "")
    records = [{"name": rec["name"], "club": get(rec, "club"), "email": get(rec, "email"),
                "extra": {k: v for k, v in (("city", get(rec, "city")),
                                            ("roster_id", get(rec, "player_id"))) if v}}
               for rec in frame.to_dict("records")]
    try:
        return store.import_players(engine, records, actor=actor)
    except store.PermissionDenied:
        raise
    except TournamentError as exc:
        def label(match: re.Match) -> str:
            index = int(match.group(2)) - 1
            word = "Row" if match.group(1) == "E" else "row"
            return f"{word} {rows[index]}" if 0 <= index < len(rows) else match.group(0)
        raise RosterError(_ENTRY.sub(label, str(exc))) from exc


# -- writing -------------------------------------------------------------------------------------
_HEADER_FONT = Font(bold=True)
_HEADER_FILL = PatternFill("solid", fgColor="DDE3EA")
TIME_FORMAT = "yyyy-mm-dd hh:mm:ss"
EXCEL_TEXT_MAX = 16_000  # Excel holds 32,767 UTF-16 units in a cell; any character is ≤ 2


def neutralise(text: str) -> str:
    """CSV: text that a spreadsheet would run as a formula, prefixed with ' so it shows as is."""
    return "'" + text if isinstance(text, str) and text.startswith(_FORMULA_START) else text


def _text_cell(ws, value: str) -> Any:
    """A string for a write-only sheet: stored as text, never as a formula."""
    if ILLEGAL_CHARACTERS_RE.search(value):
        value = ILLEGAL_CHARACTERS_RE.sub("\ufffd", value)
    if not value.startswith(_FORMULA_START):
        return value
    cell = WriteOnlyCell(ws, value=value)
    cell.data_type = "s"
    cell.quotePrefix = True  # Excel's own mark for "text, even if it looks like a formula"
    return cell


def _excel_time(value: Any) -> dt.datetime | None:
    """UTC, naive (Excel has no time zones), to the millisecond (what a workbook keeps)."""
    if value is None or value is pd.NaT:
        return None
    if isinstance(value, pd.Timestamp):
        value = value.to_pydatetime()
    if value.tzinfo is not None:
        value = value.astimezone(dt.timezone.utc).replace(tzinfo=None)
    return value.replace(microsecond=value.microsecond // 1000 * 1000)


def _plain(value: Any) -> Any:
    if value is None or value is pd.NA or value is pd.NaT:
        return None
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):
        value = value.item()
    if isinstance(value, float) and value != value:
        return None
    return value


def _write_sheet(wb, title: str, headings: list[str], rows: list[list]) -> None:
    """A sheet with a bold frozen header, a filter, widths from the content, dates as dates."""
    ws = wb.create_sheet(title)
    sample = rows[:1000]
    for index, heading in enumerate(headings):
        width = max([len(heading)] + [len(v if isinstance(v, str) else str(v))
                                      for v in (r[index] for r in sample) if v is not None])
        if any(isinstance(r[index], dt.datetime) for r in sample):
            width = len(TIME_FORMAT)
        ws.column_dimensions[get_column_letter(index + 1)].width = min(max(width + 2, 8), 60)
    ws.freeze_panes = "A2"
    ws.auto_filter.ref = f"A1:{get_column_letter(max(len(headings), 1))}{len(rows) + 1}"
    header = []
    for heading in headings:
        cell = WriteOnlyCell(ws, value=heading)
        cell.font, cell.fill = _HEADER_FONT, _HEADER_FILL
        cell.alignment = Alignment(vertical="top")
        header.append(cell)
    ws.append(header)
    for row in rows:
        out = []
        for value in row:
            if isinstance(value, str):
                value = _text_cell(ws, value)
            elif isinstance(value, dt.datetime):
                value = WriteOnlyCell(ws, value=value)
                value.number_format = TIME_FORMAT
            out.append(value)
        ws.append(out)


def _workbook_bytes(sheets: dict[str, tuple[list[str], list[list]]]) -> bytes:
    wb = openpyxl.Workbook(write_only=True)
    wb.properties.creator = "STSA"
    for title, (headings, rows) in sheets.items():
        _write_sheet(wb, title, headings, rows)
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def _csv_bytes(headings: list[str], rows: Iterable[list]) -> bytes:
    """UTF-8 with a BOM (Excel then reads accents right), formula-like text neutralised."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(headings)
    for row in rows:
        writer.writerow(["" if v is None else
                         neutralise(v) if isinstance(v, str) else
                         v.isoformat(" ") if isinstance(v, dt.datetime) else
                         ("TRUE" if v else "FALSE") if isinstance(v, bool) else v for v in row])
    return out.getvalue().encode("utf-8-sig")


# -- the roster template -------------------------------------------------------------------------
TEMPLATE_HEADINGS = ["Name", "Club", "City", "Email"]
TEMPLATE_EXAMPLE = [EXAMPLE_NAME, "Example Club", "Arrakeen", "player@example.com"]
TEMPLATE_NOTES = [
    ("Column", "What to enter"),
    ("Name", "Required. One player a row; each name once (case and spaces are ignored when "
             "comparing). At most 100 characters. Also accepted as heading: Player, Player "
             "name, Namn, Spelare; or two columns First name and Last name."),
    ("Club", "Optional: the player's club, store or team. At most 100 characters. Also: "
             "Klubb, Team, Store."),
    ("City", "Optional. At most 200 characters. Also: Stad, Ort, Town."),
    ("Email", "Optional; only the organizer and judges see it. At most 254 characters. Also: "
              "E-mail, E-post."),
    ("Player ID", "Optional column you may add: your own player or membership number; STSA "
                  "keeps it with the player."),
    ("", ""),
    ("Example row", f"The row named “{EXAMPLE_NAME}” is skipped on import: type over it or "
                    f"leave it. The file may be imported untouched (it then adds nobody)."),
    ("Blank rows", "Skipped. Other columns are ignored."),
    ("Errors", "If any row is wrong (no name, a repeated name, a value too long), nothing is "
               "imported and the message names every row to fix."),
    ("Saving", "Keep it as .xlsx, or save as CSV (UTF-8; comma, semicolon or tab). At most "
               "5 MB, 20,000 rows and 50 columns."),
]


def roster_template() -> bytes:
    """The roster template (.xlsx): a Players sheet with the headings Name, Club, City, Email
    (bold, frozen, with widths) and an example row that `read_roster` skips, and a Notes sheet
    that explains each column. Importing it untouched succeeds and adds nobody."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Players"
    ws.append(TEMPLATE_HEADINGS)
    ws.append(TEMPLATE_EXAMPLE)
    for cell in ws[1]:
        cell.font, cell.fill = _HEADER_FONT, _HEADER_FILL
    for cell in ws[2]:
        cell.font = Font(italic=True, color="808080")
    for letter, width in zip("ABCD", (32, 28, 20, 34)):
        ws.column_dimensions[letter].width = width
    ws.freeze_panes = "A2"
    notes = wb.create_sheet("Notes")
    for row in TEMPLATE_NOTES:
        notes.append(list(row))
    for cell in notes[1]:
        cell.font = _HEADER_FONT
    for row in notes.iter_rows(min_row=2):
        row[0].font = Font(bold=True)
        row[1].alignment = Alignment(wrap_text=True, vertical="top")
        row[0].alignment = Alignment(vertical="top")
    notes.column_dimensions["A"].width = 14
    notes.column_dimensions["B"].width = 90
    wb.active = 0
    wb.properties.creator = "STSA"
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


# -- the tournament workbook -----------------------------------------------------------------------
# sheet -> (store table it restores, or None) and [(heading, table column or None, kind)];
# kinds: int, text, bool, time, list (leaders, "; "-separated), json (JSON text), num
_SHEETS: dict[str, tuple[str | None, list[tuple[str, str | None, str]]]] = {
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
    "Standings": (None, []),  # headings from tournament.standings_table
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


def _sheet_values(kind: str, value: Any) -> Any:
    value = _plain(value)
    if value is None:
        return None
    if kind == "time":
        return _excel_time(value)
    if kind == "list":
        items = json.loads(value) if isinstance(value, str) else list(value)
        return "; ".join(items)
    if kind == "int":
        return int(value)
    if kind == "bool":
        return bool(value)
    return value


def _split_long(columns: list[tuple[str, str | None, str]], rows: list[list]) -> list[list]:
    """A JSON text longer than a cell holds continues in the rows below, which repeat the
    first column (the id) and leave the others blank; `_join_long` puts it back together."""
    long = [i for i, (_, _, kind) in enumerate(columns) if kind == "json"]
    out = []
    for row in rows:
        if not any(isinstance(row[i], str) and len(row[i]) > EXCEL_TEXT_MAX for i in long):
            out.append(row)
            continue
        parts = {i: [row[i][k:k + EXCEL_TEXT_MAX] for k in range(0, len(row[i]),
                                                                   EXCEL_TEXT_MAX)]
                 for i in long if isinstance(row[i], str)}
        for n in range(max(len(p) for p in parts.values())):
            if n == 0:
                out.append([parts[i][0] if i in parts else v for i, v in enumerate(row)])
            else:
                out.append([row[0]] + [parts[i][n] if i in parts and n < len(parts[i])
                                       else None for i in range(1, len(row))])
    return out


def _tournament_sheets(engine, titles: Iterable[str] = tuple(_SHEETS)
                       ) -> dict[str, tuple[list[str], list[list]]]:
    """{sheet title: (headings, rows)} for the workbook's sheets named in `titles`."""
    titles = list(titles)
    dump = store.dump_tournament(engine)
    names = {p["id"]: p["name"] for p in dump["players"]}
    sittings = {s["id"]: s for s in dump["sittings"]}
    tables = {t["id"]: t for t in dump["tables"]}
    seated: dict[int, int] = {}
    for s in dump["seats"]:
        seated[s["table_id"]] = seated.get(s["table_id"], 0) + 1
    setup_names = tournament.setup_names()
    scored = tournament.scored_results(engine, None)
    score = {(int(g), int(p)): (pl, qs, bool(t)) for g, p, pl, qs, t in zip(
        scored["game_id"], scored["player_id"], scored["placing"], scored["qualifier_score"],
        scored["tied"])}

    def of_table(table_id: int) -> dict:
        t = tables[table_id]
        s = sittings[t["sitting_id"]]
        return {"sitting_id": s["id"], "kind": s["kind"], "sitting_no": s["number"],
                "table_no": t["table_no"], "setup_id": t["setup_id"]}

    extra: dict[str, list[dict]] = {
        "players": dump["players"],
        "sittings": [{**s, "label": store_draws.label(s["kind"], s["number"]),
                      "tables": sum(1 for t in dump["tables"] if t["sitting_id"] == s["id"]),
                      "results": sum(1 for t in dump["tables"] if t["sitting_id"] == s["id"]
                                     and t["result_version"] > 0)}
                     for s in dump["sittings"]],
        "tables": [{**t, "kind": sittings[t["sitting_id"]]["kind"],
                    "sitting_no": sittings[t["sitting_id"]]["number"],
                    "setup": setup_names.get(t["setup_id"], t["setup_id"]),
                    "players": seated.get(t["id"], 0)} for t in dump["tables"]],
        "seats": sorted(({**s, **of_table(s["table_id"]), "name": names.get(s["player_id"])}
                         for s in dump["seats"]),
                        key=lambda r: (r["sitting_id"], r["table_no"], r["seat"])),
        "results": sorted(({**r, **of_table(r["table_id"]), "name": names.get(r["player_id"]),
                            **dict(zip(("placing", "qualifier_score", "tied"),
                                       score.get((r["table_id"], r["player_id"]),
                                                 (None, None, None))))}
                           for r in dump["results"]),
                          key=lambda r: (r["sitting_id"], r["table_no"], r["seat"])),
        "sit_outs": [{**s, "name": names.get(s["player_id"])} for s in dump["sit_outs"]],
        "absences": [{**a, "name": names.get(a["player_id"])} for a in dump["absences"]],
        "settings": dump["settings"],
        "events": dump["events"],
    }
    sheets = {}
    for title in titles:
        table, columns = _SHEETS[title]
        if table is None:
            continue
        headings = [h for h, _, _ in columns]
        rows = [[_sheet_values(kind, rec.get(col or h)) for h, col, kind in columns]
                for rec in extra[table]]
        sheets[title] = (headings, _split_long(columns, rows))
    if "Standings" in titles:
        standings = tournament.standings_table(engine)
        sheets["Standings"] = (list(standings.columns),
                               [[_plain(v) for v in row] for row in
                                standings.itertuples(index=False, name=None)])
    if "Finals" in titles:
        sheets["Finals"] = ([h for h, _, _ in _SHEETS["Finals"][1]], _finals_rows(engine))
    return {title: sheets[title] for title in titles}


def _finals_rows(engine) -> list[list]:
    """R16-R18: the final standings once the final is complete, else who plays where."""
    view = tournament.finals(engine)
    entrants = view.entrants
    wildcard = (dict(zip(entrants["player_id"], entrants["wildcard"])) if len(entrants)
                else {})
    if view.final_standings is not None:
        frame = view.final_standings
    elif len(entrants):
        frame = entrants.assign(final_rank=None)
    else:
        return []
    frame = frame.assign(wildcard=frame["player_id"].map(wildcard))
    cols = ["final_rank", "player_id", "name", "stage", "wildcard"]
    return [[_plain(v) for v in row] for row in frame[cols].itertuples(index=False, name=None)]


def tournament_workbook(engine) -> bytes:
    """The whole tournament as one .xlsx: sheets Players, Sittings, Tables, Seats, Results,
    Standings, Finals, Sit-outs, Absences, Settings and Log, each with a bold frozen header, a
    filter, widths to fit and times as dates (UTC). Text that looks like a formula is stored as
    text. `restore_workbook` recreates the tournament from it.

    R20: it holds removed leaders, emails and the log; offer it to the organizer only.
    Times keep whole milliseconds (what a workbook stores)."""
    return _workbook_bytes(_tournament_sheets(engine))


def standings_csv(engine) -> bytes:
    """The qualifier standings (`tournament.standings_table`) as CSV (UTF-8 with BOM);
    formula-like text neutralised with a leading '."""
    frame = tournament.standings_table(engine)
    return _csv_bytes(list(frame.columns), ([_plain(v) for v in row] for row in
                                            frame.itertuples(index=False, name=None)))


def results_csv(engine) -> bytes:
    """Every result, one row per player per game (the workbook's Results sheet without the
    submission ids), as CSV (UTF-8 with BOM); formula-like text neutralised with a leading '."""
    headings, rows = _tournament_sheets(engine, ["Results"])["Results"]
    keep = [i for i, h in enumerate(headings) if h != "submission_id"]
    return _csv_bytes([headings[i] for i in keep], ([r[i] for i in keep] for r in rows))


# -- restore -------------------------------------------------------------------------------------
def _join_long(columns: list[tuple[str, str | None, str]], records: list[tuple[int, dict]]
               ) -> list[tuple[int, dict]]:
    json_cols = [h for h, _, kind in columns if kind == "json"]
    if not json_cols:
        return records
    first = columns[0][0]
    out: list[tuple[int, dict]] = []
    for number, rec in records:
        others = [h for h, _, _ in columns[1:] if h not in json_cols]
        if out and rec.get(first) == out[-1][1].get(first) and all(
                rec.get(h) is None for h in others):
            for h in json_cols:
                if rec.get(h):
                    out[-1][1][h] = (out[-1][1].get(h) or "") + rec[h]
            continue
        out.append((number, dict(rec)))
    return out


def _restore_value(kind: str, value: Any) -> Any:
    if kind == "list":
        text = _cell_text(value).strip()
        return json.dumps([p.strip() for p in text.split(";")] if text else [],
                          ensure_ascii=False)
    return value


def restore_workbook(engine, source: Any, *, actor: Actor) -> dict:
    """Recreate a tournament from its `tournament_workbook` file in an EMPTY database (no
    players, no sittings): players, settings, sittings, tables, seats, sit-outs, results with
    their versions, absences and the log, keeping every id, so printed slips stay valid.

    Organizer only (R20); all or nothing. A file that is not an STSA workbook, or a hostile or
    damaged one, raises `RestoreError`; a database that already holds a tournament,
    `InvalidState`. Standings, finals and the other computed columns are recomputed, not read.
    The log gains one `tournament.restore` event. Returns how many rows each table received
    and `source`, the file's name.
    """
    require(actor, Role.ORGANIZER, action="restore a tournament")
    data, name = _read_source(source, WORKBOOK_LIMITS, RestoreError)
    if _kind(data, name, RestoreError) != "xlsx":
        raise RestoreError("A tournament is restored from the .xlsx workbook STSA exported; "
                           "this file is not one.")
    workbook = _open_workbook(data, WORKBOOK_LIMITS, RestoreError)
    frames: dict[str, list[dict]] = {}
    rownums: dict[str, list[int]] = {}
    try:
        needed = [t for t, (table, _) in _SHEETS.items() if table]
        missing = [t for t in needed if t not in workbook.sheetnames]
        if missing:
            raise RestoreError(f"This is not an STSA tournament workbook: it lacks the sheet"
                               f"{'s' if len(missing) > 1 else ''} {', '.join(missing)}.")
        for title in needed:
            table, columns = _SHEETS[title]
            rows = _sheet_rows(workbook[title], WORKBOOK_LIMITS, RestoreError)
            _, header = next(rows, (1, []))
            index = {_cell_text(h).strip(): i for i, h in enumerate(header)}
            lacking = [h for h, col, _ in columns if col and h not in index]
            if lacking:
                raise RestoreError(f"The sheet {title} lacks the column"
                                   f"{'s' if len(lacking) > 1 else ''} {', '.join(lacking)}: "
                                   f"is this an STSA tournament workbook?")
            records = [(number, {h: (cells[index[h]] if index[h] < len(cells) else None)
                                 for h, _, _ in columns if h in index})
                       for number, cells in rows if any(c is not None for c in cells)]
            records = _join_long(columns, records)
            frames[table] = [{col: _restore_value(kind, rec.get(h))
                              for h, col, kind in columns if col} for _, rec in records]
            rownums[table] = [number for number, _ in records]
    finally:
        workbook.close()
    sheet_of = {table: title for title, (table, _) in _SHEETS.items() if table}

    def where(match: re.Match) -> str:
        table, i = match.group(1), int(match.group(2))
        numbers = rownums.get(table, [])
        row = numbers[i - 1] if 0 < i <= len(numbers) else i + 1
        return f"sheet {sheet_of.get(table, table)} row {row}"

    try:
        counts = store.load_tournament(engine, frames, actor=actor, source=name or "the workbook")
    except (store.InvalidState, store.PermissionDenied):
        raise
    except TournamentError as exc:
        pattern = r"\b(" + "|".join(sheet_of) + r") row (\d+)"
        raise RestoreError(re.sub(pattern, where, str(exc))) from exc
    return {"source": name, **counts}
