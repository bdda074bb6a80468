"""Rosters saved by LibreOffice (.ods): read like .xlsx rosters, every bad row named, and the
same hostile-file guards (size, zip bombs, entity declarations, sheets that unfold into
millions of cells, encryption, formulas) before any spreadsheet library parses them (R19)."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import zipfile

import pandas as pd
import pytest

from stsa import excel
from tests.unit.test_excel import refused, xlsx

OFFICE = "urn:oasis:names:tc:opendocument:xmlns:office:1.0"
TABLE = "urn:oasis:names:tc:opendocument:xmlns:table:1.0"
TEXT = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"
MANIFEST = (b'<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest='
            b'"urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"><manifest:file-entry '
            b'manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.'
            b'spreadsheet"/><manifest:file-entry manifest:full-path="content.xml" '
            b'manifest:media-type="text/xml"/></manifest:manifest>')


def frame_ods(rows: list[list]) -> bytes:
    """An .ods written by pandas (odfpy), one sheet, no header of its own."""
    out = io.BytesIO()
    with pd.ExcelWriter(out, engine="odf") as writer:
        width = max(map(len, rows))
        pd.DataFrame([r + [None] * (width - len(r)) for r in rows]).to_excel(
            writer, header=False, index=False, sheet_name="Players")
    return out.getvalue()


def ods(body: str | bytes, *, prolog: bytes = b"", manifest: bytes = MANIFEST,
        extra: dict[str, bytes] | None = None) -> bytes:
    """An .ods made by hand: `body` is the sheet's rows (table:table-row elements)."""
    body = body.encode() if isinstance(body, str) else body
    content = (b'<?xml version="1.0" encoding="UTF-8"?>' + prolog +
               f'<office:document-content xmlns:office="{OFFICE}" xmlns:table="{TABLE}" '
               f'xmlns:text="{TEXT}"><office:body><office:spreadsheet>'
               f'<table:table table:name="Players">'.encode() + body +
               b"</table:table></office:spreadsheet></office:body></office:document-content>")
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr(zipfile.ZipInfo("mimetype"), b"application/vnd.oasis.opendocument.spreadsheet")
        z.writestr("content.xml", content)
        z.writestr("META-INF/manifest.xml", manifest)
        for name, data in (extra or {}).items():
            z.writestr(name, data)
    return out.getvalue()


def cell(text: str, repeated: int = 1) -> str:
    return (f'<table:table-cell office:value-type="string" table:number-columns-repeated='
            f'"{repeated}"><text:p>{text}</text:p></table:table-cell>')


def row(*cells: str, repeated: int = 1) -> str:
    return f'<table:table-row table:number-rows-repeated="{repeated}">{"".join(cells)}' \
           f'</table:table-row>'


def test_an_ods_roster_reads_like_an_xlsx_one():
    rows = [["Swordmasters Open, spring"], [None], ["Name", "Club", "Player ID"],
            ["  Åsa   Öberg ", "Göteborg", 1207], [None, None, None], ["Bo", None, 12.0]]
    sheet = excel.read_roster(io.BytesIO(frame_ods(rows)))
    assert sheet[["name", "club", "player_id", "row"]].values.tolist() == [
        ["Åsa Öberg", "Göteborg", "1207", 4], ["Bo", "", "12", 6]]
    assert sheet.equals(excel.read_roster(xlsx(rows)))


def test_an_ods_by_name_and_its_blank_rows_and_repeats():
    data = ods(row(cell("Name")) + row('<table:table-cell table:number-columns-repeated="1000"/>',
                                       repeated=3)
               + row(cell("Ann")) + row(cell("Bo"), '<table:table-cell '
                                        'table:number-columns-repeated="16000"/>')
               + row('<table:table-cell table:number-columns-repeated="1024"/>',
                     repeated=1_048_000))
    sheet = excel.read_roster(io.BytesIO(data))
    assert sheet[["name", "row"]].values.tolist() == [["Ann", 5], ["Bo", 6]]


def test_every_bad_row_of_an_ods_is_named():
    with pytest.raises(excel.RosterError) as info:
        excel.read_roster(frame_ods([["Name"], ["Ann"], ["ANN"], [None], ["Bad\tBell"]]))
    assert [str(p) for p in info.value.problems] == [
        "row 3: the same name as row 2 (ANN)",
        "row 5: the name contains a control character (such as a line break or tab)"]


def test_a_formula_cell_gives_the_value_it_shows():
    formula = ('<table:table-cell table:formula="of:=HYPERLINK(&quot;http://e.vil&quot;)" '
               'office:value-type="string" office:string-value="Cy"><text:p>Cy</text:p>'
               '</table:table-cell>')
    sheet = excel.read_roster(ods(row(cell("Name")) + row(formula)))
    assert sheet["name"].tolist() == ["Cy"]


@pytest.mark.slow
def test_ods_zip_bomb():
    refused(ods(row(cell("Name")) + row(cell("a" * 200)) + "<!-- " + " " * 60_000_000 + " -->"),
            "zip bomb|larger than")


def test_ods_entity_bomb_and_external_entity():
    bomb = (b'<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]>')
    refused(ods(row(cell("Name")) + row(cell("&lol2;")), prolog=bomb), "XML")
    external = b'<!DOCTYPE x [<!ENTITY ext SYSTEM "file:///etc/passwd">]>'
    refused(ods(row(cell("Name")) + row(cell("&ext;")), prolog=external), "XML")
    refused(ods(row(cell("Name")), extra={"styles.xml": b'<?xml version="1.0"?>' + bomb +
                                          b"<x>&lol2;</x>"}), "XML")


@pytest.mark.slow
@pytest.mark.parametrize("body, match", [
    (row(cell("Name")) + row(cell("x", repeated=1_000_000)), "row of 1,000,000 columns"),
    (row(cell("Name")) + row(cell("Ann"), repeated=100_000_000), "more than 20,000 rows"),
    (row(cell("Name")) + row('<table:table-cell/>', repeated=30_000) + row(cell("Ann")),
     "more than 20,000 rows"),
    (row(cell("Name")) + "".join(row(cell(os.urandom(8).hex()), "<table:table-cell/>" * 25)
                                 for _ in range(10_000)), "more than 250,000 cells"),
])
def test_ods_that_unfolds_into_too_many_cells(body, match):
    refused(ods(body), match)


def test_encrypted_or_damaged_ods():
    encrypted = MANIFEST.replace(b'"text/xml"/>', b'"text/xml"><manifest:encryption-data/>'
                                 b"</manifest:file-entry>")
    refused(ods(row(cell("Name")), manifest=encrypted), "password")
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr("mimetype", b"application/vnd.oasis.opendocument.spreadsheet")
    refused(out.getvalue(), "OpenDocument spreadsheet|\\.ods")
    refused(ods(row(cell("Name")) + "<table:table-row"), "damaged")
    refused(ods('<table:table-row table:number-rows-repeated="many"/>'), "damaged")
    refused(b"not a zip at all, just text named like a spreadsheet\x00" * 4, "not a spreadsheet")


def test_ods_over_the_upload_limit():
    refused(io.BytesIO(os.urandom(6 * 2**20)), "larger than 5 MB")


@pytest.mark.slow
def test_an_ods_saved_by_libreoffice(tmp_path):
    """The roster template filled in and saved as .ods by LibreOffice Calc (headless)."""
    soffice = shutil.which("soffice")
    if not soffice:
        if os.environ.get("CI"):
            pytest.fail("LibreOffice (soffice) is missing; scripts/test-deps.sh installs it",
                        pytrace=False)
        pytest.skip("LibreOffice (soffice) is not installed")
    (tmp_path / "roster.xlsx").write_bytes(xlsx([["Name", "Club", "Email"],
                                                 ["Alia Brandt", "Arrakeen", "a@example.com"],
                                                 ["Bo", None, None]]))
    subprocess.run([soffice, "--headless", "--norestore",
                    f"-env:UserInstallation=file://{tmp_path / 'profile'}", "--convert-to",
                    "ods", "--outdir", str(tmp_path / "out"), str(tmp_path / "roster.xlsx")],
                   check=True, timeout=300, capture_output=True,
                   env={**os.environ, "HOME": str(tmp_path)})
    sheet = excel.read_roster(tmp_path / "out" / "roster.ods")
    assert sheet[["name", "club", "email", "row"]].values.tolist() == [
        ["Alia Brandt", "Arrakeen", "a@example.com", 2], ["Bo", "", "", 3]]
