"""A sitting's rule change (R24) on the Draw page and on TV: everyone who sees the sitting reads
it with the draw; the organizer names it, and says how its extra points are earned, while the
sitting is drawn and not yet published; TV shows the current sitting's once it is published
(`tv_line`, in the TV's answer).
The rules live in `stsa.services.draws`."""

from __future__ import annotations

import streamlit as st

from stsa.domain import Role, SittingStatus, rule_change_line
from stsa.i18n import _
from stsa.services import draws
from stsa.services.forms import RULE_CHANGE_LIMITS
from stsa.ui import session, widgets


def part(sitting, viewer: Role) -> None:
    """The sitting's rule change as plain text (if any), and the organizer's form to set it
    before publishing."""
    line = rule_change_line(sitting)
    if line:
        st.info(widgets.plain(_("Rule change for this sitting: {rule_change}").format(
            rule_change=line)), icon=":material/rule:")
    if viewer is Role.ORGANIZER and sitting["status"] == SittingStatus.DRAWN:
        _form(sitting)


def tv_line(status) -> str:
    """The current sitting's rule change in a line (`services.home.home_status`), once
    published: TV is for the room, so never a draft's (R20); "" when there is none."""
    sitting = status.get("sitting")
    if sitting is None or sitting["status"] == SittingStatus.DRAWN:
        return ""
    line = rule_change_line(sitting)
    return _("Rule change this sitting: {rule_change}").format(rule_change=line) if line else ""


def _form(sitting) -> None:
    sitting_id = int(sitting["sitting_id"])
    with st.expander(_("Rule change for this sitting"), expanded=False):
        with st.form(f"rule_change_{sitting_id}"):
            name = st.text_input(
                _("Name of the rule change"), value=sitting["rule_change"] or "",
                max_chars=RULE_CHANGE_LIMITS["rule_change"],
                key=f"draw_rule_change_{sitting_id}",
                placeholder=_("e.g. Spice must flow"),
                help=_("Leave both fields empty for none."))
            points = st.text_area(
                _("How its extra points are earned"), value=sitting["rule_change_points"] or "",
                max_chars=RULE_CHANGE_LIMITS["rule_change_points"], height=80,
                key=f"draw_rule_change_points_{sitting_id}",
                placeholder=_("e.g. 1 point for each spice left at the end of the game"),
                help=_("Judges enter each player's extra points as variant points."))
            save = st.form_submit_button(_("Save the rule change"),
                                         key=f"draw_rule_change_save_{sitting_id}")
        st.caption(_("Players see it with the draw, on the table slips and on TV once you "
                     "publish; it cannot be changed after publishing."))
    if save and widgets.act(
            lambda: draws.set_rule_change(session.engine(), sitting_id, name, points,
                                            actor=session.actor()),
            done=lambda s: (_("Rule change saved: {rule_change}.").format(
                rule_change=rule_change_line(s)) if s["rule_change"]
                else _("This sitting has no rule change."))):
        st.rerun()
