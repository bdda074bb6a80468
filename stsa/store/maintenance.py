"""What the store does by itself around a person's action, above the modules that write: it
completes the sittings left finished when a database opens, and writes the automatic backups
after a publish and after a sitting completes (R19).

These are the store's public `connect`, `publish_sitting`, `complete_sitting`,
`submit_table_result` and `restore`: the database step of each (`db.open_engine`,
`draws.mark_published`, `draws.mark_complete`, `game_results.save_table_result`,
`archive.restore`) followed by the steps it brings with it. `db` stays engines and
transactions, and `draws` never reaches for the backups.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from sqlalchemy.engine import Engine

from stsa.auth import Actor
from stsa.store import archive, db, draws, game_results, sitting_reads, tournaments
from stsa.store.game_results import TableResult


def _back_up_completed(engine: Engine, sitting_id: int) -> None:
    s = sitting_reads.sitting(engine, sitting_id)
    archive.auto_backup(engine, f"complete-{s['kind']}-{s['number']}")


def complete_finished(engine: Engine) -> list[int]:
    """Complete every published sitting whose tables all have results, each logged as done by
    STSA and backed up (R19); the ids completed."""
    done = draws.complete_finished(engine)
    for sitting_id in done:
        _back_up_completed(engine, sitting_id)
    return done


def connect(url: str | None = None, *, tournament: int | str | None = None,
            backup_dir: str | os.PathLike | None = None) -> Engine:
    """Open the tournament database, creating or upgrading its schema (R19), and complete the
    sittings whose tables all have results (a process stopped between a last result and its
    completion leaves one behind); returns the Engine.

    R27: `url` is the installation's database; `tournament` (its id or address key) chooses
    one of its tournaments, once, for every call made with the engine. None: the only one, or
    the installation's own (the one a database of an earlier release held); with several and
    no own one, `TournamentError` lists their keys.

    `url` defaults to env `STSA_DATABASE_URL`, else `sqlite:///data/stsa.db` in the repository
    (the folder is created). SQLite files must pass `PRAGMA integrity_check`, else
    `CorruptDatabase` says to restore a backup. Automatic backups go to `backup_dir`, else env
    `STSA_BACKUP_DIR`, else a `backups` folder beside the SQLite file (`data/backups` for
    PostgreSQL). A database made by an earlier schema version is upgraded, never rebuilt.
    """
    installation = db.open_engine(url, backup_dir=backup_dir)
    try:
        own = tournaments.register_own(installation)
        db.bind_tournament(installation, own)
        engine = tournaments.open_tournament(installation, tournament)
    except BaseException:
        installation.dispose()
        raise
    try:
        complete_finished(engine)
    except BaseException:
        engine.dispose()
        raise
    return engine


def publish_sitting(engine: Engine, sitting_id: int, *, actor: Actor) -> sitting_reads.SittingRow:
    """Publish a drawn sitting: spectators now see it (R20) and judges can enter results.

    Organizer only; logged (R19); then an automatic backup is written (unless the
    `auto_backup` setting is off). Returns the sitting.
    """
    out = draws.mark_published(engine, sitting_id, actor=actor)
    archive.auto_backup(engine, f"published-{out['kind']}-{out['number']}")
    return out


def complete_sitting(engine: Engine, sitting_id: int, *, actor: Actor) -> sitting_reads.SittingRow:
    """Mark a sitting complete (organizer, R20); refused, naming the tables, while any table
    lacks a result. Sittings also complete by themselves with their last result. Logged and
    backed up (R19). Returns the sitting."""
    out, completed = draws.mark_complete(engine, sitting_id, actor=actor)
    if completed:
        _back_up_completed(engine, out["sitting_id"])
    return out


def submit_table_result(engine: Engine, table_id: int, rows: Any, *, expected_version: int,
                        submission_id: str | None, actor: Actor, **where: Any) -> TableResult:
    """Save a table's result: one row per seated player with `player_id, leader, vp, spice,
    solari, troops, water`, optional `variant_points` (default 0) and `tiebreak` (R11-R13).

    Judges and the organizer only (R20). `expected_version` is the version the form showed (0
    for a first result): if another save came first, `ConflictError` carries the stored rows,
    version, who and when, and nothing is overwritten. The same `submission_id` twice is stored
    once; the second call returns the first outcome (`duplicate=True`). A correction
    (`expected_version` ≥ 1) is a new version; the previous rows stay in the log (R19). Every
    bad value is named by seat and field, and nothing is saved; so is a full tie without a
    settled order (players equal on VP, spice, solari, troops and water need different
    `tiebreak`s, 1 placing highest, R11). The sitting completes (and is backed up) with its
    last table's first result.

    `where` are the checks of where the save lands (R19, R20): `seating`, `confirm_complete`,
    `confirm_after_finals`, `finals_note`, and `over_theirs` for a save chosen over another
    judge's (see `game_results.save_table_result`). The saver's unsaved entry for the table
    (`store.drafts`) goes with the save.
    """
    out = game_results.save_table_result(engine, table_id, rows,
                                         expected_version=expected_version,
                                         submission_id=submission_id, actor=actor, **where)
    if out.completed_sitting and not out.duplicate:
        assert out.sitting_id is not None  # a save knows its table's sitting
        _back_up_completed(engine, out.sitting_id)
    return out


def restore(engine: Engine, path: str | os.PathLike, *, actor: Actor) -> dict:
    """Replace the tournament with the one in backup file `path` (organizer only, R20).

    The file is checked first (`NotABackup` if it is not an STSA backup; older versions are
    upgraded on a copy). R19: the current state is backed up before it is replaced, and the
    restore is logged naming both files; a sitting the backup left published with every table
    reported is then completed. PINs and sessions are this installation's: kept. Returns
    `restored_from`, `safety_backup` (paths) and `rows` (how many were restored).
    """
    out = archive.restore(engine, Path(path), actor=actor)
    complete_finished(engine)
    return out
