"""Crash safety on SQLite (R19): judges' laptops die mid-save; nothing acknowledged is lost.

Child processes (crash_child.py) submit results in a loop and print each acknowledged
submission; the test kills them with SIGKILL at random moments, two at a time, at least 30
times (env STSA_CRASH_KILLS overrides; `make soak` kills 500 times). Then the database must pass
its integrity check, hold every acknowledged result, and no table may hold a partial result.
"""

from __future__ import annotations

import json
import os
import random
import select
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import pytest
import sqlalchemy as sa

from stsa import store
from stsa.store import schema
from tests.support.store_helpers import ORGANIZER, add_players, make_draw

KILLS = max(1, int(os.environ.get("STSA_CRASH_KILLS", "30")))
LANES = 2  # children running (and being killed) at the same time
CHILD = Path(__file__).with_name("crash_child.py")
REPO = Path(__file__).resolve().parents[2]

pytestmark = [pytest.mark.slow, pytest.mark.timeout(120 + 4 * KILLS)]


def _run_and_kill(path: Path, run_id: str, rng: random.Random) -> list[str]:
    """Start a child, kill it at a random moment; the lines it acknowledged."""
    env = {**os.environ, "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    proc = subprocess.Popen([sys.executable, str(CHILD), str(path), run_id], cwd=REPO, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        if rng.random() < 0.15:
            time.sleep(rng.uniform(0, 0.6))  # sometimes while it is still opening the database
        else:
            ready, _, _ = select.select([proc.stdout], [], [], 60)
            line = proc.stdout.readline() if ready else b""
            if line != b"ready\n":
                proc.kill()
                _, err = proc.communicate()
                raise AssertionError(f"child {run_id} did not start: {line!r} {err.decode()}")
            time.sleep(rng.uniform(0, 0.35))
        if proc.poll() is not None:
            _, err = proc.communicate()
            raise AssertionError(f"child {run_id} died by itself: {err.decode()[-2000:]}")
        proc.send_signal(signal.SIGKILL)
        out, _ = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == -signal.SIGKILL
    text = out.decode()
    complete = text[: text.rfind("\n") + 1]  # a line cut by the kill was not acknowledged
    return [ln for ln in complete.splitlines() if ln and ln != "ready"]


def test_sigkill_never_loses_an_acknowledged_result(tmp_path):
    path = tmp_path / "crash.db"
    engine = store.connect(f"sqlite:///{path}")
    ids = add_players(engine, 160)
    s = store.save_draw(engine, make_draw(ids), kind="qualifier", actor=ORGANIZER)
    store.publish_sitting(engine, s["sitting_id"], actor=ORGANIZER)
    engine.dispose()

    acked: list[tuple[str, int, int, int]] = []
    kills = Counter()
    failures: list[BaseException] = []
    lock = threading.Lock()
    started = time.monotonic()

    def lane(k: int) -> None:
        rng = random.Random(1000 + k)
        n = 0
        try:
            while True:
                with lock:
                    if kills["done"] + kills["running"] >= KILLS:
                        return
                    kills["running"] += 1
                n += 1
                lines = _run_and_kill(path, f"L{k}R{n}", rng)
                with lock:
                    kills["running"] -= 1
                    kills["done"] += 1
                    for line in lines:
                        sid, table, version, vp = line.split()
                        acked.append((sid, int(table), int(version), int(vp)))
        except BaseException as exc:  # noqa: BLE001 - reported below
            failures.append(exc)

    lanes = [threading.Thread(target=lane, args=(k,)) for k in range(LANES)]
    for t in lanes:
        t.start()
    for t in lanes:
        t.join()
    assert not failures, failures[0]
    assert kills["done"] == KILLS
    assert len(acked) >= KILLS, "the children hardly saved anything before being killed"

    # Reopen: integrity check (connect runs it), then every acknowledged result is there.
    engine = store.connect(f"sqlite:///{path}")
    try:
        with engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA integrity_check").scalar() == "ok"
            subs = {r.submission_id: (r.table_id, r.version) for r in
                    conn.execute(sa.select(schema.submissions))}
            logged = {}
            for r in conn.execute(sa.select(schema.events.c.subject, schema.events.c.after)
                                  .where(schema.events.c.action.like("result.%"))):
                after = json.loads(r.after)
                logged[after["submission_id"]] = after
            versions = {r.id: r.result_version for r in conn.execute(sa.select(schema.tables))}
            seats = Counter(r.table_id for r in conn.execute(sa.select(schema.seats.c.table_id)))
            rows = list(conn.execute(sa.select(schema.results)))
        for sid, table, version, vp in acked:
            assert subs.get(sid) == (table, version), f"acknowledged {sid} is missing"
            assert logged[sid]["version"] == version
            assert logged[sid]["rows"][0]["vp"] == vp
        # No partial table result: a table has all its rows at its version, or none.
        per_table = Counter(r.table_id for r in rows)
        for table, version in versions.items():
            if version == 0:
                assert per_table[table] == 0
            else:
                assert per_table[table] == seats[table], f"table {table} is partial"
                assert {r.version for r in rows if r.table_id == table} == {version}
        per_sub = Counter(t for t, _ in subs.values())
        assert all(per_sub[t] == v for t, v in versions.items())  # one submission per version
        latest = {}
        for _sid, table, version, vp in acked:
            if version >= latest.get(table, (0, 0))[0]:
                latest[table] = (version, vp)
        res = store.results(engine)
        first_seat = res[res["seat"] == 1].set_index("game_id")
        for table, (version, vp) in latest.items():
            assert versions[table] >= version
            if versions[table] == version:
                assert first_seat.loc[table, "vp"] == vp
    finally:
        engine.dispose()
    print(f"\nSTSA store crash test: {KILLS} SIGKILLs survived, {len(acked)} acknowledged "
          f"results all present, {time.monotonic() - started:.1f} s")
