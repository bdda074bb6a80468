"""Judges' invitations (R20): a judge signs in by scanning a QR code, with no PIN. And the schema
version that brings them (and trusted devices) to databases of every earlier version. On SQLite
and PostgreSQL alike."""

from __future__ import annotations

import datetime as dt
import sqlite3
from pathlib import Path

import pytest
import sqlalchemy as sa

from stsa import auth, store
from stsa.auth import Actor, Role
from stsa.store import invites, migrations, schema
from tests.support.store_helpers import (
    JUDGE_PIN,
    ORGANIZER_PIN,
    VERSION_6_TABLES,
    drop_version_7,
    later,
    set_pins,
)

ORGANIZER = Actor("Olivia", Role.ORGANIZER)
JUDGE = Actor("Jamal", Role.JUDGE)
INVALID = ("This invitation is not valid (it may have expired or been withdrawn). Ask the "
           "organizer for a new one.")
V1_SQL = Path(__file__).with_name("store_schema_v1.sql")


@pytest.fixture
def pins(engine, monkeypatch):
    return set_pins(engine, monkeypatch)


def counts(engine) -> dict[str, int]:
    with engine.connect() as conn:
        return {t.name: conn.execute(sa.select(sa.func.count()).select_from(t)).scalar()
                for t in schema.TABLE_ORDER}


def test_a_judge_joins_by_the_invitations_token_with_no_pin(pins):
    made, token = store.create_invitation(pins, "  Jamal   Judge ", hours=6, actor=ORGANIZER)
    assert len(token) >= 43
    joined = store.join(pins, token, client="10.0.0.4")
    assert isinstance(joined, store.Redeemed)
    assert joined.actor == Actor("Jamal Judge", Role.JUDGE)
    assert store.session_actor(pins, joined.session_id) == joined.actor
    assert len(joined.device) >= 43, "a device token, to keep"
    second = store.join(pins, token, device=joined.device)  # the same phone, once more
    assert second.device == joined.device and second.session_id != joined.session_id
    listed = store.invitations(pins, actor=ORGANIZER)
    assert listed.columns.tolist() == ["id", "name", "created_at", "expires_at", "revoked",
                                       "uses"]
    assert listed.loc[0, ["id", "name", "revoked", "uses"]].tolist() == [made, "Jamal Judge",
                                                                         False, 2]
    assert listed.loc[0, "expires_at"] - listed.loc[0, "created_at"] == dt.timedelta(hours=6)
    used = store.events(pins, action="invitation.use", actor=ORGANIZER)
    assert used["actor"].tolist() == ["Jamal Judge"] * 2 and used["role"].eq("judge").all()


def test_only_the_tokens_hash_is_stored_and_the_log_never_names_it(pins):
    _, token = store.create_invitation(pins, "Jo", actor=ORGANIZER)
    store.join(pins, token)
    with pins.connect() as conn:
        text = "\n".join(str(tuple(r)) for t in schema.TABLE_ORDER
                         for r in conn.execute(sa.select(t)))
        stored = conn.execute(sa.select(schema.invitations.c.token_hash)).scalar_one()
    assert token not in text and stored == auth.token_hash(token)
    logged = store.events(pins, actor=ORGANIZER)
    assert {"invitation.create", "invitation.use"} <= set(logged["action"])
    assert token not in logged.to_string() and stored not in logged.to_string()
    assert "Jo" in str(logged.loc[logged["action"] == "invitation.create", "after"].iloc[0])


@pytest.mark.slow
@pytest.mark.parametrize("token", [None, "", "short", "x" * 43, "x" * 500, 7])
def test_an_unknown_token_is_refused_and_writes_nothing(pins, token):
    store.create_invitation(pins, "Jo", actor=ORGANIZER)
    before = counts(pins)
    with pytest.raises(store.TournamentError) as refused:
        store.join(pins, token)
    assert str(refused.value) == INVALID
    assert counts(pins) == before


def test_an_expired_invitation_is_refused(pins, monkeypatch):
    _, token = store.create_invitation(pins, "Jo", hours=1, actor=ORGANIZER)
    later(monkeypatch, minutes=59)
    assert store.join(pins, token).actor.name == "Jo"
    later(monkeypatch, hours=1, seconds=1)
    before = counts(pins)
    with pytest.raises(store.TournamentError, match="may have expired or been withdrawn"):
        store.join(pins, token)
    assert counts(pins) == before


def test_withdrawing_an_invitation_ends_its_sessions_and_only_those(pins):
    first, token = store.create_invitation(pins, "Jo", actor=ORGANIZER)
    _, other = store.create_invitation(pins, "Kim", actor=ORGANIZER)
    jo = [store.join(pins, token).session_id for _ in range(2)]
    kim = store.join(pins, other).session_id
    by_pin = store.sign_in(pins, "Jamal", JUDGE_PIN).session_id
    with pytest.raises(store.PermissionDenied):
        store.revoke_invitation(pins, first, actor=JUDGE)
    assert store.revoke_invitation(pins, first, actor=ORGANIZER) == 2
    assert [store.session_actor(pins, s) for s in jo] == [None, None]
    assert store.session_actor(pins, kim) and store.session_actor(pins, by_pin)
    with pytest.raises(store.TournamentError, match="not valid"):
        store.join(pins, token)
    assert store.revoke_invitation(pins, first, actor=ORGANIZER) == 0, "already withdrawn"
    with pytest.raises(store.NotFound):
        store.revoke_invitation(pins, 999, actor=ORGANIZER)
    listed = store.invitations(pins, actor=ORGANIZER).set_index("name")
    assert listed["revoked"].to_dict() == {"Jo": True, "Kim": False}
    logged = store.events(pins, action="invitation.revoke", actor=ORGANIZER)
    assert len(logged) == 1


def test_only_the_organizer_invites_for_1_to_24_hours(pins):
    for who in (JUDGE, Actor("S", Role.SPECTATOR), None):
        with pytest.raises(store.PermissionDenied):
            store.create_invitation(pins, "Jo", actor=who)
        with pytest.raises(store.PermissionDenied):
            store.invitations(pins, actor=who)
    for hours in (0, 25, 1.5, True, "6", None):
        with pytest.raises(store.TournamentError, match="1 to 24 whole hours"):
            store.create_invitation(pins, "Jo", hours=hours, actor=ORGANIZER)
    with pytest.raises(store.TournamentError, match="Enter the judge's name"):
        store.create_invitation(pins, "   ", actor=ORGANIZER)
    with pytest.raises(store.TournamentError, match="at most 60 characters"):
        store.create_invitation(pins, "x" * 61, actor=ORGANIZER)
    assert store.invitations(pins, actor=ORGANIZER).empty
    assert store.create_invitation(pins, "x" * 60, hours=24, actor=ORGANIZER)[0] >= 1
    assert store.create_invitation(pins, "Jo", hours=1, actor=ORGANIZER)[0] >= 1


@pytest.mark.slow
def test_joining_needs_no_pin_so_a_paused_sign_in_does_not_stop_it(pins):
    _, token = store.create_invitation(pins, "Jo", actor=ORGANIZER)
    for n in range(auth.TOURNAMENT_BACKOFF.free):
        with pytest.raises(store.TournamentError):
            store.sign_in(pins, "Bot", "00000000", client=f"10.2.0.{n}")
    assert store.sign_in_pause(pins) > 0
    assert store.join(pins, token, client="10.2.0.1").actor.name == "Jo"


@pytest.mark.slow
def test_a_judge_pin_change_ends_invitation_sessions_too(pins):
    _, token = store.create_invitation(pins, "Jo", actor=ORGANIZER)
    joined = store.join(pins, token).session_id
    store.set_pin(pins, Role.JUDGE, "86421753", actor=ORGANIZER, current_pin=ORGANIZER_PIN)
    assert store.session_actor(pins, joined) is None


def test_backups_and_workbooks_carry_no_device_invitation_or_handoff(pins):
    _, token = store.create_invitation(pins, "Jo", actor=ORGANIZER)
    joined = store.join(pins, token)
    code = store.handoff(pins, joined.session_id)
    secrets = [token, joined.device, code, joined.session_id]
    raw = store.backup(pins).read_bytes()
    for secret in secrets:
        assert secret.encode() not in raw and auth.token_hash(secret).encode() not in raw
    dumped = store.dump_tournament(pins)
    assert not {t.name for t in schema.ACCESS_TABLES} & set(dumped)
    assert not any(s in str(dumped) or auth.token_hash(s) in str(dumped) for s in secrets)
    assert {"devices", "invitations", "handoffs"} <= {t.name for t in schema.ACCESS_TABLES}


def test_a_restore_keeps_this_installations_invitations(pins):
    path = store.backup(pins)
    _, token = store.create_invitation(pins, "Jo", actor=ORGANIZER)
    store.restore(pins, path, actor=ORGANIZER)
    assert store.join(pins, token).actor.name == "Jo"


# --- the schema version that brings them ------------------------------------------------------

def _back_to_version_3(url: str) -> None:
    """Make a current database look as version 3 left it: no devices, invitations or
    handoffs, no `sessions.invitation_id`, no `sign_in_failures.device` (and none of the
    later versions' tables, such as the judges' unsaved entries)."""
    engine = sa.create_engine(url)
    try:
        with engine.begin() as conn:
            drop_version_7(conn)
            for name in ("result_drafts", "handoffs", "invitations", "devices",
                         *VERSION_6_TABLES):
                conn.exec_driver_sql(f"DROP TABLE {name}")
            conn.exec_driver_sql("ALTER TABLE players DROP COLUMN self_check_in")
            for table, column in (("sessions", "invitation_id"), ("sign_in_failures", "device")):
                conn.exec_driver_sql(f"DROP INDEX ix_{table}_{column}")
                conn.exec_driver_sql(f"ALTER TABLE {table} DROP COLUMN {column}")
            conn.execute(sa.update(schema.schema_version)  # a fresh database has one row
                         .where(schema.schema_version.c.version == schema.SCHEMA_VERSION)
                         .values(version=3))
    finally:
        engine.dispose()


def _shape(url: str) -> dict:
    engine = sa.create_engine(url)
    try:
        with engine.connect() as conn:
            inspector = sa.inspect(conn)
            return {t: ({c["name"] for c in inspector.get_columns(t)},
                        {i["name"] for i in inspector.get_indexes(t)})
                    for t in ("sessions", "sign_in_failures", "devices", "invitations",
                              "handoffs") if t in inspector.get_table_names()}
    finally:
        engine.dispose()


def _works(engine, monkeypatch) -> None:
    monkeypatch.setenv("STSA_ORGANIZER_PIN", ORGANIZER_PIN)
    monkeypatch.setenv("STSA_JUDGE_PIN", JUDGE_PIN)
    store.ensure_pins(engine)
    _, token = store.create_invitation(engine, "Jo", actor=ORGANIZER)
    joined = store.join(engine, token)
    with pytest.raises(store.TournamentError):
        store.sign_in(engine, "Jo", "00000000", device=joined.device)
    signed = store.sign_in(engine, "Jo", JUDGE_PIN, device=joined.device)
    assert store.redeem_handoff(engine, store.handoff(engine, signed.session_id))


@pytest.mark.slow
def test_a_version_3_database_gets_devices_and_invitations(engine_url, tmp_path, monkeypatch):
    store.connect(engine_url, backup_dir=tmp_path).dispose()
    fresh = _shape(engine_url)
    _back_to_version_3(engine_url)
    old = _shape(engine_url)
    assert set(old) == {"sessions", "sign_in_failures"}
    assert old["sessions"][0] == fresh["sessions"][0] - {"invitation_id", "tournament_id"}
    engine = store.connect(engine_url, backup_dir=tmp_path)
    try:
        with engine.connect() as conn:
            assert conn.execute(sa.select(sa.func.max(schema.schema_version.c.version))
                                ).scalar() == schema.SCHEMA_VERSION
        assert _shape(engine_url) == fresh
        _works(engine, monkeypatch)
    finally:
        engine.dispose()


@pytest.mark.slow
def test_a_version_1_file_opens_with_devices_and_invitations(tmp_path, monkeypatch):
    path = tmp_path / "old.db"
    con = sqlite3.connect(path)
    con.executescript(V1_SQL.read_text())
    con.execute("INSERT INTO schema_version VALUES (1, '2025-03-01 10:00:00.000000')")
    con.commit()
    con.close()
    engine = store.connect(f"sqlite:///{path}", backup_dir=tmp_path / "b")
    try:
        fresh_url = f"sqlite:///{tmp_path / 'fresh.db'}"
        store.connect(fresh_url, backup_dir=tmp_path / "b").dispose()
        assert _shape(f"sqlite:///{path}") == _shape(fresh_url)
        _works(engine, monkeypatch)
    finally:
        engine.dispose()


def test_the_invitations_module_is_what_the_store_exports():
    assert store.join is invites.join and store.invitations is invites.invitations
    assert migrations.MIGRATIONS[4].__doc__.startswith("Version 4 (R20)")


# --- recovery steps that recover (issue 33, security 1 and 3) ------------------------------------

@pytest.mark.slow
def test_signing_everyone_out_withdraws_every_open_invitation_too(pins):
    """A photographed QR code signs nobody in after "Sign everyone out", in any tournament,
    and the step says exactly what it ended."""
    own = store.sign_in(pins, "Olivia", ORGANIZER_PIN).session_id
    other = store.sign_in(pins, "Otto", ORGANIZER_PIN).session_id
    _, token = store.create_invitation(pins, "Jo", actor=ORGANIZER)
    jo = store.join(pins, token).session_id
    store.sign_in(pins, "Jamal", JUDGE_PIN)
    store.sign_in(pins, "Jamal", JUDGE_PIN)  # the same judge on a second phone
    elsewhere = store.create_tournament(pins, "LinCon 2026", actor=ORGANIZER)
    there = store.open_tournament(pins, elsewhere.key)
    try:
        _, far = store.create_invitation(there, "Kim", actor=ORGANIZER)
        ended = store.sign_everyone_out(pins, actor=ORGANIZER, keep=own)
    finally:
        there.dispose()
    assert ended == store.Ended(judges=2, judge_sessions=3, organizer_sessions=1,
                                invitations=2)
    for token_now in (token, far):
        with pytest.raises(store.TournamentError, match="not valid"):
            store.join(pins, token_now)
    assert store.session_actor(pins, jo) is None and store.session_actor(pins, other) is None
    assert store.session_actor(pins, own) is not None
    assert store.open_invitations(pins, actor=ORGANIZER).empty
    assert store.sign_everyone_out(pins, actor=ORGANIZER, keep=own) == store.Ended()


@pytest.mark.slow
def test_a_judge_pin_change_withdraws_that_tournaments_invitations_only(pins):
    _, token = store.create_invitation(pins, "Jo", actor=ORGANIZER)
    elsewhere = store.create_tournament(pins, "LinCon 2026", actor=ORGANIZER)
    there = store.open_tournament(pins, elsewhere.key)
    try:
        _, far = store.create_invitation(there, "Kim", actor=ORGANIZER)
        kim = store.join(pins, far).session_id
        ended = store.set_pin(pins, Role.JUDGE, "86421753", actor=ORGANIZER,
                              current_pin=ORGANIZER_PIN)
        assert ended == store.Ended(invitations=1)
        with pytest.raises(store.TournamentError, match="not valid"):
            store.join(pins, token)
        assert store.join(pins, far).actor.name == "Kim", "another tournament's stays"
        assert store.session_actor(there, kim) is not None
    finally:
        there.dispose()


@pytest.mark.slow
def test_an_organizer_pin_change_withdraws_every_open_invitation(pins):
    """An organizer's session may have made them: a new organizer PIN ends them all."""
    _, token = store.create_invitation(pins, "Jo", actor=ORGANIZER)
    ended = store.set_pin(pins, Role.ORGANIZER, "97531864", actor=ORGANIZER,
                          current_pin=ORGANIZER_PIN)
    assert ended.invitations == 1
    with pytest.raises(store.TournamentError, match="not valid"):
        store.join(pins, token)


@pytest.mark.slow
def test_reset_pins_withdraws_the_invitations_of_every_tournament(pins):
    _, token = store.create_invitation(pins, "Jo", actor=ORGANIZER)
    elsewhere = store.create_tournament(pins, "LinCon 2026", actor=ORGANIZER)
    there = store.open_tournament(pins, elsewhere.key)
    try:
        _, far = store.create_invitation(there, "Kim", actor=ORGANIZER)
    finally:
        there.dispose()
    assert store.reset_pins(pins).ended.invitations == 2
    for gone in (token, far):
        with pytest.raises(store.TournamentError, match="not valid"):
            store.join(pins, gone)


def test_an_archived_tournament_takes_no_new_invitation(pins):
    store.archive_tournament(pins, actor=ORGANIZER)
    with pytest.raises(store.TournamentError, match="archived"):
        store.create_invitation(pins, "Jo", actor=ORGANIZER)
    assert store.invitations(pins, actor=ORGANIZER).empty
    store.reopen_tournament(pins, actor=ORGANIZER)
    assert store.create_invitation(pins, "Jo", actor=ORGANIZER)[0] >= 1


@pytest.mark.slow
def test_an_archived_tournament_of_its_own_database_takes_no_new_invitation(pins):
    elsewhere = store.create_tournament(pins, "LinCon 2026", actor=ORGANIZER)
    there = store.open_tournament(pins, elsewhere.key)
    try:
        store.archive_tournament(there, actor=ORGANIZER)
        with pytest.raises(store.TournamentError, match="archived"):
            store.create_invitation(there, "Kim", actor=ORGANIZER)
        assert store.invitations(there, actor=ORGANIZER).empty
        assert store.create_invitation(pins, "Jo", actor=ORGANIZER)[0] >= 1, "the open one takes"
    finally:
        there.dispose()
