"""The tournament workbook's vocabulary (R19), shared by its writer (`workbook_writer`) and
its reader (`workbook_reader`): the sheets and their columns, the words stored as codes, and
their names in each of STSA's languages.

The code knows one schema, in English (`SHEETS`); the words are translated as the file is
written and read back from any of STSA's languages, so a restore neither needs the recorded
language nor a workbook in the reader's own (the recorded one is tried first). Every heading
means one thing on every sheet: "Name" is a player's real name, "Nickname" the name the public
knows (R22).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from typing import Any

from stsa import i18n
from stsa.domain import Kind, PlayerStatus, Role, SittingStatus
from stsa.i18n import N_, _

Sheet = tuple[list[str], list[list]]  # (headings, rows)
TOURNAMENT = "tournament"  # a language argument's default: the tournament's own

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


def key_index(columns: list[tuple[str, str | None, str]]) -> int:
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
def names_in(code: str) -> tuple[dict[str, str], dict[str, dict[str, str]]]:
    """Language `code`'s sheet names ({English title: name}) and headings ({English title:
    {English heading: heading}}), as STSA writes them."""
    with i18n.language(code):
        titles = {title: sheet_title(title) for title in SHEETS}
        headings = {title: {h: _(h) for h, _col, _kind in columns if h}
                    for title, (_table, columns) in SHEETS.items()}
    return titles, headings


def lookup_order(first: str | None) -> list[str]:
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
    for code in lookup_order(None):
        with i18n.language(code):
            known.update({_(label).casefold(): c for c, label in WORDS[family].items()
                          if _(label).casefold() not in known})
    return known


def word_code(family: str, text: str) -> str:
    return _word_codes(family).get(text.strip().casefold(), text.strip())


def yes_no(value: bool) -> str:
    """Yes or No in this run's language."""
    return _(YES_NO[bool(value)])
