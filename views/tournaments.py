"""Tournaments: every tournament this STSA holds, the current ones first, then the past ones
with their champion; open one to see it on every page. The organizer creates tournaments,
tries the demo, and archives or deletes the one shown (R27)."""

import streamlit as st

from stsa.i18n import _
from stsa.ui import tournaments as view
from stsa.ui import widgets

st.title(_("Tournaments"))
widgets.flash()
view.new_pin_note()
frame = view.listing()
view.the_list(frame)
view.organizer(frame)
