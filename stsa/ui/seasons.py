"""The organizer's seasons on the Tournaments page (R27): create a season (a name and, if
wished, points per final rank), put the tournament shown in a season or in none, and rename a
season or change its points."""

from __future__ import annotations

import streamlit as st

from stsa.domain import Role
from stsa.i18n import N_, _
from stsa.services import season as service
from stsa.services import season_setup
from stsa.ui import season_data, session, widgets

POINTS_HELP = N_("The points of final ranks 1, 2, 3 … in order, as “25, 18, 15, 12”. Leave it "
                 "empty to rank by the best qualifier score, then the better final rank.")


def organizer(frame, me) -> None:
    """The season controls, for the organizer only."""
    if me.role is not Role.ORGANIZER:
        return
    st.subheader(_("Seasons"), anchor=False)
    found = season_data.seasons()
    names = dict(zip(found["season_id"].astype(int), found["name"]))
    this_season(names, me)
    create_form(me)
    change_form(found, me)


def this_season(names: dict, me) -> None:
    """The season of the tournament shown (or none)."""
    here = session.tournament_id()
    if here is None or not names:
        return
    now = season_data.season_of_shown()
    options = [None, *names]
    chosen = st.selectbox(_("Season of this tournament"), options, index=options.index(now),
                          key="season_of_tournament", format_func=lambda s: _("none")
                          if s is None else widgets.plain(names[s]))
    if chosen != now:
        widgets.act(lambda: season_setup.set_season(session.installation(), here, chosen, actor=me),
                    done=_("This tournament's season is changed."))
        st.rerun()


def create_form(me) -> None:
    with st.expander(_("Create a season"), icon=":material/workspace_premium:"):
        with st.form("new_season", border=False):
            name = st.text_input(_("Season name"), max_chars=200)
            points = st.text_input(_("Points per final rank (optional)"), max_chars=2000,
                                   help=_(POINTS_HELP))
            if not st.form_submit_button(_("Create season"), type="primary"):
                return
        made = widgets.act(lambda: season_setup.create_season(
            session.installation(), name, points=service.parse_points(points), actor=me),
            done=_("The season is created."))
        if made is not None:
            st.rerun()


def change_form(found, me) -> None:
    if found.empty:
        return
    names = dict(zip(found["season_id"].astype(int), found["name"]))
    points = dict(zip(found["season_id"].astype(int), found["points"]))
    with st.expander(_("Change a season"), icon=":material/edit:"):
        which = st.selectbox(_("Season"), list(names), key="season_to_change",
                             format_func=lambda s: widgets.plain(names[s]))
        with st.form(f"change_season_{which}", border=False):
            name = st.text_input(_("Name"), value=names[which], max_chars=200)
            typed = st.text_input(_("Points per final rank"), max_chars=2000,
                                  help=_(POINTS_HELP), value=service.points_text(points[which]))
            if not st.form_submit_button(_("Save season")):
                return
        inst = session.installation()

        def save() -> None:
            table = service.parse_points(typed)  # checked before anything is saved
            season_setup.save_season(inst, which, name, table, actor=me)
        widgets.act(save, done=_("The season is saved."))
        st.rerun()
