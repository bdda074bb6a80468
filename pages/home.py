"""Home: what STSA is and what happens now."""

import streamlit as st

from stsa import catalog

st.title("STSA")
st.caption("Swordmasters Tournament System Application for DUNE: Imperium organized play")
setups = catalog.setups()
st.write(f"{len(setups)} setups in the catalog, {len(catalog.leaders())} leaders.")
