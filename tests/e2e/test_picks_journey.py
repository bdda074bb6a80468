"""A journey in a real browser with Vote Off and Wild Card: the organizer chooses them in
Settings, draws and publishes a 4-player sitting; a judge on a phone enters the votes, draws
the wild cards, enters the result and saves it; the stored result has the wild-card leaders."""

from __future__ import annotations

import re

import pytest

from stsa import store
from stsa.auth import Actor, Role
from tests.e2e.conftest import (
    JUDGE_PIN,
    ORGANIZER_PIN,
    PHONE,
    click,
    fill_seat,
    go_to,
    listed,
    open_table,
    rerun,
    seat,
    type_text,
    wait_ready,
)

pytestmark = pytest.mark.e2e

ORGANIZER = ("Olivia", ORGANIZER_PIN)
JUDGE = ("Ana", JUDGE_PIN)
NAMES = ["Alia Brandt", "Duncan Moss", "Gurney Hale", "Irulan Reyes"]


def _form_choose(page, label: str, options: list[str]) -> None:
    """Choose `options` in a multiselect or select box of a form (no run until submitted):
    open its list from the keyboard, type each option to narrow the list, click it."""
    box = page.locator(f'input[role="combobox"][aria-label="{label}"]').first
    for option in options:
        box.focus()
        box.press("ArrowDown")
        box.fill(option)
        listed(page, option, exact=True).first.click()
    if len(options) > 1:  # a multiselect's list stays open
        box.press("Escape")
    # A list left open takes the next click (on another box or the form's button) to close;
    # a focused box with long names is a line taller, and the blur of the next click would
    # move the button from under the pointer: leave the box first, as a thumb moving on does.
    page.get_by_role("listbox").wait_for(state="hidden")
    box.blur()


def _deck(page, label: str) -> list[str]:
    box = page.locator(f'input[role="combobox"][aria-label="{label}"]').first
    box.click()  # opens the list as a tap does
    if not listed(page).count():
        box.press("ArrowDown")
    listed(page).first.wait_for()
    found = [o.strip() for o in listed(page).all_inner_texts()
             if o.strip() != "Select all"]
    box.press("Escape")
    return found


def page_height(page) -> int:
    """How far a person scrolls on the page: the app's scrolling area's full height (px)."""
    return page.evaluate("""() => (document.querySelector('[data-testid="stMain"]')
                                   || document.scrollingElement).scrollHeight""")


def test_vote_off_and_wild_card_through_the_pages(fresh_server, open_app):
    app = fresh_server
    organizer = open_app(as_=ORGANIZER, app=app)
    judge = open_app(as_=JUDGE, app=app, viewport=PHONE)

    go_to(organizer, "Settings")
    organizer.get_by_text("Vote Off", exact=True).click()
    organizer.get_by_text(re.compile(r"^Wild card after picks")).click()
    with rerun(organizer):
        organizer.get_by_role("button", name="Save settings").click()
    organizer.get_by_text("Settings saved.").wait_for()

    go_to(organizer, "Roster")
    type_text(organizer, "Players", "\n".join(NAMES))
    click(organizer, "Import list", expect="Imported 4 players.")
    click(organizer, "Check in all active", expect="Checked in 4 more players.")
    go_to(organizer, "Draw")
    click(organizer, "Draw", expect="Qualifier 1 drawn from seed")
    click(organizer, "Publish", expect="Published: everyone now sees this draw.")

    go_to(judge, "Results")
    open_table(judge, 1)
    judge.get_by_text("Leader votes").wait_for()
    labels = judge.locator('[data-testid="stMultiSelect"] label').all_inner_texts()
    voters = [label.strip() for label in labels if "(seat" in label]
    assert len(voters) == 4, labels
    deck = _deck(judge, voters[0])
    for voter in voters:  # everyone votes off the first two: they leave
        _form_choose(judge, voter, deck[:2])
    click(judge, "Remove leaders", expect=re.compile(r"^Removed .+ and .+\.$"))
    for leader in deck[:2]:
        judge.get_by_text(re.compile(rf"^Removed: {re.escape(leader)} · 4 votes · most votes"))\
            .wait_for()

    judge.get_by_text("Wild Card", exact=True).wait_for()
    wait_ready(judge)
    picks_open = page_height(judge)
    left = deck[2:6]
    for n, voter in enumerate(voters):
        _form_choose(judge, f"{voter} picked", [left[n]])
    swap = judge.locator('[class*="st-key-pick_"][class*="_swap_1"]')
    swap.get_by_text("Take a random one").click()
    click(judge, "Draw wild cards", expect="Wild cards drawn")
    # The picks are done: they fold into one line above the result form (a phone's screen).
    done = judge.get_by_text(re.compile(
        rf"Leader picks: removed {re.escape(deck[0])} and {re.escape(deck[1])} · 1 wild card "
        rf"drawn$"))
    done.click()
    judge.get_by_text(re.compile(r"drawn \(gave up")).wait_for()
    wait_ready(judge)

    # The picks fold away: their choosers are gone and the whole page, the four seats' form
    # included, is shorter on a phone than while the picks were open (how much shorter
    # depends on the fonts that wrap the lines: 300-1,500 px measured).
    assert judge.locator('[data-testid="stMultiSelect"] label', has_text="(seat").count() == 0
    assert page_height(judge) < picks_open, (page_height(judge), picks_open)
    leaders = [seat(judge, n).locator("select").input_value() for n in range(1, 5)]
    assert leaders[1:] == left[1:4] and leaders[0] in deck[:2]
    for n in range(1, 5):
        fill_seat(judge, n, (20 - n, n, 0, 0, 0))
    click(judge, "Save result", expect=re.compile(r"saved as version 1"))

    engine = store.connect(app.database_url)
    try:
        result = store.table_result(engine, _only_table(engine))
        stored = result.rows.sort_values("seat")["leader"].tolist()
        cards = store.wild_card_choices(engine, _only_table(engine),
                                        actor=Actor("Check", Role.ORGANIZER))
    finally:
        engine.dispose()
    assert stored == cards["leader"].tolist() == leaders


def _only_table(engine) -> int:
    who = Actor("Check", Role.ORGANIZER)
    sitting = int(store.sittings(engine, actor=who)["sitting_id"].iloc[0])
    return int(store.tables(engine, sitting, actor=who)["table_id"].iloc[0])
