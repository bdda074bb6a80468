"""Statistics: the qualifiers in charts (best scores and the cut, scores per sitting, leaders,
seats, setups, chosen players' scores), one at a time (a phone shows one; the server builds
one). Each chart gets a small aggregated frame, shared by every viewer (`data.statistics`)."""

import streamlit as st

from stsa.i18n import N_, _
from stsa.ui import data
from stsa.ui import statistics as stats

st.title(_("Statistics"))
reads = data.now()
table = reads.standings()
if table.empty:
    st.info(_("No results yet: the charts appear once the first qualifier results are in "
              "(judges enter them on the Results page)."))
    st.stop()

frames = reads.statistics()
st.caption(stats.progress(reads))
CHARTS = [N_("Best scores"), N_("Sittings"), N_("Players"), N_("Leaders"), N_("Seats"),
          N_("Setups")]
shown = st.segmented_control(_("Chart"), CHARTS, default=CHARTS[0], key="stats_chart",
                             format_func=_, label_visibility="collapsed") or CHARTS[0]

if shown == "Best scores":
    st.altair_chart(stats.chart(reads, shown), width="stretch")
    st.caption(stats.best_scores_caption(len(table)))

elif shown == "Sittings":
    st.altair_chart(stats.chart(reads, shown), width="stretch")
    st.caption(_("Each box spans the middle half of a sitting's qualifier scores, the black tick "
                 "is the median, the line runs from the lowest to the highest score."))

elif shown == "Players":
    names = dict(zip(table["player_id"], table["name"].astype(str)))
    chosen = st.multiselect(_("Players"), list(names), default=list(names)[:3],
                            format_func=names.get, key="stats_players", max_selections=10,
                            select_all=False,
                            placeholder=_("Choose players to compare"))
    if chosen:
        st.altair_chart(stats.player_chart(reads, chosen), width="stretch")
    else:
        st.info(_("Choose one or more players to see their scores across the sittings."))

elif shown == "Leaders":
    if frames["leaders"].empty:
        st.info(_("No leaders recorded yet: judges enter each player's leader with the result."))
    else:
        st.altair_chart(stats.chart(reads, shown), width="stretch")
        st.caption(_("The {top} most picked leaders at most, per base game (from each table's "
                     "setup).").format(top=stats.TOP))

elif shown == "Seats":
    st.altair_chart(stats.chart(reads, shown), width="stretch")
    st.caption(_("Seat 1 plays first. A fair seat wins 25% of four-player games and 33% of "
                 "three-player games (the dashed lines); three-player tables are shown apart."))

elif shown == "Setups":
    if frames["setups"].empty:
        st.info(_("No qualifier tables drawn yet."))
    else:
        st.altair_chart(stats.chart(reads, shown), width="stretch")
        st.caption(_("Qualifier tables per setup: the counts of enabled setups differ by at most "
                     "one after each sitting."))
