"""Sittings as the pages show them: the current sitting, a sitting's seats with their tables
and setups, the tables where a player sits, and what is still being played (R3, R9, R20).
Draws live in `services.draws`, corrections in `services.corrections`, the seats' capacity and
the waiting list in `services.capacity` (R21)."""

from __future__ import annotations

import pandas as pd

from stsa import store
from stsa.auth import Actor
from stsa.domain import Sitting, SittingStatus, sitting_title
from stsa.i18n import ngettext
from stsa.services import roster, setups
from stsa.services.capacity import waiting_list  # noqa: F401  (the scripting API's name)
from stsa.services.snapshot import Snapshot, current_of


def current_sitting(engine, *, actor: Actor | None = None) -> Sitting | None:
    """The sitting being played or about to be, of those `actor` may see (R20): the latest
    not yet complete, else the latest (`Snapshot.current`)."""
    return current_of(store.sittings(engine, actor=actor))


def sitting_overview(engine, sitting_id: int, *, actor: Actor | None = None) -> pd.DataFrame:
    """R3, R9, R20: one row per seat of a sitting with table, setup name, colour, pick order,
    and whether the table has reported; removed leaders only for judges and the organizer."""
    with Snapshot(engine, actor=actor) as snap:
        return overview_of(snap, sitting_id)


def overview_of(snap: Snapshot, sitting_id: int) -> pd.DataFrame:
    """`sitting_overview` from the frames of `snap` (as its actor may see them)."""
    names = setups.setup_names()
    return snap.sitting_seats(sitting_id).merge(
        snap.sitting_tables(sitting_id)[["table_id", "setup_id", "version", "removed_leaders",
                                         "available_leaders"]],
        on="table_id", how="left",
    ).assign(setup=lambda d: d["setup_id"].map(names), reported=lambda d: d["version"] > 0)


def tables_with_player(overview: pd.DataFrame, query: str) -> pd.DataFrame:
    """The seats of every table where a player's name or nickname (R22) contains `query`
    (any case)."""
    hit = roster.name_matches(overview["name"], query) | roster.name_matches(
        overview["nickname"], query)
    return overview.loc[overview["table_id"].isin(overview.loc[hit, "table_id"])]


def unfinished_warning(sittings: pd.DataFrame) -> str | None:
    """What is still being played: the published sittings with tables waiting for a result, in
    words ("Qualifier 2 is still being played: 3 of 4 tables have no result yet."), or None,
    in the run's language. A new draw needs a confirmation while there is any."""
    open_ = sittings.loc[sittings["status"] == SittingStatus.PUBLISHED]
    if open_.empty:
        return None
    return " ".join(
        ngettext("{sitting} is still being played: {missing} of {tables} has no result yet.",
                 "{sitting} is still being played: {missing} of {tables} have no result yet.",
                 missing).format(
            sitting=sitting_title(kind, number), missing=missing,
            tables=ngettext("{count} table", "{count} tables", tables).format(count=tables))
        for kind, number, tables, missing in zip(
            open_["kind"], open_["number"], open_["tables"], open_["tables"] - open_["results"]))

