"""What one user action reads: one consistent snapshot of the database, each frame read at most
once and shared by every check and computation of that action.

Used as `with Snapshot(engine) as snap:` every read runs in one read transaction
(`store.snapshot`), so the frames cannot disagree. Outside a `with`, each frame is its own
read; the sittings are then read before anything whose meaning depends on a sitting's status
(tables, seats, results), so a sitting seen complete has all its results in a later read. A
snapshot may be shared by threads (the pages' shared reads keep one per data version): each
frame is still read once.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from typing import Any

import pandas as pd

from stsa import store
from stsa.auth import Actor
from stsa.domain import Kind, Sitting, SittingStatus
from stsa.i18n import _
from stsa.settings import Settings
from stsa.store.db import SYSTEM

_SAME = {"settings", "results", "absences", "setup_counts"}  # the same in every view (R20)


class Snapshot:
    """The store's frames for one action, read on first use and kept.

    `actor` is whose view the reads take (R20): the system's by default (drafts and removed
    leaders, for checks STSA makes itself), None for what a spectator may see."""

    def __init__(self, engine, *, actor: Actor | None = SYSTEM, like: Snapshot | None = None,
                 read_results: Callable[[], pd.DataFrame] | None = None):
        self.engine, self.actor = engine, actor
        # Where every stored result comes from (`store.results` unless given: the pages keep
        # them across data versions, `services.shared.ResultsLog`).
        self._read_results = read_results or (lambda: store.results(self.engine, None))
        self._kept: dict[Any, Any] = {}
        self._reading: contextlib.ExitStack | None = None
        self._lock = threading.RLock()  # shared by threads: each frame is still read once
        # Frames that look the same in every view (settings, results, absences, setup counts)
        # come from `like`, a snapshot of the same data taken for another view, when given.
        self._like = like

    def __enter__(self) -> Snapshot:
        self._reading = contextlib.ExitStack()
        self.engine = self._reading.enter_context(store.snapshot(self.engine))
        return self

    def __exit__(self, *exc) -> None:
        reading, self._reading = self._reading, None
        if reading is not None:
            reading.close()

    def _once(self, key, read: Callable[[], Any]):
        if self._like is not None and (key[0] if isinstance(key, tuple) else key) in _SAME:
            return self._like._once(key, read)
        if key not in self._kept:
            with self._lock:
                if key not in self._kept:
                    self._kept[key] = read()
        return self._kept[key]

    @property
    def settings(self) -> Settings:
        return self._once("settings", lambda: store.typed_settings(self.engine))

    @property
    def players(self) -> pd.DataFrame:
        return self._once("players", lambda: store.players(self.engine, actor=self.actor))

    @property
    def names(self) -> pd.DataFrame:
        """`player_id, name` of every player, `name` being the nickname: the name the public
        knows (R22), so every frame built from it (scores, standings, statistics, finals) can
        be shown to anyone. The same in every view: from `like` if given."""
        if self._like is not None:
            return self._like.names
        return self._once("names", lambda: self.players[["player_id", "nickname"]]
                          .rename(columns={"nickname": "name"}))

    @property
    def absences(self) -> pd.DataFrame:
        return self._once("absences", lambda: store.absences(self.engine))

    @property
    def bookings(self) -> pd.DataFrame:
        """Every qualifier sitting's booking list (R25, `store.bookings`)."""
        return self._once("bookings", lambda: store.bookings(self.engine))

    @property
    def planned_starts(self) -> pd.DataFrame:
        """The qualifier sittings' planned starts (R25, R26, `store.planned_starts`)."""
        return self._once("planned_starts", lambda: store.planned_starts(self.engine))

    @property
    def sittings(self) -> pd.DataFrame:
        return self._once("sittings", lambda: store.sittings(self.engine, actor=self.actor))

    def sitting(self, sitting_id: int) -> Sitting:
        """One sitting (a row of `sittings`); `NotFound` if there is none."""
        rows = self.sittings.loc[self.sittings["sitting_id"] == int(sitting_id)]
        if rows.empty:
            # raised, never kept: in the language of the run that asked
            raise store.NotFound(_("There is no sitting with id {id}.").format(id=sitting_id))
        return Sitting.of(rows.iloc[0])

    def current(self) -> Sitting | None:
        """The sitting being played or about to be, of those this snapshot's actor may see
        (R20): the latest not yet complete, else the latest; None before the first draw."""
        return current_of(self.sittings)

    def latest(self, kind: Kind) -> Sitting | None:
        """The latest sitting of `kind`, or None."""
        rows = self.sittings.loc[self.sittings["kind"] == kind]
        return Sitting.of(rows.iloc[-1]) if len(rows) else None

    def tables(self, *, kind: Kind | None = None) -> pd.DataFrame:
        """Tables of every sitting (of `kind`), as `store.tables`."""
        self.sittings  # noqa: B018 - read first (see the module's docstring)
        return self._once(("tables", kind), lambda: store.tables(
            self.engine, kind=kind, actor=self.actor))

    def seats(self, *, kind: Kind | None = None) -> pd.DataFrame:
        """Seats of every sitting (of `kind`), as `store.seats`."""
        self.sittings  # noqa: B018 - read first
        return self._once(("seats", kind), lambda: store.seats(
            self.engine, kind=kind, actor=self.actor))

    def sitting_seats(self, sitting_id: int) -> pd.DataFrame:
        """The seats of one sitting (read alone: a page shows one sitting of many)."""
        return self._once(("sitting_seats", int(sitting_id)), lambda: store.seats(
            self.engine, int(sitting_id), actor=self.actor))

    def sitting_tables(self, sitting_id: int) -> pd.DataFrame:
        """The tables of one sitting (read alone, like `sitting_seats`)."""
        return self._once(("sitting_tables", int(sitting_id)), lambda: store.tables(
            self.engine, int(sitting_id), actor=self.actor))

    def table(self, table_id: int) -> pd.DataFrame:
        """One table (a `store.tables` row; none if there is no such table)."""
        return self._once(("table", int(table_id)), lambda: store.tables(
            self.engine, table_id=int(table_id), actor=self.actor))

    def table_seats(self, table_id: int) -> pd.DataFrame:
        """The seats of one table, with its sitting's `kind` and `sitting_no`."""
        return self._once(("table_seats", int(table_id)), lambda: store.seats(
            self.engine, table_id=int(table_id), actor=self.actor))

    def setup_counts(self, *, include_drawn: bool = False) -> dict[str, int]:
        """R6: uses of each setup by the qualifier tables so far (`store.setup_counts`)."""
        self.sittings  # noqa: B018 - read first
        return self._once(("setup_counts", include_drawn), lambda: store.setup_counts(
            self.engine, include_drawn=include_drawn))

    @property
    def results(self) -> pd.DataFrame:
        """Every stored result, of every kind of sitting (`store.results`)."""
        self.sittings  # noqa: B018 - read first
        if self._like is not None:
            return self._like.results
        return self._once("results", self._read_results)

    def results_of(self, kind: Kind | None) -> pd.DataFrame:
        """The results of one kind of sitting (all of them for None)."""
        if kind is None:
            return self.results
        return self.results.loc[self.results["kind"] == kind].reset_index(drop=True)


def current_of(sittings: pd.DataFrame) -> Sitting | None:
    """`Snapshot.current` of a sittings frame (`store.sittings`)."""
    if sittings.empty:
        return None
    open_ = sittings.loc[sittings["status"] != SittingStatus.COMPLETE]
    return Sitting.of((open_ if not open_.empty else sittings).iloc[-1])
