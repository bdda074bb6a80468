"""A convention day's main line on phones (R1, R2, R11–R18, R19, R22): the organizer checks in
the players who came by pasting the booking list (names and nicknames, a typo refused and
fixed), draws and publishes a qualifier; a judge's phone drops in the middle of a table's
entry and what was typed comes back; a save goes on to the next table; the semifinal and the
final are played; the champion shows at the top of Home and on the player's My seat.

Everyone is on a 390 px-wide phone, the organizer too."""

from __future__ import annotations

import re

import pandas as pd
import pytest
from playwright.sync_api import expect

from stsa import store
from stsa.auth import Actor, Role
from tests.e2e.conftest import (
    JUDGE_PIN,
    ORGANIZER_PIN,
    PHONE,
    click,
    enter_result,
    entry_table,
    fill_seat,
    go_to,
    leaders,
    load,
    seat,
    seat_names,
    type_in,
    type_text,
    wait_ready,
)

pytestmark = pytest.mark.e2e

ORGANIZER = ("Olivia", ORGANIZER_PIN)
JUDGE = ("Ana", JUDGE_PIN)
# Pre-registered with nicknames, as the convention's booking exports them; the filmed games
# name players by nickname only (R22).
ROSTER = [("Alia Brandt", "Sandrider"), ("Duncan Moss", "Swordmaster"),
          ("Gurney Hale", "Baliset"), ("Irulan Reyes", "Historian"), ("Jessica Lund", "Bene"),
          ("Leto Marsh", "Duke"), ("Liet Kynes", "Planetologist"), ("Paul Weir", "Usul")]
CAME = ["Alia Brandt", "Swordmaster", "gurney hale", "Historian", "Jessica Lund",
        "Duke", "Liet Kynes"]  # Paul did not come: 7 players, tables of 4 and 3 (R1)


def stats(vp: int, seat_no: int) -> tuple[int, ...]:
    return (vp, seat_no, 1, 2, 0)


def table(*vps: int) -> list[tuple[int, ...]]:
    return [stats(vp, s) for s, vp in enumerate(vps, start=1)]


@pytest.fixture
def roster(fresh_server):
    engine = store.connect(fresh_server.database_url)
    store.import_players(engine, pd.DataFrame(ROSTER, columns=["name", "nickname"]),
                         actor=Actor("Olivia", Role.ORGANIZER))
    engine.dispose()
    return fresh_server


def test_a_convention_day_on_phones(roster, open_app):
    app = roster
    organizer = open_app(as_=ORGANIZER, app=app, viewport=PHONE)
    judge = open_app(as_=JUDGE, app=app, viewport=PHONE)

    # Check-in by the booking list, pasted: a typo names its line and checks in nobody.
    go_to(organizer, "Roster")
    organizer.get_by_text("Check in a list").click()
    type_text(organizer, "Names or nicknames", "\n".join([*CAME[:-1], "Liet Kines"]))
    click(organizer, "Check in this list",
          expect=re.compile(r'line 7, "Liet Kines": no player has that name or nickname '
                            r'\(did you mean "Liet Kynes"\?\)'))
    organizer.get_by_text("0 of 8 active players checked in.").wait_for()
    type_text(organizer, "Names or nicknames", "\n".join(CAME))
    click(organizer, "Check in this list", expect="Checked in 7 players.")
    organizer.get_by_text("7 of 8 active players checked in. Table plan: 2 tables").wait_for()

    go_to(organizer, "Draw")
    organizer.get_by_text("7 players checked in").wait_for()
    click(organizer, "Draw", expect="Qualifier 1 drawn from seed")
    click(organizer, "Publish", expect="Published: everyone now sees this draw.")

    # The judge's phone drops in the middle of table 1: two seats typed, then no network.
    go_to(judge, "Results")
    assert entry_table(judge) > 0
    fill_seat(judge, 1, stats(11, 1), leaders(judge)[0])
    type_in(seat(judge, 2), "VP", 8)
    judge.context.set_offline(True)
    judge.context.set_offline(False)
    load(judge)  # back on the network, the phone reloads the page
    judge.get_by_text(re.compile(r"^Restored what you typed at .* and did not save")).wait_for()
    expect(seat(judge, 1).locator('input[aria-label="VP"]')).to_have_value("11")
    expect(seat(judge, 2).locator('input[aria-label="VP"]')).to_have_value("8")
    players = seat_names(judge)
    first = enter_result(judge, table(11, 8, 5, 2)[:len(players)], table=1)
    # On to table 2 without choosing it: the judge walks to the next table.
    judge.get_by_text("Table 1 is saved. This is table 2, the next waiting for a result.")\
        .wait_for()
    second = enter_result(judge, table(10, 7, 4, 1)[:len(seat_names(judge))], table=2)
    assert len(first) + len(second) == 7

    # The finals: 7 players, 4 straight to the final, 3 play the semifinal (R16).
    go_to(organizer, "Finals")
    click(organizer, "Draw the semifinal", expect="The semifinal is drawn")
    click(organizer, "Publish the semifinal", expect="The semifinal is published")
    go_to(judge, "Results")
    enter_result(judge, table(9, 6, 3), table=1, sitting="Semifinal")
    go_to(organizer, "Home")
    go_to(organizer, "Finals")
    click(organizer, "Draw the final", expect="The final is drawn")
    click(organizer, "Publish the final", expect="The final is published")
    go_to(judge, "Results")
    at_final = enter_result(judge, table(12, 9, 6, 3), table=1, sitting="Final")
    champion = dict(ROSTER)[at_final[0]]  # seat 1 scored 12 VP; the public name (R22)

    # The champion at the top of Home, for anyone on a phone; by nickname (R22).
    spectator = open_app(app=app, viewport=PHONE)
    banner = spectator.get_by_role("heading", name=re.compile(
        rf"Champion: {re.escape(champion)}$"))
    banner.wait_for()
    assert banner.bounding_box()["y"] < PHONE["height"], "the champion shows without a scroll"
    shown = spectator.content() + " ".join(spectator.locator(".stsa-live").all_inner_texts())
    assert champion in shown and not any(name in shown for name, _ in ROSTER), "nicknames only"

    # My seat: the champion reads their final place and that the tournament is over.
    phone = open_app(viewport=PHONE, app=app)
    go_to(phone, "My seat")
    type_text(phone, "Your nickname", champion.lower())
    click(phone, champion)
    phone.get_by_text(re.compile(r"1st in the final standings: you are the champion; .* after "
                                 r"the qualifiers\. The tournament is over\.")).wait_for()
    wait_ready(phone)
