"""roster (placeholder)."""

import streamlit as st

st.title("roster")
