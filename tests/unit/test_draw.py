"""Seeded draws (stsa.draw): R1 tables, R3 seats and colours, R6 setups, R9 hidden picks, R10."""

from collections import Counter

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stsa import catalog, draw
from stsa.errors import TournamentError
from stsa.rules import table_sizes
from tests.support import oracle

SETUPS = catalog.setups()
SETUPS_BOW = catalog.setups(battle_of_wills=True)

seeds = st.integers(min_value=0, max_value=2**63 - 1)
seatable = st.integers(min_value=3, max_value=200).filter(lambda n: n != 5)
fast = settings(max_examples=60, deadline=None)


def players(n, kind="int"):
    return [f"P-{i:04d}" for i in range(n)] if kind == "str" else list(range(100, 100 + n))


def check_draw(result, ids, setups=SETUPS):
    """Every property a drawn sitting must have, whatever the seed."""
    seats, tables = result.seats, result.tables
    assert list(seats.columns[:5]) == ["table_no", "seat", "player_id", "colour", "pick_order"]
    # Every player seated exactly once.
    assert sorted(seats["player_id"].tolist(), key=str) == sorted(ids, key=str)
    # R1: the sizes of table_sizes, fours first, tables numbered from 1.
    sizes = seats.groupby("table_no").size()
    assert sizes.index.tolist() == list(range(1, len(sizes) + 1))
    assert sizes.tolist() == table_sizes(len(ids))
    assert tables["players"].tolist() == sizes.tolist()
    # R3: seats 1..size in order; colours all different at a table.
    expected_seats = np.concatenate([np.arange(1, s + 1) for s in sizes])
    assert seats["seat"].tolist() == expected_seats.tolist()
    assert not seats.duplicated(["table_no", "colour"]).any()
    # R9: the last seat picks first.
    assert (seats["pick_order"] == seats["table_no"].map(sizes) - seats["seat"] + 1).all()
    # R9: removed + available = the deck; hidden_picks removed; available in deck order.
    decks = setups.set_index("setup_id")
    assert tables["table_no"].tolist() == list(range(1, len(tables) + 1))
    for setup_id, removed, available in zip(
        tables["setup_id"], tables["removed_leaders"], tables["available_leaders"]
    ):
        deck = decks.loc[setup_id, "leader_deck"]
        assert Counter(removed) + Counter(available) == Counter(deck)
        assert len(removed) == decks.loc[setup_id, "hidden_picks"]
        assert available == [name for name in deck if name not in removed]
    return seats, tables


# --- R1, R3, R9: the shape of every draw ------------------------------------------------------


@pytest.mark.slow
@fast
@given(n=seatable, seed=seeds, kind=st.sampled_from(["int", "str"]))
def test_R3_every_player_seated_once_with_valid_seats_colours_and_picks(n, seed, kind):
    ids = players(n, kind)
    result = draw.draw_sitting(ids, SETUPS, seed=seed)
    check_draw(result, ids)
    assert result.seed == seed and result.sit_outs == []


@pytest.mark.parametrize("n", [3, 4, 6, 7, 8, 9, 10, 11, 13, 14, 17])
def test_R1_four_player_tables_first(n):
    seats = draw.draw_sitting(players(n), SETUPS, seed=n).seats
    sizes = seats.groupby("table_no").size().tolist()
    assert sizes == table_sizes(n) == sorted(sizes, reverse=True)


@pytest.mark.slow
@fast
@given(n=seatable, seed=seeds)
def test_R3_same_seed_same_draw(n, seed):
    first = draw.draw_sitting(players(n), SETUPS_BOW, seed=seed, setup_counts={"legacy": 1})
    again = draw.draw_sitting(players(n), SETUPS_BOW, seed=seed, setup_counts={"legacy": 1})
    pd.testing.assert_frame_equal(first.seats, again.seats)
    pd.testing.assert_frame_equal(first.tables, again.tables)


def test_R3_different_seeds_give_different_draws():
    draws = [draw.draw_sitting(players(40), SETUPS, seed=seed) for seed in range(20)]
    seatings = {tuple(d.seats["player_id"]) for d in draws}
    colourings = {tuple(d.seats["colour"]) for d in draws}
    picks = {tuple(map(tuple, d.tables["removed_leaders"])) for d in draws}
    assert len(seatings) == len(colourings) == len(picks) == 20


@pytest.mark.slow
def test_R3_first_player_and_colours_are_fair():
    # 8 players, 2 tables: over many seeds each player is first player about 1 time in 4 and
    # each colour appears at seat 1 about 1 time in 4. Fixed seeds keep it deterministic.
    firsts, colours = Counter(), Counter()
    runs = 1000
    for seed in range(runs):
        seats = draw.draw_sitting(players(8), SETUPS, seed=seed).seats
        first = seats[seats["seat"] == 1]
        firsts.update(first["player_id"])
        colours.update(first["colour"])
    assert all(abs(firsts[p] - runs / 4) < runs * 0.05 for p in players(8))
    assert all(abs(colours[c] - runs / 2) < runs * 0.07 for c in catalog.colours())


def test_R9_three_player_table_last_seat_picks_first():
    seats = draw.draw_sitting(players(3), SETUPS, seed=7).seats
    assert seats.set_index("seat")["pick_order"].to_dict() == {1: 3, 2: 2, 3: 1}


def test_R4_colours_can_be_overridden():
    palette = ["black", "white", "orange", "purple", "teal"]
    seats = draw.draw_sitting(players(11), SETUPS, seed=3, colours=palette).seats
    assert set(seats["colour"]) <= set(palette)
    assert not seats.duplicated(["table_no", "colour"]).any()
    # Three colours are enough when every table seats three.
    three = draw.draw_sitting(players(9), SETUPS, seed=3, colours=["a", "b", "c"]).seats
    assert set(three["colour"]) == {"a", "b", "c"}


# --- R1: five players and sit-outs ------------------------------------------------------------


def test_R1_five_players_refused_with_advice():
    with pytest.raises(TournamentError, match="5 players cannot be seated.*sit this sitting out"):
        draw.draw_sitting(players(5), SETUPS, seed=1)


@given(seed=seeds)
@settings(max_examples=30, deadline=None)
def test_R1_five_players_one_sits_out_when_asked(seed):
    ids = players(5, "str")
    result = draw.draw_sitting(ids, SETUPS, seed=seed, sit_out=True)
    assert len(result.sit_outs) == 1 and result.sit_outs[0] in ids
    check_draw(result, [p for p in ids if p not in result.sit_outs])


def test_R1_every_player_can_be_the_one_sitting_out():
    outs = {
        draw.draw_sitting(players(5), SETUPS, seed=s, sit_out=True).sit_outs[0] for s in range(60)
    }
    assert outs == set(players(5))


def test_R1_sit_out_does_nothing_when_everyone_can_be_seated():
    plain = draw.draw_sitting(players(9), SETUPS, seed=4)
    asked = draw.draw_sitting(players(9), SETUPS, seed=4, sit_out=True)
    pd.testing.assert_frame_equal(plain.seats, asked.seats)
    assert asked.sit_outs == []


@pytest.mark.parametrize("n", [0, 1, 2])
def test_R1_too_few_players_refused_even_with_sit_out(n):
    with pytest.raises(TournamentError, match="cannot be seated|No players"):
        draw.draw_sitting(players(n), SETUPS, seed=1, sit_out=True)


# --- R6: setups -------------------------------------------------------------------------------


@pytest.mark.slow
@fast
@given(n=st.integers(min_value=3, max_value=64).filter(lambda n: n != 5), seed=seeds)
def test_R6_no_duplicate_setup_within_sitting(n, seed):
    tables = draw.draw_sitting(players(n), SETUPS, seed=seed).tables
    assert tables["setup_id"].is_unique  # up to 16 tables, 16 setups


def test_R6_more_tables_than_setups_uses_whole_rounds():
    tables = draw.draw_sitting(players(4 * 37), SETUPS, seed=5).tables
    uses = tables["setup_id"].value_counts()
    assert set(SETUPS["setup_id"]) == set(uses.index)
    assert uses.max() - uses.min() <= 1 and uses.sum() == 37


def test_R6_least_used_setups_first():
    counts = {setup_id: 1 for setup_id in SETUPS["setup_id"]}
    counts.update({"uprising": 0, "legacy-blood": 0, "uprising-ix": 0})
    counts["not-enabled"] = 0  # ignored
    tables = draw.draw_sitting(players(12), SETUPS, seed=9, setup_counts=counts).tables
    assert set(tables["setup_id"]) == {"uprising", "legacy-blood", "uprising-ix"}


def test_R6_no_duplicates_even_when_earlier_counts_are_uneven():
    # A setup enabled late has fewer uses; it is preferred, but never twice in one sitting.
    counts = {setup_id: 5 for setup_id in SETUPS["setup_id"]}
    counts["uprising"] = 0
    tables = draw.draw_sitting(players(16), SETUPS, seed=2, setup_counts=counts).tables
    assert tables["setup_id"].is_unique and "uprising" in set(tables["setup_id"])


@pytest.mark.slow
def test_R6_ties_between_equal_counts_are_random():
    chosen = Counter(
        draw.draw_sitting(players(4), SETUPS, seed=s).tables["setup_id"].iat[0] for s in range(480)
    )
    assert set(chosen) == set(SETUPS["setup_id"])
    assert max(chosen.values()) < 60  # 30 expected each


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(
    sittings=st.lists(seatable.filter(lambda n: n <= 120), min_size=12, max_size=12),
    enabled=st.sets(st.integers(min_value=0, max_value=31), min_size=1, max_size=32),
    seed=seeds,
)
def test_R6_setup_use_counts_stay_within_one_over_many_sittings(sittings, enabled, seed):
    setups = SETUPS_BOW.iloc[sorted(enabled)]
    counts: dict = {}
    for number, n in enumerate(sittings):
        result = draw.draw_sitting(players(n), setups, seed=seed + number, setup_counts=counts)
        counts = result.setup_counts(counts)
        uses = [counts.get(setup_id, 0) for setup_id in setups["setup_id"]]
        assert max(uses) - min(uses) <= 1
        if len(result.tables) <= len(setups):
            assert result.tables["setup_id"].is_unique
        assert set(result.tables["setup_id"]) <= set(setups["setup_id"])


def test_R6_setup_counts_after_a_sitting():
    result = draw.draw_sitting(players(12), SETUPS, seed=1)
    before = {"legacy": 2, "other": 1}
    after = result.setup_counts(before)
    assert sum(after.values()) == sum(before.values()) + 3 and before == {"legacy": 2, "other": 1}


# --- R7, R9: leader decks and hidden picks ----------------------------------------------------


@pytest.mark.slow
@fast
@given(n=seatable, seed=seeds)
def test_R9_removed_plus_available_is_deck(n, seed):
    check_draw(draw.draw_sitting(players(n), SETUPS_BOW, seed=seed), players(n), SETUPS_BOW)


@pytest.mark.slow
def test_R9_every_leader_equally_likely_to_be_removed():
    removed = Counter()
    runs = 1000
    one = SETUPS[SETUPS["setup_id"] == "legacy"]
    for seed in range(runs):
        tables = draw.draw_sitting(players(4), one, seed=seed).tables
        removed.update(tables["removed_leaders"].iat[0])
    expected = runs * 6 / 14
    assert set(removed) == set(one["leader_deck"].iat[0])
    assert all(abs(count - expected) < expected * 0.15 for count in removed.values())


def test_R7_organizer_edited_deck_is_used():
    custom = pd.DataFrame(
        {"setup_id": ["mini"], "base_game": ["Uprising"], "hidden_picks": [1],
         "leader_deck": [["A", "B", "C", "D", "E"]]}  # fmt: skip
    )
    tables = draw.draw_sitting(players(4), custom, seed=3).tables
    assert tables["removed_leaders"].str.len().tolist() == [1]
    assert tables["available_leaders"].str.len().tolist() == [4]


def test_R7_deck_too_small_for_a_table_is_refused_naming_the_setup():
    small = SETUPS.assign(
        hidden_picks=lambda d: d["hidden_picks"].where(d["setup_id"] != "uprising", 5)
    )
    message = r"'uprising'.*8 leaders minus 5.*leaves 3.*4 players"
    with pytest.raises(TournamentError, match=message):
        draw.draw_sitting(players(8), small, seed=1)
    # A sitting of three-player tables only needs three leaders left.
    draw.draw_sitting(players(9), small, seed=1)


def test_R9_no_hidden_picks_leaves_the_whole_deck():
    tables = draw.draw_sitting(players(8), SETUPS.assign(hidden_picks=0), seed=2).tables
    assert tables["removed_leaders"].str.len().eq(0).all()
    decks = SETUPS.set_index("setup_id")["leader_deck"]
    assert tables["available_leaders"].tolist() == decks[tables["setup_id"]].tolist()


def test_draw_does_not_change_its_inputs():
    setups = SETUPS_BOW.copy()
    ids = players(30)
    counts = {"legacy": 3}
    draw.draw_sitting(ids, setups, seed=1, setup_counts=counts)
    pd.testing.assert_frame_equal(setups, SETUPS_BOW)
    assert ids == players(30) and counts == {"legacy": 3}


# --- bad input --------------------------------------------------------------------------------


def test_duplicate_player_is_named():
    with pytest.raises(TournamentError, match="Player 103 is listed more than once"):
        draw.draw_sitting([*players(8), 103], SETUPS, seed=1)


@pytest.mark.parametrize("missing", [None, float("nan"), " "])
def test_missing_player_id_is_refused(missing):
    with pytest.raises(TournamentError, match="position 3 in the check-in list has no id"):
        draw.draw_sitting([1, 2, missing, 4], SETUPS, seed=1)


def test_no_enabled_setups_is_refused():
    with pytest.raises(TournamentError, match="No setups are enabled"):
        draw.draw_sitting(players(8), SETUPS.iloc[:0], seed=1)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"seed": -1}, "seed must be a whole number"),
        ({"seed": True}, "seed must be a whole number"),
        ({"seed": 1.5}, "seed must be a whole number"),
        ({"seed": 1, "colours": ["red", "green", "blue"]}, "3 colours.*4-player table"),
        ({"seed": 1, "colours": ["red", "red", "blue", "green"]}, "distinct"),
        ({"seed": 1, "setup_counts": {"legacy": -1}}, "'legacy' has -1 uses"),
        ({"seed": 1, "setup_counts": {"legacy": 1.5}}, "'legacy' has 1.5 uses"),
    ],
)
def test_bad_draw_arguments_are_refused(kwargs, message):
    with pytest.raises(TournamentError, match=message):
        draw.draw_sitting(players(8), SETUPS, **kwargs)


def test_setups_frame_must_have_its_columns_and_unique_ids():
    with pytest.raises(TournamentError, match="lack the column.*leader_deck"):
        draw.draw_sitting(players(8), SETUPS.drop(columns="leader_deck"), seed=1)
    with pytest.raises(TournamentError, match="'legacy' is enabled twice"):
        draw.draw_sitting(players(8), pd.concat([SETUPS, SETUPS.head(1)]), seed=1)


def test_new_seed_is_nine_digits_and_varies():
    fresh = {draw.new_seed() for _ in range(50)}
    assert len(fresh) > 45 and all(100_000_000 <= s <= 999_999_999 for s in fresh)


# --- draw_groups (semifinals, final) ----------------------------------------------------------


@pytest.mark.slow
@fast
@given(sizes=st.lists(st.integers(min_value=3, max_value=4), min_size=1, max_size=5), seed=seeds)
def test_R16_groups_keep_their_players_and_table_order(sizes, seed):
    ids = players(sum(sizes), "str")
    groups, start = [], 0
    for size in sizes:
        groups.append(ids[start : start + size])
        start += size
    result = draw.draw_groups(groups, SETUPS, seed=seed)
    seats = result.seats
    got = seats.groupby("table_no")["player_id"].agg(set).tolist()
    assert got == [set(g) for g in groups]
    expected_seats = [list(range(1, s + 1)) for s in sizes]
    assert seats.groupby("table_no")["seat"].agg(list).tolist() == expected_seats
    assert not seats.duplicated(["table_no", "colour"]).any()
    size = seats["table_no"].map(dict(enumerate(sizes, 1)))
    assert (seats["pick_order"] == size - seats["seat"] + 1).all()
    assert len(result.tables) == len(sizes) and result.tables["setup_id"].is_unique


def test_R3_group_seats_are_random():
    final = ["a", "b", "c", "d"]
    firsts = {
        draw.draw_groups([final], SETUPS, seed=s).seats["player_id"].iat[0] for s in range(40)
    }
    assert firsts == set(final)


@pytest.mark.parametrize(
    ("groups", "message"),
    [
        ([[1, 2, 3, 4], [5, 6]], "Table 2 has 2 players"),
        ([[1, 2, 3, 4, 5]], "Table 1 has 5 players"),
        ([[1, 2, 3, 4], [4, 5, 6]], "Player 4 is listed more than once"),
        ([], "No tables"),
    ],
)
def test_bad_groups_are_refused(groups, message):
    with pytest.raises(TournamentError, match=message):
        draw.draw_groups(groups, SETUPS, seed=1)


# --- R10 Vote Off -----------------------------------------------------------------------------

DECK = ["Atreides", "Harkonnen", "Fenring", "Ilban", "Thorvald", "Vernius", "Tessia", "Memnon"]


def votes(*pairs):
    return pd.DataFrame(pairs, columns=["player_id", "leader"])


def removals(frame, **options):
    options = {"seed": 1, "table_no": 1, **options}
    return draw.vote_off_removals(DECK, frame, **options)


def test_R10_vote_off_removes_the_two_most_voted():
    frame = votes((1, "Atreides"), (1, "Fenring"), (2, "Atreides"), (2, "Ilban"),
                  (3, "Fenring"), (3, "Atreides"), (4, "Memnon"), (4, "Fenring"))
    result = removals(frame)
    assert list(result.columns) == ["leader", "votes", "decided"]
    assert result.to_dict("list") == {"leader": ["Atreides", "Fenring"], "votes": [3, 3],
                                      "decided": [draw.MOST_VOTES] * 2}


def test_R10_vote_off_tie_for_second_settled_by_the_organizer():
    frame = votes((1, "Atreides"), (1, "Fenring"), (2, "Atreides"), (2, "Ilban"),
                  (3, "Atreides"), (3, "Memnon"))
    result = removals(frame, organizer_choice=["Memnon", "Fenring"])
    assert result["leader"].tolist() == ["Atreides", "Memnon"]
    assert result["decided"].tolist() == [draw.MOST_VOTES, draw.ORGANIZER_CHOICE]
    with pytest.raises(TournamentError, match="'Atreides': not among the leaders tied at 1 vote;"):
        removals(frame, organizer_choice=["Atreides"])
    with pytest.raises(TournamentError, match="Choose 1 of the leaders tied at 1 vote: 'Fenring', "
                                              "'Ilban', 'Memnon'"):
        removals(frame, organizer_choice=[])


def test_R10_vote_off_tie_for_both_places_settled_by_the_organizer():
    frame = votes((1, "Atreides"), (1, "Fenring"), (2, "Ilban"), (2, "Memnon"))
    result = removals(frame, organizer_choice=["Memnon", "Atreides", "Ilban"])
    assert result["leader"].tolist() == ["Memnon", "Atreides"]
    assert (result["decided"] == draw.ORGANIZER_CHOICE).all()


@pytest.mark.slow
def test_R10_vote_off_tie_settled_at_random_from_the_seed_and_table():
    frame = votes((1, "Atreides"), (1, "Fenring"), (2, "Atreides"), (2, "Ilban"),
                  (3, "Atreides"), (3, "Memnon"))
    second = {removals(frame, seed=s)["leader"].iat[1] for s in range(60)}
    assert second == {"Fenring", "Ilban", "Memnon"}
    assert (removals(frame)["decided"] == [draw.MOST_VOTES, draw.RANDOM_CHOICE]).all()
    # The same seed, table and votes settle it the same way, whatever the order of the rows.
    shuffled = frame.sample(frac=1, random_state=3)
    for s in range(20):
        pd.testing.assert_frame_equal(removals(frame, seed=s), removals(shuffled, seed=s))
    # Each table of a sitting draws on its own.
    by_table = {removals(frame, seed=7, table_no=t)["leader"].iat[1] for t in range(1, 30)}
    assert len(by_table) > 1


def test_R10_vote_off_ignores_the_organizer_choice_without_a_tie():
    frame = votes((1, "Atreides"), (1, "Fenring"), (2, "Atreides"), (2, "Fenring"),
                  (3, "Ilban"), (3, "Memnon"))
    assert removals(frame, organizer_choice=["Ilban"])["leader"].tolist() == [
        "Atreides", "Fenring"]


@pytest.mark.slow
def test_R10_vote_off_leaders_without_votes_can_be_removed_in_a_tie():
    frame = votes((1, "Atreides"), (2, "Atreides"), (3, "Atreides"))
    removed = {removals(frame, seed=s, x=1)["leader"].iat[1] for s in range(80)}
    assert removed == set(DECK) - {"Atreides"}


def test_R10_vote_off_with_x_three():
    frame = votes(*((p, name) for p in (1, 2, 3) for name in ("Atreides", "Ilban", DECK[p + 3])))
    assert removals(frame, x=3)["leader"].tolist() == ["Atreides", "Ilban"]


@pytest.mark.parametrize("frame, message", [
    (votes((1, "Atreides"), (1, "Fenring"), (2, "Atreides"), (2, "Dune")),
     "Player 2: voted for 'Dune', not in this table's leader deck"),
    (votes((1, "Atreides"), (1, "Atreides"), (2, "Atreides"), (2, "Ilban")),
     "Player 1: voted for 'Atreides' more than once; the 2 votes must name different leaders"),
    (votes((1, "Atreides"), (2, "Atreides"), (2, "Ilban")), "Player 1: cast 1 vote, not 2"),
    (votes((1, "Atreides"), (1, "Fenring"), (1, "Ilban")), "Player 1: cast 3 votes, not 2"),
    (votes(), "no votes recorded; each player votes off 2 leaders"),
    (votes((1, "Atreides"), (None, "Fenring")), "Vote 2 lacks its player or its leader"),
    (pd.DataFrame({"leader": ["Atreides"]}), "lack the column"),
])
def test_R10_vote_off_bad_votes_are_refused_naming_the_player(frame, message):
    with pytest.raises(TournamentError, match=message):
        removals(frame)


def test_R10_vote_off_every_player_at_the_table_votes_and_nobody_else():
    frame = votes((1, "Atreides"), (1, "Fenring"), (5, "Atreides"), (5, "Ilban"))
    with pytest.raises(TournamentError) as err:
        removals(frame, players=[1, 2])
    assert [str(p) for p in err.value.problems] == [
        "Player 2: has not voted", "Player 5: voted but does not sit at this table"]


def test_R10_vote_off_lists_every_problem():
    frame = votes((1, "Atreides"), (1, "Atreides"), (2, "Dune"), (2, "Ilban"), (3, "Ilban"))
    with pytest.raises(TournamentError) as err:
        removals(frame)
    assert {p.where for p in err.value.problems} == {"Player 1", "Player 2", "Player 3"}
    assert str(err.value).startswith("Vote Off: ")


@pytest.mark.parametrize("deck, options, message", [
    (["Atreides"], {}, "hold 1 leader; Vote Off needs at least 2"),
    (["Atreides", "Atreides", "Ilban"], {}, "list 'Atreides' more than once"),
    ("Atreides", {}, "must be a list of leader names"),
    (DECK, {"x": 0}, "X a whole number from 1 to the 8 leaders"),
    (DECK, {"seed": -1}, "seed must be a whole number"),
    (DECK, {"table_no": "2"}, "table number must be a whole number"),
    (DECK[:5], {}, "leaves fewer leaders than the 4 players at the table"),
])
def test_R10_vote_off_bad_deck_or_settings_refused(deck, options, message):
    frame = votes(*((p, name) for p in (1, 2, 3, 4) for name in ("Atreides", "Ilban")))
    with pytest.raises(TournamentError, match=message):
        draw.vote_off_removals(deck, frame, **{"seed": 1, "table_no": 1, **options})


@st.composite
def vote_cases(draw):
    """A deck, a table of 3 or 4 players each voting off X different leaders of it."""
    deck = DECK[:draw(st.integers(min_value=6, max_value=len(DECK)))]
    x = draw(st.integers(min_value=1, max_value=3))
    players = list(range(1, draw(st.sampled_from([3, 4])) + 1))
    pairs = [(p, name) for p in players
             for name in draw(st.lists(st.sampled_from(deck), min_size=x, max_size=x,
                                       unique=True))]
    return deck, x, players, draw(st.permutations(pairs))


@pytest.mark.slow
@given(case=vote_cases(), seed=seeds, organizer=st.booleans(), data=st.data())
@settings(max_examples=200, deadline=None)
def test_R10_vote_off_matches_oracle(case, seed, organizer, data):
    """R10: the leaders removed on votes alone are the oracle's; a tie is settled among the
    tied leaders only, by the organizer's order when given; the same seed gives the same."""
    deck, x, players, pairs = case
    sure, tied, needed = oracle.vote_off(deck, pairs)
    choice = data.draw(st.permutations(tied)) if organizer else None
    frame = votes(*pairs)
    result = draw.vote_off_removals(deck, frame, seed=seed, table_no=3, x=x,
                                    organizer_choice=choice, players=players)
    count = Counter(name for _, name in pairs)
    assert result["votes"].tolist() == [count[name] for name in result["leader"]]
    assert result["leader"].is_unique and len(result) == draw.VOTE_OFF_REMOVES
    by_votes = result.loc[result["decided"] == draw.MOST_VOTES, "leader"].tolist()
    settled = result.loc[result["decided"] != draw.MOST_VOTES, "leader"].tolist()
    if needed == len(tied):
        assert by_votes == sure + tied and not settled
    else:
        assert by_votes == sure and len(settled) == needed and set(settled) <= set(tied)
        how = draw.ORGANIZER_CHOICE if organizer else draw.RANDOM_CHOICE
        assert (result["decided"].iloc[len(sure):] == how).all()
        if organizer:
            assert settled == list(choice[:needed])
    again = draw.vote_off_removals(deck, frame.iloc[::-1], seed=seed, table_no=3, x=x,
                                   organizer_choice=choice)
    pd.testing.assert_frame_equal(result, again)


# --- R10 Wild Card ----------------------------------------------------------------------------


SEATS = pd.DataFrame(
    {"seat": [1, 2, 3, 4], "player_id": [11, 12, 13, 14], "leader": ["A", "B", "C", "D"]}
)
REMOVED = ["R1", "R2", "R3"]


def choices(*swapping):
    return {p: p in swapping for p in SEATS["player_id"]}


def wild(swapping, seats=SEATS, removed=REMOVED, seed=1, table_no=1):
    return draw.wild_card_draws(seats, swapping, removed, seed=seed, table_no=table_no)


def test_R10_wild_card_without_swaps_keeps_everyone():
    result = wild(choices())
    assert result["leader"].tolist() == ["A", "B", "C", "D"] and not result["swapped"].any()


@pytest.mark.slow
@given(seed=seeds, swaps=st.sets(st.sampled_from([11, 12, 13, 14]), max_size=3))
@settings(max_examples=40, deadline=None)
def test_R10_wild_card_swappers_get_distinct_removed_leaders(seed, swaps):
    result = wild(choices(*swaps), seed=seed)
    assert list(result.columns) == ["seat", "player_id", "leader", "swapped", "original_leader"]
    swapped = result[result["swapped"]]
    assert set(swapped["player_id"]) == swaps
    assert swapped["leader"].is_unique and set(swapped["leader"]) <= set(REMOVED)
    kept = result[~result["swapped"]]
    assert (kept["leader"] == kept["original_leader"]).all()
    assert result["original_leader"].tolist() == ["A", "B", "C", "D"]


@pytest.mark.slow
@given(seed=seeds, swaps=st.sets(st.sampled_from([11, 12, 13, 14]), min_size=1, max_size=3))
@settings(max_examples=40, deadline=None)
def test_R10_wild_card_a_draw_never_depends_on_later_choices(seed, swaps):
    """In play order: what a swapper draws is fixed before the players after them choose."""
    first = min(swaps)
    alone = wild(choices(first), seed=seed).set_index("player_id")["leader"]
    together = wild(choices(*swaps), seed=seed).set_index("player_id")["leader"]
    assert alone[first] == together[first]


def test_R10_wild_card_same_inputs_same_draws_whatever_the_row_and_pool_order():
    shuffled = SEATS.iloc[[2, 0, 3, 1]]
    for seed in range(10):
        pd.testing.assert_frame_equal(wild(choices(12, 14), seed=seed),
                                      wild(choices(12, 14), seats=shuffled, seed=seed,
                                           removed=REMOVED[::-1]))
    drawn = {tuple(wild(choices(11), seed=7, table_no=t)["leader"]) for t in range(1, 20)}
    assert len(drawn) > 1, "each table draws on its own"


def test_R10_wild_card_too_many_swaps_names_the_first_who_cannot():
    with pytest.raises(TournamentError, match=r"Player 14 \(seat 4\) wants to swap, but the 3 "
                                              "removed leaders are already taken"):
        wild(choices(11, 12, 13, 14))


@pytest.mark.parametrize("swapping, seats, removed, message", [
    ({11: True, 12: False, 13: False}, SEATS, REMOVED, "Player 14: has no keep-or-swap choice"),
    ({**choices(), 99: True}, SEATS, REMOVED, "Player 99: made a choice but does not sit"),
    ({**choices(), 12: "yes"}, SEATS, REMOVED, "Player 12: chose 'yes': True to swap"),
    ([11], SEATS, REMOVED, "must map each player to True"),
    (choices(11), SEATS, ["A", "R2"], "'A' cannot be both picked and removed"),
    (choices(11), SEATS, ["R1", "R1"], "list 'R1' more than once"),
    (choices(11), SEATS.assign(seat=[1, 2, 2, 4]), REMOVED, "list seat 2 twice"),
    (choices(11), SEATS.assign(leader=["A", "B", "A", "D"]), REMOVED, "list leader A twice"),
    (choices(11), SEATS.drop(columns="leader"), REMOVED, "lack the column"),
])
def test_R10_wild_card_bad_input_is_refused(swapping, seats, removed, message):
    with pytest.raises(TournamentError, match=message):
        wild(swapping, seats=seats, removed=removed)


# --- a big sitting ----------------------------------------------------------------------------


def test_draw_of_ten_thousand_players_seats_everyone():
    """Its time is a figure of `make bench` (draw_seconds, draw_counted_seconds)."""
    result = draw.draw_sitting(players(10_000), SETUPS, seed=0, setup_counts={"legacy": 1})
    assert len(result.seats) == 10_000 and len(result.tables) == 2_500
