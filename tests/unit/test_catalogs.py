"""The Swedish and French catalogs are complete (issue 25, README "Languages"): every message
the code marks has a translation, no translation is empty or fuzzy, and each keeps the
original's `{placeholders}`, so no page, slip or workbook falls back to English or breaks in
`.format`."""

from __future__ import annotations

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
