"""Result entry as a judge on the day meets it (R11, R12, R19): what is typed stays in the
judge's browser until the server saved it (never in the database, never another person's),
and an entry put back after a reload is saved over the version it was typed on; numbers far
above a usual game's ask for a tick first; a save is one run that checks everything again.
The browser side (drafts kept and put back, the preview) has its tests in tests/e2e."""

from __future__ import annotations

import pytest

from stsa import store
from stsa.services import results
from tests.app.conftest import (
    JUDGE,
    ORGANIZER,
    entry_data,
    fill_entry,
    save_entry,
)
from tests.app.test_results import OTHER_JUDGE, VALUES, _open_table, _table
from tests.support.store_helpers import SPECTATOR


def texts(elements) -> str:
    return " ".join(e.value for e in elements)


def test_each_person_table_and_tournament_has_its_own_draft_in_the_browser(open_page, engine,
                                                                           sitting):
    table, _ = _table(engine, sitting)
    other, _ = _table(engine, sitting, table_no=2)
    jamal = entry_data(_open_table(open_page, JUDGE, table))["draft_key"]
    kim = entry_data(_open_table(open_page, OTHER_JUDGE, table))["draft_key"]
    olga = entry_data(_open_table(open_page, ORGANIZER, table))["draft_key"]
    next_table = entry_data(_open_table(open_page, JUDGE, other))["draft_key"]
    assert len({jamal, kim, olga, next_table}) == 4
    assert jamal.endswith(f"/{int(table['table_id'])}/{JUDGE.name}")
    name = store.settings(engine)["tournament_name"]  # another tournament: another key
    assert jamal.startswith(f"stsa.result/{int(store.tournaments(engine)['tournament_id'].iloc[0])}"
                            f":{name}/")


def test_typing_and_saving_write_no_database_draft(open_page, engine, sitting):
    """The page keeps no draft in the database any more: a refused save leaves nothing there
    either (what was typed stays in the browser)."""
    table, _ = _table(engine, sitting)
    tid = int(table["table_id"])
    values = fill_entry(engine, table, VALUES)
    values[4]["vp"] = None
    at = save_entry(_open_table(open_page, JUDGE, table), values)
    assert "VP is missing" in at.error[0].value
    assert store.draft(engine, tid, actor=JUDGE) is None


def test_an_entry_put_back_after_a_reload_meets_a_save_made_since(open_page, engine, sitting):
    """Jamal typed table 1 on version 0 and his phone reloaded after Kim saved it: the
    browser puts his entry back on version 0, so his save shows both versions instead of
    overwriting Kim's."""
    table, _ = _table(engine, sitting)
    tid = int(table["table_id"])
    save_entry(_open_table(open_page, OTHER_JUDGE, table), fill_entry(engine, table, VALUES))
    again = _open_table(open_page, JUDGE, table)  # the reload: the form opens on version 1
    base = entry_data(again)["base"]
    assert base["version"] == 1
    mine = fill_entry(engine, table, [*VALUES[:3], (1, 0, 0, 0, 0)])
    again = save_entry(again, mine, base={**base, "version": 0})
    assert any(f"saved by {OTHER_JUDGE.name}" in w.value for w in again.warning)
    assert store.table_result(engine, tid).rows["vp"].tolist() == [10, 7, 5, 2]


def test_a_browser_cannot_claim_a_newer_version_than_the_form(open_page, engine, sitting):
    table, _ = _table(engine, sitting)
    at = _open_table(open_page, JUDGE, table)
    base = entry_data(at)["base"]
    save_entry(_open_table(open_page, OTHER_JUDGE, table), fill_entry(engine, table, VALUES))
    at = save_entry(at, fill_entry(engine, table, [(11, 0, 0, 0, 0), *VALUES[1:]]),
                    base={**base, "version": 7})
    assert any(f"saved by {OTHER_JUDGE.name}" in w.value for w in at.warning)
    assert store.table_result(engine, int(table["table_id"])).version == 1


def test_drafts_do_not_move_the_data_version(engine, sitting):
    """A thousand spectators' pages do not read again because a judge's draft was kept (the
    store keeps drafts for scripts; the page keeps them in the browser)."""
    table, seats = _table(engine, sitting)
    before = store.data_version(engine)
    store.save_draft(engine, int(table["table_id"]),
                     seats[["player_id"]].assign(vp=[1, 2, 3, 4]), base_version=0,
                     seating={1: int(seats["player_id"][0])}, actor=JUDGE)
    assert store.data_version(engine) == before
    with pytest.raises(store.PermissionDenied):
        store.save_draft(engine, int(table["table_id"]), seats[["player_id"]], base_version=0,
                         seating={}, actor=SPECTATOR)


def test_an_unusual_vp_saves_only_with_the_tick(open_page, engine, sitting):
    table, seats = _table(engine, sitting)
    tid = int(table["table_id"])
    at = _open_table(open_page, JUDGE, table)
    data = entry_data(at)
    assert data["usual_max"]["vp"] == results.USUAL_MAX["vp"]  # the browser asks by these
    assert data["words"]["unusual_tick"] == "These numbers are right"
    high = fill_entry(engine, table, [(100, 1, 0, 0, 0), *VALUES[1:]])
    at = save_entry(at, high)  # a browser that sends it unticked: the server asks too
    assert "Unusually high for one game: seat 1: VP 100." in at.error[0].value
    assert store.table_result(engine, tid).version == 0
    at = save_entry(at, high, confirm=("unusual",))
    assert not at.error
    assert store.table_result(engine, tid).rows["vp"].tolist() == [100, 7, 5, 2]


def test_the_service_refuses_unusual_numbers_without_the_confirmation(engine, sitting):
    """Below the page: a script sending VP 250 gets the same question, and nothing saves."""
    table, seats = _table(engine, sitting)
    rows = seats[["player_id", "seat"]].assign(
        leader=table["available_leaders"][:4], vp=[250, 7, 5, 2], spice=0, solari=0, troops=0,
        water=[0, 0, 0, 45])
    with pytest.raises(results.TournamentError, match=r"Unusually high for one game: seat 1: "
                                                      r"VP 250; seat 4: water 45\. "):
        results.submit_result(engine, int(table["table_id"]), rows, expected_version=0,
                              submission_id=None, actor=JUDGE)
    assert store.table_result(engine, int(table["table_id"])).version == 0
    saved = results.submit_result(engine, int(table["table_id"]), rows, expected_version=0,
                                  submission_id=None, actor=JUDGE, confirm_unusual=True)
    assert saved.version == 1


def test_the_entry_is_told_the_words_of_the_preview_and_its_blanks(open_page, engine, sitting):
    table, _ = _table(engine, sitting)
    words = entry_data(_open_table(open_page, JUDGE, table))["words"]
    assert words["blank"] == "The preview shows once every number is in. Still blank: {fields}."
    assert words["blank_more"]["3"] == ("The preview shows once every number is in. Still "
                                        "blank: {fields} and {count} more.")
    assert words["headings"] == {"placing": "Placing", "seat": "Seat", "player": "Player",
                                 "vp": "VP", "score": "Score", "tied": "Tied"}


def test_the_entry_speaks_the_pages_language(open_page, engine, sitting):
    words = entry_data(open_page("views/results.py", as_=JUDGE, query={"lang": "sv"}))["words"]
    assert words["leader"] == "Ledare" and words["save"] != "Save result"
    assert words["fields"]["vp"] == "SP"
