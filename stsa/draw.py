"""Seeded random draws: tables, seats, colours, first player, setups and hidden picks.

Every draw takes a recorded integer seed and uses `numpy.random.default_rng(seed)` as its only
source of randomness, so the same inputs and seed give the same draw and anyone can re-check it
(R3). No database, no Streamlit. Vectorized: the work per player is done by numpy, the only
Python loops run over setups and over the per-table lists of leader names.
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
from stsa.errors import TournamentError
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
    how = {"mode": mode, "pins": dict(pins or {})}
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
            f"Table {bad[0] + 1} has {sizes[bad[0]]} players; every table needs 3 or 4."
        )
    ids = _player_ids([p for g in groups for p in g], where="the tables")
    table_no = np.repeat(np.arange(len(groups)), sizes)
    # Shuffle within each table only: sort by (table, random key).
    seated = ids.iloc[np.lexsort((rng.random(len(ids)), table_no))].reset_index(drop=True)
    return _finish(seated, sizes, setups, rng, seed, setup_counts, colours, [])


def vote_off(
    votes: pd.DataFrame,
    *,
    seed: int,
    remove: int = 2,
    organizer_choice: Sequence[str] | None = None,
    deck: Collection[str] | None = None,
) -> list[str]:
    """R10 Vote Off: remove the `remove` leaders with the most votes; return them, most votes first.

    `votes` has one row per vote: `player_id, leader`. A tie for the last places removed is settled
    by `organizer_choice` (leader names, preferred first; each must be in the tie) or, when none
    is given, at random from `seed`. `organizer_choice` is ignored when there is no tie to settle.
    With `deck` given, leaders nobody voted for count as 0 votes and votes for leaders outside the
    deck are refused; without it, only leaders with votes can be removed.
    """
    rng = _rng(seed)
    if not _whole(remove) or remove < 1:
        raise TournamentError(f"Vote Off must remove at least 1 leader, not {remove!r}.")
    _require(votes, ["player_id", "leader"], "The votes")
    twice = votes.duplicated(["player_id", "leader"])
    if twice.any():
        first = votes.loc[twice].iloc[0]
        raise TournamentError(f"Player {first['player_id']} voted for {first['leader']!r} twice.")
    tally = votes["leader"].value_counts()
    if deck is not None:
        outside = sorted(set(tally.index) - set(deck))
        if outside:
            raise TournamentError(f"Votes for leaders not in the deck: {_names(outside)}.")
        tally = tally.reindex(list(dict.fromkeys(deck)), fill_value=0)
    if tally.empty:
        raise TournamentError("No votes recorded: nothing to vote off.")
    # Sort by votes, then name, so the input's row order never changes the result.
    tally = tally.rename_axis("leader").reset_index(name="votes").sort_values(
        ["votes", "leader"], ascending=[False, True], ignore_index=True
    )
    if remove >= len(tally):
        return tally["leader"].tolist()
    cut = tally["votes"].iloc[remove - 1]
    sure = tally.loc[tally["votes"] > cut, "leader"].tolist()
    tied = tally.loc[tally["votes"] == cut, "leader"].tolist()
    needed = remove - len(sure)
    if needed == len(tied):
        return sure + tied
    if organizer_choice is not None:
        choice = list(dict.fromkeys(organizer_choice))
        stray = [name for name in choice if name not in tied]
        if stray:
            raise TournamentError(
                f"{_names(stray)}: not among the leaders tied at {cut} votes; choose from "
                f"{_names(tied)}."
            )
        if len(choice) < needed:
            raise TournamentError(
                f"Choose {needed} of the leaders tied at {cut} votes: {_names(tied)}."
            )
        return sure + choice[:needed]
    return sure + [tied[i] for i in rng.choice(len(tied), size=needed, replace=False)]


def wild_card(
    picks: pd.DataFrame, removed_leaders: Sequence[str], swaps: Collection, *, seed: int
) -> pd.DataFrame:
    """R10 Wild Card: players in `swaps` trade their leader for a random removed one.

    `picks` has `seat, player_id, leader`. Swaps are served in seat order, first player first;
    each swapper gets a random leader from `removed_leaders`, without replacement. Kept simple:
    a leader given up does not go back into the pool, so only removed leaders are handed out.
    Returns `seat, player_id, leader, swapped, original_leader`, by seat.
    """
    rng = _rng(seed)
    _require(picks, ["seat", "player_id", "leader"], "The picks")
    ordered = picks[["seat", "player_id", "leader"]].sort_values("seat", ignore_index=True)
    for column in ("seat", "player_id"):
        twice = ordered[column].duplicated()
        if twice.any():
            value = ordered.loc[twice, column].iat[0]
            raise TournamentError(f"The picks list {column} {value} twice.")
    swaps = set(swaps)
    strangers = sorted(map(str, swaps - set(ordered["player_id"])))
    if strangers:
        raise TournamentError(
            f"Player(s) {', '.join(strangers)} asked to swap but are not at this table."
        )
    pool = list(removed_leaders)
    picked_too = sorted(set(pool) & set(ordered["leader"]))
    if picked_too:
        raise TournamentError(f"{_names(picked_too)} cannot be both picked and removed.")
    swapped = ordered["player_id"].isin(swaps)
    wanted = int(swapped.sum())
    if wanted > len(pool):
        raise TournamentError(
            f"{wanted} players want to swap but only {len(pool)} removed leaders are left."
        )
    # A random order of the pool handed out in seat order = each swapper drawing in turn.
    handed = [pool[i] for i in rng.permutation(len(pool))[:wanted]]
    result = ordered.assign(original_leader=ordered["leader"], swapped=swapped)
    result.loc[swapped, "leader"] = handed
    return result[["seat", "player_id", "leader", "swapped", "original_leader"]]


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
        raise TournamentError(f"Table {t + 1} has {sizes[t]} seats but more players are "
                              "pinned to it: pin some of them to other tables.")
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
                f"Setup {setup_id!r}: its deck of {len(deck)} leaders minus {hidden} hidden picks "
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
