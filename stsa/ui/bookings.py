"""Booking lists per qualifier sitting and self check-in on the pages (R25): the import on the
Roster page, the next qualifier's check-in (booked and here, booked and missing, drop-ins,
waiting; who checked themselves in, with an undo), the booked seats offered to waiting players
on the Draw page, the room's code on the TV and the staff's Home, and My seat's bookings and
self check-in. The rules live in `stsa.services.bookings`."""

from __future__ import annotations

import functools
import time

import pandas as pd
import streamlit as st

from stsa import auth, i18n, local_time
from stsa.domain import Role
from stsa.formats import booking_file
from stsa.i18n import _, ngettext
from stsa.services import bookings as service
from stsa.ui import data, people, session, widgets

_SHOWN = 200


def upload(engine, me) -> None:
    """The organizer's booking list import: which qualifier, the file, a preview with the
    rows that match nobody to tick as new players, and the import."""
    with st.expander(_("Import a booking list"), icon=":material/event_seat:"):
        st.caption(_("A booking list from the convention's booking system (.xlsx, .ods or "
                     ".csv) for one qualifier: a name, nickname or e-mail column, and the "
                     "booking order or booking time if it has one. Booked players get the seats "
                     "of that qualifier first, in booking order. Importing again replaces the "
                     "list."))
        st.session_state.setdefault("bookings_number", service.next_qualifier_number(engine))
        number = int(st.number_input(_("For qualifier"), min_value=1, max_value=1000, step=1,
                                     key="bookings_number"))
        upload = st.file_uploader(_("Booking list"), type=["xlsx", "ods", "csv"],
                                  key="bookings_file")
        if upload is None:
            return
        seen = widgets.act(lambda: service.preview(engine, upload, actor=me))
        if seen is None:
            return
        error = seen.error()
        if error is not None:
            st.error(widgets.plain(error), icon=":material/error:")
            return
        rows = seen.rows
        st.write(ngettext("{count} booking; {unmatched} match nobody on the roster.",
                          "{count} bookings; {unmatched} match nobody on the roster.",
                          len(rows)).format(count=len(rows), unmatched=len(seen.unmatched)))
        found_by = rows["matched_by"].map(
            lambda how: _(booking_file.MATCHED_BY[how]) if how in booking_file.MATCHED_BY
            else how)
        st.dataframe(pd.DataFrame({_("Row"): rows["row"], _("In the file"): _who(rows),
                                   _("Player"): rows["player"], _("Found by"): found_by})
                     .head(_SHOWN), hide_index=True)
        add, nicknames = [], {}
        if seen.unmatched:
            st.markdown(_("**Rows that match nobody**: tick those to add as new players, each "
                          "with the nickname spectators will see."))
            texts = dict(zip(rows["row"], _who(rows)))
            given = dict(zip(rows["row"], rows["nickname"].fillna("")))
            for row in seen.unmatched[:_SHOWN]:
                if st.checkbox(widgets.plain(_("Row {row}: add {who} as a new player").format(
                        row=row, who=texts[row])),
                               key=f"bookings_add_{row}"):
                    add.append(row)
                    # R22: asked here, so that no real name is public by default
                    nicknames[row] = st.text_input(
                        _("Nickname of row {row} (what spectators see)").format(row=row),
                        value=given.get(row, ""), max_chars=100, key=f"bookings_nick_{row}")
        if st.button(_("Import booking list"), key="bookings_import", type="primary"):
            done = widgets.act(lambda: people.after_import(service.import_bookings(
                engine, seen, number, add_rows=add, nicknames=nicknames, actor=me)),
                done=lambda c: _("Qualifier {number}: {changes}").format(number=number,
                                                                         changes=c["words"]))
            if done is not None:
                st.session_state.pop("bookings_file", None)
                st.rerun()


def _who(rows: pd.DataFrame) -> pd.Series:
    """What a booking row says: its name, nickname and e-mail, as one text."""
    return pd.Series([" · ".join(t for t in texts if t) for texts in
                      zip(rows["name"], rows["nickname"], rows["email"])], index=rows.index,
                     dtype="str")


def sitting_check_in(engine, me) -> None:
    """The next qualifier's check-in by booking (the organizer's Roster page), and who
    checked themselves in, each with an undo."""
    view = widgets.act(lambda: service.check_in_view(engine, actor=me))
    if view is None:
        return
    plan, tz = view.plan, session_zone()
    if plan.starts_at is None:  # no planned start: the organizer opens and closes check-in
        _open_or_close(engine, me, plan)
    if not plan.has_list and not view.booked_here.shape[0] and not _self_ins(view):
        return
    if plan.starts_at is not None and plan.deadline is not None:
        st.markdown(_("**Qualifier {number}** starts {start}; check-in closes {deadline}").format(
            number=plan.number, start=local_time.day_words(plan.starts_at, tz),
            deadline=local_time.clock_words(plan.deadline, tz)))
    else:
        st.markdown(_("**Qualifier {number}**").format(number=plan.number))
    if plan.has_list:
        groups = [(_("Booked and here"), view.booked_here), (_("Booked and missing"),
                                                             view.booked_missing),
                  (_("Here, not booked"), view.drop_ins), (_("Waiting"), view.waiting)]
        for column, (title, frame) in zip(st.columns(4), groups):
            column.markdown(f"**{title}** ({len(frame)})")
            column.markdown("  \n".join(widgets.plain(n) for n in frame["name"].head(_SHOWN))
                            or "—")
    mine = pd.concat([view.booked_here, view.drop_ins, view.waiting.drop(columns="position")])
    selves = mine.loc[mine["self_check_in"]]
    if len(selves):
        st.markdown(_("**Checked in on My seat** ({count})").format(count=len(selves)))
        for pid, name in zip(selves["player_id"], selves["name"]):
            left, right = st.columns([3, 1], vertical_alignment="center")
            left.write(widgets.plain(name))
            if right.button(_("Undo"), key=f"self_undo_{pid}"):
                if widgets.act(functools.partial(service.undo_self_check_in, engine, int(pid),
                                                 actor=me),
                               done=_("Checked {player} out.").format(player=name)
                               ) is not None:
                    st.rerun()


def _open_or_close(engine, me, plan) -> None:
    label = (_("Close check-in on My seat") if plan.opened
             else _("Open check-in on My seat for qualifier {number}").format(number=plan.number))
    st.caption(_("Qualifier {number} has no planned start: players can check themselves in on "
                 "My seat (with the code on TV mode and Home) while you have it open. Closing "
                 "it is the check-in deadline for booked players.").format(number=plan.number))
    if st.button(label, key="self_check_in_open"):
        if widgets.act(functools.partial(service.open_self_check_in, engine, not plan.opened,
                                         actor=me),
                       done=(_("Check-in on My seat is closed.") if plan.opened
                             else _("Check-in on My seat is open."))) is not None:
            st.rerun()


def _self_ins(view) -> bool:
    return bool(view.drop_ins["self_check_in"].any() or view.waiting["self_check_in"].any())


def session_zone():
    """The tournament's time zone for this page."""
    return data.now().settings().zone


def offers(engine, me) -> None:
    """After the check-in deadline: each missing booked player's seat offered to the next
    waiting player; the organizer confirms each one (nobody is moved by itself)."""
    view = widgets.act(lambda: service.check_in_view(engine, actor=me))
    if view is None or view.offers.empty:
        return
    st.markdown(_("**Check-in for qualifier {number} has closed.** Booked players who did not "
                  "check in keep their booking but not their priority:").format(
        number=view.plan.number))
    for pid, name, rid, replacement in view.offers.itertuples(index=False, name=None):
        left, right = st.columns([3, 1], vertical_alignment="center")
        left.write(widgets.plain(_("{player}'s seat → {replacement} (first on the waiting list)")
                                 .format(player=name, replacement=replacement)))
        if right.button(_("Give the seat"), key=f"offer_{pid}_{rid}"):
            if widgets.act(functools.partial(service.confirm_replacement, engine, int(pid),
                                             int(rid), actor=me),
                           done=_("{replacement} takes {player}'s seat.").format(
                               replacement=replacement, player=name)) is not None:
                st.rerun()


def room_line(engine, me=None, *, reads: data.Data | None = None) -> tuple[str, float] | None:
    """R25: the room's check-in code in a line while self check-in is open ("Check in on My
    seat with the code **12345** (qualifier 3; until 14:00)."), and until when it holds
    (epoch seconds: the code's time slot ends, or check-in closes); None while it is closed.
    From the next qualifier's plan as every session shares it (read once per data version)."""
    reads = reads or data.now()
    shown = service.room_code(engine, actor=me, plan=reads.next_plan())
    if shown is None:
        return None
    until = float((auth.code_slot(time.time()) + 1) * auth.ROOM_CODE_SECONDS)
    if shown.deadline is None:
        said = _("Check in on My seat with the code **{code}** (qualifier {number}).").format(
            code=shown.code, number=shown.number)
    else:
        said = _("Check in on My seat with the code **{code}** (qualifier {number}; until "
                 "{deadline}).").format(code=shown.code, number=shown.number,
                                        deadline=local_time.clock_words(
                                            shown.deadline, reads.settings().zone))
        until = min(until, shown.deadline.timestamp())
    return said, until


def room_code(engine, me=None, *, reads: data.Data | None = None) -> None:
    """The room's check-in code while self check-in is open (the staff's Home), as
    `room_line` says it."""
    found = room_line(engine, me, reads=reads)
    if found is not None:
        st.info(found[0], icon=":material/pin:")


def my_seat(player_id: int, reads: data.Data | None = None) -> None:
    """My seat: the player's bookings and waiting position, and self check-in with the room's
    code while it is open (both from the reads every session shares per data version;
    `reads`: the page's, the public's view)."""
    engine, reads = session.engine(), reads or data.now(Role.SPECTATOR)
    for line in reads.booking_lines(player_id):
        st.info(widgets.plain(i18n.cell(line)), icon=":material/event_seat:")
    if service.open_plan(engine, plan=reads.next_plan()) is None:
        return
    with st.form("self_check_in"):
        code = st.text_input(_("Code on the TV"), max_chars=12, key="self_code",
                             placeholder=_("5 digits"))
        go = st.form_submit_button(_("Check me in"), icon=":material/how_to_reg:")
    if go:
        widgets.act(lambda: service.self_check_in(engine, player_id, code,
                                                  client=session.client()),
                    done=lambda words: words)
        widgets.flash()
