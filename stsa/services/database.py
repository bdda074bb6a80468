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


def tournaments(installation: Engine):
    """R27: the installation's tournaments (`store.tournaments`): the one list of them both the
    pages and the web front door read."""
    return store.tournaments(installation)


def open_tournament(installation: Engine, tournament_id: int) -> Engine:
    """R27: an engine on tournament `tournament_id` of the installation, with any finals
    it finished before the last release completed (`store.complete_finished`)."""
    made = store.open_tournament(installation, tournament_id)
    store.complete_finished(made)
    return made


def shown_first(engine: Engine) -> bool:
    """R27: whether a tournament may be the one a new visitor sees: not archived and holding
    players."""
    return store.archived(engine) is None and not store.tournament_is_empty(engine)
