"""Sign in (judges and the organizer) and sign out."""

import streamlit as st

from stsa.domain import Role
from stsa.i18n import _
from stsa.ui import navigation, session, widgets

st.title(_("Sign in"))
widgets.flash()
me = session.actor()
if me.role is not Role.SPECTATOR:
    st.write(_("Signed in as **{name}** ({role}).").format(name=widgets.plain(me.name),
                                                            role=session.role_word(me.role)))
    if st.button(_("Sign out"), key="sign_out"):
        session.sign_out()
        st.rerun()
    st.stop()

st.caption(_("Judges and the organizer sign in with their PIN. Spectators need no sign-in."))
if going := session.after_sign_in():
    st.info(_("After signing in you go on to the {page} page.").format(
        page=navigation.title(going[0])),
            icon=":material/qr_code:")
if said := session.pause_words():
    st.error(widgets.plain(said), icon=":material/lock_clock:")
asked = session.console_code_asked()
with st.form("sign_in", clear_on_submit=False):
    name = st.text_input(_("Your name"), max_chars=60, key="sign_in_name",
                         help=_("Shown in the log next to what you do."))
    pin = st.text_input(_("PIN"), type="password", max_chars=64, key="sign_in_pin")
    code = st.text_input(_("One-time code (organizer)"), max_chars=20, key="sign_in_code",
                         help=_("While sign-in is paused: run “make code” on the machine that "
                                "runs STSA and type the code it prints, with the organizer "
                                "PIN.")) if asked else ""
    submitted = st.form_submit_button(_("Sign in"), type="primary")
if submitted:
    who = widgets.act(lambda: session.sign_in(name, pin, code),
                      done=lambda a: _("Signed in as {name} ({role}).").format(
                          name=a.name, role=session.role_word(a.role)))
    if who is not None:
        session.go_on()
        st.rerun()
    elif session.console_code_asked() and not asked:
        st.rerun()  # the first pause: ask for the code too (its words are shown again)
