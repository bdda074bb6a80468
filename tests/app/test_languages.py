"""Every page in Swedish and in French, for every role (issue 25, README "Languages"): no English
sentence is left on any page of the demo tournament, and the language a reader chose stays
theirs: in the address, in the session, and not in anyone else's session."""

from __future__ import annotations

import pytest

from stsa import demo, i18n
from stsa.auth import Role
from stsa.services import admin
from stsa.ui import navigation
from tests.app.conftest import JUDGE, ORGANIZER
from tests.app.test_plain_words import CHARTS, RULING, TV_SLIDES, everything_shown
from tests.support.english import english_sentences

ROLES = [(None, Role.SPECTATOR), (JUDGE, Role.JUDGE), (ORGANIZER, Role.ORGANIZER)]


def walk(open_page, who, role, code: str) -> dict[str, list[str]]:
    """Every page `role` opens, in language `code`: {page title: its English sentences}."""
    found = {}
    for page in navigation.pages(role):
        at = open_page(page.path, as_=who, query={"lang": code})
        assert not at.exception, (page.title, at.exception)
        shown = everything_shown(at)
        if page.title == "Statistics":
            for chart in CHARTS[1:]:
                at.session_state["stats_chart"] = chart
                shown += everything_shown(at.run())
        if page.title == "TV mode":
            for _slide in range(TV_SLIDES - 1):
                shown += everything_shown(at.run())
        assert not [t for t in shown if RULING.search(t)], page.title  # plain words here too
        if english_sentences(shown):
            found[page.title] = english_sentences(shown)
    return found


@pytest.fixture
def demo_tournament(engine):
    demo.load_demo(engine, actor=ORGANIZER)
    return engine


@pytest.mark.slow
@pytest.mark.parametrize("code", ["sv", "fr"])
@pytest.mark.parametrize("who, role", ROLES, ids=["spectator", "judge", "organizer"])
def test_no_page_shows_an_english_sentence(open_page, demo_tournament, who, role, code):
    assert walk(open_page, who, role, code) == {}


def test_the_check_finds_an_english_sentence_where_there_is_one(open_page, demo_tournament):
    """The check above can fail: an English message on a Swedish page is caught, names are
    not."""
    at = open_page(query={"lang": "sv"})
    at.session_state["_flash"] = "The table changed: check and save again."
    at.run()
    caught = english_sentences(everything_shown(at))
    assert caught == ["The table changed: check and save again."]
    assert english_sentences(["Rise of Ix", "Glossu 'The Beast' Rabban vann"]) == []


def test_the_address_chooses_the_language_and_the_session_keeps_it(open_page, engine):
    at = open_page("views/standings.py", query={"lang": "sv"})
    assert at.query_params["lang"] == ["sv"] or at.query_params["lang"] == "sv"
    assert any("Ställning" in t for t in everything_shown(at))
    at.query_params.pop("lang")
    at.switch_page("views/home.py")
    at.run()
    assert at.session_state["_language"] == "sv"  # the session keeps the reader's choice
    assert any(t.startswith("Turnering: ") for t in everything_shown(at))


def test_an_unknown_language_in_the_address_shows_the_default(open_page, engine):
    at = open_page(query={"lang": "xx"})
    assert not at.exception
    assert "lang" not in at.query_params
    assert any("Standings" in t for t in everything_shown(at))


def test_the_tournaments_language_is_the_default_and_a_reader_may_choose_another(
        open_page, engine):
    admin.save_settings(engine, {"language": "fr"}, actor=ORGANIZER)
    french = open_page()
    assert any("Classement" in t for t in everything_shown(french))
    english = open_page(query={"lang": "en"})
    shown = everything_shown(english)
    assert any("Standings" in t for t in shown) and not any("Classement" in t for t in shown)


def test_the_switch_changes_this_sessions_language_only(open_page, engine):
    mine = open_page()
    theirs = open_page()
    mine.button_group(key="language_switch").set_value("fr").run()
    assert mine.query_params["lang"] in ("fr", ["fr"])
    assert any("Classement" in t for t in everything_shown(mine))
    assert any("Standings" in t for t in everything_shown(theirs.run()))
    assert i18n.current() in i18n.LANGUAGES
