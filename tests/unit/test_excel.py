"""Spreadsheets in and out: roster import (encodings, delimiters, headings, every bad row named),
hostile files refused quickly within bounded memory, the template, the tournament workbook
(styled, formula-safe) and CSVs, and restoring a tournament from its workbook (R19, R20)."""

import csv
import datetime as dt
import io
import random
import re
import tracemalloc
import zipfile

import openpyxl
import pandas as pd
import pytest
from defusedxml import DefusedXmlException

from stsa import excel, store, tournament
from stsa.auth import Actor, Role
from stsa.errors import TournamentError
from stsa.formats import csv as csv_format
from stsa.formats import workbook_reader, workbook_writer

ORGANIZER = Actor("Olivia", Role.ORGANIZER)
JUDGE = Actor("Jamal", Role.JUDGE)


@pytest.fixture
def engine(sqlite_engine):
    return sqlite_engine


@pytest.fixture
def demo_engine(demo_copy):
    return demo_copy()


def xlsx(rows, title="Sheet1") -> bytes:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = title
    for row in rows:
        ws.append(row)
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def patched(data: bytes, replace: dict[str, bytes] | None = None,
            add: dict[str, bytes] | None = None, compression=zipfile.ZIP_DEFLATED) -> bytes:
    """A copy of an .xlsx with some parts replaced or added (hostile files are made so)."""
    replace, add = replace or {}, add or {}
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w", compression) as dst:
        for info in src.infolist():
            dst.writestr(info.filename, replace.get(info.filename, src.read(info)))
        for name, body in add.items():
            dst.writestr(name, body)
    return out.getvalue()


SHEET = "xl/worksheets/sheet1.xml"
NS = b'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'


def sheet_xml(body: bytes, dimension: bytes = b"") -> bytes:
    dim = b'<dimension ref="' + dimension + b'"/>' if dimension else b""
    return (b'<?xml version="1.0" encoding="UTF-8"?><worksheet ' + NS + b">" + dim +
            b"<sheetData>" + body + b"</sheetData></worksheet>")


def refused(source, match: str, *, megabytes: int = 80):
    """read_roster must refuse `source` with a RosterError matching `match`, within bounded
    memory (Python allocations, measured with tracemalloc). How fast is `make bench`'s."""
    tracemalloc.start()
    try:
        with pytest.raises(excel.RosterError, match=match) as info:
            excel.read_roster(source)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < megabytes * 2**20, f"peak {peak / 2**20:.0f} MB"
    return info.value


# -- roster: formats, encodings, delimiters, headings ---------------------------------------------
@pytest.mark.parametrize("encoding,delimiter", [
    ("utf-8", ","), ("utf-8-sig", ";"), ("cp1252", "\t"), ("utf-8", ";"), ("cp1252", ","),
    ("utf-16", "\t"),
])
def test_csv_encodings_and_delimiters(encoding, delimiter):
    rows = [["Name", "Club", "City"], ["Åsa Öberg", "Göteborg Spelklubb", "Göteborg"],
            ["José Martínez", "Café, Club", "Málaga"], ["Zoë Ångström", "", ""]]
    out = io.StringIO()
    csv.writer(out, delimiter=delimiter, lineterminator="\r\n").writerows(rows)
    frame = excel.read_roster(out.getvalue().encode(encoding))
    assert frame["name"].tolist() == ["Åsa Öberg", "José Martínez", "Zoë Ångström"]
    assert frame["club"].tolist() == ["Göteborg Spelklubb", "Café, Club", ""]
    assert frame["city"].tolist() == ["Göteborg", "Málaga", ""]
    assert frame["row"].tolist() == [2, 3, 4]
    assert list(frame.columns) == ["name", "nickname", "club", "city", "email", "player_id",
                                   "registered", "row"]
    assert frame["nickname"].tolist() == ["", "", ""]  # no column: each player's name
    assert frame["registered"].isna().all()  # R21: no registration times: row order


def test_names_are_cleaned_nfc_trimmed_and_collapsed():
    decomposed = "Jose\u0301  \u00a0Marti\u0301nez"  # NFD accents, a no-break space
    frame = excel.read_roster(f"Player name\n  {decomposed}  \nAnn    Lee\n".encode())
    assert frame["name"].tolist() == ["José Martínez", "Ann Lee"]
    assert frame["name"].iloc[0] == "Jos\u00e9 Mart\u00ednez"


@pytest.mark.parametrize("header,field", [
    (["Namn", "Klubb", "Stad", "E-post"], None), (["Spelare", "Klubb", "Ort", "Epost"], None),
    (["PLAYER", "club", "city", "e-mail"], None), (["Nombre", "Club", "Ciudad", "Email"], None),
    (["Player Name", "Team", "Town", "Email address"], None),
])
def test_common_headings(header, field):
    frame = excel.read_roster(xlsx([header, ["Ann Lee", "Arrakis", "Umeå", "ann@x.se"]]))
    assert frame.iloc[0][["name", "club", "city", "email"]].tolist() == [
        "Ann Lee", "Arrakis", "Umeå", "ann@x.se"]


def test_title_rows_first_and_last_names_player_id_and_row_numbers():
    rows = [["Swordmasters Open 2026"], [], ["First name", "Last name", "Player ID", "Notes"],
            ["Ann", "Lee", 1234, "paid"], [None, None, None, None], ["Bo", "Ek", 77.0, ""]]
    frame = excel.read_roster(xlsx(rows))
    assert frame["name"].tolist() == ["Ann Lee", "Bo Ek"]
    assert frame["player_id"].tolist() == ["1234", "77"]
    assert frame["row"].tolist() == [4, 6]  # as the spreadsheet shows them


def test_sources_path_bytes_file_like_and_uploaded_file(tmp_path):
    data = xlsx([["Name"], ["Ann Lee"]])
    path = tmp_path / "roster.xlsx"
    path.write_bytes(data)

    class Uploaded(io.BytesIO):  # like Streamlit's UploadedFile
        name, size = "roster.xlsx", len(data)

    upload = Uploaded(data)
    upload.read()  # a page may have read it already
    for source in (path, str(path), data, io.BytesIO(data), upload):
        assert excel.read_roster(source)["name"].tolist() == ["Ann Lee"]
    assert upload.tell() == 0


def test_every_bad_row_is_named_in_one_error():
    rows = [["Name", "Club", "Email"],
            ["Ann Lee", "", ""],            # 2 ok
            ["", "Orphan club", ""],        # 3 no name
            ["", "", ""],                   # 4 blank: skipped
            ["  ann   LEE ", "", ""],       # 5 same as row 2
            ["x" * 101, "", ""],            # 6 name too long
            ["Bo Ek", "c" * 101, ""],       # 7 club too long
            ["Cy\nDee", "", ""],            # 8 control character (a line break)
            ["Di Fa", "", "e" * 255],       # 9 email too long
            ["Ed Gu", "Fine", "ed@x.se"]]   # 10 ok
    out = io.StringIO()
    csv.writer(out).writerows(rows)
    for source in (xlsx(rows), out.getvalue().encode()):
        with pytest.raises(excel.RosterError) as info:
            excel.read_roster(source)
        message = str(info.value)
        assert message.startswith("Nothing was imported: 6 rows need fixing")
        for row, what in [(3, "no name"), (5, "same name as row 2"), (6, "name is longer"),
                          (7, "club is longer"), (8, "control character"),
                          (9, "email is longer")]:
            assert re.search(rf"row {row}: [^;]*{what}", message), (row, message)
        for row in (2, 4, 10):
            assert f"row {row}:" not in message
        assert [p.row for p in info.value.problems] == [3, 5, 6, 7, 8, 9]
        assert str(info.value.problems[0]) == "row 3: no name"
        assert isinstance(info.value, ValueError) and isinstance(info.value, TournamentError)


def test_many_bad_rows_still_named_compactly():
    data = ("Name\n" + "\n".join(["Same"] * 500)).encode()
    with pytest.raises(excel.RosterError) as info:
        excel.read_roster(data)
    assert "rows 33–501" in str(info.value)  # rows 3–32 are listed one by one
    assert len(info.value.problems) == 499


def test_no_name_column():
    with pytest.raises(excel.RosterError, match="No name column.*Nick, Club"):
        excel.read_roster(b"Nick,Club\nann,x\n")


def test_import_roster_all_or_nothing_with_extras(engine):
    data = xlsx([["Name", "Club", "City", "Email", "Player ID"],
                 ["Ann Lee", "Arrakis", "Umeå", "ann@x.se", 12],
                 ["Bo Ek", "", "", "", None]])
    added = excel.import_roster(engine, data, actor=ORGANIZER)
    assert added["name"].tolist() == ["Ann Lee", "Bo Ek"]
    roster = store.players(engine, actor=ORGANIZER).set_index("name")
    assert roster.loc["Ann Lee", "extra"] == {"city": "Umeå", "roster_id": "12"}
    assert roster.loc["Ann Lee", "email"] == "ann@x.se"
    assert roster.loc["Bo Ek", "extra"] == {}
    # A clash with the roster names the spreadsheet row and adds nobody.
    again = xlsx([["Name"], ["Cy Dee"], ["ANN  lee"]])
    with pytest.raises(excel.RosterError, match="row 3: .*already on the roster"):
        excel.import_roster(engine, again, actor=ORGANIZER)
    assert len(store.players(engine)) == 2
    # A frame from read_roster is taken as it is (the page previews first).
    frame = excel.read_roster(xlsx([["Name"], ["Cy Dee"]]))
    assert excel.import_roster(engine, frame, actor=ORGANIZER)["name"].tolist() == ["Cy Dee"]
    with pytest.raises(store.PermissionDenied):
        excel.import_roster(engine, frame, actor=JUDGE)


# -- the template -------------------------------------------------------------------------------
def test_template_layout_and_notes():
    wb = openpyxl.load_workbook(io.BytesIO(excel.roster_template()))
    assert wb.sheetnames == ["Players", "Notes"] and wb.active.title == "Players"
    ws = wb["Players"]
    assert [c.value for c in ws[1]] == ["Name", "Nickname", "Club", "City", "Email",
                                        "Registered"]
    assert all(c.font.b for c in ws[1]) and ws.freeze_panes == "A2"
    assert ws.column_dimensions["A"].width >= 20
    assert ws["A2"].value == excel.EXAMPLE_NAME
    notes = " ".join(str(c.value) for row in wb["Notes"].iter_rows() for c in row)
    assert "skipped" in notes and "Namn" in notes and "Email" in notes and "Handle" in notes


def test_template_taken_back_untouched_and_filled_in(engine):
    template = excel.roster_template()
    assert excel.read_roster(template).empty
    assert excel.import_roster(engine, template, actor=ORGANIZER).empty
    assert store.players(engine).empty  # nothing written, nothing refused
    wb = openpyxl.load_workbook(io.BytesIO(template))
    wb["Players"].append(["Ann Lee", "Sandrider", "Arrakis", "Umeå", "ann@x.se"])
    out = io.BytesIO()
    wb.save(out)
    added = excel.import_roster(engine, out.getvalue(), actor=ORGANIZER)
    assert added[["name", "nickname", "club"]].values.tolist() == [
        ["Ann Lee", "Sandrider", "Arrakis"]]


# -- hostile files ------------------------------------------------------------------------------
def test_over_the_upload_limit(tmp_path):
    big = b"Name\n" + b"A" * excel.MAX_UPLOAD_BYTES
    refused(big, "larger than 5 MB")
    path = tmp_path / "big.csv"
    path.write_bytes(big)
    refused(path, "larger than 5 MB")

    class Uploaded(io.BytesIO):
        name, size = "big.xlsx", len(big)

    refused(Uploaded(big), "larger than 5 MB")


@pytest.mark.slow
def test_zip_bomb_by_ratio_and_by_size():
    base = xlsx([["Name"], ["Ann"]])
    ratio = patched(base, add={"xl/media/padding.xml": b" " * (20 * 2**20)})
    assert len(ratio) < 100_000
    refused(ratio, "zip bomb")
    size = patched(base, add={f"xl/media/p{i}.bin": b"\0" * (13 * 2**20) for i in range(4)},
                   compression=zipfile.ZIP_BZIP2)
    assert len(size) < excel.MAX_UPLOAD_BYTES
    refused(size, "would unpack to 52 MB")


def test_too_many_entries():
    refused(patched(xlsx([["Name"]]), add={f"xl/x{i}.bin": b"" for i in range(1001)}),
            "holds 10\\d\\d files")


BOMB = (b'<?xml version="1.0"?>\n<!DOCTYPE lolz [<!ENTITY lol "lol">' +
        b"".join(b'<!ENTITY lol%d "%s">' % (i, (b"&lol%d;" % (i - 1) if i > 1 else b"&lol;") * 10)
                 for i in range(1, 10)) +
        b"]>\n" + sheet_xml(b'<row r="1"><c r="A1" t="inlineStr"><is><t>&lol9;</t></is></c>'
                           b"</row>").split(b"?>", 1)[1])


def test_xml_entity_bomb_refused_and_openpyxl_uses_defusedxml():
    data = patched(xlsx([["Name"], ["Ann"]]), replace={SHEET: BOMB})
    refused(data, "XML bomb")
    # openpyxl itself parses with defusedxml (installed): it refuses too, never expands.
    assert openpyxl.DEFUSEDXML is True
    with pytest.raises(ValueError) as info:
        openpyxl.load_workbook(io.BytesIO(data), read_only=True)
    assert isinstance(info.value.__cause__ or info.value.__context__, DefusedXmlException)


def test_external_entity_in_a_sheet_refused():
    xxe = (b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>' +
           sheet_xml(b'<row r="1"><c r="A1" t="inlineStr"><is><t>&e;</t></is></c></row>')
           .split(b"?>", 1)[1])
    refused(patched(xlsx([["Name"]]), replace={SHEET: xxe}), "XML bomb")


@pytest.mark.slow
def test_sheet_with_100000_columns():
    wide = patched(xlsx([["Name"]]), replace={SHEET: sheet_xml(
        b'<row r="1"><c r="A1" t="inlineStr"><is><t>Name</t></is></c></row>', b"A1:XFD1")})
    refused(wide, "column 16,384")
    # No dimension and 100,000 cells in one row (no cell references): refused while reading.
    rng = random.Random(5)
    cells = b"".join(b"<c><v>%d</v></c>" % rng.randrange(10**9) for _ in range(100_000))
    refused(patched(xlsx([["Name"]]), replace={SHEET: sheet_xml(b"<row>" + cells + b"</row>")}),
            "rows of more than 50 columns")
    # More cells than any roster: refused before parsing.
    many = b"".join(b"<row>" + b"".join(b"<c><v>%d</v></c>" % rng.randrange(10**9)
                                        for _ in range(50)) + b"</row>" for _ in range(6000))
    refused(patched(xlsx([["Name"]]), replace={SHEET: sheet_xml(many)}), "more than 250,000")


@pytest.mark.slow
def test_too_many_rows():
    rng = random.Random(5)
    rows = b'<row r="1"><c r="A1" t="inlineStr"><is><t>Name</t></is></c></row>' + b"".join(
        b'<row r="%d"><c r="A%d"><v>%d</v></c></row>' % (i, i, rng.randrange(10**9))
        for i in range(2, 20_003))
    refused(patched(xlsx([["Name"]]), replace={SHEET: sheet_xml(rows)}), "more than 20,000 rows")
    refused(("Name\n" + "x\n" * 20_001).encode(), "more than 20,000 rows")
    refused(("Name" + ",x" * 60 + "\n").encode(), "60|61 columns")


def test_protected_or_old_xls():
    ole = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 4000
    refused(ole, "password-protected or in the old .xls format.*without a password")
    encrypted = bytearray(xlsx([["Name"], ["Ann"]]))
    # set the "encrypted" flag bit of every entry (local and central headers)
    for sig, offset in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):
        for m in re.finditer(re.escape(sig), bytes(encrypted)):
            encrypted[m.start() + offset] |= 1
    refused(bytes(encrypted), "encrypted|damaged")


def test_corrupt_workbooks():
    good = xlsx([["Name"], ["Ann"]])
    refused(good[: len(good) // 2], "damaged")
    refused(patched(good, replace={SHEET: b"<worksheet><sheetData><row>"}), "damaged")
    refused(patched(good, replace={"xl/workbook.xml": b"not xml at all"}), "damaged")

    class Named(io.BytesIO):
        name = "roster.xlsx"

    refused(Named(b"Name\nAnn\n\x00\x01garbage"), "damaged or not one")


@pytest.mark.parametrize("data,what", [
    (b"\x89PNG\r\n\x1a\n" + b"\0" * 100, "PNG image"),
    (b"%PDF-1.7\n" + b"x" * 100, "PDF document"),
    (b"\x00\x01\x02binary\x00" * 20, "not a spreadsheet"),
    (b"<html><body><table><tr><td>Name</td></tr></table></body></html>", "web page"),
])
def test_not_a_spreadsheet(data, what):
    refused(data, what)


def test_zip_that_is_not_a_workbook():
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr("photo.jpg", b"\xff\xd8\xff" + b"0" * 100)
    refused(out.getvalue(), "zip archive, not an .xlsx")
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr("mimetype", b"application/vnd.oasis.opendocument.spreadsheet")
    refused(out.getvalue(), r"not a complete \.ods file")  # an .ods is read (test_roster_ods)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr("mimetype", b"application/vnd.oasis.opendocument.text")
    refused(out.getvalue(), "an OpenDocument file: save it as")


# -- the tournament workbook --------------------------------------------------------------------
HOSTILE = ["=HYPERLINK(\"http://evil\",\"x\")", "+46 70 123", "-2+3", "@SUM(A1)"]


def add_hostile_players(engine):
    store.import_players(engine, [
        {"name": HOSTILE[0], "club": "=1+1", "email": "@evil"},
        {"name": HOSTILE[1], "club": "-3"},
        {"name": HOSTILE[2], "club": "@club"},
        {"name": HOSTILE[3], "club": "+cmd"}], actor=ORGANIZER)
    store.set_settings(engine, {"tournament_name": "=cmd|' /C calc'!A0"}, actor=ORGANIZER)


@pytest.mark.slow
def test_workbook_sheets_styles_and_formats(demo_engine):
    data = excel.tournament_workbook(demo_engine)
    wb = openpyxl.load_workbook(io.BytesIO(data))
    assert wb.sheetnames[:4] == ["Summary", "Standings", "Finals", "Players"]
    for title in ("Sittings", "Tables", "Seats", "Results", "Waiting list", "Settings", "Log"):
        assert title in wb.sheetnames
    for ws in wb:
        assert ws.freeze_panes == "A2", ws.title
        assert all(c.font.b for c in ws[1] if c.value), ws.title
        assert ws.auto_filter.ref and ws.auto_filter.ref.startswith("A1:"), ws.title
        assert ws.column_dimensions["A"].width >= 8
    players = wb["Players"]
    assert players.max_row == 25
    created = players.cell(2, [c.value for c in players[1]].index("Added at") + 1)
    assert created.is_date and created.number_format == workbook_writer.TIME_FORMAT
    results = wb["Results"]
    head = [c.value for c in results[1]]
    assert results.max_row == 73 and {"VP", "Placing", "Qualifier score", "Version"} <= set(head)
    assert isinstance(results.cell(2, head.index("VP") + 1).value, int)
    tables = wb["Tables"]
    removed = tables.cell(2, [c.value for c in tables[1]].index("Removed leaders") + 1).value
    assert removed and "; " in removed
    standings = wb["Standings"]
    assert [c.value for c in standings[1]][:4] == ["Rank", "Nickname", "Name", "Best score"]
    assert wb["Finals"].max_row > 1


def column(ws, heading) -> list:
    """The values under `heading` (row 1) of a sheet."""
    index = [c.value for c in ws[1]].index(heading)
    return [row[index] for row in ws.iter_rows(min_row=2, values_only=True)]


@pytest.mark.slow
def test_workbook_reads_as_an_organizer_hands_it_out(demo_engine):
    """Names and labels first, ids last; words, not codes; every setting listed."""
    store.set_settings(demo_engine, {"draw_mode": "balanced"}, actor=ORGANIZER)
    wb = openpyxl.load_workbook(io.BytesIO(excel.tournament_workbook(demo_engine)))
    summary = {row[0]: row[1] for row in wb["Summary"].iter_rows(values_only=True)}
    assert summary["Tournament"] == "Demo: Swordmasters Open"
    assert summary["Players"] == 24 and summary["Qualifiers complete"] == 3
    assert summary["Leading the qualifiers"]
    assert [c.value for c in wb["Players"][1]][:2] == ["Name", "Nickname"]
    assert [c.value for c in wb["Players"][1]][-4:] == ["Player id", "Added by", "Added at",
                                                        "Stored extra details"]
    assert set(column(wb["Players"], "Status")) == {"Active"}
    sittings = wb["Sittings"]
    assert column(sittings, "Sitting") == ["Qualifier 1", "Qualifier 2", "Qualifier 3"]
    assert set(column(sittings, "Status")) == {"Complete"}
    assert set(column(wb["Results"], "Sitting")) == {"Qualifier 1", "Qualifier 2", "Qualifier 3"}
    finals = wb["Finals"]
    assert [c.value for c in finals[1]] == ["Final rank", "Nickname", "Name", "Stage",
                                            "Wildcard", "Best score", "Qualifier rank",
                                            "Player id"]
    standings = {row[1]: (row[0], row[3]) for row in wb["Standings"].iter_rows(
        min_row=2, values_only=True)}
    assert all(standings[n] == (r, b) for n, b, r in zip(
        column(finals, "Nickname"), column(finals, "Best score"),
        column(finals, "Qualifier rank")))
    settings = {row[5]: row for row in wb["Settings"].iter_rows(min_row=2, values_only=True)}
    assert set(store.DEFAULT_SETTINGS) <= set(settings)
    assert settings["draw_mode"][:4] == ("Draw mode", "Balanced", "No", "Olivia")
    assert settings["base_points"][:4] == ("Base points (1st, 2nd, 3rd, 4th)", "20, 15, 10, 0",
                                           "Yes", None)
    log = wb["Log"]
    assert set(column(log, "Role")) == {"Organizer"}
    assert not any(t.startswith(("{", "[")) for t in column(log, "What happened"))
    assert "Published Qualifier 2: everyone sees its tables now." in column(log, "What happened")


def test_formula_like_text_is_written_as_text(demo_engine):
    add_hostile_players(demo_engine)
    data = excel.tournament_workbook(demo_engine)
    wb = openpyxl.load_workbook(io.BytesIO(data))
    seen = set()
    for ws in wb:
        for row in ws.iter_rows():
            for cell in row:
                assert cell.data_type != "f", (ws.title, cell.coordinate, cell.value)
                if isinstance(cell.value, str):
                    seen.add(cell.value)
    assert set(HOSTILE) | {"=1+1", "@evil", "-3", "@club", "+cmd"} <= seen
    with zipfile.ZipFile(io.BytesIO(data)) as z:  # no formula element anywhere
        assert not any(re.search(rb"<(\w+:)?f[ >]", z.read(n)) for n in z.namelist()
                       if n.startswith("xl/worksheets/"))
    players = wb["Players"]
    dangerous = [c for c in players["B"] if c.value in HOSTILE]
    assert len(dangerous) == 4 and all(c.quotePrefix and c.data_type == "s" for c in dangerous)


def test_every_formula_start_is_neutralised():
    texts = ["=1+1", "+1", "-1", "@A1", "\tTab", "\rReturn", "plain", "a=b"]
    data = workbook_writer.write_workbook({"Sheet": (["text"], [[t] for t in texts])})
    ws = openpyxl.load_workbook(io.BytesIO(data))["Sheet"]
    cells = [ws.cell(r, 1) for r in range(2, len(texts) + 2)]
    # (XML reads a carriage return back as a line feed; STSA never stores either in text)
    assert [c.value for c in cells] == [t.replace("\r", "\n") for t in texts]
    assert all(c.data_type == "s" for c in cells)
    assert [bool(c.quotePrefix) for c in cells] == [True] * 6 + [False] * 2
    assert [excel.neutralise(t) for t in texts] == ["'" + t for t in texts[:6]] + texts[6:]
    rows = list(csv.reader(io.StringIO(csv_format.csv_bytes(["text"], [[t] for t in texts])
                                       .decode("utf-8-sig"))))
    assert [r[0] for r in rows[1:]] == ["'" + t for t in texts[:6]] + texts[6:]


def test_csv_downloads_are_neutralised(demo_engine):
    add_hostile_players(demo_engine)
    # give the hostile players a result so they appear in both CSVs
    ids = store.players(demo_engine).set_index("name").loc[HOSTILE, "player_id"].tolist()
    sitting = tournament.draw_qualifier(demo_engine, ids, seed=1, actor=ORGANIZER)
    store.publish_sitting(demo_engine, sitting["sitting_id"], actor=ORGANIZER)
    table = store.tables(demo_engine, sitting["sitting_id"], actor=ORGANIZER).iloc[0]
    rows = [{"player_id": p, "leader": leader, "vp": 10 - i, "spice": 0, "solari": 0,
             "troops": 0, "water": 0} for i, (p, leader) in
            enumerate(zip(ids, table["available_leaders"]))]
    store.submit_table_result(demo_engine, int(table["table_id"]), rows, expected_version=0,
                              submission_id="t", actor=ORGANIZER)
    for data in (excel.standings_csv(demo_engine), excel.results_csv(demo_engine)):
        assert data.startswith(b"\xef\xbb\xbf")
        rows = list(csv.DictReader(io.StringIO(data.decode("utf-8-sig"))))
        names = {r.get("Player", r.get("Name")) for r in rows}
        assert {"'" + h for h in HOSTILE} <= names
        assert not any(v.startswith(("=", "+", "-", "@", "\t", "\r"))
                       for r in rows for v in r.values())
    results = list(csv.DictReader(io.StringIO(excel.results_csv(demo_engine).decode("utf-8-sig"))))
    assert len(results) == 76 and "Submission id" not in results[0]
    assert {"VP", "Placing", "Qualifier score", "Leader"} <= set(results[0])


# -- restore ------------------------------------------------------------------------------------
def sheet_values(data: bytes) -> dict[str, list[list]]:
    wb = openpyxl.load_workbook(io.BytesIO(data), read_only=True)
    try:
        return {ws.title: [list(r) for r in ws.iter_rows(values_only=True)] for ws in wb}
    finally:
        wb.close()


def without_export_time(rows: list[list]) -> list[list]:
    """The Summary sheet but its line saying when the workbook was made."""
    return [r for r in rows if r[0] != "Exported"]


def enrich(engine):
    """Corrections, a settled tie, a withdrawal, an absence, a sit-out, a setup override, a
    draft sitting, emails and extras: everything a restore must carry."""
    add_hostile_players(engine)
    store.edit_player(engine, 1, email="alia@example.com", extra={"city": "Umeå"},
                      actor=ORGANIZER)
    table = store.tables(engine, actor=ORGANIZER).iloc[0]
    current = store.table_result(engine, int(table["table_id"]))
    rows = current.rows.assign(vp=current.rows["vp"] + 1)
    store.submit_table_result(engine, int(table["table_id"]), rows, expected_version=1,
                              submission_id="fix-1", actor=JUDGE)
    store.withdraw_player(engine, 24, actor=ORGANIZER)
    store.mark_absent(engine, 3, actor=ORGANIZER)
    five = [23, *store.players(engine)["player_id"].tolist()[24:28]]
    tournament.draw_qualifier(engine, five, seed=3, sit_out=True, actor=ORGANIZER)
    draft = store.tables(engine, actor=ORGANIZER).iloc[-1]
    store.override_setup(engine, int(draft["table_id"]), "uprising", reason="=no formula",
                         actor=ORGANIZER)
    start = dt.datetime(2026, 3, 7, 9, 0, tzinfo=dt.UTC)  # the schedule (R26)
    store.add_schedule_item(engine, sitting_kind="qualifier", sitting_number=4,
                            starts_at=start, actor=ORGANIZER)
    store.add_schedule_item(engine, title="=Lunch", minutes=45, actor=ORGANIZER,
                            starts_at=start + dt.timedelta(hours=3))


@pytest.mark.slow
def test_restore_round_trip(demo_engine, tmp_path):
    enrich(demo_engine)
    original = excel.tournament_workbook(demo_engine)
    target = store.connect(f"sqlite:///{tmp_path / 'restored.db'}",
                           backup_dir=tmp_path / "backups2")
    try:
        counts = excel.restore_workbook(target, io.BytesIO(original), actor=ORGANIZER)
        assert counts["players"] == 28 and counts["sittings"] == 4 and counts["sit_outs"] == 1
        again = excel.tournament_workbook(target)
        before, after = sheet_values(original), sheet_values(again)
        assert list(before) == list(after)
        for title in before:
            if title not in ("Log", "Summary"):
                assert before[title] == after[title], title
        assert without_export_time(before["Summary"]) == without_export_time(after["Summary"])
        # The log: every event as it was, ids included, its author marked as coming from the
        # workbook (R19), then the restore itself.
        by = before["Log"][0].index("By")
        assert [r[:by] + r[by + 1:] for r in after["Log"][: len(before["Log"])]] == \
            [r[:by] + r[by + 1:] for r in before["Log"]]
        assert all(workbook_reader.is_imported(r[by]) and r[by].startswith(b[by])
                   for r, b in zip(after["Log"][1:len(before["Log"])], before["Log"][1:])
                   if b[by] is not None)
        assert len(after["Log"]) == len(before["Log"]) + 1
        assert after["Log"][-1][5] == "tournament.restore"
        # The store agrees: versions, leaders, seeds, statuses.
        for read in (lambda e: store.results(e, None), lambda e: store.tables(e, actor=JUDGE),
                     lambda e: store.sittings(e, actor=JUDGE).drop(columns=[
                         "created_at", "published_at", "completed_at"]),
                     lambda e: store.absences(e).drop(columns="marked_at"),
                     lambda e: store.sit_outs(e, actor=JUDGE), store.settings,
                     lambda e: store.schedule_items(e).drop(columns="updated_at")):
            a, b = read(demo_engine), read(target)
            if isinstance(a, pd.DataFrame):
                pd.testing.assert_frame_equal(a, b)
            else:
                assert a == b
        assert store.results(target, None)["version"].max() == 2
        # A restored database goes on as usual: new ids follow the restored ones.
        added = store.add_player(target, "After Restore", actor=ORGANIZER)
        assert added["player_id"] == 29
    finally:
        target.dispose()


@pytest.mark.slow
def test_long_log_values_continue_in_rows_below(engine, monkeypatch):
    monkeypatch.setattr(workbook_writer, "EXCEL_TEXT_MAX", 40)
    store.import_players(engine, [{"name": f"Player {i}"} for i in range(8)], actor=ORGANIZER)
    data = excel.tournament_workbook(engine)
    log = sheet_values(data)["Log"]
    assert len(log) > 3 and log[2][0] == log[1][0] and log[2][1] is None
    assert len(log[1][8]) == 40
    target = store.connect(f"sqlite:///{engine.url.database}-2", backup_dir=None)
    try:
        excel.restore_workbook(target, data, actor=ORGANIZER)
        by = log[0].index("By")  # each author marked as coming from the workbook (R19)
        assert [r[:by] + r[by + 1:] for r in sheet_values(excel.tournament_workbook(target))[
            "Log"][:len(log)]] == [r[:by] + r[by + 1:] for r in log]
        assert store.events(target, actor=ORGANIZER)["after"].iloc[0] == \
            store.events(engine, actor=ORGANIZER)["after"].iloc[0]
    finally:
        target.dispose()


@pytest.mark.slow
def test_restore_refused_into_a_database_with_a_tournament(demo_engine):
    data = excel.tournament_workbook(demo_engine)
    events = len(store.events(demo_engine, actor=ORGANIZER))
    with pytest.raises(store.InvalidState, match="already holds a tournament.*24 players"):
        excel.restore_workbook(demo_engine, data, actor=ORGANIZER)
    assert len(store.events(demo_engine, actor=ORGANIZER)) == events
    with pytest.raises(store.PermissionDenied):
        excel.restore_workbook(demo_engine, data, actor=JUDGE)


@pytest.mark.slow
def test_restore_refuses_other_files_and_changes_nothing(engine, demo_engine):
    with pytest.raises(excel.RestoreError, match="lacks the sheets"):
        excel.restore_workbook(engine, excel.roster_template(), actor=ORGANIZER)
    with pytest.raises(excel.RestoreError, match="PNG image"):
        excel.restore_workbook(engine, b"\x89PNG\r\n\x1a\n" + b"\0" * 64, actor=ORGANIZER)
    with pytest.raises(excel.RestoreError, match="not one"):
        excel.restore_workbook(engine, b"Name\nAnn\n", actor=ORGANIZER)
    wb = openpyxl.load_workbook(io.BytesIO(excel.tournament_workbook(demo_engine)))
    wb["Players"].cell(3, 1).value = None
    out = io.BytesIO()
    wb.save(out)
    with pytest.raises(excel.RestoreError, match="Players sheet, row 3: Name is missing"):
        excel.restore_workbook(engine, out.getvalue(), actor=ORGANIZER)
    wb.remove(wb["Log"])
    out = io.BytesIO()
    wb.save(out)
    with pytest.raises(excel.RestoreError, match="lacks the sheet Log"):
        excel.restore_workbook(engine, out.getvalue(), actor=ORGANIZER)
    assert store.players(engine).empty and store.sittings(engine, actor=ORGANIZER).empty


def test_restore_names_bad_values_by_sheet_row(engine, demo_engine):
    wb = openpyxl.load_workbook(io.BytesIO(excel.tournament_workbook(demo_engine)))
    ws = wb["Results"]
    ws.cell(5, [c.value for c in ws[1]].index("VP") + 1).value = "lots"
    out = io.BytesIO()
    wb.save(out)
    with pytest.raises(excel.RestoreError, match="Results sheet, row 5: VP must be a whole "
                                                 "number, not 'lots'"):
        excel.restore_workbook(engine, out.getvalue(), actor=ORGANIZER)
    assert store.players(engine).empty


@pytest.mark.slow
def test_restore_round_trip_on_each_database(engine_url, demo_engine, tmp_path):
    """SQLite and PostgreSQL: ids kept, sequences moved past them."""
    data = excel.tournament_workbook(demo_engine)
    target = store.connect(engine_url, backup_dir=tmp_path / "b2")
    try:
        excel.restore_workbook(target, data, actor=ORGANIZER)
        again = sheet_values(excel.tournament_workbook(target))
        before = sheet_values(data)
        assert {t: v for t, v in again.items() if t not in ("Log", "Summary")} == {
            t: v for t, v in before.items() if t not in ("Log", "Summary")}
        assert without_export_time(again["Summary"]) == without_export_time(before["Summary"])
        assert store.add_player(target, "New", actor=ORGANIZER)["player_id"] == 25
    finally:
        target.dispose()


@pytest.mark.slow
def test_a_restore_reports_rising_progress_in_words(demo_engine, sqlite_engine):
    content = excel.tournament_workbook(demo_engine)
    calls: list[tuple[float, str]] = []
    excel.restore_workbook(sqlite_engine, content, actor=ORGANIZER,
                           progress=lambda f, words: calls.append((f, words)))
    fractions = [f for f, _ in calls]
    assert fractions == sorted(fractions) and fractions[0] == 0.0 and fractions[-1] == 1.0
    assert len(set(fractions)) == len(fractions) >= 4
    assert calls[0][1] == "Reading the workbook…"
    assert any(words.startswith("Checking ") and words.endswith(" results…") for _, words in calls)
