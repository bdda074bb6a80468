"""The installation's tournaments as the Tournaments page shows and changes them (R27): the
list for everyone (the current ones first, then the past ones with their champion), and the
organizer's create, archive, reopen and delete, and the demo as a tournament of its own.

The store keeps where each tournament lives and refuses what may not be done (an archived
tournament's changes, a delete without its backup or its typed name); this module reads each
tournament's name, days and podium for the list, through `opener` (the pages' shared engines).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass

import pandas as pd
from sqlalchemy.engine import Engine

from stsa import schedule as plan
from stsa import store
from stsa.auth import Actor, require
from stsa.domain import FinalsStatus, Role, TournamentError
from stsa.i18n import N_, _
from stsa.services import home, schedule

DEMO_NAME = "Demo tournament"
LIST_COLUMNS = ["tournament_id", "key", "name", "venue", "starts_on", "ends_on", "days",
                "archived", "players", "champion", "current", "demo", "season_id"]


@dataclass(frozen=True)
class Made:
    """A tournament just made: its id, address key and judges' PIN (to show once)."""

    tournament_id: int
    key: str
    judge_pin: str
    name: str


def days_words(starts_on: str | None, ends_on: str | None) -> str:
    """"2026-03-28 – 2026-03-29", one day alone, or "" without days."""
    if starts_on and ends_on and ends_on != starts_on:
        return f"{starts_on} – {ends_on}"
    return starts_on or ends_on or ""


def listing(installation, opener: Callable[[int], Engine],
            today: dt.date | None = None) -> pd.DataFrame:
    """R27: every tournament of the installation, the current ones first (newest first), then
    the past ones (archived, finished with a champion, or whose last day has gone), newest
    first: `LIST_COLUMNS`. Public: names, venues, days, how many players, the champion's
    nickname; nothing else of anyone."""
    today = today or dt.date.today()
    listed = store.tournaments(installation)
    rows = []
    for found in listed.itertuples():  # one row a tournament (a handful), not a rule
        engine = opener(int(found.tournament_id))
        status = home.home_status(engine)
        settings = store.typed_settings(engine)
        champion = next((nick for place, nick in status.podium
                         if place == FinalsStatus.CHAMPION), "")
        archived = store.archived(engine) is not None
        ended = settings.ends_on is not None and settings.ends_on < today.isoformat()
        first, last = schedule.tournament_days(  # issue 33: the planned days once planned
            settings, plan.schedule_frame(store.schedule_items(engine)))
        rows.append({"tournament_id": int(found.tournament_id), "key": found.key,
                     "name": status.tournament_name, "venue": settings.venue or "",
                     "starts_on": first or "", "ends_on": last or "",
                     "days": days_words(first, last),
                     "archived": archived, "players": status.players, "champion": champion,
                     "current": not (archived or champion or ended), "demo": bool(found.demo),
                     "season_id": found.season_id})
    frame = pd.DataFrame(rows, columns=LIST_COLUMNS)
    return (frame.assign(_first=frame["starts_on"].replace("", "9999"))
            .sort_values(["current", "_first", "tournament_id"], ascending=False,
                         kind="stable")
            .drop(columns="_first").reset_index(drop=True))


def create(installation, name: str, *, venue: str | None = None, starts_on=None,
           ends_on=None, time_zone: str | None = None, copy_from=None,
           actor: Actor) -> Made:
    """R27: a new tournament (see `store.create_tournament`): a name no other tournament here
    has, its venue, days and time zone, other settings copied from `copy_from` (an engine) or
    the defaults."""
    require(actor, Role.ORGANIZER, action=N_("create tournaments"))
    clean = " ".join(str(name or "").split())
    if not clean:
        raise TournamentError(_("Give the tournament a name."))
    made = store.create_tournament(installation, clean, venue=venue or None,
                                   starts_on=starts_on or None, ends_on=ends_on or None,
                                   time_zone=time_zone or None, copy_from=copy_from,
                                   actor=actor)
    return Made(made.tournament_id, made.key, made.judge_pin, clean)


def try_demo(installation, *, actor: Actor) -> Made:
    """The demo as a tournament of its own (R27): 24 players and three completed qualifier
    sittings (`stsa.demo.load_demo`), deleted again in one click."""
    from stsa import demo  # the demo is built through the services themselves

    require(actor, Role.ORGANIZER, action=N_("load the demo"))
    made = store.create_tournament(installation, DEMO_NAME, demo=True, actor=actor)
    engine = store.open_tournament(installation, made.tournament_id)
    try:
        demo.load_demo(engine, actor=actor)
    except BaseException:
        store.delete_tournament(engine, actor=actor)
        raise
    finally:
        if engine is not installation:
            engine.dispose()
    return Made(made.tournament_id, made.key, made.judge_pin, DEMO_NAME)


def delete(engine, *, actor: Actor, confirm: str | None = None) -> str:
    """R27: delete the tournament of `engine` after its backup (`store.delete_tournament`);
    the words to say so, naming the backup file. The last tournament stays: STSA always
    shows one."""
    if len(store.tournaments(engine)) <= 1:
        raise TournamentError(_("This is the only tournament here: create the next one before "
                                "deleting it."))
    name = store.typed_settings(engine).tournament_name
    saved = store.delete_tournament(engine, actor=actor, confirm=confirm)
    return _("“{tournament}” is deleted. Its backup is kept: {file}.").format(
        tournament=name, file=saved.name)


def links_words(engine) -> str:
    """R27: whether a rename moves this tournament's links (its address key in the feed's and
    calendars' addresses, pages' ?t= and the results zip's folder), in words for where the
    name is edited (`store.links_fixed`); "" for an engine on no listed tournament."""
    from stsa.store import db
    from stsa.store.tournaments import find

    tid = db.tournament_id(engine)
    if tid is None:
        return ""
    key = find(db.installation(engine), tid)["key"]
    if store.links_fixed(engine):
        return _("Links stay “{key}” when you rename it: people may have them already (a "
                 "draw is published, the schedule planned, a judge invited or an overlay "
                 "made).").format(key=key)
    return _("Links (the feed, calendars, page addresses, the results zip) use "
             "“{key}”. A new name moves them to the new name's until a draw is published, "
             "the schedule planned, a judge invited or an overlay made; from then on they "
             "stay.").format(key=key)


archive = store.archive_tournament
reopen = store.reopen_tournament
archived = store.archived
