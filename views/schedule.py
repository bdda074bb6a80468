"""Schedule: the tournament's plan for everyone (its sittings, lunch, the prize giving …) in
the tournament's time zone, what comes next, and the whole plan as a calendar file. The
organizer plans items here, changes or removes them, and moves everything later when the
room runs late."""

import streamlit as st

from stsa.domain import Role
from stsa.i18n import _
from stsa.ui import data, session, widgets
from stsa.ui import schedule as view

st.title(_("Schedule"))
widgets.flash()
role, reads = session.role(), data.now()
frame, tz = view.current(reads)

if role is Role.ORGANIZER:
    view.warnings(reads)
    view.plan_form(reads)
    view.edit_form(reads)
    view.running_late_form(reads)

if frame.empty:
    st.info(_("Nothing is on the schedule yet. Plan the sittings and the rest of the day "
              "above.") if role is Role.ORGANIZER else
            _("Nothing is on the schedule yet. The organizer's plan for the day shows here."),
            icon=":material/event:")
    st.stop()

view.next_up(reads)
view.table(frame, tz)
st.caption(_("Times are in the tournament's time zone ({zone}).").format(zone=tz))
view.calendar_download(reads)
