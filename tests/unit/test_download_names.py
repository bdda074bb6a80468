"""Download names (Data, Finals and Log pages): the tournament's name first, then what the file
holds and when it was made, one plain file name whatever the tournament is called."""

from __future__ import annotations

import datetime as dt
import re

import pytest

from stsa.formats import file_names

AT = dt.datetime(2027, 3, 6, 14, 5)


@pytest.mark.parametrize("tournament_name, expected", [
    ("GothCon Qualifiers 2027", "gothcon-qualifiers-2027-standings-2027-03-06-1405.csv"),
    ("DUNE: Imperium tournament", "dune-imperium-tournament-standings-2027-03-06-1405.csv"),
    ("Göteborg Öppna", "göteborg-öppna-standings-2027-03-06-1405.csv"),
    ("../../etc/passwd", "etc-passwd-standings-2027-03-06-1405.csv"),
    ('Spice "Must" Flow \\ 2/3', "spice-must-flow-2-3-standings-2027-03-06-1405.csv"),
    ("=cmd|' /C calc'!A0", "cmd-c-calc-a0-standings-2027-03-06-1405.csv"),
    ("\u202egpj.exe", "gpj-exe-standings-2027-03-06-1405.csv"),
    ("", "stsa-standings-2027-03-06-1405.csv"),
    ("  ...  ", "stsa-standings-2027-03-06-1405.csv"),
])
def test_download_names_carry_the_tournament_safely(tournament_name, expected):
    assert file_names.download_name(tournament_name, "standings", "csv", AT) == expected


def test_a_very_long_name_is_cut_after_a_whole_word():
    long = " ".join(["Swordmasters"] * 20)
    name = file_names.download_name(long, "final standings", "csv", AT)
    assert name.endswith("-final-standings-2027-03-06-1405.csv")
    kept = name.removesuffix("-final-standings-2027-03-06-1405.csv")
    assert len(kept) <= file_names.NAME_MAX and set(kept.split("-")) == {"swordmasters"}
    assert len(file_names.download_name("x" * 500, "log", "csv", AT)) < 100


def test_every_name_is_one_plain_file_name():
    for text in ["a/b\\c:d*e?f\"g<h>i|j", "\x00\x1f\t\r\n", "CON", "名前 2027", "..", "-rf"]:
        name = file_names.download_name(text, "results", "csv", AT)
        assert re.fullmatch(r"[\w-]+\.csv", name), name
        assert not name.startswith(("-", ".")) and "--" not in name
