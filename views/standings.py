"""Standings: best scores and ranks (R14, R15), the finals cut (R16), and a player search with
each player's games. The table and everything about it is a live element (`ui.live_standings`)
that follows the data feed's standings in the browser: it updates by itself a few seconds after
a result is saved, and its search, "All columns" and pages of rows run no Python. On a phone
the table fits the screen and shows every row at its full height.

`?tv=1` opens the TV page."""

import streamlit as st

from stsa import i18n
from stsa.domain import Role
from stsa.i18n import _
from stsa.ui import data, live_standings, session, widgets

if st.query_params.get("tv") == "1":
    st.switch_page("views/tv.py")

st.title(_("Standings"))
widgets.flash()
reads = data.now()
if session.role() == Role.ORGANIZER:  # who shares a rank at a cut line: the organizer settles it
    for warning in reads.standings_notes().ties:
        st.warning(widgets.plain(i18n.cell(warning)), icon=":material/warning:")
live_standings.show(reads)
