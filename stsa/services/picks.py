"""Leader picks by Vote Off and Wild Card (R10), as options of the tournament.

Under Vote Off the draw removes no leaders (`setups.from_settings`); after publishing, the
judge of each table (or the organizer) enters each player's secret votes, and the two leaders
with the most votes leave the table's deck (ties: the organizer's choice among the tied, else a
random choice from the sitting's seed, recorded). With Wild Card on, after picks each player in
play order keeps their leader or takes a random one of the table's removed leaders, drawn
reproducibly from the seed; the choice is final and the result form starts from it. Votes,
removed leaders and wild-card draws are for judges and the organizer only (R20).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pandas as pd

from stsa import picks, store
from stsa.auth import Actor, require
from stsa.domain import PickMethod, Role, Sitting, TournamentError, table_label
from stsa.i18n import N_, _
from stsa.services import setups
from stsa.services.snapshot import Snapshot
from stsa.settings import Settings


def uses_vote_off(settings: Settings) -> bool:
    """R10: does this tournament pick leaders by Vote Off?"""
    return settings.pick_method == PickMethod.VOTE_OFF


def _table(snap: Snapshot, table_id: int) -> tuple[dict, pd.DataFrame, Sitting, str]:
    """The table (a dict), its seats, its sitting and how people name it."""
    found = snap.table(table_id)
    if found.empty:
        raise store.NotFound(_("There is no table with id {id}.").format(id=table_id))
    table = found.iloc[0].to_dict()
    sitting = snap.sitting(int(table["sitting_id"]))
    where = table_label(sitting["kind"], int(sitting["number"]), int(table["table_no"]))
    return table, snap.table_seats(table_id), sitting, where


def _deck(settings: Settings, table: dict) -> list[str]:
    """The table's leader deck in its setup's order (R7), so a random tie-break is the same
    however often the votes are entered."""
    frame = setups.from_settings(settings, table["kind"])
    row = frame.loc[frame["setup_id"] == table["setup_id"], "leader_deck"]
    held = set(table["available_leaders"] or []) | set(table["removed_leaders"] or [])
    ordered = list(row.iloc[0]) if len(row) else sorted(held)
    return [leader for leader in ordered if leader in held] + sorted(held - set(ordered))


def enter_votes(engine, table_id: int, votes: pd.DataFrame, *, actor: Actor,
                organizer_choice: Sequence[str] | None = None) -> pd.DataFrame:
    """R10 Vote Off at one table: `votes` has one row per vote (`player_id, leader`), X per
    player (the `vote_off_votes` setting). Removes the two leaders with the most votes (ties by
    `organizer_choice`, else at random from the sitting's seed) and returns them as
    `leader, votes, decided`. Entering the votes again before the result replaces them."""
    require(actor, Role.JUDGE, Role.ORGANIZER, action=N_("enter Vote Off votes"))
    with Snapshot(engine, actor=actor) as snap:
        settings = snap.settings
        if not uses_vote_off(settings):
            raise TournamentError(_("This tournament removes leaders by Hidden Picks: there "
                                    "are no votes to enter."))
        table, seats, sitting, where = _table(snap, table_id)
    removed = picks.vote_off_removals(
        _deck(settings, table), votes, seed=int(sitting["seed"]), table_no=int(table["table_no"]),
        x=settings.vote_off_votes, organizer_choice=organizer_choice,
        players=dict(zip(seats["player_id"].astype(int), seats["name"])))
    store.save_vote_off(engine, table_id, votes, removed["leader"].tolist(), actor=actor,
                        decided=removed.to_dict("records"))
    return removed


def draw_wild_cards(engine, table_id: int, picked: Mapping[int, str | None],
                    swaps: Mapping[int, bool], *, actor: Actor) -> pd.DataFrame:
    """R10 Wild Card at one table, after picks: `picked` maps each player to the leader they
    picked, `swaps` to their choice (True: a random removed leader). In play order from the
    first player, each swap draws a leader from the table's removed leaders, reproducibly from
    the sitting's seed; the choices are stored and final. Returns `seat, player_id, leader,
    swapped, original_leader`."""
    require(actor, Role.JUDGE, Role.ORGANIZER, action=N_("enter Wild Card choices"))
    with Snapshot(engine, actor=actor) as snap:
        if not snap.settings.wild_card:
            raise TournamentError(_("Wild Card is off for this tournament."))
        table, seats, sitting, where = _table(snap, table_id)
    chosen = seats[["seat", "player_id"]].assign(
        leader=seats["player_id"].map(lambda p: picked.get(int(p))))
    _check_picks(chosen, table, where)
    drawn = picks.wild_card_draws(chosen, {int(k): bool(v) for k, v in swaps.items()},
                                 table["removed_leaders"] or [], seed=int(sitting["seed"]),
                                 table_no=int(table["table_no"]),
                                 names=dict(zip(seats["player_id"].astype(int), seats["name"])))
    store.save_wild_cards(engine, table_id, drawn, actor=actor)
    return drawn


def _check_picks(picks: pd.DataFrame, table: dict, where: str) -> None:
    """Every seat picked a leader of the table's available ones, each leader once (R9)."""
    missing = picks.loc[picks["leader"].isna() | (picks["leader"] == ""), "seat"].tolist()
    if missing:
        raise TournamentError(_("{table}: enter the leader seat {seats} picked.").format(
            table=where, seats=", ".join(map(str, missing))))
    offered = set(table["available_leaders"] or [])
    strange = sorted(set(picks["leader"]) - offered)
    if strange:
        raise TournamentError(_("{table}: {leaders} was not among this table's leaders to pick "
                                "from.").format(table=where, leaders=", ".join(strange)))
    if picks["leader"].duplicated().any():
        raise TournamentError(_("{table}: two players cannot pick the same leader.").format(
            table=where))


def table_picks(engine, table_id: int, *, actor: Actor) -> dict:
    """What a judge sees of a table's picks (R20): its votes, removed leaders and wild cards."""
    require(actor, Role.JUDGE, Role.ORGANIZER, action=N_("see leader picks"))
    return {"votes": store.vote_off_votes(engine, table_id, actor=actor),
            "wild_cards": store.wild_card_choices(engine, table_id, actor=actor)}
