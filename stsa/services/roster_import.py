"""A roster file in: read with the rules roster entry keeps (field lengths, when two names are
the same player), then every player added in one transaction (R19, R20).

A name already on the roster is named by the spreadsheet row it stands in, from the roster as
it is when the file is imported, so the message points at the row to fix. Everyone a file
brings is pre-registered (R21), in the order of its registration times, else of its rows.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from stsa import store
from stsa.auth import Actor, require
from stsa.domain import Role
from stsa.formats import roster_file
from stsa.formats.guards import at_row
from stsa.formats.roster_file import RosterRules, roster_error
from stsa.i18n import N_, _
from stsa.store import roster

RULES = RosterRules(name_key=store.normalize_name,
                    limits={"name": roster.NAME_MAX, "nickname": roster.NICKNAME_MAX,
                            "club": roster.CLUB_MAX, "city": 200,
                            "email": roster.EMAIL_MAX, "player_id": 200})


def read_roster(source: Any) -> pd.DataFrame:
    """A roster spreadsheet (.xlsx or .csv) as a frame `name, nickname, club, city, email,
    player_id, registered, row` (see `formats.roster_file.read_roster`), checked with the
    roster's own rules: every bad row named by its spreadsheet row number in one
    `RosterError`. Writes nothing."""
    return roster_file.read_roster(source, RULES)


def registration_order(frame: pd.DataFrame) -> pd.DataFrame:
    """R21: a read roster in registration order: by registration time (rows without one after
    those with one), then by row."""
    return frame.sort_values([roster_file.REGISTERED, "row"], kind="stable", na_position="last")


def _entries(frame: pd.DataFrame) -> list[dict]:
    """Store entries: name, nickname (R22), club, email; city, the file's player id and
    registration time as extra details."""
    times = frame[roster_file.REGISTERED].dt.strftime("%Y-%m-%d %H:%M:%S")
    return [{"name": rec["name"], "nickname": rec.get("nickname") or "",
             "club": rec["club"] or "", "email": rec["email"] or "",
             "extra": {k: v for k, v in (("city", rec["city"]),
                                         ("roster_id", rec["player_id"]),
                                         ("registered", when)) if isinstance(v, str) and v}}
            for rec, when in zip(frame.to_dict("records"), times)]


def _refuse_clashes(engine, frame: pd.DataFrame, actor: Actor) -> None:
    """A `RosterError` naming each row whose player, or nickname (R22), is already on the
    roster."""
    players = store.players(engine, actor=actor)
    taken = dict(zip(players["name"].map(store.normalize_name), players["name"]))
    nick_of = dict(zip(players["nickname"].map(store.normalize_name), players["name"]))
    nicks = frame["nickname"].where(frame["nickname"] != "", frame["name"])
    rows = frame.assign(key=frame["name"].map(store.normalize_name), nick=nicks,
                        nick_key=nicks.map(store.normalize_name))
    name_clash = rows["key"].isin(list(taken))
    nick_clash = ~name_clash & rows["nick_key"].isin(list(nick_of))
    problems = [at_row(row, _("{player} is already on the roster as {existing}").format(
                    player=name, existing=repr(taken[key])))
                for row, name, key in rows.loc[name_clash, ["row", "name", "key"]]
                .itertuples(index=False, name=None)]
    problems += [at_row(row, _("the nickname {nickname} is already {player}'s").format(
                     nickname=repr(nick), player=nick_of[key]))
                 for row, nick, key in rows.loc[nick_clash, ["row", "nick", "nick_key"]]
                 .itertuples(index=False, name=None)]
    if problems:
        raise roster_error(sorted(problems, key=lambda p: p.row or 0))  # rows count from 1


def import_roster(engine, source: Any, *, actor: Actor) -> pd.DataFrame:
    """Read a roster file (see `read_roster`; a frame is also taken, such as the one
    `read_roster` returned for a page's preview, and checked the same way) and add every player
    in one transaction: all or nothing (R19, R20); a Nickname column gives each player's name
    in public (R22). R21: the players are pre-registered, in `registration_order`, after those
    already on the roster. City, the file's player id and registration time are kept with each
    player as extra details (`city`, `roster_id`, `registered`). A clash with a player already
    on the roster is named by spreadsheet row. Returns the added players as a `store.players`
    frame; empty, writing nothing, when the file holds no players (e.g. the untouched
    template)."""
    require(actor, Role.ORGANIZER, action=N_("change the roster"))
    frame = (roster_file.check_roster(source, RULES) if isinstance(source, pd.DataFrame)
             else read_roster(source))
    if frame.empty:
        return store.players(engine, actor=actor).head(0)
    _refuse_clashes(engine, frame, actor)
    ordered = registration_order(frame)
    try:
        return store.import_players(engine, _entries(ordered), actor=actor, pre_registered=True,
                                    labels=[_("row {number}").format(number=r)
                                            for r in ordered["row"]])
    except store.DuplicateName:
        _refuse_clashes(engine, frame, actor)  # a name added meanwhile: say which row
        raise
