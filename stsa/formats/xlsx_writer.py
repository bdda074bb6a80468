"""A fast .xlsx writer for the tournament workbook (R19).

The largest tournament STSA holds (2,000 players × 12 sittings) is about a million cells.
openpyxl builds an object and an XML element for every cell, which takes many seconds; this
module writes the sheet XML as text. What it writes is what openpyxl's write-only mode wrote
(shared strings, a bold filled header, a frozen first row, a filter, column widths, dates with
their number format, text that looks like a formula marked as text), plus each sheet's size
(`<dimension>`) so a reader does not scan the whole sheet to find it. `xlsx_reader` reads it
back.
"""

from __future__ import annotations

import datetime as dt
import io
import operator
import zipfile
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.utils import get_column_letter
from openpyxl.utils.datetime import to_excel

from stsa.formats.csv import FORMULA_START

Sheet = tuple[list[str], list[list]]  # (headings, rows)
Step = Callable[[int, str], None]  # (index of the sheet, its title), before each sheet

TIME_FORMAT = "yyyy-mm-dd hh:mm:ss"
HEADER_FILL = "00DDE3EA"  # as openpyxl wrote "DDE3EA"
WIDTH_SAMPLE = 1000  # rows the column widths are measured on

# the cell styles of styles.xml, by index
PLAIN, HEADER, TIME, TEXT, HEADER_TEXT = range(5)
MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
DOC_RELS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PKG_RELS = "http://schemas.openxmlformats.org/package/2006/relationships"
SHEET_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"



# -- writing -------------------------------------------------------------------------------------
def _text(value: str) -> str:
    """Text as the XML of a shared string's <t>: illegal characters replaced, spaces kept
    (as openpyxl wrote it: a reader takes a carriage return for a line feed)."""
    if ILLEGAL_CHARACTERS_RE.search(value):
        value = ILLEGAL_CHARACTERS_RE.sub("\ufffd", value)
    body = escape(value)
    if value != value.strip():
        return f'<t xml:space="preserve">{body}</t>'
    return f"<t>{body}</t>"


def _widths(headings: list[str], rows: list[list]) -> list[float]:
    """Column widths from the header and the first rows; times as wide as their format."""
    sample = rows[:WIDTH_SAMPLE]
    widths: list[float] = []
    for index, heading in enumerate(headings):
        values = [r[index] for r in sample if index < len(r) and r[index] is not None]
        width = max([len(heading)] + [len(v if isinstance(v, str) else str(v)) for v in values])
        if any(isinstance(v, dt.datetime) for v in values):
            width = len(TIME_FORMAT)
        widths.append(min(max(width + 2, 8), 60))
    return widths


class _Strings:
    """The shared strings table: each distinct text once, cells refer to it by index."""

    def __init__(self) -> None:
        self.index: dict[str, int] = {}

    def __call__(self, value: str) -> int:
        found = self.index.get(value)
        if found is None:
            found = self.index[value] = len(self.index)
        return found

    def xml(self) -> str:
        return (f'<sst xmlns="{MAIN}" count="{len(self.index)}" '
                f'uniqueCount="{len(self.index)}">'
                + "".join(f"<si>{_text(s)}</si>" for s in self.index) + "</sst>")


def _cell(letter: str, number: int, value: Any, strings: _Strings, text_style: int,
          plain_style: int) -> str:
    """One cell's <c> element: text as a shared string (formula-like text marked as text), a
    number, a Yes/No boolean or a date with the time format; "" for a blank."""
    if value is None or value == "":  # openpyxl too wrote no value for empty text
        return ""
    kind = type(value)
    if kind is str:
        style = text_style if value.startswith(FORMULA_START) else plain_style
        s = f' s="{style}"' if style else ""
        return f'<c r="{letter}{number}"{s} t="s"><v>{strings(value)}</v></c>'
    if kind is int or kind is float:
        return f'<c r="{letter}{number}"><v>{value!r}</v></c>'
    if kind is bool:
        return f'<c r="{letter}{number}" t="b"><v>{int(value)}</v></c>'
    if isinstance(value, (dt.datetime, dt.date)):
        return f'<c r="{letter}{number}" s="{TIME}"><v>{to_excel(value)!r}</v></c>'
    if isinstance(value, (int, float)):  # subclasses (numpy's are unwrapped before)
        return f'<c r="{letter}{number}"><v>{float(value)!r}</v></c>'
    text = str(value)
    style = text_style if text.startswith(FORMULA_START) else plain_style
    s = f' s="{style}"' if style else ""
    return f'<c r="{letter}{number}"{s} t="s"><v>{strings(text)}</v></c>'


def _column_cells(letter: str, values: list, strings: _Strings) -> list[str]:
    """A data column's <c> elements, one per row from row 2 ("" for a blank): plain text and
    numbers written inline, everything else by `_cell`."""
    kinds = set(map(type, values))
    if kinds <= _NUMBERS:  # whole numbers (and blanks): nothing to look at per cell
        return ["" if v is None else f'<c r="{letter}{n}"><v>{v}</v></c>'
                for n, v in enumerate(values, start=2)]
    texts = [v for v in values if v is not None] if kinds <= _TEXTS else None
    if texts is not None and all(texts) and not any(map(_IS_FORMULA, texts)):
        index = strings.index
        for text in [t for t in dict.fromkeys(texts) if t not in index]:  # not shared yet
            strings(text)
        return ["" if v is None else f'<c r="{letter}{n}" t="s"><v>{index[v]}</v></c>'
                for n, v in enumerate(values, start=2)]
    index, add, formula = strings.index, strings, _FORMULA_FIRST
    return [f'<c r="{letter}{n}" t="s"><v>{i if (i := index.get(v)) is not None else add(v)}'
            '</v></c>' if type(v) is str and v and v[0] not in formula else
            f'<c r="{letter}{n}"><v>{v}</v></c>' if type(v) is int else
            _cell(letter, n, v, strings, TEXT, PLAIN)
            for n, v in enumerate(values, start=2)]


#: The first characters of text a spreadsheet takes for a formula (`FORMULA_START`).
_FORMULA_FIRST = frozenset(FORMULA_START)
_IS_FORMULA = operator.methodcaller("startswith", FORMULA_START)
_NUMBERS, _TEXTS = frozenset({int, type(None)}), frozenset({str, type(None)})


def _sheet_xml(headings: list[str], rows: list[list], strings: _Strings) -> Iterator[str]:
    """A worksheet's XML in pieces: its size, the frozen header, widths, the cells (written
    a column at a time), the filter."""
    columns = max(len(headings), max((len(r) for r in rows), default=0), 1)
    letters = [get_column_letter(i + 1) for i in range(columns)]
    last = f"{letters[max(len(headings), 1) - 1]}{len(rows) + 1}"
    used = f"{letters[-1]}{len(rows) + 1}"
    yield (f'<worksheet xmlns="{MAIN}" xmlns:r="{DOC_RELS}">'
           f'<dimension ref="{"A1" if used == "A1" else "A1:" + used}"/>'
           '<sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" '
           'activePane="bottomLeft" state="frozen"/><selection pane="bottomLeft" '
           'activeCell="A2" sqref="A2"/></sheetView></sheetViews>'
           '<sheetFormatPr defaultRowHeight="15"/>')
    if headings:
        yield "<cols>" + "".join(f'<col min="{i}" max="{i}" width="{w}" customWidth="1"/>'
                                 for i, w in enumerate(_widths(headings, rows), start=1))
        yield "</cols>"
    yield "<sheetData>"
    yield ('<row r="1">' + "".join(_cell(x, 1, h, strings, HEADER_TEXT, HEADER)
                                   for x, h in zip(letters, headings)) + "</row>")
    width = max((len(r) for r in rows), default=0)
    even = all(len(r) == width for r in rows)  # the usual sheet: each column by itemgetter
    cells = [_column_cells(letters[j], list(map(operator.itemgetter(j), rows)) if even else
                           [r[j] if j < len(r) else None for r in rows], strings)
             for j in range(width)]
    for start in range(0, len(rows), 2000):
        yield "".join(f'<row r="{n}">{"".join(row)}</row>' for n, row in enumerate(
            zip(*(c[start:start + 2000] for c in cells)) if cells else ([] for _x in range(
                min(2000, len(rows) - start))), start=start + 2))
    yield f'</sheetData><autoFilter ref="A1:{last}"/></worksheet>'


STYLES = (
    f'<styleSheet xmlns="{MAIN}">'
    f'<numFmts count="1"><numFmt numFmtId="164" formatCode="{TIME_FORMAT}"/></numFmts>'
    '<fonts count="2"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font>'
    '<font><b val="1"/><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts>'
    '<fills count="3"><fill><patternFill/></fill><fill><patternFill patternType="gray125"/>'
    f'</fill><fill><patternFill patternType="solid"><fgColor rgb="{HEADER_FILL}"/>'
    '</patternFill></fill></fills>'
    '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>'
    '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/>'
    '</cellStyleXfs><cellXfs count="5">'
    '<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>'
    '<xf numFmtId="0" fontId="1" fillId="2" borderId="0" xfId="0" applyFont="1" '
    'applyFill="1" applyAlignment="1"><alignment vertical="top"/></xf>'
    '<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>'
    '<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0" quotePrefix="1"/>'
    '<xf numFmtId="0" fontId="1" fillId="2" borderId="0" xfId="0" applyFont="1" '
    'applyFill="1" applyAlignment="1" quotePrefix="1"><alignment vertical="top"/></xf>'
    '</cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/>'
    '</cellStyles></styleSheet>')


def _package(titles: list[str], creator: str, created: dt.datetime,
             language: str | None = None) -> dict[str, str]:
    """The parts around the sheets: content types, relationships, the workbook, properties."""
    sheets = range(1, len(titles) + 1)
    types = ('<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
             '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.'
             'relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>'
             '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.'
             'openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
             + "".join(f'<Override PartName="/xl/worksheets/sheet{i}.xml" '
                       f'ContentType="{SHEET_TYPE}"/>' for i in sheets)
             + '<Override PartName="/xl/styles.xml" ContentType="application/vnd.'
             'openxmlformats-officedocument.spreadsheetml.styles+xml"/>'
             '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.'
             'openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>'
             '<Override PartName="/docProps/core.xml" ContentType="application/vnd.'
             'openxmlformats-package.core-properties+xml"/>'
             '<Override PartName="/docProps/app.xml" ContentType="application/vnd.'
             'openxmlformats-officedocument.extended-properties+xml"/></Types>')
    when = created.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    return {
        "[Content_Types].xml": types,
        "_rels/.rels": (
            f'<Relationships xmlns="{PKG_RELS}">'
            f'<Relationship Id="rId1" Type="{DOC_RELS}/officeDocument" '
            'Target="xl/workbook.xml"/>'
            '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/'
            'relationships/metadata/core-properties" Target="docProps/core.xml"/>'
            f'<Relationship Id="rId3" Type="{DOC_RELS}/extended-properties" '
            'Target="docProps/app.xml"/></Relationships>'),
        "docProps/app.xml": (
            '<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/'
            'extended-properties"><Application>STSA</Application></Properties>'),
        "docProps/core.xml": (
            '<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/'
            'metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/" '
            'xmlns:dcterms="http://purl.org/dc/terms/" '
            'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">'
            f"<dc:creator>{escape(creator)}</dc:creator>"
            + (f"<dc:language>{escape(language)}</dc:language>" if language else "") +
            f'<dcterms:created xsi:type="dcterms:W3CDTF">{when}</dcterms:created>'
            f'<dcterms:modified xsi:type="dcterms:W3CDTF">{when}</dcterms:modified>'
            "</cp:coreProperties>"),
        "xl/workbook.xml": (
            f'<workbook xmlns="{MAIN}" xmlns:r="{DOC_RELS}"><bookViews><workbookView/>'
            "</bookViews><sheets>"
            + "".join(f'<sheet name={quoteattr(t)} sheetId="{i}" r:id="rId{i}"/>'
                      for i, t in zip(sheets, titles))
            + "</sheets></workbook>"),
        "xl/_rels/workbook.xml.rels": (
            f'<Relationships xmlns="{PKG_RELS}">'
            + "".join(f'<Relationship Id="rId{i}" Type="{DOC_RELS}/worksheet" '
                      f'Target="worksheets/sheet{i}.xml"/>' for i in sheets)
            + f'<Relationship Id="rId{len(titles) + 1}" Type="{DOC_RELS}/styles" '
              'Target="styles.xml"/>'
              f'<Relationship Id="rId{len(titles) + 2}" Type="{DOC_RELS}/sharedStrings" '
              'Target="sharedStrings.xml"/></Relationships>'),
        "xl/styles.xml": STYLES,
    }


def write(sheets: Mapping[str, Sheet], *, creator: str = "STSA",
          step: Step | None = None, language: str | None = None) -> bytes:
    """An .xlsx with one sheet per item of {title: (headings, rows)}, in order: a bold,
    filled, frozen header row with a filter, widths from the content, text as shared strings
    (text a spreadsheet would take for a formula marked as text), whole numbers and decimals
    as numbers, dates and times in `TIME_FORMAT`. `step(index, title)` is called before each
    sheet is written. `language` (a code such as "sv") is recorded in the file's properties
    (`Book.language` reads it back)."""
    strings = _Strings()
    out = io.BytesIO()
    # level 1: a fraction of the time of the default level, for a file about a fifth larger.
    # Each sheet is compressed by a second thread while the next one is written (zlib lets
    # Python run meanwhile); one part at a time goes into the zip, in order.
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as archive, \
            ThreadPoolExecutor(max_workers=1) as packer:
        packed: Future | None = None
        for index, (title, (headings, rows)) in enumerate(sheets.items()):
            if step:
                step(index, title)
            xml = "".join(_sheet_xml(list(headings), rows, strings)).encode("utf-8")
            if packed is not None:
                packed.result()
            packed = packer.submit(archive.writestr, f"xl/worksheets/sheet{index + 1}.xml", xml)
        if packed is not None:
            packed.result()
        archive.writestr("xl/sharedStrings.xml", strings.xml())
        for name, text in _package(list(sheets), creator, dt.datetime.now(dt.UTC),
                                   language).items():
            archive.writestr(name, text)
    return out.getvalue()
