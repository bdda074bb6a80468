"""Unit tests of stsa.rules, one group per ruling (R1, R11, R12, R14–R18), on hand-worked games."""

import numpy as np
import pandas as pd
import pytest

from stsa import rules
from stsa.errors import TournamentError


def game(game_id, *players):
    """Rows of one game: each player is (player_id, vp, spice, solari, troops, water[, extra])."""
    rows = []
    for p in players:
        pid, vp, spice, solari, troops, water, *extra = p
        row = {"game_id": game_id, "player_id": pid, "vp": vp, "spice": spice,
               "solari": solari, "troops": troops, "water": water}
        if extra:
            row.update(extra[0])
        rows.append(row)
    return rows


def frame(*games):
    return pd.DataFrame([r for g in games for r in g])


def by_player(scored):
    return scored.set_index("player_id")


# --- R1 ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("n, sizes", [
    (3, [3]), (4, [4]), (6, [3, 3]), (7, [4, 3]), (8, [4, 4]), (9, [3, 3, 3]),
    (10, [4, 3, 3]), (11, [4, 4, 3]), (12, [4, 4, 4]), (13, [4, 3, 3, 3]), (14, [4, 4, 3, 3]),
])
def test_R1_table_sizes_examples(n, sizes):
    assert rules.table_sizes(n) == sizes


def test_R1_table_sizes_general():
    for n in range(3, 400):
        if n == 5:
            continue
        sizes = rules.table_sizes(n)
        assert sum(sizes) == n
        assert len(sizes) == -(-n // 4)
        assert sizes.count(3) == 4 * len(sizes) - n
        assert sizes == sorted(sizes, reverse=True), "four-player tables come first"


@pytest.mark.parametrize("n", [0, 1, 2, 5])
def test_R1_unseatable_counts_refused_with_advice(n):
    with pytest.raises(ValueError) as err:
        rules.table_sizes(n)
    assert str(n) in str(err.value) or n == 0
    assert "player" in str(err.value)


def test_R1_five_players_suggests_sit_out():
    with pytest.raises(TournamentError, match="sit this sitting out"):
        rules.table_sizes(5)


@pytest.mark.parametrize("bad", [-1, 2.5, "7", True])
def test_R1_nonsense_counts_refused(bad):
    with pytest.raises(ValueError):
        rules.table_sizes(bad)


# --- R11 placing ------------------------------------------------------------------------------

def test_R11_order_vp_spice_solari_troops_water():
    results = frame(game(
        1,
        (1, 10, 0, 0, 0, 9),   # 4th: loses on troops despite most water
        (2, 10, 0, 0, 1, 0),   # 3rd: troops before water (tournament order)
        (3, 10, 0, 1, 0, 0),   # 2nd: solari
        (4, 10, 1, 0, 0, 0),   # 1st: spice
    ))
    placing = by_player(rules.score_games(results))["placing"]
    assert placing.to_dict() == {4: 1, 3: 2, 2: 3, 1: 4}


def test_R11_troops_before_water_unlike_the_rulebook():
    results = frame(game(1, (1, 5, 0, 0, 2, 0), (2, 5, 0, 0, 1, 5), (3, 1, 0, 0, 0, 0)))
    placing = by_player(rules.score_games(results))["placing"]
    assert placing[1] == 1 and placing[2] == 2


def test_R11_full_tie_shares_placing_and_is_flagged():
    results = frame(game(1, (1, 9, 2, 1, 1, 1), (2, 9, 2, 1, 1, 1), (3, 7, 0, 0, 0, 0),
                         (4, 5, 0, 0, 0, 0)))
    scored = by_player(rules.score_games(results))
    assert scored.loc[[1, 2], "placing"].tolist() == [1, 1]
    assert scored.loc[[1, 2], "tied"].tolist() == [True, True]
    assert scored.loc[3, "placing"] == 3 and not scored.loc[3, "tied"]
    assert scored.loc[4, "placing"] == 4


def test_R11_settled_tie_uses_tiebreak_lower_is_better():
    results = frame(game(1, (1, 9, 2, 1, 1, 1, {"tiebreak": 2}),
                         (2, 9, 2, 1, 1, 1, {"tiebreak": 1}),
                         (3, 7, 0, 0, 0, 0), (4, 5, 0, 0, 0, 0)))
    scored = by_player(rules.score_games(results))
    assert scored.loc[2, "placing"] == 1 and scored.loc[1, "placing"] == 2
    assert not scored["tied"].any()


def test_R11_tiebreak_ignored_between_players_not_equal_on_all_five():
    results = frame(game(1, (1, 9, 0, 0, 0, 0, {"tiebreak": 2}),
                         (2, 8, 0, 0, 0, 0, {"tiebreak": 1}),
                         (3, 7, 0, 0, 0, 0)))
    assert by_player(rules.score_games(results))["placing"].to_dict() == {1: 1, 2: 2, 3: 3}


def test_R11_partial_tiebreak_leaves_the_tie_open():
    results = frame(game(1, (1, 9, 0, 0, 0, 0, {"tiebreak": 1}), (2, 9, 0, 0, 0, 0),
                         (3, 9, 0, 0, 0, 0, {"tiebreak": 2}), (4, 1, 0, 0, 0, 0)))
    scored = by_player(rules.score_games(results))
    assert scored.loc[[1, 2, 3], "placing"].tolist() == [1, 1, 1]
    assert scored.loc[[1, 2, 3], "tied"].all()


def test_R11_score_games_returns_a_copy_in_input_order():
    results = frame(game("g", ("c", 1, 0, 0, 0, 0), ("a", 9, 0, 0, 0, 0), ("b", 5, 0, 0, 0, 0)))
    results.index = [10, 20, 30]
    before = results.copy()
    scored = rules.score_games(results)
    pd.testing.assert_frame_equal(results, before)
    assert scored.index.tolist() == [10, 20, 30]
    assert scored["player_id"].tolist() == ["c", "a", "b"]
    assert scored["placing"].tolist() == [3, 1, 2]
    assert scored["placing"].dtype == "int64" and scored["qualifier_score"].dtype == "int64"
    assert scored["tied"].dtype == bool


# --- R12 qualifier score ----------------------------------------------------------------------

def test_R12_four_player_scores():
    results = frame(game(1, (1, 12, 0, 0, 0, 0), (2, 9, 0, 0, 0, 0), (3, 8, 0, 0, 0, 0),
                         (4, 4, 0, 0, 0, 0)))
    score = by_player(rules.score_games(results))["qualifier_score"]
    assert score.to_dict() == {1: 20 + 3, 2: 15 + 1, 3: 10 + 4, 4: 0}


def test_R12_three_player_third_gets_ten():
    results = frame(game(1, (1, 11, 0, 0, 0, 0), (2, 11, 3, 0, 0, 0), (3, 2, 0, 0, 0, 0)))
    score = by_player(rules.score_games(results))["qualifier_score"]
    assert score.to_dict() == {2: 20 + 0, 1: 15 + 9, 3: 10}


def test_R12_variant_points_added_and_may_be_negative():
    results = frame(game(1, (1, 12, 0, 0, 0, 0, {"variant_points": 2}),
                         (2, 9, 0, 0, 0, 0, {"variant_points": -1}),
                         (3, 8, 0, 0, 0, 0, {"variant_points": 0}),
                         (4, 4, 0, 0, 0, 0, {"variant_points": 3})))
    score = by_player(rules.score_games(results))["qualifier_score"]
    assert score.to_dict() == {1: 25, 2: 15, 3: 14, 4: 3}


def test_R12_settled_tie_second_place_margin_is_to_next_player():
    results = frame(game(1, (1, 10, 0, 0, 0, 0, {"tiebreak": 1}),
                         (2, 10, 0, 0, 0, 0, {"tiebreak": 2}),
                         (3, 6, 0, 0, 0, 0), (4, 6, 1, 0, 0, 0)))
    score = by_player(rules.score_games(results))["qualifier_score"]
    assert score.to_dict() == {1: 20, 2: 15 + 4, 4: 10 + 0, 3: 0}


def test_R12_players_sharing_a_placing_share_a_score():
    results = frame(game(1, (1, 10, 0, 0, 0, 0), (2, 10, 0, 0, 0, 0), (3, 6, 0, 0, 0, 0),
                         (4, 2, 0, 0, 0, 0)))
    score = by_player(rules.score_games(results))["qualifier_score"]
    assert score[1] == score[2] == 20
    assert score[3] == 10 + 4


def test_R12_base_points_are_a_setting():
    results = frame(game(1, (1, 12, 0, 0, 0, 0), (2, 9, 0, 0, 0, 0), (3, 8, 0, 0, 0, 0),
                         (4, 4, 0, 0, 0, 0)))
    score = by_player(rules.score_games(results, base_points=(30, 20, 10, 5)))["qualifier_score"]
    assert score.to_dict() == {1: 33, 2: 21, 3: 14, 4: 5}


def test_R12_string_and_float_ids_and_values_are_accepted():
    results = frame(game("t1", ("ann", 12.0, 0, 0, 0, 0), ("bo", 9.0, 0, 0, 0, 0),
                         ("cy", 8.0, 0, 0, 0, 0)))
    score = by_player(rules.score_games(results))["qualifier_score"]
    assert score.to_dict() == {"ann": 23, "bo": 16, "cy": 10}


def test_R12_empty_results_score_to_empty_frame():
    empty = pd.DataFrame(columns=rules.RESULT_COLUMNS)
    scored = rules.score_games(empty)
    assert scored.empty
    assert {"placing", "qualifier_score", "tied"} <= set(scored.columns)


# --- impossible input -------------------------------------------------------------------------

def test_error_game_with_two_players_names_the_game():
    results = frame(game(7, (1, 5, 0, 0, 0, 0), (2, 4, 0, 0, 0, 0)),
                    game(8, (3, 5, 0, 0, 0, 0), (4, 4, 0, 0, 0, 0), (5, 1, 0, 0, 0, 0)))
    with pytest.raises(ValueError, match=r"game 7 has 2 players"):
        rules.score_games(results)


def test_error_game_with_five_players():
    results = frame(game(3, *[(i, i, 0, 0, 0, 0) for i in range(5)]))
    with pytest.raises(ValueError, match=r"game 3 has 5 players"):
        rules.score_games(results)


def test_error_negative_vp_names_game_and_player():
    results = frame(game(4, (1, 5, 0, 0, 0, 0), (2, -1, 0, 0, 0, 0), (3, 1, 0, 0, 0, 0)))
    with pytest.raises(ValueError, match=r"game 4, player 2: vp cannot be negative"):
        rules.score_games(results)


def test_error_negative_water_names_game_and_player():
    results = frame(game(4, (1, 5, 0, 0, 0, 0), (2, 1, 0, 0, 0, -3), (3, 1, 0, 0, 0, 0)))
    with pytest.raises(ValueError, match=r"game 4, player 2: water cannot be negative"):
        rules.score_games(results)


def test_error_duplicated_player_in_a_game():
    results = frame(game(9, (1, 5, 0, 0, 0, 0), (1, 4, 0, 0, 0, 0), (3, 1, 0, 0, 0, 0)))
    with pytest.raises(ValueError, match=r"game 9, player 1: the player appears twice"):
        rules.score_games(results)


def test_error_missing_columns_are_named():
    results = frame(game(1, (1, 5, 0, 0, 0, 0), (2, 4, 0, 0, 0, 0), (3, 1, 0, 0, 0, 0)))
    with pytest.raises(ValueError, match=r"troops, water"):
        rules.score_games(results.drop(columns=["troops", "water"]))


@pytest.mark.parametrize("value, message", [(np.nan, "vp is missing"), (2.5, "whole number"),
                                            ("lots", "whole number")])
def test_error_bad_values_name_game_and_player(value, message):
    results = frame(game(2, (1, 5, 0, 0, 0, 0), (2, 4, 0, 0, 0, 0), (3, 1, 0, 0, 0, 0)))
    results["vp"] = results["vp"].astype(object)
    results.loc[1, "vp"] = value
    with pytest.raises(ValueError, match=rf"game 2, player 2: .*{message}"):
        rules.score_games(results)


def test_error_not_a_frame():
    with pytest.raises(ValueError, match="DataFrame"):
        rules.score_games([{"game_id": 1}])


# --- R14, R15 standings -----------------------------------------------------------------------

STANDINGS_COLUMNS = ["player_id", "rank", "best_score", "games", "wins", "placing",
                     "vp", "spice", "solari", "troops", "water"]


def test_R14_only_best_score_counts_and_columns():
    results = frame(
        game(1, (1, 12, 0, 0, 0, 0), (2, 9, 0, 0, 0, 0), (3, 8, 0, 0, 0, 0), (4, 4, 0, 0, 0, 0)),
        game(2, (4, 14, 0, 0, 0, 0), (3, 9, 0, 0, 0, 0), (2, 2, 0, 0, 0, 0)),
    )
    table = rules.standings(rules.score_games(results))
    assert list(table.columns) == STANDINGS_COLUMNS
    assert table["player_id"].tolist() == [4, 1, 3, 2]
    row = table.set_index("player_id")
    assert row.loc[4, "best_score"] == 25 and row.loc[4, "games"] == 2 and row.loc[4, "wins"] == 1
    assert row.loc[4, "vp"] == 14 and row.loc[4, "placing"] == 1
    # Player 2: 16 in game 1, 10 in game 2; player 3: 14 in game 1, 22 in game 2.
    assert row.loc[3, "best_score"] == 22 and row.loc[3, "vp"] == 9 and row.loc[3, "placing"] == 2
    assert row.loc[2, "best_score"] == 16 and row.loc[2, "games"] == 2 and row.loc[2, "wins"] == 0
    assert table["rank"].tolist() == [1, 2, 3, 4]


def test_R14_equal_best_scores_broken_by_best_games_placing_then_vp():
    # Both 20: player 1 as a 1st place (20 + 0), player 2 as a 2nd place (15 + 5).
    results = frame(
        game(1, (1, 8, 1, 0, 0, 0), (5, 8, 0, 0, 0, 0), (6, 3, 0, 0, 0, 0)),
        game(2, (7, 15, 0, 0, 0, 0), (2, 10, 0, 0, 0, 0), (8, 5, 0, 0, 0, 0)),
    )
    table = rules.standings(rules.score_games(results)).set_index("player_id")
    assert table.loc[1, "best_score"] == table.loc[2, "best_score"] == 20
    assert table.loc[1, "rank"] < table.loc[2, "rank"]


def test_R14_equal_score_and_placing_broken_by_vp_then_spice():
    results = frame(
        game(1, (1, 9, 0, 0, 0, 0), (5, 9, 0, 0, 0, 0, {"tiebreak": 1}), (6, 4, 0, 0, 0, 0)),
        game(2, (2, 7, 0, 0, 0, 0), (7, 2, 0, 0, 0, 0), (8, 2, 0, 0, 0, 0)),
    )
    # Player 1: 2nd (15 + 5 = 20). Player 2: 1st by 5 = 25. Use vp tiebreak on equal rows below.
    results2 = frame(
        game(1, (1, 10, 0, 0, 0, 0), (5, 6, 0, 0, 0, 0), (6, 1, 0, 0, 0, 0)),
        game(2, (2, 9, 0, 0, 0, 0), (7, 5, 0, 0, 0, 0), (8, 1, 0, 0, 0, 0)),
    )
    table = rules.standings(rules.score_games(results2)).set_index("player_id")
    assert table.loc[1, "best_score"] == table.loc[2, "best_score"] == 24
    assert table.loc[1, "rank"] < table.loc[2, "rank"], "more VP in the best game"
    results3 = frame(
        game(1, (1, 10, 2, 0, 0, 0), (5, 6, 0, 0, 0, 0), (6, 1, 0, 0, 0, 0)),
        game(2, (2, 10, 3, 0, 0, 0), (7, 6, 0, 0, 0, 0), (8, 1, 0, 0, 0, 0)),
    )
    table = rules.standings(rules.score_games(results3)).set_index("player_id")
    assert table.loc[2, "rank"] < table.loc[1, "rank"], "more spice in the best game"
    assert len(results)  # the first frame is a valid tournament too
    rules.standings(rules.score_games(results))


def test_R14_then_second_best_score():
    results = frame(
        game(1, (1, 10, 0, 0, 0, 0), (5, 6, 0, 0, 0, 0), (6, 1, 0, 0, 0, 0)),
        game(2, (2, 10, 0, 0, 0, 0), (7, 6, 0, 0, 0, 0), (8, 1, 0, 0, 0, 0)),
        game(3, (9, 10, 0, 0, 0, 0), (1, 8, 0, 0, 0, 0), (10, 1, 0, 0, 0, 0)),   # 1: 15+7 = 22
        game(4, (11, 10, 0, 0, 0, 0), (2, 9, 0, 0, 0, 0), (12, 1, 0, 0, 0, 0)),  # 2: 15+8 = 23
    )
    table = rules.standings(rules.score_games(results)).set_index("player_id")
    assert table.loc[1, "best_score"] == table.loc[2, "best_score"] == 24
    assert table.loc[2, "rank"] < table.loc[1, "rank"]


def test_R14_players_equal_on_everything_share_a_rank():
    results = frame(
        game(1, (1, 10, 0, 0, 0, 0), (5, 6, 0, 0, 0, 0), (6, 1, 0, 0, 0, 0)),
        game(2, (2, 10, 0, 0, 0, 0), (7, 6, 0, 0, 0, 0), (8, 1, 0, 0, 0, 0)),
    )
    table = rules.standings(rules.score_games(results))
    ranks = table.set_index("player_id")["rank"]
    assert ranks[1] == ranks[2] == 1
    assert ranks[5] == ranks[7] == 3, "ranks after a shared rank skip (1, 1, 3)"


def test_R14_one_game_ranks_below_same_best_and_a_second_game():
    results = frame(
        game(1, (1, 10, 0, 0, 0, 0), (5, 6, 0, 0, 0, 0), (6, 1, 0, 0, 0, 0)),
        game(2, (2, 10, 0, 0, 0, 0), (7, 6, 0, 0, 0, 0), (8, 1, 0, 0, 0, 0)),
        game(3, (9, 10, 0, 0, 0, 0), (10, 9, 0, 0, 0, 0), (11, 8, 0, 0, 0, 0), (2, 0, 0, 0, 0, 0)),
    )
    ranks = rules.standings(rules.score_games(results)).set_index("player_id")["rank"]
    assert ranks[2] < ranks[1]


def test_R15_wins_count_first_places():
    results = frame(
        game(1, (1, 10, 0, 0, 0, 0), (2, 6, 0, 0, 0, 0), (3, 1, 0, 0, 0, 0)),
        game(2, (1, 10, 0, 0, 0, 0), (2, 11, 0, 0, 0, 0), (3, 1, 0, 0, 0, 0)),
        game(3, (1, 12, 0, 0, 0, 0), (2, 6, 0, 0, 0, 0), (3, 1, 0, 0, 0, 0)),
    )
    wins = rules.standings(rules.score_games(results)).set_index("player_id")["wins"]
    assert wins.to_dict() == {1: 2, 2: 1, 3: 0}


def test_R14_standings_of_no_results_is_empty_with_columns():
    table = rules.standings(rules.score_games(pd.DataFrame(columns=rules.RESULT_COLUMNS)))
    assert table.empty and list(table.columns) == STANDINGS_COLUMNS


# --- R16 finals format ------------------------------------------------------------------------

@pytest.mark.parametrize("n, direct, semifinal, tables, advance", [
    (4, 4, 0, 0, 0), (5, 4, 0, 0, 0), (6, 4, 0, 0, 0), (7, 4, 3, 1, 1), (8, 4, 4, 1, 1),
    (16, 4, 4, 1, 1), (17, 3, 8, 2, 1), (32, 3, 8, 2, 1), (33, 2, 12, 3, 2), (200, 2, 12, 3, 2),
])
def test_R16_finals_format(n, direct, semifinal, tables, advance):
    fmt = rules.finals_format(n)
    assert (fmt.direct, fmt.semifinal, fmt.semifinal_tables, fmt.advance) == (
        direct, semifinal, tables, advance)
    assert all(isinstance(v, int) for v in (fmt.direct, fmt.semifinal, fmt.semifinal_tables,
                                            fmt.advance))


@pytest.mark.parametrize("n", [0, 1, 3])
def test_R16_no_finals_below_four(n):
    with pytest.raises(ValueError, match="at least 4"):
        rules.finals_format(n)


def standings_of(n, wins=()):
    """A standings frame of players 1..n ranked 1..n, best scores descending."""
    return pd.DataFrame({
        "player_id": range(1, n + 1), "rank": range(1, n + 1),
        "best_score": range(100, 100 - n, -1), "games": 1,
        "wins": [1 if p in wins else 0 for p in range(1, n + 1)],
        "placing": 1, "vp": 10, "spice": 0, "solari": 0, "troops": 0, "water": 0,
    })


def test_R16_entrants_small_tournament():
    entrants = rules.finals_entrants(standings_of(12))
    assert list(entrants.columns) == ["player_id", "stage", "wildcard"]
    assert entrants.loc[entrants["stage"] == "final", "player_id"].tolist() == [1, 2, 3, 4]
    assert entrants.loc[entrants["stage"] == "semifinal", "player_id"].tolist() == [5, 6, 7, 8]
    assert not entrants["wildcard"].any()


def test_R16_entrants_medium_and_large():
    medium = rules.finals_entrants(standings_of(20))
    assert medium.groupby("stage").size().to_dict() == {"final": 3, "semifinal": 8}
    large = rules.finals_entrants(standings_of(40))
    assert large.groupby("stage").size().to_dict() == {"final": 2, "semifinal": 12}
    assert large.loc[large["stage"] == "semifinal", "player_id"].tolist() == list(range(3, 15))


def test_R16_entrants_seven_players_three_player_semifinal_and_six_none():
    seven = rules.finals_entrants(standings_of(7))
    assert seven.loc[seven["stage"] == "semifinal", "player_id"].tolist() == [5, 6, 7]
    six = rules.finals_entrants(standings_of(6))
    assert six["stage"].tolist() == ["final"] * 4


def test_R17_absent_seat_goes_to_best_winning_player_below_cut():
    table = standings_of(12, wins={11, 12})
    entrants = rules.finals_entrants(table, present=set(range(1, 13)) - {2})
    row = entrants.set_index("player_id")
    assert 2 not in row.index
    assert row.loc[11, "stage"] == "final" and row.loc[11, "wildcard"]
    assert entrants.loc[entrants["stage"] == "final", "player_id"].tolist() == [1, 11, 3, 4]


def test_R17_without_winners_below_the_cut_best_ranked_present_player():
    table = standings_of(12)
    entrants = rules.finals_entrants(table, present=set(range(1, 13)) - {6, 9})
    row = entrants.set_index("player_id")
    assert row.loc[10, "stage"] == "semifinal" and row.loc[10, "wildcard"]
    assert 9 not in row.index and 6 not in row.index


def test_R17_several_absences_filled_in_order():
    table = standings_of(12, wins={12})
    entrants = rules.finals_entrants(table, present=set(range(1, 13)) - {1, 5})
    row = entrants.set_index("player_id")
    assert row.loc[12, "stage"] == "final" and row.loc[12, "wildcard"]
    assert row.loc[9, "stage"] == "semifinal" and row.loc[9, "wildcard"]
    assert row["wildcard"].sum() == 2


def test_R17_seat_stays_empty_when_nobody_is_left():
    entrants = rules.finals_entrants(standings_of(8), present=set(range(1, 8)))
    assert len(entrants) == 7 and not entrants["wildcard"].any()


def test_R14_cut_ties_flagged():
    table = standings_of(12).assign(rank=[1, 2, 3, 4, 4, 6, 7, 8, 8, 10, 11, 12])
    flagged = rules.cut_ties(table)
    assert sorted(zip(flagged["player_id"], flagged["cut"])) == [
        (4, "final"), (5, "final"), (8, "semifinal"), (9, "semifinal")]
    assert rules.cut_ties(standings_of(12)).empty


# --- R16 final table --------------------------------------------------------------------------

def semifinal(game_id, *players):
    return game(game_id, *players)


def test_R16_small_semifinal_winner_beats_weakest_direct_score():
    table = standings_of(12)   # player 4's best score is 97
    entrants = rules.finals_entrants(table)
    semi = rules.score_games(frame(game(50, (5, 90, 0, 0, 0, 0), (6, 10, 0, 0, 0, 0),
                                        (7, 9, 0, 0, 0, 0), (8, 1, 0, 0, 0, 0))))
    assert by_player(semi).loc[5, "qualifier_score"] == 100
    assert rules.final_table(table, entrants, semi) == [1, 2, 3, 5]


def test_R16_small_semifinal_winner_needs_strictly_higher_score():
    table = standings_of(12)
    entrants = rules.finals_entrants(table)
    semi = rules.score_games(frame(game(50, (5, 87, 0, 0, 0, 0), (6, 10, 0, 0, 0, 0),
                                        (7, 9, 0, 0, 0, 0), (8, 1, 0, 0, 0, 0))))
    assert by_player(semi).loc[5, "qualifier_score"] == 97
    assert rules.final_table(table, entrants, semi) == [1, 2, 3, 4]


def test_R16_small_weakest_finalist_is_a_wildcard_not_the_last_seat():
    table = standings_of(12, wins={1, 10})   # player 2 absent: 10 (best 91) takes the seat
    entrants = rules.finals_entrants(table, present=set(range(1, 13)) - {2})
    assert entrants.loc[entrants["stage"] == "final", "player_id"].tolist() == [1, 10, 3, 4]
    assert rules.weakest_finalist(table, entrants) == 10
    semi = rules.score_games(frame(game(50, (5, 83, 0, 0, 0, 0), (6, 10, 0, 0, 0, 0),
                                        (7, 9, 0, 0, 0, 0), (8, 1, 0, 0, 0, 0))))
    assert by_player(semi).loc[5, "qualifier_score"] == 93   # over 91, under player 4's 97
    assert rules.final_table(table, entrants, semi) == [1, 5, 3, 4]


def test_R16_weakest_finalist_must_have_a_standing():
    table = standings_of(8)
    entrants = pd.DataFrame({"player_id": [1, 2, 3, 99], "stage": "final", "wildcard": False})
    with pytest.raises(TournamentError, match="Finalist 99 has no qualifier standing"):
        rules.weakest_finalist(table, entrants)


def test_R16_medium_better_of_two_winners_advances():
    table = standings_of(20)
    entrants = rules.finals_entrants(table)
    semi = rules.score_games(frame(
        game(60, (4, 12, 0, 0, 0, 0), (5, 10, 0, 0, 0, 0), (6, 9, 0, 0, 0, 0), (7, 1, 0, 0, 0, 0)),
        game(61, (8, 13, 0, 0, 0, 0), (9, 11, 0, 0, 0, 0), (10, 9, 0, 0, 0, 0),
             (11, 1, 0, 0, 0, 0)),
    ))
    # Both winners score 22; equal on score, winner of 61 has more VP.
    assert rules.final_table(table, entrants, semi) == [1, 2, 3, 8]


def test_R16_large_two_best_of_three_winners():
    table = standings_of(40)
    entrants = rules.finals_entrants(table)
    semi = rules.score_games(frame(
        game(70, (3, 12, 0, 0, 0, 0), (4, 10, 0, 0, 0, 0), (5, 9, 0, 0, 0, 0), (6, 1, 0, 0, 0, 0)),
        game(71, (7, 15, 0, 0, 0, 0), (8, 10, 0, 0, 0, 0), (9, 9, 0, 0, 0, 0), (10, 1, 0, 0, 0, 0)),
        game(72, (11, 14, 0, 0, 0, 0), (12, 10, 0, 0, 0, 0), (13, 9, 0, 0, 0, 0),
             (14, 1, 0, 0, 0, 0)),
    ))
    assert rules.final_table(table, entrants, semi) == [1, 2, 7, 11]


def test_R16_no_semifinal_final_is_the_direct_four():
    table = standings_of(6)
    entrants = rules.finals_entrants(table)
    assert rules.final_table(table, entrants, None) == [1, 2, 3, 4]


def test_R16_tied_semifinal_winner_must_be_settled():
    table = standings_of(12)
    entrants = rules.finals_entrants(table)
    semi = rules.score_games(frame(game(50, (5, 9, 0, 0, 0, 0), (6, 9, 0, 0, 0, 0),
                                        (7, 2, 0, 0, 0, 0), (8, 1, 0, 0, 0, 0))))
    with pytest.raises(ValueError, match="settle"):
        rules.final_table(table, entrants, semi)


def test_R16_missing_semifinal_results_refused():
    table = standings_of(12)
    with pytest.raises(ValueError, match="no results"):
        rules.final_table(table, rules.finals_entrants(table), None)


# --- R18 final standings ----------------------------------------------------------------------

def test_R18_finalists_then_semifinalists_then_the_rest():
    table = standings_of(12)
    semi = rules.score_games(frame(game(50, (5, 90, 0, 0, 0, 0), (6, 10, 0, 0, 0, 0),
                                        (7, 9, 0, 0, 0, 0), (8, 1, 0, 0, 0, 0))))
    final = rules.score_games(frame(game(60, (1, 5, 0, 0, 0, 0), (2, 9, 0, 0, 0, 0),
                                         (3, 7, 0, 0, 0, 0), (5, 8, 0, 0, 0, 0))))
    result = rules.final_standings(table, semi, final)
    assert list(result.columns) == ["player_id", "final_rank", "stage"]
    assert result["player_id"].tolist() == [2, 5, 3, 1, 6, 7, 8, 4, 9, 10, 11, 12]
    assert result["final_rank"].tolist() == list(range(1, 13))
    assert result["stage"].tolist() == ["final"] * 4 + ["semifinal"] * 3 + ["qualifier"] * 5


def test_R18_semifinal_placings_across_games_broken_by_best_score():
    table = standings_of(20)
    semi = rules.score_games(frame(
        game(60, (4, 12, 0, 0, 0, 0), (5, 10, 0, 0, 0, 0), (6, 9, 0, 0, 0, 0), (7, 1, 0, 0, 0, 0)),
        game(61, (8, 13, 0, 0, 0, 0), (9, 11, 0, 0, 0, 0), (10, 9, 0, 0, 0, 0),
             (11, 1, 0, 0, 0, 0)),
    ))
    final = rules.score_games(frame(game(70, (1, 5, 0, 0, 0, 0), (2, 9, 0, 0, 0, 0),
                                         (3, 7, 0, 0, 0, 0), (8, 8, 0, 0, 0, 0))))
    result = rules.final_standings(table, semi, final)
    assert result["player_id"].tolist()[:4] == [2, 8, 3, 1]
    # Semifinal winner 4 (did not advance), then 2nd places 5 and 9 by best score (5 is higher).
    assert result["player_id"].tolist()[4:11] == [4, 5, 9, 6, 10, 7, 11]
    assert result["player_id"].tolist()[11:] == list(range(12, 21))


def test_R18_shared_standing_shares_final_rank():
    table = standings_of(8).assign(rank=[1, 2, 3, 4, 5, 6, 7, 7])
    result = rules.final_standings(table, None, None)
    assert result["final_rank"].tolist() == [1, 2, 3, 4, 5, 6, 7, 7]
    assert (result["stage"] == "qualifier").all()


def test_R18_unscored_results_are_scored_first():
    table = standings_of(6)
    final = frame(game(60, (1, 5, 0, 0, 0, 0), (2, 9, 0, 0, 0, 0), (3, 7, 0, 0, 0, 0),
                       (4, 8, 0, 0, 0, 0)))
    result = rules.final_standings(table, None, final)
    assert result["player_id"].tolist() == [2, 4, 3, 1, 5, 6]


def test_R18_results_of_unknown_players_refused():
    table = standings_of(6)
    final = frame(game(60, (1, 5, 0, 0, 0, 0), (2, 9, 0, 0, 0, 0), (99, 7, 0, 0, 0, 0)))
    with pytest.raises(ValueError, match="99"):
        rules.final_standings(table, None, final)
