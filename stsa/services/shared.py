"""What the pages' shared reads keep from one page run to the next, for every session of an app
process (DESIGN.md, "Shared state"): values computed once per data version (`Shelf`), and every
stored result, read again only where saves changed it (`ResultsLog`). Caches that only save
work: nothing here guards access, and a dropped one is filled again. No Streamlit: `stsa.ui.data`
holds one of each per database."""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import Any

import pandas as pd

from stsa import store
from stsa.domain import Action
from stsa.store.db import SYSTEM


class Shelf:
    """Values derived from one database, each kept at the newest data version it was computed
    for. A run asking at version v gets the kept value when it is of v or newer (data at least
    as new as the run saw: a run that fell behind a save never computes the past again);
    otherwise the value is computed once for v even when many sessions ask at once: the first
    computes, the others wait for it (a lock per key and version)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._kept: dict[Hashable, tuple[int, Any]] = {}
        self._busy: dict[tuple[Hashable, int], threading.Lock] = {}

    def get(self, key: Hashable, version: int, compute: Callable[[], Any]) -> Any:
        kept = self._kept.get(key)
        if kept is not None and kept[0] >= version:
            return kept[1]
        with self._lock:
            busy = self._busy.setdefault((key, version), threading.Lock())
        with busy:
            kept = self._kept.get(key)
            if kept is not None and kept[0] >= version:
                return kept[1]
            try:
                value = compute()
            finally:
                with self._lock:
                    self._busy.pop((key, version), None)
            with self._lock:
                kept = self._kept.get(key)
                if kept is None or kept[0] < version:
                    self._kept[key] = (version, value)
            return value


class Latest:
    """Values each kept for the one stamp they were computed for (a tuple of data versions,
    say, that can move either way when a tournament is deleted): a new stamp computes once,
    however many ask together, and replaces the old value, so nothing piles up."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._kept: dict[Hashable, tuple[Hashable, Any]] = {}
        self._busy: dict[Hashable, threading.Lock] = {}

    def get(self, key: Hashable, stamp: Hashable, compute: Callable[[], Any]) -> Any:
        kept = self._kept.get(key)
        if kept is not None and kept[0] == stamp:
            return kept[1]
        with self._lock:
            busy = self._busy.setdefault(key, threading.Lock())
        with busy:
            kept = self._kept.get(key)
            if kept is not None and kept[0] == stamp:
                return kept[1]
            value = compute()
            self._kept[key] = (stamp, value)
            return value


class ResultsLog:
    """Every stored result (`store.results` of every kind), kept from one read to the next: when
    all that was logged since the last read is result saves ("result.submit",
    "result.correct" of "table N"), only the sittings of those tables are read again; after
    anything else (a draw, a restore, an edited player, a changed setup …), or when the log no
    longer holds the last entry read as it was, everything is. For the pages' shared reads,
    which need every result once per data version: at 2,000 players a full read is 24,000 rows,
    one sitting 2,000.

    SQLite only (elsewhere every read is a full one): its writers take turns, so the log's ids
    grow in the order writes commit, and the entries after the last one read are exactly what
    changed since."""

    SAVES = (Action.RESULT_SUBMIT, Action.RESULT_CORRECT)

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._kept: tuple[tuple | None, pd.DataFrame] | None = None  # (last entry, results)

    def read(self, engine) -> pd.DataFrame:
        with self._lock:
            found = self._patched(engine) if self._kept is not None and \
                engine.dialect.name == "sqlite" else None
            if found is None:
                with store.snapshot(engine) as conn:
                    last = _entry(store.events(conn, actor=SYSTEM, limit=1))
                    found = store.results(conn, None)
                self._kept = (last, found)
            return found

    def _patched(self, engine) -> pd.DataFrame | None:
        """The kept results with the sittings of the tables saved since re-read; None when a
        full read is needed."""
        assert self._kept is not None  # read() patches only what it kept
        last, kept = self._kept
        if last is None:
            return None
        with store.snapshot(engine) as conn:
            since = store.events(conn, actor=SYSTEM, since_id=last[0] - 1)
            if since.empty or _entry(since.head(1)) != last:
                return None  # the log was replaced (a restore)
            new = since.iloc[1:]
            if new.empty:
                return kept
            tables = new["subject"].str.fullmatch(r"table \d+")
            if not (new["action"].isin(self.SAVES) & tables).all():
                return None
            saved = {int(subject.split()[1]) for subject in new["subject"]}
            sittings = set(kept.loc[kept["game_id"].isin(saved), "sitting_id"])
            for table_id in saved - set(kept["game_id"]):  # a table's first result
                sittings |= set(store.tables(conn, table_id=table_id, actor=SYSTEM)["sitting_id"])
            read = [store.results(conn, None, sitting_id=int(s)) for s in sorted(sittings)]
        # Whole sittings are replaced, each read in order: sorting by sitting keeps the rest.
        found = (pd.concat([kept.loc[~kept["sitting_id"].isin(sittings)], *read],
                           ignore_index=True)
                 .sort_values("sitting_id", kind="stable").reset_index(drop=True))
        self._kept = (_entry(since.tail(1)), found)
        return found


def _entry(events: pd.DataFrame) -> tuple | None:
    """What identifies a log entry (the first of `events`), None for no entry."""
    if events.empty:
        return None
    row = events.iloc[0]
    return (int(row["event_id"]), str(row["at"]), row["actor"], row["action"], row["subject"])
