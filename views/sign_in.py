"""Sign in (judges and the organizer) and sign out."""

import streamlit as st

from stsa.domain import Role
from stsa.ui import navigation, session, widgets

st.title("Sign in")
widgets.flash()
me = session.actor()
if me.role is not Role.SPECTATOR:
    st.write(f"Signed in as **{widgets.plain(me.name)}** ({me.role.value}).")
    if st.button("Sign out", key="sign_out"):
        session.sign_out()
        st.rerun()
    st.stop()

st.caption("Judges and the organizer sign in with their PIN. Spectators need no sign-in.")
if going := session.after_sign_in():
    st.info(f"After signing in you go on to the {navigation.title(going[0])} page.",
            icon=":material/qr_code:")
with st.form("sign_in", clear_on_submit=False):
    name = st.text_input("Your name", max_chars=60, key="sign_in_name",
                         help="Shown in the log next to what you do.")
    pin = st.text_input("PIN", type="password", max_chars=64, key="sign_in_pin")
    submitted = st.form_submit_button("Sign in", type="primary")
if submitted:
    who = widgets.act(lambda: session.sign_in(name, pin),
                      done=lambda a: f"Signed in as {a.name} ({a.role.value}).")
    if who is not None:
        session.go_on()
        st.rerun()
