"""Schema upgrades (R19): a database made by an earlier STSA is brought up to date, never
rebuilt. Each step brings a database from version n-1 to n (`MIGRATIONS`, {n: step}); version 1
is the base. `stsa.store.db.open_engine` runs `upgrade` in its write transaction."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from stsa.domain import TournamentError
from stsa.i18n import _
from stsa.store import schema
from stsa.store.errors import CorruptDatabase

_MIGRATION_LOCK_KEY = 0x53545341  # "STSA": PostgreSQL advisory lock held while upgrading


def _start_data_version(conn: Connection, at: dt.datetime) -> None:
    conn.execute(sa.insert(schema.data_version).values(id=1, version=1))


def _add_access_tables(conn: Connection, at: dt.datetime) -> None:
    """Version 2: sessions and failed sign-ins live in the database, not in a process's memory
    (any client can clear Streamlit's caches), and so does the data version that derived tables
    are cached by; Vote Off votes and Wild Card choices get tables of their own (R10). Signed
    tokens of version 1 stop working."""
    for table in (schema.sessions, schema.sign_in_failures, schema.data_version,
                  schema.leader_votes, schema.wild_cards):
        table.create(conn)
    _start_data_version(conn, at)


def _add_event_day_columns(conn: Connection, at: dt.datetime) -> None:
    """Version 3: nicknames (R22; each player's starts as their name), registration order and
    check-in time (R21; players checked in before the upgrade count from the upgrade), a
    sitting's rule change (R24) and the waiting list (R21)."""
    players, sittings = schema.players, schema.sittings
    for table, column in ((players, players.c.nickname), (players, players.c.nickname_key),
                          (players, players.c.registration_order),
                          (players, players.c.checked_in_at),
                          (sittings, sittings.c.rule_change),
                          (sittings, sittings.c.rule_change_points)):
        kind = column.type.compile(dialect=conn.dialect)
        null = "" if column.nullable else " NOT NULL"
        default = "" if column.server_default is None else (
            " DEFAULT ''" if column.name in ("nickname", "rule_change", "rule_change_points")
            else "")
        conn.exec_driver_sql(f"ALTER TABLE {table.name} ADD COLUMN {column.name} {kind}"
                             f"{null}{default}")
    conn.execute(sa.update(players).values(nickname=players.c.name,
                                           nickname_key=players.c.name_key))
    conn.execute(sa.update(players).where(players.c.checked_in).values(checked_in_at=at))
    # the name create_all gives the column's unique constraint (schema's naming convention)
    conn.exec_driver_sql("CREATE UNIQUE INDEX uq_players_nickname_key ON players (nickname_key)")
    schema.waiting.create(conn)


def _add_devices_and_invitations(conn: Connection, at: dt.datetime) -> None:
    """Version 4 (R20): trusted devices, judges' invitations and handoff codes get tables;
    sessions name the invitation they came from, and wrong PINs the trusted device they came
    from. A column or index is added only where missing: version 2 creates `sessions` and
    `sign_in_failures` from today's declaration, which already has them."""
    for table in (schema.devices, schema.invitations, schema.handoffs):
        table.create(conn)
    inspector = sa.inspect(conn)
    for table, column in ((schema.sessions, schema.sessions.c.invitation_id),
                          (schema.sign_in_failures, schema.sign_in_failures.c.device)):
        if column.name not in {c["name"] for c in inspector.get_columns(table.name)}:
            kind = column.type.compile(dialect=conn.dialect)
            conn.exec_driver_sql(f"ALTER TABLE {table.name} ADD COLUMN {column.name} {kind}")
        index = f"ix_{table.name}_{column.name}"  # the name create_all gives it
        if index not in {i["name"] for i in inspector.get_indexes(table.name)}:
            conn.exec_driver_sql(f"CREATE INDEX {index} ON {table.name} ({column.name})")


def _add_result_drafts(conn: Connection, at: dt.datetime) -> None:
    """Version 5 (R19): a judge's unsaved entry for a table is kept in the database, so a
    reload, Back or a lost connection finds it again."""
    schema.result_drafts.create(conn)


def _add_schedule_clock_and_bookings(conn: Connection, at: dt.datetime) -> None:
    """Version 6: the schedule and each sitting's clock (R26), the booking lists of qualifier
    sittings and who checked in on My seat (R25), and the installation's keys."""
    for table in (schema.schedule_items, schema.clock_actions, schema.bookings,
                  schema.installation_keys):
        table.create(conn)
    column = schema.players.c.self_check_in
    kind = column.type.compile(dialect=conn.dialect)
    default = "0" if conn.dialect.name == "sqlite" else "false"
    conn.exec_driver_sql(f"ALTER TABLE players ADD COLUMN self_check_in {kind} NOT NULL "
                         f"DEFAULT {default}")


def _add_tournaments(conn: Connection, at: dt.datetime) -> None:
    """Version 7 (R27): the installation's tournaments, seasons and player directory, each
    tournament's archived state, and the tournament of a judge's session and invitation. The
    tournament this database already holds becomes the first in the list, with nothing moved:
    `stsa.store.tournaments.register_own` names it once the upgrade is done."""
    for table in (schema.seasons, schema.tournaments, schema.directory,
                  schema.tournament_state):
        table.create(conn)
    _start_tournament_state(conn, at)
    inspector = sa.inspect(conn)
    for table in (schema.sessions, schema.invitations):  # made by version 2 or 4 from today's
        if "tournament_id" not in {c["name"] for c in inspector.get_columns(table.name)}:
            conn.exec_driver_sql(f"ALTER TABLE {table.name} ADD COLUMN tournament_id INTEGER")


def _add_overlays(conn: Connection, at: dt.datetime) -> None:
    """Version 8: stream overlays, each a token's hash and what it shows."""
    schema.overlays.create(conn)


def _start_tournament_state(conn: Connection, at: dt.datetime) -> None:
    conn.execute(sa.insert(schema.tournament_state).values(id=1))


MIGRATIONS: dict[int, Callable[[Connection, dt.datetime], None]] = {
    2: _add_access_tables, 3: _add_event_day_columns, 4: _add_devices_and_invitations,
    5: _add_result_drafts, 6: _add_schedule_clock_and_bookings, 7: _add_tournaments,
    8: _add_overlays}


def upgrade(conn: Connection, *, at: dt.datetime) -> int:
    """Create the schema in an empty database or bring an older one up to date, in the write
    transaction of `conn` (`stsa.store.db.open_engine`), with an advisory lock on PostgreSQL so
    two app instances starting at once cannot both upgrade; returns the version. `at` is when
    (the upgrade's rows record it). Refuses a database made by a newer STSA."""
    target = schema.SCHEMA_VERSION
    if conn.dialect.name != "sqlite":
        conn.execute(sa.text("SELECT pg_advisory_xact_lock(:k)"), {"k": _MIGRATION_LOCK_KEY})
    names = set(sa.inspect(conn).get_table_names())
    if "schema_version" not in names:
        ours = names & set(schema.metadata.tables)
        if ours:
            raise CorruptDatabase(_(
                "{database} has tables named like STSA's ({tables}) but no schema version: it "
                "is not an STSA database.").format(
                    database=conn.engine.url.render_as_string(hide_password=True),
                    tables=", ".join(sorted(ours))))
        schema.metadata.create_all(conn)
        _start_data_version(conn, at)
        _start_tournament_state(conn, at)
        conn.execute(sa.insert(schema.schema_version).values(version=target, applied_at=at))
        return target
    current = conn.execute(sa.select(sa.func.max(schema.schema_version.c.version))).scalar()
    if current is None:
        raise CorruptDatabase(_("The database has an empty schema_version table."))
    if current > target:
        raise TournamentError(_(
            "This database was made by a newer STSA (schema version {version}; this one knows "
            "up to {known}). Update STSA to open it.").format(version=current, known=target))
    for version in range(current + 1, target + 1):
        MIGRATIONS[version](conn, at)
        conn.execute(sa.insert(schema.schema_version).values(version=version,
                                                             applied_at=at))
    return target
