"""Seeded random draws: tables, seats, colours, first player, setups and hidden picks; the
balanced mode's search lives in `stsa.balance`, a table's Vote Off and Wild Card in
`stsa.picks` (R10).

Every draw takes a recorded integer seed and uses `numpy.random.default_rng(seed)` as its only
source of randomness, so the same inputs and seed give the same draw and anyone can re-check it
(R3). No database, no
Streamlit. Vectorized: the work per player is done by numpy, the only Python loops run over
setups, over the per-table lists of leader names and over the problems an error lists.
Ruling numbers (R1, R3 …) refer to the project's RULINGS.md.
"""

from __future__ import annotations

import dataclasses
import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from stsa import balance, catalog
from stsa.domain import DrawMode, TournamentError, draw_seed, is_whole, require_columns
from stsa.i18n import N_, _, ngettext
from stsa.picks import (  # noqa: F401
    MOST_VOTES,
    ORGANIZER_CHOICE,
    RANDOM_CHOICE,
    VOTE_OFF_REMOVES,
    vote_off_removals,
    wild_card_draws,
)
from stsa.rules import table_sizes

SETUP_COLUMNS = ("setup_id", "hidden_picks", "leader_deck")
DRAW_MODES = tuple(m.value for m in DrawMode)


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
    mode: str = DrawMode.RANDOM  # with the pins and the history, what re-checking the draw needs
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
    mode: str = DrawMode.RANDOM,
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
        raise TournamentError(_("The draw mode must be {modes}, not {mode}.").format(
            modes=" or ".join(DRAW_MODES), mode=repr(mode)))
    rng = np.random.default_rng(draw_seed(seed))
    ids = _player_ids(player_ids)
    sit_outs: list = []
    if sit_out and len(ids) == 5:
        # R1: 5 is the only count that one sit-out makes seatable (4); 1 and 2 stay refused.
        out = int(rng.integers(len(ids)))
        sit_outs = ids.iloc[[out]].tolist()
        ids = ids.drop(index=ids.index[out]).reset_index(drop=True)
    sizes = np.asarray(table_sizes(len(ids)), dtype=np.int64)
    target = balance.pin_targets(pins, ids, sizes, sit_outs)
    # A random order, cut into tables of the R1 sizes, gives random player -> table -> seat.
    order = rng.permutation(len(ids))
    if target is not None:
        order = balance.place_pins(order, target, np.repeat(np.arange(len(sizes)), sizes), rng)
    seated = ids.iloc[order].reset_index(drop=True)
    plain = _finish(seated, sizes, setups, rng, seed, setup_counts, colours, sit_outs)
    how: dict = {"mode": mode, "pins": dict(pins or {})}
    if mode == DrawMode.RANDOM:
        return dataclasses.replace(plain, **how)
    seats, tables = balance.balance(plain.seats, plain.tables,
                                    None if target is None else target[order], history, rng)
    return dataclasses.replace(plain, seats=seats, tables=tables, **how)


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
    rng = np.random.default_rng(draw_seed(seed))
    groups = [list(g) for g in groups]
    if not groups:
        raise TournamentError(_("No tables to draw: give at least one group of players."))
    sizes = np.asarray([len(g) for g in groups], dtype=np.int64)
    bad = np.flatnonzero((sizes < 3) | (sizes > 4))
    if bad.size:
        size = int(sizes[bad[0]])
        raise TournamentError(ngettext(
            "Table {table} has {count} player; every table needs 3 or 4.",
            "Table {table} has {count} players; every table needs 3 or 4.", size).format(
                table=bad[0] + 1, count=size))
    ids = _player_ids([p for g in groups for p in g], where=N_("the tables"))
    table_no = np.repeat(np.arange(len(groups)), sizes)
    # Shuffle within each table only: sort by (table, random key).
    seated = ids.iloc[np.lexsort((rng.random(len(ids)), table_no))].reset_index(drop=True)
    return _finish(seated, sizes, setups, rng, seed, setup_counts, colours, [])



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





def _player_ids(player_ids: Iterable, where: str = N_("the check-in list")) -> pd.Series:
    ids = pd.Series(list(player_ids))
    blank = ids.isna() | (ids.astype(str).str.strip() == "")
    if blank.any():
        position = int(blank.to_numpy().argmax()) + 1
        raise TournamentError(_("The player at position {position} in {where} has no "
                                "id.").format(position=position, where=_(where)))
    dup = ids[ids.duplicated()].unique().tolist()
    if dup:
        raise TournamentError(ngettext(
            "Player {players} is listed more than once in {where}.",
            "Players {players} are listed more than once in {where}.", len(dup)).format(
                players=", ".join(map(str, dup[:10])), where=_(where)))
    return ids


def _counts(setup_ids: pd.Series, setup_counts: Mapping[str, int] | None) -> np.ndarray:
    """Uses so far of each enabled setup (missing = 0; ids not enabled are ignored)."""
    given = dict(setup_counts or {})
    counts = [given.get(setup_id, 0) for setup_id in setup_ids]
    bad = [(s, c) for s, c in zip(setup_ids, counts) if not is_whole(c) or c < 0]
    if bad:
        setup_id, uses = bad[0]
        raise TournamentError(
            _("Setup {setup} has {uses} uses so far; uses must be whole numbers from 0 "
              "up.").format(setup=repr(setup_id), uses=repr(uses)))
    return np.asarray(counts, dtype=np.int64)


def _check_setups(setups: pd.DataFrame, largest_table: int) -> pd.DataFrame:
    """The enabled setups, checked: ids once each, decks that leave every table a choice (R7)."""
    require_columns(setups, list(SETUP_COLUMNS), N_("The enabled setups"))
    if setups.empty:
        raise TournamentError(_("No setups are enabled: enable at least one setup before "
                                "drawing."))
    enabled = setups.reset_index(drop=True)
    dup = enabled["setup_id"].duplicated()
    if dup.any():
        raise TournamentError(_("Setup {setup} is enabled twice.").format(
            setup=repr(enabled.loc[dup, "setup_id"].iloc[0])))
    decks = []
    columns = zip(enabled["setup_id"], enabled["leader_deck"], enabled["hidden_picks"])
    for setup_id, deck, hidden in columns:
        if isinstance(deck, str) or not isinstance(deck, Iterable):
            raise TournamentError(
                _("The leader deck of setup {setup} must be a list of leader names.").format(
                    setup=repr(setup_id)))
        deck = [str(name) for name in deck]
        if not is_whole(hidden) or hidden < 0:
            raise TournamentError(
                _("Hidden picks of setup {setup} must be a whole number from 0 up, not "
                  "{hidden_picks}.").format(setup=repr(setup_id), hidden_picks=repr(hidden)))
        # Checked against the largest table of the sitting, not the drawn one, so whether a
        # sitting can be drawn never depends on the seed.
        if len(deck) - hidden < largest_table:
            raise TournamentError(
                _("Setup {setup}: its deck of {leaders} minus {hidden_picks} leaves {left}, "
                  "fewer than the {players} players at a table. Add leaders to its deck, lower "
                  "its hidden picks or disable it.").format(
                    setup=repr(setup_id),
                    leaders=ngettext("{count} leader", "{count} leaders",
                                     len(deck)).format(count=len(deck)),
                    hidden_picks=ngettext("{count} hidden pick", "{count} hidden picks",
                                          hidden).format(count=hidden),
                    left=max(len(deck) - hidden, 0), players=largest_table))
        decks.append(deck)
    return enabled.assign(leader_deck=decks)


def _palette(colours: Sequence[str] | None, largest_table: int) -> list[str]:
    palette = catalog.colours() if colours is None else [str(c).strip() for c in colours]
    if any(not c for c in palette) or len(set(palette)) != len(palette):
        raise TournamentError(_("The colours must be distinct and not blank."))
    if len(palette) < largest_table:
        raise TournamentError(ngettext(
            "{count} colour cannot give each player at a {players}-player table their own "
            "colour; give at least {players}.",
            "{count} colours cannot give each player at a {players}-player table their own "
            "colour; give at least {players}.", len(palette)).format(
                count=len(palette), players=largest_table))
    return palette
