"""STSA entry point: page config, then the pages this person's role may open (R20).

Hiding a page is never the only protection: every write in `stsa` checks the role it is given.
"""

import streamlit as st

from stsa.auth import Role
from stsa.ui import session

st.set_page_config(page_title="STSA", page_icon="🏜️", layout="wide")

EVERYONE = (Role.SPECTATOR, Role.JUDGE, Role.ORGANIZER)
STAFF = (Role.JUDGE, Role.ORGANIZER)
PAGES = [
    # file, title, icon, who may open it
    ("pages/home.py", "Home", ":material/home:", EVERYONE),
    ("pages/standings.py", "Standings", ":material/leaderboard:", EVERYONE),
    ("pages/draw.py", "Draw", ":material/table_restaurant:", EVERYONE),
    ("pages/results.py", "Results", ":material/edit_note:", EVERYONE),
    ("pages/finals.py", "Finals", ":material/emoji_events:", EVERYONE),
    ("pages/roster.py", "Roster", ":material/group:", (Role.ORGANIZER,)),
    ("pages/settings.py", "Settings", ":material/settings:", (Role.ORGANIZER,)),
    ("pages/log.py", "Log", ":material/history:", (Role.ORGANIZER,)),
    ("pages/sign_in.py", "Sign in", ":material/login:", EVERYONE),
]

role = session.role()
session.keep_signed_in()
pages = [st.Page(path, title=title, icon=icon, default=(path == "pages/home.py"))
         for path, title, icon, roles in PAGES if role in roles]
st.navigation(pages).run()
