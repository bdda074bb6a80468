"""The Roster page's check-in for the next sitting (R2, R21): who is checked in and the table
plan, a hint when the check-ins are the last sitting's, a pasted list, a ready-made list (the
last qualifier's players, who has not played yet), everyone, a confirmed clear, and the list
to tick. The rules live in `stsa.services.roster`."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from stsa.domain import PlayerStatus, TournamentError
from stsa.i18n import _, ngettext
from stsa.services import draws
from stsa.services import roster as service
from stsa.ui import bookings, data, organizer, widgets

words = service.check_in_words  # "Checked in 3 players; 12 were already checked in."


def part(reads, engine, me, query: str) -> None:
    """The check-in section, for the organizer; `query` narrows the list to tick."""
    roster, limit = reads.players(), reads.settings()["capacity"]
    active = roster.loc[roster["status"] == PlayerStatus.ACTIVE]
    st.subheader(_("Check-in for the next sitting"), anchor=False)
    stale = service.stale_check_ins(roster, reads.sittings())
    if stale:
        st.warning(widgets.plain(stale), icon=":material/history:")
    count = int(active["checked_in"].sum())
    plan = draws.table_plan(min(count, limit))  # R21: the rest wait
    said = [ngettext("**{count}** of {total} active players checked in.",
                     "**{count}** of {total} active players checked in.", len(active)).format(
        count=count, total=len(active))]
    if plan.ok:
        said.append(_("Table plan: {plan}.").format(plan=plan.tables))
    if count > limit:
        said.append(ngettext("{count} waits for a seat (the {limit}-seat limit; see the Draw "
                             "page).", "{count} wait for a seat (the {limit}-seat limit; see "
                             "the Draw page).", count - limit).format(count=count - limit,
                                                                    limit=limit))
    st.write(" ".join(said))
    if not plan.ok:
        st.warning(plan.text)
    bookings.sitting_check_in(engine, me)  # R25: the next qualifier's bookings
    version = st.session_state.setdefault("checkin_version", 0)
    if "checkin_error" in st.session_state:  # kept across the rerun that resets the list
        st.error(st.session_state.pop("checkin_error"), icon=":material/warning:")

    def saved(result) -> None:  # a fresh list shows what is stored
        if result is not None:
            st.session_state["checkin_version"] = version + 1
            st.rerun()

    pasted_list(engine, roster, me, saved)
    ready_list(engine, reads, roster, me, saved)
    everyone, nobody = st.columns(2)
    if everyone.button(_("Check in all active"), key="checkin_all", width="stretch"):
        saved(widgets.act(lambda: service.check_in(engine, active["player_id"].tolist(),
                                                   actor=me),
                          done=lambda n: ngettext("Checked in {count} more player.",
                                                  "Checked in {count} more players.",
                                                  n.checked_in).format(count=n.checked_in)))
    with nobody.popover(_("Clear check-ins"), width="stretch", disabled=count == 0):
        st.write(ngettext("Check out all {count} player? The list to tick starts empty.",
                          "Check out all {count} players? The list to tick starts empty.",
                          count).format(count=count))
        if st.button(_("Check everyone out"), key="checkin_clear", type="primary"):
            saved(widgets.act(lambda: service.clear_check_ins(engine, actor=me),
                              done=lambda n: ngettext("Checked out {count} player.",
                                                      "Checked out {count} players.",
                                                      n).format(count=n)))
    ticks(engine, roster, me, query, version)


def pasted_list(engine, roster: pd.DataFrame, me, saved) -> None:
    """Names or nicknames pasted one a line (a booking list's column): exactly these checked
    in, or added to who is."""
    used = st.session_state.get("checkin_list_go") or st.session_state.get("checkin_list_open")
    # keyed: it stays open when the lists above it change (a player checking in on My seat)
    with st.expander(_("Check in a list"), icon=":material/playlist_add_check:",
                     expanded=bool(used), key="checkin_list_part"):
        st.caption(_("Paste names or nicknames, one a line (a column copied from the booking "
                     "list works). Nobody is checked in while a line names nobody."))
        text = st.text_area(_("Names or nicknames"), key="checkin_list", max_chars=500_000,
                            height=150)
        only = st.checkbox(_("Check out everyone not on the list"), value=True,
                           key="checkin_list_only")
        if st.button(_("Check in this list"), key="checkin_list_go"):
            st.session_state["checkin_list_open"] = True  # a refusal stays in view to correct
            saved(widgets.act(lambda: service.check_in_list(engine, roster, text, only=only,
                                                            actor=me), done=words))


def ready_list(engine, reads, roster: pd.DataFrame, me, saved) -> None:
    """Start from the last qualifier's players or from who has not played yet: exactly that
    list checked in, to change by hand below."""
    lists = service.ready_lists(roster, reads.sittings(), reads.played_seats())
    if not lists:
        return
    choice, go = st.columns([3, 1], vertical_alignment="bottom")
    labels = [ngettext("{list} ({count} player)", "{list} ({count} players)",
                       len(c.player_ids)).format(list=c.label, count=len(c.player_ids))
              for c in lists]
    chosen = choice.selectbox(_("Start from"), range(len(lists)), key="checkin_ready",
                              format_func=labels.__getitem__)
    if go.button(_("Check in exactly these"), key="checkin_ready_go", width="stretch"):
        saved(widgets.act(lambda: service.set_check_ins(
            engine, list(lists[chosen].player_ids), actor=me), done=words))


def ticks(engine, roster: pd.DataFrame, me, query: str, version: int) -> None:
    """The list to tick, narrowed by `query`; a tick is saved at once."""
    shown, total = service.find_players(roster, query, active_only=True)
    if total == 0:
        st.info(_("No active player matches the search."))
        return
    if total > len(shown):
        st.caption(_("Showing the first {count} of {total} matches: search to narrow.").format(
            count=len(shown), total=total))
    before = organizer.check_in_frame(shown, data.now().settings().zone)
    edited = st.data_editor(
        before, key=f"checkin_editor_{version}", hide_index=True, num_rows="fixed",
        disabled=organizer.CHECK_IN_LOCKED,
        column_config={"name": _("Name"), "nickname": _("Nickname"), "club": _("Club"),
                       "registration": _("Registration"),
                       "checked_in": st.column_config.CheckboxColumn(_("Checked in")),
                       "checked_in_at": _("Checked in at")})
    ins, outs = organizer.check_in_changes(before, edited)
    if ins or outs:  # then the list shows what is stored
        def save_check_ins():
            try:
                return service.change_check_ins(engine, ins, outs, actor=me)
            except TournamentError as exc:  # shown again after the rerun below
                st.session_state["checkin_error"] = str(exc)
                raise
        widgets.act(save_check_ins, done=_("Checked in {count_in}, checked out {count_out}.")
                    .format(count_in=len(ins), count_out=len(outs)))
        st.session_state["checkin_version"] = version + 1
        st.rerun()
