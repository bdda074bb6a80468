"""The database engine and the signed-in person, per browser session (R20).

The database is the only state (DESIGN.md): session state holds who is signed in and other UI
state only. PINs are checked against their stored hashes, with failed sign-ins rate-limited
per client address.
"""

from __future__ import annotations

import os

import streamlit as st

from stsa import store
from stsa.auth import Actor, RateLimiter, Role
from stsa.errors import TournamentError

SPECTATOR = Actor("spectator", Role.SPECTATOR)


def database_url() -> str:
    """The database this app serves: `STSA_DATABASE_URL`, else the SQLite file in data/."""
    return os.environ.get("STSA_DATABASE_URL") or store.db.default_url()


@st.cache_resource(show_spinner=False)
def _engine(url: str):
    engine = store.connect(url)
    generated = store.ensure_pins(engine)
    # Shown once, in the console that started the app, and never stored in clear.
    for role, pin in generated.items():
        print(f"STSA: the {role.value} PIN is {pin} (change it on the Settings page).",
              flush=True)
    return engine


def engine():
    """The shared engine for this app's database (created, upgraded and checked once)."""
    return _engine(database_url())


@st.cache_resource(show_spinner=False)
def _limiter() -> RateLimiter:
    return RateLimiter(max_failures=5, window_seconds=60)


TOKEN_PARAM = "session"


def actor() -> Actor:
    """Who is using this browser session: a signed-in judge or organizer, else a spectator.

    A signed token in the address (`?session=…`) keeps a judge signed in across a browser
    refresh; a forged, expired or outdated one (the PIN changed) is dropped."""
    who = st.session_state.get("actor")
    if who is None and TOKEN_PARAM in st.query_params:
        token = st.query_params[TOKEN_PARAM]
        who = store.session_actor(engine(), token)
        if who is None:
            del st.query_params[TOKEN_PARAM]
        else:
            st.session_state["actor"], st.session_state["session_token"] = who, token
    return who or SPECTATOR


def keep_signed_in() -> None:
    """Put the session token back in the address after page navigation cleared it."""
    token = st.session_state.get("session_token")
    if token and st.query_params.get(TOKEN_PARAM) != token:
        st.query_params[TOKEN_PARAM] = token


def role() -> Role:
    return actor().role


def _client() -> str:
    """The client's address, the key failed sign-ins are counted under."""
    try:
        address = st.context.ip_address
    except Exception:  # no client address outside a browser session (scripts)
        address = None
    return address if isinstance(address, str) and address else "local"


def sign_in(name: str, pin: str) -> Actor:
    """R20: sign in with a display name (for the log) and a PIN; rate-limited per client."""
    limiter, client = _limiter(), _client()
    if not limiter.allowed(client):
        wait = int(limiter.retry_after(client)) + 1
        raise TournamentError(f"Too many wrong PINs: try again in {wait} seconds.")
    name = " ".join(str(name or "").split())
    if not name:
        raise TournamentError("Enter your name: it goes into the log with what you do.")
    if len(name) > 60:
        raise TournamentError("Your name can have at most 60 characters.")
    found = store.check_pin(engine(), pin or "")
    if found is None:
        limiter.failure(client)
        raise TournamentError("That PIN is not right.")
    limiter.success(client)
    who = Actor(name, found)
    st.session_state["actor"] = who
    st.session_state["session_token"] = store.session_token(engine(), who)
    keep_signed_in()
    return who


def sign_out() -> None:
    st.session_state.pop("actor", None)
    st.session_state.pop("session_token", None)
    if TOKEN_PARAM in st.query_params:
        del st.query_params[TOKEN_PARAM]


def only_for(*roles: Role) -> Actor:
    """Stop the page unless the signed-in person has one of `roles` (R20). The navigation
    already hides such pages; this also covers a page reached by its address."""
    who = actor()
    if who.role not in roles:
        st.warning("This page is for the organizer. Sign in with the organizer PIN to use it.",
                   icon=":material/lock:")
        st.stop()
    return who
