"""STSA entry point: page config and navigation. Pages live in pages/, logic in stsa/."""

import streamlit as st

st.set_page_config(page_title="STSA", page_icon="🏜️", layout="wide")
st.navigation([st.Page("pages/home.py", title="Home", default=True)]).run()
