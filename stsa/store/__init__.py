"""The database: the only place a tournament lives, and the only module that talks to it.

Use it as `from stsa import store` then `store.submit_table_result(engine, …)`. Every function
takes the engine from `store.connect()` first. Every write takes `actor=` (an
`stsa.auth.Actor`), checks the actor's role (R20), runs as one transaction and appends to the
audit log (R19). Reads return pandas frames ready for `stsa.rules`.

`connect`, `publish_sitting`, `complete_sitting`, `submit_table_result` and `restore` come from
`maintenance`, which adds what the store does by itself (completing finished sittings,
automatic backups) to the database steps of `db`, `draws`, `game_results` and `archive`.
`corrections` voids a published sitting and replaces a no-show; `clock` keeps each
sitting's clock as its actions (R26). `pins` holds the PINs, `pause` the counted PIN check
and its pause on wrong PINs, `devices` the trusted devices, `sessions` sign-in, sessions and
handoff codes (`credentials`, below them all, the stored PIN hashes); `invites` the judges' QR
codes; `schedule` the planned sittings and other
items (R26). The
checks that entry and restore share are in `checks`. Errors a person can fix are
`TournamentError`s: `ConflictError`, `NotFound`, `DuplicateName`, `InvalidState`,
`PermissionDenied`, `CorruptDatabase`, `NotABackup`.
"""

from stsa.store.admin import DEFAULT_SETTINGS, settings, typed_settings
from stsa.store.archive import backup, backups
from stsa.store.audit import data_version, events
from stsa.store.bookings import (
                               bookings,
                               import_bookings,
                               planned_starts,
                               replace_booking,
                               room_code,
                               self_check_in,
                               self_checked_in,
                               undo_self_check_in,
)
from stsa.store.clock import clock_action, clock_actions, clock_state, sitting_seconds
from stsa.store.corrections import leave_seat_empty, replace_player, void_sitting
from stsa.store.db import backup_dir, integrity_check
from stsa.store.db import reading as snapshot
from stsa.store.drafts import Draft, clear_draft, draft, save_draft
from stsa.store.draws import (
                               discard_draw,
                               override_setup,
                               save_draw,
                               set_rule_change,
)
from stsa.store.errors import (
                               ConflictError,
                               CorruptDatabase,
                               DuplicateName,
                               InvalidState,
                               NotABackup,
                               NotFound,
                               PermissionDenied,
                               TournamentError,
)
from stsa.store.game_results import TableResult, results, table_result
from stsa.store.invites import (
                               create_invitation,
                               invitations,
                               join,
                               open_invitations,
                               revoke_invitation,
)
from stsa.store.maintenance import (
                               complete_finished,
                               complete_sitting,
                               connect,
                               publish_sitting,
                               restore,
                               submit_table_result,
)
from stsa.store.overlays import (
                               create_overlay,
                               live_overlays,
                               overlay_of_token,
                               overlays,
                               revoke_overlay,
)
from stsa.store.pause import SignInPaused, lift_pause, make_console_code, sign_in_pause
from stsa.store.people import directory, link_players, merge_people, split_player
from stsa.store.picks import save_vote_off, save_wild_cards, vote_off_votes, wild_card_choices
from stsa.store.pins import PinsReset, check_pin, ensure_pins, reset_pins, set_pin
from stsa.store.roster import (
                               absences,
                               add_player,
                               check_in,
                               clear_check_ins,
                               edit_player,
                               import_players,
                               mark_absent,
                               normalize_name,
                               player,
                               players,
                               remove_player,
                               set_check_ins,
                               withdraw_player,
)
from stsa.store.schedule import (
                               add_schedule_item,
                               delete_schedule_item,
                               last_shift,
                               schedule_items,
                               shift_schedule,
                               undo_shift,
                               update_schedule_item,
)
from stsa.store.schema import SCHEMA_VERSION
from stsa.store.seasons import create_season, rename_season, season, seasons, set_season_points
from stsa.store.sessions import (
                               HANDOFF_SECONDS,
                               SESSION_MAX_HOURS,
                               Ended,
                               Redeemed,
                               SignedIn,
                               handoff,
                               open_sessions,
                               redeem_handoff,
                               session_actor,
                               sign_everyone_out,
                               sign_in,
                               sign_out,
)
from stsa.store.sitting_reads import (
                               SittingRow,
                               seats,
                               setup_counts,
                               sit_outs,
                               sitting,
                               sittings,
                               table_numbers,
                               tables,
                               waiting,
)
from stsa.store.tournaments import (
                               Created,
                               adopt_key,
                               archive_tournament,
                               archived,
                               create_tournament,
                               delete_tournament,
                               follow_name,
                               key_of,
                               links_fixed,
                               open_tournament,
                               reopen_tournament,
                               set_season,
                               set_settings,
                               tournaments,
)
from stsa.store.tournaments import is_empty as tournament_is_empty
from stsa.store.transfer import dump_tournament, load_tournament

__all__ = [
    # engine
    "connect", "integrity_check", "backup_dir", "SCHEMA_VERSION", "data_version", "snapshot",
    # roster
    "add_player", "import_players", "edit_player", "remove_player", "withdraw_player",
    "check_in", "clear_check_ins", "set_check_ins",
    "mark_absent", "players", "player", "absences",
    "normalize_name",
    # sittings
    "save_draw", "discard_draw", "publish_sitting", "complete_sitting", "override_setup",
    "sittings", "sitting", "SittingRow", "tables", "table_numbers", "seats", "sit_outs", "waiting",
    "setup_counts", "set_rule_change",
    # corrections after publishing
    "void_sitting", "replace_player", "leave_seat_empty",
    # results
    "submit_table_result", "results", "table_result", "TableResult",
    # settings, PINs, log
    "settings", "typed_settings", "set_settings", "DEFAULT_SETTINGS",
    # PINs, sign-in and sessions
    "set_pin", "check_pin", "ensure_pins", "reset_pins", "sign_in", "SignedIn", "SignInPaused",
    "session_actor", "sign_out", "sign_everyone_out", "open_sessions",
    "handoff", "redeem_handoff", "Redeemed", "HANDOFF_SECONDS", "SESSION_MAX_HOURS",
    "lift_pause", "sign_in_pause", "make_console_code", "Ended", "PinsReset",
    # judges' invitations (QR codes)
    "create_invitation", "invitations", "revoke_invitation", "join", "open_invitations",
    "create_overlay", "overlays", "revoke_overlay", "overlay_of_token", "live_overlays",
    "events",
    # each sitting's clock (R26)
    "clock_action", "clock_actions", "clock_state", "sitting_seconds",
    # leader picks (R10)
    "save_vote_off", "vote_off_votes", "save_wild_cards", "wild_card_choices",
    # a judge's unsaved entry for a table
    "Draft", "save_draft", "draft", "clear_draft",
    # the schedule (R26)
    "schedule_items", "add_schedule_item", "update_schedule_item", "delete_schedule_item",
    "shift_schedule", "last_shift", "undo_shift",
    # backups
    "backup", "backups", "restore",
    # booking lists per qualifier sitting and self check-in (R25)
    "bookings", "import_bookings", "planned_starts", "replace_booking", "room_code",
    "self_check_in", "self_checked_in", "undo_self_check_in",
    # whole tournaments (the workbook export and restore)
    "dump_tournament", "load_tournament",
    # several tournaments in one installation (R27)
    "tournaments", "open_tournament", "complete_finished", "create_tournament", "Created",
    "archive_tournament", "reopen_tournament", "archived", "delete_tournament", "set_season",
    "tournament_is_empty", "links_fixed", "follow_name", "adopt_key",
    "key_of",
    # seasons and the player directory (R27)
    "create_season", "seasons", "season", "set_season_points", "rename_season",
    "directory", "link_players", "merge_people", "split_player",
    # errors
    "TournamentError", "ConflictError", "NotFound", "DuplicateName", "InvalidState",
    "PermissionDenied", "CorruptDatabase", "NotABackup",
]
