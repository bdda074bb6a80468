"""Result entry on a judge's phone (390 × 844), in a real browser:

- a whole 4-player table entered and saved with the preview in view (placings, scores, the
  Tied column), the form a few screens long, not dozens (R11, R12);
- two judges saving the same table: the second sees only the values that differ, side by side,
  and chooses which result stands (R19);
- a slip's QR code opened before signing in: after the sign-in the judge is at that table.
"""

from __future__ import annotations

import re

import pytest

from stsa import store
from tests.e2e.conftest import (
    JUDGE_PIN,
    PHONE,
    click,
    enter_result,
    entry_table,
    field,
    fill_seat,
    go_to,
    grid,
    leaders,
    open_table,
    preview,
    published_qualifier,
    seat,
    wait_ready,
)

pytestmark = pytest.mark.e2e

JUDGE_A, JUDGE_B = ("Ana", JUDGE_PIN), ("Ben", JUDGE_PIN)
NAMES = ["Alia Brandt", "Duncan Moss", "Gurney Hale", "Irulan Reyes", "Jessica Lund",
         "Leto Marsh", "Liet Kynes", "Paul Weir", "Stilgar Oduya", "Thufir Nakamura",
         "Chani Dorn", "Wensicia Pike"]


@pytest.fixture(scope="module")
def sitting(server):
    """Qualifier 1 published: 12 players at three tables of four, no results yet."""
    with published_qualifier(server, NAMES, seed=7) as arranged:
        yield arranged


def _box(locator) -> dict:
    return locator.bounding_box()


def vp_font(page) -> str:
    return seat(page, 1).locator('input[aria-label="VP"]').evaluate(
        "el => getComputedStyle(el).fontSize")


def test_a_whole_table_fits_a_phone_with_the_preview_in_view(open_app, sitting):
    engine, tables = sitting
    judge = open_app(as_=JUDGE_A, viewport=PHONE)
    go_to(judge, "Results")
    values = [(9, 1, 2, 3, 1), (12, 2, 4, 3, 1), (5, 3, 6, 3, 1), (7, 4, 8, 3, 1)]
    enter_result(judge, values, table=1, save=False)

    # Each seat is one short block: the numbers side by side in one row, big enough to touch.
    first, last = _box(seat(judge, 1)), _box(seat(judge, 4))
    assert first["height"] < 230, first
    vp, water = (_box(seat(judge, 1).locator(f'input[aria-label="{n}"]')) for n in ("VP", "Water"))
    assert abs(vp["y"] - water["y"]) < 2 and water["x"] > vp["x"], "the five numbers in a row"
    assert vp["height"] >= 40 and vp["width"] >= 44, vp
    assert water["x"] + water["width"] <= PHONE["width"], "nothing off screen"
    # The preview follows the last seat: within a screen of the first seat's top.
    shown = _box(judge.locator(".stsa-preview-table"))
    assert shown["y"] + shown["height"] - first["y"] < 1.6 * PHONE["height"], shown
    assert shown["y"] > last["y"] and shown["x"] + shown["width"] <= PHONE["width"]
    assert list(preview(judge)[0]) == ["Placing", "Seat", "Player", "VP", "Score", "Tied"]
    assert vp_font(judge) == "16px", "a phone does not zoom in on a tap"
    click(judge, "Save result", expect=re.compile(r"saved as version 1"))
    saved = store.table_result(engine, tables[1]).rows.sort_values("seat")
    assert saved["vp"].tolist() == [9, 12, 5, 7]
    assert saved["water"].tolist() == [1, 1, 1, 1]


def test_two_judges_see_only_what_differs(open_app, sitting):
    engine, tables = sitting
    ana = open_app(as_=JUDGE_A, viewport=PHONE)
    ben = open_app(as_=JUDGE_B, viewport=PHONE)
    for judge in (ana, ben):
        go_to(judge, "Results")
        open_table(judge, 2)
    hers = [(10, 1, 0, 2, 0), (8, 1, 0, 2, 0), (6, 1, 0, 2, 0), (4, 1, 0, 2, 0)]
    names = enter_result(ana, hers, table=2)

    offered = leaders(ben)
    his = [*hers[:2], (6, 1, 0, 5, 0), (3, 1, 0, 2, 0)]  # seat 3's troops, seat 4's VP
    for n, values in enumerate(his, start=1):
        fill_seat(ben, n, values, offered[n - 1])
    click(ben, "Save result", expect="Which result stands?")
    ben.get_by_text(re.compile(r"Theirs · version 1 · saved by Ana")).wait_for()
    found = grid(ben, "Player", "Field", "Theirs", "Yours", rows=2)
    assert found == [{"Player": names[2], "Field": "Troops in garrison", "Theirs": "2",
                      "Yours": "5"},
                     {"Player": names[3], "Field": "VP", "Theirs": "4", "Yours": "3"}]
    box = _box(ben.locator('[data-testid="stDataFrame"]').last)
    assert box["x"] + box["width"] <= PHONE["width"], "theirs and yours side by side, in view"
    for button in ("Keep theirs", "Save mine over theirs"):
        assert ben.get_by_role("button", name=button, exact=True).is_visible()

    click(ben, "Save mine over theirs", expect="saved as version 2 (a correction).")
    result = store.table_result(engine, tables[2])
    assert (result.version, result.saved_by) == (2, "Ben")
    assert result.rows.sort_values("seat")["vp"].tolist() == [10, 8, 6, 3]


def test_a_slip_link_opened_before_signing_in_leads_to_the_table(open_app, server, sitting):
    _, tables = sitting
    judge = open_app(f"results?table={tables[3]}", viewport=PHONE)
    judge.get_by_text("sign in to enter this table's result").wait_for()
    link = judge.locator('a[href*="next=results"]', has_text="Sign in")  # not the menu's
    link.click()
    judge.get_by_role("heading", name="Sign in").wait_for()
    wait_ready(judge)
    field(judge, "Your name").fill(JUDGE_A[0])
    field(judge, "PIN").fill(JUDGE_A[1])
    judge.get_by_role("button", name="Sign in").click()
    judge.get_by_role("heading", name="Enter a result").wait_for()
    wait_ready(judge)
    assert field(judge, "Table").input_value().startswith("Table 3 ·")
    assert entry_table(judge) == tables[3]
    assert f"table={tables[3]}" in judge.url and "session=" not in judge.url
