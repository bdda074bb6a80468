"""Sign-in that holds (R20): PINs, wrong-PIN counts and sessions live in the database, on
SQLite and PostgreSQL alike, so nothing a client does to Streamlit's caches resets them."""

from __future__ import annotations

import sqlite3
import threading

import pytest
import sqlalchemy as sa

from stsa import auth, store
from stsa.auth import Actor, Role
from stsa.store import db, pause, schema, sessions
from tests.support.store_helpers import JUDGE_PIN, ORGANIZER_PIN, later, set_pins

ORGANIZER = Actor("Olivia", Role.ORGANIZER)


@pytest.fixture
def pins(engine, monkeypatch):
    return set_pins(engine, monkeypatch)


@pytest.mark.slow
def test_a_stored_pin_is_never_replaced_by_the_environment(pins, monkeypatch):
    store.set_pin(pins, Role.JUDGE, "25813690", actor=ORGANIZER, current_pin=ORGANIZER_PIN)
    assert store.ensure_pins(pins) == {}  # what every start (and every new engine) runs
    assert store.check_pin(pins, "25813690") is Role.JUDGE
    assert store.check_pin(pins, JUDGE_PIN) is None


@pytest.mark.slow
def test_wrong_pins_pause_one_address_then_the_right_pin_waits_too(pins):
    for _ in range(auth.CLIENT_BACKOFF.free):
        with pytest.raises(store.TournamentError, match="That PIN is not right."):
            store.sign_in(pins, "Mallory", "00000000", client="10.0.0.9")
    with pytest.raises(store.SignInPaused,
                       match=r"Too many wrong PINs: try again in (30|31) seconds\."):
        store.sign_in(pins, "Mallory", JUDGE_PIN, client="10.0.0.9")
    assert store.sign_in(pins, "Jamal", JUDGE_PIN, client="10.0.0.10").actor.role is Role.JUDGE


@pytest.mark.slow
def test_the_pause_ends_and_a_right_pin_does_not_wipe_the_count(pins, monkeypatch):
    """A right PIN removes only its own pre-written failure: a judge cannot sign in with the
    judge PIN now and then to reset the count and guess the organizer's PIN for ever."""
    for _ in range(auth.CLIENT_BACKOFF.free):
        with pytest.raises(store.TournamentError):
            store.sign_in(pins, "Jamal", "11111111", client="10.0.0.9")
    later(monkeypatch, seconds=31)
    assert store.sign_in(pins, "Jamal", JUDGE_PIN, client="10.0.0.9").actor.name == "Jamal"
    with pytest.raises(store.TournamentError, match="That PIN is not right."):
        store.sign_in(pins, "Jamal", "11111111", client="10.0.0.9")  # the 6th wrong PIN
    with pytest.raises(store.SignInPaused, match="try again in (60|61) seconds"):
        store.sign_in(pins, "Jamal", JUDGE_PIN, client="10.0.0.9")
    with pins.connect() as conn:
        kept = conn.execute(sa.select(sa.func.count()).select_from(schema.sign_in_failures)
                            .where(schema.sign_in_failures.c.client == "10.0.0.9")).scalar()
    assert kept == auth.CLIENT_BACKOFF.free + 1


@pytest.mark.slow
def test_addresses_are_counted_by_their_key(pins):
    """Issue 33: an IPv6 address counts as itself (a venue may hand one /64 to the whole
    room), so a neighbour in its /64 is not paused by it (the /64's own, larger count:
    tests/unit/test_devices.py); an IPv4-mapped IPv6 address counts as its IPv4."""
    for _ in range(auth.CLIENT_BACKOFF.free):
        with pytest.raises(store.TournamentError, match="not right"):
            store.sign_in(pins, "Mallory", "00000000", client="2001:db8:1:2::1")
    with pytest.raises(store.SignInPaused, match="Too many wrong PINs: try again"):
        store.sign_in(pins, "Mallory", JUDGE_PIN, client="2001:db8:1:2:0:0:0:1")
    assert store.sign_in(pins, "Jamal", JUDGE_PIN, client="2001:db8:1:2::2")
    assert store.sign_in(pins, "Jamal", JUDGE_PIN, client="2001:db8:1:3::1")
    for _ in range(auth.CLIENT_BACKOFF.free):
        with pytest.raises(store.TournamentError, match="not right"):
            store.sign_in(pins, "Mallory", "00000000", client="::ffff:10.0.0.7")
    with pytest.raises(store.SignInPaused):
        store.sign_in(pins, "Mallory", JUDGE_PIN, client="10.0.0.7")
    with pins.connect() as conn:
        keys = set(conn.execute(sa.select(schema.sign_in_failures.c.client)).scalars())
    assert keys == {"2001:db8:1:2::1", "10.0.0.7"}


@pytest.mark.slow
def test_wrong_pins_from_many_addresses_pause_the_whole_tournament(pins):
    for n in range(auth.TOURNAMENT_BACKOFF.free):
        with pytest.raises(store.TournamentError, match="not right"):
            store.sign_in(pins, "Bot", "00000000", client=f"10.1.{n // 250}.{n % 250}")
    with pytest.raises(store.SignInPaused, match="sign-in is paused") as paused:
        store.sign_in(pins, "Jamal", JUDGE_PIN, client="10.9.9.9")
    # The message says what to do, in plain words.
    assert "signed in here before can still sign in" in str(paused.value)
    assert "Settings page" in str(paused.value) and "make unlock" in str(paused.value)
    assert "R20" not in str(paused.value)
    store.reset_pins(pins)  # the console command forgets the failures
    assert store.sign_in(pins, "Jamal", JUDGE_PIN, client="10.9.9.9")


@pytest.mark.slow
def test_a_burst_of_wrong_pins_is_counted_before_any_is_checked(pins):
    """15 wrong PINs sent at once from one address: at most the free 5 are checked."""
    start, answers, lock = threading.Barrier(15), [], threading.Lock()

    def guess(n: int) -> None:
        start.wait()
        try:
            store.sign_in(pins, "Mallory", f"9{n:07d}", client="10.6.6.6")
        except store.SignInPaused:
            outcome = "paused"
        except store.TournamentError:
            outcome = "wrong"
        with lock:
            answers.append(outcome)

    threads = [threading.Thread(target=guess, args=(n,)) for n in range(15)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(answers) == 15
    assert answers.count("wrong") <= auth.CLIENT_BACKOFF.free
    with pins.connect() as conn:
        stored = conn.execute(sa.select(sa.func.count()).select_from(schema.sign_in_failures)
                              .where(schema.sign_in_failures.c.client == "10.6.6.6")).scalar()
    assert stored == answers.count("wrong")


def test_a_session_lasts_until_sign_out(pins):
    signed = store.sign_in(pins, "Jamal", JUDGE_PIN, client="10.0.0.2")
    assert store.session_actor(pins, signed.session_id) == Actor("Jamal", Role.JUDGE)
    store.sign_out(pins, signed.session_id)
    assert store.session_actor(pins, signed.session_id) is None
    with pins.connect() as conn:
        ended = conn.execute(sa.select(schema.sessions.c.revoked_by)).scalars().all()
    assert ended == ["Jamal"]


def test_only_the_hash_of_a_session_id_is_stored(pins):
    signed = store.sign_in(pins, "Jamal", JUDGE_PIN)
    with pins.connect() as conn:
        stored = conn.execute(sa.select(schema.sessions.c.id_hash)).scalars().all()
    assert stored == [auth.session_hash(signed.session_id)]
    assert store.session_actor(pins, auth.session_hash(signed.session_id)) is None
    assert store.session_actor(pins, "judge.1700000000.SmFtYWw.forged") is None
    assert store.session_actor(pins, None) is None


@pytest.mark.slow
def test_a_pin_change_ends_every_session_of_that_role(pins):
    judge = store.sign_in(pins, "Jamal", JUDGE_PIN).session_id
    organizer = store.sign_in(pins, "Olivia", ORGANIZER_PIN).session_id
    store.set_pin(pins, Role.JUDGE, "86421753", actor=ORGANIZER, current_pin=ORGANIZER_PIN)
    assert store.session_actor(pins, judge) is None
    assert store.session_actor(pins, organizer) == Actor("Olivia", Role.ORGANIZER)
    store.set_pin(pins, Role.ORGANIZER, "97531864", actor=ORGANIZER, current_pin=ORGANIZER_PIN)
    assert store.session_actor(pins, organizer) is None


@pytest.mark.slow
def test_a_wrong_current_pin_counts_as_a_wrong_sign_in(pins):
    for _ in range(auth.CLIENT_BACKOFF.free):
        with pytest.raises(store.TournamentError, match="current organizer PIN is not right"):
            store.set_pin(pins, Role.JUDGE, "86421753", actor=ORGANIZER, current_pin="1234567",
                          client="10.0.0.5")
    with pytest.raises(store.SignInPaused):
        store.set_pin(pins, Role.JUDGE, "86421753", actor=ORGANIZER, current_pin=ORGANIZER_PIN,
                      client="10.0.0.5")
    assert store.check_pin(pins, JUDGE_PIN) is Role.JUDGE


def test_sessions_end_after_twelve_idle_hours(pins, monkeypatch):
    used = store.sign_in(pins, "Jamal", JUDGE_PIN).session_id
    idle = store.sign_in(pins, "Jo", JUDGE_PIN).session_id
    later(monkeypatch, hours=5, minutes=59)
    assert store.session_actor(pins, used) is not None  # and seen now
    later(monkeypatch, hours=17, minutes=58)
    assert store.session_actor(pins, used) is not None, "under 12 h since last seen"
    assert store.session_actor(pins, idle) is None, "unused for over 12 h"
    assert store.open_sessions(pins, actor=ORGANIZER)["actor"].tolist() == ["Jamal"]


def test_sessions_end_eighteen_hours_after_they_began_however_much_they_are_used(pins,
                                                                                 monkeypatch):
    """R20: an absolute lifetime besides the idle one, so a stolen session cookie that is
    kept in use still ends."""
    assert sessions.SESSION_MAX_HOURS == 18
    signed = store.sign_in(pins, "Jamal", JUDGE_PIN).session_id
    for hours in (4, 8, 12, 16):
        later(monkeypatch, hours=hours)
        assert store.session_actor(pins, signed) is not None
    later(monkeypatch, hours=17, minutes=58)
    assert store.session_actor(pins, signed) is not None
    later(monkeypatch, hours=18, minutes=1)
    assert store.session_actor(pins, signed) is None, "seen 3 minutes ago, but 18 h old"
    assert store.open_sessions(pins, actor=ORGANIZER).empty


@pytest.mark.slow
def test_the_organizer_lists_and_ends_sessions_but_keeps_their_own(pins):
    own = store.sign_in(pins, "Olivia", ORGANIZER_PIN, client="10.0.0.1").session_id
    judges = [store.sign_in(pins, name, JUDGE_PIN).session_id for name in ("Jamal", "Jo")]
    listed = store.open_sessions(pins, actor=ORGANIZER)
    assert sorted(listed["actor"]) == ["Jamal", "Jo", "Olivia"]
    with pytest.raises(store.PermissionDenied):
        store.open_sessions(pins, actor=Actor("Jamal", Role.JUDGE))
    assert store.sign_everyone_out(pins, actor=ORGANIZER, keep=own) == store.Ended(
        judges=2, judge_sessions=2)
    assert all(store.session_actor(pins, s) is None for s in judges)
    assert store.session_actor(pins, own) is not None
    assert store.open_sessions(pins, actor=ORGANIZER)["actor"].tolist() == ["Olivia"]


@pytest.mark.slow
def test_reset_pins_signs_everyone_out_and_makes_new_pins(pins, monkeypatch):
    monkeypatch.delenv("STSA_ORGANIZER_PIN")
    monkeypatch.delenv("STSA_JUDGE_PIN")
    judge = store.sign_in(pins, "Jamal", JUDGE_PIN).session_id
    made = store.reset_pins(pins).made
    assert {len(p) for p in made.values()} == {auth.GENERATED_PIN_DIGITS}
    assert store.check_pin(pins, made[Role.JUDGE]) is Role.JUDGE
    assert store.check_pin(pins, JUDGE_PIN) is None
    assert store.session_actor(pins, judge) is None


@pytest.mark.slow
def test_a_backup_holds_no_pin_hash_session_or_failure(pins):
    judge = store.sign_in(pins, "Jamal", JUDGE_PIN)
    device = store.redeem_handoff(pins, store.handoff(pins, judge.session_id)).device
    code = store.handoff(pins, judge.session_id)  # one not yet redeemed
    _, token = store.create_invitation(pins, "Jo", actor=ORGANIZER)
    with pytest.raises(store.TournamentError):
        store.sign_in(pins, "Mallory", "00000000", client="10.0.0.66")
    with pytest.raises(store.TournamentError):
        store.sign_in(pins, "Jamal", "00000000", client="10.0.0.66", device=device)
    with pins.connect() as conn:
        hashes = conn.execute(sa.select(schema.users.c.pin_hash)).scalars().all()
    path = store.backup(pins)
    raw = path.read_bytes()
    assert hashes and not any(h.encode() in raw for h in hashes)
    assert b"scrypt$" not in raw and b"10.0.0.66" not in raw and b"Jamal" not in raw
    for secret in (device, code, token, judge.session_id):
        assert secret.encode() not in raw and auth.token_hash(secret).encode() not in raw
    assert b"pin.set" in raw, "the log is in the backup"
    with sqlite3.connect(path) as copy:
        for table in schema.ACCESS_TABLES:
            assert copy.execute(f"SELECT COUNT(*) FROM {table.name}").fetchone() == (0,)


# -- the PIN check outside the write transaction (issue 22) -----------------------------------
GUARD = 20  # seconds an event may take before the test fails (liveness only, never a timing)


def _other_write(engine) -> None:
    """A write that needs what a sign-in's own writes hold: SQLite's write lock, PostgreSQL's
    sign-in lock."""
    def work(conn) -> None:
        if not db.is_sqlite(conn):
            conn.execute(sa.text("SELECT pg_advisory_xact_lock(:k)"),
                         {"k": pause._SIGN_IN_LOCK_KEY})
        conn.execute(sa.delete(schema.sign_in_failures).where(
            schema.sign_in_failures.c.client == "nobody"))
    db.write(engine, work)


def test_a_sign_in_checks_its_pin_with_no_write_lock_held(pins, monkeypatch):
    """While a PIN is being hashed, another write (a judge's save, another sign-in) goes
    through: the check waits for that write to finish, which it could not if the check ran
    inside the sign-in's write transaction."""
    real, done, seen = auth.verify_pin, threading.Event(), []

    def verify(pin, stored):
        if not seen:
            seen.append(pin)
            other = threading.Thread(target=lambda: (_other_write(pins), done.set()))
            other.start()
            seen.append(done.wait(GUARD))
            other.join()
        return real(pin, stored)

    monkeypatch.setattr(auth, "verify_pin", verify)
    assert store.sign_in(pins, "Jamal", JUDGE_PIN, client="10.0.0.5").actor.role is Role.JUDGE
    assert seen == [JUDGE_PIN, True]


@pytest.mark.slow
def test_judges_signing_in_together_from_one_address_all_get_in(pins, monkeypatch):
    """More judges than one address's free wrong PINs sign in at the same moment: the PIN
    checks run side by side (two meet inside the check), and the failures written for checks
    still under way make nobody wait once those checks turn out right."""
    judges = auth.CLIENT_BACKOFF.free + 3
    start, pair = threading.Barrier(judges), threading.Barrier(2, timeout=GUARD)
    real, answers, lock = auth.verify_pin, [], threading.Lock()

    def verify(pin, stored):
        pair.wait()  # only returns once another check is under way at the same time
        return real(pin, stored)

    def sign_in(n: int) -> None:
        start.wait()
        try:
            outcome = store.sign_in(pins, f"Judge {n}", JUDGE_PIN, client="10.7.7.7").actor.role
        except store.TournamentError as exc:
            outcome = exc
        with lock:
            answers.append(outcome)

    monkeypatch.setattr(auth, "verify_pin", verify)
    threads = [threading.Thread(target=sign_in, args=(n,)) for n in range(judges)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert answers == [Role.JUDGE] * judges
    with pins.connect() as conn:
        left = conn.execute(sa.select(sa.func.count()).select_from(schema.sign_in_failures)
                            .where(schema.sign_in_failures.c.client == "10.7.7.7")).scalar()
    assert left == 0
    assert pause._CHECKS.running == 0


@pytest.mark.slow
def test_a_judge_pin_is_hashed_once_a_wrong_pin_against_both(pins, monkeypatch):
    """The judges' PIN is tried first (the two PINs always differ, so the answer is the same):
    a judge's sign-in costs one hash, a wrong PIN still costs both."""
    real, calls = auth.verify_pin, []
    monkeypatch.setattr(auth, "verify_pin", lambda pin, stored: calls.append(pin) or real(
        pin, stored))
    store.sign_in(pins, "Jamal", JUDGE_PIN, client="10.0.0.6")
    assert calls == [JUDGE_PIN]
    calls.clear()
    with pytest.raises(store.TournamentError, match="That PIN is not right."):
        store.sign_in(pins, "Mallory", "29384756", client="10.0.0.6")
    assert calls == ["29384756"] * 2
    calls.clear()
    assert store.sign_in(pins, "Olivia", ORGANIZER_PIN, client="10.0.0.6").actor.role \
        is Role.ORGANIZER
    assert calls == [ORGANIZER_PIN] * 2


@pytest.mark.slow
def test_a_pin_changed_while_it_is_checked_opens_no_session(pins, monkeypatch):
    """The organizer changes the judge PIN while a judge's old PIN is being checked: that
    sign-in opens no session (the change ended every judge session; this one would have
    outlived it)."""
    real, changing = auth.verify_pin, []

    def verify(pin, stored):
        if pin == JUDGE_PIN and not changing:
            changing.append(True)
            store.set_pin(pins, Role.JUDGE, "25813690", actor=ORGANIZER,
                          current_pin=ORGANIZER_PIN)
        return real(pin, stored)

    monkeypatch.setattr(auth, "verify_pin", verify)
    with pytest.raises(store.TournamentError, match="That PIN is not right."):
        store.sign_in(pins, "Jamal", JUDGE_PIN, client="10.0.0.7")
    assert changing and store.check_pin(pins, "25813690") is Role.JUDGE
    with pins.connect() as conn:
        opened = conn.execute(sa.select(sa.func.count()).select_from(schema.sessions)
                              .where(schema.sessions.c.actor == "Jamal")).scalar()
    assert opened == 0


@pytest.mark.slow
def test_reset_pins_signs_out_and_gives_new_pins_in_every_tournament(pins, monkeypatch):
    """Issue 33: `make pins` said "everyone was signed out" while another tournament's judges
    stayed signed in with their old PIN."""
    monkeypatch.delenv("STSA_ORGANIZER_PIN")
    monkeypatch.delenv("STSA_JUDGE_PIN")
    elsewhere = store.create_tournament(pins, "LinCon 2026", actor=ORGANIZER)
    there = store.open_tournament(pins, elsewhere.key)
    try:
        far = store.sign_in(there, "Kim", elsewhere.judge_pin).session_id
        near = store.sign_in(pins, "Jamal", JUDGE_PIN).session_id
        boss = store.sign_in(pins, "Olivia", ORGANIZER_PIN).session_id
        reset = store.reset_pins(pins)
        assert reset.ended == store.Ended(judges=2, judge_sessions=2, organizer_sessions=1)
        assert [store.session_actor(there, s, any_tournament=True)
                for s in (far, near, boss)] == [None, None, None]
        assert set(reset.judges) == {elsewhere.key}
        assert store.check_pin(there, elsewhere.judge_pin) is None
        assert store.check_pin(there, reset.judges[elsewhere.key]) is Role.JUDGE
        assert store.check_pin(pins, reset.judges[elsewhere.key]) is None, "theirs only"
    finally:
        there.dispose()
