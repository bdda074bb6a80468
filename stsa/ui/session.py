"""The database engine and the signed-in person, per browser session (R20).

The database is the only state (DESIGN.md): sessions, PINs and wrong-PIN counts live there, so
a client that clears Streamlit's caches, a restart or a second app process changes nothing.
Session state holds this browser's session id and UI state only, and every run checks the
session id against the database again, so a revoked session ends at its next run.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

import streamlit as st

from stsa import store
from stsa.auth import Actor, Role
from stsa.ui import navigation

SPECTATOR = Actor("spectator", Role.SPECTATOR)
TOKEN_PARAM = "session"
NEXT_PARAM = "next"  # on the Sign in page: the page to go on to, by its address ("results")
SIGN_IN = "views/sign_in.py"
_NEXT = "_after_sign_in"
TRUSTED_PROXY_ENV = "STSA_TRUSTED_PROXY"
_ID = "session_id"


def database_url() -> str:
    """The database this app serves: `STSA_DATABASE_URL`, else the SQLite file in data/."""
    return os.environ.get("STSA_DATABASE_URL") or store.db.default_url()


# One engine per database for the whole process, kept out of Streamlit's caches: any client can
# clear those, which used to leave the old engine's connections open beside a new one.
_engines: dict[str, object] = {}
_engines_lock = threading.Lock()


def engine():
    """The shared engine for this app's database (created, upgraded and checked once per
    process). `ensure_pins` never replaces a stored PIN: it prints PINs only when it makes them."""
    url = database_url()
    found = _engines.get(url)
    if found is None:
        with _engines_lock:
            found = _engines.get(url)
            if found is None:
                found = store.connect(url)
                for role, pin in store.ensure_pins(found).items():
                    print(f"STSA: the {role.value} PIN is {pin} (change it on the Settings "
                          f"page).", flush=True)
                _engines[url] = found
    return found


def forget_engines() -> None:
    """Close every engine this process opened (tests start each app afresh with it)."""
    with _engines_lock:
        for found in _engines.values():
            found.dispose()
        _engines.clear()


def _session_id() -> str | None:
    return st.session_state.get(_ID) or st.query_params.get(TOKEN_PARAM)


def _forget() -> None:
    st.session_state.pop(_ID, None)
    if TOKEN_PARAM in st.query_params:
        del st.query_params[TOKEN_PARAM]


def check() -> Actor:
    """Who is using this browser session, checked against the database once per run (app.py
    calls it first): the judge or organizer of an open session, else a spectator. The session
    id travels in the address (`?session=…`) so a refresh keeps the person signed in."""
    session_id, who = _session_id(), SPECTATOR
    if session_id:
        found = store.session_actor(engine(), session_id)
        if found is None:
            if st.session_state.get(_ID):
                st.session_state["_flash_warning"] = "You were signed out. Sign in again to go on."
            _forget()
        else:
            st.session_state[_ID], who = session_id, found
    st.session_state["actor"] = who
    return who


def actor() -> Actor:
    """The person this run was checked as (`check`)."""
    return st.session_state.get("actor") or SPECTATOR


def keep_signed_in() -> None:
    """Put the session id back in the address after page navigation cleared it."""
    session_id = st.session_state.get(_ID)
    if session_id and st.query_params.get(TOKEN_PARAM) != session_id:
        st.query_params[TOKEN_PARAM] = session_id


def role() -> Role:
    return actor().role


def client() -> str:
    """The key wrong PINs are counted under: the connection's address. A forwarded address
    counts only behind a proxy named in `STSA_TRUSTED_PROXY` (the server then trusts that
    proxy's header); otherwise every request that carries one shares a single key, so a forged
    header buys a guesser nothing."""
    context = st.context
    if not os.environ.get(TRUSTED_PROXY_ENV) and context.headers.get("X-Forwarded-For"):
        return "forwarded"
    address = context.ip_address
    return address if isinstance(address, str) and address else "local"


def sign_in(name: str, pin: str) -> Actor:
    """R20: sign in with a display name (for the log) and a PIN; wrong PINs are counted in the
    database per address and for the whole tournament (`store.sign_in`)."""
    signed = store.sign_in(engine(), name, pin, client=client())
    st.session_state[_ID], st.session_state["actor"] = signed.session_id, signed.actor
    keep_signed_in()
    return signed.actor


def sign_out() -> None:
    """End this session in the database: its address no longer signs anyone in."""
    store.sign_out(engine(), _session_id())
    _forget()
    st.session_state["actor"] = SPECTATOR


def current_session_id() -> str | None:
    """This browser's session id (to keep it when the organizer signs everyone else out)."""
    return st.session_state.get(_ID)


def only_for(*roles: Role) -> Actor:
    """Stop the page unless the signed-in person has one of `roles` (R20). The navigation
    already hides such pages; this also covers a page reached by its address."""
    who = actor()
    if who.role not in roles:
        st.warning("This page is for the organizer. Sign in with the organizer PIN to use it.",
                   icon=":material/lock:")
        st.stop()
    return who


# --- signing in on the way to a page (a slip's QR code) ----------------------------------------

def sign_in_link(page: str, params: dict[str, str]) -> None:
    """A link to the Sign in page that goes on to `page` (a views/ file) with `params` after
    the sign-in: they travel in the Sign in page's address (`?next=results&table=7`), so a
    refresh keeps them, and are remembered for this browser, for a person who opens Sign in
    from the menu instead."""
    st.session_state[_NEXT] = (page, dict(params))
    st.page_link(SIGN_IN, label="Sign in", icon=":material/login:",
                 query_params={NEXT_PARAM: Path(page).stem, **params})


def after_sign_in() -> tuple[str, dict[str, str]] | None:
    """Where the person goes on to after signing in (`sign_in_link`): (page, parameters), or
    None. Only pages of the navigation are gone on to."""
    asked = {k: str(v)[:100] for k, v in st.query_params.to_dict().items()
             if k not in (TOKEN_PARAM, NEXT_PARAM)}
    name = st.query_params.get(NEXT_PARAM)
    found = next((p.path for p in navigation.PAGES if Path(p.path).stem == name), None)
    if found is not None and found != SIGN_IN:
        return found, asked
    return st.session_state.get(_NEXT)


def go_on() -> None:
    """After a sign-in, open the page it was asked for (`after_sign_in`), with its parameters
    and the new session id; nothing when none was asked for."""
    found = after_sign_in()
    if found is None or actor().role is Role.SPECTATOR:
        return
    st.session_state.pop(_NEXT, None)
    page, params = found
    st.switch_page(page, query_params={**params, TOKEN_PARAM: st.session_state[_ID]})
