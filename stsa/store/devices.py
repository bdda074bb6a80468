"""Trusted devices (R20): a browser that signed in before keeps a *device token* (issued only
after a successful sign-in, `sessions.redeem_handoff` or `invites.join`); its wrong PINs are
counted against that device alone (`pause`), so no number of wrong PINs from elsewhere pauses
it. Only the token's hash is stored, in the installation's database, never in a backup.
"""

from __future__ import annotations

import datetime as dt

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from stsa import auth
from stsa.domain import Role
from stsa.store.credentials import plausible_token
from stsa.store.schema import devices as devices_t

DEVICE_DAYS = 365  # a device token is trusted this long after it was issued
#: Trusted devices kept per role; issuing one more stops trusting the least recently used
#: one. Devices are earned only with a right PIN or an invitation, and this bounds how many
#: one person can earn (each brings its own budget of wrong PINs: README, "Security").
DEVICE_LIMIT = {Role.ORGANIZER: 10, Role.JUDGE: 50}


def _device_open(row, now: dt.datetime) -> bool:
    return row.revoked_at is None and now - row.created_at < dt.timedelta(days=DEVICE_DAYS)


def known_device(conn: Connection, device: str | None, now: dt.datetime) -> str | None:
    """The hash of `device` if it is a device token this installation issued and still trusts
    (not revoked, under `DEVICE_DAYS` old), else None."""
    device = plausible_token(device)
    if device is None:
        return None
    key = auth.token_hash(device)
    row = conn.execute(sa.select(devices_t).where(devices_t.c.id_hash == key)).first()
    return key if row is not None and _device_open(row, now) else None



def _make_room(conn: Connection, role: Role, now: dt.datetime, keep: str | None = None) -> None:
    """Forget devices past `DEVICE_DAYS`, and stop trusting the least recently used devices of
    `role` beyond `DEVICE_LIMIT` less one (room for the one about to join it)."""
    conn.execute(sa.delete(devices_t).where(
        devices_t.c.created_at <= now - dt.timedelta(days=DEVICE_DAYS)))
    where = (devices_t.c.role == role.value) & devices_t.c.revoked_at.is_(None)
    if keep is not None:
        where &= devices_t.c.id_hash != keep
    stale = conn.execute(sa.select(devices_t.c.id_hash).where(where)
                         .order_by(devices_t.c.last_used_at.desc(), devices_t.c.id_hash)
                         .offset(DEVICE_LIMIT[role] - 1)).scalars().all()
    if stale:
        conn.execute(sa.update(devices_t).where(devices_t.c.id_hash.in_(stale))
                     .values(revoked_at=now))


def keep_device(conn: Connection, device: str | None, role: Role, now: dt.datetime) -> str:
    """After a successful sign-in as `role`: the device token the browser keeps (R20).
    `device` itself when it is a trusted device (its last use written; one the organizer
    signs in on counts as the organizer's from then on), else a new token issued now, of
    which only the hash is stored."""
    role = Role(role)
    known = known_device(conn, device, now)
    if known is not None:
        values: dict = {"last_used_at": now}
        if role is Role.ORGANIZER:
            _make_room(conn, role, now, keep=known)
            values["role"] = role.value
        conn.execute(sa.update(devices_t).where(devices_t.c.id_hash == known).values(**values))
        assert device is not None  # a known device came with its token
        return device
    token = auth.new_token()
    _make_room(conn, role, now)
    conn.execute(sa.insert(devices_t).values(id_hash=auth.token_hash(token), role=role.value,
                                             created_at=now, last_used_at=now))
    return token



def distrust_devices(conn: Connection, now: dt.datetime) -> int:
    """Stop trusting every device: how many were trusted (`make pins`, issue 33)."""
    trusted = devices_t.c.revoked_at.is_(None) & (
        devices_t.c.created_at > now - dt.timedelta(days=DEVICE_DAYS))
    counted = conn.execute(sa.select(sa.func.count()).select_from(devices_t)
                           .where(trusted)).scalar_one()
    conn.execute(sa.update(devices_t).where(devices_t.c.revoked_at.is_(None))
                 .values(revoked_at=now))
    return int(counted)
