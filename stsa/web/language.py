"""Which language the words of an answer of STSA's web front door speak: the feed's and the
overlays' follow `?lang=sv|fr|en`, else the tournament's language setting, else English
(`i18n.choose`, the pages' order too); the sign-in routes', the first of STSA's languages the
browser asks for (`Accept-Language`), else English.
"""

from __future__ import annotations

from starlette.requests import Request

from stsa import i18n
from stsa.settings import Settings


def asked(request: Request) -> str | None:
    """The language the request asks for (`?lang=sv`), or None (none asked, or not one of
    STSA's)."""
    return i18n.known(request.query_params.get("lang"))


def language_of(request: Request, settings: Settings | None = None) -> str:
    """The language of an answer's words: the one asked for, else the tournament's
    (`settings.language`), else English."""
    return chosen_language(asked(request), settings)


def chosen_language(asked_for: str | None, settings: Settings | None) -> str:
    """The language asked for, else the tournament's, else English (`i18n.choose`: the
    pages' rule, without a session or a browser to ask)."""
    return i18n.choose(asked_for, getattr(settings, "language", None))


def browser_language(accepted: str | None) -> str:
    """The first of STSA's languages an `Accept-Language` header asks for ("sv-SE,sv;q=0.9,
    en;q=0.8" → "sv"), by its weights; English when it names none of them."""
    ranked = []
    for order, part in enumerate((accepted or "").split(",")):
        code, _sep, params = part.strip().partition(";")
        weight = 1.0
        for param in params.split(";"):
            name, _eq, value = param.strip().partition("=")
            if name.strip() == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = 0.0
        found = i18n.known(code)
        if found and weight > 0:
            ranked.append((-weight, order, found))
    return min(ranked)[2] if ranked else i18n.ENGLISH
