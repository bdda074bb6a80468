"""How fair a draw is, given the earlier sittings: the cost a balanced draw lowers, and the
draw report the organizer checks before publishing.

A draw is fairer when fewer pairs of players meet again (the more often they met, the worse),
when every player's seats even out (no one keeps the same seat; everyone's mean seat tends to
the middle of the table) and when players meet setups they have not played yet. R3 keeps the
draw random; R6 keeps the setups balanced; these terms only choose among such draws.

`history` is a frame of earlier seats, one row per seated player: `sitting_id, table_no, seat,
player_id, setup_id` (as `store.seats` merged with `store.tables`). Pure: numpy and pandas only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from stsa.domain import TournamentError
from stsa.i18n import _

HISTORY_COLUMNS = ("sitting_id", "table_no", "seat", "player_id", "setup_id")
# What one unit of each kind of unfairness costs: a pair meeting again for the k-th time costs
# meet·k²; a seat the player had c times before costs seat_repeat·c; a player whose seats so
# far sum to Z places from the middle costs seat_mean·((Z + z)² − Z²) for a seat z from the
# middle; a setup the player played c times before costs setup·c².
WEIGHTS: Mapping[str, float] = {"meet": 4.0, "seat_repeat": 0.5, "seat_mean": 1.0, "setup": 1.0}
# The seat classes: (table size, seat). A player's seat cost is looked up by class.
SEAT_CLASSES = ((4, 1), (4, 2), (4, 3), (4, 4), (3, 1), (3, 2), (3, 3))


@dataclass(frozen=True)
class Past:
    """What the earlier sittings say about the players of one draw (index = player position in
    `player_ids`): `met[i, j]` meetings of i and j, `seats[i, s - 1]` times i had seat s,
    `offset[i]` the sum of i's seats' distances from their table's middle, `setups[i, k]`
    times i played `setup_ids[k]`."""

    met: np.ndarray
    seats: np.ndarray
    offset: np.ndarray
    setups: np.ndarray


@dataclass(frozen=True)
class Terms:
    """The cost of an arrangement, as arrays: `meet[i, j]` for i and j at one table (counted
    once per pair), `seat[i, c]` for i in seat class c (`SEAT_CLASSES`), `setup[i, k]` for i
    playing `setup_ids[k]`."""

    meet: np.ndarray
    seat: np.ndarray
    setup: np.ndarray


@dataclass(frozen=True)
class DrawReport:
    """A draw's checklist against the earlier sittings.

    `repeats`: pairs at one table who met before: `table_no, player_a, player_b, met_before`.
    `seats`: players getting a seat they had at least twice, or had before and most often:
    `table_no, seat, player_id, times_before, games_before`.
    `setups`: players getting a setup they played before: `table_no, player_id, setup_id,
    times_before`.
    """

    repeats: pd.DataFrame
    seats: pd.DataFrame
    setups: pd.DataFrame

    def summary(self) -> dict[str, int]:
        return {"repeat_pairs": len(self.repeats), "repeated_seats": len(self.seats),
                "repeated_setups": len(self.setups)}


def empty_history() -> pd.DataFrame:
    return pd.DataFrame({c: pd.Series(dtype="str" if c == "setup_id" else "int64")
                         for c in HISTORY_COLUMNS})


def seat_class(size, seat) -> np.ndarray:
    """The `SEAT_CLASSES` index of each (table size, seat)."""
    size, seat = np.asarray(size, dtype=np.int64), np.asarray(seat, dtype=np.int64)
    return np.where(size == 4, seat - 1, seat + 3)


def past(history: pd.DataFrame | None, player_ids: Sequence, setup_ids: Sequence) -> Past:
    """Count meetings, seats and setups of `player_ids` in `history` (others are ignored)."""
    n, k = len(player_ids), len(setup_ids)
    met = np.zeros((n, n), dtype=np.int64)
    seats = np.zeros((n, 4), dtype=np.int64)
    offset = np.zeros(n, dtype=np.float64)
    setups = np.zeros((n, k), dtype=np.int64)
    if history is None or len(history) == 0:
        return Past(met, seats, offset, setups)
    missing = [c for c in HISTORY_COLUMNS[:4] if c not in history.columns]
    if missing:
        raise TournamentError(_("The earlier seats lack the column(s) {columns}.").format(
            columns=", ".join(missing)))
    group = pd.factorize(history["sitting_id"].to_numpy(dtype=np.int64) * (1 << 32)
                         + history["table_no"].to_numpy(dtype=np.int64))[0]
    size = np.bincount(group)[group]
    idx = pd.Index(pd.Series(list(player_ids), dtype=object)).get_indexer(
        pd.Series(history["player_id"].tolist(), dtype=object))
    seat = history["seat"].to_numpy(dtype=np.int64)
    here = idx >= 0
    ok = here & (seat >= 1) & (seat <= 4)
    np.add.at(seats, (idx[ok], seat[ok] - 1), 1)
    np.add.at(offset, idx[ok], seat[ok] - (size[ok] + 1) / 2)
    rows = pd.DataFrame({"g": group[here], "i": idx[here]})
    pairs = rows.merge(rows, on="g")
    pairs = pairs.loc[pairs["i_x"] != pairs["i_y"]]
    np.add.at(met, (pairs["i_x"].to_numpy(), pairs["i_y"].to_numpy()), 1)
    if "setup_id" in history.columns and k:
        s = pd.Index(list(setup_ids)).get_indexer(history["setup_id"].astype(str))
        both = here & (s >= 0)
        np.add.at(setups, (idx[both], s[both]), 1)
    return Past(met, seats, offset, setups)


def terms(history: pd.DataFrame | None, player_ids: Sequence, setup_ids: Sequence,
          weights: Mapping[str, float] = WEIGHTS) -> Terms:
    """The cost arrays of a draw of `player_ids` with `setup_ids` after `history`."""
    p = past(history, player_ids, setup_ids)
    size = np.array([c[0] for c in SEAT_CLASSES])
    seat = np.array([c[1] for c in SEAT_CLASSES])
    z = seat - (size + 1) / 2
    seat_cost = (weights["seat_repeat"] * p.seats[:, seat - 1]
                 + weights["seat_mean"] * (2 * p.offset[:, None] * z + z ** 2))
    return Terms(meet=weights["meet"] * p.met.astype(np.float64) ** 2, seat=seat_cost,
                 setup=weights["setup"] * p.setups.astype(np.float64) ** 2)


def arrangement_cost(t: Terms, players: np.ndarray, table: np.ndarray, cls: np.ndarray,
                     table_setup: np.ndarray) -> float:
    """The cost of seating player `players[p]` at position p (table `table[p]`, seat class
    `cls[p]`), table t playing setup `table_setup[t]` (indexes into the terms)."""
    players = np.asarray(players)
    same = table[:, None] == table[None, :]
    pair = float((t.meet[np.ix_(players, players)] * same).sum()) / 2
    unary = t.seat[players, cls].sum() + t.setup[players, table_setup[table]].sum()
    return pair + float(unary)


def draw_cost(seats: pd.DataFrame, tables: pd.DataFrame, history: pd.DataFrame | None,
              weights: Mapping[str, float] = WEIGHTS) -> float:
    """The cost a balanced draw lowers, for any drawn sitting (`Draw.seats`, `Draw.tables`)."""
    ids = seats["player_id"].tolist()
    setup_ids = list(dict.fromkeys(tables["setup_id"].astype(str)))
    t = terms(history, ids, setup_ids, weights)
    table = seats["table_no"].to_numpy(dtype=np.int64) - 1
    size = np.bincount(table)[table]
    setup_of = pd.Index(setup_ids).get_indexer(
        tables.sort_values("table_no")["setup_id"].astype(str))
    return arrangement_cost(t, np.arange(len(ids)), table,
                            seat_class(size, seats["seat"].to_numpy()), setup_of)


def draw_report(seats: pd.DataFrame, tables: pd.DataFrame,
                history: pd.DataFrame | None) -> DrawReport:
    """R3, R6 checklist of a drawn sitting (either mode) against the earlier sittings."""
    ids = seats["player_id"].tolist()
    setup_ids = list(dict.fromkeys(tables["setup_id"].astype(str)))
    p = past(history, ids, setup_ids)
    position = pd.DataFrame({"table_no": seats["table_no"].to_numpy(), "i": np.arange(len(ids))})
    pairs = position.merge(position, on="table_no")
    pairs = pairs.loc[pairs["i_x"] < pairs["i_y"]]
    met = p.met[pairs["i_x"].to_numpy(), pairs["i_y"].to_numpy()]
    keep = met > 0
    id_array = np.asarray(ids, dtype=object)
    repeats = pd.DataFrame({
        "table_no": pairs["table_no"].to_numpy()[keep],
        "player_a": id_array[pairs["i_x"].to_numpy()[keep]],
        "player_b": id_array[pairs["i_y"].to_numpy()[keep]],
        "met_before": met[keep].astype(np.int64)})

    seat = seats["seat"].to_numpy(dtype=np.int64)
    times = p.seats[np.arange(len(ids)), np.clip(seat, 1, 4) - 1]
    flagged = (times >= 2) | ((times >= 1) & (times == p.seats.max(axis=1)))
    seat_rows = pd.DataFrame({
        "table_no": seats["table_no"].to_numpy()[flagged], "seat": seat[flagged],
        "player_id": id_array[flagged], "times_before": times[flagged],
        "games_before": p.seats.sum(axis=1)[flagged]})

    setup_of_table = dict(zip(tables["table_no"], tables["setup_id"].astype(str)))
    setup = seats["table_no"].map(setup_of_table).to_numpy(dtype=object)
    played = p.setups[np.arange(len(ids)), pd.Index(setup_ids).get_indexer(setup)]
    again = played > 0
    setup_rows = pd.DataFrame({
        "table_no": seats["table_no"].to_numpy()[again], "player_id": id_array[again],
        "setup_id": setup[again], "times_before": played[again]})
    return DrawReport(repeats=repeats.reset_index(drop=True),
                      seats=seat_rows.reset_index(drop=True),
                      setups=setup_rows.reset_index(drop=True))
