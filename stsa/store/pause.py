"""Sign-in's pause on wrong PINs (R20): every PIN typed is counted, and too many wrong ones
make sign-in wait; the console code and `lift_pause` are the organizer's ways past it.

All of it lives in the installation's database, never in a process's memory or a Streamlit
cache: any client can clear those caches, and several app processes on one PostgreSQL must
agree. A sign-in records a failure *before* it checks the PIN, and removes that one failure
again only when the PIN was right: a burst of guesses sent at once cannot get past the count,
and a right PIN does not wipe earlier wrong ones (a judge cannot reset the count to guess the
organizer's PIN).

The PIN check itself (scrypt, tens of milliseconds for each stored PIN) runs outside any
transaction: a short write counts the attempt (the pause is decided counting every attempt
still being checked as a failure, so the budgets hold exactly), the hashes are compared with
no lock held (hashlib releases the GIL; at most `PIN_CHECKS` at a time), and a second short
write removes the failure of a right PIN and opens the session. On SQLite a write transaction
holds the whole database: a check inside it made every judge's save, and every other sign-in,
wait for it. An attempt that finds the count full while other checks of this process are still
under way waits for them to end and counts again, so judges signing in together are not
paused by each other's right PINs. Checks under way in another process (PostgreSQL) count as
failures until they end, and a process that stops in the middle of a check leaves that try
counted as wrong: never more tries than the budgets allow, at worst a pause a moment early.

Nobody can block sign-in: a browser that signed in before keeps a *device token* (issued only
after a successful sign-in, `sessions.redeem_handoff` or `invites.join`: `devices`); its wrong
PINs are counted against that device alone (`auth.DEVICE_BACKOFF`), so no number of wrong PINs
from elsewhere pauses it. Without one, wrong PINs are counted per address (`auth.client_key`,
`auth.CLIENT_BACKOFF`) and for the whole tournament (`auth.TOURNAMENT_BACKOFF`); the organizer
lifts that pause on the Settings page or from the console (`lift_pause`).

The PIN check itself is the one `pins.set_pin` asks for the current organizer PIN too, and
`sessions.sign_in` opens its session in the check's last write.
"""

from __future__ import annotations

import datetime as dt
import hmac
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from stsa import auth
from stsa.auth import Actor, require
from stsa.domain import Action, Role, TournamentError
from stsa.i18n import N_, _, ngettext
from stsa.store import audit, db
from stsa.store.credentials import pin_hashes, role_for_pin
from stsa.store.devices import known_device
from stsa.store.schema import installation_keys as keys_t
from stsa.store.schema import sign_in_failures as failures_t

_SIGN_IN_LOCK_KEY = 0x53544731  # PostgreSQL advisory lock: one attempt counted at a time
#: PIN checks (16 MiB of scrypt memory each) that run at once in one process; more wait.
PIN_CHECKS = max(2, os.cpu_count() or 2)
CHECK_WAIT_SECONDS = 30  # the longest a paused attempt waits for this process's checks to end


class SignInPaused(TournamentError):
    """Too many wrong PINs: sign-in waits `seconds` before the next try."""

    def __init__(self, message: str, seconds: float):
        super().__init__(message)
        self.seconds = seconds



def _seconds(at: dt.datetime) -> float:
    return at.timestamp()



def _pause(conn: Connection, client: str, device: str | None,
           now: dt.datetime, *, console: bool = False) -> tuple[float, str]:
    """How long the next PIN must wait and whose count makes it wait: a console code's own
    ("console", `device` is then the code's hash), a trusted device's own ("device"), else the
    address's ("mine"), its IPv6 /64's ("network") or every address's together ("everyone")."""
    at = _seconds(now)
    if device is not None:
        policy = auth.CONSOLE_BACKOFF if console else auth.DEVICE_BACKOFF
        since = now - dt.timedelta(seconds=policy.memory_seconds)
        mine = conn.execute(sa.select(failures_t.c.at).where(
            failures_t.c.device == device, failures_t.c.at > since)).scalars().all()
        return policy.wait([_seconds(t) for t in mine], at), "console" if console else "device"
    since = now - dt.timedelta(seconds=_MEMORY_SECONDS)
    rows = conn.execute(sa.select(failures_t.c.client, failures_t.c.at)
                        .where(failures_t.c.device.is_(None), failures_t.c.at > since)).all()
    everyone = [_seconds(r.at) for r in rows]
    mine = [_seconds(r.at) for r in rows if r.client == client]
    network = auth.network_key(client)
    near = [_seconds(r.at) for r in rows
            if network is not None and auth.network_key(r.client) == network]
    return max((auth.CLIENT_BACKOFF.wait(mine, at), "mine"),
               (auth.NETWORK_BACKOFF.wait(near, at), "network"),
               (auth.TOURNAMENT_BACKOFF.wait(everyone, at), "everyone"))


#: How far back wrong PINs without a device are read: as long as any of their counts keeps one.
_MEMORY_SECONDS = max(policy.memory_seconds for policy in (
    auth.CLIENT_BACKOFF, auth.NETWORK_BACKOFF, auth.TOURNAMENT_BACKOFF))


def _wait_words(seconds: float) -> str:
    whole = int(seconds) + 1
    if whole < 120:
        return ngettext("{count} second", "{count} seconds", whole).format(count=whole)
    minutes = (whole + 59) // 60
    return ngettext("{count} minute", "{count} minutes", minutes).format(count=minutes)


PAUSED = N_("Too many wrong PINs were tried here, so sign-in is paused for {wait}. A phone or "
            "computer that signed in here before can still sign in. The organizer can sign in "
            "anyway with a one-time code from the machine that runs STSA (“make code” there), "
            "or lift the pause on the Settings page or with “make unlock”.")
PAUSED_HERE = {"mine": N_("Too many wrong PINs: try again in {wait}."),
               "network": N_("Too many wrong PINs from this network: sign-in from here is "
                             "paused for {wait}. A phone or computer that signed in here before "
                             "can still sign in; the organizer can sign in with a one-time code "
                             "from the machine that runs STSA (“make code” there)."),
               "device": N_("Too many wrong PINs from this device: try again in {wait}."),
               "console": N_("Too many wrong PINs with this code: try again in {wait}."),
               "everyone": PAUSED}
CONSOLE_CODE_KEY = "console_code"  # installation_keys: the hash of the one console code
CONSOLE_CODE_WRONG = N_("That code is not right, was used already or has expired. Run “make "
                        "code” on the machine that runs STSA for a new one.")


def make_console_code(engine: Engine, *, actor: Actor = db.SYSTEM) -> str:
    """R20: a new one-time code for the organizer, printed at the console of the machine that
    runs STSA (`python -m stsa pins --code`, `make code`): with it and the organizer's PIN one
    sign-in goes through whatever pause many wrong PINs put on others (its own wrong PINs wait
    at most `auth.CONSOLE_BACKOFF.cap_seconds`). Valid `auth.CONSOLE_CODE_SECONDS`, once; a new
    code replaces the one before. Only its hash is stored (the installation's keys); it never
    travels in an address. The sign-in it lets through is listed with the open sessions;
    making the code is logged (R19), so the log shows when the console was used."""
    code = auth.new_console_code()

    def work(conn: Connection) -> None:
        conn.execute(sa.delete(keys_t).where(keys_t.c.name == CONSOLE_CODE_KEY))
        conn.execute(sa.insert(keys_t).values(name=CONSOLE_CODE_KEY,
                                              value=auth.console_code_hash(code),
                                              created_at=db.now()))
        audit.log(conn, actor, Action.SIGN_IN_CODE, "sign-in",
                  after={"minutes": auth.CONSOLE_CODE_SECONDS // 60})

    db.write(db.installation(engine), work)
    return code


def _console_code(conn: Connection, code: str | None, now: dt.datetime) -> str | None:
    """The hash of `code` if it is the console code and has not expired (raises
    `TournamentError` when it is not), None when no code was given."""
    if code is None or not str(code).strip():
        return None
    typed = auth.console_code_hash(code)
    row = conn.execute(sa.select(keys_t).where(keys_t.c.name == CONSOLE_CODE_KEY)).first()
    if typed is None or row is None or not hmac.compare_digest(typed, row.value) \
            or now - row.created_at >= dt.timedelta(seconds=auth.CONSOLE_CODE_SECONDS):
        raise TournamentError(_(CONSOLE_CODE_WRONG))
    return typed


class _Checks:
    """The PIN checks under way in this process: each has a failure written that is not yet
    resolved (removed for a right PIN, kept for a wrong one)."""

    def __init__(self) -> None:
        self.changed = threading.Condition()
        self.running = 0  # attempts counted and not yet resolved
        self.ended = 0  # attempts resolved so far (only grows)
        self.hashing = threading.BoundedSemaphore(PIN_CHECKS)

    def begin(self) -> None:
        with self.changed:
            self.running += 1

    def end(self) -> None:
        with self.changed:
            self.running -= 1
            self.ended += 1
            self.changed.notify_all()

    def others(self, mine: bool) -> tuple[int, int]:
        """(checks of others under way, resolutions so far)."""
        with self.changed:
            return self.running - mine, self.ended

    def wait_for_one(self, seen: int, deadline: float) -> None:
        """Until one more check has ended than `seen`, or the `deadline` (time.monotonic())."""
        with self.changed:
            self.changed.wait_for(lambda: self.ended != seen,
                                  timeout=max(0.0, deadline - time.monotonic()))


_CHECKS = _Checks()


@dataclass
class _Counted:
    """An attempt as its first write left it: its failure row (None when paused), the stored
    hashes it is checked against, or the pause and whose count makes it."""

    failure: int | None
    hashes: dict[str, str]
    wait: float
    whose: str
    others: int  # other checks of this process under way when it was counted
    ended: int  # checks of this process resolved by then
    device: str | None  # the trusted device's hash, if any
    now: dt.datetime


def attempt(engine: Engine, pin: str, client: str, device: str | None = None,
             then: Callable[[Connection, Role, dt.datetime], Any] | None = None, *,
             judge: str = Role.JUDGE.value, console: str | None = None) -> Role | None:
    """One counted PIN check: refused while paused; a failure is written (and committed)
    before the check and stays unless the PIN is right; then only that one is removed, in
    the same transaction as `then(conn, role, now)` (opening the session). The check runs
    outside any transaction. `client` is the address (`auth.client_key` is applied here); a
    trusted `device` is counted on its own instead. With the `console` code
    (`make_console_code`) only the organizer's PIN is checked, counted on that code alone
    (`auth.CONSOLE_BACKOFF`), and a right one uses the code up."""
    client = auth.client_key(client)
    mine = False  # this attempt is among the checks under way (its failure written)

    def peek(conn: Connection) -> _Counted:
        """The pause as the failures written make it, the checks still under way included."""
        now = db.now()
        code = _console_code(conn, console, now)
        trusted = code or known_device(conn, device, now)
        wait, whose = _pause(conn, client, trusted, now, console=code is not None)
        others, ended = _CHECKS.others(mine)
        return _Counted(None, {}, wait, whose, others, ended, trusted, now)

    def count(conn: Connection) -> _Counted:
        nonlocal mine
        if not db.is_sqlite(conn):
            conn.execute(sa.text("SELECT pg_advisory_xact_lock(:k)"), {"k": _SIGN_IN_LOCK_KEY})
        seen = peek(conn)
        if seen.wait > 0:
            return seen
        seen.failure = conn.execute(sa.insert(failures_t).values(
            client=client, device=seen.device, at=seen.now)).inserted_primary_key[0]  # type: ignore[index]
        if not mine:  # before the commit: whoever reads this failure sees it under way
            _CHECKS.begin()
            mine = True
        seen.hashes = pin_hashes(conn, judge=judge)
        if seen.whose == "console":  # the organizer's way past a pause, never a judge's
            seen.hashes = {k: v for k, v in seen.hashes.items() if k == Role.ORGANIZER.value}
        return seen

    try:
        deadline = time.monotonic() + CHECK_WAIT_SECONDS
        while True:
            counted = db.write(engine, count)
            if counted.failure is not None or not counted.others \
                    or time.monotonic() > deadline:
                break
            # Paused perhaps only by failures still being checked: wait until one ends and
            # the count (read, with no write lock) lets this attempt through, or no other
            # check is under way; then count again, in a write.
            ended = counted.ended
            while time.monotonic() <= deadline:
                _CHECKS.wait_for_one(ended, deadline)
                with db.reading(engine) as conn:
                    again = peek(conn)
                if again.wait <= 0 or not again.others:
                    break
                ended = again.ended
        if counted.failure is None:
            raise SignInPaused(_(PAUSED_HERE[counted.whose]).format(
                wait=_wait_words(counted.wait)), counted.wait)
        with _CHECKS.hashing:
            role = role_for_pin(counted.hashes, pin)
        if role is None:
            return None

        def resolve(conn: Connection) -> bool:
            # the PIN checked is still this role's (not changed meanwhile, its sessions ended)
            if pin_hashes(conn, judge=judge).get(role.value) != counted.hashes.get(role.value):
                return False
            if counted.whose == "console" and conn.execute(sa.delete(keys_t).where(
                    keys_t.c.name == CONSOLE_CODE_KEY,
                    keys_t.c.value == counted.device)).rowcount != 1:
                raise TournamentError(_(CONSOLE_CODE_WRONG))  # used by another sign-in
            conn.execute(sa.delete(failures_t).where(failures_t.c.id == counted.failure))
            if then is not None:
                then(conn, role, db.now())
            return True

        return role if db.write(engine, resolve) else None
    finally:
        if mine:
            _CHECKS.end()



def sign_in_pause(engine: Engine) -> float:
    """Seconds the tournament-wide pause on sign-in still lasts (0 when there is none), for
    the Settings page: wrong PINs from every address together (trusted devices apart)."""
    now = db.now()
    since = now - dt.timedelta(seconds=auth.TOURNAMENT_BACKOFF.memory_seconds)
    with db.reading(db.installation(engine)) as conn:
        times = conn.execute(sa.select(failures_t.c.at).where(
            failures_t.c.device.is_(None), failures_t.c.at > since)).scalars().all()
    return auth.TOURNAMENT_BACKOFF.wait([_seconds(t) for t in times], _seconds(now))


def lift_pause(engine: Engine, *, actor: Actor) -> int:
    """R20: forget every wrong PIN recorded (from every address and device), so nobody waits;
    the PINs stay as they are. The organizer only, on the Settings page, or `db.SYSTEM` for
    the console command (`python -m stsa pins --unlock`). Logged; returns how many wrong PINs
    were forgotten."""
    require(actor, Role.ORGANIZER, action=N_("lift the sign-in pause"))

    def work(conn: Connection) -> int:
        forgotten = conn.execute(sa.delete(failures_t)).rowcount
        audit.log(conn, actor, Action.SIGN_IN_UNLOCK, "sign-in", after={"forgotten": forgotten})
        return forgotten

    return db.write(db.installation(engine), work)
