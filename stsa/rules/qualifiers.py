"""The qualifiers' maths (R1, R11, R12, R14, R15, R21): table sizes, who plays a sitting and
who waits, placings and qualifier scores, standings. Read through `stsa.rules`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from stsa.domain import TournamentError, is_whole
from stsa.i18n import N_, _, ngettext
from stsa.rules.checks import (
    BASE_POINTS,
    PLACING_ORDER,
    RESULT_COLUMNS,
    STANDINGS_COLUMNS,
    _require_columns,
    _seats_by_game,
    _sort_key,
    _sort_seats,
    _whole_numbers,
)

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
