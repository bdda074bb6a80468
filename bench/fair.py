"""Fair draws benchmark: a simulated tournament of 64 players and 8 qualifier sittings drawn in
plain random mode and in balanced mode from the same seeds; repeat meetings, the spread of the
players' mean seats, repeated setups per player and the time per draw; and one balanced
1,000-player sitting after 3 earlier ones."""

from __future__ import annotations

import time

import numpy as np
import pandas as pd

from stsa import catalog, draw, fairness


def simulate(mode: str, *, players: int = 64, sittings: int = 8, seed: int = 7,
             setups: pd.DataFrame | None = None) -> dict:
    """Draw `sittings` qualifier sittings in `mode`, each against the ones before."""
    setups = catalog.setups() if setups is None else setups
    ids = list(range(1, players + 1))
    history = fairness.empty_history()
    counts: dict[str, int] = {}
    repeats, seconds = 0, []
    for number in range(1, sittings + 1):
        start = time.perf_counter()
        drawn = draw.draw_sitting(ids, setups, seed=seed * 1000 + number, setup_counts=counts,
                                  mode=mode, history=history)
        seconds.append(time.perf_counter() - start)
        repeats += len(fairness.draw_report(drawn.seats, drawn.tables, history).repeats)
        counts = drawn.setup_counts(counts)
        rows = drawn.seats.merge(drawn.tables[["table_no", "setup_id"]], on="table_no")
        history = pd.concat([history, rows.assign(sitting_id=number)[
            list(fairness.HISTORY_COLUMNS)]], ignore_index=True)
    mean_seat = history.groupby("player_id")["seat"].mean()
    setup_repeats = history.groupby("player_id")["setup_id"].agg(lambda s: len(s) - s.nunique())
    return {"repeats": repeats, "seat_spread": float(mean_seat.std(ddof=0)),
            "setup_repeats_per_player": float(setup_repeats.mean()),
            "seconds": float(np.mean(seconds)), "history": history, "counts": counts}


def run(players: int = 64, sittings: int = 8, big: int = 1000) -> dict:
    plain = simulate("random", players=players, sittings=sittings)
    balanced = simulate("balanced", players=players, sittings=sittings)
    # A 1,000-player sitting after three earlier random ones.
    earlier = simulate("random", players=big, sittings=3)
    start = time.perf_counter()
    draw.draw_sitting(list(range(1, big + 1)), catalog.setups(), seed=2026,
                      setup_counts=earlier["counts"], mode="balanced",
                      history=earlier["history"])
    big_seconds = time.perf_counter() - start
    return {
        "repeats_random": int(plain["repeats"]),
        "repeats_balanced": int(balanced["repeats"]),
        "seat_spread_random": round(plain["seat_spread"], 4),
        "seat_spread_balanced": round(balanced["seat_spread"], 4),
        "setup_repeats_random": round(plain["setup_repeats_per_player"], 4),
        "setup_repeats_balanced": round(balanced["setup_repeats_per_player"], 4),
        "random_draw_seconds": round(plain["seconds"], 4),
        "balanced_draw_seconds": round(balanced["seconds"], 4),
        "balanced_draw_1000_seconds": round(big_seconds, 4),
    }
