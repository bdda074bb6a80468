"""Data (organizer): the tournament workbook and CSV downloads, restoring a tournament from its
workbook into an empty database, and the database backups (R19). The workbook and backups
hold removed leaders, emails and the log: organizer only (R20)."""

import streamlit as st

from stsa.domain import Role
from stsa.i18n import _, ngettext, pgettext
from stsa.services import admin, exports, restore
from stsa.ui import data, data_tools, organizer, overlays, session, sittings, widgets

st.title(_("Data"))
session.only_for(Role.ORGANIZER)
widgets.flash()
me, engine = session.actor(), session.engine()
tournament = data.now().settings().tournament_name

st.subheader(_("Download"), anchor=False)
st.caption(_("The workbook opens on a summary, the standings and the finals, then holds the "
             "whole tournament: players with their real names, nicknames and emails, every "
             "sitting with its removed leaders, results, every setting and the log in words. "
             "Keep it private; it restores the tournament below, also after a spreadsheet "
             "program saved it. The standings CSV names players by nickname only, ready to post "
             "or share."))
data_tools.workbook_download(engine, tournament)
for label, make, what, ext, mime, key in [
        (_("Standings (.csv)"), lambda: exports.standings_csv(engine),
         pgettext("file name", "standings"), "csv", "text/csv", "data_standings_csv"),
        (_("Results (.csv)"), lambda: exports.results_csv(engine),
         pgettext("file name", "results"), "csv", "text/csv", "data_results_csv")]:
    st.download_button(label, data=make, file_name=widgets.file_name(tournament, what, ext),
                       mime=mime, key=key, icon=":material/download:", on_click="ignore")

data_tools.publish_results(tournament, data.now(Role.SPECTATOR))  # the public's view

st.subheader(_("Restore from a workbook"), anchor=False)
st.caption(_("Recreates a tournament from the workbook above, with every id kept, so printed "
             "slips stay valid, as a new tournament of its own: no tournament here is "
             "changed."))
files = st.session_state.get("data_files", 0)
upload = st.file_uploader(_("STSA tournament workbook (.xlsx)"), type=["xlsx"],
                          key=f"data_restore_file_{files}",
                          max_upload_size=data_tools.WORKBOOK_MB)
if upload is not None and st.button(_("Restore this tournament"), key="data_restore_go",
                                    type="primary"):
    with st.status(_("Restoring the workbook…")) as status:
        bar = st.progress(0.0, text=_("Reading the workbook…"))
        restored = widgets.act(lambda: restore.restore_workbook_as_new(
            session.installation(), upload, actor=me,
            progress=lambda f, words: bar.progress(f, text=words)),
            done=lambda r: " ".join(filter(None, (_(
                "{summary} It is a new tournament, “{tournament}”, shown now; the others are "
                "as they were.").format(summary=organizer.restored_summary(r[2]),
                                        tournament=r[1]), restore.key_words(r[2])))))
        status.update(state="complete" if restored is not None else "error")
    if restored is not None:
        session.open_tournament(restored[0])
    if restored is not None:
        st.session_state["data_files"] = files + 1
        st.rerun()

overlays.part(engine, data.now().settings(), me)

st.subheader(_("Backups"), anchor=False)
st.caption(_("Copies of the whole database, made after each publish and each completed sitting "
             "(when automatic backups are on in Settings) and whenever you click below. "
             "Restoring one makes a new tournament from it; this one and every other stay as "
             "they are."))
if st.button(_("Back up now"), key="data_backup_now", icon=":material/backup:"):
    if widgets.act(lambda: admin.backup(engine),
                   done=lambda p: _("Backed up to {file}.").format(file=p.name)):
        st.rerun()
backups = data.now().backups()
if backups.empty:
    st.info(_("No backups yet: click Back up now."))
    st.stop()
st.dataframe(organizer.backups_frame(backups, data.now().settings().zone), hide_index=True,
             key="data_backups")
paths = dict(zip(backups["name"], backups["path"]))
if st.session_state.pop("data_restored", False):  # untick after a restore
    st.session_state["data_backup_sure"] = False
sittings.keep_choice("data_backup_choice", paths)
chosen = st.selectbox(_("Restore from"), list(paths), index=None, key="data_backup_choice",
                      placeholder=_("Choose a backup"))
sure = st.checkbox(_("I understand: this makes a new tournament from the backup"),
                   key="data_backup_sure")
if st.button(_("Restore this backup"), key="data_backup_restore",
             disabled=not (chosen and sure)):
    made = widgets.act(lambda: restore.restore_as_new(
        session.installation(), lambda new: admin.restore_backup(new, paths[chosen], actor=me),
        restore.backup_name(paths[chosen]) or tournament, actor=me),
        done=lambda r: ngettext(
            "Restored {backup} ({count} row) as a new tournament, “{tournament}”, shown now; "
            "the others are as they were.",
            "Restored {backup} ({count} rows) as a new tournament, “{tournament}”, shown now; "
            "the others are as they were.", r[2]["rows"]).format(
            backup=r[2]["restored_from"].name, count=r[2]["rows"], tournament=r[1]))
    if made is not None:
        st.session_state["data_restored"] = True
        session.open_tournament(made[0])
        st.rerun()
