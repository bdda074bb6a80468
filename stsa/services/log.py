"""The log in words (R19): each event the store logs as a sentence a person reads, with
sittings, tables and players by their names ("Corrected the result of Qualifier 2, table 4:
VP 7 → 8 for Wellington Yueh"), never ids or JSON. The raw values stay in the log itself and
its CSV download.

`event_sentences` is a pure function of the events and the names to use (`Places`);
`places_of` builds those from the tournament's frames and from the events themselves, so a
discarded sitting or a removed player is still named. Every action the store logs has its
sentence; an action this module does not know gets a plain one from its name and values.

Reading the whole log is the organizer's (`events`, R20). Two kinds of event are flagged
wherever the log is shown: a qualifier result corrected after the finals were drawn (also on
Home, for the organizer and the judges: `late_corrections`), and history a restore brought
in from a workbook (its actor says so: `stsa.formats.workbook.imported_actor`).
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from stsa import catalog, local_time, store
from stsa.auth import Actor, require
from stsa.domain import (
    ACTION_LABELS,
    Action,
    DrawMode,
    Role,
    plural,
    rule_change_line,
    sitting_label,
)
from stsa.formats import workbook
from stsa.settings import Settings
from stsa.settings import label as setting_label
from stsa.settings import words as setting_words
from stsa.store.db import SYSTEM

SHOWN_NAMES = 8  # names listed in one sentence before "and n more"
RESULT_FIELDS = {"leader": "leader", "vp": "VP", "spice": "spice", "solari": "solari",
                 "troops": "troops", "water": "water", "variant_points": "variant points",
                 "tiebreak": "tie-break"}
PLAYER_FIELDS = {"name": "name", "nickname": "nickname", "club": "club", "email": "email",
                 "extra": "details", "registration_order": "registration order",
                 "checked_in_at": "check-in time", "status": "status"}

#: What each logged action is, in words (the Log page's "What" column and filter).
# What each logged action is, in words, by its stored code.
ACTIONS: dict[str, str] = {action.value: words for action, words in ACTION_LABELS.items()}


@dataclass(frozen=True)
class Places:
    """The names a sentence uses: players by id, sittings by id ("Qualifier 2"), tables by id
    ("Qualifier 2, table 4"), setups by id."""

    players: Mapping[int | None, str] = field(default_factory=dict)  # keys as _int gives them
    sittings: Mapping[int | None, str] = field(default_factory=dict)
    tables: Mapping[int | None, str] = field(default_factory=dict)
    setups: Mapping[str, str] = field(default_factory=dict)

    def player(self, player_id: Any) -> str:
        return self.players.get(_int(player_id)) or f"player #{player_id}"

    def sitting(self, sitting_id: Any) -> str:
        return self.sittings.get(_int(sitting_id)) or f"a sitting (#{sitting_id})"

    def table(self, table_id: Any) -> str:
        return self.tables.get(_int(table_id)) or f"a table (#{table_id})"

    def setup(self, setup_id: Any) -> str:
        return self.setups.get(setup_id) or str(setup_id)


def _int(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def _loaded(value: Any) -> Any:
    """A before/after value as logged: parsed already, or JSON text (the workbook's dump)."""
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
    for e in (events.to_dict("records") if events is not None else []):
        before, after = _loaded(e["before"]), _loaded(e["after"])
        for side in (before, after):
            if e["action"] in (Action.SITTING_DRAW, Action.SITTING_REDRAW, Action.SITTING_DISCARD,
                               Action.SITTING_VOID) and \
                    isinstance(side, dict) and "kind" in side:
                label = sitting_label(side["kind"], side["number"])
                labels[_int(str(e["subject"]).removeprefix("sitting "))] = label
                for t in side.get("tables") or []:
                    at[_int(t.get("table_id"))] = f"{label}, table {t.get('table_no')}"
        if e["action"] == Action.PLAYERS_ADD and isinstance(after, list):
            names.update({_int(p.get("player_id")): p.get("name") for p in after})
        if e["action"] == Action.PLAYER_REMOVE and isinstance(before, dict):
            names[_int(before.get("player_id"))] = before.get("name")
    names.update(zip(players["player_id"].astype(int), players["name"]))
    kinds = dict(zip(sittings["sitting_id"].astype(int),
                     (sitting_label(k, n) for k, n in zip(sittings["kind"], sittings["number"]))))
    labels.update(kinds)
    at.update({int(t): f"{kinds.get(int(s), 'a sitting')}, table {n}"
               for t, s, n in zip(tables["table_id"], tables["sitting_id"], tables["table_no"])})
    setups = dict(catalog.setups(battle_of_wills=True)[["setup_id", "name"]]
                  .itertuples(index=False, name=None))
    return Places(names, labels, at, setups)


def event_sentences(events: pd.DataFrame, places: Places) -> pd.Series:
    """R19: each event (`action, subject, before, after`; before/after parsed or as JSON
    text) as one sentence, indexed like `events`."""
    return pd.Series([sentence(e["action"], e["subject"], _loaded(e["before"]),
                               _loaded(e["after"]), places)
                      for e in events[["action", "subject", "before", "after"]]
                      .to_dict("records")], index=events.index, dtype=object)


def action_label(action: str) -> str:
    """R19: an action in words (Action.RESULT_CORRECT → "Result corrected"); an unknown one from
    its name ("waiting.move" → "Waiting move")."""
    return ACTIONS.get(action) or str(action).replace(".", " ").replace("_", " ").capitalize()


def sentence(action: str, subject: str, before: Any, after: Any, places: Places) -> str:
    """R19: one event in words; an action not known here, or a payload of a shape it does
    not expect, gets a plain sentence from the action's name and values."""
    write = _SENTENCES.get(action, _plain)
    try:
        return write(action, subject, before, after, places)
    except (KeyError, TypeError, ValueError, AttributeError):  # a payload of another shape
        return _plain(action, subject, before, after, places)


# -- words for values ---------------------------------------------------------------------------
def _value(value: Any) -> str:
    """A logged value in words: lists joined, empty as "(none)", true/false as yes/no."""
    if value is None or value == "" or value == [] or value == {}:
        return "(none)"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict):
        return "; ".join(f"{k.replace('_', ' ')} {_value(v)}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return ", ".join(_value(v) for v in value)
    return str(value)


def _names(names: list[str], limit: int = SHOWN_NAMES) -> str:
    """"Ann, Bo and Cy", or the first `limit` and how many more."""
    names = [str(n) for n in names]
    if len(names) > limit:
        return f"{', '.join(names[:limit])} and {len(names) - limit} more"
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _changes(before: Mapping, after: Mapping, words: Mapping[str, str]) -> str:
    """"name Ann → Ann Lee; club (none) → Arrakis"."""
    keys = [k for k in {**before, **after} if before.get(k) != after.get(k)]
    return "; ".join(f"{words.get(k, k.replace('_', ' '))} {_value(before.get(k))} → "
                     f"{_value(after.get(k))}" for k in keys)


def _subject(subject: str, places: Places) -> str:
    """"table 8" → "Qualifier 2, table 4", "player 13" → the name, "sitting 3" → its label."""
    kind, _, ident = str(subject).partition(" ")
    known = {"table": places.table, "player": places.player, "sitting": places.sitting}
    if kind in known and _int(ident) is not None:
        return known[kind](ident)
    return {"role organizer": "the organizer PIN", "role judge": "the judge PIN"}.get(
        subject, str(subject))


def _id(subject: str) -> str:
    return str(subject).partition(" ")[2]


# -- one sentence per action ---------------------------------------------------------------------
def _players_add(action, subject, before, after, places):
    named = [p["name"] + "".join(f" ({w})" for w in (
        f"nickname {p['nickname']}" if p.get("nickname") not in (None, "", p["name"]) else "",
        p.get("club")) if w) for p in after]
    if len(named) == 1:
        return f"Added {named[0]} to the roster."
    return f"Added {len(named)} players to the roster: {_names(named)}."


def _player_edit(action, subject, before, after, places):
    return f"Edited {places.player(_id(subject))}: {_changes(before, after, PLAYER_FIELDS)}."


def _player_remove(action, subject, before, after, places):
    return f"Removed {before.get('name') or places.player(_id(subject))} from the roster."


def _player_status(action, subject, before, after, places):
    verb = "Withdrew" if action == Action.PLAYER_WITHDRAW else "Reinstated"
    return f"{verb} {places.player(_id(subject))}" + (
        " (results stay)." if action == Action.PLAYER_WITHDRAW else ".")


def _check_in(action, subject, before, after, places):
    ids = after["player_ids"]
    verb = "Checked in" if action == Action.PLAYERS_CHECK_IN else "Checked out"
    return f"{verb} {plural(len(ids), 'player')}: {_names([places.player(p) for p in ids])}."


def _absence(action, subject, before, after, places):
    who = places.player(_id(subject))
    if action == Action.PLAYER_ABSENT:
        return f"Marked {who} absent for the finals."
    return f"Marked {who} present again for the finals."


def _draw_words(summary: Mapping) -> str:
    tables, seats = summary.get("tables") or [], summary.get("seats") or []
    words = f"{plural(len(tables), 'table')}, {plural(len(seats), 'player')}"
    if summary.get("sit_outs"):
        words += f", {plural(len(summary['sit_outs']), 'player')} sitting out"
    if summary.get("waiting"):  # R21
        words += f", {plural(len(summary['waiting']), 'player')} waiting"
    return words + f", seed {summary.get('seed')}"


def _sitting_draw(action, subject, before, after, places):
    label = sitting_label(after["kind"], after["number"])
    how = []
    if after.get("mode") == DrawMode.BALANCED:
        how.append("balanced draw")
    if after.get("pins"):
        how.append(f"{plural(len(after['pins']), 'player')} kept at their table")
    extra = f" ({'; '.join(how)})" if how else ""
    if action == Action.SITTING_REDRAW:
        return (f"Drew {label} again: {_draw_words(after)}{extra}; the earlier draw had seed "
                f"{(before or {}).get('seed')}.")
    return f"Drew {label}: {_draw_words(after)}{extra}."


def _sitting_discard(action, subject, before, after, places):
    return (f"Discarded the unpublished draw of {sitting_label(before['kind'], before['number'])}"
            f" (seed {before.get('seed')}).")


def _reason(after: Mapping) -> str:
    return f" (reason: {after['reason']})." if after.get("reason") else "."


def _sitting_void(action, subject, before, after, places):
    return (f"Voided {sitting_label(before['kind'], before['number'])} before any result: "
            f"{_draw_words(before)}; its number is free for the next draw"
            + _reason(after))


def _replace_player(action, subject, before, after, places):
    where = after.get("table") or places.table(_id(subject))
    came = after["name"] + (" (was sitting out)" if after.get("was_sitting_out") else "") + (
        f" (was number {after['was_waiting']} on the waiting list)"
        if after.get("was_waiting") else "")
    return (f"{came} took seat {after['seat']} at {where} in place of {before['name']}, "
            f"keeping its colour and pick order" + _reason(after))


def _empty_seat(action, subject, before, after, places):
    where = after.get("table") or places.table(_id(subject))
    return (f"{after['left']} left {where}, which plays with "
            f"{plural(len(after['seats']), 'player')} now" + _reason(after))


def _sitting_status(action, subject, before, after, places):
    label = places.sitting(_id(subject))
    if action == Action.SITTING_PUBLISH:
        return f"Published {label}: everyone sees its tables now."
    return f"{label} is complete: every table has a result."


def _rule_change(action, subject, before, after, places):
    """R24: the rule change set (or removed) before publishing, with what it was."""
    label, old, new = places.sitting(_id(subject)), rule_change_line(before or {}), \
        rule_change_line(after)
    was = f" (it was: {old})" if old else ""
    if not new:
        return f"Removed the rule change of {label}{was}."
    return f"Set the rule change of {label}: {new}{was}."


def _override_setup(action, subject, before, after, places):
    words = (f"Changed the setup of {places.table(_id(subject))}: "
             f"{places.setup(before['setup_id'])} → {places.setup(after['setup_id'])}")
    return words + (f" (reason: {after['reason']})." if after.get("reason") else ".")


def _result_line(row: Mapping, places: Places) -> str:
    return f"{places.player(row['player_id'])} {row['vp']} VP"


def _result(action, subject, before, after, places):
    where = places.table(_id(subject))
    rows = sorted(after["rows"], key=lambda r: r.get("seat", 0))
    if action == Action.RESULT_SUBMIT:
        return (f"Entered the result of {where}: "
                f"{'; '.join(_result_line(r, places) for r in rows)}.")
    old = {r["player_id"]: r for r in (before or {}).get("rows", [])}
    changes = [f"{words} {_value(old.get(r['player_id'], {}).get(f))} → {_value(r.get(f))} "
               f"for {places.player(r['player_id'])}"
               for r in rows for f, words in RESULT_FIELDS.items()
               if old.get(r["player_id"], {}).get(f) != r.get(f)]
    version = f" (version {after.get('version')})" if after.get("version") else ""
    late = after.get("after_finals")
    flag = f"{LATE}: " if late else ""
    note = f" {late['changes']}" if late and late.get("changes") else ""
    over = after.get("over")  # R19: chosen over another judge's save that came first
    verb = (f"Saved over {over['saved_by']}'s version {over['version']} of the result of "
            f"{where}, after both saved it" if over else f"Corrected the result of {where}")
    if not changes:
        return f"{flag}Saved the result of {where} again, unchanged{version}.{note}"
    return f"{flag}{verb}{version}: {'; '.join(changes)}.{note}"


def _vote_off(action, subject, before, after, places):
    votes = after.get("votes") or []
    voters = len({v.get("player_id") for v in votes})
    again = " again" if before else ""
    return (f"Entered the leader votes{again} at {places.table(_id(subject))} "
            f"({plural(voters, 'player')} voted): removed {_names(after['removed'] or ['none'])}.")


def _wild_card(action, subject, before, after, places):
    parts = [f"{places.player(r['player_id'])} took a random one: {r['picked_leader']} → "
             f"{r['leader']}" if r.get("swapped") else
             f"{places.player(r['player_id'])} kept {r['leader']}"
             for r in sorted(after, key=lambda r: r.get("seat", 0))]
    return f"Drew the wild cards at {places.table(_id(subject))}: {'; '.join(parts)}."


def _settings(action, subject, before, after, places):
    def text(key: str, value: Any) -> str:
        if key == "enabled_setups" and isinstance(value, list):
            value = [places.setup(v) for v in value]
        return setting_words(key, value)

    changes = [f"{setting_label(k)} {text(k, (before or {}).get(k))} → {text(k, v)}"
               for k, v in after.items()]
    return f"Changed the settings: {'; '.join(changes)}."


def _pin(action, subject, before, after, places):
    return f"Set {_subject(subject, places)} (everyone signed in with the old one is signed out)."


def _revoke(action, subject, before, after, places):
    return (f"Signed everyone out ({plural(int(after.get('ended', 0)), 'session')} ended; "
            f"the organizer who did it stays signed in).")


def _unlock(action, subject, before, after, places):
    forgotten = plural(int(after.get("forgotten", 0)), "wrong PIN")
    return f"Lifted the sign-in pause: forgot {forgotten} (the PINs stay as they were)."


def _invitation(action, subject, before, after, places):
    name = after.get("name")
    if action == Action.INVITATION_CREATE:
        return (f"Invited {name} to sign in as a judge by QR code, valid for "
                f"{plural(int(after.get('hours', 0)), 'hour')}.")
    if action == Action.INVITATION_USE:
        return f"{name} signed in as a judge with their invitation (its QR code)."
    return (f"Withdrew the invitation of {name} "
            f"({plural(int(after.get('ended', 0)), 'session')} ended).")


def _tournament_restore(action, subject, before, after, places):
    rows = after.get("rows") or {}
    counts = ", ".join(plural(int(rows.get(k, 0)), w) for k, w in (
        ("players", "player"), ("sittings", "sitting"), ("results", "player result"),
        ("events", "log event")))
    return f"Restored the tournament from {after.get('source')}: {counts}."


def _backup_restore(action, subject, before, after, places):
    return (f"Restored the backup {after.get('restored_from')} ({after.get('rows')} rows); the "
            f"tournament as it was is kept in {after.get('safety_backup')}.")


def _schedule_item(item: Mapping) -> str:
    kind, number, title = item.get("sitting_kind"), item.get("sitting_number"), item.get("title")
    label = sitting_label(kind, number or 1) if kind else ""
    if not title:
        return label
    return str(title) if not label or title == label else f"{label} ({title})"


def _schedule(action, subject, before, after, places):
    """R26: an item planned, changed or removed, its start in the tournament's time."""
    if action == Action.SCHEDULE_REMOVE:
        return f"Took {_schedule_item(before)} off the schedule (it was at {before['starts']})."
    if action == Action.SCHEDULE_ADD:
        return (f"Planned {_schedule_item(after)}: {after['starts']}, "
                f"{plural(int(after['minutes']), 'minute')}.")
    parts = [f"{what} {old} → {new}" for what, old, new in (
        ("title", before.get("title"), after.get("title")),
        ("start", before.get("starts"), after.get("starts")),
        ("length", f"{before.get('minutes')} min", f"{after.get('minutes')} min"),
        ("sitting", _schedule_item({**before, "title": ""}) or "none",
         _schedule_item({**after, "title": ""}) or "none")) if old != new]
    return f"Changed {_schedule_item(before)} on the schedule: {'; '.join(parts) or 'nothing'}."


def _schedule_shift(action, subject, before, after, places):
    """R26: running late: what moved, and by how much."""
    minutes = int(after.get("minutes", 0))
    way = "later" if minutes > 0 else "earlier"
    titles = list(after.get("titles") or [])
    return (f"Running late: moved {plural(len(titles), 'item')} from {after.get('from')} on "
            f"{plural(abs(minutes), 'minute')} {way}: {_names(titles)}.")
def _clock(action, subject, before, after, places):
    """R26: what a judge or the organizer told a sitting's clock."""
    label = after.get("sitting") or places.sitting(_id(subject))
    kind = after.get("action")
    minutes = plural(int(after.get("minutes") or 0), "minute")
    if kind == "extend":
        return f"Gave everyone in {label} {minutes} more on the clock."
    if kind == "extend_table":
        return (f"Gave {minutes} more to {label}, table {after.get('table_no')} alone"
                + _reason(after))
    words = {"start": "Started the clock of", "pause": "Paused the clock of",
             "resume": "Resumed the clock of", "call": "Called time early in"}
    return f"{words.get(kind, 'Changed the clock of')} {label}."


def _plain(action, subject, before, after, places):
    """An action this module does not know: its name, what it concerns, and the values that
    changed, in words."""
    words = f"{action_label(action)}: {_subject(subject, places)}"
    if isinstance(before, dict) and isinstance(after, dict):
        changed = _changes(before, after, {})
        return words + (f" ({_short(changed)})." if changed else ".")
    shown = [f"{side}: {_short(_value(v))}" for side, v in (("before", before), ("after", after))
             if v is not None]
    return words + (f" ({'; '.join(shown)})." if shown else ".")


def _short(text: str, limit: int = 300) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _bookings_import(action, subject, before, after, places):
    number = _id(subject)
    parts = [f"{verb} {_names([places.player(p) for p in after[key]])}"
             for key, verb in (("added", "added"), ("removed", "removed"), ("moved", "moved"))
             if after.get(key)]
    return (f"Booking list for Qualifier {number}: {plural(len(after['player_ids']), 'player')}"
            f" booked" + (f" ({'; '.join(parts)})." if parts else "."))


def _booking_replace(action, subject, before, after, places):
    who = places.player(after["player_id"])
    if after.get("replaced_by") is None:
        return f"Qualifier {_id(subject)}: {who}'s booked seat is theirs again."
    return (f"Qualifier {_id(subject)}: {who}'s booked seat given to "
            f"{places.player(after['replaced_by'])} (first on the waiting list).")


def _self_check_in(action, subject, before, after, places):
    who = places.player(_id(subject))
    if action == Action.PLAYER_SELF_CHECK_IN:
        return f"{who} checked in on My seat with the room's code."
    return f"Undid {who}'s check-in on My seat ({who} is checked out)."


def _directory(action, subject, before, after, places):
    """R27: the player directory's changes (people across tournaments), counted."""
    if action == Action.DIRECTORY_LINK:
        links = (after or {}).get("links") or []
        return (f"Linked {plural(len(links), 'player')} of this and earlier tournaments in the "
                f"player directory.")
    if action == Action.DIRECTORY_MERGE:
        moved = (before or {}).get("players") or []
        return (f"Merged two people of the player directory into one "
                f"({plural(len(moved), 'tournament entry', 'tournament entries')} moved).")
    return "Split a tournament's player off into a person of their own in the directory."


def _overlay(action, subject, before, after, places):
    what = OVERLAY_WORDS.get(str((after or {}).get("kind")), "an overlay")
    if (after or {}).get("table_no"):  # a number in every sitting, not one table's id
        what += f" number {int(after['table_no'])}"
    if action == Action.OVERLAY_CREATE:
        return f"Made a stream overlay of {what}."
    return f"Withdrew the stream overlay of {what}: its address shows nothing any more."


OVERLAY_WORDS = {"table": "the filmed table", "standings": "the standings",
                 "next": "what comes next"}


_SENTENCES: dict[str, Callable[..., str]] = {
    Action.PLAYERS_ADD: _players_add, Action.PLAYER_EDIT: _player_edit,
    Action.PLAYER_REMOVE: _player_remove, Action.PLAYER_WITHDRAW: _player_status,
    Action.PLAYER_REINSTATE: _player_status, Action.PLAYERS_CHECK_IN: _check_in,
    Action.PLAYERS_CHECK_OUT: _check_in, Action.PLAYER_ABSENT: _absence,
    Action.PLAYER_PRESENT: _absence, Action.SITTING_DRAW: _sitting_draw,
    Action.SITTING_REDRAW: _sitting_draw, Action.SITTING_DISCARD: _sitting_discard,
    Action.SITTING_PUBLISH: _sitting_status, Action.SITTING_COMPLETE: _sitting_status,
    Action.SITTING_RULE_CHANGE: _rule_change, Action.TABLE_OVERRIDE_SETUP: _override_setup,
    Action.SITTING_VOID: _sitting_void, Action.TABLE_REPLACE_PLAYER: _replace_player,
    Action.TABLE_EMPTY_SEAT: _empty_seat, Action.RESULT_SUBMIT: _result,
    Action.RESULT_CORRECT: _result, Action.PICKS_VOTE_OFF: _vote_off,
    Action.PICKS_WILD_CARD: _wild_card, Action.SETTINGS_CHANGE: _settings, Action.PIN_SET: _pin,
    Action.SESSION_REVOKE_ALL: _revoke, Action.TOURNAMENT_RESTORE: _tournament_restore,
    Action.BACKUP_RESTORE: _backup_restore, Action.SIGN_IN_UNLOCK: _unlock,
    Action.INVITATION_CREATE: _invitation, Action.INVITATION_USE: _invitation,
    Action.INVITATION_REVOKE: _invitation,
    Action.SCHEDULE_ADD: _schedule, Action.SCHEDULE_EDIT: _schedule,
    Action.SCHEDULE_REMOVE: _schedule, Action.SCHEDULE_SHIFT: _schedule_shift,
    Action.SITTING_CLOCK: _clock, Action.BOOKINGS_IMPORT: _bookings_import,
    Action.BOOKING_REPLACE: _booking_replace, Action.PLAYER_SELF_CHECK_IN: _self_check_in,
    Action.PLAYER_SELF_CHECK_IN_UNDO: _self_check_in,
    Action.DIRECTORY_LINK: _directory, Action.DIRECTORY_MERGE: _directory,
    Action.DIRECTORY_SPLIT: _directory,
    Action.OVERLAY_CREATE: _overlay, Action.OVERLAY_REVOKE: _overlay,
}


def readable(events: pd.DataFrame, places: Places) -> pd.DataFrame:
    """R19: the log as the Log page shows it, newest first: `event_id, at, actor, role,
    what (the action in words), details (the sentence)`."""
    newest = events.sort_values("event_id", ascending=False)
    return pd.DataFrame({
        "event_id": newest["event_id"], "at": newest["at"], "actor": newest["actor"],
        "role": newest["role"].map(lambda r: str(r).capitalize()),
        "what": newest["action"].map(action_label),
        "details": event_sentences(newest, places)}).reset_index(drop=True)


def events(engine, *, actor: Actor, action: str | None = None, by: str | None = None,
           limit: int | None = None) -> pd.DataFrame:
    """R19, R20: the audit log as the Log page reads it (`store.events`): the organizer
    only, checked for the person asking, not for a shared read."""
    require(actor, Role.ORGANIZER, action="read the log")
    return store.events(engine, actor=actor, action=action, by=by, limit=limit)


def imported(events: pd.DataFrame) -> int:
    """R19: how many of `events` a restore brought in from a workbook (their actor says
    so)."""
    return int(events["actor"].map(workbook.is_imported).sum()) if len(events) else 0


#: How the log and Home flag a qualifier result corrected once the finals were drawn (R20).
LATE = "A qualifier result was corrected after the finals were drawn"
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
    return [f"{LATE}: {table}, by {who} on "
            f"{pd.Timestamp(at).tz_convert(local):%Y-%m-%d at %H:%M}."
            + (f" {changes}" if changes else "")
            for at, who, table, changes in zip(late["at"], late["actor"], late["table"],
                                               late["changes"])]


def late_corrections(engine, *, actor: Actor) -> list[str]:
    """R19, R20: every qualifier result corrected after the finals were drawn, in words
    (`late_lines`), newest first, for the organizer and the judges (Home). Reads only the
    corrections of the log, as the system (judges may not read the whole log)."""
    require(actor, Role.ORGANIZER, Role.JUDGE, action="see late corrections")
    return late_lines(late_of(store.events(engine, action=Action.RESULT_CORRECT, actor=SYSTEM)),
                      Settings.of(store.settings(engine)).zone)


def filters(actions: Iterable[str] = ACTIONS) -> dict[str, str]:
    """{label: the store's action filter} for the Log page: every known action by its words
    (R19)."""
    return {action_label(a): a for a in actions}
