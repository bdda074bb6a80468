"""Standings: best scores and ranks (R14, R15), the finals cut (R16), and a player search."""

import streamlit as st

from stsa.auth import Role
from stsa.ui import data, session, widgets
from stsa.ui import finals as view

COLUMNS = {
    "Rank": st.column_config.NumberColumn(pinned=True),
    "Player": st.column_config.TextColumn(width="medium", pinned=True),
    "Placing": st.column_config.NumberColumn(help="Placing in the game that gave the best score"),
    "VP": st.column_config.NumberColumn(help="VP in the game that gave the best score"),
    "Zone": st.column_config.TextColumn(help="Where this rank stands at the finals cut (R16)"),
}

st.title("Standings")
widgets.flash()
url = session.database_url()
table = data.standings(url)
if table.empty:
    st.info("No results yet: the standings appear once the first qualifier results are in "
            "(judges enter them on the Results page).")
    st.stop()

st.caption(view.cut_caption(table))
if session.role() == Role.ORGANIZER:
    for warning in view.tie_warnings(table):
        st.warning(widgets.plain(warning), icon=":material/warning:")

query = st.text_input("Find a player", key="standings_search", max_chars=60,
                      placeholder="Type part of a name")
shown = view.search(table, query)
if query.strip() and shown.empty:
    st.info(f"No player's name contains “{widgets.plain(query.strip())}”.")
else:
    st.dataframe(view.standings_frame(shown), hide_index=True, width="stretch",
                 height=view.table_height(len(shown)), column_config=COLUMNS)

if query.strip() and 0 < len(shown) <= 5:
    scored = data.scored_results(url)
    for row in shown.itertuples():
        st.subheader(widgets.plain(row.name), anchor=False)
        st.write(f"Best score **{row.best_score}**, rank {row.rank}, "
                 f"{row.games} game{'s' if row.games != 1 else ''}, "
                 f"{row.wins} win{'s' if row.wins != 1 else ''}.")
        st.dataframe(view.player_games(scored, row.player_id), hide_index=True,
                     width="stretch")
elif len(shown) > 5 and query.strip():
    st.caption(f"{len(shown)} players match: type more of a name to see their games.")
