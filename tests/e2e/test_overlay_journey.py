"""A stream producer's journey (README, "Overlays"): the organizer makes an overlay of a filmed
table on the Data page, the producer loads its address in a browser of its own (as a stream's
browser source: no sign-in, no Streamlit session), a judge saves the table's result on the
Results page, and the overlay shows it by itself. Withdrawn, the address shows nothing."""

from __future__ import annotations

import re

import pytest

from tests.e2e.conftest import (
    JUDGE_PIN,
    ORGANIZER_PIN,
    choose,
    click,
    enter_result,
    field,
    go_to,
    new_page,
    published_qualifier,
)

pytestmark = pytest.mark.e2e

NAMES = ["Alia Brandt", "Duncan Moss", "Gurney Hale", "Irulan Reyes", "Jessica Lund",
         "Leto Marsh", "Liet Kynes", "Paul Weir"]
VALUES = [(9, 1, 2, 3, 1), (12, 2, 4, 3, 1), (5, 3, 6, 3, 1), (7, 4, 8, 3, 1)]


def test_an_overlay_follows_a_table_and_shows_the_judges_save(open_app, browser,
                                                            fresh_server):
    with published_qualifier(fresh_server, NAMES, seed=7):
        organizer = open_app(as_=("Olivia", ORGANIZER_PIN), app=fresh_server)
        go_to(organizer, "Data")
        field(organizer, "Label (optional: which camera or scene)").fill("Cam 1")
        click(organizer, "Make an overlay", expect="The overlay is made")
        address = organizer.locator('[data-testid="stCode"]').first.inner_text().strip()
        assert re.fullmatch(r"http://127\.0\.0\.1:\d+/overlay/[\w-]+", address), address

        stream = new_page(browser)
        asked = []
        stream.on("request", lambda r: asked.append(r.url))
        stream.goto(address)
        board = stream.locator("#overlay")
        board.get_by_text("Table 1").wait_for()
        seated = [line for line in board.inner_text().splitlines() if line.strip()]
        assert "Qualifier 1" in seated[0] and any("1st" in line for line in seated)
        assert "VP" not in board.inner_text()  # no result yet
        before = stream.evaluate("document.body.dataset.version")

        judge = open_app(as_=("Ana", JUDGE_PIN), app=fresh_server)
        go_to(judge, "Results")
        players = enter_result(judge, VALUES, table=1)
        # The overlay asks every second with its ETag; the save shows without a reload.
        board.get_by_text("12 VP").wait_for(timeout=10_000)
        assert stream.evaluate("document.body.dataset.version") != before
        assert players[1] in board.inner_text() and "#1" in board.inner_text()
        assert not [u for u in asked if "/_stcore/" in u or "stream" in u.split("/")[-1]]
        assert {u.split("?")[0].rsplit("/", 2)[-2] for u in asked} <= {"overlay", "overlays"}

        go_to(organizer, "Data")
        choose(organizer, "Withdraw", re.compile(r"Cam 1"))
        click(organizer, "Withdraw this overlay", expect="Withdrawn")
        board.get_by_text("withdrawn").wait_for(timeout=10_000)
