"""Player records: one player across every tournament here (R27), chosen by nickname: the
tournaments played, the best qualifier score and final rank in each, and the unofficial rating
with a chart of it over time. Nicknames only."""

import streamlit as st

from stsa.domain import plural
from stsa.services import roster
from stsa.ui import record_data, widgets

HEADINGS = {"tournament": "Tournament", "starts_on": "First day", "nickname": "Nickname there",
            "best_score": "Best qualifier score", "rank": "Qualifier rank",
            "final_rank": "Final rank"}

st.title("Player records")
everyone = record_data.people()
if everyone.empty:
    st.info("No players yet in this STSA's tournaments.")
    st.stop()
query = st.text_input("Search by nickname", key="record_search", max_chars=100,
                      placeholder="Part of a nickname", icon=":material/search:")
found = everyone.loc[roster.name_matches(everyone["nickname"], query)]
if found.empty:
    st.info("No player has a nickname like that.")
    st.stop()
labels = dict(zip(found["person_id"].astype(int),
                  found["nickname"].astype(str) + " (last played: "
                  + found["last_tournament"].astype(str) + ")"))
chosen = st.selectbox("Player", list(labels), index=None, key="record_player",
                      format_func=widgets.labels_of(labels),
                      placeholder=f"Choose one of {len(labels)} (search above to narrow)")
if chosen is None:
    st.stop()
page = record_data.page(chosen)
if page is None:  # gone since the list was read
    st.info("That player is not in this STSA's tournaments any more.")
    st.stop()

st.subheader(widgets.plain(page.nickname), anchor=False)
st.caption(f"Played {plural(len(page.record), 'tournament')} here.")
table = page.record[list(HEADINGS)].astype({"best_score": "Int64"}).rename(columns=HEADINGS)
st.dataframe(table, hide_index=True)

st.subheader("Unofficial rating", anchor=False)
st.caption("An estimate of playing strength from every game in every tournament here, for "
           "fun only: it is not part of the tournament rules and decides nothing. Skill is "
           "the estimate; uncertainty says how sure it is (it shrinks with every game); the "
           "conservative rating is skill minus three times the uncertainty, and players are "
           "ranked by it.")
if page.rating is None:
    st.info("No rating yet: it starts with the first game played.")
    st.stop()
skill, sure, conservative = st.columns(3)
skill.metric("Skill", f"{page.rating['mu']:.1f}")
sure.metric("Uncertainty", f"{page.rating['sigma']:.1f}")
conservative.metric("Conservative rating", f"{page.rating['ordinal']:.1f}",
                    help=f"Rank {page.rating['rank']} after {page.rating['games']} games.")
st.altair_chart(record_data.chart(page), width="stretch")
