"""What a person signs in with (R20): the PINs as stored (their hashes, per role), the shape
of a token STSA made, and the display name that goes into the log.

The lowest of the access modules (`devices`, `pause`, `sessions`, `pins`, `invites`): it
imports none of them. With several tournaments (R27) the PINs live in the installation's
database (`db.installation`); each tournament has its own judges' PIN, stored under the role
`judge:<tournament id>` (the installation's own tournament keeps `judge`).
"""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from stsa import auth
from stsa.domain import Role, TournamentError
from stsa.i18n import _
from stsa.store import db
from stsa.store.schema import users as users_t

PIN_ENV = {Role.ORGANIZER: "STSA_ORGANIZER_PIN", Role.JUDGE: "STSA_JUDGE_PIN"}
NAME_MAX = 60
TOKEN_LENGTHS = range(20, 201)  # what a session id, device token or code can be


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



def judge_role_key(engine: Engine | Connection) -> str:
    """Under which role the judges' PIN of `engine`'s tournament is stored (R27)."""
    found = engine.engine if isinstance(engine, Connection) else engine
    if db.installation(found) is found:
        return Role.JUDGE.value
    return f"{Role.JUDGE.value}:{db.tournament_id(found)}"


def pin_hashes(conn: Connection, *, lock: bool = False, judge: str = Role.JUDGE.value
            ) -> dict[str, str]:
    """{role: PIN hash} of the organizer and of the judges stored under `judge`."""
    query = sa.select(users_t.c.role, users_t.c.pin_hash).where(
        users_t.c.role.in_((Role.ORGANIZER.value, judge)))
    rows = conn.execute(query.with_for_update() if lock else query)
    return {Role.JUDGE.value if r.role == judge else r.role: r.pin_hash for r in rows}


def tournament_of(engine: Engine) -> int | None:
    """The tournament a judge's session opened on `engine` belongs to."""
    return db.tournament_id(engine)


def role_for_pin(hashes: dict[str, str], pin: str) -> Role | None:
    """The role whose stored hash `pin` matches. The judges' PIN is tried first: judges sign
    in most, and the two PINs always differ (`pins._store_pin`), so the order changes only the cost
    of a right PIN (one hash for a judge's), never the answer; a wrong PIN is hashed against
    both."""
    if not isinstance(pin, str) or not pin:
        return None
    return next((role for role in (Role.JUDGE, Role.ORGANIZER)
                 if auth.verify_pin(pin, hashes.get(role.value))), None)
