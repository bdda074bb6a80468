"""Property tests: the vectorized rules agree with the plain oracle (tests/support/oracle.py) on
generated tournaments, with three- and four-player tables, variant points, full ties and settled
ties."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stsa import rules
from tests.support import oracle

pytestmark = pytest.mark.slow  # hypothesis runs each property on many generated tournaments

STATS = list(oracle.STATS)


@st.composite
def tournaments(draw, max_games=25):
    """Rows of a tournament: games of 3 or 4 distinct players from a small pool, small stat
    ranges so that ties on all five happen often, optional variant points and tiebreaks."""
    pool = draw(st.integers(min_value=4, max_value=14))
    n_games = draw(st.integers(min_value=0, max_value=max_games))
    with_variant = draw(st.booleans())
    with_tiebreak = draw(st.booleans())
    small = st.integers(min_value=0, max_value=2)
    rows = []
    for game_id in range(n_games):
        size = draw(st.sampled_from([3, 4]))
        players = draw(st.permutations(range(pool)))[:size]
        settle = draw(st.sampled_from(["none", "all", "some"]))
        # Usually a proper order; sometimes a judge's order with a repeat (not settled).
        orders = draw(st.permutations(range(1, size + 1)) | st.lists(
            st.integers(min_value=1, max_value=2), min_size=size, max_size=size))
        # A few stat lines per game, shared by several players: full ties happen often.
        lines = draw(st.lists(st.tuples(st.integers(min_value=0, max_value=4), small, small,
                                        small, st.integers(min_value=0, max_value=1)),
                              min_size=1, max_size=size))
        for i, player in enumerate(players):
            line = lines[draw(st.integers(min_value=0, max_value=len(lines) - 1))]
            row = {"game_id": 100 + game_id, "player_id": player, **dict(zip(STATS, line))}
            if with_variant:
                row["variant_points"] = draw(st.integers(min_value=-2, max_value=3))
            if with_tiebreak:
                given_here = settle == "all" or (settle == "some" and draw(st.booleans()))
                row["tiebreak"] = float(orders[i]) if given_here else np.nan
            rows.append(row)
    return rows


def oracle_frame(rows):
    return pd.DataFrame(oracle.score_games(rows)).sort_values(["game_id", "player_id"],
                                                                ignore_index=True)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tournaments())
def test_R11_R12_score_games_matches_oracle(rows):
    results = pd.DataFrame(rows, columns=None if rows else oracle_columns(rows))
    scored = rules.score_games(results)
    assert len(scored) == len(results)
    if not rows:
        return
    got = scored.sort_values(["game_id", "player_id"], ignore_index=True)
    want = oracle_frame(rows)
    assert got["placing"].tolist() == want["placing"].tolist()
    assert got["qualifier_score"].tolist() == want["qualifier_score"].tolist()
    assert got["tied"].tolist() == want["tied"].tolist()


def oracle_columns(rows):
    return ["game_id", "player_id", *STATS]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tournaments())
def test_R14_R15_standings_match_oracle(rows):
    results = pd.DataFrame(rows, columns=None if rows else oracle_columns(rows))
    table = rules.standings(rules.score_games(results))
    want = pd.DataFrame(oracle.standings(oracle.score_games(rows)))
    assert len(table) == len(want)
    if not rows:
        return
    columns = ["player_id", "rank", "best_score", "games", "wins", "placing", *STATS]
    assert table[columns].to_dict("records") == want[columns].to_dict("records")


@settings(max_examples=200, deadline=None)
@given(tournaments(), st.permutations(range(4)))
def test_R11_R12_row_order_does_not_matter(rows, _perm):
    if not rows:
        return
    results = pd.DataFrame(rows)
    shuffled = results.sample(frac=1.0, random_state=len(rows))
    a = rules.score_games(results).sort_values(["game_id", "player_id"], ignore_index=True)
    b = rules.score_games(shuffled).sort_values(["game_id", "player_id"], ignore_index=True)
    pd.testing.assert_frame_equal(a, b)


@settings(max_examples=200, deadline=None)
@given(tournaments())
def test_R12_scores_follow_placings(rows):
    """Within a game a better placing never scores less before variant points (R12)."""
    if not rows:
        return
    scored = rules.score_games(pd.DataFrame(rows).drop(columns=["variant_points"],
                                                         errors="ignore"))
    for _, g in scored.groupby("game_id"):
        g = g.sort_values("placing")
        assert g["qualifier_score"].is_monotonic_decreasing
        assert (g["placing"].iloc[0] == 1)


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=4, max_value=60), st.data())
def test_R16_R17_entrants_properties(n, data):
    wins = data.draw(st.sets(st.integers(min_value=1, max_value=n)))
    absent = data.draw(st.sets(st.integers(min_value=1, max_value=n), max_size=6))
    table = pd.DataFrame({"player_id": range(1, n + 1), "rank": range(1, n + 1),
                          "best_score": range(n, 0, -1), "games": 1,
                          "wins": [1 if p in wins else 0 for p in range(1, n + 1)]})
    fmt = rules.finals_format(n)
    present = set(range(1, n + 1)) - absent
    entrants = rules.finals_entrants(table, present=present)
    # Nobody absent plays, nobody plays twice, no stage is over-filled.
    assert set(entrants["player_id"]) <= present
    assert entrants["player_id"].is_unique
    sizes = entrants.groupby("stage").size()
    assert sizes.get("final", 0) <= fmt.direct and sizes.get("semifinal", 0) <= fmt.semifinal
    # Every present player of the cut keeps their seat and is no wildcard.
    cut = set(range(1, fmt.cut + 1))
    kept = set(entrants.loc[~entrants["wildcard"], "player_id"])
    assert kept == cut & present
    # Wildcards come from below the cut, winners first (R17), as many as seats can be filled.
    wild = entrants.loc[entrants["wildcard"], "player_id"].tolist()
    below = [p for p in range(fmt.cut + 1, n + 1) if p in present]
    ordered = [p for p in below if p in wins] + [p for p in below if p not in wins]
    assert sorted(wild, key=ordered.index) == ordered[:len(cut - present)]


# --- R16, R17, R18: the finals against the plain oracle ----------------------------------------

@st.composite
def finals_cases(draw):
    """Standings of 4–45 players with many equal best scores (some sharing a rank), winners and
    absences; the semifinal and final games played by whoever the finals seat, with random
    results (first places settled, other ties in the final left open)."""
    n = draw(st.integers(min_value=4, max_value=45))
    scores = sorted(draw(st.lists(st.integers(min_value=0, max_value=12), min_size=n,
                                  max_size=n)), reverse=True)
    share = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    rank = [1]
    for i in range(1, n):
        rank.append(rank[-1] if scores[i] == scores[i - 1] and share[i] else i + 1)
    wins = draw(st.lists(st.integers(min_value=0, max_value=2), min_size=n, max_size=n))
    absent = draw(st.sets(st.integers(min_value=1, max_value=n), max_size=max(2, n // 3)))
    table = [{"player_id": p, "rank": r, "best_score": s, "wins": w}
             for p, r, s, w in zip(range(1, n + 1), rank, scores, wins)]
    return table, set(range(1, n + 1)) - absent, draw(st.randoms(use_true_random=False))


def played_games(players, first_game, rnd, settle_all):
    """Scored rows of games seating `players` in order (R1 sizes), stats from `rnd`."""
    rows, start = [], 0
    for t, size in enumerate(rules.table_sizes(len(players))):
        order = rnd.sample(range(1, size + 1), size)
        for i, player in enumerate(players[start:start + size]):
            row = {"game_id": first_game + t, "player_id": player, "vp": rnd.randint(0, 4),
                   **{s: rnd.randint(0, 1) for s in STATS[1:]},
                   "variant_points": rnd.randint(-1, 2)}
            if settle_all or rnd.random() < 0.5:
                row["tiebreak"] = float(order[i])
            rows.append(row)
        start += size
    return rows


def seatable(count):
    return count >= 3 and count != 5


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(finals_cases())
def test_R16_R17_R18_finals_match_oracle(case):
    """R16, R17, R18: entrants, the final table (the weakest seated finalist contested) and the
    final standings agree with the plain oracle on generated tournaments."""
    table, present, rnd = case
    frame = pd.DataFrame(table)
    entrants = rules.finals_entrants(frame, present=present)
    seats = oracle.finals_entrants(table, present)
    assert list(entrants.itertuples(index=False, name=None)) == seats

    semifinalists = [p for p, stage, _ in seats if stage == "semifinal"]
    semifinal_rows = []
    if semifinalists and rules.finals_format(len(table)).semifinal:
        if not seatable(len(semifinalists)):
            return
        # Settled first places: every player of a semifinal gets a distinct judge's order.
        semifinal_rows = played_games(semifinalists, 100, rnd, settle_all=True)
    semifinal = rules.score_games(pd.DataFrame(semifinal_rows)) if semifinal_rows else None
    seated = rules.final_table(frame, entrants, semifinal)
    scored_semifinal = oracle.score_games(semifinal_rows)
    assert seated == oracle.final_table(table, seats, scored_semifinal)

    final_rows = played_games(seated, 200, rnd, settle_all=False) if seatable(len(seated)) else []
    final = rules.score_games(pd.DataFrame(final_rows)) if final_rows else None
    result = rules.final_standings(frame, semifinal, final)
    want = oracle.final_standings(table, scored_semifinal, oracle.score_games(final_rows))
    assert list(result.itertuples(index=False, name=None)) == want
