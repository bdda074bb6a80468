"""The roster: finding players by name, a pasted name list added all or nothing, single
players added, edited, withdrawn or removed, and check-in for the next sitting (R2, R19).

The store names a bad entry the way the organizer knows it ("line 4" of a pasted list, "the
new player"): the labels travel with the entries, no message is rewritten."""

from __future__ import annotations

import datetime as dt
import difflib
from dataclasses import dataclass
from typing import NamedTuple

import pandas as pd

from stsa import store
from stsa.auth import Actor
from stsa.domain import PLAYED, Kind, PlayerStatus, TournamentError
from stsa.i18n import _, ngettext

SHOWN_LIMIT = 200  # players listed at once on the Roster page; a search narrows the rest
MAX_LINES = 10_000  # a pasted name list longer than this is refused

# What needs no more checks than the store makes (roles, names, history), as the store does it.
edit_player = store.edit_player
withdraw_player = store.withdraw_player
remove_player = store.remove_player
clear_check_ins = store.clear_check_ins
SHOWN_PROBLEMS = 8  # lines of a pasted check-in list named in one message


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
        raise TournamentError(_("The list has {count} lines; paste at most {most}.").format(
            count=len(lines), most=MAX_LINES))
    records, numbers = [], []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        name, _comma, club = line.partition("\t") if "\t" in line else line.partition(",")
        records.append({"name": name.strip(), "club": club.strip()})
        numbers.append(number)
    if not records:
        raise TournamentError(_("Paste at least one name, one player a line."))
    return records, numbers


def import_names(engine, text: str, *, actor: Actor) -> pd.DataFrame:
    """A pasted name list (`parse_name_list`) added in one transaction, all or nothing; a
    problem names the line it is on. Returns the players added."""
    records, lines = parse_name_list(text)
    return store.import_players(engine, records, actor=actor,
                                labels=[_("line {number}").format(number=n) for n in lines])


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


# --- check-in by list ------------------------------------------------------------------------

def names_in_list(players: pd.DataFrame, text: str) -> list[int]:
    """The active players a pasted check-in list names (R2), one a line, by name or nickname
    (R22) as the store compares names (any case, spaces collapsed); a line may carry more after
    a tab or a comma (a booking list's columns). Blank lines and repeats are skipped.

    All or nothing: a line that names nobody (with the closest names as a hint), two players
    (one's name, another's nickname) or a withdrawn player is refused, with its line number."""
    lines = str(text or "").splitlines()
    if len(lines) > MAX_LINES:
        raise TournamentError(_("The list has {count} lines; paste at most {most}.").format(
            count=len(lines), most=MAX_LINES))
    known = pd.concat([
        players.assign(key=players[column].astype(str).map(store.normalize_name),
                       shown=players[column].astype(str))
        for column in ("name", "nickname")]).drop_duplicates(["key", "player_id"])
    pasted = (pd.DataFrame({"text": pd.Series(lines, dtype=str)})
              .assign(line=lambda d: d.index + 1, text=lambda d: d["text"].str.strip())
              .loc[lambda d: d["text"] != ""])
    if pasted.empty:
        raise TournamentError(_("Paste at least one name or nickname, one player a line."))
    whole = pasted["text"].map(store.normalize_name)
    first = pasted["text"].str.split(r"[\t,]", n=1, regex=True).str[0].map(store.normalize_name)
    pasted = pasted.assign(key=whole.where(whole.isin(known["key"]), first))
    found = pasted.merge(known[["key", "player_id", "name", "status"]], on="key", how="left")
    counts = found.groupby("line")["player_id"].nunique()
    problems = pd.concat([
        _line_problems(found.loc[found["line"].isin(counts.index[counts == 0])],
                       lambda row: _unknown(row, known)),
        _line_problems(found.loc[found["line"].isin(counts.index[counts > 1])],
                       lambda row: _("two players go by that name: write the other's full "
                                     "name")),
        _line_problems(found.loc[(found["status"] == PlayerStatus.WITHDRAWN)
                                 & found["line"].isin(counts.index[counts == 1])],
                       lambda row: _("{player} is withdrawn (reinstate them first)").format(
                           player=row["name"])),
    ]).sort_index()
    if len(problems):
        shown = "; ".join(problems.head(SHOWN_PROBLEMS))
        more = len(problems) - SHOWN_PROBLEMS
        if more > 0:
            raise TournamentError(ngettext("Nobody was checked in. {problems}; and {count} more "
                                           "line.", "Nobody was checked in. {problems}; and "
                                           "{count} more lines.", more).format(problems=shown,
                                                                               count=more))
        raise TournamentError(_("Nobody was checked in. {problems}.").format(problems=shown))
    return list(dict.fromkeys(int(p) for p in found["player_id"]))


def _line_problems(rows: pd.DataFrame, why) -> pd.Series:
    """One problem a line, indexed by line number: 'line 4, "Pual": …'."""
    rows = rows.drop_duplicates("line")
    said = _('line {number}, "{text}": {problem}')
    return pd.Series([said.format(number=line, text=text, problem=why(row)) for line, text, row
                      in zip(rows["line"], rows["text"], rows.to_dict("records"))],
                     index=rows["line"].to_numpy(), dtype=str)


def _unknown(row: dict, known: pd.DataFrame) -> str:
    """Nobody by that name or nickname; the closest names as a hint."""
    close = difflib.get_close_matches(row["key"], known["key"].tolist(), n=2, cutoff=0.75)
    names = known.drop_duplicates("key").set_index("key")["shown"]
    if len(close) == 2:
        return _('no player has that name or nickname (did you mean "{first}" or '
                 '"{second}"?)').format(first=names[close[0]], second=names[close[1]])
    if close:
        return _('no player has that name or nickname (did you mean "{name}"?)').format(
            name=names[close[0]])
    return _("no player has that name or nickname")


class CheckIns(NamedTuple):
    """What a check-in of a list did: how many were checked in now, how many out, and how many
    of the list were checked in already."""

    checked_in: int
    checked_out: int
    already: int


def _drawn_at(engine, actor: Actor) -> dt.datetime | None:
    """When the last qualifier played was drawn (a list checked in after it is the next
    sitting's: `stale_check_ins`), or None."""
    last = last_played(store.sittings(engine, actor=actor))
    return None if last is None else pd.Timestamp(last["created_at"]).to_pydatetime()


def check_in(engine, player_ids, *, actor: Actor) -> CheckIns:
    """`player_ids` checked in, added to who is (R2). Those still checked in from before the
    last qualifier was drawn are checked in again, for this sitting (`stale_check_ins`)."""
    ids = sorted({int(p) for p in player_ids})
    done = store.check_in(engine, ids, again_before=_drawn_at(engine, actor), actor=actor)
    return CheckIns(done, 0, len(ids) - done)


def set_check_ins(engine, player_ids, *, actor: Actor) -> CheckIns:
    """Exactly `player_ids` checked in (R2), everyone else out, in one transaction; as
    `check_in`, a listed player checked in before the last draw is this sitting's now."""
    ids = sorted({int(p) for p in player_ids})
    ins, outs = store.set_check_ins(engine, ids, again_before=_drawn_at(engine, actor),
                                    actor=actor)
    return CheckIns(ins, outs, len(ids) - ins)


def check_in_list(engine, players: pd.DataFrame, text: str, *, only: bool,
                  actor: Actor) -> CheckIns:
    """A pasted list checked in (`names_in_list`, R2): with `only`, exactly these players
    (everyone else checked out, one transaction), else added to who is checked in. Returns
    how many were checked in, out, and already checked in (`CheckIns`)."""
    ids = names_in_list(players, text)
    return set_check_ins(engine, ids, actor=actor) if only else check_in(engine, ids,
                                                                         actor=actor)


def check_in_words(done: CheckIns | tuple[int, int]) -> str:
    """What a check-in did, in words: "Checked in 3 players; 12 were already checked in.",
    "All 15 were already checked in." (never "Checked in 0 players" for a list that was in)."""
    ins, outs, already = (*done, 0)[:3]
    if not already:
        if outs:
            return ngettext("Checked in {count} player, checked out {out}.",
                            "Checked in {count} players, checked out {out}.", ins).format(
                count=ins, out=outs)
        return ngettext("Checked in {count} player.", "Checked in {count} players.",
                        ins).format(count=ins)
    if not ins:
        if outs:
            return ngettext("{count} player was already checked in; checked out {out}.",
                            "All {count} were already checked in; checked out {out}.",
                            already).format(count=already, out=outs)
        return ngettext("{count} player was already checked in.",
                        "All {count} were already checked in.", already).format(count=already)
    first = ngettext("Checked in {count} player", "Checked in {count} players", ins).format(
        count=ins)
    if outs:
        return ngettext("{checked_in}; {count} was already checked in; checked out {out}.",
                        "{checked_in}; {count} were already checked in; checked out {out}.",
                        already).format(checked_in=first, count=already, out=outs)
    return ngettext("{checked_in}; {count} was already checked in.",
                    "{checked_in}; {count} were already checked in.", already).format(
        checked_in=first, count=already)


def last_played(sittings: pd.DataFrame) -> pd.Series | None:
    """The last qualifier published or complete (a draft or a voided one is not played), or
    None."""
    played = sittings.loc[(sittings["kind"] == Kind.QUALIFIER)
                          & sittings["status"].isin(PLAYED)]
    return None if played.empty else played.sort_values("number").iloc[-1]


@dataclass(frozen=True)
class CheckInList:
    """A ready-made check-in list: what it is, in words, and who is on it."""

    label: str
    player_ids: tuple[int, ...]


def ready_lists(players: pd.DataFrame, sittings: pd.DataFrame,
                seats: pd.DataFrame) -> list[CheckInList]:
    """The check-in lists an organizer starts a sitting from (R2), once a qualifier was played
    (published or complete): its active players, and the active players who have not played a
    qualifier yet (every active player is one button of its own). `seats`: the played
    qualifiers' seats (`sitting_id, player_id`, as `draws.history` gives them)."""
    active = players.loc[players["status"] == PlayerStatus.ACTIVE, "player_id"]
    last, lists = last_played(sittings), []
    if last is not None:
        there = seats.loc[seats["sitting_id"] == last["sitting_id"], "player_id"]
        lists.append(CheckInList(_("Same as Qualifier {number}").format(number=last["number"]),
                                 tuple(int(p) for p in active.loc[active.isin(there)])))
        lists.append(CheckInList(_("Everyone who has not played yet"), tuple(
            int(p) for p in active.loc[~active.isin(seats["player_id"])])))
    return lists


def stale_check_ins(players: pd.DataFrame, sittings: pd.DataFrame) -> str | None:
    """A hint that the check-ins may be the last sitting's (R2): how many of the players
    checked in now were checked in before the last qualifier played was drawn, in words, or
    None (none, or no qualifier played yet)."""
    last = last_played(sittings)
    if last is None:
        return None
    checked = players.loc[(players["status"] == PlayerStatus.ACTIVE) & players["checked_in"]]
    old = int((checked["checked_in_at"].isna()
               | (checked["checked_in_at"] < last["created_at"])).sum())
    if old == 0:
        return None
    if old == len(checked):
        said = ngettext("All {count} players checked in were checked in before Qualifier "
                        "{number} was drawn: they may be Qualifier {number}'s players. Check in "
                        "this sitting's players, or keep them if they play again.",
                        "All {count} players checked in were checked in before Qualifier "
                        "{number} was drawn: they may be Qualifier {number}'s players. Check in "
                        "this sitting's players, or keep them if they play again.", old)
    else:
        said = ngettext("{count} of the {total} players checked in were checked in before "
                        "Qualifier {number} was drawn: they may be Qualifier {number}'s "
                        "players. Check in this sitting's players, or keep them if they play "
                        "again.", "{count} of the {total} players checked in were checked in "
                        "before Qualifier {number} was drawn: they may be Qualifier {number}'s "
                        "players. Check in this sitting's players, or keep them if they play "
                        "again.", old)
    return said.format(count=old, total=len(checked), number=last["number"])
