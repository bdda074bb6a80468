"""The app's pages and who may open them (R20): one list for the navigation and for links."""

from __future__ import annotations

import copy
from dataclasses import dataclass
from pathlib import Path

import streamlit as st

from stsa import i18n
from stsa.domain import Role
from stsa.i18n import N_, _

EVERYONE = (Role.SPECTATOR, Role.JUDGE, Role.ORGANIZER)


@dataclass(frozen=True)
class Page:
    path: str
    title: str  # in English (marked): `_(page.title)` where it is shown
    icon: str
    roles: tuple[Role, ...]
    link: str | None = None  # the label of a quick link to it; None = no quick link


PAGES = [
    Page("views/home.py", N_("Home"), ":material/home:", EVERYONE),
    Page("views/player.py", N_("My seat"), ":material/person_pin_circle:", EVERYONE,
         N_("My seat")),
    Page("views/standings.py", N_("Standings"), ":material/leaderboard:", EVERYONE,
         N_("Standings")),
    Page("views/statistics.py", N_("Statistics"), ":material/bar_chart:", EVERYONE),
    Page("views/schedule.py", N_("Schedule"), ":material/event:", EVERYONE),
    Page("views/tv.py", N_("TV mode"), ":material/tv:", EVERYONE),
    Page("views/tournaments.py", N_("Tournaments"), ":material/trophy:", EVERYONE),
    Page("views/season.py", N_("Season"), ":material/workspace_premium:", EVERYONE),
    Page("views/player_record.py", N_("Player records"), ":material/person_search:", EVERYONE),
    Page("views/draw.py", N_("Draw"), ":material/table_restaurant:", EVERYONE, N_("Draw")),
    Page("views/results.py", N_("Results"), ":material/edit_note:", EVERYONE, N_("Results")),
    Page("views/finals.py", N_("Finals"), ":material/emoji_events:", EVERYONE, N_("Finals")),
    Page("views/roster.py", N_("Roster"), ":material/group:", (Role.ORGANIZER,),
         N_("Roster and check-in")),
    Page("views/people.py", N_("Players"), ":material/diversity_3:", (Role.ORGANIZER,)),
    Page("views/settings.py", N_("Settings"), ":material/settings:", (Role.ORGANIZER,),
         N_("Settings")),
    Page("views/log.py", N_("Log"), ":material/history:", (Role.ORGANIZER,), N_("Log")),
    Page("views/data.py", N_("Data"), ":material/database:", (Role.ORGANIZER,)),
    Page("views/sign_in.py", N_("Sign in"), ":material/login:", EVERYONE),
]
HOME = PAGES[0].path
# Pages for a screen no one touches (a projector): app.py draws no language switch on them
# (the address's `?lang=` chooses their language).
NO_CONTROLS = frozenset({"tv"})


def pages(role: Role) -> list[Page]:
    """The pages `role` may open, in navigation order."""
    return [p for p in PAGES if role in p.roles]


def title(path: str) -> str:
    """The title of the page in file `path` ("views/results.py" → "Results"), in this run's
    language."""
    return _(next(p.title for p in PAGES if p.path == path))


_made: dict[tuple[str, str, bool], st.Page] = {}


def _page(page: Page, *, default: bool = False, hidden: bool = False) -> st.Page:
    """`st.Page` of `page` (its title in this run's language): made once per language and
    copied for each run. Making one looks its file up on disk, and every run of every page
    builds the navigation; each run gets its own copy, since a run marks the page it runs."""
    key = (page.path, i18n.current(), hidden)
    made = _made.get(key)
    if made is None:
        made = _made[key] = (st.Page(page.path, title=title(page.path), visibility="hidden")
                             if hidden else st.Page(page.path, title=title(page.path),
                                                    icon=page.icon, default=page.path == HOME))
    return copy.copy(made)


def navigation_pages(role: Role) -> tuple[list[st.Page], dict[str, Page]]:
    """What `st.navigation` gets for `role` (R20): the pages it may open, in order, then the
    pages it may not, hidden (their address reaches `refuse` instead of Streamlit's silent
    fallback to Home); and those closed ones by their address."""
    shut = {url_path(p): p for p in closed(role)}
    return [_page(p) for p in pages(role)] + [_page(p, hidden=True) for p in shut.values()], \
        shut


def closed(role: Role) -> list[Page]:
    """The pages `role` may not open: registered hidden, so their address reaches `refuse`
    instead of Streamlit's silent fallback to Home."""
    return [p for p in PAGES if role not in p.roles]


def url_path(page: Page) -> str:
    """The page's address, as Streamlit derives it from the file name ("roster")."""
    return Path(page.path).stem


def refuse(page: Page) -> None:
    """Someone opened a page that is not for them (R20): go Home, which says why. The page
    itself never runs."""
    st.session_state["_flash_note"] = _(
        "The {page} page is for the organizer only. The organizer signs in on the Sign in "
        "page with the organizer PIN.").format(page=_(page.title))
    st.switch_page(HOME)


def links(role: Role) -> list[tuple[str, str, str]]:
    """Quick links for `role`: (page, label, icon), labels in this run's language; spectators
    also get one to sign in."""
    found = [(p.path, _(p.link), p.icon) for p in pages(role) if p.link]
    if role is Role.SPECTATOR:
        found.append(("views/sign_in.py", _("Sign in"), ":material/login:"))
    return found
