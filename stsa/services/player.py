"""A player's own page: where they sit now, their games, their rank and the cut, in the
public's view (R3, R12, R14, R16, R20–R22).

Pure functions over the frames the pages already share per data version (`stsa.ui.data`):
nothing here reads the store, so a hundred phones asking "where do I sit?" after a publish cost
one computation per player per change, not a query per phone. Players are found and named by
nickname only (R22).
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from stsa import rules, stats, store
from stsa.domain import Kind, PlayerStatus, SittingStatus, sitting_label
from stsa.services import roster
from stsa.services.finals import Status

SHOWN_LIMIT = 10  # a search shows at most this many nicknames: type more to narrow it


class Now:
    """Where a player is in the current sitting (`PlayerFacts.now`)."""

    SEATED = "seated"  # at a table of a published sitting still being played
    SITTING_OUT = "sitting_out"  # a sitting is being played without them (R1, R2, R21)
    NOT_DRAWN = "not_drawn"  # no sitting is being played: the next one is not published yet


@dataclass(frozen=True)
class Seat:
    """A player's place at a table (R3): seat 1 plays first; `first_player` is seat 1's
    nickname; `players` how many sit at the table."""

    table_no: int
    seat: int
    colour: str
    first_player: str
    setup: str
    players: int


@dataclass(frozen=True)
class PlayerFacts:
    """Everything a player's own page says, in the public's view.

    `sitting`: the sitting being played ("Qualifier 4"; "" when none is). `now`: a `Now`.
    `seat`: their table when seated. `sat_out_by_draw`: the draw chose them to sit out (R1).
    `waiting`: their number on the sitting's waiting list (R21), None when not waiting.
    `games`: their qualifier games (`sitting, table_no, placing, vp, qualifier_score`), in
    order. `rank`, `best_score`: R14, None before a first result. `standing`: their rank and
    the cut in plain words (R16), or where they stand in the finals once those are played."""

    player_id: int
    nickname: str
    withdrawn: bool
    sitting: str
    now: str
    seat: Seat | None
    sat_out_by_draw: bool
    waiting: int | None
    games: pd.DataFrame
    rank: int | None
    best_score: float | None
    standing: str


def directory(players: pd.DataFrame) -> pd.DataFrame:
    """R22: `player_id, nickname` of every player (withdrawn ones too: their results stay),
    by nickname, for the search."""
    return (players[["player_id", "nickname"]]
            .assign(nickname=lambda d: d["nickname"].astype(str))
            .sort_values("nickname", key=lambda s: s.str.casefold(), kind="stable")
            .reset_index(drop=True))


def search(found: pd.DataFrame, query: str) -> pd.DataFrame:
    """The players of `directory` whose nickname contains `query` (any case, spaces
    collapsed; not a pattern); one whose nickname is exactly `query` comes first."""
    hits = found.loc[roster.name_matches(found["nickname"], query)]
    exact = hits["nickname"].map(store.normalize_name) == store.normalize_name(query or "")
    return pd.concat([hits.loc[exact], hits.loc[~exact]]).reset_index(drop=True)


def linked(found: pd.DataFrame, raw) -> int | None:
    """The player a bookmarked link names (`?player=<id>`), if `found` (`directory`) has
    them; None for anything else (not a number, no such player)."""
    text = str(raw or "").strip()
    if not (text.isdigit() and len(text) <= 12) or int(text) not in set(found["player_id"]):
        return None
    return int(text)


def in_play(sittings: pd.DataFrame) -> pd.DataFrame:
    """The published sittings still being played (R20: the public never sees a draft),
    latest first."""
    return sittings.loc[sittings["status"] == SittingStatus.PUBLISHED].iloc[::-1]


def finals_started(sittings: pd.DataFrame) -> bool:
    """Whether a semifinal or final sitting is published (R16–R18: where a player stands is
    then the finals' word, not the cut's)."""
    return bool(((sittings["kind"] != Kind.QUALIFIER)
                 & (sittings["status"] != SittingStatus.DRAWN)).any())


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st …"""
    n = int(n)
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _points(gap: float) -> str:
    number = f"{gap:g}"
    return f"{number} point" + ("" if number == "1" else "s")


def _behind(gap: float, rank: int) -> str:
    if gap <= 0:
        return f"level on points with {ordinal(rank)}: the tie-breaks decide"
    return f"{_points(gap)} behind {ordinal(rank)}"


FINALS_WORDS = {
    Status.FINAL: "you play the final", Status.SEMIFINAL: "you play the semifinal",
    Status.OUT: "you did not make the cut",
    Status.ABSENT: "you are marked absent for the finals: a wildcard takes your seat",
    Status.LOST_SEAT: "the semifinal winner took your final seat",
    Status.CHAMPION: "you are the champion", Status.RUNNER_UP: "you are the runner-up",
    Status.THIRD: "you placed third", Status.FINALIST: "you played the final",
}


def standing_words(table: pd.DataFrame, player_id, finals: pd.DataFrame | None = None) -> str:
    """R14, R16 in plain words: "8th; the cut is the top 8", "14th; the cut is the top 11:
    4 points behind 11th". Once a finals sitting is played (`finals`: the rows of
    `services.finals.finals_status`), where the player stands in the finals instead."""
    mine = table.loc[table["player_id"] == player_id]
    if mine.empty or pd.isna(mine["best_score"].iloc[0]):
        return "No result yet: your rank shows once your first game is in."
    row = mine.iloc[0]
    place = ordinal(row["rank"])
    if finals is not None and len(finals):
        found = finals.loc[finals["player_id"] == player_id]
        status = found["status"].iloc[0] if len(found) else Status.NONE
        if status in FINALS_WORDS:
            wildcard = " (as a wildcard)" if len(found) and bool(found["wildcard"].iloc[0]) else ""
            return f"{place} after the qualifiers; {FINALS_WORDS[status]}{wildcard}."
    scored = int(table["best_score"].notna().sum())
    if len(table) < 4:
        return f"{place} of {scored}; the finals need at least 4 players."
    line, fmt = stats.cut(table), rules.finals_format(len(table))
    gaps = stats.distance_to_cut(table, player_id)
    rank_at = table["rank"].to_numpy()
    tie = " Your rank is shared across the cut line: the organizer settles it." \
        if bool(row["tie_at_cut"]) else ""
    if row["zone"] == "final":
        return f"{place}; the top {fmt.direct} go straight to the final.{tie}"
    if row["zone"] == "semifinal":
        return (f"{place}; places {fmt.direct + 1}–{fmt.cut} play the semifinal, "
                f"{_behind(gaps['final'], rank_at[line.direct - 1])} "
                f"(the last place straight to the final).{tie}")
    last = line.semifinal or line.direct
    gap = gaps["semifinal"] if line.semifinal > line.direct else gaps["final"]
    return f"{place}; the cut is the top {last}: {_behind(gap, rank_at[last - 1])}.{tie}"


def waiting_place(waiting: pd.DataFrame | None, player_id) -> int | None:
    """R21: the player's number on the current sitting's waiting list (1 = next in), None
    when they are not on it. `waiting` is that list (`player_id, position`, by position) as
    the waiting-list service reads it; None while there is none."""
    if waiting is None or waiting.empty:
        return None
    queue = waiting.sort_values("position", kind="stable")["player_id"].tolist()
    return queue.index(player_id) + 1 if player_id in queue else None


def player_facts(player_id: int, *, players: pd.DataFrame, sittings: pd.DataFrame,
                 seats: dict[int, pd.DataFrame], sit_outs: dict[int, pd.DataFrame],
                 scored: pd.DataFrame, standings: pd.DataFrame,
                 finals: pd.DataFrame | None = None,
                 waiting: pd.DataFrame | None = None) -> PlayerFacts | None:
    """What player `player_id`'s own page shows (R3, R12, R14, R16, R21, R22); None when there
    is no such player.

    Frames as the public sees them: `players` (with `nickname`), `sittings`, the `seats` of
    each sitting being played (`services.sittings.sitting_overview`, by sitting id), who its
    draw sat out (`sit_outs`, by sitting id), the scored qualifier results, the standings with
    zones (`services.results.standings`), `finals` (`services.finals.finals_status`: used
    once `finals_started`, may be None before) and the current sitting's waiting list
    (R21)."""
    me = players.loc[players["player_id"] == player_id]
    if me.empty:
        return None
    nickname = dict(zip(players["player_id"], players["nickname"].astype(str)))
    playing = in_play(sittings)
    seated_in = [s for s in playing["sitting_id"]  # an older sitting may still be played
                 if s in seats and (seats[s]["player_id"] == player_id).any()]
    current = playing.loc[playing["sitting_id"] == seated_in[0]] if seated_in \
        else playing.head(1)
    seat, now, sitting, sat_out = None, Now.NOT_DRAWN, "", False
    if len(current):
        row = current.iloc[0]
        sitting_id, sitting = int(row["sitting_id"]), sitting_label(row["kind"], row["number"])
        at = seats.get(sitting_id)
        mine = at.loc[at["player_id"] == player_id] if at is not None else pd.DataFrame()
        outs = sit_outs.get(sitting_id)
        sat_out = outs is not None and bool((outs["player_id"] == player_id).any())
        now = Now.SITTING_OUT
        if len(mine):
            now, place = Now.SEATED, mine.iloc[0]
            table = at.loc[at["table_id"] == place["table_id"]]
            first = table.loc[table["seat"] == 1, "player_id"]
            seat = Seat(table_no=int(place["table_no"]), seat=int(place["seat"]),
                        colour=str(place["colour"]),
                        first_player=nickname.get(first.iloc[0], "") if len(first) else "",
                        setup=str(place["setup"]), players=len(table))
    games = scored.loc[scored["player_id"] == player_id].sort_values(["sitting_no", "table_no"])
    standing = standings.loc[standings["player_id"] == player_id]
    ranked = len(standing) and pd.notna(standing["best_score"].iloc[0])
    return PlayerFacts(
        player_id=int(player_id), nickname=nickname[player_id],
        withdrawn=me["status"].iloc[0] == PlayerStatus.WITHDRAWN,
        sitting=sitting, now=now, seat=seat, sat_out_by_draw=sat_out,
        waiting=waiting_place(waiting, player_id) if now != Now.SEATED else None,
        games=pd.DataFrame({
            "sitting": [sitting_label(Kind.QUALIFIER, n) for n in games["sitting_no"]],
            "table_no": games["table_no"].to_numpy(), "placing": games["placing"].to_numpy(),
            "vp": games["vp"].to_numpy(), "qualifier_score": games["qualifier_score"].to_numpy()}),
        rank=int(standing["rank"].iloc[0]) if ranked else None,
        best_score=float(standing["best_score"].iloc[0]) if ranked else None,
        standing=standing_words(standings, player_id,
                                finals if finals_started(sittings) else None))
