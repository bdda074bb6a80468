"""The finals' maths (R16, R17, R18): the format for a field, the entrants and their cut ties,
the weakest seated finalist, the final table, the final standings. Read through `stsa.rules`.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

import numpy as np
import pandas as pd

from stsa.domain import TournamentError, is_whole
from stsa.i18n import N_, _, ngettext
from stsa.rules.checks import PLACING_ORDER, _require_columns
from stsa.rules.qualifiers import _scored

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
