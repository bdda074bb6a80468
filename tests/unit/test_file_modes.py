"""The tournament's files are their owner's only: a SQLite database STSA creates (with its -wal
and -shm files) and every backup are 0600, the folders STSA creates for them 0700, whatever
the umask. They hold PIN hashes, sessions and the whole tournament."""

from __future__ import annotations

import os
import stat
from contextlib import contextmanager

import pytest

from stsa import store
from tests.support.store_helpers import ORGANIZER, add_players


def mode(path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@contextmanager
def umask(value: int):
    """The process's umask set to `value` (0 = everything readable by everyone) meanwhile."""
    old = os.umask(value)
    try:
        yield
    finally:
        os.umask(old)


@pytest.mark.parametrize("mask", [0o022, 0o000])
def test_a_new_database_and_its_folder_are_the_owner_s_only(tmp_path, mask):
    folder = tmp_path / "venue" / "data"
    with umask(mask):
        engine = store.connect(f"sqlite:///{folder / 'stsa.db'}", backup_dir=tmp_path / "b")
    try:
        add_players(engine, 4)  # a write: the -wal and -shm files are there now
        files = {p.name: mode(p) for p in folder.iterdir()}
        assert files == {"stsa.db": 0o600, "stsa.db-wal": 0o600, "stsa.db-shm": 0o600}
        assert mode(folder) == 0o700
    finally:
        engine.dispose()


def test_a_database_made_by_an_earlier_release_is_narrowed_when_opened(tmp_path):
    os.chmod(tmp_path, 0o755)
    path = tmp_path / "stsa.db"
    engine = store.connect(f"sqlite:///{path}", backup_dir=tmp_path / "b")
    add_players(engine, 2)
    engine.dispose()
    os.chmod(path, 0o644)
    engine = store.connect(f"sqlite:///{path}", backup_dir=tmp_path / "b")
    try:
        assert mode(path) == 0o600 and len(store.players(engine)) == 2
        assert mode(tmp_path) == 0o755, "a folder STSA did not create keeps its mode"
    finally:
        engine.dispose()


@pytest.mark.parametrize("mask", [0o022, 0o000])
def test_every_backup_and_a_new_backup_folder_are_the_owner_s_only(engine, tmp_path, mask):
    add_players(engine, 4)
    folder = tmp_path / "new" / "backups"
    with umask(mask):
        manual = store.backup(engine, folder)
        automatic = store.backup(engine, folder, label="after-publish")
    assert mode(folder) == 0o700
    assert {p.name: mode(p) for p in folder.iterdir()} == {manual.name: 0o600,
                                                          automatic.name: 0o600}


def test_the_backup_before_a_restore_is_the_owner_s_only(sqlite_engine, tmp_path):
    add_players(sqlite_engine, 4)
    with umask(0):
        first = store.backup(sqlite_engine)
        restored = store.restore(sqlite_engine, first, actor=ORGANIZER)
    assert mode(restored["safety_backup"]) == 0o600 and mode(first.parent) == 0o700
