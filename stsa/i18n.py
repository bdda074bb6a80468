"""The languages people read STSA in: English, Swedish and French (README, "Languages").

Every text a person reads goes through `_` (or `ngettext` where a number decides the words,
`pgettext` where one English word means two things). The catalogs are gettext `.po` files in
`stsa/locale/<code>/LC_MESSAGES/stsa.po`, managed with Babel (`make catalogs`) and read as they
are, so nothing is compiled and a new language is one new file.

Every Streamlit session is a thread of one process, so the language is never installed for the
process (no `gettext.install`, no `locale.setlocale`): it is a context variable each page run
sets for itself (`use`), or a block sets for a slip or a workbook in the tournament's language
(`language`). Where neither is set (a widget's callback runs before the page sets it), the
resolver the app registers reads the session's choice; else English.

Shared derived tables hold English words and are computed once per data version for everyone;
pages translate them at the edge (`headings`, `cells`), so no shared value depends on who read
it first. Numbers, dates and times are written the language's way with Babel (`number`, `day`,
`clock`).
"""

from __future__ import annotations

import io
import re
import string
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import date, datetime, time
from functools import cache
from pathlib import Path

import pandas as pd
from babel import Locale
from babel.dates import format_date, format_datetime, format_time
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal
from babel.support import NullTranslations, Translations

ENGLISH = "en"
LOCALE_DIR = Path(__file__).with_name("locale")
DOMAIN = "stsa"


def _languages() -> dict[str, str]:
    """English (the texts as written), then each language that has a catalog, by its code:
    a language is one `.po` file, named as its own readers name it ("Svenska")."""
    found = {"en": "English"}
    for po in sorted(LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.po")):
        code = po.parent.parent.name
        found[code] = (Locale.parse(code).display_name or code).capitalize()
    return found


# Each language as its own readers name it, in the order the switch offers them.
LANGUAGES: dict[str, str] = _languages()

_chosen: ContextVar[str | None] = ContextVar("stsa_language", default=None)
_resolver: list[Callable[[], str | None]] = []


def N_(message: str) -> str:
    """Marks `message` for the catalogs where it is defined (a module's constant, a table's
    heading); it is translated where it is shown, with `_`."""
    return message


def known(code: object) -> str | None:
    """`code` as one of STSA's languages ("sv", "SV", "sv-SE", "sv_FI" → "sv"), else None."""
    if not isinstance(code, str) or not code.strip():
        return None
    found = code.strip().replace("_", "-").split("-")[0].lower()
    return found if found in LANGUAGES else None


def choose(*wanted: object) -> str:
    """The language a reader gets: the first of `wanted` that is one of STSA's, else English.
    The pages and the web front door ask in the same order (README, "Languages"): the
    reader's own choice, then the tournament's setting, then the browser's, where each
    applies."""
    for code in wanted:
        found = known(code)
        if found:
            return found
    return ENGLISH


def use(code: str | None) -> None:
    """This run's language from here on (a page run sets it first thing)."""
    _chosen.set(known(code) or ENGLISH)


def resolve_with(resolver: Callable[[], str | None]) -> None:
    """Where no run has set a language yet (a widget callback), ask `resolver` (the app's:
    the session's choice)."""
    _resolver[:] = [resolver]


def current() -> str:
    """The language this run reads: set by `use`/`language`, else the resolver's, else
    English."""
    found = _chosen.get()
    if found is None and _resolver:
        found = known(_resolver[0]())
    return found or ENGLISH


@contextmanager
def language(code: str | None) -> Iterator[str]:
    """Everything inside reads `code` (a slip, a pairing list, a workbook in the tournament's
    language), then the run's own language again."""
    token = _chosen.set(known(code) or ENGLISH)
    try:
        yield current()
    finally:
        _chosen.reset(token)


@cache
def catalog(code: str) -> NullTranslations:
    """The translations of language `code`, read once per process from its `.po` file (English
    and an unknown code: the texts as written)."""
    path = LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.po"
    if code == ENGLISH or not path.exists():
        return NullTranslations()
    with path.open("rb") as po:
        messages = read_po(po, locale=code, domain=DOMAIN)
    compiled = io.BytesIO()
    write_mo(compiled, messages)  # fuzzy entries are left out: they are not translations yet
    compiled.seek(0)
    return Translations(compiled, domain=DOMAIN)


def _(message: str) -> str:
    """`message` in this run's language (the English text where the catalog has none)."""
    return catalog(current()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The words for `n` things in this run's language ("1 player" / "{n} players"): each
    language has its own plural rule (French says "1 joueur", "0 joueur")."""
    return catalog(current()).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """`message` where the same English word is translated differently in `context`."""
    return str(catalog(current()).pgettext(context, message))


def placeholders(text: str) -> set[str]:
    """The `{name}` fields of `text` (for the catalog check: a translation keeps them all)."""
    return {field for _text, field, _spec, _conv in string.Formatter().parse(text)
            if field is not None}


def labels(columns: Iterable[object]) -> dict[object, object]:
    """{each of a table's English headings: its words in this run's language}, no two the
    same (issue 33). A column is chosen by its English heading, never by its words: should
    two headings share a translation (two meanings said with one word:
    tests/unit/test_catalogs.py stops that), the later one keeps its English beside it, so no
    heading reads as another's."""
    found: dict[object, object] = {}
    taken: set[str] = set()
    for column in columns:
        label = _(column) if isinstance(column, str) and column else column
        if isinstance(label, str):
            if label.casefold() in taken:
                label = f"{label} ({column})"
            taken.add(label.casefold())
        found[column] = label
    return found


def headings(table: pd.DataFrame) -> pd.DataFrame:
    """`table` with its column headings in this run's language (a shared table's English
    headings, translated at the edge; `labels`: no two the same). Choose its columns before,
    by their English headings."""
    return table.rename(columns=labels(table.columns))


_TEMPLATES: dict[str, re.Pattern[str]] = {}


def template(message: str) -> str:
    """Marks `message` ("Qualifier {number}") as a template whose filled-in English a shared
    table may hold ("Qualifier 2"): `cell` and `cells` translate such a value by it. Returns
    `message` (use it at module level, like `N_`)."""
    fields = "|".join(re.escape(f) for f in placeholders(message))
    pattern = re.escape(message)
    for name in placeholders(message):
        pattern = pattern.replace(re.escape("{" + name + "}"), f"(?P<{name}>.+?)")
    if fields:
        _TEMPLATES[message] = re.compile(f"^{pattern}$")
    return message


def cell(value: object) -> object:
    """One English value of a shared table in this run's language: a catalog entry, a
    registered `template` filled in, or the value as it is (a name, a number)."""
    if not isinstance(value, str) or not value:
        return value
    found = _(value)
    if found is not value and found != value:
        return found
    for message, pattern in _TEMPLATES.items():
        match = pattern.match(value)
        if match:
            return _(message).format(**{k: cell(v) for k, v in match.groupdict().items()})
    return value


def cells(column: pd.Series) -> pd.Series:
    """A column of English words (statuses, stages, "Qualifier 2") in this run's language;
    other values as they are. Each distinct value is looked up once."""
    if current() == ENGLISH:
        return column
    words = {v: cell(v) for v in column.dropna().unique() if isinstance(v, str)}
    return column.map(lambda v: words.get(v, v)) if words else column


def words_in(mapping: Mapping[str, str]) -> dict[str, str]:
    """A mapping of English words (a setting's choices) in this run's language."""
    return {k: _(v) for k, v in mapping.items()}


def _locale() -> Locale:
    return _locale_of(current())


@cache
def _locale_of(code: str) -> Locale:
    return Locale.parse({"en": "en_GB"}.get(code, code))  # English: day before month, 24 h


def number(value: float | int, digits: int | None = None) -> str:
    """`value` written this language's way: 1,234.5 · 1 234,5 · 1 234,5; `digits` fixes the
    decimals."""
    pattern = None if digits is None else "#,##0" + ("." + "0" * digits if digits else "")
    return format_decimal(value, format=pattern, locale=_locale())


def day(value: date, form: str = "medium") -> str:
    """A date this language's way ("3 Dec 2026", "3 dec. 2026", "3 déc. 2026")."""
    return format_date(value, format=form, locale=_locale())


def clock(value: time | datetime) -> str:
    """A time of day, 24-hour in every language here ("14:05")."""
    return format_time(value, format="HH:mm", locale=_locale())


def moment(value: datetime) -> str:
    """A date and time this language's way."""
    return format_datetime(value, format="medium", locale=_locale())


def language_name(code: str) -> str:
    """The language `code` as its readers name it ("Svenska")."""
    return LANGUAGES.get(code, code)
