"""The data feed's answers, one function a route (`stsa.web.feed` serves them): a tournament's
from its shared reads (the shelf its pages fill), the list and the seasons from the
installation's. What each may show is `services.feed`'s allow-lists.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pandas as pd

from stsa.formats import calendar
from stsa.formats.csv import csv_bytes
from stsa.i18n import _
from stsa.services import feed as shape
from stsa.services import schedule as schedule_service
from stsa.services import season as season_service
from stsa.services import season_setup
from stsa.services import tournaments as tournament_service
from stsa.settings import Settings
from stsa.ui import data, session
from stsa.web.cache import CSV, JSON, Missing, body

Build = Callable[[data.Data, str, dict], tuple[bytes, str]]


def refs(reads: data.Data) -> dict[str, dict]:
    """The published sittings by their address part ("qualifier-2"), kept per version."""
    def by_ref() -> dict[str, dict]:
        shown = shape.public_sittings(reads.sittings())
        return {shape.sitting_ref(k, n): row for k, n, row in zip(
            shown["kind"], shown["number"], shown.to_dict("records"))}
    return reads.kept(("sitting_refs",), by_ref)


def sitting_row(reads: data.Data, ref: str) -> dict:
    found = refs(reads).get(ref)
    if found is None:
        raise Missing(_("There is no published sitting “{sitting}” in this tournament. Its "
                        "sittings are at …/sittings.").format(sitting=ref))
    return found


def season_id(raw: str) -> int:
    found = season_setup.seasons(session.installation())
    ids = set(found["season_id"].astype(int))
    if not str(raw).isdigit() or int(raw) not in ids:
        raise Missing(_("There is no season “{season}” here. The seasons are at {address}.")
                      .format(season=raw, address=f"{shape.PREFIX}/seasons"))
    return int(raw)


def as_json(payload: Any) -> tuple[bytes, str]:
    return body(payload), JSON


def as_csv(frame: pd.DataFrame) -> tuple[bytes, str]:
    rows = frame.astype(object).where(frame.notna(), None).to_numpy().tolist()
    return csv_bytes(list(frame.columns), rows), CSV


def _listing() -> pd.DataFrame:
    return tournament_service.listing(session.installation(), session.engine_of)


def _season_names() -> dict[int, str]:
    found = season_setup.seasons(session.installation())
    return dict(zip(found["season_id"].astype(int), found["name"].astype(str)))


def tournaments(params: dict) -> tuple[bytes, str]:
    return as_json(shape.tournaments(_listing(), _season_names()))


def tournament(reads: data.Data, key: str, params: dict) -> tuple[bytes, str]:
    status, settings = reads.home_status(), reads.settings()
    return as_json(shape.tournament(
        key, status, settings, archived=reads.archived(),
        days=schedule_service.tournament_days(settings, reads.schedule())))


def schedule(reads: data.Data, key: str, params: dict) -> tuple[bytes, str]:
    settings: Settings = reads.settings()
    frame = reads.schedule()
    public = schedule_service.public_schedule(frame, settings.zone)
    return as_json(shape.schedule(key, frame, public, str(settings.zone)))


def schedule_ics(reads: data.Data, key: str, params: dict) -> tuple[bytes, str]:
    settings: Settings = reads.settings()
    return (calendar.calendar_ics(reads.schedule(), tournament=settings.tournament_name,
                                  calendar_name=settings.tournament_name, tz=settings.zone),
            calendar.MEDIA_TYPE)


def nickname(reads: data.Data, raw: str) -> str:
    nicknames = reads.kept(("nicknames",), lambda: {
        str(p): str(n) for p, n in zip(reads.player_directory()["player_id"],
                                       reads.player_directory()["nickname"])})
    if str(raw) not in nicknames:
        raise Missing(_("There is no player {player} in this tournament.").format(player=raw))
    return nicknames[str(raw)]


def calendar_path(key: str, player_id: int) -> str:
    """R26: the address of one player's calendar in the feed (My seat links it)."""
    return f"{shape.PREFIX}/tournaments/{key}/players/{int(player_id)}/calendar.ics"


def player_ics(reads: data.Data, key: str, params: dict) -> tuple[bytes, str]:
    player_id = int(params["player"])
    return (schedule_service.player_calendar(reads.engine, player_id,
                                             nickname(reads, params["player"])),
            calendar.MEDIA_TYPE)


def sittings(reads: data.Data, key: str, params: dict) -> tuple[bytes, str]:
    return as_json(shape.sittings(key, reads.sittings()))


def sitting(reads: data.Data, key: str, params: dict) -> tuple[bytes, str]:
    row = sitting_row(reads, params["ref"])
    sid = int(row["sitting_id"])
    return as_json(shape.sitting(key, row, reads.sitting_overview(sid),
                                 reads.scored_results(None)))


def _results_frame(reads: data.Data, ref: str) -> pd.DataFrame:
    from stsa.ui import sittings as sitting_view
    sid = int(sitting_row(reads, ref)["sitting_id"])
    return sitting_view.results_frame(reads.scored_results(None), sid)


def results(reads: data.Data, key: str, params: dict) -> tuple[bytes, str]:
    return as_json(shape.results(key, params["ref"], _results_frame(reads, params["ref"])))


def results_csv(reads: data.Data, key: str, params: dict) -> tuple[bytes, str]:
    frame = _results_frame(reads, params["ref"])
    return as_csv(frame.rename(columns=shape.RESULT_FIELDS))


def standings(reads: data.Data, key: str, params: dict) -> tuple[bytes, str]:
    return as_json(shape.standings(key, reads.standings_shown(), reads.standings_notes().cut))


def standings_csv(reads: data.Data, key: str, params: dict) -> tuple[bytes, str]:
    return as_csv(shape.standings_csv_frame(reads.standings_shown()))


def finals(reads: data.Data, key: str, params: dict) -> tuple[bytes, str]:
    standings = reads.standings()
    names = dict(zip(standings["player_id"], standings["name"].astype(str)))
    return as_json(shape.finals(key, reads.finals(), reads.finals_status(), names))


def _keys_by_season() -> dict[int, list[str]]:
    listed = session.listed()
    return {int(s): part["key"].tolist()
            for s, part in listed.loc[listed["season_id"].notna()].groupby("season_id")}


def seasons(params: dict) -> tuple[bytes, str]:
    return as_json(shape.seasons(season_setup.seasons(session.installation()), _keys_by_season()))


def _season_parts(params: dict):
    inst = session.installation()
    found = season_setup.seasons(inst)
    row = found.loc[found["season_id"].astype(int) == params["season"]].iloc[0]
    return row, season_service.season_table(inst, params["season"])


def season(params: dict) -> tuple[bytes, str]:
    row, table = _season_parts(params)
    return as_json(shape.season(params["season"], str(row["name"]), row["points"],
                                _keys_by_season().get(params["season"], []), table))


def season_csv(params: dict) -> tuple[bytes, str]:
    _row, table = _season_parts(params)
    return as_csv(season_service.season_sheet(table))
