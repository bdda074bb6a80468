"""TV mode for a projector: the standings in two columns of large type (a slide per page of
them), then the charts and the season, cycling by itself in the browser (`ui.live_tv`: no run
of this page per slide); no sidebar (a static style block hides it: open another page by its
address)."""

import streamlit as st

from stsa.domain import Role
from stsa.i18n import _
from stsa.ui import data, live, live_tv

live.tv_style()
live_tv.show(data.now(Role.SPECTATOR))  # the room sees the public view (R20)
st.page_link("views/standings.py", label=_("Leave TV mode"), icon=":material/close:")
