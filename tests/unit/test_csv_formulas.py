"""No cell of an STSA CSV becomes a formula in a real spreadsheet, whichever separator it is
opened with (`stsa.formats.csv.neutralise`).

A spreadsheet set to semicolons (most of Europe) or tabs splits a comma file's cells again:
`Bob;=1111*3` becomes `Bob` and a live `=1111*3`. These tests write hostile names through
STSA's own CSV writers, open the files in LibreOffice headless with a comma, a semicolon and a
tab as the separator, formulas evaluated and spaces trimmed (the settings that find the most
formulas), save them as .xlsx and read every cell back. The same files written with the old
guard (only the start of a cell) do hold formulas: the check can fail.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import openpyxl
import pandas as pd
import pytest

from stsa.formats import csv as csv_format
from stsa.ui import finals as finals_view

SOFFICE = shutil.which("soffice") or shutil.which("libreoffice")
pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) is not "
                                 "installed: scripts/test-deps.sh installs it")]

RESULT = 3333  # what every hostile formula below computes
HOSTILE = [
    "=1111*3",            # a whole cell
    "Bob;=1111*3",        # a semicolon reader's cell
    "Ann\t=1111*3",       # a tab reader's cell
    "Cy,=1111*3",         # quoted in the file; a semicolon reader may not see the quotes
    'Dee;"=1111*3',       # a quote between the separator and the formula
    "Eve; =1111*3",       # a space that a trimming reader drops
    "Fay\n=1111*3",       # a line break: a reader that ignores the quotes starts a row there
    "Gus;;=1111*3",       # an empty cell first
    "Hal;+1111*3",        # other triggers (LibreOffice runs only =, another program may)
    "Ida\t-1111*3", "Jo,@SUM(1111*3)", "Kim;\uff1d1111*3",
]
SEPARATORS = {"comma": 44, "semicolon": 59, "tab": 9}
ERRORS = ("#VALUE!", "#NAME?", "#REF!", "#DIV/0!", "#N/A", "Err:")


def old_neutralise(value):
    """The guard before this change, kept to show the test can fail: only a cell's start."""
    starts = ("=", "+", "-", "@", "\t", "\r")
    return "'" + value if isinstance(value, str) and value.startswith(starts) else value


def frame() -> pd.DataFrame:
    """A standings-like table: hostile text in the middle and in the last column (where a
    re-split cell ends at the line's end), numbers (negative ones too) around it."""
    n = len(HOSTILE)
    return pd.DataFrame({"Rank": range(1, n + 1), "Player": HOSTILE, "VP": [-3] * n,
                         "Wildcard": [False] * n, "Club": HOSTILE[::-1]})


def write_files(folder: Path) -> list[Path]:
    """The table through each of STSA's CSV writers: the downloads' `csv_bytes` (with BOM),
    `frame_text` (the log) and the final standings' `to_csv`."""
    folder.mkdir()
    table = frame()
    files = {"bytes.csv": csv_format.csv_bytes(list(table.columns), table.values.tolist()),
             "text.csv": csv_format.frame_text(table).encode(),
             "finals.csv": finals_view.to_csv(table).encode()}
    paths = [folder / f"{folder.name}-{name}" for name in files]  # one name per .xlsx made
    for path, data in zip(paths, files.values()):
        path.write_bytes(data)
    return paths


def open_in_libreoffice(files: list[Path], separator: int, work: Path) -> list[Path]:
    """Each CSV opened by LibreOffice with `separator`, UTF-8, formulas evaluated (token 13)
    and spaces trimmed (token 11), saved as .xlsx; the .xlsx paths."""
    out = work / f"xlsx-{separator}"
    options = f"{separator},34,76,1,,1033,false,false,false,false,true,-1,true"
    done = subprocess.run(
        [SOFFICE, f"-env:UserInstallation={(work / 'profile').as_uri()}", "--headless",
         "--norestore", f"--infilter=Text - txt - csv (StarCalc):{options}",
         "--convert-to", "xlsx", "--outdir", str(out), *map(str, files)],
        capture_output=True, text=True, timeout=300)
    made = [out / f"{f.stem}.xlsx" for f in files]
    assert all(p.exists() for p in made), done.stdout + done.stderr
    return made


def formulas(xlsx: Path) -> list[str]:
    """Every cell LibreOffice made a formula, or whose value a formula computed."""
    found = []
    formula_book = openpyxl.load_workbook(xlsx)
    value_book = openpyxl.load_workbook(xlsx, data_only=True)
    for row, values in zip(formula_book.active.iter_rows(), value_book.active.iter_rows()):
        for cell, value in zip(row, values):
            if cell.data_type == "f":
                found.append(f"{cell.coordinate} holds the formula {cell.value!r}")
            elif value.value == RESULT or str(value.value).startswith(ERRORS):
                found.append(f"{cell.coordinate} holds {value.value!r}, a formula's result")
    return found


@pytest.fixture(scope="module")
def opened(tmp_path_factory) -> dict[tuple[str, str], list[Path]]:
    """{(guard, separator): the .xlsx files}: the new guard's files and the old guard's, each
    opened with every separator (one LibreOffice run per separator)."""
    work = tmp_path_factory.mktemp("csv-formulas")
    new = write_files(work / "new")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(csv_format, "neutralise", old_neutralise)
        old = write_files(work / "old")
    result = {}
    for name, separator in SEPARATORS.items():
        made = open_in_libreoffice(new + old, separator, work)
        result["new", name], result["old", name] = made[:len(new)], made[len(new):]
    return result


@pytest.mark.parametrize("separator", SEPARATORS)
def test_no_cell_becomes_a_formula_with_any_separator(opened, separator):
    for xlsx in opened["new", separator]:
        assert formulas(xlsx) == [], xlsx.name


@pytest.mark.parametrize("separator", ["semicolon", "tab"])
def test_the_old_guard_lets_formulas_through(opened, separator):
    """The same files with the old guard: LibreOffice runs formulas (so the test above can
    fail; comma readers were already safe)."""
    for xlsx in opened["old", separator]:
        assert any("formula" in f for f in formulas(xlsx)), xlsx.name


def test_text_shows_as_typed_and_numbers_stay_numbers(opened):
    """Read with commas, every hostile name is one text cell (with its ' marks) and the
    numbers are numbers, negative ones included."""
    for xlsx in opened["new", "comma"]:
        rows = [[c.value for c in r] for r in openpyxl.load_workbook(xlsx).active.iter_rows()]
        assert rows[0] == ["Rank", "Player", "VP", "Wildcard", "Club"]
        assert [r[1] for r in rows[1:]] == [csv_format.neutralise(h) for h in HOSTILE]
        assert all(r[0] == n and r[2] == -3 for n, r in enumerate(rows[1:], start=1))


def test_the_guard_marks_every_cell_start():
    n = csv_format.neutralise
    assert n("Bob;=1+2") == "Bob;'=1+2"
    assert n("a,b\t=c;+d") == "a,b\t'=c;'+d"
    assert n("Eve; =1") == "Eve; '=1" and n('Dee;"=1') == "Dee;\"'=1"
    assert n("\t=1") == "'\t'=1" and n("Fay\n@x") == "Fay\n'@x"
    assert n("\uff1d1") == "'\uff1d1"
    assert [n(v) for v in ("a=b", "Bo -x", "x - y", "", -3, 2.5, None)] == [
        "a=b", "Bo -x", "x - y", "", -3, 2.5, None]
