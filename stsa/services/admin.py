"""The organizer's housekeeping: the settings as saved (R4, R5, R9, R10, R12), the PINs and
sessions (R20) and backups (R19); the demo is a tournament of its own
(`services.tournaments.try_demo`). Where the tournament stands for the Home
page: `services.home`."""

from __future__ import annotations

from stsa import store
from stsa.auth import Actor, require
from stsa.domain import Role, TournamentError
from stsa.i18n import N_, _, ngettext
from stsa.settings import check as check_setting
from stsa.settings import label as setting_label

# What needs no more checks than the store makes (the organizer's PIN, the role), as it does it.
set_pin = store.set_pin
sign_everyone_out = store.sign_everyone_out
open_sessions = store.open_sessions
backup = store.backup  # the database now, as a file of its own (R19)
restore_backup = store.restore  # a backup back in place of the database, logged (R19)
open_invitations = store.open_invitations
Ended = store.Ended  # what a recovery step ended (sign everyone out, a new PIN, `make pins`)


def ended_words(ended: store.Ended) -> str:
    """What a recovery step ended, in words (issue 33: "Signed out 3 judges. Signed out the
    organizer on 2 phones or computers. Withdrew 1 open invitation."): only what it
    ended, or that there was nothing to end."""
    said = []
    if ended.judges:
        said.append(ngettext("Signed out {count} judge.", "Signed out {count} judges.",
                             ended.judges).format(count=ended.judges))
    if ended.organizer_sessions:
        said.append(ngettext(
            "Signed out the organizer on {count} phone or computer.",
            "Signed out the organizer on {count} phones or computers.",
            ended.organizer_sessions).format(count=ended.organizer_sessions))
    said += withdrawn_words(ended.invitations, ended.devices)
    return " ".join(said) or _("Nobody else was signed in and no invitation was open.")


def withdrawn_words(invitations: int, devices: int) -> list[str]:
    """The invitations withdrawn and the devices no longer trusted by a recovery step, in
    words (none for nothing): its message and its log entry say the same."""
    said = []
    if invitations:
        said.append(ngettext("Withdrew {count} open invitation.",
                             "Withdrew {count} open invitations.",
                             invitations).format(count=invitations))
    if devices:
        said.append(ngettext("Stopped trusting {count} phone or computer that signed in "
                             "before.",
                             "Stopped trusting {count} phones or computers that signed in "
                             "before.", devices).format(count=devices))
    return said


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
