"""A big tournament for page timings: 2,000 players, 12 complete qualifier sittings.

Built through the store like any tournament (import, draw, publish, submit every table), so the
database is exactly what the app would hold; cached in build/ because it takes a while.
"""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import numpy as np
import pandas as pd

from stsa import demo, store, tournament
from stsa.auth import Actor, Role

ORGANIZER = Actor("Bench", Role.ORGANIZER)
JUDGE = Actor("Bench judge", Role.JUDGE)


def build(path: Path, *, players: int = 2_000, sittings: int = 12, seed: int = 7) -> Path:
    """Write the big tournament to `path` (a SQLite file) unless it is already there."""
    if path.exists():
        return path
    partial = path.with_suffix(".partial")
    for leftover in path.parent.glob(partial.name + "*"):
        leftover.unlink()
    path.parent.mkdir(parents=True, exist_ok=True)
    engine = store.connect(f"sqlite:///{partial}", backup_dir=path.parent / "big-backups")
    store.set_settings(engine, {"auto_backup": False, "tournament_name": "Big bench",
                                "capacity": max(players, 3)}, actor=ORGANIZER)  # all play
    roster = pd.DataFrame({"name": [f"Player {i:04d}" for i in range(players)]})
    ids = store.import_players(engine, roster, actor=ORGANIZER)["player_id"].tolist()
    rng = np.random.default_rng(seed)
    for number in range(sittings):
        sitting = tournament.draw_qualifier(engine, ids, seed=seed + number, actor=ORGANIZER)
        store.publish_sitting(engine, sitting["sitting_id"], actor=ORGANIZER)
        tables = store.tables(engine, sitting["sitting_id"], actor=ORGANIZER)
        seats = store.seats(engine, sitting["sitting_id"], actor=ORGANIZER)
        by_table = dict(list(seats.groupby("table_id")))
        for table_id, leaders in zip(tables["table_id"], tables["available_leaders"]):
            rows = demo._plausible_result(by_table[table_id], leaders, rng)
            store.submit_table_result(engine, int(table_id), rows, expected_version=0,
                                      submission_id=None, actor=JUDGE)
    engine.dispose()
    shutil.move(partial, path)
    return path


if __name__ == "__main__":
    start = time.perf_counter()
    build(Path("build/big.db"))
    print(f"built in {time.perf_counter() - start:.1f} s")
