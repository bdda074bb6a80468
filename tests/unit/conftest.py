"""Fixtures for the library tests that need a database but not PostgreSQL: an empty SQLite
tournament, and copies of a demo tournament built once per test session."""

from __future__ import annotations

import shutil

import pytest

from stsa import demo, store
from stsa.auth import Actor, Role

_BUILDER = Actor("Olivia", Role.ORGANIZER)


@pytest.fixture
def sqlite_engine(tmp_path, monkeypatch):
    """An empty tournament in a SQLite file of this test's own; backups beside it."""
    monkeypatch.setenv("STSA_BACKUP_DIR", str(tmp_path / "backups"))
    eng = store.connect(f"sqlite:///{tmp_path / 'stsa.db'}")
    yield eng
    eng.dispose()


@pytest.fixture(scope="session")
def _demo_files(tmp_path_factory):
    """The demo tournament with n qualifier sittings, as a database file made once per n."""
    made = {}

    def file_for(sittings: int):
        if sittings not in made:
            folder = tmp_path_factory.mktemp(f"demo-{sittings}")
            eng = store.connect(f"sqlite:///{folder / 'demo.db'}", backup_dir=folder / "backups")
            store.set_settings(eng, {"auto_backup": False}, actor=_BUILDER)
            demo.load_demo(eng, actor=_BUILDER, sittings=sittings)
            eng.dispose()
            made[sittings] = folder / "demo.db"
        return made[sittings]

    return file_for


@pytest.fixture
def demo_copy(_demo_files, tmp_path):
    """demo_copy(sittings=3) → an engine on this test's own copy of the demo tournament."""
    engines = []

    def open_copy(sittings: int = 3):
        copy = tmp_path / f"demo-{sittings}.db"
        shutil.copyfile(_demo_files(sittings), copy)
        engines.append(store.connect(f"sqlite:///{copy}", backup_dir=tmp_path / "backups"))
        return engines[-1]

    yield open_copy
    for eng in engines:
        eng.dispose()
