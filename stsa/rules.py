"""Pure, vectorized tournament maths: table sizes, placings, qualifier scores, standings, finals.

No I/O, no randomness. Ruling numbers (R1, R11 …) refer to the project's RULINGS.md.
Every function takes and returns pandas frames with the columns of DESIGN.md's core API, and
raises `TournamentError` (a `ValueError`) naming the game and player for impossible input.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

import numpy as np
import pandas as pd

from stsa.domain import TournamentError, is_whole
from stsa.i18n import N_, _, ngettext

#: The tournament's order of strength within a game (R11): higher is better in each, in this
#: order. Note that it differs from the rulebooks' (troops before water).
PLACING_ORDER = ["vp", "spice", "solari", "troops", "water"]
RESULT_COLUMNS = ["game_id", "player_id", *PLACING_ORDER]
#: Base points for 1st, 2nd, 3rd and 4th place (R12; a tournament setting).
BASE_POINTS = (20, 15, 10, 0)
STANDINGS_COLUMNS = ["player_id", "rank", "best_score", "games", "wins", "placing", *PLACING_ORDER]
_MAX_LISTED = 5


# --- R1 -----------------------------------------------------------------------------------------

def table_sizes(n_players: int) -> list[int]:
    """R1: seat `n_players` at ceil(n/4) tables, as many four-player tables as possible.

    Four-player tables come first (they get the lowest table numbers). 0, 1, 2 and 5 players
    cannot be seated under the rules and raise a `TournamentError` (a `ValueError`) that says
    what the organizer can do.
    """
    if not is_whole(n_players):
        raise TournamentError(_("The number of players must be a whole number, not "
                                "{value}.").format(value=repr(n_players)))
    n = int(n_players)
    if n < 0:
        raise TournamentError(_("The number of players cannot be negative ({count}).").format(
            count=n))
    if n == 0:
        raise TournamentError(_("No players to seat: check in at least 3 players."))
    tables = -(-n // 4)
    threes = 4 * tables - n
    if threes > tables:
        if n == 5:
            hint = _("add a player, or let the draw pick one checked-in player to sit this "
                     "sitting out")
        else:
            hint = ngettext("check in at least {count} more player",
                            "check in at least {count} more players", 3 - n).format(count=3 - n)
        raise TournamentError(ngettext(
            "{count} player cannot be seated: every table needs 3 or 4 players; {hint}.",
            "{count} players cannot be seated: every table needs 3 or 4 players; {hint}.",
            n).format(count=n, hint=hint))
    return [4] * (tables - threes) + [3] * threes


# --- R21: a sitting's capacity and its waiting list ---------------------------------------------

QUEUE_COLUMNS = ["player_id", "registration_order", "checked_in_at"]


def _queue_order(players: pd.DataFrame) -> pd.DataFrame:
    """Pre-registered players first, by registration order; then drop-ins by check-in time;
    players never checked in last; player id settles what is still equal."""
    return (players.assign(_drop_in=players["registration_order"].isna())
            .sort_values(["_drop_in", "registration_order", "checked_in_at", "player_id"],
                         kind="stable", na_position="last")
            .drop(columns="_drop_in"))


def seat_queue(players: pd.DataFrame, capacity: int, extra_tables: int = 0, *,
               bookings: pd.DataFrame | None = None,
               deadline: pd.Timestamp | None = None) -> pd.DataFrame:
    """R21: who plays a qualifier sitting of `capacity` seats and who waits.

    `players` has `player_id`, `registration_order` (1, 2, … for pre-registered players; NA
    for a drop-in) and `checked_in_at` (NaT for a player seated without checking in). Seats go
    first to pre-registered players in registration order, then to drop-ins in the order they
    checked in (players never checked in after them); the player id settles ties. Beyond the
    capacity, `extra_tables` tables of exactly four players are opened from the front of the
    waiting list: more than the waiting list fills raises `TournamentError`.

    R25: with `bookings` (the sitting's booking list: `player_id, position`, 1 = booked
    first, and optional `replaced_by`, a waiting player the organizer gave the seat to) the
    priority goes first to the players booked for this sitting, in booking order, then to
    everyone else (a player booked only for another sitting included) in check-in order;
    registration order does not count. A seat is held for each booked player not among
    `players` (nobody is moved into it by itself). `deadline` is the sitting's check-in
    deadline once it has passed (None before it, or when no start is planned): only then does
    a `replaced_by` count: the replacement takes the booked position and the seat is no longer
    held; the booked player keeps the booking but, arriving later, queues as a drop-in. The
    result then also has `booking_order` (Int64: the player's own booked position, NA if not
    booked here) and `priority` ("booked"; "late": booked, checked in after the deadline and
    still holding the seat; "replacement"; "replaced"; "drop-in").

    Returns the players in queue order with `queue` (1, 2, …), `plays` (bool) and `waiting`
    (Int64: 1 = next in line; NA for a player who plays).
    """
    _require_columns(players, QUEUE_COLUMNS, N_("The players to seat"))
    for value, what in ((capacity, N_("The capacity")), (extra_tables, N_("The extra tables"))):
        if not is_whole(value) or value < 0:
            raise TournamentError(_("{what} must be a whole number, 0 or more, not "
                                    "{value}.").format(what=_(what), value=repr(value)))
    held, ordered = 0, None
    if bookings is not None:
        ordered, held = _booked_order(players[QUEUE_COLUMNS], bookings, deadline)
    free = max(int(capacity) - held, 0)
    over = len(players) - free
    if extra_tables and 4 * int(extra_tables) > over:
        waiting = max(over, 0)
        waits = ngettext("{count} player is waiting", "{count} players are waiting",
                         waiting).format(count=waiting)
        raise TournamentError(ngettext(
            "{count} extra table of four needs {players} players from the waiting list, and "
            "{waiting}: an extra table seats exactly four.",
            "{count} extra tables of four need {players} players from the waiting list, and "
            "{waiting}: an extra table seats exactly four.", int(extra_tables)).format(
                count=extra_tables, players=4 * extra_tables, waiting=waits))
    seats = free + 4 * int(extra_tables)
    if ordered is None:
        ordered = _queue_order(players[QUEUE_COLUMNS]).reset_index(drop=True)
    queue = np.arange(1, len(ordered) + 1)
    plays = queue <= seats
    return ordered.assign(queue=queue, plays=plays,
                          waiting=pd.Series(queue - seats).where(~plays).astype("Int64"))


BOOKING_COLUMNS = ["player_id", "position"]


def _booked_order(players: pd.DataFrame, bookings: pd.DataFrame,
                  deadline: pd.Timestamp | None) -> tuple[pd.DataFrame, int]:
    """R25: the queue order of a sitting with a booking list (see `seat_queue`), and how many
    seats are held for booked players not here (whose seats nobody was given)."""
    _require_columns(bookings, BOOKING_COLUMNS, N_("The bookings"))
    here = set(players["player_id"])
    given = (bookings["replaced_by"].notna() & bookings["replaced_by"].isin(here)
             if deadline is not None and "replaced_by" in bookings
             else pd.Series(False, index=bookings.index))
    held = int((~bookings["player_id"].isin(here) & ~given).sum())
    position = bookings.set_index("player_id")["position"]
    booked = players["player_id"].map(position).astype("Int64")
    lost = players["player_id"].isin(bookings.loc[given, "player_id"]).to_numpy()
    keeps = booked.notna().to_numpy() & ~lost
    offered = (bookings.loc[given].astype({"replaced_by": "int64"})
               .groupby("replaced_by")["position"].min())
    replacing = players["player_id"].map(offered).astype("Int64")
    key = booked.where(keeps)
    first = pd.concat([key, replacing], axis=1).min(axis=1, skipna=True).astype("Int64")
    arrived = players["checked_in_at"]
    late = (np.zeros(len(players), dtype=bool) if deadline is None else
            (arrived.isna() | (arrived > pd.Timestamp(deadline))).to_numpy())
    takes = (replacing.notna() & (key.isna() | (replacing < key))).fillna(False).to_numpy()
    priority = np.select([takes, keeps & late, keeps, lost],
                         ["replacement", "late", "booked", "replaced"], "drop-in")
    ordered = (players.assign(booking_order=booked, priority=priority, _first=first,
                              _drop_in=first.isna())
               .sort_values(["_drop_in", "_first", "checked_in_at", "player_id"],
                            kind="stable", na_position="last")
               .drop(columns=["_first", "_drop_in"]).reset_index(drop=True))
    return ordered, held


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


# --- R11, R12: placings and qualifier scores ---------------------------------------------------

def score_games(results: pd.DataFrame, base_points: tuple[int, ...] = BASE_POINTS) -> pd.DataFrame:
    """R11, R12: add `placing`, `qualifier_score` and `tied` to a frame of game results.

    `results` has one row per player per game: `game_id, player_id, vp, spice, solari, troops,
    water`, optionally `variant_points` (default 0) and `tiebreak` (a judge's settled order for
    players equal on all five; lower is better).

    - Placing (R11): VP, then spice, solari, troops in garrison, water; higher is better. Players
      equal on all five share the better placing and are flagged `tied`, unless every one of them
      has a distinct `tiebreak`, which then settles their order.
    - Qualifier score (R12): 1st 20 + (own VP − VP of the player placed next), 2nd 15 + (…),
      3rd 10 + (…) or 10 at a three-player table, 4th 0; plus `variant_points`. The player
      "placed next" is the one at the next position in the game's order, so players sharing a
      placing get the same score.

    Returns a copy of `results` (same index and row order) with the three columns added.
    """
    _require_columns(results, RESULT_COLUMNS, N_("Results"))
    if len(base_points) != 4:
        raise TournamentError(_("Base points need four numbers: 1st, 2nd, 3rd and 4th place."))
    if results.empty:
        return results.assign(placing=pd.Series(dtype="int64"),
                              qualifier_score=pd.Series(dtype="int64"),
                              tied=pd.Series(dtype="bool"))

    seats = _seats_by_game(results)
    stats = [_whole_numbers(results, c) for c in PLACING_ORDER]
    variant = (_whole_numbers(results, "variant_points", allow_negative=True)
               if "variant_points" in results.columns else None)
    tiebreak = (pd.to_numeric(results["tiebreak"], errors="coerce")
                .to_numpy(dtype="float64", na_value=np.nan)
                if "tiebreak" in results.columns else None)
    settling = tiebreak is not None and not np.isnan(tiebreak).all()

    # Every game's players in order: best first on the five (R11), then by the judge's order
    # (as a dense rank, unset last).
    strength = _sort_key(*((v, True) for v in stats))
    key = strength
    if settling:
        assert tiebreak is not None  # settling needs a tiebreak column
        given = ~np.isnan(tiebreak)
        tiebreak_rank = np.where(given, pd.factorize(tiebreak, sort=True)[0], given.sum())
        key = _sort_key((strength, False), (tiebreak_rank, False))
    seats = _sort_seats(key, seats)
    seated = seats >= 0
    players_at_table = seated.sum(axis=0)

    # A player equal on all five to the player before them is in the same tie group.
    k = strength[seats]
    same_as_previous = np.zeros(seats.shape, dtype=bool)
    same_as_previous[1:] = (k[1:] == k[:-1]) & seated[1:]
    if settling:
        # A tie group stays open unless the judge gave every member a distinct tiebreak:
        # spread "open" forwards, then backwards, through each group.
        assert tiebreak is not None
        t = tiebreak[seats]
        open_tie = np.isnan(t)
        open_tie[1:] |= same_as_previous[1:] & (t[1:] == t[:-1])
        for j in range(1, 4):
            open_tie[j] |= same_as_previous[j] & open_tie[j - 1]
        for j in range(2, -1, -1):
            open_tie[j] |= same_as_previous[j + 1] & open_tie[j + 1]
    else:
        open_tie = np.ones(seats.shape, dtype=bool)
    shares_previous = same_as_previous & open_tie
    tied = shares_previous.copy()
    tied[:-1] |= shares_previous[1:]

    # Placing: a new placing at each seat, unless the player shares the one before.
    placing = np.ones(seats.shape, dtype="int64")
    for j in range(1, 4):
        placing[j] = np.where(shares_previous[j], placing[j - 1], j + 1)

    # R12: base points, plus the VP margin to the player at the next position (none for 4th
    # place or the last player at a table), plus variant points.
    vp = stats[0][seats]
    next_vp = np.where(placing == 1, vp[1], np.where(placing == 2, vp[2], vp[3]))
    has_next = (placing < players_at_table) & (placing <= 3)
    score = np.take(np.asarray(base_points, dtype="int64"), placing - 1)
    score += np.where(has_next, vp - next_vp, 0)
    if variant is not None:
        score += variant[seats]

    columns = {"placing": placing, "qualifier_score": score, "tied": tied}
    everyone = bool(seated.all())
    rows = seats.ravel() if everyone else seats[seated]
    out = {}
    for name, values in columns.items():
        out[name] = np.empty(len(results), dtype=values.dtype)
        out[name][rows] = values.ravel() if everyone else values[seated]
    return results.assign(**out)


def _scored(frame: pd.DataFrame | None, what: str) -> pd.DataFrame:
    """`frame` with placings and scores: scored already, or scored now (R11, R12)."""
    if frame is None:
        return pd.DataFrame(columns=[*RESULT_COLUMNS, "placing", "qualifier_score", "tied"])
    _require_columns(frame, ["game_id", "player_id"], what)
    if {"placing", "qualifier_score"} <= set(frame.columns):
        return frame if "tied" in frame.columns else frame.assign(tied=False)
    return score_games(frame)


# --- R14, R15: standings -------------------------------------------------------------------------

def _numbered(ids: pd.Series) -> tuple[np.ndarray, np.ndarray]:
    """Codes 0, 1, … for `ids`, and the id of each code, in ascending id order where ids can be
    ordered. Whole-number ids in a compact range are numbered by counting, without hashing."""
    values = ids.to_numpy()
    if values.dtype.kind in "iu" and len(values):
        low, high = int(values.min()), int(values.max())
        if high - low <= 4 * len(values):
            present = np.bincount(values - low, minlength=high - low + 1) > 0
            return (np.cumsum(present) - 1)[values - low], np.flatnonzero(present) + low
    try:
        codes, uniques = pd.factorize(ids, sort=True)
    except TypeError:  # ids of mixed kinds cannot be ordered: keep order of appearance
        codes, uniques = pd.factorize(ids, sort=False)
    return codes, uniques.to_numpy()


def _best_games(scored: pd.DataFrame) -> pd.DataFrame:
    """Per player: the best game (R14's order), its score, the second-best score (below every
    score for a player with one game), games and wins."""
    codes, players = _numbered(scored["player_id"])
    n_players = len(players)
    score = scored["qualifier_score"].to_numpy(dtype="int64")
    placing = scored["placing"].to_numpy(dtype="int64")
    stats = [scored[c].to_numpy(dtype="int64") for c in PLACING_ORDER]
    lowest = score.min(initial=0) - 1
    best_score = np.full(n_players, lowest)
    np.maximum.at(best_score, codes, score)
    # Only games with the player's best score compete for "best game": among them the lowest
    # key wins (placing low, then VP, spice, solari, troops, water high).
    top = np.flatnonzero(score == best_score[codes])
    key = _sort_key((placing[top], False), *((v[top], True) for v in stats))
    best_key = np.full(n_players, np.iinfo("int64").max)
    np.minimum.at(best_key, codes[top], key)
    winners = top[key == best_key[codes[top]]]
    best_row = np.empty(n_players, dtype="int64")
    best_row[codes[winners]] = winners  # where games tie exactly, any one describes the best
    # The second-best score: another game with the best score, or the best of the others; a
    # player with one game has none, which ranks below every score.
    rest = score != best_score[codes]
    other_best = np.full(n_players, lowest)
    np.maximum.at(other_best, codes[rest], score[rest])
    second = np.where(np.bincount(codes[top], minlength=n_players) > 1, best_score, other_best)
    return pd.DataFrame({
        "player_id": players,
        "best_score": best_score,
        "games": np.bincount(codes, minlength=n_players),
        "wins": np.bincount(codes[placing == 1], minlength=n_players),
        "placing": placing[best_row],
        **{col: values[best_row] for col, values in zip(PLACING_ORDER, stats)},
        "second_score": second,
    })


def _rank_players(best: pd.DataFrame) -> pd.DataFrame:
    """R14: order by best score, the best game's placing, VP … water, then second-best score
    (none ranks lowest); players equal on all of these share the better ("min") rank."""
    key = _sort_key((best["best_score"].to_numpy(), True), (best["placing"].to_numpy(), False),
                    *((best[c].to_numpy(), True) for c in PLACING_ORDER),
                    (best["second_score"].to_numpy(), True))
    # Players come in id order (see _numbered): a stable sort lists those who share a rank by
    # id, so the table reads the same every time.
    order = np.argsort(key, kind="stable")
    key = key[order]
    differs = np.r_[True, key[1:] != key[:-1]]
    position = np.arange(1, len(order) + 1)
    return (best.iloc[order]
            .reset_index(drop=True)
            .assign(rank=np.maximum.accumulate(np.where(differs, position, 0))))


def standings(scored: pd.DataFrame) -> pd.DataFrame:
    """R14, R15: one row per player, best first.

    Columns: `player_id, rank, best_score, games, wins` and the best game's `placing, vp, spice,
    solari, troops, water`. Only a player's best qualifier score counts (R14); equal best scores
    are ordered by that game's placing, then VP, spice, solari, troops, water, then by the
    second-best score (a player with one game has none, which ranks lowest); players still equal
    share a rank. `wins` counts games placed 1st: a winning player (R15) has at least one.
    Pass the scored qualifier games (from `score_games`); unscored results are scored first.
    """
    scored = _scored(scored, N_("Scored results"))
    if scored.empty:
        return pd.DataFrame({c: pd.Series(dtype="int64") for c in STANDINGS_COLUMNS}).astype(
            {"player_id": scored["player_id"].dtype if "player_id" in scored else "int64"})
    return (scored
            .pipe(_best_games)
            .pipe(_rank_players)
            .loc[:, STANDINGS_COLUMNS])


# --- R16, R17, R18: finals ------------------------------------------------------------------

@dataclass(frozen=True)
class FinalsFormat:
    """R16 for N qualifier players: X = `direct`, Y = `semifinal` players at `semifinal_tables`.

    `advance` is how many final seats the semifinal winners can take. With `challenge` (4–16
    players) the one semifinal winner takes the weakest finalist's seat (`weakest_finalist`: the
    lowest best qualifier score in the final, a wildcard included) only by beating that player's
    best qualifier score.
    """

    n_players: int
    direct: int
    semifinal: int
    semifinal_tables: int
    advance: int
    challenge: bool

    @property
    def cut(self) -> int:
        """How many players the finals take before wildcards: X + Y."""
        return self.direct + self.semifinal


def finals_format(n_players: int) -> FinalsFormat:
    """R16: the finals for N players who played at least one qualifier game.

    4–16: X = 4, Y = 4 (with N < 8, the N − 4 others if at least 3, else no semifinal), one
    semifinal whose winner challenges the weakest finalist. 17–32: X = 3, Y = 8 at two
    semifinals, the better winner advances. 33+: X = 2, Y = 12 at three semifinals, the two best
    winners advance.
    Fewer than 4 players: no finals (`TournamentError`).
    """
    if not is_whole(n_players):
        raise TournamentError(_("The number of players must be a whole number, not "
                                "{value}.").format(value=repr(n_players)))
    n = int(n_players)
    if n < 4:
        raise TournamentError(ngettext("{count} qualifier player: finals need at least 4.",
                                       "{count} qualifier players: finals need at least 4.",
                                       n).format(count=n))
    if n <= 16:
        semifinal = 4 if n >= 8 else (n - 4 if n - 4 >= 3 else 0)
        tables = 1 if semifinal else 0
        return FinalsFormat(n, 4, semifinal, tables, tables, challenge=bool(semifinal))
    if n <= 32:
        return FinalsFormat(n, 3, 8, 2, 1, challenge=False)
    return FinalsFormat(n, 2, 12, 3, 2, challenge=False)


def _in_rank_order(standings_frame: pd.DataFrame) -> pd.DataFrame:
    _require_columns(standings_frame, ["player_id", "rank"], N_("Standings"))
    if standings_frame["player_id"].duplicated().any():
        dup = standings_frame.loc[standings_frame["player_id"].duplicated(), "player_id"].iloc[0]
        raise TournamentError(_("Standings list player {player} twice.").format(player=dup))
    return standings_frame.sort_values("rank", kind="stable", ignore_index=True)


def finals_entrants(standings: pd.DataFrame, present: Collection | None = None) -> pd.DataFrame:
    """R16, R17: who plays the final directly and who plays the semifinals.

    The best X players by standing go to the final, the next Y to the semifinals (R16). When a
    player in the cut is absent (not in `present`; None means everyone is present), their seat
    goes to the best-ranked present player below the cut who is a winning player (R15), or, if
    there is none, to the best-ranked present player below the cut (R17). Wildcards take the
    absent player's stage and are marked `wildcard`. Seats no one can fill stay empty.

    Returns `player_id, stage` ("final" or "semifinal"), `wildcard`, finalists first, each stage
    in seat order (by standing, a wildcard in the place of the player they replace).
    """
    ranked = _in_rank_order(standings)
    _require_columns(ranked, ["wins"], N_("Standings"))
    fmt = finals_format(len(ranked))
    is_present = (np.ones(len(ranked), dtype=bool) if present is None
                  else ranked["player_id"].isin(list(present)).to_numpy())
    position = np.arange(len(ranked))
    in_cut = position < fmt.cut
    stage = np.where(position < fmt.direct, "final", "semifinal")

    # R17: winning players first, then the rest, each by standing.
    candidates = (ranked.assign(_position=position, _winner=ranked["wins"].to_numpy() > 0)
                  .loc[~in_cut & is_present]
                  .sort_values(["_winner", "_position"], ascending=[False, True], kind="stable"))
    open_seats = np.flatnonzero(in_cut & ~is_present)
    takers = candidates["player_id"].to_numpy()[:len(open_seats)]

    kept = pd.DataFrame({"player_id": ranked["player_id"].to_numpy()[in_cut & is_present],
                         "stage": stage[in_cut & is_present], "wildcard": False,
                         "_seat": position[in_cut & is_present]})
    wildcards = pd.DataFrame({"player_id": takers, "stage": stage[open_seats[:len(takers)]],
                              "wildcard": True, "_seat": open_seats[:len(takers)]})
    return (pd.concat([kept, wildcards], ignore_index=True)
            .astype({"player_id": ranked["player_id"].dtype, "wildcard": "bool"})
            .sort_values("_seat", kind="stable", ignore_index=True)
            .drop(columns="_seat"))


def cut_ties(standings: pd.DataFrame) -> pd.DataFrame:
    """R14: players who share a rank across a cut line of R16, for the organizer to settle.

    Returns `player_id, rank, cut` where `cut` names the line ("final" between X and Y,
    "semifinal" below Y); empty when no shared rank straddles a line or there are no finals.
    """
    ranked = _in_rank_order(standings)
    empty = pd.DataFrame({"player_id": ranked["player_id"].iloc[:0],
                          "rank": pd.Series(dtype="int64"), "cut": pd.Series(dtype="str")})
    if len(ranked) < 4:
        return empty
    fmt = finals_format(len(ranked))
    lines = [(fmt.direct, "final")] + ([(fmt.cut, "semifinal")] if fmt.semifinal else [])
    rank = ranked["rank"].to_numpy()
    parts = [
        ranked.loc[rank == rank[line - 1], ["player_id", "rank"]].assign(cut=name)
        for line, name in lines
        if line < len(ranked) and rank[line] == rank[line - 1]
    ]
    return pd.concat([empty, *parts], ignore_index=True) if parts else empty


def _game_winners(semifinal_scored: pd.DataFrame, ranked: pd.DataFrame) -> pd.DataFrame:
    """Each semifinal's winner, best first: semifinal score, that game's tiebreakers, standing."""
    unsettled = semifinal_scored["tied"].astype(bool) & (semifinal_scored["placing"] == 1)
    if unsettled.any():
        games = ", ".join(str(g) for g in pd.unique(semifinal_scored.loc[unsettled, "game_id"]))
        raise TournamentError(_("Semifinal game {games}: first place is tied; settle the order "
                                "before the final table is set.").format(games=games))
    standing = pd.Series(np.arange(len(ranked)), index=ranked["player_id"].to_numpy())
    return (semifinal_scored.loc[semifinal_scored["placing"] == 1]
            .assign(_standing=lambda d: d["player_id"].map(standing))
            .sort_values(["qualifier_score", *PLACING_ORDER, "_standing"],
                         ascending=[False] * 6 + [True], kind="stable"))


def weakest_finalist(standings: pd.DataFrame, entrants: pd.DataFrame):
    """R16: the finalist a 4–16-player semifinal winner contests, or None with no finalists.

    Of the players seated in the final by `entrants` (from `finals_entrants`), a wildcard who
    took a direct seat included (R17): the one with the lowest best qualifier score; between
    equal scores, the lower-ranked one (players who share a rank as well: the one listed later
    in the standings). Not necessarily the last seat: a wildcard from below the cut usually has
    the lowest best score of the final.
    """
    ranked = _in_rank_order(standings)
    _require_columns(ranked, ["best_score"], N_("Standings"))
    _require_columns(entrants, ["player_id", "stage"], N_("Finals entrants"))
    finalists = entrants.loc[entrants["stage"] == "final", "player_id"]
    unknown = finalists[~finalists.isin(ranked["player_id"])].tolist()
    if unknown:
        raise TournamentError(_("Finalist {players} has no qualifier standing.").format(
            players=", ".join(map(str, unknown))))
    seated = (ranked.assign(_position=np.arange(len(ranked)))
              .loc[lambda d: d["player_id"].isin(finalists)]
              .sort_values(["best_score", "_position"], ascending=[True, False], kind="stable"))
    return seated["player_id"].tolist()[0] if len(seated) else None


def final_table(standings: pd.DataFrame, entrants: pd.DataFrame,
                semifinal_scored: pd.DataFrame | None) -> list:
    """R16: the player ids seated at the final.

    The finalists of `entrants` (from `finals_entrants`, in their seat order), with the semifinal
    winners who advance:

    - 4–16 players: the semifinal winner contests the weakest finalist (`weakest_finalist`: the
      lowest best qualifier score among everyone seated in the final, a wildcard included, R17)
      and takes that seat, in its place in the list, only if the winner's semifinal qualifier
      score is higher than that finalist's best qualifier score; on a tie the finalist keeps it.
      A final seat left empty (R17: nobody to fill it) goes to the winner without a contest.
    - 17–32: the better of the two winners (semifinal qualifier score, then that game's VP,
      spice, solari, troops, water) takes the fourth seat, after the three finalists.
    - 33+: the two best of the three winners, in that order, take the last two seats.

    Without a semifinal (fewer than 7 players, or no semifinalists) the finalists are the final.
    A semifinal whose first place is tied must be settled first (R11).
    """
    ranked = _in_rank_order(standings)
    _require_columns(ranked, ["best_score"], N_("Standings"))
    _require_columns(entrants, ["player_id", "stage"], N_("Finals entrants"))
    fmt = finals_format(len(ranked))
    finalists = entrants.loc[entrants["stage"] == "final", "player_id"].tolist()
    semifinalists = set(entrants.loc[entrants["stage"] == "semifinal", "player_id"].tolist())
    if fmt.semifinal == 0 or not semifinalists:
        return finalists

    semifinal_scored = _scored(semifinal_scored, N_("Semifinal results"))
    if semifinal_scored.empty:
        raise TournamentError(_("The semifinal has no results yet: enter them before the final "
                                "table is set."))
    strangers = set(semifinal_scored["player_id"].tolist()) - semifinalists
    if strangers:
        raise TournamentError(ngettext(
            "Semifinal results name player {players} who is not a semifinalist.",
            "Semifinal results name players {players} who are not a semifinalist.",
            len(strangers)).format(players=", ".join(map(str, sorted(strangers, key=str)))))
    winners = _game_winners(semifinal_scored, ranked)

    if not fmt.challenge:
        return finalists + winners["player_id"].head(fmt.advance).tolist()
    winner, score = winners["player_id"].tolist()[0], winners["qualifier_score"].iat[0]
    if len(finalists) < fmt.direct:
        return finalists + [winner]
    weakest = weakest_finalist(ranked, entrants)
    weakest_best = ranked.loc[ranked["player_id"] == weakest, "best_score"].iloc[0]
    if score > weakest_best:
        return [winner if player == weakest else player for player in finalists]
    return finalists


def _rank_within(frame: pd.DataFrame, offset: int, keys: list[str]) -> pd.DataFrame:
    """`frame` ordered by `keys` (then standing) with `final_rank` from `offset` + 1; rows equal
    on every key share the better rank."""
    ordered = frame.sort_values([*keys, "_standing", "player_id"], kind="stable",
                                ignore_index=True)
    values = ordered[keys].to_numpy(dtype="int64")
    differs = np.r_[True, (values[1:] != values[:-1]).any(axis=1)]
    position = np.arange(1, len(ordered) + 1)
    return ordered.assign(final_rank=offset + np.maximum.accumulate(np.where(differs, position, 0)))


def final_standings(standings: pd.DataFrame, semifinal_scored: pd.DataFrame | None,
                    final_scored: pd.DataFrame | None) -> pd.DataFrame:
    """R18: `player_id, final_rank, stage` for every player, best first.

    Finalists first, by final placing; then the semifinalists who did not reach the final, by
    semifinal placing, ties between semifinals broken by best qualifier score (then standing);
    then everyone else by qualifier standing (R14), including a finalist (a wildcard too) who
    lost the seat to a semifinal winner. Players who share a placing or standing share
    `final_rank`.
    `stage` is "final", "semifinal" or "qualifier" (the last stage the player played).
    """
    ranked = _in_rank_order(standings)
    _require_columns(ranked, ["best_score"], N_("Standings"))
    final = _scored(final_scored, N_("Final results"))
    semifinal = _scored(semifinal_scored, N_("Semifinal results"))
    known = set(ranked["player_id"].tolist())
    for frame, what in ((final, N_("Final results name player {players}, who has no qualifier "
                                   "standing.")),
                        (semifinal, N_("Semifinal results name player {players}, who has no "
                                       "qualifier standing."))):
        strangers = set(frame["player_id"].tolist()) - known
        if strangers:
            raise TournamentError(_(what).format(
                players=", ".join(map(str, sorted(strangers, key=str)))))

    standing = ranked[["player_id", "best_score"]].assign(_standing=ranked["rank"].astype("int64"))
    finalists = (standing.merge(final[["player_id", "placing"]], on="player_id")
                 .assign(stage="final", _best=0))
    semifinalists = (standing.loc[~standing["player_id"].isin(finalists["player_id"])]
                     .merge(semifinal[["player_id", "placing"]], on="player_id")
                     .assign(stage="semifinal", _best=lambda d: -d["best_score"]))
    played_finals = pd.concat([finalists["player_id"], semifinalists["player_id"]])
    others = (standing.loc[~standing["player_id"].isin(played_finals)]
              .assign(stage="qualifier", placing=0, _best=0))

    parts = [_rank_within(finalists, 0, ["placing"]),
             _rank_within(semifinalists, len(finalists), ["placing", "_best", "_standing"]),
             _rank_within(others, len(finalists) + len(semifinalists), ["_standing"])]
    return (pd.concat(parts, ignore_index=True)
            .loc[:, ["player_id", "final_rank", "stage"]]
            .astype({"player_id": ranked["player_id"].dtype, "final_rank": "int64"}))
