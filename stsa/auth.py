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
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field

from stsa.domain import Role, TournamentError
from stsa.i18n import N_, _

__all__ = ["Role", "Actor", "PermissionDenied", "require", "can_see_hidden", "hash_pin",
           "verify_pin", "new_pin", "check_pin_format", "check_pin_strength", "pin_weakness",
           "new_session_id", "new_token", "session_hash", "token_hash", "seal", "unseal",
           "client_key", "Backoff", "CLIENT_BACKOFF", "TOURNAMENT_BACKOFF", "DEVICE_BACKOFF",
           "most_tries_per_day"]


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
    IPv4-mapped IPv6 address (`::ffff:1.2.3.4`) as its IPv4 address, any other IPv6 address
    by its /64 network (`2001:db8:1:2::/64`: one home or phone gets a whole /64, so its
    addresses share one count), and anything else as given, trimmed, at most 100 characters."""
    text = str(address if address is not None else "").strip()
    try:
        ip = ipaddress.ip_address(text.removeprefix("[").removesuffix("]"))
    except ValueError:
        return text[:CLIENT_KEY_MAX]
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((int(ip) >> 64 << 64, 64)))
    return str(ip)


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
#: The whole tournament, every address together (wrong PINs from trusted devices apart): 50 wrong
#: PINs a day, then 2 s, 4 s, … up to an hour between tries. At the highest rate this allows
#: (83 tries a day) guessing one of two generated 8-digit PINs takes about 1,100 years on
#: average (README, "Security").
TOURNAMENT_BACKOFF = Backoff(free=50, base_seconds=2, cap_seconds=3600, window_seconds=86400)
#: One trusted device (a browser that signed in before, R20): 5 wrong PINs a day for free,
#: then 30 s, 60 s, … up to an hour. Its wrong PINs count only against itself: neither the
#: address nor the tournament-wide pause applies to it.
DEVICE_BACKOFF = Backoff(free=5, base_seconds=30, cap_seconds=3600, window_seconds=86400)


def most_tries_per_day(policy: Backoff) -> int:
    """The most wrong PINs `policy` lets through in one window, trying again the moment it
    may (for the brute-force figure in the README and its test)."""
    failures: list[float] = []
    clock = policy.wait(failures, 0.0)
    while clock < policy.window_seconds:
        failures.append(clock)
        clock += policy.wait(failures, clock)
    return len(failures)


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
