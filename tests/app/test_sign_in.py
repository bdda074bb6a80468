"""Sign-in (R20): PINs give roles, wrong PINs are refused and rate-limited, pages follow roles."""

import pytest

from stsa import store
from stsa.auth import Actor, Role
from tests.app.conftest import JUDGE, JUDGE_PIN, ORGANIZER, ORGANIZER_PIN, shown


@pytest.mark.parametrize("page", ["views/roster.py", "views/settings.py", "views/log.py",
                                  "views/data.py"])
def test_an_organizer_page_sends_others_home_and_says_why(open_page, page):
    """A spectator or judge at an organizer page's address lands on Home, told in plain words
    that the page is for the organizer; the page itself never runs (R20)."""
    title = page.removeprefix("views/").removesuffix(".py").capitalize()
    for who in (None, JUDGE):
        at = open_page(page, as_=who)
        assert not at.exception
        assert at.title[0].value == "DUNE: Imperium tournament", "Home"
        assert shown(at.info)[0] == (f"The {title} page is for the organizer only. The "
                                     f"organizer signs in on the Sign in page with the "
                                     f"organizer PIN.")
        assert not at.warning, "the page's own guard never ran"
        at.switch_page("views/home.py").run()
        assert not any("for the organizer" in m for m in shown(at.info)), "said once"


def test_organizer_can_open_every_page(open_page):
    for page in ("views/roster.py", "views/settings.py", "views/log.py", "views/draw.py",
                 "views/results.py", "views/standings.py", "views/finals.py"):
        at = open_page(page, as_=ORGANIZER)
        assert not at.exception, page


def test_organizer_pin_signs_in_as_organizer(open_page):
    at = open_page("views/sign_in.py")
    at.text_input(key="sign_in_name").input("Olivia")
    at.text_input(key="sign_in_pin").input(ORGANIZER_PIN)
    at.button[0].click().run()
    assert not at.exception
    assert at.session_state["actor"].role.value == "organizer"
    assert at.session_state["actor"].name == "Olivia"


def test_judge_pin_signs_in_as_judge(open_page):
    at = open_page("views/sign_in.py")
    at.text_input(key="sign_in_name").input("Jamal")
    at.text_input(key="sign_in_pin").input(JUDGE_PIN)
    at.button[0].click().run()
    assert at.session_state["actor"].role.value == "judge"


def test_wrong_pin_refused_then_rate_limited(open_page):
    at = open_page("views/sign_in.py")
    for _ in range(5):
        at.text_input(key="sign_in_name").input("Mallory")
        at.text_input(key="sign_in_pin").input("0000")
        at.button[0].click().run()
        assert "That PIN is not right." in [e.value for e in at.error]
    at.text_input(key="sign_in_pin").input(ORGANIZER_PIN)
    at.button[0].click().run()
    assert any("Too many wrong PINs" in e.value for e in at.error)
    assert at.session_state["actor"].role.value == "spectator"


def test_name_is_required(open_page):
    at = open_page("views/sign_in.py")
    at.text_input(key="sign_in_pin").input(ORGANIZER_PIN)
    at.button[0].click().run()
    assert any("Enter your name" in e.value for e in at.error)


def test_signed_in_person_can_sign_out(open_page, engine):
    at = open_page("views/sign_in.py", as_=JUDGE)
    assert "Jamal Judge" in at.markdown[0].value.replace("\\", "")
    token = at.session_state["session_id"]
    assert "session" not in at.query_params, "no credential in the address"
    at.button(key="sign_out").click().run()
    assert at.session_state["actor"].role.value == "spectator"
    # The session from before signing out signs nobody in again (its cookie is dead too).
    assert store.session_actor(engine, token) is None


def test_sign_in_puts_no_session_in_the_address(open_page, engine):
    """R20: the session goes to the browser through a one-time handoff code and an HttpOnly
    cookie (a refresh reads it: tests/e2e/test_cookie_session.py), never in the address."""
    at = open_page("views/sign_in.py")
    at.text_input(key="sign_in_name").input("Jamal")
    at.text_input(key="sign_in_pin").input(JUDGE_PIN)
    at.button[0].click().run()
    assert "session" not in at.query_params
    token = at.session_state["session_id"]
    assert store.session_actor(engine, token) == Actor("Jamal", Role.JUDGE)


@pytest.mark.parametrize("page, who", [("views/sign_in.py", None),
                                       ("views/settings.py", ORGANIZER)])
def test_every_text_box_has_a_length_limit(open_page, page, who):
    at = open_page(page, as_=who)
    assert at.text_input and all(box.max_chars for box in at.text_input), \
        [box.label for box in at.text_input if not box.max_chars]


def test_forged_session_token_is_dropped(open_page):
    at = open_page(query={"session": "organizer.1.QW5u.forged"})
    assert at.session_state["actor"].role.value == "spectator"
    assert "session" not in at.query_params


@pytest.mark.parametrize("page", ["roster", "settings", "log"])
def test_organizer_page_reached_directly_stops_for_others(db_url, page):
    """Even run by its address, outside the navigation, an organizer page shows nothing else."""
    from streamlit.testing.v1 import AppTest

    from tests.app.conftest import APP
    for who in (None, JUDGE):
        at = AppTest.from_file(APP.replace("app.py", f"views/{page}.py"), default_timeout=30)
        if who is not None:
            at.session_state["actor"] = who
        at.run()
        assert not at.exception
        assert any("for the organizer" in w.value for w in at.warning)
        assert not at.button and not at.text_input
