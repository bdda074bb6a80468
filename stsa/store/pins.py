"""The organizer's and the judges' PINs (R20): set, checked, made at the first start and reset
from the console when one is lost or leaked.

PINs are stored as salted hashes, in the installation's database (`db.installation`, R27):
the organizer's, and each tournament's judges' PIN under the role `judge:<tournament id>`
(the installation's own tournament keeps `judge`). What an old PIN opened ends with it
(`sessions`, issue 33).
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from stsa import auth
from stsa.auth import Actor, require
from stsa.domain import Action, Role, TournamentError
from stsa.i18n import N_, _
from stsa.store import audit, db
from stsa.store.credentials import PIN_ENV, judge_role_key, pin_hashes, role_for_pin, tournament_of
from stsa.store.devices import distrust_devices
from stsa.store.pause import attempt
from stsa.store.schema import sign_in_failures as failures_t
from stsa.store.schema import tournaments as tournaments_t
from stsa.store.schema import users as users_t
from stsa.store.sessions import Ended, end_sessions, withdraw_invitations


@dataclass(frozen=True)
class PinsReset:
    """`reset_pins`: the PINs made now (the organizer's and the own tournament's judges',
    those not taken from the environment), every other tournament's new judges' PIN by its
    key, what ended and how many wrong PINs were forgotten."""

    made: dict[Role, str]
    judges: dict[str, str]
    ended: Ended
    forgotten: int



def _pin_role(role: Role) -> Role:
    role = Role(role)
    if role not in PIN_ENV:
        raise TournamentError(_("Only the organizer and judges sign in with a PIN."))
    return role


# -- PINs ------------------------------------------------------------------------------------
def _store_pin(conn: Connection, role: Role, pin: str, actor: Actor,
               judge: str = Role.JUDGE.value, tournament_id: int | None = None) -> Ended:
    auth.check_pin_strength(pin)
    hashes = pin_hashes(conn, lock=True, judge=judge)
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
    ended = end_sessions(conn, actor, role=role, tournament_id=judges)
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
    inst, judge, tid = db.installation(engine), judge_role_key(engine), tournament_of(engine)
    if attempt(inst, current_pin, client, device, judge=judge) is not Role.ORGANIZER:
        raise TournamentError(_("The current organizer PIN is not right. Nothing changed."))
    return db.write(inst, lambda conn: _store_pin(conn, role, pin, actor, judge, tid))


def check_pin(engine: Engine, pin: str) -> Role | None:
    """The role whose PIN this is, or None, without counting anything: for scripts and tests
    on this machine. People sign in through `sign_in`, which counts wrong PINs."""
    with db.reading(db.installation(engine)) as conn:
        return role_for_pin(pin_hashes(conn, judge=judge_role_key(engine)), pin)


def _new_pin(taken: dict[str, str], made: dict[Role, str]) -> str:
    while True:
        pin = auth.new_pin()
        if pin not in made.values() and role_for_pin(taken, pin) is None:
            return pin


def _install_pins(conn: Connection, *, reset: bool) -> dict[Role, str]:
    made: dict[Role, str] = {}
    for role, env in PIN_ENV.items():
        stored = pin_hashes(conn, lock=True)
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
    inst, judge, tid = db.installation(engine), judge_role_key(engine), tournament_of(engine)

    def work(conn: Connection) -> str:
        pin = _new_pin(pin_hashes(conn, lock=True, judge=judge), {})
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
        ended = end_sessions(conn, db.SYSTEM) + Ended(
            invitations=withdraw_invitations(conn, None, every=True),
            devices=distrust_devices(conn, db.now()))
        audit.log(conn, db.SYSTEM, Action.SESSION_REVOKE_ALL, "sessions", after=ended.logged())
        made = _install_pins(conn, reset=True)
        others = conn.execute(sa.select(tournaments_t.c.id, tournaments_t.c.key).where(
            tournaments_t.c.deleted_at.is_(None), tournaments_t.c.location != "")
            .order_by(tournaments_t.c.id)).all()
        judges = {}
        for tid, key in others:
            stored_as = f"{Role.JUDGE.value}:{tid}"
            pin = _new_pin(pin_hashes(conn, lock=True, judge=stored_as), {})
            _store_pin(conn, Role.JUDGE, pin, db.SYSTEM, stored_as, tid)
            judges[key] = pin
        forgotten = conn.execute(sa.delete(failures_t)).rowcount
        return PinsReset(made, judges, ended, forgotten)

    return db.write(db.installation(engine), work)
