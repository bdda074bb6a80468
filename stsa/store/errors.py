"""The store's user-fixable errors: each is a `TournamentError`, its message says what and where."""

from __future__ import annotations

from typing import Any

from stsa.auth import PermissionDenied
from stsa.errors import TournamentError

__all__ = ["TournamentError", "PermissionDenied", "ConflictError", "NotFound", "DuplicateName",
           "InvalidState", "CorruptDatabase", "NotABackup"]


class ConflictError(TournamentError):
    """Someone saved first: the write was based on an older version and changed nothing (R19).

    `current` holds what is stored now (a `TableResult` for results), with `rows`, `version`,
    `saved_by` and `saved_at` copied onto the error for convenience.
    """

    def __init__(self, message: str, current=None):
        super().__init__(message)
        self.current = current
        self.rows = getattr(current, "rows", None)
        self.version: Any = getattr(current, "version", None)
        self.saved_by = getattr(current, "saved_by", None)
        self.saved_at = getattr(current, "saved_at", None)


class NotFound(TournamentError):
    """No player, sitting or table with that id."""


class DuplicateName(TournamentError):
    """A player's name matches another's (ignoring case and spaces)."""


class InvalidState(TournamentError):
    """Not possible at this point of the tournament (e.g. redrawing a published sitting)."""


class CorruptDatabase(TournamentError):
    """The database file fails its integrity check or is not an STSA database."""


class NotABackup(TournamentError):
    """A file offered for restore is not an STSA backup."""
