"""The app's pages and who may open them (R20): one list for the navigation and for links."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import streamlit as st

from stsa.domain import Role

EVERYONE = (Role.SPECTATOR, Role.JUDGE, Role.ORGANIZER)


@dataclass(frozen=True)
class Page:
    path: str
    title: str
    icon: str
    roles: tuple[Role, ...]
    link: str | None = None  # the label of a quick link to it; None = no quick link


PAGES = [
    Page("views/home.py", "Home", ":material/home:", EVERYONE),
    Page("views/player.py", "My seat", ":material/person_pin_circle:", EVERYONE, "My seat"),
    Page("views/standings.py", "Standings", ":material/leaderboard:", EVERYONE, "Standings"),
    Page("views/statistics.py", "Statistics", ":material/bar_chart:", EVERYONE),
    Page("views/schedule.py", "Schedule", ":material/event:", EVERYONE),
    Page("views/tv.py", "TV mode", ":material/tv:", EVERYONE),
    Page("views/tournaments.py", "Tournaments", ":material/trophy:", EVERYONE),
    Page("views/season.py", "Season", ":material/workspace_premium:", EVERYONE),
    Page("views/player_record.py", "Player records", ":material/person_search:", EVERYONE),
    Page("views/draw.py", "Draw", ":material/table_restaurant:", EVERYONE, "Draw"),
    Page("views/results.py", "Results", ":material/edit_note:", EVERYONE, "Results"),
    Page("views/finals.py", "Finals", ":material/emoji_events:", EVERYONE, "Finals"),
    Page("views/roster.py", "Roster", ":material/group:", (Role.ORGANIZER,),
         "Roster and check-in"),
    Page("views/people.py", "Players", ":material/diversity_3:", (Role.ORGANIZER,)),
    Page("views/settings.py", "Settings", ":material/settings:", (Role.ORGANIZER,), "Settings"),
    Page("views/log.py", "Log", ":material/history:", (Role.ORGANIZER,), "Log"),
    Page("views/data.py", "Data", ":material/database:", (Role.ORGANIZER,)),
    Page("views/sign_in.py", "Sign in", ":material/login:", EVERYONE),
]
HOME = PAGES[0].path


def pages(role: Role) -> list[Page]:
    """The pages `role` may open, in navigation order."""
    return [p for p in PAGES if role in p.roles]


def title(path: str) -> str:
    """The title of the page in file `path` ("views/results.py" → "Results")."""
    return next(p.title for p in PAGES if p.path == path)


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
    st.session_state["_flash_note"] = (
        f"The {page.title} page is for the organizer only. The organizer signs in on the "
        f"Sign in page with the organizer PIN.")
    st.switch_page(HOME)


def links(role: Role) -> list[tuple[str, str, str]]:
    """Quick links for `role`: (page, label, icon); spectators also get one to sign in."""
    found = [(p.path, p.link, p.icon) for p in pages(role) if p.link]
    if role is Role.SPECTATOR:
        found.append(("views/sign_in.py", "Sign in", ":material/login:"))
    return found
