"""Server time of every page on a 2,000-player, 12-sitting tournament (DESIGN.md: < 0.5 s).

Each page is run through app.py with Streamlit's AppTest, as a spectator and as the organizer,
with cold caches: nothing of the tournament read or computed yet, as for the first visitor
after a write (the data version moved), in a server that has shown the page before."""

from __future__ import annotations

import os
import time
from pathlib import Path

import streamlit as st
from streamlit.testing.v1 import AppTest

from bench import big
from stsa import store
from stsa.auth import Actor, Role
from stsa.ui import data

ROOT = Path(__file__).resolve().parent.parent
PAGES = ["home", "player", "standings", "statistics", "schedule", "tv", "draw", "results",
         "finals", "roster", "settings", "log", "data"]
PUBLIC = {"home", "player", "standings", "statistics", "schedule", "tv", "draw", "results",
          "finals"}
QUERY = {"player": {"player": "1"}}  # a player's own page, opened from its bookmarked link


def session_id(actor: Actor) -> str:
    """A real organizer session, opened with the organizer PIN as a person would."""
    engine = store.connect()
    try:
        store.ensure_pins(engine)
        return store.sign_in(engine, actor.name, os.environ["STSA_ORGANIZER_PIN"],
                             client="bench").session_id
    finally:
        engine.dispose()


def page_seconds(page: str, actor: Actor | None, query: dict | None = None) -> float:
    """Seconds for one run of `page` with cold caches, in a server that has run the page
    before (its modules imported): what the page's first visitor after a write waits for.
    `query`: more of the address (`{"t": key}`: which tournament of several)."""
    return page_times(page, actor, query)[0]


def page_times(page: str, actor: Actor | None, query: dict | None = None) -> tuple[float, float]:
    """`page_seconds`, and the processor seconds of the same run (all of the process's
    threads: the page runs in one of its own), which other work on the machine inflates
    far less."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params.update({**QUERY.get(page, {}), **(query or {})})
    if actor is not None:
        at.session_state["session_id"] = session_id(actor)
    at.run()
    at.switch_page(f"views/{page}.py")
    at.run()
    st.cache_data.clear()
    data.clear()  # every shared read and derived table: nothing is computed yet
    start, cpu = time.perf_counter(), time.process_time()
    at.run()
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    if at.exception:
        raise RuntimeError(f"{page}: {at.exception[0].message}")
    return seconds, cpu


def roster_search_seconds(actor: Actor) -> float:
    """Seconds for the organizer's search on the Roster page ("player 19": 100 of the 2,000
    players), in a session that has the page open; the list shown is checked too."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.session_state["session_id"] = session_id(actor)
    at.run()
    at.switch_page("views/roster.py")
    at.run()
    start = time.perf_counter()
    at.text_input(key="roster_search").input("player 19").run()
    seconds = time.perf_counter() - start
    if at.exception:
        raise RuntimeError(f"roster search: {at.exception[0].message}")
    if len(at.data_editor[0].value) != 100:
        raise RuntimeError(f"roster search: {len(at.data_editor[0].value)} players shown, not 100")
    return seconds


def run(path: Path = ROOT / "build" / "big.db") -> dict:
    big.build(path)
    os.environ["STSA_DATABASE_URL"] = f"sqlite:///{path}"
    os.environ.setdefault("STSA_ORGANIZER_PIN", "bench-organizer")
    os.environ.setdefault("STSA_JUDGE_PIN", "bench-judge")
    organizer = Actor("Bench", Role.ORGANIZER)
    figures = {}
    for page in PAGES:
        figures[f"{page}_page_seconds"] = round(page_seconds(page, organizer), 3)
        if page in PUBLIC:
            figures[f"{page}_page_spectator_seconds"] = round(page_seconds(page, None), 3)
    figures["charts_page_seconds"] = figures["statistics_page_seconds"]
    figures["roster_search_seconds"] = round(roster_search_seconds(organizer), 3)
    return figures


if __name__ == "__main__":
    for key, value in run().items():
        print(f"{key:<40}{value:>8}")
