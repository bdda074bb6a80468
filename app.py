"""STSA entry point: page config, then the pages this person's role may open (R20).

Hiding a page is never the only protection: every write in `stsa` checks the role it is given.
"""

import streamlit as st

from stsa.ui import data, language, navigation, process, session, tournaments

st.set_page_config(page_title="STSA", page_icon="🏜️", layout="wide")

process.settle()  # once per process: the heap start-up made is frozen (README, Performance)
where = session.choose_tournament()  # R27: the tournament every page shows, from the address
language.choose(data.now().settings().language)  # before any text: this run's language
role = session.check().role
session.keep_signed_in()
shown, closed = navigation.navigation_pages(role)
page = st.navigation(shown)
tournaments.shown_on_every_page(where)
if page.url_path not in navigation.NO_CONTROLS:  # a projector shows no language switch
    language.switch()
if page.url_path in closed:  # an organizer page's address: Home says why, the page never runs
    navigation.refuse(closed[page.url_path])
page.run()
