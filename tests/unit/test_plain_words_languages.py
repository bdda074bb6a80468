"""Plain words in Swedish and French too (issue 25, README "Accessibility" and "Languages"):
no translation names a ruling, the paper and files of a Swedish or French tournament name none,
and counts take each language's singular and plural (French: 0 and 1 are singular)."""

from __future__ import annotations

import pytest
from babel.messages.pofile import read_po

from stsa import i18n, rules, stats, store
from stsa.auth import Actor, Role
from stsa.domain import TournamentError
from tests.unit.test_plain_words import RULING, printed_files

ORGANIZER = Actor("Olivia", Role.ORGANIZER)


@pytest.mark.parametrize("code", ["sv", "fr"])
def test_no_translation_names_a_ruling(code):
    with (i18n.LOCALE_DIR / code / "LC_MESSAGES" / f"{i18n.DOMAIN}.po").open("rb") as po:
        catalog = read_po(po, locale=code)
    found = [(m.id, m.string) for m in catalog if m.id and any(
        RULING.search(s) for s in (m.string if isinstance(m.string, tuple) else (m.string,)))]
    assert found == []


@pytest.mark.slow
@pytest.mark.parametrize("code", ["sv", "fr"])
def test_no_slip_list_or_file_of_a_translated_tournament_names_a_ruling(demo_copy, code):
    engine = demo_copy(sittings=3)
    store.set_settings(engine, {"language": code}, actor=ORGANIZER)
    with i18n.language(code):  # the CSVs follow their reader: one who reads this language
        files = printed_files(engine)
        steps = i18n._("Setup steps, in this order")
    for name, text in files.items():
        assert len(text) > 100, name
        assert not RULING.findall(text), (name, RULING.findall(text))
    assert steps != "Setup steps, in this order" and steps in files["judges' slips"]


def _message(call) -> str:
    with pytest.raises(TournamentError) as caught:
        call()
    return str(caught.value)


@pytest.mark.parametrize(("code", "one", "two", "more_one", "more_two"), [
    ("sv", "1 spelare kan", "2 spelare kan", "minst 1 spelare till", "minst 2 spelare till"),
    ("fr", "1 joueur ne peut", "2 joueurs ne peuvent", "au moins 1 joueur de plus",
     "au moins 2 joueurs de plus"),
])
def test_counts_take_each_languages_singular_and_plural(code, one, two, more_one, more_two):
    with i18n.language(code):
        single, double = _message(lambda: rules.table_sizes(1)), _message(
            lambda: rules.table_sizes(2))
        sitting = {"kind": "qualifier", "number": 1, "status": "published", "tables": 1}
        none_of_one = stats.sitting_progress({"sitting": sitting, "missing_tables": [1]})
    assert single.startswith(one) and more_two in single
    assert double.startswith(two) and more_one in double
    if code == "fr":  # French counts 0 in the singular: "0 table sur 1"
        assert "0 table sur 1" in none_of_one
    else:
        assert "0 av 1 bord" in none_of_one
