"""The tournament's own words: statuses, kinds, stages, roles, pick methods, labels, the system
actor and the user-fixable error with its structured problems.

Everything here is plain Python whose only import from the rest of STSA is `stsa.i18n` (which
imports none), so every layer may use it. The labels are English, marked for the catalogs (`N_`):
shared tables hold them as they are and pages translate them where they are shown (`_`,
`i18n.cell`); the `*_title` helpers and the errors speak the run's language.
Enums are `str` enums: they compare equal to the stored strings ("qualifier", "published"), so
frames and database rows keep plain text.
"""

from __future__ import annotations

import dataclasses
import enum
import math
import numbers
import re
import unicodedata
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, cast

from stsa import i18n
from stsa.i18n import N_, _, ngettext


class _Word(str, enum.Enum):
    def __str__(self) -> str:
        return self.value


class Role(_Word):
    """What a signed-in person may do (R20)."""

    ORGANIZER = "organizer"
    JUDGE = "judge"
    SPECTATOR = "spectator"

    @property
    def is_staff(self) -> bool:
        """Judges and the organizer: they see drafts, removed leaders and real names (R20)."""
        return self in (Role.ORGANIZER, Role.JUDGE)


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


#: The sittings that were played or are being played (published or complete), not drafts.
PLAYED = (SittingStatus.PUBLISHED, SittingStatus.COMPLETE)


class Stage(_Word):
    """Where the cut puts a player (R16): the final, the semifinal, or out."""

    FINAL = "final"
    SEMIFINAL = "semifinal"
    OUT = "out"


class PickMethod(_Word):
    """How leaders are taken out of a table's deck before picks (R9, R10)."""

    HIDDEN_PICKS = "hidden_picks"
    VOTE_OFF = "vote_off"


class Decided(_Word):
    """How Vote Off decided a removed leader (R10)."""

    MOST_VOTES = "most votes"
    ORGANIZER_CHOICE = "organizer's choice among tied"
    RANDOM_CHOICE = "random among tied"


class BattleOfWills(_Word):
    """The stages whose sittings play the "+ Battle of Wills" setups (R23)."""

    QUALIFIERS = "qualifiers"
    FINALS = "finals"  # the semifinal and the final
    BOTH = "both"


class DrawMode(_Word):
    """How a qualifier is drawn (R3): a plain random draw, or the balanced one (fewer repeat
    meetings, seats and setups that even out), both from a recorded seed."""

    RANDOM = "random"
    BALANCED = "balanced"


class FinalsStatus(_Word):
    """A player's place in the finals as it stands (R16–R18; `services.finals.finals_status`)."""

    NONE = ""  # no finals yet (fewer than 4 players), or no qualifier result yet
    FINAL = "final"  # goes (or went) to the final and has not played it yet
    SEMIFINAL = "semifinal"  # plays (or played) the semifinal, not in the final
    OUT = "out"  # below the cut
    ABSENT = "absent"  # marked absent for the finals: a wildcard takes the seat
    LOST_SEAT = "lost_seat"  # a direct finalist whose seat a semifinal winner took
    CHAMPION = "champion"
    RUNNER_UP = "runner_up"
    THIRD = "third"
    FINALIST = "finalist"  # played the final, placed 4th or lower


class PlayerStatus(_Word):
    ACTIVE = "active"
    WITHDRAWN = "withdrawn"


class Action(_Word):
    """What the audit log says was done (R19): one code per kind of change, as stored."""

    PLAYERS_ADD = "players.add"
    PLAYER_EDIT = "player.edit"
    PLAYER_REMOVE = "player.remove"
    PLAYER_WITHDRAW = "player.withdraw"
    PLAYER_REINSTATE = "player.reinstate"
    PLAYERS_CHECK_IN = "players.check_in"
    PLAYERS_CHECK_OUT = "players.check_out"
    PLAYER_ABSENT = "player.absent"
    PLAYER_PRESENT = "player.present"
    SITTING_DRAW = "sitting.draw"
    SITTING_REDRAW = "sitting.redraw"
    SITTING_DISCARD = "sitting.discard"
    SITTING_PUBLISH = "sitting.publish"
    SITTING_COMPLETE = "sitting.complete"
    SITTING_VOID = "sitting.void"
    TABLE_REPLACE_PLAYER = "table.replace_player"
    SITTING_RULE_CHANGE = "sitting.rule_change"
    TABLE_EMPTY_SEAT = "table.empty_seat"
    TABLE_OVERRIDE_SETUP = "table.override_setup"
    RESULT_SUBMIT = "result.submit"
    RESULT_CORRECT = "result.correct"
    PICKS_VOTE_OFF = "picks.vote_off"
    PICKS_WILD_CARD = "picks.wild_card"
    SETTINGS_CHANGE = "settings.change"
    PIN_SET = "pin.set"
    SESSION_REVOKE_ALL = "session.revoke_all"
    TOURNAMENT_RESTORE = "tournament.restore"
    BACKUP_RESTORE = "backup.restore"
    SIGN_IN_UNLOCK = "sign_in.unlock"
    SIGN_IN_CODE = "sign_in.code"
    INVITATION_CREATE = "invitation.create"
    INVITATION_USE = "invitation.use"
    INVITATION_REVOKE = "invitation.revoke"
    # the schedule (R26)
    SCHEDULE_ADD = "schedule.add"
    SCHEDULE_EDIT = "schedule.edit"
    SCHEDULE_REMOVE = "schedule.remove"
    SCHEDULE_SHIFT = "schedule.shift"
    SCHEDULE_UNDO = "schedule.undo"
    SITTING_CLOCK = "sitting.clock"
    BOOKINGS_IMPORT = "bookings.import"
    BOOKING_REPLACE = "booking.replace"
    PLAYER_SELF_CHECK_IN = "player.self_check_in"
    PLAYER_SELF_CHECK_IN_UNDO = "player.self_check_in_undo"
    # several tournaments (R27)
    TOURNAMENT_CREATE = "tournament.create"
    TOURNAMENT_ARCHIVE = "tournament.archive"
    TOURNAMENT_REOPEN = "tournament.reopen"
    TOURNAMENT_DELETE = "tournament.delete"
    TOURNAMENT_KEY = "tournament.key"  # its address key followed a rename, or a restore
    SEASON_SET = "season.set"
    DIRECTORY_LINK = "directory.link"
    DIRECTORY_MERGE = "directory.merge"
    DIRECTORY_SPLIT = "directory.split"
    OVERLAY_CREATE = "overlay.create"
    OVERLAY_REVOKE = "overlay.revoke"


# Labels are English here (shared tables hold them); pages show them through `_`. A label ""
# (no finals status) is never given to `_` (its catalog entry is the header): `i18n.cell`.
PICK_METHOD_LABELS = {PickMethod.HIDDEN_PICKS: N_("Hidden Picks"),
                      PickMethod.VOTE_OFF: N_("Vote Off")}
DRAW_MODE_LABELS = {DrawMode.RANDOM: N_("Random"), DrawMode.BALANCED: N_("Balanced")}
FINALS_STATUS_LABELS = {
    FinalsStatus.NONE: "", FinalsStatus.FINAL: N_("Final"),
    FinalsStatus.SEMIFINAL: N_("Semifinal"),
    FinalsStatus.OUT: N_("Out"), FinalsStatus.ABSENT: N_("Absent"),
    FinalsStatus.LOST_SEAT: N_("Lost final seat"), FinalsStatus.CHAMPION: N_("Champion"),
    FinalsStatus.RUNNER_UP: N_("Runner-up"), FinalsStatus.THIRD: N_("Third"),
    FinalsStatus.FINALIST: N_("Finalist")}
# A sitting's status in words, wherever it is named: "Qualifier 2 (being played)".
SITTING_STATUS_WORDS = {SittingStatus.DRAWN: N_("drawn, not published yet"),
                        SittingStatus.PUBLISHED: N_("being played"),
                        SittingStatus.COMPLETE: N_("complete")}
# The stored words themselves where a sentence says them ("Qualifier 2 is already published.").
KIND_WORDS = {Kind.QUALIFIER: N_("qualifier"), Kind.SEMIFINAL: N_("semifinal"),
              Kind.FINAL: N_("final")}
STATUS_WORDS = {SittingStatus.DRAWN: N_("drawn"), SittingStatus.PUBLISHED: N_("published"),
                SittingStatus.COMPLETE: N_("complete")}
BATTLE_OF_WILLS_LABELS = {BattleOfWills.FINALS: N_("The semifinal and the final"),
                          BattleOfWills.QUALIFIERS: N_("The qualifiers"),
                          BattleOfWills.BOTH: N_("The qualifiers, the semifinal and the final")}

#: What each logged action is, in words (the Log page's "What" column and filter).
ACTION_LABELS = {
    Action.PLAYERS_ADD: N_("Players added"),
    Action.PLAYER_EDIT: N_("Player edited"),
    Action.PLAYER_REMOVE: N_("Player removed"),
    Action.PLAYER_WITHDRAW: N_("Player withdrawn"),
    Action.PLAYER_REINSTATE: N_("Player reinstated"),
    Action.PLAYERS_CHECK_IN: N_("Check-in"),
    Action.PLAYERS_CHECK_OUT: N_("Check-out"),
    Action.PLAYER_ABSENT: N_("Finals absence"),
    Action.PLAYER_PRESENT: N_("Finals absence lifted"),
    Action.SITTING_DRAW: N_("Draw"),
    Action.SITTING_REDRAW: N_("Draw again"),
    Action.SITTING_DISCARD: N_("Draw discarded"),
    Action.SITTING_PUBLISH: N_("Published"),
    Action.SITTING_COMPLETE: N_("Sitting complete"),
    Action.SITTING_VOID: N_("Sitting voided"),
    Action.TABLE_REPLACE_PLAYER: N_("Player replaced"),
    Action.SITTING_RULE_CHANGE: N_("Rule change"),
    Action.TABLE_EMPTY_SEAT: N_("Seat left empty"),
    Action.TABLE_OVERRIDE_SETUP: N_("Setup changed"),
    Action.RESULT_SUBMIT: N_("Result entered"),
    Action.RESULT_CORRECT: N_("Result corrected"),
    Action.PICKS_VOTE_OFF: N_("Leaders voted off"),
    Action.PICKS_WILD_CARD: N_("Wild cards"),
    Action.SETTINGS_CHANGE: N_("Settings changed"),
    Action.PIN_SET: N_("PIN set"),
    Action.SESSION_REVOKE_ALL: N_("Everyone signed out"),
    Action.TOURNAMENT_RESTORE: N_("Tournament restored"),
    Action.BACKUP_RESTORE: N_("Backup restored"),
    Action.SIGN_IN_UNLOCK: N_("Sign-in pause lifted"),
    Action.SIGN_IN_CODE: N_("One-time sign-in code made"),
    Action.INVITATION_CREATE: N_("Judge invited"),
    Action.INVITATION_USE: N_("Signed in with an invitation"),
    Action.INVITATION_REVOKE: N_("Invitation withdrawn"),
    # the schedule (R26)
    Action.SCHEDULE_ADD: N_("Schedule item planned"),
    Action.SCHEDULE_EDIT: N_("Schedule item changed"),
    Action.SCHEDULE_REMOVE: N_("Schedule item removed"),
    Action.SCHEDULE_SHIFT: N_("Schedule running late"),
    Action.SCHEDULE_UNDO: N_("Schedule move undone"),
    Action.SITTING_CLOCK: N_("Clock"),
    Action.BOOKINGS_IMPORT: N_("Booking list imported"),
    Action.BOOKING_REPLACE: N_("Booked seat given to a waiting player"),
    Action.PLAYER_SELF_CHECK_IN: N_("Checked in on My seat"),
    Action.PLAYER_SELF_CHECK_IN_UNDO: N_("Check-in on My seat undone"),
    # several tournaments (R27)
    Action.TOURNAMENT_CREATE: N_("Tournament created"),
    Action.TOURNAMENT_ARCHIVE: N_("Tournament archived"),
    Action.TOURNAMENT_REOPEN: N_("Tournament reopened"),
    Action.TOURNAMENT_DELETE: N_("Tournament deleted"),
    Action.TOURNAMENT_KEY: N_("Tournament links changed"),
    Action.SEASON_SET: N_("Season changed"),
    Action.DIRECTORY_LINK: N_("Players linked across tournaments"),
    Action.DIRECTORY_MERGE: N_("Players merged"),
    Action.DIRECTORY_SPLIT: N_("Player split"),
    Action.OVERLAY_CREATE: N_("Stream overlay made"),
    Action.OVERLAY_REVOKE: N_("Stream overlay withdrawn"),
}

class Record(Mapping):
    """A frozen dataclass that still reads as the dict it replaces (`row["kind"]`,
    `dict(row)`, equal to a dict with the same items), for scripts and for code written
    against the dicts; STSA's own code reads the attributes."""

    def __getitem__(self, key: str) -> Any:
        if key not in self._keys():
            raise KeyError(key)
        return getattr(self, key)

    def __iter__(self) -> Iterator[str]:
        return iter(self._keys())

    def __len__(self) -> int:
        return len(self._keys())

    @classmethod
    def _keys(cls) -> tuple[str, ...]:
        return tuple(f.name for f in dataclasses.fields(cls))  # type: ignore[arg-type]


@dataclass(frozen=True, eq=False)
class Sitting(Record):
    """One sitting as the store lists it (a row of `store.sittings`): its kind and number, its
    draw's seed, its status, who drew it and when, when it was published and completed, its
    tables and how many have a result, and its rule change (R24; "" for none)."""

    sitting_id: int
    kind: Kind
    number: int
    seed: int
    status: SittingStatus
    created_by: str
    created_at: Any
    published_at: Any
    completed_at: Any
    tables: int
    results: int
    rule_change: str
    rule_change_points: str

    @classmethod
    def of(cls, row: Mapping) -> Sitting:
        """The record of one row (a dict or a frame row) of `store.sittings`."""
        return cls(sitting_id=int(row["sitting_id"]), kind=Kind(row["kind"]),
                   number=int(row["number"]), seed=row["seed"],
                   status=SittingStatus(row["status"]), created_by=row["created_by"],
                   created_at=row["created_at"], published_at=row["published_at"],
                   completed_at=row["completed_at"], tables=int(row["tables"]),
                   results=int(row["results"]), rule_change=row["rule_change"],
                   rule_change_points=row["rule_change_points"])

    @property
    def label(self) -> str:
        """"Qualifier 2", "Semifinal", "Final"."""
        return sitting_label(self.kind, self.number)


SYSTEM_NAME = "STSA"  # the name the log gives to what STSA does by itself


# How people name a sitting and a table. `sitting_label` and `table_label` are English (shared
# tables hold them; `i18n.cell` reads them back by these templates); `sitting_title` and
# `table_title` say the same in the run's language.
QUALIFIER_LABEL = i18n.template(N_("Qualifier {number}"))
KIND_LABELS = {Kind.SEMIFINAL: N_("Semifinal"), Kind.FINAL: N_("Final")}
TABLE_LABEL = i18n.template(N_("{sitting}, table {table}"))


def sitting_label(kind: str, number: int) -> str:
    """"Qualifier 2", "Semifinal", "Final": how people name a sitting (English, as shared
    tables and the log hold it; `sitting_title` in the run's language)."""
    return f"Qualifier {number}" if kind == Kind.QUALIFIER else str(kind).capitalize()


def sitting_title(kind: str, number: int) -> str:
    """`sitting_label` in the run's language ("Kvalomgång 2", "Demi-finale")."""
    if kind == Kind.QUALIFIER:
        return _(QUALIFIER_LABEL).format(number=number)
    label = KIND_LABELS.get(cast(Kind, kind))  # a str enum: a stored "semifinal" finds it
    return _(label) if label else str(kind).capitalize()


def table_label(kind: str, number: int, table_no: int) -> str:
    """"Qualifier 2, table 4": a table as people name it (English; `table_title` in the run's
    language)."""
    return f"{sitting_label(kind, number)}, table {table_no}"


def table_title(kind: str, number: int, table_no: int) -> str:
    """`table_label` in the run's language."""
    return _(TABLE_LABEL).format(sitting=sitting_title(kind, number), table=table_no)


def rule_change_line(sitting: Mapping) -> str:
    """R24: a sitting's rule change in one line, "name: how its extra points are earned", or
    "" for a sitting without one (`sitting` has `rule_change`, `rule_change_points`)."""
    name, points = (sitting.get(c) for c in ("rule_change", "rule_change_points"))
    name, points = (v if isinstance(v, str) else "" for v in (name, points))
    return f"{name}: {points}" if name and points else name


def is_whole(value) -> bool:
    """A whole number as the core takes one: an int (numpy's too), never a bool. What a person
    typed or a file holds is read with `whole_number`."""
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


_WHOLE = re.compile(r"^[+-]?\d+$")


def whole_number(value: Any, *, text: bool = True) -> int | None:
    """`value` as a whole number, or None if it is not one: an int (numpy's too), a finite
    float with nothing after the point (3.0), or, with `text`, digits with an optional sign;
    never a bool (true and false are not numbers)."""
    if type(value) is int:  # the usual case, first
        return value
    if isinstance(value, bool):
        return None
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        f = float(value)
        return int(f) if math.isfinite(f) and f.is_integer() else None
    if text and isinstance(value, str) and _WHOLE.match(value.strip()):
        return int(value.strip())
    return None


def normalize_name(name: str) -> str:
    """The key two names are compared by: Unicode-normalized, casefolded, spaces collapsed
    (R22 within a tournament, R27 across tournaments)."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


def quoted(names: Iterable) -> str:
    """"'Paul Atreides', 'Glossu Rabban'": names as a message lists them."""
    return ", ".join(map(repr, names))


def require_columns(frame, columns: Iterable[str], what: str) -> None:
    """`frame` is a table with every one of `columns`; else a `TournamentError` naming the
    missing ones ("The votes lack the column(s) leader.")."""
    columns = list(columns)
    have = getattr(frame, "columns", None)
    if have is None or isinstance(frame, type):
        raise TournamentError(_("{what} must be a table with columns {columns}.").format(
            what=_(what), columns=", ".join(columns)))
    missing = [c for c in columns if c not in have]
    if missing:
        raise TournamentError(_("{what} lack the column(s) {columns}.").format(
            what=_(what), columns=", ".join(missing)))


def draw_seed(seed) -> int:
    """R3: a draw's seed, a whole number of at least 0 (else a `TournamentError`)."""
    if not is_whole(seed) or seed < 0:
        raise TournamentError(_("The draw seed must be a whole number of at least 0, not "
                                "{seed}.").format(seed=repr(seed)))
    return int(seed)


def plural(count: int, word: str, many: str | None = None) -> str:
    """"1 table", "3 tables", "1 player has", with the count written out: English only (a
    caller in another language says it whole with `ngettext`; common counts: `count_of`)."""
    return f"{count} {word if count == 1 else (many or word + 's')}"


# The counts STSA says most often, for `count_of` (the catalogs' plural forms).
def _tables(n: int) -> str:
    return ngettext("{count} table", "{count} tables", n)


def _players(n: int) -> str:
    return ngettext("{count} player", "{count} players", n)


def _leaders(n: int) -> str:
    return ngettext("{count} leader", "{count} leaders", n)


def _seats(n: int) -> str:
    return ngettext("{count} seat", "{count} seats", n)


_COUNTS = {"table": _tables, "player": _players, "leader": _leaders, "seat": _seats}


def count_of(count: int, word: str) -> str:
    """`plural(count, word)` in the run's language, for the words of `_COUNTS` ("3 tables",
    "3 bord", "3 tables"); another word: `plural`, English."""
    found = _COUNTS.get(word)
    return found(count).format(count=count) if found else plural(count, word)


@dataclass(frozen=True)
class Problem:
    """One thing wrong with some input: where it is ("row 4", "seat 2", "Settings sheet") and
    what is wrong with it, in words a person can act on."""

    where: str | None
    what: str

    def __str__(self) -> str:
        return (_("{where}: {what}").format(where=self.where, what=self.what) if self.where
                else self.what)


class TournamentError(ValueError):
    """Input that the organizer, a judge or a spreadsheet can fix; the message says what and
    where. Pages catch it and show the message; anything else is a bug and surfaces.

    `problems` lists each thing wrong (a `Problem`) for a page to show as a table; a
    `TournamentError` is a `ValueError`, so callers of the core API's contract keep working."""

    def __init__(self, message: str, problems: Iterable[Problem] = ()):
        super().__init__(message)
        self.problems: list[Problem] = list(problems)
