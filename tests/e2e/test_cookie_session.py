"""No credential in any address (README, "On the venue's network"): in a real browser the
session lives in an HttpOnly, SameSite=Strict cookie that the page's own scripts cannot read;
a refresh keeps the person signed in, the address carries nothing another device could use,
and signing out ends it."""

import pytest

from tests.e2e.conftest import ORGANIZER_PIN, go_to, load, new_page, wait_ready

pytestmark = pytest.mark.e2e


def test_the_session_is_an_httponly_cookie_and_never_in_the_address(open_app, browser, server):
    organizer = open_app(as_=("Olivia", ORGANIZER_PIN))
    cookies = {c["name"]: c for c in organizer.context.cookies()}
    session = cookies["stsa_session"]
    assert session["httpOnly"] and session["sameSite"] == "Strict", session
    assert cookies["stsa_device"]["httpOnly"]
    assert "stsa_session" not in organizer.evaluate("document.cookie"), \
        "the page's scripts can read the session"
    for title in ("My seat", "Standings", "Settings", "TV mode"):  # TV mode has no menu
        go_to(organizer, title)
        assert "session" not in organizer.url and session["value"] not in organizer.url

    load(organizer, f"{server.url}/sign_in")  # a bookmark, opened again
    organizer.get_by_text("Signed in as").first.wait_for()

    other = new_page(browser)  # another device opening the organizer's address
    load(other, organizer.url)
    go_to(other, "Sign in")
    other.get_by_role("button", name="Sign in").wait_for()
    assert not other.get_by_text("Signed in as").count()
    other.context.close()

    organizer.get_by_role("button", name="Sign out").click()
    organizer.get_by_role("button", name="Sign in").wait_for()
    wait_ready(organizer)
    load(organizer)
    go_to(organizer, "Sign in")
    organizer.get_by_role("button", name="Sign in").wait_for()
    assert not organizer.get_by_text("Signed in as").count(), "signed in again after signing out"
