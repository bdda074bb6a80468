"""Cached reads for the pages. Reads are shared by every session for a few seconds, so fifty
phones watching the standings do not mean fifty queries a tick; every write clears them."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from stsa import catalog, stats, store
from stsa.auth import Actor, Role
from stsa.domain import Kind
from stsa.services import admin, results, setups
from stsa.services import sittings as sitting_service
from stsa.services import finals as finals_service
from stsa.store.db import SYSTEM
from stsa.ui import session

TTL = 5  # seconds


def _view(role: Role) -> Actor | None:
    """Reads take the role's view (R20): judges and organizer see hidden things, others not."""
    return SYSTEM if role in (Role.ORGANIZER, Role.JUDGE) else None


@st.cache_data(ttl=TTL, show_spinner=False)
def settings(url: str) -> dict:
    return store.settings(session.engine())


@st.cache_data(ttl=TTL, show_spinner=False)
def players(url: str, role: Role) -> pd.DataFrame:
    return store.players(session.engine(), actor=_view(role))


@st.cache_data(ttl=TTL, show_spinner=False)
def standings(url: str) -> pd.DataFrame:
    return results.standings_table(session.engine(), scored_results(url))


@st.cache_data(ttl=TTL, show_spinner=False)
def scored_results(url: str, kind: Kind | None = Kind.QUALIFIER) -> pd.DataFrame:
    return results.scored_results(session.engine(), kind)


@st.cache_data(ttl=TTL, show_spinner=False)
def sittings(url: str, role: Role) -> pd.DataFrame:
    return store.sittings(session.engine(), actor=_view(role))


@st.cache_data(ttl=TTL, show_spinner=False)
def sitting_overview(url: str, sitting_id: int, role: Role) -> pd.DataFrame:
    return sitting_service.sitting_overview(session.engine(), sitting_id, actor=_view(role))


@st.cache_data(ttl=TTL, show_spinner=False)
def home_status(url: str, role: Role) -> dict:
    return admin.home_status(session.engine(), actor=_view(role))


@st.cache_data(ttl=TTL, show_spinner=False)
def enabled_setups(url: str) -> pd.DataFrame:
    return setups.enabled_setups(session.engine())


def clear() -> None:
    """After a write: every session reads fresh data on its next run."""
    st.cache_data.clear()


@st.cache_data(ttl=TTL, show_spinner=False)
def finals(url: str) -> finals_service.Finals:
    """R16–R18 as they stand. It holds unpublished finals sittings: pages show those to judges
    and the organizer only (R20)."""
    return finals_service.finals(session.engine())


@st.cache_data(ttl=TTL, show_spinner=False)
def events(url: str, role: Role, action: str | None = None, by: str | None = None,
           subject: str | None = None, limit: int | None = None) -> pd.DataFrame:
    """The audit log, oldest first (R19); judges and the organizer only (R20)."""
    return store.events(session.engine(), actor=_view(role), action=action, by=by,
                        subject=subject, limit=limit)


@st.cache_data(ttl=TTL, show_spinner=False)
def sit_outs(url: str, sitting_id: int, role: Role) -> pd.DataFrame:
    """R1: who the draw chose to sit a sitting out (unpublished draws: judges/organizer only)."""
    return store.sit_outs(session.engine(), sitting_id, actor=_view(role))


@st.cache_data(ttl=TTL, show_spinner=False)
def table(url: str, table_id: int, role: Role) -> pd.DataFrame:
    """One table (a `store.tables` row) as `role` may see it (R20); empty if there is none."""
    return store.tables(session.engine(), table_id=int(table_id), actor=_view(role))


@st.cache_data(ttl=TTL, show_spinner=False)
def backups(url: str) -> pd.DataFrame:
    """The backup files, newest first (`store.backups`); the Data page is organizer only."""
    return store.backups(session.engine())


@st.cache_data(ttl=TTL, show_spinner=False)
def qualifier_tables(url: str) -> pd.DataFrame:
    """Tables of the published qualifier sittings, as everyone sees them (R6, R20)."""
    return store.tables(session.engine(), kind=Kind.QUALIFIER)


@st.cache_data(ttl=TTL, show_spinner=False)
def statistics(url: str) -> dict:
    """The Statistics and TV pages' aggregated frames (`stsa.stats`), shared by every viewer:
    `ranked, cut, spread, leaders, seats, setups`."""
    table, scored = standings(url), scored_results(url)
    every = catalog.setups(battle_of_wills=True)
    return {"ranked": stats.ranked_scores(table), "cut": stats.cut(table),
            "spread": stats.score_spread(scored), "leaders": stats.leader_stats(scored, every),
            "seats": stats.seat_stats(scored),
            "setups": stats.setup_usage(qualifier_tables(url), setups.setup_names(), every)}
