"""Season standing and ratings on a synthetic season (R27): 20 tournaments × 500 people × 6
qualifier sittings (60,000 player-game rows), plus each tournament's semifinal and final.
Not part of `make bench`: `python -m bench.season` prints the seconds of one cold call each,
and of openskill's own `rate()` called game by game for comparison."""

from __future__ import annotations

import time

import numpy as np
import pandas as pd

from stsa import rating, rules, season

TOURNAMENTS, PEOPLE_PER_TOURNAMENT, SITTINGS, POOL = 20, 500, 6, 2000


def synthetic_season(seed: int = 1) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """Scored qualifier games with `tournament_id`, final standings, and every game (with
    `order`) for the ratings."""
    rng = np.random.default_rng(seed)
    qualifiers, finals, rated = [], [], []
    game = 0
    for t in range(TOURNAMENTS):
        people = rng.choice(POOL, PEOPLE_PER_TOURNAMENT, replace=False)
        tables = PEOPLE_PER_TOURNAMENT // 4
        for sitting in range(SITTINGS):
            seated = rng.permutation(people)
            n = len(seated)
            frame = pd.DataFrame({
                "tournament_id": t, "game_id": game + np.repeat(np.arange(tables), 4),
                "player_id": seated, "vp": rng.integers(2, 14, n),
                "spice": rng.integers(0, 8, n), "solari": rng.integers(0, 8, n),
                "troops": rng.integers(0, 6, n), "water": rng.integers(0, 4, n)})
            game += tables
            scored = rules.score_games(frame)
            qualifiers.append(scored)
            rated.append(scored.assign(order=t * 10 + sitting))
        standing = rules.standings(pd.concat(qualifiers[-SITTINGS:], ignore_index=True))
        top = standing["player_id"].to_numpy()[:8]
        semi = rules.score_games(pd.DataFrame({
            "game_id": game, "player_id": top[4:], "vp": [9, 8, 7, 6], "spice": 0,
            "solari": 0, "troops": 0, "water": 0}))
        final = rules.score_games(pd.DataFrame({
            "game_id": game + 1, "player_id": top[:4], "vp": [6, 9, 8, 7], "spice": 0,
            "solari": 0, "troops": 0, "water": 0}))
        game += 2
        rated += [semi.assign(order=t * 10 + 7), final.assign(order=t * 10 + 8)]
        finals.append(rules.final_standings(standing, semi, final).assign(tournament_id=t))
    columns = ["order", "game_id", "player_id", "placing"]
    return (pd.concat(qualifiers, ignore_index=True),
            pd.concat(finals, ignore_index=True)[["tournament_id", "player_id", "final_rank"]],
            pd.concat(rated, ignore_index=True)[columns])


def openskill_loop(games: pd.DataFrame) -> float:
    """Seconds for openskill's own `rate()`, one call per game (the pace to beat)."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    current: dict = {}
    grouped = games.sort_values(["order", "game_id"], kind="stable").groupby(
        ["order", "game_id"], sort=False)
    start = time.perf_counter()
    for _, table in grouped:
        ids = table["player_id"].tolist()
        teams = [[current.get(p) or model.rating()] for p in ids]
        for p, (r,) in zip(ids, model.rate(teams, ranks=table["placing"].astype(float).tolist())):
            current[p] = r
    return time.perf_counter() - start


def main() -> None:
    qualifiers, finals, rated = synthetic_season()
    print(f"{len(qualifiers):,} qualifier rows, {len(rated):,} rated rows, "
          f"{rated['game_id'].nunique():,} games")
    for name, call in [
        ("season_standing (default)", lambda: season.season_standing(qualifiers, finals)),
        ("season_standing (points)",
         lambda: season.season_standing(qualifiers, finals, points={1: 10, 2: 7, 3: 5})),
        ("ratings", lambda: rating.ratings(rated)),
    ]:
        start = time.perf_counter()
        call()
        cold = time.perf_counter() - start
        start = time.perf_counter()
        call()
        print(f"{name}: {cold:.3f} s cold, {time.perf_counter() - start:.3f} s warm")
    print(f"openskill rate() game by game: {openskill_loop(rated):.3f} s")


if __name__ == "__main__":
    main()
