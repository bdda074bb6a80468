"""How pages show things and report actions, the same way everywhere."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import streamlit as st

from stsa.errors import TournamentError
from stsa.ui import data

_MARKDOWN = str.maketrans({c: "\\" + c for c in "\\`*_{}[]()#+-.!|<>~$:"})


def plain(text: Any) -> str:
    """`text` escaped for Markdown, so a name full of markup shows as typed, never as HTML or
    formatting."""
    return str(text).translate(_MARKDOWN)


def act(action: Callable[[], Any], *, done: str | Callable[[Any], str] | None = None) -> Any:
    """Run a write: on success clear the cached reads and say `done`; a `TournamentError` is
    shown as the message it carries (what and where) and changes nothing. Other errors are
    bugs and surface."""
    try:
        result = action()
    except TournamentError as exc:
        st.error(str(exc), icon=":material/error:")
        return None
    data.clear()
    if done:
        st.session_state["_flash"] = done(result) if callable(done) else done
    return result


def flash() -> None:
    """Show the message of the last successful action once (it survives the rerun after it)."""
    message = st.session_state.pop("_flash", None)
    if message:
        st.success(message, icon=":material/check_circle:")
