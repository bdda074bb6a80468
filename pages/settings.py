"""settings (placeholder)."""

import streamlit as st

st.title("settings")
