"""Undoing mistakes after publishing, in a real browser (R1, R3, R19, R20):

- the organizer publishes a sitting by mistake and voids it: a spectator no longer sees it, and
  the next draw is Qualifier 1 again;
- a player does not come to a published table: a late player takes the seat, another table of
  four plays with three, and a judge enters that table's three-player result.
"""

from __future__ import annotations

import re

import pandas as pd
import pytest

from stsa import store
from stsa.auth import Actor, Role
from tests.e2e.conftest import (
    JUDGE_PIN,
    ORGANIZER_PIN,
    PHONE,
    choose,
    click,
    enter_result,
    go_to,
    grid,
    load,
    options,
    rerun,
    type_text,
)

pytestmark = pytest.mark.e2e

ORGANIZER = ("Olivia", ORGANIZER_PIN)
JUDGE = ("Ana", JUDGE_PIN)
ARRANGER = Actor("Olivia", Role.ORGANIZER)
NAMES = ["Alia Brandt", "Duncan Moss", "Gurney Hale", "Irulan Reyes", "Jessica Lund",
         "Leto Marsh", "Liet Kynes", "Paul Weir"]


def _roster(app, names, late=()):
    """The players (checked in) and late arrivals (checked in, after the draw), through the
    store: these journeys start at the Draw page."""
    engine = store.connect(app.database_url)
    try:
        ids = store.import_players(engine, pd.DataFrame({"name": [*names, *late]}),
                                   actor=ARRANGER)["player_id"].tolist()
        store.check_in(engine, ids[:len(names)], actor=ARRANGER)
        return ids
    finally:
        engine.dispose()


def _expand(page, title: str, inside: str) -> None:
    """Open the expander `title` unless it is open (its field `inside` shows)."""
    if not page.locator(f'input[aria-label="{inside}"]').first.is_visible():
        page.locator('[data-testid="stExpander"] summary', has_text=title).first.click()
    field = page.locator(f'input[aria-label="{inside}"]').first
    field.wait_for()
    field.evaluate("el => el.scrollIntoView({block: 'center'})")  # room for its list below


def _choose(page, label: str, option: str) -> None:
    """`choose`, the select box's list opened by a click first (after a change the keyboard
    alone does not always open it)."""
    page.locator(f'input[role="combobox"][aria-label="{label}"]').first.click()
    choose(page, label, option)


def _tick(page, label: str) -> None:
    with rerun(page, f"the app to take “{label}”"):
        page.get_by_text(label, exact=True).click()


def test_a_sitting_published_by_mistake_is_voided(fresh_server, open_app):
    _roster(fresh_server, NAMES)
    organizer = open_app(as_=ORGANIZER, app=fresh_server)
    spectator = open_app("draw", app=fresh_server, viewport=PHONE)
    spectator.get_by_text("No draw has been published yet").wait_for()

    go_to(organizer, "Draw")
    click(organizer, "Draw", expect="Qualifier 1 drawn from seed")
    click(organizer, "Publish", expect="Published: everyone now sees this draw.")
    load(spectator)
    assert len(grid(spectator, "Table", "Seat", "Player", rows=8)) == 8

    _expand(organizer, "Void Qualifier 1", "Reason for voiding (goes into the log)")
    type_text(organizer, "Reason for voiding (goes into the log)", "Published too early")
    _tick(organizer, "Yes, void Qualifier 1")
    click(organizer, "Void Qualifier 1",
          expect="Qualifier 1 was voided; its seed and seating stay in the log.")
    organizer.get_by_text("No sitting has been drawn yet.").wait_for()

    load(spectator)
    spectator.get_by_text("No draw has been published yet").wait_for()
    click(organizer, "Draw", expect="Qualifier 1 drawn from seed")

    engine = store.connect(fresh_server.database_url)
    try:
        logged = store.events(engine, action="sitting.void", actor=ARRANGER).iloc[-1]
    finally:
        engine.dispose()
    assert logged["actor"] == "Olivia" and logged["after"]["reason"] == "Published too early"
    assert len(logged["before"]["seats"]) == 8, "the log keeps the seating"


def test_a_no_show_is_replaced_and_a_table_plays_with_three(fresh_server, open_app):
    ids = _roster(fresh_server, NAMES, late=["Chani Dorn"])
    organizer = open_app(as_=ORGANIZER, app=fresh_server)
    go_to(organizer, "Draw")
    click(organizer, "Draw", expect="Qualifier 1 drawn from seed")
    click(organizer, "Publish", expect="Published: everyone now sees this draw.")
    seats = grid(organizer, "Table", "Seat", "Colour", "Player", rows=8)
    gone = next(r for r in seats if r["Table"] == "1" and r["Seat"] == "2")
    engine = store.connect(fresh_server.database_url)
    try:  # the late player arrives after the draw
        store.check_in(engine, [ids[-1]], actor=ARRANGER)
    finally:
        engine.dispose()
    load(organizer)

    _expand(organizer, "A player did not come", "Who did not come")
    _choose(organizer, "Who did not come", f"{gone['Player']} · table 1, seat 2")
    assert options(organizer, "Who takes the seat") == ["Nobody: table 1 plays with 3",
                                                        "Chani Dorn"]
    _choose(organizer, "Who takes the seat", "Chani Dorn")
    type_text(organizer, "Reason for the change (goes into the log)", "Stuck in traffic")
    click(organizer, "Change the table",
          expect=f"Chani Dorn takes seat 2 at Qualifier 1, table 1 in place of {gone['Player']}.")
    seats = grid(organizer, "Table", "Seat", "Colour", "Player", rows=8)
    now = next(r for r in seats if r["Table"] == "1" and r["Seat"] == "2")
    assert (now["Player"], now["Colour"]) == ("Chani Dorn", gone["Colour"])

    leaving = next(r for r in seats if r["Table"] == "2" and r["Seat"] == "1")
    _expand(organizer, "A player did not come", "Who did not come")
    _choose(organizer, "Who did not come", f"{leaving['Player']} · table 2, seat 1")
    _choose(organizer, "Who takes the seat", "Nobody: table 2 plays with 3")
    click(organizer, "Change the table", expect=re.compile(r"the table now plays with 3\.$"))
    seats = grid(organizer, "Table", "Seat", "Player", rows=7)
    assert [r["Seat"] for r in seats if r["Table"] == "2"] == ["1", "2", "3"]

    judge = open_app(as_=JUDGE, app=fresh_server, viewport=PHONE)
    go_to(judge, "Results")
    played = enter_result(judge, [(9, 1, 1, 1, 1), (7, 1, 1, 1, 1), (5, 1, 1, 1, 1)], table=2)
    assert leaving["Player"] not in played
