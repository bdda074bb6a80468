"""Hostile-file guards: everything about an uploaded file that is checked before a spreadsheet
library parses it (size, what the bytes are, zip proportions and entries, XML declarations,
rows and columns, an OpenDocument sheet's repeated rows and cells), so that a broken, huge or
hostile file gets a plain message within bounded time and memory, and nothing changes
(DESIGN.md).

Every guard takes the error class to raise (a `SpreadsheetError`: `RosterError` for a roster,
`RestoreError` for a tournament workbook), so the page shows the message of the job at hand.
"""

from __future__ import annotations

import datetime as dt
import io
import os
import re
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import defusedxml.ElementTree as safe_et
import openpyxl
from defusedxml import DefusedXmlException

from stsa import i18n
from stsa.domain import Problem, TournamentError
from stsa.i18n import N_, _

MAX_UPLOAD_BYTES = 5 * 1024 * 1024  # a roster file
MAX_WORKBOOK_BYTES = 50 * 1024 * 1024  # a tournament workbook offered for restore


class SpreadsheetError(TournamentError):
    """A file that cannot be used as it is; the message says what and where. `problems` lists
    each thing wrong (a `Problem`; a `RowProblem` when it is one row of a sheet)."""


@dataclass(frozen=True)
class RowProblem(Problem):
    """A problem with one spreadsheet row: `row` is the number the spreadsheet shows, so a page
    can list the rows to fix as numbers."""

    row: int | None = None


def at_row(row: int, what: str, sheet: str | None = None) -> RowProblem:
    """"row 4: …", or "Results sheet, row 7: …" in a workbook of many sheets (the sheet as
    the file names it)."""
    where = (_("{sheet} sheet, row {row}").format(sheet=sheet, row=row) if sheet
             else _("row {row}").format(row=row))
    return RowProblem(where, what, int(row))


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

# The cells, shared strings and rows a part holds, found without and with a namespace prefix
# (two patterns: one with an optional prefix tries it at every "<", three times slower).
_ELEMENT = re.compile(rb"<(c|si|row)[\s/>]")
_PREFIXED = re.compile(rb"<[A-Za-z_][\w.-]*:(c|si|row)[\s/>]")
_MAGIC = [  # (leading bytes, what it is)
    (b"%PDF", N_("a PDF document")), (b"\x89PNG", N_("a PNG image")),
    (b"\xff\xd8\xff", N_("a JPEG image")), (b"GIF8", N_("a GIF image")),
    (b"\x1f\x8b", N_("a gzip archive")), (b"Rar!", N_("a RAR archive")),
    (b"7z\xbc\xaf", N_("a 7-Zip archive")), (b"RIFF", N_("a media file")),
    (b"\x7fELF", N_("a program")), (b"SQLite format 3", N_("a database")),
    (b"{\\rtf", N_("an RTF document")),
]
_OLE = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_BOMB = N_("The workbook declares XML entities (an “XML bomb”); STSA does not open it.")
ODS_MIMETYPE = b"application/vnd.oasis.opendocument.spreadsheet"
_ODS_TABLE_NS = "{urn:oasis:names:tc:opendocument:xmlns:table:1.0}"
_ODS_TABLE, _ODS_ROW = _ODS_TABLE_NS + "table", _ODS_TABLE_NS + "table-row"
_ODS_CELL, _ODS_COVERED = _ODS_TABLE_NS + "table-cell", _ODS_TABLE_NS + "covered-table-cell"
_ODS_ROWS_REPEATED = _ODS_TABLE_NS + "number-rows-repeated"
_ODS_COLUMNS_REPEATED = _ODS_TABLE_NS + "number-columns-repeated"
_ODS_VALUE_TYPE = "{urn:oasis:names:tc:opendocument:xmlns:office:1.0}value-type"
_DAMAGED_ODS = N_("The spreadsheet is damaged (it is not a complete .ods file): open it in "
                  "your spreadsheet program and save it again.")
_DAMAGED = N_("The workbook is damaged (it is not a complete .xlsx file): open it in your "
              "spreadsheet program and save it again as .xlsx.")


# -- the bytes -----------------------------------------------------------------------------------
def read_source(source: Any, limits: Limits, error: type) -> tuple[bytes, str]:
    """The file's bytes (at most `limits.upload_bytes`) and its name, from a path, bytes or
    a file-like object such as Streamlit's UploadedFile (left at its start)."""
    too_big = error(_("The file is larger than {size}, the upload limit; a roster or "
                      "tournament workbook is far smaller. Check that it is the right "
                      "file.").format(size=_megabytes(limits.upload_bytes // 2**20)))
    if isinstance(source, (str, os.PathLike)):
        data, name = _from_path(source, limits, error, too_big)
    elif isinstance(source, (bytes, bytearray, memoryview)):
        data, name = bytes(source), ""
    elif hasattr(source, "read") or hasattr(source, "getvalue"):
        data, name = _from_stream(source, limits, too_big)
    else:
        raise error(_("Cannot read a spreadsheet from {kind}.").format(
            kind=type(source).__name__))
    if len(data) > limits.upload_bytes:
        raise too_big
    if not data.strip():
        raise error(_("The file is empty."))
    return data, name


def _from_path(path: Any, limits: Limits, error: type, too_big: Exception) -> tuple[bytes, str]:
    try:
        if os.path.getsize(path) > limits.upload_bytes:
            raise too_big
        with open(path, "rb") as f:
            return f.read(limits.upload_bytes + 1), os.path.basename(os.fspath(path))
    except OSError as exc:
        raise error(_("The file cannot be opened ({reason}).").format(
            reason=exc.strerror or exc)) from exc


def _from_stream(source: Any, limits: Limits, too_big: Exception) -> tuple[bytes, str]:
    name = os.path.basename(str(getattr(source, "name", "") or ""))
    size = getattr(source, "size", None)
    if isinstance(size, int) and size > limits.upload_bytes:
        raise too_big
    seekable = getattr(source, "seekable", None)
    if hasattr(source, "read") and callable(seekable) and seekable():
        source.seek(0)  # a page may have read it already
        data = source.read(limits.upload_bytes + 1)
        source.seek(0)
    elif hasattr(source, "read"):
        data = source.read(limits.upload_bytes + 1)
    else:
        data = source.getvalue()
    return (data.encode("utf-8") if isinstance(data, str) else data), name


def file_kind(data: bytes, name: str, error: type) -> str:
    """"xlsx", "ods" or "csv", from the content first and the name second; refuses
    everything else."""
    suffix = os.path.splitext(name)[1].lower()
    if data.startswith((b"PK\x03\x04", b"PK\x05\x06", b"PK\x07\x08")):
        return "ods" if _is_ods(data) else "xlsx"
    if data.startswith(_OLE):
        raise error(_("This file is password-protected or in the old .xls format, which STSA "
                      "cannot read: save it as .xlsx without a password (or as .csv)."))
    for magic, what in _MAGIC:
        if data.startswith(magic):
            raise error(_("This file is not a spreadsheet: it looks like {what}. Save the "
                          "roster as .xlsx, .ods or .csv.").format(what=_(what)))
    if suffix in (".xlsx", ".xlsm", ".xltx"):
        raise error(_("This file is named like an .xlsx workbook but is damaged or not one: "
                      "open it in your spreadsheet program and save it again as .xlsx."))
    if suffix == ".ods":
        raise error(_("This file is named like an .ods spreadsheet but is damaged or not "
                      "one: open it in your spreadsheet program and save it again."))
    if suffix in (".xls", ".numbers"):
        raise error(_("STSA reads .xlsx, .ods and .csv files, not {suffix}: save the roster "
                      "as .xlsx, .ods or .csv.").format(suffix=suffix))
    head = data[:4096]
    if head.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<"):
        raise error(_("This file is a web page or XML, not a spreadsheet STSA reads: save "
                      "the roster as .xlsx, .ods or .csv."))
    if b"\x00" in head and not head.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise error(_("This file is not a spreadsheet or a text (CSV) file. Save the roster "
                      "as .xlsx or .csv."))
    return "csv"


def _is_ods(data: bytes) -> bool:
    """An OpenDocument spreadsheet: a zip whose `mimetype` entry says so."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            if "mimetype" not in archive.namelist():
                return False
            with archive.open("mimetype") as stream:
                return stream.read(100).strip() == ODS_MIMETYPE
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, OSError, RuntimeError,
            NotImplementedError, EOFError):
        return False


# -- the zip and its XML parts -------------------------------------------------------------------
def _megabytes(n: float) -> str:
    """"50 MB" in this run's language."""
    return _("{size} MB").format(size=i18n.number(round(n)))


def _size(n: int) -> str:
    if n >= 2**20:
        return _megabytes(n / 2**20)
    return _("{size} KB").format(size=i18n.number(max(n // 1024, 1)))


def open_workbook(data: bytes, limits: Limits, error: type, *, checked: bool = False):
    """A read-only openpyxl workbook of `data`, once every guard has passed (`checked`: the
    caller ran `check_zip` already). Close it."""
    if not checked:
        check_zip(data, limits, error)
    try:
        return openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except DefusedXmlException as exc:
        raise error(_(_BOMB)) from exc
    except Exception as exc:  # any failure to parse is a damaged file
        raise error(_("The workbook is damaged or not an .xlsx file STSA can read: open it "
                      "in your spreadsheet program and save it again as .xlsx.")) from exc


def check_zip(data: bytes, limits: Limits, error: type, kind: str = "xlsx") -> None:
    """Everything about an .xlsx (or, `kind` "ods", an OpenDocument spreadsheet) that can be
    checked before a spreadsheet library opens it."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, OSError) as exc:
        raise error(_(_DAMAGED)) from exc
    with archive:
        infos = archive.infolist()
        _check_proportions(infos, len(data), limits, error)
        names = {i.filename for i in infos}
        if kind == "ods":
            _check_is_ods(archive, names, error)
        else:
            _check_is_xlsx(archive, names, error)
        for info in infos:
            _check_part(archive, info, limits, error)
        if kind == "ods":
            try:
                with archive.open("content.xml") as stream:
                    _check_ods_content(stream, limits, error)
            except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, OSError,
                    NotImplementedError, RuntimeError) as exc:
                raise error(_(_DAMAGED_ODS)) from exc


def _check_proportions(infos: list, packed: int, limits: Limits, error: type) -> None:
    if len(infos) > limits.entries:
        raise error(_("The workbook holds {count} files inside; a spreadsheet has a few "
                      "dozen. STSA does not open it.").format(count=len(infos)))
    unpacked = sum(i.file_size for i in infos)
    if unpacked > limits.unpacked_bytes or (unpacked > 2**20 and unpacked > limits.ratio * packed):
        raise error(_("The workbook would unpack to {unpacked} from {packed}, out of "
                      "proportion for a spreadsheet (a “zip bomb”); STSA does not open "
                      "it.").format(unpacked=_size(unpacked), packed=_size(packed)))


def _check_is_xlsx(archive: zipfile.ZipFile, names: set[str], error: type) -> None:
    if "mimetype" in names:
        kind = archive.read("mimetype")[:100].decode("ascii", "replace")
        if "spreadsheet" in kind:
            raise error(_("This file is an OpenDocument spreadsheet (.ods): save it as .xlsx "
                          "or .csv."))
        raise error(_("This file is an OpenDocument file: save it as .xlsx or .csv."))
    if "[Content_Types].xml" not in names or not any(n.startswith("xl/") for n in names):
        raise error(_("This file is a zip archive, not an .xlsx workbook: save the roster "
                      "as .xlsx or .csv."))


def _check_is_ods(archive: zipfile.ZipFile, names: set[str], error: type) -> None:
    if "content.xml" not in names:
        raise error(_(_DAMAGED_ODS))
    if "META-INF/manifest.xml" in names:
        info = archive.getinfo("META-INF/manifest.xml")
        if info.file_size <= 5 * 2**20 and b"encryption-data" in archive.read(info):
            raise error(_("The spreadsheet is encrypted (password-protected): save it again "
                          "without a password."))


def _check_ods_content(stream: Any, limits: Limits, error: type) -> None:
    """Refuse an OpenDocument sheet that would unfold into more rows, columns or cells than
    STSA reads: cells and rows may say "repeated n times", and a reader writes each repeat
    out. Counted as the XML streams past (with defusedxml: no DTD, no entities), the way a
    reader unfolds them: blank cells and rows count only when something follows them."""
    elements = 0
    rows = filled_rows = 0
    try:
        for _x, elem in safe_et.iterparse(stream, events=("end",), forbid_dtd=True):
            if elem.tag in (_ODS_CELL, _ODS_COVERED, _ODS_ROW):
                elements += 1
                if elements > limits.elements:
                    raise error(_("The spreadsheet holds more than {cells} cells; STSA reads "
                                  "sheets of at most {rows} rows and {columns} "
                                  "columns.").format(cells=i18n.number(limits.elements),
                                                     rows=i18n.number(limits.rows),
                                                     columns=limits.columns))
            if elem.tag == _ODS_ROW:
                width = filled = 0
                for cell in elem:
                    width += _repeat(cell, _ODS_COLUMNS_REPEATED)
                    if cell.get(_ODS_VALUE_TYPE) or "".join(cell.itertext()).strip():
                        filled = width
                if filled > limits.columns:
                    raise error(_("The spreadsheet has a row of {count} columns; STSA reads "
                                  "at most {columns}.").format(count=i18n.number(filled),
                                                               columns=limits.columns))
                rows += _repeat(elem, _ODS_ROWS_REPEATED)
                if filled:
                    filled_rows = rows
                if filled_rows > limits.rows:
                    raise error(_("The spreadsheet has more than {rows} rows; STSA reads at "
                                  "most {rows}.").format(rows=i18n.number(limits.rows)))
                elem.clear()
            elif elem.tag == _ODS_TABLE:
                rows = filled_rows = 0
                elem.clear()
    except DefusedXmlException as exc:
        raise error(_(_BOMB)) from exc
    except (safe_et.ParseError, ValueError) as exc:
        if isinstance(exc, SpreadsheetError):
            raise
        raise error(_(_DAMAGED_ODS)) from exc


def _repeat(elem: Any, attribute: str) -> int:
    value = int(elem.get(attribute, "1"))
    if value < 1:
        raise ValueError("a repeat below 1")
    return value


def ods_rows(data: bytes, limits: Limits, error: type) -> list[Iterator[tuple[int, list]]]:
    """The sheets of an OpenDocument spreadsheet (.ods), each as (spreadsheet row number,
    cell values), once every guard has passed (`check_zip`), read with pandas' odf engine
    (odfpy). Cells are values, never formulas: a formula cell gives the value it shows."""
    check_zip(data, limits, error, kind="ods")
    try:
        import pandas as pd  # only here: the guards stand alone for .xlsx and .csv

        frames = pd.read_excel(io.BytesIO(data), engine="odf", sheet_name=None, header=None,
                               dtype=object)
    except SpreadsheetError:
        raise
    except Exception as exc:  # any failure to parse is a damaged file
        raise error(_(_DAMAGED_ODS)) from exc
    return [_frame_rows(frame) for frame in frames.values()]


def _frame_rows(frame: Any) -> Iterator[tuple[int, list]]:
    """A sheet read without a header as (row number from 1, cell values without the blank
    cells at the end of each row)."""
    for number, values in enumerate(frame.itertuples(index=False, name=None), start=1):
        yield number, trimmed([None if v is None or v != v else v for v in values])


def _check_part(archive: zipfile.ZipFile, info: zipfile.ZipInfo, limits: Limits,
                error: type) -> None:
    if info.flag_bits & 0x1:
        raise error(_("The workbook is encrypted (password-protected): save it as .xlsx "
                      "without a password."))
    if not info.filename.endswith((".xml", ".rels", ".vml")):
        return
    big_part = ("worksheets/" in info.filename or "sharedStrings" in info.filename
                or info.filename == "content.xml")
    if info.file_size > limits.part_bytes and not big_part:
        raise error(_("The workbook's part {part} is {size}, far too big for a spreadsheet; "
                      "STSA does not open it.").format(
            part=info.filename, size=_megabytes(info.file_size / 2**20)))
    try:
        with archive.open(info) as stream:
            _check_xml_prolog(stream, info.filename, error)
        if info.file_size > 65536:
            with archive.open(info) as stream:
                _count_elements(stream, info.filename, limits, error)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, OSError,
            NotImplementedError, RuntimeError) as exc:
        raise error(_(_DAMAGED)) from exc


class _Root(Exception):
    """Raised on the first start tag: the prolog, where DTDs live, is over."""


class _StopAtRoot:
    def start(self, tag, attrib):
        raise _Root

    def data(self, text):
        pass

    def end(self, tag):
        pass

    def close(self):
        return None


def _check_xml_prolog(stream: Any, part: str, error: type) -> None:
    """Refuse a DTD or entity declaration in an XML part (entity bombs, external entities),
    with defusedxml's parser, reading only up to the root element."""
    parser = safe_et.DefusedXMLParser(target=_StopAtRoot(), forbid_dtd=True,
                                      forbid_entities=True, forbid_external=True)
    try:
        while chunk := stream.read(65536):
            parser.feed(chunk)
    except _Root:
        return
    except DefusedXmlException as exc:
        raise error(_("The workbook's part {part} declares XML entities or a DTD, which a "
                      "spreadsheet never needs (an “XML bomb”); STSA does not open "
                      "it.").format(part=part)) from exc
    except safe_et.ParseError as exc:
        raise error(_("The workbook is damaged (its part {part} is not valid XML): open it "
                      "in your spreadsheet program and save it again.").format(
            part=part)) from exc


def _count_elements(stream: Any, part: str, limits: Limits, error: type) -> None:
    """Refuse a part with more cells or shared strings than any sheet STSA reads could have,
    or (a sheet) more cells than its rows can hold within the column limit: counted at C speed
    in 1 MB chunks, stopping at the limit, before a parser builds them. (A tag split between
    two chunks goes uncounted; the limits are generous.)"""
    elements = rows = cells = 0
    sheet = "worksheets/" in part
    while chunk := stream.read(2**20):
        found = _ELEMENT.findall(chunk) + _PREFIXED.findall(chunk)
        elements += len(found)
        if sheet:
            rows += found.count(b"row")
            cells += found.count(b"c")
        if elements > limits.elements:
            raise error(_("The workbook's part {part} holds more than {cells} cells; STSA "
                          "reads sheets of at most {rows} rows and {columns} columns.").format(
                part=part, cells=i18n.number(limits.elements), rows=i18n.number(limits.rows),
                columns=limits.columns))
    if cells > max(rows, 1) * limits.columns:
        raise error(_("The workbook's part {part} has rows of more than {columns} columns "
                      "({cells} cells in {rows} rows); STSA reads at most {columns} "
                      "columns.").format(part=part, columns=limits.columns,
                                         cells=i18n.number(cells), rows=i18n.number(rows)))


# -- rows and cells ------------------------------------------------------------------------------
def sheet_rows(ws, limits: Limits, error: type) -> Iterator[tuple[int, list]]:
    """(spreadsheet row number, cell values) of a read-only sheet, checked against `limits`."""
    sheet = repr(ws.title)
    if (ws.max_column or 0) > limits.columns or (ws.max_row or 0) > limits.rows:
        raise error(_("The sheet {sheet} reaches row {row} and column {column}; STSA reads at "
                      "most {rows} rows and {columns} columns.").format(
            sheet=sheet, row=i18n.number(ws.max_row or 0),
            column=i18n.number(ws.max_column or 0), rows=i18n.number(limits.rows),
            columns=limits.columns))
    ws.reset_dimensions()  # a wrong size in the file must not cut rows off
    try:
        for number, values in enumerate(ws.iter_rows(values_only=True), start=1):
            if number > limits.rows:
                raise error(_("The sheet {sheet} has more than {rows} rows; STSA reads at "
                              "most {rows}.").format(sheet=sheet,
                                                     rows=i18n.number(limits.rows)))
            values = trimmed(list(values))
            if len(values) > limits.columns:
                raise error(_("The sheet {sheet} has cells in column {column} (row {row}); "
                              "STSA reads at most {columns} columns.").format(
                    sheet=sheet, column=i18n.number(len(values)), row=number,
                    columns=limits.columns))
            yield number, values
    except SpreadsheetError:
        raise
    except DefusedXmlException as exc:
        raise error(_(_BOMB)) from exc
    except Exception as exc:  # any failure to parse is a damaged file
        raise error(_("The sheet {sheet} is damaged and cannot be read: open the file in "
                      "your spreadsheet program and save it again as .xlsx.").format(
            sheet=sheet)) from exc


def trimmed(cells: list) -> list:
    """`cells` without the empty cells at the end of the row."""
    while cells and (cells[-1] is None or (isinstance(cells[-1], str)
                                           and not cells[-1].strip())):
        cells.pop()
    return cells


def cell_text(value: Any) -> str:
    """A cell as the text a person sees in it: 12 not 12.0, TRUE, a date without midnight."""
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
