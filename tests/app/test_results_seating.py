"""Results page: saves land where the judge meant (R19, R20). The form is keyed by player and
remembers the table's seating: a seat left empty or a player replaced while it is open never
moves a player's numbers to another player, and the first save after the change is refused so
the judge checks. A page left on an older sitting says a newer one is published; a correction
of a complete sitting asks first; once the finals are drawn a judge is told only the organizer
corrects a qualifier result, and the organizer sees what it changes before confirming."""

import pandas as pd
import pytest

from stsa import demo, store, tournament
from stsa.services import finals, log, results
from stsa.ui import result_form
from tests.app.conftest import JUDGE, ORGANIZER, shown

PAGE = "views/results.py"
STATS = ("vp", "spice", "solari", "troops", "water")
VALUES = [(10, 1, 0, 0, 0), (7, 0, 0, 0, 0), (5, 0, 0, 0, 0), (2, 0, 0, 0, 0)]


def _seats(engine, table_id) -> pd.DataFrame:
    return store.seats(engine, table_id=table_id, actor=ORGANIZER).sort_values(
        "seat").reset_index(drop=True)


def _open(open_page, who, table_id, sitting_id):
    at = open_page(PAGE, as_=who)
    at.selectbox(key="res_sitting").set_value(sitting_id).run()
    at.selectbox(key=f"res_table_{sitting_id}").set_value(table_id)
    return at.run()


def _fill(at, table_id, players, leaders, values):
    for player, leader, numbers in zip(players, leaders, values):
        at.selectbox(key=result_form.key(table_id, player, "leader")).set_value(leader)
        for field, value in zip(STATS, numbers):
            at.number_input(key=result_form.key(table_id, player, field)).set_value(value)
    return at.run()


def _first_table(engine, sitting_id):
    table = store.tables(engine, sitting_id, actor=ORGANIZER).iloc[0]
    return int(table["table_id"]), list(table["available_leaders"])


def _texts(at, kind) -> str:
    return " ".join(shown(getattr(at, kind)))


def test_a_seat_left_empty_while_the_form_is_open_keeps_each_players_numbers(
        open_page, engine, sitting):
    """The reported bug: seat 2 left empty while the form was open; the save stored seat 2's
    numbers for seat 3's player. Now each number stays with its player, the first save is
    refused with what changed, and the second stores each player's own numbers."""
    tid, leaders = _first_table(engine, sitting)
    seats = _seats(engine, tid)
    players, names = seats["player_id"].tolist(), seats["name"].tolist()
    at = _fill(_open(open_page, JUDGE, tid, sitting), tid, players, leaders, VALUES)
    store.leave_seat_empty(engine, tid, 2, actor=ORGANIZER)  # from the Draw page, meanwhile
    at.run()
    assert not at.exception
    assert (f"The table changed since you opened this form: seat 2 is now {names[2]}, seat 3 "
            f"is now {names[3]}, seat 4 is empty now.") in _texts(at, "warning")
    assert at.number_input(key=result_form.key(tid, players[2], "vp")).value == 5  # now seat 2
    assert result_form.key(tid, players[1], "vp") not in [n.key for n in at.number_input]

    at.button(key="res_save").click().run()
    assert "The table changed since you opened it (Qualifier 1, table 1)" in _texts(at, "error")
    assert store.table_result(engine, tid).version == 0, "nothing was saved"
    at.button(key="res_save").click().run()
    assert not at.error and "saved as version 1" in at.success[0].value
    stored = store.table_result(engine, tid).rows.set_index("player_id")
    assert stored["vp"].to_dict() == {players[0]: 10, players[2]: 5, players[3]: 2}
    assert stored["seat"].to_dict() == {players[0]: 1, players[2]: 2, players[3]: 3}


def test_a_replaced_player_starts_blank_and_the_others_keep_their_numbers(
        open_page, engine, sitting):
    tid, leaders = _first_table(engine, sitting)
    players = _seats(engine, tid)["player_id"].tolist()
    at = _fill(_open(open_page, JUDGE, tid, sitting), tid, players, leaders, VALUES)
    late = store.add_player(engine, "Late Lou", actor=ORGANIZER)["player_id"]
    store.check_in(engine, [late], actor=ORGANIZER)
    store.replace_player(engine, tid, 2, late, actor=ORGANIZER)
    at.run()
    assert "seat 2 is now Late Lou" in _texts(at, "warning")
    assert at.number_input(key=result_form.key(tid, late, "vp")).value is None
    assert at.number_input(key=result_form.key(tid, players[2], "vp")).value == 5
    at = _fill(at, tid, [late], [leaders[1]], [VALUES[1]])
    at.button(key="res_save").click().run()
    assert "seat 2 is now Late Lou" in _texts(at, "error")
    at.button(key="res_save").click().run()
    assert "saved as version 1" in at.success[0].value
    stored = store.table_result(engine, tid).rows.set_index("player_id")["vp"].to_dict()
    assert stored == {players[0]: 10, late: 7, players[2]: 5, players[3]: 2}


def test_a_page_on_an_older_sitting_says_a_newer_one_is_published(open_page, engine, sitting):
    tid, _ = _first_table(engine, sitting)
    at = _open(open_page, JUDGE, tid, sitting)
    assert not at.warning
    ids = store.players(engine)["player_id"].tolist()
    second = tournament.draw_qualifier(engine, ids, seed=3, confirm=True, actor=ORGANIZER)
    store.publish_sitting(engine, second["sitting_id"], actor=ORGANIZER)
    at.run()
    assert at.selectbox(key="res_sitting").value == sitting, "the page stays where it was"
    assert ("Qualifier 2 is published now; this page shows Qualifier 1."
            in _texts(at, "warning"))
    at.button(key="res_go_newest").click().run()
    assert at.selectbox(key="res_sitting").value == second["sitting_id"]
    assert not [w for w in at.warning if "is published now" in w.value]


def test_a_correction_of_a_complete_sitting_asks_first(open_page, engine, sitting):
    tables = store.tables(engine, sitting, actor=ORGANIZER)
    for t in tables.itertuples():
        ids = _seats(engine, t.table_id)["player_id"]
        store.submit_table_result(engine, int(t.table_id), pd.DataFrame(
            [dict(zip(STATS, v)) for v in VALUES]).assign(
            player_id=ids.to_numpy(), leader=t.available_leaders[:4]), expected_version=0,
            submission_id=None, actor=ORGANIZER)
    assert store.sitting(engine, sitting)["status"] == "complete"
    tid = int(tables["table_id"].iloc[0])
    first = _seats(engine, tid)["player_id"].iloc[0]
    at = _open(open_page, JUDGE, tid, sitting)
    at.number_input(key=result_form.key(tid, first, "vp")).set_value(12).run()
    assert at.button(key="res_save").disabled
    sure = at.checkbox(key=f"res_sure_{tid}_1")
    assert sure.label == "Qualifier 1 is complete: yes, correct this result"
    sure.check().run()
    at.button(key="res_save").click().run()
    assert "saved as version 2 (a correction)" in at.success[0].value
    assert not at.checkbox(key=f"res_sure_{tid}_2").value  # the next correction asks again


@pytest.fixture
def semifinal_drawn(engine):
    """The demo tournament (24 players, three complete qualifiers), its semifinal drawn."""
    demo.load_demo(engine, actor=ORGANIZER)
    finals.draw_semifinal(engine, seed=5, actor=ORGANIZER)
    return engine


def _outsider(engine):
    """The best player below the cut and their first qualifier table."""
    table = results.standings_table(engine)
    outsider = table.loc[table["zone"] == "out"].iloc[0]
    played = store.results(engine)
    game = played.loc[played["player_id"] == outsider["player_id"]].iloc[0]
    return outsider, int(game["game_id"]), int(game["sitting_id"])


def test_after_the_finals_are_drawn_a_judge_is_told_only_the_organizer_corrects(
        open_page, semifinal_drawn):
    _, tid, sid = _outsider(semifinal_drawn)
    at = _open(open_page, JUDGE, tid, sid)
    assert not at.exception
    assert ("Only the organizer can correct a qualifier result once the finals are drawn"
            in _texts(at, "info"))
    assert at.button(key="res_save").disabled


def test_the_organizer_sees_what_a_late_correction_changes_and_confirms(open_page,
                                                                       semifinal_drawn):
    engine = semifinal_drawn
    outsider, tid, sid = _outsider(engine)
    version = store.table_result(engine, tid).version
    at = _open(open_page, ORGANIZER, tid, sid)
    at.number_input(key=result_form.key(tid, int(outsider["player_id"]), "vp")).set_value(40).run()
    warning = _texts(at, "warning")
    assert "The finals are drawn: Semifinal (drawn, not published yet). This correction" in warning
    changes = at.dataframe[1].value  # after the preview
    assert list(changes.columns) == results.IMPACT_COLUMNS
    moved = changes.set_index("Player").loc[outsider["name"]]
    assert moved["Rank after"] == 1 and moved["Finals after"] == "the final"
    assert at.button(key="res_save").disabled
    at.checkbox(key=f"res_late_{tid}_{version}").check()
    at.checkbox(key=f"res_sure_{tid}_{version}").check().run()
    assert at.button(key="res_save").disabled  # 40 VP is unusually high: confirmed too
    next(c for c in at.checkbox if c.key.startswith(f"res_unusual_{tid}_")).check().run()
    at.button(key="res_save").click().run()
    assert not at.error and f"saved as version {version + 1}" in at.success[0].value
    flagged = log.late_corrections(engine, actor=JUDGE)
    assert len(flagged) == 1 and outsider["name"] in flagged[0]
