"""The log in words (R19): each event the store logs as a sentence a person reads, with
sittings, tables and players by their names ("Corrected the result of Qualifier 2, table 4:
VP 7 → 8 for Wellington Yueh"), never ids or JSON. The raw values stay in the log itself and
its CSV download.

`event_sentences` is a pure function of the events and the names to use (`Places`);
`places_of` builds those from the tournament's frames and from the events themselves, so a
discarded sitting or a removed player is still named. Every action the store logs has its
sentence (`stsa.services.log_sentences`); an action not known there gets a plain one from
its name and values.

Reading the whole log is the organizer's (`events`, R20). Two kinds of event are flagged
wherever the log is shown: a qualifier result corrected after the finals were drawn (also on
Home, for the organizer and the judges: `late_corrections`), and history a restore brought
in from a workbook (its actor says so: `stsa.formats.workbook_reader.imported_actor`).
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterable
from typing import Any

import pandas as pd

from stsa import catalog, i18n, local_time, store
from stsa.auth import Actor, require
from stsa.domain import (
    Action,
    Role,
    sitting_label,
)
from stsa.formats import workbook_reader
from stsa.i18n import N_, _
from stsa.services.log_sentences import (  # the names the pages and scripts read here
    ACTIONS,
    LATE,
    ROLE_WORDS,
    TABLE,
    Places,
    _int,
    action_label,
    sentence,
)
from stsa.store.db import SYSTEM


class _Parsed:
    """A before/after value `parsed_once` read already (`_loaded` hands it out as it is)."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value


def parsed_once(events: pd.DataFrame) -> pd.DataFrame:
    """`events` with each before/after value read (`_loaded`) once, for `places_of` and
    `event_sentences` to share: the workbook's dump holds them as JSON text, and the
    draws' are long."""
    return events.assign(**{side: pd.Series([_Parsed(_loaded(v)) for v in events[side]],
                                            index=events.index, dtype=object)
                            for side in ("before", "after")})


def _loaded(value: Any) -> Any:
    """A before/after value as logged: parsed already, or JSON text (the workbook's dump)."""
    if isinstance(value, _Parsed):
        return value.value
    if isinstance(value, str):
        try:
            return json.loads(value)
        except ValueError:
            return value
    return None if value is None or (isinstance(value, float) and value != value) else value


def places_of(players: pd.DataFrame, sittings: pd.DataFrame, tables: pd.DataFrame,
              events: pd.DataFrame | None = None) -> Places:
    """R19: the names to use from the roster (`player_id, name`), the sittings (`sitting_id, kind,
    number`), the tables (`table_id, sitting_id, table_no`) and the events themselves (draws
    name their sitting and tables, additions and removals their players), so what is gone
    from the tournament is still named."""
    names, labels, at = {}, {}, {}
    for e in (_records(events, ["action", "subject", "before", "after"])
              if events is not None else []):
        before, after = _loaded(e["before"]), _loaded(e["after"])
        for side in (before, after):
            if e["action"] in (Action.SITTING_DRAW, Action.SITTING_REDRAW, Action.SITTING_DISCARD,
                               Action.SITTING_VOID) and \
                    isinstance(side, dict) and "kind" in side:
                label = sitting_label(side["kind"], side["number"])
                labels[_int(str(e["subject"]).removeprefix("sitting "))] = label
                for t in side.get("tables") or []:
                    at[_int(t.get("table_id"))] = _(TABLE).format(sitting=label,
                                                                 table=t.get("table_no"))
        if e["action"] == Action.PLAYERS_ADD and isinstance(after, list):
            names.update({_int(p.get("player_id")): p.get("name") for p in after})
        if e["action"] == Action.PLAYER_REMOVE and isinstance(before, dict):
            names[_int(before.get("player_id"))] = before.get("name")
    names.update(zip(players["player_id"].astype(int), players["name"]))
    kinds = dict(zip(sittings["sitting_id"].astype(int),
                     (sitting_label(k, n) for k, n in zip(sittings["kind"], sittings["number"]))))
    labels.update(kinds)
    at.update({int(t): _(TABLE).format(sitting=kinds.get(int(s)) or _("a sitting"), table=n)
               for t, s, n in zip(tables["table_id"], tables["sitting_id"], tables["table_no"])})
    setups = dict(catalog.setups(battle_of_wills=True)[["setup_id", "name"]]
                  .itertuples(index=False, name=None))
    return Places(names, labels, at, setups)


def event_sentences(events: pd.DataFrame, places: Places) -> pd.Series:
    """R19: each event (`action, subject, before, after`; before/after parsed or as JSON
    text) as one sentence, indexed like `events`."""
    return pd.Series([sentence(action, subject, _loaded(before), _loaded(after), places)
                      for action, subject, before, after in zip(
                          events["action"], events["subject"], events["before"],
                          events["after"])], index=events.index, dtype=object)


def _records(frame: pd.DataFrame, columns: list[str]) -> list[dict]:
    """The `columns` of each row as {column: value} (`to_dict("records")`, without its
    conversion of each value)."""
    return [dict(zip(columns, values)) for values in zip(*(frame[c] for c in columns))]


def readable(events: pd.DataFrame, places: Places) -> pd.DataFrame:
    """R19: the log as the Log page shows it, newest first: `event_id, at, actor, role,
    what (the action in words), details (the sentence)`."""
    newest = events.sort_values("event_id", ascending=False)
    return pd.DataFrame({
        "event_id": newest["event_id"], "at": newest["at"], "actor": newest["actor"],
        "role": newest["role"].map(lambda r: _(ROLE_WORDS.get(str(r), str(r).capitalize()))),
        "what": newest["action"].map(action_label),
        "details": event_sentences(newest, places)}).reset_index(drop=True)


def events(engine, *, actor: Actor, action: str | None = None, by: str | None = None,
           limit: int | None = None) -> pd.DataFrame:
    """R19, R20: the audit log as the Log page reads it (`store.events`): the organizer
    only, checked for the person asking, not for a shared read."""
    require(actor, Role.ORGANIZER, action=N_("read the log"))
    return store.events(engine, actor=actor, action=action, by=by, limit=limit)


def imported(events: pd.DataFrame) -> int:
    """R19: how many of `events` a restore brought in from a workbook (their actor says
    so)."""
    return int(events["actor"].map(workbook_reader.is_imported).sum()) if len(events) else 0


#: How the log and Home flag a qualifier result corrected once the finals were drawn (R20).
LATE_COLUMNS = ["event_id", "at", "actor", "table", "changes"]


def late_of(events: pd.DataFrame) -> pd.DataFrame:
    """R19, R20: the corrections among `events` (`store.events` frames) that the store flagged
    as made after the finals were drawn, newest first: `LATE_COLUMNS` (`table` as people
    name it, `changes` what it moved, in words)."""
    rows = [(e["event_id"], e["at"], e["actor"], flag.get("table", ""), flag.get("changes", ""))
            for e in events.to_dict("records")
            if e["action"] == Action.RESULT_CORRECT and isinstance(_loaded(e["after"]), dict)
            and isinstance(flag := _loaded(e["after"]).get("after_finals"), dict)]
    return pd.DataFrame(rows, columns=LATE_COLUMNS).iloc[::-1].reset_index(drop=True)


def late_lines(late: pd.DataFrame, tz: dt.tzinfo | None = None) -> list[str]:
    """R19, R20: `late_of` as the sentences Home and the Log page show: "A qualifier result was
    corrected after the finals were drawn: Qualifier 1, table 2, by Olivia on 2026-03-07 at
    14:05. It moves …"; times in the tournament's time zone `tz` (R26; None: this laptop's)."""
    local = tz or local_time.zone(None)
    return [_("{flag}: {table}, by {judge} on {day} at {time}.").format(
                flag=_(LATE), table=i18n.cell(table), judge=who,
                day=f"{pd.Timestamp(at).tz_convert(local):%Y-%m-%d}",
                time=f"{pd.Timestamp(at).tz_convert(local):%H:%M}")
            + (f" {changes}" if changes else "")
            for at, who, table, changes in zip(late["at"], late["actor"], late["table"],
                                               late["changes"])]


def late_corrections(engine, *, actor: Actor) -> list[str]:
    """R19, R20: every qualifier result corrected after the finals were drawn, in words
    (`late_lines`), newest first, for the organizer and the judges (Home). Reads only the
    corrections of the log, as the system (judges may not read the whole log)."""
    require(actor, Role.ORGANIZER, Role.JUDGE, action=N_("see late corrections"))
    return late_lines(late_of(store.events(engine, action=Action.RESULT_CORRECT, actor=SYSTEM)),
                      store.typed_settings(engine).zone)


def filters(actions: Iterable[str] = ACTIONS) -> dict[str, str]:
    """{label: the store's action filter} for the Log page: every known action by its words
    (R19)."""
    return {action_label(a): a for a in actions}
