"""A realistic demo tournament, so that a newcomer sees every page populated."""

from __future__ import annotations

import numpy as np
import pandas as pd

from stsa import rules, store
from stsa.auth import Actor, require
from stsa.domain import Role, TournamentError
from stsa.i18n import N_
from stsa.services import draws

DEMO_PLAYERS = [
    "Alia Brandt", "Bruno Okafor", "Chiara Lindqvist", "Dario Pereira", "Elin Sandberg",
    "Farid Haddad", "Greta Novak", "Hugo Martel", "Ines Kowalczyk", "Jonas Eriksson",
    "Kaja Holm", "Leon Duarte", "Maja Petrova", "Nils Bergstrom", "Olga Ferreira",
    "Pavel Horak", "Quinn Adeyemi", "Rosa Villanueva", "Sami Korhonen", "Tilde Axelsson",
    "Ugo Bianchi", "Vera Mikkelsen", "Wim de Vries", "Yara Nasser",
]
DEMO_CLUBS = ["Arrakeen Gamers", "Caladan Club", "Giedi Prime Tabletop", ""]


def load_demo(engine, *, actor: Actor, seed: int = 10191, sittings: int = 3) -> dict:
    """Fill an empty database with 24 players and `sittings` completed qualifier sittings.

    Organizer only, and only into an empty tournament, so that it never mixes with real data.
    Results are drawn from `seed`: plausible VP and resources, leaders from each table's
    available leaders, and any full tie settled by seat (R11).
    """
    require(actor, Role.ORGANIZER, action=N_("load the demo tournament"))
    if len(store.players(engine)) or len(store.sittings(engine, actor=actor)):
        raise TournamentError("The demo tournament can only be loaded into an empty database; "
                              "this one already holds players or sittings.")
    rng = np.random.default_rng(seed)
    # all play (R21); the links stay: pages already open on this tournament keep following it
    store.set_settings(engine, {"tournament_name": "Demo: Swordmasters Open",
                                "capacity": len(DEMO_PLAYERS)}, actor=actor, keep_key=True)
    roster = pd.DataFrame({"name": DEMO_PLAYERS,
                           "club": [DEMO_CLUBS[i % len(DEMO_CLUBS)] for i in range(24)]})
    players = store.import_players(engine, roster, actor=actor)
    ids = players["player_id"].tolist()
    for number in range(sittings):
        sitting = draws.draw_qualifier(engine, ids, seed=seed + number,
                                                 actor=actor)
        store.publish_sitting(engine, sitting["sitting_id"], actor=actor)
        tables = store.tables(engine, sitting["sitting_id"], actor=actor)
        seats = store.seats(engine, sitting["sitting_id"], actor=actor)
        for table in tables.itertuples():
            at_table = seats.loc[seats["table_id"] == table.table_id]
            rows = _plausible_result(at_table, table.available_leaders, rng)
            store.submit_table_result(engine, table.table_id, rows, expected_version=0,
                                      submission_id=None, actor=actor)
    return {"players": len(ids), "sittings": sittings}


def _plausible_result(seats: pd.DataFrame, leaders: list[str],
                      rng: np.random.Generator) -> pd.DataFrame:
    """One table's result: the winner near 10–12 VP, the rest spread below, resources small."""
    n = len(seats)
    vp = np.sort(rng.integers(3, 13, n))[::-1]
    rows = pd.DataFrame({
        "player_id": seats["player_id"].to_numpy(),
        "leader": rng.choice(leaders, size=n, replace=False),
        "vp": rng.permutation(vp),
        "spice": rng.integers(0, 7, n), "solari": rng.integers(0, 9, n),
        "troops": rng.integers(0, 6, n), "water": rng.integers(0, 4, n),
        "variant_points": 0,
    })
    # A full tie would need a judge's roll-off; the demo settles it by seat.
    tied = rules.score_games(rows.assign(game_id=0))["tied"].to_numpy()
    return rows.assign(tiebreak=np.where(tied, np.arange(1, n + 1), np.nan))
