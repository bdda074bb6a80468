"""The roster: finding players by name, a pasted name list added all or nothing, single
players added, edited, withdrawn or removed, and check-in for the next sitting (R2, R19).

The store names a bad entry the way the organizer knows it ("line 4" of a pasted list, "the
new player"): the labels travel with the entries, no message is rewritten."""

from __future__ import annotations

import pandas as pd

from stsa import store
from stsa.auth import Actor
from stsa.domain import PlayerStatus, TournamentError

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
    """The players whose name or nickname (R22) contains `query` (ignoring case), by name; at
    most `limit` of them, and how many matched in all."""
    found = players
    if active_only:
        found = found.loc[found["status"] == PlayerStatus.ACTIVE]
    found = found.loc[name_matches(found["name"], query)
                      | name_matches(found["nickname"], query)]
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


def import_names(engine, text: str, *, actor: Actor) -> pd.DataFrame:
    """A pasted name list (`parse_name_list`) added in one transaction, all or nothing; a
    problem names the line it is on. Returns the players added."""
    records, lines = parse_name_list(text)
    return store.import_players(engine, records, actor=actor,
                                labels=[f"line {n}" for n in lines])


def add_player(engine, name: str, *, nickname: str = "", club: str = "", email: str = "",
               actor: Actor) -> dict:
    """One player added (the store checks the name, nickname (R22), club and email)."""
    return store.add_player(engine, name, nickname=nickname, club=club, email=email,
                            actor=actor)


def change_check_ins(engine, checked_in: list[int], checked_out: list[int], *,
                     actor: Actor) -> tuple[int, int]:
    """Check in `checked_in` and check out `checked_out` (R2); how many changed of each."""
    return (store.check_in(engine, checked_in, actor=actor),
            store.check_in(engine, checked_out, checked_in=False, actor=actor))
