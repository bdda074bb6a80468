"""CSV in and out, and the one formula guard every file STSA writes goes through.

A spreadsheet runs text that starts with =, +, -, @, a tab or a carriage return as a formula
(CSV injection). It does so wherever a cell starts, and which characters start a cell depends on
the reader, not on the file: a spreadsheet set to semicolons or tabs splits a comma file's
`Bob;=1+2` into `Bob` and a live `=1+2`. So `neutralise` puts a ' before such a trigger at the
start of the text and after every comma, semicolon, tab or line break inside it; the
spreadsheet shows the text itself. Numbers are not text and stay numbers. The workbook writer
asks `looks_like_formula` (a workbook cell is one cell, whatever the separator) and marks such
cells as text instead.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import pandas as pd

from stsa import i18n
from stsa.formats.guards import Limits, trimmed
from stsa.i18n import _

# What makes a cell a formula: the ASCII signs and their full-width forms (East Asian input).
TRIGGERS = "=+-@\uff1d\uff0b\uff0d\uff20"
FORMULA_START = (*TRIGGERS, "\t", "\r")
DELIMITERS = (",", ";", "\t")
# Where some reader starts a new cell inside one of ours: a separator any spreadsheet may be set
# to, or a line break (a reader that ignores our quotes starts a row there). Spaces and quotes
# between it and the trigger do not stop a formula (a reader may trim or unquote them).
_CELL_STARTS = re.compile(f"(^|[,;\t\r\n])([ \"]*)(?=[{re.escape(TRIGGERS)}])")


def looks_like_formula(value: Any) -> bool:
    """True for text a spreadsheet would take for a formula when it is one whole cell."""
    return isinstance(value, str) and value.startswith(FORMULA_START)


def neutralise(value: Any) -> Any:
    """Text with a ' before every formula trigger that starts it or follows a comma, semicolon,
    tab or line break in it (so no reader, whatever its separator, finds a formula), and before
    a leading tab or carriage return; any other value (numbers, dates, None) unchanged."""
    if not isinstance(value, str):
        return value
    text = _CELL_STARTS.sub(r"\1\2'", value)
    return "'" + text if text.startswith(("\t", "\r")) else text


def _cell(value: Any) -> Any:
    """A value as people read it in a CSV: blank for missing, text neutralised, a time to the
    second, yes or no in words (a spreadsheet shows TRUE/FALSE text as codes)."""
    if value is None:
        return ""
    if isinstance(value, str):
        return neutralise(value)
    if isinstance(value, dt.datetime):
        return value.strftime("%Y-%m-%d %H:%M:%S")
    if isinstance(value, bool):
        return "Yes" if value else "No"
    return value


def csv_bytes(headings: list[str], rows: Iterable[list]) -> bytes:
    """UTF-8 with a BOM (Excel then reads accents right), formula-like text neutralised,
    yes/no and times in words (`_cell`)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(headings)
    writer.writerows([_cell(v) for v in row] for row in rows)
    return out.getvalue().encode("utf-8-sig")


def frame_text(frame: pd.DataFrame) -> str:
    """`frame` as CSV text with its text neutralised (no BOM: for a text download). Numeric,
    true/false and time columns are written as they are: a number is never a formula."""
    text_columns = frame.select_dtypes(exclude=["number", "bool", "datetime", "datetimetz",
                                                "timedelta"]).columns
    return frame.assign(**{c: frame[c].map(neutralise) for c in text_columns}).to_csv(index=False)


# -- reading -------------------------------------------------------------------------------------
def decode(data: bytes) -> str:
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


def _delimiter(text: str, is_header: Callable[[list], bool]) -> str:
    """The delimiter (comma, semicolon or tab) that makes a recognisable header in the first
    lines, else the most common one in the first line."""
    lines = [line for line in text[:65536].splitlines() if line.strip()][:10]

    def header_width(delimiter: str) -> int:
        try:
            rows = list(csv.reader(io.StringIO("\n".join(lines)), delimiter=delimiter))
        except csv.Error:
            return -1
        return max((len(r) for r in rows if is_header(r)), default=-1)

    scores = {d: header_width(d) for d in DELIMITERS}
    first = lines[0] if lines else ""
    best = max(scores, key=lambda d: (scores[d], first.count(d)))
    return best if scores[best] >= 0 or not lines else max(DELIMITERS, key=first.count)


def csv_rows(data: bytes, limits: Limits, error: type,
             is_header: Callable[[list], Any]) -> Iterator[tuple[int, list]]:
    """(row number as a spreadsheet shows it, cells) of a CSV file, checked against `limits`."""
    text = decode(data)
    if "\x00" in text:
        raise error(_("This file is not a spreadsheet or a text (CSV) file. Save the roster as "
                      ".xlsx or .csv."))
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=_delimiter(text, is_header))
    try:
        for number, cells in enumerate(reader, start=1):
            if number > limits.rows:
                raise error(_("The file has more than {count} rows; STSA reads at most "
                              "{count}.").format(count=i18n.number(limits.rows)))
            cells = trimmed(cells)
            if len(cells) > limits.columns:
                raise error(_("Row {row} has {count} columns; STSA reads at most "
                              "{most}.").format(row=number, count=i18n.number(len(cells)),
                                                most=limits.columns))
            yield number, cells
    except csv.Error as exc:
        raise error(_("The CSV file cannot be read near row {row} ({problem}): check its "
                      "quotes, or save it again from your spreadsheet program.").format(
            row=reader.line_num, problem=exc)) from exc
