"""The Draw page's choices: who plays this sitting, the draw mode, the table plan with the
players who keep a table (R1, R3), and the draw report as a checklist (R3, R6). The rules live
in `stsa.services.draws`."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from stsa.i18n import _, ngettext
from stsa.services import draws, roster, setups
from stsa.settings import Settings
from stsa.ui import organizer, session, widgets
from stsa.ui.sittings import keep_choice


def who_plays(active: pd.DataFrame, sittings: pd.DataFrame) -> tuple[dict[int, str], list[int]]:
    """The checked-in players, changed by hand for this sitting (some left out, others seated
    too), with a warning when they were checked in for the last qualifier played: returns
    every active player's name by id, and who plays."""
    names = dict(zip(active["player_id"].astype(int), widgets.known_as(active)))
    checked = [int(p) for p in active.loc[active["checked_in"], "player_id"]]
    st.markdown(ngettext("**{count} player checked in** (check players in on the Roster page).",
                         "**{count} players checked in** (check players in on the Roster "
                         "page).", len(checked)).format(count=len(checked)))
    stale = roster.stale_check_ins(active, sittings)
    if stale:
        st.warning(widgets.plain(stale), icon=":material/history:")
    others = [p for p in names if p not in set(checked)]
    keep_choice("draw_leave_out", checked)
    keep_choice("draw_add", others)
    with st.expander(_("Change who plays this sitting")):
        # No "Select all": a tap on it would empty the sitting or seat everyone.
        out = st.multiselect(_("Leave out"), checked, format_func=widgets.labels_of(names),
                             select_all=False,
                             key="draw_leave_out")
        add = st.multiselect(_("Also seat"), others, format_func=widgets.labels_of(names),
                             select_all=False,
                             key="draw_add")
    return names, [p for p in checked if p not in set(out)] + add


def mode_caption(settings: Settings) -> str:
    mode = organizer.DRAW_MODES.get(settings.draw_mode, settings.draw_mode)
    return _("Draw mode: {mode} (change it in Settings).").format(mode=_(mode) if mode else mode)


def plan_and_pins(present: list[int], names: dict, sit_out: bool) -> tuple[bool, dict]:
    """The R1 table plan (or why the players cannot be seated) and the pinned players; returns
    whether the draw can go ahead, and the pins (player_id → table_no)."""
    plan = draws.table_plan(len(present), sit_out=sit_out)
    if plan.ok:
        st.markdown(widgets.plain(plan.text))
    else:
        st.error(widgets.plain(plan.text), icon=":material/warning:")
    pins = pin_choice(present, names)
    problem = draws.pin_problem(pins, names, len(plan.sizes)) if plan.ok else None
    if problem:
        st.error(widgets.plain(problem), icon=":material/warning:")
    return plan.ok and not problem, pins


def pin_choice(present: list[int], names: dict) -> dict[int, int]:
    """Players who keep a table (a player who cannot move): chosen in an expander, each with
    their table number. Returns player_id → table_no."""
    keep_choice("draw_pins", present)
    pins = {}
    with st.expander(_("Players who keep a table")):
        chosen = st.multiselect(_("Players who cannot move"), present, select_all=False,
                                format_func=widgets.labels_of(names),
                                key="draw_pins", placeholder=_("Nobody"))
        for pid in chosen:
            pins[pid] = int(st.number_input(
                _("Table for {player}").format(player=widgets.plain(names[pid])),
                min_value=1, step=1, key=f"draw_pin_{pid}"))
    return pins


def report_items(report) -> list[tuple[str, pd.DataFrame]]:
    """The draw report (`services.draws.draw_report`) as checklist lines and their tables;
    an empty table means the line is fine. Lines and headings in the run's language."""
    names = setups.setup_names()
    repeats = pd.DataFrame({_("Table"): report.repeats["table_no"],
                            _("Player"): report.repeats["name_a"],
                            _("Meets again"): report.repeats["name_b"],
                            _("Met before"): report.repeats["met_before"]})
    seats = pd.DataFrame({_("Table"): report.seats["table_no"], _("Seat"): report.seats["seat"],
                          _("Player"): report.seats["name"],
                          _("Had this seat"): report.seats["times_before"],
                          _("Games before"): report.seats["games_before"]})
    played = pd.DataFrame({_("Table"): report.setups["table_no"],
                           _("Player"): report.setups["name"],
                           _("Setup"): report.setups["setup_id"].map(names),
                           _("Played before"): report.setups["times_before"]})
    return [(ngettext("{count} pair of players meets again",
                      "{count} pairs of players meet again", len(repeats)).format(
                count=len(repeats)), repeats),
            (ngettext("{count} player gets a seat they had most often or twice",
                      "{count} players get a seat they had most often or twice",
                      len(seats)).format(count=len(seats)), seats),
            (ngettext("{count} player plays a setup again", "{count} players play a setup again",
                      len(played)).format(count=len(played)), played)]


def show_report(report) -> None:
    """The draw report as a checklist: a tick for a clean line, else the players concerned."""
    for line, frame in report_items(report):
        if frame.empty:
            st.markdown(f":material/check_circle: {line}")
        else:
            st.markdown(f":material/warning: {line}")
            st.dataframe(frame.reset_index(drop=True), hide_index=True)


def publish_or_discard(sitting_id: int) -> None:
    """The organizer's two buttons under an unpublished draw (R20: the service checks the
    role): publish it for everyone, or discard the draft (the log keeps it)."""
    publish, discard = st.columns(2)
    if publish.button(_("Publish"), key="draw_publish", type="primary"):
        if widgets.act(lambda: draws.publish(session.engine(), sitting_id,
                                             actor=session.actor()),
                       done=_("Published: everyone now sees this draw.")):
            st.rerun()
    if discard.button(_("Discard draft"), key="draw_discard"):
        if widgets.act(lambda: draws.discard(session.engine(), sitting_id,
                                             actor=session.actor()),
                       done=_("The draft was discarded (it stays in the log).")):
            st.rerun()
