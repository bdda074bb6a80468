"""A Swedish-speaking player follows a sitting on their phone in Swedish while the organizer
works in English (README, "Languages"): the phone's browser asks for Swedish, so My seat opens
in Swedish; the organizer's pages stay English as the organizer draws, publishes and enters the
player's result; the player switches to French with one tap, and the address keeps it."""

import re

import pytest

from stsa import demo, i18n, store
from stsa.auth import Actor, Role
from stsa.i18n import _
from stsa.services import draws
from tests.e2e.conftest import (
    ORGANIZER_PIN,
    PHONE,
    click,
    enter_result,
    go_to,
    load,
    rerun,
    type_text,
    wait_ready,
)

pytestmark = pytest.mark.e2e
OLIVIA = Actor("Olivia", Role.ORGANIZER)


def said(code: str, message: str, **fields) -> str:
    """`message` as a reader of language `code` reads it."""
    with i18n.language(code):
        return _(message).format(**fields)


def heading(page, text: str):
    return page.get_by_role("heading", name=text, exact=True)


def seat_games(page) -> list[dict]:
    """My seat's games table (its live element's), as {heading: text} rows."""
    table = page.locator("table.games")
    heads = [h.strip() for h in table.locator("thead th").all_inner_texts()]
    return [dict(zip(heads, [c.strip() for c in row.locator("td").all_inner_texts()]))
            for row in table.locator("tbody tr").all()]


def test_a_swedish_player_follows_the_sitting_while_the_organizer_works_in_english(
        open_app, fresh_server):
    engine = store.connect(fresh_server.database_url)
    demo.load_demo(engine, actor=OLIVIA)

    drawn = draws.draw_qualifier(engine, store.players(engine)["player_id"].tolist(),
                                 seed=25, actor=OLIVIA)
    draws.publish(engine, drawn["sitting_id"], actor=OLIVIA)
    seats = store.seats(engine, drawn["sitting_id"])
    organizer = open_app(as_=("Olivia", ORGANIZER_PIN), app=fresh_server)
    go_to(organizer, "Draw")
    heading(organizer, "Draw").wait_for()
    player = seats.loc[seats["seat"] == 2].iloc[0]
    table, nickname = int(player["table_no"]), str(player["name"])

    phone = open_app(viewport=PHONE, app=fresh_server, locale="sv-SE")
    go_to(phone, said("sv", "My seat"))
    heading(phone, said("sv", "My seat")).wait_for()
    type_text(phone, said("sv", "Your nickname"), nickname.split()[0].lower())
    click(phone, nickname)
    heading(phone, said("sv", "Table {table} · seat {seat}", table=table, seat=2)).wait_for()
    assert "Min plats" in phone.content() and "Ställning" in phone.content()

    # Meanwhile the organizer's pages are in English, the same moment, the same tournament.
    go_to(organizer, "Results")
    heading(organizer, "Results").wait_for()
    enter_result(organizer, [(12 - n, 2, 1, 0, 0) for n in range(len(
        seats.loc[seats["table_no"] == table]))], table=table, sitting="Qualifier 4")
    assert organizer.get_by_text("Min plats").count() == 0

    # The player's page shows the result in Swedish by itself (its placing under
    # "Ställning"), with no reload.
    heading(phone, said("sv", "Standing")).wait_for()
    phone.locator("table.games tbody tr").nth(3).wait_for()
    games = seat_games(phone)
    assert said("sv", "Qualifier {number}", number=4) in {row[said("sv", "Sitting")]
                                                          for row in games}, games
    assert said("sv", "Placing") in games[0]

    # One tap: French, kept in the address (a bookmark opens in French) and for this phone only.
    with rerun(phone, "the language switch"):
        phone.get_by_text("Français", exact=True).click()
    heading(phone, said("fr", "My seat")).wait_for()
    assert re.search(r"[?&]lang=fr(&|$)", phone.url), phone.url
    bookmark = open_app(phone.url.split("/", 3)[3], viewport=PHONE, app=fresh_server)
    heading(bookmark, said("fr", "My seat")).wait_for()

    load(organizer)
    wait_ready(organizer)
    heading(organizer, "Results").wait_for()
    engine.dispose()
