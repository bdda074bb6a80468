"""stsa.i18n: each page run reads its own language, never the process's (issue 25)."""

from __future__ import annotations

import ast
import threading
from datetime import date, time
from pathlib import Path

import pandas as pd
import pytest

from stsa import i18n
from stsa.i18n import _, ngettext

ROOT = Path(__file__).resolve().parents[2]


def test_known_reads_a_browser_locale_as_one_of_the_languages():
    assert [i18n.known(c) for c in ("sv", "SV", "sv-SE", "sv_FI", "fr-CA", "de", "", None)] \
        == ["sv", "sv", "sv", "sv", "fr", None, None, None]


def test_a_block_reads_its_language_then_the_run_reads_its_own_again():
    i18n.use("fr")
    with i18n.language("sv"):
        assert i18n.current() == "sv"
        assert _("Standings") == "Ställning"
    assert i18n.current() == "fr" and _("Standings") == "Classement"
    with i18n.language("de"):  # not a language here: English
        assert _("Standings") == "Standings"
    i18n.use(None)
    assert i18n.current() == "en"


def test_two_sessions_at_once_each_read_their_own_language():
    """Two page runs are two threads of one process: neither's choice reaches the other."""
    both_chose = threading.Barrier(2)
    read = {}

    def run(code):
        i18n.use(code)
        both_chose.wait(timeout=10)  # both have set their language before either reads
        read[code] = _("Standings")

    threads = [threading.Thread(target=run, args=(c,)) for c in ("sv", "fr")]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=10)
    assert read == {"sv": "Ställning", "fr": "Classement"}


@pytest.mark.parametrize(("code", "counts"), [
    ("en", {0: "players", 1: "player", 2: "players"}),
    ("sv", {0: "spelare", 1: "spelare", 2: "spelare"}),
    ("fr", {0: "joueur", 1: "joueur", 2: "joueurs"}),  # French: 0 is singular
])
def test_plurals_follow_each_languages_rule(code, counts):
    with i18n.language(code):
        for n, word in counts.items():
            text = ngettext("{count} player", "{count} players", n).format(count=n)
            assert text == f"{n} {word}"


def test_numbers_dates_and_times_are_written_each_languages_way():
    written = {}
    for code in i18n.LANGUAGES:
        with i18n.language(code):
            written[code] = (i18n.number(1234.5, 1), i18n.day(date(2026, 12, 3)),
                             i18n.clock(time(14, 5)))
    assert written["en"] == ("1,234.5", "3 Dec 2026", "14:05")
    assert written["sv"][0].replace("\u00a0", " ") == "1 234,5"
    assert written["fr"][0].replace("\u202f", " ").replace("\u00a0", " ") == "1 234,5"
    assert "dec" in written["sv"][1] and "déc" in written["fr"][1]
    assert {w[2] for w in written.values()} == {"14:05"}


def test_a_shared_tables_english_is_translated_at_the_edge():
    table = pd.DataFrame({"Sitting": ["Qualifier 2", "Qualifier 10", "Ada"]})
    with i18n.language("sv"):
        shown = i18n.headings(table).pipe(lambda t: t.assign(**{t.columns[0]: i18n.cells(
            t[t.columns[0]])}))
    assert list(table["Sitting"]) == ["Qualifier 2", "Qualifier 10", "Ada"]  # shared: as it was
    assert list(shown.iloc[:, 0]) == ["Kvalomgång 2", "Kvalomgång 10", "Ada"]


@pytest.mark.slow
def test_no_code_installs_a_language_for_the_whole_process():
    """gettext.install and locale.setlocale would switch every session at once."""
    found = []
    for path in [*ROOT.joinpath("stsa").rglob("*.py"), *ROOT.joinpath("views").rglob("*.py"),
                 ROOT / "app.py"]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and (node.attr in {"install", "setlocale"}) \
                    and isinstance(node.value, ast.Name) and node.value.id in {"gettext",
                                                                               "locale"}:
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert found == []


def test_two_headings_said_with_one_word_stay_two_columns(monkeypatch):
    """Issue 33: "Rank" and "Placing" were one word in French and Swedish, and the table showed
    two columns of one heading. Should a catalog ever say two headings alike again, each column
    is still chosen by its English (one map from English to words) and no heading reads as
    another's."""
    from stsa.ui import tables

    said = {"Rank": "Rang", "Placing": "Rang", "Player": "Joueur"}
    monkeypatch.setattr(i18n, "_", lambda message: said.get(message, message))
    frame = pd.DataFrame({"Rank": [1, 2, 3], "Player": ["A", "B", "C"], "Placing": [1, 1, 2]})
    with i18n.language("fr"):
        assert list(i18n.headings(frame).columns) == ["Rang", "Joueur", "Rang (Placing)"]
        data, settings = tables.in_words(frame, {"column_order": ["Placing", "Rank"],
                                                 "column_config": {"Rank": {"width": 42}}})
    assert list(data.columns) == ["Rang", "Joueur", "Rang (Placing)"]
    assert settings["column_order"] == ["Rang (Placing)", "Rang"]  # Placing first, as asked
    assert settings["column_config"] == {"Rang": {"width": 42}}  # the Rank's own


@pytest.mark.parametrize("code", ["fr", "sv"])
def test_the_tables_that_show_a_rank_have_headings_of_their_own(code):
    """Every table that shows a rank beside a placing (Standings, a player's games, TV, the
    workbook's and the CSVs' sheets, a table's result) says each of its headings its own way."""
    from stsa.formats import workbook_sheets
    from stsa.services import exports, season
    from stsa.ui import finals, live_standings, live_tv, result_entry

    with i18n.language(code):
        tables = {
            "standings": [_(label) for _key, label, _help, _width in live_standings.COLUMNS],
            "games": [_(g) for g in live_standings.GAMES],
            "tv": live_tv.words()["columns"],
            "finals": [_(h) for h in finals.HEADINGS],
            "result": [_(h) for h in result_entry.HEADINGS.values()],
            "season": [_(h) for h in season.SEASON_HEADINGS.values()],
            "standings sheet": [_(h) for h in workbook_sheets.STANDINGS_HEADINGS.values()],
            "csv": [_(h) for h in exports.CSV_HEADINGS],
            **{title: [_(h) for h, _col, _kind in columns if h]
               for title, (_table, columns) in workbook_sheets.SHEETS.items()}}
    for name, headings in tables.items():
        assert len({h.casefold() for h in headings}) == len(headings), (name, headings)
