"""Home: the tournament at a glance (its champion and podium first once the final is in), what to
do next, and links to the pages this role opens. Its public parts are a live element
(`ui.live_home`) that updates by itself; the organizer's and judges' parts are this run's."""

import streamlit as st

from stsa import i18n
from stsa.domain import Role
from stsa.i18n import _
from stsa.services import tournaments
from stsa.ui import (
    bookings,
    data,
    live_home,
    navigation,
    organizer,
    result_checks,
    session,
    widgets,
)

role, reads = session.role(), data.now()
status = reads.home_status()

st.title(widgets.plain(status.tournament_name), anchor=False)
widgets.flash()
live_home.show(reads, role)  # the podium, the figures, next up, the sitting and its clock
if role.is_staff:  # what they do next, drafts included (R20)
    st.info(organizer.next_step(status, role), icon=":material/arrow_forward:")
    bookings.room_code(session.engine(), session.actor(), reads=reads)  # to read out
result_checks.show_late_corrections(reads)  # organizer and judges: results moved under finals

if role is Role.ORGANIZER and status.sitting is None and reads.players().empty:
    st.subheader(_("Try it out"), anchor=False)
    st.write(_("This tournament is empty. Load the demo to see every page populated: 24 "
               "players and three completed qualifier sittings with results. It is a "
               "tournament of its own, deleted in one click on the Tournaments page; this one "
               "stays as it is for the real event."))
    if st.button(_("Load demo tournament"), key="load_demo", icon=":material/science:"):
        loaded = widgets.act(lambda: tournaments.try_demo(session.installation(),
                                                          actor=session.actor()),
                             done=_("Demo tournament loaded: 24 players, 3 completed "
                                    "sittings."))
        if loaded is not None:
            session.open_tournament(loaded.tournament_id)
            st.rerun()

st.subheader(_("Go to"), anchor=False)
for page, link, icon in navigation.links(role):
    st.page_link(page, label=i18n.cell(link), icon=icon)
