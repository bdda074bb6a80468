"""The quick workbook writer and reader (`stsa.formats.xlsx_writer`, `xlsx_reader`): the same
workbook as openpyxl wrote, cell by cell and style by style; read back as openpyxl reads it; a
round trip gives the same tournament; progress is reported per sheet, writing and restoring
(R19)."""

import datetime as dt
import functools
import io
import random
import zipfile

import openpyxl
import pandas as pd
import pytest
from openpyxl.cell import WriteOnlyCell
from openpyxl.styles import Alignment
from openpyxl.utils import get_column_letter
from openpyxl.utils.datetime import from_excel

from stsa import excel, i18n, store
from stsa.auth import Actor, Role
from stsa.formats import (
    workbook_reader,
    workbook_sheets,
    workbook_writer,
    xlsx_reader,
    xlsx_writer,
)
from stsa.formats.csv import looks_like_formula
from stsa.formats.guards import trimmed
from stsa.services import exports, restore

ORGANIZER = Actor("Olivia", Role.ORGANIZER)
HOSTILE = ["=1+1", "+46 70", "-2", "@SUM(A1)", " padded ", "a & b < c > d", "\x01bell"]


def openpyxl_workbook(sheets) -> bytes:
    """The workbook as the earlier writer made it, with openpyxl's write-only mode."""
    wb = openpyxl.Workbook(write_only=True)
    for title, (headings, rows) in sheets.items():
        ws = wb.create_sheet(title)
        for index, width in enumerate(xlsx_writer._widths(headings, rows), start=1):
            ws.column_dimensions[get_column_letter(index)].width = width
        ws.freeze_panes = "A2"
        ws.auto_filter.ref = f"A1:{get_column_letter(max(len(headings), 1))}{len(rows) + 1}"

        def cell(value, header=False, ws=ws):
            if isinstance(value, str):
                value = xlsx_writer.ILLEGAL_CHARACTERS_RE.sub("\ufffd", value)
            c = WriteOnlyCell(ws, value=value)
            if isinstance(value, str):
                if looks_like_formula(value):
                    c.data_type, c.quotePrefix = "s", True
            if isinstance(value, dt.datetime):
                c.number_format = workbook_writer.TIME_FORMAT
            if header:
                c.font, c.fill = workbook_writer.HEADER_FONT, workbook_writer.HEADER_FILL
                c.alignment = Alignment(vertical="top")
            return c
        ws.append([cell(h, header=True) for h in headings])
        for row in rows:
            ws.append([cell(v) for v in row])
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def cells(data: bytes) -> dict[str, dict]:
    """Every sheet as openpyxl reads it: its frozen pane, filter, widths and each cell's value,
    kind, number format, bold, fill and text mark."""
    wb = openpyxl.load_workbook(io.BytesIO(data))
    return {ws.title: {
        "freeze": ws.freeze_panes, "filter": ws.auto_filter.ref,
        "widths": {k: d.width for k, d in ws.column_dimensions.items()},
        "cells": [[(c.value, c.value is not None and c.data_type, c.number_format, bool(c.font.b),
                    c.fill.fgColor.rgb if c.fill.fill_type else None, bool(c.quotePrefix))
                   for c in row] for row in ws.iter_rows()]} for ws in wb}


def sheets_of(engine) -> dict:
    """The sheets `tournament_workbook` writes for `engine`, without writing them."""
    made = {}
    real = workbook_writer.write_workbook
    workbook_writer.write_workbook = lambda sheets, **_: made.update(sheets) or b""
    try:
        exports.tournament_workbook(engine)
    finally:
        workbook_writer.write_workbook = real
    return made


def with_hostile_text(sheets: dict) -> dict:
    heads, rows = sheets["Players"]
    extra = [[t, *([None] * (len(heads) - 1))] for t in HOSTILE]
    return {**sheets, "Players": (heads, rows + extra), "Odd": (["=head", "n"], [
        [True, 1.5], [None, 2**40], ["x", dt.datetime(2026, 3, 7, 9, 41, 5, 123000)]])}


@pytest.mark.slow
def test_the_quick_writer_writes_what_openpyxl_wrote(demo_copy):
    sheets = with_hostile_text(sheets_of(demo_copy(sittings=2)))
    assert cells(workbook_writer.write_workbook(sheets)) == cells(openpyxl_workbook(sheets))


def test_each_sheet_says_its_size():
    data = workbook_writer.write_workbook({"A": (["x", "y"], [[1, 2], [3, None]]),
                                           "Empty": ([], [])})
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        first = archive.read("xl/worksheets/sheet1.xml").decode()
        empty = archive.read("xl/worksheets/sheet2.xml").decode()
    assert '<dimension ref="A1:B3"/>' in first and '<dimension ref="A1"/>' in empty
    assert openpyxl.load_workbook(io.BytesIO(data), read_only=True)["A"].max_row == 3


def parsed(data: bytes, monkeypatch, *, quick: bool) -> dict[str, pd.DataFrame]:
    with monkeypatch.context() as m:
        if not quick:
            m.setattr(xlsx_reader, "open_book", lambda _data: None)
        return workbook_reader.parse_workbook(data).tables


@pytest.mark.slow
def test_the_quick_reader_reads_what_openpyxl_reads(demo_copy, monkeypatch):
    data = excel.tournament_workbook(demo_copy(sittings=2))
    again = openpyxl.load_workbook(io.BytesIO(data))  # saved by openpyxl: other cell layouts
    again["Players"].cell(3, 3).value = "A club & co <3"
    out = io.BytesIO()
    again.save(out)
    for file in (data, out.getvalue()):
        quick, slow = parsed(file, monkeypatch, quick=True), parsed(file, monkeypatch,
                                                                    quick=False)
        assert list(quick) == list(slow)
        for table in slow:
            pd.testing.assert_frame_equal(quick[table], slow[table])


def test_inline_strings_cells_without_references_and_gaps():
    sheet = ('<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
             '<sheetData><row r="1"><c t="inlineStr"><is><t>Name</t></is></c>'
             '<c t="inlineStr"><is><r><t>Ni</t></r><r><t xml:space="preserve">ck </t></r>'
             '</is></c></row><row r="3"><c r="B3" t="b"><v>1</v></c><c r="D3"><f>1+1</f>'
             '<v>2</v></c><c r="E3" t="str"><v>a &amp; b</v></c></row></sheetData>'
             '</worksheet>')
    data = workbook_writer.write_workbook({"S": (["x"], [])})
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w") as dst:
        for item in src.infolist():
            dst.writestr(item, sheet if item.filename.endswith("sheet1.xml")
                         else src.read(item))
    book = xlsx_reader.open_book(out.getvalue())
    assert book is not None
    assert list(book.rows("S")) == [(1, ["Name", "Nick "]), (2, []),
                                    (3, [None, True, None, 2, "a & b"])]
    slow = openpyxl.load_workbook(io.BytesIO(out.getvalue()), read_only=True, data_only=True)
    assert [trimmed(list(r)) for r in slow["S"].iter_rows(values_only=True)] == [
        values for _, values in book.rows("S")]


def test_a_prefixed_workbook_is_left_to_openpyxl():
    data = workbook_writer.write_workbook({"S": (["x"], [[1]])})
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w") as dst:
        for item in src.infolist():
            text = src.read(item)
            if item.filename.endswith("sheet1.xml"):
                text = (text.replace(b"<", b"<x:").replace(b"<x:/", b"</x:")
                        .replace(b'xmlns="', b'xmlns:x="'))
            dst.writestr(item, text)
    assert xlsx_reader.open_book(out.getvalue()) is None


def to_the_millisecond(frame: pd.DataFrame) -> pd.DataFrame:
    """Times as a workbook keeps them (whole milliseconds)."""
    times = frame.select_dtypes("datetimetz").columns
    return frame.assign(**{c: frame[c].dt.floor("ms") for c in times})


@pytest.mark.slow
def test_write_then_restore_gives_the_same_tournament(demo_copy, sqlite_engine):
    original = demo_copy(sittings=2)
    excel.restore_workbook(sqlite_engine, excel.tournament_workbook(original), actor=ORGANIZER)
    for read in (store.players, lambda e: store.results(e, None),
                 lambda e: store.tables(e, actor=ORGANIZER),
                 lambda e: store.seats(e, actor=ORGANIZER),
                 lambda e: store.sittings(e, actor=ORGANIZER), store.settings):
        a, b = read(original), read(sqlite_engine)
        if isinstance(a, pd.DataFrame):
            pd.testing.assert_frame_equal(to_the_millisecond(a), to_the_millisecond(b))
        else:
            assert a == b


def test_writing_reports_progress_per_sheet(demo_copy):
    calls: list[tuple[float, str]] = []
    data = exports.tournament_workbook(demo_copy(sittings=2),
                                       progress=lambda f, words: calls.append((f, words)))
    titles = openpyxl.load_workbook(io.BytesIO(data), read_only=True).sheetnames
    fractions = [f for f, _ in calls]
    assert fractions == sorted(fractions) and len(set(fractions)) == len(fractions)
    assert fractions[0] == 0.0 and fractions[-1] == 1.0
    assert [w for _, w in calls if w.startswith("Writing ")] == [
        f"Writing the {t} sheet…" for t in titles]


@pytest.mark.slow
def test_restoring_reports_each_sheet_read(demo_copy, sqlite_engine):
    calls: list[str] = []
    excel.restore_workbook(sqlite_engine, excel.tournament_workbook(demo_copy(sittings=2)),
                           actor=ORGANIZER, progress=lambda _f, words: calls.append(words))
    assert [w for w in calls if w.startswith("Reading the ") and w.endswith(" sheet…")] == [
        f"Reading the {t} sheet…" for t in workbook_sheets.SHEET_OF.values()]


def with_sheet(xml: str, strings: list[str] | None = None) -> bytes:
    """A workbook of one sheet "S" whose sheet XML is `xml` (and shared strings)."""
    data = workbook_writer.write_workbook({"S": (["x"], [])})
    out = io.BytesIO()
    sst = ('<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
           + "".join(f"<si><t>{s}</t></si>" for s in strings or []) + "</sst>")
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w") as dst:
        for item in src.infolist():
            dst.writestr(item, xml if item.filename.endswith("sheet1.xml") else
                         sst if item.filename.endswith("sharedStrings.xml") else src.read(item))
    return out.getvalue()


def by_rows(book: xlsx_reader.Book, title: str) -> tuple[list, list, list]:
    """What `Book.table` gives, made from `Book.rows`: the filled rows' numbers, widths and
    columns."""
    rows = [(n, trimmed(v)) for n, v in book.rows(title)]
    filled = [(n, v) for n, v in rows if v]
    width = max((len(v) for _n, v in filled), default=0)
    return ([n for n, _v in filled], [len(v) for _n, v in filled],
            [[v[j] if j < len(v) else None for _n, v in filled] for j in range(width)])


def test_reading_by_column_gives_what_reading_by_row_gives(demo_copy):
    """The quick pass a restore reads sheets with (`Book.table`) against `Book.rows`: rows
    left out, a header that is not there, blank and styled empty cells, dates by their
    style, Yes/No, a formula's text and an error, and every sheet of a real workbook."""
    sheet = ('<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
             '<sheetData><row r="2"><c r="B2" t="s"><v>0</v></c><c r="D2"><v>7</v></c></row>'
             '<row r="3"><c r="A3" s="2"/><c r="C3"/></row>'
             '<row r="5" spans="1:6"><c r="A5" t="b"><v>1</v></c><c r="B5" s="2">'
             '<v>46088.40625</v></c><c r="C5" t="str"><v>a &amp; b</v></c>'
             '<c r="E5" t="e"><v>#N/A</v></c><c r="F5"><v>2.5</v></c></row>'
             '<row><c r="C6" t="s"><v>1</v></c></row></sheetData></worksheet>')
    book = xlsx_reader.open_book(with_sheet(sheet, ["Name", "Nick &amp; co"]))
    table = book.table("S")
    numbers, widths, columns = by_rows(book, "S")
    assert (table.numbers, table.widths, table.last) == (numbers, widths, 6) == (
        [2, 5, 6], [4, 6, 3], 6)
    assert [table.columns.get(j, [None] * 3) for j in range(6)] == columns
    assert columns[1] == ["Name", dt.datetime(2026, 3, 7, 9, 45), None]
    real = xlsx_reader.open_book(excel.tournament_workbook(demo_copy(sittings=2)))
    for title in real.sheetnames:
        table = real.table(title)
        numbers, widths, columns = by_rows(real, title)
        assert (table.numbers, table.widths) == (numbers, widths)
        assert [table.columns.get(j, [None] * len(numbers)) for j in range(len(columns))] \
            == columns
        headers: list[list] = []  # only the columns chosen from the header are read
        some = real.table(title, functools.partial(first_and_third, headers))
        assert headers == [[c[0] for c in columns][:widths[0]]]
        assert set(some.columns) == {0, 2} & set(range(len(columns)))
        assert all(some.columns[j] == columns[j] for j in some.columns)


def first_and_third(headers: list, header: list) -> set[int]:
    """A `Book.table` chooser: notes the header it is given, takes columns 0 and 2."""
    headers.append(header)
    return {0, 2}


def test_dates_read_a_column_at_a_time_as_one_by_one():
    """Day numbers as openpyxl's `from_excel` reads them, to the millisecond (the halves
    of a millisecond too), whichever way `Book.table` reads them."""
    book = xlsx_reader.open_book(workbook_writer.write_workbook({"S": (["x"], [])}))
    rng = random.Random(7)
    serials = [46088 + rng.random() for _ in range(2000)] + [
        46088 + (n + 0.5) / 86_400_000 for n in range(0, 86_400_000, 4_321_000)] + [
        60, 61.25, 2_958_465.999]
    assert book._dates(serials) == [from_excel(s) for s in serials]
    assert book._dates([0.5, 59, 46088]) == [from_excel(s) for s in (0.5, 59, 46088)]


def test_cells_the_quick_pass_does_not_take_are_read_by_row():
    inline = ('<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
              '<sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>x</t></is></c></row>'
              '</sheetData></worksheet>')
    assert xlsx_reader.open_book(with_sheet(inline)).table("S") is None
    spaces = ('<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
              '<sheetData><row r="1"><c r="A1" t="s"><v>0</v></c></row></sheetData>'
              '</worksheet>')
    assert xlsx_reader.open_book(with_sheet(spaces, ["  "])).table("S") is None
    disorder = spaces.replace('<row r="1">', '<row r="2"><c r="B2"><v>1</v></c>'
                                             '<c r="A2"><v>2</v></c></row><row r="3">')
    with pytest.raises(ValueError):
        xlsx_reader.open_book(with_sheet(disorder, ["x"])).table("S")


@pytest.mark.slow
def test_a_restore_as_a_new_tournament_reads_the_workbook_once(demo_copy, sqlite_engine,
                                                                monkeypatch):
    """The Data page's restore (R19, R27): the file is read once, for its tournament's name
    and its rows, and the organizer is told each step, rising to 1.0."""
    source = demo_copy(sittings=2)
    store.set_settings(source, {"tournament_name": "Spring Open"}, actor=ORGANIZER)
    content = excel.tournament_workbook(source)
    reads = []
    real = workbook_reader.parse_workbook
    monkeypatch.setattr(workbook_reader, "parse_workbook",
                        lambda *a, **k: reads.append(1) or real(*a, **k))
    told: list[tuple[float, str]] = []
    made, name, outcome = restore.restore_workbook_as_new(
        sqlite_engine, content, actor=ORGANIZER, progress=lambda f, w: told.append((f, w)))
    assert reads == [1] and name == "Spring Open" and outcome["results"] > 0
    fractions = [f for f, _w in told]
    assert fractions == sorted(fractions) and fractions[0] == 0.0 and fractions[-1] == 1.0
    assert [w for _f, w in told][-3:] == [
        "Checking the rows once more before saving…",
        f"Saving {sum(outcome.rows.values())} rows…", "Restored."]
    restored = store.open_tournament(sqlite_engine, made)
    try:
        assert store.settings(restored)["tournament_name"] == "Spring Open"
        assert len(store.results(restored)) == outcome["results"]
    finally:
        restored.dispose()


@pytest.mark.slow
@pytest.mark.parametrize("code, first, checking, saving, last", [
    ("sv", "Läser arbetsboken…", "Kontrollerar raderna en gång till innan de sparas…",
     "Sparar {count} rader…", "Återställd."),
    ("fr", "Lecture du classeur…", "Nouvelle vérification des lignes avant l’enregistrement…",
     "Enregistrement de {count} lignes…", "Restauré.")])
def test_a_restore_tells_its_steps_in_the_readers_language(demo_copy, sqlite_engine, code,
                                                            first, checking, saving, last):
    content = excel.tournament_workbook(demo_copy(sittings=2))
    told: list[tuple[float, str]] = []
    with i18n.language(code):
        outcome = excel.restore_workbook(sqlite_engine, content, actor=ORGANIZER,
                                         progress=lambda f, w: told.append((f, w)))
    words = [w for _f, w in told]
    with i18n.language(code):
        count = i18n.number(sum(outcome.rows.values()))
    assert words[0] == first and words[-3:] == [checking, saving.format(count=count), last]
    assert [f for f, _w in told] == sorted(f for f, _w in told)
