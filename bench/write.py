"""Entering results as a judge does: what a round's results cost per seat.

1,024 players, 5 qualifier sittings of 256 four-player tables; every table's result is
submitted once per sitting, one process, on a SQLite file with STSA's own settings (WAL,
synchronous=FULL). Two ways in, timed apart: the service the Results page calls
(`services.results.submit_result`, the form's frame as the page builds it) and the store's
`submit_table_result` alone. The figure is milliseconds per seat (the seconds spent submitting
over the seats submitted), best of `repeat` tournaments after a warm-up. The automatic backup
after each completed sitting (R19) is part of what a round costs, so it is included, and it is
also reported alone.
"""

from __future__ import annotations

import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pandas as pd

from stsa import store, tournament
from stsa.auth import Actor, Role
from stsa.services import results as result_service
from stsa.store import archive

ROOT = Path(__file__).resolve().parent.parent
ORGANIZER = Actor("Bench", Role.ORGANIZER)
JUDGE = Actor("Bench judge", Role.JUDGE)
STATS = ("vp", "spice", "solari", "troops", "water")
NUMBERS = (*STATS, "variant_points", "tiebreak")
Submit = Callable[..., object]


def form_rows(seats: pd.DataFrame, leaders: list[str], rng: np.random.Generator) -> pd.DataFrame:
    """One table's result as the Results page's form hands it over (`stsa.ui.sittings.form_rows`):
    `player_id, seat, leader`, the numbers as nullable integers, and a settled order (R11) only
    for players equal on all five, given by seat."""
    n = len(seats)
    numbers = {"vp": rng.integers(3, 13, n), "spice": rng.integers(0, 7, n),
               "solari": rng.integers(0, 9, n), "troops": rng.integers(0, 6, n),
               "water": rng.integers(0, 4, n), "variant_points": np.zeros(n, dtype="int64")}
    fives = [tuple(int(numbers[c][i]) for c in STATS) for i in range(n)]
    tiebreak = [i + 1 if fives.count(fives[i]) > 1 else None for i in range(n)]
    return pd.DataFrame({
        "player_id": seats["player_id"].to_numpy(dtype="int64"),
        "seat": seats["seat"].to_numpy(dtype="int64"),
        "leader": rng.choice(leaders, size=n, replace=False).tolist(),
        **{c: pd.array(numbers[c].tolist(), dtype="Int64") for c in numbers},
        "tiebreak": pd.array(tiebreak, dtype="Int64")})


def by_service(engine, table_id: int, rows: pd.DataFrame, sid: str):
    """What the Results page does on Save."""
    return result_service.submit_result(engine, table_id, rows, expected_version=0,
                                        submission_id=sid, actor=JUDGE)


def by_store(engine, table_id: int, rows: pd.DataFrame, sid: str):
    """The store's write alone (what a script does)."""
    return store.submit_table_result(engine, table_id, rows, expected_version=0,
                                     submission_id=sid, actor=JUDGE)


@contextmanager
def timed_backups() -> Iterator[list[float]]:
    """Seconds of each automatic backup taken inside the block (R19)."""
    spent: list[float] = []
    plain = archive.auto_backup

    def timed(engine, label):
        start = time.perf_counter()
        try:
            return plain(engine, label)
        finally:
            spent.append(time.perf_counter() - start)

    archive.auto_backup = timed
    try:
        yield spent
    finally:
        archive.auto_backup = plain


def _round(engine, ids: list[int], number: int, submit: Submit,
           rng: np.random.Generator) -> tuple[float, int, list[float]]:
    """Draw and publish one qualifier sitting (not timed), then submit every table's result:
    the seconds spent submitting, the seats submitted and the backups' seconds."""
    sitting = tournament.draw_qualifier(engine, ids, seed=number, actor=ORGANIZER)
    store.publish_sitting(engine, sitting["sitting_id"], actor=ORGANIZER)
    tables = store.tables(engine, sitting["sitting_id"], actor=ORGANIZER)
    seats = dict(list(store.seats(engine, sitting["sitting_id"], actor=ORGANIZER)
                      .groupby("table_id")))
    work = [(int(t), form_rows(seats[t], leaders, rng), uuid.uuid4().hex)
            for t, leaders in zip(tables["table_id"], tables["available_leaders"])]
    with timed_backups() as backups:
        start = time.perf_counter()
        for table_id, rows, sid in work:
            submit(engine, table_id, rows, sid)
        seconds = time.perf_counter() - start
    done = store.sitting(engine, sitting["sitting_id"])["status"]
    if done != "complete" or len(backups) != 1:
        raise RuntimeError(f"sitting {number} ended {done} with {len(backups)} backups")
    return seconds, sum(len(rows) for _, rows, _ in work), backups


def tournament_run(folder: Path, submit: Submit, *, players: int, sittings: int,
                   seed: int) -> dict:
    """One tournament from an empty file: seconds submitting, seats, backups' seconds."""
    engine = store.connect(f"sqlite:///{folder / 'write.db'}", backup_dir=folder / "backups")
    try:
        roster = pd.DataFrame({"name": [f"Player {i:04d}" for i in range(players)]})
        ids = store.import_players(engine, roster, actor=ORGANIZER)["player_id"].tolist()
        store.set_settings(engine, {"capacity": max(players, 3)}, actor=ORGANIZER)  # all play
        rng = np.random.default_rng(seed)
        total = {"seconds": 0.0, "seats": 0, "backups": []}
        for number in range(1, sittings + 1):
            seconds, seats, backups = _round(engine, ids, number, submit, rng)
            total["seconds"] += seconds
            total["seats"] += seats
            total["backups"] += backups
        return total
    finally:
        engine.dispose()


def best_run(submit: Submit, *, players: int, sittings: int, repeat: int) -> dict:
    """The fastest of `repeat` tournaments, after a small one as warm-up; each in a fresh
    folder under build/."""
    (ROOT / "build").mkdir(exist_ok=True)
    runs = []
    for attempt in range(repeat + 1):
        with tempfile.TemporaryDirectory(prefix="write-bench-", dir=ROOT / "build") as tmp:
            size = (64, 1) if attempt == 0 else (players, sittings)
            runs.append(tournament_run(Path(tmp), submit, players=size[0], sittings=size[1],
                                       seed=attempt))
    return min(runs[1:], key=lambda r: r["seconds"])


def run(players: int = 1_024, sittings: int = 5, repeat: int = 3) -> dict:
    """ms per seat through the service and through the store (backups included), and the
    automatic backups alone: ms per backup and their share of a seat's ms."""
    figures = {}
    for name, submit in (("service", by_service), ("store", by_store)):
        best = best_run(submit, players=players, sittings=sittings, repeat=repeat)
        figures[f"write_seat_ms_{name}"] = round(best["seconds"] * 1e3 / best["seats"], 3)
        figures[f"write_backup_seat_ms_{name}"] = round(
            sum(best["backups"]) * 1e3 / best["seats"], 3)
        figures[f"write_backup_ms_{name}"] = round(
            sum(best["backups"]) * 1e3 / len(best["backups"]), 1)
    figures["write_seats"] = best["seats"]
    return figures


if __name__ == "__main__":
    for key, value in run().items():
        print(f"{key:<36}{value:>10}")
