"""How the Home, Roster, Settings, Data and Log pages word and lay out what the services give
them: plain functions of frames and text (no layout, no rules), so the pages stay thin and
these stay testable. The rules behind them live in `stsa.services`."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable

import pandas as pd

from stsa import i18n, local_time
from stsa.domain import (
    BATTLE_OF_WILLS_LABELS,
    DRAW_MODE_LABELS,
    PICK_METHOD_LABELS,
    DrawMode,
    Kind,
    Role,
    SittingStatus,
    sitting_label,
)
from stsa.errors import Problem
from stsa.formats import csv as csv_format
from stsa.i18n import N_, _, ngettext
from stsa.services.home import HomeStatus

# Labels in English (marked where they are defined); `shown` translates them where a page shows
# them.
PICK_METHODS = PICK_METHOD_LABELS
BATTLE_OF_WILLS = BATTLE_OF_WILLS_LABELS
PLACES = [N_("1st"), N_("2nd"), N_("3rd"), N_("4th")]
DRAW_MODES: dict[str, str] = {
    DrawMode.RANDOM: DRAW_MODE_LABELS[DrawMode.RANDOM],
    DrawMode.BALANCED: N_("Balanced: fewer repeat opponents, even seats and setups")}


def shown(labels: dict) -> Callable[[object], str]:
    """A choice widget's `format_func` for a dict of English labels: each option's label in
    this run's language."""
    return lambda option: _(labels[option]) if option in labels else str(option)


# --- Home ------------------------------------------------------------------------------------

def listed(numbers: list, limit: int = 20) -> str:
    """The numbers as "1, 4, 7", or the first `limit` and how many more for a long list."""
    shown = ", ".join(str(n) for n in numbers[:limit])
    if len(numbers) <= limit:
        return shown
    return _("{numbers} … and {count} more").format(numbers=shown, count=len(numbers) - limit)


def next_step(status: HomeStatus, role: Role) -> str:
    """What this person does next, from `services.home.home_status`."""
    sitting, missing = status.sitting, list(status.missing_tables)
    label = i18n.cell(sitting_label(sitting["kind"], sitting["number"])) if sitting else ""
    state = sitting["status"] if sitting else None
    tables = ngettext("table {tables}", "tables {tables}", len(missing)).format(
        tables=listed(missing))
    if sitting and sitting["kind"] == Kind.FINAL and state == SittingStatus.COMPLETE:
        return _("The tournament is over: the final standings are on the Finals page.")
    if role is Role.ORGANIZER:
        if status.players == 0 and sitting is None:
            return _("Start on the Roster page: import or add the players.")
        if state == SittingStatus.DRAWN:
            return _("{sitting} is drawn but not published: check it on the Draw page (redraw "
                     "if needed), then publish it.").format(sitting=label)
        if state == SittingStatus.PUBLISHED and missing:
            return _("{sitting} is being played: judges still have to enter {tables}.").format(
                sitting=label, tables=tables)
        if status.checked_in < 3:
            return _("Check in the players for the next sitting on the Roster page, then draw "
                     "it on the Draw page; after the last qualifier, go to the Finals page.")
        return ngettext("{count} player is checked in: draw the next sitting on the Draw page.",
                        "{count} players are checked in: draw the next sitting on the Draw "
                        "page.", status.checked_in).format(count=status.checked_in)
    if role is Role.JUDGE:
        if state == SittingStatus.PUBLISHED and missing:
            return _("Enter results on the Results page: {tables} of {sitting} still "
                     "missing.").format(tables=tables, sitting=label)
        if state == SittingStatus.DRAWN:
            return _("{sitting} is drawn; results can be entered once the organizer publishes "
                     "it.").format(sitting=label)
        return _("Nothing to enter now: the next sitting is not drawn yet.")
    if sitting is None:
        return _("The tournament has not started yet: the draw appears on the Draw page once "
                 "it is published.")
    if state == SittingStatus.PUBLISHED:
        return _("{sitting} is being played: find your table on the Draw page.").format(
            sitting=label)
    return _("See the Standings page; the next draw appears on the Draw page once published.")


# --- Roster ----------------------------------------------------------------------------------

def problems_frame(problems: list[Problem]) -> pd.DataFrame:
    """A spreadsheet's problems (`SpreadsheetError.problems`) as a table: the row the
    spreadsheet shows (a `RowProblem`'s `row`), what is wrong."""
    rows = [getattr(p, "row", None) for p in problems]
    return pd.DataFrame({_("Row"): pd.array(rows, dtype="Int64"),
                         _("Problem"): [p.what if row is not None else str(p)
                                     for p, row in zip(problems, rows)]})


def roster_preview(sheet: pd.DataFrame, limit: int = 10) -> pd.DataFrame:
    """The first rows of a read roster file as the organizer checks them before importing:
    the spreadsheet row and the columns the file fills."""
    filled = [c for c in ("nickname", "club", "city", "email", "player_id")
              if c in sheet and sheet[c].astype(str).str.strip().ne("").any()]
    if "registered" in sheet and sheet["registered"].notna().any():
        filled.append("registered")
    return sheet.head(limit)[["row", "name", *filled]].rename(columns={
        "row": _("Row"), "name": _("Name"), "nickname": _("Nickname"), "club": _("Club"),
        "city": _("City"), "email": _("Email"), "player_id": _("Player id"),
        "registered": _("Registered")})


def registration(players: pd.DataFrame) -> pd.Series:
    """R21 in words: "pre-registered #12" (12th in registration order) or "drop-in"."""
    order = players["registration_order"].astype("string")
    registered, drop_in = _("pre-registered #{number}"), _("drop-in")
    return pd.Series([drop_in if pd.isna(n) else registered.format(number=n) for n in order],
                     index=players.index, dtype=str)


def check_in_time(players: pd.DataFrame, tz: dt.tzinfo | None = None) -> pd.Series:
    """When each player checked in, as 10:42 in the tournament's time zone `tz` (R26; None:
    this laptop's); "" if not."""
    return (local_time.column(players["checked_in_at"], tz or local_time.zone(None))
            .dt.strftime("%H:%M").fillna("").astype(str))


CHECK_IN_LOCKED = ["name", "nickname", "club", "registration", "checked_in_at"]  # not edited


def check_in_frame(players: pd.DataFrame, tz: dt.tzinfo | None = None) -> pd.DataFrame:
    """The check-in list as the editor shows it: name, nickname (R22), club, pre-registered or
    drop-in and check-in time (R21), checked in; indexed by player."""
    return (players.assign(registration=registration(players),
                           checked_in_at=check_in_time(players, tz))
            .set_index("player_id")[["name", "nickname", "club", "registration", "checked_in",
                                     "checked_in_at"]]
            .astype({"checked_in": bool}))


def check_in_changes(shown: pd.DataFrame, edited: pd.DataFrame) -> tuple[list[int], list[int]]:
    """Who the organizer ticked (to check in) and unticked (to check out) in the editor."""
    after = edited["checked_in"].astype(bool).reindex(shown.index)
    before = shown["checked_in"].astype(bool)
    return ([int(p) for p in shown.index[after & ~before]],
            [int(p) for p in shown.index[~after & before]])


# --- Data ------------------------------------------------------------------------------------

RESTORED_WORDS = ["players", "sittings", "tables", "results", "events"]


def _restored(key: str, n: int) -> str:
    words = {"players": ngettext("{count} player", "{count} players", n),
             "sittings": ngettext("{count} sitting", "{count} sittings", n),
             "tables": ngettext("{count} table", "{count} tables", n),
             "results": ngettext("{count} player result", "{count} player results", n),
             "events": ngettext("{count} log event", "{count} log events", n)}
    return words[key].format(count=n)


def restored_summary(counts: dict) -> str:
    """What a workbook restore brought back, from `excel.restore_workbook`'s counts."""
    parts = [_restored(key, int(counts.get(key, 0))) for key in RESTORED_WORDS]
    source = counts.get("source") or _("the workbook")
    return _("Restored the tournament from {source}: {counts}.").format(
        source=source, counts=", ".join(parts))


def backups_frame(files: pd.DataFrame, tz: dt.tzinfo | None = None) -> pd.DataFrame:
    """The backup files (`store.backups`) for display: name, size in kB, when it was made
    ("2026-03-07 14:05") in the tournament's time zone `tz` (R26; None: this laptop's)."""
    made = local_time.column(files["modified"], tz or local_time.zone(None))
    return pd.DataFrame({_("Backup"): files["name"],
                         _("Size (kB)"): (files["size"] / 1024).round(1),
                         _("Made"): made.dt.strftime("%Y-%m-%d %H:%M")}).reset_index(drop=True)


def in_zone(frame: pd.DataFrame, column: str, tz: dt.tzinfo) -> pd.DataFrame:
    """`frame` with its UTC times in `column` in the tournament's time zone (R26)."""
    return frame.assign(**{column: local_time.column(frame[column], tz)})


# --- Log -------------------------------------------------------------------------------------

def _json(value) -> str:
    return "" if value is None else json.dumps(value, ensure_ascii=False, sort_keys=True,
                                               default=str)


def log_frame(events: pd.DataFrame, shown: pd.DataFrame | None = None) -> pd.DataFrame:
    """The audit log as recorded, newest first, with before/after as JSON text (R19): what
    the log's CSV download holds. With `shown` (the page's readable log: `event_id,
    details`), only its events, each with its `details` in words."""
    newest = events.sort_values("event_id", ascending=False)
    raw = newest.assign(before=newest["before"].map(_json), after=newest["after"].map(_json))[
        ["event_id", "at", "actor", "role", "action", "subject", "before", "after"]
    ].reset_index(drop=True)
    if shown is None:
        return raw
    return raw.merge(shown[["event_id", "details"]], on="event_id")


def csv_text(frame: pd.DataFrame) -> str:
    """`frame` as CSV that a spreadsheet opens as text: a cell starting like a formula
    ("=", "+", "-", "@", a tab or a carriage return) gets a leading apostrophe."""
    return csv_format.frame_text(frame)


def time_zone_choices(current: str | None) -> tuple[list[str], int, Callable[[str], str]]:
    """R26: the Settings page's time zones ("" = this laptop's), the index of `current` and
    how each reads."""
    zones = ["", *local_time.zone_names()]
    laptop = local_time.laptop_zone_name()
    return zones, zones.index(current or ""), \
        lambda z: z or _("This laptop's ({zone})").format(zone=laptop)
