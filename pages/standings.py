"""standings (placeholder)."""

import streamlit as st

st.title("standings")
