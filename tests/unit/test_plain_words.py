"""Plain words for people: no ruling number (R1 … R24) in any text STSA can show, print or
write (messages, slips, pairings, CSV, the workbook); the numbers stay in code and documents.
Counts read right in the singular ("1 table", never "1 tables")."""

from __future__ import annotations

import ast
import io
import re
from pathlib import Path

import pytest
from openpyxl import load_workbook
from pypdf import PdfReader

from stsa import printing, rules, stats, store
from stsa.auth import Actor, Role
from stsa.domain import plural
from stsa.errors import TournamentError
from stsa.services import exports

ROOT = Path(__file__).resolve().parents[2]
RULING = re.compile(r"\bR\d{1,2}\b")
ORGANIZER = Actor("Olivia", Role.ORGANIZER)


def shown_strings(path: Path) -> list[tuple[int, str]]:
    """The string literals of a module that can reach people: every one but the docstrings
    (comments are not strings)."""
    tree = ast.parse(path.read_text())
    docs = {id(node.body[0].value) for node in ast.walk(tree)
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef,
                                 ast.AsyncFunctionDef))
            and node.body and isinstance(node.body[0], ast.Expr)
            and isinstance(node.body[0].value, ast.Constant)}
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and id(node) not in docs]


@pytest.mark.slow
def test_no_message_or_label_in_the_code_names_a_ruling():
    modules = [*sorted((ROOT / "stsa").rglob("*.py")), *sorted((ROOT / "views").glob("*.py")),
               ROOT / "app.py"]
    found = [f"{path.relative_to(ROOT)}:{line}: {text[:80]!r}" for path in modules
             for line, text in shown_strings(path) if RULING.search(text)]
    assert not found, "\n".join(found)


def test_the_scan_sees_strings_but_not_docstrings(tmp_path):
    module = tmp_path / "m.py"
    module.write_text('"""R1 in a docstring."""\n\ndef f():\n    """R2 too."""\n'
                      '    return f"{1} table (R3)"  # R4 in a comment\n')
    assert [text for _, text in shown_strings(module) if RULING.search(text)] == [" table (R3)"]


def pdf_text(data: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


def workbook_text(data: bytes) -> str:
    book = load_workbook(io.BytesIO(data), read_only=True)
    return "\n".join(str(cell) for sheet in book.worksheets
                     for row in sheet.iter_rows(values_only=True) for cell in row
                     if cell is not None)


def printed_files(engine) -> dict[str, str]:
    """The text of everything printed or downloaded about the last sitting: slips (both
    copies), pairing lists, the CSVs and the workbook."""
    sitting = int(store.sittings(engine, actor=ORGANIZER)["sitting_id"].iloc[-1])
    return {
        "players' slips": pdf_text(printing.table_slips(engine, sitting, judges_copy=False,
                                                        result_url="http://stsa.example")),
        "judges' slips": pdf_text(printing.table_slips(engine, sitting, judges_copy=True,
                                                       result_url="http://stsa.example")),
        "pairings by name": pdf_text(exports.pairings_by_name(engine, sitting)),
        "pairings by table": pdf_text(exports.pairings_by_table(engine, sitting)),
        "standings CSV": exports.standings_csv(engine).decode("utf-8-sig"),
        "results CSV": exports.results_csv(engine).decode("utf-8-sig"),
        "workbook": workbook_text(exports.tournament_workbook(engine)),
    }


@pytest.mark.slow
def test_no_slip_list_or_file_names_a_ruling(demo_copy):
    engine = demo_copy(sittings=3)
    files = printed_files(engine)
    for name, text in files.items():
        assert len(text) > 100, name
        assert not RULING.findall(text), (name, RULING.findall(text))
    assert "Setup steps, in this order" in files["judges' slips"]


# --- counts in the singular --------------------------------------------------------------------

def test_plural_writes_the_count_and_the_right_form():
    assert plural(1, "table") == "1 table"
    assert plural(0, "table") == "0 tables"
    assert plural(3, "more player") == "3 more players"
    assert plural(1, "person", "people") == "1 person" and plural(2, "person", "people") == \
        "2 people"


def test_a_sitting_of_one_table_reads_right():
    sitting = {"kind": "qualifier", "number": 1, "status": "published", "tables": 1}
    assert stats.sitting_progress({"sitting": sitting, "missing_tables": []}) == (
        "Qualifier 1: its table has reported.")
    assert stats.sitting_progress({"sitting": sitting, "missing_tables": [1]}) == (
        "Qualifier 1: 0 of 1 table have reported; still playing: table 1.")
    sitting["tables"] = 4
    assert stats.sitting_progress({"sitting": sitting, "missing_tables": [2, 3, 4]}) == (
        "Qualifier 1: 1 of 4 tables has reported; still playing: tables 2, 3, 4.")


def test_messages_count_in_the_singular():
    with pytest.raises(TournamentError, match=r"^1 player cannot be seated.*at least 2 more "
                                              r"players\.$"):
        rules.table_sizes(1)
    with pytest.raises(TournamentError, match=r"^2 players cannot be seated.*at least 1 more "
                                              r"player\.$"):
        rules.table_sizes(2)
    with pytest.raises(TournamentError, match=r"^1 qualifier player: finals need at least 4\.$"):
        rules.finals_format(1)


def test_distance_to_the_cut_says_one_point():
    import pandas as pd
    table = pd.DataFrame({"rank": [1, 2, 3, 4, 5], "player_id": [1, 2, 3, 4, 5],
                          "name": list("ABCDE"), "best_score": [30, 25, 24, 23, 20],
                          "zone": ["final", "final", "semifinal", "semifinal", "out"],
                          "tie_at_cut": False})
    assert stats.distance_sentence(table, 3) == (
        "1 point behind the last spot straight to the final; in the semifinal zone.")
