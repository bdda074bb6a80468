"""Schedule: the tournament's plan for everyone (its sittings, lunch, the prize giving …) in
the tournament's time zone, what comes next, and the whole plan as a calendar file. The plan
and "next" are a live element (`ui.live_schedule`) that updates by itself. The organizer plans
items here, changes or removes them, and moves everything later when the room runs late."""

import streamlit as st

from stsa.domain import Role
from stsa.i18n import _
from stsa.ui import data, live_schedule, session, widgets
from stsa.ui import schedule as view

st.title(_("Schedule"))
widgets.flash()
role, reads = session.role(), data.now()

if role is Role.ORGANIZER:
    view.warnings(reads)
    view.plan_form(reads)
    view.edit_form(reads)
    view.running_late_form(reads)

live_schedule.show(reads, role)
if not reads.schedule().empty:
    view.calendar_download(reads)
