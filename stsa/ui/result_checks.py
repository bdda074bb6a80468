"""Saves land where the judge meant (R19, R20): what the Results page says and asks around a
save, and the flags Home and the Log page show.

- a Results page left on an older sitting says that a newer one is published, with a way
  there (`newer_sitting`);
- a form whose table changed since it was opened says how (`seating_note`);
- numbers far above a usual game's ask for a tick (`services.results.USUAL_MAX`; in the
  entry itself, `ui.result_entry`);
- a correction of a complete sitting asks for a tick; once the finals are drawn a judge is
  told that only the organizer corrects a qualifier result (`locked_note`), and the organizer
  first sees what the correction would change and confirms it (`answered`, and `save_guard`
  when saving over another judge's result);
- what a save answered: its error, or the other judge's version that came first, with the
  differences and the choice of which stands (`answered`, `conflict`);
- every qualifier result corrected after the finals were drawn, for the organizer and the
  judges (`late_corrections`).

The store and the services check each of these again when the save is made; these only ask
and show. The rules behind them live in `stsa.services.results` and `stsa.services.log`.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass, field

import pandas as pd
import streamlit as st

from stsa import i18n
from stsa.domain import Kind, Role, SittingStatus
from stsa.i18n import _
from stsa.services import log as log_service
from stsa.services import results
from stsa.ui import data, result_form, session, widgets


def newer_sitting(choices: dict[int, str], sitting_id: int, names: dict[int, str],
                  key: str = "res_sitting") -> None:
    """R19, R20: when `sitting_id` is not the newest of `choices` (latest first), say that a
    newer sitting is published and offer to go there (the selectbox `key` is set to it), so a
    page left open does not save a correction where a new result was meant."""
    newest = next(iter(choices), None)
    if newest is None or newest == sitting_id:
        return
    newer, shown = i18n.cell(names[newest]), i18n.cell(names[sitting_id])
    st.warning(_("{newer} is published now; this page shows {shown}. Results of {newer} are "
                 "entered there.").format(newer=newer, shown=shown), icon=":material/update:")
    st.button(_("Go to {sitting}").format(sitting=newer), key="res_go_newest",
              icon=":material/arrow_forward:",
              on_click=lambda: st.session_state.update({key: newest}))


def seating_note(changes: list[str]) -> None:
    """The table changed since the form was opened (R3, R19): how, and what to do."""
    if changes:
        st.warning(widgets.plain(
            _("The table changed since you opened this form: {changes}. Each player's numbers "
              "stay with that player: check them before you save; the first save after the "
              "change is refused so that you can.").format(changes=", ".join(changes))),
            icon=":material/group:")


@dataclass(frozen=True)
class Guard:
    """Whether the form may be saved now, and the confirmations the save passes on
    (`confirm_unusual`, `confirm_complete`, `confirm_after_finals`: the services ask for them
    too)."""

    allowed: bool = True
    confirmed: dict = field(default_factory=dict)


def save_guard(reads, seats: pd.DataFrame, version: int, rows: pd.DataFrame,
               already: dict | None = None) -> Guard:
    """What saving `rows` over the table's `version` (0: a first result) needs first (R19,
    R20), asked on the page: a tick for unusually high numbers (unless `already` confirmed
    them); a tick for a correction of a complete sitting; for a qualifier correction once the
    finals are drawn, the organizer's look at what it changes and a tick, or for a judge the
    word that only the organizer corrects it. `reads`: this run's `stsa.ui.data` values."""
    first = seats.iloc[0]
    table_id, version = int(first["table_id"]), int(version)
    confirmed, allowed = {}, True
    unusual = results.unusual_numbers(rows, dict(zip(seats["player_id"], seats["name"])))
    if unusual and (already or {}).get("confirm_unusual"):
        confirmed["confirm_unusual"] = True
    elif unusual:  # a tick for these numbers: other numbers ask again
        st.warning(widgets.plain(_("Unusually high for one game: {numbers}. Check them before "
                                   "saving.").format(numbers="; ".join(unusual))),
                   icon=":material/warning:")
        these = zlib.crc32(str(unusual).encode())
        confirmed["confirm_unusual"] = allowed = st.checkbox(
            _("These numbers are right"), key=f"res_unusual_{table_id}_{these}")
    if not version:
        return Guard(allowed=allowed, confirmed=confirmed)
    sitting = reads.sitting_rows()[int(first["sitting_id"])]
    finals = reads.finals_drawn() if first["kind"] == Kind.QUALIFIER else []
    if finals:
        if session.role() is not Role.ORGANIZER:
            locked_note()
            return Guard(allowed=False)
        impact = results.correction_impact(session.engine(), table_id, rows)
        if impact is not None:
            st.warning(_("The finals are drawn: {finals}. This correction may move the "
                         "standings and the cut under them. {changes}").format(
                           finals="; ".join(impact.finals), changes=impact.words),
                       icon=":material/warning:")
            if not impact.changes.empty:
                st.dataframe(i18n.headings(impact.changes), hide_index=True)
        confirmed["confirm_after_finals"] = st.checkbox(
            _("I have checked what this changes: save the correction anyway"),
            key=f"res_late_{table_id}_{version}")
        allowed = allowed and confirmed["confirm_after_finals"]
    if sitting["status"] == SittingStatus.COMPLETE:
        name = i18n.cell(reads.sitting_names()[int(sitting["sitting_id"])])
        confirmed["confirm_complete"] = st.checkbox(
            _("{sitting} is complete: yes, correct this result").format(sitting=name),
            key=f"res_sure_{table_id}_{version}")
        allowed = allowed and confirmed["confirm_complete"]
    return Guard(allowed=allowed, confirmed=confirmed)


def locked_note() -> None:
    """R20: a judge's word that a qualifier result is the organizer's to correct now."""
    st.info(_("Only the organizer can correct a qualifier result once the finals are drawn: "
              "ask the organizer if this result is wrong."), icon=":material/lock:")


def answered(form: dict) -> None:
    """What the entry's last save answered (R11–R13, R19, R20), after the entry: its error or
    note, in words (plain text: it may name people); for the organizer's correction once the
    finals are drawn, what it would change, to confirm with the tick in the entry."""
    found = result_form.said(form)
    if found and found[0] == "error":
        st.error(widgets.plain(found[1]), icon=":material/error:")
    elif found:
        st.info(widgets.plain(found[1]))
    impact = form.get("impact")
    if impact:
        st.warning(widgets.plain(_("The finals are drawn: {finals}. This correction may move "
                                   "the standings and the cut under them. {changes}").format(
                                       finals="; ".join(impact["finals"]),
                                       changes=impact["words"])),
                   icon=":material/warning:")
        if not impact["changes"].empty:
            st.dataframe(i18n.headings(impact["changes"]), hide_index=True)


def conflict(reads, form: dict, seats: pd.DataFrame, clash: dict) -> None:
    """R19: another judge saved this table first: both versions, what differs, and which
    stands: "Keep theirs" (their values into the entry) or "Save mine over theirs" (with the
    ticks that save still needs)."""
    table_id, me = int(form["table_id"]), session.actor()
    st.warning(widgets.plain(clash["message"]), icon=":material/warning:")
    st.markdown(_("**Theirs** · version {version} · saved by {judge} at {time}  \n"
                  "**Yours** · not saved").format(
                    version=clash["version"], judge=widgets.plain(clash["saved_by"]),
                    time=result_form.when(clash["saved_at"])))
    found = result_form.differences(clash["rows"], clash["mine"], seats)
    if found.empty:
        st.info(_("Both versions hold the same values."))
    else:
        st.dataframe(result_form.differences_table(found), hide_index=True)
    guard = save_guard(reads, seats, clash["version"], clash["mine"], clash["confirmed"])
    st.markdown(_("Which result stands?"))
    with st.container(horizontal=True):
        st.button(_("Keep theirs"), key="res_keep_theirs", on_click=result_form.keep_theirs,
                  args=(table_id,))
        mine = st.button(_("Save mine over theirs"), key="res_save_mine", type="primary",
                         disabled=not guard.allowed)
    if mine:  # saved, refused (said in the next run) or met yet another save: shown again
        result_form.save_mine(session.engine(), table_id, result_form.where(seats), actor=me,
                              confirmed=guard.confirmed)
        st.rerun()


def late_corrections(reads) -> list[str]:
    """R19, R20: every qualifier result corrected after the finals were drawn, in words, for
    the organizer and the judges (none for anyone else); read once per data version."""
    if not reads.staff:
        return []
    me = session.actor()
    return data.shelf(reads.url).get("late_corrections", reads.version,
                                     lambda: log_service.late_corrections(session.engine(),
                                                                          actor=me))


def show_late_corrections(reads) -> None:
    """R19, R20: `late_corrections` as warnings, each as plain text (it names people)."""
    for line in late_corrections(reads):
        st.warning(widgets.plain(line), icon=":material/history:")
