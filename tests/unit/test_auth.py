"""Roles, PIN hashing and the sign-in rate limiter (stsa.auth, R20)."""

import threading

import pytest

from stsa import auth
from stsa.auth import Actor, PermissionDenied, RateLimiter, Role
from stsa.errors import TournamentError


def test_roles_and_actor():
    a = Actor("Ann", "judge")
    assert a.role is Role.JUDGE and str(a) == "Ann (judge)"
    with pytest.raises(AttributeError):
        a.name = "Bob"  # frozen
    with pytest.raises(ValueError):
        Actor("Ann", "emperor")


def test_require_allows_listed_roles_and_refuses_others():
    org, judge, spec = (Actor("O", Role.ORGANIZER), Actor("J", Role.JUDGE),
                        Actor("S", Role.SPECTATOR))
    assert auth.require(org, Role.ORGANIZER) is org
    assert auth.require(judge, Role.JUDGE, Role.ORGANIZER) is judge
    with pytest.raises(PermissionDenied, match=r"J \(judge\) cannot publish sittings: only the "
                                               r"organizer can"):
        auth.require(judge, Role.ORGANIZER, action="publish sittings")
    with pytest.raises(PermissionDenied, match="only a judge or the organizer"):
        auth.require(spec, Role.JUDGE, Role.ORGANIZER)
    with pytest.raises(PermissionDenied, match="Sign in"):
        auth.require(None, Role.ORGANIZER)
    assert issubclass(PermissionDenied, TournamentError)


def test_can_see_hidden_is_r20():
    assert auth.can_see_hidden(Actor("O", Role.ORGANIZER))
    assert auth.can_see_hidden(Actor("J", Role.JUDGE))
    assert not auth.can_see_hidden(Actor("S", Role.SPECTATOR))
    assert not auth.can_see_hidden(None)


def test_pin_hash_is_salted_and_verifies():
    h1, h2 = auth.hash_pin("123456"), auth.hash_pin("123456")
    assert h1 != h2 and "123456" not in h1 and h1.startswith("scrypt$")
    assert auth.verify_pin("123456", h1) and auth.verify_pin("123456", h2)
    assert not auth.verify_pin("123457", h1)
    assert not auth.verify_pin("123456", None)
    assert not auth.verify_pin("123456", "garbage")
    assert not auth.verify_pin("123456", "scrypt$x$y$z$a$b")
    assert not auth.verify_pin(None, h1)


@pytest.mark.parametrize("pin, message", [("123", "4 to 64"), (" 1234", "space"),
                                          ("x" * 65, "4 to 64"), (1234, "text")])
def test_bad_pins_refused(pin, message):
    with pytest.raises(TournamentError, match=message):
        auth.hash_pin(pin)


def test_new_pin_is_numeric():
    pins = {auth.new_pin() for _ in range(20)}
    assert all(len(p) == 6 and p.isdigit() for p in pins) and len(pins) > 1


class Clock:
    def __init__(self):
        self.t = 1000.0

    def __call__(self):
        return self.t


def test_rate_limiter_blocks_after_max_failures_and_recovers():
    clock = Clock()
    limiter = RateLimiter(max_failures=3, window_seconds=60, clock=clock)
    for _ in range(3):
        assert limiter.allowed("10.0.0.2")
        limiter.failure("10.0.0.2")
        clock.t += 1
    assert not limiter.allowed("10.0.0.2")
    assert limiter.retry_after("10.0.0.2") == pytest.approx(57)
    assert limiter.allowed("10.0.0.3")  # other keys unaffected
    clock.t += 57
    assert limiter.allowed("10.0.0.2")  # the oldest failure left the window
    limiter.failure("10.0.0.2")
    assert not limiter.allowed("10.0.0.2")
    limiter.success("10.0.0.2")
    assert limiter.allowed("10.0.0.2") and limiter.retry_after("10.0.0.2") == 0


def test_rate_limiter_defaults_and_threads():
    limiter = RateLimiter()
    assert limiter.max_failures == 5 and limiter.window_seconds == 60
    threads = [threading.Thread(target=lambda: [limiter.failure("k") for _ in range(100)])
               for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not limiter.allowed("k")
    with pytest.raises(ValueError):
        RateLimiter(max_failures=0)


# --- sign-in sessions that survive a refresh (R20) -------------------------------------------

def test_session_token_round_trip_and_tampering(tmp_path):
    from stsa import store
    engine = store.connect(f"sqlite:///{tmp_path / 's.db'}")
    organizer = Actor("Ann Ö", Role.ORGANIZER)
    store.set_pin(engine, Role.ORGANIZER, "9182", actor=organizer)
    store.set_pin(engine, Role.JUDGE, "5511", actor=organizer)
    token = store.session_token(engine, Actor("Jo", Role.JUDGE))
    assert store.session_actor(engine, token) == Actor("Jo", Role.JUDGE)
    assert store.session_token(engine, organizer) != token
    assert store.session_actor(engine, store.session_token(engine, organizer)) == organizer
    # A token claiming another role or name, or garbage, is refused.
    role, issued, name, sig = token.split(".")
    assert store.session_actor(engine, f"organizer.{issued}.{name}.{sig}") is None
    assert store.session_actor(engine, f"{role}.{issued}.QW5u.{sig}") is None
    assert store.session_actor(engine, "nonsense") is None
    assert store.session_actor(engine, None) is None
    # A PIN change ends the role's sessions.
    store.set_pin(engine, Role.JUDGE, "7733", actor=organizer)
    assert store.session_actor(engine, token) is None
    engine.dispose()


def test_session_token_expires(tmp_path, monkeypatch):
    from stsa import store
    from stsa.store import admin
    engine = store.connect(f"sqlite:///{tmp_path / 's.db'}")
    organizer = Actor("Ann", Role.ORGANIZER)
    store.set_pin(engine, Role.ORGANIZER, "9182", actor=organizer)
    token = store.session_token(engine, organizer)
    later = admin.db.now() + __import__("datetime").timedelta(hours=admin.SESSION_HOURS + 1)
    monkeypatch.setattr(admin.db, "now", lambda: later)
    assert store.session_actor(engine, token) is None
    engine.dispose()
