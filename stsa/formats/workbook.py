"""The tournament workbook: written from plain rows, and parsed back into plain frames for a
restore (R19).

Writing: a Summary sheet, the Standings and the Finals first, then one sheet per table of the
tournament, names and labels first ("Qualifier 2", "Published", "Yes"), ids and the stored
values a restore reads back (JSON) last; each with a bold frozen header, a filter, widths to
fit and times as dates (UTC, what a restore reads back; the Schedule's "Starts" reads in the
tournament's time zone); text a spreadsheet would take for a formula is stored as text.
Every heading means one thing on every sheet: "Name" is a player's real name, "Nickname" the
name the public knows (R22). The workbook holds hidden information (removed leaders, emails,
the log): organizer only (R20).

Languages: the workbook is written in the tournament's language (its `language` setting;
English where it has none): sheet names, headings, labels, Yes and No, recorded in the file's
properties. The code knows one schema, in English (`SHEETS`); the words are translated as the
file is written (`write_workbook`) and read back from any of STSA's languages, so a restore
neither needs the recorded language nor a workbook in the reader's own (the recorded one is
tried first). Data stays as stored: names, numbers, setups, leaders, keys and JSON.

Parsing: every file passes the hostile-file guards first; then each cell is read as the kind
its column holds (a whole number, a date and time, Yes or No, JSON, a label or its code …),
also as a spreadsheet application writes them back after opening and saving the file (numbers
as 3.0, dates as day numbers, times to the millisecond, TRUE/FALSE or 1/0 for yes and no), and
from workbooks of earlier releases (their snake_case headings, the extra details as JSON under
"Extra details", without the sheets and columns added since). A cell that is not of its kind
raises one `RestoreError` whose problems name each sheet and row. Whether the values make
sense for a tournament is the service's check (`stsa.services.restore`), with the validators
entry uses. A workbook's log is the file's own record, which anyone with a spreadsheet
application can edit: every event a restore brings in is marked as coming from that file
(`mark_imported`), so it is never taken for this installation's own history (R19).
"""

from __future__ import annotations

import datetime as dt
import io
import json
import operator
import re
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import pandas as pd
from openpyxl.styles import Font, PatternFill

from stsa import catalog, i18n, local_time
from stsa.domain import Kind, PlayerStatus, Problem, Role, SittingStatus, sitting_label
from stsa.formats import guards, xlsx
from stsa.formats.guards import WORKBOOK_LIMITS, SpreadsheetError, at_row, cell_text
from stsa.i18n import N_, _, ngettext
from stsa.settings import REGISTRY, Settings
from stsa.settings import label as setting_label
from stsa.settings import words as setting_words

HEADER_FONT = Font(bold=True)
HEADER_FILL = PatternFill("solid", fgColor="DDE3EA")
TIME_FORMAT = xlsx.TIME_FORMAT
EXCEL_TEXT_MAX = 16_000  # Excel holds 32,767 UTF-16 units in a cell; any character is ≤ 2
INT_MAX = 2**31 - 1  # what an integer column holds on every database STSA runs on
SHOWN_PROBLEMS = 50

Sheet = tuple[list[str], list[list]]  # (headings, rows)
TOURNAMENT = "tournament"  # a language argument's default: the tournament's own


class Sheets(dict):
    """{English sheet title: (headings, rows)} as `tournament_sheets` makes them; `language`
    is the one the labels in the rows are in (what `write_workbook` names the sheets in)."""

    def __init__(self, *args: Any, language: str = i18n.ENGLISH, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.language = language

# Words stored as codes and shown as people say them: {family: {code: label}} (the labels in
# English, translated where written). A cell is read back from either, in any of STSA's
# languages (any case); anything else is kept as written, for the checks to name.
_LABELS = {"qualifier": N_("Qualifier"), "semifinal": N_("Semifinal"), "final": N_("Final"),
           "drawn": N_("Drawn"), "published": N_("Published"), "complete": N_("Complete"),
           "active": N_("Active"), "withdrawn": N_("Withdrawn"),
           "organizer": N_("Organizer"), "judge": N_("Judge"), "spectator": N_("Spectator")}
WORDS: dict[str, dict[str, str]] = {
    "kind": {k.value: _LABELS[k.value] for k in Kind},
    "status": {s.value: _LABELS[s.value] for s in SittingStatus},
    "player": {s.value: _LABELS[s.value] for s in PlayerStatus},
    "role": {r.value: _LABELS[r.value] for r in Role},
    "stage": {"finals": N_("Finals"), "semifinal": N_("Semifinal"), "final": N_("Final")},
    "zone": {"final": N_("Final"), "semifinal": N_("Semifinal"), "out": N_("Out")},
}
YES_NO = {True: N_("Yes"), False: N_("No")}

# sheet -> (store table it restores, or None) and [(heading, table column or None, kind)];
# kinds: int, text, bool (Yes or No), time, list (leaders, "; "-separated), json (JSON text),
# num, and word:<family> (a code of `WORDS` shown as its label). Columns without a table
# column are for the reader (names, nicknames, labels, placings, details in words) and never
# read back. Computed sheets (Summary, Standings, Finals) come from the frames
# `tournament_sheets` is given. "Name" is always the real name, "Nickname" the public one.
SHEETS: dict[str, tuple[str | None, list[tuple[str, str | None, str]]]] = {
    N_("Summary"): (None, [(N_("Tournament"), None, "text"), ("", None, "text")]),
    N_("Standings"): (None, []),  # headings from the standings frame (`STANDINGS_HEADINGS`)
    N_("Finals"): (None, [
        (N_("Final rank"), "final_rank", "int"), (N_("Nickname"), "name", "text"),
        (N_("Name"), "real_name", "text"), (N_("Stage"), "stage", "text"),
        (N_("Wildcard"), "wildcard", "bool"), (N_("Best score"), "best_score", "num"),
        (N_("Qualifier rank"), "rank", "int"), (N_("Player id"), "player_id", "int")]),
    N_("Players"): ("players", [
        (N_("Name"), "name", "text"), (N_("Nickname"), "nickname", "text"),
        (N_("Club"), "club", "text"),
        (N_("Status"), "status", "word:player"), (N_("Checked in"), "checked_in", "bool"),
        (N_("Checked in at"), "checked_in_at", "time"),
        (N_("Registration order"), "registration_order", "int"), (N_("Email"), "email", "text"),
        (N_("Extra details"), None, "text"), (N_("Player id"), "id", "int"),
        (N_("Added by"), "created_by", "text"), (N_("Added at"), "created_at", "time"),
        (N_("Stored extra details"), "extra", "json")]),
    N_("Sittings"): ("sittings", [
        (N_("Sitting"), None, "text"), (N_("Stage"), "kind", "word:kind"),
        (N_("Number"), "number", "int"),
        (N_("Status"), "status", "word:status"), (N_("Tables"), None, "int"),
        (N_("Results"), None, "int"), (N_("Rule change"), "rule_change", "text"),
        (N_("Rule change points"), "rule_change_points", "text"), (N_("Seed"), "seed", "text"),
        (N_("Drawn by"), "created_by", "text"), (N_("Drawn at"), "created_at", "time"),
        (N_("Published at"), "published_at", "time"), (N_("Completed at"), "completed_at", "time"),
        (N_("Sitting id"), "id", "int")]),
    N_("Tables"): ("tables", [
        (N_("Sitting"), None, "text"), (N_("Table"), "table_no", "int"),
        (N_("Setup"), None, "text"),
        (N_("Setup changed"), "setup_override", "bool"), (N_("Players"), None, "int"),
        (N_("Removed leaders"), "removed_leaders", "list"),
        (N_("Available leaders"), "available_leaders", "list"),
        (N_("Result version"), "result_version", "int"), (N_("Setup id"), "setup_id", "text"),
        (N_("Table id"), "id", "int"), (N_("Sitting id"), "sitting_id", "int")]),
    N_("Seats"): ("seats", [
        (N_("Sitting"), None, "text"), (N_("Table"), None, "int"), (N_("Seat"), "seat", "int"),
        (N_("Name"), None, "text"), (N_("Nickname"), None, "text"),
        (N_("Colour"), "colour", "text"),
        (N_("Pick order"), "pick_order", "int"), (N_("Player id"), "player_id", "int"),
        (N_("Table id"), "table_id", "int"), (N_("Sitting id"), "sitting_id", "int")]),
    N_("Results"): ("results", [
        (N_("Sitting"), None, "text"), (N_("Table"), None, "int"), (N_("Seat"), "seat", "int"),
        (N_("Name"), None, "text"), (N_("Nickname"), None, "text"),
        (N_("Leader"), "leader", "text"),
        (N_("VP"), "vp", "int"), (N_("Spice"), "spice", "int"), (N_("Solari"), "solari", "int"),
        (N_("Troops"), "troops", "int"), (N_("Water"), "water", "int"),
        (N_("Variant points"), "variant_points", "int"), (N_("Tie-break"), "tiebreak", "int"),
        (N_("Placing"), None, "int"),
        (N_("Qualifier score"), None, "num"), (N_("Tied"), None, "bool"),
        (N_("Setup id"), None, "text"), (N_("Version"), "version", "int"),
        (N_("Saved by"), "saved_by", "text"), (N_("Saved at"), "saved_at", "time"),
        (N_("Player id"), "player_id", "int"), (N_("Table id"), "table_id", "int"),
        (N_("Sitting id"), None, "int"), (N_("Submission id"), "submission_id", "text")]),
    N_("Votes"): ("leader_votes", [  # R10 Vote Off: judges' and organizer's eyes only (R20)
        (N_("Sitting"), None, "text"), (N_("Table"), None, "int"), (N_("Name"), None, "text"),
        (N_("Nickname"), None, "text"), (N_("Leader"), "leader", "text"),
        (N_("Entered by"), "entered_by", "text"), (N_("Entered at"), "entered_at", "time"),
        (N_("Player id"), "player_id", "int"), (N_("Table id"), "table_id", "int")]),
    N_("Wild cards"): ("wild_cards", [  # R10 Wild Card
        (N_("Sitting"), None, "text"), (N_("Table"), None, "int"), (N_("Seat"), "seat", "int"),
        (N_("Name"), None, "text"), (N_("Nickname"), None, "text"),
        (N_("Picked leader"), "picked_leader", "text"),
        (N_("Took a random one"), "swapped", "bool"), (N_("Leader"), "leader", "text"),
        (N_("Entered by"), "entered_by", "text"), (N_("Entered at"), "entered_at", "time"),
        (N_("Player id"), "player_id", "int"), (N_("Table id"), "table_id", "int")]),
    N_("Sit-outs"): ("sit_outs", [
        (N_("Sitting"), None, "text"), (N_("Name"), None, "text"), (N_("Nickname"), None, "text"),
        (N_("Player id"), "player_id", "int"), (N_("Sitting id"), "sitting_id", "int")]),
    N_("Waiting list"): ("waiting", [  # R21
        (N_("Sitting"), None, "text"), (N_("Position"), "position", "int"),
        (N_("Name"), None, "text"),
        (N_("Nickname"), None, "text"), (N_("Player id"), "player_id", "int"),
        (N_("Sitting id"), "sitting_id", "int")]),
    N_("Absences"): ("absences", [
        (N_("Stage"), "stage", "word:stage"), (N_("Name"), None, "text"),
        (N_("Nickname"), None, "text"), (N_("Marked by"), "marked_by", "text"),
        (N_("Marked at"), "marked_at", "time"), (N_("Player id"), "player_id", "int")]),
    N_("Schedule"): ("schedule_items", [  # R26: times as dates in UTC; "Starts" in the room's
        (N_("Item"), None, "text"), (N_("Title"), "title", "text"),  # time zone, for the reader
        (N_("Stage"), "sitting_kind", "word:kind"), (N_("Number"), "sitting_number", "int"),
        (N_("Starts"), None, "text"), (N_("Minutes"), "minutes", "int"),
        (N_("Starts at (UTC)"), "starts_at", "time"), (N_("Changed by"), "updated_by", "text"),
        (N_("Changed at"), "updated_at", "time"), (N_("Item id"), "id", "int")]),
    N_("Bookings"): ("bookings", [  # R25: each qualifier's booking list
        (N_("Qualifier"), "sitting_number", "int"), (N_("Position"), "position", "int"),
        (N_("Name"), None, "text"), (N_("Nickname"), None, "text"),
        (N_("Booked at"), "booked_at", "time"),
        (N_("Seat given to player id"), "replaced_by", "int"),
        (N_("Imported by"), "imported_by", "text"), (N_("Imported at"), "imported_at", "time"),
        (N_("Player id"), "player_id", "int")]),
    N_("Settings"): ("settings", [
        (N_("Setting"), None, "text"), (N_("Value"), None, "text"), (N_("Default"), None, "bool"),
        (N_("Set by"), "updated_by", "text"), (N_("Set at"), "updated_at", "time"),
        (N_("Key"), "key", "text"), (N_("Stored value"), "value", "json")]),
    N_("Log"): ("events", [
        (N_("Event"), "id", "int"), (N_("When (UTC)"), "at", "time"), (N_("By"), "actor", "text"),
        (N_("Role"), "role", "word:role"), (N_("What happened"), None, "text"),
        (N_("Action"), "action", "text"), (N_("Subject"), "subject", "text"),
        (N_("Before"), "before", "json"), (N_("After"), "after", "json")]),
}
#: The Summary's line recording the tournament's address key, which a restore gives it back
#: (R27); a workbook without it (before issue 33) gets the key of its name.
KEY_LINE = N_("Address key")
#: Sheets an older workbook may lack: restored as empty.
OPTIONAL_SHEETS = ("Votes", "Wild cards", "Waiting list", "Schedule", "Bookings")
#: Headings of workbooks before the readable ones, where they differ from the column's name.
LEGACY_HEADINGS: dict[tuple[str | None, str], str] = {
    ("players", "id"): "player_id", ("sittings", "id"): "sitting_id",
    ("tables", "id"): "table_id", ("tables", "result_version"): "version",
    ("results", "table_id"): "game_id", ("events", "id"): "event_id"}
#: Headings of readable workbooks of earlier releases that have since changed: the extra
#: details were JSON under "Extra details" (now the details in words, the JSON stored last).
EARLIER_HEADINGS: dict[tuple[str | None, str], str] = {("players", "extra"): "Extra details"}
#: Columns workbooks before schema 3 lack: read as blank (a nickname then is the name).
NEW_COLUMNS = {("players", "nickname"), ("players", "registration_order"),
               ("players", "checked_in_at"), ("sittings", "rule_change"),
               ("sittings", "rule_change_points")}
#: The standings' columns (`services.results.standings_table`) as people read them, in order:
#: `name` is the nickname (R22); `real_name` only in the organizer's workbook.
STANDINGS_HEADINGS = {
    "rank": N_("Rank"), "name": N_("Nickname"), "real_name": N_("Name"),
    "best_score": N_("Best score"),
    "games": N_("Games"), "wins": N_("Wins"), "placing": N_("Best game placing"),
    "vp": N_("Best game VP"),
    "spice": N_("Best game spice"), "solari": N_("Best game solari"),
    "troops": N_("Best game troops"),
    "water": N_("Best game water"), "zone": N_("Zone"), "tie_at_cut": N_("Tie at the cut"),
    "player_id": N_("Player id")}
PUBLIC_PLAYER = N_("Player")  # the nickname's heading in a file without real names
#: The extra details a roster import keeps (`services.roster_import`), in words and in this
#: order; any other detail is named after its key ("shirt_size" → "Shirt size").
EXTRA_LABELS = {"city": N_("City"), "roster_id": N_("Player id in the roster file"),
                "registered": N_("Registered")}
SHEET_OF = {table: title for title, (table, _x) in SHEETS.items() if table}  # table -> sheet
HEADING_OF = {(table, col): heading for table, columns in SHEETS.values() if table
              for heading, col, _x in columns if col}  # (table, column) -> its heading


def _key_index(columns: list[tuple[str, str | None, str]]) -> int:
    """The column that names a row (its id, a setting's key): repeated on the continuation
    rows of a long JSON text."""
    return next((i for i, (_x, col, _x) in enumerate(columns) if col in ("id", "key")), 0)


# -- the languages of a workbook -------------------------------------------------------------
#: Characters a sheet's name cannot hold, and its longest length (Excel's rules).
_NOT_IN_NAMES = str.maketrans({c: " " for c in "[]:*?/\\"})
SHEET_NAME_MAX = 31


def _sheet_name(text: str) -> str:
    """`text` as a sheet may be named: no []:*?/\\, no quote at either end, 31 characters."""
    name = " ".join(text.translate(_NOT_IN_NAMES).split()).strip("'")
    return name[:SHEET_NAME_MAX].rstrip() or text[:SHEET_NAME_MAX]


def language_of(dump: Mapping[str, list[dict]]) -> str | None:
    """The tournament's language (its `language` setting) in a `store.dump_tournament`
    snapshot, or None (English, and each reader's own on the pages)."""
    for row in dump.get("settings", []):
        if row.get("key") == "language":
            try:
                return i18n.known(json.loads(row["value"]))
            except (TypeError, ValueError):
                return None
    return None


def sheet_title(title: str) -> str:
    """A sheet's name in this run's language, as `write_workbook` names it."""
    return _sheet_name(_(title)) if title else title


@cache
def _names_in(code: str) -> tuple[dict[str, str], dict[str, dict[str, str]]]:
    """Language `code`'s sheet names ({English title: name}) and headings ({English title:
    {English heading: heading}}), as STSA writes them."""
    with i18n.language(code):
        titles = {title: sheet_title(title) for title in SHEETS}
        headings = {title: {h: _(h) for h, _col, _kind in columns if h}
                    for title, (_table, columns) in SHEETS.items()}
    return titles, headings


def _languages(first: str | None) -> list[str]:
    """STSA's languages in the order a file's names are looked up: `first` (the file's own),
    English (every earlier release's), then the others."""
    order = [first] if first in i18n.LANGUAGES else []
    return order + [c for c in (i18n.ENGLISH, *i18n.LANGUAGES) if c not in order]


def word_label(family: str, code: Any) -> Any:
    """A stored code as people say it, in this run's language ("published" → "Published");
    others as they are."""
    if not isinstance(code, str) or code not in WORDS[family]:
        return code
    return _(WORDS[family][code])


@cache
def _word_codes(family: str) -> dict[str, str]:
    """{a code or its label in any of STSA's languages, casefolded: the code}."""
    known = {c.casefold(): c for c in WORDS[family]}
    for code in _languages(None):
        with i18n.language(code):
            known.update({_(label).casefold(): c for c, label in WORDS[family].items()
                          if _(label).casefold() not in known})
    return known


def _word_code(family: str, text: str) -> str:
    return _word_codes(family).get(text.strip().casefold(), text.strip())


def yes_no(value: bool) -> str:
    """Yes or No in this run's language."""
    return _(YES_NO[bool(value)])


class RestoreError(SpreadsheetError):
    """A file that is not a readable STSA tournament workbook, or rows a tournament cannot
    hold; `problems` name each sheet and row."""


def restore_error(problems: list[Problem]) -> RestoreError:
    """One error listing every problem (the first `SHOWN_PROBLEMS` in its message)."""
    text = "; ".join(str(p) for p in problems[:SHOWN_PROBLEMS])
    more = len(problems) - SHOWN_PROBLEMS
    if more > 0:
        return RestoreError(_("Nothing was restored: {problems}; and {count} more.").format(
            problems=text, count=more), problems)
    return RestoreError(_("Nothing was restored: {problems}.").format(problems=text), problems)


# -- values as cells -----------------------------------------------------------------------------
def plain(value: Any) -> Any:
    """A Python value for a cell: numpy scalars unwrapped, every kind of missing as None."""
    kind = type(value)
    if kind is str or kind is int or kind is bool or kind is dt.datetime:  # the usual ones
        return value
    if value is None or value is pd.NA or value is pd.NaT:
        return None
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):
        value = value.item()
    if isinstance(value, float) and value != value:
        return None
    return value


def excel_time(value: Any) -> dt.datetime | None:
    """UTC, naive (Excel has no time zones), to the millisecond (what a workbook keeps)."""
    if value is None or value is pd.NaT:
        return None
    if isinstance(value, pd.Timestamp):
        value = value.to_pydatetime()
    if value.tzinfo is not None:
        value = value.astimezone(dt.UTC).replace(tzinfo=None)
    return value.replace(microsecond=value.microsecond // 1000 * 1000)


def _sheet_value(kind: str, value: Any) -> Any:
    value = plain(value)
    if value is None:
        return None
    if kind == "time":
        return excel_time(value)
    if kind == "list":
        return "; ".join(json.loads(value) if isinstance(value, str) else list(value))
    if kind == "int":
        return int(value)
    if kind == "bool":
        return yes_no(value)
    if kind.startswith("word:"):
        return word_label(kind[5:], value)
    return value


#: The Python types a column's values already have as cells (`_sheet_value` returns them
#: unchanged): the rows of a large tournament skip the general conversion.
_AS_IS = {"text": str, "int": int, "json": str, "num": int}


def _quick_words(kind: str) -> dict | None:
    """{stored value: its cell} of a column of Yes and No or of coded words, in this run's
    language, as `_sheet_value` writes them: looked up per cell instead of translated."""
    if kind == "bool":
        return {True: yes_no(True), False: yes_no(False)}
    if kind.startswith("word:"):
        return {code: _(label) for code, label in WORDS[kind[5:]].items()}
    return None


def _sheet_rows(records: list[dict], columns: list[tuple[str, str]]) -> list[list]:
    """Rows of `_sheet_value`s of each record's (key, kind) `columns`, column by column."""
    def converted(key: str, kind: str) -> list:
        same = _AS_IS.get(kind)
        try:
            values = list(map(operator.itemgetter(key), records))
        except KeyError:  # a record without the column: blank there
            values = [rec.get(key) for rec in records]
        words = _quick_words(kind)
        if words is not None:
            return [words[v] if (type(v) is bool or type(v) is str) and v in words
                    else _sheet_value(kind, v) for v in values]
        return [v if v is None or type(v) is same else _sheet_value(kind, v) for v in values]

    cols = [converted(key, kind) for key, kind in columns]
    return list(map(list, zip(*cols))) if cols else [[] for _x in records]


def frame_sheet(frame: pd.DataFrame, columns: list[str] | None = None) -> Sheet:
    """A frame as (headings, rows) of plain values."""
    frame = frame if columns is None else frame[columns]
    cells = [[plain(v) for v in frame.iloc[:, j].tolist()] for j in range(frame.shape[1])]
    return list(frame.columns), (list(map(list, zip(*cells))) if cells
                                 else [[] for _x in range(len(frame))])


def _detail_label(key: str) -> str:
    label = (_(EXTRA_LABELS[key]) if key in EXTRA_LABELS
             else " ".join(str(key).replace("_", " ").split()) or _("Detail"))
    return label[:1].upper() + label[1:]


def _detail_value(value: Any) -> str:
    if isinstance(value, bool):
        return yes_no(value)
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def extra_words(extra: Any) -> str | None:
    """R19: a player's extra details (a JSON object of {detail: value}, as stored, or that
    object) in words: "City: Umeå; Player id in the roster file: 12; Shirt size: L", the
    roster import's details first (`EXTRA_LABELS`), yes/no as words. None when there are
    none; text that is not a JSON object as it is."""
    try:
        details = json.loads(extra) if isinstance(extra, str) else extra
    except ValueError:
        return extra or None
    if not details:
        return None
    if not isinstance(details, dict):
        return str(extra)
    keys = [*(k for k in EXTRA_LABELS if k in details),
            *(k for k in details if k not in EXTRA_LABELS)]
    return "; ".join(_("{detail}: {value}").format(detail=_detail_label(k),
                                                    value=_detail_value(details[k]))
                     for k in keys)


#: Standings columns of whole numbers: a player seated with no result yet has none (blank).
_STANDINGS_NUMBERS = ["rank", "best_score", "games", "wins", "placing", "vp", "spice",
                      "solari", "troops", "water", "player_id"]


def standings_sheet(standings: pd.DataFrame,
                    real_names: Mapping[Any, Any] | None = None) -> pd.DataFrame:
    """R14–R16: the qualifier standings (`services.results.standings_table`'s frame) as
    people read them: the headings of `STANDINGS_HEADINGS` in their order, the zone in words
    ("Final", "Semifinal", "Out"; blank while there is none), the tie at the cut as Yes or
    No, whole numbers as whole numbers and blanks where a player seated with no result yet
    has none. With `real_names` ({player id: real name}: the organizer's workbook) both the
    Nickname and the Name; without, the nickname alone under "Player" (R22: a file that
    anyone may be shown)."""
    frame = standings.astype({c: "Int64" for c in _STANDINGS_NUMBERS if c in standings})
    if real_names is not None and "player_id" in frame:
        frame = frame.assign(real_name=frame["player_id"].map(real_names))
    if "zone" in frame:
        frame = frame.assign(zone=frame["zone"].map(
            {code: _(label) for code, label in WORDS["zone"].items()}).fillna(""))
    if "tie_at_cut" in frame:
        frame = frame.assign(tie_at_cut=frame["tie_at_cut"].fillna(False).astype(bool)
                             .map({True: yes_no(True), False: yes_no(False)}))
    headings = (STANDINGS_HEADINGS if real_names is not None
                else {**STANDINGS_HEADINGS, "name": PUBLIC_PLAYER})
    return frame[[c for c in headings if c in frame]].rename(columns=headings)


# -- the tournament as sheets --------------------------------------------------------------------
def _split_long(columns: list[tuple[str, str | None, str]], rows: list[list]) -> list[list]:
    """A JSON text longer than a cell holds continues in the rows below, which repeat the
    first column (the id) and leave the others blank; `_join_long` puts it back together."""
    long = [i for i, (_title, _sheet, kind) in enumerate(columns) if kind == "json"]
    if not any(isinstance(row[i], str) and len(row[i]) > EXCEL_TEXT_MAX
               for row in rows for i in long):
        return rows
    key = _key_index(columns)
    out = []
    for row in rows:
        parts = {i: [row[i][k:k + EXCEL_TEXT_MAX] for k in range(0, len(row[i]), EXCEL_TEXT_MAX)]
                 for i in long if isinstance(row[i], str) and len(row[i]) > EXCEL_TEXT_MAX}
        out.append([parts[i][0] if i in parts else v for i, v in enumerate(row)])
        for n in range(1, max((len(p) for p in parts.values()), default=0)):
            out.append([row[i] if i == key else parts[i][n] if i in parts and n < len(parts[i])
                        else None for i in range(len(row))])
    return out


def _joined(dump: Mapping[str, list[dict]], scored: pd.DataFrame, defaults: Mapping[str, Any],
            what_happened: Iterable[str] | None) -> dict[str, list[dict]]:
    """Each table's rows with what a reader wants beside them: names and nicknames, sitting
    labels, setup names, counts, the results' placings and scores (R11, R12), extra details,
    every setting (the defaults too, marked) and the log's events in words."""
    people = {p["id"]: {"Name": p["name"], "Nickname": p.get("nickname") or p["name"]}
              for p in dump["players"]}
    nobody = {"Name": None, "Nickname": None}

    def who(player_id: Any) -> dict:
        """R22: the player's real name and the nickname the public knows, side by side."""
        return people.get(player_id, nobody)

    sittings = {s["id"]: {**s, "label": sitting_label(s["kind"], s["number"])}
                for s in dump["sittings"]}
    tables = {t["id"]: t for t in dump["tables"]}
    setup_names = dict(catalog.setups(battle_of_wills=True)[["setup_id", "name"]]
                       .itertuples(index=False, name=None))
    seated = pd.Series([s["table_id"] for s in dump["seats"]], dtype="int64").value_counts(
        ).to_dict()
    by_sitting = pd.DataFrame(dump["tables"], columns=["sitting_id", "result_version"])
    counts = by_sitting.groupby("sitting_id")["result_version"].agg(
        tables="size", results=lambda v: int((v > 0).sum()))
    unscored = {"Placing": None, "Qualifier score": None, "Tied": None}
    score = {(int(g), int(p)): {"Placing": pl, "Qualifier score": qs, "Tied": bool(t)}
             for g, p, pl, qs, t in scored[["game_id", "player_id", "placing",
                                            "qualifier_score", "tied"]].itertuples(
                 index=False, name=None)}

    @cache
    def at_table(table_id: int) -> dict:
        t = tables[table_id]
        s = sittings[t["sitting_id"]]
        return {"sitting_id": s["id"], "Sitting id": s["id"], "Sitting": s["label"],
                "_order": s["id"], "Table": t["table_no"], "Setup id": t["setup_id"]}

    def place(rows: Iterable[dict]) -> list[dict]:
        return sorted(rows, key=lambda r: (r["_order"], r["Table"], r.get("seat", 0)))

    def in_sitting(rows: Iterable[dict]) -> list[dict]:
        return [{**r, "Sitting": sittings[r["sitting_id"]]["label"], **who(r["player_id"])}
                for r in rows]

    stored = {s["key"]: s for s in dump["settings"]}
    tz = Settings.of({k: json.loads(s["value"]) for k, s in stored.items()
                      if k in REGISTRY}).zone
    settings = []
    for key in [*defaults, *(k for k in stored if k not in defaults)]:
        row = stored.get(key) or {"key": key, "value": json.dumps(defaults[key])}
        value = json.loads(row["value"])
        settings.append({**row, "Setting": setting_label(key), "Value": setting_words(key, value),
                         "Default": key in defaults and value == defaults[key]})
    texts = list(what_happened) if what_happened is not None else []
    return {
        "players": [{**p, "Extra details": extra_words(p.get("extra"))}
                    for p in dump["players"]],
        "sittings": [{**s, "Sitting": s["label"], "Tables": counts["tables"].get(s["id"], 0),
                      "Results": counts["results"].get(s["id"], 0)}
                     for s in sittings.values()],
        "tables": [{**t, "Sitting": sittings[t["sitting_id"]]["label"],
                    "Setup": setup_names.get(t["setup_id"], t["setup_id"]),
                    "Players": seated.get(t["id"], 0)} for t in dump["tables"]],
        "seats": place({**s, **at_table(s["table_id"]), **who(s["player_id"])}
                       for s in dump["seats"]),
        "results": place({**r, **at_table(r["table_id"]), **who(r["player_id"]),
                          **score.get((r["table_id"], r["player_id"]), unscored)}
                         for r in dump["results"]),
        "leader_votes": place({**v, **at_table(v["table_id"]), **who(v["player_id"])}
                              for v in dump.get("leader_votes", [])),
        "wild_cards": place({**w, **at_table(w["table_id"]), **who(w["player_id"])}
                            for w in dump.get("wild_cards", [])),
        "sit_outs": in_sitting(dump["sit_outs"]),
        "waiting": in_sitting(sorted(dump.get("waiting", []),
                                     key=lambda w: (w["sitting_id"], w["position"]))),
        "absences": [{**a, **who(a["player_id"])} for a in dump["absences"]],
        "schedule_items": [
            {**i, "Item": sitting_label(i["sitting_kind"], i["sitting_number"] or 1)
             if i.get("sitting_kind") else i["title"],
             "Starts": local_time.date_words(i["starts_at"], tz)}
            for i in sorted(dump.get("schedule_items", []),
                            key=lambda i: (i["starts_at"], i["id"]))],
        "bookings": [{**b, **who(b["player_id"])} for b in dump.get("bookings", [])],
        "settings": settings,
        "events": [{**e, "What happened": texts[i] if i < len(texts) else None}
                   for i, e in enumerate(dump["events"])],
    }


def tournament_sheets(dump: Mapping[str, list[dict]], *, scored: pd.DataFrame,
                      standings: pd.DataFrame | None = None,
                      finals: pd.DataFrame | None = None,
                      summary: list[tuple[str, Any]] | None = None,
                      defaults: Mapping[str, Any] | None = None,
                      what_happened: Iterable[str] | None = None,
                      titles: Iterable[str] = tuple(SHEETS),
                      language: str | None = TOURNAMENT) -> Sheets:
    """{sheet title: (headings, rows)} for the sheets named in `titles`, from one snapshot of
    the store's tables (`dump`, as `store.dump_tournament` returns it), the results scored
    (`game_id, player_id, placing, qualifier_score, tied`), and for the computed sheets what
    to show: `summary` ((what, value) lines, the first the tournament's name), `standings`
    (`results.standings_table`'s frame), `finals` (`final_rank, name, stage, wildcard,
    best_score, rank, player_id`; `name` the nickname, as in the standings). Both get each
    player's real name beside the nickname, from `dump`. `defaults`: every setting's default,
    so the Settings sheet lists each setting (a default marked so); `what_happened`: each
    event in words, in the dump's order.

    The titles and headings are the English ones of `SHEETS` (what code and `write_workbook`
    know them by); the labels in the rows (sittings, stages, statuses, Yes and No, settings
    and details in words) are in `language`: by default the tournament's own
    (`language_of(dump)`) for a whole workbook (a `summary` given), else this run's. The
    result remembers it (`Sheets.language`) for `write_workbook`."""
    if language == TOURNAMENT:
        language = language_of(dump) if summary is not None else i18n.current()
    with i18n.language(language) as chosen:
        sheets = _tournament_sheets(dump, scored, standings, finals, summary, defaults,
                                    what_happened, titles)
    return Sheets(sheets, language=chosen)


def _tournament_sheets(dump, scored, standings, finals, summary, defaults, what_happened,
                       titles) -> dict[str, Sheet]:
    joined = _joined(dump, scored, defaults or {}, what_happened)
    real_names = {p["id"]: p["name"] for p in dump["players"]}
    sheets = {}
    for title in titles:
        table, columns = SHEETS[title]
        if title == "Summary":
            lines = [[_(v) if i == 0 and isinstance(v, str) and v else
                      plain(v) if not isinstance(v, dt.datetime) else excel_time(v)
                      for i, v in enumerate(line)] for line in (summary or [])]
            sheets[title] = (["Tournament", str(lines[0][1]) if lines else ""], lines[1:])
        elif title == "Standings":
            frame = standings if standings is not None else pd.DataFrame()
            sheets[title] = frame_sheet(standings_sheet(frame, real_names))
        elif table is None:
            heads = [h for h, _x, _x in columns]
            frame = finals if finals is not None else pd.DataFrame(
                columns=[c for _x, c, _x in columns])
            frame = frame.assign(real_name=frame["player_id"].map(real_names))
            rows = _sheet_rows(frame.to_dict("records"), [(c or h, k) for h, c, k in columns])
            sheets[title] = (heads, rows)
        else:
            rows = _sheet_rows(joined[table], [(c or h, k) for h, c, k in columns])
            sheets[title] = ([h for h, _x, _x in columns], _split_long(columns, rows))
    return sheets


# -- writing -------------------------------------------------------------------------------------
def workbook_bytes(wb) -> bytes:
    """An openpyxl workbook saved as .xlsx bytes, made by STSA."""
    wb.properties.creator = "STSA"
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def write_workbook(sheets: Mapping[str, Sheet], *, step: xlsx.Step | None = None,
                   language: str | None = TOURNAMENT) -> bytes:
    """An .xlsx with one styled sheet per item of {title: (headings, rows)}, in order (a bold
    frozen header, a filter, widths from the content, dates as dates, formula-like text as
    text), written by `formats.xlsx` (openpyxl takes seconds per sheet of the largest
    tournament). `step(index, title)` is called before each sheet, with its English title.

    The sheet names and headings are written in `language`, by default the one
    `tournament_sheets` wrote the labels in (`Sheets.language`; English for a plain
    mapping), and the file records it (its properties' language): the English titles and
    headings are translated here, the Summary's second heading (the tournament's name) kept
    as it is."""
    if language == TOURNAMENT:
        language = getattr(sheets, "language", None)
    with i18n.language(language) as chosen:
        named: dict[str, Sheet] = {}
        for title, (headings, rows) in sheets.items():
            name = sheet_title(title)
            if not name or name.casefold() in {n.casefold() for n in named}:
                name = title  # two titles one name in this language: the English one
            heads = [h if (title == "Summary" and i > 0) or not isinstance(h, str) or not h
                     else _(h) for i, h in enumerate(headings)]
            named[name] = (heads, rows)
    english = list(sheets)

    def told(index: int, _name: str) -> None:
        if step:
            step(index, english[index])

    return xlsx.write(named, creator="STSA", step=told, language=chosen)


# -- parsing -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class ParsedWorkbook:
    """A tournament workbook read back: {store table: frame} with the store's column names,
    plain Python values (None for blank cells, lists of leader names, JSON as text) and the
    spreadsheet's row numbers as the index; `source` is the file's name."""

    tables: dict[str, pd.DataFrame]
    source: str
    #: The address key the Summary records (`KEY_LINE`), as written; None without one.
    key: str | None = None
    #: The file's language (recorded, or the one its sheets are named in; None: unknown) and
    #: how it names each table's sheet ({store table: sheet}) and column ({(table, column):
    #: heading}), for messages that point into it.
    language: str | None = None
    sheets: Mapping[str, str] = field(default_factory=dict)
    headings: Mapping[tuple[str, str], str] = field(default_factory=dict)


# -- the log of a restored workbook (R19) --------------------------------------------------------
ACTOR_MAX = 100  # what the log's actor column holds
SOURCE_SHOWN = 32  # characters of the file's name in an imported event's actor
#: An imported event's mark after its actor: " (from the workbook spring.xlsx, restored
#: 2026-03-07 09:41 UTC)"; the name of the file is left out when there is none.
IMPORTED_MARK = re.compile(r" \(from (?:the workbook .+|a workbook), restored "
                           r"\d{4}-\d\d-\d\d \d\d:\d\d UTC\)$")


def _shortened(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:max(limit - 1, 0)] + "…"


def imported_mark(source: str | None, at: dt.datetime) -> str:
    """R19: what follows the actor of an event a restore brought in from the workbook named
    `source` at `at`: " (from the workbook spring.xlsx, restored 2026-03-07 09:41 UTC)"."""
    name = " ".join(str(source or "").split())
    where = f"the workbook {_shortened(name, SOURCE_SHOWN)}" if name else "a workbook"
    when = at.astimezone(dt.UTC) if at.tzinfo else at
    return f" (from {where}, restored {when:%Y-%m-%d %H:%M} UTC)"


def imported_actor(actor: Any, source: str | None, at: dt.datetime) -> str:
    """R19: `actor` as the log of a restored tournament names it: the name the file gives (an
    earlier restore's mark taken off, shortened to fit) and `imported_mark`."""
    mark = imported_mark(source, at)
    name = IMPORTED_MARK.sub("", str(actor or "").strip())
    return _shortened(name, ACTOR_MAX - len(mark)) + mark


def is_imported(actor: Any) -> bool:
    """R19: whether a log event's actor carries `imported_mark` (it came in with a
    restore)."""
    return isinstance(actor, str) and IMPORTED_MARK.search(actor) is not None


def mark_imported(events: pd.DataFrame, source: str | None, at: dt.datetime) -> pd.DataFrame:
    """R19: the Log sheet's events (`parse_workbook`'s `events` frame) as a restore writes
    them: each one's actor marked as coming from the workbook `source`, restored at `at`
    (`imported_actor`), everything else as the file has it."""
    return events.assign(actor=[imported_actor(a, source, at) for a in events["actor"]])


class _Bad(ValueError):
    """A cell that is not of its column's kind; the message says what was expected."""


def _whole(value: Any) -> int:
    if isinstance(value, bool):
        raise _Bad(_("a whole number"))
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, str) and value.strip().lstrip("+-").isdigit():
        value = int(value.strip())
    if not isinstance(value, int):
        raise _Bad(_("a whole number"))
    if abs(value) > INT_MAX:
        raise _Bad(_("a whole number from {lowest} to {highest}").format(
            lowest=i18n.number(-INT_MAX), highest=i18n.number(INT_MAX)))
    return value


# Yes and No as STSA writes them (in any of its languages: `_truths`); TRUE/FALSE as earlier
# releases wrote them and 1/0 as some spreadsheet applications save them.
_TRUTH = {"yes": True, "no": False, "true": True, "false": False, "1": True, "0": False}


@cache
def _truths() -> dict[str, bool]:
    found = dict(_TRUTH)
    for code in _languages(None):
        with i18n.language(code):
            found.update({yes_no(v).strip().casefold(): v for v in (True, False)
                          if yes_no(v).strip().casefold() not in found})
    return found


def _truth(value: Any) -> bool:
    if isinstance(value, str) and value.strip().casefold() in _truths():
        return _truths()[value.strip().casefold()]
    if isinstance(value, (bool, int)) and value in (0, 1):
        return bool(value)
    raise _Bad(_("Yes or No"))


def _time(value: Any) -> dt.datetime:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        value = _serial_time(value)  # a date a spreadsheet saved without its format
    if isinstance(value, dt.datetime):  # to the millisecond, as written (no float noise)
        value = (value.replace(microsecond=0)
                 + dt.timedelta(milliseconds=round(value.microsecond / 1000)))
    if isinstance(value, str):
        try:
            value = dt.datetime.fromisoformat(value.strip())
        except ValueError:
            raise _Bad(_("a date and time")) from None
    if not isinstance(value, dt.datetime):
        raise _Bad(_("a date and time"))
    return value if value.tzinfo else value.replace(tzinfo=dt.UTC)


def _serial_time(value: float) -> dt.datetime:
    """A spreadsheet's day number (days since 1899-12-30, the time of day as the fraction)."""
    if not 1 <= value < 2_958_466:  # 1900-01-01 … 9999-12-31
        raise _Bad(_("a date and time"))
    return dt.datetime(1899, 12, 30) + dt.timedelta(days=value)


def _json_text(value: Any) -> str:
    text = cell_text(value)
    try:
        json.loads(text)
    except ValueError:
        raise _Bad(_("valid JSON")) from None
    return text


_READ = {"int": _whole, "bool": _truth, "time": _time, "json": _json_text, "text": cell_text,
         "list": lambda v: [p.strip() for p in cell_text(v).split(";")]}


def _value(kind: str, value: Any) -> Any:
    """A cell as its column's kind; None for a blank cell; `_Bad` if it is not of that kind."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return [] if kind == "list" else None
    if kind.startswith("word:"):
        return _word_code(kind[5:], cell_text(value))
    return _READ[kind](value)


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "…"


def _join_long(columns: list[tuple[str, str | None, str]], records: list[tuple[int, dict]]
               ) -> list[tuple[int, dict]]:
    """The rows `_split_long` wrote for a long JSON text joined back into one."""
    json_cols = [h for h, _x, kind in columns if kind == "json"]
    if not json_cols:
        return records
    key = _key_index(columns)
    first = columns[key][0]
    others = [h for i, (h, _x, _x) in enumerate(columns) if i != key and h not in json_cols]
    out: list[tuple[int, dict]] = []
    for number, rec in records:
        if out and rec.get(first) == out[-1][1].get(first) and all(
                rec.get(h) is None for h in others):
            for h in json_cols:
                if rec.get(h):
                    out[-1][1][h] = (out[-1][1].get(h) or "") + rec[h]
            continue
        out.append((number, dict(rec)))
    return out


def _found(found: dict[str, int], heading: str, table: str | None, col: str,
           names: list[str]) -> tuple[int, str] | tuple[None, None]:
    """Where the column `col` is among a sheet's headings (`found`: heading → index) and
    under which: under `heading` in one of STSA's languages (`names`: its translations, the
    file's language first), else the heading of an earlier readable release, else the
    snake_case one. The current heading comes first: "Extra details" is words now and JSON
    in earlier files."""
    for name in (*names, EARLIER_HEADINGS.get((table, col)),
                 LEGACY_HEADINGS.get((table, col), col)):
        if name is not None and name in found:
            return found[name], name
    return None, None


@dataclass(frozen=True)
class _Naming:
    """How a workbook names things: its language (recorded, or the one its sheet names are
    in; None when neither tells), {English title: the file's sheet name} and, per sheet read,
    {English heading: the file's heading}."""

    language: str | None
    sheets: dict[str, str]
    headings: dict[str, dict[str, str]] = field(default_factory=dict)

    def sheet(self, title: str) -> str:
        return self.sheets.get(title) or _names_in(self.language or i18n.ENGLISH)[0][title]

    def heading(self, title: str, heading: str) -> str:
        found = self.headings.get(title, {}).get(heading)
        return found or _names_in(self.language or i18n.ENGLISH)[1][title].get(heading, heading)


def _naming(sheetnames: list[str], recorded: str | None) -> _Naming:
    """Which of the file's sheets is which (`sheetnames`), in any of STSA's languages: the
    recorded language first, English next; without a recorded language, the one that names
    the most sheets is the file's."""
    present = {n.strip().casefold(): n for n in sheetnames}

    def matches(code: str) -> int:
        return sum(name.casefold() in present for name in _names_in(code)[0].values())

    language = i18n.known(recorded)
    if language is None:
        best = max(_languages(None), key=matches)  # ties: English first
        language = best if matches(best) else None
    order = _languages(language)
    sheets = {}
    for title in SHEETS:
        for code in order:
            found = present.get(_names_in(code)[0][title].casefold())
            if found is not None:
                sheets[title] = found
                break
    return _Naming(language, sheets)


def _damaged(title: str) -> RestoreError:
    return RestoreError(_("The sheet {sheet} is damaged and cannot be read: open the file in "
                          "your spreadsheet program and save it again as .xlsx.").format(
        sheet=repr(title)))


def _too_many_rows(title: str) -> RestoreError:
    return RestoreError(_("The sheet {sheet} has more than {rows} rows; STSA reads at most "
                          "{rows}.").format(sheet=repr(title),
                                            rows=i18n.number(WORKBOOK_LIMITS.rows)))


def _too_wide(title: str, width: int, row: int) -> RestoreError:
    return RestoreError(_("The sheet {sheet} has cells in column {column} (row {row}); STSA "
                          "reads at most {columns} columns.").format(
        sheet=repr(title), column=i18n.number(width), row=row,
        columns=WORKBOOK_LIMITS.columns))


def _book_rows(book: xlsx.Book, title: str) -> Iterator[tuple[int, list]]:
    """`guards.sheet_rows` for a workbook `formats.xlsx` reads: the same limits, the same
    rows (each without its blank cells at the end)."""
    limits = WORKBOOK_LIMITS
    try:
        for number, values in book.rows(title):
            if number > limits.rows:
                raise _too_many_rows(title)
            values = guards.trimmed(values)
            if len(values) > limits.columns:
                raise _too_wide(title, len(values), number)
            yield number, values
    except SpreadsheetError:
        raise
    except Exception as exc:  # any failure to parse is a damaged file
        raise _damaged(title) from exc


#: A sheet's cells below its header: the numbers of the rows that hold a value and {column
#: index: those rows' values}.
_Cells = tuple[list[int], dict[int, list]]


def _book_table(book: xlsx.Book, title: str, choose: Callable[[list], Collection[int]]
                ) -> _Cells | None:
    """`_book_rows` column by column (`xlsx.Book.table`), with the same limits and the same
    messages; None for a sheet the quick pass leaves to `_book_rows`."""
    limits = WORKBOOK_LIMITS
    try:
        table = book.table(title, choose)
    except SpreadsheetError:
        raise
    except Exception as exc:  # any failure to parse is a damaged file
        raise _damaged(title) from exc
    if table is None:
        return None
    wide = next(((n, w) for n, w in zip(table.numbers, table.widths) if w > limits.columns),
                None)
    if wide is not None and wide[0] <= limits.rows:  # the first of the two `_book_rows` meets
        raise _too_wide(title, wide[1], wide[0])
    if table.last > limits.rows:
        raise _too_many_rows(title)
    head = 1 if table.numbers[:1] == [1] else 0  # row 1, the header, when it holds a value
    return table.numbers[head:], {j: c[head:] for j, c in table.columns.items()}


def _sheet_cells(ws, title: str, choose: Callable[[list], Collection[int]]) -> _Cells:
    """The cells of a sheet's filled rows below its header (`_Cells`), in the columns
    `choose(header)` names: a sheet of an openpyxl workbook, or (a `formats.xlsx` book, the
    sheet's name)."""
    if isinstance(ws, tuple):
        book, there = ws
        quick = _book_table(book, there, choose)
        if quick is not None:
            return quick
    rows = (guards.sheet_rows(ws, WORKBOOK_LIMITS, RestoreError) if not isinstance(ws, tuple)
            else _book_rows(*ws))
    _row, header = next(rows, (1, []))
    wanted = choose(header)
    filled = [(number, cells) for number, cells in rows if any(c is not None for c in cells)]
    return [n for n, _c in filled], {
        j: [cells[j] if j < len(cells) else None for _n, cells in filled] for j in wanted}


def _sheet_records(ws, title: str, naming: _Naming | None = None
                   ) -> tuple[list[int], dict[str, list]]:
    """(row numbers, {heading: raw values}) of a sheet's filled rows, long JSON joined. A
    column is found under its heading in any of STSA's languages (the file's first), else
    the one readable workbooks had before (`EARLIER_HEADINGS`), else the snake_case one of
    the first releases (`LEGACY_HEADINGS`); a column older workbooks lack (`NEW_COLUMNS`)
    reads as blank. `naming` learns the file's headings."""
    naming = naming or _Naming(None, {})
    table, columns = SHEETS[title]
    name = naming.sheet(title)
    index: dict[str, int | None] = {}

    def choose(header: list) -> set[int]:
        """The columns to read, found under their headings in the header row."""
        found = {cell_text(h).strip(): i for i, h in enumerate(header)}
        order = _languages(naming.language)
        headings = naming.headings.setdefault(title, {})
        for h, col, _kind in columns:
            if col:
                names = [_names_in(code)[1][title][h] for code in order]
                index[h], as_named = _found(found, h, table, col, list(dict.fromkeys(names)))
                if as_named is not None:
                    headings[h] = as_named
        lacking = [naming.heading(title, h) for h, col, _kind in columns
                   if col and index[h] is None and (table, col) not in NEW_COLUMNS]
        if lacking:
            raise RestoreError(ngettext(
                "The sheet {sheet} lacks the column {columns}: is this an STSA tournament "
                "workbook?",
                "The sheet {sheet} lacks the columns {columns}: is this an STSA tournament "
                "workbook?", len(lacking)).format(sheet=name, columns=", ".join(lacking)))
        return {i for i in index.values() if i is not None}

    numbers, cells = _sheet_cells(ws, title, choose)
    blank = [None] * len(numbers)
    values = {h: blank if i is None else cells.get(i, blank) for h, i in index.items()}
    key = values.get(columns[_key_index(columns)][0], blank)
    if any(kind == "json" for _h, _c, kind in columns) and any(
            a == b for a, b in zip(key, key[1:])):  # a long text continues below
        records = _join_long(columns, [(n, dict(zip(values, row)))
                                       for n, row in zip(numbers, zip(*values.values()))])
        numbers = [n for n, _rec in records]
        values = {h: [rec[h] for _n, rec in records] for h in values}
    return numbers, values


def _sheet_frame(ws, title: str, problems: list[Problem],
                 naming: _Naming | None = None) -> pd.DataFrame:
    """A sheet as a frame of its store table's columns, each cell read as its kind; a cell
    that is not of its kind is None here and a problem naming its row (the sheet and the
    column as the file names them)."""
    naming = naming or _Naming(None, {})
    _table, columns = SHEETS[title]
    kept = [(h, col, kind) for h, col, kind in columns if col]
    numbers, values = _sheet_records(ws, title, naming)
    found: list[tuple[int, int, Problem]] = []  # (row, column, problem): in reading order
    sheet = naming.sheet(title)

    def read(j: int, heading: str, kind: str) -> list:
        """The column's cells as its kind, column by column (the common cells quickly)."""
        def other(i: int, raw: Any) -> Any:
            try:
                return _value(kind, raw)
            except _Bad as exc:
                what = _("{column} must be {expected}, not {value}").format(
                    column=naming.heading(title, heading), expected=exc, value=_shown(raw))
                found.append((i, j, at_row(numbers[i], what, sheet)))
                return None

        cells = values[heading]
        if kind == "int":
            return [raw if type(raw) is int and -INT_MAX <= raw <= INT_MAX else
                    None if raw is None else other(i, raw) for i, raw in enumerate(cells)]
        if kind == "text":
            return [raw if type(raw) is str and raw and not raw.isspace() else
                    None if raw is None else other(i, raw) for i, raw in enumerate(cells)]
        if kind == "time":  # a time to the millisecond already, as this writer wrote it
            return [raw.replace(tzinfo=dt.UTC) if type(raw) is dt.datetime
                    and raw.tzinfo is None and not raw.microsecond % 1000 else
                    None if raw is None else other(i, raw) for i, raw in enumerate(cells)]
        if kind == "list":  # a blank cell is no leaders: `_value` says so
            return [other(i, raw) for i, raw in enumerate(cells)]
        return [None if raw is None else other(i, raw) for i, raw in enumerate(cells)]

    cols = {col: read(j, heading, kind) for j, (heading, col, kind) in enumerate(kept)}
    problems += [problem for _i, _j, problem in sorted(found, key=lambda f: f[:2])]
    return pd.DataFrame(cols, index=pd.Index(numbers, name="row", dtype="int64"),
                        columns=[col for _h, col, _k in kept], dtype=object)


def _empty(title: str) -> pd.DataFrame:
    """The frame of a sheet an older workbook lacks."""
    return pd.DataFrame(columns=[col for _h, col, _k in SHEETS[title][1] if col], dtype=object,
                        index=pd.Index([], name="row", dtype="int64"))


def _recorded_key(sheet: Any) -> str | None:
    """The address key the Summary sheet records on its `KEY_LINE` (in any of STSA's
    languages), as written (the store makes it a key again); None when it records none."""
    labels = set()
    for code in _languages(None):
        with i18n.language(code):
            labels.add(_(KEY_LINE).casefold())
    _rows, cells = _sheet_cells(sheet, "Summary", lambda _header: [0, 1])
    for what, value in zip(cells.get(0, []), cells.get(1, [])):
        if isinstance(what, str) and what.strip().casefold() in labels and value is not None:
            return str(value).strip()[:200] or None
    return None


def parse_workbook(source: Any, *, only: Iterable[str] | None = None,
                   sheet_step: xlsx.Step | None = None) -> ParsedWorkbook:
    """A tournament workbook (from `tournament_workbook`) as plain frames, one per store table
    (`ParsedWorkbook`). `source` is a path, bytes or a file-like object.

    A workbook in any of STSA's languages is read (its sheets and headings named in English,
    Swedish or French; the language its properties record is tried first), and so are
    workbooks of earlier releases. Refused with a `RestoreError`: a file that is hostile,
    damaged or not an .xlsx, a workbook that lacks a sheet or a column STSA wrote, and cells
    that are not of their column's kind, every one named by sheet and row as the file names
    them. Computed columns (names, labels, placings, standings, finals) are not read. With
    `only`, only those store tables' sheets are read (the others are not checked).
    `sheet_step(index, title)` is called before each sheet is read, with its English title.
    """
    tables_wanted = set(SHEET_OF if only is None else only)
    key = None
    data, name = guards.read_source(source, WORKBOOK_LIMITS, RestoreError)
    if guards.file_kind(data, name, RestoreError) != "xlsx":
        raise RestoreError(_("A tournament is restored from the .xlsx workbook STSA "
                             "exported; this file is not one."))
    guards.check_zip(data, WORKBOOK_LIMITS, RestoreError)
    book = xlsx.open_book(data)  # the quick reader; openpyxl for files laid out otherwise
    workbook: Any = book or guards.open_workbook(data, WORKBOOK_LIMITS, RestoreError, checked=True)
    problems: list[Problem] = []
    try:
        recorded = book.language if book is not None else getattr(
            getattr(workbook, "properties", None), "language", None)
        naming = _naming(list(workbook.sheetnames), recorded)
        missing = [naming.sheet(t) for t in SHEET_OF.values()
                   if t not in naming.sheets and t not in OPTIONAL_SHEETS]
        if missing:
            raise RestoreError(ngettext(
                "This is not an STSA tournament workbook: it lacks the sheet {sheets}.",
                "This is not an STSA tournament workbook: it lacks the sheets {sheets}.",
                len(missing)).format(sheets=", ".join(missing)))
        tables: dict[str, pd.DataFrame] = {}
        for step, (table, title) in enumerate((t, s) for t, s in SHEET_OF.items()
                                              if t in tables_wanted):
            if sheet_step:
                sheet_step(step, title)
            there = naming.sheets.get(title)
            if there is None:
                tables[table] = _empty(title)
                continue
            sheet: Any = (book, there) if book is not None else workbook[there]
            tables[table] = _sheet_frame(sheet, title, problems, naming)
        if "Summary" in naming.sheets:
            key = _recorded_key((book, naming.sheets["Summary"]) if book is not None
                                else workbook[naming.sheets["Summary"]])
    finally:
        workbook.close()
    if "settings" in tables:  # a default never set has no author: nothing to store
        settings: pd.DataFrame = tables["settings"]
        tables["settings"] = settings.loc[settings["updated_by"].notna()
                                          | settings["updated_at"].notna()]
    if problems:
        raise restore_error(problems)
    return ParsedWorkbook(tables, name, key, naming.language,
                          {table: naming.sheet(SHEET_OF[table]) for table in SHEET_OF},
                          {(table, col): naming.heading(SHEET_OF[table], h)
                           for (table, col), h in HEADING_OF.items()})
