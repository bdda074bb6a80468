"""The tournament workbook of the big tournament (2,000 players × 12 sittings, `bench.big`):
seconds to write it (`services.exports.tournament_workbook`, from reading the store to the
.xlsx bytes) and to restore it into a new, empty tournament (`services.restore
.restore_workbook`: reading, every check, writing), best of `repeat`, and the file's size.

Beside each wall-clock figure, the process's CPU seconds (best of the same runs): on a
machine busy with other work the wall clock waits for a core, the CPU seconds much less, so
they compare two versions of the code more fairly. The load average is the machine's when
the runs ended."""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from bench import big
from stsa import store
from stsa.auth import Actor, Role
from stsa.services import exports, restore

ROOT = Path(__file__).resolve().parent.parent
ORGANIZER = Actor("Bench", Role.ORGANIZER)


def _timed(work: Callable[[], object]) -> tuple[float, float, object]:
    """(wall seconds, this process's CPU seconds, what `work()` returned)."""
    wall, cpu = time.perf_counter(), time.process_time()
    made = work()
    return time.perf_counter() - wall, time.process_time() - cpu, made


def run(path: Path = ROOT / "build" / "big.db", repeat: int = 3) -> dict:
    big.build(path)
    engine = store.connect(f"sqlite:///{path}", backup_dir=None)
    try:
        writes = [_timed(lambda: exports.tournament_workbook(engine)) for _ in range(repeat)]
    finally:
        engine.dispose()
    content = writes[-1][2]
    assert isinstance(content, bytes)
    restores = []
    with tempfile.TemporaryDirectory() as folder:
        for n in range(repeat):
            target = store.connect(f"sqlite:///{folder}/restored-{n}.db", backup_dir=None)
            try:
                restores.append(_timed(lambda: restore.restore_workbook(
                    target, content, actor=ORGANIZER)))  # noqa: B023
            finally:
                target.dispose()
    return {"workbook_write_seconds": round(min(w for w, _c, _m in writes), 2),
            "workbook_write_cpu_seconds": round(min(c for _w, c, _m in writes), 2),
            "workbook_restore_seconds": round(min(w for w, _c, _m in restores), 2),
            "workbook_restore_cpu_seconds": round(min(c for _w, c, _m in restores), 2),
            "workbook_mb": round(len(content) / 2**20, 2),
            "workbook_load_average": round(os.getloadavg()[0], 1)}


if __name__ == "__main__":
    for key, value in run().items():
        print(f"{key:<40}{value:>8}")
