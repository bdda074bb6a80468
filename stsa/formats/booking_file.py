"""Booking files (R25): a convention's booking list for one qualifier sitting (.xlsx, .ods or
.csv, as a venue's booking system exports it) read into a clean frame, and its rows matched to
the roster's players.

A file has a name, nickname or e-mail column (headings as the roster reader takes them: Name,
Player, Nickname, Handle, E-mail …) and may say the booking order (Position, Order, Booking
number, #) or the booking time (Booked, Booked at, Booking time, Timestamp); without either the
rows are in booking order. It goes through the same hostile-file guards as a roster (size, zip
bombs, XML entities, too many rows or columns; formula cells give the value they show). Every
bad row is named by the row number the spreadsheet shows.

Nothing here writes and nothing reads the database: `stsa.services.bookings` imports a list.
"""

from __future__ import annotations

import datetime as dt
import unicodedata
from collections.abc import Iterable
from typing import Any

import pandas as pd

from stsa.formats.guards import RowProblem, SpreadsheetError, at_row, cell_text
from stsa.formats.roster_file import HEADINGS as ROSTER_HEADINGS
from stsa.formats.roster_file import _heading, roster_error, spreadsheet, text_problems, time_cell
from stsa.i18n import N_, _

BOOKING_COLUMNS = ["row", "name", "nickname", "email", "position", "booked_at"]
MATCH_COLUMNS = ["row", "name", "nickname", "email", "position", "booked_at", "player_id",
                 "matched_by"]
TEXT_MAX = 254
HEADINGS = {
    **{f: ROSTER_HEADINGS[f] for f in ("name", "nickname", "email", "first", "last")},
    "position": {"position", "order", "booking order", "booking number", "booking no",
                 "booking", "no", "nr", "number", "queue", "place", "rank", "ordning",
                 "plats", "köplats", "#", "nummer", "bokningsnummer", "bokningsordning",
                 "ordre", "rang", "numéro", "n°", "numéro de réservation",
                 "ordre de réservation"},
    "booked_at": {"booked", "booked at", "booking time", "booking date", "booked on",
                  "timestamp", "time", "registered", "registered at", "registration time",
                  "signed up", "sign up time", "created", "created at", "order date",
                  "bokad", "bokningstid", "anmäld", "anmälningstid", "tidstämpel",
                  "tidsstämpel", "bokningsdatum", "bokad den", "tid", "réservé",
                  "réservé le", "réservé à", "date de réservation", "heure de réservation",
                  "horodatage", "horodateur", "inscription", "date d'inscription",
                  "heure d'inscription"},
}
# How a row was matched (`match_bookings`'s `matched_by`), as a page shows it.
MATCHED_BY = {"e-mail": N_("e-mail"), "nickname": N_("nickname"), "name": N_("name")}
# Each field as a row's problem names it ("the e-mail is longer than …"), translated where used.
FIELD_LABELS = {"name": N_("the name"), "nickname": N_("the nickname"), "email": N_("the e-mail"),
                "first": N_("the first name"), "last": N_("the last name")}
_HEADING_OF = {h: field for field, names in HEADINGS.items() for h in names if h}
_WHO = ("name", "nickname", "email")


class BookingError(SpreadsheetError):
    """A booking file with bad rows, or one that is not a readable spreadsheet (R25)."""


def header_map(cells: list) -> dict[str, int]:
    """{field: column index} if `cells` is a booking list's header (R25): a name, nickname or
    e-mail column (or first and last name)."""
    found: dict[str, int] = {}
    for index, cell in enumerate(cells):
        heading = _heading(cell) or ("#" if cell_text(cell).strip() == "#" else "")
        field = _HEADING_OF.get(heading) if heading else None
        if field and field not in found:
            found[field] = index
    if any(f in found for f in _WHO) or {"first", "last"} <= found.keys():
        return found
    return {}


def _text(value: Any, field: str, wrong: list[str]) -> str:
    text = unicodedata.normalize("NFC", cell_text(value)).strip()
    return text_problems(text, _(FIELD_LABELS[field]), TEXT_MAX, wrong)


def _booked_at(value: Any, wrong: list[str]) -> dt.datetime | None:
    """A booking time (`roster_file.time_cell`): naive, the tournament's own clock."""
    return time_cell(value, wrong, _("the booking time “{text}” is not a date and time (write "
                                     "it like {example})"), "2026-03-07 10:42")


def _position(value: Any, wrong: list[str]) -> int | None:
    text = cell_text(value).strip().rstrip(".")
    if not text:
        return None
    if text.isdigit() and 1 <= int(text) <= 1_000_000:
        return int(text)
    wrong.append(_("the booking order “{text}” is not a whole number from 1").format(
        text=text[:20]))
    return None


def _records(mapping: dict[str, int], rows: Iterable[tuple[int, list]]) -> pd.DataFrame:
    records, problems = [], []
    seen_position: dict[int, int] = {}
    for number, cells in rows:
        if all(cell_text(c).strip() == "" for c in cells):
            continue

        def value_in(field: str, cells: list = cells) -> Any:
            index = mapping.get(field)
            return None if index is None or index >= len(cells) else cells[index]

        wrong: list[str] = []
        texts = {f: _text(value_in(f), f, wrong) for f in _WHO}
        if "name" not in mapping and ("first" in mapping or "last" in mapping):
            texts["name"] = " ".join(p for p in (_text(value_in("first"), "first", wrong),
                                                 _text(value_in("last"), "last", wrong)) if p)
        if not any(texts.values()):
            wrong.append(_("no name, nickname or e-mail"))
        position = _position(value_in("position"), wrong)
        if position is not None and position in seen_position:
            wrong.append(_("the same booking order ({position}) as row {row}").format(
                position=position, row=seen_position[position]))
        elif position is not None:
            seen_position[position] = number
        booked = _booked_at(value_in("booked_at"), wrong)
        if wrong:
            problems.append(at_row(number, "; ".join(wrong)))
        else:
            records.append({"row": number, **texts, "position": position, "booked_at": booked})
    if problems:
        raise booking_error(problems)
    frame = pd.DataFrame(records, columns=BOOKING_COLUMNS)
    return (frame.astype({"row": "int64", "name": "str", "nickname": "str", "email": "str"})
            .assign(position=pd.array(frame["position"].tolist(), dtype="Int64"),
                    booked_at=pd.to_datetime(frame["booked_at"].astype(object))))


def booking_error(problems: list[RowProblem]) -> BookingError:
    """One `BookingError` naming every bad row (as the roster's message does)."""
    roster = roster_error(problems)
    return BookingError(str(roster), problems)


def booking_order(frame: pd.DataFrame) -> pd.DataFrame:
    """R25: read rows in booking order: by the file's booking order where given, else by booking
    time, else by row; rows without the column that orders them after those with it."""
    return frame.sort_values(["position", "booked_at", "row"], kind="stable",
                             na_position="last").reset_index(drop=True)


def read_bookings(source: Any) -> pd.DataFrame:
    """R25: a booking file (.xlsx, .ods or .csv; a path, bytes or an uploaded file) as a frame
    `row, name, nickname, email` (cleaned text, "" when absent), `position` (Int64, the file's
    booking order, NA when it gives none) and `booked_at` (naive, as the file gives it; NaT
    when absent), in booking order (`booking_order`). The header is found in the first 10 rows
    of the first sheet that has one. Blank rows are skipped. Every bad row (no name, nickname
    or e-mail; a booking time that is not a time; a booking order that is not a whole number
    or repeats another row's; a control character or a value too long) is named by its
    spreadsheet row in one `BookingError`; so is a file that is too big, hostile, protected,
    damaged or not a spreadsheet."""
    with spreadsheet(source, BookingError, header_map) as sheets:
        for rows in sheets:
            seen: list[tuple[int, list]] = []
            for number, cells in rows:
                seen.append((number, cells))
                mapping = header_map(cells)
                if mapping:
                    return booking_order(_records(mapping, rows))
                if len(seen) >= 10:
                    break
    raise BookingError(_("No name, nickname or e-mail column found: the first rows need a "
                         "heading such as Name, Nickname or E-mail."))


# -- matching rows to players ------------------------------------------------------------------
def match_key(text: Any) -> str:
    """The key a booking is matched by (R25): Unicode-normalized, casefolded, without any
    spaces."""
    return "".join(unicodedata.normalize("NFKC", str(text or "")).casefold().split())


def _index(players: pd.DataFrame, column: str) -> dict[str, list[int]]:
    found: dict[str, list[int]] = {}
    for key, pid in zip(players[column].map(match_key), players["player_id"]):
        if key:
            found.setdefault(key, []).append(int(pid))
    return found


def match_bookings(rows: pd.DataFrame, players: pd.DataFrame) -> tuple[pd.DataFrame,
                                                                          list[RowProblem]]:
    """R25: each booking row (a `read_bookings` frame) matched to one player of `players`
    (`player_id, name, nickname, email`): by e-mail first, then by nickname, then by name,
    ignoring case and spaces. A row's e-mail that one player has decides; otherwise every
    player whose nickname or name equals the row's nickname or name is a candidate, and there
    must be exactly one.

    Returns the rows with `player_id` (Int64; NA for a row that matches nobody) and
    `matched_by` ("e-mail", "nickname", "name" or ""), and the problems that refuse the list:
    a row that matches two players (ambiguous) and a player booked twice, each named by row."""
    emails, nicks, names = (_index(players, c) for c in ("email", "nickname", "name"))
    label = dict(zip(players["player_id"].astype(int), players["nickname"]))
    ids: list[int | None] = []
    how: list[str] = []
    problems: list[RowProblem] = []
    for row, name, nick, email in zip(rows["row"], rows["name"], rows["nickname"],
                                      rows["email"]):
        by_email = emails.get(match_key(email), []) if email else []
        if len(by_email) == 1:
            ids.append(by_email[0])
            how.append("e-mail")
            continue
        texts = [match_key(t) for t in (nick, name) if t]
        steps = [("nickname", {p for t in texts for p in nicks.get(t, [])}),
                 ("name", {p for t in texts for p in names.get(t, [])})]
        candidates = set(by_email) | steps[0][1] | steps[1][1]
        if len(candidates) > 1:
            who = ", ".join(sorted(label[p] for p in candidates))
            problems.append(at_row(int(row), _("matches more than one player ({players}): add "
                                               "an e-mail column or use nicknames").format(
                                                   players=who)))
            ids.append(None)
            how.append("")
            continue
        if not candidates:
            ids.append(None)
            how.append("")
            continue
        (only,) = candidates
        ids.append(only)
        how.append(next(step for step, found in steps if only in found))
    matched = rows.assign(player_id=pd.array(ids, dtype="Int64"), matched_by=how)
    first: dict[int, int] = {}
    for row, pid in zip(matched["row"], matched["player_id"]):
        if pd.isna(pid):
            continue
        if int(pid) in first:
            problems.append(at_row(int(row), _("{player} is booked twice (also in row "
                                               "{row})").format(player=label[int(pid)],
                                                                row=first[int(pid)])))
        else:
            first[int(pid)] = int(row)
    return matched[MATCH_COLUMNS], sorted(problems, key=lambda p: p.row or 0)
