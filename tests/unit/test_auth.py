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


@pytest.mark.slow
def test_the_tournament_budget_makes_guessing_a_generated_pin_take_years():
    """README, Security: at the highest rate the app allows a guesser without a trusted device
    (devices are issued only after a right PIN), finding one of two generated 8-digit PINs
    takes on average more than a year (in fact about 1,500 years: 118 tries the first day,
    then about 59 a day as the wrong PINs decay). Every wrong PIN from an address also counts
    for the whole tournament, so addresses add nothing to it."""
    assert auth.most_tries_per_day(auth.TOURNAMENT_BACKOFF) == 118
    per_year = auth.most_tries(auth.TOURNAMENT_BACKOFF, 365 * 86400)
    assert 21_000 < per_year < 22_000  # about 59 a day
    expected_tries = 10 ** auth.GENERATED_PIN_DIGITS / 3  # first hit of 2 PINs among 10^8
    years = expected_tries / per_year
    assert 1400 < years < 1600  # "about 1,500 years"
    assert auth.most_tries_per_day(auth.CLIENT_BACKOFF) < auth.most_tries_per_day(
        auth.NETWORK_BACKOFF) < auth.most_tries_per_day(auth.TOURNAMENT_BACKOFF)


def test_the_pause_decays_when_the_guessing_slows_down():
    """Issue 33: a guesser who paused everyone and then tries once an hour no longer holds the
    pause at its hour-long cap: the wrong PINs weigh less as they age, and the wait shrinks
    hour by hour (to a few minutes within four hours, none after ten)."""
    policy = auth.TOURNAMENT_BACKOFF
    failures = [float(n) for n in range(policy.free + 12)]  # a burst: the wait is at its cap
    assert policy.wait(failures, failures[-1]) == policy.cap_seconds
    waits = []
    for _hour in range(10):
        failures.append(failures[-1] + 3600)  # one more wrong PIN an hour later
        waits.append(policy.wait(failures, failures[-1]))
    assert waits == sorted(waits, reverse=True) and waits[0] < policy.cap_seconds
    assert waits[0] <= policy.cap_seconds / 1.5 and waits[3] < 5 * 60 and waits[-1] == 0


def test_a_burst_still_pauses_at_once_with_decay():
    policy = auth.TOURNAMENT_BACKOFF
    burst = [float(n) for n in range(policy.free)]
    assert policy.wait(burst[:-1], burst[-2]) == 0
    assert policy.wait(burst, burst[-1]) == policy.base_seconds


@pytest.mark.slow
def test_trusted_devices_add_only_their_own_budgets():
    """README, Security: a trusted device's wrong PINs count against itself alone (34 the
    first day, then 24 a day). A signed-in judge whose device turns guesser knows the judge
    PIN and guesses the organizer's alone (half of 10^8 tries on average) at about 59 + 24 a
    day: about 1,650 years. One person holding every judge device STSA trusts at once
    (`DEVICE_LIMIT`, 50) guesses at 59 + 50 × 24 a day: still about 109 years."""
    from stsa.store.devices import DEVICE_LIMIT

    year = 365 * 86400
    tournament = auth.most_tries(auth.TOURNAMENT_BACKOFF, year)
    device = auth.most_tries(auth.DEVICE_BACKOFF, year)
    assert auth.most_tries_per_day(auth.DEVICE_BACKOFF) == 34
    one_pin = 10 ** auth.GENERATED_PIN_DIGITS / 2
    assert 1550 < one_pin / (tournament + device) < 1750  # "about 1,650 years"
    every_judge_device = tournament + DEVICE_LIMIT[Role.JUDGE] * device
    assert 100 < one_pin / every_judge_device < 120  # "about 109 years"


# --- the key wrong PINs are counted under ------------------------------------------------------

@pytest.mark.parametrize("address, key", [
    ("192.168.1.20", "192.168.1.20"),
    (" 10.0.0.7 ", "10.0.0.7"),
    ("::ffff:10.0.0.7", "10.0.0.7"),
    ("::ffff:0a00:0007", "10.0.0.7"),
    ("2001:db8:1:2:3:4:5:6", "2001:db8:1:2:3:4:5:6"),  # issue 33: an IPv6 address whole
    ("2001:DB8:1:2::ffff", "2001:db8:1:2::ffff"),
    ("[2001:db8:1:2::1]", "2001:db8:1:2::1"),
    ("fe80::1%wlan0", "fe80::1"),
    ("::1", "::1"),
    ("local", "local"),
    ("forwarded", "forwarded"),
    ("", ""),
    ("not an address " * 20, ("not an address " * 20).strip()[:100]),
])
def test_client_key(address, key):
    assert auth.client_key(address) == key
    assert len(auth.client_key(address)) <= 100


@pytest.mark.parametrize("key, network", [
    ("2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"), ("2001:db8:1:2::ffff", "2001:db8:1:2::/64"),
    ("2001:db8:1:2::/64", "2001:db8:1:2::/64"),  # a key an earlier release stored
    ("fe80::1", "fe80::/64"), ("10.0.0.7", None), ("local", None), ("", None),
    ("2001:db8::/48", None),
])
def test_network_key(key, network):
    """Issue 33: the /64 whose wrong PINs are also counted together; IPv4 has none."""
    assert auth.network_key(key) == network


def test_a_console_code_is_twelve_digits_and_kept_only_as_a_hash():
    code = auth.new_console_code()
    digits = code.replace("-", "")
    assert len(digits) == auth.CONSOLE_CODE_DIGITS and digits.isdigit() and code.count("-") == 2
    assert auth.console_code_hash(code) == auth.console_code_hash(f" {digits} ") != digits
    assert auth.console_code_hash(digits[:-1]) is None
    assert auth.console_code_hash("x" * 12) is None and auth.console_code_hash(None) is None


# --- PINs too easy to guess --------------------------------------------------------------------

@pytest.mark.parametrize("pin, why", [
    ("000000", "one digit repeated"), ("aaaaaa", "one character repeated"),
    ("123456", "count up or down"), ("987654", "count up or down"),
    ("12345678", "count up or down"), ("890123", "count up or down"),
    ("abcdef", "count up or down"), ("ZYXWVU", "count up or down"),
    ("121212", "a short block repeated"), ("123123", "a short block repeated"),
    ("424242", "a short block repeated"), ("171717", "a short block repeated"),
    ("24682468", "a short block repeated"), ("abcabc", "a short block repeated"),
    ("112233", "more than once in a row"), ("111222", "more than once in a row"),
    ("11223344", "more than once in a row"), ("100001", "only two different digits"),
    ("123321", "most common"), ("159753", "most common"), ("147258", "most common"),
    ("102030", "most common"), ("789456", "most common"), ("654123", "most common"),
    ("696969", "a short block repeated"), ("520520", "a short block repeated"),
    ("Password", "most common"), ("qwerty", "most common"),
])
def test_pins_too_easy_to_guess_are_refused_in_plain_words(pin, why):
    assert why in auth.pin_weakness(pin)
    with pytest.raises(TournamentError, match=r"^That PIN is too easy to guess \(.+\)\. "
                                              r"Choose another\.$") as refused:
        auth.check_pin_strength(pin)
    assert why in str(refused.value) and "R20" not in str(refused.value)


def test_the_message_for_one_repeated_digit():
    with pytest.raises(TournamentError) as refused:
        auth.check_pin_strength("000000")
    assert str(refused.value) == ("That PIN is too easy to guess (one digit repeated). Choose "
                                  "another.")


@pytest.mark.parametrize("pin", ["480915", "736204", "314159", "471147", "123412", "24681357",
                                 "48091573", "bench-organizer", "dune-2026"])
def test_ordinary_pins_are_accepted(pin):
    assert auth.pin_weakness(pin) is None
    assert auth.check_pin_strength(pin) == pin


def test_strength_checks_the_format_first():
    with pytest.raises(TournamentError, match="6 to 64"):
        auth.check_pin_strength("1234")


def test_generated_pins_skip_trivial_ones(monkeypatch):
    digits = iter("11111111" + "12345678" + "73620419")
    monkeypatch.setattr(auth.secrets, "choice", lambda _alphabet: next(digits))
    assert auth.new_pin() == "73620419"


# --- tokens, and a session id sealed for a handoff code ---------------------------------------

def test_tokens_are_random_urlsafe_and_kept_only_as_hashes():
    first, second = auth.new_token(), auth.new_token()
    assert first != second and len(first) == 43
    assert set(first) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    assert auth.token_hash(first) == auth.session_hash(first) != first


def test_only_the_code_unseals_the_session_id():
    session_id, code = auth.new_session_id(), auth.new_token()
    sealed = auth.seal(session_id, code)
    assert session_id not in sealed and code not in sealed
    assert auth.unseal(sealed, code) == session_id
    assert auth.unseal(sealed, auth.new_token()) != session_id
    assert auth.unseal("not hex", code) is None
