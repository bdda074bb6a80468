"""The database an app serves (DESIGN.md, "Data"): its default address (the SQLite file in
data/), connecting to it (created, upgraded and checked), the tournament an engine holds, and
a process's hook on every write it commits (what moves the shared reads' data versions)."""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy.engine import Connection, Engine

from stsa import store


def default_url() -> str:
    """The database used when none is named: the SQLite file in data/."""
    return store.db.default_url()


def connect(url: str) -> Engine:
    """An engine on the database at `url`, created or upgraded and checked
    (`store.connect`)."""
    return store.connect(url)


def tournament_id(engine: Engine | Connection) -> int | None:
    """The id of the tournament `engine` holds in its installation's list, if known."""
    return store.db.tournament_id(engine)


def on_write(callback: Callable[[Engine], None]) -> None:
    """Call `callback(engine)` after every write this process commits (once per callback)."""
    store.db.on_write(callback)
