"""Players (organizer): the player directory, one person a row with their nicknames and
tournaments (R27); merge two people into one, or split a tournament player out into a person
of their own. Every change is logged."""

import streamlit as st

from stsa.domain import Role
from stsa.i18n import _
from stsa.services import people as service
from stsa.ui import people, session, widgets

st.title(_("Players"))
session.only_for(Role.ORGANIZER)
widgets.flash()
me = session.actor()
found = people.members(me)
st.caption(_("One person a row, across every tournament here. New players join it when they "
             "are imported or added on the Roster page, where you confirm the ones who look "
             "like players of earlier tournaments."))
people.add_everyone(me)
if found.empty:
    st.info(_("The player directory is empty: players join it when they are imported or "
              "added on the Roster page."))
    st.stop()
listed = service.people(found)
st.dataframe(listed.rename(columns={"person_id": _("Person"), "nicknames": _("Nicknames"),
                                    "tournaments": _("Tournaments"), "players": _("Players")}),
             hide_index=True)
people.merge_form(found, listed, me)
people.split_form(found, me)
