"""The sitting's clock on the pages (R26): the line under a countdown (the live elements show
the countdown from their answers: Home's `ui.live_home`, TV's `ui.live_tv` large, My seat's
`ui.live_seat` for the player's own table), and on the Results page the judges' and
organizer's controls (start, pause, resume, more time for everyone or one table, call time)
with each table's time left. The countdown and the tables' times run in the browser
(`ui.countdown`, `ui.table_clock`): the judges' block reruns no Python on a timer, and is
drawn again with the page (a judge's save, a clock button)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import streamlit as st

from stsa import clock as clock_maths
from stsa import i18n, local_time
from stsa.domain import TournamentError
from stsa.i18n import N_, _
from stsa.services import clock as service
from stsa.ui import countdown, data, session, table_clock, widgets

MAX_MINUTES = 600
STATUS_WORDS = {clock_maths.Status.NOT_STARTED: N_("not started yet"),
                clock_maths.Status.RUNNING: N_("running"),
                clock_maths.Status.PAUSED: N_("paused"),
                clock_maths.Status.CALLED: N_("time is called")}


def _ends(found: clock_maths.ClockState, zone: dt.tzinfo) -> str:
    """The clock in words under the countdown ("Qualifier 2: running, time at 14:05")."""
    if found.status is clock_maths.Status.RUNNING and found.deadline is not None:
        return _("running, time at {time}").format(
            time=local_time.clock_words(found.deadline, zone))
    return _(STATUS_WORDS[found.status])


def caption(sitting_clock: service.SittingClock, zone: dt.tzinfo) -> str:
    """R26: the line under a countdown: "Qualifier 2: running, time at 14:05." (the sitting
    as typed: shown as plain text)."""
    return _("{sitting}: {clock}.").format(sitting=i18n.cell(sitting_clock.label),
                                           clock=_ends(sitting_clock.state(), zone))


def _do(sitting_id: int, action: str, done: str, **keys: str) -> None:
    """A button's callback (it runs before the page does, so the page shows the new clock):
    tell the clock `action`, with the values of the widgets `keys` names; what was done, or
    why not, is said on the next run."""
    values: dict[str, Any] = {name: st.session_state.get(key) for name, key in keys.items()}
    if "minutes" in values:
        values["minutes"] = int(values["minutes"] or 0)
    try:
        service.act(session.engine(), sitting_id, action, actor=session.actor(),
                    minutes=values.get("minutes") or 0, table_no=values.get("table_no"),
                    reason=str(values.get("reason") or ""))
    except TournamentError as exc:
        st.session_state["clock_said"] = ("error", str(exc))
        return
    st.session_state["clock_said"] = ("done", done.format(**values))
    st.session_state.pop("clock_call_sure", None)


def _said() -> None:
    said = st.session_state.pop("clock_said", None)
    if said and said[0] == "error":
        st.error(widgets.plain(said[1]), icon=":material/error:")
    elif said:
        st.success(widgets.plain(said[1]), icon=":material/timer:")


def _controls(sitting_clock: service.SittingClock, found: clock_maths.ClockState) -> None:
    sid, status = sitting_clock.sitting_id, found.status
    row = st.columns(3)
    if status is clock_maths.Status.NOT_STARTED:
        row[0].button(_("Start the clock"), key="clock_start", icon=":material/play_arrow:",
                      type="primary", on_click=_do,
                      args=(sid, "start", _("The clock of {sitting} is running.").format(
                          sitting=i18n.cell(sitting_clock.label))))
    elif status is clock_maths.Status.RUNNING:
        row[0].button(_("Pause"), key="clock_pause", icon=":material/pause:", on_click=_do,
                      args=(sid, "pause", _("The clock is paused.")))
    elif status is clock_maths.Status.PAUSED:
        row[0].button(_("Resume"), key="clock_resume", icon=":material/play_arrow:",
                      type="primary", on_click=_do,
                      args=(sid, "resume", _("The clock is running again.")))
    if status in (clock_maths.Status.RUNNING, clock_maths.Status.PAUSED):
        row[1].number_input(_("Minutes for everyone"), min_value=1, max_value=MAX_MINUTES,
                            value=5, step=1, key="clock_extend_minutes")
        row[1].button(_("Give everyone more time"), key="clock_extend", icon=":material/add:",
                      on_click=_do,
                      args=(sid, "extend", _("Everyone has {minutes} more minutes.")),
                      kwargs={"minutes": "clock_extend_minutes"})
        sure = row[2].checkbox(_("Yes, call time for every table now"), key="clock_call_sure")
        row[2].button(_("Call time now"), key="clock_call", icon=":material/timer_off:",
                      disabled=not sure, on_click=_do, args=(sid, "call", _("Time is called.")))
    if status is clock_maths.Status.NOT_STARTED or not sitting_clock.tables:
        return
    with st.expander(_("Give one table more time")):
        st.selectbox(_("Which table"), list(sitting_clock.tables), key="clock_table",
                     format_func=lambda no: _("Table {number}").format(number=no))
        st.number_input(_("Minutes"), min_value=1, max_value=MAX_MINUTES, value=5, step=1,
                        key="clock_table_minutes")
        st.text_input(_("Reason"), max_chars=200, key="clock_table_reason",
                      placeholder=_("a rules question at the table"))
        st.button(_("Give this table more time"), key="clock_extend_table",
                  icon=":material/more_time:", on_click=_do,
                  args=(sid, "extend_table", _("Table {table_no} has {minutes} more minutes.")),
                  kwargs={"minutes": "clock_table_minutes", "table_no": "clock_table",
                          "reason": "clock_table_reason"})


def judges(sitting_id: int, reads: data.Data) -> None:
    """R26, the Results page, judges and the organizer: the clock of the sitting chosen, its
    controls and each table's time (tables without a result when their time is up marked),
    counting down in the browser, drawn again with each run of the page and at once after
    each action (`reads`: this run's)."""
    if not session.role().is_staff:
        return
    sitting_clock = reads.clock(int(sitting_id))
    if sitting_clock is None:
        return
    found = sitting_clock.state()
    with st.container(border=True, key="clock_judges"):
        st.subheader(_("Clock"), anchor=False)
        countdown.countdown(sitting_clock.countdown(), key="clock_judges_countdown")
        st.caption(_("{sitting}: {clock}.").format(
            sitting=widgets.plain(i18n.cell(sitting_clock.label)),
            clock=_ends(found, reads.settings().zone)))
        _said()
        _controls(sitting_clock, found)
        if found.status is not clock_maths.Status.NOT_STARTED and sitting_clock.tables:
            table_clock.table_times(sitting_clock, key="clock_judges_tables")
