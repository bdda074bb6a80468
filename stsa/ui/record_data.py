"""The public player records' reads (R27): built from the season's shared reads (everything the
tournaments hold in public, and the unofficial rating, each computed once per data version for
every session), so a viewer's run only picks one person's rows out of them. Nicknames only:
the shared reads are the public view's (R22)."""

from __future__ import annotations

import altair as alt
import pandas as pd

from stsa import charts
from stsa.services import reads
from stsa.services import season as service
from stsa.services.season import Played, PlayerPage
from stsa.ui import season_data, session

PEOPLE_COLUMNS = ["person_id", "nickname", "last_tournament", "events"]


def _people(data: Played) -> pd.DataFrame:
    names = data.tournaments.set_index("tournament_id")["name"]
    at = data.players["tournament_id"].map(data.tournaments.set_index("tournament_id")
                                           ["position"])
    latest = (data.players.assign(_at=at).sort_values(["person_id", "_at"], kind="stable")
              .groupby("person_id", sort=False))
    found = latest.agg(nickname=("nickname", "last"), last=("tournament_id", "last"),
                       events=("tournament_id", "nunique")).reset_index()
    return (found.assign(last_tournament=found["last"].map(names).astype("str"),
                         _by=found["nickname"].astype(str).str.casefold())
            .sort_values(["_by", "person_id"], ignore_index=True)[PEOPLE_COLUMNS])


def people() -> pd.DataFrame:
    """R27: every person who played here: `person_id, nickname` (in their latest tournament),
    `last_tournament` (its name), `events` (tournaments played), by nickname; shared per data
    version."""
    return season_data.everywhere("record_people", lambda: _people(season_data.played()))


def page(person_id: int) -> PlayerPage | None:
    """R27: person `person_id`'s record, current rating and rating history
    (`services.season.PlayerPage`), from the shared reads; None for no such person."""
    try:  # what every page shares, given: the service picks this person's rows only
        return service.player_page(session.installation(), int(person_id),
                                   data=season_data.played(), ratings=season_data.ratings())
    except reads.NotFound:
        return None


def chart(found: PlayerPage) -> alt.Chart:
    """The person's unofficial rating over time (`charts.rating_history`)."""
    return charts.rating_history(found.history)
