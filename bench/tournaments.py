"""Several tournaments in one installation (R27): 20 tournaments × 500 players × 6 qualifier
sittings, players linked to people drawn from a pool of 2,000, all in one season.

- Every page of one of them (`bench.pages`' method: as the organizer and as a spectator,
  caches cold) beside the same page of the same tournament alone in an installation of its
  own, in one run, each the best of a few tries taken in turn: the ratio is the figure
  (target ≤ 1.2).
- The season standing and the rating over all 20 (`services.season.season_table`,
  `rating_table`), each in a fresh process, nothing read or computed yet, the best of three
  processes: `_cold` with every tournament's database opened (and checked) by the call
  itself, target < 1 s; `_open` with the engines already open, as the app's shared engines
  are when its season reads start.

Both installations are built once through the store and kept in build/."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

from bench import big, pages
from stsa import store
from stsa.auth import Actor, Role

ROOT = Path(__file__).resolve().parent.parent
TOURNAMENTS, PLAYERS, SITTINGS, POOL = 20, 500, 6, 2000
SHOWN = 10  # the tournament whose pages are timed (1-based, of the 20)
TRIES = 5
RATIO = ("<=", 1.2)
COLD = ("<", 1.0)


def installation(folder: Path, count: int) -> str:
    """An installation of `count` copies of one built tournament (its players linked to people
    of the pool, every tournament in one season), made once in `folder`: its URL."""
    url = f"sqlite:///{folder / 'stsa.db'}"
    if (folder / "ready").exists():
        return url
    one = big.build(ROOT / "build" / f"season-{PLAYERS}x{SITTINGS}.db", players=PLAYERS,
                    sittings=SITTINGS)
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    inst = store.connect(url, backup_dir=folder / "backups")
    store.set_settings(inst, {"auto_backup": False}, actor=big.ORGANIZER)
    season_id = store.create_season(inst, "Bench season", actor=big.ORGANIZER)
    rng = np.random.default_rng(3)
    links = []
    for n in range(count):
        made = store.create_tournament(inst, f"Bench {n + 1:02d}",
                                       starts_on=f"2026-{n % 12 + 1:02d}-{n // 12 + 1:02d}",
                                       actor=big.ORGANIZER)
        listed = store.tournaments(inst).set_index("tournament_id")
        shutil.copyfile(one, folder / listed.at[made.tournament_id, "location"])
        store.set_season(inst, made.tournament_id, season_id, actor=big.ORGANIZER)
        links.append(pd.DataFrame({"tournament_id": made.tournament_id,
                                   "player_id": np.arange(1, PLAYERS + 1),
                                   "person_id": rng.choice(POOL, PLAYERS, replace=False) + 1}))
    store.link_players(inst, pd.concat(links, ignore_index=True), actor=big.ORGANIZER)
    inst.dispose()
    (folder / "ready").write_text("built\n")
    return url


def _key(url: str, position: int) -> str:
    inst = store.connect(url)
    try:
        return str(store.tournaments(inst).sort_values("tournament_id")["key"].iloc[position])
    finally:
        inst.dispose()


def page_figures(many: str, alone: str, shown: list[str] | None = None,
                 tries: int = TRIES) -> dict:
    """Each page's seconds with the tournament among 20 and alone, and their ratio (only the
    pages `shown` when given)."""
    organizer = Actor("Bench", Role.ORGANIZER)
    where = {"many": (many, {"t": _key(many, SHOWN - 1)}), "alone": (alone, {})}
    figures: dict = {}
    ratios = []
    for page in shown or pages.PAGES:
        for actor, suffix in [(organizer, ""), (None, "_spectator")]:
            if actor is None and page not in pages.PUBLIC:
                continue
            best = {"many": [float("inf")] * 2, "alone": [float("inf")] * 2}
            for _ in range(tries):
                for name, (url, query) in where.items():  # side by side, in turn
                    os.environ["STSA_DATABASE_URL"] = url
                    timed = pages.page_times(page, actor, query)
                    best[name] = [min(b, t) for b, t in zip(best[name], timed)]
            # the ratio of processor seconds: other work on the machine moves the wall clock's
            # by a fifth either way at these page sizes (both are shown)
            ratio = best["many"][1] / best["alone"][1]
            ratios.append(ratio)
            figures[f"t20_{page}{suffix}_seconds"] = round(best["many"][0], 3)
            figures[f"t1_{page}{suffix}_seconds"] = round(best["alone"][0], 3)
            figures[f"t20_ratio_{page}{suffix}_wall"] = round(best["many"][0]
                                                             / best["alone"][0], 2)
            figures[f"t20_ratio_{page}{suffix}"] = round(ratio, 2)
    figures["t20_ratio_worst"] = round(max(ratios), 2)
    return figures


def cold_seconds(url: str, what: str, tries: int = 3) -> tuple[float, float]:
    """Seconds of one call in a fresh process (modules imported first, then timed), and its
    processor seconds (what a busy machine does not inflate): the best of `tries` processes,
    one after another."""
    def once() -> tuple[float, float]:
        out = subprocess.run([sys.executable, "-m", "bench.tournaments", "--cold", what, url],
                             capture_output=True, text=True, check=True, cwd=ROOT)
        found = json.loads(out.stdout.strip().splitlines()[-1])
        return float(found["seconds"]), float(found["cpu_seconds"])

    runs = [once() for _ in range(tries)]
    return min(r[0] for r in runs), min(r[1] for r in runs)


def _cold(what: str, url: str) -> None:
    """Print one call's seconds as JSON. `what`: "season" or "ratings", with "-open" for the
    tournaments' engines already open (as the app's shared engines are; `engine_of`), nothing
    read or computed yet; else the call opens and checks every database itself."""
    from stsa.services import season as service

    inst = store.connect(url)
    season_id = int(store.seasons(inst)["season_id"].iloc[0])
    inst.dispose()
    inst = store.connect(url)  # a new engine: nothing read yet
    engines, engine_of = {}, None
    if what.endswith("-open"):
        engines = {int(t): store.open_tournament(inst, int(t))
                   for t in store.tournaments(inst)["tournament_id"]}
        engine_of = engines.__getitem__
    start, cpu = time.perf_counter(), time.process_time()
    if what.startswith("season"):
        service.season_table(inst, season_id, engine_of=engine_of)
    else:
        service.rating_table(inst, engine_of=engine_of)
    print(json.dumps({"seconds": time.perf_counter() - start,
                      "cpu_seconds": time.process_time() - cpu}))


def pages_target() -> tuple[str, float]:
    """Each page's own bar (DESIGN.md: < 0.5 s), held with 20 tournaments too."""
    return ("<", 0.5)


def targets() -> dict:
    """`make bench`'s targets of these figures."""
    found = {f"t20_ratio_{p}{s}": RATIO for p in pages.PAGES for s in ("", "_spectator")}
    found.update({f"t20_{p}{s}_seconds": pages_target() for p in pages.PAGES
                  for s in ("", "_spectator")})
    return {**found, "t20_ratio_worst": RATIO, "season_table_20_cold_seconds": COLD,
            "rating_table_20_cold_seconds": COLD}


def run() -> dict:
    os.environ.setdefault("STSA_ORGANIZER_PIN", "bench-organizer")
    os.environ.setdefault("STSA_JUDGE_PIN", "bench-judge")
    before = os.environ.get("STSA_DATABASE_URL")
    many = installation(ROOT / "build" / "tournaments-20", TOURNAMENTS)
    alone = installation(ROOT / "build" / "tournaments-1", 1)
    try:
        figures = page_figures(many, alone)
    finally:
        if before is None:
            os.environ.pop("STSA_DATABASE_URL", None)
        else:
            os.environ["STSA_DATABASE_URL"] = before
    for what, name in [("season", "season_table"), ("ratings", "rating_table")]:
        for mode, suffix in [(what, "cold"), (f"{what}-open", "open")]:
            wall, cpu = cold_seconds(many, mode)
            figures[f"{name}_20_{suffix}_seconds"] = round(wall, 3)
            figures[f"{name}_20_{suffix}_cpu_seconds"] = round(cpu, 3)
    return figures


if __name__ == "__main__":
    if sys.argv[1:2] == ["--cold"]:
        _cold(sys.argv[2], sys.argv[3])
    else:
        import logging

        logging.getLogger("streamlit").setLevel(logging.ERROR)
        for key, value in run().items():
            print(f"{key:<40}{value:>8}")
