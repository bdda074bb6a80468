"""What the pages' shared reads and the data feed keep from one run or request to the next, for
every session of an app process (DESIGN.md, "Shared state", "The crowd"): values computed once
per data version (`Shelf`), every stored result, read again only where saves changed it
(`ResultsLog`), each database's data version read at most every moment (`Versions`), and the
feed's answers, built at most once a second each (`Answers`). Caches that only save work:
nothing here guards access, and a dropped one is filled again. No Streamlit: `stsa.ui.data`
holds one shelf and results log per database; the process holds one `Versions`."""

from __future__ import annotations

import dataclasses
import gzip
import hashlib
import math
import threading
import time
import weakref
from collections.abc import Callable, Hashable
from dataclasses import dataclass
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


class Versions:
    """Each database's data version (`store.data_version`) as this process last read it,
    read again at most every `seconds` (DESIGN.md, "The crowd": a thousand pollers and page
    openings cost a few reads a second, not one each), and at once after a write this process
    committed (`store.db.on_write`, through any engine on the same database), so a person who
    saves sees their save on the next run. A write by another process (a cluster on
    PostgreSQL) shows within `seconds`. Concurrent readers of a stale version wait for one
    read instead of making their own. A cache that only saves work: dropping it costs
    reads."""

    def __init__(self, seconds: float, read: Callable[[Any], int] | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.seconds, self.clock = seconds, clock
        self._read = read or store.data_version
        self._kept: dict[Hashable, tuple[float, int]] = {}
        self._locks: dict[Hashable, threading.Lock] = {}
        self._lock = threading.Lock()
        self._which_of: weakref.WeakKeyDictionary[Any, Hashable] = weakref.WeakKeyDictionary()

    def _which(self, engine) -> Hashable:
        """The database (and tournament) an engine reads: engines on the same one share it."""
        try:
            return self._which_of[engine]
        except (KeyError, TypeError):
            pass
        url = getattr(engine, "url", None)
        if url is None:  # a test's stand-in
            return id(engine)
        which = (str(url), store.db.tournament_id(engine))
        if which[1] is not None:  # an engine is told its tournament once it is open
            self._which_of[engine] = which
        return which

    def fresh(self, engine) -> int | None:
        """The kept version of `engine` if it was read less than `seconds` ago, else None
        (no database read: safe on the server's event loop)."""
        kept = self._kept.get(self._which(engine))
        if kept is None or self.clock() - kept[0] >= self.seconds:
            return None
        return kept[1]

    def current(self, engine) -> int:
        """`engine`'s data version, read again only when the kept one is older than
        `seconds` (or a write moved it)."""
        found = self.fresh(engine)
        if found is not None:
            return found
        which = self._which(engine)
        with self._lock:
            lock = self._locks.setdefault(which, threading.Lock())
        with lock:
            found = self.fresh(engine)  # another thread read it while this one waited
            if found is not None:
                return found
            at = self.clock()
            version = int(self._read(engine))
            self._kept[which] = (at, version)
            return version

    def moved(self, engine) -> None:
        """A write committed on `engine` in this process: its next `current` reads again."""
        self._kept.pop(self._which(engine), None)

    def forget(self) -> None:
        """Read every version again at its next use (tests: a write made elsewhere)."""
        self._kept.clear()


@dataclass(frozen=True)
class Answer:
    """One answer as the feed gives it: what it was built from (`stamp`: data versions),
    when (`built`, a monotonic time), its ETag (from its content: an answer that did not
    change keeps its ETag across versions), its body, the body gzipped (None when too small
    to be worth it) and its media type."""

    stamp: Hashable
    built: float
    etag: str
    body: bytes
    gzipped: bytes | None
    media: str


GZIP_FROM = 1024  # bytes: smaller answers go as they are


def make_answer(stamp: Hashable, body: bytes, media: str, *, salt: Hashable = "",
                clock: Callable[[], float] = time.monotonic) -> Answer:
    """`Answer` of `body`: its ETag a hash of `salt` (the feed's version, the answer's
    language) and the body, its gzipped body made once here."""
    digest = hashlib.blake2b(repr(salt).encode() + b"\0" + body, digest_size=12)
    gzipped = gzip.compress(body, compresslevel=6, mtime=0) if len(body) >= GZIP_FROM else None
    return Answer(stamp, clock(), f'"{digest.hexdigest()}"', body, gzipped, media)


class Answers:
    """The feed's answers by key (route, tournament, parameters, language), each built once
    per stamp of data versions, at most once every `rebuild_seconds` however fast the
    versions move (judges saving), and by one thread at a time: while one builds, or within
    `rebuild_seconds` of the last build, readers get the answer as it was (it catches up at
    the next poll). A key with no answer yet waits for its first build. At most `most` keys
    are kept (a client inventing parameters only costs time)."""

    def __init__(self, rebuild_seconds: float, most: int = 20_000,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.rebuild_seconds, self.most, self.clock = rebuild_seconds, most, clock
        self._kept: dict[Hashable, Answer] = {}
        self._building: dict[Hashable, threading.Lock] = {}
        self._lock = threading.Lock()

    def peek(self, key: Hashable, stamp: Hashable, every: float | None = None
             ) -> Answer | None:
        """The kept answer of `key` when it may be given now without a build (it is of
        `stamp`, or a newer build must wait: one is under way, or the last one is younger
        than `every` seconds, default `rebuild_seconds`); else None. No work: safe on the
        server's event loop."""
        kept = self._kept.get(key)
        if kept is None:
            return None
        if kept.stamp == stamp:
            return kept
        busy = self._building.get(key)
        wait = self.rebuild_seconds if every is None else every
        if (busy is not None and busy.locked()) or self.clock() - kept.built < wait:
            return kept
        return None

    def get(self, key: Hashable, stamp: Hashable, build: Callable[[], Answer],
            every: float | None = None) -> Answer:
        """The answer of `key` for `stamp`: the kept one when `peek` gives it, else built now
        by `build` (one thread per key; another asking meanwhile gets the kept answer, or,
        when there is none yet, waits for this build)."""
        found = self.peek(key, stamp, every)
        if found is not None:
            return found
        with self._lock:
            busy = self._building.setdefault(key, threading.Lock())
        if not busy.acquire(blocking=key not in self._kept):
            return self._kept[key]  # another thread is building it: the answer as it was
        try:
            found = self.peek(key, stamp, every)
            if found is not None and found.stamp == stamp:
                return found
            made = build()
            with self._lock:
                if len(self._kept) >= self.most and key not in self._kept:
                    self._kept.clear()
                self._kept[key] = made
            return made
        finally:
            busy.release()

    def expire(self) -> None:
        """Let every kept answer be built again at once for a new stamp (tests: a write must
        show at the next request); an answer of the same stamp is still given as it is."""
        with self._lock:
            self._kept = {key: dataclasses.replace(kept, built=-math.inf)
                          for key, kept in self._kept.items()}
