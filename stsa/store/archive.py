"""Backups to timestamped SQLite files, and restoring from one (R19).

A SQLite database is copied with SQLite's online backup API (judges may keep saving while it
runs); a PostgreSQL database is copied table by table, in one snapshot, into a SQLite file of
the same schema. Either file is an STSA database: it can be restored into SQLite or PostgreSQL,
or opened directly with `connect("sqlite:///…")`. The automatic backups after a publish and a
completed sitting are taken by `stsa.store.maintenance` through `auto_backup`.
"""

from __future__ import annotations

import datetime as dt
import logging
import os
import re
import shutil
import sqlite3
import tempfile
from pathlib import Path

import pandas as pd
import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from stsa.auth import Actor, require
from stsa.domain import Action, Role, TournamentError
from stsa.i18n import N_, _
from stsa.store import audit, db, frames, schema
from stsa.store.errors import NotABackup

log = logging.getLogger(__name__)

PREFIX = "stsa-"
SQLITE_HEADER = b"SQLite format 3\x00"
# PINs, sessions, failed sign-ins, trusted devices, invitations and handoff codes belong to this
# installation (schema.ACCESS_TABLES): never in a backup, never restored.
KEEP_ON_RESTORE = ("schema_version", *(t.name for t in schema.INSTALLATION_TABLES))


def _stamp() -> str:
    return dt.datetime.now(dt.UTC).strftime("%Y%m%d-%H%M%S-%f")


def _safe_label(label: str) -> str:
    return re.sub(r"[^A-Za-z0-9_-]+", "-", label).strip("-")[:60] or "manual"


def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _drop_access_rows(target: sqlite3.Connection) -> None:
    """A backup holds no PIN hash, session, failed sign-in, device, invitation or handoff code
    (`schema.ACCESS_TABLES`): delete them from the copy, then VACUUM so no deleted page keeps
    their bytes."""
    for table in schema.ACCESS_TABLES:
        target.execute(f"DELETE FROM {table.name}")  # names from our own schema
    target.commit()
    target.execute("VACUUM")


def _copy_sqlite(engine: Engine, dest: Path) -> None:
    raw = engine.raw_connection()
    try:
        target = sqlite3.connect(dest)
        try:
            raw.driver_connection.backup(target)  # type: ignore[union-attr]
            _drop_access_rows(target)
            target.execute("PRAGMA journal_mode = DELETE")  # one self-contained file
            target.commit()
        finally:
            target.close()
    finally:
        raw.close()


def _copy_tables(source: Connection, dest: Path) -> None:
    """Copy every STSA table from `source` into a new SQLite file of the same schema."""
    target = sa.create_engine(f"sqlite:///{dest}", poolclass=sa.pool.NullPool)
    try:
        with target.begin() as out:
            schema.metadata.create_all(out)
            for table in schema.TABLE_ORDER:
                if table in schema.ACCESS_TABLES:
                    continue
                result = source.execute(sa.select(table))
                while chunk := result.fetchmany(1000):
                    out.execute(sa.insert(table), [dict(r._mapping) for r in chunk])
    finally:
        target.dispose()


def backup(engine: Engine, dest_dir: str | os.PathLike | None = None, *,
           label: str = "manual") -> Path:
    """Write a consistent copy of the whole tournament to `dest_dir` (default: the engine's
    backup folder, see `connect`) as `stsa-YYYYmmdd-HHMMSS-ffffff-<label>.db`; returns its path.

    R19: the file appears complete or not at all (written aside, flushed, then renamed). It is
    its owner's only (0600, from its first byte), in a folder that STSA creates 0700.
    """
    folder = Path(dest_dir) if dest_dir is not None else db.backup_dir(engine)
    if not folder.exists():
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        db.owner_only(folder, 0o700)
    dest = folder / f"{PREFIX}{_stamp()}-{_safe_label(label)}.db"
    part = dest.with_name(dest.name + ".part")
    part.unlink(missing_ok=True)
    try:
        os.close(os.open(part, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))  # SQLite fills it
        db.owner_only(part)
        if db.is_sqlite(engine):
            _copy_sqlite(engine, part)
        else:
            with db.reading(engine) as conn:
                _copy_tables(conn, part)
        with open(part, "rb") as f:
            os.fsync(f.fileno())
        os.replace(part, dest)
        _fsync_dir(folder)
    finally:
        part.unlink(missing_ok=True)
    return dest


def auto_backup(engine: Engine, label: str) -> Path | None:
    """The automatic backup after a publish or a completed sitting, if the `auto_backup`
    setting is on. A failure is logged, not raised: what was saved stays saved."""
    try:
        with db.reading(engine) as conn:
            value = conn.execute(sa.select(schema.settings.c.value)
                                 .where(schema.settings.c.key == "auto_backup")).scalar()
        if value is not None and not frames.loads(value):
            return None
        return backup(engine, label=label)
    except Exception:  # a failed backup must not undo a saved result
        log.exception("STSA: automatic backup %r failed", label)
        return None


def backups(engine: Engine, dest_dir: str | os.PathLike | None = None) -> pd.DataFrame:
    """Backup files in the backup folder, newest first: `name, path, size, modified` (R19)."""
    folder = Path(dest_dir) if dest_dir is not None else db.backup_dir(engine)
    rows = []
    if folder.is_dir():
        for p in folder.glob(f"{PREFIX}*.db"):
            st = p.stat()
            rows.append({"name": p.name, "path": p, "size": st.st_size,
                         "modified": dt.datetime.fromtimestamp(st.st_mtime, dt.UTC)})
    frame = pd.DataFrame(rows, columns=["name", "path", "size", "modified"])
    return frame.sort_values("name", ascending=False, ignore_index=True)


def _check_backup(path: Path) -> int:
    """The schema version of an STSA backup file, or `NotABackup` saying what is wrong."""
    if not path.is_file():
        raise NotABackup(_("{file} does not exist or is not a file.").format(file=path.name))
    with open(path, "rb") as f:
        if f.read(16) != SQLITE_HEADER:
            raise NotABackup(_("{file} is not an STSA backup: it is not a SQLite database.")
                             .format(file=path.name))
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            check = [r[0] for r in conn.execute("PRAGMA integrity_check")]
            names = {r[0] for r in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'")}
            version = (conn.execute("SELECT MAX(version) FROM schema_version").fetchone()[0]
                       if "schema_version" in names else None)
        finally:
            conn.close()
    except sqlite3.DatabaseError as exc:
        raise NotABackup(_("{file} cannot be read as an STSA backup ({problem}).")
                         .format(file=path.name, problem=exc)) from exc
    if check != ["ok"]:
        raise NotABackup(_("{file} is damaged (integrity check: {problems}).")
                         .format(file=path.name, problems="; ".join(check[:3])))
    missing = sorted(set(schema.metadata.tables) - names - set(KEEP_ON_RESTORE))
    if version is None or missing:
        if missing:
            raise NotABackup(_("{file} is not an STSA backup (it lacks {tables}).")
                             .format(file=path.name, tables=", ".join(missing)))
        raise NotABackup(_("{file} is not an STSA backup (it lacks a schema version).")
                         .format(file=path.name))
    if version > schema.SCHEMA_VERSION:
        raise NotABackup(_("{file} was made by a newer STSA (schema version {version}).")
                         .format(file=path.name, version=version))
    return version


def _read_backup(path: Path) -> dict[str, list[dict]]:
    """The tournament rows of backup file `path` (checked first), read from a copy that is
    upgraded to this schema version if it is older; PINs and sessions left out."""
    _check_backup(path)
    with tempfile.TemporaryDirectory(prefix="stsa-restore-") as tmp:
        copy = Path(tmp) / "restore.db"
        shutil.copyfile(path, copy)
        source = db.open_engine(f"sqlite:///{copy}", backup_dir=tmp)  # upgrades an older copy
        try:
            with db.reading(source) as conn:
                return {t.name: [dict(r._mapping) for r in conn.execute(sa.select(t))]
                        for t in schema.TABLE_ORDER if t.name not in KEEP_ON_RESTORE}
        finally:
            source.dispose()


def empty_tournament(conn: Connection) -> None:
    """Delete the tournament's rows, children first; the installation's stay (R27: a deleted
    tournament of the installation's own database, after its backup)."""
    for table in reversed(schema.TABLE_ORDER):
        if table.name not in KEEP_ON_RESTORE:
            conn.execute(sa.delete(table))


def _replace_rows(conn: Connection, data: dict[str, list[dict]]) -> int:
    """Delete the tournament's rows and write `data`'s, parents first; how many were written."""
    empty_tournament(conn)
    total = 0
    for table in schema.TABLE_ORDER:
        rows = data.get(table.name)
        if rows:
            for start in range(0, len(rows), 1000):
                conn.execute(sa.insert(table), rows[start:start + 1000])
            total += len(rows)
    db.advance_sequences(conn, schema.ID_TABLES)
    return total


def restore(engine: Engine, path: str | os.PathLike, *, actor: Actor) -> dict:
    """Replace the tournament with the one in backup file `path` (organizer only, R20).

    The file is checked first (`NotABackup` if it is not an STSA backup; older versions are
    upgraded on a copy). R19: the current state is backed up before it is replaced, and the
    restore is logged naming both files. PINs and sessions are this installation's: kept.
    Returns `restored_from`, `safety_backup` (paths) and `rows` (how many were restored).
    `store.restore` also completes the sittings the backup left finished.
    """
    require(actor, Role.ORGANIZER, action=N_("restore backups"))
    path = Path(path)
    data = _read_backup(path)
    safety = backup(engine, label="before-restore")

    def work(conn: Connection) -> int:
        total = _replace_rows(conn, data)
        audit.new_epoch(conn)
        audit.log(conn, actor, Action.BACKUP_RESTORE, "tournament",
               after={"restored_from": path.name, "safety_backup": safety.name, "rows": total})
        return total

    try:
        total = db.write(engine, work)
    except sa.exc.IntegrityError as exc:
        raise TournamentError(_("{file} could not be restored ({problem}); nothing changed.")
                              .format(file=path.name, problem=exc.orig)) from exc
    return {"restored_from": path, "safety_backup": safety, "rows": total}
