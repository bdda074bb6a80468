"""The tournament's own words: statuses, kinds, stages, roles, pick methods, labels, the system
actor and the user-fixable error with its structured problems.

Everything here is plain Python with no imports from the rest of STSA, so every layer may use it.
Enums are `str` enums: they compare equal to the stored strings ("qualifier", "published"), so
frames and database rows keep plain text.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass


class _Word(str, enum.Enum):
    def __str__(self) -> str:
        return self.value


class Role(_Word):
    """What a signed-in person may do (R20)."""

    ORGANIZER = "organizer"
    JUDGE = "judge"
    SPECTATOR = "spectator"


class Kind(_Word):
    """A sitting's kind, which is also the stage of the tournament it belongs to (R2)."""

    QUALIFIER = "qualifier"
    SEMIFINAL = "semifinal"
    FINAL = "final"


class SittingStatus(_Word):
    """A sitting is drawn (a draft only the organizer and judges see), then published, then
    complete once every table has a result (R3, R20)."""

    DRAWN = "drawn"
    PUBLISHED = "published"
    COMPLETE = "complete"


class Stage(_Word):
    """Where the cut puts a player (R16): the final, the semifinal, or out."""

    FINAL = "final"
    SEMIFINAL = "semifinal"
    OUT = "out"


class PickMethod(_Word):
    """How leaders are taken out of a table's deck before picks (R9, R10)."""

    HIDDEN_PICKS = "hidden_picks"
    VOTE_OFF = "vote_off"


class BattleOfWills(_Word):
    """The stages whose sittings play the "+ Battle of Wills" setups (R23)."""

    QUALIFIERS = "qualifiers"
    FINALS = "finals"  # the semifinal and the final
    BOTH = "both"


class PlayerStatus(_Word):
    ACTIVE = "active"
    WITHDRAWN = "withdrawn"


PICK_METHOD_LABELS = {PickMethod.HIDDEN_PICKS: "Hidden Picks", PickMethod.VOTE_OFF: "Vote Off"}
BATTLE_OF_WILLS_LABELS = {BattleOfWills.FINALS: "The semifinal and the final",
                          BattleOfWills.QUALIFIERS: "The qualifiers",
                          BattleOfWills.BOTH: "The qualifiers, the semifinal and the final"}

SETTING_LABELS = {  # each setting as the Settings page names it
    "tournament_name": "Tournament name", "enabled_setups": "Setups played",
    "battle_of_wills": "Battle of Wills", "pick_method": "Leader pick method",
    "wild_card": "Wild Card", "vote_off_votes": "Votes per player (Vote Off)",
    "hidden_picks": "Hidden picks per base game", "leader_decks": "Leader decks",
    "colours": "Colours", "base_points": "Base points (1st, 2nd, 3rd, 4th)",
    "draw_mode": "Draw mode", "auto_backup": "Automatic backups",
    "public_url": "App address for the QR codes", "capacity": "Seats per qualifier sitting",
}
_SETTING_NONE = {"enabled_setups": "every setup", "leader_decks": "the catalog's decks",
                 "public_url": "this browser's address"}


def setting_label(key: str) -> str:
    """"Base points (1st, 2nd, 3rd, 4th)": a setting as people name it; an unknown key
    in words ("rule_change" → "Rule change")."""
    return SETTING_LABELS.get(key) or str(key).replace("_", " ").capitalize()


def setting_text(key: str, value) -> str:
    """A setting's value in words: Yes/No, lists joined with commas, "Hidden Picks",
    "Legacy 6, Uprising 3", "every setup" for none."""
    if value is None:
        return _SETTING_NONE.get(key, "none")
    if isinstance(value, bool):
        return "Yes" if value else "No"
    if key == "pick_method":
        return PICK_METHOD_LABELS.get(value, str(value))
    if key == "battle_of_wills":  # R23: the stages (an old on/off reads Yes/No above)
        return BATTLE_OF_WILLS_LABELS.get(value, str(value))
    if key == "draw_mode":
        return str(value).capitalize()
    if isinstance(value, dict):
        return "; ".join(f"{k} {setting_text('', v)}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return ", ".join(setting_text("", v) for v in value) or "none"
    return str(value)


SYSTEM_NAME = "STSA"  # the name the log gives to what STSA does by itself


def sitting_label(kind: str, number: int) -> str:
    """"Qualifier 2", "Semifinal", "Final": how people name a sitting."""
    return f"Qualifier {number}" if kind == Kind.QUALIFIER else str(kind).capitalize()


def table_label(kind: str, number: int, table_no: int) -> str:
    """"Qualifier 2, table 4": a table as people name it."""
    return f"{sitting_label(kind, number)}, table {table_no}"


def rule_change_line(sitting: Mapping) -> str:
    """R24: a sitting's rule change in one line, "name: how its extra points are earned", or
    "" for a sitting without one (`sitting` has `rule_change`, `rule_change_points`)."""
    name, points = (sitting.get(c) for c in ("rule_change", "rule_change_points"))
    name, points = (v if isinstance(v, str) else "" for v in (name, points))
    return f"{name}: {points}" if name and points else name


def plural(count: int, word: str, many: str | None = None) -> str:
    """"1 table", "3 tables", "1 player has", with the count written out."""
    return f"{count} {word if count == 1 else (many or word + 's')}"


@dataclass(frozen=True)
class Problem:
    """One thing wrong with some input: where it is ("row 4", "seat 2", "Settings sheet") and
    what is wrong with it, in words a person can act on."""

    where: str | None
    what: str

    def __str__(self) -> str:
        return f"{self.where}: {self.what}" if self.where else self.what


class TournamentError(ValueError):
    """Input that the organizer, a judge or a spreadsheet can fix; the message says what and
    where. Pages catch it and show the message; anything else is a bug and surfaces.

    `problems` lists each thing wrong (a `Problem`) for a page to show as a table; a
    `TournamentError` is a `ValueError`, so callers of the core API's contract keep working."""

    def __init__(self, message: str, problems: Iterable[Problem] = ()):
        super().__init__(message)
        self.problems: list[Problem] = list(problems)
