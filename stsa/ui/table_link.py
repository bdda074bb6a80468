"""A table slip's QR code opens the Results page at its table: `results?table=<table id>`."""

from __future__ import annotations

import streamlit as st

from stsa.domain import Role, sitting_title
from stsa.i18n import _
from stsa.ui import session, widgets

TABLE_PARAM = "table"


def follow_table_link(reads, role: Role, choices: dict[int, str]) -> None:
    """A slip's QR code opens the Results page with `?table=<table id>`: for judges and the
    organizer, choose that table's sitting and table (once per link, so they can still pick
    another); tell anyone else to sign in. Other query parameters (the sign-in token) are
    left alone. `reads` is this run's `ui.data.Data`."""
    raw = st.query_params.get(TABLE_PARAM)
    if raw is None:
        return
    if not role.is_staff:
        st.info(_("This link opens a table's result entry, for judges: sign in to enter this "
                  "table's result."), icon=":material/qr_code:")
        session.sign_in_link("views/results.py", {TABLE_PARAM: str(raw)[:40]})
        return
    raw = str(raw).strip()
    found = reads.table(int(raw)) if raw.isdigit() and len(raw) <= 12 else None
    if found is None or found.empty:
        st.warning(widgets.plain(_("The link names table {table}, which this tournament does "
                                   "not have: choose the table below.").format(
                                       table=repr(raw[:20]))),
                   icon=":material/warning:")
        return
    row = found.iloc[0]
    sitting_id, table_id = int(row["sitting_id"]), int(row["table_id"])
    if sitting_id not in choices:
        name = sitting_title(row["kind"], row["sitting_no"])
        st.warning(_("Table {table} of {sitting} is not published yet: its result can be "
                     "entered once the organizer publishes the draw.").format(
                         table=row["table_no"], sitting=name), icon=":material/lock:")
        return
    if st.session_state.get("res_link") != raw:  # the first run with this link
        st.session_state["res_link"] = raw
        st.session_state["res_sitting"] = sitting_id
        st.session_state[f"res_table_{sitting_id}"] = table_id
