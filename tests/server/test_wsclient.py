"""The websocket client (bench/wsclient.py) against a real app server: it sees what a browser
would see, signs in through the real form and sends the messages a browser sends. The
security tests and the load generator build on it, so it must be right about the protocol."""

from __future__ import annotations

import pytest

from tests.server.conftest import assert_clean, sign_in
from tests.support.appserver import JUDGE_PIN

pytestmark = pytest.mark.server


def test_home_renders_without_exception(server, connect):
    """A fresh load of the address shows the default page (Home) as a spectator: the
    navigation offers the public pages and the Sign in page, not the organizer's."""
    run = assert_clean(connect(server).run())
    assert run.page == "" and run.runs == 1
    assert "Home" in run.pages and "Sign in" in run.pages and "Settings" not in run.pages
    assert run.texts(), "Home shows some text"
    assert run.session_id, "the server names the session in its first new_session message"
    assert run.seconds > 0


def test_sign_in_page_by_address(server, connect):
    """`Session(url, path="sign_in")` opens the Sign in page as the address /sign_in does: the
    form with its two fields and its submit button."""
    run = assert_clean(connect(server, "sign_in").run())
    assert run.page == "sign_in"
    assert "Sign in" in run.texts()
    name, pin = run.widget("Your name"), run.widget("PIN")
    assert (name.kind, pin.kind) == ("text_input", "text_input")
    assert name.form_id and name.form_id == pin.form_id == run.widget("Sign in").form_id
    assert run.widget_id(key="sign_in_pin") == pin.widget_id


def test_judge_signs_in(server, connect):
    """The judge PIN signs in: the page says who is signed in, the form is gone, and the
    session stays with the connection (never in the address) across runs and pages."""
    session = connect(server, "sign_in")
    run = assert_clean(sign_in(session, "Jamal", JUDGE_PIN))
    assert any(t.startswith("Signed in as") and "Jamal" in t for t in run.texts()), run.texts()
    assert run.runs == 2, "the form's handler calls st.rerun() after signing in"
    assert not [w for w in run.widgets if w.label in ("Your name", "PIN")]
    assert "session" not in run.query_params, f"a session in the address: {run.query!r}"
    again = assert_clean(session.run())
    assert "Signed in as" in again.text() and again.query == run.query
    moved = assert_clean(session.run(page="Standings"))
    assert moved.page == "standings" and "session" not in moved.query_params
    back = assert_clean(session.run(page="sign_in"))
    assert "Signed in as" in back.text(), "still signed in after a page change"


def test_wrong_pin(server, connect):
    """A wrong PIN is refused with the app's message and nobody is signed in."""
    run = assert_clean(sign_in(connect(server, "sign_in"), "Mallory", "000000"))
    assert "That PIN is not right." in run.text(), run.texts()
    assert "Signed in as" not in run.text()
    assert "session" not in run.query_params


def test_clear_cache_is_accepted(server, connect):
    """The server takes a clear_cache message (it answers nothing) and the connection goes on
    running the app."""
    session = connect(server)
    assert_clean(session.run())
    session.clear_cache()
    run = assert_clean(session.run())
    assert "Home" in run.pages
