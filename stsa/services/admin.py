"""The organizer's housekeeping: the settings as saved (R4, R5, R9, R10, R12), the PINs and
sessions (R20) and backups (R19); the demo is a tournament of its own
(`services.tournaments.try_demo`). Where the tournament stands for the Home
page: `services.home`."""

from __future__ import annotations

from stsa import store
from stsa.auth import Actor, require
from stsa.domain import Role, TournamentError
from stsa.i18n import N_, _
from stsa.settings import check as check_setting
from stsa.settings import label as setting_label

# What needs no more checks than the store makes (the organizer's PIN, the role), as it does it.
set_pin = store.set_pin
sign_everyone_out = store.sign_everyone_out
open_sessions = store.open_sessions
backup = store.backup  # the database now, as a file of its own (R19)
restore_backup = store.restore  # a backup back in place of the database, logged (R19)


# --- settings ---------------------------------------------------------------------------------

def settings_changes(current: dict, wanted: dict) -> dict:
    """The settings in `wanted` that differ from `current` (what `store.set_settings` gets)."""
    return {k: v for k, v in wanted.items() if current.get(k) != v}


def save_settings(engine, wanted: dict, *, actor: Actor) -> dict:
    """Save the settings of `wanted` that differ from the stored ones, after every check of
    `stsa.settings` (the colours differ ignoring case, R4 …), each problem named by the
    setting's label; the store checks each value again. Returns the changes saved ({} when
    nothing changed)."""
    require(actor, Role.ORGANIZER, action=N_("change settings"))
    problems = []
    for key, value in wanted.items():
        try:
            check_setting(key, value)
        except TournamentError as exc:
            problems.append(_("{setting} {problem}").format(
                setting=setting_label(key), problem=str(exc).removeprefix(key + " ")))
    if problems:
        raise TournamentError(_("{problems}. Nothing was saved.").format(
            problems="; ".join(problems)))
    changes = settings_changes(store.settings(engine), wanted)
    if changes:
        store.set_settings(engine, changes, actor=actor)
    return changes
