"""The tournament's settings in one place (R3–R5, R7, R9, R10, R12, R21, R23, R25, R26): each
setting's key, default, label, check, words and ruling (`REGISTRY`), and the typed, frozen
`Settings` value a tournament's settings are read as (`settings.capacity`).

Adding a setting is one `Setting` row here and one widget on its page. The store keeps the
values (as JSON) and checks every change with `check`; a page, the log and the workbook name
and word them with `Setting.label` and `Setting.words`. Plain Python: every layer may use it.
"""

from __future__ import annotations

import copy
import dataclasses
import datetime as dt
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from stsa import i18n, local_time
from stsa.domain import (
    BATTLE_OF_WILLS_LABELS,
    DRAW_MODE_LABELS,
    PICK_METHOD_LABELS,
    BattleOfWills,
    DrawMode,
    PickMethod,
    TournamentError,
    is_whole,
)
from stsa.i18n import N_, _

CAPACITY_MAX = 10_000


# --- the checks: each returns the value as stored, or raises TournamentError -------------------

def _bool(v):
    if not isinstance(v, bool):
        raise TournamentError(_("must be true or false"))
    return v


def battle_of_wills_stages(v) -> str:
    """R23: the stages that play Battle of Wills. Before it was a choice it was on or off:
    an old true reads as every stage, an old false as the default (the final rounds)."""
    if isinstance(v, bool):
        return (BattleOfWills.BOTH if v else BattleOfWills.FINALS).value
    if v not in {s.value for s in BattleOfWills}:
        raise TournamentError(_("must be one of {choices}").format(
            choices=", ".join(s.value for s in BattleOfWills)))
    return str(v)


def _text(limit: int) -> Callable:
    def check(v):
        if not isinstance(v, str) or not v.strip():
            raise TournamentError(_("must be non-empty text"))
        v = " ".join(v.split())
        if len(v) > limit:
            raise TournamentError(_("must have at most {limit} characters").format(limit=limit))
        return v
    return check


def _venue(v):
    if v is None or (isinstance(v, str) and not v.strip()):
        return None
    return _text(200)(v)


def _day(v):
    """A calendar day as ISO text ("2026-10-23"), or None."""
    if v is None or v == "":
        return None
    if isinstance(v, dt.datetime):
        v = v.date()
    if isinstance(v, dt.date):
        return v.isoformat()
    try:
        return dt.date.fromisoformat(str(v).strip()).isoformat()
    except ValueError:
        raise TournamentError(_("must be a day such as 2026-10-23, not {typed}").format(
            typed=repr(str(v)[:40]))) from None


def _names(v, *, minimum: int = 0, allow_none: bool = False, distinct: bool = True):
    if v is None and allow_none:
        return None
    if isinstance(v, str) or not isinstance(v, (list, tuple)):
        raise TournamentError(_("must be a list of names"))
    out = [" ".join(str(x).split()) for x in v]
    if any(not x for x in out) or (distinct and len(set(out)) != len(out)):
        raise TournamentError(_("must list different, non-empty names"))
    if len(out) < minimum:
        raise TournamentError(_("must list at least {minimum}").format(minimum=minimum))
    return out


def _colours(v):
    """R4: at least four colours, all different ignoring case ("Red" and "red" are one colour
    at the table); a clash is named as the settings page names it."""
    if isinstance(v, (list, tuple)) and any(not " ".join(str(c).split()) for c in v):
        raise TournamentError(_("must all be filled in"))
    out = _names(v, minimum=4, distinct=False)
    keys = [c.casefold() for c in out]
    for later, key in enumerate(keys):
        if key in keys[:later]:
            raise TournamentError(_("must all differ: colour {first} and colour {second} are "
                                    "both “{colour}”; choose {count} different colours").format(
                first=keys.index(key) + 1, second=later + 1, colour=out[later], count=len(out)))
    return out


def _choice(*options: str) -> Callable:
    def check(v):
        if v not in options:
            raise TournamentError(_("must be one of {choices}").format(choices=", ".join(options)))
        return str(v)
    return check


def _language(v) -> str | None:
    """A tournament's language: one of STSA's ("sv"), or None for each reader's own."""
    if v is None or v == "":
        return None
    found = i18n.known(v)
    if found is None or found != str(v).strip().lower():
        raise TournamentError(_("must be one of {choices}, or empty for each reader's own "
                                "language").format(choices=", ".join(i18n.LANGUAGES)))
    return found


def _whole_between(v, low: int, high: int) -> int:
    if not is_whole(v) or not low <= v <= high:
        raise TournamentError(_("must be a whole number from {low} to {high}").format(
            low=low, high=high))
    return int(v)


def _counts(v):
    if not isinstance(v, dict) or not v:
        raise TournamentError(_("must map each base game to a number"))
    out = {}
    for k, n in v.items():
        if not is_whole(n) or not 0 <= n <= 30:
            raise TournamentError(_("{game}: must be a whole number from 0 to 30").format(game=k))
        out[str(k)] = int(n)
    return out


def _decks(v):
    if v is None:
        return None
    if not isinstance(v, dict):
        raise TournamentError(_("must map setup ids to lists of leaders"))
    return {str(k): _names(d, minimum=1) for k, d in v.items()}


def _base_points(v):
    if not isinstance(v, (list, tuple)) or len(v) != 4 or not all(is_whole(x) for x in v):
        raise TournamentError(_("must be four whole numbers (1st, 2nd, 3rd, 4th)"))
    if any(x < 0 or x > 1000 for x in v) or list(v) != sorted(v, reverse=True):
        raise TournamentError(_("must run from highest to lowest, each between 0 and 1000"))
    return [int(x) for x in v]


def _public_url(v):
    """The app's web address for the QR codes on table slips; None or blank clears it."""
    if v is None or (isinstance(v, str) and not v.strip()):
        return None
    if not isinstance(v, str):
        raise TournamentError(_("must be a web address"))
    v = v.strip()
    if any(c.isspace() for c in v):
        raise TournamentError(_("must be a web address without spaces"))
    if len(v) > 200:
        raise TournamentError(_("must have at most {limit} characters").format(limit=200))
    parts = urlsplit(v)
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        raise TournamentError(_("must start with http:// or https:// and name the computer, as "
                                "phones reach it (e.g. http://192.168.1.20:8501)"))
    try:
        parts.port  # noqa: B018 - a port that is not a number is refused here
    except ValueError:
        raise TournamentError(_("has a port that is not a number")) from None
    if parts.query or parts.fragment:
        raise TournamentError(_("must be the app's address only, without ? or # parts"))
    return v.rstrip("/")


def _capacity(v):
    """R21: the seats of a qualifier sitting, a number of players R1 can seat (3, 4, 6 …)."""
    v = _whole_between(v, 3, CAPACITY_MAX)
    if v == 5:
        raise TournamentError(_("cannot be 5: five players cannot be seated at tables of "
                                "three or four; choose 4 or 6"))
    return v


# --- the registry -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Setting:
    """One setting: its `key` (as stored), `default`, `label` (as people name it), `check`
    (the value as stored, or a `TournamentError` saying what is wrong), the `rulings` it
    serves (their numbers: (5, 23) for R5 and R23; RULINGS.md), the words
    for no value (`none`) and for its values (`choices`: value → words), and where it is set:
    `widget` (page and widget key), else `set_by` in words."""

    key: str
    default: Any
    label: str
    check: Callable[[Any], Any]
    rulings: tuple[int, ...]
    widget: tuple[str, str] | None = None
    set_by: str = ""
    none: str = N_("none")
    choices: Mapping[Any, str] | None = None

    def words(self, value) -> str:
        """The value in words, in this run's language: Yes/No, lists joined with commas,
        "Hidden Picks", "Legacy 6, Uprising 3", "every setup" for none. A language is named as
        its own readers name it ("Svenska")."""
        if value is None:
            return _(self.none)
        if self.choices is i18n.LANGUAGES:
            return i18n.language_name(str(value))
        if self.choices is not None and not isinstance(value, bool):
            found = self.choices.get(value)
            return str(value) if found is None else _(found)
        return value_words(value)


def value_words(value) -> str:
    """Any setting's value in words, without its setting's own words (see `Setting.words`)."""
    if value is None:
        return _("none")
    if isinstance(value, bool):
        return _("Yes") if value else _("No")
    if isinstance(value, Mapping):
        return "; ".join(f"{k} {value_words(v)}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return ", ".join(value_words(v) for v in value) or _("none")
    return str(value)


_SETTINGS = "views/settings.py"
REGISTRY: dict[str, Setting] = {s.key: s for s in (
    Setting("tournament_name", "DUNE: Imperium tournament", N_("Tournament name"), _text(200),
            (), widget=(_SETTINGS, "set_name")),
    Setting("venue", None, N_("Venue"), _venue, (27,), set_by="the Tournaments page",
            none=N_("no venue given")),
    Setting("starts_on", None, N_("First day"), _day, (27,), set_by="the Tournaments page",
            none=N_("no day given")),
    Setting("ends_on", None, N_("Last day"), _day, (27,), set_by="the Tournaments page",
            none=N_("no day given")),
    Setting("enabled_setups", None, N_("Setups played"),
            lambda v: _names(v, minimum=1, allow_none=True), (5,),
            widget=(_SETTINGS, "set_setups"), none=N_("every setup")),
    Setting("battle_of_wills", BattleOfWills.FINALS.value, N_("Battle of Wills"),
            battle_of_wills_stages, (5, 23), widget=(_SETTINGS, "set_bow"),
            choices=BATTLE_OF_WILLS_LABELS),
    Setting("pick_method", PickMethod.HIDDEN_PICKS.value, N_("Leader pick method"),
            _choice(*(m.value for m in PickMethod)), (9, 10), widget=(_SETTINGS, "set_pick"),
            choices=PICK_METHOD_LABELS),
    Setting("wild_card", False, N_("Wild Card"), _bool, (10,), widget=(_SETTINGS, "set_wild")),
    Setting("vote_off_votes", 2, N_("Votes per player (Vote Off)"),
            lambda v: _whole_between(v, 1, 10), (10,),
            widget=(_SETTINGS, "set_vote_off_votes")),
    Setting("hidden_picks", {"Legacy": 6, "Uprising": 3}, N_("Hidden picks per base game"),
            _counts, (9,), widget=(_SETTINGS, "set_picks_")),
    Setting("leader_decks", None, N_("Leader decks"), _decks, (7,),
            set_by="the workbook's Settings sheet (a restore) or a script",
            none=N_("the catalog's decks")),
    Setting("colours", ["red", "green", "blue", "yellow"], N_("Colours"), _colours, (4,),
            widget=(_SETTINGS, "set_colour_")),
    Setting("base_points", [20, 15, 10, 0], N_("Base points (1st, 2nd, 3rd, 4th)"), _base_points,
            (12,), widget=(_SETTINGS, "set_points_")),
    Setting("draw_mode", DrawMode.RANDOM.value, N_("Draw mode"),
            _choice(*(m.value for m in DrawMode)), (3,), widget=(_SETTINGS, "set_draw_mode"),
            choices=DRAW_MODE_LABELS),
    Setting("auto_backup", True, N_("Automatic backups"), _bool, (19,),
            set_by="the workbook's Settings sheet (a restore) or a script"),
    Setting("public_url", None, N_("App address for the QR codes"), _public_url, (),
            widget=("stsa/ui/data_tools.py", "draw_public_url"),
            none=N_("this browser's address")),
    Setting("capacity", 16, N_("Seats per qualifier sitting"), _capacity, (21,),
            widget=(_SETTINGS, "set_capacity")),
    Setting("time_zone", None, N_("Time zone"), local_time.check_zone, (26,),
            widget=(_SETTINGS, "set_time_zone"), none=N_("this laptop's time zone")),
    Setting("sitting_minutes", 150, N_("Length of a sitting (minutes)"),
            lambda v: _whole_between(v, 10, 600), (26,),
            widget=(_SETTINGS, "set_sitting_minutes")),
    Setting("check_in_minutes", 10, N_("Check-in closes (minutes before the start)"),
            lambda v: _whole_between(v, 0, 240), (25,),
            widget=(_SETTINGS, "set_check_in_minutes")),
    Setting("self_check_in_open", False, N_("Check-in on My seat open (no planned start)"), _bool,
            (25,), set_by="the Roster page's check-in (“Open check-in on My seat”)"),
    Setting("time_words", "Time is called.", N_("At time"), _text(300), (26,),
            widget=(_SETTINGS, "set_time_words")),
    Setting("clock_sound", False, N_("A sound at time on the TV"), _bool, (26,),
            widget=(_SETTINGS, "set_clock_sound")),
    # The pages' default language (each reader may choose another), and always the language
    # of slips, pairing lists and the workbook (README, "Languages").
    Setting("language", None, N_("Language"), _language, (), widget=(_SETTINGS, "set_language"),
            none=N_("each reader's browser language (slips and workbook in English)"),
            choices=i18n.LANGUAGES),
)}

DEFAULTS: dict[str, Any] = {key: s.default for key, s in REGISTRY.items()}

# Stored values from an earlier release, read as this release means them (R23).
OLD_VALUES: dict[str, Callable[[Any], Any]] = {"battle_of_wills": battle_of_wills_stages}


def label(key: str) -> str:
    """"Base points (1st, 2nd, 3rd, 4th)": a setting as people name it, in this run's language;
    an unknown key in words ("rule_change" → "Rule change")."""
    found = REGISTRY.get(key)
    return _(found.label) if found else str(key).replace("_", " ").capitalize()


def words(key: str, value) -> str:
    """A setting's value in words (`Setting.words`); an unknown key's by `value_words`."""
    found = REGISTRY.get(key)
    return found.words(value) if found else value_words(value)


def check(key: str, value):
    """The value of setting `key` as stored; a `TournamentError` names the setting and what
    is wrong ("capacity cannot be 5: …"), or that there is no such setting."""
    found = REGISTRY.get(key)
    if found is None:
        raise TournamentError(_("{key} is not a setting (settings: {keys})").format(
            key=repr(key), keys=", ".join(REGISTRY)))
    try:
        return found.check(value)
    except TournamentError as exc:
        raise TournamentError(f"{key} {exc}") from None


def current(stored: Mapping[str, Any]) -> dict[str, Any]:
    """Every setting: `stored` over the defaults, old values read as they are meant now (a
    value that no longer reads is the default again); unknown keys are left out."""
    out = copy.deepcopy(DEFAULTS)
    out.update({k: v for k, v in stored.items() if k in DEFAULTS})
    for key, read in OLD_VALUES.items():
        try:
            out[key] = read(out[key])
        except TournamentError:
            out[key] = copy.deepcopy(DEFAULTS[key])
    return out


@dataclass(frozen=True)
class Settings(Mapping):
    """A tournament's settings as one typed, frozen value: `settings.capacity`. Lists are
    tuples and maps read-only, so a value shared by every page run cannot be changed by one.
    It still reads as a mapping (`settings["capacity"]`, `dict(settings)`) for scripts."""

    tournament_name: str
    venue: str | None
    starts_on: str | None
    ends_on: str | None
    enabled_setups: tuple[str, ...] | None
    battle_of_wills: str
    pick_method: str
    wild_card: bool
    vote_off_votes: int
    hidden_picks: Mapping[str, int]
    leader_decks: Mapping[str, tuple[str, ...]] | None
    colours: tuple[str, ...]
    base_points: tuple[int, ...]
    draw_mode: str
    auto_backup: bool
    public_url: str | None
    capacity: int
    time_zone: str | None
    sitting_minutes: int
    check_in_minutes: int
    self_check_in_open: bool
    time_words: str
    clock_sound: bool
    language: str | None

    @classmethod
    def of(cls, values: Mapping[str, Any]) -> Settings:
        """The settings `values` hold over the defaults (`current`)."""
        full = current(values)
        return cls(**{f.name: _frozen(full[f.name]) for f in dataclasses.fields(cls)})

    @property
    def zone(self):
        """The tournament's time zone (R26): `time_zone`, else this laptop's."""
        return local_time.zone(self.time_zone)

    def as_dict(self) -> dict[str, Any]:
        """The settings as the store keeps them (lists, plain dicts): for JSON and the log."""
        return {key: _thawed(getattr(self, key)) for key in REGISTRY}

    def __getitem__(self, key: str):
        if key not in REGISTRY:
            raise KeyError(key)
        return _thawed(getattr(self, key))

    def __iter__(self) -> Iterator[str]:
        return iter(REGISTRY)

    def __len__(self) -> int:
        return len(REGISTRY)


def _frozen(value):
    if isinstance(value, Mapping):
        return _FrozenMap({k: _frozen(v) for k, v in value.items()})
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    return value


def _thawed(value):
    if isinstance(value, Mapping):
        return {k: _thawed(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return [_thawed(v) for v in value]
    return value


class _FrozenMap(Mapping):
    """A read-only dict (hashable by its items)."""

    def __init__(self, items: dict):
        self._items = dict(items)

    def __getitem__(self, key):
        return self._items[key]

    def __iter__(self):
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __repr__(self) -> str:
        return repr(self._items)

    def __hash__(self) -> int:
        return hash(tuple(self._items.items()))

    def __eq__(self, other) -> bool:
        return isinstance(other, Mapping) and dict(self._items) == dict(other)
