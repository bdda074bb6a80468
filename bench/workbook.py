"""The tournament workbook of the big tournament (2,000 players × 12 sittings, `bench.big`):
seconds to write it (`services.exports.tournament_workbook`, from reading the store to the
.xlsx bytes) and to restore it into a new, empty tournament (`services.restore
.restore_workbook`: reading, every check, writing), best of `repeat`, and the file's size."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from bench import big
from stsa import store
from stsa.auth import Actor, Role
from stsa.services import exports, restore

ROOT = Path(__file__).resolve().parent.parent
ORGANIZER = Actor("Bench", Role.ORGANIZER)


def run(path: Path = ROOT / "build" / "big.db", repeat: int = 2) -> dict:
    big.build(path)
    engine = store.connect(f"sqlite:///{path}", backup_dir=None)
    try:
        writes, content = [], b""
        for _ in range(repeat):
            start = time.perf_counter()
            content = exports.tournament_workbook(engine)
            writes.append(time.perf_counter() - start)
    finally:
        engine.dispose()
    restores = []
    with tempfile.TemporaryDirectory() as folder:
        for n in range(repeat):
            target = store.connect(f"sqlite:///{folder}/restored-{n}.db", backup_dir=None)
            try:
                start = time.perf_counter()
                restore.restore_workbook(target, content, actor=ORGANIZER)
                restores.append(time.perf_counter() - start)
            finally:
                target.dispose()
    return {"workbook_write_seconds": round(min(writes), 2),
            "workbook_restore_seconds": round(min(restores), 2),
            "workbook_mb": round(len(content) / 2**20, 2)}


if __name__ == "__main__":
    for key, value in run().items():
        print(f"{key:<40}{value:>8}")
