"""Readable by everyone: axe-core (the engine of browsers' accessibility audits, from the pinned
axe-playwright-python package) checks every page each role opens, on the demo tournament, in a
real browser. No serious or critical violation may remain: colour contrast, names of controls,
labels, landmarks. A spectator is signed out: spectators need no sign-in."""

from __future__ import annotations

import pytest

from stsa import demo, store
from stsa.auth import Actor, Role
from stsa.ui import navigation
from tests.e2e.conftest import JUDGE_PIN, ORGANIZER_PIN, go_to

pytestmark = pytest.mark.e2e

SIGN_INS = {Role.ORGANIZER: ("Olivia", ORGANIZER_PIN), Role.JUDGE: ("Jamal", JUDGE_PIN),
            Role.SPECTATOR: None}
SEVERE = ("serious", "critical")


@pytest.fixture(scope="module")
def demo_server(server):
    """The module's app with the demo tournament loaded (three complete qualifiers)."""
    engine = store.connect(server.database_url)
    try:
        demo.load_demo(engine, actor=Actor("Olivia", Role.ORGANIZER))
    finally:
        engine.dispose()
    return server


def severe_violations(page) -> list[str]:
    """axe-core's serious and critical findings on the page as it is now, one line each:
    the rule, its impact, and up to three of the elements it names."""
    from axe_playwright_python.sync_playwright import Axe

    found = Axe().run(page).response["violations"]
    return [f"{v['id']} ({v['impact']}): {v['help']}: " + "; ".join(
                f"{_text(node)} [{_why(node)}]" for node in v["nodes"][:4])
            + (f" … and {len(v['nodes']) - 4} more" if len(v["nodes"]) > 4 else "")
            for v in found if v["impact"] in SEVERE]


def _text(node: dict) -> str:
    """The element axe names, short: its HTML's start."""
    return node["html"][:90]


def _why(node: dict) -> str:
    """What axe measured (colours and contrast for colour contrast), else its summary."""
    for check in node.get("any", []) + node.get("all", []) + node.get("none", []):
        data = check.get("data")
        if isinstance(data, dict) and "contrastRatio" in data:
            return (f"{data.get('fgColor')} on {data.get('bgColor')}: "
                    f"{data.get('contrastRatio')}, needs {data.get('expectedContrastRatio')}")
    return node.get("failureSummary", "").replace("\n", " ")[:160]


@pytest.mark.slow
@pytest.mark.parametrize("role", list(SIGN_INS), ids=lambda r: r.value)
def test_every_page_has_no_serious_accessibility_violation(open_app, demo_server, role):
    page = open_app(as_=SIGN_INS[role], app=demo_server)
    problems = {}
    # TV mode hides the navigation: it comes last
    for each in sorted(navigation.pages(role), key=lambda p: p.title == "TV mode"):
        go_to(page, each.title)
        if each.title == "TV mode":
            page.get_by_text("Slide 1 of").first.wait_for()
        found = severe_violations(page)
        if found:
            problems[each.title] = found
    assert not problems, "\n".join(f"{title}:\n  " + "\n  ".join(lines)
                                   for title, lines in problems.items())


def test_an_organizer_pages_address_says_why_it_goes_home(open_app, demo_server):
    """A spectator follows a link to the Roster page: Home opens, saying why, in the browser's
    address too; the organizer's page never showed."""
    page = open_app("roster", app=demo_server)
    page.get_by_text("The Roster page is for the organizer only.").wait_for()
    assert page.locator("h1").first.inner_text() == "Demo: Swordmasters Open"
    assert not page.url.rstrip("/").endswith("/roster")
