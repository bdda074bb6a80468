"""The tournament's settings as the pages read and set them one at a time (R4, R5, R7, R9,
R10, R12, R23): the whole settings form is `stsa.services.admin.save_settings`. The role is
checked here before the store checks every value again."""

from __future__ import annotations

from typing import Any

from sqlalchemy.engine import Engine

from stsa import store
from stsa.auth import Actor, require
from stsa.domain import Role
from stsa.i18n import N_
from stsa.settings import Settings


def settings(engine: Engine) -> Settings:
    """Every setting, typed: the organizer's values over the defaults
    (`store.typed_settings`)."""
    return store.typed_settings(engine)


def set_public_url(engine: Engine, url: str, *, actor: Actor) -> dict[str, Any]:
    """The address judges' phones use to reach STSA on the venue's network, which QR codes
    open ("" for the browser's own). Organizer only (R20); returns the settings changed."""
    require(actor, Role.ORGANIZER, action=N_("change settings"))
    return store.set_settings(engine, {"public_url": url}, actor=actor)
