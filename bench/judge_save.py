"""`make bench`'s judge figure: the server's CPU time for one table's whole result, entered and
saved as a judge's browser does it on the Results page.

Why: the room's judges cost the server far more than its thousand phones when every number
typed was a Python run (the preview, the checks and the draft at each field: about 1.6 s of
server CPU for a table of four typed in full, 0.35 s for four VPs corrected). The entry now
runs in the browser; the server's part of a table is choosing it (one run) and the Save that
sends the whole entry (one run, every rule checked again). Target: under 50 ms per table.

The scenario: the room's tournament (120 players after 5 qualifiers, bench/load.py), a sixth
qualifier drawn and published and its clock running, a real server (`run_app`, counting its
script runs), one judge signed in over the websocket (bench/wsclient.py) on the Results page,
entering tables 2, 3, … one after the other as the browser does: each seat a leader of the
table's and its five numbers, no ties, then Save (the entry's part of the page runs alone);
the table is chosen only when the page did not go on to it by itself after the last save.
The server process's CPU time (user + system, /proc/<pid>/stat, in 10 ms ticks) is read
around each round of `tables` tables; the figure is the best round's mean per table (the
least disturbed by the rest of a busy machine), with the median round beside it, and the
script runs the server started per table.

`python -m bench.judge_save [--tables 8]` prints the figures; `make bench` merges them into
build/bench.json.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import tempfile
from pathlib import Path

from bench import load
from bench.wsclient import Session
from tests.support.appserver import JUDGE_PIN, run_app

TABLES = 6  # tables per round: the CPU clock counts in 10 ms ticks, a round's mean finer
ROUNDS = 4  # the figure is the best round's mean (the least disturbed by the rest of the machine)
TARGET_MS = 50.0


def _cpu(pid: int) -> float:
    """CPU seconds (user + system) the process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _sixth_qualifier(database: Path) -> None:
    """A new qualifier of everyone drawn and published, its clock started (as on the day)."""
    from stsa import store, tournament
    from stsa.auth import Actor, Role

    who = Actor("Bench organizer", Role.ORGANIZER)
    engine = store.connect(f"sqlite:///{database}", backup_dir=database.parent / "backups")
    try:
        ids = store.players(engine)["player_id"].tolist()
        drawn = tournament.draw_qualifier(engine, ids, seed=11, confirm=True, actor=who)
        store.publish_sitting(engine, drawn["sitting_id"], actor=who)
        store.clock_action(engine, int(drawn["sitting_id"]), "start", actor=who)
    finally:
        engine.dispose()


def _numbers(seats: int, n: int) -> list[list[int]]:
    """A table's numbers: VPs three apart (no tie, none unusual), a little of everything."""
    return [[12 - 3 * s, (s + n) % 4, s % 3, 1 + s % 2, (n + 2 * s) % 3] for s in range(seats)]


def _entry_rows(data: dict, n: int) -> list[dict]:
    rows = []
    for i, seat in enumerate(data["seats"]):
        vp, spice, solari, troops, water = _numbers(len(data["seats"]), n)[i]
        rows.append({"player_id": seat["player_id"], "leader": data["leaders"][i], "vp": vp,
                     "spice": spice, "solari": solari, "troops": troops, "water": water,
                     "variant_points": 0, "tiebreak": None})
    return rows


def run(tables: int = TABLES, log=print) -> dict:
    """The server CPU per table (best and median, ms) and the script runs per table."""
    source = load.tournament(*load.DESIGN, log=log)
    root = Path(tempfile.mkdtemp(prefix="stsa-judge-"))
    try:
        database = load._prepare(source, root)
        _sixth_qualifier(database)
        with run_app(root, database_url=f"sqlite:///{database}", count_runs=True) as app, \
                Session(app.url, path="sign_in") as judge:
            pid = app.process.pid
            judge.run()
            judge.submit_form("Sign in", {"Your name": "Bench judge", "PIN": JUDGE_PIN})
            page = judge.run(page="results")
            labels = list(page.widget("Table", kind="selectbox").proto.options)
            cpu, runs = [], []
            for first in range(1, 1 + ROUNDS * tables, tables):  # rounds of `tables` tables
                before, started = _cpu(pid), app.script_runs()
                for n, label in enumerate(labels[first:first + tables], start=first):
                    box = judge.last.widget("Table", kind="selectbox")
                    if load.chosen(box) != label:  # after a first result it goes on by itself
                        load.choose(judge, box, label)
                    entry = judge.last.component(load.ENTRY)
                    data = entry.data
                    done = judge.trigger(entry, "save", {
                        "sent": data["answered"] + 1, "token": data["token"],
                        "base": data["base"], "rows": _entry_rows(data, n),
                        "confirm": {"unusual": False, "complete": False, "after_finals": False}})
                    if not any(load.SAVED.search(t) for t in done.alerts["success"]):
                        raise RuntimeError(f"{label}: not saved: {done.texts()[:6]}")
                cpu.append((_cpu(pid) - before) / tables)
                runs.append((app.script_runs() - started) / tables)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return {"judge_table_cpu_ms": round(min(cpu) * 1000, 1),
            "judge_table_cpu_median_ms": round(statistics.median(cpu) * 1000, 1),
            "judge_table_runs": round(max(runs), 2)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--tables", type=int, default=TABLES)
    figures = run(parser.parse_args(argv).tables)
    for key, value in figures.items():
        print(f"{key:<30}{value:>10}")
    print(f"load average: {os.getloadavg()[0]:.2f}")
    return 0 if figures["judge_table_cpu_ms"] < TARGET_MS else 1


if __name__ == "__main__":
    raise SystemExit(main())
