"""The season service over a real installation (R27): 20 tournaments × 500 players × 6
qualifier sittings, each its own database (built once through the store by `bench.big`,
copied), players linked to people drawn from a pool of 2,000. Not part of `make bench`:
`python -m bench.season_service` prints, for one cold call of each service function, the
seconds in all and the seconds beyond the database reads (opening and reading each
tournament in its snapshot)."""

from __future__ import annotations

import functools
import shutil
import time
from pathlib import Path

import numpy as np
import pandas as pd

from bench import big
from stsa import store
from stsa.services import season as service

TOURNAMENTS, PLAYERS, SITTINGS, POOL = 20, 500, 6, 2000
ORGANIZER = big.ORGANIZER


def build(folder: Path) -> tuple[str, int]:
    """The installation in `folder` (made again each run; the tournament file is cached):
    its URL and the season holding every tournament."""
    one = big.build(Path("build") / f"season-{PLAYERS}x{SITTINGS}.db", players=PLAYERS,
                    sittings=SITTINGS)
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    url = f"sqlite:///{folder / 'stsa.db'}"
    inst = store.connect(url, backup_dir=folder / "backups")
    store.set_settings(inst, {"auto_backup": False}, actor=ORGANIZER)
    season_id = store.create_season(inst, "Bench season", actor=ORGANIZER)
    rng = np.random.default_rng(3)
    links = []
    for n in range(TOURNAMENTS):
        made = store.create_tournament(inst, f"Bench {n + 1:02d}",
                                       starts_on=f"2026-{n % 12 + 1:02d}-{n // 12 + 1:02d}",
                                       actor=ORGANIZER)
        listed = store.tournaments(inst).set_index("tournament_id")
        # the same games, another tournament
        shutil.copyfile(one, folder / listed.at[made.tournament_id, "location"])
        store.set_season(inst, made.tournament_id, season_id, actor=ORGANIZER)
        links.append(pd.DataFrame({"tournament_id": made.tournament_id,
                                   "player_id": np.arange(1, PLAYERS + 1),
                                   "person_id": rng.choice(POOL, PLAYERS, replace=False) + 1}))
    store.link_players(inst, pd.concat(links, ignore_index=True), actor=ORGANIZER)
    inst.dispose()
    return url, season_id


#: The store's reads the service makes (each tournament's snapshot, the installation's list,
#: seasons and directory), timed apart from the computing around them.
READS = ("open_tournament", "tournaments", "directory", "season", "settings", "results",
         "players", "sittings", "absences", "seats", "tables", "setup_counts")


def timed(call) -> tuple[float, float]:
    """Seconds of `call()` in all, and of the store's reads within it (`READS`)."""
    spent = [0.0]
    real = {name: getattr(store, name) for name in READS}

    def counted(read):
        def run(*args, **kwargs):
            start = time.perf_counter()
            try:
                return read(*args, **kwargs)
            finally:
                spent[0] += time.perf_counter() - start
        return run

    for name, read in real.items():
        setattr(store, name, counted(read))
    try:
        start = time.perf_counter()
        call()
        return time.perf_counter() - start, spent[0]
    finally:
        for name, read in real.items():
            setattr(store, name, read)


def main() -> None:
    url, season_id = build(Path("build") / "season-installation")
    for name, call in [
        ("season_table", lambda inst: service.season_table(inst, season_id)),
        ("season_csv", lambda inst: service.season_csv(inst, season_id)),
        ("rating_table", service.rating_table),
        ("player_page", lambda inst: service.player_page(inst, 1)),
    ]:
        inst = store.connect(url)  # cold: a new engine, nothing read yet
        try:
            total, reads = timed(functools.partial(call, inst))
        finally:
            inst.dispose()
        print(f"{name}: {total:.2f} s in all, {reads:.2f} s in the store's reads, "
              f"{total - reads:.2f} s beyond")


if __name__ == "__main__":
    main()
