"""Roster (organizer): import or add players, edit, withdraw or remove them, and check players
in for the next sitting (R2)."""

import streamlit as st

from stsa.domain import PlayerStatus, Role
from stsa.i18n import _, ngettext
from stsa.services import roster as service
from stsa.ui import bookings, check_in, data, data_tools, people, session, sittings, widgets

st.title(_("Roster"))
session.only_for(Role.ORGANIZER)
widgets.flash()
me, engine = session.actor(), session.engine()
reads = data.now()
roster = reads.players()

with st.expander(_("Import players"), expanded=roster.empty, icon=":material/upload:"):
    st.caption(_("Paste one player a line: a name, or “name, club”. Everything is added, or "
                 "nothing when a line is wrong (the message names it)."))
    pasted = st.text_area(_("Players"), key="roster_text", max_chars=500_000, height=150)
    if st.button(_("Import list"), key="roster_import"):  # errors name the pasted lines
        if widgets.act(lambda: people.after_import(
                service.import_names(engine, pasted, actor=me)),
                       done=lambda f: ngettext("Imported {count} player.",
                                               "Imported {count} players.",
                                               len(f)).format(count=len(f))) is not None:
            st.rerun()
    st.divider()
    data_tools.roster_upload(engine, me)
bookings.upload(engine, me)  # a qualifier's booking list

# Once used, the form stays open: a refusal's message and the typed values stay in view to
# correct, and after an added player it is ready for the next one.
adding = bool(st.session_state.get("add_submit")) or st.session_state.get("add_open", False)
with st.expander(_("Add a player"), icon=":material/person_add:", expanded=adding):
    if st.session_state.pop("add_done", False):  # empty the form after an added player only
        st.session_state.update(add_name="", add_nickname="", add_club="", add_email="")
    with st.form("add_player"):
        name = st.text_input(_("Name"), max_chars=100, key="add_name")
        nickname = st.text_input(_("Nickname (shown in public; blank: the name)"),
                                 max_chars=100, key="add_nickname")
        club = st.text_input(_("Club (optional)"), max_chars=100, key="add_club")
        email = st.text_input(_("Email (optional)"), max_chars=254, key="add_email")
        added = st.form_submit_button(_("Add player"), key="add_submit")
    if added:
        done = widgets.act(lambda: people.after_import(service.add_player(
            engine, name, nickname=nickname, club=club, email=email, actor=me)),
                           done=lambda p: _("Added {player}.").format(player=p["name"]))
        st.session_state["add_open"] = True
        if done is not None:
            st.session_state["add_done"] = True
            st.rerun()

people.questions(me)  # players who look like earlier tournaments' players, if any

if roster.empty:
    st.info(_("No players yet: import a list or add players above."))
    st.stop()

query = st.text_input(_("Search players by name or nickname"), key="roster_search",
                      max_chars=100, placeholder=_("Part of a name"), icon=":material/search:")

check_in.part(reads, engine, me, query)

st.subheader(_("Edit a player"), anchor=False)
matches, total = service.find_players(roster, query)
names = dict(zip(matches["player_id"], matches["name"]))
withdrawn = set(matches.loc[matches["status"] == PlayerStatus.WITHDRAWN, "player_id"])
sittings.keep_choice("edit_player", list(names))  # the label changes on withdraw/reinstate
pid = st.selectbox(_("Player"), list(names), index=None, key="edit_player",
                   placeholder=_("Choose a player (search above to narrow)"),
                   format_func=lambda p: (_("{player} (withdrawn)").format(player=names[p])
                                          if p in withdrawn else names[p]))
if pid is not None:
    row = matches.loc[matches["player_id"] == pid].iloc[0]
    with st.form(f"edit_{pid}"):
        new_name = st.text_input(_("Name"), value=row["name"], max_chars=100,
                                 key=f"edit_name_{pid}")
        new_nickname = st.text_input(_("Nickname (shown in public; blank: the name)"),
                                     value=row["nickname"], max_chars=100,
                                     key=f"edit_nickname_{pid}")
        new_club = st.text_input(_("Club"), value=row["club"], max_chars=100,
                                 key=f"edit_club_{pid}")
        new_email = st.text_input(_("Email"), value=row["email"], max_chars=254,
                                  key=f"edit_email_{pid}")
        save = st.form_submit_button(_("Save changes"), key=f"edit_save_{pid}")
    if save and widgets.act(lambda: service.edit_player(engine, pid, name=new_name,
                                                      nickname=new_nickname, club=new_club,
                                                      email=new_email, actor=me),
                            done=lambda p: _("Saved {player}.").format(player=p["name"])
                            ) is not None:
        st.rerun()
    gone = row["status"] == PlayerStatus.WITHDRAWN
    st.caption(_("A withdrawn player keeps their results but is not checked in or drawn again. "
                 "Only a player who was never drawn can be removed."))
    if st.button(_("Reinstate") if gone else _("Withdraw"), key="withdraw_player"):
        if widgets.act(lambda: service.withdraw_player(engine, pid, withdrawn=not gone, actor=me),
                       done=lambda p: (_("{player} is withdrawn.")
                                       if p["status"] == PlayerStatus.WITHDRAWN
                                       else _("{player} is active.")).format(player=p["name"])
                       ) is not None:
            st.rerun()
    if st.button(_("Remove from the roster"), key="remove_player", type="secondary"):
        if widgets.act(lambda: service.remove_player(engine, pid, actor=me),
                       done=lambda p: _("Removed {player}.").format(player=p["name"])) is not None:
            st.rerun()
