"""The roster: finding players by name, a pasted name list added all or nothing, single
players added, edited, withdrawn or removed, and check-in for the next sitting (R2, R19).

Errors from the store that name "entry 3" of what was added are said again in the words of
what the organizer typed ("line 4" of a pasted list, "the new player")."""

from __future__ import annotations

import re
from typing import Callable, TypeVar

import pandas as pd

from stsa import store
from stsa.auth import Actor
from stsa.domain import PlayerStatus
from stsa.errors import TournamentError

T = TypeVar("T")
SHOWN_LIMIT = 200  # players listed at once on the Roster page; a search narrows the rest
MAX_LINES = 10_000  # a pasted name list longer than this is refused

# What needs no more checks than the store makes (roles, names, history), as the store does it.
edit_player = store.edit_player
withdraw_player = store.withdraw_player
remove_player = store.remove_player
check_in = store.check_in
clear_check_ins = store.clear_check_ins


# --- finding players --------------------------------------------------------------------------

def name_matches(names: pd.Series, query: str) -> pd.Series:
    """Which `names` contain `query` as typed (spaces collapsed, any case; not a pattern)."""
    query = " ".join(str(query or "").split()).casefold()
    if not query:
        return pd.Series(True, index=names.index)
    return names.astype(str).str.casefold().str.contains(query, regex=False)


def find_players(players: pd.DataFrame, query: str = "", *, active_only: bool = False,
                 limit: int = SHOWN_LIMIT) -> tuple[pd.DataFrame, int]:
    """The players whose name contains `query` (ignoring case), by name; at most `limit` of
    them, and how many matched in all."""
    found = players
    if active_only:
        found = found.loc[found["status"] == PlayerStatus.ACTIVE]
    found = found.loc[name_matches(found["name"], query)]
    found = found.sort_values("name", key=lambda s: s.str.casefold(), kind="stable")
    return found.head(limit), len(found)


# --- adding players ---------------------------------------------------------------------------

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


def relabelled(action: Callable[[], T], labels: list[str]) -> T:
    """Run `action`; a `TournamentError` about "entry N" is raised again naming labels[N-1]."""
    try:
        return action()
    except TournamentError as exc:
        raise TournamentError(relabel_entries(str(exc), labels), exc.problems) from exc


def import_names(engine, text: str, *, actor: Actor) -> pd.DataFrame:
    """A pasted name list (`parse_name_list`) added in one transaction, all or nothing; a
    problem names the line it is on. Returns the players added."""
    records, lines = parse_name_list(text)
    return relabelled(lambda: store.import_players(engine, records, actor=actor),
                      [f"line {n}" for n in lines])


def add_player(engine, name: str, *, club: str = "", email: str = "", actor: Actor) -> dict:
    """One player added (the store checks the name, club and email)."""
    return relabelled(lambda: store.add_player(engine, name, club=club, email=email,
                                               actor=actor), ["the new player"])


def change_check_ins(engine, checked_in: list[int], checked_out: list[int], *,
                     actor: Actor) -> tuple[int, int]:
    """Check in `checked_in` and check out `checked_out` (R2); how many changed of each."""
    return (store.check_in(engine, checked_in, actor=actor),
            store.check_in(engine, checked_out, checked_in=False, actor=actor))
