"""The store's engine, schema upgrades, roster, settings, PINs and audit log (R17, R19, R20).

Every test that takes `engine` runs on SQLite and on PostgreSQL.
"""

import datetime as dt
import re
import sqlite3
from pathlib import Path

import pandas as pd
import pytest
import sqlalchemy as sa

from stsa import store
from stsa.auth import Role
from stsa.store import db, migrations, schema
from tests.support.store_helpers import (
    JUDGE,
    ORGANIZER,
    SPECTATOR,
    add_players,
    make_draw,
    published_sitting,
    rows_for,
)

V1_SQL = Path(__file__).with_name("store_schema_v1.sql")


# -- engines -----------------------------------------------------------------------------------
def test_sqlite_connections_are_configured(tmp_path):
    engine = store.connect(f"sqlite:///{tmp_path / 'a.db'}")
    try:
        with engine.connect() as conn:
            pragma = {p: conn.exec_driver_sql(f"PRAGMA {p}").scalar()
                      for p in ("journal_mode", "foreign_keys", "synchronous", "busy_timeout")}
        assert pragma == {"journal_mode": "wal", "foreign_keys": 1, "synchronous": 2,
                          "busy_timeout": 10_000}
        # A write transaction holds the write lock from its first statement (BEGIN IMMEDIATE).
        with engine.begin() as conn:
            conn.exec_driver_sql("SELECT 1")
            other = sqlite3.connect(tmp_path / "a.db", timeout=0, isolation_level=None)
            with pytest.raises(sqlite3.OperationalError, match="locked"):
                other.execute("BEGIN IMMEDIATE")
            other.execute("SELECT COUNT(*) FROM players").fetchone()  # readers never wait
            other.close()
    finally:
        engine.dispose()


def test_url_from_env_and_default(tmp_path, monkeypatch):
    target = tmp_path / "nested" / "dir" / "env.db"
    monkeypatch.setenv("STSA_DATABASE_URL", f"sqlite:///{target}")
    engine = store.connect()
    try:
        assert Path(engine.url.database) == target and target.exists()
        assert store.backup_dir(engine) == target.parent / "backups"
    finally:
        engine.dispose()
    assert db.default_url().endswith(str(Path("data") / "stsa.db"))
    assert Path(db.default_url().removeprefix("sqlite:///")).parent == db.REPO_ROOT / "data"


def test_unsupported_databases_are_refused(tmp_path):
    with pytest.raises(store.TournamentError, match="SQLite or PostgreSQL"):
        store.connect("mysql://localhost/stsa")
    with pytest.raises(store.TournamentError, match="database file"):
        store.connect("sqlite://")


def test_a_file_that_is_not_a_database_is_refused(tmp_path):
    path = tmp_path / "notes.db"
    path.write_text("these are my notes, not a database " * 200)
    with pytest.raises(store.CorruptDatabase, match="notes.db.*backup"):
        store.connect(f"sqlite:///{path}")


def test_a_damaged_database_fails_the_integrity_check(tmp_path):
    path = tmp_path / "damaged.db"
    engine = store.connect(f"sqlite:///{path}")
    add_players(engine, 400, prefix="A rather long player name to fill pages")
    engine.dispose()
    con = sqlite3.connect(path)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.execute("PRAGMA journal_mode = DELETE")
    page_size = con.execute("PRAGMA page_size").fetchone()[0]
    con.close()
    with open(path, "r+b") as f:  # scribble over a few b-tree pages
        for page in (2, 3, 5):
            f.seek(page * page_size + 8)
            f.write(b"\xff\x00\x13" * 300)
    with pytest.raises(store.CorruptDatabase, match="damaged.db"):
        store.connect(f"sqlite:///{path}")


def test_a_foreign_database_is_not_adopted(tmp_path):
    path = tmp_path / "other.db"
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE players (id INTEGER PRIMARY KEY, nick TEXT)")
    con.commit()
    con.close()
    with pytest.raises(store.CorruptDatabase, match="not an STSA database"):
        store.connect(f"sqlite:///{path}")


def test_a_database_from_a_newer_stsa_is_refused(engine_url, tmp_path):
    engine = store.connect(engine_url, backup_dir=tmp_path)
    with engine.begin() as conn:
        conn.execute(sa.insert(schema.schema_version).values(version=schema.SCHEMA_VERSION + 5,
                                                             applied_at=db.now()))
    engine.dispose()
    with pytest.raises(store.TournamentError, match="newer STSA"):
        store.connect(engine_url, backup_dir=tmp_path)


def _v1_file(path: Path) -> None:
    """A tournament file as the first schema version wrote it."""
    con = sqlite3.connect(path)
    con.executescript(V1_SQL.read_text())
    at = "2025-03-01 10:00:00.000000"
    con.executescript(f"""
        INSERT INTO schema_version VALUES (1, '{at}');
        INSERT INTO players (id, name, name_key, club, email, extra, status, checked_in,
                             created_by, created_at)
        VALUES (1, 'Ann', 'ann', 'Arrakeen', '', '{{}}', 'active', 1, 'Olga', '{at}'),
               (2, 'Bob', 'bob', '', '', '{{}}', 'active', 1, 'Olga', '{at}'),
               (3, 'Cid', 'cid', '', '', '{{}}', 'active', 1, 'Olga', '{at}');
        INSERT INTO sittings VALUES (1, 'qualifier', 1, '42', 'complete', 'Olga', '{at}',
                                     '{at}', '{at}');
        INSERT INTO tables VALUES (1, 1, 1, 'Legacy', '["X"]', '["A","B","C"]', 0, 1);
        INSERT INTO seats VALUES (1, 1, 1, 1, 'red', 3), (1, 2, 1, 2, 'green', 2),
                                 (1, 3, 1, 3, 'blue', 1);
        INSERT INTO results VALUES
            (1, 1, 1, 'A', 10, 1, 2, 3, 4, 0, NULL, 1, 'Jude', '{at}', 's1'),
            (1, 2, 2, 'B', 8, 1, 2, 3, 4, 2, NULL, 1, 'Jude', '{at}', 's1'),
            (1, 3, 3, 'C', 5, 1, 2, 3, 4, 0, NULL, 1, 'Jude', '{at}', 's1');
        INSERT INTO submissions VALUES ('s1', 1, 1, '[]', 'Jude', '{at}');
        INSERT INTO settings VALUES ('tournament_name', '"Spring Open"', 'Olga', '{at}');
        INSERT INTO events (at, actor, role, action, subject, before, after)
        VALUES ('{at}', 'Jude', 'judge', 'result.submit', 'table 1', NULL, '{{}}');
    """)
    con.commit()
    con.close()


def test_a_version_1_tournament_file_opens_with_current_code(tmp_path):
    path = tmp_path / "spring-open.db"
    _v1_file(path)
    engine = store.connect(f"sqlite:///{path}", backup_dir=tmp_path / "b")
    try:
        with engine.connect() as conn:
            versions = conn.execute(sa.select(schema.schema_version.c.version)).scalars().all()
        assert max(versions) == store.SCHEMA_VERSION
        assert store.settings(engine)["tournament_name"] == "Spring Open"
        res = store.results(engine)
        assert res["vp"].tolist() == [10, 8, 5] and res["variant_points"].tolist() == [0, 2, 0]
        assert store.sittings(engine)["status"].tolist() == ["complete"]
        fixed = rows_for(engine, 1)
        for row, leader in zip(fixed, "ABC"):
            row["leader"] = leader
        out = store.submit_table_result(engine, 1, fixed, expected_version=1,
                                        submission_id="s2", actor=JUDGE)
        assert out.version == 2
        assert store.add_player(engine, "Dee", actor=ORGANIZER)["player_id"] == 4
    finally:
        engine.dispose()


def test_migrations_run_once_in_order_and_roll_back_on_failure(engine_url, tmp_path,
                                                               monkeypatch):
    engine = store.connect(engine_url, backup_dir=tmp_path)
    add_players(engine, 3)
    engine.dispose()
    base = schema.SCHEMA_VERSION
    calls = []

    def add_pronouns(conn, at):
        calls.append(base + 1)
        conn.exec_driver_sql("ALTER TABLE players ADD COLUMN pronouns VARCHAR(50)")

    def broken(conn, at):
        calls.append(base + 2)
        conn.exec_driver_sql("ALTER TABLE players ADD COLUMN shirt_size VARCHAR(50)")
        raise RuntimeError("migration bug")

    monkeypatch.setattr(schema, "SCHEMA_VERSION", base + 2)
    monkeypatch.setattr(migrations, "MIGRATIONS", {base + 1: add_pronouns, base + 2: broken})
    with pytest.raises(RuntimeError, match="migration bug"):
        store.connect(engine_url, backup_dir=tmp_path)

    def columns():
        e = sa.create_engine(engine_url)
        try:
            with e.connect() as conn:
                cols = {c["name"] for c in sa.inspect(conn).get_columns("players")}
                top = conn.execute(sa.select(sa.func.max(schema.schema_version.c.version)))
                return cols, top.scalar()
        finally:
            e.dispose()

    cols, top = columns()
    assert top == base and "pronouns" not in cols and "shirt_size" not in cols  # all or nothing

    monkeypatch.setattr(schema, "SCHEMA_VERSION", base + 1)
    calls.clear()
    for _ in range(2):
        store.connect(engine_url, backup_dir=tmp_path).dispose()
    assert calls == [base + 1]  # applied once
    cols, top = columns()
    assert top == base + 1 and "pronouns" in cols
    engine = store.connect(engine_url, backup_dir=tmp_path)
    try:
        assert len(store.players(engine)) == 3  # data kept
    finally:
        engine.dispose()


# -- roster ------------------------------------------------------------------------------------
def test_add_and_read_players(engine):
    p = store.add_player(engine, "  Ann   Lee ", club="Arrakeen", email="ann@example.org",
                         extra={"age": 30}, actor=ORGANIZER)
    assert p["name"] == "Ann Lee" and p["status"] == "active" and p["extra"] == {"age": 30}
    frame = store.players(engine, actor=ORGANIZER)
    assert frame.columns.tolist() == ["player_id", "name", "nickname", "club", "email", "extra",
                                      "status", "checked_in", "created_at",
                                      "registration_order", "checked_in_at"]
    assert frame.loc[0, "email"] == "ann@example.org"
    assert str(frame["player_id"].dtype) == "int64" and frame["checked_in"].dtype == bool
    public = store.players(engine)  # R20: spectators see no contact details
    assert public.loc[0, "email"] == "" and public.loc[0, "extra"] == {}
    assert store.player(engine, p["player_id"])["name"] == "Ann Lee"
    with pytest.raises(store.NotFound):
        store.player(engine, 999)


@pytest.mark.parametrize("other", ["ann lee", "ANN  LEE", " Ann Lee ", "Ａｎｎ Lee"])
def test_names_are_unique_ignoring_case_and_spaces(engine, other):
    store.add_player(engine, "Ann Lee", actor=ORGANIZER)
    with pytest.raises(store.DuplicateName, match="already on the roster"):
        store.add_player(engine, other, actor=ORGANIZER)
    assert len(store.players(engine)) == 1


def test_import_is_all_or_nothing_and_names_every_problem(engine):
    store.add_player(engine, "Ann", actor=ORGANIZER)
    roster = pd.DataFrame({"name": ["Bob", "  ", "Cid", "bob", "x" * 101, "Dee"],
                           "club": ["A", "B", None, "D", "E", "F"],
                           "city": ["Oslo", None, "Rome", "Nice", "Bonn", "Kyiv"]})
    with pytest.raises(store.TournamentError) as err:
        store.import_players(engine, roster, actor=ORGANIZER)
    msg = str(err.value)
    assert "Entry 2: the name is empty" in msg and "Entry 4 (bob): the same name as entry 1" in msg
    assert "Entry 5" in msg and "longer than 100" in msg
    assert len(store.players(engine)) == 1
    with pytest.raises(store.DuplicateName, match=r"entry 2 \(ANN\) is already on the roster"):
        store.import_players(engine, [{"name": "Eve"}, {"name": "ANN"}], actor=ORGANIZER)
    assert len(store.players(engine)) == 1
    added = store.import_players(engine, roster.iloc[[0, 2, 5]], actor=ORGANIZER)
    assert added["name"].tolist() == ["Bob", "Cid", "Dee"]
    assert added["extra"].tolist() == [{"city": "Oslo"}, {"city": "Rome"}, {"city": "Kyiv"}]
    assert added["club"].tolist() == ["A", "", "F"]


def test_hostile_names_are_stored_verbatim_or_refused(engine):
    p = store.add_player(engine, "<script>alert(1)</script> =cmd|'/C calc'!A0",
                         actor=ORGANIZER)
    assert store.player(engine, p["player_id"])["name"].startswith("<script>")
    with pytest.raises(store.TournamentError, match="control character"):
        store.add_player(engine, "Bad\x00Name", actor=ORGANIZER)


def test_edit_player_checks_names_and_logs_the_change(engine):
    a = store.add_player(engine, "Ann", actor=ORGANIZER)
    store.add_player(engine, "Bob", actor=ORGANIZER)
    with pytest.raises(store.DuplicateName, match="'BOB' is already on the roster"):
        store.edit_player(engine, a["player_id"], name="BOB", actor=ORGANIZER)
    new = store.edit_player(engine, a["player_id"], name="Anna", club="Giedi",
                            actor=ORGANIZER)
    assert (new["name"], new["club"]) == ("Anna", "Giedi")
    store.edit_player(engine, a["player_id"], name="anna", actor=ORGANIZER)  # own name, new case
    ev = store.events(engine, action="player.edit", actor=ORGANIZER)
    assert ev.loc[0, "before"] == {"name": "Ann", "nickname": "Ann", "club": ""}
    assert ev.loc[0, "after"] == {"name": "Anna", "nickname": "Anna", "club": "Giedi"}
    with pytest.raises(store.NotFound, match="no player with id 99"):
        store.edit_player(engine, 99, name="X", actor=ORGANIZER)


def test_a_player_with_results_is_withdrawn_not_deleted(engine):
    ids = add_players(engine, 9)
    spare = store.add_player(engine, "Never drawn", actor=ORGANIZER)
    sitting, tables = published_sitting(engine, ids=ids[:8])
    tid = int(tables.table_id[0])
    store.submit_table_result(engine, tid, rows_for(engine, tid), expected_version=0,
                              submission_id="t1", actor=JUDGE)
    with pytest.raises(store.InvalidState, match="has results.*withdraw"):
        store.remove_player(engine, ids[0], actor=ORGANIZER)
    with pytest.raises(store.InvalidState, match="seat in a draw"):
        store.remove_player(engine, ids[5], actor=ORGANIZER)  # seated, no result yet
    w = store.withdraw_player(engine, ids[0], actor=ORGANIZER)
    assert w["status"] == "withdrawn"
    assert len(store.results(engine).query(f"player_id == {ids[0]}")) == 1  # R19
    with pytest.raises(store.InvalidState, match="Withdrawn players cannot be checked in"):
        store.check_in(engine, [ids[0]], actor=ORGANIZER)
    assert store.withdraw_player(engine, ids[0], withdrawn=False,
                                 actor=ORGANIZER)["status"] == "active"
    gone = store.remove_player(engine, spare["player_id"], actor=ORGANIZER)
    assert gone["name"] == "Never drawn"
    assert spare["player_id"] not in store.players(engine)["player_id"].tolist()
    assert store.events(engine, action="player.remove", actor=ORGANIZER).loc[0, "before"][
        "name"] == "Never drawn"


def test_check_in(engine):
    ids = add_players(engine, 5)
    assert store.check_in(engine, ids[:3], actor=ORGANIZER) == 3
    assert store.check_in(engine, ids[:4], actor=ORGANIZER) == 1
    assert store.check_in(engine, [ids[0]], checked_in=False, actor=ORGANIZER) == 1
    assert store.players(engine)["checked_in"].tolist() == [False, True, True, True, False]
    assert store.clear_check_ins(engine, actor=ORGANIZER) == 3
    with pytest.raises(store.NotFound, match="No player with id 777"):
        store.check_in(engine, [ids[0], 777], actor=ORGANIZER)
    assert not store.players(engine)["checked_in"].any()


def test_absences_for_the_finals(engine):
    ids = add_players(engine, 4)
    assert store.mark_absent(engine, ids[1], actor=ORGANIZER) is True
    assert store.mark_absent(engine, ids[1], actor=ORGANIZER) is False  # already absent
    store.mark_absent(engine, ids[2], actor=ORGANIZER)
    assert store.absences(engine)["player_id"].tolist() == [ids[1], ids[2]]
    assert store.mark_absent(engine, ids[1], present=True, actor=ORGANIZER) is True
    frame = store.absences(engine)
    assert frame["player_id"].tolist() == [ids[2]] and frame.loc[0, "marked_by"] == "Olga"
    assert [e["absent"] for e in store.events(engine, action="player.absent",
                                              actor=ORGANIZER)["after"]] == [True, True]
    with pytest.raises(store.PermissionDenied):
        store.mark_absent(engine, ids[0], actor=JUDGE)
    with pytest.raises(store.NotFound):
        store.mark_absent(engine, 999, actor=ORGANIZER)


@pytest.mark.parametrize("who", [JUDGE, SPECTATOR, None])
def test_only_the_organizer_changes_the_roster(engine, who):
    pid = store.add_player(engine, "Ann", actor=ORGANIZER)["player_id"]
    calls = [lambda: store.add_player(engine, "Bob", actor=who),
             lambda: store.import_players(engine, [{"name": "Bob"}], actor=who),
             lambda: store.edit_player(engine, pid, name="Bob", actor=who),
             lambda: store.remove_player(engine, pid, actor=who),
             lambda: store.withdraw_player(engine, pid, actor=who),
             lambda: store.check_in(engine, [pid], actor=who),
             lambda: store.clear_check_ins(engine, actor=who),
             lambda: store.mark_absent(engine, pid, actor=who)]
    for call in calls:
        with pytest.raises(store.PermissionDenied):
            call()
    assert store.players(engine)["name"].tolist() == ["Ann"]
    assert store.events(engine, actor=ORGANIZER)["action"].tolist() == ["players.add"]


# -- settings ----------------------------------------------------------------------------------
def test_settings_defaults_and_changes(engine):
    s = store.settings(engine)
    assert s == store.DEFAULT_SETTINGS and s is not store.DEFAULT_SETTINGS
    assert s["base_points"] == [20, 15, 10, 0] and s["colours"] == ["red", "green", "blue",
                                                                     "yellow"]
    s["colours"].append("purple")  # a copy: the defaults are untouched
    assert store.DEFAULT_SETTINGS["colours"] == ["red", "green", "blue", "yellow"]
    new = store.set_settings(engine, {"tournament_name": "  Spring   Open ",
                                      "base_points": [25, 15, 10, 0],
                                      "enabled_setups": ["Legacy", "Uprising"],
                                      "battle_of_wills": "both"}, actor=ORGANIZER)
    assert new["tournament_name"] == "Spring Open" and new["base_points"] == [25, 15, 10, 0]
    assert store.settings(engine)["enabled_setups"] == ["Legacy", "Uprising"]
    store.set_settings(engine, {"base_points": [20, 15, 10, 0]}, actor=ORGANIZER)
    store.set_settings(engine, {"base_points": [20, 15, 10, 0]}, actor=ORGANIZER)  # no change
    ev = store.events(engine, action="settings.change", actor=ORGANIZER)
    assert len(ev) == 2
    assert ev.loc[1, "before"] == {"base_points": [25, 15, 10, 0]}
    assert ev.loc[1, "after"] == {"base_points": [20, 15, 10, 0]}


@pytest.mark.parametrize("changes, message", [
    ({"base_points": [20, 15, 10]}, "base_points must be four whole numbers"),
    ({"base_points": [10, 15, 10, 0]}, "highest to lowest"),
    ({"colours": ["red", "red", "blue", "green"]},
     "colours must all differ: colour 1 and colour 2 are both “red”; choose 4 different"),
    ({"colours": ["red", "blue", "green"]}, "at least 4"),
    ({"colours": ["red", "", "blue", "green"]}, "colours must all be filled in"),
    ({"pick_method": "draft"}, "pick_method must be one of hidden_picks, vote_off"),
    ({"battle_of_wills": "yes"}, "battle_of_wills must be one of qualifiers, finals, both"),
    ({"tournament_name": ""}, "tournament_name must be non-empty"),
    ({"hidden_picks": {"Legacy": -1}}, "hidden_picks Legacy"),
    ({"colour": ["red"]}, "'colour' is not a setting"),
])
def test_bad_settings_are_refused_and_change_nothing(engine, changes, message):
    with pytest.raises(store.TournamentError, match=message):
        store.set_settings(engine, {"tournament_name": "Changed", **changes}
                           if "tournament_name" not in changes else changes, actor=ORGANIZER)
    assert store.settings(engine) == store.DEFAULT_SETTINGS


@pytest.mark.parametrize("colours, clash", [
    (["Red", "green", "blue", "red"], "colour 1 and colour 4 are both “red”"),
    (["red", "GREEN", "blue", " green "], "colour 2 and colour 4 are both “green”"),
])
def test_colours_must_differ_ignoring_case(engine, colours, clash):
    """R4: "Red" and "red" are one colour at the table; the store refuses what the settings
    page refuses, in the same words, whoever asks."""
    with pytest.raises(store.TournamentError) as err:
        store.set_settings(engine, {"colours": colours}, actor=ORGANIZER)
    assert str(err.value) == (f"Settings unchanged: colours must all differ: {clash}; choose 4 "
                              f"different colours.")
    assert store.settings(engine)["colours"] == store.DEFAULT_SETTINGS["colours"]
    assert store.set_settings(engine, {"colours": ["Red", "Green", "Blue", "Purple"]},
                              actor=ORGANIZER)["colours"] == ["Red", "Green", "Blue", "Purple"]


def test_only_the_organizer_changes_settings(engine):
    for who in (JUDGE, SPECTATOR):
        with pytest.raises(store.PermissionDenied, match="change settings"):
            store.set_settings(engine, {"tournament_name": "Mine"}, actor=who)
    assert store.settings(engine)["tournament_name"] == store.DEFAULT_SETTINGS["tournament_name"]


# -- PINs --------------------------------------------------------------------------------------
@pytest.mark.slow
def test_pins_generated_once_when_no_env(engine, monkeypatch):
    monkeypatch.delenv("STSA_ORGANIZER_PIN", raising=False)
    monkeypatch.delenv("STSA_JUDGE_PIN", raising=False)
    pins = store.ensure_pins(engine)
    assert set(pins) == {Role.ORGANIZER, Role.JUDGE}
    assert pins[Role.ORGANIZER] != pins[Role.JUDGE]
    assert store.check_pin(engine, pins[Role.ORGANIZER]) is Role.ORGANIZER
    assert store.check_pin(engine, pins[Role.JUDGE]) is Role.JUDGE
    assert store.check_pin(engine, "000000x") is None and store.check_pin(engine, "") is None
    assert store.ensure_pins(engine) == {}  # kept
    with engine.connect() as conn:
        stored = conn.execute(sa.select(schema.users.c.pin_hash)).scalars().all()
    assert not any(pins[Role.JUDGE] in h or pins[Role.ORGANIZER] in h for h in stored)


@pytest.mark.slow
def test_pins_from_env_and_set_pin(engine, monkeypatch):
    monkeypatch.setenv("STSA_ORGANIZER_PIN", "471147")
    monkeypatch.setenv("STSA_JUDGE_PIN", "123412")
    assert store.ensure_pins(engine) == {}
    assert store.check_pin(engine, "471147") is Role.ORGANIZER
    assert store.check_pin(engine, "123412") is Role.JUDGE
    store.set_pin(engine, Role.JUDGE, "583920", actor=ORGANIZER, current_pin="471147")
    assert store.check_pin(engine, "583920") is Role.JUDGE
    assert store.check_pin(engine, "123412") is None
    with pytest.raises(store.TournamentError, match="must differ from the organizer PIN"):
        store.set_pin(engine, Role.JUDGE, "471147", actor=ORGANIZER, current_pin="471147")
    with pytest.raises(store.PermissionDenied):
        store.set_pin(engine, Role.JUDGE, "592817", actor=JUDGE, current_pin="471147")
    with pytest.raises(store.TournamentError, match="Only the organizer and judges"):
        store.set_pin(engine, Role.SPECTATOR, "592817", actor=ORGANIZER, current_pin="471147")
    with pytest.raises(store.TournamentError, match="current organizer PIN is not right"):
        store.set_pin(engine, Role.JUDGE, "592817", actor=ORGANIZER, current_pin="583920")
    store.ensure_pins(engine)  # a later start: the PIN changed in the app stays changed
    assert store.check_pin(engine, "583920") is Role.JUDGE
    assert store.check_pin(engine, "123412") is None
    logged = store.events(engine, action="pin.set", actor=ORGANIZER)
    assert "583920" not in logged.to_string() and len(logged) == 3


# -- the audit log -----------------------------------------------------------------------------
def test_events_filters_and_visibility(engine):
    ids = add_players(engine, 8)
    s = store.save_draw(engine, make_draw(ids), kind="qualifier", actor=ORGANIZER)
    store.publish_sitting(engine, s["sitting_id"], actor=ORGANIZER)
    store.set_settings(engine, {"tournament_name": "Log test"}, actor=ORGANIZER)
    ev = store.events(engine, actor=ORGANIZER)
    assert ev.columns.tolist() == ["event_id", "at", "actor", "role", "action", "subject",
                                   "before", "after"]
    assert ev["event_id"].is_monotonic_increasing and ev["at"].is_monotonic_increasing
    assert ev["action"].tolist() == ["players.add", "sitting.draw", "sitting.publish",
                                     "settings.change"]
    assert store.events(engine, action="sitting.", actor=ORGANIZER)["action"].tolist() == [
        "sitting.draw", "sitting.publish"]
    assert len(store.events(engine, by="Olga", actor=ORGANIZER)) == 4
    assert len(store.events(engine, by="Nobody", actor=ORGANIZER)) == 0
    assert store.events(engine, subject=f"sitting {s['sitting_id']}", limit=1,
                        actor=ORGANIZER)["action"].tolist() == ["sitting.publish"]
    since = int(ev["event_id"].iloc[1])
    assert len(store.events(engine, since_id=since, actor=ORGANIZER)) == 2
    assert ev.loc[0, "role"] == "organizer"
    for who in (JUDGE, SPECTATOR):  # R20: the whole log is the organizer's
        with pytest.raises(store.PermissionDenied):
            store.events(engine, actor=who)


def test_a_finished_sitting_left_published_completes_at_start(engine_url, tmp_path):
    engine = store.connect(engine_url, backup_dir=tmp_path)
    s, tables = published_sitting(engine, 8)
    for tid in tables["table_id"]:
        store.submit_table_result(engine, int(tid), rows_for(engine, int(tid)),
                                  expected_version=0, submission_id=f"s{tid}", actor=JUDGE)
    with engine.begin() as conn:  # as if the process stopped before marking it complete
        conn.execute(sa.update(schema.sittings).values(status="published", completed_at=None))
    engine.dispose()
    engine = store.connect(engine_url, backup_dir=tmp_path)
    try:
        assert store.sitting(engine, s["sitting_id"])["status"] == "complete"
        assert store.events(engine, action="sitting.complete", actor=ORGANIZER)[
            "actor"].tolist() == ["Jude", "STSA"]
    finally:
        engine.dispose()


def test_every_public_function_is_documented():
    import inspect

    for name in store.__all__:
        obj = getattr(store, name)
        if inspect.isfunction(obj) or inspect.isclass(obj):
            assert inspect.getdoc(obj), f"store.{name} has no docstring"
    writes = ["add_player", "import_players", "edit_player", "remove_player", "withdraw_player",
              "check_in", "clear_check_ins", "mark_absent", "save_draw", "discard_draw",
              "publish_sitting", "complete_sitting", "override_setup", "submit_table_result",
              "set_settings", "set_pin", "restore"]
    for name in writes:
        sig = inspect.signature(getattr(store, name))
        assert sig.parameters["actor"].kind is inspect.Parameter.KEYWORD_ONLY, name
        assert re.search(r"\bR\d+", inspect.getdoc(getattr(store, name))), name


def _file_of_version(path: Path, version: int) -> None:
    """A tournament file of schema `version` (1 to 3): the frozen first release's file, then
    the upgrades to `version` as the release that made them ran them."""
    _v1_file(path)
    plain = sa.create_engine(f"sqlite:///{path}")
    try:
        with plain.begin() as conn:
            for step in range(2, version + 1):
                at = dt.datetime(2025, 4, step, tzinfo=dt.UTC)
                migrations.MIGRATIONS[step](conn, at)
                conn.execute(sa.insert(schema.schema_version).values(version=step,
                                                                     applied_at=at))
    finally:
        plain.dispose()


@pytest.mark.parametrize("version", [1, 2, 3])
def test_a_file_of_schema_1_to_3_opens_as_one_tournament_with_nothing_lost(tmp_path, version):
    """R27: a file an earlier release made is this STSA's own tournament, listed under its
    name, with its players and results as they were; another tournament goes beside it."""
    path = tmp_path / "spring-open.db"
    _file_of_version(path, version)
    engine = store.connect(f"sqlite:///{path}", backup_dir=tmp_path / "b")
    try:
        listed = store.tournaments(engine)
        assert listed["key"].tolist() == ["spring-open"]  # named after the tournament
        assert store.settings(engine)["tournament_name"] == "Spring Open"
        assert db.tournament_id(engine) == int(listed["tournament_id"].iloc[0])
        assert store.players(engine, actor=ORGANIZER)["name"].tolist() == ["Ann", "Bob", "Cid"]
        assert store.results(engine)["vp"].tolist() == [10, 8, 5]
        assert store.sittings(engine)["status"].tolist() == ["complete"]
        made = store.create_tournament(engine, "Autumn Open", actor=ORGANIZER)
        assert store.tournaments(engine)["key"].tolist() == ["spring-open", "autumn-open"]
        other = store.open_tournament(engine, made.key)
        try:
            assert store.players(other).empty  # nothing of the old tournament moved
        finally:
            other.dispose()
        assert store.results(engine)["vp"].tolist() == [10, 8, 5]
    finally:
        engine.dispose()
