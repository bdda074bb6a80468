"""Sign-in nobody can block (R20): trusted devices, the handoff of a session to a browser, and
lifting the tournament-wide pause. On SQLite and PostgreSQL alike."""

from __future__ import annotations

import threading

import pytest
import sqlalchemy as sa

from stsa import auth, store
from stsa.auth import Actor, Role
from stsa.store import db, devices, schema
from tests.support.store_helpers import JUDGE_PIN, ORGANIZER_PIN, later, set_pins

ORGANIZER = Actor("Olivia", Role.ORGANIZER)
JUDGE = Actor("Jamal", Role.JUDGE)


@pytest.fixture
def pins(engine, monkeypatch):
    return set_pins(engine, monkeypatch)


def signed_in_browser(engine, name: str, pin: str, *, device: str | None = None,
                      client: str = "10.0.0.2") -> store.Redeemed:
    """What a browser ends up with after signing in: the sign-in, its handoff, redeemed."""
    signed = store.sign_in(engine, name, pin, client=client, device=device)
    return store.redeem_handoff(engine, store.handoff(engine, signed.session_id), device=device)


def pause_everyone(engine) -> None:
    """The wrong PINs from many addresses that pause sign-in for the whole tournament, as
    `sign_in` records them (tests/unit/test_access.py sends them one by one), at the store's
    current time."""
    at = db.now()
    with engine.begin() as conn:
        conn.execute(sa.insert(schema.sign_in_failures), [
            {"client": f"10.1.{n // 250}.{n % 250}", "at": at}
            for n in range(auth.TOURNAMENT_BACKOFF.free)])
    with pytest.raises(store.SignInPaused, match="sign-in is paused"):
        store.sign_in(engine, "Jamal", JUDGE_PIN, client="10.9.9.9")


def all_text(engine) -> str:
    """Every value of every STSA table, as one text."""
    with engine.connect() as conn:
        return "\n".join(str(tuple(row)) for table in schema.TABLE_ORDER
                         for row in conn.execute(sa.select(table)))


# --- handoff codes -------------------------------------------------------------------------------

def test_a_handoff_code_gives_the_session_back_once(pins):
    signed = store.sign_in(pins, "Jamal", JUDGE_PIN, client="10.0.0.2")
    code = store.handoff(pins, signed.session_id)
    assert len(code) >= 22 and code != signed.session_id  # ≥ 128 bits, URL-safe
    got = store.redeem_handoff(pins, code)
    assert isinstance(got, store.Redeemed)
    assert (got.session_id, got.actor) == (signed.session_id, Actor("Jamal", Role.JUDGE))
    assert store.session_actor(pins, got.session_id) == got.actor
    with pytest.raises(AttributeError):
        got.session_id = "x"  # frozen
    assert store.redeem_handoff(pins, code) is None, "used once"
    with pins.connect() as conn:
        assert conn.execute(sa.select(sa.func.count()).select_from(schema.handoffs)).scalar() == 0


@pytest.mark.parametrize("code", [None, "", "short", "x" * 500, 12345, "A" * 43])
def test_an_unknown_code_gives_nothing(pins, code):
    assert store.redeem_handoff(pins, code) is None


def test_a_handoff_code_expires_after_two_minutes(pins, monkeypatch):
    assert store.HANDOFF_SECONDS == 120
    signed = store.sign_in(pins, "Jamal", JUDGE_PIN)
    fresh, stale = (store.handoff(pins, signed.session_id) for _ in range(2))
    later(monkeypatch, seconds=119)
    assert store.redeem_handoff(pins, fresh).session_id == signed.session_id
    later(monkeypatch, seconds=121)
    assert store.redeem_handoff(pins, stale) is None
    with pins.connect() as conn:
        assert conn.execute(sa.select(sa.func.count()).select_from(schema.handoffs)).scalar() == 0


def test_no_handoff_for_a_session_that_has_ended(pins):
    signed = store.sign_in(pins, "Jamal", JUDGE_PIN)
    code = store.handoff(pins, signed.session_id)
    store.sign_out(pins, signed.session_id)
    assert store.redeem_handoff(pins, code) is None
    with pytest.raises(store.TournamentError, match="This sign-in has ended: sign in again."):
        store.handoff(pins, signed.session_id)
    with pytest.raises(store.TournamentError, match="sign in again"):
        store.handoff(pins, auth.new_session_id())


def test_the_database_holds_no_session_id_or_code_only_their_hashes(pins):
    signed = store.sign_in(pins, "Jamal", JUDGE_PIN)
    code = store.handoff(pins, signed.session_id)
    text = all_text(pins)
    assert signed.session_id not in text and code not in text
    with pins.connect() as conn:
        row = conn.execute(sa.select(schema.handoffs)).one()
    assert row.code_hash == auth.token_hash(code)
    assert row.session_hash == auth.session_hash(signed.session_id)
    assert auth.unseal(row.sealed, code) == signed.session_id, "only the code unseals it"
    assert auth.unseal(row.sealed, row.code_hash) != signed.session_id


def test_two_requests_redeeming_one_code_at_once_get_it_once(pins):
    signed = store.sign_in(pins, "Jamal", JUDGE_PIN)
    code = store.handoff(pins, signed.session_id)
    start, answers = threading.Barrier(2), []

    def redeem() -> None:
        start.wait()
        answers.append(store.redeem_handoff(pins, code))

    threads = [threading.Thread(target=redeem) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(a is None for a in answers) == [False, True]


# --- trusted devices ---------------------------------------------------------------------------

@pytest.mark.slow
def test_a_device_token_is_issued_after_a_right_pin_and_kept_as_a_hash(pins):
    with pytest.raises(store.TournamentError):
        store.sign_in(pins, "Mallory", "00000000")
    with pins.connect() as conn:
        assert conn.execute(sa.select(sa.func.count()).select_from(schema.devices)).scalar() == 0
    got = signed_in_browser(pins, "Jamal", JUDGE_PIN)
    assert len(got.device) >= 43 and got.device not in all_text(pins)
    with pins.connect() as conn:
        row = conn.execute(sa.select(schema.devices)).one()
    assert (row.id_hash, row.role, row.revoked_at) == (auth.token_hash(got.device), "judge", None)
    again = signed_in_browser(pins, "Jamal", JUDGE_PIN, device=got.device)
    assert again.device == got.device, "a trusted device keeps its token"
    unknown = signed_in_browser(pins, "Jamal", JUDGE_PIN, device=auth.new_token())
    assert unknown.device not in (got.device, None), "an unknown one is replaced"


@pytest.mark.slow
def test_a_device_that_signed_in_before_still_signs_in_while_sign_in_is_paused(pins):
    judge = signed_in_browser(pins, "Jamal", JUDGE_PIN).device
    organizer = signed_in_browser(pins, "Olivia", ORGANIZER_PIN).device
    pause_everyone(pins)
    for _ in range(auth.CLIENT_BACKOFF.free + 3):  # and its own address is paused too
        with pytest.raises(store.TournamentError):
            store.sign_in(pins, "Bot", "00000000", client="10.0.0.2")
    assert store.sign_in(pins, "Jamal", JUDGE_PIN, client="10.0.0.2", device=judge)
    assert store.sign_in(pins, "Olivia", ORGANIZER_PIN, client="10.7.7.7", device=organizer)
    assert store.sign_in_pause(pins) > 0, "still paused for everyone else"


@pytest.mark.slow
def test_wrong_pins_on_a_device_count_against_that_device_alone(pins):
    device = signed_in_browser(pins, "Jamal", JUDGE_PIN).device
    for _ in range(auth.DEVICE_BACKOFF.free):
        with pytest.raises(store.TournamentError, match="That PIN is not right."):
            store.sign_in(pins, "Jamal", "00000000", client="10.0.0.2", device=device)
    with pytest.raises(store.SignInPaused,
                       match=r"Too many wrong PINs from this device: try again in (30|31) "
                             r"seconds\."):
        store.sign_in(pins, "Jamal", JUDGE_PIN, client="10.0.0.2", device=device)
    assert store.sign_in(pins, "Jo", JUDGE_PIN, client="10.0.0.2"), "the address is not paused"
    assert store.sign_in_pause(pins) == 0, "nor the tournament"
    with pins.connect() as conn:
        counted = conn.execute(sa.select(schema.sign_in_failures.c.device)).scalars().all()
    assert counted == [auth.token_hash(device)] * auth.DEVICE_BACKOFF.free


@pytest.mark.slow
def test_a_wrong_current_pin_on_a_trusted_device_counts_on_the_device(pins):
    device = signed_in_browser(pins, "Olivia", ORGANIZER_PIN).device
    pause_everyone(pins)
    store.set_pin(pins, Role.JUDGE, "86421753", actor=ORGANIZER, current_pin=ORGANIZER_PIN,
                  client="10.9.9.9", device=device)
    assert store.check_pin(pins, "86421753") is Role.JUDGE


def test_an_unknown_withdrawn_or_year_old_device_counts_as_none(pins, monkeypatch):
    device = signed_in_browser(pins, "Jamal", JUDGE_PIN).device
    later(monkeypatch, days=devices.DEVICE_DAYS, seconds=1)
    pause_everyone(pins)
    for stale in (device, auth.new_token(), "x" * 30, None):
        with pytest.raises(store.SignInPaused, match="sign-in is paused"):
            store.sign_in(pins, "Jamal", JUDGE_PIN, client="10.0.0.2", device=stale)


@pytest.mark.slow
def test_each_role_keeps_a_limited_number_of_devices_dropping_the_least_recently_used(
        pins, monkeypatch):
    """One person who can sign in cannot collect devices without end (each brings its own
    budget of wrong PINs): past `DEVICE_LIMIT` the least recently used device of that role is
    no longer trusted; the organizer's devices are not the judges' to push out."""
    monkeypatch.setitem(devices.DEVICE_LIMIT, Role.JUDGE, 3)
    organizer = signed_in_browser(pins, "Olivia", ORGANIZER_PIN).device
    judges = [signed_in_browser(pins, f"Judge {n}", JUDGE_PIN).device for n in range(3)]
    signed_in_browser(pins, "Judge 0", JUDGE_PIN, device=judges[0])  # used again: kept
    newest = signed_in_browser(pins, "Judge 3", JUDGE_PIN).device
    with pins.connect() as conn:
        rows = {r.id_hash: r for r in conn.execute(sa.select(schema.devices))}
    trusted = {token for token in [organizer, *judges, newest]
               if rows[auth.token_hash(token)].revoked_at is None}
    assert trusted == {organizer, judges[0], judges[2], newest}
    pause_everyone(pins)
    with pytest.raises(store.SignInPaused):
        store.sign_in(pins, "Judge 1", JUDGE_PIN, device=judges[1])
    assert store.sign_in(pins, "Olivia", ORGANIZER_PIN, device=organizer)


@pytest.mark.slow
def test_a_judge_device_the_organizer_signs_in_on_becomes_the_organizers(pins):
    device = signed_in_browser(pins, "Jamal", JUDGE_PIN).device
    assert signed_in_browser(pins, "Olivia", ORGANIZER_PIN, device=device).device == device
    with pins.connect() as conn:
        assert conn.execute(sa.select(schema.devices.c.role)).scalar_one() == "organizer"


# --- the tournament-wide pause: seen and lifted ----------------------------------------------

@pytest.mark.slow
def test_the_organizer_lifts_the_pause_and_the_pins_stay(pins):
    assert store.sign_in_pause(pins) == 0
    pause_everyone(pins)
    wait = store.sign_in_pause(pins)
    assert 0 < wait <= auth.TOURNAMENT_BACKOFF.base_seconds
    with pytest.raises(store.PermissionDenied):
        store.lift_pause(pins, actor=JUDGE)
    assert store.lift_pause(pins, actor=ORGANIZER) == auth.TOURNAMENT_BACKOFF.free
    assert store.sign_in_pause(pins) == 0
    assert store.sign_in(pins, "Jamal", JUDGE_PIN, client="10.9.9.9").actor.role is Role.JUDGE
    assert store.check_pin(pins, ORGANIZER_PIN) is Role.ORGANIZER, "the PINs did not change"
    logged = store.events(pins, action="sign_in.unlock", actor=ORGANIZER)
    assert logged["actor"].tolist() == ["Olivia"]


def test_the_console_lifts_the_pause_too(pins):
    pause_everyone(pins)
    assert store.lift_pause(pins, actor=db.SYSTEM) > 0
    assert store.sign_in(pins, "Jamal", JUDGE_PIN, client="10.9.9.9")
    assert store.events(pins, action="sign_in.unlock",
                        actor=ORGANIZER)["actor"].tolist() == [db.SYSTEM.name]
    assert store.lift_pause(pins, actor=db.SYSTEM) == 0, "nothing left to forget"


@pytest.mark.slow
def test_pins_too_easy_to_guess_are_refused_where_people_choose_them(pins, tmp_path,
                                                                      monkeypatch):
    with pytest.raises(store.TournamentError, match=r"That PIN is too easy to guess \(a short "
                                                    r"block repeated, like 121212\)"):
        store.set_pin(pins, Role.JUDGE, "424242", actor=ORGANIZER, current_pin=ORGANIZER_PIN)
    assert store.check_pin(pins, JUDGE_PIN) is Role.JUDGE
    monkeypatch.setenv("STSA_JUDGE_PIN", "000000")
    fresh = store.connect(f"sqlite:///{tmp_path / 'fresh.db'}", backup_dir=tmp_path / "b")
    try:
        with pytest.raises(store.TournamentError, match="STSA_JUDGE_PIN holds a PIN that is too "
                                                        "easy to guess"):
            store.ensure_pins(fresh)
        assert store.check_pin(fresh, ORGANIZER_PIN) is None, "nothing was stored"
        monkeypatch.delenv("STSA_JUDGE_PIN")
        made = store.ensure_pins(fresh)
        assert auth.pin_weakness(made[Role.JUDGE]) is None
    finally:
        fresh.dispose()


def trusted(engine) -> int:
    with engine.connect() as conn:
        return conn.execute(sa.select(sa.func.count()).select_from(schema.devices)
                            .where(schema.devices.c.revoked_at.is_(None))).scalar()


@pytest.mark.slow
def test_the_console_reset_stops_trusting_every_device_and_signing_out_keeps_them(
        pins, monkeypatch):
    """Issue 33: `make pins` is for PINs that may have leaked, so the phones that used them are
    suspect too; "Sign everyone out" keeps them (a device signs nobody in by itself)."""
    monkeypatch.delenv("STSA_ORGANIZER_PIN")
    monkeypatch.delenv("STSA_JUDGE_PIN")
    judge = signed_in_browser(pins, "Jamal", JUDGE_PIN)
    signed_in_browser(pins, "Olivia", ORGANIZER_PIN)
    store.sign_everyone_out(pins, actor=ORGANIZER)
    assert trusted(pins) == 2
    reset = store.reset_pins(pins)
    assert reset.ended.devices == 2 and trusted(pins) == 0
    with pytest.raises(store.TournamentError, match="not right"):
        store.sign_in(pins, "Jamal", "00000000", client="10.3.0.1", device=judge.device)
    with pins.connect() as conn:  # counted as a browser without a device, from its address
        assert conn.execute(sa.select(schema.sign_in_failures.c.device)).scalars().all() == [None]


# --- issue 33: the organizer's way past the pause (a one-time code from the console) ---------

def test_paused_for_everyone_the_console_code_lets_the_organizer_in_once(pins):
    """50 wrong PINs from many addresses pause every browser without a device cookie, the
    organizer on a new phone too; a code made at the console lets one organizer sign-in
    through, from that paused address, and only once."""
    pause_everyone(pins)
    with pytest.raises(store.SignInPaused):
        store.sign_in(pins, "Olivia", ORGANIZER_PIN, client="10.7.7.7")
    code = store.make_console_code(pins)
    assert len(code.replace("-", "")) == auth.CONSOLE_CODE_DIGITS
    assert code.replace("-", "") not in all_text(pins), "only the code's hash is stored"
    signed = store.sign_in(pins, "Olivia", ORGANIZER_PIN, client="10.7.7.7", console_code=code)
    assert signed.actor.role is Role.ORGANIZER
    assert store.session_actor(pins, signed.session_id).role is Role.ORGANIZER
    with pytest.raises(store.TournamentError, match="used already or has expired"):
        store.sign_in(pins, "Olivia", ORGANIZER_PIN, client="10.7.7.7", console_code=code)
    with pytest.raises(store.SignInPaused):  # and everyone else is still paused
        store.sign_in(pins, "Olivia", ORGANIZER_PIN, client="10.7.7.7")


def test_the_console_code_expires_and_a_new_one_replaces_the_old(pins, monkeypatch):
    pause_everyone(pins)
    first = store.make_console_code(pins)
    second = store.make_console_code(pins)
    with pytest.raises(store.TournamentError, match="used already or has expired"):
        store.sign_in(pins, "Olivia", ORGANIZER_PIN, client="10.7.7.7", console_code=first)
    later(monkeypatch, seconds=auth.CONSOLE_CODE_SECONDS + 1)
    with pytest.raises(store.TournamentError, match="used already or has expired"):
        store.sign_in(pins, "Olivia", ORGANIZER_PIN, client="10.7.7.7", console_code=second)
    with pytest.raises(store.TournamentError, match="used already or has expired"):
        store.sign_in(pins, "Olivia", ORGANIZER_PIN, console_code="0000-0000-0000")


def test_the_console_code_is_not_for_a_judge_pin(pins):
    """With the code only the organizer's PIN is checked: the judges' PIN is a wrong one there
    (counted on the code), and the code is still there for the organizer."""
    pause_everyone(pins)
    code = store.make_console_code(pins)
    with pytest.raises(store.TournamentError, match="That PIN is not right"):
        store.sign_in(pins, "Jamal", JUDGE_PIN, client="10.7.7.7", console_code=code)
    assert store.sign_in(pins, "Olivia", ORGANIZER_PIN, client="10.7.7.7",
                         console_code=code).actor.role is Role.ORGANIZER


@pytest.mark.slow
def test_wrong_pins_with_the_console_code_wait_a_minute_at_most(pins, monkeypatch):
    """The code's path has its own count, capped: however many wrong PINs are typed with it,
    the organizer waits at most `CONSOLE_BACKOFF.cap_seconds` (60 s), while the tournament-wide
    pause of the same moment is an hour; and those wrong PINs add nothing to anyone's pause."""
    with pins.begin() as conn:  # a whole day of guessing: the tournament-wide pause is an hour
        at = db.now()
        conn.execute(sa.insert(schema.sign_in_failures), [
            {"client": f"10.1.{n // 250}.{n % 250}", "at": at} for n in range(80)])
    assert store.sign_in_pause(pins) > 3000
    code = store.make_console_code(pins)
    waits, shift = [], 0.0
    for n in range(12):
        try:
            store.sign_in(pins, "Olivia", f"99{n:04d}", client="10.7.7.7", console_code=code)
        except store.SignInPaused as paused:
            waits.append(paused.seconds)
            shift += paused.seconds + 1
            later(monkeypatch, seconds=shift)  # the organizer waits, then types again
        except store.TournamentError as wrong:
            assert "not right" in str(wrong)
    assert waits and max(waits) <= auth.CONSOLE_BACKOFF.cap_seconds == 60
    assert store.sign_in(pins, "Olivia", ORGANIZER_PIN, client="10.7.7.7",
                         console_code=code).actor.role is Role.ORGANIZER
    with pins.connect() as conn:
        counted = conn.execute(sa.select(sa.func.count()).select_from(schema.sign_in_failures)
                               .where(schema.sign_in_failures.c.device.is_(None))).scalar_one()
    assert counted == 80, "wrong PINs with the code count on the code alone"


# --- issue 33: IPv6 counted per address, with a larger count per /64 --------------------------

VENUE = "2001:db8:aa:bb"  # a venue that hands one /64 to every phone in the room


@pytest.mark.slow
def test_one_ipv6_address_s_wrong_pins_do_not_pause_its_neighbours_in_the_64(pins):
    """A venue hands one /64 to everyone: one phone's 5 wrong PINs pause that phone alone; a
    judge on another address of the same /64 signs in."""
    for n in range(auth.CLIENT_BACKOFF.free):
        with pytest.raises(store.TournamentError, match="not right"):
            store.sign_in(pins, "Mallory", f"99{n:04d}", client=f"{VENUE}::66")
    with pytest.raises(store.SignInPaused, match="Too many wrong PINs: try again"):
        store.sign_in(pins, "Mallory", JUDGE_PIN, client=f"{VENUE}::66")
    assert store.sign_in(pins, "Jamal", JUDGE_PIN,
                         client=f"{VENUE}::1234").actor.role is Role.JUDGE


@pytest.mark.slow
def test_a_guesser_changing_addresses_inside_one_64_meets_the_64_s_count(pins):
    """One guesser with a new address of the same /64 for every try: each address has its own
    count, but the /64's (`NETWORK_BACKOFF`, 20) stops them long before the tournament's 50,
    so the rest of the world is not paused by them; another /64 still signs in."""
    for n in range(auth.NETWORK_BACKOFF.free):
        with pytest.raises(store.TournamentError, match="not right"):
            store.sign_in(pins, "Mallory", f"99{n:04d}", client=f"{VENUE}::{n + 1:x}")
    with pytest.raises(store.SignInPaused, match="from this network"):
        store.sign_in(pins, "Mallory", JUDGE_PIN, client=f"{VENUE}::ffff")
    assert auth.NETWORK_BACKOFF.free < auth.TOURNAMENT_BACKOFF.free
    assert store.sign_in_pause(pins) == 0, "the tournament is not paused"
    assert store.sign_in(pins, "Jamal", JUDGE_PIN,
                         client="2001:db8:cc:dd::5").actor.role is Role.JUDGE
    assert store.sign_in(pins, "Jamal", JUDGE_PIN, client="10.0.0.9").actor.role is Role.JUDGE
