"""An unofficial rating of people across every game of every tournament: openskill's
Plackett-Luce model (Weng & Lin 2011, Algorithm 4) with openskill's defaults. Not part of the
format's rules (R27 ranks a season by the format's own logic, `stsa.season`); it only shows
who has been playing strongly. Pure and vectorized: no I/O, no randomness, no row-wise loops.

Input, one row per person per game: `order` (any sortable key of chronological order: games
with the same order are simultaneous, independent tables of one sitting, no person twice),
`game_id`, `player_id` (the person), `placing` (1 = best; shared placings are ties), and
optionally `at` (a timestamp shown in the history) and `team` (players of one game with the
same team play as one openskill team; by default each player is alone, as in DUNE: Imperium).

`ratings` returns a `Ratings`:

- `current`: `player_id, mu, sigma, ordinal, games, rank`, best first. `ordinal` is the
  conservative value mu − 3σ (openskill's `ordinal()`); `rank` ranks by it, equal ordinals
  (within `SAME_ORDINAL`) sharing the better rank.
- `history`: `player_id, game_id, order, at, mu, sigma, ordinal`, one row per person per game,
  chronologically (order, then game id), each with the rating after that game.

The update is openskill 6.2.0's `PlackettLuce().rate(teams, ranks=placings)`, computed for all
the tables of one order at once (one call of `rate` per game costs about half a second per
15,000 games). The numbers equal openskill's own to 1e-9 (tests/unit/test_rating.py). Note that
openskill 6.2.0's averaging of the mu change over tied teams has no effect (it compares the
updated players with themselves), so tied players keep their own changes, here as there.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pandas as pd
from openskill.models import PlackettLuce

from stsa.domain import TournamentError
from stsa.i18n import _, ngettext

# The defaults of the pinned openskill's PlackettLuce() (mu 25, sigma 25/3, beta 25/6, kappa
# 0.0001, tau 25/300), read from it so that they are openskill's own.
_DEFAULT = PlackettLuce()
MU, SIGMA, BETA, KAPPA, TAU = (_DEFAULT.mu, _DEFAULT.sigma, float(_DEFAULT.beta),
                               _DEFAULT.kappa, _DEFAULT.tau)
# The update below has no sigma limit, no balance and no margin, as openskill's defaults.
assert not _DEFAULT.limit_sigma and not _DEFAULT.balance and _DEFAULT.margin == 0.0
Z = 3.0  # ordinal(): mu − z·σ

GAME_COLUMNS = ["order", "game_id", "player_id", "placing"]
CURRENT_COLUMNS = ["player_id", "mu", "sigma", "ordinal", "games", "rank"]
SAME_ORDINAL = 1e-9  # ordinals this close are one rating (floating-point sums' last bits)
HISTORY_COLUMNS = ["player_id", "game_id", "order", "at", "mu", "sigma", "ordinal"]


class Ratings(NamedTuple):
    """The ratings now (`current`) and after each game (`history`); columns in the module
    docstring."""

    current: pd.DataFrame
    history: pd.DataFrame


def _checked(games: pd.DataFrame) -> pd.DataFrame:
    """The games in chronological order, each player's team named (`team`), or a
    `TournamentError` saying what is wrong."""
    if not isinstance(games, pd.DataFrame):
        raise TournamentError(_("The games must be a table (DataFrame), not {type}.").format(
            type=type(games).__name__))
    missing = [c for c in GAME_COLUMNS if c not in games.columns]
    if missing:
        raise TournamentError(ngettext("The games lack the column {columns}.",
                                       "The games lack the columns {columns}.", len(missing))
                              .format(columns=", ".join(missing)))
    for column in [*GAME_COLUMNS, *(["team"] if "team" in games.columns else [])]:
        if games[column].isna().any():
            raise TournamentError(_("The games have rows without {column}.").format(
                column=column))
    frame = (games.assign(at=games["at"] if "at" in games.columns else pd.NaT,
                          team=games["team"] if "team" in games.columns else games["player_id"],
                          placing=pd.to_numeric(games["placing"], errors="coerce"))
             .sort_values(["order", "game_id", "team"], kind="stable", ignore_index=True))
    if frame["placing"].isna().any():
        raise TournamentError(_("A placing must be a number (1 = best)."))
    twice = frame.duplicated(["order", "player_id"])
    if twice.any():
        row = frame.loc[twice].iloc[0]
        raise TournamentError(_("Player {player} plays twice at order {order} (game {game}): "
                                "games with the same order are simultaneous.").format(
            player=row["player_id"], order=row["order"], game=row["game_id"]))
    orders = frame.groupby("game_id", sort=False)["order"].nunique()
    if (orders > 1).any():
        raise TournamentError(_("Game {game} has more than one order.").format(
            game=orders.index[orders > 1][0]))
    return frame


def _structure(frame: pd.DataFrame) -> dict[str, np.ndarray]:
    """Codes for players, teams, games and steps (distinct orders), and the pairs of teams of
    one game that Plackett-Luce compares (team q placed no worse than team i)."""
    player, players = pd.factorize(frame["player_id"], sort=False)
    game = frame.groupby(["order", "game_id"], sort=False).ngroup().to_numpy()
    team = frame.groupby(["order", "game_id", "team"], sort=False).ngroup().to_numpy()
    step = frame.groupby("order", sort=False).ngroup().to_numpy()
    first_row = np.unique(team, return_index=True)[1]
    team_game, team_step = game[first_row], step[first_row]
    team_rank = frame["placing"].to_numpy(dtype="float64")[first_row]
    if (frame["placing"].to_numpy(dtype="float64") != team_rank[team]).any():
        raise TournamentError(_("The players of one team must share a placing."))
    per_game = np.bincount(team_game)
    if (per_game < 2).any():
        lonely = frame["game_id"].to_numpy()[np.isin(game, np.flatnonzero(per_game < 2))][0]
        raise TournamentError(_("Game {game} has fewer than two players (or teams) to "
                                "compare.").format(game=lonely))
    # Teams of a game are contiguous: pair each team i with every team q of its game.
    size = per_game[team_game]
    start = (np.cumsum(per_game) - per_game)[team_game]
    i = np.repeat(np.arange(len(team_game)), size)
    q = np.repeat(start, size) + (np.arange(len(i)) - np.repeat(np.cumsum(size) - size, size))
    counted = team_rank[q] <= team_rank[i]  # Plackett-Luce's C_q: the teams placed at q or below
    i, q = i[counted], q[counted]
    # A_q: how many teams share q's placing.
    shares = np.bincount(q[team_rank[i] == team_rank[q]], minlength=len(team_game))
    return {"player": player, "players": np.asarray(players), "team": team,
            "step": step, "team_game": team_game, "team_step": team_step,
            "pair_i": i, "pair_q": q, "pair_a": shares[q].astype("float64"),
            "pair_same": i == q}


def _bounds(codes: np.ndarray, n_steps: int) -> np.ndarray:
    return np.searchsorted(codes, np.arange(n_steps + 1))


def ratings(games: pd.DataFrame) -> Ratings:
    """Ratings over every game of every tournament (qualifiers, semifinals, finals), in
    chronological order; shared placings count as ties (not a ruling: an unofficial rating
    beside R27's season standing).

    `games`: `order, game_id, player_id, placing`, optionally `at` and `team` (see the module
    docstring). Each order's games are rated together from the ratings before that order, with
    openskill 6.2.0's PlackettLuce defaults (mu 25, sigma 25/3, beta 25/6, kappa 0.0001, tau
    25/300, no sigma limit, no balance). Returns `Ratings(current, history)`.
    """
    frame = _checked(games)
    if frame.empty:
        ids = frame["player_id"].iloc[:0]
        current = pd.DataFrame({"player_id": ids, "mu": [], "sigma": [], "ordinal": [],
                                "games": pd.Series(dtype="int64"),
                                "rank": pd.Series(dtype="int64")})
        return Ratings(current, frame.assign(mu=0.0, sigma=0.0, ordinal=0.0)[HISTORY_COLUMNS])
    s = _structure(frame)
    n_steps = int(s["step"][-1]) + 1
    rows, teams, pairs = (_bounds(s["step"], n_steps), _bounds(s["team_step"], n_steps),
                          _bounds(s["team_step"][s["pair_i"]], n_steps))
    mu = np.full(len(s["players"]), MU)
    sigma = np.full(len(s["players"]), SIGMA)
    after_mu = np.empty(len(frame))
    after_sigma = np.empty(len(frame))
    # Steps depend on the ones before; within a step every table is updated at once.
    for k in range(n_steps):
        r, t, p = slice(rows[k], rows[k + 1]), slice(teams[k], teams[k + 1]), slice(pairs[k],
                                                                                   pairs[k + 1])
        new_mu, new_sigma = _plackett_luce(
            mu[s["player"][r]], sigma[s["player"][r]], s["team"][r] - teams[k],
            s["team_game"][t] - s["team_game"][teams[k]], s["pair_i"][p] - teams[k],
            s["pair_q"][p] - teams[k], s["pair_a"][p], s["pair_same"][p])
        mu[s["player"][r]], sigma[s["player"][r]] = new_mu, new_sigma
        after_mu[r], after_sigma[r] = new_mu, new_sigma

    history = frame.assign(mu=after_mu, sigma=after_sigma,
                           ordinal=after_mu - Z * after_sigma)[HISTORY_COLUMNS]
    current = (pd.DataFrame({"player_id": s["players"], "mu": mu, "sigma": sigma,
                             "ordinal": mu - Z * sigma,
                             "games": np.bincount(s["player"], minlength=len(mu))})
               .astype({"player_id": frame["player_id"].dtype})
               .assign(rank=lambda d: _ranks(d["ordinal"].to_numpy()))
               .sort_values(["rank", "player_id"], kind="stable", ignore_index=True))
    return Ratings(current[CURRENT_COLUMNS], history)


def _ranks(ordinal: np.ndarray) -> np.ndarray:
    """Each rating's rank by its ordinal, best first: 1 + how many ordinals are higher by more
    than `SAME_ORDINAL`, so equal ratings share the better rank even where their sums were
    added in another order (a last-bit difference)."""
    ascending = np.sort(ordinal)
    higher = len(ordinal) - np.searchsorted(ascending, ordinal + SAME_ORDINAL, side="right")
    return (1 + higher).astype("int64")


def _plackett_luce(mu: np.ndarray, sigma: np.ndarray, team: np.ndarray, team_game: np.ndarray,
                   pair_i: np.ndarray, pair_q: np.ndarray, pair_a: np.ndarray,
                   pair_same: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """openskill 6.2.0's PlackettLuce `_compute` for many independent games at once.

    Players' `mu`, `sigma` with their `team` (0 … teams − 1); each team's game
    (`team_game`); the compared pairs (team i, team q of the same game placed no worse than
    i) with A_q (`pair_a`, teams sharing q's placing). Returns the players' new mu and sigma.
    """
    n_teams, n_games = len(team_game), int(team_game.max()) + 1
    sigma = np.sqrt(sigma * sigma + TAU * TAU)  # rate(): dynamics before the update
    sigma_sq = sigma ** 2
    team_mu = np.bincount(team, weights=mu, minlength=n_teams)
    team_sq = np.bincount(team, weights=sigma_sq, minlength=n_teams)
    c = np.sqrt(np.bincount(team_game, weights=team_sq + BETA ** 2, minlength=n_games))[team_game]
    e = np.exp(team_mu / c)
    sum_q = np.bincount(pair_q, weights=e[pair_i], minlength=n_teams)
    share = e[pair_i] / sum_q[pair_q]
    delta = np.bincount(pair_i, weights=share * (1 - share) / pair_a, minlength=n_teams)
    omega = np.bincount(pair_i, weights=np.where(pair_same, 1 - share, -share) / pair_a,
                        minlength=n_teams)
    omega = omega * (team_sq / c)
    delta = delta * (team_sq / c ** 2) * (np.sqrt(team_sq) / c)  # gamma = sqrt(σ²_team) / c
    weight = sigma_sq / team_sq[team]
    new_mu = mu + weight * omega[team]
    new_sigma = sigma * np.sqrt(np.maximum(1 - weight * delta[team], KAPPA))
    return new_mu, new_sigma
