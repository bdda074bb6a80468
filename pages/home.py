"""Home: what happens now."""

import streamlit as st

from stsa.ui import data, session, widgets

st.title("STSA")
widgets.flash()
status = data.home_status(session.database_url(), session.role())
st.subheader(status["tournament_name"], anchor=False)
