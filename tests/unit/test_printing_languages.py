"""Paper in the tournament's language (README "Languages"): slips and pairing lists are read by
everyone in the room, so they follow the tournament's `language` setting (English without
one), whatever language the page that made them reads; Swedish and French letters print, with
DejaVu Sans and with the built-in fallback font."""

import io
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po
from pypdf import PdfReader

from stsa import i18n, printing, store
from stsa.auth import Actor, Role
from stsa.formats import slips

ORGANIZER = Actor("Olivia", Role.ORGANIZER)
BASE = "http://192.168.1.20:8501"
# A few of the paper's messages, as the catalogs translate them.
WORDS = {
    "sv": {"Scan to enter the result": "Skanna för att ange resultatet",
           "Seat 1 plays first; play goes clockwise.": "Plats 1 börjar; spelet går medurs.",
           "{tournament} · {sitting} · Where do I sit?": "{tournament} · {sitting} · Var sitter "
                                                         "jag?",
           "Judges' copy": "Domarnas exemplar"},
    "fr": {"Scan to enter the result": "Scannez pour saisir le résultat",
           "Seat 1 plays first; play goes clockwise.": "La place 1 joue en premier\u00a0; le "
                                                       "jeu tourne dans le sens horaire.",
           "{tournament} · {sitting} · Where do I sit?": "{tournament} · {sitting} · Où "
                                                         "suis-je assis\u00a0?",
           "Judges' copy": "Exemplaire des arbitres «\u00a0juges\u00a0» – cœur"},
}


@pytest.fixture
def catalogs(tmp_path, monkeypatch):
    """Catalogs of this test's own with `WORDS`, read instead of the app's."""
    for code, words in WORDS.items():
        catalog = Catalog(locale=code, domain=i18n.DOMAIN)
        for message, translation in words.items():
            catalog.add(message, translation)
        folder = tmp_path / code / "LC_MESSAGES"
        folder.mkdir(parents=True)
        with (folder / f"{i18n.DOMAIN}.po").open("wb") as po:
            write_po(po, catalog)
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    i18n.catalog.cache_clear()
    yield
    i18n.catalog.cache_clear()


@pytest.fixture
def engine(demo_copy):
    return demo_copy(sittings=1)


def text(data: bytes) -> str:
    assert data.startswith(b"%PDF")
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


def paper(engine, language: str | None, page: str = "en") -> list[str]:
    """The slips (judges' copy), pairings by name and by table of the first sitting, for a
    tournament in `language`, made by a page that reads `page`."""
    store.set_settings(engine, {"language": language}, actor=ORGANIZER)
    sid = int(store.sittings(engine, actor=ORGANIZER)["sitting_id"].iloc[0])
    with i18n.language(page):
        made = [printing.table_slips(engine, sid, judges_copy=True, result_url=BASE),
                printing.pairings_by_name(engine, sid, player_url=f"{BASE}/player"),
                printing.pairings_by_table(engine, sid)]
        assert i18n.current() == page  # the page's own language is back afterwards
    return [text(pdf) for pdf in made]


@pytest.mark.slow
def test_a_swedish_tournament_prints_swedish_whatever_the_page_reads(engine, catalogs):
    slip, by_name, by_table = paper(engine, "sv", page="fr")
    assert "Skanna för att ange resultatet" in slip and "Domarnas exemplar" in slip
    assert "Scan to enter the result" not in slip and "Scannez" not in slip
    assert "Var sitter jag?" in by_name
    assert "Plats 1 börjar; spelet går medurs." in by_table


@pytest.mark.slow
def test_a_french_tournament_prints_french(engine, catalogs):
    slip, by_name, by_table = paper(engine, "fr", page="sv")
    assert "Scannez pour saisir le résultat" in slip
    assert "«" in slip and "»" in slip and "cœur" in slip
    assert "Où suis-je assis" in by_name
    assert "La place 1 joue en premier" in by_table
    assert "Skanna" not in slip + by_name + by_table


@pytest.mark.slow
def test_a_tournament_without_a_language_prints_english(engine, catalogs):
    slip, by_name, _by_table = paper(engine, None, page="sv")
    assert "Scan to enter the result" in slip and "Where do I sit?" in by_name


@pytest.mark.slow
def test_without_the_font_swedish_and_french_letters_still_print(engine, catalogs,
                                                               monkeypatch):
    monkeypatch.setattr(slips, "FONT_DIR", Path("/nonexistent"))  # Helvetica, Latin-1 only
    assert "Skanna för att ange resultatet" in paper(engine, "sv")[0]
    slip, by_name, _by_table = paper(engine, "fr")
    assert "Scannez pour saisir le résultat" in slip and "Où suis-je assis" in by_name
    assert "coeur" in slip  # outside Latin-1: spelled out, never a crash


@pytest.mark.slow
@pytest.mark.parametrize("code", ["sv", "fr"])
def test_with_stsas_own_catalogs_the_paper_has_no_english_sentence(engine, code):
    """The app's catalogs, not this test's: a Swedish (French) tournament's slips and pairing
    lists read Swedish (French) throughout, names as printed aside."""
    from tests.support.english import english_sentences

    printed = paper(engine, code, page="en")
    with i18n.language(code):
        scan = i18n._("Scan to enter the result")
    assert scan != "Scan to enter the result" and scan in printed[0]
    assert [english_sentences([p]) for p in printed] == [[], [], []]
