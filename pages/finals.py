"""finals (placeholder)."""

import streamlit as st

st.title("finals")
