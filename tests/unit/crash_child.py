"""Child process for test_store_crash.py: submits table results in a loop on a SQLite file.

Usage: crash_child.py DATABASE_FILE RUN_ID. Prints "ready" once connected, then one line
"SUBMISSION_ID TABLE_ID VERSION VP" for each acknowledged submission (after the store call
returned), flushed at once. It runs until it is killed.
"""

from __future__ import annotations

import random
import sys

from stsa import store
from stsa.auth import Actor, Role


def main(path: str, run_id: str) -> None:
    engine = store.connect(f"sqlite:///{path}")
    judge = Actor(f"judge-{run_id}", Role.JUDGE)
    seats = store.seats(engine, actor=judge)
    tables = {int(t): g["player_id"].tolist() for t, g in seats.groupby("table_id")}
    table_ids = sorted(tables)
    rng = random.Random(run_id)
    print("ready", flush=True)
    i = 0
    while True:
        i += 1
        t = rng.choice(table_ids)
        version = store.table_result(engine, t).version
        vp = rng.randrange(0, 40)
        rows = [{"player_id": p, "leader": f"Leader {'ABCD'[k]}", "vp": vp + k, "spice": k,
                 "solari": rng.randrange(10), "troops": 3, "water": 1}
                for k, p in enumerate(tables[t])]
        sid = f"{run_id}-{i}"
        try:
            out = store.submit_table_result(engine, t, rows, expected_version=version,
                                            submission_id=sid, actor=judge)
        except store.ConflictError:
            continue  # another child saved this table first
        print(f"{sid} {t} {out.version} {vp}", flush=True)
        if i % 7 == 0:  # a resend after a lost answer: stored once
            again = store.submit_table_result(engine, t, rows, expected_version=version,
                                              submission_id=sid, actor=judge)
            assert again.duplicate and again.version == out.version


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
