"""Log (organizer): who did what and when, newest first (R19), filterable and downloadable."""

import streamlit as st

from stsa.auth import Role
from stsa.ui import data, organizer, session, widgets

st.title("Log")
session.only_for(Role.ORGANIZER)
widgets.flash()
st.caption("Every change is recorded here with who made it, when, and the values before and "
           "after. Nothing is ever deleted from the log.")
st.page_link("views/data.py", label="The whole tournament as a workbook, CSV downloads, backups "
             "and restore: Data page", icon=":material/database:")

action = st.text_input("Action", key="log_action", placeholder="e.g. result. or player.edit",
                       help="An exact action, or the start of one ending in a dot: “result.” "
                            "shows every result action.")
by = st.text_input("By", key="log_by", placeholder="Exact name, e.g. Olivia",
                   help="Who acted, as they signed in.")
subject = st.text_input("Subject", key="log_subject", placeholder="e.g. table 12 or player 3")
limit = st.number_input("Show the latest", min_value=1, max_value=100_000, value=200, step=50,
                        key="log_limit")

events = data.now().events(action=action.strip() or None, by=by.strip() or None,
                           subject=" ".join(subject.split()) or None, limit=int(limit))
if events.empty:
    filtered = any(x.strip() for x in (action, by, subject))
    st.info("No events match these filters." if filtered else
            "No events yet: everything the organizer and judges do will be listed here.")
    st.stop()

log = organizer.log_frame(events)
st.write(f"{len(log)} event{'s' if len(log) != 1 else ''}, newest first.")
st.dataframe(log, hide_index=True, key="log_table", column_config={
    "event_id": st.column_config.NumberColumn("#", format="%d"),
    "at": st.column_config.DatetimeColumn("When (UTC)", format="YYYY-MM-DD HH:mm:ss"),
    "actor": "By", "role": "Role", "action": "Action", "subject": "Subject",
    "before": "Before", "after": "After"})
st.download_button("Download as CSV", organizer.csv_text(log), file_name="stsa-log.csv",
                   mime="text/csv", key="log_csv", icon=":material/download:")
