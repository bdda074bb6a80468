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
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import pandas as pd
from openpyxl.styles import Font, PatternFill

from stsa import catalog, local_time
from stsa.domain import Kind, PlayerStatus, Problem, Role, SittingStatus, sitting_label
from stsa.formats import guards, xlsx
from stsa.formats.guards import WORKBOOK_LIMITS, SpreadsheetError, at_row, cell_text
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

# Words stored as codes and shown as people say them: {family: {code: label}}. A cell is read
# back from either (any case); anything else is kept as written, for the checks to name.
WORDS: dict[str, dict[str, str]] = {
    "kind": {k.value: k.value.capitalize() for k in Kind},
    "status": {s.value: s.value.capitalize() for s in SittingStatus},
    "player": {s.value: s.value.capitalize() for s in PlayerStatus},
    "role": {r.value: r.value.capitalize() for r in Role},
    "stage": {"finals": "Finals", "semifinal": "Semifinal", "final": "Final"},
    "zone": {"final": "Final", "semifinal": "Semifinal", "out": "Out"},
}
YES_NO = {True: "Yes", False: "No"}

# sheet -> (store table it restores, or None) and [(heading, table column or None, kind)];
# kinds: int, text, bool (Yes or No), time, list (leaders, "; "-separated), json (JSON text),
# num, and word:<family> (a code of `WORDS` shown as its label). Columns without a table
# column are for the reader (names, nicknames, labels, placings, details in words) and never
# read back. Computed sheets (Summary, Standings, Finals) come from the frames
# `tournament_sheets` is given. "Name" is always the real name, "Nickname" the public one.
SHEETS: dict[str, tuple[str | None, list[tuple[str, str | None, str]]]] = {
    "Summary": (None, [("Tournament", None, "text"), ("", None, "text")]),
    "Standings": (None, []),  # headings from the standings frame (`STANDINGS_HEADINGS`)
    "Finals": (None, [
        ("Final rank", "final_rank", "int"), ("Nickname", "name", "text"),
        ("Name", "real_name", "text"), ("Stage", "stage", "text"),
        ("Wildcard", "wildcard", "bool"), ("Best score", "best_score", "num"),
        ("Qualifier rank", "rank", "int"), ("Player id", "player_id", "int")]),
    "Players": ("players", [
        ("Name", "name", "text"), ("Nickname", "nickname", "text"), ("Club", "club", "text"),
        ("Status", "status", "word:player"), ("Checked in", "checked_in", "bool"),
        ("Checked in at", "checked_in_at", "time"),
        ("Registration order", "registration_order", "int"), ("Email", "email", "text"),
        ("Extra details", None, "text"), ("Player id", "id", "int"),
        ("Added by", "created_by", "text"), ("Added at", "created_at", "time"),
        ("Stored extra details", "extra", "json")]),
    "Sittings": ("sittings", [
        ("Sitting", None, "text"), ("Stage", "kind", "word:kind"), ("Number", "number", "int"),
        ("Status", "status", "word:status"), ("Tables", None, "int"),
        ("Results", None, "int"), ("Rule change", "rule_change", "text"),
        ("Rule change points", "rule_change_points", "text"), ("Seed", "seed", "text"),
        ("Drawn by", "created_by", "text"), ("Drawn at", "created_at", "time"),
        ("Published at", "published_at", "time"), ("Completed at", "completed_at", "time"),
        ("Sitting id", "id", "int")]),
    "Tables": ("tables", [
        ("Sitting", None, "text"), ("Table", "table_no", "int"), ("Setup", None, "text"),
        ("Setup changed", "setup_override", "bool"), ("Players", None, "int"),
        ("Removed leaders", "removed_leaders", "list"),
        ("Available leaders", "available_leaders", "list"),
        ("Result version", "result_version", "int"), ("Setup id", "setup_id", "text"),
        ("Table id", "id", "int"), ("Sitting id", "sitting_id", "int")]),
    "Seats": ("seats", [
        ("Sitting", None, "text"), ("Table", None, "int"), ("Seat", "seat", "int"),
        ("Name", None, "text"), ("Nickname", None, "text"), ("Colour", "colour", "text"),
        ("Pick order", "pick_order", "int"), ("Player id", "player_id", "int"),
        ("Table id", "table_id", "int"), ("Sitting id", "sitting_id", "int")]),
    "Results": ("results", [
        ("Sitting", None, "text"), ("Table", None, "int"), ("Seat", "seat", "int"),
        ("Name", None, "text"), ("Nickname", None, "text"), ("Leader", "leader", "text"),
        ("VP", "vp", "int"), ("Spice", "spice", "int"), ("Solari", "solari", "int"),
        ("Troops", "troops", "int"), ("Water", "water", "int"),
        ("Variant points", "variant_points", "int"), ("Tie-break", "tiebreak", "int"),
        ("Placing", None, "int"),
        ("Qualifier score", None, "num"), ("Tied", None, "bool"),
        ("Setup id", None, "text"), ("Version", "version", "int"),
        ("Saved by", "saved_by", "text"), ("Saved at", "saved_at", "time"),
        ("Player id", "player_id", "int"), ("Table id", "table_id", "int"),
        ("Sitting id", None, "int"), ("Submission id", "submission_id", "text")]),
    "Votes": ("leader_votes", [  # R10 Vote Off: judges' and organizer's eyes only (R20)
        ("Sitting", None, "text"), ("Table", None, "int"), ("Name", None, "text"),
        ("Nickname", None, "text"), ("Leader", "leader", "text"),
        ("Entered by", "entered_by", "text"), ("Entered at", "entered_at", "time"),
        ("Player id", "player_id", "int"), ("Table id", "table_id", "int")]),
    "Wild cards": ("wild_cards", [  # R10 Wild Card
        ("Sitting", None, "text"), ("Table", None, "int"), ("Seat", "seat", "int"),
        ("Name", None, "text"), ("Nickname", None, "text"),
        ("Picked leader", "picked_leader", "text"),
        ("Took a random one", "swapped", "bool"), ("Leader", "leader", "text"),
        ("Entered by", "entered_by", "text"), ("Entered at", "entered_at", "time"),
        ("Player id", "player_id", "int"), ("Table id", "table_id", "int")]),
    "Sit-outs": ("sit_outs", [
        ("Sitting", None, "text"), ("Name", None, "text"), ("Nickname", None, "text"),
        ("Player id", "player_id", "int"), ("Sitting id", "sitting_id", "int")]),
    "Waiting list": ("waiting", [  # R21
        ("Sitting", None, "text"), ("Position", "position", "int"), ("Name", None, "text"),
        ("Nickname", None, "text"), ("Player id", "player_id", "int"),
        ("Sitting id", "sitting_id", "int")]),
    "Absences": ("absences", [
        ("Stage", "stage", "word:stage"), ("Name", None, "text"),
        ("Nickname", None, "text"), ("Marked by", "marked_by", "text"),
        ("Marked at", "marked_at", "time"), ("Player id", "player_id", "int")]),
    "Schedule": ("schedule_items", [  # R26: times as dates in UTC; "Starts" in the room's
        ("Item", None, "text"), ("Title", "title", "text"),  # time zone, for the reader
        ("Stage", "sitting_kind", "word:kind"), ("Number", "sitting_number", "int"),
        ("Starts", None, "text"), ("Minutes", "minutes", "int"),
        ("Starts at (UTC)", "starts_at", "time"), ("Changed by", "updated_by", "text"),
        ("Changed at", "updated_at", "time"), ("Item id", "id", "int")]),
    "Bookings": ("bookings", [  # R25: each qualifier's booking list
        ("Qualifier", "sitting_number", "int"), ("Position", "position", "int"),
        ("Name", None, "text"), ("Nickname", None, "text"), ("Booked at", "booked_at", "time"),
        ("Seat given to player id", "replaced_by", "int"),
        ("Imported by", "imported_by", "text"), ("Imported at", "imported_at", "time"),
        ("Player id", "player_id", "int")]),
    "Settings": ("settings", [
        ("Setting", None, "text"), ("Value", None, "text"), ("Default", None, "bool"),
        ("Set by", "updated_by", "text"), ("Set at", "updated_at", "time"),
        ("Key", "key", "text"), ("Stored value", "value", "json")]),
    "Log": ("events", [
        ("Event", "id", "int"), ("When (UTC)", "at", "time"), ("By", "actor", "text"),
        ("Role", "role", "word:role"), ("What happened", None, "text"),
        ("Action", "action", "text"), ("Subject", "subject", "text"),
        ("Before", "before", "json"), ("After", "after", "json")]),
}
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
    "rank": "Rank", "name": "Nickname", "real_name": "Name", "best_score": "Best score",
    "games": "Games", "wins": "Wins", "placing": "Best game placing", "vp": "Best game VP",
    "spice": "Best game spice", "solari": "Best game solari", "troops": "Best game troops",
    "water": "Best game water", "zone": "Zone", "tie_at_cut": "Tie at the cut",
    "player_id": "Player id"}
PUBLIC_PLAYER = "Player"  # the nickname's heading in a file without real names
#: The extra details a roster import keeps (`services.roster_import`), in words and in this
#: order; any other detail is named after its key ("shirt_size" → "Shirt size").
EXTRA_LABELS = {"city": "City", "roster_id": "Player id in the roster file",
                "registered": "Registered"}
SHEET_OF = {table: title for title, (table, _) in SHEETS.items() if table}  # table -> sheet
HEADING_OF = {(table, col): heading for table, columns in SHEETS.values() if table
              for heading, col, _ in columns if col}  # (table, column) -> its heading


def _key_index(columns: list[tuple[str, str | None, str]]) -> int:
    """The column that names a row (its id, a setting's key): repeated on the continuation
    rows of a long JSON text."""
    return next((i for i, (_, col, _) in enumerate(columns) if col in ("id", "key")), 0)


def word_label(family: str, code: Any) -> Any:
    """A stored code as people say it ("published" → "Published"); others as they are."""
    return WORDS[family].get(code, code) if isinstance(code, str) else code


def _word_code(family: str, text: str) -> str:
    known = {**{c.casefold(): c for c in WORDS[family]},
             **{label.casefold(): c for c, label in WORDS[family].items()}}
    return known.get(text.strip().casefold(), text.strip())


class RestoreError(SpreadsheetError):
    """A file that is not a readable STSA tournament workbook, or rows a tournament cannot
    hold; `problems` name each sheet and row."""


def restore_error(problems: list[Problem]) -> RestoreError:
    """One error listing every problem (the first `SHOWN_PROBLEMS` in its message)."""
    text = "; ".join(str(p) for p in problems[:SHOWN_PROBLEMS])
    more = len(problems) - SHOWN_PROBLEMS
    return RestoreError(f"Nothing was restored: {text}" + (f"; and {more} more" if more > 0
                                                           else "") + ".", problems)


# -- values as cells -----------------------------------------------------------------------------
def plain(value: Any) -> Any:
    """A Python value for a cell: numpy scalars unwrapped, every kind of missing as None."""
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
        return YES_NO[bool(value)]
    if kind.startswith("word:"):
        return word_label(kind[5:], value)
    return value


#: The Python types a column's values already have as cells (`_sheet_value` returns them
#: unchanged): the rows of a large tournament skip the general conversion.
_AS_IS = {"text": str, "int": int}


def _sheet_rows(records: list[dict], columns: list[tuple[str, str]]) -> list[list]:
    """Rows of `_sheet_value`s of each record's (key, kind) `columns`, column by column."""
    def converted(key: str, kind: str) -> list:
        same = _AS_IS.get(kind)
        return [v if v is None or type(v) is same else _sheet_value(kind, v)
                for v in (rec.get(key) for rec in records)]

    cols = [converted(key, kind) for key, kind in columns]
    return [list(row) for row in zip(*cols)] if cols else [[] for _ in records]


def frame_sheet(frame: pd.DataFrame, columns: list[str] | None = None) -> Sheet:
    """A frame as (headings, rows) of plain values."""
    frame = frame if columns is None else frame[columns]
    return list(frame.columns), [[plain(v) for v in row]
                                 for row in frame.itertuples(index=False, name=None)]


def _detail_label(key: str) -> str:
    label = EXTRA_LABELS.get(key) or " ".join(str(key).replace("_", " ").split()) or "Detail"
    return label[:1].upper() + label[1:]


def _detail_value(value: Any) -> str:
    if isinstance(value, bool):
        return YES_NO[value]
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
    return "; ".join(f"{_detail_label(k)}: {_detail_value(details[k])}" for k in keys)


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
        frame = frame.assign(zone=frame["zone"].map(WORDS["zone"]).fillna(""))
    if "tie_at_cut" in frame:
        frame = frame.assign(tie_at_cut=frame["tie_at_cut"].fillna(False).astype(bool)
                             .map(YES_NO))
    headings = (STANDINGS_HEADINGS if real_names is not None
                else {**STANDINGS_HEADINGS, "name": PUBLIC_PLAYER})
    return frame[[c for c in headings if c in frame]].rename(columns=headings)


# -- the tournament as sheets --------------------------------------------------------------------
def _split_long(columns: list[tuple[str, str | None, str]], rows: list[list]) -> list[list]:
    """A JSON text longer than a cell holds continues in the rows below, which repeat the
    first column (the id) and leave the others blank; `_join_long` puts it back together."""
    long = [i for i, (_, _, kind) in enumerate(columns) if kind == "json"]
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

    def who(player_id: Any) -> dict:
        """R22: the player's real name and the nickname the public knows, side by side."""
        return people.get(player_id, {"Name": None, "Nickname": None})

    sittings = {s["id"]: {**s, "label": sitting_label(s["kind"], s["number"])}
                for s in dump["sittings"]}
    tables = {t["id"]: t for t in dump["tables"]}
    setup_names = dict(catalog.setups(battle_of_wills=True)[["setup_id", "name"]]
                       .itertuples(index=False, name=None))
    seated = pd.Series([s["table_id"] for s in dump["seats"]], dtype="int64").value_counts()
    by_sitting = pd.DataFrame(dump["tables"], columns=["sitting_id", "result_version"])
    counts = by_sitting.groupby("sitting_id")["result_version"].agg(
        tables="size", results=lambda v: int((v > 0).sum()))
    score = {(int(g), int(p)): (pl, qs, bool(t)) for g, p, pl, qs, t in scored[
        ["game_id", "player_id", "placing", "qualifier_score", "tied"]].itertuples(
        index=False, name=None)}

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
                          **dict(zip(("Placing", "Qualifier score", "Tied"),
                                     score.get((r["table_id"], r["player_id"]),
                                               (None, None, None))))}
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
                      titles: Iterable[str] = tuple(SHEETS)) -> dict[str, Sheet]:
    """{sheet title: (headings, rows)} for the sheets named in `titles`, from one snapshot of
    the store's tables (`dump`, as `store.dump_tournament` returns it), the results scored
    (`game_id, player_id, placing, qualifier_score, tied`), and for the computed sheets what
    to show: `summary` ((what, value) lines, the first the tournament's name), `standings`
    (`results.standings_table`'s frame), `finals` (`final_rank, name, stage, wildcard,
    best_score, rank, player_id`; `name` the nickname, as in the standings). Both get each
    player's real name beside the nickname, from `dump`. `defaults`: every setting's default,
    so the Settings sheet lists each setting (a default marked so); `what_happened`: each
    event in words, in the dump's order."""
    joined = _joined(dump, scored, defaults or {}, what_happened)
    real_names = {p["id"]: p["name"] for p in dump["players"]}
    sheets = {}
    for title in titles:
        table, columns = SHEETS[title]
        if title == "Summary":
            lines = [[plain(v) if not isinstance(v, dt.datetime) else excel_time(v)
                      for v in line] for line in (summary or [])]
            sheets[title] = (["Tournament", str(lines[0][1]) if lines else ""], lines[1:])
        elif title == "Standings":
            frame = standings if standings is not None else pd.DataFrame()
            sheets[title] = frame_sheet(standings_sheet(frame, real_names))
        elif table is None:
            heads = [h for h, _, _ in columns]
            frame = finals if finals is not None else pd.DataFrame(
                columns=[c for _, c, _ in columns])
            frame = frame.assign(real_name=frame["player_id"].map(real_names))
            rows = _sheet_rows(frame.to_dict("records"), [(c or h, k) for h, c, k in columns])
            sheets[title] = (heads, rows)
        else:
            rows = _sheet_rows(joined[table], [(c or h, k) for h, c, k in columns])
            sheets[title] = ([h for h, _, _ in columns], _split_long(columns, rows))
    return sheets


# -- writing -------------------------------------------------------------------------------------
def workbook_bytes(wb) -> bytes:
    """An openpyxl workbook saved as .xlsx bytes, made by STSA."""
    wb.properties.creator = "STSA"
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def write_workbook(sheets: Mapping[str, Sheet], *, step: xlsx.Step | None = None) -> bytes:
    """An .xlsx with one styled sheet per item of {title: (headings, rows)}, in order (a bold
    frozen header, a filter, widths from the content, dates as dates, formula-like text as
    text), written by `formats.xlsx` (openpyxl takes seconds per sheet of the largest
    tournament). `step(index, title)` is called before each sheet."""
    return xlsx.write(sheets, creator="STSA", step=step)


# -- parsing -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class ParsedWorkbook:
    """A tournament workbook read back: {store table: frame} with the store's column names,
    plain Python values (None for blank cells, lists of leader names, JSON as text) and the
    spreadsheet's row numbers as the index; `source` is the file's name."""

    tables: dict[str, pd.DataFrame]
    source: str


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
        raise _Bad("a whole number")
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, str) and value.strip().lstrip("+-").isdigit():
        value = int(value.strip())
    if not isinstance(value, int):
        raise _Bad("a whole number")
    if abs(value) > INT_MAX:
        raise _Bad(f"a whole number from {-INT_MAX:,} to {INT_MAX:,}")
    return value


# Yes and No as STSA writes them; TRUE/FALSE as earlier releases wrote them and 1/0 as some
# spreadsheet applications save them.
_TRUTH = {"yes": True, "no": False, "true": True, "false": False, "1": True, "0": False}


def _truth(value: Any) -> bool:
    if isinstance(value, str) and value.strip().lower() in _TRUTH:
        return _TRUTH[value.strip().lower()]
    if isinstance(value, (bool, int)) and value in (0, 1):
        return bool(value)
    raise _Bad("Yes or No")


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
            raise _Bad("a date and time") from None
    if not isinstance(value, dt.datetime):
        raise _Bad("a date and time")
    return value if value.tzinfo else value.replace(tzinfo=dt.UTC)


def _serial_time(value: float) -> dt.datetime:
    """A spreadsheet's day number (days since 1899-12-30, the time of day as the fraction)."""
    if not 1 <= value < 2_958_466:  # 1900-01-01 … 9999-12-31
        raise _Bad("a date and time")
    return dt.datetime(1899, 12, 30) + dt.timedelta(days=value)


def _json_text(value: Any) -> str:
    text = cell_text(value)
    try:
        json.loads(text)
    except ValueError:
        raise _Bad("valid JSON") from None
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
    json_cols = [h for h, _, kind in columns if kind == "json"]
    if not json_cols:
        return records
    key = _key_index(columns)
    first = columns[key][0]
    others = [h for i, (h, _, _) in enumerate(columns) if i != key and h not in json_cols]
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


def _found(found: dict[str, int], heading: str, table: str | None, col: str) -> int | None:
    """Where the column `col` is among a sheet's headings (`found`: heading → index): under
    `heading`, else the heading of an earlier readable release, else the snake_case one. The
    current heading comes first: "Extra details" is words now and JSON in earlier files."""
    names = (heading, EARLIER_HEADINGS.get((table, col)),
             LEGACY_HEADINGS.get((table, col), col))
    return next((found[name] for name in names if name is not None and name in found), None)


def _book_rows(book: xlsx.Book, title: str) -> Iterator[tuple[int, list]]:
    """`guards.sheet_rows` for a workbook `formats.xlsx` reads: the same limits, the same
    rows (each without its blank cells at the end)."""
    limits, where = WORKBOOK_LIMITS, f"The sheet {title!r}"
    try:
        for number, values in book.rows(title):
            if number > limits.rows:
                raise RestoreError(f"{where} has more than {limits.rows:,} rows; STSA reads "
                                   f"at most {limits.rows:,}.")
            values = guards.trimmed(values)
            if len(values) > limits.columns:
                raise RestoreError(f"{where} has cells in column {len(values):,} (row "
                                   f"{number}); STSA reads at most {limits.columns} columns.")
            yield number, values
    except SpreadsheetError:
        raise
    except Exception as exc:  # any failure to parse is a damaged file
        raise RestoreError(f"{where} is damaged and cannot be read: open the file in your "
                           f"spreadsheet program and save it again as .xlsx.") from exc


def _sheet_records(ws, title: str) -> list[tuple[int, dict]]:
    """(row number, {heading: raw value}) of a sheet's filled rows, long JSON joined. A
    column is found under its heading, else the one readable workbooks had before
    (`EARLIER_HEADINGS`), else the snake_case one of the first releases (`LEGACY_HEADINGS`);
    a column older workbooks lack (`NEW_COLUMNS`) reads as blank."""
    table, columns = SHEETS[title]
    rows = (guards.sheet_rows(ws, WORKBOOK_LIMITS, RestoreError) if not isinstance(ws, tuple)
            else _book_rows(*ws))
    _, header = next(rows, (1, []))
    found = {cell_text(h).strip(): i for i, h in enumerate(header)}
    index = {h: _found(found, h, table, col) for h, col, _ in columns if col}
    lacking = [h for h, col, _ in columns
               if col and index[h] is None and (table, col) not in NEW_COLUMNS]
    if lacking:
        raise RestoreError(f"The sheet {title} lacks the column{'s' if len(lacking) > 1 else ''}"
                           f" {', '.join(lacking)}: is this an STSA tournament workbook?")
    records = [(number, {h: cells[i] if i is not None and i < len(cells) else None
                         for h, i in index.items()})
               for number, cells in rows if any(c is not None for c in cells)]
    return _join_long(columns, records)


def _sheet_frame(ws, title: str, problems: list[Problem]) -> pd.DataFrame:
    """A sheet as a frame of its store table's columns, each cell read as its kind; a cell
    that is not of its kind is None here and a problem naming its row."""
    _, columns = SHEETS[title]
    kept = [(h, col, kind) for h, col, kind in columns if col]
    records = _sheet_records(ws, title)
    numbers = [number for number, _ in records]
    found: list[tuple[int, int, Problem]] = []  # (row, column, problem): in reading order

    def read(j: int, heading: str, kind: str) -> list:
        """The column's cells as its kind, column by column (the common cells quickly)."""
        out: list = []
        for i, (number, rec) in enumerate(records):
            raw = rec[heading]
            if kind == "int" and type(raw) is int and -INT_MAX <= raw <= INT_MAX:
                out.append(raw)
                continue
            if kind == "text" and type(raw) is str and raw.strip():
                out.append(raw)
                continue
            try:
                out.append(_value(kind, raw))
            except _Bad as exc:
                found.append((i, j, at_row(number, f"{heading} must be {exc}, not "
                                                   f"{_shown(raw)}", title)))
                out.append(None)
        return out

    cols = {col: read(j, heading, kind) for j, (heading, col, kind) in enumerate(kept)}
    problems += [problem for _, _, problem in sorted(found, key=lambda f: f[:2])]
    return pd.DataFrame(cols, index=pd.Index(numbers, name="row", dtype="int64"),
                        columns=[col for _, col, _ in kept], dtype=object)


def _empty(title: str) -> pd.DataFrame:
    """The frame of a sheet an older workbook lacks."""
    return pd.DataFrame(columns=[col for _, col, _ in SHEETS[title][1] if col], dtype=object,
                        index=pd.Index([], name="row", dtype="int64"))


def parse_workbook(source: Any, *, only: Iterable[str] | None = None,
                   sheet_step: xlsx.Step | None = None) -> ParsedWorkbook:
    """A tournament workbook (from `tournament_workbook`) as plain frames, one per store table
    (`ParsedWorkbook`). `source` is a path, bytes or a file-like object.

    Refused with a `RestoreError`: a file that is hostile, damaged or not an .xlsx, a workbook
    that lacks a sheet or a column STSA wrote, and cells that are not of their column's kind,
    every one named by sheet and row. Computed columns (names, labels, placings, standings,
    finals) are not read. With `only`, only those store tables' sheets are read (the others
    are not checked). `sheet_step(index, title)` is called before each sheet is read.
    """
    tables_wanted = set(SHEET_OF if only is None else only)
    data, name = guards.read_source(source, WORKBOOK_LIMITS, RestoreError)
    if guards.file_kind(data, name, RestoreError) != "xlsx":
        raise RestoreError("A tournament is restored from the .xlsx workbook STSA exported; "
                           "this file is not one.")
    guards.check_zip(data, WORKBOOK_LIMITS, RestoreError)
    book = xlsx.open_book(data)  # the quick reader; openpyxl for files laid out otherwise
    workbook: Any = book or guards.open_workbook(data, WORKBOOK_LIMITS, RestoreError, checked=True)
    problems: list[Problem] = []
    try:
        missing = [t for t in SHEET_OF.values()
                   if t not in workbook.sheetnames and t not in OPTIONAL_SHEETS]
        if missing:
            raise RestoreError(f"This is not an STSA tournament workbook: it lacks the sheet"
                               f"{'s' if len(missing) > 1 else ''} {', '.join(missing)}.")
        tables: dict[str, pd.DataFrame] = {}
        for step, (table, title) in enumerate((t, s) for t, s in SHEET_OF.items()
                                              if t in tables_wanted):
            if sheet_step:
                sheet_step(step, title)
            sheet: Any = (book, title) if book is not None else (
                workbook[title] if title in workbook.sheetnames else None)
            tables[table] = (_sheet_frame(sheet, title, problems)
                             if title in workbook.sheetnames else _empty(title))
    finally:
        workbook.close()
    if "settings" in tables:  # a default never set has no author: nothing to store
        settings: pd.DataFrame = tables["settings"]
        tables["settings"] = settings.loc[settings["updated_by"].notna()
                                          | settings["updated_at"].notna()]
    if problems:
        raise restore_error(problems)
    return ParsedWorkbook(tables, name)
