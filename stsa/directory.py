"""The player directory (R27): one person, several tournaments, one identity.

Each tournament keeps its own players; the directory links them to persons. `links` is the
directory: one row per linked tournament player, `person_id, tournament_id, player_id,
nickname, email`. A person plays a tournament at most once (one player per tournament).

Matching (`match_players`) only proposes; the organizer confirms each proposal at import
(`confirm_question`) and `assign_people` writes the outcome. How a proposal is chosen:

- by e-mail first: the entry's e-mail (stripped, case-insensitive) equals one of a person's;
- else by nickname (`normalize_name`), but only to a person whose e-mails cannot disagree: an
  entry with an e-mail is never proposed by nickname for a person who has an e-mail on record,
  since two different addresses under one nickname are taken as two people (a common nickname);
- never a person who already has a player in the entry's tournament;
- two or more candidate persons at the deciding step (e-mail, else nickname): no proposal,
  reason "ambiguous" (the organizer picks, or merges later);
- two or more entries of one tournament proposed for one person: an e-mail match keeps its
  proposal over nickname matches; if several are left, none keeps it ("ambiguous").

Entries are matched against the directory only, not against each other: two new entries with
one nickname become two persons, which the organizer can merge (`merge_people`).

Pure functions over frames: no I/O, no randomness. Nothing here returns a real name; only
`links` and `entries` carry e-mails, and nothing meant for the public does (`player_record`).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

import numpy as np
import pandas as pd

from stsa import i18n
from stsa.domain import Problem, TournamentError, normalize_name, require_columns
from stsa.i18n import _

ENTRY_COLUMNS = ["tournament_id", "player_id", "nickname", "email"]
LINK_COLUMNS = ["person_id", "tournament_id", "player_id", "nickname", "email"]
PROPOSAL_COLUMNS = ["tournament_id", "player_id", "nickname", "person_id", "matched_by",
                    "candidate_tournaments", "reason"]
RECORD_COLUMNS = ["tournament_id", "tournament", "starts_on", "nickname", "best_score", "rank",
                  "final_rank"]
BY_EMAIL, BY_NICKNAME = "e-mail", "nickname"
AMBIGUOUS = "ambiguous"
_KEY = ["tournament_id", "player_id"]


def email_key(emails: pd.Series) -> pd.Series:
    """R27: the key two e-mails are compared by: stripped and casefolded; "" for none."""
    return emails.fillna("").astype(str).str.strip().str.casefold()


def nickname_key(nicknames: pd.Series) -> pd.Series:
    """R27: the key two nicknames are compared by (`normalize_name`); "" for none."""
    return nicknames.fillna("").astype(str).map(normalize_name)


def _keyed(frame: pd.DataFrame) -> pd.DataFrame:
    return frame.assign(email_key=email_key(frame["email"]),
                        nick_key=nickname_key(frame["nickname"]))


def _check_entries(entries: pd.DataFrame, links: pd.DataFrame) -> None:
    """Entries are players not linked yet, each once: anything else is the caller's slip."""
    require_columns(entries, ENTRY_COLUMNS, "The players to match")
    require_columns(links, LINK_COLUMNS, "The player directory")
    twice = entries[entries.duplicated(_KEY, keep="first")]
    linked = entries.merge(links[_KEY], on=_KEY)
    problems = [
        *(Problem(f"tournament {t}", f"{n} (player {p}) is listed twice among the players "
                  "to match.") for t, p, n in twice[[*_KEY, "nickname"]].to_numpy().tolist()),
        *(Problem(f"tournament {t}", f"{n} (player {p}) is already in the player directory.")
          for t, p, n in linked[[*_KEY, "nickname"]].to_numpy().tolist()),
    ]
    if problems:
        raise TournamentError(" ".join(map(str, problems)), problems)


def _tournaments_of(links: pd.DataFrame) -> pd.Series:
    """person_id → the sorted tuple of tournament ids the person played."""
    return (links[["person_id", "tournament_id"]].drop_duplicates()
            .sort_values(["person_id", "tournament_id"])
            .groupby("person_id")["tournament_id"].agg(lambda t: tuple(t.astype(int).tolist())))


def match_players(entries: pd.DataFrame, links: pd.DataFrame) -> pd.DataFrame:
    """R27: which person each not-yet-linked tournament player probably is.

    `entries`: `tournament_id, player_id, nickname, email` (e-mail may be blank or missing);
    `links`: the directory so far (`person_id, tournament_id, player_id, nickname, email`).
    Returns one row per entry, in the entries' order: `tournament_id, player_id, nickname,
    person_id` (Int64; NA: no proposal, a new person), `matched_by` ("e-mail", "nickname" or
    ""), `candidate_tournaments` (the proposed person's tournament ids, sorted; () for none)
    and `reason` ("ambiguous" when several persons fit, else ""). The rules are in the module's
    docstring. An entry listed twice or already linked is a `TournamentError`.
    """
    _check_entries(entries, links)
    mine = (_keyed(entries[ENTRY_COLUMNS].reset_index(drop=True))
            .rename_axis("entry").reset_index())
    known = _keyed(links[LINK_COLUMNS])
    busy = known[["person_id", "tournament_id"]].drop_duplicates()
    has_email = known.assign(given=known["email_key"] != "").groupby("person_id")["given"].any()

    by_email = (mine.loc[mine["email_key"] != "", ["entry", "tournament_id", "email_key"]]
                .merge(known.loc[known["email_key"] != "", ["person_id", "email_key"]]
                       .drop_duplicates(), on="email_key")
                .assign(level=0))
    by_nick = (mine.loc[mine["nick_key"] != "", ["entry", "tournament_id", "nick_key",
                                                   "email_key"]]
               .merge(known[["person_id", "nick_key"]].drop_duplicates(), on="nick_key")
               # An e-mail on both sides that differs: two people (see the module docstring).
               .loc[lambda c: ~((c["email_key"] != "")
                                & c["person_id"].map(has_email).fillna(False).astype(bool))]
               .assign(level=1))
    candidates = (pd.concat([by_email[["entry", "tournament_id", "person_id", "level"]],
                             by_nick[["entry", "tournament_id", "person_id", "level"]]])
                  .merge(busy, on=["person_id", "tournament_id"], how="left", indicator=True)
                  .loc[lambda c: c["_merge"] == "left_only"]
                  .drop(columns="_merge")
                  # E-mail wins: once an entry has an e-mail candidate, nicknames do not count.
                  .loc[lambda c: c["level"] == c.groupby("entry")["level"].transform("min")])
    count = candidates.groupby("entry")["person_id"].transform("nunique")
    single = candidates[count == 1].drop_duplicates("entry")
    # Two entries of one tournament for one person: the better level keeps it, if alone there.
    best = single.groupby(["tournament_id", "person_id"])["level"].transform("min")
    at_best = single[single["level"] == best]
    crowded = at_best.groupby(["tournament_id", "person_id"])["entry"].transform("size") > 1
    kept = at_best[~crowded]
    ambiguous = set(candidates.loc[count > 1, "entry"]) | set(at_best.loc[crowded, "entry"])

    person = mine["entry"].map(kept.set_index("entry")["person_id"]).astype("Int64")
    level = mine["entry"].map(kept.set_index("entry")["level"])
    tours = _tournaments_of(known)
    return (mine.assign(
                person_id=person,
                matched_by=np.select([level == 0, level == 1], [BY_EMAIL, BY_NICKNAME], ""),
                candidate_tournaments=person.map(lambda p: () if pd.isna(p) else tours[p]),
                reason=np.where(mine["entry"].isin(ambiguous), AMBIGUOUS, ""))
            .loc[:, PROPOSAL_COLUMNS]
            .astype({"tournament_id": "int64", "player_id": "int64", "matched_by": str,
                     "reason": str}))


def _in_words(names: list[str]) -> str:
    """"A", "A and B", "A, B and C"."""
    if len(names) == 1:
        return names[0]
    return _("{names} and {last}").format(names=", ".join(names[:-1]), last=names[-1])


def tournament_name(tournament_names: Mapping[int, str], tournament_id: int) -> str:
    """A tournament's name, or "tournament 7" when `tournament_names` lacks it (English: the
    proposals that hold it are shared)."""
    return tournament_names.get(int(tournament_id), f"tournament {int(tournament_id)}")


def question_words(nickname: str, tournaments: Collection[str]) -> str:
    """R27: the organizer's question in this run's language: "Spice Baron: the same player as
    in GothCon 2026 and LinCon 2026?" (`tournaments`: the candidate tournaments' names)."""
    return _("{nickname}: the same player as in {tournaments}?").format(
        nickname=nickname, tournaments=_in_words(list(tournaments)))


def confirm_question(proposal: Mapping[str, Any] | pd.Series,
                     tournament_names: Mapping[int, str]) -> str:
    """R27: the organizer's question for one proposal of `match_players`, in plain words:
    "Spice Baron: the same player as in GothCon 2026 and LinCon 2026?"; "" when there is no
    proposal (a new person). A tournament missing from `tournament_names` reads "tournament 7".
    """
    person, tournaments = proposal["person_id"], tuple(proposal["candidate_tournaments"])
    if pd.isna(person) or not tournaments:
        return ""
    names = [tournament_name(tournament_names, t) for t in tournaments]
    with i18n.language(i18n.ENGLISH):  # shared per data version: pages ask with question_words
        return question_words(proposal["nickname"], names)


def _next_person(links: pd.DataFrame) -> int:
    """The first person id above every one in the directory (1 for an empty directory)."""
    return int(links["person_id"].max()) + 1 if len(links) else 1


def assign_people(entries: pd.DataFrame, links: pd.DataFrame,
                  accepted: Collection[tuple[int, int]]) -> pd.DataFrame:
    """R27: the directory's new rows (`person_id, tournament_id, player_id, nickname, email`,
    one per entry, in the entries' order) after the organizer's choices.

    `accepted` holds the `(tournament_id, player_id)` whose proposal the organizer confirmed;
    those join the proposed person. Every other entry, and an accepted one without a proposal,
    becomes a new person, numbered from above the directory's highest person id in the
    entries' order. Append the rows to `links` for the whole directory.
    """
    proposals = match_players(entries, links)
    chosen = {(int(t), int(p)) for t, p in accepted}
    confirmed = (pd.MultiIndex.from_frame(proposals[_KEY]).isin(list(chosen))
                 & proposals["person_id"].notna().to_numpy())
    fresh = _next_person(links) + np.cumsum(~confirmed) - 1
    person = np.where(confirmed, proposals["person_id"].fillna(0).to_numpy(dtype="int64"), fresh)
    return (entries[ENTRY_COLUMNS].reset_index(drop=True)
            .assign(person_id=person.astype("int64"))
            .astype({"tournament_id": "int64", "player_id": "int64"})
            .loc[:, LINK_COLUMNS])


def _person_rows(links: pd.DataFrame, person_id: int) -> pd.DataFrame:
    rows = links[links["person_id"] == person_id]
    if rows.empty:
        raise TournamentError(_("There is no person {person} in the player directory.").format(
            person=person_id))
    return rows


def merge_people(links: pd.DataFrame, keep: int, other: int) -> pd.DataFrame:
    """R27: the directory with person `other` merged into person `keep` (all of `other`'s
    tournament players become `keep`'s).

    Refused with a `TournamentError` when the two are one person, when either is not in the
    directory, or when both have a player in one tournament (a person plays a tournament
    once): the message names each such tournament and both nicknames there.
    """
    require_columns(links, LINK_COLUMNS, "The player directory")
    if keep == other:
        raise TournamentError(_("Person {person} cannot be merged with itself.").format(
            person=keep))
    ours = _person_rows(links, keep)[["tournament_id", "nickname"]]
    theirs = _person_rows(links, other)[["tournament_id", "nickname"]]
    shared = ours.merge(theirs, on="tournament_id", suffixes=("_keep", "_other"))
    if not shared.empty:
        problems = [Problem(_("tournament {tournament}").format(tournament=t),
                            _("{first} and {second} both played in tournament {tournament}, and "
                              "one person plays a tournament only once, so they are two "
                              "people").format(first=a, second=b, tournament=t))
                    for t, a, b in shared[["tournament_id", "nickname_keep", "nickname_other"]]
                    .to_numpy().tolist()]
        raise TournamentError(
            _("Person {person} and person {other} cannot be merged: {problems}.").format(
                person=keep, other=other, problems="; ".join(p.what for p in problems)),
            problems)
    return links.assign(person_id=links["person_id"].mask(links["person_id"] == other, keep))


def split_player(links: pd.DataFrame, tournament_id: int, player_id: int) -> pd.DataFrame:
    """R27: the directory with one tournament player taken out of its person into a new
    person of its own (the id above the highest); unchanged if it is already alone.
    A player not in the directory is a `TournamentError`."""
    require_columns(links, LINK_COLUMNS, "The player directory")
    this = (links["tournament_id"] == tournament_id) & (links["player_id"] == player_id)
    if not this.any():
        raise TournamentError(_("Player {player} of tournament {tournament} is not in the "
                                "player directory.").format(player=player_id,
                                                            tournament=tournament_id))
    person = links.loc[this, "person_id"].iloc[0]
    if (links["person_id"] == person).sum() == 1:
        return links.copy()
    return links.assign(person_id=links["person_id"].mask(this, _next_person(links)))


def player_record(links: pd.DataFrame, standings: pd.DataFrame, finals: pd.DataFrame,
                  tournaments: pd.DataFrame, person_id: int | None = None) -> pd.DataFrame:
    """R27: the public player page's table for one person, one row per tournament played,
    newest first: `tournament_id, tournament` (its name), `starts_on, nickname` (the
    nickname there), `best_score, rank` (the qualifier standing), `final_rank` (NA when the
    person was not ranked there).

    `links` is the directory (then `person_id` picks the person) or one person's rows;
    `standings`: `tournament_id, player_id, rank, best_score`; `finals`: `tournament_id,
    player_id, final_rank`; `tournaments`: `tournament_id, name, starts_on`. Public: only
    nicknames, never a real name or an e-mail.
    """
    require_columns(links, ["person_id", *_KEY, "nickname"], "The player directory")
    require_columns(standings, [*_KEY, "rank", "best_score"], "The standings")
    require_columns(finals, [*_KEY, "final_rank"], "The final standings")
    require_columns(tournaments, ["tournament_id", "name", "starts_on"], "The tournaments")
    mine = links if person_id is None else _person_rows(links, person_id)
    if mine["person_id"].nunique() > 1:
        raise TournamentError(_("A player's record is for one person: say which."))
    return (mine[[*_KEY, "nickname"]]
            .merge(standings[[*_KEY, "rank", "best_score"]], on=_KEY, how="left")
            .merge(finals[[*_KEY, "final_rank"]], on=_KEY, how="left")
            .merge(tournaments[["tournament_id", "name", "starts_on"]]
                   .rename(columns={"name": "tournament"}), on="tournament_id", how="left")
            .sort_values(["starts_on", "tournament_id"], ascending=False, na_position="last",
                         ignore_index=True)
            .astype({"rank": "Int64", "final_rank": "Int64"})
            .loc[:, RECORD_COLUMNS])
