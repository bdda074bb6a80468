"""log (placeholder)."""

import streamlit as st

st.title("log")
