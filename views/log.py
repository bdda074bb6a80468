"""Log (organizer): who did what and when, newest first (R19), each change in words,
filterable and downloadable with its raw values."""

import streamlit as st

from stsa.domain import Role
from stsa.i18n import _, ngettext, pgettext
from stsa.services import log as log_words
from stsa.ui import data, organizer, result_checks, session, widgets

st.title(_("Log"))
me = session.only_for(Role.ORGANIZER)
widgets.flash()
st.caption(_("Every change is recorded here with who made it, when, and what changed. Nothing "
             "is ever deleted from the log."))
st.page_link("views/data.py", label=_("The whole tournament as a workbook, CSV downloads, "
                                      "backups and restore: Data page"),
             icon=":material/database:")

kinds = log_words.filters()
what = st.selectbox(_("What"), list(kinds), index=None, key="log_action",
                    placeholder=_("Everything"),
                    help=_("Only one kind of change, e.g. results corrected."))
by = st.text_input(_("By"), key="log_by", placeholder=_("Exact name, e.g. Olivia"),
                   max_chars=100, help=_("Who acted, as they signed in."))
find = st.text_input(_("Find"), key="log_find",
                     placeholder=_("e.g. Qualifier 2, table 4 or a name"), max_chars=200,
                     help=_("Shows the changes whose description contains this text."))
limit = st.number_input(_("Show the latest"), min_value=1, max_value=100_000, value=200, step=50,
                        key="log_limit")

now = data.now()
result_checks.show_late_corrections(now)
events = log_words.events(session.engine(), actor=me, action=kinds.get(what),
                          by=by.strip() or None, limit=None if find.strip() else int(limit))
log = organizer.in_zone(now.log(events, find=find, limit=int(limit)), "at", now.settings().zone)
if log.empty:
    filtered = bool(what or by.strip() or find.strip())
    st.info(_("No events match these filters.") if filtered else
            _("No events yet: everything the organizer and judges do will be listed here."))
    st.stop()

st.write(ngettext("{count} event, newest first.", "{count} events, newest first.",
                  len(log)).format(count=len(log)))
if imported := log_words.imported(events.loc[events["event_id"].isin(log["event_id"])]):
    st.caption(ngettext("{count} event came in with a restore: “By” names the workbook it came "
                        "from. That history is the file's record, not one made here.",
                        "{count} events came in with a restore: “By” names the workbook it "
                        "came from. That history is the file's record, not one made here.",
                        imported).format(count=imported))
st.dataframe(log, hide_index=True, key="log_table", column_config={
    "event_id": st.column_config.NumberColumn("#", format="%d"),
    "at": st.column_config.DatetimeColumn(_("When"), format="YYYY-MM-DD HH:mm:ss"),
    "actor": _("By"), "role": _("Role"), "what": _("What"),
    "details": st.column_config.TextColumn(_("Details"), width="large")})
st.download_button(_("Download as CSV"), organizer.csv_text(organizer.log_frame(events, log)),
                   file_name=widgets.file_name(now.settings().tournament_name,
                                               pgettext("file name", "log"), "csv"),
                   mime="text/csv", key="log_csv",
                   icon=":material/download:",
                   help=_("Every column as recorded, with the values before and after."))
