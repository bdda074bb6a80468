"""R10 at one table: Vote Off (the leaders the players vote out of the deck) and Wild Card
(each player's keep-or-swap of their picked leader), drawn after the sitting's draw.

Each table's draw has its own random stream, `numpy.random.default_rng([seed, table_no,
stream])` from the sitting's recorded seed, so re-checking one table never depends on the
others (R3). No database, no Streamlit. `stsa.draw` keeps these names for outside scripts.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence

import numpy as np
import pandas as pd

from stsa.domain import (
    Decided,
    Problem,
    TournamentError,
    draw_seed,
    is_whole,
    quoted,
    require_columns,
)
from stsa.i18n import N_, _, ngettext

#: How Vote Off decided each removed leader (R10), as `vote_off_removals` reports it.
MOST_VOTES, ORGANIZER_CHOICE, RANDOM_CHOICE = (Decided.MOST_VOTES, Decided.ORGANIZER_CHOICE,
                                               Decided.RANDOM_CHOICE)
#: R10: Vote Off removes the two leaders with the most votes.
VOTE_OFF_REMOVES = 2
# Each R10 draw at a table has its own random stream, derived from the sitting's seed.
_VOTE_OFF_STREAM, _WILD_CARD_STREAM = 1, 2
_MAX_LISTED = 5
_DECK, _REMOVED = N_("The leader deck"), N_("The removed leaders")
# What `wild_card_draws` says of a seat row lacking a value, or listing one twice, by column.
_SEAT_LACKS = {"seat": N_("The seats lack a seat for a player."),
               "player_id": N_("The seats lack a player id for a player."),
               "leader": N_("The seats lack a leader for a player.")}
_SEAT_TWICE = {"seat": N_("The seats list seat {value} twice."),
               "player_id": N_("The seats list player id {value} twice."),
               "leader": N_("The seats list leader {value} twice.")}


def _player(player) -> str:
    """"Player 7": a player the messages have no name for."""
    return _("Player {player}").format(player=player)


def vote_off_removals(
    deck: Sequence[str],
    votes: pd.DataFrame,
    *,
    seed: int,
    table_no: int,
    x: int = 2,
    organizer_choice: Sequence[str] | None = None,
    players: Collection | None = None,
) -> pd.DataFrame:
    """R10 Vote Off at one table: the two leaders removed from `deck` and how each was decided.

    `deck` is the table's leader deck (names, each once). `votes` has one row per vote:
    `player_id, leader`; each player votes off exactly `x` different leaders of the deck (X of
    "Vote Off (X)"). With `players` (the table's player ids, or a mapping of them to the names
    the messages use) every one of them must have voted,
    and nobody else. Leaders nobody voted for have 0 votes.

    The two leaders with the most votes are removed. When leaders tied on votes compete for the
    last place(s), the ones still needed are the first of `organizer_choice` (names, each among
    the tied leaders, at least as many as needed), or, without it, a random choice from the
    sitting's `seed` and `table_no`: the same deck, votes, seed and table always give the same
    removals, whatever the order of the vote rows. `organizer_choice` is unused without a tie.

    Returns `leader, votes, decided`, one row per removed leader (most votes first; equal votes
    in deck order, or the organizer's order), `decided` being `MOST_VOTES`, `ORGANIZER_CHOICE` or
    `RANDOM_CHOICE`. Bad votes raise a `TournamentError` whose message names each player and
    what is wrong; its `problems` list them one by one.
    """
    names = _leader_list(deck, _DECK)
    if not is_whole(x) or not 1 <= x <= len(names):
        raise TournamentError(ngettext(
            "Each player votes off X leaders, X a whole number from 1 to the {count} leader of "
            "the deck, not {value}.",
            "Each player votes off X leaders, X a whole number from 1 to the {count} leaders of "
            "the deck, not {value}.", len(names)).format(count=len(names), value=repr(x)))
    require_columns(votes, ["player_id", "leader"], _("The votes"))
    voters = _check_votes(votes, names, x, players)
    if len(names) - VOTE_OFF_REMOVES < voters:
        raise TournamentError(ngettext(
            "The deck of {count} leader minus the {removed} voted off leaves fewer leaders than "
            "the {players} players at the table: add leaders to the deck.",
            "The deck of {count} leaders minus the {removed} voted off leaves fewer leaders "
            "than the {players} players at the table: add leaders to the deck.",
            len(names)).format(count=len(names), removed=VOTE_OFF_REMOVES, players=voters))
    rng = _table_rng(seed, table_no, _VOTE_OFF_STREAM)

    # Every leader of the deck with its votes: most first, equal votes in deck order.
    tally = (votes["leader"].astype("str").value_counts()
             .reindex(pd.Index(names, name="leader"), fill_value=0)
             .rename("votes")
             .reset_index()
             .sort_values("votes", ascending=False, kind="stable", ignore_index=True))
    cut = tally["votes"].iat[VOTE_OFF_REMOVES - 1]
    sure = tally.loc[tally["votes"] > cut]
    tied = tally.loc[tally["votes"] == cut]
    needed = VOTE_OFF_REMOVES - len(sure)
    if needed == len(tied):
        chosen, decided = tied, MOST_VOTES
    elif organizer_choice is not None:
        chosen, decided = _organizer_choice(tied, organizer_choice, needed), ORGANIZER_CHOICE
    else:
        picked = np.sort(rng.choice(len(tied), size=needed, replace=False))
        chosen, decided = tied.iloc[picked], RANDOM_CHOICE
    return (pd.concat([sure.assign(decided=MOST_VOTES), chosen.assign(decided=decided)],
                      ignore_index=True)
            .astype({"leader": "str", "votes": "int64", "decided": "str"}))


def wild_card_draws(
    seats: pd.DataFrame,
    swaps: Mapping | pd.Series,
    removed_leaders: Sequence[str],
    *,
    seed: int,
    table_no: int,
    names: Mapping | None = None,
) -> pd.DataFrame:
    """R10 Wild Card at one table: each player's final leader.

    `seats` has `seat, player_id, leader`: the table's players and the leader each picked.
    Seat 1 is the first player and play goes by seat (R3), so seat order is play order.
    `swaps` maps every seated player_id to their choice: True takes a random leader from the
    table's `removed_leaders` (R9 or Vote Off), False keeps the picked one.

    In play order, each swapping player draws from the removed leaders without replacement; a
    leader given up does not go back. The draw is a random order of the removed leaders (by
    name, so their listed order does not matter) from the sitting's `seed` and `table_no`,
    handed out in play order: the same inputs give the same draws, and a player's draw never
    depends on the choices of players after them. When more players swap than leaders were
    removed, the first who cannot get one is named: by `names` (player_id → the name people
    know them by), else as "Player <id>".

    Returns `seat, player_id, leader, swapped, original_leader` by seat, `leader` being the
    final one.
    """
    require_columns(seats, ["seat", "player_id", "leader"], _("The seats"))
    table = seats[["seat", "player_id", "leader"]].sort_values("seat", ignore_index=True)
    for column in ("seat", "player_id", "leader"):
        if table[column].isna().any():
            raise TournamentError(_(_SEAT_LACKS[column]))
        twice = table[column].duplicated()
        if twice.any():
            raise TournamentError(_(_SEAT_TWICE[column]).format(
                value=table.loc[twice, column].iat[0]))
    pool = sorted(_leader_list(removed_leaders, _REMOVED, at_least=0))
    picked_too = table.loc[table["leader"].isin(pool), "leader"].tolist()
    if picked_too:
        raise TournamentError(_("{leaders} cannot be both picked and removed.").format(
            leaders=quoted(picked_too)))
    known = names or {}

    def who(player) -> str:
        return str(known[player]) if player in known else _player(player)

    swapping = _swap_choices(swaps, table["player_id"], who)
    rng = _table_rng(seed, table_no, _WILD_CARD_STREAM)

    order = rng.permutation(len(pool))
    turn = np.cumsum(swapping) - 1  # each swapper's turn among the swappers, in play order
    short = swapping & (turn >= len(pool))
    if short.any():
        first = int(np.flatnonzero(short)[0])
        raise TournamentError(ngettext(
            "{player} (seat {seat}) wants to swap, but the {count} removed leader is already "
            "taken by the players before.",
            "{player} (seat {seat}) wants to swap, but the {count} removed leaders are already "
            "taken by the players before.", len(pool)).format(
                player=who(table["player_id"].iat[first]), seat=table["seat"].iat[first],
                count=len(pool)))
    drawn = np.asarray(pool, dtype=object)[order[turn[swapping]]]
    result = table.assign(original_leader=table["leader"], swapped=swapping)
    result.loc[swapping, "leader"] = drawn
    return result[["seat", "player_id", "leader", "swapped", "original_leader"]]


def _table_rng(seed, table_no, stream: int) -> np.random.Generator:
    """R3, R10: the random stream of one draw at one table, from the sitting's recorded seed.

    Seeding with (seed, table_no, stream) gives every table and every kind of draw its own
    stream: re-checking one table never depends on the others, nor on the draws made before.
    """
    draw_seed(seed)
    if not is_whole(table_no) or table_no < 0:
        raise TournamentError(_("The table number must be a whole number of at least 0, not "
                                "{value}.").format(value=repr(table_no)))
    return np.random.default_rng([int(seed), int(table_no), stream])


def _leader_list(names, what: str, at_least: int = VOTE_OFF_REMOVES) -> list[str]:
    """Leader names as a list of str: each once, none blank, at least `at_least` of them
    (`what`: `_DECK` or `_REMOVED`, the English words, translated when a message says them)."""
    if isinstance(names, str) or not isinstance(names, Iterable):
        raise TournamentError(_("{what} must be a list of leader names.").format(what=_(what)))
    listed = pd.Series(list(names), dtype="object")
    blank = listed.isna() | (listed.astype("str").str.strip() == "")
    if blank.any():
        raise TournamentError(_("{what} list a blank leader name.").format(what=_(what)))
    listed = listed.astype("str")
    twice = listed[listed.duplicated()].unique().tolist()
    if twice:
        raise TournamentError(_("{what} list {leaders} more than once.").format(
            what=_(what), leaders=quoted(twice)))
    if len(listed) < at_least:
        raise TournamentError(ngettext(
            "{what} hold {count} leader; Vote Off needs at least {least}.",
            "{what} hold {count} leaders; Vote Off needs at least {least}.",
            len(listed)).format(what=_(what), count=len(listed), least=at_least))
    return listed.tolist()


def _check_votes(votes: pd.DataFrame, deck: list[str], x: int, players: Collection | None) -> int:
    """R10: every player votes off exactly `x` different leaders of `deck`; with `players`, every
    player at the table votes and nobody else (a mapping of player_id to name names them in
    the problems). Returns the number of players who voted; raises a `TournamentError` with one
    `Problem` per player and thing wrong."""
    names = players if isinstance(players, Mapping) else {}

    def who(player) -> str:
        return str(names[player]) if player in names else _player(player)

    blank = (votes["player_id"].isna() | votes["leader"].isna()
             | (votes["leader"].astype("str").str.strip() == "")).to_numpy()
    if blank.any():
        row = int(np.flatnonzero(blank)[0]) + 1
        raise TournamentError(_("Vote {row} lacks its player or its leader: every vote names "
                                "both.").format(row=row))
    cast = votes.assign(leader=votes["leader"].astype("str"))
    count = cast.groupby("player_id", sort=False).size()
    outside = cast.loc[~cast["leader"].isin(deck)]
    repeated = cast.loc[cast.duplicated(["player_id", "leader"])]
    problems = [
        *(Problem(who(player), _("voted for {leaders}, not in this table's leader deck").format(
            leaders=quoted(pd.unique(leaders))))
          for player, leaders in outside.groupby("player_id", sort=False)["leader"]),
        *(Problem(who(player), ngettext(
            "voted for {leaders} more than once; the {count} votes must name different leaders",
            "voted for {leaders} more than once; the {count} votes must name different leaders",
            x).format(leaders=quoted(pd.unique(leaders)), count=x))
          for player, leaders in repeated.groupby("player_id", sort=False)["leader"]),
        *(Problem(who(player), ngettext("cast {count} vote, not {expected}",
                                        "cast {count} votes, not {expected}", int(n)).format(
                                            count=int(n), expected=x))
          for player, n in count[count != x].items()),
    ]
    if players is not None:
        seated = pd.Index(list(players))
        problems += [Problem(who(p), _("has not voted"))
                     for p in seated.difference(count.index, sort=False)]
        problems += [Problem(who(p), _("voted but does not sit at this table"))
                     for p in count.index.difference(seated, sort=False)]
    if count.empty and not problems:
        problems.append(Problem(None, ngettext(
            "no votes recorded; each player votes off {count} leader",
            "no votes recorded; each player votes off {count} leaders", x).format(count=x)))
    if problems:
        more = len(problems) - _MAX_LISTED
        listed = "; ".join(map(str, problems[:_MAX_LISTED]))
        if more > 0:
            listed = ngettext("{problems} (and {count} more)", "{problems} (and {count} more)",
                              more).format(problems=listed, count=more)
        raise TournamentError(ngettext(
            "Vote Off: {problems}. Each player votes off exactly {count} different leader of "
            "the table's deck.",
            "Vote Off: {problems}. Each player votes off exactly {count} different leaders of "
            "the table's deck.", x).format(problems=listed, count=x), problems)
    return len(count)


def _organizer_choice(tied: pd.DataFrame, choice: Sequence[str], needed: int) -> pd.DataFrame:
    """R10: the first `needed` leaders of the organizer's `choice`, each among `tied`."""
    if isinstance(choice, str):
        choice = [choice]
    named = list(dict.fromkeys(map(str, choice)))
    n = int(tied["votes"].iat[0])
    votes = ngettext("{count} vote", "{count} votes", n).format(count=n)
    stray = [name for name in named if name not in set(tied["leader"])]
    if stray:
        raise TournamentError(_("{leaders}: not among the leaders tied at {votes}; choose from "
                                "{tied}.").format(leaders=quoted(stray), votes=votes,
                                                  tied=quoted(tied["leader"])))
    if len(named) < needed:
        raise TournamentError(_("Choose {needed} of the leaders tied at {votes}: {tied}.").format(
            needed=needed, votes=votes, tied=quoted(tied["leader"])))
    return tied.set_index("leader").loc[named[:needed]].reset_index()


def _swap_choices(swaps, player_ids: pd.Series, who) -> np.ndarray:
    """R10: each seated player's keep (False) or swap (True) choice, in the order of
    `player_ids`; every player has exactly one and nobody else."""
    if not isinstance(swaps, (Mapping, pd.Series)):
        raise TournamentError(_("The wild-card choices must map each player to True (swap) or "
                                "False (keep)."))
    choices = pd.Series(swaps, dtype="object") if isinstance(swaps, Mapping) else swaps
    problems = [
        *(Problem(who(p), _("has no keep-or-swap choice"))
          for p in pd.Index(player_ids).difference(choices.index, sort=False)),
        *(Problem(who(p), _("made a choice but does not sit at this table"))
          for p in choices.index.difference(pd.Index(player_ids), sort=False)),
        *(Problem(who(p), _("chose {value}: True to swap or False to keep").format(
            value=repr(v)))
          for p, v in choices[~choices.isin([True, False]) | choices.isna()].items()),
    ]
    if choices.index.duplicated().any():
        problems.append(Problem(who(choices.index[choices.index.duplicated()][0]),
                                _("has more than one choice")))
    if problems:
        raise TournamentError(_("Wild Card: {problems}.").format(
            problems="; ".join(map(str, problems[:_MAX_LISTED]))), problems)
    return choices.reindex(player_ids).astype("bool").to_numpy()
