"""Seeded random draws: tables, seats, colours, first player, setups, hidden picks, and the
optional Vote Off and Wild Card of one table (R10).

Every draw takes a recorded integer seed and uses `numpy.random.default_rng(seed)` as its only
source of randomness, so the same inputs and seed give the same draw and anyone can re-check it
(R3). A table's Vote Off and Wild Card draws, made later at the table, use the stream of
`default_rng([seed, table_no, stream])`, one per table and kind of draw. No database, no
Streamlit. Vectorized: the work per player is done by numpy, the only Python loops run over
setups, over the per-table lists of leader names and over the problems an error lists.
Ruling numbers (R1, R3 …) refer to the project's RULINGS.md.
"""

from __future__ import annotations

import dataclasses
import numbers
import secrets
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from stsa import catalog, fairness
from stsa.domain import Problem, TournamentError, plural
from stsa.rules import table_sizes

SETUP_COLUMNS = ("setup_id", "hidden_picks", "leader_deck")
DRAW_MODES = ("random", "balanced")
# Balanced mode: searches from the random draw plus a few random starts; each search makes at
# most MAX_ROUNDS passes of player swaps and setup swaps.
MAX_ROUNDS = 8
_EPS = 1e-9


@dataclass(frozen=True, eq=False)
class Draw:
    """One drawn sitting (R3, R6, R9).

    `seats`: one row per seated player, by table then seat: `table_no, seat, player_id, colour,
    pick_order` (seat 1 is the first player; pick_order 1 picks first, R9).
    `tables`: one row per table: `table_no, players, setup_id, hidden_picks, removed_leaders,
    available_leaders` (lists of leader names; removed + available = the setup's deck).
    `seed`: the seed it was drawn from. `sit_outs`: player ids the draw left out (R1, 5 players).
    """

    seats: pd.DataFrame
    tables: pd.DataFrame
    seed: int
    sit_outs: list = field(default_factory=list)
    mode: str = "random"  # with the pins and the history, what re-checking the draw needs
    pins: dict = field(default_factory=dict)

    def setup_counts(self, before: Mapping[str, int] | None = None) -> dict[str, int]:
        """R6: the uses of each setup after this sitting, given the uses `before` it."""
        counts = dict(before or {})
        for setup_id, uses in self.tables["setup_id"].value_counts().items():
            counts[setup_id] = int(counts.get(setup_id, 0)) + int(uses)
        return counts


def new_seed() -> int:
    """A fresh random seed for a draw: 9 digits, easy to read aloud and type back in (R3)."""
    return 100_000_000 + secrets.randbelow(900_000_000)


def draw_sitting(
    player_ids: Iterable,
    setups: pd.DataFrame,
    *,
    seed: int,
    setup_counts: Mapping[str, int] | None = None,
    colours: Sequence[str] | None = None,
    sit_out: bool = False,
    mode: str = "random",
    history: pd.DataFrame | None = None,
    pins: Mapping | None = None,
) -> Draw:
    """Draw one sitting: R1 tables, R3 seats, colours and first player, R6 setups, R9 hidden picks.

    `player_ids` are the checked-in players (ints or strings, each once). `setups` is the frame of
    enabled setups (`setup_id, hidden_picks, leader_deck`, as from `catalog.setups()`).
    `setup_counts` maps setup_id to its uses in earlier sittings (missing = 0). `colours`
    overrides the catalog's colours (R4). With 5 players the draw refuses (R1) unless `sit_out`
    is True: then one player, drawn at random, sits this sitting out (`Draw.sit_outs`).

    `pins` maps player_id to the table_no that player keeps (a player who cannot move); a
    pinned player who sits out is simply not seated. `mode="balanced"` starts from the random
    draw for the same seed and improves it against `history` (the earlier seats: `sitting_id,
    table_no, seat, player_id, setup_id`): fewer repeat meetings, seats evening out, setups
    not played yet (`stsa.fairness`). The setups are the same R6 choice, only dealt to other
    tables; the seed still reproduces the draw exactly.
    """
    if mode not in DRAW_MODES:
        raise TournamentError(f"The draw mode must be {' or '.join(DRAW_MODES)}, not {mode!r}.")
    rng = _rng(seed)
    ids = _player_ids(player_ids)
    sit_outs: list = []
    if sit_out and len(ids) == 5:
        # R1: 5 is the only count that one sit-out makes seatable (4); 1 and 2 stay refused.
        out = int(rng.integers(len(ids)))
        sit_outs = ids.iloc[[out]].tolist()
        ids = ids.drop(index=ids.index[out]).reset_index(drop=True)
    sizes = np.asarray(table_sizes(len(ids)), dtype=np.int64)
    target = _pin_targets(pins, ids, sizes, sit_outs)
    # A random order, cut into tables of the R1 sizes, gives random player -> table -> seat.
    order = rng.permutation(len(ids))
    if target is not None:
        order = _place_pins(order, target, np.repeat(np.arange(len(sizes)), sizes), rng)
    seated = ids.iloc[order].reset_index(drop=True)
    plain = _finish(seated, sizes, setups, rng, seed, setup_counts, colours, sit_outs)
    how: dict = {"mode": mode, "pins": dict(pins or {})}
    if mode == "random":
        return dataclasses.replace(plain, **how)
    return dataclasses.replace(
        _balance(plain, None if target is None else target[order], history, rng), **how)


def draw_groups(
    groups: Sequence[Sequence],
    setups: pd.DataFrame,
    *,
    seed: int,
    setup_counts: Mapping[str, int] | None = None,
    colours: Sequence[str] | None = None,
) -> Draw:
    """Draw fixed tables (semifinals, the final, R16): random seats, colours, setups, picks.

    `groups` lists each table's players (3 or 4 each) in table order; table_no = position + 1.
    Everything else is drawn as in `draw_sitting` (R3, R6, R9).
    """
    rng = _rng(seed)
    groups = [list(g) for g in groups]
    if not groups:
        raise TournamentError("No tables to draw: give at least one group of players.")
    sizes = np.asarray([len(g) for g in groups], dtype=np.int64)
    bad = np.flatnonzero((sizes < 3) | (sizes > 4))
    if bad.size:
        raise TournamentError(
            f"Table {bad[0] + 1} has {plural(int(sizes[bad[0]]), 'player')}; every table needs "
            f"3 or 4."
        )
    ids = _player_ids([p for g in groups for p in g], where="the tables")
    table_no = np.repeat(np.arange(len(groups)), sizes)
    # Shuffle within each table only: sort by (table, random key).
    seated = ids.iloc[np.lexsort((rng.random(len(ids)), table_no))].reset_index(drop=True)
    return _finish(seated, sizes, setups, rng, seed, setup_counts, colours, [])


# --- R10: Vote Off and Wild Card, one table at a time ----------------------------------------

#: How Vote Off decided each removed leader (R10), as `vote_off_removals` reports it.
MOST_VOTES = "most votes"
ORGANIZER_CHOICE = "organizer's choice among tied"
RANDOM_CHOICE = "random among tied"
#: R10: Vote Off removes the two leaders with the most votes.
VOTE_OFF_REMOVES = 2
# Each R10 draw at a table has its own random stream, derived from the sitting's seed.
_VOTE_OFF_STREAM, _WILD_CARD_STREAM = 1, 2
_MAX_LISTED = 5


def vote_off_removals(
    deck: Sequence[str],
    votes: pd.DataFrame,
    *,
    seed: int,
    table_no: int,
    x: int = 2,
    organizer_choice: Sequence[str] | None = None,
    players: Collection | None = None,
) -> pd.DataFrame:
    """R10 Vote Off at one table: the two leaders removed from `deck` and how each was decided.

    `deck` is the table's leader deck (names, each once). `votes` has one row per vote:
    `player_id, leader`; each player votes off exactly `x` different leaders of the deck (X of
    "Vote Off (X)"). With `players` (the table's player ids, or a mapping of them to the names
    the messages use) every one of them must have voted,
    and nobody else. Leaders nobody voted for have 0 votes.

    The two leaders with the most votes are removed. When leaders tied on votes compete for the
    last place(s), the ones still needed are the first of `organizer_choice` (names, each among
    the tied leaders, at least as many as needed), or, without it, a random choice from the
    sitting's `seed` and `table_no`: the same deck, votes, seed and table always give the same
    removals, whatever the order of the vote rows. `organizer_choice` is unused without a tie.

    Returns `leader, votes, decided`, one row per removed leader (most votes first; equal votes
    in deck order, or the organizer's order), `decided` being `MOST_VOTES`, `ORGANIZER_CHOICE` or
    `RANDOM_CHOICE`. Bad votes raise a `TournamentError` whose message names each player and
    what is wrong; its `problems` list them one by one.
    """
    names = _leader_list(deck, "The leader deck")
    if not _whole(x) or not 1 <= x <= len(names):
        raise TournamentError(f"Each player votes off X leaders, X a whole number from 1 to the "
                              f"{plural(len(names), 'leader')} of the deck, not {x!r}.")
    _require(votes, ["player_id", "leader"], "The votes")
    voters = _check_votes(votes, names, x, players)
    if len(names) - VOTE_OFF_REMOVES < voters:
        raise TournamentError(f"The deck of {plural(len(names), 'leader')} minus the "
                              f"{VOTE_OFF_REMOVES} voted off leaves fewer leaders than the "
                              f"{voters} players at the table: add leaders to the deck.")
    rng = _table_rng(seed, table_no, _VOTE_OFF_STREAM)

    # Every leader of the deck with its votes: most first, equal votes in deck order.
    tally = (votes["leader"].astype("str").value_counts()
             .reindex(pd.Index(names, name="leader"), fill_value=0)
             .rename("votes")
             .reset_index()
             .sort_values("votes", ascending=False, kind="stable", ignore_index=True))
    cut = tally["votes"].iat[VOTE_OFF_REMOVES - 1]
    sure = tally.loc[tally["votes"] > cut]
    tied = tally.loc[tally["votes"] == cut]
    needed = VOTE_OFF_REMOVES - len(sure)
    if needed == len(tied):
        chosen, decided = tied, MOST_VOTES
    elif organizer_choice is not None:
        chosen, decided = _organizer_choice(tied, organizer_choice, needed), ORGANIZER_CHOICE
    else:
        picked = np.sort(rng.choice(len(tied), size=needed, replace=False))
        chosen, decided = tied.iloc[picked], RANDOM_CHOICE
    return (pd.concat([sure.assign(decided=MOST_VOTES), chosen.assign(decided=decided)],
                      ignore_index=True)
            .astype({"leader": "str", "votes": "int64", "decided": "str"}))


def wild_card_draws(
    seats: pd.DataFrame,
    swaps: Mapping | pd.Series,
    removed_leaders: Sequence[str],
    *,
    seed: int,
    table_no: int,
) -> pd.DataFrame:
    """R10 Wild Card at one table: each player's final leader.

    `seats` has `seat, player_id, leader`: the table's players and the leader each picked.
    Seat 1 is the first player and play goes by seat (R3), so seat order is play order.
    `swaps` maps every seated player_id to their choice: True takes a random leader from the
    table's `removed_leaders` (R9 or Vote Off), False keeps the picked one.

    In play order, each swapping player draws from the removed leaders without replacement; a
    leader given up does not go back. The draw is a random order of the removed leaders (by
    name, so their listed order does not matter) from the sitting's `seed` and `table_no`,
    handed out in play order: the same inputs give the same draws, and a player's draw never
    depends on the choices of players after them. When more players swap than leaders were
    removed, the first who cannot get one is named.

    Returns `seat, player_id, leader, swapped, original_leader` by seat, `leader` being the
    final one.
    """
    _require(seats, ["seat", "player_id", "leader"], "The seats")
    table = seats[["seat", "player_id", "leader"]].sort_values("seat", ignore_index=True)
    for column in ("seat", "player_id", "leader"):
        if table[column].isna().any():
            raise TournamentError(f"The seats lack a {column.replace('_', ' ')} for a player.")
        twice = table[column].duplicated()
        if twice.any():
            raise TournamentError(f"The seats list {column.replace('_', ' ')} "
                                  f"{table.loc[twice, column].iat[0]} twice.")
    pool = sorted(_leader_list(removed_leaders, "The removed leaders", at_least=0))
    picked_too = table.loc[table["leader"].isin(pool), "leader"].tolist()
    if picked_too:
        raise TournamentError(f"{_names(picked_too)} cannot be both picked and removed.")
    swapping = _swap_choices(swaps, table["player_id"])
    rng = _table_rng(seed, table_no, _WILD_CARD_STREAM)

    order = rng.permutation(len(pool))
    turn = np.cumsum(swapping) - 1  # each swapper's turn among the swappers, in play order
    short = swapping & (turn >= len(pool))
    if short.any():
        first = int(np.flatnonzero(short)[0])
        raise TournamentError(
            f"Player {table['player_id'].iat[first]} (seat {table['seat'].iat[first]}) wants to "
            f"swap, but the {plural(len(pool), 'removed leader')} "
            f"{'is' if len(pool) == 1 else 'are'} already taken by the players before."
        )
    drawn = np.asarray(pool, dtype=object)[order[turn[swapping]]]
    result = table.assign(original_leader=table["leader"], swapped=swapping)
    result.loc[swapping, "leader"] = drawn
    return result[["seat", "player_id", "leader", "swapped", "original_leader"]]


def _table_rng(seed, table_no, stream: int) -> np.random.Generator:
    """R3, R10: the random stream of one draw at one table, from the sitting's recorded seed.

    Seeding with (seed, table_no, stream) gives every table and every kind of draw its own
    stream: re-checking one table never depends on the others, nor on the draws made before.
    """
    _rng(seed)
    if not _whole(table_no) or table_no < 0:
        raise TournamentError(f"The table number must be a whole number of at least 0, not "
                              f"{table_no!r}.")
    return np.random.default_rng([int(seed), int(table_no), stream])


def _leader_list(names, what: str, at_least: int = VOTE_OFF_REMOVES) -> list[str]:
    """Leader names as a list of str: each once, none blank, at least `at_least` of them."""
    if isinstance(names, str) or not isinstance(names, Iterable):
        raise TournamentError(f"{what} must be a list of leader names.")
    listed = pd.Series(list(names), dtype="object")
    blank = listed.isna() | (listed.astype("str").str.strip() == "")
    if blank.any():
        raise TournamentError(f"{what} list a blank leader name.")
    listed = listed.astype("str")
    twice = listed[listed.duplicated()].unique().tolist()
    if twice:
        raise TournamentError(f"{what} list {_names(twice)} more than once.")
    if len(listed) < at_least:
        raise TournamentError(f"{what} hold {plural(len(listed), 'leader')}; Vote Off needs at "
                              f"least {at_least}.")
    return listed.tolist()


def _check_votes(votes: pd.DataFrame, deck: list[str], x: int, players: Collection | None) -> int:
    """R10: every player votes off exactly `x` different leaders of `deck`; with `players`, every
    player at the table votes and nobody else (a mapping of player_id to name names them in
    the problems). Returns the number of players who voted; raises a `TournamentError` with one
    `Problem` per player and thing wrong."""
    names = players if isinstance(players, Mapping) else {}

    def who(player) -> str:
        return str(names.get(player, f"Player {player}"))

    blank = (votes["player_id"].isna() | votes["leader"].isna()
             | (votes["leader"].astype("str").str.strip() == "")).to_numpy()
    if blank.any():
        row = int(np.flatnonzero(blank)[0]) + 1
        raise TournamentError(f"Vote {row} lacks its player or its leader: every vote names both.")
    cast = votes.assign(leader=votes["leader"].astype("str"))
    count = cast.groupby("player_id", sort=False).size()
    outside = cast.loc[~cast["leader"].isin(deck)]
    repeated = cast.loc[cast.duplicated(["player_id", "leader"])]
    problems = [
        *(Problem(who(player), f"voted for {_names(pd.unique(leaders))}, not in this "
                                      "table's leader deck")
          for player, leaders in outside.groupby("player_id", sort=False)["leader"]),
        *(Problem(who(player), f"voted for {_names(pd.unique(leaders))} more than once; "
                                      f"the {x} votes must name different leaders")
          for player, leaders in repeated.groupby("player_id", sort=False)["leader"]),
        *(Problem(who(player), f"cast {plural(int(n), 'vote')}, not {x}")
          for player, n in count[count != x].items()),
    ]
    if players is not None:
        seated = pd.Index(list(players))
        problems += [Problem(who(p), "has not voted")
                     for p in seated.difference(count.index, sort=False)]
        problems += [Problem(who(p), "voted but does not sit at this table")
                     for p in count.index.difference(seated, sort=False)]
    if count.empty and not problems:
        problems.append(Problem(None, f"no votes recorded; each player votes off "
                                      f"{plural(x, 'leader')}"))
    if problems:
        more = len(problems) - _MAX_LISTED
        raise TournamentError(
            f"Vote Off: {'; '.join(map(str, problems[:_MAX_LISTED]))}"
            f"{f' (and {more} more)' if more > 0 else ''}. Each player votes off exactly "
            f"{plural(x, 'different leader')} of the table's deck.", problems)
    return len(count)


def _organizer_choice(tied: pd.DataFrame, choice: Sequence[str], needed: int) -> pd.DataFrame:
    """R10: the first `needed` leaders of the organizer's `choice`, each among `tied`."""
    if isinstance(choice, str):
        choice = [choice]
    named = list(dict.fromkeys(map(str, choice)))
    votes = plural(int(tied["votes"].iat[0]), "vote")
    stray = [name for name in named if name not in set(tied["leader"])]
    if stray:
        raise TournamentError(f"{_names(stray)}: not among the leaders tied at {votes}; choose "
                              f"from {_names(tied['leader'])}.")
    if len(named) < needed:
        raise TournamentError(f"Choose {needed} of the leaders tied at {votes}: "
                              f"{_names(tied['leader'])}.")
    return tied.set_index("leader").loc[named[:needed]].reset_index()


def _swap_choices(swaps, player_ids: pd.Series) -> np.ndarray:
    """R10: each seated player's keep (False) or swap (True) choice, in the order of
    `player_ids`; every player has exactly one and nobody else."""
    if not isinstance(swaps, (Mapping, pd.Series)):
        raise TournamentError("The wild-card choices must map each player to True (swap) or "
                              "False (keep).")
    choices = pd.Series(swaps, dtype="object") if isinstance(swaps, Mapping) else swaps
    problems = [
        *(Problem(f"Player {p}", "has no keep-or-swap choice")
          for p in pd.Index(player_ids).difference(choices.index, sort=False)),
        *(Problem(f"Player {p}", "made a choice but does not sit at this table")
          for p in choices.index.difference(pd.Index(player_ids), sort=False)),
        *(Problem(f"Player {p}", f"chose {v!r}: True to swap or False to keep")
          for p, v in choices[~choices.isin([True, False]) | choices.isna()].items()),
    ]
    if choices.index.duplicated().any():
        problems.append(Problem(f"Player {choices.index[choices.index.duplicated()][0]}",
                                "has more than one choice"))
    if problems:
        raise TournamentError(f"Wild Card: {'; '.join(map(str, problems[:_MAX_LISTED]))}.",
                              problems)
    return choices.reindex(player_ids).astype("bool").to_numpy()


# --- the shared second half of a draw ---------------------------------------------------------


def _finish(
    seated: pd.Series,
    sizes: np.ndarray,
    setups: pd.DataFrame,
    rng: np.random.Generator,
    seed: int,
    setup_counts: Mapping[str, int] | None,
    colours: Sequence[str] | None,
    sit_outs: list,
) -> Draw:
    """Players already in seat order, table after table: add colours, setups and hidden picks."""
    enabled = _check_setups(setups, int(sizes.max()))
    palette = _palette(colours, int(sizes.max()))
    n_tables = len(sizes)
    starts = np.cumsum(sizes) - sizes
    table_idx = np.repeat(np.arange(n_tables), sizes)
    seat = np.arange(len(seated)) - starts[table_idx] + 1
    # R3: each table gets a random arrangement of the palette (argsort of random keys).
    colour_idx = np.argsort(rng.random((n_tables, len(palette))), axis=1)[table_idx, seat - 1]
    seats = pd.DataFrame(
        {
            "table_no": table_idx + 1,
            "seat": seat,
            "player_id": seated,  # keeps the ids' dtype (ints or strings)
            "colour": pd.array(np.asarray(palette, dtype=object)[colour_idx], dtype="str"),
            "pick_order": sizes[table_idx] - seat + 1,  # R9: the last seat picks first
        }
    )
    chosen = _choose_setups(enabled, n_tables, setup_counts, rng)
    tables = _hidden_picks(enabled, chosen, sizes, rng)
    return Draw(seats=seats, tables=tables, seed=int(seed), sit_outs=sit_outs)


def _choose_setups(
    enabled: pd.DataFrame,
    n_tables: int,
    setup_counts: Mapping[str, int] | None,
    rng: np.random.Generator,
) -> np.ndarray:
    """R6: positions (into `enabled`) of the setup for each table, in table order.

    Every setup is a candidate for its 1st, 2nd … use this sitting. Candidates are taken by
    (use this sitting, uses so far, random): whole rounds first, so no setup repeats while there
    are enough setups, then the least-used setups, equal counts settled at random. The chosen
    setups are then dealt to the tables in random order.
    """
    counts = _counts(enabled["setup_id"], setup_counts)
    n_setups = len(enabled)
    rounds = -(-n_tables // n_setups)
    use = np.repeat(np.arange(rounds), n_setups)
    position = np.tile(np.arange(n_setups), rounds)
    order = np.lexsort((rng.random(use.size), counts[position] + use, use))
    return rng.permutation(position[order[:n_tables]])


def _hidden_picks(
    enabled: pd.DataFrame, chosen: np.ndarray, sizes: np.ndarray, rng: np.random.Generator
) -> pd.DataFrame:
    """R9: remove `hidden_picks` random leaders from each table's deck (both in deck order)."""
    removed: list = [None] * len(chosen)
    available: list = [None] * len(chosen)
    decks = enabled["leader_deck"].tolist()
    picks = enabled["hidden_picks"].to_numpy(dtype=np.int64)
    # One pass per setup in use, all its tables at once: each table's h smallest random keys
    # mark the leaders removed there.
    for position in np.unique(chosen):
        deck, hidden = decks[position], picks[position]
        tables = np.flatnonzero(chosen == position)
        keys = rng.random((tables.size, len(deck)))
        gone = np.zeros(keys.shape, dtype=bool)
        np.put_along_axis(gone, np.argsort(keys, axis=1)[:, :hidden], True, axis=1)
        names = np.asarray(deck, dtype=object)
        for row, table in enumerate(tables):
            removed[table] = names[gone[row]].tolist()
            available[table] = names[~gone[row]].tolist()
    return pd.DataFrame(
        {
            "table_no": np.arange(1, len(chosen) + 1),
            "players": sizes,
            "setup_id": pd.array(enabled["setup_id"].to_numpy(dtype=object)[chosen], dtype="str"),
            "hidden_picks": picks[chosen],
            "removed_leaders": removed,
            "available_leaders": available,
        }
    )


# --- pins and the balanced mode -----------------------------------------------------------------


def _pin_targets(pins: Mapping | None, ids: pd.Series, sizes: np.ndarray,
                 sit_outs: list) -> np.ndarray | None:
    """Each player's pinned table (0-based, -1 = free), in the order of `ids`; None without
    pins. Refuses pins of players not in the sitting, tables the sitting does not have, and
    more pins at a table than it has seats."""
    if not pins:
        return None
    if not isinstance(pins, Mapping):
        raise TournamentError("Pins must map each pinned player to a table number.")
    index = pd.Index(ids.tolist())
    target = np.full(len(ids), -1, dtype=np.int64)
    for player, table_no in pins.items():
        if player in sit_outs:
            continue
        if not _whole(table_no) or not 1 <= table_no <= len(sizes):
            raise TournamentError(
                f"Player {player} is pinned to table {table_no!r}, but this sitting has tables "
                f"1 to {len(sizes)}.")
        where = index.get_indexer([player])[0]
        if where < 0:
            raise TournamentError(f"Player {player} is pinned to a table but is not in this "
                                  "sitting: check them in or remove the pin.")
        target[where] = int(table_no) - 1
    crowded = np.flatnonzero(np.bincount(target[target >= 0], minlength=len(sizes)) > sizes)
    if crowded.size:
        t = int(crowded[0])
        raise TournamentError(f"Table {t + 1} has {plural(int(sizes[t]), 'seat')} but more "
                              "players are pinned to it: pin some of them to other tables.")
    return target if (target >= 0).any() else None


def _place_pins(order: np.ndarray, target: np.ndarray, table: np.ndarray,
                rng: np.random.Generator) -> np.ndarray:
    """Move each pinned player (`target[player] >= 0`) to their table, swapping them with a
    random player there who is not pinned to it. `order[position]` is the player seated at
    `position`; `table[position]` its table."""
    order = order.copy()
    pos = np.empty_like(order)
    pos[order] = np.arange(order.size)
    for player in np.flatnonzero(target >= 0):
        t = target[player]
        if table[pos[player]] == t:
            continue
        spots = np.flatnonzero((table == t) & (target[order] != t))
        q = spots[rng.integers(spots.size)]
        p, other = pos[player], order[q]
        order[p], order[q] = other, player
        pos[player], pos[other] = q, p
    return order


def _random_best(delta: np.ndarray, rng: np.random.Generator) -> int | None:
    """The move that lowers the cost most (one of the equally good ones at random), or None
    when no move lowers it."""
    low = delta.min()
    if low >= -_EPS:
        return None
    choices = np.flatnonzero(delta <= low + _EPS)
    return int(choices[rng.integers(choices.size)])


def _balance(plain: Draw, pin: np.ndarray | None, history: pd.DataFrame | None,
             rng: np.random.Generator) -> Draw:
    """The balanced draw: rearrange `plain`'s players and deal its setups to other tables so
    that `fairness.draw_cost` is lower. Starts from `plain` itself (so it never does worse) and
    from a few random arrangements; keeps the best, the first found among equals."""
    seats, tables = plain.seats, plain.tables
    n, n_tables = len(seats), len(tables)
    table = seats["table_no"].to_numpy(dtype=np.int64) - 1
    sizes = tables["players"].to_numpy(dtype=np.int64)
    cls = fairness.seat_class(sizes[table], seats["seat"].to_numpy())
    slot_setup = tables["setup_id"].astype(str).tolist()
    setup_ids = list(dict.fromkeys(slot_setup))
    terms = fairness.terms(history, seats["player_id"].tolist(), setup_ids)
    # by_slot[i, j]: the setup cost of player i at a table playing slot j's setup.
    by_slot = terms.setup[:, pd.Index(setup_ids).get_indexer(slot_setup)]
    slot_terms = fairness.Terms(meet=terms.meet, seat=terms.seat, setup=by_slot)
    pin = np.full(n, -1, dtype=np.int64) if pin is None else pin
    starts = np.cumsum(sizes) - sizes
    best = None
    for restart in range(4 if n <= 256 else 2):
        if restart == 0:
            x, sigma = np.arange(n), np.arange(n_tables)
        else:
            x = _place_pins(rng.permutation(n), pin, table, rng)
            sigma = rng.permutation(n_tables)
        x, sigma = _improve(slot_terms, x, sigma, table, cls, starts, pin, rng)
        cost = fairness.arrangement_cost(slot_terms, x, table, cls, sigma)
        if best is None or cost < best[0] - _EPS:
            best = (cost, x, sigma)
    assert best is not None  # the first restart always sets it
    _, x, sigma = best
    moved = tables.iloc[sigma]
    return Draw(
        seats=seats.assign(player_id=seats["player_id"].iloc[x].reset_index(drop=True)),
        tables=tables.assign(
            setup_id=pd.array(moved["setup_id"].to_numpy(dtype=object), dtype="str"),
            hidden_picks=moved["hidden_picks"].to_numpy(),
            removed_leaders=moved["removed_leaders"].tolist(),
            available_leaders=moved["available_leaders"].tolist()),
        seed=plain.seed, sit_outs=plain.sit_outs)


def _improve(terms: fairness.Terms, x: np.ndarray, sigma: np.ndarray, table: np.ndarray,
             cls: np.ndarray, starts: np.ndarray, pin: np.ndarray,
             rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Local search: player `x[p]` sits at position p, table t plays setup slot `sigma[t]`.

    Each round visits the players in random order and makes the best swap of that player with
    any other (another table: a new table and seat; the same table: seats permuted), then the
    best swap of each table's setup with another table's; only moves that lower the cost are
    made, equally good ones chosen at random. Pinned players swap only within their table.
    The pair cost is kept per player and table (`near[i, t]`: i's cost with table t's players),
    so each swap is judged against every position at once.
    """
    meet, seat, setup = terms.meet, terms.seat, terms.setup
    n, n_tables = x.size, sigma.size
    x, sigma = x.copy(), sigma.copy()
    pos = np.empty_like(x)
    pos[x] = np.arange(n)
    pin_at = pin[x]
    near = np.add.reduceat(meet[:, x], starts, axis=1)
    everyone = np.arange(n)
    for _ in range(MAX_ROUNDS):
        changed = False
        unary = seat[:, cls] + setup[:, sigma[table]]  # unary[i, p]: player i at position p
        current = unary[x, everyone]
        for a in rng.permutation(n):
            p = pos[a]
            here = table[p]
            delta = (near[a, table] + near[x, here] - near[a, here] - near[x, table]
                     - 2 * meet[a, x])
            same = table == here
            delta[same] = 0.0
            delta += unary[a] + unary[x, p] - current[p] - current
            blocked = ~same & ((pin_at >= 0) | (pin[a] >= 0))
            delta[blocked] = np.inf
            delta[p] = np.inf
            q = _random_best(delta, rng)
            if q is None:
                continue
            b, there = x[q], table[q]
            x[p], x[q] = b, a
            pos[a], pos[b] = q, p
            pin_at[p], pin_at[q] = pin[b], pin[a]
            current[p], current[q] = unary[b, p], unary[a, q]
            if there != here:
                shift = meet[:, b] - meet[:, a]
                near[:, here] += shift
                near[:, there] -= shift
            changed = True
        if n_tables > 1:
            # gain[t, j]: the setup cost of table t's players with slot j's setup.
            gain = np.add.reduceat(setup[x], starts, axis=0)
            tables = np.arange(n_tables)
            for t in rng.permutation(n_tables):
                s = sigma[t]
                delta = gain[t, sigma] + gain[:, s] - gain[t, s] - gain[tables, sigma]
                delta[t] = np.inf
                u = _random_best(delta, rng)
                if u is None:
                    continue
                sigma[t], sigma[u] = sigma[u], s
                changed = True
        if not changed:
            break
    return x, sigma


# --- input checks -----------------------------------------------------------------------------


def _whole(value) -> bool:
    """An int (numpy ints too), not a bool."""
    return isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_))


def _names(names: Iterable) -> str:
    return ", ".join(map(repr, names))


def _rng(seed) -> np.random.Generator:
    if not _whole(seed) or seed < 0:
        raise TournamentError(f"The draw seed must be a whole number of at least 0, not {seed!r}.")
    return np.random.default_rng(int(seed))


def _require(frame, columns: list[str], what: str) -> None:
    if not isinstance(frame, pd.DataFrame):
        raise TournamentError(f"{what} must be a table with columns {', '.join(columns)}.")
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise TournamentError(f"{what} lack the column(s) {', '.join(missing)}.")


def _player_ids(player_ids: Iterable, where: str = "the check-in list") -> pd.Series:
    ids = pd.Series(list(player_ids))
    blank = ids.isna() | (ids.astype(str).str.strip() == "")
    if blank.any():
        position = int(blank.to_numpy().argmax()) + 1
        raise TournamentError(f"The player at position {position} in {where} has no id.")
    dup = ids[ids.duplicated()].unique().tolist()
    if dup:
        raise TournamentError(
            f"Player{'s' if len(dup) > 1 else ''} {', '.join(map(str, dup[:10]))} "
            f"{'are' if len(dup) > 1 else 'is'} listed more than once in {where}."
        )
    return ids


def _counts(setup_ids: pd.Series, setup_counts: Mapping[str, int] | None) -> np.ndarray:
    """Uses so far of each enabled setup (missing = 0; ids not enabled are ignored)."""
    given = dict(setup_counts or {})
    counts = [given.get(setup_id, 0) for setup_id in setup_ids]
    bad = [(s, c) for s, c in zip(setup_ids, counts) if not _whole(c) or c < 0]
    if bad:
        setup_id, uses = bad[0]
        raise TournamentError(
            f"Setup {setup_id!r} has {uses!r} uses so far; uses must be whole numbers from 0 up."
        )
    return np.asarray(counts, dtype=np.int64)


def _check_setups(setups: pd.DataFrame, largest_table: int) -> pd.DataFrame:
    """The enabled setups, checked: ids once each, decks that leave every table a choice (R7)."""
    _require(setups, list(SETUP_COLUMNS), "The enabled setups")
    if setups.empty:
        raise TournamentError("No setups are enabled: enable at least one setup before drawing.")
    enabled = setups.reset_index(drop=True)
    dup = enabled["setup_id"].duplicated()
    if dup.any():
        raise TournamentError(f"Setup {enabled.loc[dup, 'setup_id'].iloc[0]!r} is enabled twice.")
    decks = []
    columns = zip(enabled["setup_id"], enabled["leader_deck"], enabled["hidden_picks"])
    for setup_id, deck, hidden in columns:
        if isinstance(deck, str) or not isinstance(deck, Iterable):
            raise TournamentError(
                f"The leader deck of setup {setup_id!r} must be a list of leader names."
            )
        deck = [str(name) for name in deck]
        if not _whole(hidden) or hidden < 0:
            raise TournamentError(
                f"Hidden picks of setup {setup_id!r} must be a whole number from 0 up, "
                f"not {hidden!r}."
            )
        # Checked against the largest table of the sitting, not the drawn one, so whether a
        # sitting can be drawn never depends on the seed.
        if len(deck) - hidden < largest_table:
            raise TournamentError(
                f"Setup {setup_id!r}: its deck of {plural(len(deck), 'leader')} minus "
                f"{plural(hidden, 'hidden pick')} "
                f"leaves {max(len(deck) - hidden, 0)}, fewer than the {largest_table} players at a "
                "table. Add leaders to its deck, lower its hidden picks or disable it."
            )
        decks.append(deck)
    return enabled.assign(leader_deck=decks)


def _palette(colours: Sequence[str] | None, largest_table: int) -> list[str]:
    palette = catalog.colours() if colours is None else [str(c).strip() for c in colours]
    if any(not c for c in palette) or len(set(palette)) != len(palette):
        raise TournamentError("The colours must be distinct and not blank.")
    if len(palette) < largest_table:
        raise TournamentError(
            f"{len(palette)} colour{'s' if len(palette) != 1 else ''} cannot give each player at a "
            f"{largest_table}-player table their own colour; give at least {largest_table}."
        )
    return palette
