"""Results: judges and the organizer enter each table's result, see placings and scores before
saving, settle full ties and resolve conflicting saves (R11–R13, R19); everyone sees the results
of published sittings (R20). The entry is typed in the browser (`ui.result_entry`) and lives in
a fragment with the table box: choosing a table is one short run of that part, a save another;
the sitting's results below are drawn again at the page's next run."""

import functools

import streamlit as st

from stsa import i18n
from stsa.domain import Role, SittingStatus
from stsa.i18n import _
from stsa.ui import clock as clock_view
from stsa.ui import (
    data,
    picks,
    result_checks,
    result_entry,
    result_form,
    session,
    sittings,
    table_link,
    widgets,
)

st.title(_("Results"))
role, reads = session.role(), data.now()
staff = role.is_staff
entering = staff and not reads.archived()  # an archived tournament takes no result
widgets.flash()

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
clock_view.judges(sitting_id, reads)  # judges and the organizer: the clock, each table's time


@st.fragment
def enter_result(sitting_id: int) -> None:
    """One table's entry, typed in the browser, then what its save answered, and the tables
    still waiting."""
    reads = data.now()
    if result_form.take_save(reads):  # what the entry's Save sent, checked and saved
        reads = data.now()
    widgets.flash()
    tables = reads.result_tables(sitting_id)
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
    engine, settings = session.engine(), reads.settings()
    leaders = picks.table_picks(engine, reads, table_id, seats, actor=session.actor(),
                                has_result=bool(seats["version"].iloc[0]))
    form = result_form.ensure_form(engine, table_id, seats, leaders)
    if form["version"]:
        st.info(_("Version {version} saved by {judge} at {time}. Saving again records a "
                  "correction; the earlier values stay in the log.").format(
                    version=form["version"], judge=widgets.plain(form["saved_by"]),
                    time=result_form.when(form["saved_at"])))
    result_checks.seating_note(result_form.seating_changed(form, seats))
    sitting = reads.sitting_rows().get(int(sitting_id))
    fields = result_form.number_fields(sitting, form)
    rule_change = result_form.rule_change_caption(sitting)
    if rule_change and "variant_points" in fields:  # R24: whose extra points these are
        st.caption(widgets.plain(rule_change))
    locked = result_form.late_correction(reads, seats, form["version"]) \
        and session.role() is not Role.ORGANIZER
    if locked:  # R20: once the finals are drawn, the organizer's to correct
        result_checks.locked_note()
    clash = result_form.conflict(table_id)  # R19: another judge saved first
    result_entry.show(
        form, seats, tournament=settings.tournament_name,
        leaders=result_form.leader_options(seats, settings.wild_card),
        fields=fields, base_points=settings.base_points, zone=getattr(settings.zone, "key", ""),
        ticks=result_form.ticks_before(reads, seats, form["version"]), locked=locked,
        frozen=clash is not None, impact=(form.get("impact") or {}).get("token"),
        forget=result_form.forget(), waiting=tables.missing,
        on_save=functools.partial(result_form.stash, table_id))
    result_checks.answered(form)
    if clash:
        result_checks.conflict(reads, form, seats, clash)
    sittings.waiting_for(tables)


if entering:
    st.subheader(_("Enter a result"), anchor=False)
    enter_result(sitting_id)
    st.divider()
else:
    result_form.take_save(reads)  # a Save sent from an entry shown before: nothing is taken

st.subheader(_("{sitting}: results").format(sitting=i18n.cell(reads.sitting_names()[sitting_id])),
             anchor=False)
frame = reads.sitting_results(sitting_id)
if frame.num_rows == 0:
    st.info(_("No table of this sitting has reported yet."))
else:
    sittings.show_results(frame, sitting_id)
if not entering:
    sittings.waiting_for(reads.result_tables(sitting_id))
