"""Results: judges and the organizer enter each table's result, see placings and scores before
saving, settle full ties and resolve conflicting saves (R11–R13, R19); everyone sees the results
of published sittings (R20)."""

import streamlit as st

from stsa import i18n
from stsa.domain import Role, SittingStatus, table_label
from stsa.i18n import _, ngettext
from stsa.ui import clock as clock_view
from stsa.ui import (
    data,
    picks,
    result_checks,
    result_form,
    session,
    sittings,
    table_link,
    tournaments,
    widgets,
)

st.title(_("Results"))
widgets.flash()
role, reads = session.role(), data.now()
staff = role in (Role.JUDGE, Role.ORGANIZER)

choices = reads.sitting_choices((SittingStatus.PUBLISHED, SittingStatus.COMPLETE))
table_link.follow_table_link(reads, role, choices)  # a table slip's QR code
if not choices:
    st.info(_("No results yet: once the organizer publishes a sitting on the Draw page, judges "
              "enter its results here."))
    st.stop()
sittings.keep_choice("res_sitting", choices)
sitting_id = st.selectbox(_("Sitting"), list(choices), format_func=lambda s: i18n.cell(choices[s]),
                          key="res_sitting")
result_checks.newer_sitting(choices, sitting_id, reads.sitting_names())
clock_view.judges(sitting_id)  # judges and the organizer: the clock and each table's time
tables = reads.result_tables(sitting_id)


def enter_result() -> None:
    """One table's result form: a block per seat, the live preview, then save."""
    table_key = f"res_table_{sitting_id}"
    sittings.keep_choice(table_key, tables.choices)
    st.session_state.setdefault(table_key, tables.waiting[0] if tables.waiting
                                else next(iter(tables.choices)))
    went_on = result_form.go_on(tables, table_key)  # after a first result: the next table
    table_id = st.selectbox(_("Table"), list(tables.choices),
                            format_func=lambda t: i18n.cell(tables.choices[t]), key=table_key)
    if went_on:
        st.info(widgets.plain(went_on), icon=":material/arrow_forward:")
    seats = tables.seats[table_id]
    where = table_label(seats["kind"].iloc[0], seats["sitting_no"].iloc[0],
                        seats["table_no"].iloc[0])
    engine, settings, me = session.engine(), reads.settings(), session.actor()
    base = settings.base_points
    leaders = picks.table_picks(engine, reads, table_id, seats, actor=me,
                                has_result=bool(seats["version"].iloc[0]))
    form = result_form.ensure_form(engine, table_id, seats, leaders, actor=me)
    if form.get("restored"):
        st.info(_("Your unsaved entry from {time} is back: check it, then save. Nobody else "
                  "sees it.").format(time=result_form.when(form["restored"])),
                icon=":material/restore:")
        st.button(_("Discard my unsaved entry"), key="res_discard_draft",
                  on_click=result_form.discard_draft, args=(engine, table_id, seats),
                  kwargs={"actor": me})
    if form["version"]:
        st.info(_("Version {version} saved by {judge} at {time}. Saving again records a "
                  "correction; the earlier values stay in the log.").format(
                    version=form["version"], judge=widgets.plain(form["saved_by"]),
                    time=result_form.when(form["saved_at"])))
    result_checks.seating_note(result_form.seating_changed(form, seats))
    options = result_form.leader_options(seats, settings.wild_card)
    result_form.form_style()
    sitting = reads.sitting_rows().get(int(sitting_id))
    fields = result_form.number_fields(sitting, table_id, seats)
    rule_change = result_form.rule_change_caption(sitting)
    if rule_change and "variant_points" in fields:  # R24: whose extra points these are
        st.caption(widgets.plain(rule_change))
    for seat in seats.itertuples():
        result_form.seat_block(table_id, seat, options, fields)

    rows, tied = result_form.form_rows(table_id, seats)
    result_form.keep_draft(engine, table_id, rows, actor=me)  # a reload finds it again
    result_form.settled_order(table_id, seats, tied)
    result_form.preview(rows, seats, base, fields)
    clash = result_form.conflict(table_id)  # R19, R20: what a save needs is asked first
    guard = result_checks.save_guard(reads, seats,
                                     clash["version"] if clash else form["version"], rows)
    if clash:
        st.warning(widgets.plain(clash["message"]), icon=":material/warning:")
        st.markdown(_("**Theirs** · version {version} · saved by {judge} at {time}  \n"
                      "**Yours** · not saved").format(
                        version=clash["version"], judge=widgets.plain(clash["saved_by"]),
                        time=result_form.when(clash["saved_at"])))
        found = result_form.differences(clash["rows"], rows, seats)
        if found.empty:
            st.info(_("Both versions hold the same values."))
        else:
            st.dataframe(result_form.differences_table(found), hide_index=True)
        st.markdown(_("Which result stands?"))
        with st.container(horizontal=True):
            st.button(_("Keep theirs"), key="res_keep_theirs", on_click=result_form.keep_theirs,
                      args=(table_id, seats))
            mine = st.button(_("Save mine over theirs"), key="res_save_mine", type="primary",
                             disabled=not guard.allowed)
        if mine and result_form.save(engine, table_id, rows, where, actor=me,
                                  over_version=clash["version"], **guard.confirmed) is not None:
            st.rerun()
    elif st.button(_("Save correction") if form["version"] else _("Save result"), key="res_save",
                   type="primary", width="stretch", disabled=not guard.allowed):
        first = not form["version"]
        saved = result_form.save(engine, table_id, rows, where, actor=me, **guard.confirmed)
        if saved is not None and first:
            st.session_state["res_went_on"] = table_id
        if saved is not None or result_form.conflict(table_id):
            st.rerun()
    if result_form.unsaved(form, rows):
        st.caption(_("Not saved yet. What you typed is kept if the page reloads or the "
                     "connection drops."))

if staff and not tournaments.read_only():  # an archived tournament takes no result
    st.subheader(_("Enter a result"), anchor=False)
    enter_result()
    st.divider()

st.subheader(_("{sitting}: results").format(sitting=i18n.cell(reads.sitting_names()[sitting_id])),
             anchor=False)
frame = reads.sitting_results(sitting_id)
if frame.num_rows == 0:
    st.info(_("No table of this sitting has reported yet."))
else:
    sittings.show_results(frame, sitting_id)
if missing := tables.missing:
    st.caption(ngettext("Waiting for table {tables}.", "Waiting for tables {tables}.",
                        len(missing)).format(tables=", ".join(map(str, missing))))
