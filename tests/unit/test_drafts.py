"""Judges' unsaved result entries in the store (R19): each judge's own, replaced as they type,
gone with their save of the table (in its transaction) and with a voided sitting's tables."""

from __future__ import annotations

import datetime as dt

import pandas as pd
import pytest

from stsa import store
from stsa.domain import TournamentError
from tests.support.store_helpers import (
    JUDGE,
    JUDGE2,
    ORGANIZER,
    VERSION_6_TABLES,
    drop_version_7,
    published_sitting,
    rows_for,
)


@pytest.fixture
def table(sqlite_engine):
    sitting, tables = published_sitting(sqlite_engine, 4)
    tid = int(tables["table_id"].iloc[0])
    ids = store.seats(sqlite_engine, table_id=tid, actor=ORGANIZER)["player_id"].tolist()
    return sqlite_engine, tid, ids, sitting["sitting_id"]


def typed(ids, vp):
    return pd.DataFrame({"player_id": ids, "leader": ["Leader A", None, None, None],
                         "vp": vp, "spice": [1, None, None, None]})


def test_a_draft_is_the_judges_own_and_replaced_as_they_type(table):
    engine, tid, ids, _ = table
    store.save_draft(engine, tid, typed(ids, [9, None, None, None]), base_version=0,
                     seating={1: ids[0]}, actor=JUDGE)
    store.save_draft(engine, tid, typed(ids, [10, 7, None, None]), base_version=0,
                     seating={1: ids[0]}, actor=JUDGE)
    mine = store.draft(engine, tid, actor=JUDGE)
    assert mine.rows["vp"].tolist()[:2] == [10, 7] and pd.isna(mine.rows["vp"][2])
    assert mine.rows["leader"].tolist()[0] == "Leader A" and mine.seating == {1: ids[0]}
    assert store.draft(engine, tid, actor=JUDGE2) is None
    assert store.clear_draft(engine, tid, actor=JUDGE) is True
    assert store.clear_draft(engine, tid, actor=JUDGE) is False


def test_a_save_takes_the_savers_draft_and_leaves_the_others(table):
    engine, tid, ids, _ = table
    for judge in (JUDGE, JUDGE2):
        store.save_draft(engine, tid, typed(ids, [1, 2, 3, 4]), base_version=0, seating={},
                         actor=judge)
    store.submit_table_result(engine, tid, rows_for(engine, tid), expected_version=0,
                              submission_id=None, actor=JUDGE)
    assert store.draft(engine, tid, actor=JUDGE) is None
    assert store.draft(engine, tid, actor=JUDGE2) is not None  # Jasmine's save meets version 1


def test_a_refused_save_keeps_the_draft(table):
    engine, tid, ids, _ = table
    store.save_draft(engine, tid, typed(ids, [1, 2, 3, 4]), base_version=0, seating={},
                     actor=JUDGE)
    with pytest.raises(TournamentError):
        store.submit_table_result(engine, tid, pd.DataFrame(rows_for(engine, tid)).assign(vp=-1),
                                  expected_version=0, submission_id=None, actor=JUDGE)
    assert store.draft(engine, tid, actor=JUDGE) is not None


def test_a_voided_sitting_takes_its_drafts_with_it(table):
    engine, tid, ids, sitting_id = table
    store.save_draft(engine, tid, typed(ids, [1, 2, 3, 4]), base_version=0, seating={},
                     actor=JUDGE)
    store.void_sitting(engine, sitting_id, reason="drawn by mistake", actor=ORGANIZER)
    assert store.draft(engine, tid, actor=JUDGE) is None
    store.save_draft(engine, tid, typed(ids, [1, 2, 3, 4]), base_version=0, seating={},
                     actor=JUDGE)  # a form left open on the voided table keeps nothing
    assert store.draft(engine, tid, actor=JUDGE) is None


def test_a_draft_holds_only_what_a_form_sends(table):
    engine, tid, ids, _ = table
    with pytest.raises(TournamentError, match="names no player"):
        store.save_draft(engine, tid, pd.DataFrame({"vp": [1]}), base_version=0, seating={},
                         actor=JUDGE)
    with pytest.raises(TournamentError, match="at most 8"):
        store.save_draft(engine, tid, pd.DataFrame({"player_id": range(9)}), base_version=0,
                         seating={}, actor=JUDGE)
    store.save_draft(engine, tid, pd.DataFrame({"player_id": [ids[0]], "vp": ["ten"]}),
                     base_version=0, seating={}, actor=JUDGE)
    assert pd.isna(store.draft(engine, tid, actor=JUDGE).rows["vp"][0])


def test_a_version_4_database_gets_the_drafts_table(tmp_path):
    """A tournament file from the release before keeps opening, and takes drafts (R19)."""
    import sqlalchemy as sa

    from stsa.store import schema
    url = f"sqlite:///{tmp_path / 'old.db'}"
    store.connect(url, backup_dir=tmp_path / "b").dispose()
    old = sa.create_engine(url)
    with old.begin() as conn:
        drop_version_7(conn)
        for table in ("result_drafts", *VERSION_6_TABLES):
            conn.exec_driver_sql(f"DROP TABLE {table}")
        conn.exec_driver_sql("ALTER TABLE players DROP COLUMN self_check_in")
        conn.execute(sa.delete(schema.schema_version))
        conn.execute(sa.insert(schema.schema_version).values(
            version=4, applied_at=dt.datetime.now(dt.UTC)))
    old.dispose()
    engine = store.connect(url, backup_dir=tmp_path / "b")
    try:
        with engine.connect() as conn:
            assert conn.execute(sa.select(sa.func.max(schema.schema_version.c.version))
                                ).scalar() == schema.SCHEMA_VERSION
        sitting, tables = published_sitting(engine, 4)
        tid = int(tables["table_id"].iloc[0])
        ids = store.seats(engine, table_id=tid, actor=ORGANIZER)["player_id"].tolist()
        store.save_draft(engine, tid, typed(ids, [1, 2, 3, 4]), base_version=0, seating={},
                         actor=JUDGE)
        assert store.draft(engine, tid, actor=JUDGE) is not None
    finally:
        engine.dispose()
