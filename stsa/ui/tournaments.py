"""The Tournaments page's parts (R27): the list for everyone, with a button to open each one;
the organizer's new tournament, the demo, and archiving or deleting the one shown. The rules
are in `stsa.services.tournaments` and the store."""

from __future__ import annotations

import datetime as dt

import pandas as pd
import streamlit as st

from stsa.domain import Role
from stsa.i18n import N_, _, ngettext
from stsa.services import settings as settings_service
from stsa.services import tournaments as service
from stsa.ui import data, seasons, session, widgets

_PIN = "_new_judge_pin"  # the judges' PIN of a tournament just made: shown once


def listing() -> pd.DataFrame:
    """Every tournament here, the current ones first (`services.tournaments.listing`)."""
    return service.listing(session.installation(), session.engine_of)


def shown_name() -> str:
    """The name of the tournament this run shows (from the shared reads: every page's run
    asks, so it costs no read of its own)."""
    return data.now().settings().tournament_name


def the_list(frame: pd.DataFrame) -> None:
    """The tournaments, current then past, each with a button that opens it here."""
    here = session.tournament_id()
    for title, part in ((_("Current"), frame.loc[frame["current"]]),
                        (_("Past"), frame.loc[~frame["current"]])):
        if part.empty:
            continue
        st.subheader(title, anchor=False)
        for row in part.itertuples():  # one button a tournament: a handful
            with st.container(border=True):
                left, right = st.columns([4, 1], vertical_alignment="center")
                name = f"**{widgets.plain(row.name)}**"
                left.markdown(_("{tournament} (shown now)").format(tournament=name)
                              if row.tournament_id == here else name)
                facts = [widgets.plain(f) for f in (row.venue, row.days) if f]
                facts.append(ngettext("{count} player", "{count} players", row.players)
                             .format(count=row.players))
                if row.archived:
                    facts.append(_("archived"))
                if row.champion:
                    facts.append(_("champion: {player}").format(
                        player=widgets.plain(row.champion)))
                left.caption(" · ".join(facts))
                if row.tournament_id != here and right.button(
                        _("Open"), key=f"open_tournament_{row.tournament_id}"):
                    session.open_tournament(row.tournament_id)
                    st.rerun()


def new_pin_note() -> None:
    """The judges' PIN of the tournament just made, once."""
    made = st.session_state.pop(_PIN, None)
    if made:
        name, pin = made
        st.info(_("The judges' PIN of {tournament} is {pin}. Write it down for the judges: it "
                  "is shown only now (the organizer can set another on the Settings page).")
                .format(tournament=widgets.plain(name), pin=pin), icon=":material/key:")


def create_form(frame: pd.DataFrame, me) -> None:
    """The organizer's new tournament: name, venue, days, time zone, settings from."""
    with st.expander(_("Create a tournament"), icon=":material/add_circle:"):
        with st.form("new_tournament", border=False):
            name = st.text_input(_("Name"), max_chars=200,
                                 placeholder="GothCon 2026")  # i18n: as is (an example name)
            venue = st.text_input(_("Venue"), max_chars=200)
            first, last = st.columns(2)
            starts = first.date_input(_("First day"), value=None, format="YYYY-MM-DD")
            ends = last.date_input(_("Last day"), value=None, format="YYYY-MM-DD")
            zone = st.text_input(
                _("Time zone"), value=settings_service.settings(session.engine()).time_zone or "",
                max_chars=64, help=_("As Europe/Stockholm; empty: this laptop's."))
            names = dict(zip(frame["tournament_id"], frame["name"]))
            copy = st.selectbox(_("Settings"), [None, *names], format_func=lambda t: (
                _("the defaults") if t is None else _("as in {tournament}").format(
                    tournament=names[t])))
            if not st.form_submit_button(_("Create tournament"), type="primary"):
                return
        made = widgets.act(lambda: service.create(
            session.installation(), name, venue=venue, starts_on=_day(starts),
            ends_on=_day(ends), time_zone=zone.strip() or None,
            copy_from=None if copy is None else session.engine_of(int(copy)), actor=me),
            done=lambda m: _("{tournament} is created and shown now.").format(tournament=m.name))
        if made is not None:
            st.session_state[_PIN] = (made.name, made.judge_pin)
            session.open_tournament(made.tournament_id)
            st.rerun()


def _day(value) -> str | None:
    return value.isoformat() if isinstance(value, dt.date) else None


def demo_button(frame: pd.DataFrame, me) -> None:
    """Try the demo: a tournament of its own, deleted in one click."""
    if frame["demo"].any():
        return
    st.caption(_("The demo is a tournament of its own, with 24 players and three qualifier "
                 "sittings played; delete it in one click when you are done."))
    if st.button(_("Try the demo"), key="try_demo", icon=":material/science:"):
        made = widgets.act(lambda: service.try_demo(session.installation(), actor=me),
                           done=_("The demo tournament is loaded and shown now."))
        if made is not None:
            session.open_tournament(made.tournament_id)
            st.rerun()


def this_one(frame: pd.DataFrame, me) -> None:
    """The organizer's archive, reopen and delete of the tournament shown now."""
    here = frame.loc[frame["tournament_id"] == session.tournament_id()]
    if here.empty:
        return
    row = here.iloc[0]
    st.subheader(_("This tournament: {tournament}").format(tournament=widgets.plain(row["name"])),
                 anchor=False)
    engine = session.engine()
    if row["archived"]:
        st.caption(_("Archived: every page shows it, and nothing in it can change."))
        if st.button(_("Reopen"), key="reopen_tournament"):
            widgets.act(lambda: service.reopen(engine, actor=me),
                        done=_("Reopened: it takes changes again."))
            st.rerun()
    elif not row["demo"] and st.button(
            _("Archive"), key="archive_tournament",
            help=_("Keep it as it is: nothing in it changes any more.")):
        widgets.act(lambda: service.archive(engine, actor=me), done=_("Archived."))
        st.rerun()
    if len(frame) < 2:
        return
    if row["demo"]:
        if st.button(_("Delete the demo"), key="delete_demo", icon=":material/delete:"):
            _delete(engine, me, row, None)
        return
    with st.popover(_("Delete…"), icon=":material/delete:"):
        st.write(_("Only an archived or empty tournament can be deleted. A backup is written "
                   "first and kept."))
        typed = st.text_input(_("Type its name to delete it"), key="delete_confirm",
                              max_chars=200)
        if st.button(_("Delete tournament"), key="delete_tournament", type="primary"):
            _delete(engine, me, row, typed)


def _delete(engine, me, row, typed: str | None) -> None:
    done = widgets.act(lambda: service.delete(engine, actor=me, confirm=typed),
                       done=lambda words: words)
    if done is not None:
        session.forget_tournament(int(row["tournament_id"]))
        st.session_state.pop("delete_confirm", None)
        session.open_default()
        st.rerun()


def organizer(frame: pd.DataFrame) -> None:
    me = session.actor()
    if me.role is not Role.ORGANIZER:
        return
    this_one(frame, me)
    create_form(frame, me)
    demo_button(frame, me)
    seasons.organizer(frame, me)


def shown_on_every_page(note: str | None) -> None:
    """R27: every page says which tournament it shows, in one line above its title (the
    sidebar stays the menu alone: anything else in it folds the menu away on a phone); `note`
    when the address named no tournament here."""
    if note:
        st.warning(_(note), icon=":material/info:")
    line = (_("Tournament: {tournament}") if session.judge_elsewhere() is None
            else _("Tournament: {tournament} · you are signed in as a judge of another "
                   "tournament; here you see this one as everyone does"))
    st.caption(widgets.plain(line.format(tournament=shown_name())))
    if data.now().archived() and session.role() is not Role.SPECTATOR:
        st.info(_(ARCHIVED_NOTE), icon=":material/inventory_2:")


ARCHIVED_NOTE = N_("This tournament is archived: every page shows it as it was, and nothing in "
                   "it can change. The organizer can reopen it on the Tournaments page.")


def read_only() -> bool:
    """R27: whether the tournament shown is archived, so pages offer no changes (the store
    refuses them anyway)."""
    return data.now().archived()
