"""Several tournaments in one installation (R27): the list, opening one by key or id, each
tournament's own data, judges' PIN and sessions, archiving, deleting, and files of earlier
schemas opening as one tournament. On SQLite and PostgreSQL alike (`engine_url`)."""

from __future__ import annotations

import datetime as dt
import sqlite3
import threading

import pytest
import sqlalchemy as sa

from stsa import auth, store
from stsa.auth import Actor, Role
from stsa.domain import Action
from stsa.store import db, schema
from stsa.store.tournaments import find as find_listed
from tests.support.store_helpers import (
    JUDGE_PIN,
    ORGANIZER,
    ORGANIZER_PIN,
    VERSION_6_TABLES,
    add_players,
    drop_version_7,
    later,
    published_sitting,
    rows_for,
    set_pins,
)

SAT, SUN = dt.date(2026, 3, 7), dt.date(2026, 3, 8)
OWN = "dune-imperium-tournament"  # the own tournament's key: the default name's, at its first start
SPRING = "spring-cup"  # `inst`'s: renamed before anything was public, its key followed


def close(*engines) -> None:
    """Dispose engines from `store.connect`, and the installation's engine behind each."""
    for engine in engines:
        inst = db.installation(engine)
        engine.dispose()
        inst.dispose()


@pytest.fixture
def inst(engine_url, tmp_path, monkeypatch):
    """The installation's own tournament, renamed "Spring Cup" before anything of it is public
    (its key follows: `SPRING`), with the sign-in tests' PINs."""
    engine = store.connect(engine_url, backup_dir=tmp_path / "backups")
    set_pins(engine, monkeypatch)
    store.set_settings(engine, {"tournament_name": "Spring Cup"}, actor=ORGANIZER)
    yield engine
    close(engine)


@pytest.fixture
def opened(engine_url, tmp_path):
    """opened(tournament) → `store.connect(engine_url, tournament=…)`, disposed after the test."""
    engines = []

    def open_one(which=None):
        engines.append(store.connect(engine_url, tournament=which,
                                     backup_dir=tmp_path / "backups"))
        return engines[-1]

    yield open_one
    close(*engines)


def second(inst, name: str = "Autumn Cup", **kwargs) -> store.Created:
    return store.create_tournament(inst, name, actor=ORGANIZER, **kwargs)


def judge_of(engine) -> Actor:
    return Actor("Jude", Role.JUDGE, db.tournament_id(engine))


def listed(engine) -> list[tuple[str, str]]:
    return [(r.key, r.location) for r in store.tournaments(engine).itertuples()]


# -- 1. a fresh installation ---------------------------------------------------------------
def test_a_fresh_installation_lists_its_own_tournament_by_its_name(engine_url, tmp_path):
    fresh = store.connect(engine_url, backup_dir=tmp_path / "b")
    try:
        frame = store.tournaments(fresh)
        assert frame.columns.tolist() == ["tournament_id", "key", "location", "season_id",
                                          "demo", "created_at"]
        assert listed(fresh) == [(OWN, "")]  # the default name's key
        assert not frame.loc[0, "demo"] and frame["season_id"].isna().all()
        assert db.tournament_id(fresh) == int(frame.loc[0, "tournament_id"])
        assert db.installation(fresh) is fresh
        store.add_player(fresh, "Ann Lee", actor=ORGANIZER)
    finally:
        close(fresh)
    again = store.connect(engine_url, backup_dir=tmp_path / "b")  # no tournament named
    try:
        assert db.installation(again) is again, "the own tournament is the installation's db"
        assert store.players(again)["name"].tolist() == ["Ann Lee"]
        assert len(store.tournaments(again)) == 1
    finally:
        close(again)


def test_the_own_tournament_is_keyed_by_the_name_it_had_when_first_opened(engine_url, tmp_path):
    engine = store.connect(engine_url, backup_dir=tmp_path / "b")
    store.set_settings(engine, {"tournament_name": "Spring Cup"}, actor=ORGANIZER)
    with engine.begin() as conn:  # as an earlier release left it: not on any list
        conn.execute(sa.delete(schema.tournaments))
    close(engine)
    engine = store.connect(engine_url, backup_dir=tmp_path / "b")
    try:
        assert listed(engine) == [("spring-cup", "")]
    finally:
        close(engine)


# -- 2. creating and opening a second tournament ------------------------------------------
@pytest.mark.slow
def test_a_new_tournament_has_its_own_facts_and_the_copied_settings(inst, opened, tmp_path):
    store.set_settings(inst, {"venue": "Town Hall", "starts_on": SAT, "ends_on": SUN,
                              "sitting_minutes": 120, "capacity": 24,
                              "time_zone": "Europe/Stockholm"}, actor=ORGANIZER)
    made = second(inst, "Autumn Cup", venue="Library", starts_on=SUN, ends_on=SUN,
                  time_zone="Europe/Helsinki", copy_from=inst)
    assert made.key == "autumn-cup" and made.tournament_id != db.tournament_id(inst)
    assert listed(inst) == [(SPRING, ""), ("autumn-cup", (
        "tournaments/autumn-cup.db" if db.is_sqlite(inst) else f"stsa_t{made.tournament_id}"))]
    if db.is_sqlite(inst):
        assert (tmp_path / "tournaments" / "autumn-cup.db").is_file()
    new = opened("autumn-cup")
    assert db.tournament_id(new) == made.tournament_id and db.installation(new) is not new
    got = store.settings(new)
    assert (got["tournament_name"], got["venue"], got["starts_on"], got["ends_on"],
            got["time_zone"]) == ("Autumn Cup", "Library", str(SUN), str(SUN),
                                  "Europe/Helsinki")
    assert (got["sitting_minutes"], got["capacity"]) == (120, 24), "copied from Spring Cup"
    mine = store.settings(inst)
    assert (mine["tournament_name"], mine["venue"], mine["time_zone"]) == (
        "Spring Cup", "Town Hall", "Europe/Stockholm"), "the first one is as it was"
    assert store.players(new).empty
    logged = store.events(new, actor=ORGANIZER)
    assert Action.SETTINGS_CHANGE.value in set(logged["action"])
    created = store.events(inst, action=Action.TOURNAMENT_CREATE.value, actor=ORGANIZER)
    assert created["after"].tolist() == [{"key": "autumn-cup", "name": "Autumn Cup",
                                          "demo": False}]


@pytest.mark.slow
def test_a_new_tournament_without_copy_from_has_the_defaults(inst, opened):
    store.set_settings(inst, {"sitting_minutes": 120}, actor=ORGANIZER)
    made = second(inst, "Winter Cup")
    got = store.settings(opened(made.tournament_id))
    assert got["sitting_minutes"] == store.DEFAULT_SETTINGS["sitting_minutes"] != 120
    assert got["venue"] is None and got["tournament_name"] == "Winter Cup"


@pytest.mark.slow
def test_a_new_tournaments_judge_pin_signs_in_there_only(inst, opened):
    made = second(inst, "Autumn Cup")
    new = opened(made.key)
    assert made.judge_pin not in (JUDGE_PIN, ORGANIZER_PIN)
    signed = store.sign_in(new, "Jo", made.judge_pin)
    assert signed.actor == Actor("Jo", Role.JUDGE)
    assert signed.actor.tournament == made.tournament_id
    assert store.session_actor(new, signed.session_id).tournament == made.tournament_id
    assert store.session_actor(inst, signed.session_id) is None
    with pytest.raises(store.TournamentError, match="That PIN is not right."):
        store.sign_in(inst, "Jo", made.judge_pin)
    with pytest.raises(store.TournamentError, match="That PIN is not right."):
        store.sign_in(new, "Jo", JUDGE_PIN)  # the first tournament's judges' PIN
    assert store.check_pin(new, JUDGE_PIN) is None
    assert store.check_pin(inst, JUDGE_PIN) is Role.JUDGE
    assert store.check_pin(inst, made.judge_pin) is None
    assert store.sign_in(inst, "Jude", JUDGE_PIN).actor.tournament == db.tournament_id(inst)


@pytest.mark.slow
def test_a_tournament_opens_by_key_or_id_and_an_unknown_key_names_the_keys(
        inst, opened, engine_url, tmp_path):
    made = second(inst, "Autumn Cup")
    by_key, by_id = opened("autumn-cup"), opened(made.tournament_id)
    store.add_player(by_key, "Ann Lee", actor=ORGANIZER)
    assert store.players(by_id)["name"].tolist() == ["Ann Lee"]
    assert db.tournament_id(opened(str(made.tournament_id))) == made.tournament_id
    assert store.players(inst).empty and store.players(opened()).empty  # none: the own one
    with pytest.raises(store.NotFound) as unknown:
        store.connect(engine_url, tournament="gothcon", backup_dir=tmp_path / "backups")
    assert "'gothcon'" in str(unknown.value)
    assert SPRING in str(unknown.value) and "autumn-cup" in str(unknown.value)


@pytest.mark.slow
def test_with_the_own_tournament_deleted_one_of_several_must_be_named(inst, opened, engine_url,
                                                                         tmp_path):
    second(inst, "Autumn Cup")
    second(inst, "Winter Cup")
    store.delete_tournament(inst, actor=ORGANIZER, confirm="Spring Cup")  # empty: no archive
    assert [k for k, _ in listed(opened("autumn-cup"))] == ["autumn-cup", "winter-cup"]
    with pytest.raises(store.TournamentError) as several:
        store.connect(engine_url, backup_dir=tmp_path / "backups")
    assert "autumn-cup" in str(several.value) and "winter-cup" in str(several.value)
    assert SPRING not in str(several.value)
    assert store.settings(opened("winter-cup"))["tournament_name"] == "Winter Cup"


@pytest.mark.slow
def test_only_the_organizer_creates_and_a_bad_value_leaves_nothing(inst, tmp_path):
    with pytest.raises(store.PermissionDenied):
        store.create_tournament(inst, "Autumn Cup", actor=Actor("Jude", Role.JUDGE))
    with pytest.raises(store.TournamentError, match="last day"):
        second(inst, "Autumn Cup", starts_on=SUN, ends_on=SAT)
    with pytest.raises(store.TournamentError):
        second(inst, "Autumn Cup", time_zone="Mars/Olympus")
    assert listed(inst) == [(SPRING, "")]
    assert not (tmp_path / "tournaments" / "autumn-cup.db").exists()
    assert second(inst, "Autumn Cup").key == "autumn-cup", "the key was not taken"
    assert second(inst, "Autumn Cup").key == "autumn-cup-2"


# -- 3. two tournaments at once ------------------------------------------------------------
@pytest.mark.slow
def test_judges_saving_in_two_tournaments_at_once_land_each_in_their_own(inst, opened):
    store.set_settings(inst, {"auto_backup": False}, actor=ORGANIZER)
    made = second(inst, "Autumn Cup", copy_from=inst)
    engines = {"A": inst, "B": opened(made.key)}
    tables, players, base = {}, {}, {"A": 10, "B": 30}
    for name, engine in engines.items():
        skip = 0 if name == "A" else 20  # B's players get other ids than A's
        ids = add_players(engine, 16 + skip, prefix=f"{name} player")[skip:]
        players[name] = set(ids)
        _, frame = published_sitting(engine, ids=ids)
        tables[name] = frame["table_id"].tolist()
    work = [(name, table_id) for name in engines for table_id in tables[name]]
    rows = {(name, tid): rows_for(engines[name], tid, base=base[name]) for name, tid in work}
    start, errors, lock = threading.Barrier(len(work)), [], threading.Lock()

    def save(name: str, table_id: int) -> None:
        engine = engines[name]
        start.wait()
        try:
            store.submit_table_result(engine, table_id, rows[(name, table_id)],
                                      expected_version=0, submission_id=f"{name}-{table_id}",
                                      actor=judge_of(engine))
        except Exception as exc:  # noqa: BLE001 - reported below
            with lock:
                errors.append(exc)

    threads = [threading.Thread(target=save, args=job) for job in work]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    for name, engine in engines.items():
        got = store.results(engine)
        assert len(got) == 16 and set(got["game_id"]) == set(tables[name])
        assert set(got["player_id"]) == players[name]
        assert set(got["vp"]) == {base[name] - s for s in (1, 2, 3, 4)}, "none crossed over"
        logged = store.events(engine, action=Action.RESULT_SUBMIT.value, actor=ORGANIZER)
        assert len(logged) == 4 and set(logged["actor"]) == {"Jude"}
        assert store.sittings(engine)["status"].tolist() == ["complete"]


@pytest.mark.slow
def test_each_tournaments_data_version_moves_only_with_its_own_writes(inst, opened):
    made = second(inst, "Autumn Cup")
    a, b = inst, opened(made.key)
    _, tables_b = published_sitting(b, ids=add_players(b, 4, prefix="B"))
    va, vb = store.data_version(a), store.data_version(b)
    store.submit_table_result(b, int(tables_b["table_id"].iloc[0]),
                              rows_for(b, int(tables_b["table_id"].iloc[0])),
                              expected_version=0, submission_id=None, actor=judge_of(b))
    assert store.data_version(a) == va and store.data_version(b) > vb
    vb = store.data_version(b)
    store.add_player(a, "Ann Lee", actor=ORGANIZER)
    assert store.data_version(a) > va and store.data_version(b) == vb
    va = store.data_version(a)
    store.set_settings(b, {"sitting_minutes": 100}, actor=ORGANIZER)
    assert store.data_version(a) == va and store.data_version(b) > vb


# -- 4. a judge of one tournament in another -----------------------------------------------
@pytest.mark.slow
def test_a_judge_session_of_one_tournament_neither_signs_in_nor_writes_in_another(inst, opened):
    made = second(inst, "Autumn Cup")
    b = opened(made.key)
    _, tables_b = published_sitting(b, ids=add_players(b, 4, prefix="B"))
    _, tables_a = published_sitting(inst, ids=add_players(inst, 4, prefix="A"))
    signed = store.sign_in(inst, "Jude", JUDGE_PIN)
    assert store.session_actor(b, signed.session_id) is None
    judge_a = store.session_actor(inst, signed.session_id)
    assert judge_a == Actor("Jude", Role.JUDGE) and judge_a.tournament == db.tournament_id(inst)
    table_b = int(tables_b["table_id"].iloc[0])
    before = store.data_version(b)
    with pytest.raises(store.PermissionDenied, match="another tournament"):
        store.submit_table_result(b, table_b, rows_for(b, table_b), expected_version=0,
                                  submission_id=None, actor=judge_a)
    with pytest.raises(store.PermissionDenied, match="another tournament"):
        store.save_draft(b, table_b, rows_for(b, table_b), base_version=0,
                         seating={1: 1}, actor=judge_a)
    assert store.data_version(b) == before and store.results(b).empty
    assert store.draft(b, table_b, actor=judge_a) is None
    assert store.sittings(b)["status"].tolist() == ["published"]
    # the same judge writes in their own tournament, and B's judge in B
    table_a = int(tables_a["table_id"].iloc[0])
    store.submit_table_result(inst, table_a, rows_for(inst, table_a), expected_version=0,
                              submission_id=None, actor=judge_a)
    judge_b = store.sign_in(b, "Jo", made.judge_pin).actor
    store.submit_table_result(b, table_b, rows_for(b, table_b), expected_version=0,
                              submission_id=None, actor=judge_b)
    assert len(store.results(b)) == 4 and len(store.results(inst)) == 4


# -- 5. archiving --------------------------------------------------------------------------
def _writes(engine, table_id: int):
    """Writes of several kinds, each `() -> None`."""
    return {
        "add_player": lambda: store.add_player(engine, "Late Comer", actor=ORGANIZER),
        "set_settings": lambda: store.set_settings(engine, {"sitting_minutes": 99},
                                                   actor=ORGANIZER),
        "submit_table_result": lambda: store.submit_table_result(
            engine, table_id, rows_for(engine, table_id), expected_version=0,
            submission_id=None, actor=judge_of(engine)),
        "schedule_item": lambda: store.add_schedule_item(
            engine, title="Lunch", starts_at=dt.datetime(2026, 3, 7, 12, tzinfo=dt.UTC),
            minutes=45, actor=ORGANIZER),
        "check_in": lambda: store.check_in(engine, [int(store.players(engine)
                                                        ["player_id"].iloc[0])],
                                           actor=ORGANIZER),
        "save_draft": lambda: store.save_draft(engine, table_id, rows_for(engine, table_id),
                                               base_version=0, seating={1: 1},
                                               actor=judge_of(engine)),
    }


@pytest.mark.slow
@pytest.mark.parametrize("which", ["own", "other"])
def test_an_archived_tournament_takes_no_change_until_it_is_reopened(inst, opened, which):
    engine = inst if which == "own" else opened(second(inst, "Autumn Cup").key)
    _, frame = published_sitting(engine, ids=add_players(engine, 4))
    table_id = int(frame["table_id"].iloc[0])
    assert store.archived(engine) is None
    with pytest.raises(store.PermissionDenied):
        store.archive_tournament(engine, actor=judge_of(engine))
    assert store.archive_tournament(engine, actor=ORGANIZER) is True
    assert store.archive_tournament(engine, actor=ORGANIZER) is False, "archived already"
    assert isinstance(store.archived(engine), dt.datetime)
    version, players = store.data_version(engine), store.players(engine)
    for name, write in _writes(engine, table_id).items():
        with pytest.raises(store.InvalidState, match="archived"):
            write()
            pytest.fail(f"{name} wrote to an archived tournament")
    assert store.data_version(engine) == version, "nothing changed"
    # every read still works
    assert store.players(engine).equals(players)
    assert store.results(engine).empty and store.schedule_items(engine).empty
    assert store.settings(engine)["sitting_minutes"] == 150
    assert store.draft(engine, table_id, actor=judge_of(engine)) is None
    assert store.sittings(engine)["status"].tolist() == ["published"]
    # the installation still works: sign-in, a new tournament
    assert store.sign_in(engine, "Olga", ORGANIZER_PIN).actor.role is Role.ORGANIZER
    if which == "own":
        assert second(inst, "Winter Cup").key == "winter-cup"
    assert store.reopen_tournament(engine, actor=ORGANIZER) is True
    assert store.reopen_tournament(engine, actor=ORGANIZER) is False, "open already"
    assert store.archived(engine) is None
    for write in _writes(engine, table_id).values():
        write()
    assert len(store.results(engine)) == 4 and len(store.players(engine)) == 5
    logged = store.events(engine, actor=ORGANIZER)["action"].tolist()
    assert logged.count(Action.TOURNAMENT_ARCHIVE.value) == 1
    assert logged.count(Action.TOURNAMENT_REOPEN.value) == 1
    assert logged.index(Action.TOURNAMENT_ARCHIVE.value) < logged.index(
        Action.TOURNAMENT_REOPEN.value)


def test_only_the_organizer_reopens(inst):
    store.archive_tournament(inst, actor=ORGANIZER)
    with pytest.raises(store.PermissionDenied):
        store.reopen_tournament(inst, actor=judge_of(inst))
    assert store.archived(inst) is not None


# -- 6. deleting ---------------------------------------------------------------------------
def _sqlite_players(path) -> list[str]:
    """The players' names in a backup file, read with plain sqlite3 (a valid SQLite file)."""
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        assert con.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        return [r[0] for r in con.execute("SELECT name FROM players ORDER BY id")]
    finally:
        con.close()


@pytest.mark.slow
def test_a_tournament_is_deleted_only_archived_and_with_its_name_typed(inst, opened, tmp_path):
    made = second(inst, "Autumn Cup")
    b = opened(made.key)
    store.add_player(b, "Ann Lee", actor=ORGANIZER)
    with pytest.raises(store.PermissionDenied):
        store.delete_tournament(b, actor=judge_of(b), confirm="Autumn Cup")
    with pytest.raises(store.InvalidState, match="neither archived nor empty"):
        store.delete_tournament(b, actor=ORGANIZER, confirm="Autumn Cup")
    store.archive_tournament(b, actor=ORGANIZER)
    for typed in (None, "", "Spring Cup", "Autumn"):
        with pytest.raises(store.TournamentError, match="type the tournament's name"):
            store.delete_tournament(b, actor=ORGANIZER, confirm=typed)
    assert [k for k, _ in listed(inst)] == [SPRING, "autumn-cup"]
    assert store.players(b)["name"].tolist() == ["Ann Lee"]
    saved = store.delete_tournament(b, actor=ORGANIZER, confirm="  autumn   CUP ")
    assert saved.is_file() and "deleted-autumn-cup" in saved.name
    assert _sqlite_players(saved) == ["Ann Lee"]
    assert listed(inst) == [(SPRING, "")]
    if db.is_sqlite(inst):
        assert not (tmp_path / "tournaments" / "autumn-cup.db").exists()
    else:
        with inst.connect() as conn:
            assert conn.execute(sa.text(
                "SELECT count(*) FROM information_schema.schemata WHERE schema_name = :s"),
                {"s": f"stsa_t{made.tournament_id}"}).scalar() == 0
    logged = store.events(inst, action=Action.TOURNAMENT_DELETE.value, actor=ORGANIZER)
    assert logged["after"].tolist() == [{"key": "autumn-cup", "name": "Autumn Cup",
                                         "backup": saved.name}]
    with pytest.raises(store.NotFound):
        store.open_tournament(inst, "autumn-cup")
    # the backup restores into another tournament
    store.restore(inst, saved, actor=ORGANIZER)
    assert store.players(inst)["name"].tolist() == ["Ann Lee"]


@pytest.mark.slow
def test_deleting_the_own_tournament_empties_it_and_keeps_the_pins(inst, opened, engine_url,
                                                                    tmp_path):
    add_players(inst, 4)
    made = second(inst, "Autumn Cup")
    store.archive_tournament(inst, actor=ORGANIZER)
    saved = store.delete_tournament(inst, actor=ORGANIZER, confirm="Spring Cup")
    assert len(_sqlite_players(saved)) == 4
    assert [k for k, _ in listed(opened(made.key))] == ["autumn-cup"]
    other = opened()  # the only one left
    assert db.tournament_id(other) == made.tournament_id
    assert store.sign_in(other, "Olga", ORGANIZER_PIN).actor.role is Role.ORGANIZER
    assert store.sign_in(other, "Jo", made.judge_pin).actor.role is Role.JUDGE
    plain = sa.create_engine(engine_url)
    try:
        with plain.connect() as conn:
            assert conn.execute(sa.select(sa.func.count()).select_from(schema.players)
                                ).scalar() == 0
            assert conn.execute(sa.select(schema.tournament_state.c.archived_at)
                                ).scalar() is None
            assert {Role.ORGANIZER.value, f"judge:{made.tournament_id}"} <= set(conn.execute(
                sa.select(schema.users.c.role)).scalars())
    finally:
        plain.dispose()


@pytest.mark.slow
def test_a_demo_tournament_deletes_without_its_name(inst, opened, tmp_path):
    made = second(inst, "Demo Cup", demo=True)
    demo = opened(made.key)
    assert store.tournaments(inst)["demo"].tolist() == [False, True]
    add_players(demo, 4)
    saved = store.delete_tournament(demo, actor=ORGANIZER)
    assert len(_sqlite_players(saved)) == 4
    assert listed(inst) == [(SPRING, "")]
    if db.is_sqlite(inst):
        assert not (tmp_path / "tournaments" / "demo-cup.db").exists()


@pytest.mark.slow
def test_an_empty_tournament_deletes_without_archiving_but_with_its_name(inst, opened):
    b = opened(second(inst, "Autumn Cup").key)
    with pytest.raises(store.TournamentError, match="type the tournament's name"):
        store.delete_tournament(b, actor=ORGANIZER)
    store.delete_tournament(b, actor=ORGANIZER, confirm="Autumn Cup")
    assert listed(inst) == [(SPRING, "")]


# -- 7. invitations ------------------------------------------------------------------------
@pytest.mark.slow
def test_an_invitation_made_in_one_tournament_signs_a_judge_in_there_only(inst, opened):
    made = second(inst, "Autumn Cup")
    b = opened(made.key)
    _, token = store.create_invitation(b, "Jamal", actor=ORGANIZER)
    assert store.invitations(b, actor=ORGANIZER)["name"].tolist() == ["Jamal"]
    assert store.invitations(inst, actor=ORGANIZER).empty
    joined = store.join(inst, token)  # whichever page it is opened on
    assert joined.actor == Actor("Jamal", Role.JUDGE)
    assert joined.actor.tournament == made.tournament_id
    assert store.session_actor(inst, joined.session_id) is None
    here = store.session_actor(b, joined.session_id)
    assert here == Actor("Jamal", Role.JUDGE) and here.tournament == made.tournament_id
    _, own_token = store.create_invitation(inst, "Jude", actor=ORGANIZER)
    own = store.join(b, own_token)
    assert store.session_actor(b, own.session_id) is None
    assert store.session_actor(inst, own.session_id).tournament == db.tournament_id(inst)


# -- 8. files of earlier schemas -----------------------------------------------------------
def _old_tournament(url: str, tmp_path, monkeypatch) -> dict:
    """A tournament with players, a result and settings, as it reads now."""
    engine = store.connect(url, backup_dir=tmp_path / "b")
    try:
        set_pins(engine, monkeypatch)
        store.set_settings(engine, {"tournament_name": "Old Cup", "sitting_minutes": 120,
                                    "auto_backup": False}, actor=ORGANIZER)
        _, frame = published_sitting(engine, n_players=8)
        table_id = int(frame["table_id"].iloc[0])
        store.submit_table_result(engine, table_id, rows_for(engine, table_id),
                                  expected_version=0, submission_id=None, actor=ORGANIZER)
        return {"players": store.players(engine), "results": store.results(engine),
                "settings": store.settings(engine)}
    finally:
        close(engine)


def _to_version_6(conn) -> None:
    drop_version_7(conn)
    conn.execute(sa.delete(schema.schema_version))
    conn.execute(sa.insert(schema.schema_version).values(
        version=6, applied_at=dt.datetime.now(dt.UTC)))


def _to_version_3(conn) -> None:
    """As `tests/unit/test_invitations.py` makes a version-3 database."""
    drop_version_7(conn)
    for name in ("result_drafts", "handoffs", "invitations", "devices", *VERSION_6_TABLES):
        conn.exec_driver_sql(f"DROP TABLE {name}")
    conn.exec_driver_sql("ALTER TABLE players DROP COLUMN self_check_in")
    for table, column in (("sessions", "invitation_id"), ("sign_in_failures", "device")):
        conn.exec_driver_sql(f"DROP INDEX ix_{table}_{column}")
        conn.exec_driver_sql(f"ALTER TABLE {table} DROP COLUMN {column}")
    conn.execute(sa.delete(schema.schema_version))
    conn.execute(sa.insert(schema.schema_version).values(
        version=3, applied_at=dt.datetime.now(dt.UTC)))


@pytest.mark.slow
@pytest.mark.parametrize("make_old", [_to_version_6, _to_version_3], ids=["v6", "v3"])
def test_a_file_of_an_earlier_schema_opens_as_one_tournament_with_nothing_lost(
        engine_url, tmp_path, monkeypatch, make_old):
    before = _old_tournament(engine_url, tmp_path, monkeypatch)
    plain = sa.create_engine(engine_url)
    try:
        with plain.begin() as conn:
            make_old(conn)
            assert "tournaments" not in sa.inspect(conn).get_table_names()
    finally:
        plain.dispose()
    engine = store.connect(engine_url, backup_dir=tmp_path / "b")
    try:
        assert listed(engine) == [("old-cup", "")]
        assert db.tournament_id(engine) == int(store.tournaments(engine)
                                               ["tournament_id"].iloc[0])
        assert store.players(engine).equals(before["players"])
        assert store.results(engine).equals(before["results"])
        assert store.settings(engine) == before["settings"]
        assert store.archived(engine) is None
        assert store.check_pin(engine, JUDGE_PIN) is Role.JUDGE
        signed = store.sign_in(engine, "Jude", JUDGE_PIN)
        assert store.session_actor(engine, signed.session_id).tournament == db.tournament_id(
            engine)
        assert store.sign_in(engine, "Olga", ORGANIZER_PIN).actor.role is Role.ORGANIZER
        store.add_player(engine, "New Comer", actor=ORGANIZER)  # it takes changes
        made = store.create_tournament(engine, "New Cup", actor=ORGANIZER)
        assert [k for k, _ in listed(engine)] == ["old-cup", "new-cup"]
        new = store.open_tournament(engine, made.key)
        assert store.check_pin(new, JUDGE_PIN) is None
        assert store.check_pin(new, made.judge_pin) is Role.JUDGE
        new.dispose()
    finally:
        close(engine)


# -- 9. the organizer's PIN and wrong PINs across tournaments ------------------------------
@pytest.mark.slow
def test_the_organizer_pin_signs_in_on_every_tournament(inst, opened):
    b = opened(second(inst, "Autumn Cup").key)
    c = opened(second(inst, "Winter Cup").key)
    for engine in (inst, b, c):
        signed = store.sign_in(engine, "Olga", ORGANIZER_PIN)
        assert signed.actor == Actor("Olga", Role.ORGANIZER) and signed.actor.tournament is None
        for there in (inst, b, c):  # the organizer's session is good everywhere
            assert store.session_actor(there, signed.session_id) == signed.actor


@pytest.mark.slow
def test_wrong_pins_are_counted_for_the_whole_installation(inst, opened, monkeypatch):
    made = second(inst, "Autumn Cup")
    b = opened(made.key)
    later(monkeypatch)  # the clock stands still: the pause is the back-off's, exactly
    real, right = auth.verify_pin, {ORGANIZER_PIN, JUDGE_PIN, made.judge_pin}
    # a wrong PIN costs no scrypt here (50 of them), a right one is checked as ever
    monkeypatch.setattr(auth, "verify_pin", lambda pin, stored: pin in right and real(pin,
                                                                                      stored))
    assert store.sign_in_pause(inst) == 0 == store.sign_in_pause(b)
    for n in range(auth.TOURNAMENT_BACKOFF.free):
        with pytest.raises(store.TournamentError, match="not right"):
            store.sign_in(b, "Bot", "00000000", client=f"10.1.{n // 250}.{n % 250}")
    assert store.sign_in_pause(inst) > 0 and store.sign_in_pause(b) > 0
    with pytest.raises(store.SignInPaused, match="sign-in is paused"):
        store.sign_in(inst, "Jude", JUDGE_PIN, client="10.9.9.9")
    with pytest.raises(store.SignInPaused, match="sign-in is paused"):
        store.sign_in(b, "Jo", made.judge_pin, client="10.9.9.9")
    store.lift_pause(b, actor=ORGANIZER)
    assert store.sign_in_pause(inst) == 0
    assert store.sign_in(inst, "Jude", JUDGE_PIN, client="10.9.9.9").actor.role is Role.JUDGE


@pytest.mark.slow
def test_wrong_pins_on_one_tournament_count_against_the_address_on_all(inst, opened,
                                                                        monkeypatch):
    later(monkeypatch)
    b = opened(second(inst, "Autumn Cup").key)
    for _ in range(auth.CLIENT_BACKOFF.free):
        with pytest.raises(store.TournamentError, match="That PIN is not right."):
            store.sign_in(b, "Mallory", "00000000", client="10.0.0.9")
    with pytest.raises(store.SignInPaused, match="Too many wrong PINs: try again"):
        store.sign_in(inst, "Mallory", JUDGE_PIN, client="10.0.0.9")


# -- a tournament's key: it follows the name until the tournament is public (issue 33) -------
def _public_by(engine, how: str) -> None:
    """Make the tournament public in one of the ways that fix its key (R27)."""
    if how == "published":
        published_sitting(engine)
    elif how == "scheduled":
        item = store.add_schedule_item(engine, title="Lunch", actor=ORGANIZER,
                                       starts_at=dt.datetime(2026, 3, 7, 12, tzinfo=dt.UTC))
        store.delete_schedule_item(engine, item["item_id"], actor=ORGANIZER)  # gone: still fixed
    elif how == "invited":
        made, _token = store.create_invitation(engine, "Jude", actor=ORGANIZER)
        store.revoke_invitation(engine, made, actor=ORGANIZER)  # withdrawn: still fixed
    else:
        store.create_overlay(engine, "standings", actor=ORGANIZER)


@pytest.mark.slow
def test_a_rename_before_anything_is_public_moves_the_key_and_its_links(inst, opened,
                                                                       tmp_path):
    from stsa.services import feed
    from stsa.services import tournaments as tournament_service

    made = second(inst)
    autumn = opened("autumn-cup")
    store.add_player(autumn, "Ann Lee", actor=ORGANIZER)  # players and a draft: not public yet
    store.backup(autumn)
    assert not store.links_fixed(autumn)
    store.set_settings(autumn, {"tournament_name": "GothCon 2026"}, actor=ORGANIZER)
    assert find_listed(inst, made.tournament_id)["key"] == "gothcon-2026"
    assert listed(inst)[1][0] == "gothcon-2026"
    with pytest.raises(store.NotFound):
        find_listed(inst, "autumn-cup")
    listing = tournament_service.listing(inst, lambda tid: store.open_tournament(inst, tid))
    links = {r["key"]: r["links"] for r in feed.tournaments(listing, {})["tournaments"]}
    assert links["gothcon-2026"]["schedule"] == "/api/v1/tournaments/gothcon-2026/schedule"
    # its backups follow it: the folder is the key's
    assert list((tmp_path / "backups" / "gothcon-2026").glob("*.db"))
    assert not (tmp_path / "backups" / "autumn-cup").exists()
    moved = store.events(inst, actor=ORGANIZER, action="tournament.key")
    assert moved["after"].tolist()[-1] == {"key": "gothcon-2026"}  # the installation's log
    assert moved["before"].tolist()[-1] == {"key": "autumn-cup"}


@pytest.mark.slow
@pytest.mark.parametrize("how", ["published", "scheduled", "invited", "overlay"])
def test_a_rename_once_the_tournament_is_public_keeps_the_key(inst, opened, how):
    made = second(inst)
    autumn = opened("autumn-cup")
    _public_by(autumn, how)
    assert store.links_fixed(autumn)
    store.set_settings(autumn, {"tournament_name": "GothCon 2026"}, actor=ORGANIZER)
    assert store.settings(autumn)["tournament_name"] == "GothCon 2026"
    assert find_listed(inst, made.tournament_id)["key"] == "autumn-cup"


@pytest.mark.slow
def test_a_new_tournament_never_takes_the_file_of_a_renamed_one(inst, opened):
    second(inst)
    autumn = opened("autumn-cup")
    store.add_player(autumn, "Ann Lee", actor=ORGANIZER)
    store.set_settings(autumn, {"tournament_name": "GothCon 2026"}, actor=ORGANIZER)
    again = second(inst)  # "Autumn Cup" again: its key is free, its old file is not
    fresh = opened(again.tournament_id)
    assert store.players(fresh).empty
    assert store.players(opened("gothcon-2026"))["name"].tolist() == ["Ann Lee"]
