"""`make bench`: run the benchmarks, print a table, merge the figures into build/bench.json."""

from __future__ import annotations

import json
import logging
import operator
import platform
from pathlib import Path

from bench import core, fair, judge_save, pages, tournaments, write
from bench import workbook as workbook_bench

PAGE_TARGET = ("<", 0.5)  # seconds of server time per page, 2,000 players, 12 sittings
TARGETS = {"score_seconds": ("<", 1.0), "oracle_speedup": (">=", 50), "draw_seconds": ("<", 0.5),
           "draw_counted_seconds": ("<", 0.5),
           # the organizer's search on a 2,000-player roster, the page already open
           "roster_search_seconds": ("<", 0.5),
           "balanced_draw_seconds": ("<", 1.0), "balanced_draw_1000_seconds": ("<", 5.0),
           # entering a round's results, backups included: no more per seat than the peer's
           "write_seat_ms_service": ("<=", 0.8),
           # the 2,000 × 12 workbook: written, and restored as a new tournament
           "workbook_write_seconds": ("<", 3.0), "workbook_restore_seconds": ("<", 5.0),
           # a judge's whole table of four entered and saved on the Results page: server CPU
           "judge_table_cpu_ms": ("<", judge_save.TARGET_MS),
           # 20 tournaments × 500 players × 6 sittings in one installation (R27): each page of
           # one within 1.2× of it alone; the season and the ratings over all 20 cold < 1 s
           **tournaments.targets()}
OPS = {"<": operator.lt, "<=": operator.le, ">=": operator.ge}
# Balanced draws: at most half the repeat meetings and half the seat spread of plain draws.
HALVED = [("repeats_balanced", "repeats_random"), ("seat_spread_balanced", "seat_spread_random")]


def main() -> int:
    logging.getLogger("streamlit").setLevel(logging.ERROR)
    figures = core.run()
    figures.update(pages.run())
    figures.update(fair.run())
    figures.update(write.run())
    figures.update(workbook_bench.run())
    figures.update(tournaments.run())
    figures.update(judge_save.run())
    out = Path("build/bench.json")
    out.parent.mkdir(exist_ok=True)
    merged = json.loads(out.read_text()) if out.exists() else {}
    merged.update(figures, python=platform.python_version(), machine=platform.machine())
    out.write_text(json.dumps(merged, indent=2) + "\n")

    failed = []
    print(f"{'figure':<36}{'value':>14}  target")
    for key, value in figures.items():
        target = TARGETS.get(key) or (PAGE_TARGET if "_page_" in key else None)
        mark = ""
        if target:
            op, bound = target
            ok = OPS[op](value, bound)
            mark = f"{op} {bound}  {'ok' if ok else 'MISSED'}"
            if not ok:
                failed.append(key)
        print(f"{key:<36}{value:>14}  {mark}")
    for better, plain in HALVED:
        if better in figures and plain in figures:
            ok = figures[better] <= figures[plain] / 2
            print(f"{better} <= half of {plain}: {'ok' if ok else 'MISSED'}")
            if not ok:
                failed.append(better)
    print(f"written to {out}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
