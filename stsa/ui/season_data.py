"""The season's shared reads (R27): the season table and the rating read every tournament, so
they are computed once per data version of the tournaments involved and of the installation
(which holds the list, the seasons and the directory), for every session of the process, never
per viewer. Streamlit's cache holds only the `Shelf`: a cleared cache costs work, nothing else."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

import pandas as pd
import streamlit as st

from stsa import rating
from stsa.services import season as service
from stsa.services import season_setup
from stsa.services.shared import Shelf
from stsa.ui import data, session


@st.cache_resource(show_spinner=False)
def _shelf(url: str) -> Shelf:
    return Shelf()


def _versions(tournament_ids) -> tuple:
    """What the reads are keyed by: (tournament id, its data version) of each tournament
    involved, then the installation's own data version."""
    return (*((int(t), data.VERSIONS.current(session.engine_of(int(t))))
              for t in tournament_ids),
            ("installation", data.VERSIONS.current(session.installation())))


def seasons() -> pd.DataFrame:
    """The installation's seasons (`services.season_setup.seasons`): a tiny read."""
    return season_setup.seasons(session.installation())


def season_of_shown() -> int | None:
    """The season of the tournament this run shows, or None."""
    return service.season_of(session.installation(), session.tournament_id())


def table(season_id: int) -> pd.DataFrame:
    """R27: season `season_id`'s `services.season.season_table`, shared per data version."""
    inst = session.installation()
    key = ("season", int(season_id),
           _versions(service.season_tournaments(inst, int(season_id))))
    return _shelf(session.database_url()).get(
        key, 0, lambda: service.season_table(inst, int(season_id),
                                          engine_of=session.engine_of))


def everywhere(name: Hashable, compute: Callable[[], Any]) -> Any:
    """`compute()`'s value, shared per data version of every tournament and of the
    installation: for reads over all the tournaments (the rating, the player records, the
    directory)."""
    key = (name, _versions(session.listed()["tournament_id"]))
    return _shelf(session.database_url()).get(key, 0, compute)


def ratings() -> rating.Ratings:
    """The unofficial rating over every tournament (`services.season.rating_table`), shared
    per data version."""
    inst = session.installation()
    return everywhere("ratings", lambda: service.rating_table(inst, data=played()))


def played() -> service.Played:
    """What every tournament holds in public (`services.season.played`: nicknames only),
    shared per data version: the player records and the rating are read from it."""
    inst = session.installation()
    return everywhere("played", lambda: service.played(inst, engine_of=session.engine_of))
