"""The setups a tournament draws from (R5, R7, R9, R23): the catalog with the organizer's
settings applied for a stage, their names, and what the Settings page offers."""

from __future__ import annotations

import functools
from collections.abc import Mapping

import pandas as pd

from stsa import catalog, store
from stsa.domain import BattleOfWills, Kind, PickMethod, TournamentError
from stsa.i18n import _
from stsa.settings import battle_of_wills_stages

# R23: the sittings each choice of the Battle of Wills setting plays it in.
BATTLE_OF_WILLS_KINDS = {BattleOfWills.QUALIFIERS: {Kind.QUALIFIER},
                         BattleOfWills.FINALS: {Kind.SEMIFINAL, Kind.FINAL},
                         BattleOfWills.BOTH: {Kind.QUALIFIER, Kind.SEMIFINAL, Kind.FINAL}}


def battle_of_wills_in(settings: Mapping, kind: str) -> bool:
    """R23: whether sittings of `kind` play the "+ Battle of Wills" setups under `settings`
    (the final rounds only by default)."""
    stages = battle_of_wills_stages(settings.get("battle_of_wills", False))
    return Kind(kind) in BATTLE_OF_WILLS_KINDS[BattleOfWills(stages)]


def enabled_setups(engine, kind: str = Kind.QUALIFIER) -> pd.DataFrame:
    """R5, R7, R9, R23: the setups sittings of `kind` draw from (`from_settings`)."""
    return from_settings(store.settings(engine), kind)


def from_settings(settings: Mapping, kind: str = Kind.QUALIFIER) -> pd.DataFrame:
    """R5, R7, R9, R23: the setups sittings of `kind` draw from: the enabled base setups (all of
    the catalog when none are chosen), with their Battle of Wills versions when that stage plays
    it, each setup's hidden picks from the per-base-game setting (none under Vote Off, R10: the
    players' votes remove leaders after the draw) and its leader deck from the organizer's decks
    where given."""
    frame = catalog.setups()
    chosen = settings.get("enabled_setups")
    if chosen:
        unknown = sorted(set(chosen) - set(frame["setup_id"]))
        if unknown:
            raise TournamentError(_("Enabled setups not in the catalog: {setups}.").format(
                setups=", ".join(unknown)))
        frame = frame.loc[frame["setup_id"].isin(chosen)]
    if battle_of_wills_in(settings, kind):
        frame = catalog.with_battle_of_wills(frame)
    picks = settings.get("hidden_picks") or {}
    decks = settings.get("leader_decks") or {}
    removed = frame["base_game"].map(picks).fillna(frame["hidden_picks"]).astype("int64")
    return frame.assign(
        hidden_picks=0 if settings.get("pick_method") == PickMethod.VOTE_OFF else removed,
        leader_deck=[list(decks.get(s, deck)) for s, deck in
                     zip(frame["setup_id"], frame["leader_deck"])],
    ).reset_index(drop=True)


def setup_names() -> dict[str, str]:
    """setup_id → its name, for every setup of the catalog and its Battle of Wills version."""
    return dict(_setup_names())


@functools.lru_cache(maxsize=1)
def _setup_names() -> dict[str, str]:
    every = catalog.setups(battle_of_wills=True)
    return dict(zip(every["setup_id"], every["name"]))


def setup_options() -> dict[str, str]:
    """The catalog's setups an organizer can enable (R5): setup_id → name."""
    frame = catalog.setups()
    return dict(zip(frame["setup_id"], frame["name"]))


def base_games() -> list[str]:
    return sorted(catalog.setups()["base_game"].unique().tolist())


def hidden_picks(settings: Mapping) -> dict[str, int]:
    """R9: leaders removed per table for each base game, the default where none is set."""
    default = store.DEFAULT_SETTINGS["hidden_picks"]
    picks = settings.get("hidden_picks") or {}
    return {game: int(picks.get(game, default.get(game, 0))) for game in base_games()}
