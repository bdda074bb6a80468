"""One table's result typed in the browser (R11–R13, R19): a component that shows every seat
(player, colour, leader, the numbers the sitting asks for), the settled order when a full tie
appears, the preview of placings and qualifier scores by the server's own rules, the blanks,
the unusual numbers and their tick, the ticks a save needs that are known before typing, and
Save. Typing costs the server nothing: Save sends the whole entry once, and that one run
checks every rule again (`ui.result_form.take_save`); the preview is never trusted.

What the judge types is kept in the browser's storage, under the tournament, the table and the
person, until the server has saved it, so a reload, a lost connection or a page left and
opened again finds it again, never silently ("Restored what you typed at 14:05 and did not
save", with a Discard that brings back the stored result); it is put back on the version
and seating it was typed on, so a save over a version saved since meets the other judge's,
as any late save does.

Every word the element shows comes from here, in the run's language (`words`); its browser
side lives in `ui.result_entry_web`."""

from __future__ import annotations

import uuid
from collections.abc import Callable

import pandas as pd
import streamlit as st

from stsa import rules
from stsa.i18n import N_, _, ngettext
from stsa.services import forms, results
from stsa.ui import session
from stsa.ui.result_entry_web import CSS, HTML, JS
from stsa.ui.sittings import COLOUR_TAGS, colour_word

_ENTRY = st.components.v2.component("stsa_result_entry", html=HTML, css=CSS, js=JS)

#: The form's labels, short so a seat's numbers fit one row on a phone; the variant points are
#: the points of the sitting's rule change (R24), named above the seats.
SHORT = {"vp": N_("VP"), "spice": N_("Spice"), "solari": N_("Solari"), "troops": N_("Troops"),
         "water": N_("Water"), "variant_points": N_("Rule pts")}
HELP = {"variant_points": N_("Points from this sitting's rule change (named above the seats); "
                             "0 for none")}
#: The preview's headings, in the element's order.
HEADINGS = {"placing": N_("Placing"), "seat": N_("Seat"), "player": N_("Player"), "vp": N_("VP"),
            "score": N_("Score"), "tied": N_("Tied")}
MOST_BLANKS = 4 * len(SHORT)  # a table of four with every number blank


def key(table_id: int) -> str:
    """The element's key for a table (one per table, so another table starts afresh)."""
    return f"res_entry_{int(table_id)}"


def draft_key(table_id: int, tournament: str) -> str:
    """Where the browser keeps a person's unsaved entry of a table: under the tournament (its
    id and `tournament`, its name), the table and the person, so that nothing typed for
    another tournament, table or person is ever put back here."""
    return (f"stsa.result/{session.tournament_id() or ''}:{tournament}/{int(table_id)}/"
            f"{session.actor().name}")


def words(version: int) -> dict:
    """Everything the element says, in this run's language (`version`: the result's, 0 for a
    first result)."""
    more = {str(n): ngettext(
        "The preview shows once every number is in. Still blank: {fields} and {count} more.",
        "The preview shows once every number is in. Still blank: {fields} and {count} more.",
        n) for n in range(1, MOST_BLANKS + 1)}
    return {
        "seat": _("**Seat {seat}** · {colour} · {player}"),
        "leader": _("Leader"), "choose_leader": _("Choose the leader"),
        "fields": {f: _(w) for f, w in SHORT.items()},
        "help": {f: _(w) for f, w in HELP.items()},
        "tie": _("Seats {seats} are equal on VP, spice, solari, troops and water. Settle their "
                 "order (for example by a roll-off) and enter it: 1 places highest."),
        "order": _("Settled order of seat {seat} ({player})"),
        "preview": _("**Preview** · placings and qualifier scores"),
        "blank": _("The preview shows once every number is in. Still blank: {fields}."),
        "blank_more": {**more, "many": more[str(MOST_BLANKS)]},
        "blank_field": _("seat {seat} {field}"),
        "unscorable": _("No preview while a number cannot be scored: Save says which one."),
        "headings": {k: _(w) for k, w in HEADINGS.items()},
        "unusual": _("Unusually high for one game: {numbers}. Check them before saving."),
        "unusual_one": _("seat {seat} ({player}): {field} {number}"),
        "number_words": {f: _(w) for f, w in forms.NUMBER_WORDS.items()},
        "unusual_tick": _("These numbers are right"),
        "after_finals": _("I have checked what this changes: save the correction anyway"),
        "save": _("Save correction") if version else _("Save result"),
        "unsaved": _("Not saved yet. What you typed is kept if the page reloads or the "
                     "connection drops."),
        "restored": _("Restored what you typed at {time} and did not save: check it before "
                      "you save, or discard it. Nobody else sees it."),
        "why": _("Tick “{tick}” to save."),
        "discard": _("Discard my unsaved entry"),
    }


def seat_rows(seats: pd.DataFrame) -> list[dict]:
    """The table's seats as the element shows them: player (plain text), seat, colour."""
    return [{"player_id": int(p), "seat": int(s), "name": str(n), "colour": colour_word(c),
             "swatch": COLOUR_TAGS.get(str(c).strip().lower())}
            for p, s, n, c in zip(seats["player_id"], seats["seat"], seats["name"],
                                  seats["colour"])]


def show(form: dict, seats: pd.DataFrame, *, tournament: str, leaders: list[str],
         fields: list[str], base_points, zone: str, ticks: list[dict], locked: bool,
         frozen: bool, impact: str | None, forget: list[int], waiting: list[int],
         on_save: Callable[[], None]) -> None:
    """Draw the element for the form `form` (`ui.result_form`) of a table of `tournament` (its
    name): `leaders` the table's options,
    `fields` the numbers asked for, `ticks` the confirmations the save needs that are known
    now ({name, label}), `locked` Save refused (a judge once the finals are drawn), `frozen`
    nothing to change (a conflict to settle first), `impact` the organizer's tick after the
    finals are drawn, offered for the values last sent, `forget` tables saved meanwhile
    (their drafts are dropped), `waiting` the numbers of the sitting's tables still waiting
    for a result as this run reads them (told to the judges' table times on the page);
    `on_save` is called (before the next run) when Save sends the entry."""
    table_id = int(form["table_id"])
    values = form["values"]
    shown = {str(p): values.get(str(p)) or blank_row() for p in seats["player_id"].astype(int)}
    reset = bool(form.pop("reset", False))
    _ENTRY(key=key(table_id), height="content", on_save_change=on_save, data={
        "table_id": table_id, "token": form["token"], "reset": reset,
        "answered": int(form.get("answered", 0)),
        "sitting_id": int(form["sitting_id"]), "waiting": [int(n) for n in waiting],
        "draft_key": draft_key(table_id, tournament),
        "forget": [draft_key(t, tournament) for t in forget],
        "base": {"version": int(form["version"]),
                 "seating": {str(s): int(p) for s, p in form["seating"].items()}},
        "seats": seat_rows(seats), "leaders": leaders, "fields": fields, "values": shown,
        "base_points": [int(b) for b in base_points], "usual_max": dict(results.USUAL_MAX),
        "ticks": ticks, "locked": bool(locked), "frozen": bool(frozen), "impact": impact,
        "zone": zone, "words": words(int(form["version"]))})


def blank_row() -> dict:
    """A player's row before anything is typed: no leader, no numbers, 0 variant points."""
    return {"leader": None, **dict.fromkeys(rules.PLACING_ORDER), "variant_points": 0,
            "tiebreak": None}


def sent(table_id: int) -> dict | None:
    """What the element's Save sent in this run (None when it sent nothing)."""
    found = st.session_state.get(key(table_id))
    return found.get("save") if found is not None else None


def new_token() -> str:
    return uuid.uuid4().hex
