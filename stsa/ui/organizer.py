"""What the Home, Roster, Settings, Data and Log pages work out before they show it: plain
functions of frames and text (no layout), so the pages stay thin and these stay testable."""

from __future__ import annotations

import datetime as dt
import json
import re

import pandas as pd

from stsa import catalog, rules, store
from stsa.auth import Role
from stsa.errors import Problem, TournamentError
from stsa.formats import csv as csv_format

SHOWN_LIMIT = 200  # players listed at once on the Roster page; a search narrows the rest
MAX_LINES = 10_000  # a pasted name list longer than this is refused

# Quick links on Home: (page, label, icon, who may open it), as app.py registers the pages.
PICK_METHODS = {"hidden_picks": "Hidden Picks (R9)", "vote_off": "Vote Off (R10)"}
PLACES = ["1st", "2nd", "3rd", "4th"]
DRAW_MODES = {"random": "Random (R3)",
              "balanced": "Balanced: fewer repeat opponents, even seats and setups"}
STATUS_WORDS = {"drawn": "drawn, not published yet", "published": "being played",
                "complete": "complete"}


# --- Home ------------------------------------------------------------------------------------

def sitting_label(sitting: dict) -> str:
    """The sitting's name: Qualifier 2, Semifinal or Final."""
    if sitting["kind"] == "qualifier":
        return f"Qualifier {int(sitting['number'])}"
    return str(sitting["kind"]).capitalize()


def listed(numbers: list, limit: int = 20) -> str:
    """The numbers as "1, 4, 7", or the first `limit` and how many more for a long list."""
    shown = ", ".join(str(n) for n in numbers[:limit])
    return shown + (f" … and {len(numbers) - limit} more" if len(numbers) > limit else "")


def next_step(status: dict, role: Role) -> str:
    """What this person does next, from `tournament.home_status`."""
    sitting, missing = status["sitting"], status["missing_tables"]
    label = sitting_label(sitting) if sitting else ""
    state = sitting["status"] if sitting else None
    tables = f"table{'s' if len(missing) != 1 else ''} {listed(missing)}"
    if sitting and sitting["kind"] == "final" and state == "complete":
        return "The tournament is over: the final standings are on the Finals page."
    if role is Role.ORGANIZER:
        if status["players"] == 0 and sitting is None:
            return "Start on the Roster page: import or add the players."
        if state == "drawn":
            return (f"{label} is drawn but not published: check it on the Draw page (redraw "
                    f"if needed), then publish it.")
        if state == "published" and missing:
            return f"{label} is being played: judges still have to enter {tables}."
        if status["checked_in"] < 3:
            return ("Check in the players for the next sitting on the Roster page, then draw "
                    "it on the Draw page; after the last qualifier, go to the Finals page.")
        return (f"{status['checked_in']} players are checked in: draw the next sitting on the "
                f"Draw page.")
    if role is Role.JUDGE:
        if state == "published" and missing:
            return f"Enter results on the Results page: {tables} of {label} still missing."
        if state == "drawn":
            return f"{label} is drawn; results can be entered once the organizer publishes it."
        return "Nothing to enter now: the next sitting is not drawn yet."
    if sitting is None:
        return ("The tournament has not started yet: the draw appears on the Draw page once "
                "it is published.")
    if state == "published":
        return f"{label} is being played: find your table on the Draw page."
    return "See the Standings page; the next draw appears on the Draw page once published."


# --- Roster ----------------------------------------------------------------------------------

def problems_frame(problems: list[Problem]) -> pd.DataFrame:
    """A spreadsheet's problems (`SpreadsheetError.problems`) as a table: the row the
    spreadsheet shows (a `RowProblem`'s `row`), what is wrong."""
    rows = [getattr(p, "row", None) for p in problems]
    return pd.DataFrame({"Row": pd.array(rows, dtype="Int64"),
                         "Problem": [p.what if row is not None else str(p)
                                     for p, row in zip(problems, rows)]})


def roster_preview(sheet: pd.DataFrame, limit: int = 10) -> pd.DataFrame:
    """The first rows of a read roster file as the organizer checks them before importing:
    the spreadsheet row and the columns the file fills."""
    filled = [c for c in ("club", "city", "email", "player_id")
              if c in sheet and sheet[c].astype(str).str.strip().ne("").any()]
    return sheet.head(limit)[["row", "name", *filled]].rename(columns={
        "row": "Row", "name": "Name", "club": "Club", "city": "City", "email": "Email",
        "player_id": "Player id"})


def parse_name_list(text: str) -> tuple[list[dict], list[int]]:
    """A pasted roster: one player a line, "name" or "name, club" (a tab also separates, as
    when pasting two spreadsheet columns). Blank lines are skipped. Returns the records and
    the line number of each, so that errors can name lines."""
    lines = str(text or "").splitlines()
    if len(lines) > MAX_LINES:
        raise TournamentError(f"The list has {len(lines)} lines; paste at most {MAX_LINES}.")
    records, numbers = [], []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        name, _, club = line.partition("\t") if "\t" in line else line.partition(",")
        records.append({"name": name.strip(), "club": club.strip()})
        numbers.append(number)
    if not records:
        raise TournamentError("Paste at least one name, one player a line.")
    return records, numbers


def relabel_entries(message: str, labels: list[str]) -> str:
    """A store message about "entry 3" rewritten to name what the organizer typed instead
    (labels[2], e.g. "line 4" of a pasted list)."""
    def label(match: re.Match) -> str:
        index = int(match.group(2)) - 1
        if not 0 <= index < len(labels):
            return match.group(0)
        text = labels[index]
        return text[:1].upper() + text[1:] if match.group(1) == "E" else text
    return re.sub(r"\b([Ee])ntry (\d+)", label, message)


def relabelled(action, labels: list[str]):
    """Run `action`; a `TournamentError` about "entry N" is raised again naming labels[N-1]."""
    try:
        return action()
    except TournamentError as exc:
        raise TournamentError(relabel_entries(str(exc), labels)) from exc


def find_players(players: pd.DataFrame, query: str = "", *, active_only: bool = False,
                 limit: int = SHOWN_LIMIT) -> tuple[pd.DataFrame, int]:
    """The players whose name contains `query` (ignoring case), by name; at most `limit` of
    them, and how many matched in all."""
    found = players
    if active_only:
        found = found.loc[found["status"] == "active"]
    query = " ".join(str(query or "").split()).casefold()
    if query:
        found = found.loc[found["name"].str.casefold().str.contains(query, regex=False)]
    found = found.sort_values("name", key=lambda s: s.str.casefold(), kind="stable")
    return found.head(limit), len(found)


def check_in_frame(players: pd.DataFrame) -> pd.DataFrame:
    """The check-in list as the editor shows it: name, club, checked in; indexed by player."""
    return (players.set_index("player_id")[["name", "club", "checked_in"]]
            .astype({"checked_in": bool}))


def check_in_changes(shown: pd.DataFrame, edited: pd.DataFrame) -> tuple[list[int], list[int]]:
    """Who the organizer ticked (to check in) and unticked (to check out) in the editor."""
    after = edited["checked_in"].astype(bool).reindex(shown.index)
    before = shown["checked_in"].astype(bool)
    return ([int(p) for p in shown.index[after & ~before]],
            [int(p) for p in shown.index[~after & before]])


def table_plan(n: int) -> tuple[str, str]:
    """R1 for `n` checked-in players: ("ok" | "warning", what the draw will seat)."""
    if n == 0:
        return "warning", "No one is checked in for the next sitting yet."
    if n == 5:
        return "warning", ("5 players cannot all be seated at tables of 3 or 4: a sit-out will "
                           "be needed (the draw picks one player at random), or check in "
                           "another player.")
    try:
        sizes = rules.table_sizes(n)
    except TournamentError as exc:
        return "warning", str(exc)
    tables = f"{len(sizes)} table{'s' if len(sizes) != 1 else ''}"
    if len(sizes) > 12:  # a long plan is said in counts
        return "ok", (f"Table plan (R1): {tables}, {sizes.count(4)} of 4 players and "
                      f"{sizes.count(3)} of 3.")
    return "ok", f"Table plan (R1): {tables} ({' + '.join(map(str, sizes))})."


# --- Settings --------------------------------------------------------------------------------

def setup_options() -> dict[str, str]:
    """The catalog's setups an organizer can enable (R5): setup_id → name."""
    frame = catalog.setups()
    return dict(zip(frame["setup_id"], frame["name"]))


def base_games() -> list[str]:
    return sorted(catalog.setups()["base_game"].unique().tolist())


def hidden_picks(settings: dict) -> dict[str, int]:
    """R9: leaders removed per table for each base game, the default where none is set."""
    default = store.DEFAULT_SETTINGS["hidden_picks"]
    picks = settings.get("hidden_picks") or {}
    return {game: int(picks.get(game, default.get(game, 0))) for game in base_games()}


def colour_problem(colours: list[str]) -> str | None:
    """Why these four colours cannot be saved (R4), or None."""
    clean = [" ".join(str(c).split()) for c in colours]
    if any(not c for c in clean):
        return "Colours: fill in all four colours."
    keys = [c.casefold() for c in clean]
    for later, key in enumerate(keys):
        if key in keys[:later]:
            return (f"Colours: colour {keys.index(key) + 1} and colour {later + 1} are both "
                    f"“{clean[later]}”; choose {len(clean)} different colours.")
    return None


def settings_changes(current: dict, wanted: dict) -> dict:
    """The settings in `wanted` that differ from `current` (what `store.set_settings` gets)."""
    return {k: v for k, v in wanted.items() if current.get(k) != v}


# --- Data ------------------------------------------------------------------------------------

RESTORED_WORDS = [("players", "player"), ("sittings", "sitting"), ("tables", "table"),
                  ("results", "player result"), ("events", "log event")]


def restored_summary(counts: dict) -> str:
    """What a workbook restore brought back, from `excel.restore_workbook`'s counts."""
    parts = [f"{int(counts.get(key, 0))} {word}{'s' if int(counts.get(key, 0)) != 1 else ''}"
             for key, word in RESTORED_WORDS]
    source = counts.get("source") or "the workbook"
    return f"Restored the tournament from {source}: {', '.join(parts)}."


def backups_frame(files: pd.DataFrame) -> pd.DataFrame:
    """The backup files (`store.backups`) for display: name, size in kB, when (UTC)."""
    return pd.DataFrame({"Backup": files["name"], "Size (kB)": (files["size"] / 1024).round(1),
                         "Made (UTC)": files["modified"]}).reset_index(drop=True)


def file_stamp(now: dt.datetime | None = None) -> str:
    """A date and time for download file names: 2025-03-01-1405."""
    return (now or dt.datetime.now()).strftime("%Y-%m-%d-%H%M")


# --- Log -------------------------------------------------------------------------------------

def _json(value) -> str:
    return "" if value is None else json.dumps(value, ensure_ascii=False, sort_keys=True,
                                               default=str)


def log_frame(events: pd.DataFrame) -> pd.DataFrame:
    """The audit log newest first, with before/after as JSON text (R19)."""
    newest = events.sort_values("event_id", ascending=False)
    return newest.assign(before=newest["before"].map(_json), after=newest["after"].map(_json))[
        ["event_id", "at", "actor", "role", "action", "subject", "before", "after"]
    ].reset_index(drop=True)


def csv_text(frame: pd.DataFrame) -> str:
    """`frame` as CSV that a spreadsheet opens as text: a cell starting like a formula
    ("=", "+", "-", "@", a tab or a carriage return) gets a leading apostrophe."""
    return csv_format.frame_text(frame)
