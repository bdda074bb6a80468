"""The balanced draw (R3 with `stsa.fairness`): pinned players placed at their tables, then a
local search that rearranges a random draw's players and deals its setups to other tables so
that repeat meetings, uneven seats and replayed setups cost less. Arrays in, arrays out: the
draw (`stsa.draw`) calls it with its own random generator, so the seed still reproduces the
draw exactly."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from stsa import fairness
from stsa.domain import TournamentError, is_whole
from stsa.i18n import _, ngettext

# Searches from the random draw plus a few random starts; each search makes at most MAX_ROUNDS
# passes of player swaps and setup swaps.
MAX_ROUNDS = 8
_EPS = 1e-9

def pin_targets(pins: Mapping | None, ids: pd.Series, sizes: np.ndarray,
                 sit_outs: list) -> np.ndarray | None:
    """Each player's pinned table (0-based, -1 = free), in the order of `ids`; None without
    pins. Refuses pins of players not in the sitting, tables the sitting does not have, and
    more pins at a table than it has seats."""
    if not pins:
        return None
    if not isinstance(pins, Mapping):
        raise TournamentError(_("Pins must map each pinned player to a table number."))
    index = pd.Index(ids.tolist())
    target = np.full(len(ids), -1, dtype=np.int64)
    for player, table_no in pins.items():
        if player in sit_outs:
            continue
        if not is_whole(table_no) or not 1 <= table_no <= len(sizes):
            raise TournamentError(
                _("Player {player} is pinned to table {table}, but this sitting has tables "
                  "1 to {tables}.").format(player=player, table=repr(table_no),
                                           tables=len(sizes)))
        where = index.get_indexer([player])[0]
        if where < 0:
            raise TournamentError(_("Player {player} is pinned to a table but is not in this "
                                    "sitting: check them in or remove the pin.").format(
                                        player=player))
        target[where] = int(table_no) - 1
    crowded = np.flatnonzero(np.bincount(target[target >= 0], minlength=len(sizes)) > sizes)
    if crowded.size:
        t = int(crowded[0])
        raise TournamentError(ngettext(
            "Table {table} has {count} seat but more players are pinned to it: pin some of "
            "them to other tables.",
            "Table {table} has {count} seats but more players are pinned to it: pin some of "
            "them to other tables.", int(sizes[t])).format(table=t + 1, count=int(sizes[t])))
    return target if (target >= 0).any() else None


def place_pins(order: np.ndarray, target: np.ndarray, table: np.ndarray,
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


def balance(seats: pd.DataFrame, tables: pd.DataFrame, pin: np.ndarray | None,
            history: pd.DataFrame | None,
            rng: np.random.Generator) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The balanced draw: rearrange a drawn sitting's players (`seats`) and deal its setups
    (`tables`, as in `stsa.draw.Draw`) to other tables so that `fairness.draw_cost` is lower.
    Starts from the draw itself (so it never does worse) and from a few random arrangements;
    keeps the best, the first found among equals. Returns the new (seats, tables)."""
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
            x = place_pins(rng.permutation(n), pin, table, rng)
            sigma = rng.permutation(n_tables)
        x, sigma = _improve(slot_terms, x, sigma, table, cls, starts, pin, rng)
        cost = fairness.arrangement_cost(slot_terms, x, table, cls, sigma)
        if best is None or cost < best[0] - _EPS:
            best = (cost, x, sigma)
    assert best is not None  # the first start always sets it
    _cost, x, sigma = best
    moved = tables.iloc[sigma]
    return (seats.assign(player_id=seats["player_id"].iloc[x].reset_index(drop=True)),
            tables.assign(
                setup_id=pd.array(moved["setup_id"].to_numpy(dtype=object), dtype="str"),
                hidden_picks=moved["hidden_picks"].to_numpy(),
                removed_leaders=moved["removed_leaders"].tolist(),
                available_leaders=moved["available_leaders"].tolist()))


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
    for _round in range(MAX_ROUNDS):
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
