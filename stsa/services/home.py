"""Where the tournament stands, for the Home page: its name, the players on the roster and
checked in, the current sitting and the tables still missing a result (R20: as the viewer may
see them)."""

from __future__ import annotations

from dataclasses import dataclass

from stsa.auth import Actor
from stsa.domain import PlayerStatus, Record, Sitting, SittingStatus
from stsa.services.snapshot import Snapshot


@dataclass(frozen=True, eq=False)
class HomeStatus(Record):
    """Where the tournament stands, for the Home page: its name, the active and checked-in
    players, the current sitting (None before the first draw) and, while it is being played,
    the numbers of its tables still missing a result."""

    tournament_name: str
    players: int
    checked_in: int
    sitting: Sitting | None
    missing_tables: tuple[int, ...]


def home_status(engine, *, actor: Actor | None = None) -> HomeStatus:
    """What happens now: tournament name, players, the current sitting and tables missing
    results, for the Home page."""
    with Snapshot(engine, actor=actor) as snap:
        return status_of(snap)


def status_of(snap: Snapshot) -> HomeStatus:
    """`home_status` from the frames of `snap` (as its actor may see them)."""
    roster = snap.players
    sitting = snap.current()
    missing: tuple[int, ...] = ()
    if sitting is not None and sitting.status == SittingStatus.PUBLISHED:
        tables = snap.sitting_tables(sitting.sitting_id)
        missing = tuple(int(t) for t in tables.loc[tables["version"] == 0, "table_no"])
    return HomeStatus(tournament_name=snap.settings.tournament_name,
                      players=int((roster["status"] == PlayerStatus.ACTIVE).sum()),
                      checked_in=int(roster["checked_in"].sum()), sitting=sitting,
                      missing_tables=missing)
