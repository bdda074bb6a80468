"""The Data page's stream overlays (README, "Overlays"): make one (a filmed table, the
standings or what comes next), see its address once, list them, withdraw one. The store checks
that only the organizer does any of it."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from stsa.i18n import N_, _
from stsa.services import overlays as service
from stsa.ui import data, data_tools, widgets

KINDS = {"table": N_("A filmed table"), "standings": N_("The standings"),
         "next": N_("What comes next")}
_NEW = "_overlay_new"  # the address of the overlay just made: shown once


def address(base: str, token: str) -> str:
    """The overlay's page: what a stream's browser source loads."""
    return f"{base.rstrip('/')}/overlay/{token}"


def _listed(found: pd.DataFrame) -> pd.DataFrame:
    return pd.DataFrame({
        _("Shows"): found["kind"].map(lambda k: _(KINDS[k]) if k in KINDS else k),
        _("Table"): found["table_no"],
        _("Label"): found["label"],
        _("Made"): found["created_at"].dt.strftime("%Y-%m-%d %H:%M"),
        _("Withdrawn"): found["revoked"].map({True: _("Yes"), False: _("No")})})


def part(engine, settings, me) -> None:
    """Make, list and withdraw this tournament's overlays."""
    st.subheader(_("Stream overlays"), anchor=False)
    st.caption(_("A transparent page for a stream (in OBS: a Browser source) that follows a "
                 "filmed table of the sitting being played (nicknames, colours, first player, "
                 "setup, its clock, the result once saved), the standings with the cut, or "
                 "what comes next. It shows only what everyone may see, and updates by itself. "
                 "Its address is shown once, when you make it; withdraw it to end it."))
    if data.now().archived():  # R27: the store refuses a new one too
        st.info(_("This tournament is archived, so it takes no new stream overlays. Reopen "
                  "it on the Tournaments page to make one."), icon=":material/inventory_2:")
        _listing(engine, me)
        return
    with st.form("overlay_new", border=False):
        kind: str = st.selectbox(_("Shows"), list(KINDS), format_func=lambda k: _(KINDS[k]),
                                 key="overlay_kind")
        table_no = st.number_input(_("Table (for a filmed table)"), min_value=1,
                                   max_value=999, value=1, step=1, key="overlay_table")
        label = st.text_input(_("Label (optional: which camera or scene)"), max_chars=100,
                              key="overlay_label")
        make = st.form_submit_button(_("Make an overlay"), icon=":material/videocam:")
    if make:
        made = widgets.act(lambda: service.create_overlay(
            engine, kind, table_no=int(table_no) if kind == "table" else None, label=label,
            actor=me), done=_("The overlay is made: copy its address now, it is shown once."))
        if made is not None:
            st.session_state[_NEW] = address(data_tools.slip_base(settings, "data"), made[1])
            st.rerun()
    new = st.session_state.pop(_NEW, None)
    if new:
        st.code(new, language=None)  # the address to paste into the stream's browser source
    _listing(engine, me)


def _listing(engine, me) -> None:
    """This tournament's overlays, and withdrawing one."""
    found = service.overlays(engine, actor=me)
    if found.empty:
        return
    st.dataframe(_listed(found), hide_index=True, key="overlay_list")
    live = found.loc[~found["revoked"]]
    if live.empty:
        return
    names = {int(i): widgets.plain(" · ".join(str(p) for p in (
                 _(KINDS[k]), t if pd.notna(t) else "", lab) if p))
             for i, k, t, lab in zip(live["id"], live["kind"], live["table_no"], live["label"])}
    chosen = st.selectbox(_("Withdraw"), list(names), index=None,
                          format_func=lambda i: names[i],
                          placeholder=_("Choose an overlay"), key="overlay_withdraw_choice")
    if st.button(_("Withdraw this overlay"), key="overlay_withdraw", disabled=chosen is None) \
            and chosen is not None:
        if widgets.act(lambda: service.revoke_overlay(engine, int(chosen), actor=me),
                       done=_("Withdrawn: its address shows nothing any more.")) is not None:
            st.rerun()
