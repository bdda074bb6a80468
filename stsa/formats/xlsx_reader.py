"""A fast .xlsx sheet reader for the tournament workbook (R19).

It reads the sheets `xlsx_writer` and spreadsheet applications write (shared and inline
strings, numbers, Yes/No, dates by their number format, cells with or without references),
with one pattern per cell rather than openpyxl's object per cell; `open_book` returns None for
a file it does not know how to read quickly (a sheet with XML namespace prefixes or CDATA),
and the caller reads it with openpyxl instead. The hostile-file guards
(`formats.guards.check_zip`) run before it.
"""

from __future__ import annotations

import datetime as dt
import io
import itertools
import operator
import posixpath
import re
import zipfile
from collections.abc import Callable, Collection, Iterator, Mapping
from typing import Any, NamedTuple

import numpy as np
from openpyxl.styles.numbers import BUILTIN_FORMATS, is_date_format
from openpyxl.utils.datetime import CALENDAR_MAC_1904, WINDOWS_EPOCH, from_excel

# -- the cells -----------------------------------------------------------------------------------
# A row's start tag, or a cell as this writer and most applications write it (reference,
# style, type, value), or any other cell whole (a formula, an inline string, other
# attributes), read attribute by attribute.
_TOKEN = re.compile(r'(<row\b[^>]*>)|<c r="([A-Z]{1,3})\d+"(?: s="(\d+)")?'
                    r'(?: t="(s|n|b|str|e)")?(?:/>|>(?:<v>([^<]*)</v>)?</c>)'
                    r'|(<c\b[^>]*?(?:/>|>.*?</c>))', re.S)
_ATTR = re.compile(r'([\w:]+)\s*=\s*(?:"([^"]*)"|\'([^\']*)\')')
_V = re.compile(r"<v\b[^>]*?(?:/>|>(.*?)</v>)", re.S)
_T = re.compile(r"<t\b[^>]*?(?:/>|>(.*?)</t>)", re.S)
_PHONETIC = re.compile(r"<rPh\b.*?</rPh>", re.S)
_ENTITY = re.compile(r"&(#x[0-9a-fA-F]+|#[0-9]+|amp|lt|gt|quot|apos);")
_NAMED = {"amp": "&", "lt": "<", "gt": ">", "quot": '"', "apos": "'"}
_LETTERS = re.compile(r"[A-Z]+")
# A shared string: one plain text run as this writer writes it (read as it is), or any other
# (rich text, phonetic hints: `_string_text`).
_SI = re.compile(r'<si><t(?: xml:space="preserve")?>([^<]*)</t></si>|<si\b[^>]*>(.*?)</si>',
                 re.S)


def _entity(match: re.Match) -> str:
    name = match.group(1)
    if name.startswith("#x"):
        return chr(int(name[2:], 16))
    if name.startswith("#"):
        return chr(int(name[1:]))
    return _NAMED[name]


def _unescape(text: str) -> str:
    """XML character data as its text: line ends as XML reads them, entities resolved."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return _ENTITY.sub(_entity, text) if "&" in text else text


def _attrs(text: str) -> dict[str, str]:
    return {m.group(1): m.group(2) if m.group(2) is not None else m.group(3)
            for m in _ATTR.finditer(text)}


def _string_text(xml: str) -> str:
    """A shared or inline string's text: its <t> runs joined, phonetic hints left out."""
    return "".join(_unescape(t or "") for t in _T.findall(_PHONETIC.sub("", xml)))


def _column(reference: str) -> int:
    """The column index (from 0) of a cell reference such as "AB12"."""
    letters = _LETTERS.match(reference)
    if not letters:
        raise ValueError(f"not a cell reference: {reference!r}")
    index = 0
    for letter in letters.group(0):
        index = index * 26 + ord(letter) - 64
    return index - 1


class Table(NamedTuple):
    """A sheet read column by column (`Book.table`): the numbers of its rows that hold a
    value, each one's width (its last column with a value), the sheet's last row number
    (filled or not) and {column index (from 0): the values of those rows}."""

    numbers: list[int]
    widths: list[int]
    last: int
    columns: dict[int, list]


class Book:
    """An .xlsx's sheets by title, read with patterns (`rows`, `table`); built by
    `open_book`."""

    def __init__(self, archive: zipfile.ZipFile, parts: dict[str, str], strings: list[str],
                 dates: set[int], epoch: dt.datetime, language: str | None = None,
                 texts: Mapping[str, str] | None = None) -> None:
        self.archive, self.parts = archive, parts
        self.texts = dict(texts or {})  # {part: its XML}, as `open_book` read them already
        self.strings, self.dates, self.epoch = strings, dates, epoch
        self.sheetnames = list(parts)
        self.language = language  # as the file's properties record it ("sv"), or None
        self._columns: dict[str, int] = {}

    def xml(self, title: str) -> str:
        part = self.parts[title]
        found = self.texts.get(part)
        return found if found is not None else self.archive.read(part).decode("utf-8")

    def rows(self, title: str) -> Iterator[tuple[int, list]]:
        """(row number, cell values) of each row in the sheet, as openpyxl reads them with
        `values_only`: text, whole numbers as int, decimals as float, booleans, dates as
        datetime (by their number format), errors as their text; a row's missing cells as
        None, rows left out as empty ones."""
        xml = self.xml(title)
        begin = xml.find("<sheetData")
        data = xml[begin:xml.find("</sheetData>", begin)] if begin >= 0 else ""
        last, number = 0, 0
        values: list | None = None
        strings, dates = self.strings, {str(d) for d in self.dates}
        for row, letters, style, kind, text, other in _TOKEN.findall(data):
            if row:
                if values is not None:
                    yield number, values
                at = _attrs(row[4:]).get("r")
                number = int(at) if at else last + 1
                if number <= last:
                    raise ValueError(f"row {number} out of order")
                for blank in range(last + 1, number):  # as openpyxl reads rows left out
                    yield blank, []
                last, values = number, []
                continue
            if values is None:
                raise ValueError("a cell outside a row")
            if letters:
                column = self._columns.get(letters)
                if column is None:
                    column = self._columns[letters] = _column(letters)
                value: Any
                if not text:
                    value = None
                elif kind == "s":  # the usual cells first, without a call each
                    value = strings[int(text)]
                elif not kind and style not in dates:
                    value = float(text) if "." in text or "e" in text or "E" in text \
                        else int(text)
                else:
                    value = self._value(kind or "n", style or None, text, None)
            else:
                attrs, _, inner = other[2:].partition(">")
                if attrs.endswith("/"):
                    attrs, inner = attrs[:-1], ""
                a = _attrs(attrs)
                ref = a.get("r")
                column = _column(ref) if ref else len(values)
                value = self._value(a.get("t", "n"), a.get("s"), None,
                                    inner.removesuffix("</c>"))
            if column < len(values):
                raise ValueError(f"a cell out of order in row {number}")
            if column > len(values):
                values.extend([None] * (column - len(values)))
            values.append(value)
        if values is not None:
            yield number, values

    def table(self, title: str, choose: Callable[[list], Collection[int]] | None = None
              ) -> Table | None:
        """The sheet's rows that hold a value, column by column, as `rows` reads them (each
        without its blank cells at the end, as `guards.trimmed` leaves it): the cells
        converted in one pass (dates a column at a time), then placed by column with numpy.
        `choose(header)`, given the first row's values (none when row 1 is blank), names
        the columns wanted: only those are converted and returned. None for a sheet with a
        cell this quick pass does not take (no reference, inline or rich text, text of
        spaces only): read it with `rows`. ValueError for cells or rows out of order."""
        xml = self.xml(title)
        begin = xml.find("<sheetData")
        data = xml[begin:xml.find("</sheetData>", begin)] if begin >= 0 else ""
        tokens = _TOKEN.findall(data)
        if any(map(_SIXTH, tokens)) or self._blank_strings():
            return None
        marks = list(map(_FIRST, tokens))  # each field by itemgetter: zip(*tokens) is slow
        letters = list(map(_SECOND, tokens))
        numbers, last = [], 0
        for mark in filter(None, marks):
            at = (mark[8:mark.find('"', 8)] if mark.startswith('<row r="')
                  else _attrs(mark[4:]).get("r"))
            number = int(at) if at else last + 1
            if number <= last:
                raise ValueError(f"row {number} out of order")
            numbers.append(number)
            last = number
        rows = np.array(list(itertools.accumulate(map(bool, marks))), np.int64) - 1
        if len(rows) and rows[0] < 0:  # each token's row, from 0
            raise ValueError("a cell outside a row")
        for found in set(letters) - set(self._columns):
            if found:
                self._columns[found] = _column(found)
        known = {**self._columns, "": -1}  # a row's start has no column
        columns = np.array([known[x] for x in letters], np.int64)
        cell = columns >= 0
        filled = cell & np.array(list(map(bool, map(_FIFTH, tokens))), bool)  # a value
        same_row = rows[1:] == rows[:-1]
        if (same_row & cell[1:] & cell[:-1] & (columns[1:] <= columns[:-1])).any():
            raise ValueError("a cell out of order")
        width = np.zeros(len(numbers), np.int64)
        np.maximum.at(width, rows[filled], columns[filled] + 1)
        cells = np.full(len(tokens), None, dtype=object)
        head = filled & (rows == 0) if numbers[:1] == [1] else np.zeros(len(tokens), bool)
        try:
            cells[head] = self._values(tokens, head)
            header = [None] * (int(width[0]) if head.any() else 0)
            for column, value in zip(columns[head].tolist(), cells[head].tolist()):
                header[column] = value
            wanted = filled & ~head
            if choose is not None:
                chosen = np.isin(columns, list(choose(header)))
                head &= chosen
                if set(map(_FOURTH, tokens)) <= _PLAIN_KINDS:  # no text of spaces only
                    wanted &= chosen  # elsewhere to look for: only these converted
            cells[wanted] = self._values(tokens, wanted)
        except _Unusual:
            return None
        kept = np.unique(rows[filled])
        if not len(kept):
            return Table([], [], last, {})
        at = np.searchsorted(kept, rows)
        inside = (head | (wanted & (chosen if choose is not None else True))) & (
            kept[np.minimum(at, len(kept) - 1)] == rows)
        out = {}
        for column in np.unique(columns[inside]).tolist():
            mine = inside & (columns == column)
            put = np.full(len(kept), None, dtype=object)
            put[at[mine]] = cells[mine]
            out[column] = put.tolist()
        return Table([numbers[i] for i in kept.tolist()], width[kept].tolist(), last, out)

    def _values(self, tokens: list[tuple], which: np.ndarray) -> list:
        """The values of the cells `which` marks (each one filled): text and numbers inline,
        dates a column at a time (`_dates`), the others through `_other`."""
        strings, dates = self.strings, {str(d) for d in self.dates}
        chosen = [tokens[i] for i in np.flatnonzero(which).tolist()]
        values = [strings[int(t)] if k == "s" else
                  (float(t) if "." in t or "e" in t or "E" in t else int(t))
                  if not k or k == "n" else self._other(k, y, t)
                  for _m, _x, y, k, t, _o in chosen]  # a date's day number, read below
        days = [i for i, (_m, _x, y, k, _t, _o) in enumerate(chosen)
                if (not k or k == "n") and y and y in dates]
        for i, day in zip(days, self._dates([values[i] for i in days])):
            values[i] = day
        return values

    def _dates(self, serials: list) -> list:
        """Spreadsheet day numbers as `from_excel` reads them (to the millisecond), a column
        at a time; those before day 60 or past 9999, one at a time."""
        found = np.array(serials, dtype=np.float64)
        if not len(found) or not ((found >= 60) & (found < 2_958_466)).all():
            return [from_excel(s, self.epoch) for s in serials]
        day, fraction = np.divmod(found, 1.0)
        ms = day.astype(np.int64) * 86_400_000 + np.round(fraction * 86400 * 1000).astype(
            np.int64)  # as from_excel: round(fraction * SECS_PER_DAY * 1000) milliseconds
        epoch = np.datetime64(self.epoch.replace(tzinfo=None), "ms")
        return (epoch + ms.astype("timedelta64[ms]")).astype(object).tolist()

    def _blank_strings(self) -> bool:
        """Whether a shared string is empty or spaces only (`guards.trimmed` would take it
        for a blank cell at the end of a row: `rows` reads such sheets)."""
        if not hasattr(self, "_blanks"):
            self._blanks = any(not s or s.isspace() for s in self.strings)
        return self._blanks

    def _other(self, kind: str, style: str, text: str) -> Any:
        """A cell `table` converts one by one (a date, Yes/No, a formula's text, an error);
        text of spaces only is left to `rows` (`_Unusual`)."""
        value = self._value(kind or "n", style or None, text, None)
        if isinstance(value, str) and (not value or value.isspace()):
            raise _Unusual
        return value

    def _value(self, kind: str, style: str | None, text: str | None,
               inner: str | None) -> Any:
        """A cell's value from its type, style and <v> text (or, `inner`, its content)."""
        if inner is not None:
            if kind == "inlineStr":
                return _string_text(inner)
            found = _V.search(inner)
            text = found.group(1) if found else None
        if not text:
            return None
        if kind == "s":
            return self.strings[int(text)]
        if kind == "n":
            number = float(text) if "." in text or "e" in text or "E" in text else int(text)
            if style is not None and int(style) in self.dates:
                return from_excel(number, self.epoch)
            return number
        if kind == "b":
            return bool(int(text))
        if kind == "d":
            return dt.datetime.fromisoformat(_unescape(text).removesuffix("Z"))
        return _unescape(text)  # str (a formula's text), e (an error such as #N/A)

    def close(self) -> None:
        self.archive.close()


class _Unusual(Exception):
    """A cell `Book.table` leaves to `Book.rows`."""


_FIRST, _SECOND, _FOURTH, _FIFTH, _SIXTH = map(operator.itemgetter, (0, 1, 3, 4, 5))
#: The cell types whose values are never text of spaces only (`Book.table` may skip them).
_PLAIN_KINDS = frozenset({"", "s", "n", "b"})


def _part(base: str, target: str) -> str:
    """A relationship's target as a part name inside the zip."""
    if target.startswith("/"):
        return target[1:]
    return posixpath.normpath(posixpath.join(posixpath.dirname(base), target))


def _date_styles(styles: str) -> set[int]:
    """The cell styles (indexes into cellXfs) whose number format shows a date or time."""
    custom = {int(a["numFmtId"]): _unescape(a.get("formatCode", ""))
              for a in map(_attrs, re.findall(r"<numFmt\b([^>]*)", styles))
              if "numFmtId" in a}
    xfs = re.search(r"<cellXfs\b[^>]*>(.*?)</cellXfs>", styles, re.S)
    dates = set()
    for index, attrs in enumerate(re.findall(r"<xf\b([^>]*)", xfs.group(1) if xfs else "")):
        fmt = int(_attrs(attrs).get("numFmtId", "0"))
        code = custom.get(fmt, BUILTIN_FORMATS.get(fmt))
        if code and is_date_format(code) and not re.search(r"\[h+\]", code, re.I):
            dates.add(index)
    return dates


def open_book(data: bytes) -> Book | None:
    """The workbook `data` (an .xlsx that passed the guards) for reading with patterns, or
    None when it is not laid out as this reader expects (namespace prefixes, CDATA): read
    it with openpyxl then."""
    archive = zipfile.ZipFile(io.BytesIO(data))
    try:
        names = set(archive.namelist())
        rels = _relationships(archive, "_rels/.rels")
        main = next((_part("", t) for t, kind in rels.values()
                     if kind.endswith("/officeDocument")), "xl/workbook.xml")
        book = archive.read(main).decode("utf-8")
        book_rels = _relationships(archive, posixpath.join(
            posixpath.dirname(main), "_rels", posixpath.basename(main) + ".rels"))
        parts = {}
        for attrs in re.findall(r"<sheet\b([^>]*)", book):
            a = _attrs(attrs)
            rid = next((v for k, v in a.items() if k.endswith(":id")), None)
            if rid in book_rels:
                parts[_unescape(a.get("name", ""))] = _part(main, book_rels[rid][0])
        by_kind = {kind.rsplit("/", 1)[-1]: _part(main, t) for t, kind in book_rels.values()}
        read = {p: archive.read(p).decode("utf-8") for p in parts.values() if p in names}
        texts = list(read.values())
        shared = by_kind.get("sharedStrings")
        sst = archive.read(shared).decode("utf-8") if shared in names else ""
        styles = by_kind.get("styles")
        style_xml = archive.read(styles).decode("utf-8") if styles in names else ""
        if not _plain([book, sst, style_xml, *texts]) or len(texts) != len(parts):
            archive.close()
            return None
        strings = [_string_text(other) if other else _unescape(simple) if "&" in simple
                   or "\r" in simple else simple for simple, other in _SI.findall(sst)]
        pr = re.search(r"<workbookPr\b([^>]*)", book)
        mac = pr and _attrs(pr.group(1)).get("date1904", "0").lower() in ("1", "true")
        return Book(archive, parts, strings, _date_styles(style_xml),
                    CALENDAR_MAC_1904 if mac else WINDOWS_EPOCH, recorded_language(archive),
                    read)
    except (KeyError, ValueError, IndexError, UnicodeDecodeError, zipfile.BadZipFile):
        archive.close()  # a part missing or not as expected: openpyxl reads it or says why
        return None


_LANGUAGE = re.compile(r"<(?:\w+:)?language\b[^>]*>([^<]{1,35})</(?:\w+:)?language>")


def recorded_language(archive: zipfile.ZipFile) -> str | None:
    """The language a workbook's core properties record (`<dc:language>`), as written there
    ("sv", "fr-FR"), or None."""
    rels = _relationships(archive, "_rels/.rels")
    core = next((_part("", t) for t, kind in rels.values()
                 if kind.endswith("/core-properties")), "docProps/core.xml")
    try:
        info = archive.getinfo(core)
        if info.file_size > 2**20:
            return None
        found = _LANGUAGE.search(archive.read(info).decode("utf-8", "replace"))
    except KeyError:
        return None
    return _unescape(found.group(1)).strip() or None if found else None


def _plain(texts: list[str]) -> bool:
    """XML this reader reads: elements without namespace prefixes, no CDATA, no comments."""
    for text in texts:
        if not text:
            continue
        head = text[:2000]
        root = re.search(r"<([A-Za-z_][\w.-]*)(:[\w.-]+)?[\s>]", head.split("?>", 1)[-1])
        if root is None or root.group(2) or "<![CDATA[" in text or "<!--" in text:
            return False
    return True


def _relationships(archive: zipfile.ZipFile, name: str) -> dict[str, tuple[str, str]]:
    """{id: (target, type)} of a relationships part ({} when there is none)."""
    try:
        xml = archive.read(name).decode("utf-8")
    except KeyError:
        return {}
    return {a["Id"]: (_unescape(a.get("Target", "")), a.get("Type", ""))
            for a in map(_attrs, re.findall(r"<Relationship\b([^>]*)", xml)) if "Id" in a}
