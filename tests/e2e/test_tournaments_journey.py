"""An organizer's first day with several tournaments (R27), in a real browser: a fresh STSA
opens its one tournament straight away; the organizer tries the demo as a tournament of its
own and deletes it in one click; makes GothCon and LinCon, puts both in a season, and a
spectator reads the season's standing by nickname, with the tournament each page shows named
above its title and carried in the address."""

from __future__ import annotations

import re

import pytest

from stsa import store
from stsa.auth import Actor, Role
from tests.e2e.conftest import ORGANIZER_PIN, choose, click, field, go_to, grid, load, rerun
from tests.support.store_helpers import published_sitting, rows_for

pytestmark = pytest.mark.e2e

WHO = Actor("Olivia", Role.ORGANIZER)
PLAYERS = {"GothCon 2026": [("Alice Realname", "Spice Baron"), ("Bob Realname", "Worm Rider"),
                            ("Cora Realname", "Sietch Mother"), ("Dan Realname", "Swordmaster")],
           "LinCon 2026": [("Eve Realname", "Fremen Guide"), ("Finn Realname", "Mentat"),
                           ("Gus Realname", "Sardaukar"), ("Hana Realname", "Bene Gesserit")]}


def tournament_line(page) -> str:
    return page.get_by_text(re.compile(r"^Tournament: ")).first.inner_text()


def play_one_sitting(app, key: str, people) -> None:
    """The players imported, one qualifier drawn, published and every table's result saved,
    through the store (the results journeys cover entering them in the browser)."""
    engine = store.connect(app.database_url, tournament=key)
    try:
        ids = store.import_players(engine, [{"name": n, "nickname": k} for n, k in people],
                                   actor=WHO)["player_id"].tolist()
        _, tables = published_sitting(engine, ids=ids)
        for table_id in tables["table_id"]:
            store.submit_table_result(engine, int(table_id), rows_for(engine, int(table_id)),
                                      expected_version=0, submission_id=None, actor=WHO)
    finally:
        engine.dispose()


def test_demo_then_two_tournaments_in_a_season(open_app, fresh_server):
    organizer = open_app("tournaments", as_=("Olivia", ORGANIZER_PIN), app=fresh_server)
    assert tournament_line(organizer) == "Tournament: DUNE: Imperium tournament"
    assert "t=" not in organizer.url  # one tournament: addresses as before

    go_to(organizer, "Tournaments")
    click(organizer, "Try the demo", expect="The demo tournament is loaded and shown now.")
    assert tournament_line(organizer).startswith("Tournament: Demo: Swordmasters Open")
    click(organizer, "Delete the demo", expect="is deleted")
    assert tournament_line(organizer).startswith("Tournament: DUNE: Imperium tournament")

    for name in PLAYERS:
        organizer.get_by_text("Create a tournament").first.click()
        field(organizer, "Name").fill(name)  # a form: nothing runs until its button
        click(organizer, "Create tournament", expect=f"{name} is created and shown now.")
        organizer.get_by_text(re.compile(r"judges' PIN of")).first.wait_for()
        assert tournament_line(organizer).startswith(f"Tournament: {name}")
        assert f"t={name.lower().replace(' ', '-')}" in organizer.url
    organizer.get_by_text("Create a season").first.click()
    field(organizer, "Season name").fill("Sweden 2026")
    click(organizer, "Create season", expect="The season is created.")
    choose(organizer, "Season of this tournament", "Sweden 2026")  # LinCon, shown now
    organizer.get_by_text("This tournament's season is changed.").first.wait_for()
    load(organizer, f"{fresh_server.url}/tournaments?t=gothcon-2026")  # a bookmark
    assert tournament_line(organizer).startswith("Tournament: GothCon 2026")
    choose(organizer, "Season of this tournament", "Sweden 2026")
    organizer.get_by_text("This tournament's season is changed.").first.wait_for()

    for name, people in PLAYERS.items():
        play_one_sitting(fresh_server, name.lower().replace(" ", "-"), people)

    spectator = open_app("season?t=lincon-2026", app=fresh_server)
    assert tournament_line(spectator).startswith("Tournament: LinCon 2026")
    spectator.get_by_text("Ranked by each player's best qualifier score").first.wait_for()
    rows = grid(spectator, "Rank", "Player", rows=8)
    nicknames = {k for people in PLAYERS.values() for _, k in people}
    assert {r["Player"] for r in rows} == nicknames
    assert "Realname" not in spectator.content()  # real names are never public
    go_to(spectator, "Tournaments")
    spectator.get_by_role("button", name="Open").first.wait_for()
    assert "GothCon 2026" in spectator.content() and "LinCon 2026" in spectator.content()


def test_a_workbook_restored_into_a_fresh_install_is_the_one_shown(open_app, fresh_server,
                                                                    tmp_path):
    """Issue 33: a fresh STSA's organizer restores another laptop's workbook; the restored
    tournament is the one shown, then and on every page after, and keeps its links' key."""
    from stsa import excel

    other = store.connect(f"sqlite:///{tmp_path / 'other.db'}", backup_dir=tmp_path / "ob")
    try:
        store.set_settings(other, {"tournament_name": "Spring Open"}, actor=WHO)
        ids = store.import_players(other, [{"name": n, "nickname": k}
                                           for n, k in PLAYERS["GothCon 2026"]],
                                   actor=WHO)["player_id"].tolist()
        published_sitting(other, ids=ids)
        content = excel.tournament_workbook(other)
    finally:
        other.dispose()

    # a link naming the fresh install's tournament, as one from another laptop may
    organizer = open_app("?t=dune-imperium-tournament", as_=("Olivia", ORGANIZER_PIN),
                         app=fresh_server)
    go_to(organizer, "Data")
    assert tournament_line(organizer) == "Tournament: DUNE: Imperium tournament"
    with rerun(organizer, "the workbook's upload"):
        organizer.locator('input[type="file"]').first.set_input_files(
            {"name": "spring-open.xlsx", "buffer": content, "mimeType":
             "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"})
    click(organizer, "Restore this tournament", expect="It is a new tournament")
    assert tournament_line(organizer).startswith("Tournament: Spring Open")
    go_to(organizer, "Standings")
    assert tournament_line(organizer).startswith("Tournament: Spring Open")
    assert "t=spring-open" in organizer.url
