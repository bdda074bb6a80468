"""Shared fixtures: a throwaway PostgreSQL server, and an `engine` fixture that runs every store
test on SQLite and on PostgreSQL."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.appserver import AppServer, started
from tests.support.pg import PgServer, find_bindir

TEMPLATE_DB = "stsa_template"
TESTS = Path(__file__).parent
# Each folder's tier (pytest.ini's markers): make check runs what carries none of them.
FOLDER_MARKS = {"e2e": "e2e", "server": "server", "app": "slow"}  # app: AppTest, 0.3-3 s a test


def pytest_collection_modifyitems(items):
    """Every test under tests/e2e is e2e, under tests/server server, under tests/app slow
    (each runs pages through Streamlit's AppTest); every test that uses the PostgreSQL server
    (`pg_server`, also through `engine` or `two_servers`) is postgres, however it is marked."""
    for item in items:
        folder = Path(item.path).relative_to(TESTS).parts[0] if TESTS in Path(item.path).parents \
            else None
        if folder in FOLDER_MARKS:
            item.add_marker(FOLDER_MARKS[folder])
        if "pg_server" in getattr(item, "fixturenames", ()):
            item.add_marker("postgres")


@pytest.fixture(scope="session")
def pg_server():
    """A PostgreSQL server for the session, with a template database holding the STSA schema.

    Skipped when Debian's PostgreSQL binaries are missing, except in CI (env CI set), where
    that fails: no store test is skipped in CI.
    """
    bindir = find_bindir()
    if bindir is None:
        reason = ("PostgreSQL server binaries not found under /usr/lib/postgresql/*/bin: "
                  "install Debian's postgresql package (make test does it as root)")
        if os.environ.get("CI"):
            pytest.fail(reason + "; no store test is skipped in CI", pytrace=False)
        pytest.skip(reason)
    server = PgServer(bindir)
    try:
        server.start()
        from stsa import store

        server.admin(f"CREATE DATABASE {TEMPLATE_DB}")
        engine = store.connect(server.url(TEMPLATE_DB), backup_dir=server.root / "backups")
        engine.dispose()
        yield server
    finally:
        server.stop()


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def engine_url(request, tmp_path):
    """A fresh, empty STSA database URL: a SQLite file, or a new PostgreSQL database."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'stsa.db'}"
        return
    server = request.getfixturevalue("pg_server")
    name = server.create_database(template=TEMPLATE_DB)
    try:
        yield server.url(name)
    finally:
        server.drop_database(name)


@pytest.fixture
def engine(engine_url, tmp_path):
    """`store.connect()` on a fresh database (SQLite and PostgreSQL); backups go to tmp_path."""
    from stsa import store

    eng = store.connect(engine_url, backup_dir=tmp_path / "backups")
    try:
        yield eng
    finally:
        eng.dispose()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A running app (tests/support/appserver.py) with a fresh database, shared by a test module."""
    from tests.support.appserver import started

    with started(tmp_path_factory.mktemp("app")) as app:
        yield app


@pytest.fixture
def fresh_server(tmp_path):
    """A running app with a database of this test's own (an empty start, or a test that gets
    PINs wrong: they are counted per database)."""
    from tests.support.appserver import started

    with started(tmp_path / "app") as app:
        yield app


@pytest.fixture
def counted_server(tmp_path):
    """A running app with a database of this test's own that logs each script run it starts
    (`AppServer.script_runs`): a live page's test counts the Python runs it costs."""
    from tests.support.appserver import started

    with started(tmp_path / "app", count_runs=True) as app:
        yield app


@pytest.fixture
def two_servers(pg_server, tmp_path) -> Iterator[tuple[AppServer, AppServer]]:
    """Two app processes serving one new PostgreSQL database (the cluster's tests, the clock
    seen from two processes)."""
    name = pg_server.create_database(template=TEMPLATE_DB)
    url = pg_server.url(name)
    try:
        with started(tmp_path / "a", database_url=url) as a, \
                started(tmp_path / "b", database_url=url) as b:
            yield a, b
    finally:
        pg_server.drop_database(name)
