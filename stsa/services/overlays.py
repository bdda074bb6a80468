"""The stream overlays of a tournament (the organizer's, R20, R27): make one (a filmed table,
the standings or what comes next), list them, withdraw one. The role is checked here before
the store checks every value again; an archived tournament takes no new one (R27)."""

from __future__ import annotations

import pandas as pd
from sqlalchemy.engine import Engine

from stsa import store
from stsa.auth import Actor, require
from stsa.domain import Role
from stsa.i18n import N_


def create_overlay(engine: Engine, kind: str, *, table_no: int | None = None,
                   label: str = "", actor: Actor) -> tuple[int, str]:
    """A new overlay of this tournament (organizer only): `kind` "table" (with `table_no`),
    "standings" or "next", `label` which camera or scene. Returns (its id, its token): the
    token is shown once, in the overlay's address."""
    require(actor, Role.ORGANIZER, action=N_("make stream overlays"))
    return store.create_overlay(engine, kind, table_no=table_no, label=label, actor=actor)


def overlays(engine: Engine, *, actor: Actor) -> pd.DataFrame:
    """This tournament's overlays, newest first (organizer only), with no token."""
    require(actor, Role.ORGANIZER, action=N_("see the stream overlays"))
    return store.overlays(engine, actor=actor)


def revoke_overlay(engine: Engine, overlay_id: int, *, actor: Actor) -> bool:
    """Withdraw an overlay (organizer only): its address shows nothing from now on; False when
    it was withdrawn already."""
    require(actor, Role.ORGANIZER, action=N_("withdraw stream overlays"))
    return store.revoke_overlay(engine, overlay_id, actor=actor)


def live_overlays(installation: Engine) -> dict[str, dict]:
    """R26: the stream overlays not withdrawn, by their token's hash (`store.live_overlays`)."""
    return store.live_overlays(installation)
