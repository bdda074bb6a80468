"""The player directory's page parts (R27), for the organizer: new players linked after an
import, the Roster page's questions ("Spice Baron: the same player as in GothCon 2026?"), and
the Players page's list, merge and split. The rules are in `stsa.services.people`; its reads
are shared per data version (they read every tournament's players)."""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from stsa import directory
from stsa.auth import Actor
from stsa.i18n import _, ngettext
from stsa.services import people as service
from stsa.ui import season_data, session, widgets

SHOWN = 20  # questions at a time: a whole roster's would be a long page


def after_import(added: Any) -> Any:
    """After players were imported or added to the tournament shown: every new player without
    a proposal becomes a new person in the directory (the others wait for the questions).
    Returns `added` unchanged, so it goes inside the import's `widgets.act`."""
    service.link_new(session.engine(), session.engine_of, actor=session.actor())
    return added


def proposals(me: Actor) -> pd.DataFrame:
    """The questions for the tournament shown (`services.people.proposals`), shared per data
    version (no e-mail in them)."""
    here = session.tournament_id()
    return season_data.everywhere(("proposals", here), lambda: service.proposals(
        session.engine(), session.engine_of, actor=me))


def members(me: Actor) -> pd.DataFrame:
    """The directory's tournament players (`services.people.members`), shared per data
    version."""
    return season_data.everywhere("directory_members", lambda: service.members(
        session.installation(), session.engine_of, actor=me))


def questions(me: Actor) -> None:
    """The Roster page's "Players from earlier tournaments": Yes or No to each proposal (the
    first `SHOWN`), or yes to all; nothing when there is no proposal."""
    found = proposals(me)
    if found.empty:
        return
    st.subheader(_("Players from earlier tournaments"), anchor=False)
    st.caption(_("These players look like players of earlier tournaments here (the same "
                 "e-mail, else the same nickname). Yes keeps their results together as one "
                 "player; No makes them a new player. You can merge or split them later on the "
                 "Players page."))
    shown = found.head(SHOWN)
    if len(found) > SHOWN:
        st.caption(ngettext("The first {shown} of {count} question.",
                            "The first {shown} of {count} questions.", len(found)).format(
            shown=SHOWN, count=len(found)))
    with st.form("same_players"):
        words = {"Yes": _("Yes"), "No": _("No")}
        answers = {(int(r.tournament_id), int(r.player_id)): st.radio(
            widgets.plain(directory.question_words(r.nickname, r.tournament_names)),
            ["Yes", "No"], index=None, horizontal=True, format_func=words.__getitem__,
            key=f"same_{r.tournament_id}_{r.player_id}")
            for r in shown.itertuples()}  # one question a row: at most SHOWN
        save = st.form_submit_button(_("Save answers"), type="primary")
        every = st.form_submit_button(ngettext("Yes to all {count} question",
                                               "Yes to all {count} questions",
                                               len(found)).format(count=len(found)))
    person = dict(zip(found[["tournament_id", "player_id"]].itertuples(index=False, name=None),
                      found["person_id"].astype(int)))
    if every:
        yes, no = person, []
    elif save:
        yes = {k: person[k] for k, a in answers.items() if a == "Yes"}
        no = [k for k, a in answers.items() if a == "No"]
        if not yes and not no:
            st.info(_("Answer at least one question first."))
            return
    else:
        return
    if widgets.act(lambda: service.answer(session.engine(), session.engine_of, yes, no,
                                          actor=me),
                   done=lambda rows: ngettext("Saved {count} answer.", "Saved {count} answers.",
                                              len(rows)).format(count=len(rows))) is not None:
        st.rerun()


def add_everyone(me: Actor) -> None:
    """A button for tournaments whose players are not in the directory yet (made before it,
    or filled by a restore): each one's players join it, oldest tournament first."""
    st.caption(_("Players of a tournament restored or made before the directory are not in it "
                 "yet. Adding them makes each a new person, unless they look like a player of "
                 "an earlier tournament: those are asked about on that tournament's Roster "
                 "page."))
    if st.button(_("Add players not in the directory yet"), key="directory_add_all"):
        if widgets.act(lambda: service.link_every_tournament(session.installation(),
                                                             session.engine_of, actor=me),
                       done=lambda n: ngettext("Added {count} player to the directory.",
                                               "Added {count} players to the directory.",
                                               n).format(count=n)) is not None:
            st.rerun()


def _person_labels(people: pd.DataFrame) -> dict[int, str]:
    label = _("Person {person}: {nicknames} ({tournaments})")
    return {int(p): label.format(person=int(p), nicknames=n, tournaments=t)
            for p, n, t in zip(people["person_id"], people["nicknames"], people["tournaments"])}


def merge_form(found: pd.DataFrame, people: pd.DataFrame, me: Actor) -> None:
    """Merge two people into one, after a confirmation."""
    with st.expander(_("Merge two people"), icon=":material/merge:"):
        st.caption(_("When one player is listed as two people: the second person's tournaments "
                     "become the first's. Two players of one tournament are never one person."))
        labels = _person_labels(people)
        keep = st.selectbox(_("Keep"), list(labels), index=None, key="merge_keep",
                            format_func=lambda p: widgets.plain(labels[p]),
                            placeholder=_("Choose a person"))
        other = st.selectbox(_("Merge into it"), [p for p in labels if p != keep], index=None,
                             key="merge_other", format_func=lambda p: widgets.plain(labels[p]),
                             placeholder=_("Choose a person"))
        sure = st.checkbox(_("Yes, these two are one player"), key="merge_sure")
        if not st.button(_("Merge"), key="merge_people",
                         disabled=keep is None or other is None):
            return
        if not sure:
            st.warning(_("Tick “Yes, these two are one player” first."))
            return
        assert keep is not None and other is not None  # the button is off without them
        if widgets.act(lambda: service.merge(session.installation(), found, keep, other,
                                             actor=me),
                       done=lambda n: ngettext("Merged: person {person} has {count} more "
                                               "tournament.", "Merged: person {person} has "
                                               "{count} more tournaments.", n).format(
                           person=keep, count=n)) is not None:
            st.rerun()


def split_form(found: pd.DataFrame, me: Actor) -> None:
    """Take one tournament player out of their person, after a confirmation."""
    with st.expander(_("Split a player out"), icon=":material/call_split:"):
        st.caption(_("When two players were taken for one: the tournament player chosen "
                     "becomes a person of their own."))
        shared = found.loc[found.duplicated("person_id", keep=False)]
        if shared.empty:
            st.info(_("Every person here has one tournament: there is nothing to split."))
            return
        label = _("{nickname} in {tournament} (person {person})")
        labels = {(int(t), int(p)): label.format(nickname=n, tournament=name, person=int(person))
                  for t, p, n, name, person in zip(shared["tournament_id"], shared["player_id"],
                                                   shared["nickname"], shared["tournament"],
                                                   shared["person_id"])}
        chosen = st.selectbox(_("Player"), list(labels), index=None, key="split_player",
                              format_func=lambda k: widgets.plain(labels[k]),
                              placeholder=_("Choose a tournament player"))
        sure = st.checkbox(_("Yes, this is another player"), key="split_sure")
        if not st.button(_("Split out"), key="split_out", disabled=chosen is None):
            return
        if not sure:
            st.warning(_("Tick “Yes, this is another player” first."))
            return
        assert chosen is not None  # the button is off without it
        if widgets.act(lambda: service.split(session.installation(), *chosen, actor=me),
                       done=lambda p: _("Split out: {player} is person {person} now.").format(
                           player=labels[chosen], person=p)) is not None:
            st.rerun()
