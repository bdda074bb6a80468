"""The unofficial rating: stsa.rating's vectorized Plackett-Luce equals openskill 6.2.0's own
`rate()`, game by game, on generated sequences of three- and four-player games with ties,
and on openskill's README example."""

from __future__ import annotations

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from stsa import rating
from stsa.domain import TournamentError


def frame(games: list[tuple[int, int, dict[int, int]]]) -> pd.DataFrame:
    """Rows of (order, game_id, {player: placing})."""
    return pd.DataFrame([{"order": order, "game_id": g, "player_id": p, "placing": placing}
                         for order, g, placings in games for p, placing in placings.items()])


def openskill_oracle(games: list[tuple[int, int, dict[int, int]]]) -> tuple[dict, list]:
    """openskill's own rate(), one game at a time in order (games of one order in any order:
    they share no player). Returns the current (mu, sigma) per player and the history."""
    model = PlackettLuce()
    current: dict = {}
    history = []
    for _, game_id, placings in sorted(games, key=lambda g: (g[0], g[1])):
        players = list(placings)
        teams = [[current.get(p) or model.rating()] for p in players]
        rated = model.rate(teams, ranks=[float(placings[p]) for p in players])
        for p, (after,) in zip(players, rated):
            current[p] = after
            history.append((p, game_id, after.mu, after.sigma, after.ordinal()))
    return {p: (r.mu, r.sigma) for p, r in current.items()}, history


def test_openskill_readme_example_through_openskill():
    model = PlackettLuce()
    assert repr(model.rating()) == "PlackettLuceRating(mu=25.0, sigma=8.333333333333334)"
    r = model.rating
    [[a, b], [x, y]] = model.rate([[r(), r()], [r(), r()]])
    assert repr(a) == "PlackettLuceRating(mu=26.964294621803063, sigma=8.177962604389991)"
    assert repr(x) == "PlackettLuceRating(mu=23.035705378196937, sigma=8.177962604389991)"
    assert (a == b) and (x == y)


def test_openskill_readme_example_through_ratings():
    # The README's game is two teams of two, the first team winning.
    games = pd.DataFrame({"order": 1, "game_id": 1, "player_id": ["a", "b", "x", "y"],
                          "placing": [1, 1, 2, 2], "team": [1, 1, 2, 2]})
    current = rating.ratings(games).current.set_index("player_id")
    for player, mu in [("a", 26.964294621803063), ("b", 26.964294621803063),
                       ("x", 23.035705378196937), ("y", 23.035705378196937)]:
        assert current.loc[player, "mu"] == pytest.approx(mu, abs=1e-12)
        assert current.loc[player, "sigma"] == pytest.approx(8.177962604389991, abs=1e-12)


def test_a_first_game_gives_the_winner_the_best_rating_and_ranks_by_ordinal():
    result = rating.ratings(frame([(1, 10, {7: 1, 8: 2, 9: 3, 6: 4})]))
    assert list(result.current.columns) == rating.CURRENT_COLUMNS
    assert list(result.history.columns) == rating.HISTORY_COLUMNS
    assert result.current["player_id"].tolist() == [7, 8, 9, 6]
    assert result.current["rank"].tolist() == [1, 2, 3, 4]
    assert result.current["games"].tolist() == [1, 1, 1, 1]
    current = result.current
    assert (current["ordinal"] == current["mu"] - 3 * current["sigma"]).all()
    assert current["mu"].is_monotonic_decreasing


def test_players_equal_before_a_shared_placing_stay_equal_and_share_a_rank():
    result = rating.ratings(frame([(1, 1, {1: 1, 2: 1, 3: 3})]))
    current = result.current.set_index("player_id")
    assert current.loc[1, "mu"] == current.loc[2, "mu"] > current.loc[3, "mu"]
    assert current.loc[1, "rank"] == current.loc[2, "rank"] == 1
    assert current.loc[3, "rank"] == 3


def test_history_keeps_each_game_in_chronological_order_with_its_time():
    at = pd.Timestamp("2026-03-07 10:00", tz="UTC")
    games = frame([(2, 20, {1: 2, 2: 1, 3: 3}), (1, 10, {1: 1, 2: 2, 3: 3, 4: 4})]).assign(
        at=lambda d: at + pd.to_timedelta(d["order"], unit="h"))
    history = rating.ratings(games).history
    assert history["game_id"].tolist() == [10] * 4 + [20] * 3
    assert history["at"].iloc[0] == at + pd.Timedelta(hours=1)
    last = history.loc[history["game_id"] == 20].set_index("player_id")
    current = rating.ratings(games).current.set_index("player_id")
    assert (current.loc[[1, 2, 3], "mu"] == last["mu"]).all()
    assert current.loc[1, "games"] == 2 and current.loc[4, "games"] == 1


def test_no_games_no_ratings():
    result = rating.ratings(frame([]).reindex(columns=rating.GAME_COLUMNS))
    assert result.current.empty and result.history.empty
    assert list(result.current.columns) == rating.CURRENT_COLUMNS


@pytest.mark.parametrize("games, words", [
    (frame([(1, 1, {1: 1, 2: 2, 3: 3}), (1, 2, {1: 1, 4: 2, 5: 3})]), "twice at order 1"),
    (frame([(1, 1, {1: 1, 2: 2, 3: 3}), (2, 1, {4: 1, 5: 2, 6: 3})]), "more than one order"),
    (frame([(1, 1, {1: 1})]), "fewer than two"),
    (frame([(1, 1, {1: 1, 2: 2})]).drop(columns="placing"), "placing"),
])
def test_impossible_games_are_refused(games, words):
    with pytest.raises(TournamentError, match=words):
        rating.ratings(games)


@st.composite
def game_sequences(draw):
    """Orders of 1–3 simultaneous tables among a pool of 12; tables of 3 or 4, placings often
    shared (a placing is a min rank: 1, 1, 3 …)."""
    games, game_id = [], 0
    for order in range(draw(st.integers(min_value=1, max_value=12))):
        free = draw(st.permutations(range(12)))
        for _ in range(draw(st.integers(min_value=1, max_value=3))):
            size = draw(st.sampled_from([3, 4]))
            players, free = free[:size], free[size:]
            strength = draw(st.lists(st.integers(min_value=0, max_value=2), min_size=size,
                                     max_size=size))
            placings = {p: 1 + sum(other > mine for other in strength)
                        for p, mine in zip(players, strength)}
            games.append((order, game_id, placings))
            game_id += 1
    return games


@pytest.mark.slow  # hypothesis: many generated sequences
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game_sequences())
def test_vectorized_ratings_equal_openskills_rate(games):
    expected, expected_history = openskill_oracle(games)
    result = rating.ratings(frame(games))
    current = result.current.set_index("player_id")
    assert set(current.index) == set(expected)
    for player, (mu, sigma) in expected.items():
        assert current.loc[player, "mu"] == pytest.approx(mu, abs=1e-9, rel=0)
        assert current.loc[player, "sigma"] == pytest.approx(sigma, abs=1e-9, rel=0)
    got = {(r["player_id"], r["game_id"]): r for r in result.history.to_dict("records")}
    assert len(got) == len(expected_history)
    for player, game_id, mu, sigma, ordinal in expected_history:
        row = got[(player, game_id)]
        assert (row["mu"], row["sigma"], row["ordinal"]) == pytest.approx(
            (mu, sigma, ordinal), abs=1e-9, rel=0)
    ordinals = {p: mu - 3 * sigma for p, (mu, sigma) in expected.items()}
    for player, rank in current["rank"].items():
        assert rank == 1 + sum(o > ordinals[player] + 1e-9 for o in ordinals.values())
