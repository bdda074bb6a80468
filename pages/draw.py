"""draw (placeholder)."""

import streamlit as st

st.title("draw")
