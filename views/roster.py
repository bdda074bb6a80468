"""Roster (organizer): import or add players, edit, withdraw or remove them, and check players
in for the next sitting (R2)."""

import streamlit as st

from stsa.domain import PlayerStatus, Role, TournamentError, plural
from stsa.services import draws
from stsa.services import roster as service
from stsa.ui import capacity, data, data_tools, organizer, session, sittings, widgets

st.title("Roster")
session.only_for(Role.ORGANIZER)
widgets.flash()
me, engine = session.actor(), session.engine()
reads = data.now()
roster, limit = reads.players(), reads.settings()["capacity"]
active = roster.loc[roster["status"] == PlayerStatus.ACTIVE]

with st.expander("Import players", expanded=roster.empty, icon=":material/upload:"):
    st.caption("Paste one player a line: a name, or “name, club”. Everything is added, or "
               "nothing when a line is wrong (the message names it).")
    pasted = st.text_area("Players", key="roster_text", max_chars=500_000, height=150)
    if st.button("Import list", key="roster_import"):  # errors name the pasted lines
        if widgets.act(lambda: service.import_names(engine, pasted, actor=me),
                       done=lambda f: f"Imported {plural(len(f), 'player')}.") is not None:
            st.rerun()
    st.divider()
    data_tools.roster_upload(engine, me)

# Once used, the form stays open: a refusal's message and the typed values stay in view to
# correct, and after an added player it is ready for the next one.
adding = bool(st.session_state.get("add_submit")) or st.session_state.get("add_open", False)
with st.expander("Add a player", icon=":material/person_add:", expanded=adding):
    if st.session_state.pop("add_done", False):  # empty the form after an added player only
        st.session_state.update(add_name="", add_nickname="", add_club="", add_email="")
    with st.form("add_player"):
        name = st.text_input("Name", max_chars=100, key="add_name")
        nickname = st.text_input("Nickname (shown in public; blank: the name)", max_chars=100,
                                 key="add_nickname")
        club = st.text_input("Club (optional)", max_chars=100, key="add_club")
        email = st.text_input("Email (optional)", max_chars=254, key="add_email")
        added = st.form_submit_button("Add player", key="add_submit")
    if added:
        done = widgets.act(lambda: service.add_player(engine, name, nickname=nickname,
                                                      club=club, email=email, actor=me),
                           done=lambda p: f"Added {p['name']}.")
        st.session_state["add_open"] = True
        if done is not None:
            st.session_state["add_done"] = True
            st.rerun()

if roster.empty:
    st.info("No players yet: import a list or add players above.")
    st.stop()

query = st.text_input("Search players by name or nickname", key="roster_search", max_chars=100,
                      placeholder="Part of a name", icon=":material/search:")

st.subheader("Check-in for the next sitting", anchor=False)
count = int(active["checked_in"].sum())
plan = draws.table_plan(min(count, limit))  # R21: the rest wait
st.write(f"**{count}** of {len(active)} active players checked in."
         + (f" Table plan: {plan.tables}." if plan.ok else "")
         + (f" {capacity.waits(count - limit)} for a seat (the {limit}-seat limit; see the Draw "
            f"page)." if count > limit else ""))
if not plan.ok:
    st.warning(plan.text)
version = st.session_state.setdefault("checkin_version", 0)
if "checkin_error" in st.session_state:  # kept across the rerun that resets the list
    st.error(st.session_state.pop("checkin_error"), icon=":material/warning:")
everyone, nobody = st.columns(2)
if everyone.button("Check in all active", key="checkin_all", width="stretch"):
    if widgets.act(lambda: service.check_in(engine, active["player_id"].tolist(), actor=me),
                   done=lambda n: f"Checked in {plural(n, 'more player')}.") is not None:
        st.session_state["checkin_version"] = version + 1
        st.rerun()
if nobody.button("Clear check-ins", key="checkin_clear", width="stretch"):
    if widgets.act(lambda: service.clear_check_ins(engine, actor=me),
                   done=lambda n: f"Checked out {plural(n, 'player')}.") is not None:
        st.session_state["checkin_version"] = version + 1
        st.rerun()

shown, total = service.find_players(roster, query, active_only=True)
if total == 0:
    st.info("No active player matches the search.")
else:
    if total > len(shown):
        st.caption(f"Showing the first {len(shown)} of {total} matches: search to narrow.")
    before = organizer.check_in_frame(shown)
    edited = st.data_editor(
        before, key=f"checkin_editor_{version}", hide_index=True, num_rows="fixed",
        disabled=organizer.CHECK_IN_LOCKED,
        column_config={"name": "Name", "nickname": "Nickname", "club": "Club",
                       "registration": "Registration",
                       "checked_in": st.column_config.CheckboxColumn("Checked in"),
                       "checked_in_at": "Checked in at"})
    ins, outs = organizer.check_in_changes(before, edited)
    if ins or outs:  # a tick is saved at once; then the list shows what is stored
        def save_check_ins():
            try:
                return service.change_check_ins(engine, ins, outs, actor=me)
            except TournamentError as exc:  # shown again after the rerun below
                st.session_state["checkin_error"] = str(exc)
                raise
        widgets.act(save_check_ins, done=f"Checked in {len(ins)}, checked out {len(outs)}.")
        st.session_state["checkin_version"] = version + 1
        st.rerun()

st.subheader("Edit a player", anchor=False)
matches, total = service.find_players(roster, query)
names = dict(zip(matches["player_id"], matches["name"]))
withdrawn = set(matches.loc[matches["status"] == PlayerStatus.WITHDRAWN, "player_id"])
sittings.keep_choice("edit_player", list(names))  # the label changes on withdraw/reinstate
pid = st.selectbox("Player", list(names), index=None, key="edit_player",
                   placeholder="Choose a player (search above to narrow)",
                   format_func=lambda p: names[p] + (" (withdrawn)" if p in withdrawn else ""))
if pid is not None:
    row = matches.loc[matches["player_id"] == pid].iloc[0]
    with st.form(f"edit_{pid}"):
        new_name = st.text_input("Name", value=row["name"], max_chars=100, key=f"edit_name_{pid}")
        new_nickname = st.text_input("Nickname (shown in public; blank: the name)",
                                     value=row["nickname"], max_chars=100,
                                     key=f"edit_nickname_{pid}")
        new_club = st.text_input("Club", value=row["club"], max_chars=100, key=f"edit_club_{pid}")
        new_email = st.text_input("Email", value=row["email"], max_chars=254,
                                  key=f"edit_email_{pid}")
        save = st.form_submit_button("Save changes", key=f"edit_save_{pid}")
    if save and widgets.act(lambda: service.edit_player(engine, pid, name=new_name,
                                                      nickname=new_nickname, club=new_club,
                                                      email=new_email, actor=me),
                            done=lambda p: f"Saved {p['name']}.") is not None:
        st.rerun()
    gone = row["status"] == PlayerStatus.WITHDRAWN
    st.caption("A withdrawn player keeps their results but is not checked in or drawn again. "
               "Only a player who was never drawn can be removed.")
    if st.button("Reinstate" if gone else "Withdraw", key="withdraw_player"):
        if widgets.act(lambda: service.withdraw_player(engine, pid, withdrawn=not gone, actor=me),
                       done=lambda p: f"{p['name']} is {p['status']}.") is not None:
            st.rerun()
    if st.button("Remove from the roster", key="remove_player", type="secondary"):
        if widgets.act(lambda: service.remove_player(engine, pid, actor=me),
                       done=lambda p: f"Removed {p['name']}.") is not None:
            st.rerun()
