"""Who may get in (R20): PINs per role, sign-in with a back-off on wrong PINs, trusted devices,
sessions and the one-time codes that hand a session to a browser.

All of it lives in the database, never in a process's memory or a Streamlit cache: any client
can clear those caches, and several app processes on one PostgreSQL must agree. A sign-in
records a failure *before* it checks the PIN, and removes that one failure again only when the
PIN was right: a burst of guesses sent at once cannot get past the count, and a right PIN does
not wipe earlier wrong ones (a judge cannot reset the count to guess the organizer's PIN).

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
after a successful sign-in, `redeem_handoff` or `stsa.store.invites.join`); its wrong PINs
are counted against that device alone (`auth.DEVICE_BACKOFF`), so no number of wrong PINs from
elsewhere pauses it. Without one, wrong PINs are counted per address (`auth.client_key`,
`auth.CLIENT_BACKOFF`) and for the whole tournament (`auth.TOURNAMENT_BACKOFF`); the organizer
lifts that pause on the Settings page or from the console (`lift_pause`).

Sessions are random ids of which only the hash is stored; they end on sign-out, when their
role's PIN changes, when the organizer signs everyone out or withdraws the invitation they came
from, after `SESSION_IDLE_HOURS` without use, or `SESSION_MAX_HOURS` after they began. No
secret is derived from a PIN hash, and none of these tables is in a backup.

With several tournaments (R27) all of it lives in the installation's database
(`db.installation`): the organizer's PIN, every session, every wrong PIN and device. Each
tournament has its own judges' PIN (stored under the role `judge:<tournament id>`; the
installation's own tournament keeps `judge`), and a judge's session belongs to the tournament
it was opened in: another tournament's pages do not sign it in, and the store refuses its
writes there (`audit.may_change`).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import hmac
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeGuard

import pandas as pd
import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from stsa import auth
from stsa.auth import Actor, require
from stsa.domain import Action, Role, TournamentError
from stsa.i18n import N_, _, ngettext
from stsa.store import audit, db, frames
from stsa.store.schema import devices as devices_t
from stsa.store.schema import handoffs as handoffs_t
from stsa.store.schema import installation_keys as keys_t
from stsa.store.schema import invitations as invitations_t
from stsa.store.schema import sessions as sessions_t
from stsa.store.schema import sign_in_failures as failures_t
from stsa.store.schema import tournaments as tournaments_t
from stsa.store.schema import users as users_t

PIN_ENV = {Role.ORGANIZER: "STSA_ORGANIZER_PIN", Role.JUDGE: "STSA_JUDGE_PIN"}
SESSION_IDLE_HOURS = 12
SESSION_MAX_HOURS = 18  # a session ends this long after it began, however much it is used
SEEN_EVERY_SECONDS = 60  # how often a session's last-seen time is written (not every run)
HANDOFF_SECONDS = 120  # a handoff code turns into a session cookie within this time, once
DEVICE_DAYS = 365  # a device token is trusted this long after it was issued
#: Trusted devices kept per role; issuing one more stops trusting the least recently used
#: one. Devices are earned only with a right PIN or an invitation, and this bounds how many
#: one person can earn (each brings its own budget of wrong PINs: README, "Security").
DEVICE_LIMIT = {Role.ORGANIZER: 10, Role.JUDGE: 50}
_SIGN_IN_LOCK_KEY = 0x53544731  # PostgreSQL advisory lock: one attempt counted at a time
#: PIN checks (16 MiB of scrypt memory each) that run at once in one process; more wait.
PIN_CHECKS = max(2, os.cpu_count() or 2)
CHECK_WAIT_SECONDS = 30  # the longest a paused attempt waits for this process's checks to end
NAME_MAX = 60
TOKEN_LENGTHS = range(20, 201)  # what a session id, device token or code can be
SIGN_IN_ENDED = N_("This sign-in has ended: sign in again.")


class SignInPaused(TournamentError):
    """Too many wrong PINs: sign-in waits `seconds` before the next try."""

    def __init__(self, message: str, seconds: float):
        super().__init__(message)
        self.seconds = seconds


@dataclass(frozen=True)
class SignedIn:
    """A successful sign-in: who, and the session id that keeps them signed in."""

    actor: Actor
    session_id: str


@dataclass(frozen=True)
class Redeemed:
    """A session handed to a browser (`redeem_handoff`, `invites.join`): the raw session
    id for its cookie, the device token it should keep (R20), and who it signs in."""

    session_id: str
    device: str
    actor: Actor


@dataclass(frozen=True)
class Ended:
    """What a recovery step ended (issue 33: each says exactly what): the judges signed out
    (people: a name in a tournament) and their open sessions, the organizer's open sessions,
    the open invitations withdrawn and the trusted devices no longer trusted."""

    judges: int = 0
    judge_sessions: int = 0
    organizer_sessions: int = 0
    invitations: int = 0
    devices: int = 0

    def __add__(self, other: Ended) -> Ended:
        return Ended(*(a + b for a, b in zip(dataclasses.astuple(self),
                                             dataclasses.astuple(other), strict=True)))

    def logged(self) -> dict[str, int]:
        """For the log entry of the step: "ended" (sessions) as before, and the rest."""
        return {"ended": self.judge_sessions + self.organizer_sessions,
                "invitations": self.invitations, "devices": self.devices}


@dataclass(frozen=True)
class PinsReset:
    """`reset_pins`: the PINs made now (the organizer's and the own tournament's judges',
    those not taken from the environment), every other tournament's new judges' PIN by its
    key, what ended and how many wrong PINs were forgotten."""

    made: dict[Role, str]
    judges: dict[str, str]
    ended: Ended
    forgotten: int


def plausible_token(value) -> str | None:
    """`value` if it can be a token STSA made (a string of a plausible length), else None."""
    return value if isinstance(value, str) and len(value) in TOKEN_LENGTHS else None


def clean_name(name, whose: str = "your") -> str:
    """A display name for the log: spaces collapsed, 1 to `NAME_MAX` characters; `whose`:
    "your" (a sign-in) or "the judge's" (an invitation), for the messages."""
    name = " ".join(str(name or "").split())
    yours = whose == "your"
    if not name:
        raise TournamentError(_("Enter your name: it goes into the log with what you do.")
                              if yours else
                              _("Enter the judge's name: it goes into the log with what they "
                                "do."))
    if len(name) > NAME_MAX:
        raise TournamentError((_("Your name can have at most {limit} characters.") if yours
                               else _("The judge's name can have at most {limit} characters.")
                               ).format(limit=NAME_MAX))
    return name


def _pin_role(role: Role) -> Role:
    role = Role(role)
    if role not in PIN_ENV:
        raise TournamentError(_("Only the organizer and judges sign in with a PIN."))
    return role


def judge_role_key(engine: Engine | Connection) -> str:
    """Under which role the judges' PIN of `engine`'s tournament is stored (R27)."""
    found = engine.engine if isinstance(engine, Connection) else engine
    if db.installation(found) is found:
        return Role.JUDGE.value
    return f"{Role.JUDGE.value}:{db.tournament_id(found)}"


def _hashes(conn: Connection, *, lock: bool = False, judge: str = Role.JUDGE.value
            ) -> dict[str, str]:
    """{role: PIN hash} of the organizer and of the judges stored under `judge`."""
    query = sa.select(users_t.c.role, users_t.c.pin_hash).where(
        users_t.c.role.in_((Role.ORGANIZER.value, judge)))
    rows = conn.execute(query.with_for_update() if lock else query)
    return {Role.JUDGE.value if r.role == judge else r.role: r.pin_hash for r in rows}


def _tournament_of(engine: Engine) -> int | None:
    """The tournament a judge's session opened on `engine` belongs to."""
    return db.tournament_id(engine)


def _role_for_pin(hashes: dict[str, str], pin: str) -> Role | None:
    """The role whose stored hash `pin` matches. The judges' PIN is tried first: judges sign
    in most, and the two PINs always differ (`_store_pin`), so the order changes only the cost
    of a right PIN (one hash for a judge's), never the answer; a wrong PIN is hashed against
    both."""
    if not isinstance(pin, str) or not pin:
        return None
    return next((role for role in (Role.JUDGE, Role.ORGANIZER)
                 if auth.verify_pin(pin, hashes.get(role.value))), None)


# -- PINs ------------------------------------------------------------------------------------
def _store_pin(conn: Connection, role: Role, pin: str, actor: Actor,
               judge: str = Role.JUDGE.value, tournament_id: int | None = None) -> Ended:
    auth.check_pin_strength(pin)
    hashes = _hashes(conn, lock=True, judge=judge)
    for other, stored in hashes.items():
        if other != role.value and auth.verify_pin(pin, stored):
            raise TournamentError(_("The {role} PIN must differ from the {other} PIN.").format(
                role=auth.role_word(role),
                other=auth.role_word(Role(other)) if other in Role._value2member_map_
                else other))
    values = {"pin_hash": auth.hash_pin(pin), "updated_by": actor.name, "updated_at": db.now()}
    stored_as = judge if role is Role.JUDGE else role.value
    if role.value in hashes:
        conn.execute(sa.update(users_t).where(users_t.c.role == stored_as).values(**values))
    else:
        conn.execute(sa.insert(users_t).values(role=stored_as, **values))
    # Issue 33: what the old PIN opened ends: that role's sessions (a judges' PIN: that
    # tournament's), and the open invitations that tournament's judges (the organizer's:
    # every one, an organizer's session may have made them) could sign in with.
    judges = tournament_id if role is Role.JUDGE else None
    ended = _sign_out(conn, actor, role=role, tournament_id=judges)
    ended += Ended(invitations=withdraw_invitations(conn, judges, every=judges is None))
    audit.log(conn, actor, Action.PIN_SET, f"role {role.value}", after=ended.logged())
    return ended


def set_pin(engine: Engine, role: Role, pin: str, *, actor: Actor, current_pin: str,
            client: str = "local", device: str | None = None) -> Ended:
    """Set the organizer's or the judges' PIN (R20). Only the organizer may, and only with the
    current organizer PIN (an open session alone is not enough); a wrong current PIN counts as
    a wrong sign-in (from `client`, or from the trusted `device`). The new PIN has 6 to 64
    characters, is not too easy to guess (`auth.check_pin_strength`) and differs from the
    other role's; it is stored as a salted hash and every open session of that role ends
    (a judges' PIN: of this tournament), and so does every open invitation the old PIN's
    holders could use (the judges' PIN: this tournament's; the organizer's: all of them).
    Returns what ended."""
    require(actor, Role.ORGANIZER, action=N_("change PINs"))
    role = _pin_role(role)
    auth.check_pin_strength(pin)
    inst, judge, tid = db.installation(engine), judge_role_key(engine), _tournament_of(engine)
    if _attempt(inst, current_pin, client, device, judge=judge) is not Role.ORGANIZER:
        raise TournamentError(_("The current organizer PIN is not right. Nothing changed."))
    return db.write(inst, lambda conn: _store_pin(conn, role, pin, actor, judge, tid))


def check_pin(engine: Engine, pin: str) -> Role | None:
    """The role whose PIN this is, or None, without counting anything: for scripts and tests
    on this machine. People sign in through `sign_in`, which counts wrong PINs."""
    with db.reading(db.installation(engine)) as conn:
        return _role_for_pin(_hashes(conn, judge=judge_role_key(engine)), pin)


def _new_pin(taken: dict[str, str], made: dict[Role, str]) -> str:
    while True:
        pin = auth.new_pin()
        if pin not in made.values() and _role_for_pin(taken, pin) is None:
            return pin


def _install_pins(conn: Connection, *, reset: bool) -> dict[Role, str]:
    made: dict[Role, str] = {}
    for role, env in PIN_ENV.items():
        stored = _hashes(conn, lock=True)
        if role.value in stored and not reset:
            continue
        chosen = os.environ.get(env)
        if chosen and auth.pin_weakness(chosen):
            raise TournamentError(_("{variable} holds a PIN that is too easy to guess "
                                    "({weakness}): set another one.").format(
                variable=env, weakness=auth.pin_weakness(chosen)))
        pin = chosen or _new_pin(stored, made)
        _store_pin(conn, role, pin, db.SYSTEM, tournament_id=db.tournament_id(conn))
        if not chosen:
            made[role] = pin
    return made


def ensure_pins(engine: Engine) -> dict[Role, str]:
    """Give the organizer and judges a PIN where none is stored: `STSA_ORGANIZER_PIN` /
    `STSA_JUDGE_PIN` when set, else a new random 8-digit PIN. A stored PIN is never replaced
    (a PIN changed in the app stays changed). A PIN in those variables that is too easy to
    guess is refused (`TournamentError` naming the variable). Returns the PINs made now, to
    show once."""
    return db.write(db.installation(engine), lambda conn: _install_pins(conn, reset=False))


def new_judge_pin(engine: Engine) -> str:
    """R27: a new random judges' PIN for `engine`'s tournament (one with a database of its
    own), stored as its hash in the installation's database; returned to show once."""
    inst, judge, tid = db.installation(engine), judge_role_key(engine), _tournament_of(engine)

    def work(conn: Connection) -> str:
        pin = _new_pin(_hashes(conn, lock=True, judge=judge), {})
        _store_pin(conn, Role.JUDGE, pin, db.SYSTEM, judge, tid)
        return pin

    return db.write(inst, work)


def reset_pins(engine: Engine) -> PinsReset:
    """`python -m stsa pins --reset` (`make pins`), from the console of the machine that runs
    STSA, for a PIN lost or leaked, in every tournament of the installation: the organizer's
    and the own tournament's judges' PINs anew (from the environment variables when set, else
    random), every other tournament's judges' PIN anew (random), every session ended, every
    open invitation withdrawn, every trusted device no longer trusted (a phone that held a
    leaked PIN is suspect; each earns a new one at its next sign-in) and every wrong PIN
    forgotten (so nobody is paused meanwhile). Logged; returns the PINs made now, to show
    once, and what ended."""
    def work(conn: Connection) -> PinsReset:
        ended = _sign_out(conn, db.SYSTEM) + Ended(
            invitations=withdraw_invitations(conn, None, every=True),
            devices=_distrust_devices(conn, db.now()))
        audit.log(conn, db.SYSTEM, Action.SESSION_REVOKE_ALL, "sessions", after=ended.logged())
        made = _install_pins(conn, reset=True)
        others = conn.execute(sa.select(tournaments_t.c.id, tournaments_t.c.key).where(
            tournaments_t.c.deleted_at.is_(None), tournaments_t.c.location != "")
            .order_by(tournaments_t.c.id)).all()
        judges = {}
        for tid, key in others:
            stored_as = f"{Role.JUDGE.value}:{tid}"
            pin = _new_pin(_hashes(conn, lock=True, judge=stored_as), {})
            _store_pin(conn, Role.JUDGE, pin, db.SYSTEM, stored_as, tid)
            judges[key] = pin
        forgotten = conn.execute(sa.delete(failures_t)).rowcount
        return PinsReset(made, judges, ended, forgotten)

    return db.write(db.installation(engine), work)


# -- sign-in ---------------------------------------------------------------------------------
def _seconds(at: dt.datetime) -> float:
    return at.timestamp()


def _device_open(row, now: dt.datetime) -> bool:
    return row.revoked_at is None and now - row.created_at < dt.timedelta(days=DEVICE_DAYS)


def _known_device(conn: Connection, device: str | None, now: dt.datetime) -> str | None:
    """The hash of `device` if it is a device token this installation issued and still trusts
    (not revoked, under `DEVICE_DAYS` old), else None."""
    device = plausible_token(device)
    if device is None:
        return None
    key = auth.token_hash(device)
    row = conn.execute(sa.select(devices_t).where(devices_t.c.id_hash == key)).first()
    return key if row is not None and _device_open(row, now) else None


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


def _attempt(engine: Engine, pin: str, client: str, device: str | None = None,
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
        trusted = code or _known_device(conn, device, now)
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
        seen.hashes = _hashes(conn, judge=judge)
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
            role = _role_for_pin(counted.hashes, pin)
        if role is None:
            return None

        def resolve(conn: Connection) -> bool:
            # the PIN checked is still this role's (not changed meanwhile, its sessions ended)
            if _hashes(conn, judge=judge).get(role.value) != counted.hashes.get(role.value):
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


def sign_in(engine: Engine, name: str, pin: str, *, client: str = "local",
            device: str | None = None, console_code: str | None = None) -> SignedIn:
    """R20: sign in with a display name (for the log) and a PIN, from `client` (the address;
    wrong PINs are counted under `auth.client_key(client)`). Opens a session; raises
    `TournamentError` for a wrong PIN, `SignInPaused` while wrong PINs make sign-in wait.

    With `device`, a device token this installation issued after an earlier sign-in and still
    trusts, wrong PINs are counted against that device alone (`auth.DEVICE_BACKOFF`) and
    neither the address's pause (`auth.CLIENT_BACKOFF`) nor the tournament-wide one
    (`auth.TOURNAMENT_BACKOFF`) applies: no number of wrong PINs from elsewhere keeps it out.
    An unknown or withdrawn device counts as none.

    With `console_code` (`make_console_code`, printed at the console) the organizer signs in
    once whatever those pauses say: only the organizer's PIN is checked, wrong ones count on
    the code alone and wait at most `auth.CONSOLE_BACKOFF.cap_seconds`; a code that is not
    right, used or expired raises `TournamentError` and counts nothing."""
    name = clean_name(name)
    session_id = auth.new_session_id()
    tid = _tournament_of(engine)

    def open_it(conn: Connection, role: Role, now: dt.datetime) -> None:
        # Sessions are listed on the Settings page, not in the tournament's log.
        open_session(conn, session_id, Actor(name, role), client, now, tournament_id=tid)

    role = _attempt(db.installation(engine), pin or "", client, device, then=open_it,
                    judge=judge_role_key(engine), console=console_code)
    if role is None:
        raise TournamentError(_("That PIN is not right."))
    return SignedIn(Actor(name, role, tid if role is Role.JUDGE else None), session_id)


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


# -- trusted devices ------------------------------------------------------------------------
def _make_room(conn: Connection, role: Role, now: dt.datetime, keep: str | None = None) -> None:
    """Forget devices past `DEVICE_DAYS`, and stop trusting the least recently used devices of
    `role` beyond `DEVICE_LIMIT` less one (room for the one about to join it)."""
    conn.execute(sa.delete(devices_t).where(
        devices_t.c.created_at <= now - dt.timedelta(days=DEVICE_DAYS)))
    where = (devices_t.c.role == role.value) & devices_t.c.revoked_at.is_(None)
    if keep is not None:
        where &= devices_t.c.id_hash != keep
    stale = conn.execute(sa.select(devices_t.c.id_hash).where(where)
                         .order_by(devices_t.c.last_used_at.desc(), devices_t.c.id_hash)
                         .offset(DEVICE_LIMIT[role] - 1)).scalars().all()
    if stale:
        conn.execute(sa.update(devices_t).where(devices_t.c.id_hash.in_(stale))
                     .values(revoked_at=now))


def keep_device(conn: Connection, device: str | None, role: Role, now: dt.datetime) -> str:
    """After a successful sign-in as `role`: the device token the browser keeps (R20).
    `device` itself when it is a trusted device (its last use written; one the organizer
    signs in on counts as the organizer's from then on), else a new token issued now, of
    which only the hash is stored."""
    role = Role(role)
    known = _known_device(conn, device, now)
    if known is not None:
        values: dict = {"last_used_at": now}
        if role is Role.ORGANIZER:
            _make_room(conn, role, now, keep=known)
            values["role"] = role.value
        conn.execute(sa.update(devices_t).where(devices_t.c.id_hash == known).values(**values))
        assert device is not None  # a known device came with its token
        return device
    token = auth.new_token()
    _make_room(conn, role, now)
    conn.execute(sa.insert(devices_t).values(id_hash=auth.token_hash(token), role=role.value,
                                             created_at=now, last_used_at=now))
    return token


# -- sessions --------------------------------------------------------------------------------
def open_session(conn: Connection, session_id: str, who: Actor, client: str, now: dt.datetime,
                 *, invitation_id: int | None = None, tournament_id: int | None = None) -> None:
    """Store a new session (only the hash of its id), for `who`, from address `client`; a
    judge's belongs to tournament `tournament_id` (R27)."""
    conn.execute(sa.insert(sessions_t).values(
        id_hash=auth.session_hash(session_id), actor=who.name, role=who.role.value,
        client=str(client)[:100], created_at=now, last_seen_at=now,
        invitation_id=invitation_id,
        tournament_id=tournament_id if who.role is Role.JUDGE else None))


def _session_person(row: Any, here: int | None, own: int | None) -> Actor | None:
    """Who an open session's row stands for on tournament `here` (R27): a judge only on the
    tournament the session was opened in (a session of before version 7: the installation's
    own, `own`)."""
    who = Actor(row.actor, Role(row.role))
    if who.role is not Role.JUDGE:
        return who
    theirs = row.tournament_id if row.tournament_id is not None else own
    if here is not None and theirs is not None and theirs != here:
        return None
    return Actor(who.name, who.role, theirs)


def _session_open(row: Any, now: dt.datetime) -> TypeGuard[sa.Row]:
    """R20: a session is open until revoked, `SESSION_IDLE_HOURS` unused, or
    `SESSION_MAX_HOURS` after it began."""
    return (row is not None and row.revoked_at is None
            and now - row.last_seen_at <= dt.timedelta(hours=SESSION_IDLE_HOURS)
            and now - row.created_at < dt.timedelta(hours=SESSION_MAX_HOURS))


def session_actor(engine: Engine, session_id: str | None, *,
                  any_tournament: bool = False) -> Actor | None:
    """The person an open session stands for, or None once it was signed out, revoked,
    unused for `SESSION_IDLE_HOURS` or begun `SESSION_MAX_HOURS` ago. Checked on every run
    of every page; writes the last-seen time at most once a minute. R27: a judge's session
    stands for them only on their own tournament (`Actor.tournament`), unless
    `any_tournament` (the pages ask, to keep a judge signed in who looks at another one)."""
    session_id = plausible_token(session_id)
    if session_id is None:
        return None
    key, now = auth.session_hash(session_id), db.now()
    inst = db.installation(engine)
    with db.reading(inst) as conn:
        row = conn.execute(sa.select(sessions_t).where(sessions_t.c.id_hash == key)).first()
    if not _session_open(row, now):
        return None
    who = _session_person(row, None if any_tournament else db.tournament_id(engine),
                          db.tournament_id(inst))
    if who is None:
        return None
    if (now - row.last_seen_at).total_seconds() > SEEN_EVERY_SECONDS:
        db.write(inst, lambda conn: conn.execute(
            sa.update(sessions_t).where(sessions_t.c.id_hash == key).values(last_seen_at=now)))
    return who


def _sessions_where(conn: Connection, *, role: Role | None = None, id_hash: str | None = None,
                    keep: str | None = None, invitation_id: int | None = None,
                    tournament_id: int | None = None) -> sa.ColumnElement[bool]:
    """The sessions not yet revoked that `_revoke` ends (`role`: of that role only; `keep`:
    all but that one; `tournament_id`: the judges of that tournament …)."""
    where: sa.ColumnElement[bool] = sessions_t.c.revoked_at.is_(None)
    if role is not None:
        where &= sessions_t.c.role == Role(role).value
    if tournament_id is not None:  # the judges of one tournament (R27)
        own = db.tournament_id(conn)
        mine = sessions_t.c.tournament_id == tournament_id
        where &= (mine | sessions_t.c.tournament_id.is_(None)) if own == tournament_id else mine
    if invitation_id is not None:
        where &= sessions_t.c.invitation_id == invitation_id
    if id_hash is not None:
        where &= sessions_t.c.id_hash == id_hash
    if keep is not None:
        where &= sessions_t.c.id_hash != keep
    return where


def _revoke(conn: Connection, actor: Actor, **which) -> int:
    """End the sessions `_sessions_where(conn, **which)` finds; how many rows changed."""
    return conn.execute(sa.update(sessions_t).where(_sessions_where(conn, **which)).values(
        revoked_at=db.now(), revoked_by=actor.name)).rowcount


def _sign_out(conn: Connection, actor: Actor, **which) -> Ended:
    """`_revoke`, counting the open sessions it ended (a stale one, ended by time already,
    is revoked too but not counted): the judges (a name in a tournament) and their
    sessions, and the organizer's sessions."""
    now, own = db.now(), db.tournament_id(conn)
    rows = [r for r in conn.execute(sa.select(sessions_t).where(_sessions_where(conn, **which)))
            if _session_open(r, now)]
    _revoke(conn, actor, **which)
    judges = [r for r in rows if r.role == Role.JUDGE.value]
    return Ended(judges=len({(r.actor, r.tournament_id if r.tournament_id is not None else own)
                             for r in judges}),
                 judge_sessions=len(judges), organizer_sessions=len(rows) - len(judges))


def withdraw_invitations(conn: Connection, tournament_id: int | None, *,
                         every: bool = False) -> int:
    """Withdraw the open invitations of tournament `tournament_id` (`every`: of every
    tournament), so their QR codes and links sign nobody in; how many were open. Their
    sessions are judges' sessions, which the step that calls this ends. (Issue 33.)"""
    now, t = db.now(), invitations_t
    where = t.c.revoked_at.is_(None) & (t.c.expires_at > now)
    if not every:
        mine = t.c.tournament_id == tournament_id
        if tournament_id is not None and tournament_id == db.tournament_id(conn):
            mine |= t.c.tournament_id.is_(None)  # made before version 7: the own one's
        where &= mine
    return conn.execute(sa.update(t).where(where).values(revoked_at=now)).rowcount


def _distrust_devices(conn: Connection, now: dt.datetime) -> int:
    """Stop trusting every device: how many were trusted (`make pins`, issue 33)."""
    trusted = devices_t.c.revoked_at.is_(None) & (
        devices_t.c.created_at > now - dt.timedelta(days=DEVICE_DAYS))
    counted = conn.execute(sa.select(sa.func.count()).select_from(devices_t)
                           .where(trusted)).scalar_one()
    conn.execute(sa.update(devices_t).where(devices_t.c.revoked_at.is_(None))
                 .values(revoked_at=now))
    return int(counted)


def end_sessions_of_invitation(conn: Connection, actor: Actor, invitation_id: int) -> int:
    """End every open session opened with invitation `invitation_id`; how many ended."""
    return _revoke(conn, actor, invitation_id=int(invitation_id))


# -- handing a session to a browser ----------------------------------------------------------
def handoff(engine: Engine, session_id: str) -> str:
    """R20: a one-time code (256 random bits, URL-safe) that `redeem_handoff` turns back into
    the open session `session_id` within `HANDOFF_SECONDS`: the address can carry the code,
    never the session id. The database keeps only the code's SHA-256 hash and the session id
    sealed with a key derived from the code (`auth.seal`), so neither it nor a copy of it can
    give the session away. Raises `TournamentError` when the session has ended."""
    if plausible_token(session_id) is None:
        raise TournamentError(_(SIGN_IN_ENDED))
    key, code = auth.session_hash(session_id), auth.new_token()

    def work(conn: Connection) -> None:
        now = db.now()
        conn.execute(sa.delete(handoffs_t).where(handoffs_t.c.expires_at <= now))
        row = conn.execute(sa.select(sessions_t).where(sessions_t.c.id_hash == key)).first()
        if not _session_open(row, now):
            raise TournamentError(_(SIGN_IN_ENDED))
        conn.execute(sa.insert(handoffs_t).values(
            code_hash=auth.token_hash(code), session_hash=key,
            sealed=auth.seal(session_id, code), created_at=now,
            expires_at=now + dt.timedelta(seconds=HANDOFF_SECONDS)))

    db.write(db.installation(engine), work)
    return code


def redeem_handoff(engine: Engine, code: str, *, device: str | None = None) -> Redeemed | None:
    """R20: the session a `handoff` code stands for, once: the code is gone after this call
    (or once `HANDOFF_SECONDS` passed). None for an unknown, used or expired code, or a session
    that has ended. `device` is the browser's device token, if it has one: kept when trusted,
    else a new one is issued (`keep_device`); `Redeemed.device` is the one to keep."""
    if plausible_token(code) is None:
        return None
    key = auth.token_hash(code)

    def work(conn: Connection) -> Redeemed | None:
        now = db.now()
        row = conn.execute(sa.select(handoffs_t).where(handoffs_t.c.code_hash == key)).first()
        if row is None:
            return None
        if conn.execute(sa.delete(handoffs_t).where(handoffs_t.c.code_hash == key)).rowcount != 1:
            return None  # redeemed at this moment by another request
        session_id = auth.unseal(row.sealed, code)
        if row.expires_at <= now or session_id is None \
                or auth.session_hash(session_id) != row.session_hash:
            return None
        found = conn.execute(sa.select(sessions_t)
                             .where(sessions_t.c.id_hash == row.session_hash)).first()
        if not _session_open(found, now):
            return None
        who = _session_person(found, None, own)
        assert who is not None  # on no tournament in particular, every open session is someone
        return Redeemed(session_id, keep_device(conn, device, who.role, now), who)

    own = db.tournament_id(db.installation(engine))
    return db.write(db.installation(engine), work)


def sign_out(engine: Engine, session_id: str | None) -> None:
    """End this session: its address no longer signs anyone in."""
    if not isinstance(session_id, str):
        return
    key = auth.session_hash(session_id)

    def work(conn: Connection) -> None:
        row = conn.execute(sa.select(sessions_t).where(sessions_t.c.id_hash == key)).first()
        if row is not None:
            _revoke(conn, Actor(row.actor, Role(row.role)), id_hash=key)

    db.write(db.installation(engine), work)


def sign_everyone_out(engine: Engine, *, actor: Actor, keep: str | None = None) -> Ended:
    """The organizer ends every open session but `keep` (their own) and withdraws every open
    invitation, in every tournament of the installation (its sessions and invitations are
    the installation's, like the organizer's PIN; issue 33: a photographed QR code signed a
    judge in after this). Trusted devices stay trusted: a device signs nobody in by itself,
    and it keeps the judges' phones out of a pause that a leaked PIN's guessers may cause.
    Logged; returns what ended."""
    require(actor, Role.ORGANIZER, action=N_("sign everyone out"))
    keep_hash = auth.session_hash(keep) if isinstance(keep, str) else None

    def work(conn: Connection) -> Ended:
        ended = _sign_out(conn, actor, keep=keep_hash) + Ended(
            invitations=withdraw_invitations(conn, None, every=True))
        audit.log(conn, actor, Action.SESSION_REVOKE_ALL, "sessions", after=ended.logged())
        return ended

    return db.write(db.installation(engine), work)


SESSION_COLUMNS = {"actor": "str", "role": "str", "client": "str", "created_at": frames.UTC_TIME,
                   "last_seen_at": frames.UTC_TIME}


def open_sessions(engine: Engine, *, actor: Actor) -> pd.DataFrame:
    """Open sessions, newest first (organizer only): who, as what, from where, since when."""
    require(actor, Role.ORGANIZER, action=N_("see who is signed in"))
    now = db.now()
    with db.reading(db.installation(engine)) as conn:
        return frames.query_frame(conn, sa.select(*[sessions_t.c[c] for c in SESSION_COLUMNS])
                              .where(sessions_t.c.revoked_at.is_(None),
                                     sessions_t.c.last_seen_at
                                     >= now - dt.timedelta(hours=SESSION_IDLE_HOURS),
                                     sessions_t.c.created_at
                                     > now - dt.timedelta(hours=SESSION_MAX_HOURS))
                              .order_by(sessions_t.c.created_at.desc()), SESSION_COLUMNS)
