"""The schedule on the pages (R26): the public Schedule page's calendar download, the
organizer's forms (plan an item, change or remove one, running late) and a player's own
calendar on My seat ("Next: Lunch at 12:30" on Home, TV and My seat is in their live
elements). Every time reads in the tournament's time zone; titles people typed show as plain
text. The rules live
in `stsa.services.schedule`."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pandas as pd
import streamlit as st

from stsa import i18n, local_time
from stsa import schedule as plan
from stsa.domain import Role
from stsa.formats.calendar import MEDIA_TYPE
from stsa.i18n import N_, _
from stsa.services import schedule as service
from stsa.services.forms import TITLE_MAX
from stsa.ui import data, data_tools, session, widgets
from stsa.web import answers

NEW_FIELDS = ("kind", "number", "title", "day", "time", "minutes")  # `_item_fields`' keys
LENGTH_HELP = N_("Minutes. A sitting's length starts as the Settings page's length of a "
                 "sitting.")


def current(reads: data.Data | None = None) -> tuple[pd.DataFrame, dt.tzinfo]:
    """The schedule frame and the tournament's zone, read once per data version and shared."""
    reads = reads or data.now()
    frame = data.shelf(reads.url).get(("schedule",), reads.version,
                                      lambda: service.schedule(session.engine()))
    return frame, reads.settings().zone


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def calendar_download(reads: data.Data) -> None:
    """The whole schedule as a calendar file."""
    st.download_button(_("Add to your calendar (.ics)"), data=lambda: service.tournament_calendar(
        session.engine()), file_name=widgets.file_name(reads.settings().tournament_name,
                                                        "schedule", "ics"),
        mime=MEDIA_TYPE, key="schedule_ics", icon=":material/calendar_month:",
        on_click="ignore", help=_("Every item, in the tournament's time zone."))


def my_calendar(player_id: int, reads: data.Data | None = None) -> None:
    """My seat: this player's sittings as a calendar file, named by nickname only."""
    reads = reads or data.now(Role.SPECTATOR)
    frame, _zone = current(reads)
    if plan.sittings(frame).empty:
        return
    found = reads.player_directory()
    nickname = found.loc[found["player_id"] == player_id, "nickname"]
    if nickname.empty:
        return
    name = str(nickname.iloc[0])
    st.download_button(_("My sittings in my calendar (.ics)"),
                       data=lambda: service.player_calendar(session.engine(), player_id, name),
                       file_name=widgets.file_name(reads.settings().tournament_name,
                                                   f"sittings {name}", "ics"), mime=MEDIA_TYPE,
                       key="player_ics", icon=":material/calendar_month:", on_click="ignore",
                       help=_("The sittings you have a seat in and the qualifiers to come that "
                              "you booked (or that anyone may play)."))
    key, base = session.tournament_key(), data_tools.browser_url("player")
    if key and base:  # a calendar app that subscribes follows every change of the schedule
        st.caption(_("Or subscribe in your calendar app, to follow changes: {address}").format(
            address=f"{base}{answers.calendar_path(key, player_id)}"))


def _item_fields(prefix: str, tz: dt.tzinfo, item: dict[str, Any] | None,
                 default_minutes: int) -> dict[str, Any]:
    kinds = list(service.KIND_CHOICES)
    kind_now = (item or {}).get("sitting_kind") or plan.OTHER
    start = local_time.local(item["starts_at"].to_pydatetime(), tz) if item else None
    kind = st.selectbox(_("What"), kinds, index=kinds.index(kind_now) if item else 0,
                        format_func=widgets.labels_of(i18n.words_in(service.KIND_CHOICES)),
                        key=f"{prefix}_kind")
    number = st.number_input(_("Qualifier number"), min_value=1, max_value=99, step=1,
                             value=int(item["sitting_number"]) if item and pd.notna(
                                 item["sitting_number"]) else 1, key=f"{prefix}_number",
                             help=_("Only for a qualifier."))
    title = st.text_input(_("Title"), value=(item or {}).get("title", ""), max_chars=TITLE_MAX,
                          key=f"{prefix}_title", placeholder=_("e.g. Lunch"),
                          help=_("A sitting's title may stay empty: it is named after itself."))
    day = st.date_input(_("Day"), value=start.date() if start else local_time.local(
        _now(), tz).date(), key=f"{prefix}_day", format="YYYY-MM-DD")
    at = st.time_input(_("Starts"), value=start.time() if start else dt.time(9, 0),
                       step=dt.timedelta(minutes=5), key=f"{prefix}_time")
    minutes = st.number_input(_("Length"), min_value=1, max_value=plan.MINUTES_MAX, step=5,
                              value=int(item["minutes"]) if item else default_minutes,
                              key=f"{prefix}_minutes", help=_(LENGTH_HELP))
    return {"kind": kind, "number": int(number), "title": title, "day": day, "at": at,
            "minutes": int(minutes)}


def _show(outcome: service.Outcome | None) -> None:
    """After a change: run the page again (its warnings show every overlap left)."""
    if outcome is not None:
        st.rerun()


def plan_form(reads: data.Data) -> None:
    """The organizer: put a sitting or another item on the schedule."""
    frame, tz = current(reads)
    with st.expander(_("Plan an item"), expanded=frame.empty, icon=":material/add:"):
        with st.form("schedule_plan", clear_on_submit=False):
            got = _item_fields("schedule_new", tz, None, reads.settings().sitting_minutes)
            save = st.form_submit_button(_("Put it on the schedule"), key="schedule_plan_save")
        st.caption(_("Times are in the tournament's time zone ({zone}).").format(zone=tz))
    if save:
        outcome = widgets.act(lambda: service.plan_item(
            session.engine(), kind=got["kind"], number=got["number"], title=got["title"],
            starts_at=service.start_of(got["day"], got["at"], tz), minutes=got["minutes"],
            actor=session.actor()), done=lambda o: o.done)
        if outcome is not None:  # the next item starts from an empty form (a refused one
            for name in NEW_FIELDS:  # keeps what was typed, to correct it)
                st.session_state.pop(f"schedule_new_{name}", None)
        _show(outcome)


def edit_form(reads: data.Data) -> None:
    """The organizer: change or remove one item."""
    frame, tz = current(reads)
    if frame.empty:
        return
    labels = _choices(frame, tz)
    with st.expander(_("Change or remove an item"), icon=":material/edit_calendar:"):
        chosen = st.selectbox(_("Item"), list(labels), format_func=widgets.labels_of(labels),
                              key="schedule_edit_item")
        item = frame.loc[frame["item_id"] == chosen].iloc[0].to_dict()
        with st.form(f"schedule_edit_{chosen}"):
            got = _item_fields(f"schedule_edit_{chosen}", tz, item,
                               reads.settings().sitting_minutes)
            save = st.form_submit_button(_("Save the changes"), key="schedule_edit_save")
        remove = st.button(_("Take it off the schedule"), key="schedule_remove",
                           icon=":material/delete:")
    if save:
        _show(widgets.act(lambda: service.edit_item(
            session.engine(), chosen, kind=got["kind"], number=got["number"],
            title=got["title"], starts_at=service.start_of(got["day"], got["at"], tz),
            minutes=got["minutes"], actor=session.actor()), done=lambda o: o.done))
    if remove:
        _show(widgets.act(lambda: service.remove_item(session.engine(), chosen,
                                                      actor=session.actor()),
                          done=lambda o: o.done))


def _choices(frame: pd.DataFrame, tz: dt.tzinfo) -> dict[int, str]:
    """Each item as a choice names it, with its day: "Qualifier 2 · Saturday 7 March 14:00"."""
    shown = service.public_schedule(frame, tz)
    return dict(zip(frame["item_id"].astype(int),
                    shown["label"] + " · " + shown["day"] + " " + shown["starts"]))


#: Which days "running late" moves: the chosen item's day only, or the later days too.
LATE_DAYS = {"day": N_("Only the rest of that day"), "later": N_("That day and every later day")}


def running_late_form(reads: data.Data) -> None:
    """The organizer: every item after the chosen one on its day (or the later days too)
    moves N minutes later (logged); the last move can be undone."""
    frame, tz = current(reads)
    if len(frame) >= 2:
        labels = _choices(frame, tz)
        running = plan.running(frame, _now())
        first = int(running["item_id"].iloc[0]) if len(running) else \
            int(frame["item_id"].iloc[0])
    last = service.last_move(session.engine(), actor=session.actor())
    if len(frame) < 2 and last is None:
        return
    with st.expander(_("Running late"), icon=":material/more_time:"):
        if len(frame) >= 2:
            with st.form("schedule_late"):
                after = st.selectbox(_("Everything that starts after"), list(labels),
                                     index=list(labels).index(first),
                                     format_func=widgets.labels_of(labels),
                                     key="schedule_late_after")
                minutes = st.number_input(_("moves this many minutes later"), min_value=1,
                                          max_value=plan.MINUTES_MAX, value=15, step=5,
                                          key="schedule_late_minutes")
                days = st.radio(_("Which days"), list(LATE_DAYS), horizontal=True,
                                format_func=widgets.labels_of(i18n.words_in(LATE_DAYS)),
                                key="schedule_late_days")
                move = st.form_submit_button(_("Move them"), key="schedule_late_move")
            st.caption(_("The chosen item keeps its start; its own length changes on its "
                         "form."))
        else:
            move = False
        undo = False
        if last is not None:
            st.caption(widgets.plain(last.words))
            undo = st.button(_("Undo the last move"), key="schedule_late_undo",
                             icon=":material/undo:", disabled=not last.undoable)
            if not last.undoable:
                st.caption(widgets.plain(last.reason))
    if move:
        _show(widgets.act(lambda: service.running_late(
            session.engine(), int(minutes), after_item=int(after),
            later_days=days == "later", actor=session.actor()), done=lambda o: o.done))
    if undo:
        _show(widgets.act(lambda: service.undo_last_move(session.engine(),
                                                         actor=session.actor()),
                          done=lambda o: o.done))


def warnings(reads: data.Data) -> None:
    """The organizer: every pair of sittings that overlap, as a warning."""
    frame, tz = current(reads)
    for words in service.overlap_warnings(frame, tz):
        st.warning(widgets.plain(words), icon=":material/warning:")
