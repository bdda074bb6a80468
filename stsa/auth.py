"""Roles, actors, PIN hashing, session ids and the sign-in back-off (R20).

Who may do what (R20): only the organizer changes settings, the roster, draws and finals;
judges and the organizer enter, correct and settle results; spectators write nothing and never
see removed leaders. `require` is the one check every write in `stsa.store` makes.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from dataclasses import dataclass
from typing import Sequence

from stsa.domain import Role, TournamentError

__all__ = ["Role", "Actor", "PermissionDenied", "require", "can_see_hidden", "hash_pin",
           "verify_pin", "new_pin", "new_session_id", "session_hash", "Backoff",
           "CLIENT_BACKOFF", "TOURNAMENT_BACKOFF"]


@dataclass(frozen=True)
class Actor:
    """A person acting in the app: a display name and a role. Written into the audit log (R19)."""

    name: str
    role: Role

    def __post_init__(self):
        object.__setattr__(self, "role", Role(self.role))

    def __str__(self) -> str:
        return f"{self.name} ({self.role.value})"


class PermissionDenied(TournamentError):
    """The signed-in role may not do this (R20)."""


def require(actor: Actor | None, *roles: Role, action: str = "do this") -> Actor:
    """R20: return `actor` if its role is one of `roles`, else raise `PermissionDenied`.

    The message says who tried, what, and which roles may: "Ann (judge) cannot publish a
    sitting: only the organizer can."
    """
    allowed = [Role(r) for r in roles]
    if not isinstance(actor, Actor):
        raise PermissionDenied(f"Sign in to {action}.")
    if actor.role not in allowed:
        names = " or ".join(f"the {r.value}" if r is Role.ORGANIZER else f"a {r.value}"
                            for r in allowed) or "nobody"
        raise PermissionDenied(f"{actor} cannot {action}: only {names} can.")
    return actor


def can_see_hidden(actor: Actor | None) -> bool:
    """R20: judges and the organizer see removed leaders and unpublished draws; others do not."""
    return isinstance(actor, Actor) and actor.role in (Role.ORGANIZER, Role.JUDGE)


# -- PINs ----------------------------------------------------------------------------------
# scrypt parameters: 16 MiB of memory and ~50 ms per check on a laptop.
_SCRYPT_N, _SCRYPT_R, _SCRYPT_P, _DKLEN = 2**14, 8, 1, 32
_MAXMEM = 64 * 1024 * 1024
MIN_PIN_LENGTH = 6  # a PIN a person chooses
GENERATED_PIN_DIGITS = 8  # a PIN STSA makes
MAX_PIN_LENGTH = 64


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def check_pin_format(pin: str) -> str:
    """A PIN is 6 to 64 characters with no surrounding spaces; raises `TournamentError`."""
    if not isinstance(pin, str):
        raise TournamentError("A PIN must be text.")
    if pin != pin.strip():
        raise TournamentError("A PIN cannot start or end with a space.")
    if not MIN_PIN_LENGTH <= len(pin) <= MAX_PIN_LENGTH:
        raise TournamentError(
            f"A PIN must have {MIN_PIN_LENGTH} to {MAX_PIN_LENGTH} characters (it has {len(pin)}).")
    return pin


def hash_pin(pin: str) -> str:
    """A salted scrypt hash of `pin`, as `scrypt$n$r$p$salt$hash` (base64 parts)."""
    check_pin_format(pin)
    salt = secrets.token_bytes(16)
    digest = hashlib.scrypt(pin.encode("utf-8"), salt=salt, n=_SCRYPT_N, r=_SCRYPT_R,
                            p=_SCRYPT_P, maxmem=_MAXMEM, dklen=_DKLEN)
    return f"scrypt${_SCRYPT_N}${_SCRYPT_R}${_SCRYPT_P}${_b64(salt)}${_b64(digest)}"


def verify_pin(pin: str, stored: str | None) -> bool:
    """True if `pin` matches the `hash_pin` output `stored` (constant-time comparison)."""
    if not isinstance(pin, str) or not isinstance(stored, str):
        return False
    try:
        scheme, n, r, p, salt, digest = stored.split("$")
        if scheme != "scrypt":
            return False
        n, r, p = int(n), int(r), int(p)
        if not (2 <= n <= 2**20 and 1 <= r <= 32 and 1 <= p <= 16):
            return False
        salt_b, digest_b = base64.b64decode(salt), base64.b64decode(digest)
        candidate = hashlib.scrypt(pin.encode("utf-8"), salt=salt_b, n=n, r=r, p=p,
                                   maxmem=_MAXMEM, dklen=len(digest_b))
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(candidate, digest_b)


def new_pin(digits: int = GENERATED_PIN_DIGITS) -> str:
    """A random numeric PIN."""
    return "".join(secrets.choice("0123456789") for _ in range(digits))


# -- sessions --------------------------------------------------------------------------------
def new_session_id() -> str:
    """A random session id (256 bits): it travels in the address; only its hash is stored."""
    return secrets.token_urlsafe(32)


def session_hash(session_id: str) -> str:
    """What the database keeps of a session id: a stolen database or backup signs nobody in."""
    return hashlib.sha256(str(session_id).encode("utf-8")).hexdigest()


# -- sign-in back-off -----------------------------------------------------------------------
@dataclass(frozen=True)
class Backoff:
    """How long wrong PINs make the next sign-in wait: the first `free` failures within
    `window_seconds` cost nothing; the next one waits `base_seconds` after the last failure, and
    every further failure doubles that wait, up to `cap_seconds`."""

    free: int
    base_seconds: float
    cap_seconds: float
    window_seconds: float

    def wait(self, failures: Sequence[float], now: float) -> float:
        """Seconds to wait before the next attempt, given the failure times (epoch seconds)."""
        recent = sorted(t for t in failures if now - t < self.window_seconds)
        extra = len(recent) - self.free
        if extra < 0:
            return 0.0
        delay = min(self.base_seconds * 2.0 ** min(extra, 60), self.cap_seconds)
        return max(0.0, recent[-1] + delay - now)


#: One client (address) may get 5 PINs wrong a day for free, then waits 30 s, 60 s, … up to
#: an hour between tries.
CLIENT_BACKOFF = Backoff(free=5, base_seconds=30, cap_seconds=3600, window_seconds=86400)
#: The whole tournament, every address together: 50 wrong PINs a day, then 2 s, 4 s, … up to an
#: hour between tries. At the highest rate this allows (83 tries a day) guessing one of
#: two generated 8-digit PINs takes about 1,100 years on average (README, "Security").
TOURNAMENT_BACKOFF = Backoff(free=50, base_seconds=2, cap_seconds=3600, window_seconds=86400)


def most_tries_per_day(policy: Backoff) -> int:
    """The most wrong PINs `policy` lets through in one window, trying again the moment it
    may (for the brute-force figure in the README and its test)."""
    failures: list[float] = []
    clock = policy.wait(failures, 0.0)
    while clock < policy.window_seconds:
        failures.append(clock)
        clock += policy.wait(failures, clock)
    return len(failures)
