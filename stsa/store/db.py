"""Engines and transactions: the plumbing under every store function.

It imports nothing of the store above it (only the schema, its upgrades and the errors): what
the store does by itself once a database is open (completing finished sittings, automatic
backups) lives in `stsa.store.maintenance`; frames and JSON columns in `stsa.store.frames`, the
audit log and the data version in `stsa.store.audit`, schema upgrades in
`stsa.store.migrations`.

SQLite (the default, `data/stsa.db`): WAL, `busy_timeout`, foreign keys on, `synchronous=FULL`
on every connection; every write runs in `BEGIN IMMEDIATE`, so writers queue instead of failing
halfway, and readers never wait. PostgreSQL (through `STSA_DATABASE_URL`): writes lock the rows
they check (`SELECT … FOR UPDATE`) and serialization failures are retried.
"""

from __future__ import annotations

import datetime as dt
import os
import random
import re
import sqlite3
import stat
import time
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.engine import Connection, Engine

from stsa.auth import Actor
from stsa.domain import SYSTEM_NAME, Role, TournamentError
from stsa.i18n import N_, _
from stsa.store import migrations
from stsa.store.errors import CorruptDatabase, NotFound

T = TypeVar("T")

REPO_ROOT = Path(__file__).resolve().parents[2]
URL_ENV = "STSA_DATABASE_URL"
BACKUP_DIR_ENV = "STSA_BACKUP_DIR"
BUSY_TIMEOUT_SECONDS = 10
WRITE_ATTEMPTS = 6

SYSTEM = Actor(SYSTEM_NAME, Role.ORGANIZER)  # who the log names for what STSA does by itself
_backup_dirs: weakref.WeakKeyDictionary[Engine, Path] = weakref.WeakKeyDictionary()
_installations: weakref.WeakKeyDictionary[Engine, Engine] = weakref.WeakKeyDictionary()
_tournament_ids: weakref.WeakKeyDictionary[Engine, int] = weakref.WeakKeyDictionary()
PG_SCHEMA = re.compile(r"stsa_t[0-9]{1,9}")  # a tournament's own schema on PostgreSQL (R27)


def now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def default_url() -> str:
    return f"sqlite:///{REPO_ROOT / 'data' / 'stsa.db'}"


def is_sqlite(engine_or_conn: Engine | Connection) -> bool:
    return engine_or_conn.dialect.name == "sqlite"


# -- engines ---------------------------------------------------------------------------------
def _sqlite_on_connect(dbapi_conn, _record) -> None:
    # STSA emits BEGIN itself (see _sqlite_on_begin); the driver must not.
    dbapi_conn.isolation_level = None
    cur = dbapi_conn.cursor()
    try:
        cur.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_SECONDS * 1000}")
        cur.execute("PRAGMA journal_mode = WAL")
        cur.execute("PRAGMA foreign_keys = ON")
        cur.execute("PRAGMA synchronous = FULL")
    finally:
        cur.close()


def _sqlite_on_begin(conn: Connection) -> None:
    # Reads take a deferred snapshot; writes take the write lock up front, so a transaction
    # that reads a version and then writes cannot be overtaken in between.
    if conn.get_execution_options().get("stsa_read"):
        conn.exec_driver_sql("BEGIN")
    else:
        conn.exec_driver_sql("BEGIN IMMEDIATE")


def owner_only(path: Path, mode: int = 0o600) -> None:
    """Narrow `path` to its owner (0600 for a file, 0700 for a folder) if it exists: PIN
    hashes, sessions and the tournament are nobody else's on a shared laptop. A file system
    without modes (a USB stick) or a file of another user keeps what it has."""
    try:
        if stat.S_IMODE(path.stat().st_mode) != mode:
            os.chmod(path, mode)
    except OSError:
        pass


def _private_sqlite_file(db_file: Path) -> None:
    """Create the database file (and its folder, 0700) empty and 0600 before SQLite opens it,
    so it is never readable by others, not even for a moment; SQLite gives its -wal and -shm
    files the database file's mode. A database file that exists is narrowed to 0600 too (one
    made by an earlier release was readable by everyone)."""
    if not db_file.parent.exists():
        db_file.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        owner_only(db_file.parent, 0o700)
    try:
        os.close(os.open(db_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except OSError:  # it exists, or cannot be made here: SQLite says so as before
        pass
    for suffix in ("", "-wal", "-shm", "-journal"):
        owner_only(db_file.with_name(db_file.name + suffix))


def _sqlite_engine(u: sa.URL) -> tuple[Engine, Path]:
    """An engine on a SQLite file (the folder is created; both its owner's only) and its
    default backup folder."""
    path = u.database
    if not path or path == ":memory:" or path.startswith("file:"):
        raise TournamentError(_("STSA needs a SQLite database file, e.g. "
                                "sqlite:///data/stsa.db."))
    db_file = Path(path).resolve()
    _private_sqlite_file(db_file)
    engine = sa.create_engine(u.set(database=str(db_file)),
                              connect_args={"timeout": BUSY_TIMEOUT_SECONDS},
                              pool_size=10, max_overflow=20)
    event.listen(engine, "connect", _sqlite_on_connect)
    event.listen(engine, "begin", _sqlite_on_begin)
    return engine, db_file.parent / "backups"


def _postgres_engine(u: sa.URL, pg_schema: str | None = None) -> tuple[Engine, Path]:
    """An engine on a PostgreSQL database (on its schema `pg_schema`, made if missing: one
    tournament of several, R27) and its default backup folder."""
    if u.drivername == "postgresql":  # the driver STSA ships with
        u = u.set(drivername="postgresql+psycopg")
    # lock_timeout: a writer waits for a row lock as long as SQLite's busy_timeout
    options = f"-c lock_timeout={BUSY_TIMEOUT_SECONDS * 1000}"
    if pg_schema is not None:
        if not PG_SCHEMA.fullmatch(pg_schema):
            raise CorruptDatabase(_("{schema} is not the schema of an STSA tournament.").format(
                schema=repr(pg_schema)))
        maker = sa.create_engine(u, connect_args={"options": options})
        try:
            with maker.begin() as conn:
                conn.exec_driver_sql(f"CREATE SCHEMA IF NOT EXISTS {pg_schema}")
        finally:
            maker.dispose()
        # every table STSA names unqualified is then the tournament's own
        options += f" -c search_path={pg_schema}"
    engine = sa.create_engine(u, pool_pre_ping=True, pool_size=10, max_overflow=20,
                              connect_args={"options": options})
    return engine, REPO_ROOT / "data" / "backups"


def open_engine(url: str | None = None, *, backup_dir: str | os.PathLike | None = None,
                pg_schema: str | None = None) -> Engine:
    """Open the tournament database, creating or upgrading its schema; returns the Engine.

    Only the database itself: `stsa.store.connect` (in `stsa.store.maintenance`) opens it with
    this and then completes sittings left finished. `url` defaults to env `STSA_DATABASE_URL`,
    else `sqlite:///data/stsa.db` in the repository (the folder is created). SQLite files must
    pass `PRAGMA integrity_check`, else `CorruptDatabase` says to restore a backup. Automatic
    backups go to `backup_dir`, else env `STSA_BACKUP_DIR`, else a `backups` folder beside the
    SQLite file (`data/backups` for PostgreSQL). R19: a database made by an earlier schema
    version is upgraded, never rebuilt. `pg_schema`: the PostgreSQL schema of one tournament of
    several (R27; `stsa.store.tournaments`).
    """
    u = sa.make_url(url or os.environ.get(URL_ENV) or default_url())
    backend = u.get_backend_name()
    if backend == "sqlite":
        engine, default_backups = _sqlite_engine(u)
    elif backend == "postgresql":
        engine, default_backups = _postgres_engine(u, pg_schema)
    else:
        raise TournamentError(_("STSA runs on SQLite or PostgreSQL, not {backend} ({url}).")
                              .format(backend=repr(backend), url=repr(u)))
    chosen = backup_dir or os.environ.get(BACKUP_DIR_ENV) or default_backups
    _backup_dirs[engine] = Path(chosen).resolve()
    try:
        integrity_check(engine)
        write(engine, lambda conn: migrations.upgrade(conn, at=now()))
    except BaseException:
        engine.dispose()
        raise
    return engine


# -- R27: which tournament an engine is, and the installation around it -------------------
def bind_tournament(engine: Engine, tournament_id: int, installation: Engine | None = None,
                    backups: Path | None = None) -> None:
    """Record that `engine` is tournament `tournament_id` of `installation` (None: the engine
    is the installation's own database), with its backups in `backups`."""
    _tournament_ids[engine] = int(tournament_id)
    if installation is not None and installation is not engine:
        _installations[engine] = installation
    if backups is not None:
        _backup_dirs[engine] = backups


def installation(engine: Engine | Connection) -> Engine:
    """The installation's database (PINs, sessions, the list of tournaments) for `engine`:
    the engine itself unless it is one of several tournaments with a database of its own."""
    found = engine.engine if isinstance(engine, Connection) else engine
    return _installations.get(found, found)


def tournament_id(engine: Engine | Connection) -> int | None:
    """The id of the tournament `engine` holds in its installation's list, if known (an engine
    opened by `store.connect`)."""
    found = engine.engine if isinstance(engine, Connection) else engine
    return _tournament_ids.get(found)


def backup_dir(engine: Engine) -> Path:
    """Where automatic backups of this engine's database go (R19)."""
    return _backup_dirs.get(engine) or (REPO_ROOT / "data" / "backups")


def integrity_check(engine: Engine) -> None:
    """Raise `CorruptDatabase` unless SQLite's `PRAGMA integrity_check` answers "ok" (R19).
    PostgreSQL checks its own pages; nothing to do there."""
    if not is_sqlite(engine):
        return
    where = engine.url.database
    try:
        with reading(engine) as conn:
            rows = [r[0] for r in conn.exec_driver_sql("PRAGMA integrity_check").fetchall()]
    except sa.exc.DatabaseError as exc:
        if "locked" in str(exc.orig) or "busy" in str(exc.orig):
            raise TournamentError(_("The database file {file} is locked by another program; "
                                    "close it and try again.").format(file=where)) from exc
        raise CorruptDatabase(_(
            "The database file {file} cannot be read ({error}); restore the latest backup or "
            "point STSA_DATABASE_URL at another file.").format(file=where, error=exc.orig)) \
            from exc
    if rows != ["ok"]:
        detail = "; ".join(rows[:5])
        raise CorruptDatabase(_(
            "The database file {file} failed its integrity check ({detail}); restore the "
            "latest backup.").format(file=where, detail=detail))


# -- transactions ----------------------------------------------------------------------------
def _retryable(engine: Engine, exc: sa.exc.DBAPIError) -> bool:
    orig = exc.orig
    if is_sqlite(engine):
        text = str(orig).lower()
        return isinstance(orig, sqlite3.OperationalError) and ("locked" in text or "busy" in text)
    state = getattr(orig, "sqlstate", None)
    # serialization failure, deadlock, lock timeout; a unique key a concurrent transaction took
    return state in ("40001", "40P01", "55P03", "23505")


# Called with the engine after every committed write (`on_write`): the process's caches of
# data versions hear of a write at once instead of at their next read.
_written: list[Callable[[Engine], None]] = []


def on_write(callback: Callable[[Engine], None]) -> None:
    """Call `callback(engine)` after every write committed through `write` in this process
    (once per callback, however often it is registered)."""
    if callback not in _written:
        _written.append(callback)


def write(engine: Engine, work: Callable[[Connection], T], *, attempts: int = WRITE_ATTEMPTS) -> T:
    """Run `work(conn)` in one write transaction: all of it is committed, or none of it.

    Retries when the database reports a transient conflict (a lock timeout on SQLite, a
    serialization failure, deadlock or unique-key race on PostgreSQL); `work` re-reads
    everything it checks, so a retry sees the other transaction's outcome. After the commit,
    every `on_write` callback hears of it.
    """
    for attempt in range(1, attempts + 1):
        try:
            with engine.begin() as conn:
                done = work(conn)
        except sa.exc.DBAPIError as exc:
            if attempt == attempts or not _retryable(engine, exc):
                raise
            time.sleep(random.uniform(0.005, 0.02) * attempt)
            continue
        for callback in _written:
            callback(engine)
        return done
    raise AssertionError("unreachable")


@contextmanager
def reading(engine: Engine | Connection) -> Iterator[Connection]:
    """A read-only transaction that sees one consistent snapshot of the database. Given a
    connection that is already reading (`store.snapshot`), every read runs in that one
    snapshot, so the reads of one user action cannot disagree."""
    if isinstance(engine, Connection):
        yield engine
        return
    with engine.connect() as conn:
        if is_sqlite(engine):
            conn.execution_options(stsa_read=True)
        else:
            conn.execution_options(isolation_level="REPEATABLE READ", postgresql_readonly=True)
        with conn.begin():
            yield conn


# The rows `lock_row` names when they are missing, marked for the catalogs.
ROW_WORDS = (N_("invitation"), N_("overlay"), N_("player"), N_("schedule item"), N_("season"),
             N_("sitting"), N_("table"))


def lock_row(conn: Connection, table: sa.Table, row_id: int, what: str):
    """The row `table.id == row_id`, locked until commit (PostgreSQL; SQLite holds the write
    lock already); `NotFound` names `what` if there is none (a word marked in `ROW_WORDS`)."""
    row = conn.execute(sa.select(table).where(table.c.id == row_id).with_for_update()).first()
    if row is None:
        raise NotFound(_("There is no {what} with id {id}.").format(what=_(what), id=row_id))
    return row


def advance_sequences(conn: Connection, tables) -> None:
    """PostgreSQL: move each table's id sequence past the ids a restore wrote explicitly, so the
    next insert gets a fresh id. SQLite needs nothing."""
    if is_sqlite(conn):
        return
    for table in tables:
        top = conn.execute(sa.select(sa.func.max(table.c.id))).scalar() or 0
        conn.execute(sa.text(
            "SELECT setval(pg_get_serial_sequence(:t, 'id'), GREATEST(:top, COALESCE("
            "pg_sequence_last_value(pg_get_serial_sequence(:t, 'id')::regclass), 0), 1))"),
            {"t": table.name, "top": top})
