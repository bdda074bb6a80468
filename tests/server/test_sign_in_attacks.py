"""Attacks on sign-in, sent as a hostile client would send them: over Streamlit's websocket,
with messages a browser sends too (a form submit, `clear_cache`, a session cookie), against a
real server.

What must hold (R20): wrong PINs are counted where no client can reset the count (not in a
Streamlit cache, not per process) and a burst sent at once cannot get past it; a PIN changed
in the app stays changed; a session ends when it is signed out, when its role's PIN changes
or when the organizer signs everyone out, also for a connection that is still open; a name
typed at sign-in is shown as text, never as a link; two app processes on one database agree
on all of it.

Every session here comes from 127.0.0.1, the address wrong PINs are counted under, so each
test that gets PINs wrong or changes who may sign in runs on a database of its own.
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from bench.wsclient import Run, Session
from tests.server.conftest import assert_clean, handoff_cookies, sign_in
from tests.support.appserver import JUDGE_PIN, ORGANIZER_PIN

pytestmark = pytest.mark.server

WRONG = "That PIN is not right."
TOO_MANY = "Too many wrong PINs"
FREE_WRONG_PINS = 5  # wrong PINs a client may send before sign-in pauses
NEW_JUDGE_PIN = "862204"
# A link dressed as a message from the app. 56 characters: the name field takes at most 60
# (longer input is cut to 60 by the server, which would break the link and test nothing).
LINK_NAME = "[PIN expired, tap to sign in](http://evil.example/login)"


def wrong_pin(n: int) -> str:
    """The n-th wrong PIN (never one of the test PINs)."""
    return f"{990000 + n}"


def signed_in(run: Run) -> bool:
    return "Signed in as" in run.text()


def shows_sign_in_form(run: Run) -> bool:
    """The Sign in page shows its form (as it does for a spectator), not "Signed in as"."""
    labels = {w.label for w in run.widgets}
    return {"Your name", "PIN"} <= labels and not signed_in(run)


def session_cookies(app, run: Run) -> dict[str, str]:
    """The cookies a browser holds after this sign-in run (the page posts its handoff)."""
    assert "session" not in run.query_params, f"a session in the address: {run.query!r}"
    return handoff_cookies(app, run)


def signed_in_as(session: Session, name: str, pin: str) -> Run:
    run = assert_clean(sign_in(session, name, pin))
    assert signed_in(run), f"{name} could not sign in: {run.texts()}"
    return run


def get_pins_wrong(session: Session, count: int) -> None:
    for n in range(1, count + 1):
        run = assert_clean(sign_in(session, "Mallory", wrong_pin(n)))
        assert WRONG in run.text(), f"wrong PIN {n}: {run.texts()}"


def change_judge_pin(organizer: Session, new_pin: str) -> Run:
    """As the (signed-in) organizer, change the judges' PIN on the Settings page."""
    page = assert_clean(organizer.run(page="settings"))
    assert page.page == "settings", page.page
    done = assert_clean(organizer.submit_form("Change PIN", {
        "Whose PIN": "Judges", "Your organizer PIN": ORGANIZER_PIN,
        "New PIN": new_pin, "New PIN again": new_pin}))
    assert not done.alerts["error"], done.alerts["error"]
    return done


# --- a. the count of wrong PINs ------------------------------------------------------------------

def test_wrong_pins_pause_sign_in_and_clear_cache_does_not_reset_it(fresh_server, connect):
    """After 5 wrong PINs the next try is refused. A `clear_cache` message (any client may
    send one; the browser's "Clear cache" sends it) must not reset the count: the next try,
    even with the right PIN, is still refused."""
    mallory = connect(fresh_server, "sign_in")
    get_pins_wrong(mallory, FREE_WRONG_PINS)
    refused = assert_clean(sign_in(mallory, "Mallory", wrong_pin(0)))
    assert TOO_MANY in refused.text(), refused.texts()

    mallory.clear_cache()
    after = assert_clean(sign_in(mallory, "Mallory", JUDGE_PIN))
    assert not signed_in(after), "clear_cache reset the count of wrong PINs"
    assert TOO_MANY in after.text(), after.texts()


# --- b. a burst of wrong PINs at once ------------------------------------------------------------

def test_a_burst_of_wrong_pins_gets_no_more_than_five_checked(fresh_server, connect):
    """15 wrong PINs sent at the same moment from 15 connections of one address: at most 5
    are checked (answered "That PIN is not right."), the others are refused as too many. A
    count read before the PIN check and written after it would let the whole burst through."""
    count = 15
    sessions = [connect(fresh_server, "sign_in") for _ in range(count)]
    for session in sessions:
        assert shows_sign_in_form(assert_clean(session.run()))
    start = threading.Barrier(count, timeout=120)

    def attempt(n: int) -> Run:
        start.wait()  # all 15 submits leave together
        return sessions[n].submit_form("Sign in", {"Your name": f"Mallory {n}",
                                                   "PIN": wrong_pin(n)})

    with ThreadPoolExecutor(max_workers=count) as pool:
        runs = list(pool.map(attempt, range(count)))
    answers = []
    for run in runs:
        assert_clean(run)
        text = run.text()
        assert (WRONG in text) != (TOO_MANY in text), f"neither or both answers: {run.texts()}"
        answers.append(WRONG if WRONG in text else TOO_MANY)
    assert answers.count(WRONG) <= FREE_WRONG_PINS, \
        f"{answers.count(WRONG)} of {count} wrong PINs were checked at once"


# --- c. a changed PIN stays changed --------------------------------------------------------------

def test_changed_pin_does_not_come_back_after_clear_cache(fresh_server, connect):
    """The organizer changes the judges' PIN; then a spectator sends `clear_cache`. The app
    must not go back to the PIN it was started with (from the environment): the old judge PIN
    is refused and the new one works."""
    organizer = connect(fresh_server, "sign_in")
    signed_in_as(organizer, "Olivia", ORGANIZER_PIN)
    change_judge_pin(organizer, NEW_JUDGE_PIN)

    spectator = connect(fresh_server)
    assert_clean(spectator.run())
    spectator.clear_cache()
    assert_clean(spectator.run())  # the app builds what was cached anew

    old = assert_clean(sign_in(connect(fresh_server, "sign_in"), "Jamal", JUDGE_PIN))
    assert not signed_in(old), "the judge PIN from the environment came back"
    assert WRONG in old.text(), old.texts()
    signed_in_as(connect(fresh_server, "sign_in"), "Jamal", NEW_JUDGE_PIN)


# --- d. sessions end -----------------------------------------------------------------------------

def test_signed_out_session_address_signs_nobody_in(server, connect):
    """After "Sign out", the session cookie the judge's phone held opens the app as a
    spectator: someone who copied it from the phone gets nothing."""
    judge = connect(server, "sign_in")
    cookies = session_cookies(server, signed_in_as(judge, "Jamal", JUDGE_PIN))
    out = assert_clean(judge.click("Sign out"))
    assert shows_sign_in_form(out), out.texts()

    replay = assert_clean(connect(server, "sign_in", cookies=cookies).run())
    assert shows_sign_in_form(replay), f"the signed-out session still works: {replay.texts()}"


def test_judge_session_ends_when_the_judge_pin_changes(fresh_server, connect):
    """When the organizer changes the judges' PIN (say, it leaked), a judge's old session
    cookie no longer signs anyone in."""
    judge = connect(fresh_server, "sign_in")
    cookies = session_cookies(fresh_server, signed_in_as(judge, "Jamal", JUDGE_PIN))
    organizer = connect(fresh_server, "sign_in")
    signed_in_as(organizer, "Olivia", ORGANIZER_PIN)
    change_judge_pin(organizer, NEW_JUDGE_PIN)

    replay = assert_clean(connect(fresh_server, "sign_in", cookies=cookies).run())
    assert shows_sign_in_form(replay), f"the old judge session still works: {replay.texts()}"


def test_open_connection_stops_being_signed_in_after_sign_everyone_out(fresh_server, connect):
    """"Sign everyone out" ends sessions that are in use right now: a judge whose connection
    stays open is a spectator at its next run (the Sign in page shows the form)."""
    judge = connect(fresh_server, "sign_in")
    signed_in_as(judge, "Jamal", JUDGE_PIN)
    organizer = connect(fresh_server, "sign_in")
    signed_in_as(organizer, "Olivia", ORGANIZER_PIN)
    settings = assert_clean(organizer.run(page="settings"))
    assert settings.page == "settings", settings.page
    assert_clean(organizer.click("Sign everyone out"))

    after = assert_clean(judge.run())
    assert after.page == "sign_in", after.page
    assert shows_sign_in_form(after), f"the open judge connection is still signed in: " \
                                      f"{after.texts()}"


# --- e. names are text ---------------------------------------------------------------------------

def test_name_with_a_markdown_link_shows_as_text(server, connect):
    """A judge who signs in with a name that is a Markdown link sees it as typed: nothing the
    Sign in page renders as Markdown (messages, text, labels) contains a live link, on the run
    after signing in (with its "signed in" message) nor on the next."""
    judge = connect(server, "sign_in")
    run = signed_in_as(judge, LINK_NAME, JUDGE_PIN)
    assert "evil.example" in run.text(), "the name is shown"
    assert run.markdown_links() == [], run.markdown()
    again = assert_clean(judge.run())
    assert signed_in(again) and "evil.example" in again.text()
    assert again.markdown_links() == [], again.markdown()


# --- f. two app processes, one database ----------------------------------------------------------

@pytest.mark.postgres
def test_wrong_pins_are_counted_across_servers(two_servers, connect):
    """Two app processes on one PostgreSQL database share the count: 5 wrong PINs on server A,
    and the next try on server B, even with the right PIN, is refused. A count kept in each
    process would give a guesser 5 tries per process."""
    a, b = two_servers
    get_pins_wrong(connect(a, "sign_in"), FREE_WRONG_PINS)
    on_b = assert_clean(sign_in(connect(b, "sign_in"), "Mallory", JUDGE_PIN))
    assert not signed_in(on_b), "server B did not know about the wrong PINs sent to A"
    assert TOO_MANY in on_b.text(), on_b.texts()


@pytest.mark.postgres
def test_session_from_one_server_works_on_the_other(two_servers, connect):
    """A judge signed in on server A stays signed in when the next request goes to server B
    (its session cookie): sessions live in the shared database."""
    a, b = two_servers
    cookies = session_cookies(a, signed_in_as(connect(a, "sign_in"), "Jamal", JUDGE_PIN))
    on_b = assert_clean(connect(b, "sign_in", cookies=cookies).run())
    assert signed_in(on_b) and "Jamal" in on_b.text(), on_b.texts()


# --- g. a forged forwarded address --------------------------------------------------------------

def test_a_forged_forwarded_address_buys_no_more_guesses(fresh_server, connect):
    """Without STSA_TRUSTED_PROXY no X-Forwarded-For header is believed: a guesser who sends a
    new made-up address with every connection still shares one count of wrong PINs."""
    for n in range(1, FREE_WRONG_PINS + 1):
        forged = connect(fresh_server, "sign_in", headers={"X-Forwarded-For": f"10.0.0.{n}"})
        run = assert_clean(sign_in(forged, "Mallory", wrong_pin(n)))
        assert WRONG in run.text(), run.texts()
    last = connect(fresh_server, "sign_in", headers={"X-Forwarded-For": "10.0.0.99"})
    refused = assert_clean(sign_in(last, "Mallory", JUDGE_PIN))
    assert not signed_in(refused) and TOO_MANY in refused.text(), refused.texts()


def test_behind_a_trusted_proxy_each_forwarded_address_has_its_own_count(tmp_path, connect):
    """With STSA_TRUSTED_PROXY naming the proxy (here the loopback address), the forwarded
    address is the client's: one client's wrong PINs do not pause another's sign-in."""
    from tests.support.appserver import started

    with started(tmp_path / "app", env={"STSA_TRUSTED_PROXY": "127.0.0.1"}) as app:
        guesser = connect(app, "sign_in", headers={"X-Forwarded-For": "10.0.0.7"})
        get_pins_wrong(guesser, FREE_WRONG_PINS)
        assert TOO_MANY in assert_clean(sign_in(guesser, "Mallory", wrong_pin(0))).text()
        judge = connect(app, "sign_in", headers={"X-Forwarded-For": "10.0.0.8"})
        signed_in_as(judge, "Jamal", JUDGE_PIN)


# --- h. issue 33: the pause on everyone, and IPv6 addresses ------------------------------------

VENUE = "2001:db8:aa:bb"  # a venue that hands one /64 to every phone in the room


def test_behind_a_trusted_proxy_one_ipv6_address_does_not_pause_its_64(tmp_path, connect):
    """A venue hands one /64 to every phone: one phone's wrong PINs pause that phone, not the
    judge on the next address of the same /64 (the address comes from the proxy's header)."""
    from tests.support.appserver import started

    with started(tmp_path / "app", env={"STSA_TRUSTED_PROXY": "127.0.0.1"}) as app:
        guesser = connect(app, "sign_in", headers={"X-Forwarded-For": f"{VENUE}::66"})
        get_pins_wrong(guesser, FREE_WRONG_PINS)
        assert TOO_MANY in assert_clean(sign_in(guesser, "Mallory", wrong_pin(0))).text()
        judge = connect(app, "sign_in", headers={"X-Forwarded-For": f"{VENUE}::77"})
        signed_in_as(judge, "Jamal", JUDGE_PIN)


def test_paused_for_everyone_the_organizer_signs_in_once_with_a_code_from_the_console(
        fresh_server, connect):
    """Wrong PINs from many addresses pause every browser without a device cookie, the
    organizer's new phone too. `make code` on the laptop prints a one-time code; the Sign in
    page, once it showed the pause, asks for it: with it and the organizer PIN the organizer
    is in, once; a second browser with the same code is not, and the pause stays."""
    import os
    import subprocess
    import sys

    import sqlalchemy as sa

    from stsa import store
    from stsa.store import schema
    from tests.support.appserver import ROOT

    engine = store.connect(fresh_server.database_url)
    try:
        with engine.begin() as conn:  # a day of wrong PINs from 11 addresses: an hour's pause
            at = store.db.now()
            conn.execute(sa.insert(schema.sign_in_failures), [
                {"client": f"10.0.0.{n % 11}", "at": at} for n in range(80)])
    finally:
        engine.dispose()
    phone = connect(fresh_server, "sign_in")
    paused = assert_clean(sign_in(phone, "Olivia", ORGANIZER_PIN))
    assert "sign-in is paused" in paused.text() and not signed_in(paused), paused.texts()
    assert "One-time code (organizer)" in {w.label for w in paused.widgets}, paused.texts()

    made = subprocess.run([sys.executable, "-m", "stsa", "pins", "--code"], cwd=ROOT,
                          env={**os.environ, "STSA_DATABASE_URL": fresh_server.database_url},
                          text=True, capture_output=True, timeout=120)
    assert made.returncode == 0, made.stderr
    code = made.stdout.split("one-time code ")[1].split(".")[0]
    fields = {"Your name": "Olivia", "PIN": ORGANIZER_PIN, "One-time code (organizer)": code}
    run = assert_clean(phone.submit_form("Sign in", fields))
    assert signed_in(run) and "organizer" in run.text(), run.texts()
    assert code not in run.query and "stsa_session" in session_cookies(fresh_server, run)

    other = connect(fresh_server, "sign_in")
    assert TOO_MANY in assert_clean(sign_in(other, "Olivia", ORGANIZER_PIN)).text()
    again = assert_clean(other.submit_form("Sign in", fields))
    assert not signed_in(again) and "used already" in again.text(), again.texts()
