"""Vote Off and Wild Card as options of the tournament (R10): the draw removes nothing under
Vote Off, the judge's votes remove two leaders per table (hidden from spectators, logged), and
Wild Card draws are reproducible from the sitting's seed, recorded and final."""

from __future__ import annotations

import pandas as pd
import pytest

from stsa import draw, store
from stsa.auth import Actor, Role
from stsa.errors import TournamentError
from stsa.services import draws, picks

ORGANIZER = Actor("Olivia", Role.ORGANIZER)
JUDGE = Actor("Jamal", Role.JUDGE)
SPECTATOR = Actor("Sam", Role.SPECTATOR)


@pytest.fixture
def vote_off(sqlite_engine):
    """Eight players, Vote Off with Wild Card, one published qualifier of two tables."""
    engine = sqlite_engine
    store.set_settings(engine, {"pick_method": "vote_off", "wild_card": True,
                                "enabled_setups": ["uprising", "legacy-ix"]}, actor=ORGANIZER)
    ids = store.import_players(engine, [{"name": f"P{n}"} for n in range(1, 9)],
                               actor=ORGANIZER)["player_id"].tolist()
    sitting = draws.draw_qualifier(engine, ids, seed=2026, actor=ORGANIZER)
    draws.publish(engine, int(sitting["sitting_id"]), actor=ORGANIZER)
    return engine, int(sitting["sitting_id"])


def _table(engine, sitting_id, table_no=1):
    tables = store.tables(engine, sitting_id, actor=ORGANIZER)
    table = tables.loc[tables["table_no"] == table_no].iloc[0]
    seats = store.seats(engine, table_id=int(table["table_id"]), actor=ORGANIZER)
    return table, seats


def _votes(seats, deck, plan):
    """plan: for each seat (in order), the indexes of the deck leaders that player votes off."""
    return pd.DataFrame([{"player_id": int(p), "leader": deck[i]}
                         for p, chosen in zip(seats["player_id"], plan) for i in chosen])


def test_R10_under_vote_off_the_draw_removes_no_leader(vote_off):
    engine, sitting_id = vote_off
    tables = store.tables(engine, sitting_id, actor=ORGANIZER)
    assert all(removed == [] for removed in tables["removed_leaders"])


def _voted(engine, sitting_id, plan):
    """Table 1 after its votes (`plan` as in `_votes`): the table, its seats, and each player's
    pick: the first leaders left, one each in seat order."""
    table, seats = _table(engine, sitting_id)
    picks.enter_votes(engine, int(table["table_id"]),
                      _votes(seats, list(table["available_leaders"]), plan), actor=JUDGE)
    table, seats = _table(engine, sitting_id)
    picked = dict(zip(seats["player_id"].astype(int), table["available_leaders"][:len(seats)]))
    return table, seats, picked


def test_R10_the_two_leaders_with_most_votes_leave_the_deck(vote_off):
    engine, sitting_id = vote_off
    table, seats = _table(engine, sitting_id)
    deck = list(table["available_leaders"])
    votes = _votes(seats, deck, [(0, 1), (0, 2), (0, 1), (1, 3)])  # 0: 3 votes, 1: 3 votes
    removed = picks.enter_votes(engine, int(table["table_id"]), votes, actor=JUDGE)
    assert removed["leader"].tolist() == [deck[0], deck[1]]
    assert set(removed["decided"]) == {draw.MOST_VOTES}
    after, _ = _table(engine, sitting_id)
    assert after["removed_leaders"] == [deck[0], deck[1]]
    assert after["available_leaders"] == deck[2:]
    logged = store.events(engine, action="picks.vote_off", actor=ORGANIZER)
    assert logged["after"].iloc[0]["removed"] == [deck[0], deck[1]]


def test_R10_a_tie_is_settled_by_the_organizer_or_by_the_seed(vote_off):
    engine, sitting_id = vote_off
    table, seats = _table(engine, sitting_id)
    deck = list(table["available_leaders"])
    votes = _votes(seats, deck, [(0, 1), (0, 2), (0, 3), (4, 5)])  # 0 first; 1..5 tie on 1
    chosen = picks.enter_votes(engine, int(table["table_id"]), votes, actor=ORGANIZER,
                               organizer_choice=[deck[4]])
    assert chosen["leader"].tolist() == [deck[0], deck[4]]
    assert chosen["decided"].tolist() == [draw.MOST_VOTES, draw.ORGANIZER_CHOICE]
    randomly = picks.enter_votes(engine, int(table["table_id"]), votes, actor=JUDGE)
    again = picks.enter_votes(engine, int(table["table_id"]), votes.iloc[::-1], actor=JUDGE)
    assert randomly["leader"].tolist() == again["leader"].tolist(), "same seed, same votes"
    assert randomly["decided"].tolist()[1] == draw.RANDOM_CHOICE
    assert randomly["leader"].iloc[1] in deck[1:6]


def test_R10_votes_are_checked_and_hidden_from_spectators(vote_off):
    engine, sitting_id = vote_off
    table, seats = _table(engine, sitting_id)
    deck = list(table["available_leaders"])
    short = _votes(seats, deck, [(0,), (0, 2), (0, 1), (1, 3)])
    first = seats["name"].iloc[0]
    with pytest.raises(TournamentError, match=f"Vote Off: {first}: cast 1 vote, not 2"):
        picks.enter_votes(engine, int(table["table_id"]), short, actor=JUDGE)
    with pytest.raises(store.PermissionDenied):
        picks.enter_votes(engine, int(table["table_id"]), short, actor=SPECTATOR)
    with pytest.raises(store.PermissionDenied):
        store.vote_off_votes(engine, int(table["table_id"]), actor=SPECTATOR)
    spectators = store.tables(engine, sitting_id, actor=SPECTATOR)
    assert spectators["removed_leaders"].isna().all()


def test_R10_wild_card_draws_are_reproducible_recorded_and_final(vote_off):
    engine, sitting_id = vote_off
    table, seats, picked = _voted(engine, sitting_id, [(0, 1), (0, 1), (0, 1), (0, 1)])
    swaps = {int(p): n in (0, 2) for n, p in enumerate(seats["player_id"])}
    expected = draw.wild_card_draws(
        seats[["seat", "player_id"]].assign(leader=seats["player_id"].map(picked)), swaps,
        table["removed_leaders"], seed=2026, table_no=1)
    drawn = picks.draw_wild_cards(engine, int(table["table_id"]), picked, swaps, actor=JUDGE)
    assert drawn["leader"].tolist() == expected["leader"].tolist()
    assert set(drawn.loc[drawn["swapped"], "leader"]) <= set(table["removed_leaders"])
    stored = store.wild_card_choices(engine, int(table["table_id"]), actor=ORGANIZER)
    assert stored["leader"].tolist() == drawn["leader"].tolist()
    with pytest.raises(store.InvalidState, match="final"):
        picks.draw_wild_cards(engine, int(table["table_id"]), picked, swaps, actor=JUDGE)


def test_R10_picks_need_the_method_to_be_on(sqlite_engine):
    engine = sqlite_engine
    ids = store.import_players(engine, [{"name": f"P{n}"} for n in range(1, 5)],
                               actor=ORGANIZER)["player_id"].tolist()
    sitting = draws.draw_qualifier(engine, ids, seed=1, actor=ORGANIZER)
    draws.publish(engine, int(sitting["sitting_id"]), actor=ORGANIZER)
    table, seats = _table(engine, int(sitting["sitting_id"]))
    assert len(table["removed_leaders"]) > 0, "hidden picks remove leaders at the draw"
    with pytest.raises(TournamentError, match="Hidden Picks"):
        picks.enter_votes(engine, int(table["table_id"]), pd.DataFrame(
            {"player_id": [], "leader": []}), actor=JUDGE)
    with pytest.raises(TournamentError, match="Wild Card is off"):
        picks.draw_wild_cards(engine, int(table["table_id"]), {}, {}, actor=JUDGE)


@pytest.mark.slow
def test_R10_votes_and_wild_cards_go_into_the_workbook_and_come_back(vote_off, tmp_path):
    from stsa import excel

    engine, sitting_id = vote_off
    table, seats, picked = _voted(engine, sitting_id, [(0, 1), (0, 2), (0, 1), (1, 3)])
    picks.draw_wild_cards(engine, int(table["table_id"]), picked,
                          {int(p): True for p in seats["player_id"][:1]} |
                          {int(p): False for p in seats["player_id"][1:]}, actor=JUDGE)
    votes = store.vote_off_votes(engine, int(table["table_id"]), actor=ORGANIZER)
    wild = store.wild_card_choices(engine, int(table["table_id"]), actor=ORGANIZER)
    workbook = excel.tournament_workbook(engine)
    other = store.connect(f"sqlite:///{tmp_path / 'other.db'}")
    excel.restore_workbook(other, workbook, actor=ORGANIZER)
    columns = ["player_id", "leader"]
    assert store.vote_off_votes(other, int(table["table_id"]), actor=ORGANIZER)[columns].equals(
        votes[columns])
    wild_columns = ["seat", "player_id", "picked_leader", "swapped", "leader"]
    assert store.wild_card_choices(other, int(table["table_id"]), actor=ORGANIZER)[
        wild_columns].equals(wild[wild_columns])
    restored, _ = _table(other, sitting_id)
    assert restored["removed_leaders"] == table["removed_leaders"]
    other.dispose()


def test_R10_a_wild_card_refusal_names_the_player_not_an_id(vote_off):
    """Only two leaders were voted off, so a third player who wants to swap cannot get one:
    the judge is told who, by name and seat, never by a database id."""
    engine, sitting_id = vote_off
    table, seats, picked = _voted(engine, sitting_id, [(0, 1), (0, 2), (0, 1), (1, 3)])
    swaps = {int(p): True for p in seats["player_id"]}
    third = seats.sort_values("seat").iloc[2]
    with pytest.raises(TournamentError) as refused:
        picks.draw_wild_cards(engine, int(table["table_id"]), picked, swaps, actor=JUDGE)
    message = str(refused.value)
    assert message.startswith(f"{third['name']} (seat 3) wants to swap"), message
    assert f"Player {int(third['player_id'])}" not in message
