"""The Draw page's corrections, for the organizer only (R20): a confirmation before drawing
while a sitting is still being played, a player who did not come (someone takes the seat, or a
table of four plays with three), voiding a sitting published by mistake, and a table's setup
changed by hand; and the Finals page's absences (R17). The rules live in
`stsa.services.corrections`, `stsa.services.finals` and the store; these only ask and show."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from stsa.domain import Kind, SittingStatus, sitting_label
from stsa.i18n import _, ngettext
from stsa.services import corrections
from stsa.services import finals as finals_service
from stsa.services import sittings as service
from stsa.services.forms import MAX_REASON  # what the log keeps of a reason
from stsa.ui import session, widgets
from stsa.ui.sittings import keep_choice

EMPTY = 0  # "leave the seat empty" among the players who may take a seat (ids start at 1)


def setup_change(reads, sitting, overview: pd.DataFrame) -> None:
    """R6, R23: hand-set a table's setup from its stage's setups (`reads`: the page's
    `stsa.ui.data` values), with the rule it breaks shown before confirming."""
    open_tables = overview.loc[overview["version"] == 0].drop_duplicates("table_id")
    if open_tables.empty:
        return
    with st.expander(_("Change a table's setup")):
        numbers = dict(zip(open_tables["table_id"].astype(int), open_tables["table_no"]))
        labels = {int(t): _("Table {table} · {setup}").format(table=n, setup=s) for t, n, s in
                  zip(open_tables["table_id"], open_tables["table_no"], open_tables["setup"])}
        keep_choice("draw_ovr_table", labels)
        table_id = st.selectbox(_("Table"), list(labels), format_func=widgets.labels_of(labels),
                                key="draw_ovr_table")
        setups = reads.enabled_setups(sitting["kind"])
        setup_names = dict(zip(setups["setup_id"], setups["name"]))
        setup_id = st.selectbox(_("New setup"), list(setup_names),
                                format_func=widgets.labels_of(setup_names),
                                index=None, placeholder=_("Choose the new setup"),
                                key="draw_ovr_setup")
        if setup_id:
            warnings = corrections.override_warnings(session.engine(), table_id, setup_id)
            for warning in warnings:
                st.warning(widgets.plain(warning), icon=":material/warning:")
            if not warnings:
                st.caption(_("This setup breaks no setup rule."))
        reason = st.text_input(_("Reason (goes into the log)"), key="draw_ovr_reason",
                               max_chars=MAX_REASON)
        if st.button(_("Change the setup"), key="draw_ovr_go",
                     disabled=not setup_id) and setup_id:
            if widgets.act(lambda: corrections.override_setup(
                    session.engine(), table_id, setup_id, reason=reason, actor=session.actor()),
                    done=_("Table {table} now plays {setup}.").format(
                        table=numbers[table_id], setup=setup_names.get(setup_id))):
                st.rerun()




def _keys(form: str, *names: str) -> dict[str, str]:
    """The widget keys of one filling-in of `form`: the names themselves the first time, new
    ones after each change that went through (`_done`), so the form starts empty again in the
    browser too (a value reset on the server alone stays on screen there, and the browser
    sends the old choice back with the next click)."""
    n = st.session_state.get(f"{form}_round", 0)
    return {name: name if not n else f"{name}_{n}" for name in names}


def _done(form: str) -> None:
    st.session_state[f"{form}_round"] = st.session_state.get(f"{form}_round", 0) + 1


def _started(keys: dict[str, str]) -> bool:
    """Whether the organizer has begun filling in a form: it then stays open when the page
    above it changes (a message gone re-creates the expanders)."""
    return any(st.session_state.get(key) not in (None, "", False) for key in keys.values())


def confirm_draw(sittings: pd.DataFrame) -> bool:
    """Before a new draw: while a published sitting still waits for results, say so and ask
    for a tick (the service refuses without it). True when the draw may go ahead."""
    warning = service.unfinished_warning(sittings)
    if not warning:
        return True
    st.warning(widgets.plain(warning), icon=":material/hourglass_top:")
    return st.checkbox(_("Draw the next qualifier anyway"), key="draw_confirm")


def sitting_fixes(sittings: pd.DataFrame, sitting, overview: pd.DataFrame,
                  players: pd.DataFrame) -> None:
    """The corrections offered for the chosen sitting: a no-show at a qualifier table without
    a result, and voiding a published sitting."""
    if sitting["kind"] == Kind.QUALIFIER:
        no_show_form(overview, players)
    if sitting["status"] == SittingStatus.PUBLISHED:
        void_form(sittings, sitting)


def no_show_form(overview: pd.DataFrame, players: pd.DataFrame) -> None:
    """R1, R3, R9: who did not come, and who takes their seat (or leave it empty at a table of
    four); seat, colour and pick order stay the seat's."""
    open_ = overview.loc[overview["version"] == 0]
    if open_.empty:
        return
    keys = _keys("draw_noshow", "draw_noshow", "draw_taker", "draw_noshow_reason")
    with st.expander(_("A player did not come"), expanded=_started(keys)):
        seats = open_.set_index("player_id", drop=False)
        labels = {int(p): _("{player} · table {table}, seat {seat}").format(
                      player=name, table=table, seat=seat) for p, name, table, seat
                  in zip(seats["player_id"], widgets.known_as(seats), seats["table_no"],
                         seats["seat"])}
        keep_choice(keys["draw_noshow"], labels)
        gone = st.selectbox(_("Who did not come"), list(labels),
                            format_func=widgets.labels_of(labels), index=None,
                            placeholder=_("Choose the player"),
                            key=keys["draw_noshow"])
        if gone is None:
            return
        row = seats.loc[gone]
        at_table = int((overview["table_id"] == row["table_id"]).sum())
        candidates = corrections.replacement_candidates(players, overview)
        takers = dict(zip(candidates["player_id"].astype(int), widgets.known_as(candidates)))
        if at_table > 3:
            takers = {EMPTY: _("Nobody: table {table} plays with 3").format(
                table=row["table_no"]), **takers}
        else:
            st.caption(_("Table {table} has 3 players, the fewest a table can play with: "
                         "someone has to take the seat.").format(table=row["table_no"]))
        if not takers:
            st.info(_("No checked-in player is free to take the seat: check a player in on the "
                      "Roster page first."))
            return
        keep_choice(keys["draw_taker"], takers)
        taker = st.selectbox(_("Who takes the seat"), list(takers),
                             format_func=widgets.labels_of(takers), index=None,
                             placeholder=_("Choose a checked-in player"),
                             key=keys["draw_taker"])
        reason = st.text_input(_("Reason for the change (goes into the log)"),
                               key=keys["draw_noshow_reason"], max_chars=MAX_REASON)
        if st.button(_("Change the table"), key="draw_noshow_go", disabled=taker is None):
            done = widgets.act(lambda: corrections.replace_no_show(
                session.engine(), int(row["table_id"]), int(row["seat"]),
                None if taker == EMPTY else taker, reason=reason, actor=session.actor()),
                done=_replaced)
            if done:
                _done("draw_noshow")
                st.rerun()


def _replaced(done: dict) -> str:
    if "came" in done:
        return _("{player} takes seat {seat} at {table} in place of {absent}.").format(
            player=done["came"], seat=done["seat"], table=done["where"], absent=done["left"])
    return ngettext("{absent} left {table}: the table now plays with {count}.",
                    "{absent} left {table}: the table now plays with {count}.",
                    done["players"]).format(absent=done["left"], table=done["where"],
                                            count=done["players"])


def void_form(sittings: pd.DataFrame, sitting) -> None:
    """Void a published sitting without results: players no longer see it, and the next draw
    takes its number; its seed and seating stay in the log (R3, R19)."""
    label = sitting_label(sitting["kind"], sitting["number"])
    keys = _keys("draw_void", "draw_void_reason", "draw_void_sure")
    with st.expander(_("Void {sitting}").format(sitting=label), expanded=_started(keys)):
        problem = corrections.void_problem(sittings, int(sitting["sitting_id"]))
        if problem:
            st.info(widgets.plain(problem))
            return
        st.caption(_("For a sitting published by mistake: {sitting} disappears for everyone, "
                     "its setups no longer count, and the next draw takes its number again. "
                     "Its seed and seating stay in the log.").format(sitting=label))
        reason = st.text_input(_("Reason for voiding (goes into the log)"),
                               key=keys["draw_void_reason"], max_chars=MAX_REASON)
        sure = st.checkbox(_("Yes, void {sitting}").format(sitting=label),
                           key=keys["draw_void_sure"])
        if st.button(_("Void {sitting}").format(sitting=label), key="draw_void_go",
                     disabled=not sure):
            if widgets.act(lambda: corrections.void(session.engine(), int(sitting["sitting_id"]),
                                                reason=reason, actor=session.actor()),
                           done=_("{sitting} was voided; its seed and seating stay in the "
                                  "log.").format(sitting=label)):
                _done("draw_void")
                st.rerun()


def absences_form(finals, names: dict) -> None:
    """R17: the players absent for the finals (wildcards take their seats), chosen one by one
    and saved together; fixed once a finals sitting is published (the service says so too)."""
    with st.expander(_("Absences"), expanded=bool(finals.absent)):
        if finals.absences_locked:
            st.caption(_("Absences are fixed once a finals sitting is published."))
            return
        options = finals.standings["player_id"].tolist()
        chosen = st.multiselect(
            _("Players absent for the finals"), options, key="finals_absent",
            select_all=False,  # one by one: never everyone absent in one tap
            default=[p for p in finals.absent if p in set(options)],
            format_func=lambda p: names.get(p, str(p)))
        if st.button(_("Save absences"), key="finals_save_absences"):
            saved = widgets.act(lambda: finals_service.save_absences(
                session.engine(), chosen, actor=session.actor()),
                done=lambda changes: ngettext("Absences saved ({count} changed).",
                                              "Absences saved ({count} changed).",
                                              len(changes)).format(count=len(changes)))
            if saved is not None:
                st.rerun()
