"""Where the tournament stands, for the Home page: its name, the players on the roster and
checked in, the current sitting and the tables still missing a result (R20: as the viewer may
see them), and once the final is in, its podium (R18, R22)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pandas as pd

from stsa.auth import Actor
from stsa.domain import FinalsStatus, Kind, PlayerStatus, Record, Sitting, SittingStatus
from stsa.services import finals
from stsa.services.snapshot import Snapshot


@dataclass(frozen=True, eq=False)
class HomeStatus(Record):
    """Where the tournament stands, for the Home page: its name, the active and checked-in
    players, the current sitting (None before the first draw) and, while it is being played,
    the numbers of its tables still missing a result. `podium`: once the final is in, the
    champion, runner-up and third as (status, nickname), best first (R18; nicknames only,
    R22); empty before."""

    tournament_name: str
    players: int
    checked_in: int
    sitting: Sitting | None
    missing_tables: tuple[int, ...]
    podium: tuple[tuple[FinalsStatus, str], ...] = ()


def home_status(engine, *, actor: Actor | None = None) -> HomeStatus:
    """What happens now: tournament name, players, the current sitting and tables missing
    results, and the podium once the final is in, for the Home page."""
    with Snapshot(engine, actor=actor) as snap:
        return status_of(snap)


def status_of(snap: Snapshot,
              finals_status: Callable[[], pd.DataFrame] | None = None) -> HomeStatus:
    """`home_status` from the frames of `snap` (as its actor may see them). `finals_status`:
    where each player stands in the finals (`services.finals.finals_status`) when the caller
    shares it; asked for only once the final is complete, else worked out from `snap`."""
    roster = snap.players
    sitting = snap.current()
    missing: tuple[int, ...] = ()
    if sitting is not None and sitting.status == SittingStatus.PUBLISHED:
        tables = snap.sitting_tables(sitting.sitting_id)
        missing = tuple(int(t) for t in tables.loc[tables["version"] == 0, "table_no"])
    return HomeStatus(tournament_name=snap.settings.tournament_name,
                      players=int((roster["status"] == PlayerStatus.ACTIVE).sum()),
                      checked_in=int(roster["checked_in"].sum()), sitting=sitting,
                      missing_tables=missing, podium=_podium(snap, finals_status))


def _podium(snap: Snapshot, finals_status: Callable[[], pd.DataFrame] | None
            ) -> tuple[tuple[FinalsStatus, str], ...]:
    """R18: the podium by nickname (R22) once the final is complete; () before."""
    final = snap.latest(Kind.FINAL)
    if final is None or final.status != SittingStatus.COMPLETE:
        return ()
    status = finals_status() if finals_status else finals.finals_status(finals.view_of(snap))
    top = finals.podium(status)
    names = dict(zip(snap.names["player_id"], snap.names["name"].astype(str)))
    return tuple((FinalsStatus(s), names.get(p, str(p)))
                 for p, s in zip(top["player_id"], top["status"]))
