"""Player records: one player across every tournament here (R27), chosen by nickname: the
tournaments played, the best qualifier score and final rank in each, and the unofficial rating
with a chart of it over time. Nicknames only."""

import streamlit as st

from stsa import i18n
from stsa.i18n import N_, _, ngettext
from stsa.services import roster
from stsa.ui import record_data, widgets

HEADINGS = {"tournament": N_("Tournament"), "starts_on": N_("First day"),
            "nickname": N_("Nickname there"), "best_score": N_("Best qualifier score"),
            "rank": N_("Qualifier rank"), "final_rank": N_("Final rank")}

st.title(_("Player records"))
everyone = record_data.people()
if everyone.empty:
    st.info(_("No players yet in this STSA's tournaments."))
    st.stop()
query = st.text_input(_("Search by nickname"), key="record_search", max_chars=100,
                      placeholder=_("Part of a nickname"), icon=":material/search:")
found = everyone.loc[roster.name_matches(everyone["nickname"], query)]
if found.empty:
    st.info(_("No player has a nickname like that."))
    st.stop()
last_played = _("{nickname} (last played: {tournament})")
labels = {int(p): last_played.format(nickname=n, tournament=t) for p, n, t in zip(
    found["person_id"], found["nickname"].astype(str), found["last_tournament"].astype(str))}
chosen = st.selectbox(_("Player"), list(labels), index=None, key="record_player",
                      format_func=widgets.labels_of(labels),
                      placeholder=_("Choose one of {count} (search above to narrow)").format(
                          count=len(labels)))
if chosen is None:
    st.stop()
page = record_data.page(chosen)
if page is None:  # gone since the list was read
    st.info(_("That player is not in this STSA's tournaments any more."))
    st.stop()

st.subheader(widgets.plain(page.nickname), anchor=False)
st.caption(ngettext("Played {count} tournament here.", "Played {count} tournaments here.",
                    len(page.record)).format(count=len(page.record)))
table = page.record[list(HEADINGS)].astype({"best_score": "Int64"}).rename(
    columns=i18n.words_in(HEADINGS))
st.dataframe(table, hide_index=True)

st.subheader(_("Unofficial rating"), anchor=False)
st.caption(_("An estimate of playing strength from every game in every tournament here, for "
             "fun only: it is not part of the tournament rules and decides nothing. Skill is "
             "the estimate; uncertainty says how sure it is (it shrinks with every game); the "
             "conservative rating is skill minus three times the uncertainty, and players are "
             "ranked by it."))
if page.rating is None:
    st.info(_("No rating yet: it starts with the first game played."))
    st.stop()
skill, sure, conservative = st.columns(3)
skill.metric(_("Skill"), i18n.number(page.rating["mu"], 1))
sure.metric(_("Uncertainty"), i18n.number(page.rating["sigma"], 1))
conservative.metric(_("Conservative rating"), i18n.number(page.rating["ordinal"], 1),
                    help=ngettext("Rank {rank} after {count} game.",
                                  "Rank {rank} after {count} games.", page.rating["games"])
                    .format(rank=page.rating["rank"], count=page.rating["games"]))
st.altair_chart(record_data.chart(page), width="stretch")
