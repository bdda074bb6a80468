"""The installation's seasons as the organizer sets them up (R27): create one (a name and, if
wished, points per final rank), rename it or change its points, and put a tournament in a
season or in none. Organizer only: the role is checked here before the store checks every
value again. What a season ranks is `stsa.services.season`'s."""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd
from sqlalchemy.engine import Engine

from stsa import store
from stsa.auth import Actor, require
from stsa.domain import Role
from stsa.i18n import N_


def seasons(installation: Engine) -> pd.DataFrame:
    """R27: the installation's seasons, oldest first: `season_id, name, points`."""
    return store.seasons(installation)


def create_season(installation: Engine, name: str, *, points: Mapping | None = None,
                  actor: Actor) -> int:
    """R27: a new season named `name` with its points table (None: the format's own
    standing). Organizer only; returns its id."""
    require(actor, Role.ORGANIZER, action=N_("create seasons"))
    return store.create_season(installation, name, points=points, actor=actor)


def save_season(installation: Engine, season_id: int, name: str, points: Mapping | None, *,
                actor: Actor) -> None:
    """R27: season `season_id` named `name` and ranked by the points table `points` (None:
    the format's own standing). Organizer only; each change logged."""
    require(actor, Role.ORGANIZER, action=N_("rename seasons"))
    store.rename_season(installation, season_id, name, actor=actor)
    store.set_season_points(installation, season_id, points, actor=actor)


def set_season(installation: Engine, tournament_id: int, season_id: int | None, *,
               actor: Actor) -> None:
    """R27: put tournament `tournament_id` in season `season_id` (None: in none). Organizer
    only; logged in the installation's log."""
    require(actor, Role.ORGANIZER, action=N_("group tournaments into seasons"))
    store.set_season(installation, tournament_id, season_id, actor=actor)
