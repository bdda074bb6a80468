"""The published results' pages (`formats.archive`), written with no database: typed text
escaped everywhere, links relative, one zip folder."""

import io
import zipfile

import pytest

from stsa.formats import archive as pages


def test_the_escaping_of_cells_and_links():
    assert pages.text('<a href="x">&') == "&lt;a href=&quot;x&quot;&gt;&amp;"
    assert pages.table(["Player"], [["<i>y</i>"]]).count("&lt;i&gt;") == 1
    assert pages.link("sittings/a.html", "<b>", depth=1) == \
        '<a href="../sittings/a.html">&lt;b&gt;</a>'


def test_a_nickname_of_markup_is_text_on_the_standings_page():
    page = pages.standings_page("Cup <i>", {"cut": "4 <players>", "standings": [
        {"rank": 1, "player": "<b>x</b>", "best_score": 30, "zone": "Final", "games": 2,
         "wins": 1, "placing": 1, "vp": 20}]})
    assert "<b>x</b>" not in page and "&lt;b&gt;x&lt;/b&gt;" in page
    assert "<i>" not in page and "4 &lt;players&gt;" in page
    assert "Final standings" not in page and "Qualifier standings" in page


def test_a_sitting_page_links_up_to_the_others():
    page = pages.sitting_page("Cup", {"kind": "qualifier", "number": 2, "tables": [],
                                      "rule_change": None},
                              {"results": []}, ["data/sittings/qualifier-2.json"])
    assert '<a href="../index.html">' in page and '<a href="../standings.html">' in page
    assert '<a href="../data/sittings/qualifier-2.json">' in page


def test_the_zip_unpacks_to_one_folder():
    made = pages.zip_bytes("cup-results", {"index.html": "<p>é</p>", "charts/a.svg": b"<svg/>"})
    bundle = zipfile.ZipFile(io.BytesIO(made))
    assert sorted(bundle.namelist()) == ["cup-results/charts/a.svg", "cup-results/index.html"]
    assert bundle.read("cup-results/index.html").decode() == "<p>é</p>"


@pytest.mark.slow
def test_the_pages_speak_the_language_they_are_written_in():
    from stsa import i18n
    sitting = {"kind": "qualifier", "number": 2, "rule_change": None,
               "tables": [{"table": 1, "setup": None, "seats": []}]}
    english = pages.sitting_page("Cup", sitting, {"results": []}, [])
    with i18n.language("sv"):
        swedish = pages.sitting_page("Cup", sitting, {"results": []}, [])
    assert '<html lang="en">' in english and "Table 1" in english and "Qualifier 2" in english
    assert '<html lang="sv">' in swedish and "Bord 1" in swedish
    assert "Kvalomgång 2" in swedish and "<th>Startspelare</th>" in swedish
    assert "Table 1" not in swedish and "Setup: not recorded" not in swedish
