"""The season standing (R27): one table over several tournaments, for the people who played
their qualifiers. Pure and vectorized: no I/O, no randomness, no row-wise loops.

Inputs (the caller maps each tournament's players to people, so `player_id` is a person):

- `games`: every scored qualifier game row of the season's tournaments, as `rules.score_games`
  returns them (`game_id, player_id, vp, spice, solari, troops, water, placing,
  qualifier_score`) plus `tournament_id`; game ids are unique across the season.
- `finals`: `tournament_id, player_id, final_rank` from `rules.final_standings` of each
  tournament that held finals (a tournament without finals has no rows).

`season_standing` returns one row per person with at least one qualifier game, best first,
with the columns of `SEASON_COLUMNS`:

- `player_id`; `rank` (1 = best; people equal on every tiebreak share the better rank);
- `best_score`: the best qualifier score of the season, and `best_tournament_id`: the
  tournament of that game (the game R14 picks; between games equal on every tiebreak, the
  lowest tournament id);
- `events`: tournaments in which the person played a qualifier game;
- `best_final_rank` (Int64): the best (lowest) final rank of the season, NA if none;
- `points` (Int64): season points from the points table; only meaningful with a table, 0 for
  everyone without one;
- `games`, `wins`: qualifier games of the season and how many were placed 1st (R15).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from stsa import rules
from stsa.domain import TournamentError
from stsa.i18n import N_, _, ngettext

SEASON_COLUMNS = ["player_id", "rank", "best_score", "best_tournament_id", "events",
                  "best_final_rank", "points", "games", "wins"]
GAME_COLUMNS = ["tournament_id", *rules.RESULT_COLUMNS, "placing", "qualifier_score"]
FINALS_COLUMNS = ["tournament_id", "player_id", "final_rank"]


def _require(frame: object, columns: list[str], what: str) -> pd.DataFrame:
    if not isinstance(frame, pd.DataFrame):
        raise TournamentError(_("{what} must be a table (DataFrame), not {type}.").format(
            what=_(what), type=type(frame).__name__))
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise TournamentError(ngettext("{what} lack the column {columns}.",
                                       "{what} lack the columns {columns}.", len(missing))
                              .format(what=_(what), columns=", ".join(missing)))
    return frame


def _best_tournament(games: pd.DataFrame) -> pd.Series:
    """Per person, the tournament of the best game in R14's order (score, then placing, VP …
    water); the lowest tournament id settles games equal on all of these."""
    keys = ["qualifier_score", "placing", *rules.PLACING_ORDER, "tournament_id"]
    return (games.sort_values(["player_id", *keys], kind="stable",
                              ascending=[True, False, True, False, False, False, False, False,
                                         True])
            .drop_duplicates("player_id")
            .set_index("player_id")["tournament_id"])


def _finals_per_person(finals: pd.DataFrame, games: pd.DataFrame,
                       points: Mapping[int, int] | None) -> pd.DataFrame:
    """Per person with a final rank: the best final rank and the season points (R27)."""
    pair = ["tournament_id", "player_id"]
    stranger = ~pd.MultiIndex.from_frame(finals[pair]).isin(
        pd.MultiIndex.from_frame(games[pair].drop_duplicates()))
    if stranger.any():
        row = finals.loc[stranger].iloc[0]
        raise TournamentError(_("Tournament {tournament}: the final standing names player "
                                "{player}, who played no qualifier game there.").format(
            tournament=row["tournament_id"], player=row["player_id"]))
    twice = finals.duplicated(["tournament_id", "player_id"])
    if twice.any():
        row = finals.loc[twice].iloc[0]
        raise TournamentError(_("Tournament {tournament}: player {player} has two final "
                                "ranks.").format(tournament=row["tournament_id"],
                                                 player=row["player_id"]))
    table = {int(rank): int(value) for rank, value in (points or {}).items()}
    return (finals.assign(_points=finals["final_rank"].map(table).fillna(0).astype("int64"))
            .groupby("player_id")
            .agg(best_final_rank=("final_rank", "min"), points=("_points", "sum")))


def season_standing(games: pd.DataFrame, finals: pd.DataFrame, *,
                    points: Mapping[int, int] | None = None) -> pd.DataFrame:
    """R27 (with R14's tiebreaks): the season standing; columns in the module docstring.

    Default (`points` None): people ranked by R14 over all the season's qualifier games (best
    score, that game's placing, VP, spice, solari, troops, water, then the second-best score:
    `rules.standings` on the season's games), people still equal by their best final rank of
    the season (any final rank before none); still equal share a rank.

    With a points table (`points`, {final rank: points}; a rank not in the table gives 0): a
    person's season points are the sum, over the tournaments where they have a final rank, of
    that rank's points; people ranked by points (more first), equal points by the default
    order; still equal share a rank.
    """
    _require(games, GAME_COLUMNS, N_("The season's games"))
    _require(finals, FINALS_COLUMNS, N_("The season's final standings"))
    if games.empty:
        return pd.DataFrame({c: pd.Series(dtype="int64") for c in SEASON_COLUMNS}).astype(
            {"player_id": games["player_id"].dtype,
             "best_tournament_id": games["tournament_id"].dtype,
             "best_final_rank": "Int64", "points": "Int64"})
    per_finals = _finals_per_person(finals, games, points)
    season = (rules.standings(games)
              .loc[:, ["player_id", "rank", "best_score", "games", "wins"]]
              .rename(columns={"rank": "_standing"})
              .assign(best_tournament_id=lambda d: d["player_id"].map(_best_tournament(games)),
                      events=lambda d: d["player_id"].map(
                          games.groupby("player_id")["tournament_id"].nunique()),
                      best_final_rank=lambda d: d["player_id"].map(
                          per_finals["best_final_rank"]).astype("Int64"),
                      points=lambda d: d["player_id"].map(per_finals["points"])
                      .fillna(0).astype("Int64")))
    # R27's default order, then (with a table) points before it; no final rank ranks last.
    keys = [("_standing", True), ("_final", True)]
    if points is not None:
        keys.insert(0, ("_points", False))
    return (season
            .assign(_final=season["best_final_rank"].fillna(np.iinfo("int64").max)
                    .astype("int64"),
                    _points=season["points"].astype("int64"))
            .sort_values([k for k, _asc in keys], ascending=[a for _key, a in keys], kind="stable",
                         ignore_index=True)
            .pipe(_shared_ranks, [k for k, _asc in keys])
            .loc[:, SEASON_COLUMNS])


def _shared_ranks(ordered: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """`rank` 1, 2, … down `ordered`; rows equal on every key share the better ("min") rank."""
    values = ordered[keys].to_numpy(dtype="int64")
    differs = np.r_[True, (values[1:] != values[:-1]).any(axis=1)]
    position = np.arange(1, len(ordered) + 1)
    return ordered.assign(rank=np.maximum.accumulate(np.where(differs, position, 0)))
