"""Home: the tournament at a glance (its champion and podium first once the final is in), what to
do next, and links to the pages this role opens."""

import streamlit as st

from stsa import i18n
from stsa.domain import SITTING_STATUS_WORDS, Role
from stsa.i18n import _, ngettext
from stsa.services import tournaments
from stsa.ui import bookings, data, finals, navigation, organizer, result_checks, session, widgets
from stsa.ui import clock as clock_view
from stsa.ui import schedule as schedule_view

role, reads = session.role(), data.now()
status = reads.home_status()
sitting = status.sitting
label = i18n.cell(sitting.label) if sitting else _("None yet")

st.title(widgets.plain(status.tournament_name), anchor=False)
widgets.flash()
if status.podium:  # the tournament is over: its champion first, in view on any phone
    champion, others = finals.podium_words(status.podium)
    with st.container(border=True, key="home_podium"):
        st.subheader(f":material/trophy: {widgets.plain(champion)}", anchor=False)
        if others:
            st.markdown(widgets.plain(others))
        st.page_link("views/finals.py", label=_("Final standings"),
                     icon=":material/emoji_events:")

players, checked_in, current = st.columns(3)
players.metric(_("Players"), status.players, help=_("Active players on the roster."))
checked_in.metric(_("Checked in"), status.checked_in, help=_("For the next sitting."))
current.metric(_("Sitting"), label)
schedule_view.next_up(reads)  # "Next: Lunch at 12:30"
if sitting:
    st.write(ngettext("**{sitting}** is {status} ({done} of {count} table reported).",
                      "**{sitting}** is {status} ({done} of {count} tables reported).",
                      sitting.tables).format(
        sitting=label, status=_(SITTING_STATUS_WORDS[sitting.status]), done=sitting.results,
        count=sitting.tables))
clock_view.on_home()  # the sitting's countdown
if status.missing_tables:
    st.write(_("Tables still missing results: {tables}.").format(
        tables=organizer.listed(list(status.missing_tables))))
st.info(organizer.next_step(status, role), icon=":material/arrow_forward:")
if role in (Role.ORGANIZER, Role.JUDGE):  # the room's check-in code, to read out
    bookings.room_code(session.engine(), session.actor(), reads=reads)
result_checks.show_late_corrections(reads)  # organizer and judges: results moved under finals

if role is Role.ORGANIZER and sitting is None and reads.players().empty:
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
