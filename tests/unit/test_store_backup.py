"""Backups and restores (R19). Every test runs on SQLite and PostgreSQL."""

import queue
import sqlite3
import threading

import pandas as pd
import pytest
import sqlalchemy as sa

from stsa import store
from stsa.auth import Role
from stsa.store import schema
from tests.support.store_helpers import JUDGE, ORGANIZER, add_players, published_sitting, rows_for


def _snapshot(engine):
    return {"players": store.players(engine, actor=ORGANIZER),
            "results": store.results(engine, None),
            "sittings": store.sittings(engine, actor=ORGANIZER),
            "tables": store.tables(engine, actor=ORGANIZER),
            "settings": store.settings(engine),
            "events": store.events(engine, actor=ORGANIZER)}


def _same(a, b):
    for key in ("players", "results", "sittings", "tables"):
        pd.testing.assert_frame_equal(a[key], b[key])
    assert a["settings"] == b["settings"]
    pd.testing.assert_frame_equal(a["events"], b["events"].iloc[:len(a["events"])])


@pytest.fixture
def tournament(engine):
    """Two tables with results, one correction, a changed setting."""
    _, tables = published_sitting(engine, 8)
    for tid in tables["table_id"]:
        store.submit_table_result(engine, int(tid), rows_for(engine, int(tid)),
                                  expected_version=0, submission_id=f"s{tid}", actor=JUDGE)
    tid = int(tables["table_id"][0])
    store.submit_table_result(engine, tid, rows_for(engine, tid, base=14), expected_version=1,
                              submission_id="fix", actor=JUDGE)
    store.set_settings(engine, {"tournament_name": "Backup Cup"}, actor=ORGANIZER)
    return engine


@pytest.mark.slow
def test_backup_and_restore_round_trip(tournament, tmp_path):
    engine = tournament
    before = _snapshot(engine)
    path = store.backup(engine, tmp_path / "manual")
    assert path.parent == tmp_path / "manual" and path.name.startswith("stsa-")
    assert path.name.endswith("-manual.db") and not list(path.parent.glob("*.part"))
    with sqlite3.connect(path) as con:
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert con.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    # the tournament moves on …
    store.add_player(engine, "Late Comer", actor=ORGANIZER)
    tid = int(before["tables"]["table_id"][1])
    store.submit_table_result(engine, tid, rows_for(engine, tid, base=30), expected_version=1,
                              submission_id="later", actor=JUDGE)
    store.set_settings(engine, {"tournament_name": "Changed"}, actor=ORGANIZER)
    moved_on = _snapshot(engine)
    # … and is restored
    out = store.restore(engine, path, actor=ORGANIZER)
    assert out["restored_from"] == path and out["rows"] > 0
    after = _snapshot(engine)
    _same(before, after)
    assert after["events"]["action"].iloc[-1] == "backup.restore"
    assert after["events"]["after"].iloc[-1]["safety_backup"] == out["safety_backup"].name
    # R19: what the restore replaced is in the safety backup
    safety = store.connect(f"sqlite:///{out['safety_backup']}", backup_dir=tmp_path / "x")
    try:
        _same(moved_on, _snapshot(safety))
    finally:
        safety.dispose()
    # the restored tournament carries on: new ids, new versions, new events
    new = store.add_player(engine, "After Restore", actor=ORGANIZER)
    assert new["player_id"] > before["players"]["player_id"].max()
    assert store.submit_table_result(engine, tid, rows_for(engine, tid, base=31),
                                     expected_version=1, submission_id="after",
                                     actor=JUDGE).version == 2
    assert store.events(engine, actor=ORGANIZER)["event_id"].is_monotonic_increasing


@pytest.mark.slow
def test_restore_keeps_this_installations_pins(tournament, tmp_path, monkeypatch):
    engine = tournament
    monkeypatch.delenv("STSA_ORGANIZER_PIN", raising=False)
    monkeypatch.delenv("STSA_JUDGE_PIN", raising=False)
    first = store.reset_pins(engine).made[Role.ORGANIZER]
    path = store.backup(engine)
    second = store.reset_pins(engine).made[Role.ORGANIZER]
    store.restore(engine, path, actor=ORGANIZER)
    assert store.check_pin(engine, second) is Role.ORGANIZER
    assert store.check_pin(engine, first) is None


@pytest.mark.slow
def test_a_backup_restores_into_the_other_kind_of_database(tournament, tmp_path):
    engine = tournament
    path = store.backup(engine)
    other = store.connect(f"sqlite:///{tmp_path / 'other.db'}", backup_dir=tmp_path / "o")
    try:
        store.restore(other, path, actor=ORGANIZER)
        _same(_snapshot(engine), _snapshot(other))
        back = store.backup(other)
        store.add_player(engine, "Only here", actor=ORGANIZER)
        store.restore(engine, back, actor=ORGANIZER)
        assert "Only here" not in store.players(engine)["name"].tolist()
    finally:
        other.dispose()


def test_backups_list_newest_first(engine):
    published_sitting(engine, 8)
    store.backup(engine, label="before lunch!")
    listed = store.backups(engine)
    assert listed.columns.tolist() == ["name", "path", "size", "modified"]
    assert listed["name"].iloc[0].endswith("-before-lunch.db")
    assert listed["name"].iloc[1].endswith("-published-qualifier-1.db")
    assert (listed["size"] > 0).all()


def test_files_that_are_not_stsa_backups_are_refused(engine, tmp_path):
    add_players(engine, 3)
    text = tmp_path / "notes.db"
    text.write_text("not a database")
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as con:
        con.execute("CREATE TABLE things (id INTEGER)")
    con.close()
    newer = store.backup(engine)
    with sqlite3.connect(newer) as con:
        con.execute("INSERT INTO schema_version VALUES (99, '2030-01-01 00:00:00')")
    con.close()
    cases = [(text, "notes.db is not an STSA backup: it is not a SQLite database"),
             (other, "other.db is not an STSA backup \\(it lacks"),
             (tmp_path / "missing.db", "missing.db does not exist"),
             (newer, "made by a newer STSA")]
    for path, message in cases:
        with pytest.raises(store.NotABackup, match=message):
            store.restore(engine, path, actor=ORGANIZER)
    assert len(store.players(engine)) == 3
    assert store.events(engine, action="backup.restore", actor=ORGANIZER).empty


def test_only_the_organizer_restores(tournament):
    path = store.backup(tournament)
    with pytest.raises(store.PermissionDenied):
        store.restore(tournament, path, actor=JUDGE)


@pytest.mark.slow
def test_backup_copies_every_table(tournament, tmp_path):
    path = store.backup(tournament, tmp_path)
    copy = sa.create_engine(f"sqlite:///{path}")
    try:
        with copy.connect() as c, tournament.connect() as t:
            for table in schema.TABLE_ORDER:
                count = sa.select(sa.func.count()).select_from(table)
                assert c.execute(count).scalar() == t.execute(count).scalar(), table.name
    finally:
        copy.dispose()


@pytest.mark.slow
def test_backups_taken_while_judges_save_are_consistent(engine, tmp_path):
    _, tables = published_sitting(engine, 40)
    ids = [int(t) for t in tables["table_id"]]
    stop, errors, saved = threading.Event(), [], queue.Queue()

    def judge():
        version = dict.fromkeys(ids, 0)
        try:
            while not stop.is_set():
                for tid in ids:
                    store.submit_table_result(engine, tid, rows_for(engine, tid),
                                              expected_version=version[tid],
                                              submission_id=None, actor=JUDGE)
                    version[tid] += 1
                    saved.put(tid)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
            saved.put(None)

    worker = threading.Thread(target=judge)
    worker.start()
    try:
        paths = []
        for _ in range(3):
            for _ in range(7):  # the judge has saved seven more results since the last backup
                assert saved.get(timeout=20) is not None, errors
            paths.append(store.backup(engine, tmp_path / "online"))
    finally:
        stop.set()
        worker.join()
    assert not errors, errors[0]
    for path in paths:
        with sqlite3.connect(path) as con:
            assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            partial = con.execute(
                "SELECT t.id FROM tables t LEFT JOIN results r ON r.table_id = t.id "
                "GROUP BY t.id, t.result_version "
                "HAVING (t.result_version = 0 AND COUNT(r.player_id) > 0) "
                "OR (t.result_version > 0 AND (COUNT(r.player_id) != 4 "
                "OR MIN(r.version) != t.result_version OR MAX(r.version) != t.result_version))"
            ).fetchall()
            assert partial == []
        con.close()
