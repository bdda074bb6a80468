"""Smoke: the real app in a real browser. A spectator opens the home page; the organizer signs
in and sees the organizer pages; after the organizer loads the demo tournament, a spectator
sees the standings (R20)."""

import pytest

from tests.e2e.conftest import ORGANIZER_PIN, PHONE, field, go_to, new_page, wait_ready

pytestmark = pytest.mark.e2e

NAV = '[data-testid="stSidebarNavLink"]'


def nav_titles(page) -> list[str]:
    return [t.strip() for t in page.locator(NAV).all_inner_texts()]


def test_home_page_loads_for_a_spectator(open_app):
    page = open_app()
    page.get_by_role("heading", name="DUNE: Imperium tournament").wait_for()
    titles = " ".join(nav_titles(page))
    for title in ("Home", "Standings", "Draw", "Results", "Finals", "Sign in"):
        assert title in titles
    for hidden in ("Roster", "Settings", "Log"):
        assert hidden not in titles, f"spectators do not see {hidden}"


def test_organizer_signs_in_and_sees_the_roster(open_app):
    page = open_app(as_=("Olivia", ORGANIZER_PIN))
    page.get_by_text("Signed in as").first.wait_for()
    go_to(page, "Roster")
    page.get_by_role("heading", name="Roster").first.wait_for()


def test_spectator_sees_standings_after_the_organizer_loads_the_demo(open_app):
    organizer = open_app(as_=("Olivia", ORGANIZER_PIN))
    go_to(organizer, "Home")
    organizer.get_by_role("button", name="Load demo tournament").click()
    organizer.get_by_text("Demo tournament loaded").wait_for()

    spectator = open_app("standings", viewport=PHONE)
    spectator.get_by_text("24 players: the top 3 go straight to the final").wait_for()
    field(spectator, "Find a player").fill("Alia")
    field(spectator, "Find a player").press("Enter")
    spectator.get_by_role("heading", name="Alia Brandt").wait_for()
    spectator.locator(".card", has_text="Best score").wait_for()  # drawn in the browser


def test_a_first_deep_link_still_goes_through_the_role_check(browser, fresh_server):
    """The very first request after a start, for an organizer page, goes through app.py's role
    check (R20). (A folder named pages/ beside app.py would make Streamlit run that page on its
    own first; the pages live in views/ for this reason.)"""
    page = new_page(browser)
    try:
        page.set_default_timeout(10_000)
        page.goto(f"{fresh_server.url}/roster")
        wait_ready(page)
        page.locator("h1").first.wait_for()
        assert page.locator("h1").first.inner_text() != "Roster"
        assert "roster" not in " ".join(nav_titles(page)).lower()
    finally:
        page.context.close()
