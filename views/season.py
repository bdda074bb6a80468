"""Season: the standing across the tournaments of a season (R27), players by nickname only,
how it is ranked in plain words, and a CSV download."""

import streamlit as st

from stsa import i18n
from stsa.i18n import _
from stsa.services import season as service
from stsa.ui import season_data, session, widgets

st.title(_("Season"))
found = season_data.seasons()
if found.empty:
    st.info(_("There is no season yet: the organizer groups tournaments into a season on the "
              "Tournaments page."))
    st.stop()
names = dict(zip(found["season_id"].astype(int), found["name"]))
points = dict(zip(found["season_id"].astype(int), found["points"]))
default = season_data.season_of_shown() or max(names)
chosen = st.selectbox(_("Season"), list(names), index=list(names).index(default),
                      format_func=lambda s: widgets.plain(names[s]), key="season_shown")
table = season_data.table(chosen)
if points[chosen]:
    st.caption(_("Ranked by points: each tournament's final rank earns its points ({points} "
                 "for ranks 1, 2, 3 …); ties are settled by the best qualifier score, then the "
                 "better final rank.").format(
        points=widgets.plain(service.points_text(points[chosen]))))
else:
    st.caption(_("Ranked by each player's best qualifier score in any tournament of the season "
                 "(ties settled as in a tournament's standings: the next-best games), then by "
                 "the better final rank."))
if table.empty:
    st.info(_("No results yet in this season's tournaments."))
    st.stop()
st.dataframe(i18n.headings(service.season_sheet(table).drop(columns=["Games", "Wins"])),
             hide_index=True)
st.download_button(_("Download CSV"), service.season_csv(session.installation(), chosen, table),
                   file_name=widgets.file_name(names[chosen], "season", "csv"),
                   mime="text/csv", key="season_csv", icon=":material/download:")
