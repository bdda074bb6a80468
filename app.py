"""STSA entry point: page config, then the pages this person's role may open (R20).

Hiding a page is never the only protection: every write in `stsa` checks the role it is given.
"""

import streamlit as st

from stsa.ui import navigation, process, session

st.set_page_config(page_title="STSA", page_icon="🏜️", layout="wide")

process.settle()  # once per process: the heap start-up made is frozen (README, Performance)
role = session.check().role
session.keep_signed_in()
st.navigation([st.Page(p.path, title=p.title, icon=p.icon, default=(p.path == navigation.HOME))
               for p in navigation.pages(role)]).run()
