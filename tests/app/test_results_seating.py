"""Results page: saves land where the judge meant (R19, R20). The entry is keyed by player and
remembers the table's seating: a seat left empty or a player replaced while it is open never
moves a player's numbers to another player, and the first save after the change is refused so
the judge checks. A page left on an older sitting says a newer one is published; a correction
of a complete sitting asks first; once the finals are drawn a judge is told only the organizer
corrects a qualifier result, and the organizer sees what it changes before confirming."""

import pandas as pd
import pytest

from stsa import demo, store, tournament
from stsa.services import finals, log, results
from tests.app.conftest import JUDGE, ORGANIZER, entry_data, entry_values, save_entry, shown

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


def _by_player(players, leaders, values) -> dict[int, dict]:
    """Entry values by player id: each player's leader and five numbers."""
    return {p: {"leader": leader, **dict(zip(STATS, numbers))}
            for p, leader, numbers in zip(players, leaders, values)}


def _send(at, typed: dict[int, dict], **options):
    """Save the entry with what was typed for each player (the entry shows the seats of now:
    a player no longer seated is not sent, as the browser's entry no longer shows them)."""
    seat_of = {s["player_id"]: s["seat"] for s in entry_data(at)["seats"]}
    return save_entry(at, {seat_of[p]: v for p, v in typed.items() if p in seat_of}, **options)


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
    at = _open(open_page, JUDGE, tid, sitting)
    typed = _by_player(players, leaders, VALUES)
    store.leave_seat_empty(engine, tid, 2, actor=ORGANIZER)  # from the Draw page, meanwhile
    at.run()
    assert not at.exception
    assert (f"The table changed since you opened this form: seat 2 is now {names[2]}, seat 3 "
            f"is now {names[3]}, seat 4 is empty now.") in _texts(at, "warning")
    assert [s["player_id"] for s in entry_data(at)["seats"]] == [players[0], *players[2:]]

    at = _send(at, typed)
    assert "The table changed since you opened it (Qualifier 1, table 1)" in _texts(at, "error")
    assert store.table_result(engine, tid).version == 0, "nothing was saved"
    assert entry_values(at)[2]["vp"] == 5, "the entry keeps each player's own numbers"
    assert entry_data(at)["reset"] and entry_data(at)["base"]["seating"] == {
        "1": players[0], "2": players[2], "3": players[3]}
    at = save_entry(at)
    assert not at.error and "saved as version 1" in at.success[0].value
    stored = store.table_result(engine, tid).rows.set_index("player_id")
    assert stored["vp"].to_dict() == {players[0]: 10, players[2]: 5, players[3]: 2}
    assert stored["seat"].to_dict() == {players[0]: 1, players[2]: 2, players[3]: 3}


def test_a_replaced_player_starts_blank_and_the_others_keep_their_numbers(
        open_page, engine, sitting):
    tid, leaders = _first_table(engine, sitting)
    players = _seats(engine, tid)["player_id"].tolist()
    at = _open(open_page, JUDGE, tid, sitting)
    typed = _by_player(players, leaders, VALUES)
    late = store.add_player(engine, "Late Lou", actor=ORGANIZER)["player_id"]
    store.check_in(engine, [late], actor=ORGANIZER)
    store.replace_player(engine, tid, 2, late, actor=ORGANIZER)
    at.run()
    assert "seat 2 is now Late Lou" in _texts(at, "warning")
    assert entry_values(at)[2]["vp"] is None  # Late Lou starts blank
    at = _send(at, {**typed, late: {"leader": leaders[1], **dict(zip(STATS, VALUES[1]))}})
    assert "seat 2 is now Late Lou" in _texts(at, "error")
    at = save_entry(at)
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
    at = _open(open_page, JUDGE, tid, sitting)
    assert entry_data(at)["ticks"] == [
        {"name": "complete", "label": "Qualifier 1 is complete: yes, correct this result"}]
    at = save_entry(at, {1: {"vp": 12}})  # a browser that sends it unticked: refused
    assert at.error and store.table_result(engine, tid).version == 1
    at = save_entry(at, {1: {"vp": 12}}, confirm=("complete",))
    assert "saved as version 2 (a correction)" in at.success[0].value
    assert entry_data(at)["reset"], "the entry starts again: the next correction asks again"


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
    version = store.table_result(semifinal_drawn, tid).version
    at = _open(open_page, JUDGE, tid, sid)
    assert not at.exception
    assert ("Only the organizer can correct a qualifier result once the finals are drawn"
            in _texts(at, "info"))
    assert entry_data(at)["locked"]
    at = save_entry(at, {1: {"vp": 40}}, confirm=("complete", "unusual", "after_finals"))
    assert "Only the organizer can correct" in _texts(at, "error")  # the store says so too
    assert store.table_result(semifinal_drawn, tid).version == version


def test_the_organizer_sees_what_a_late_correction_changes_and_confirms(open_page,
                                                                       semifinal_drawn):
    engine = semifinal_drawn
    outsider, tid, sid = _outsider(engine)
    version = store.table_result(engine, tid).version
    at = _open(open_page, ORGANIZER, tid, sid)
    assert not entry_data(at)["locked"] and not entry_data(at)["impact"]
    seat = next(s["seat"] for s in entry_data(at)["seats"]
                if s["player_id"] == int(outsider["player_id"]))
    at = save_entry(at, {seat: {"vp": 40}}, confirm=("complete", "unusual"))
    assert store.table_result(engine, tid).version == version, "weighed first, not saved"
    warning = _texts(at, "warning")
    assert "The finals are drawn: Semifinal (drawn, not published yet). This correction" in warning
    changes = at.dataframe[0].value
    assert list(changes.columns) == results.IMPACT_COLUMNS
    moved = changes.set_index("Player").loc[outsider["name"]]
    assert moved["Rank after"] == 1 and moved["Finals after"] == "the final"
    assert entry_data(at)["impact"], "the entry offers the tick for these values"
    assert entry_data(at)["words"]["after_finals"] == ("I have checked what this changes: save "
                                                       "the correction anyway")
    at = save_entry(at, {seat: {"vp": 41}}, confirm=("complete", "unusual", "after_finals"))
    assert store.table_result(engine, tid).version == version, "other values: weighed again"
    at = save_entry(at, {seat: {"vp": 41}}, confirm=("complete", "unusual", "after_finals"))
    assert not at.error and f"saved as version {version + 1}" in at.success[0].value
    flagged = log.late_corrections(engine, actor=JUDGE)
    assert len(flagged) == 1 and outsider["name"] in flagged[0]
