"""The tournament's settings as the organizer saves them (R4, R5, R9, R10, R12), the PINs and
sessions (R20), and where the tournament stands for the Home page."""

from __future__ import annotations

from stsa import store
from stsa.auth import Actor, Role, require
from stsa.domain import PlayerStatus, SittingStatus
from stsa.errors import TournamentError
from stsa.services.snapshot import Snapshot

# What needs no more checks than the store makes (the organizer's PIN, the role), as it does it.
set_pin = store.set_pin
sign_everyone_out = store.sign_everyone_out
open_sessions = store.open_sessions


# --- settings ---------------------------------------------------------------------------------

def colour_problem(colours: list[str]) -> str | None:
    """Why these colours cannot be saved (R4): one left blank, or two the same ignoring case
    and spaces; None if they can."""
    clean = [" ".join(str(c).split()) for c in colours]
    if any(not c for c in clean):
        return "Colours: fill in all four colours."
    keys = [c.casefold() for c in clean]
    for later, key in enumerate(keys):
        if key in keys[:later]:
            return (f"Colours: colour {keys.index(key) + 1} and colour {later + 1} are both "
                    f"“{clean[later]}”; choose {len(clean)} different colours.")
    return None


def settings_changes(current: dict, wanted: dict) -> dict:
    """The settings in `wanted` that differ from `current` (what `store.set_settings` gets)."""
    return {k: v for k, v in wanted.items() if current.get(k) != v}


def save_settings(engine, wanted: dict, *, actor: Actor) -> dict:
    """Save the settings of `wanted` that differ from the stored ones, after every check: the
    colours differ ignoring case (R4), then the store checks each value. Returns the changes
    saved ({} when nothing changed)."""
    require(actor, Role.ORGANIZER, action="change settings")
    if "colours" in wanted:
        problem = colour_problem(wanted["colours"])
        if problem:
            raise TournamentError(f"{problem} Nothing was saved.")
    changes = settings_changes(store.settings(engine), wanted)
    if changes:
        store.set_settings(engine, changes, actor=actor)
    return changes


# --- Home -------------------------------------------------------------------------------------

def home_status(engine, *, actor: Actor | None = None) -> dict:
    """What happens now: tournament name, players, the current sitting and tables missing
    results, for the Home page."""
    with Snapshot(engine, actor=actor) as snap:
        return status_of(snap)


def status_of(snap: Snapshot) -> dict:
    """`home_status` from the frames of `snap` (as its actor may see them)."""
    roster = snap.players
    sitting = snap.current()
    status = {"tournament_name": snap.settings["tournament_name"],
              "players": int((roster["status"] == PlayerStatus.ACTIVE).sum()),
              "checked_in": int(roster["checked_in"].sum()),
              "sitting": sitting, "missing_tables": []}
    if sitting is not None and sitting["status"] == SittingStatus.PUBLISHED:
        tables = snap.sitting_tables(int(sitting["sitting_id"]))
        status["missing_tables"] = tables.loc[tables["version"] == 0, "table_no"].tolist()
    return status
