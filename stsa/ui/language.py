"""Which language this page run reads, and the switch on every page (README, "Languages").

The reader's own choice comes first: the address's `?lang=` (so a bookmark or a QR code carries
it), else what this session chose before. Then the tournament's language (a setting), then the
browser's (`st.context.locale`), then English. The choice lives in the session and the address,
never in the process: every session is a thread of one process, so `stsa.i18n` keeps it per run.
"""

from __future__ import annotations

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from stsa import i18n
from stsa.i18n import _

PARAM = "lang"
_CHOSEN = "_language"  # this session's own choice (the switch or the address)
_SWITCH = "language_switch"
_NOW = "_language_now"  # what the last run read: a callback (before the run sets it) reads it


def _in_a_run() -> bool:
    """Whether a page run of a session is asking (not the feed's server thread, a script)."""
    return get_script_run_ctx(suppress_warning=True) is not None


def _session_choice() -> str | None:
    return st.session_state.get(_CHOSEN) if _in_a_run() else None


def _session_now() -> str | None:
    return st.session_state.get(_NOW) if _in_a_run() else None


def _browser() -> str | None:
    # AppTest has no browser to ask (None); a test may stand in a context of its own
    return i18n.known(getattr(st.context, "locale", None)) if _in_a_run() else None


def choose(tournament_language: str | None) -> str:
    """This run's language (see the module's docstring); set for everything the run shows.
    An explicit choice stays in the address, so links copied from it open in it."""
    asked = i18n.known(st.query_params.get(PARAM))
    if asked:
        st.session_state[_CHOSEN] = asked
    elif PARAM in st.query_params:  # an unknown code: drop it, show the default
        del st.query_params[PARAM]
    own = st.session_state.get(_CHOSEN)
    chosen = i18n.choose(own, tournament_language, _browser())
    i18n.use(chosen)
    st.session_state[_NOW] = chosen
    if own and st.query_params.get(PARAM) != own:
        st.query_params[PARAM] = own
    return chosen


def query() -> dict[str, str]:
    """What an address made for this reader adds to keep their language ({"lang": "sv"}), or
    {} when they have not chosen one (the tournament's or their browser's applies)."""
    own = _session_choice()
    return {PARAM: own} if own else {}


def switch() -> None:
    """The language switch, one tap on every page: each language by its own name."""
    st.session_state[_SWITCH] = i18n.current()
    st.segmented_control(_("Language"), list(i18n.LANGUAGES), format_func=i18n.language_name,
                         key=_SWITCH, on_change=_switched, label_visibility="collapsed")


def _switched() -> None:
    code = i18n.known(st.session_state.get(_SWITCH))
    if code:  # tapping the chosen one again clears the control: keep the language
        st.session_state[_CHOSEN] = code
        st.query_params[PARAM] = code
        st.session_state[_NOW] = code
        i18n.use(code)


i18n.resolve_with(_session_now)
