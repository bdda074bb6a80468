"""Core benchmark (DESIGN.md quality bars): scoring and standings on 1,000,000 result rows
against the plain oracle, and a 10,000-player draw."""

from __future__ import annotations

import time

import numpy as np
import pandas as pd

from stsa import catalog, draw, rules
from tests.support import oracle


def synthetic_results(n_games: int, *, players: int, seed: int = 1) -> pd.DataFrame:
    """`n_games` four-player games among `players` players, with realistic stat ranges."""
    rng = np.random.default_rng(seed)
    n = n_games * 4
    # Four distinct players per game: a random player plus fixed offsets, modulo the pool.
    first = rng.integers(0, players, n_games)
    offsets = np.sort(rng.integers(1, players - 2, size=(n_games, 3)), axis=1)
    offsets = offsets + np.arange(3)  # strictly increasing, so the four are distinct
    seats = np.column_stack([first, (first[:, None] + offsets) % players])
    return pd.DataFrame({
        "game_id": np.repeat(np.arange(n_games), 4),
        "player_id": seats.ravel(),
        "vp": rng.integers(2, 14, n),
        "spice": rng.integers(0, 8, n),
        "solari": rng.integers(0, 8, n),
        "troops": rng.integers(0, 6, n),
        "water": rng.integers(0, 4, n),
        "variant_points": rng.integers(0, 2, n),
    })


def timed(fn, *args, repeat: int = 3, **kwargs):
    """Best wall time of `repeat` runs, and the last result."""
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn(*args, **kwargs)
        best = min(best, time.perf_counter() - start)
    return best, result


def run(n_games: int = 250_000, players: int = 50_000, draw_players: int = 10_000) -> dict:
    """The core figures for `n_games` four-player games among `players` players."""
    results = synthetic_results(n_games, players=players)
    score_seconds, _ = timed(lambda: rules.standings(rules.score_games(results)), repeat=5)

    # The oracle on a smaller tournament of the same shape (20 games per player), timed and
    # extrapolated per row: the oracle's cost per row does not grow with the tournament.
    sample = synthetic_results(n_games // 10, players=players // 10, seed=3)
    records = sample.to_dict("records")
    sample_seconds, _ = timed(lambda: oracle.standings(oracle.score_games(records)), repeat=2)
    oracle_seconds = sample_seconds * len(results) / len(sample)

    setups = catalog.setups()
    draw_seconds, _ = timed(draw.draw_sitting, list(range(draw_players)), setups, seed=2026,
                            repeat=5)
    # The same draw after earlier sittings: the setups balanced against their use so far (R6).
    counted_seconds, _ = timed(draw.draw_sitting, list(range(draw_players)), setups, seed=2026,
                               setup_counts={"legacy": 1}, repeat=5)
    return {
        "score_rows": int(len(results)),
        "score_seconds": round(score_seconds, 4),
        "oracle_seconds_extrapolated": round(oracle_seconds, 2),
        "oracle_speedup": round(oracle_seconds / score_seconds, 1),
        "draw_players": draw_players,
        "draw_seconds": round(draw_seconds, 4),
        "draw_counted_seconds": round(counted_seconds, 4),
    }
