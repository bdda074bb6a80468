"""The database engine and the signed-in person, per browser session (R20).

The database is the only state (DESIGN.md): sessions, PINs and wrong-PIN counts live there, so
a client that clears Streamlit's caches, a restart or a second app process changes nothing.
Session state holds this browser's session id and UI state only, and every run checks the
session id against the database again, so a revoked session ends at its next run.

No credential travels in an address: after a sign-in the page posts a one-time handoff code to
STSA's own route (stsa.web.guard), which puts the session in an HttpOnly cookie; a refresh or a
new tab reads it from `st.context.cookies`. Links, QR codes and bookmarks carry none, and an
old `?session=` in an address does nothing.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Callable, Hashable
from pathlib import Path
from typing import Any

import pandas as pd
import streamlit as st
from sqlalchemy.engine import Engine
from streamlit.runtime.scriptrunner import get_script_run_ctx

from stsa.auth import Actor
from stsa.auth import role_word as auth_role_word
from stsa.domain import Role
from stsa.i18n import N_, _
from stsa.services import access, database
from stsa.services import keys as address_keys
from stsa.services.shared import Versions
from stsa.ui import navigation
from stsa.web import guard as web

SPECTATOR = Actor("spectator", Role.SPECTATOR)
OLD_TOKEN_PARAM = "session"  # addresses of earlier releases carried the session: never read
NEXT_PARAM = "next"  # on the Sign in page: the page to go on to, by its address ("results")
SIGN_IN = "views/sign_in.py"
_NEXT = "_after_sign_in"
TRUSTED_PROXY_ENV = "STSA_TRUSTED_PROXY"
_ID = "session_id"
_HANDOFF = "_cookie_handoff"  # a sign-in's one-time code, until the page has posted it
_FORGET_COOKIE = "_cookie_forget"
_ELSEWHERE = "_judge_elsewhere"  # this run: the tournament id of a judge signed in elsewhere


def database_url() -> str:
    """The database this app serves: `STSA_DATABASE_URL`, else the SQLite file in data/."""
    return os.environ.get("STSA_DATABASE_URL") or database.default_url()


# One engine per tournament for the whole process, kept out of Streamlit's caches: any client
# can clear those, which used to leave the old engine's connections open beside a new one.
_engines: dict[tuple[str, int | None], Engine] = {}
_engines_lock = threading.Lock()
TOURNAMENT_PARAM = "t"  # R27: the tournament a page shows, in its address (?t=gothcon-2026)
_TOURNAMENT = "_tournament"  # session state: the id of the tournament this browser shows


def _shared(key: tuple[str, int | None], make: Callable[[], Engine]) -> Engine:
    """The process's one engine under `key`, made by `make` the first time (once, however
    many sessions ask together)."""
    found = _engines.get(key)
    if found is None:
        with _engines_lock:
            found = _engines.get(key)
            if found is None:
                found = _engines[key] = make()
    return found


# Each database's data version, read at most every VERSION_SECONDS per process and at once
# after a write this process made (`services.shared.Versions`): every page run and feed poll
# looks its version up here instead of asking the database (DESIGN.md, "The crowd").
# STSA_VERSION_SECONDS=0 reads it every time (tests that write from another process).
VERSION_SECONDS = float(os.environ.get("STSA_VERSION_SECONDS", "0.25"))
VERSIONS = Versions(VERSION_SECONDS)
database.on_write(VERSIONS.moved)
_listings: dict[str, tuple[Hashable, Any]] = {}


def _per_version(name: str, stamp: Hashable, make: Callable[[], Any]) -> Any:
    """`make()` kept per installation (this process serves one) and `stamp` of versions."""
    key = f"{database_url()}#{name}"
    kept = _listings.get(key)
    if kept is None or kept[0] != stamp:
        kept = _listings[key] = (stamp, make())
    return kept[1]


def listed() -> pd.DataFrame:
    """R27: the installation's tournaments (`store.tournaments`), read once per installation
    data version for the whole process (every page run asks). Shared: read-only."""
    inst = installation()
    return _per_version("listed", VERSIONS.current(inst), lambda: database.tournaments(inst))


def installation() -> Engine:
    """The shared engine of this app's installation database (created, upgraded and checked
    once per process): the list of tournaments, PINs and sessions (R27), and the tournament of
    its own. `ensure_pins` never replaces a stored PIN: it prints PINs only when it makes them."""
    def make() -> Engine:
        made = database.connect(url)
        for role, pin in access.ensure_pins(made).items():
            print(_("STSA: the {role} PIN is {pin} (change it on the Settings page).").format(
                role=auth_role_word(role), pin=pin), flush=True)
        return made

    url = database_url()
    return _shared((url, None), make)


def engine() -> Engine:
    """The shared engine of the tournament this run shows (`choose_tournament`; outside a
    page run, or before it, the installation's default one)."""
    return engine_of(_chosen())


def engine_of(chosen: int | None) -> Engine:
    """The shared engine of tournament `chosen` (None: the installation's own)."""
    inst = installation()
    if chosen is None or chosen == database.tournament_id(inst):
        return inst
    return _shared((database_url(), chosen), lambda: database.open_tournament(inst, chosen))


def opened_engine_of(chosen: int | None) -> Engine | None:
    """The engine of tournament `chosen` if this process has opened it already, else None
    (no database touched: the feed's event loop asks)."""
    inst = _engines.get((database_url(), None))
    if inst is None or chosen is None or chosen == database.tournament_id(inst):
        return inst
    return _engines.get((database_url(), chosen))


def _chosen() -> int | None:
    try:
        return st.session_state.get(_TOURNAMENT)
    except Exception:  # noqa: BLE001 - no page run (a script, a test)
        return None


def data_key() -> str:
    """What the shared reads of this run's tournament are kept under (`stsa.ui.data`)."""
    return data_key_of(_chosen())


def data_key_of(tournament_id: int | None) -> str:
    """What tournament `tournament_id`'s shared reads are kept under, for a page run and the
    data feed alike."""
    return f"{database_url()}#{tournament_id or ''}"


def forget_tournament(tournament_id: int) -> None:
    """Close this process's engine of a deleted tournament."""
    with _engines_lock:
        found = _engines.pop((database_url(), int(tournament_id)), None)
    if found is not None:
        found.dispose()


def choose_tournament() -> str | None:
    """R27: which tournament this run shows: the address's `?t=` key, else the one this
    browser chose before, else the installation's default (its own
    tournament, else the newest). With several tournaments the address then carries its key,
    so a bookmark or a shared link opens the same one. Returns a message for an address naming
    no tournament here (the default is shown instead), else None."""
    found = listed()
    keys = address_keys.by_key(found)
    asked, note = st.query_params.get(TOURNAMENT_PARAM), None
    chosen = address_keys.named(keys, asked)
    if asked and chosen is None:
        # English here: the language may not be chosen yet; `shown_on_every_page` translates
        note = N_("That address names no tournament here, so this is the default one.")
    if chosen is None and st.session_state.get(_TOURNAMENT) in keys.values():
        chosen = st.session_state[_TOURNAMENT]
    if chosen is None and not found.empty:
        chosen = _default(found)
    st.session_state[_TOURNAMENT] = chosen
    if len(found) > 1 and chosen is not None:
        key = address_keys.key_of(found, chosen)
        if key is not None and st.query_params.get(TOURNAMENT_PARAM) != key:
            st.query_params[TOURNAMENT_PARAM] = key
    return note


def tournament_query() -> dict[str, str]:
    """R27: what an address outside the app (a slip's QR code, a pairing list's) adds to name
    the tournament this run shows: {"t": key} when the installation holds several, else {}."""
    found = listed()
    chosen = _chosen()
    if len(found) < 2 or chosen is None:
        return {}
    key = address_keys.key_of(found, chosen)
    return {TOURNAMENT_PARAM: key} if key is not None else {}


def tournament_key() -> str | None:
    """The address key of the tournament this run shows ("gothcon-2026"), or None."""
    return address_keys.key_of(listed(), _chosen())


def tournament_id() -> int | None:
    """The id of the tournament this run shows."""
    return _chosen()


def open_default() -> None:
    """Show the installation's default tournament again (after the one shown was deleted)."""
    st.session_state.pop(_TOURNAMENT, None)
    st.query_params.pop(TOURNAMENT_PARAM, None)


def _default(found: pd.DataFrame) -> int:
    """The tournament a new visitor sees (R27): the newest one that is not archived and has
    players; else the installation's own; else the newest. Worked out once per data versions
    of the tournaments (every new visitor asks)."""
    ids = [int(t) for t in found["tournament_id"]]

    def newest() -> int:
        for tid in reversed(ids):
            engine = engine_of(tid)
            if database.shown_first(engine):
                return tid
        own = found.loc[found["location"] == "", "tournament_id"]
        return int(own.iloc[0]) if len(own) else ids[-1]

    stamp = tuple((tid, VERSIONS.current(engine_of(tid))) for tid in ids)
    return _per_version("default", stamp, newest)


def open_tournament(tournament_id: int) -> None:
    """Show tournament `tournament_id` from now on in this browser (the Tournaments page)."""
    st.session_state[_TOURNAMENT] = int(tournament_id)
    st.query_params.pop(TOURNAMENT_PARAM, None)


def forget_engines() -> None:
    """Close every engine this process opened (tests start each app afresh with it)."""
    with _engines_lock:
        for found in _engines.values():
            found.dispose()
        _engines.clear()


def _cookie(name: str) -> str | None:
    try:
        value = st.context.cookies.get(name)
    except Exception:  # noqa: BLE001 - no browser behind this run (a script, a test)
        return None
    return value if isinstance(value, str) and value else None


_DEAD_COOKIE = "_cookie_dead"  # a cookie found ended once is not looked up on every run


def _session_id() -> str | None:
    if st.session_state.get(_ID):
        return st.session_state[_ID]
    if st.session_state.get(_FORGET_COOKIE):  # signed out in this tab: the old cookie is dead
        return None
    cookie = _cookie(web.SESSION_COOKIE)
    return None if cookie is None or cookie == st.session_state.get(_DEAD_COOKIE) else cookie


def _forget() -> None:
    st.session_state.pop(_ID, None)


def check() -> Actor:
    """Who is using this browser session, checked against the database once per run (app.py
    calls it first): the judge or organizer of an open session, else a spectator (R20). A
    refresh finds the session in its HttpOnly cookie; an address never carries it."""
    if OLD_TOKEN_PARAM in st.query_params:  # an old link: drop it from the address, unread
        del st.query_params[OLD_TOKEN_PARAM]
    session_id, who = _session_id(), SPECTATOR
    st.session_state.pop(_ELSEWHERE, None)
    if session_id:
        found = access.session_actor(engine(), session_id, any_tournament=True)
        here = database.tournament_id(engine())
        if found is not None and found.role is Role.JUDGE and here is not None \
                and found.tournament not in (None, here):
            # R27: a judge of another tournament sees this one as everyone does, and stays
            # signed in to their own
            st.session_state[_ID], st.session_state[_ELSEWHERE] = session_id, found.tournament
            found = SPECTATOR
        elif found is None:
            if st.session_state.get(_ID):
                st.session_state["_flash_warning"] = N_(
                    "You were signed out. Sign in again to go on.")
            else:
                st.session_state[_DEAD_COOKIE] = session_id
            _forget()
        else:
            st.session_state[_ID], who = session_id, found
    st.session_state["actor"] = who
    ctx = get_script_run_ctx()
    if ctx is not None:
        web.remember_role(ctx.session_id, who.role)
    return who


def judge_elsewhere() -> int | None:
    """The tournament id of a judge signed in to another tournament than this run's (R27)."""
    return st.session_state.get(_ELSEWHERE)


def actor() -> Actor:
    """The person this run was checked as (`check`)."""
    return st.session_state.get("actor") or SPECTATOR


def keep_signed_in() -> None:
    """After a sign-in, post its one-time handoff code to STSA's cookie route (a script in the
    page, the code in the request's body); after a sign-out, ask it to forget the cookie. Both
    run once, on whatever page the person is on next (app.py calls this on every run)."""
    code = st.session_state.pop(_HANDOFF, None)
    if code:
        _post(web.SESSION_ROUTE, code)
    if st.session_state.get(_FORGET_COOKIE) == "post":
        st.session_state[_FORGET_COOKIE] = "posted"
        _post(web.SIGN_OUT_ROUTE, "")


def _post(route: str, body: str) -> None:
    st.html(f"<script>fetch({json.dumps(route)}, {{method: 'POST', credentials: 'same-origin', "
            f"headers: {{'Content-Type': 'text/plain'}}, body: {json.dumps(body)}}});</script>",
            unsafe_allow_javascript=True)


def role() -> Role:
    return actor().role


def role_word(who: Role | str) -> str:
    """A role as a word in this run's language, for the pages ("judge", "domare")."""
    return auth_role_word(Role(who))


def client() -> str:
    """The address wrong PINs are counted under (the store counts an IPv6 address alone and
    its /64 together too). A
    forwarded address counts only behind a proxy named in `STSA_TRUSTED_PROXY` (the server
    then trusts that proxy's header); otherwise every request that carries one shares a single
    key, so a forged header buys a guesser nothing."""
    context = st.context
    if not os.environ.get(TRUSTED_PROXY_ENV) and context.headers.get("X-Forwarded-For"):
        return "forwarded"
    address = context.ip_address
    return address if isinstance(address, str) and address else "local"


def device() -> str | None:
    """This browser's trusted-device cookie, if it has one: its wrong PINs count on it alone."""
    return _cookie(web.DEVICE_COOKIE)


_PAUSED = "_sign_in_paused"  # this browser met a pause: the Sign in page asks for a code
_PAUSED_WORDS = "_sign_in_paused_words"  # what that pause said, shown once after the rerun


def sign_in(name: str, pin: str, code: str | None = None) -> Actor:
    """R20: sign in with a display name (for the log) and a PIN; wrong PINs are counted in the
    database per address and for the whole tournament (`store.sign_in`). `code`: a one-time
    code from the console (`make code`) that lets the organizer in through a pause."""
    try:
        signed = access.sign_in(engine(), name, pin, client=client(), device=device(),
                                console_code=code or None)
    except access.SignInPaused as paused:
        if not st.session_state.get(_PAUSED):
            st.session_state[_PAUSED], st.session_state[_PAUSED_WORDS] = True, str(paused)
        raise
    st.session_state[_ID], st.session_state["actor"] = signed.session_id, signed.actor
    st.session_state[_HANDOFF] = access.handoff(engine(), signed.session_id)
    st.session_state.pop(_FORGET_COOKIE, None)
    return signed.actor


def console_code_asked() -> bool:
    """Whether this browser met a pause on sign-in: the Sign in page then asks for the
    organizer's one-time code from the console too."""
    return bool(st.session_state.get(_PAUSED))


def pause_words() -> str | None:
    """What the pause said when this browser first met it (once: the page reran since)."""
    return st.session_state.pop(_PAUSED_WORDS, None)


def sign_out() -> None:
    """End this session in the database: its cookie no longer signs anyone in."""
    access.sign_out(engine(), _session_id())
    _forget()
    st.session_state[_FORGET_COOKIE] = "post"
    st.session_state["actor"] = SPECTATOR


def current_session_id() -> str | None:
    """This browser's session id (to keep it when the organizer signs everyone else out)."""
    return st.session_state.get(_ID)


def only_for(*roles: Role) -> Actor:
    """Stop the page unless the signed-in person has one of `roles` (R20). The navigation
    already hides such pages; this also covers a page reached by its address."""
    who = actor()
    if who.role not in roles:
        st.warning(_("This page is for the organizer. Sign in with the organizer PIN to use it."),
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
    st.page_link(SIGN_IN, label=_("Sign in"), icon=":material/login:",
                 query_params={NEXT_PARAM: Path(page).stem, **params})


def after_sign_in() -> tuple[str, dict[str, str]] | None:
    """Where the person goes on to after signing in (`sign_in_link`): (page, parameters), or
    None. Only pages of the navigation are gone on to."""
    asked = {k: str(v)[:100] for k, v in st.query_params.to_dict().items()
             if k not in (OLD_TOKEN_PARAM, NEXT_PARAM)}
    name = st.query_params.get(NEXT_PARAM)
    found = next((p.path for p in navigation.PAGES if Path(p.path).stem == name), None)
    if found is not None and found != SIGN_IN:
        return found, asked
    return st.session_state.get(_NEXT)


def go_on() -> None:
    """After a sign-in, open the page it was asked for (`after_sign_in`), with its parameters;
    nothing when none was asked for."""
    found = after_sign_in()
    if found is None or actor().role is Role.SPECTATOR:
        return
    st.session_state.pop(_NEXT, None)
    page, params = found
    st.switch_page(page, query_params=params)
