"""The log's sentences (R19): one sentence per logged action, in the run's language, with
sittings, tables and players by the names `Places` holds ("Corrected the result of Qualifier 2,
table 4: VP 7 → 8 for Wellington Yueh"), never ids or JSON; an action not known here gets a
plain sentence from its name and values. `stsa.services.log` reads the log and names the
places; this module only words one event.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from stsa import i18n
from stsa.domain import (
    ACTION_LABELS,
    Action,
    DrawMode,
    rule_change_line,
    sitting_label,
)
from stsa.i18n import N_, _, ngettext
from stsa.services import admin
from stsa.settings import label as setting_label
from stsa.settings import words as setting_words

SHOWN_NAMES = 8  # names listed in one sentence before "and n more"
# The log's words are made when it is read, in the reader's language (the sentences below);
# these are English here and translated where a sentence uses them.
RESULT_FIELDS = {"leader": N_("leader"), "vp": N_("VP"), "spice": N_("spice"),
                 "solari": N_("solari"), "troops": N_("troops"), "water": N_("water"),
                 "variant_points": N_("variant points"), "tiebreak": N_("tie-break")}
PLAYER_FIELDS = {"name": N_("name"), "nickname": N_("nickname"), "club": N_("club"),
                 "email": N_("email"), "extra": N_("details"),
                 "registration_order": N_("registration order"),
                 "checked_in_at": N_("check-in time"), "status": N_("status")}
ROLE_WORDS = {"organizer": N_("Organizer"), "judge": N_("Judge"), "spectator": N_("Spectator")}
# A table as the log names it; a stored one ("Qualifier 1, table 2") is read back by it.
TABLE = i18n.template(N_("{sitting}, table {table}"))
LATE = N_("A qualifier result was corrected after the finals were drawn")

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
        return self.players.get(_int(player_id)) or _("player #{id}").format(id=player_id)

    def sitting(self, sitting_id: Any) -> str:
        return self.sittings.get(_int(sitting_id)) or _("a sitting (#{id})").format(
            id=sitting_id)

    def table(self, table_id: Any) -> str:
        return self.tables.get(_int(table_id)) or _("a table (#{id})").format(id=table_id)

    def setup(self, setup_id: Any) -> str:
        return self.setups.get(setup_id) or str(setup_id)


def _int(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def action_label(action: str) -> str:
    """R19: an action in words (Action.RESULT_CORRECT → "Result corrected"); an unknown one from
    its name ("waiting.move" → "Waiting move"); in this run's language."""
    known = ACTIONS.get(action)
    return _(known) if known else str(action).replace(".", " ").replace("_", " ").capitalize()


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
        return _("(none)")
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, dict):
        return "; ".join(f"{k.replace('_', ' ')} {_value(v)}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return ", ".join(_value(v) for v in value)
    return str(value)


def _names(names: list[str], limit: int = SHOWN_NAMES) -> str:
    """"Ann, Bo and Cy", or the first `limit` and how many more."""
    names = [str(n) for n in names]
    if len(names) > limit:
        more = len(names) - limit
        return ngettext("{names} and {count} more", "{names} and {count} more", more).format(
            names=", ".join(names[:limit]), count=more)
    if len(names) == 1:
        return names[0]
    return _("{names} and {last}").format(names=", ".join(names[:-1]), last=names[-1])


def _field(words: Mapping[str, str], key: str) -> str:
    """A field's name in words (`words`' English, translated), else its key in words."""
    return _(words[key]) if key in words else key.replace("_", " ")


def _changes(before: Mapping, after: Mapping, words: Mapping[str, str]) -> str:
    """"name Ann → Ann Lee; club (none) → Arrakis"."""
    keys = [k for k in {**before, **after} if before.get(k) != after.get(k)]
    return "; ".join(f"{_field(words, k)} {_value(before.get(k))} → "
                     f"{_value(after.get(k))}" for k in keys)


SUBJECTS = {"role organizer": N_("the organizer PIN"), "role judge": N_("the judge PIN")}


def _subject(subject: str, places: Places) -> str:
    """"table 8" → "Qualifier 2, table 4", "player 13" → the name, "sitting 3" → its label."""
    kind, _unused, ident = str(subject).partition(" ")
    known = {"table": places.table, "player": places.player, "sitting": places.sitting}
    if kind in known and _int(ident) is not None:
        return known[kind](ident)
    return _(SUBJECTS[subject]) if subject in SUBJECTS else str(subject)


def _id(subject: str) -> str:
    return str(subject).partition(" ")[2]


def _players(count: int) -> str:
    return ngettext("{count} player", "{count} players", count).format(count=count)


def _minutes(count: int) -> str:
    return ngettext("{count} minute", "{count} minutes", count).format(count=count)


def _reason(after: Mapping) -> str:
    """The end of a sentence that may give a reason: " (reason: …)." or "."."""
    if not after.get("reason"):
        return "."
    return " ({}).".format(_("reason: {reason}").format(reason=after["reason"]))


# -- one sentence per action ---------------------------------------------------------------------
def _players_add(action, subject, before, after, places):
    named = [p["name"] + "".join(f" ({w})" for w in (
        _("nickname {nickname}").format(nickname=p["nickname"])
        if p.get("nickname") not in (None, "", p["name"]) else "",
        p.get("club")) if w) for p in after]
    if len(named) == 1:
        return _("Added {player} to the roster.").format(player=named[0])
    return ngettext("Added {count} player to the roster: {names}.",
                    "Added {count} players to the roster: {names}.", len(named)).format(
        count=len(named), names=_names(named))


def _player_edit(action, subject, before, after, places):
    return _("Edited {player}: {changes}.").format(
        player=places.player(_id(subject)), changes=_changes(before, after, PLAYER_FIELDS))


def _player_remove(action, subject, before, after, places):
    return _("Removed {player} from the roster.").format(
        player=before.get("name") or places.player(_id(subject)))


def _player_status(action, subject, before, after, places):
    who = places.player(_id(subject))
    if action == Action.PLAYER_WITHDRAW:
        return _("Withdrew {player} (results stay).").format(player=who)
    return _("Reinstated {player}.").format(player=who)


def _check_in(action, subject, before, after, places):
    ids = after["player_ids"]
    words = (_("Checked in {players}: {names}.") if action == Action.PLAYERS_CHECK_IN
             else _("Checked out {players}: {names}."))
    return words.format(players=_players(len(ids)),
                        names=_names([places.player(p) for p in ids]))


def _absence(action, subject, before, after, places):
    who = places.player(_id(subject))
    if action == Action.PLAYER_ABSENT:
        return _("Marked {player} absent for the finals.").format(player=who)
    return _("Marked {player} present again for the finals.").format(player=who)


def _draw_words(summary: Mapping) -> str:
    tables, seats = summary.get("tables") or [], summary.get("seats") or []
    words = [ngettext("{count} table", "{count} tables", len(tables)).format(count=len(tables)),
             _players(len(seats))]
    if summary.get("sit_outs"):
        count = len(summary["sit_outs"])
        words.append(ngettext("{count} player sitting out", "{count} players sitting out",
                              count).format(count=count))
    if summary.get("waiting"):  # R21
        count = len(summary["waiting"])
        words.append(ngettext("{count} player waiting", "{count} players waiting",
                              count).format(count=count))
    words.append(_("seed {seed}").format(seed=summary.get("seed")))
    return ", ".join(words)


def _sitting_draw(action, subject, before, after, places):
    label = sitting_label(after["kind"], after["number"])
    how = []
    if after.get("mode") == DrawMode.BALANCED:
        how.append(_("balanced draw"))
    if after.get("pins"):
        count = len(after["pins"])
        how.append(ngettext("{count} player kept at their table",
                            "{count} players kept at their table", count).format(count=count))
    extra = f" ({'; '.join(how)})" if how else ""
    if action == Action.SITTING_REDRAW:
        return _("Drew {sitting} again: {draw}{how}; the earlier draw had seed {seed}.").format(
            sitting=label, draw=_draw_words(after), how=extra,
            seed=(before or {}).get("seed"))
    return _("Drew {sitting}: {draw}{how}.").format(sitting=label, draw=_draw_words(after),
                                                    how=extra)


def _sitting_discard(action, subject, before, after, places):
    return _("Discarded the unpublished draw of {sitting} (seed {seed}).").format(
        sitting=sitting_label(before["kind"], before["number"]), seed=before.get("seed"))


def _sitting_void(action, subject, before, after, places):
    return _("Voided {sitting} before any result: {draw}; its number is free for the next "
             "draw").format(sitting=sitting_label(before["kind"], before["number"]),
                            draw=_draw_words(before)) + _reason(after)


def _replace_player(action, subject, before, after, places):
    where = after.get("table") or places.table(_id(subject))
    came = after["name"] + (" ({})".format(_("was sitting out"))
                            if after.get("was_sitting_out") else "") + (
        " ({})".format(_("was number {number} on the waiting list").format(
            number=after["was_waiting"])) if after.get("was_waiting") else "")
    return _("{player} took seat {seat} at {table} in place of {replaced}, keeping its colour "
             "and pick order").format(player=came, seat=after["seat"], table=where,
                                      replaced=before["name"]) + _reason(after)


def _empty_seat(action, subject, before, after, places):
    where = after.get("table") or places.table(_id(subject))
    return _("{player} left {table}, which plays with {players} now").format(
        player=after["left"], table=where, players=_players(len(after["seats"]))) \
        + _reason(after)


def _sitting_status(action, subject, before, after, places):
    label = places.sitting(_id(subject))
    if action == Action.SITTING_PUBLISH:
        return _("Published {sitting}: everyone sees its tables now.").format(sitting=label)
    return _("{sitting} is complete: every table has a result.").format(sitting=label)


def _rule_change(action, subject, before, after, places):
    """R24: the rule change set (or removed) before publishing, with what it was."""
    label, old, new = places.sitting(_id(subject)), rule_change_line(before or {}), \
        rule_change_line(after)
    was = " ({})".format(_("it was: {rule}").format(rule=old)) if old else ""
    if not new:
        return _("Removed the rule change of {sitting}{was}.").format(sitting=label, was=was)
    return _("Set the rule change of {sitting}: {rule}{was}.").format(sitting=label, rule=new,
                                                                      was=was)


def _override_setup(action, subject, before, after, places):
    return _("Changed the setup of {table}: {before} → {after}").format(
        table=places.table(_id(subject)), before=places.setup(before["setup_id"]),
        after=places.setup(after["setup_id"])) + _reason(after)


def _result_line(row: Mapping, places: Places) -> str:
    return _("{player} {vp} VP").format(player=places.player(row["player_id"]), vp=row["vp"])


def _result(action, subject, before, after, places):
    where = places.table(_id(subject))
    rows = sorted(after["rows"], key=lambda r: r.get("seat", 0))
    if action == Action.RESULT_SUBMIT:
        return _("Entered the result of {table}: {results}.").format(
            table=where, results="; ".join(_result_line(r, places) for r in rows))
    old = {r["player_id"]: r for r in (before or {}).get("rows", [])}
    changes = [_("{field} {before} → {after} for {player}").format(
        field=_(words), before=_value(old.get(r["player_id"], {}).get(f)),
        after=_value(r.get(f)), player=places.player(r["player_id"]))
        for r in rows for f, words in RESULT_FIELDS.items()
        if old.get(r["player_id"], {}).get(f) != r.get(f)]
    version = (" ({})".format(_("version {version}").format(version=after.get("version")))
               if after.get("version") else "")
    late = after.get("after_finals")
    note = f" {late['changes']}" if late and late.get("changes") else ""
    over = after.get("over")  # R19: chosen over another judge's save that came first
    if not changes:
        said = _("Saved the result of {table} again, unchanged{version}.").format(
            table=where, version=version)
    elif over:
        said = _("Saved over {judge}'s version {number} of the result of {table}, after both "
                 "saved it{version}: {changes}.").format(
            judge=over["saved_by"], number=over["version"], table=where, version=version,
            changes="; ".join(changes))
    else:
        said = _("Corrected the result of {table}{version}: {changes}.").format(
            table=where, version=version, changes="; ".join(changes))
    if late:
        said = _("{flag}: {sentence}").format(flag=_(LATE), sentence=said)
    return said + note


def _vote_off(action, subject, before, after, places):
    votes = after.get("votes") or []
    voters = len({v.get("player_id") for v in votes})
    words = (_("Entered the leader votes again at {table} ({players} voted): removed "
               "{leaders}.") if before else
             _("Entered the leader votes at {table} ({players} voted): removed {leaders}."))
    return words.format(table=places.table(_id(subject)), players=_players(voters),
                        leaders=_names(after["removed"] or [_("none")]))


def _wild_card(action, subject, before, after, places):
    parts = [(_("{player} took a random one: {picked} → {leader}") if r.get("swapped") else
              _("{player} kept {leader}")).format(
        player=places.player(r["player_id"]), picked=r.get("picked_leader"), leader=r["leader"])
        for r in sorted(after, key=lambda r: r.get("seat", 0))]
    return _("Drew the wild cards at {table}: {choices}.").format(
        table=places.table(_id(subject)), choices="; ".join(parts))


def _settings(action, subject, before, after, places):
    def text(key: str, value: Any) -> str:
        if key == "enabled_setups" and isinstance(value, list):
            value = [places.setup(v) for v in value]
        return setting_words(key, value)

    changes = [f"{_(setting_label(k))} {text(k, (before or {}).get(k))} → {text(k, v)}"
               for k, v in after.items()]
    return _("Changed the settings: {changes}.").format(changes="; ".join(changes))


def _pin(action, subject, before, after, places):
    return _("Set {pin} (everyone signed in with the old one is signed out).").format(
        pin=_subject(subject, places))


def _revoke(action, subject, before, after, places):
    ended = int(after.get("ended", 0))
    return " ".join([ngettext(
        "Signed everyone out ({count} session ended; the organizer who did it stays signed "
        "in).",
        "Signed everyone out ({count} sessions ended; the organizer who did it stays signed "
        "in).", ended).format(count=ended),
        *admin.withdrawn_words(int(after.get("invitations", 0)), int(after.get("devices", 0)))])


def _console_code(action, subject, before, after, places):
    return _("Made a one-time code at the console: with the organizer's PIN it signs in once "
             "through a sign-in pause, within {minutes} minutes.").format(
        minutes=int(after.get("minutes", 0)))


def _unlock(action, subject, before, after, places):
    forgotten = int(after.get("forgotten", 0))
    return ngettext("Lifted the sign-in pause: forgot {count} wrong PIN (the PINs stay as they "
                    "were).",
                    "Lifted the sign-in pause: forgot {count} wrong PINs (the PINs stay as they "
                    "were).", forgotten).format(count=forgotten)


def _invitation(action, subject, before, after, places):
    name = after.get("name")
    if action == Action.INVITATION_CREATE:
        hours = int(after.get("hours", 0))
        return ngettext("Invited {name} to sign in as a judge by QR code, valid for {count} "
                        "hour.",
                        "Invited {name} to sign in as a judge by QR code, valid for {count} "
                        "hours.", hours).format(name=name, count=hours)
    if action == Action.INVITATION_USE:
        return _("{name} signed in as a judge with their invitation (its QR code).").format(
            name=name)
    ended = int(after.get("ended", 0))
    return ngettext("Withdrew the invitation of {name} ({count} session ended).",
                    "Withdrew the invitation of {name} ({count} sessions ended).",
                    ended).format(name=name, count=ended)


def _tournament_key(action, subject, before, after, places):
    return _("The tournament's links now use “{key}” (before: “{old}”): it was renamed before "
             "anything of it was public.").format(key=after.get("key", ""),
                                                  old=(before or {}).get("key", ""))


def _tournament_restore(action, subject, before, after, places):
    rows = after.get("rows") or {}
    players, sittings, results, events = (int(rows.get(k, 0)) for k in (
        "players", "sittings", "results", "events"))
    counts = ", ".join((
        _players(players),
        ngettext("{count} sitting", "{count} sittings", sittings).format(count=sittings),
        ngettext("{count} player result", "{count} player results", results).format(
            count=results),
        ngettext("{count} log event", "{count} log events", events).format(count=events)))
    return _("Restored the tournament from {source}: {counts}.").format(
        source=after.get("source"), counts=counts)


def _backup_restore(action, subject, before, after, places):
    return _("Restored the backup {backup} ({rows} rows); the tournament as it was is kept in "
             "{safety}.").format(backup=after.get("restored_from"), rows=after.get("rows"),
                                 safety=after.get("safety_backup"))


def _schedule_item(item: Mapping) -> str:
    kind, number, title = item.get("sitting_kind"), item.get("sitting_number"), item.get("title")
    label = sitting_label(kind, number or 1) if kind else ""
    if not title:
        return label
    if not label or title == label:
        return str(title)
    return _("{sitting} ({title})").format(sitting=label, title=title)


def _schedule(action, subject, before, after, places):
    """R26: an item planned, changed or removed, its start in the tournament's time."""
    if action == Action.SCHEDULE_REMOVE:
        return _("Took {item} off the schedule (it was at {start}).").format(
            item=_schedule_item(before), start=before["starts"])
    if action == Action.SCHEDULE_ADD:
        minutes = int(after["minutes"])
        return ngettext("Planned {item}: {start}, {count} minute.",
                        "Planned {item}: {start}, {count} minutes.", minutes).format(
            item=_schedule_item(after), start=after["starts"], count=minutes)
    length = _("{minutes} min")
    parts = [f"{_(what)} {old} → {new}" for what, old, new in (
        (N_("title"), before.get("title"), after.get("title")),
        (N_("start"), before.get("starts"), after.get("starts")),
        (N_("length"), length.format(minutes=before.get("minutes")),
         length.format(minutes=after.get("minutes"))),
        (N_("sitting"), _schedule_item({**before, "title": ""}) or _("none"),
         _schedule_item({**after, "title": ""}) or _("none"))) if old != new]
    return _("Changed {item} on the schedule: {changes}.").format(
        item=_schedule_item(before), changes="; ".join(parts) or _("nothing"))


def _schedule_shift(action, subject, before, after, places):
    """R26: running late: what moved, and by how much."""
    minutes = int(after.get("minutes", 0))
    titles = list(after.get("titles") or [])
    words = (_("Running late: moved {items} from {start} on {minutes} later: {titles}.")
             if minutes > 0 else
             _("Running late: moved {items} from {start} on {minutes} earlier: {titles}."))
    return words.format(
        items=ngettext("{count} item", "{count} items", len(titles)).format(count=len(titles)),
        start=after.get("from"), minutes=_minutes(abs(minutes)), titles=_names(titles))


def _schedule_undo(action, subject, before, after, places):
    """Issue 33: a "running late" move undone: its items back where they were."""
    minutes = int(after.get("minutes") or 0)
    titles = list(after.get("titles") or [])
    words = (_("Undid running late: moved {items} back {minutes} earlier: {titles}.")
             if minutes > 0 else
             _("Undid running late: moved {items} back {minutes} later: {titles}."))
    return words.format(
        items=ngettext("{count} item", "{count} items", len(titles)).format(count=len(titles)),
        minutes=_minutes(abs(minutes)), titles=_names(titles))


CLOCK_WORDS = {"start": N_("Started the clock of {sitting}."),
               "pause": N_("Paused the clock of {sitting}."),
               "resume": N_("Resumed the clock of {sitting}."),
               "call": N_("Called time early in {sitting}.")}


def _clock(action, subject, before, after, places):
    """R26: what a judge or the organizer told a sitting's clock."""
    label = after.get("sitting") or places.sitting(_id(subject))
    kind = after.get("action")
    minutes = _minutes(int(after.get("minutes") or 0))
    if kind == "extend":
        return _("Gave everyone in {sitting} {minutes} more on the clock.").format(
            sitting=label, minutes=minutes)
    if kind == "extend_table":
        return _("Gave {minutes} more to {sitting}, table {table} alone").format(
            minutes=minutes, sitting=label, table=after.get("table_no")) + _reason(after)
    return _(CLOCK_WORDS.get(kind, N_("Changed the clock of {sitting}."))).format(
        sitting=label)


def _plain(action, subject, before, after, places):
    """An action this module does not know: its name, what it concerns, and the values that
    changed, in words."""
    words = _("{action}: {subject}").format(action=action_label(action),
                                            subject=_subject(subject, places))
    if isinstance(before, dict) and isinstance(after, dict):
        changed = _changes(before, after, {})
        return words + (f" ({_short(changed)})." if changed else ".")
    sides = {"before": _("before: {value}"), "after": _("after: {value}")}
    shown = [sides[side].format(value=_short(_value(v)))
             for side, v in (("before", before), ("after", after)) if v is not None]
    return words + (f" ({'; '.join(shown)})." if shown else ".")


def _short(text: str, limit: int = 300) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _bookings_import(action, subject, before, after, places):
    number = _id(subject)
    verbs = {"added": _("added {names}"), "removed": _("removed {names}"),
             "moved": _("moved {names}")}
    parts = [verbs[key].format(names=_names([places.player(p) for p in after[key]]))
             for key in ("added", "removed", "moved") if after.get(key)]
    players = _players(len(after["player_ids"]))
    if not parts:
        return _("Booking list for Qualifier {number}: {players} booked.").format(
            number=number, players=players)
    return _("Booking list for Qualifier {number}: {players} booked ({changes}).").format(
        number=number, players=players, changes="; ".join(parts))


def _booking_replace(action, subject, before, after, places):
    who = places.player(after["player_id"])
    if after.get("replaced_by") is None:
        return _("Qualifier {number}: {player}'s booked seat is theirs again.").format(
            number=_id(subject), player=who)
    return _("Qualifier {number}: {player}'s booked seat given to {other} (first on the "
             "waiting list).").format(number=_id(subject), player=who,
                                      other=places.player(after["replaced_by"]))


def _self_check_in(action, subject, before, after, places):
    who = places.player(_id(subject))
    if action == Action.PLAYER_SELF_CHECK_IN:
        return _("{player} checked in on My seat with the room's code.").format(player=who)
    return _("Undid {player}'s check-in on My seat ({player} is checked out).").format(
        player=who)


def _directory(action, subject, before, after, places):
    """R27: the player directory's changes (people across tournaments), counted."""
    if action == Action.DIRECTORY_LINK:
        links = len((after or {}).get("links") or [])
        return ngettext("Linked {count} player of this and earlier tournaments in the player "
                        "directory.",
                        "Linked {count} players of this and earlier tournaments in the player "
                        "directory.", links).format(count=links)
    if action == Action.DIRECTORY_MERGE:
        moved = len((before or {}).get("players") or [])
        return ngettext("Merged two people of the player directory into one ({count} "
                        "tournament entry moved).",
                        "Merged two people of the player directory into one ({count} "
                        "tournament entries moved).", moved).format(count=moved)
    return _("Split a tournament's player off into a person of their own in the directory.")


def _overlay(action, subject, before, after, places):
    what = _(OVERLAY_WORDS.get(str((after or {}).get("kind")), N_("an overlay")))
    if (after or {}).get("table_no"):  # a number in every sitting, not one table's id
        what = _("{overlay} number {number}").format(overlay=what,
                                                     number=int(after["table_no"]))
    if action == Action.OVERLAY_CREATE:
        return _("Made a stream overlay of {overlay}.").format(overlay=what)
    return _("Withdrew the stream overlay of {overlay}: its address shows nothing any "
             "more.").format(overlay=what)


OVERLAY_WORDS = {"table": N_("the filmed table"), "standings": N_("the standings"),
                 "next": N_("what comes next")}


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
    Action.SIGN_IN_CODE: _console_code, Action.TOURNAMENT_KEY: _tournament_key,
    Action.INVITATION_CREATE: _invitation, Action.INVITATION_USE: _invitation,
    Action.INVITATION_REVOKE: _invitation,
    Action.SCHEDULE_ADD: _schedule, Action.SCHEDULE_EDIT: _schedule,
    Action.SCHEDULE_REMOVE: _schedule, Action.SCHEDULE_SHIFT: _schedule_shift,
    Action.SCHEDULE_UNDO: _schedule_undo,
    Action.SITTING_CLOCK: _clock, Action.BOOKINGS_IMPORT: _bookings_import,
    Action.BOOKING_REPLACE: _booking_replace, Action.PLAYER_SELF_CHECK_IN: _self_check_in,
    Action.PLAYER_SELF_CHECK_IN_UNDO: _self_check_in,
    Action.DIRECTORY_LINK: _directory, Action.DIRECTORY_MERGE: _directory,
    Action.DIRECTORY_SPLIT: _directory,
    Action.OVERLAY_CREATE: _overlay, Action.OVERLAY_REVOKE: _overlay,
}
