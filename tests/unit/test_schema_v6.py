"""Schema version 6 (R25, R26): a version-5 tournament file opens with nothing lost and gains
the schedule, the clock, the booking lists and self check-in."""

from __future__ import annotations

import datetime as dt

import sqlalchemy as sa

from stsa import store
from stsa.store import schema
from tests.support.store_helpers import ORGANIZER, VERSION_6_TABLES, drop_version_7


def _version_5_file(tmp_path) -> str:
    url = f"sqlite:///{tmp_path / 'old.db'}"
    engine = store.connect(url, backup_dir=tmp_path / "b")
    store.add_player(engine, "Ann Lee", actor=ORGANIZER)
    store.check_in(engine, store.players(engine)["player_id"].tolist(), actor=ORGANIZER)
    engine.dispose()
    old = sa.create_engine(url)
    with old.begin() as conn:
        drop_version_7(conn)
        for table in VERSION_6_TABLES:
            conn.exec_driver_sql(f"DROP TABLE {table}")
        conn.exec_driver_sql("ALTER TABLE players DROP COLUMN self_check_in")
        conn.execute(sa.delete(schema.schema_version))
        conn.execute(sa.insert(schema.schema_version).values(
            version=5, applied_at=dt.datetime.now(dt.UTC)))
    old.dispose()
    return url


def test_a_version_5_file_opens_with_its_players_and_the_new_tables(tmp_path):
    url = _version_5_file(tmp_path)
    engine = store.connect(url, backup_dir=tmp_path / "b")
    try:
        players = store.players(engine)
        assert players["name"].tolist() == ["Ann Lee"] and players["checked_in"].all()
        with engine.connect() as conn:
            names = set(sa.inspect(conn).get_table_names())
            assert set(VERSION_6_TABLES) <= names
            assert conn.execute(sa.select(schema.players.c.self_check_in)).scalars().all() == [
                False]
            assert conn.execute(sa.select(sa.func.max(schema.schema_version.c.version))
                                ).scalar() == schema.SCHEMA_VERSION
    finally:
        engine.dispose()
