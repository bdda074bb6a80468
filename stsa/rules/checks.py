"""What the tournament maths share (R11–R18): the columns of results and standings, a frame's
columns and whole numbers checked with the game and player named, each game's seats and the
sort keys placings and ranks are read with. Private to `stsa.rules`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from stsa.domain import TournamentError
from stsa.i18n import _, ngettext

#: The tournament's order of strength within a game (R11): higher is better in each, in this
#: order. Note that it differs from the rulebooks' (troops before water).
PLACING_ORDER = ["vp", "spice", "solari", "troops", "water"]
RESULT_COLUMNS = ["game_id", "player_id", *PLACING_ORDER]
#: Base points for 1st, 2nd, 3rd and 4th place (R12; a tournament setting).
BASE_POINTS = (20, 15, 10, 0)
STANDINGS_COLUMNS = ["player_id", "rank", "best_score", "games", "wins", "placing", *PLACING_ORDER]
_MAX_LISTED = 5


# --- validation ---------------------------------------------------------------------------------

def _where(frame: pd.DataFrame, mask: np.ndarray) -> str:
    """'game 7, player 3; game 9, player 1 (and 4 more)' for the rows where `mask` holds."""
    bad = frame.loc[mask, ["game_id", "player_id"]].head(_MAX_LISTED)
    places = "; ".join(_("game {game}, player {player}").format(game=g, player=p)
                       for g, p in zip(bad["game_id"], bad["player_id"]))
    more = int(np.count_nonzero(mask)) - len(bad)
    return ngettext("{places} (and {count} more)", "{places} (and {count} more)", more).format(
        places=places, count=more) if more > 0 else places


def _require_columns(frame: object, columns: list[str], what: str) -> None:
    """`frame` is a table with every one of `columns`; `what` names it (the English words,
    marked with `N_`: translated when a message says them)."""
    if not isinstance(frame, pd.DataFrame):
        raise TournamentError(_("{what} must be a table (DataFrame), not {type}.").format(
            what=_(what), type=type(frame).__name__))
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise TournamentError(ngettext("{what} lack the column {columns}.",
                                       "{what} lack the columns {columns}.",
                                       len(missing)).format(what=_(what),
                                                            columns=", ".join(missing)))


def _whole_numbers(frame: pd.DataFrame, column: str, *, allow_negative: bool = False) -> np.ndarray:
    """`column` as int64, or a TournamentError naming the game and player of each bad value."""
    raw = frame[column]
    if pd.api.types.is_integer_dtype(raw.dtype) and not raw.hasnans:
        values = raw.to_numpy(dtype="int64")
    else:
        missing = raw.isna().to_numpy()
        if missing.any():
            raise TournamentError(_("{where}: {column} is missing.").format(
                where=_where(frame, missing), column=column))
        number = pd.to_numeric(raw, errors="coerce").to_numpy(dtype="float64", na_value=np.nan)
        not_whole = ~np.isfinite(number) | (np.floor(number) != number)
        if not_whole.any():
            raise TournamentError(_("{where}: {column} must be a whole number.").format(
                where=_where(frame, not_whole), column=column))
        values = number.astype("int64")
    if not allow_negative and (values < 0).any():
        raise TournamentError(_("{where}: {column} cannot be negative.").format(
            where=_where(frame, values < 0), column=column))
    return values


def _codes(ids: pd.Series) -> np.ndarray:
    """Ids as codes 0, 1, … in order of first appearance, -1 where missing. Sorted whole-number
    ids (the usual layout of a results table) are numbered without hashing."""
    values = ids.to_numpy()
    if values.dtype.kind in "iu" and len(values) and (values[1:] >= values[:-1]).all():
        return np.r_[0, np.cumsum(values[1:] != values[:-1])]
    return pd.factorize(ids, sort=False)[0]


def _seats_by_game(frame: pd.DataFrame) -> np.ndarray:
    """R1: check that each game has 3 or 4 distinct players.

    Returns a (4 × games) matrix of row indices: column g holds game g's rows (games in order of
    first appearance), row j its j-th player, -1 for the empty fourth seat of a three-player
    game. Working seat by seat keeps every step a plain array operation over all games.
    """
    game_codes = _codes(frame["game_id"])
    # Whole-number player ids need no numbering to spot a repeat.
    player_codes = (frame["player_id"].to_numpy(dtype="int64")
                    if frame["player_id"].dtype.kind in "iu" else _codes(frame["player_id"]))
    for column in ("game_id", "player_id"):
        if frame[column].hasnans:
            raise TournamentError(_("{where}: {column} is missing.").format(
                where=_where(frame, frame[column].isna().to_numpy()), column=column))
    counts = np.bincount(game_codes)
    wrong = (counts < 3) | (counts > 4)
    if wrong.any():
        games = frame["game_id"].to_numpy()[np.unique(game_codes, return_index=True)[1]]
        detail = "; ".join(
            ngettext("game {game} has {count} player", "game {game} has {count} players",
                     int(n)).format(game=g, count=n)
            for g, n in list(zip(games[wrong], counts[wrong]))[:_MAX_LISTED]
        )
        raise TournamentError(_("{games}: a game has 3 or 4 players.").format(games=detail))

    n = len(game_codes)
    in_order = bool((game_codes[1:] >= game_codes[:-1]).all())
    if in_order and (counts == 4).all():
        seats = np.arange(4)[:, None] + 4 * np.arange(len(counts))[None, :]
    else:
        by_game = np.arange(n) if in_order else np.argsort(game_codes, kind="stable")
        g = game_codes[by_game]
        seat = np.arange(n) - (np.cumsum(counts) - counts)[g]
        seats = np.full((4, len(counts)), -1)
        seats[seat, g] = by_game

    players = player_codes[seats]
    seated = seats >= 0
    for a, b in ((0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)):
        if ((players[a] == players[b]) & seated[a] & seated[b]).any():
            repeated = frame.duplicated(["game_id", "player_id"], keep="first").to_numpy()
            raise TournamentError(_("{where}: the player appears twice in the game.").format(
                where=_where(frame, repeated)))
    return seats


def _sort_seats(key: np.ndarray, seats: np.ndarray) -> np.ndarray:
    """`seats` (4 × games) reordered so that each game's rows run by ascending `key` (whole
    numbers ≥ 0), empty seats last: a five-comparator sorting network over all games at once."""
    n_bits = max(len(key) - 1, 1).bit_length()
    empty = np.iinfo("int64").max
    if int(key.max(initial=0)).bit_length() + n_bits <= 62:
        # Carry each row index in the low bits of its key, so only keys are compared.
        packed = np.where(seats >= 0, (key[seats] << n_bits) | seats, empty)
        k = list(packed)
        for a, b in ((0, 1), (2, 3), (0, 2), (1, 3), (1, 2)):
            k[a], k[b] = np.minimum(k[a], k[b]), np.maximum(k[a], k[b])
        ordered = np.stack(k)
        return np.where(ordered == empty, -1, ordered & ((1 << n_bits) - 1))
    k = [np.where(seats[j] >= 0, key[seats[j]], empty) for j in range(4)]
    r = list(seats)
    for a, b in ((0, 1), (2, 3), (0, 2), (1, 3), (1, 2)):
        swap = k[b] < k[a]
        k[a], k[b] = np.where(swap, k[b], k[a]), np.where(swap, k[a], k[b])
        r[a], r[b] = np.where(swap, r[b], r[a]), np.where(swap, r[a], r[b])
    return np.stack(r)


def _sort_key(*keys: tuple[np.ndarray, bool]) -> np.ndarray:
    """One int64 per row that orders rows as `keys` do (whole-number arrays, each with
    `descending`; the first key most significant): sorting it ascending puts the best first.

    The keys are packed into one number when their ranges fit (no sort needed); otherwise the
    rows are sorted once and numbered, equal rows sharing a number.
    """
    spans = []
    for values, _descending in keys:
        low, high = (int(values.min()), int(values.max())) if len(values) else (0, 0)
        spans.append((low, high, (high - low).bit_length()))
    if sum(bits for *_, bits in spans) <= 62:
        packed = np.zeros(len(keys[0][0]), dtype="int64")
        for (values, descending), (low, high, bits) in zip(keys, spans):
            part = np.subtract(high, values, dtype="int64") if descending else (
                np.subtract(values, low, dtype="int64"))
            np.left_shift(packed, bits, out=packed)
            np.bitwise_or(packed, part, out=packed)
        return packed
    columns = [(-v if d else v) for v, d in keys]
    order = np.lexsort(tuple(reversed(columns)))
    stacked = np.column_stack(columns)[order]
    differs = np.r_[True, (stacked[1:] != stacked[:-1]).any(axis=1)]
    dense = np.empty(len(order), dtype="int64")
    dense[order] = np.cumsum(differs)
    return dense
