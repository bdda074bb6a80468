"""Roster files: reading a roster spreadsheet (.xlsx or .csv) into a clean frame, every bad row
named by the row number the spreadsheet shows, and the roster template to start from.

A file may say when each player registered (a Registered or Timestamp column): the import
then orders the pre-registered players by it, else by row (R21).

Nothing here writes: `stsa.services.roster` adds the players. What a roster entry may hold
(field lengths, when two names are the same) is the store's rule, handed in as `RosterRules`,
so a file passes here exactly when entry would take its players (R19).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import openpyxl
import pandas as pd
from openpyxl.styles import Alignment, Font

from stsa.formats import guards
from stsa.formats.csv import csv_rows
from stsa.formats.guards import ROSTER_LIMITS, RowProblem, SpreadsheetError, at_row, cell_text
from stsa.formats.workbook_writer import HEADER_FILL, HEADER_FONT, workbook_bytes
from stsa.i18n import N_, _, ngettext

EXAMPLE_NAME = "Example Player"  # the template's example row, skipped on import (any language)
ROSTER_COLUMNS = ["name", "nickname", "club", "city", "email", "player_id"]
REGISTERED = "registered"  # R21: when the player registered (a datetime, or NaT), if given
# Each field as a row's problem names it ("the name is longer than …"), translated where used.
FIELD_LABELS = {"name": N_("the name"), "nickname": N_("the nickname"), "club": N_("the club"),
                "city": N_("the city"), "email": N_("the email"),
                "player_id": N_("the player id"), "first": N_("the first name"),
                "last": N_("the last name"), REGISTERED: N_("the registration time")}
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2066-\u2069]")

# Headings are compared casefolded, with punctuation and spaces collapsed ("E-mail" = "e mail"),
# in English, Swedish and French (the template's headings in each language among them), and a
# few other languages' common ones.
HEADINGS = {
    "name": {"name", "player", "player name", "players", "full name", "namn", "spelare",
             "spelarnamn", "nombre", "jugador", "participant", "deltagare", "navn", "nimi",
             "fullständigt namn", "nom", "joueur", "joueuse", "joueurs", "nom du joueur",
             "nom complet", "participante"},
    "nickname": {"nickname", "nick", "nick name", "handle", "alias", "gamertag", "screen name",
                 "username", "user name", "smeknamn", "apodo", "public name", "användarnamn",
                 "pseudo", "pseudonyme", "surnom", "nom d'utilisateur", "nom public"},
    "club": {"club", "klubb", "club name", "klubbnamn", "team", "lag", "store", "club team",
             "förening", "forening", "club store", "group", "équipe", "equipe", "boutique",
             "association", "nom du club"},
    "city": {"city", "stad", "ort", "town", "location", "ciudad", "hometown", "hemort",
             "ville", "localité", "localite", "commune"},
    "email": {"email", "e mail", "mail", "email address", "e mail address", "e post",
              "epost", "e postadress", "mailadress", "correo", "correo electrónico",
              "courriel", "adresse e mail", "adresse email", "adresse électronique",
              "adresse mail", "mél"},
    "player_id": {"player id", "playerid", "id", "player no", "player number", "member id",
                  "member number", "membership number", "spelar id", "spelarid",
                  "medlemsnummer", "id number", "spelarnummer", "id joueur",
                  "identifiant", "numéro de joueur", "numéro de membre",
                  "numéro d'adhérent", "n° de joueur"},
    "first": {"first name", "firstname", "given name", "förnamn", "fornamn", "prénom",
              "prenom"},
    "last": {"last name", "lastname", "surname", "family name", "efternamn", "apellidos",
             "nom de famille"},
    REGISTERED: {"registered", "registered at", "registration", "registration time",
                 "registration date", "registration timestamp", "timestamp", "signed up",
                 "sign up time", "anmäld", "anmälningstid", "anmälningsdatum", "tidstämpel",
                 "tidsstämpel", "registrerad", "inscription", "inscrit le", "inscrit à",
                 "date d'inscription", "heure d'inscription", "horodatage", "horodateur"},
}
_HEADING_OF = {h: field for field, names in HEADINGS.items() for h in names}


class RosterError(SpreadsheetError):
    """A roster file with bad rows, or one that is not a readable spreadsheet."""


@dataclass(frozen=True)
class RosterRules:
    """What a roster entry may hold: the most characters per field (`limits`, by field of
    `ROSTER_COLUMNS`) and the key two names are compared by (`name_key`: equal keys are the
    same player)."""

    name_key: Callable[[str], str]
    limits: Mapping[str, int]


# -- headings ------------------------------------------------------------------------------------
def _heading(value: Any) -> str:
    text = unicodedata.normalize("NFKC", str(value or "")).casefold()
    return " ".join(re.sub(r"[\s_\-.:/#*()]+", " ", text).split())


def header_map(cells: list) -> dict[str, int]:
    """{field: column index} if `cells` is a roster header (a name, or first and last name)."""
    found: dict[str, int] = {}
    for index, cell in enumerate(cells):
        field = _HEADING_OF.get(_heading(cell))
        if field and field not in found:
            found[field] = index
    if "name" in found or {"first", "last"} <= found.keys():
        return found
    return {}


def _find_header(rows: Iterator[tuple[int, list]]) -> tuple[dict[str, int], list[tuple]]:
    """Look for the header in the first 10 rows (title rows may come first); ({} if none,
    the rows read while looking)."""
    seen = []
    for number, cells in rows:
        seen.append((number, cells))
        mapping = header_map(cells)
        if mapping:
            return mapping, seen
        if len(seen) >= 10:
            break
    return {}, seen


# -- rows ----------------------------------------------------------------------------------------
def _clean(value: Any, field: str, limits: Mapping[str, int], wrong: list[str]) -> str:
    text = unicodedata.normalize("NFC", cell_text(value)).strip()
    return text_problems(text, _(FIELD_LABELS[field]), limits.get(field, limits["name"]), wrong)


def text_problems(text: str, label: str, limit: int, wrong: list[str]) -> str:
    """`text` with inner spaces collapsed; a control character in it, or more than `limit`
    characters, appended to `wrong`, naming the field as `label` ("the name", translated)."""
    if _CONTROL.search(text):
        wrong.append(_("{field} contains a control character (such as a line break or "
                       "tab)").format(field=label))
    text = " ".join(text.split())
    if len(text) > limit:
        wrong.append(_("{field} is longer than {limit} characters ({length})").format(
            field=label, limit=limit, length=len(text)))
    return text


_TIME_FORMATS = ("%d.%m.%Y %H:%M:%S", "%d.%m.%Y %H:%M", "%d.%m.%Y", "%d/%m/%Y %H:%M")


def time_cell(value: Any, wrong: list[str], what: str, example: str) -> dt.datetime | None:
    """A time from a spreadsheet (R21, R25): a date cell, or text such as 2025-03-01 10:42
    (also 2025/03/01 10:42, 01.03.2025 10:42 and 01/03/2025 10:42); None when blank; naive
    (a time with a zone is taken in UTC). What is not a time is appended to `wrong` as the
    message `what` (translated, with the fields `{text}` and `{example}`: "the registration
    time “{text}” is not a date and time (write it like {example})") with an `example` of the
    form to write."""
    if isinstance(value, dt.datetime):
        return value if value.tzinfo is None else value.astimezone(dt.UTC).replace(tzinfo=None)
    text = " ".join(cell_text(value).split())
    if not text:
        return None
    try:
        when = dt.datetime.fromisoformat(text.replace("/", "-"))
    except ValueError:
        for form in _TIME_FORMATS:
            try:
                return dt.datetime.strptime(text, form)
            except ValueError:
                continue
        wrong.append(what.format(text=text[:40], example=example))
        return None
    return when if when.tzinfo is None else when.astimezone(dt.UTC).replace(tzinfo=None)


def _registered(value: Any, wrong: list[str]) -> dt.datetime | None:
    """A registration time (`time_cell`)."""
    return time_cell(value, wrong, _("the registration time “{text}” is not a date and time "
                                     "(write it like {example})"), "2025-03-01 10:42")


def _record(cells: list, mapping: dict[str, int], limits: Mapping[str, int],
            wrong: list[str]) -> dict:
    """One row's fields, cleaned; what is wrong with them appended to `wrong`."""
    def cell(field: str) -> Any:
        index = mapping.get(field)
        return None if index is None or index >= len(cells) else cells[index]

    def get(field: str) -> str:
        value = cell(field)
        return "" if value is None else _clean(value, field, limits, wrong)
    record = {f: get(f) for f in ROSTER_COLUMNS if f != "name"}
    name = get("name") if "name" in mapping else " ".join(
        p for p in (get("first"), get("last")) if p)
    return {"name": name, **record, REGISTERED: _registered(cell(REGISTERED), wrong)}


def _roster_records(mapping: dict[str, int], rows: Iterable[tuple[int, list]],
                    rules: RosterRules) -> pd.DataFrame:
    """The players of the rows after the header, or a `RosterError` naming every bad row.
    R22: no two rows share a nickname (a blank nickname is the name)."""
    records, problems = [], []
    first_row: dict[str, int] = {}
    first_nick: dict[str, int] = {}
    example = rules.name_key(EXAMPLE_NAME)
    for number, cells in rows:
        if all(cell_text(c).strip() == "" for c in cells):
            continue
        wrong: list[str] = []
        record = _record(cells, mapping, rules.limits, wrong)
        key = rules.name_key(record["name"])
        if not record["name"]:
            wrong.append(_("no name"))
        elif key == example:
            continue  # the template's example row
        elif key in first_row:
            wrong.append(_("the same name as row {row} ({player})").format(
                row=first_row[key], player=record["name"]))
        else:
            first_row[key] = number
            nick = rules.name_key(record["nickname"] or record["name"])
            if nick in first_nick:
                wrong.append(_("the same nickname as row {row} ({nickname})").format(
                    row=first_nick[nick], nickname=record["nickname"] or record["name"]))
            else:
                first_nick[nick] = number
        if wrong:
            problems.append(at_row(number, "; ".join(wrong)))
        else:
            records.append({**record, "row": number})
    if problems:
        raise roster_error(problems)
    frame = pd.DataFrame(records, columns=[*ROSTER_COLUMNS, REGISTERED, "row"])
    return frame.astype({c: object for c in ROSTER_COLUMNS} | {"row": "int64"}).assign(
        **{REGISTERED: pd.to_datetime(frame[REGISTERED].astype(object))})


def _ranges(numbers: list[int]) -> str:
    """"3, 5–9, 12"."""
    parts, start = [], None
    for i, n in enumerate(numbers):
        if start is None:
            start = n
        if i + 1 == len(numbers) or numbers[i + 1] != n + 1:
            parts.append(str(start) if start == n else f"{start}–{n}")
            start = None
    return ", ".join(parts)


def roster_error(problems: list[RowProblem]) -> RosterError:
    """One error naming every bad row: the first 30 problems in full, then the other rows as
    ranges, so that even 500 bad rows make a message a person reads."""
    shown = problems[:30]
    text = "; ".join(str(p) for p in shown)
    if len(problems) > len(shown):
        text = _("{problems}; and more in rows {rows}").format(
            problems=text,
            rows=_ranges(sorted({p.row for p in problems[30:] if p.row is not None})))
    count = len({p.row for p in problems})
    return RosterError(ngettext("Nothing was imported: {count} row needs fixing ({problems}).",
                                "Nothing was imported: {count} rows need fixing ({problems}).",
                                count).format(count=count, problems=text), problems)


# -- reading -------------------------------------------------------------------------------------
def read_roster(source: Any, rules: RosterRules) -> pd.DataFrame:
    """A roster spreadsheet (.xlsx, .ods or .csv) as a frame: `name, nickname, club, city,
    email, player_id` (cleaned text, empty when the file lacks the column), `registered` (when
    the player registered, R21; NaT when the file does not say) and `row`, the row number the
    spreadsheet shows (the header is row 1 when it comes first).

    `source` is a path, bytes, or a file-like object such as Streamlit's UploadedFile. The
    header is found in the first 10 rows of the first sheet that has one, under headings such
    as Name, Player, Player name, Namn (or First name + Last name); Nickname (Handle), Club,
    City, Email, Player ID and Registered (or Timestamp, Registration time, Anmäld: a date cell
    or a time such as 2025-03-01 10:42) under common English and Swedish headings. Names are
    trimmed, inner spaces collapsed, Unicode NFC. Blank rows, and a row named exactly "Example
    Player" (the template's example), are skipped. Every bad row (no name, a name or nickname
    (R22) that repeats another by `rules.name_key`, a value longer than `rules.limits`, a
    control character, a registration time that is not a date) is named by row number in one
    `RosterError`; so is a file that is too big, hostile, protected, damaged or not a
    spreadsheet.
    """
    with spreadsheet(source, RosterError, header_map) as sheets:
        first_rows = None
        for rows in sheets:
            mapping, seen = _find_header(rows)
            if mapping:
                header_row = seen[-1][0]
                rest = [r for r in seen if r[0] > header_row]
                return _roster_records(mapping, [*rest, *rows], rules)
            first_rows = first_rows or seen
    raise _no_header(first_rows)


@contextlib.contextmanager
def spreadsheet(source: Any, error: type[Exception], header_map: Callable
                ) -> Iterator[Iterable[Iterator[tuple[int, list]]]]:
    """The sheets of a roster or booking file (.csv, .ods or .xlsx; LibreOffice's own format
    behind the same guards as .xlsx), each as its numbered rows, read behind the hostile-file
    guards (`error` names what is wrong); a workbook is closed after."""
    data, name = guards.read_source(source, ROSTER_LIMITS, error)
    kind = guards.file_kind(data, name, error)
    if kind == "csv":
        yield [csv_rows(data, ROSTER_LIMITS, error, header_map)]
        return
    if kind == "ods":
        yield guards.ods_rows(data, ROSTER_LIMITS, error)
        return
    workbook = guards.open_workbook(data, ROSTER_LIMITS, error)
    try:
        yield (guards.sheet_rows(ws, ROSTER_LIMITS, error) for ws in workbook.worksheets)
    finally:
        workbook.close()


def _no_header(first_rows: list | None) -> RosterError:
    found = [str(c) for c in (first_rows[0][1] if first_rows else []) if cell_text(c).strip()]
    if found:
        return RosterError(_("No name column found: the first rows need a heading such as "
                             "Name, Player, Player name or Namn (the first row has: "
                             "{headings}).").format(headings=", ".join(found[:8])[:200]))
    return RosterError(_("No name column found: the first rows need a heading such as Name, "
                         "Player, Player name or Namn."))


def check_roster(frame: pd.DataFrame, rules: RosterRules) -> pd.DataFrame:
    """A roster frame from elsewhere (a script, or `read_roster`'s own output) checked and
    cleaned as `read_roster` checks a file: rows are named by its `row` column, else by
    position from 1."""
    columns = [c for c in (*ROSTER_COLUMNS, REGISTERED) if c in frame]
    numbers = frame["row"].tolist() if "row" in frame else range(1, len(frame) + 1)
    cells = frame[columns].astype(object).where(frame[columns].notna(), None).to_numpy().tolist()
    return _roster_records({c: i for i, c in enumerate(columns)}, zip(numbers, cells), rules)


# -- the roster template -------------------------------------------------------------------------
# Marked here, translated when the template is made: it is written in the reader's language,
# and its headings in every language are among `HEADINGS`.
TEMPLATE_HEADINGS = [N_("Name"), N_("Nickname"), N_("Club"), N_("City"), N_("Email"),
                     N_("Registered")]
TEMPLATE_EXAMPLE = [EXAMPLE_NAME, N_("Example Handle"), N_("Example Club"), "Arrakeen",
                    "player@example.com", "2025-03-01 10:42"]
TEMPLATE_NOTES = [
    (N_("Column"), N_("What to enter")),
    (N_("Name"), N_("Required. One player a row; each name once (case and spaces are ignored "
                    "when comparing). At most 100 characters. Also accepted as heading: Player, "
                    "Player name, Namn, Spelare; or two columns First name and Last name.")),
    (N_("Nickname"), N_("Optional: the name everyone else sees (standings, TV, charts, slips and "
                        "pairings; games may be recorded and published), so real names stay "
                        "private. Blank: the name. Each nickname once. At most 100 characters. "
                        "Also: Handle, Nick, Alias.")),
    (N_("Club"), N_("Optional: the player's club, store or team. At most 100 characters. Also: "
                    "Klubb, Team, Store.")),
    (N_("City"), N_("Optional. At most 200 characters. Also: Stad, Ort, Town.")),
    (N_("Email"), N_("Optional; only the organizer and judges see it. At most 254 characters. "
                     "Also: E-mail, E-post.")),
    (N_("Registered"), N_("Optional: when the player registered, as a date cell or like "
                          "2025-03-01 10:42. Everyone in the file is pre-registered: when the "
                          "sitting is full, seats go first to them, in this order (without "
                          "times: in row order), then to players added on the day. Also: "
                          "Timestamp, Registration time, Anmäld.")),
    (N_("Player ID"), N_("Optional column you may add: your own player or membership number; "
                         "STSA keeps it with the player.")),
    ("", ""),
    (N_("Example row"), N_("The row named “{example}” is skipped on import: type over it or "
                           "leave it. The file may be imported untouched (it then adds "
                           "nobody).")),
    (N_("Blank rows"), N_("Skipped. Other columns are ignored.")),
    (N_("Errors"), N_("If any row is wrong (no name, a repeated name or nickname, a value too "
                      "long, a registration time that is not a date), nothing is imported and "
                      "the message names every row to fix.")),
    (N_("Saving"), N_("Keep it as .xlsx, or save as CSV (UTF-8; comma, semicolon or tab). At "
                      "most 5 MB, 20,000 rows and 50 columns.")),
]


def _words(text: str) -> str:
    """A template text in the reader's language ("" stays "")."""
    return _(text).format(example=EXAMPLE_NAME) if text else text


def roster_template() -> bytes:
    """The roster template (.xlsx): a Players sheet with the headings Name, Nickname, Club,
    City, Email, Registered (bold, frozen, with widths) and an example row that `read_roster`
    skips, and a Notes sheet that explains each column. Importing it untouched succeeds and
    adds nobody."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = _("Players")
    ws.append([_(h) for h in TEMPLATE_HEADINGS])
    ws.append([EXAMPLE_NAME, *(_(v) for v in TEMPLATE_EXAMPLE[1:3]), *TEMPLATE_EXAMPLE[3:]])
    for cell in ws[1]:
        cell.font, cell.fill = HEADER_FONT, HEADER_FILL
    for cell in ws[2]:
        cell.font = Font(italic=True, color="808080")
    for letter, width in zip("ABCDEF", (32, 24, 28, 20, 34, 20)):
        ws.column_dimensions[letter].width = width
    ws.freeze_panes = "A2"
    notes = wb.create_sheet(_("Notes"))
    for row in TEMPLATE_NOTES:
        notes.append([_words(t) for t in row])
    for cell in notes[1]:
        cell.font = HEADER_FONT
    for row in notes.iter_rows(min_row=2):
        row[0].font = Font(bold=True)
        row[1].alignment = Alignment(wrap_text=True, vertical="top")
        row[0].alignment = Alignment(vertical="top")
    notes.column_dimensions["A"].width = 14
    notes.column_dimensions["B"].width = 90
    wb.active = 0
    return workbook_bytes(wb)
