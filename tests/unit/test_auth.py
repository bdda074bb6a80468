"""Roles, PIN hashing, session ids and the sign-in back-off (stsa.auth, R20)."""

import pytest

from stsa import auth
from stsa.auth import Actor, PermissionDenied, Role
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


@pytest.mark.parametrize("pin, message", [("12345", "6 to 64"), (" 123456", "space"),
                                          ("x" * 65, "6 to 64"), (123456, "text")])
def test_bad_pins_refused(pin, message):
    with pytest.raises(TournamentError, match=message):
        auth.hash_pin(pin)


def test_generated_pins_have_eight_digits():
    pins = {auth.new_pin() for _ in range(20)}
    assert all(len(p) == 8 and p.isdigit() for p in pins) and len(pins) > 1


def test_session_ids_are_random_and_stored_only_as_hashes():
    first, second = auth.new_session_id(), auth.new_session_id()
    assert first != second and len(first) >= 40
    assert auth.session_hash(first) != first and len(auth.session_hash(first)) == 64
    assert auth.session_hash(first) == auth.session_hash(first)


# --- the back-off on wrong PINs ----------------------------------------------------------------

def test_backoff_is_free_then_doubles_up_to_its_cap():
    policy = auth.Backoff(free=3, base_seconds=10, cap_seconds=35, window_seconds=1000)
    assert policy.wait([], 0) == 0
    assert policy.wait([0, 1], 2) == 0
    assert policy.wait([0, 1, 2], 2) == 10  # the 4th try waits 10 s after the 3rd failure
    assert policy.wait([0, 1, 2], 7) == 5
    assert policy.wait([0, 1, 2, 12], 12) == 20
    assert policy.wait([0, 1, 2, 12, 32], 32) == 35  # 40 s, capped
    assert policy.wait([0, 1, 2], 1000.5) == 0, "failures older than the window are forgotten"


def test_the_tournament_budget_makes_guessing_a_generated_pin_take_years():
    """README, Security: at the highest rate the app allows, finding one of two generated
    8-digit PINs takes on average more than a year (in fact about 1,100 years)."""
    per_day = auth.most_tries_per_day(auth.TOURNAMENT_BACKOFF)
    assert per_day == 83
    expected_tries = 10 ** auth.GENERATED_PIN_DIGITS / 3  # first hit of 2 PINs among 10^8
    years = expected_tries / per_day / 365
    assert years > 1000
    assert auth.most_tries_per_day(auth.CLIENT_BACKOFF) < per_day
