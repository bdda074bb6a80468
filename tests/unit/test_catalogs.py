"""The Swedish and French catalogs are complete (issue 25, README "Languages"): every message
the code marks has a translation, no translation is empty or fuzzy, and each keeps the
original's `{placeholders}`, so no page, slip or workbook falls back to English or breaks in
`.format`."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from stsa import i18n

ROOT = Path(__file__).resolve().parents[2]
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2),
            "template": None}
TRANSLATED = [code for code in i18n.LANGUAGES if code != i18n.ENGLISH]
PLURALS = {"sv": "(n != 1)", "fr": "(n > 1)"}


@cache
def marked() -> dict[tuple[str | None, str], str | tuple[str, ...]]:
    """Every message the code marks: (context, id) → the message (a plural: its two forms)."""
    found = {}
    for folder in ("stsa", "views"):
        for _file, _line, message, _comments, context in extract_from_dir(
                ROOT / folder, method_map=[("**.py", "python")], keywords=KEYWORDS):
            key = (context, message if isinstance(message, str) else message[0])
            found[key] = message
    return found


@cache
def catalog_of(code: str):
    with (i18n.LOCALE_DIR / code / "LC_MESSAGES" / f"{i18n.DOMAIN}.po").open("rb") as po:
        return read_po(po, locale=code)


@pytest.mark.slow
def test_the_code_marks_messages():
    assert len(marked()) > 500


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_marked_message_is_translated(code):
    found = catalog_of(code)
    missing = [key for key in marked()
               if (entry := found.get(key[1], context=key[0])) is None
               or not entry.string or "fuzzy" in entry.flags
               or (isinstance(entry.string, tuple) and not all(entry.string))]
    assert missing == [], f"{len(missing)} untranslated, e.g. {missing[:5]}"


@pytest.mark.parametrize("code", TRANSLATED)
def test_translations_keep_the_placeholders(code):
    wrong = []
    for entry in catalog_of(code):
        if not entry.id or not entry.string:
            continue
        if isinstance(entry.id, tuple):  # a plural: every form may drop the count, no more
            want = i18n.placeholders(entry.id[1])
            wrong += [(entry.id[0], form) for form in entry.string
                      if not i18n.placeholders(form) <= want
                      or want - i18n.placeholders(form) - {"count"}]
        elif i18n.placeholders(entry.string) != i18n.placeholders(entry.id):
            wrong.append((entry.id, entry.string))
    assert wrong == []


@pytest.mark.parametrize("code", TRANSLATED)
def test_each_catalog_says_its_plural_rule(code):
    assert catalog_of(code).plural_expr == PLURALS[code]


def test_the_sweep_catches_a_missing_translation(tmp_path, monkeypatch):
    """The check above fails for a catalog that lacks one marked message."""
    first = next(iter(marked()))
    assert catalog_of("sv").get(first[1], context=first[0]) is not None
    catalog = catalog_of("sv")
    entry = catalog.get(first[1], context=first[0])
    saved = entry.string
    entry.string = ""
    try:
        with pytest.raises(AssertionError, match="untranslated"):
            test_every_marked_message_is_translated("sv")
    finally:
        entry.string = saved


# --- one word for two meanings (issue 33: "Rank" and "Placing" were both "Rang"/"Placering",
# so the Standings table had two columns of one heading and its rank was read as the placing) --

def _same_meaning(message: str) -> str:
    """An English message with what does not change its meaning taken out: case, "the",
    a plural s, a hyphen ("Players" and "the player", "e-mail" and "email")."""
    plain = re.sub(r"\bthe\s+", "", message.casefold()).replace("-", "")
    return re.sub(r"(?<=\w)s\b", "", plain)


# Distinct English messages that a language may say with one word because they mean the same
# thing there (or are never read side by side, and the language has no better word). Each was
# reviewed (issue 33); a new shared translation fails `test_no_two_meanings_share_a_translation`
# until it gets a word of its own or a line here saying why not.
SAME_WORDS: dict[str, list[set[str]]] = {
    "fr": [
        {"Current", "being played", "running"},  # "en cours": a tournament, sitting, clock
        {"Nobody", "Person"},  # "personne": French says both so; a placeholder vs a heading
        {"Restored tournament", "Tournament restored"},
        {"Save changes", "Save the changes"},
        {"All setups", "every setup"},
        {"{what} contains an empty leader name.", "{what} list a blank leader name."},
        {"line {number}", "row {number}"},
        {"Name of the rule change", "rule change's name"},
        {"{number}st", "{number}nd", "{number}rd", "{number}th"},  # French: "{number}e"
    ],
    "sv": [
        {"Nobody", "none"},  # "ingen"
        {"Lost final seat", "Lost the final seat"},
        {"A sound at time on the TV", "A sound on the TV at time"},
        {"{what} contains an empty leader name.", "{what} list a blank leader name."},
        {"line {number}", "row {number}"},
        {"Name of the rule change", "rule change's name"},
        {"{number}st", "{number}nd"}, {"{number}rd", "{number}th"},  # ":a" and ":e"
        {"All setups", "every setup"},
    ],
}


def shared_translations(code: str) -> list[tuple[str, list[str]]]:
    """Every translation of catalog `code` that says two English messages of different
    meaning (`_same_meaning`) in one context, with those messages, less `SAME_WORDS`."""
    said: dict[tuple[str | None, str], set[str]] = {}
    for entry in catalog_of(code):
        if entry.id and isinstance(entry.id, str) and entry.string and "fuzzy" not in entry.flags:
            said.setdefault((entry.context, entry.string.strip().casefold()), set()).add(entry.id)
    allowed = SAME_WORDS.get(code, [])
    found = []
    for (_context, words), messages in sorted(said.items(), key=lambda s: s[0][1]):
        meanings = {_same_meaning(m) for m in messages}
        if len(meanings) > 1 and not any(
                {_same_meaning(m) for m in group} >= meanings for group in allowed):
            found.append((words, sorted(messages)))
    return found


@pytest.mark.parametrize("code", TRANSLATED)
def test_no_two_meanings_share_a_translation(code):
    assert shared_translations(code) == []


def test_the_sweep_catches_two_meanings_in_one_word():
    """The check above fails for a catalog that says "Rank" as it says "Placing"."""
    entry = catalog_of("fr").get("Placing")
    saved = entry.string
    entry.string = catalog_of("fr").get("Rank").string
    try:
        assert (entry.string.casefold(), ["Placing", "Rank"]) in shared_translations("fr")
    finally:
        entry.string = saved
