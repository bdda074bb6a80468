"""Booking lists per qualifier sitting and self check-in with the room's code (R25).

A booking list belongs to a planned qualifier sitting by its number (qualifier 3), drawn or
not yet. Importing one replaces that sitting's list in one transaction, with any new players
it brings, and logs what changed. After the check-in deadline the organizer may give a booked
but missing player's seat to a waiting player (`replace_booking`): the booking stays, the
replacement takes its priority.

Self check-in: a player checks in on My seat with the room's code. Every try is counted
*before* the code is checked, in the same transaction, in the table the sign-in back-off uses
(`sign_in_failures`, marked as a code try so it never pauses PIN sign-in), and removed again
only when the code was right: per address (`auth.CODE_CLIENT_BACKOFF`) and for the whole
installation together (`auth.CODE_INSTALLATION_BACKOFF`).
"""

from __future__ import annotations

import datetime as dt
import secrets

import pandas as pd
import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from stsa import auth
from stsa.auth import Actor, require
from stsa.domain import Action, PlayerStatus, Role, TournamentError, is_whole
from stsa.i18n import N_, _, ngettext
from stsa.store import audit, db, frames, roster
from stsa.store.errors import InvalidState, NotFound
from stsa.store.pause import SignInPaused
from stsa.store.schema import bookings as bookings_t
from stsa.store.schema import installation_keys as keys_t
from stsa.store.schema import players as players_t
from stsa.store.schema import schedule_items as items_t
from stsa.store.schema import sign_in_failures as failures_t

BOOKING_COLUMNS = {"sitting_number": "int64", "player_id": "int64", "position": "int64",
                   "booked_at": frames.UTC_TIME, "replaced_by": "Int64", "imported_by": "str",
                   "imported_at": frames.UTC_TIME, "withdrawn": "bool"}
CODE_TRY = "room-code"  # `sign_in_failures.device` of a wrong room code (never a device hash)
ROOM_KEY = "room_code"
_LOCK_KEY = 0x53544332  # PostgreSQL advisory lock: one code check at a time
MOST_PER_LIST = 2000
SELF = Actor("My seat", Role.SPECTATOR)  # who the log names for a player's own check-in


def bookings(engine: Engine | Connection, sitting_number: int | None = None) -> pd.DataFrame:
    """R25: the booking lists, `sitting_number, player_id, position, booked_at, replaced_by,
    imported_by, imported_at` and `withdrawn` (the booked player's), by sitting and position
    (one sitting's with `sitting_number`)."""
    q = (sa.select(bookings_t, (players_t.c.status == PlayerStatus.WITHDRAWN.value)
                   .label("withdrawn"))
         .join(players_t, players_t.c.id == bookings_t.c.player_id)
         .order_by(bookings_t.c.sitting_number, bookings_t.c.position))
    if sitting_number is not None:
        q = q.where(bookings_t.c.sitting_number == int(sitting_number))
    with db.reading(engine) as conn:
        rows = [dict(r._mapping) for r in conn.execute(q)]
    return frames.frame(rows, BOOKING_COLUMNS)


def _check_number(sitting_number) -> int:
    if not is_whole(sitting_number) or not 1 <= sitting_number <= 1000:
        raise TournamentError(_("A booking list is for a qualifier sitting 1, 2, …, not "
                                "{number}.").format(number=repr(sitting_number)))
    return int(sitting_number)


def import_bookings(engine: Engine, sitting_number: int, booked: list[dict], *,
                    new_players: list[dict] | None = None, actor: Actor) -> dict:
    """R25: the booking list of qualifier `sitting_number`, replacing any it had, in one
    transaction with the players it adds (organizer only, R20; logged, R19).

    `booked` is in booking order; each entry has `player_id` (a player on the roster) or
    `new` (an index into `new_players`, roster entries as `import_players` takes them), and
    optional `booked_at`. A player booked twice, an unknown or withdrawn player refuses the
    whole list. Returns {"added", "removed", "moved": [player ids], "new_players": [ids]}."""
    require(actor, Role.ORGANIZER, action=N_("import booking lists"))
    number = _check_number(sitting_number)
    if len(booked) > MOST_PER_LIST:
        raise TournamentError(_("A booking list holds at most {count} players.").format(
            count=MOST_PER_LIST))
    clean = (roster._entries(new_players, [_("the new player {player}").format(
        player=e.get("name", "")) for e in new_players])
             if new_players else [])

    def work(conn: Connection) -> dict:
        made = [p["player_id"] for p in roster.insert_players(conn, clean, actor)] if clean \
            else []
        ids = [int(e["player_id"]) if e.get("player_id") is not None else made[int(e["new"])]
               for e in booked]
        if len(set(ids)) != len(ids):
            raise TournamentError(_("Nothing was imported: a player is booked twice."))
        found = {r.id: r for r in conn.execute(
            sa.select(players_t.c.id, players_t.c.name, players_t.c.status)
            .where(players_t.c.id.in_(ids)))}
        missing = sorted(set(ids) - set(found))
        if missing:
            raise NotFound(_("No player with id {ids}.").format(ids=", ".join(map(str, missing))))
        gone = [found[i].name for i in ids if found[i].status == PlayerStatus.WITHDRAWN]
        if gone:
            raise InvalidState(_("Nothing was imported: withdrawn players cannot be booked "
                                 "({players}).").format(players=", ".join(gone)))
        old = {r.player_id: r.position for r in conn.execute(
            sa.select(bookings_t.c.player_id, bookings_t.c.position)
            .where(bookings_t.c.sitting_number == number))}
        at = db.now()
        conn.execute(sa.delete(bookings_t).where(bookings_t.c.sitting_number == number))
        if ids:
            conn.execute(sa.insert(bookings_t), [
                {"sitting_number": number, "player_id": pid, "position": i,
                 "booked_at": _utc(entry.get("booked_at")), "replaced_by": None,
                 "imported_by": actor.name, "imported_at": at}
                for i, (pid, entry) in enumerate(zip(ids, booked), start=1)])
        new = {pid: i for i, pid in enumerate(ids, start=1)}
        change = {"added": [p for p in ids if p not in old],
                  "removed": sorted(p for p in old if p not in new),
                  "moved": [p for p in ids if p in old and old[p] != new[p]]}
        audit.log(conn, actor, Action.BOOKINGS_IMPORT, f"qualifier {number}",
                  before={"player_ids": sorted(old, key=old.__getitem__)} if old else None,
                  after={"player_ids": ids, **change}, at=at)
        return {**change, "new_players": made}

    return db.write(engine, work)


def _utc(value) -> dt.datetime | None:
    if value is None or pd.isna(value):
        return None
    when = pd.Timestamp(value)
    return (when.tz_localize("UTC") if when.tzinfo is None else when.tz_convert("UTC")
            ).to_pydatetime()


def replace_booking(engine: Engine, sitting_number: int, player_id: int,
                    replacement_id: int | None, *, actor: Actor) -> None:
    """R25: after the check-in deadline, the organizer gives booked player `player_id`'s seat
    in qualifier `sitting_number` to waiting player `replacement_id` (None takes it back). The
    booking stays; the replacement takes its place in the booking order for this sitting.
    Organizer only; logged."""
    require(actor, Role.ORGANIZER, action=N_("give booked seats to waiting players"))
    number = _check_number(sitting_number)

    def work(conn: Connection) -> None:
        row = conn.execute(sa.select(bookings_t).where(
            bookings_t.c.sitting_number == number,
            bookings_t.c.player_id == int(player_id)).with_for_update()).first()
        if row is None:
            raise NotFound(_("Player {player} is not booked for qualifier {number}.").format(
                player=player_id, number=number))
        if replacement_id is not None:
            if int(replacement_id) == int(player_id):
                raise TournamentError(_("A booked player cannot replace themselves."))
            if conn.execute(sa.select(players_t.c.id).where(
                    players_t.c.id == int(replacement_id))).first() is None:
                raise NotFound(_("No player with id {ids}.").format(ids=replacement_id))
        conn.execute(sa.update(bookings_t).where(
            bookings_t.c.sitting_number == number, bookings_t.c.player_id == int(player_id))
            .values(replaced_by=None if replacement_id is None else int(replacement_id)))
        audit.log(conn, actor, Action.BOOKING_REPLACE, f"qualifier {number}",
                  before={"player_id": int(player_id), "replaced_by": row.replaced_by},
                  after={"player_id": int(player_id), "replaced_by": replacement_id})

    db.write(engine, work)


# -- the room's code ---------------------------------------------------------------------------
def _key(conn: Connection) -> str:
    value = conn.execute(sa.select(keys_t.c.value).where(keys_t.c.name == ROOM_KEY)).scalar()
    if value is None:
        value = secrets.token_hex(32)
        conn.execute(sa.insert(keys_t).values(name=ROOM_KEY, value=value, created_at=db.now()))
    return value


def room_code(engine: Engine, at: dt.datetime | None = None) -> str:
    """R25: the room's check-in code now (or at `at`), from this installation's random key
    (made on first use; never in a backup or workbook)."""
    inst = db.installation(engine)  # the installation's key (R27)
    with db.reading(inst) as conn:
        value = conn.execute(sa.select(keys_t.c.value)
                             .where(keys_t.c.name == ROOM_KEY)).scalar()
    if value is None:
        value = db.write(inst, _key)
    when = at or db.now()
    return auth.room_code(value, auth.code_slot(when.timestamp()))


def _code_wait(conn: Connection, client: str, now: dt.datetime) -> float:
    since = now - dt.timedelta(seconds=auth.CODE_INSTALLATION_BACKOFF.window_seconds)
    rows = conn.execute(sa.select(failures_t.c.client, failures_t.c.at).where(
        failures_t.c.device == CODE_TRY, failures_t.c.at > since)).all()
    at = now.timestamp()
    everyone = [r.at.timestamp() for r in rows]
    mine = [r.at.timestamp() for r in rows if r.client == client]
    return max(auth.CODE_CLIENT_BACKOFF.wait(mine, at),
               auth.CODE_INSTALLATION_BACKOFF.wait(everyone, at))


def self_check_in(engine: Engine, player_id: int, code: str, *, client: str) -> bool:
    """R25: player `player_id` checks in on My seat with the room's `code` from `client` (an
    address, counted under `auth.client_key`). A try is recorded before the code is checked
    and kept when it is wrong; while wrong tries make codes wait, `SignInPaused` says how long.
    Returns False for a wrong code (nothing checked in); True once checked in (already
    checked in is fine). Logged. Whether check-in is open now is the caller's rule."""
    client = auth.client_key(client)

    def work(conn: Connection) -> tuple[bool, float]:
        if not db.is_sqlite(conn):
            conn.execute(sa.text("SELECT pg_advisory_xact_lock(:k)"), {"k": _LOCK_KEY})
        now = db.now()
        wait = _code_wait(conn, client, now)
        if wait > 0:
            return False, wait
        row = conn.execute(sa.select(players_t.c.id, players_t.c.status,
                                     players_t.c.checked_in)
                           .where(players_t.c.id == int(player_id))).first()
        if row is None:
            raise NotFound(_("No player with id {ids}.").format(ids=player_id))
        if row.status == PlayerStatus.WITHDRAWN:
            raise InvalidState(_("A withdrawn player cannot check in."))
        failure = conn.execute(sa.insert(failures_t).values(
            client=client, device=CODE_TRY, at=now)).inserted_primary_key[0]  # type: ignore[index]
        if not auth.room_code_matches(_key(conn), code, now.timestamp()):
            return False, 0.0
        conn.execute(sa.delete(failures_t).where(failures_t.c.id == failure))
        if not row.checked_in:
            conn.execute(sa.update(players_t).where(players_t.c.id == row.id).values(
                checked_in=True, checked_in_at=now, self_check_in=True))
            audit.log(conn, SELF,
                      Action.PLAYER_SELF_CHECK_IN, f"player {row.id}",
                      after={"player_ids": [row.id]}, at=now)
        return True, 0.0

    ok, wait = db.write(engine, work)
    if wait > 0:
        whole = int(wait) + 1
        if whole < 120:
            said = ngettext("Too many wrong codes: try again in {count} second, or check in "
                            "with the organizer.", "Too many wrong codes: try again in {count} "
                            "seconds, or check in with the organizer.", whole).format(count=whole)
        else:
            minutes = (whole + 59) // 60
            said = ngettext("Too many wrong codes: try again in {count} minute, or check in "
                            "with the organizer.", "Too many wrong codes: try again in {count} "
                            "minutes, or check in with the organizer.", minutes).format(
                count=minutes)
        raise SignInPaused(said, wait)
    return ok


def undo_self_check_in(engine: Engine, player_id: int, *, actor: Actor) -> bool:
    """R25: the organizer undoes a player's check-in on My seat (the player is checked out).
    Returns False when the player had not checked themselves in. Logged."""
    require(actor, Role.ORGANIZER, action=N_("check players in"))

    def work(conn: Connection) -> bool:
        row = conn.execute(sa.select(players_t.c.id, players_t.c.self_check_in)
                           .where(players_t.c.id == int(player_id)).with_for_update()).first()
        if row is None:
            raise NotFound(_("No player with id {ids}.").format(ids=player_id))
        if not row.self_check_in:
            return False
        conn.execute(sa.update(players_t).where(players_t.c.id == row.id).values(
            checked_in=False, checked_in_at=None, self_check_in=False))
        audit.log(conn, actor, Action.PLAYER_SELF_CHECK_IN_UNDO, f"player {row.id}",
                  before={"player_ids": [row.id]})
        return True

    return db.write(engine, work)


def self_checked_in(engine: Engine) -> list[int]:
    """The players checked in now who checked themselves in (R25)."""
    with db.reading(engine) as conn:
        return list(conn.execute(sa.select(players_t.c.id).where(
            players_t.c.self_check_in == sa.true(), players_t.c.checked_in == sa.true())
            .order_by(players_t.c.id)).scalars())


def planned_starts(engine: Engine | Connection) -> pd.DataFrame:
    """The planned start of each qualifier sitting on the schedule (R25, R26):
    `sitting_number, starts_at`, by number."""
    q = (sa.select(items_t.c.sitting_number, items_t.c.starts_at)
         .where(items_t.c.sitting_kind == "qualifier").order_by(items_t.c.sitting_number))
    with db.reading(engine) as conn:
        rows = [dict(r._mapping) for r in conn.execute(q)]
    return frames.frame(rows, {"sitting_number": "int64", "starts_at": frames.UTC_TIME})
