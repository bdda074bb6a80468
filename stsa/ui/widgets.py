"""How pages show things and report actions, the same way everywhere."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any, cast

import pandas as pd
import streamlit as st

from stsa.domain import TournamentError
from stsa.formats import file_names
from stsa.i18n import _

# Characters that start Markdown anywhere in a line (links, emphasis, code, HTML, tables, maths,
# Streamlit's :colour[...] directives); list, quote and heading markers count only at a line's
# start; "http://" and "www." would become links by themselves.
_MARKUP = str.maketrans({c: "\\" + c for c in "\\`*_{}[]<>#|~$!"})
_LINE_START = re.compile(r"(?m)^(\s*(?:\d+)?)([-+>=.)])")
_AUTOLINK = re.compile(r"(?i)(:)(?=//)|(?<=www)(\.)")


def plain(text: Any) -> str:
    """`text` as plain text in any Markdown that Streamlit shows (messages, captions, tables'
    headings): a name full of markup shows as typed, never as a link, HTML or formatting. The
    one helper every page uses for person-entered text, error messages included."""
    escaped = _LINE_START.sub(lambda m: m[1] + "\\" + m[2], str(text).translate(_MARKUP))
    return _AUTOLINK.sub(lambda m: "\\" + m[0], escaped)


def file_name(tournament: str, what: str, extension: str) -> str:
    """A download's file name, the same way on every page: the tournament's name, what the
    file holds and when it was made ("gothcon-qualifiers-2027-standings-2027-03-06-1405.csv"),
    safe whatever the tournament is called (`formats.file_names.download_name`)."""
    return file_names.download_name(tournament, what, extension)


def known_as(players: pd.DataFrame) -> pd.Series:
    """Each player as the staff's choices name them (R22): the name, and the nickname after it
    when it differs ("Ann Lee (Sandrider)"), so a choice box finds a player by either one
    (judges report players by the nickname the table knows)."""
    name, nickname = players["name"].astype(str), players["nickname"].fillna("").astype(str)
    differs = (nickname.str.strip() != "") & (nickname != name)
    return name.where(~differs, name + " (" + nickname + ")")


def labels_of(labels: Mapping[Any, str]) -> Callable[[Any], str]:
    """A choice widget's `format_func`: each option shown by its label (`labels.get`)."""
    return cast("Callable[[Any], str]", labels.get)


def act(action: Callable[[], Any], *, done: str | Callable[[Any], str] | None = None) -> Any:
    """Run a write and say `done`; a `TournamentError` is shown as the message it carries (what
    and where, as plain text: it may quote a name) and changes nothing. Other errors are bugs and
    surface. Nothing is cleared: a write moves the data version, so the next run of every
    session reads what changed (`stsa.ui.data`), and a sign-in leaves the shared reads warm."""
    try:
        result = action()
    except TournamentError as exc:
        st.error(plain(exc), icon=":material/error:")
        return None
    if done:
        st.session_state["_flash"] = done(result) if callable(done) else done
    return result


def flash() -> None:
    """Show the message of the last successful action once (it survives the rerun after it)."""
    message = st.session_state.pop("_flash", None)
    if message:
        st.success(plain(message), icon=":material/check_circle:")
    warning = st.session_state.pop("_flash_warning", None)
    if warning:  # set before this run's language was known: translated here
        st.warning(plain(_(warning)), icon=":material/logout:")
    note = st.session_state.pop("_flash_note", None)
    if note:
        st.info(plain(note), icon=":material/lock:")
