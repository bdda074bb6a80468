"""Sign-in pieces of the Settings page, for the organizer only (R20): judges' invitations by QR
code, and the tournament-wide pause on sign-in after many wrong PINs, with its "Lift" button.

The QR code opens `<app address>/join#<token>`: the address is the one the table slips' QR codes
use (`data_tools.qr_address`: the `public_url` setting, else this browser's unless it is
localhost, else this laptop's address on the venue's network), and the token travels after
`#`, which a browser never sends to a server or puts in a log. The token is shown once, on this
screen, as the QR code and as that link to copy and share (the same address: the join page
takes the token out of its own address before anything else): the database keeps only its
hash. An archived tournament offers no new invitation (the store refuses one).
"""

from __future__ import annotations

import datetime as dt
import io

import pandas as pd
import qrcode
import streamlit as st

from stsa.auth import Actor
from stsa.i18n import _, ngettext
from stsa.local_time import clock_words, zone
from stsa.services import access, admin
from stsa.settings import Settings
from stsa.ui import data, data_tools, session, widgets

_SHOWN = "_invitation_shown"  # the QR code on screen: {"id", "name", "url", "until"}
JOIN_PAGE = "join"


def join_url(settings: Settings, token: str) -> str:
    """The address an invitation's QR code opens: the app's address for QR codes, then
    `/join#<token>`."""
    return f"{data_tools.slip_base(settings, 'settings').rstrip('/')}/{JOIN_PAGE}#{token}"


def qr_png(url: str) -> bytes:
    """A QR code of `url` as a PNG image."""
    code = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_M, box_size=8, border=4)
    code.add_data(url)
    code.make(fit=True)
    out = io.BytesIO()
    code.make_image().save(out, format="PNG")
    return out.getvalue()


def local_time(at: dt.datetime, tz: dt.tzinfo | None = None) -> str:
    """"18:30": a stored time in the tournament's time zone `tz` (R26; None: this laptop's)."""
    return clock_words(pd.Timestamp(at).to_pydatetime(), tz or zone(None))


def _active(listed: pd.DataFrame) -> pd.DataFrame:
    now = pd.Timestamp.now(tz="UTC")
    return listed.loc[~listed["revoked"] & (listed["expires_at"] > now)]


def invite_judges(engine, me: Actor, settings: Settings) -> None:
    """R20: "Judge invitations": name and hours → a QR code that signs that judge in with no
    PIN, and the same as a link to copy, shown until hidden; the invitations made, each open
    one with a Withdraw button. An archived tournament offers no new one."""
    st.subheader(_("Judge invitations"), anchor=False)
    st.caption(_("A judge can sign in without typing a PIN by scanning a QR code on this screen "
                 "with their phone. Withdrawing an invitation signs out everyone who used it."))
    listed = access.invitations(engine, actor=me)
    if data.now().archived():
        st.info(_("This tournament is archived, so it takes no new judge invitations. Reopen "
                  "it on the Tournaments page to invite one."), icon=":material/inventory_2:")
        _invitation_list(engine, me, settings, listed)
        return
    chosen = data_tools.qr_base(settings, "settings")
    opens = widgets.plain(data_tools.qr_words(chosen, f"{{url}}/{JOIN_PAGE}", organizer=True))
    if chosen.reachable:
        st.caption(opens)
    else:
        st.warning(opens, icon=":material/wifi_off:")
    with st.form("invite_form", clear_on_submit=True):
        name = st.text_input(_("Judge's name"), max_chars=60, key="invite_name",
                             help=_("Shown in the log next to what they do."))
        hours = st.number_input(_("Valid for (hours)"), min_value=1, max_value=24, value=6,
                                step=1, key="invite_hours")
        make = st.form_submit_button(_("Make a QR code"), key="invite_make")
    if make:
        made = widgets.act(lambda: access.create_invitation(engine, name, hours=int(hours),
                                                            actor=me))
        if made is not None:
            st.session_state[_SHOWN] = {"id": made[0], "url": join_url(settings, made[1])}
            st.rerun()
    active = _active(listed).set_index("id")
    shown = st.session_state.get(_SHOWN)
    if shown and shown["id"] in active.index:
        row = active.loc[shown["id"]]
        st.image(qr_png(shown["url"]), width=280)
        st.markdown(_("**Scan to sign in as a judge; valid until {time}.**").format(
            time=local_time(row["expires_at"], settings.zone)))
        st.caption(widgets.plain(_("Invitation for {name}: whoever scans it signs in as a "
                                   "judge in that name, so show it to them only.").format(
            name=row["name"])))
        st.caption(_("Or send this link to that judge only (the copy button is at its right): "
                     "whoever opens it signs in as a judge in that name. Withdraw the "
                     "invitation if it reached anyone else."))
        st.code(shown["url"], language=None, wrap_lines=True)  # a text to copy, in no address
        if st.button(_("Hide the QR code and link"), key="invite_hide"):
            st.session_state.pop(_SHOWN, None)
            st.rerun()
    _invitation_list(engine, me, settings, listed)


def _invitation_list(engine, me: Actor, settings: Settings, listed: pd.DataFrame) -> None:
    """The open invitations of this tournament, each with a Withdraw button, and every one
    made."""
    active = _active(listed).set_index("id")
    for invitation_id, row in active.iterrows():
        words, button = st.columns([4, 1], vertical_alignment="center")
        uses = int(row["uses"])
        words.markdown(widgets.plain(
            ngettext("{name}: valid until {time}, used {count} time",
                     "{name}: valid until {time}, used {count} times", uses).format(
                name=row["name"], time=local_time(row["expires_at"], settings.zone),
                count=uses)))
        if button.button(_("Withdraw"), key=f"invite_withdraw_{invitation_id}"):
            withdraw = int(invitation_id)
            if widgets.act(lambda: access.revoke_invitation(engine, withdraw, actor=me),  # noqa: B023
                           done=lambda n: ngettext(
                               "Invitation withdrawn; {count} session ended.",
                               "Invitation withdrawn; {count} sessions ended.", n).format(
                                   count=n)) is not None:
                st.rerun()
    if not listed.empty:
        with st.expander(_("Every invitation made")):
            st.dataframe(pd.DataFrame({
                _("Name"): listed["name"], _("Made"): listed["created_at"],
                _("Valid until"): listed["expires_at"], _("Withdrawn"): listed["revoked"],
                _("Uses"): listed["uses"]}), hide_index=True, width="stretch")


def sign_in_pause(engine, me: Actor) -> None:
    """R20: while many wrong PINs pause sign-in for the whole tournament, say so and offer
    "Lift the pause" (it forgets the wrong PINs and keeps the PINs)."""
    wait = access.sign_in_pause(engine)
    if wait <= 0:
        return
    minutes = max(1, round(wait / 60))
    st.warning(ngettext(
        "Sign-in is paused for about {count} minute: many wrong PINs were tried today. Phones "
        "and computers that signed in before can still sign in; others must wait, unless you "
        "lift the pause. Lifting it keeps the PINs as they are.",
        "Sign-in is paused for about {count} minutes: many wrong PINs were tried today. Phones "
        "and computers that signed in before can still sign in; others must wait, unless you "
        "lift the pause. Lifting it keeps the PINs as they are.", minutes).format(count=minutes),
        icon=":material/lock_clock:")
    if st.button(_("Lift the pause"), key="lift_pause"):
        if widgets.act(lambda: access.lift_pause(engine, actor=me),
                       done=lambda n: ngettext(
                           "Sign-in is open again ({count} wrong PIN forgotten); the PINs did "
                           "not change.",
                           "Sign-in is open again ({count} wrong PINs forgotten); the PINs did "
                           "not change.", n).format(count=n)) is not None:
            st.rerun()


def signed_in(engine, me: Actor, settings: Settings | None = None) -> None:
    """Who is signed in (the organizer's view, R20: the service checks the role), beside the
    open invitations that can still sign a judge in (every tournament's), and a button that
    ends every session but this one and withdraws every open invitation, for a PIN or QR code
    that may have leaked; it says exactly what it ended (issue 33)."""
    st.subheader(_("Who is signed in"), anchor=False)
    found = admin.open_sessions(engine, actor=me)
    st.dataframe(found.assign(role=found["role"].map(session.role_word)).rename(columns={
        "actor": _("Name"), "role": _("Role"), "client": _("From"), "created_at": _("Signed in"),
        "last_seen_at": _("Last seen")}), hide_index=True, width="stretch", key="signed_in_list")
    invited = admin.open_invitations(engine, actor=me)
    if invited.empty:
        st.caption(_("No invitation is open: nobody can sign in by QR code or link now."))
    else:
        st.markdown(_("**Open invitations**: each still signs a judge in, with no PIN, until "
                      "it runs out or is withdrawn."))
        zone_of = settings.zone if settings is not None else None
        st.dataframe(pd.DataFrame({
            _("Name"): invited["name"], _("Tournament"): invited["tournament"],
            _("Valid until"): invited["expires_at"].map(lambda at: local_time(at, zone_of)),
            _("Uses"): invited["uses"]}), hide_index=True, width="stretch",
            key="open_invitations_list")
    if st.button(_("Sign everyone out"), key="sign_everyone_out",
                 help=_("Ends every open session but yours (you stay signed in) and withdraws "
                        "every open invitation, in every tournament: use it if a PIN or an "
                        "invitation may have leaked. Phones that signed in before stay known, "
                        "so a pause after many wrong PINs does not stop them.")):
        if widgets.act(lambda: admin.sign_everyone_out(engine, actor=me,
                                                       keep=session.current_session_id()),
                       done=admin.ended_words) is not None:
            st.rerun()
