"""Roles, actors, PIN hashing and strength, random tokens, the address wrong PINs are counted
under, and the sign-in back-off (R20).

Who may do what (R20): only the organizer changes settings, the roster, draws and finals;
judges and the organizer enter, correct and settle results; spectators write nothing and never
see removed leaders. `require` is the one check every write in `stsa.store` makes.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import ipaddress
import itertools
import math
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field

from stsa.domain import Role, TournamentError
from stsa.i18n import N_, _

__all__ = ["Role", "Actor", "PermissionDenied", "require", "can_see_hidden", "hash_pin",
           "verify_pin", "new_pin", "check_pin_format", "check_pin_strength", "pin_weakness",
           "new_session_id", "new_token", "session_hash", "token_hash", "seal", "unseal",
           "client_key", "network_key", "Backoff", "CLIENT_BACKOFF", "NETWORK_BACKOFF",
           "TOURNAMENT_BACKOFF", "DEVICE_BACKOFF", "CONSOLE_BACKOFF", "new_console_code",
           "console_code_hash", "most_tries", "most_tries_per_day"]


@dataclass(frozen=True)
class Actor:
    """A person acting in the app: a display name and a role. Written into the audit log (R19)."""

    name: str
    role: Role
    # R27: the tournament a judge signed in to (None: any); who someone is does not depend on it
    tournament: int | None = field(default=None, compare=False)

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
        raise PermissionDenied(_("Sign in to {action}.").format(action=_(action)))
    if actor.role not in allowed:
        names = _("nobody")
        for at, r in enumerate(allowed):
            names = _(WHO_MAY[r]) if at == 0 else _("{first} or {second}").format(
                first=names, second=_(WHO_MAY[r]))
        raise PermissionDenied(_("{name} ({role}) cannot {action}: only {allowed} can.").format(
            name=actor.name, role=role_word(actor.role), action=_(action), allowed=names))
    return actor


# A role as a word ("Ann (judge)"), and as the ones who may do something ("only the organizer
# can"): marked here, translated where a message says them.
ROLE_WORDS = {Role.ORGANIZER: N_("organizer"), Role.JUDGE: N_("judge"),
              Role.SPECTATOR: N_("spectator")}
WHO_MAY = {Role.ORGANIZER: N_("the organizer"), Role.JUDGE: N_("a judge"),
           Role.SPECTATOR: N_("a spectator")}


def role_word(role: Role) -> str:
    """The role as a word in this run's language ("judge", "domare", "arbitre")."""
    return _(ROLE_WORDS[Role(role)])


def can_see_hidden(actor: Actor | None) -> bool:
    """R20: judges and the organizer see removed leaders and unpublished draws; others do not."""
    return isinstance(actor, Actor) and actor.role.is_staff


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
        raise TournamentError(_("A PIN must be text."))
    if pin != pin.strip():
        raise TournamentError(_("A PIN cannot start or end with a space."))
    if not MIN_PIN_LENGTH <= len(pin) <= MAX_PIN_LENGTH:
        raise TournamentError(_("A PIN must have {least} to {most} characters (it has {count}).")
                              .format(least=MIN_PIN_LENGTH, most=MAX_PIN_LENGTH, count=len(pin)))
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
        scheme, n_text, r_text, p_text, salt, digest = stored.split("$")
        if scheme != "scrypt":
            return False
        n, r, p = int(n_text), int(r_text), int(p_text)
        if not (2 <= n <= 2**20 and 1 <= r <= 32 and 1 <= p <= 16):
            return False
        salt_b, digest_b = base64.b64decode(salt), base64.b64decode(digest)
        candidate = hashlib.scrypt(pin.encode("utf-8"), salt=salt_b, n=n, r=r, p=p,
                                   maxmem=_MAXMEM, dklen=len(digest_b))
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(candidate, digest_b)


def new_pin(digits: int = GENERATED_PIN_DIGITS) -> str:
    """A random numeric PIN, never one `pin_weakness` refuses (R20)."""
    while True:
        pin = "".join(secrets.choice("0123456789") for _unused in range(digits))
        if pin_weakness(pin) is None:
            return pin


# -- PINs too easy to guess ---------------------------------------------------------------------
#: PINs people choose most often that the patterns below do not already catch (from lists of
#: leaked PINs and passwords: keypad shapes, mirrors, keyboard rows).
COMMON_PINS = frozenset({
    "123321", "159753", "147258", "102030", "789456", "654123", "159357", "147852", "258456",
    "123654", "112358", "123789", "456123", "741852", "963852", "852456", "147369", "369258",
    "321654", "142536", "246810", "135790", "753951", "951753", "357159", "258369", "789123",
    "147963", "321123", "654456", "102938", "010203", "123465", "124578", "135246", "456654",
    "12344321", "12348765", "12312312", "13572468", "12345679", "01020304", "11235813",
    "password", "passwort", "qwerty", "qwertz", "azerty", "asdfgh", "qwertyui", "asdfghjk",
    "letmein", "abc123", "iloveyou", "abcd1234", "1q2w3e", "1q2w3e4r", "q1w2e3r4",
})


def _is_run(text: str) -> bool:
    """Counts up or down by one: 123456, 987654, 890123, abcdef, zyxwvu."""
    if text.isdigit():
        steps = {(int(b) - int(a)) % 10 for a, b in zip(text, text[1:])}
        return steps in ({1}, {9})
    if text.isascii() and text.isalpha():
        return {ord(b) - ord(a) for a, b in zip(text, text[1:])} in ({1}, {-1})
    return False


def _is_repeated_block(text: str) -> bool:
    """A shorter block typed again and again: 121212, 123123, 24682468."""
    return any(len(text) % size == 0 and text == text[:size] * (len(text) // size)
               for size in range(2, len(text) // 2 + 1))


def _is_grouped(text: str) -> bool:
    """Each character typed twice or more in a row, every group alike: 112233, 111222."""
    groups = [len(list(g)) for _key, g in itertools.groupby(text)]
    return len(set(groups)) == 1 and groups[0] >= 2 and len(groups) <= 4


def pin_weakness(pin: str) -> str | None:
    """Why a PIN a person chooses is too easy to guess, in words ("one digit repeated"), or
    None when it is not (R20): one character repeated, a run up or down, a short block
    repeated, every character doubled, only two different characters (8 or fewer), or one of
    the most common PINs (`COMMON_PINS`). Letters count without case."""
    text = str(pin).casefold()
    digits = text.isdigit()
    if len(set(text)) <= 1:
        return _("one digit repeated") if digits else _("one character repeated")
    like = ("123456", "121212", "112233") if digits else ("abcdef", "abcabc", "aabbcc")
    checks = ((_is_run, _("digits that count up or down, like {example}") if digits
               else _("characters that count up or down, like {example}")),
              (_is_repeated_block, _("a short block repeated, like {example}")),
              (_is_grouped, _("each digit typed more than once in a row, like {example}")
               if digits else _("each character typed more than once in a row, like {example}")),
              (lambda t: len(set(t)) == 2 and len(t) <= 8,
               _("only two different digits") if digits else _("only two different characters")),
              (COMMON_PINS.__contains__, _("one of the most common PINs")))
    examples = (like[0], like[1], like[2], "", "")
    return next((words.format(example=example)
                 for (check, words), example in zip(checks, examples) if check(text)), None)


def check_pin_strength(pin: str) -> str:
    """A PIN a person chooses (the Settings page, `STSA_ORGANIZER_PIN` / `STSA_JUDGE_PIN`) is
    well formed (`check_pin_format`) and not too easy to guess (`pin_weakness`); raises
    `TournamentError` saying why (R20)."""
    check_pin_format(pin)
    weakness = pin_weakness(pin)
    if weakness:
        raise TournamentError(_("That PIN is too easy to guess ({weakness}). Choose another.")
                              .format(weakness=weakness))
    return pin


# -- sessions, devices, handoff codes and invitations: random tokens ----------------------------
def new_token() -> str:
    """A random token of 256 bits, URL-safe (43 characters): session ids, device tokens,
    handoff codes and invitation tokens. The database keeps only `token_hash` of it."""
    return secrets.token_urlsafe(32)


def new_session_id() -> str:
    """A random session id (256 bits); only its hash is stored."""
    return new_token()


def token_hash(token: str) -> str:
    """What the database keeps of a token (SHA-256, hex): a stolen database or backup signs
    nobody in."""
    return hashlib.sha256(str(token).encode("utf-8")).hexdigest()


def session_hash(session_id: str) -> str:
    """What the database keeps of a session id (`token_hash`)."""
    return token_hash(session_id)


def _handoff_key(code: str, size: int) -> bytes:
    return hashlib.shake_256(b"stsa-handoff" + str(code).encode("utf-8")).digest(size)


def seal(secret: str, code: str) -> str:
    """`secret` (ASCII) sealed with a key derived from `code` (SHAKE-256, XOR), as hex: only
    the holder of `code` can `unseal` it, and the database that keeps it holds neither."""
    data = secret.encode("ascii")
    return bytes(a ^ b for a, b in zip(data, _handoff_key(code, len(data)))).hex()


def unseal(sealed: str, code: str) -> str | None:
    """The secret `seal(secret, code)` sealed, or None if `sealed` is not such a text."""
    try:
        data = bytes.fromhex(sealed)
        return bytes(a ^ b for a, b in zip(data, _handoff_key(code, len(data)))).decode("ascii")
    except (ValueError, TypeError, UnicodeDecodeError):
        return None


# -- the key wrong PINs are counted under --------------------------------------------------------
CLIENT_KEY_MAX = 100


def client_key(address: str) -> str:
    """The key wrong PINs from `address` are counted under (R20): an IPv4 address as it is, an
    IPv4-mapped IPv6 address (`::ffff:1.2.3.4`) as its IPv4 address, any other IPv6 address as
    the whole address (`2001:db8:1:2::7`, its zone dropped: a venue may hand one /64 to every
    phone in the room, so a /64 is not one person; `network_key` adds the /64's own, larger
    count against one guesser changing addresses inside it), and anything else as given,
    trimmed, at most 100 characters."""
    text = str(address if address is not None else "").strip()
    try:
        ip = ipaddress.ip_address(text.removeprefix("[").removesuffix("]"))
    except ValueError:
        return text[:CLIENT_KEY_MAX]
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Address(int(ip)))
    return str(ip)


def network_key(key: str) -> str | None:
    """The /64 network (`2001:db8:1:2::/64`) an IPv6 `client_key` belongs to, whose wrong PINs
    are also counted together (`NETWORK_BACKOFF`); None for any other key (IPv4, "local").
    A key stored as a /64 by an earlier release is its own network."""
    text = str(key or "")
    if ":" not in text:
        return None
    try:
        found = ipaddress.ip_network(text, strict=False)
    except ValueError:
        return None
    if not isinstance(found, ipaddress.IPv6Network) or found.prefixlen < 64:
        return None
    return str(ipaddress.IPv6Network((int(found.network_address) >> 64 << 64, 64)))


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
    #: With `decay`, wrong PINs are not all forgotten at once a window after each: each one
    #: weighs less as it ages (by e every window), and the waits count what they weigh
    #: together. A guesser who goes on with one try an hour then sees the pause shrink hour by
    #: hour instead of holding it at `cap_seconds` for a whole window, and a steady guesser
    #: gets about `free` tries a window (and a few more, as the waits double).
    decay: bool = False

    @property
    def memory_seconds(self) -> float:
        """How long ago a failure can still count: older ones need not be read (with `decay`,
        one six windows old weighs under 0.3 %)."""
        return self.window_seconds * (6 if self.decay else 1)

    def _count(self, recent: list[float]) -> int:
        """How many failures count: all of them, or with `decay` what they weigh at the last."""
        if not self.decay:
            return len(recent)
        return round(sum(math.exp((at - recent[-1]) / self.window_seconds) for at in recent))

    def wait(self, failures: Sequence[float], now: float) -> float:
        """Seconds to wait before the next attempt, given the failure times (epoch seconds)."""
        recent = sorted(t for t in failures if now - t < self.memory_seconds)
        extra = self._count(recent) - self.free if recent else -1
        if extra < 0:
            return 0.0
        delay = min(self.base_seconds * 2.0 ** min(extra, 60), self.cap_seconds)
        return max(0.0, recent[-1] + delay - now)


#: One client (address; an IPv6 address whole) may get 5 PINs wrong for free, then waits 30 s,
#: 60 s, … up to an hour between tries; its wrong PINs weigh less as they age (5 a day drain).
CLIENT_BACKOFF = Backoff(free=5, base_seconds=30, cap_seconds=3600, window_seconds=86400,
                         decay=True)
#: Every address of one IPv6 /64 together: 20 wrong PINs free (a room the venue gives one /64
#: has room for its typos), then 30 s, 60 s, … up to an hour. One guesser changing addresses
#: inside a /64 gets no more than that, and (20 a day drain) never the tournament's 50 alone.
NETWORK_BACKOFF = Backoff(free=20, base_seconds=30, cap_seconds=3600, window_seconds=86400,
                          decay=True)
#: The whole tournament, every address together (wrong PINs from trusted devices apart): 50 wrong
#: PINs free, then 2 s, 4 s, … up to an hour between tries, the level draining 50 a day. A
#: steady guesser gets about 50 tries a day (the most in any one day: the first, `most_tries`):
#: guessing one of two generated 8-digit PINs takes well over a thousand years on average
#: (README, "Security").
TOURNAMENT_BACKOFF = Backoff(free=50, base_seconds=2, cap_seconds=3600, window_seconds=86400,
                             decay=True)
#: One trusted device (a browser that signed in before, R20): 5 wrong PINs free, then 30 s,
#: 60 s, … up to an hour, draining 5 a day. Its wrong PINs count only against itself: neither
#: the address nor the tournament-wide pause applies to it.
DEVICE_BACKOFF = Backoff(free=5, base_seconds=30, cap_seconds=3600, window_seconds=86400,
                         decay=True)
#: A sign-in with a one-time code from the console (`python -m stsa pins --code`, for the
#: organizer on a phone STSA does not know while sign-in is paused): its wrong PINs count
#: against that code alone, 3 free, then 15 s, 30 s, and never more than a minute.
CONSOLE_BACKOFF = Backoff(free=3, base_seconds=15, cap_seconds=60, window_seconds=3600)
#: A console code: this many digits (typed on a phone), valid this long, once.
CONSOLE_CODE_DIGITS = 12
CONSOLE_CODE_SECONDS = 900


def new_console_code() -> str:
    """A random one-time console code of `CONSOLE_CODE_DIGITS` digits, grouped by four
    ("4821-0937-5512") to read off a screen; `console_code_hash` ignores the grouping."""
    digits = "".join(secrets.choice("0123456789") for _unused in range(CONSOLE_CODE_DIGITS))
    return "-".join(digits[at:at + 4] for at in range(0, CONSOLE_CODE_DIGITS, 4))


def console_code_hash(code: str | None) -> str | None:
    """What the database keeps of a console code (`token_hash` of its digits), or None when
    `code` cannot be one (not `CONSOLE_CODE_DIGITS` digits once spaces and dashes are gone)."""
    digits = "".join(ch for ch in str(code or "") if ch not in " -\t")
    if len(digits) != CONSOLE_CODE_DIGITS or not (digits.isascii() and digits.isdigit()):
        return None
    return token_hash(f"console:{digits}")


def most_tries(policy: Backoff, seconds: float) -> int:
    """The most wrong PINs `policy` lets through in `seconds`, trying again the moment it may."""
    failures: list[float] = []
    count, clock = 0, policy.wait(failures, 0.0)
    while clock < seconds:
        failures = [t for t in failures if clock - t < policy.memory_seconds] + [clock]
        count += 1
        clock += policy.wait(failures, clock)
    return count


def most_tries_per_day(policy: Backoff) -> int:
    """The most wrong PINs `policy` lets through in one window (for the brute-force figure in
    the README and its test): with `decay`, the first window, the one with the most."""
    return most_tries(policy, policy.window_seconds)


# -- the room's check-in code (R25) -------------------------------------------------------------
#: The room's self check-in code: this many digits, a new one every `ROOM_CODE_SECONDS`; the
#: current and the previous code are accepted (one read off the TV just before it changed).
ROOM_CODE_DIGITS = 5
ROOM_CODE_SECONDS = 300
#: Wrong room codes, one address (phone): 5 a day free, then 30 s, 60 s, … up to an hour.
CODE_CLIENT_BACKOFF = Backoff(free=5, base_seconds=30, cap_seconds=3600, window_seconds=86400)
#: Wrong room codes from every phone together: 50 a day free, then 2 s, 4 s, … up to an hour:
#: at most 83 tries a day, each with a 2 in 100,000 chance, so the code is not guessed by
#: many phones either (players can always check in with the organizer).
CODE_INSTALLATION_BACKOFF = Backoff(free=50, base_seconds=2, cap_seconds=3600,
                                    window_seconds=86400)


def code_slot(at: float) -> int:
    """The time slot of epoch second `at` the room code belongs to."""
    return int(at // ROOM_CODE_SECONDS)


def room_code(key: str, slot: int) -> str:
    """R25: the room's check-in code for time slot `slot`: `ROOM_CODE_DIGITS` digits taken by
    HMAC-SHA256 from the installation's random `key`, so only the server can make it."""
    digest = hmac.new(key.encode(), f"room-code:{slot}".encode(), hashlib.sha256).digest()
    return str(int.from_bytes(digest[:8], "big") % 10 ** ROOM_CODE_DIGITS).zfill(
        ROOM_CODE_DIGITS)


def room_code_matches(key: str, code: str, at: float) -> bool:
    """Whether `code` is the room code of the slot of `at` or of the slot before (R25);
    compared in constant time."""
    typed = "".join(str(code or "").split())
    slot = code_slot(at)
    return any(hmac.compare_digest(typed.encode(), room_code(key, s).encode())
               for s in (slot, slot - 1))
