"""The player directory for the organizer (R27): which earlier tournaments' player each new
player probably is, the organizer's answers written as links, and the directory listed by
person for merging and splitting.

The rules are `stsa.directory`'s (matching on e-mail, else the normalized nickname); the
writes are the store's (`link_players`, `merge_people`, `split_player`: organizer only,
logged). The players' nicknames and e-mails live in each tournament's own database: the
functions read them through `opener` (tournament id → its engine; the pages pass their shared
engines). Organizer only: the directory read here holds e-mails and never goes public.

A player is linked once: when imported or added, every new player without a proposal becomes
a new person at once (`link_new`); one with a proposal waits for the organizer's answer
(`answer`): yes joins the proposed person, no makes a new person.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping

import pandas as pd
from sqlalchemy.engine import Engine

from stsa import directory, store
from stsa.auth import Actor
from stsa.domain import TournamentError
from stsa.i18n import ngettext
from stsa.store import db

Opener = Callable[[int], Engine]
_KEY = ["tournament_id", "player_id"]
PROPOSAL_COLUMNS = [*directory.PROPOSAL_COLUMNS, "tournament_names", "question"]
PEOPLE_COLUMNS = ["person_id", "nicknames", "tournaments", "players"]
MEMBER_COLUMNS = ["person_id", "tournament_id", "tournament", "player_id", "nickname"]


def _players(opener: Opener, tournament_id: int, actor: Actor) -> pd.DataFrame:
    """Tournament `tournament_id`'s players as `stsa.directory`'s entries (with e-mails)."""
    found = store.players(opener(int(tournament_id)), actor=actor)
    return (found.assign(tournament_id=int(tournament_id))
            .astype({"player_id": "int64"})[directory.ENTRY_COLUMNS])


def names(opener: Opener, tournament_ids) -> dict[int, str]:
    """Each tournament's name (its settings), by id."""
    return {int(t): str(store.typed_settings(opener(int(t))).tournament_name)
            for t in tournament_ids}


def links(installation: Engine, opener: Opener, *, actor: Actor) -> pd.DataFrame:
    """R27: the directory as `stsa.directory`'s links (`person_id, tournament_id, player_id,
    nickname, email`), the nicknames and e-mails read from each tournament. A directory row
    whose player is gone from its tournament keeps "player 12" and no e-mail."""
    found = store.directory(db.installation(installation))
    if found.empty:
        return pd.DataFrame({c: pd.Series(dtype="int64" if c.endswith("_id") else "str")
                             for c in directory.LINK_COLUMNS})
    listed = set(store.tournaments(db.installation(installation))["tournament_id"])
    players = pd.concat([_players(opener, int(t), actor) for t in found["tournament_id"].unique()
                         if int(t) in listed], ignore_index=True)
    merged = found.merge(players, on=_KEY, how="left")
    return merged.assign(
        nickname=merged["nickname"].fillna("player " + merged["player_id"].astype(str)),
        email=merged["email"].fillna(""))[directory.LINK_COLUMNS]


def unlinked(engine: Engine, opener: Opener, known: pd.DataFrame, *,
             actor: Actor) -> pd.DataFrame:
    """The players of `engine`'s tournament not in the directory yet (entries); none for an
    engine not opened as one of the installation's tournaments."""
    here = db.tournament_id(engine)
    if here is None:
        return pd.DataFrame({c: pd.Series(dtype="int64" if c.endswith("_id") else "str")
                             for c in directory.ENTRY_COLUMNS})
    mine = _players(opener, here, actor)
    linked = pd.MultiIndex.from_frame(known.loc[known["tournament_id"] == here, _KEY])
    return mine.loc[~pd.MultiIndex.from_frame(mine[_KEY]).isin(linked)].reset_index(drop=True)


def proposals(engine: Engine, opener: Opener, *, actor: Actor,
              known: pd.DataFrame | None = None) -> pd.DataFrame:
    """R27: the organizer's questions for `engine`'s tournament: one row per player not in the
    directory whom `stsa.directory.match_players` proposes as an earlier tournaments' person,
    with `tournament_names` (the candidate tournaments' names, a tuple) and `question` ("Spice
    Baron: the same player as in GothCon 2026?", in English: pages share the proposals per data
    version and ask in their own language with `directory.question_words`). No proposal, no
    row. `known`: `links` when the caller has it."""
    known = links(engine, opener, actor=actor) if known is None else known
    found = directory.match_players(unlinked(engine, opener, known, actor=actor), known)
    found = found.loc[found["person_id"].notna()].reset_index(drop=True)
    tournaments = names(opener, sorted({int(t) for ts in found["candidate_tournaments"]
                                        for t in ts}))
    return found.assign(
        tournament_names=[tuple(directory.tournament_name(tournaments, t) for t in ts)
                          for ts in found["candidate_tournaments"]],
        question=[directory.confirm_question(row, tournaments)
                  for row in found.to_dict("records")])[PROPOSAL_COLUMNS]


def link_new(engine: Engine, opener: Opener, *, actor: Actor) -> pd.DataFrame:
    """R27: every player of `engine`'s tournament not in the directory and without a
    proposal becomes a new person (after an import or an added player); those with a
    proposal wait for the organizer's answer. Returns the rows linked."""
    known = links(engine, opener, actor=actor)
    entries = unlinked(engine, opener, known, actor=actor)
    found = directory.match_players(entries, known)
    alone = found.loc[found["person_id"].isna(), _KEY]
    if alone.empty:  # nothing to write: no write transaction
        return pd.DataFrame({c: pd.Series(dtype="int64")
                             for c in ["person_id", "tournament_id", "player_id"]})
    return store.link_players(engine, alone.assign(person_id=pd.NA), actor=actor)


def link_every_tournament(installation: Engine, opener: Opener, *, actor: Actor) -> int:
    """R27: `link_new` for every tournament, oldest first (for tournaments made before their
    players joined the directory): each one's players without a proposal become new people,
    so later tournaments' players are asked about them. Returns how many were linked."""
    listed = store.tournaments(db.installation(installation))["tournament_id"]
    return sum(len(link_new(opener(int(t)), opener, actor=actor)) for t in listed)


def answer(engine: Engine, opener: Opener, yes: Mapping[tuple[int, int], int],
           no: Collection[tuple[int, int]] = (), *, actor: Actor) -> pd.DataFrame:
    """R27: the organizer's answers written in one go: each `(tournament_id, player_id)` of
    `yes` joins the person it was proposed for (`yes` maps it to that person, as the question
    showed it); each of `no` becomes a new person. Refused, nothing written, when a proposal
    changed since it was shown (another link or merge in between): the page asks again.
    Returns the rows linked."""
    current = proposals(engine, opener, actor=actor)
    now = dict(zip(current[_KEY].itertuples(index=False, name=None),
                   current["person_id"].astype("int64")))
    changed = [k for k, person in yes.items() if now.get(k) != int(person)]
    changed += [k for k in no if k not in now]
    if changed:
        raise TournamentError(ngettext(
            "{count} proposal changed meanwhile (another change to the player directory): look "
            "at the questions again. Nothing was linked.",
            "{count} proposals changed meanwhile (another change to the player directory): "
            "look at the questions again. Nothing was linked.", len(changed)).format(
                count=len(changed)))
    rows = ([{"tournament_id": t, "player_id": p, "person_id": int(person)}
             for (t, p), person in yes.items()]
            + [{"tournament_id": t, "player_id": p, "person_id": pd.NA} for t, p in no
               if (t, p) not in yes])
    return store.link_players(engine, pd.DataFrame(rows, columns=[*_KEY, "person_id"]),
                              actor=actor)


def members(installation: Engine, opener: Opener, *, actor: Actor) -> pd.DataFrame:
    """R27: every linked tournament player, by person then tournament: `person_id,
    tournament_id, tournament` (its name), `player_id, nickname`. Organizer only (the
    read holds e-mails, left out here)."""
    known = links(installation, opener, actor=actor)
    tournaments = names(opener, known["tournament_id"].unique())
    return (known.assign(tournament=known["tournament_id"].map(tournaments).astype("str"))
            .sort_values(["person_id", "tournament_id"], ignore_index=True)[MEMBER_COLUMNS])


def people(found: pd.DataFrame) -> pd.DataFrame:
    """R27: `members` by person: `person_id, nicknames` (each one once, as first met),
    `tournaments` (their names, joined) and `players` (how many tournament players)."""
    return (found.groupby("person_id", sort=True)
            .agg(nicknames=("nickname", lambda n: ", ".join(dict.fromkeys(n))),
                 tournaments=("tournament", lambda n: ", ".join(n)),
                 players=("player_id", "size"))
            .reset_index()[PEOPLE_COLUMNS])


def merge(installation: Engine, found: pd.DataFrame, keep: int, other: int, *,
          actor: Actor) -> int:
    """R27: person `other` merged into person `keep` (`store.merge_people`, its refusals
    naming the players by nickname, `found` being `members`). Returns how many moved."""
    return store.merge_people(installation, int(keep), int(other), actor=actor,
                              nicknames=found[[*_KEY, "nickname"]])


def split(installation: Engine, tournament_id: int, player_id: int, *, actor: Actor) -> int:
    """R27: one tournament player taken out into a person of their own
    (`store.split_player`). Returns their person id."""
    return store.split_player(installation, int(tournament_id), int(player_id), actor=actor)
