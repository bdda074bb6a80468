"""Roles, actors, PIN hashing and a sign-in rate limiter (R20).

Who may do what (R20): only the organizer changes settings, the roster, draws and finals;
judges and the organizer enter, correct and settle results; spectators write nothing and never
see removed leaders. `require` is the one check every write in `stsa.store` makes.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import threading
import time
from collections import deque
from dataclasses import dataclass
from typing import Callable

from stsa.domain import Role, TournamentError

__all__ = ["Role", "Actor", "PermissionDenied", "require", "can_see_hidden", "hash_pin",
           "verify_pin", "new_pin", "RateLimiter"]


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
MIN_PIN_LENGTH = 4
MAX_PIN_LENGTH = 64


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def check_pin_format(pin: str) -> str:
    """A PIN is 4 to 64 characters with no surrounding spaces; raises `TournamentError`."""
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


def new_pin(digits: int = 6) -> str:
    """A random numeric PIN."""
    return "".join(secrets.choice("0123456789") for _ in range(digits))


# -- rate limiting -------------------------------------------------------------------------
class RateLimiter:
    """Counts failed sign-ins per key (e.g. a client address) in a sliding window.

    After `max_failures` failures within `window_seconds`, `allowed(key)` is False until the
    oldest of them leaves the window. `success(key)` forgets the key's failures. In memory and
    thread-safe; `clock` is injectable for tests.
    """

    def __init__(self, max_failures: int = 5, window_seconds: float = 60,
                 clock: Callable[[], float] = time.monotonic):
        if max_failures < 1 or window_seconds <= 0:
            raise ValueError("max_failures must be ≥ 1 and window_seconds > 0")
        self.max_failures = max_failures
        self.window_seconds = window_seconds
        self._clock = clock
        self._failures: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def _recent(self, key: str, now: float) -> deque[float]:
        times = self._failures.get(key)
        if times is None:
            return deque()
        while times and times[0] <= now - self.window_seconds:
            times.popleft()
        if not times:
            del self._failures[key]
        return times

    def allowed(self, key: str = "") -> bool:
        """May `key` try to sign in now?"""
        with self._lock:
            return len(self._recent(key, self._clock())) < self.max_failures

    def retry_after(self, key: str = "") -> float:
        """Seconds until `key` may try again (0 when allowed now)."""
        with self._lock:
            now = self._clock()
            times = self._recent(key, now)
            if len(times) < self.max_failures:
                return 0.0
            return max(0.0, times[-self.max_failures] + self.window_seconds - now)

    def failure(self, key: str = "") -> None:
        """Record a failed sign-in for `key`."""
        with self._lock:
            now = self._clock()
            self._recent(key, now)
            self._failures.setdefault(key, deque()).append(now)

    def success(self, key: str = "") -> None:
        """Forget `key`'s failures after a successful sign-in."""
        with self._lock:
            self._failures.pop(key, None)
