"""The tournament workbook in the tournament's language (issue 25): its sheets, headings and
labels written in English, Swedish or French, the language recorded in the file; a restore
reads a workbook in any of the three (and older English ones), and its messages name the
sheets and columns as the file names them."""

import io
import re
import zipfile

import openpyxl
import pandas as pd
import pytest

from stsa import excel, i18n, store
from stsa.auth import Actor, Role
from stsa.formats import workbook_reader, workbook_sheets, xlsx_reader

ORGANIZER = Actor("Olivia", Role.ORGANIZER)
JUDGE = Actor("Jamal", Role.JUDGE)
FRENCH_SHEETS = {"Résumé", "Classement", "Joueurs", "Manches", "Tables", "Places", "Résultats",
                 "Paramètres", "Journal"}
SWEDISH_SHEETS = {"Sammanfattning", "Ställning", "Spelare", "Omgångar", "Bord", "Platser",
                  "Resultat", "Inställningar", "Logg"}


@pytest.fixture
def demo_engine(demo_copy):
    return demo_copy(1)


def sheets_of(data: bytes) -> dict[str, list[list]]:
    wb = openpyxl.load_workbook(io.BytesIO(data), read_only=True)
    try:
        return {ws.title: [list(r) for r in ws.iter_rows(values_only=True)] for ws in wb}
    finally:
        wb.close()


def recorded(data: bytes) -> str | None:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return xlsx_reader.recorded_language(archive)


def without_language(data: bytes) -> bytes:
    """The workbook as an earlier release wrote it: no language in its properties."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w") as dst:
        for info in src.infolist():
            body = src.read(info)
            if info.filename == "docProps/core.xml":
                body = re.sub(rb"<dc:language>[^<]*</dc:language>", b"", body)
            dst.writestr(info, body)
    return out.getvalue()


def restored(data: bytes, tmp_path, name: str):
    target = store.connect(f"sqlite:///{tmp_path / name}", backup_dir=tmp_path / "b")
    excel.restore_workbook(target, io.BytesIO(data), actor=ORGANIZER)
    return target


def same_tournament(a, b) -> None:
    """The same players, results, tables, sittings, absences and settings (but the language
    and the times, which a workbook keeps to the millisecond)."""
    for read in (lambda e: store.players(e, actor=ORGANIZER), lambda e: store.results(e, None),
                 lambda e: store.tables(e, actor=JUDGE), lambda e: store.sittings(e, actor=JUDGE),
                 store.absences,
                 lambda e: {k: v for k, v in store.settings(e).items() if k != "language"}):
        x, y = read(a), read(b)
        if isinstance(x, pd.DataFrame):
            times = [c for c in x if c.endswith("_at")]
            pd.testing.assert_frame_equal(x.drop(columns=times), y.drop(columns=times))
        else:
            assert x == y


@pytest.mark.slow
@pytest.mark.parametrize(("code", "names", "yes"), [("fr", FRENCH_SHEETS, "Oui"),
                                                     ("sv", SWEDISH_SHEETS, "Ja")])
def test_workbook_in_the_tournament_language_restores_the_same_tournament(
        demo_engine, tmp_path, code, names, yes):
    store.withdraw_player(demo_engine, 24, actor=ORGANIZER)
    store.mark_absent(demo_engine, 3, actor=ORGANIZER)
    english = excel.tournament_workbook(demo_engine)
    store.set_settings(demo_engine, {"language": code}, actor=ORGANIZER)
    data = excel.tournament_workbook(demo_engine)
    assert recorded(english) == "en" and recorded(data) == code
    sheets = sheets_of(data)
    assert names <= set(sheets) and not {"Players", "Results", "Settings"} & set(sheets)
    with i18n.language(code):
        players = sheets[workbook_sheets.sheet_title("Players")]
        assert players[0][:2] == [i18n._("Name"), i18n._("Nickname")]
        assert players[0][3] == i18n._("Status")
        assert {r[3] for r in players[1:]} == {i18n._("Active"), i18n._("Withdrawn")}
        assert {r[4] for r in players[1:]} <= {yes, i18n._("No")}  # checked in: Yes or No
        sittings = sheets[workbook_sheets.sheet_title("Sittings")]
        assert sittings[1][1] == i18n._("Qualifier")
    # The data stay as stored: names, leaders, setup ids.
    results = sheets[next(n for n in sheets if n in ("Résultats", "Resultat"))]
    english_results = sheets_of(english)["Results"]
    assert [r[3] for r in results[1:]] == [r[3] for r in english_results[1:]]  # names
    assert [r[5] for r in results[1:]] == [r[5] for r in english_results[1:]]  # leaders

    from_english = restored(english, tmp_path, "en.db")
    translated = restored(data, tmp_path, f"{code}.db")
    unrecorded = restored(without_language(data), tmp_path, f"{code}-2.db")
    try:
        same_tournament(from_english, demo_engine)
        for engine in (translated, unrecorded):
            same_tournament(engine, from_english)
            assert store.settings(engine)["language"] == code
        # The restored tournament keeps its language: its workbook is written in it again.
        assert set(sheets_of(excel.tournament_workbook(translated))) == set(sheets)
    finally:
        for engine in (from_english, translated, unrecorded):
            engine.dispose()


@pytest.mark.slow
def test_an_older_english_workbook_still_restores(demo_engine, tmp_path):
    data = without_language(excel.tournament_workbook(demo_engine))
    assert recorded(data) is None
    parsed = workbook_reader.parse_workbook(data)
    assert parsed.language == "en" and parsed.sheets["players"] == "Players"
    target = restored(data, tmp_path, "old.db")
    try:
        same_tournament(target, demo_engine)
    finally:
        target.dispose()


@pytest.mark.slow
def test_restore_names_the_french_sheet_and_column(demo_engine, sqlite_engine):
    store.set_settings(demo_engine, {"language": "fr"}, actor=ORGANIZER)
    wb = openpyxl.load_workbook(io.BytesIO(excel.tournament_workbook(demo_engine)))
    wb["Joueurs"].cell(3, 1).value = None
    wb["Résultats"].cell(2, 7).value = "beaucoup"  # VP (PV)
    out = io.BytesIO()
    wb.save(out)
    with pytest.raises(excel.RestoreError, match="Résultats sheet, row 2: PV must be a whole "
                                                 "number, not 'beaucoup'"):
        workbook_reader.parse_workbook(out.getvalue())
    wb["Résultats"].cell(2, 7).value = 9
    out = io.BytesIO()
    wb.save(out)
    with pytest.raises(excel.RestoreError, match="Joueurs sheet, row 3: Nom is missing"):
        excel.restore_workbook(sqlite_engine, out.getvalue(), actor=ORGANIZER)
    with i18n.language("fr"), pytest.raises(
            excel.RestoreError, match="Feuille Joueurs, ligne 3 : Nom manque"):
        excel.restore_workbook(sqlite_engine, out.getvalue(), actor=ORGANIZER)


def test_a_french_workbook_lacking_a_sheet_is_named_in_french(demo_engine):
    store.set_settings(demo_engine, {"language": "fr"}, actor=ORGANIZER)
    wb = openpyxl.load_workbook(io.BytesIO(excel.tournament_workbook(demo_engine)))
    del wb["Places"]
    out = io.BytesIO()
    wb.save(out)
    with pytest.raises(excel.RestoreError, match="lacks the sheet Places"):
        workbook_reader.parse_workbook(out.getvalue())
    with i18n.language("sv"), pytest.raises(excel.RestoreError, match="bladet Places saknas"):
        workbook_reader.parse_workbook(out.getvalue())


@pytest.mark.parametrize("code", ["en", "sv", "fr"])
def test_names_fit_a_sheet_and_read_back_one_way(code):
    """Each language names every sheet differently, within Excel's rules, and each of a
    sheet's headings differently; Yes, No and the words read back in every language."""
    titles, headings = workbook_sheets.names_in(code)
    assert len({t.casefold() for t in titles.values()}) == len(titles)
    assert all(len(t) <= 31 and not set(t) & set("[]:*?/\\") for t in titles.values())
    for title, named in headings.items():
        assert len({h.casefold() for h in named.values()}) == len(named), title
    with i18n.language(code):
        for value in (True, False):
            assert workbook_reader._truth(workbook_sheets.yes_no(value)) is value
        for family, words in workbook_sheets.WORDS.items():
            for word_code in words:
                assert workbook_sheets.word_code(
                    family, workbook_sheets.word_label(family, word_code)) == word_code


@pytest.mark.slow
@pytest.mark.parametrize("code", ["sv", "fr"])
def test_a_workbook_in_swedish_or_french_has_no_english_sentence(demo_engine, code):
    """Every sheet's headings and labels are in the tournament's language; what stays English
    is data (names as printed, ids, stored JSON) and the log's raw values beside its words."""
    from tests.support.english import english_sentences

    store.set_settings(demo_engine, {"language": code}, actor=ORGANIZER)
    found = {}
    for title, rows in sheets_of(excel.tournament_workbook(demo_engine)).items():
        texts = [c for row in rows for c in row
                 if isinstance(c, str) and not c.lstrip().startswith(("{", "["))]
        if english_sentences(texts):
            found[title] = english_sentences(texts)[:3]
    assert found == {}
