"""Undoing mistakes after publishing (R1, R3, R6, R9, R19, R20): voiding a published sitting
without results, a no-show replaced or a table of four left with three, and the confirmation
a new draw needs while a sitting is still being played. Store tests run on SQLite and
PostgreSQL."""

import pandas as pd
import pytest
import sqlalchemy as sa

from stsa import store, tournament
from stsa.errors import TournamentError
from stsa.services import corrections
from stsa.services import sittings as service
from stsa.store.schema import waiting as waiting_t
from tests.support.store_helpers import (
    JUDGE,
    ORGANIZER,
    add_players,
    make_draw,
    published_sitting,
    rows_for,
)


def _seats(engine, table_id):
    return store.seats(engine, table_id=table_id, actor=ORGANIZER)[
        ["seat", "player_id", "colour", "pick_order"]].to_dict("records")


def _report(engine, table_id):
    """A valid result for a table of a real draw (its own leaders), saved by a judge."""
    leaders = store.tables(engine, table_id=table_id, actor=ORGANIZER)["available_leaders"][0]
    rows = [{**row, "leader": leader} for row, leader in zip(rows_for(engine, table_id),
                                                                leaders)]
    store.submit_table_result(engine, table_id, rows, expected_version=0, submission_id=None,
                              actor=JUDGE)


def _first_qualifier(engine, n):
    """n players checked in, Qualifier 1 drawn for them (seed 1) and published."""
    ids = add_players(engine, n)
    store.check_in(engine, ids, actor=ORGANIZER)
    first = tournament.draw_qualifier(engine, ids, seed=1, actor=ORGANIZER)
    store.publish_sitting(engine, first["sitting_id"], actor=ORGANIZER)
    return ids, first


def _checked_in(engine, n, prefix="Late"):
    ids = add_players(engine, n, prefix=prefix)
    store.check_in(engine, ids, actor=ORGANIZER)
    return ids


# --- voiding a sitting ------------------------------------------------------------------------

def test_void_removes_a_published_sitting_and_frees_its_number(engine):
    ids = add_players(engine, 8)
    sitting, tables = published_sitting(engine, ids=ids, seed=4242)
    store.void_sitting(engine, sitting["sitting_id"], reason="Published too early",
                       actor=ORGANIZER)
    assert store.sittings(engine).empty, "spectators no longer see it"
    assert store.sittings(engine, actor=ORGANIZER).empty and store.seats(
        engine, actor=ORGANIZER).empty
    logged = store.events(engine, action="sitting.void", actor=ORGANIZER).iloc[-1]
    assert logged["before"]["seed"] == 4242 and logged["before"]["status"] == "published"
    assert [s["player_id"] for s in logged["before"]["seats"]] == ids
    assert logged["after"] == {"sitting": "Qualifier 1", "status": "void",
                               "reason": "Published too early"}
    again = store.save_draw(engine, make_draw(ids), kind="qualifier", actor=ORGANIZER)
    assert again["number"] == 1, "the next draw takes its number again"


def test_void_is_refused_once_any_table_has_a_result(engine):
    sitting, tables = published_sitting(engine, 8)
    second = int(tables["table_id"].iloc[1])
    store.submit_table_result(engine, second, rows_for(engine, second), expected_version=0,
                              submission_id=None, actor=JUDGE)
    with pytest.raises(store.InvalidState, match=r"Qualifier 1 cannot be voided: table 2 "
                                                 r"already has a result"):
        store.void_sitting(engine, sitting["sitting_id"], actor=ORGANIZER)
    assert len(store.sittings(engine)) == 1 and len(store.seats(engine)) == 8
    assert store.events(engine, action="sitting.void", actor=ORGANIZER).empty


def test_void_refuses_a_draft_a_sitting_with_a_later_one_and_a_judge(engine):
    ids = add_players(engine, 8)
    first, _ = published_sitting(engine, ids=ids)
    with pytest.raises(store.PermissionDenied):
        store.void_sitting(engine, first["sitting_id"], actor=JUDGE)
    draft = store.save_draw(engine, make_draw(ids), kind="qualifier", actor=ORGANIZER)
    with pytest.raises(store.InvalidState, match="Qualifier 2 was drawn after Qualifier 1: "
                                                 "discard or void it first"):
        store.void_sitting(engine, first["sitting_id"], actor=ORGANIZER)
    with pytest.raises(store.InvalidState, match="not published yet: discard the draft"):
        store.void_sitting(engine, draft["sitting_id"], actor=ORGANIZER)
    assert len(store.sittings(engine, actor=ORGANIZER)) == 2


def test_void_drops_the_tables_leader_votes(engine):
    sitting, tables = published_sitting(engine, 4)
    table_id = int(tables["table_id"].iloc[0])
    seated = store.seats(engine, table_id=table_id, actor=ORGANIZER)["player_id"]
    votes = pd.DataFrame({"player_id": seated, "leader": "Leader A"})
    store.save_vote_off(engine, table_id, votes, ["Leader A", "Leader B"], actor=JUDGE)
    store.void_sitting(engine, sitting["sitting_id"], actor=ORGANIZER)
    assert store.vote_off_votes(engine, table_id, actor=ORGANIZER).empty


@pytest.mark.slow
def test_R6_a_voided_sitting_stops_counting_for_the_setup_balance(sqlite_engine):
    engine = sqlite_engine
    ids, first = _first_qualifier(engine, 16)
    for table_id in store.tables(engine, first["sitting_id"], actor=ORGANIZER)["table_id"]:
        _report(engine, int(table_id))
    counts = store.setup_counts(engine)
    mistake = tournament.draw_qualifier(engine, ids, seed=2, actor=ORGANIZER)
    store.publish_sitting(engine, mistake["sitting_id"], actor=ORGANIZER)
    drawn = store.tables(engine, mistake["sitting_id"], actor=ORGANIZER)["setup_id"].tolist()
    assert store.setup_counts(engine) != counts
    corrections.void(engine, mistake["sitting_id"], actor=ORGANIZER)
    assert store.setup_counts(engine) == counts
    again = tournament.draw_qualifier(engine, ids, seed=2, actor=ORGANIZER)
    assert again["number"] == 2
    assert store.tables(engine, again["sitting_id"], actor=ORGANIZER)[
        "setup_id"].tolist() == drawn, "the same seed draws as if the void never happened"


def test_void_problem_says_why_before_the_organizer_clicks():
    frame = pd.DataFrame({"sitting_id": [1, 2, 3], "kind": "qualifier", "number": [1, 2, 3],
                          "status": ["complete", "published", "drawn"], "tables": 3,
                          "results": [3, 1, 0]})
    assert "1 table already has a result" in corrections.void_problem(frame, 2)
    assert "discard the draft" in corrections.void_problem(frame, 3)
    assert corrections.void_problem(frame.assign(results=0).iloc[:2], 2) is None
    assert corrections.void_problem(frame.assign(results=0), 2) == (
        "Qualifier 3 was drawn after Qualifier 2: discard or void it first.")


# --- a player who did not come ----------------------------------------------------------------

def test_a_present_player_takes_the_no_shows_seat_colour_and_pick_order(engine):
    ids = add_players(engine, 8)
    sitting, tables = published_sitting(engine, ids=ids)
    table_id = int(tables["table_id"].iloc[0])
    before = _seats(engine, table_id)
    late = _checked_in(engine, 1)[0]
    done = store.replace_player(engine, table_id, 2, late, reason="Did not come",
                                actor=ORGANIZER)
    assert done == {"where": "Qualifier 1, table 1", "seat": 2, "left": "Player 0001",
                    "came": "Late 0000"}
    after = _seats(engine, table_id)
    assert after == [before[0], {**before[1], "player_id": late}, *before[2:]]
    logged = store.events(engine, action="table.replace_player", actor=ORGANIZER).iloc[-1]
    assert (logged["before"]["name"], logged["after"]["name"]) == ("Player 0001", "Late 0000")
    assert logged["after"]["colour"] == before[1]["colour"]
    assert logged["after"]["reason"] == "Did not come"


@pytest.mark.parametrize("who, message", [
    ("seated", "already plays in this sitting, at table 2, seat 1"),
    ("absent", "is not checked in"),
    ("withdrawn", "is withdrawn"),
])
def test_replacing_with_a_seated_or_absent_player_is_refused(engine, who, message):
    ids = add_players(engine, 8)
    _, tables = published_sitting(engine, ids=ids)
    table_id = int(tables["table_id"].iloc[0])
    candidate = {"seated": ids[4], "absent": add_players(engine, 1, prefix="Away")[0]}.get(who)
    if who == "withdrawn":
        candidate = _checked_in(engine, 1)[0]
        store.withdraw_player(engine, candidate, actor=ORGANIZER)
    before = _seats(engine, table_id)
    with pytest.raises(store.InvalidState, match=message):
        store.replace_player(engine, table_id, 1, candidate, actor=ORGANIZER)
    assert _seats(engine, table_id) == before
    assert store.events(engine, action="table.replace_player", actor=ORGANIZER).empty


def test_a_table_with_a_result_keeps_its_players(engine):
    _, tables = published_sitting(engine, 8)
    table_id = int(tables["table_id"].iloc[0])
    store.submit_table_result(engine, table_id, rows_for(engine, table_id), expected_version=0,
                              submission_id=None, actor=JUDGE)
    late = _checked_in(engine, 1)[0]
    for change in (lambda: store.replace_player(engine, table_id, 1, late, actor=ORGANIZER),
                   lambda: store.leave_seat_empty(engine, table_id, 1, actor=ORGANIZER)):
        with pytest.raises(store.InvalidState, match="already has a result"):
            change()
    assert len(store.seats(engine, table_id=table_id, actor=ORGANIZER)) == 4


def test_R1_a_table_of_four_plays_on_with_three(engine):
    ids = add_players(engine, 7)  # 4 + 3
    _, tables = published_sitting(engine, ids=ids)
    table_id = int(tables["table_id"].iloc[0])
    before = _seats(engine, table_id)
    done = store.leave_seat_empty(engine, table_id, 2, actor=ORGANIZER)
    assert done["players"] == 3 and done["left"] == "Player 0001"
    after = _seats(engine, table_id)
    # seats close up in play order; colours stay; the last seat picks first (R3, R9)
    assert after == [{**before[0], "pick_order": 3}, {**before[2], "seat": 2, "pick_order": 2},
                     {**before[3], "seat": 3, "pick_order": 1}]
    logged = store.events(engine, action="table.empty_seat", actor=ORGANIZER).iloc[-1]
    assert len(logged["before"]["seats"]) == 4 and len(logged["after"]["seats"]) == 3
    assert logged["after"]["left"] == "Player 0001"


def test_R1_a_table_of_three_cannot_lose_a_player(engine):
    ids = add_players(engine, 7)  # 4 + 3
    _, tables = published_sitting(engine, ids=ids)
    table_id = int(tables["table_id"].iloc[1])
    with pytest.raises(store.InvalidState, match="has only 3 players, the fewest a table can "
                                                 "play with: its seat cannot be left empty"):
        store.leave_seat_empty(engine, table_id, 1, actor=ORGANIZER)
    assert len(store.seats(engine, table_id=table_id, actor=ORGANIZER)) == 3


def test_a_waiting_or_sitting_out_player_leaves_those_lists_when_seated(engine):
    ids = add_players(engine, 8)
    sitting = store.save_draw(engine, make_draw(ids[:4], sit_outs=[ids[4]]), kind="qualifier",
                              actor=ORGANIZER)
    store.publish_sitting(engine, sitting["sitting_id"], actor=ORGANIZER)
    store.check_in(engine, ids, actor=ORGANIZER)
    with engine.begin() as conn:
        conn.execute(sa.insert(waiting_t), [
            {"sitting_id": sitting["sitting_id"], "player_id": p, "position": n}
            for n, p in enumerate(ids[5:], start=1)])
    table_id = int(store.tables(engine, sitting["sitting_id"], actor=ORGANIZER)["table_id"][0])
    store.replace_player(engine, table_id, 1, ids[4], actor=ORGANIZER)
    assert store.sit_outs(engine, sitting["sitting_id"], actor=ORGANIZER).empty
    store.replace_player(engine, table_id, 2, ids[6], actor=ORGANIZER)
    with engine.connect() as conn:
        queue = conn.execute(sa.select(waiting_t.c.player_id, waiting_t.c.position)
                             .order_by(waiting_t.c.position)).fetchall()
    assert [tuple(r) for r in queue] == [(ids[5], 1), (ids[7], 2)]
    logged = store.events(engine, action="table.replace_player", actor=ORGANIZER)
    assert logged["after"].iloc[0]["was_sitting_out"] and logged["after"].iloc[1][
        "was_waiting"] == 2


def test_only_the_organizer_changes_a_table_and_never_a_finals_table(engine):
    ids = add_players(engine, 4)
    _, tables = published_sitting(engine, ids=ids, kind="semifinal")
    late = _checked_in(engine, 1)[0]
    table_id = int(tables["table_id"].iloc[0])
    with pytest.raises(store.PermissionDenied):
        store.replace_player(engine, table_id, 1, late, actor=JUDGE)
    with pytest.raises(store.InvalidState, match="mark the player absent on the Finals page"):
        store.replace_player(engine, table_id, 1, late, actor=ORGANIZER)


def test_the_service_leaves_a_seat_empty_for_none(sqlite_engine):
    ids = add_players(sqlite_engine, 8)
    _, tables = published_sitting(sqlite_engine, ids=ids)
    table_id = int(tables["table_id"].iloc[0])
    corrections.replace_no_show(sqlite_engine, table_id, 4, None, actor=ORGANIZER)
    assert len(store.seats(sqlite_engine, table_id=table_id, actor=ORGANIZER)) == 3


def test_candidates_are_present_active_players_without_a_seat():
    players = pd.DataFrame({"player_id": [1, 2, 3, 4, 5], "name": ["e", "D", "c", "b", "a"],
                            "status": ["active", "active", "withdrawn", "active", "active"],
                            "checked_in": [True, True, True, False, True]})
    seats = pd.DataFrame({"player_id": [5]})
    assert corrections.replacement_candidates(players, seats)["player_id"].tolist() == [2, 1]


# --- a draw while a sitting is still being played -------------------------------------------

def test_drawing_while_a_sitting_is_unfinished_needs_a_confirmation(sqlite_engine):
    engine = sqlite_engine
    ids, _ = _first_qualifier(engine, 8)
    with pytest.raises(TournamentError, match=r"Qualifier 1 is still being played: 2 of 2 "
                                              r"tables have no result yet\. Confirm"):
        tournament.draw_qualifier(engine, ids, seed=2, actor=ORGANIZER)
    assert len(store.sittings(engine, actor=ORGANIZER)) == 1, "nothing was drawn"
    second = tournament.draw_qualifier(engine, ids, seed=2, confirm=True, actor=ORGANIZER)
    assert second["number"] == 2


def test_no_confirmation_once_every_sitting_is_complete(sqlite_engine):
    engine = sqlite_engine
    ids, first = _first_qualifier(engine, 4)
    table_id = int(store.tables(engine, first["sitting_id"], actor=ORGANIZER)["table_id"][0])
    assert service.unfinished_warning(store.sittings(engine)) == (
        "Qualifier 1 is still being played: 1 of 1 table has no result yet.")
    _report(engine, table_id)
    assert service.unfinished_warning(store.sittings(engine)) is None
    assert tournament.draw_qualifier(engine, ids, seed=2, actor=ORGANIZER)["number"] == 2
