"""Who may come in (R20): sign-in with a PIN (wrong PINs counted per address and for the whole
tournament, `store.sign_in`), the session a browser's cookie carries and its one-time handoff
code, signing out, the judge invitations and the sign-in pause. The writes check the role here
before the store checks everything again; the pages only ask and show."""

from __future__ import annotations

import pandas as pd
from sqlalchemy.engine import Engine

from stsa import store
from stsa.auth import Actor, require
from stsa.domain import Role
from stsa.i18n import N_

SignInPaused = store.SignInPaused  # raised by `sign_in` while sign-in is paused (R20)
SESSION_MAX_HOURS = store.SESSION_MAX_HOURS  # the session cookie lives as long as its session
DEVICE_DAYS = store.devices.DEVICE_DAYS  # the device cookie lives as long as the store trusts it


def ensure_pins(engine: Engine) -> dict[Role, str]:
    """The PINs made now for the roles that had none ({} when every role has one already): a
    stored PIN is never replaced."""
    return store.ensure_pins(engine)


def sign_in(engine: Engine, name: str, pin: str, *, client: str = "local",
            device: str | None = None, console_code: str | None = None) -> store.SignedIn:
    """R20: sign in with a display name and a PIN from `client` (the address wrong PINs are
    counted under) on `device` (a trusted device's token); `console_code` lets the organizer
    in through a pause. Raises `SignInPaused` while sign-in is paused."""
    return store.sign_in(engine, name, pin, client=client, device=device,
                         console_code=console_code)


def handoff(engine: Engine, session_id: str) -> str:
    """A one-time code for session `session_id`, which the page posts to put the session in
    its HttpOnly cookie (no credential travels in an address)."""
    return store.handoff(engine, session_id)


def session_actor(engine: Engine, session_id: str | None, *,
                  any_tournament: bool = False) -> Actor | None:
    """The person of an open session `session_id`, or None (ended, expired or unknown)."""
    return store.session_actor(engine, session_id, any_tournament=any_tournament)


def redeem_handoff(engine: Engine, code: str, *,
                   device: str | None) -> store.Redeemed | None:
    """R20: a sign-in's one-time handoff code, redeemed once (`store.redeem_handoff`)."""
    return store.redeem_handoff(engine, code, device=device)


def join(engine: Engine, token: str, *, client: str, device: str | None) -> store.Redeemed:
    """R20: a judge's invitation token opens a judge's session (`store.join`)."""
    return store.join(engine, token, client=client, device=device)


def sign_out(engine: Engine, session_id: str | None) -> None:
    """End session `session_id` in the database: its cookie no longer signs anyone in."""
    store.sign_out(engine, session_id)


# --- judge invitations (R20) -------------------------------------------------------------------

def invitations(engine: Engine, *, actor: Actor) -> pd.DataFrame:
    """The invitations made in this tournament (organizer only)."""
    require(actor, Role.ORGANIZER, action=N_("see the invitations"))
    return store.invitations(engine, actor=actor)


def create_invitation(engine: Engine, name: str, *, hours: int = 6,
                      actor: Actor) -> tuple[int, str]:
    """R20: an invitation that signs judge `name` in with no PIN for `hours` (organizer only;
    an archived tournament takes none, R27): (its id, its token, shown once)."""
    require(actor, Role.ORGANIZER, action=N_("invite judges"))
    return store.create_invitation(engine, name, hours=hours, actor=actor)


def revoke_invitation(engine: Engine, invitation_id: int, *, actor: Actor) -> int:
    """R20: withdraw an invitation (organizer only); returns how many sessions it ended."""
    require(actor, Role.ORGANIZER, action=N_("withdraw invitations"))
    return store.revoke_invitation(engine, invitation_id, actor=actor)


# --- the sign-in pause (R20) -------------------------------------------------------------------

def sign_in_pause(engine: Engine) -> float:
    """R20: the seconds sign-in stays paused for the whole tournament (0: not paused)."""
    return store.sign_in_pause(engine)


def lift_pause(engine: Engine, *, actor: Actor) -> int:
    """R20: open sign-in again (organizer only): the wrong PINs are forgotten, the PINs kept;
    returns how many wrong PINs were forgotten."""
    require(actor, Role.ORGANIZER, action=N_("lift the sign-in pause"))
    return store.lift_pause(engine, actor=actor)
