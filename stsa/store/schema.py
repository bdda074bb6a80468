"""The database schema, declared once (SQLAlchemy Core), and its version.

Version 1 is the first schema; version 2 adds sign-in sessions, failed sign-ins, the data
version, and the Vote Off votes and Wild Card choices of each table; version 3 adds players'
nicknames (R22), registration order and check-in time (R21), a sitting's rule change (R24) and
the waiting list of a drawn sitting (R21); version 4 adds trusted devices, judges' invitations
and the one-time codes that hand a session to a browser, and marks which wrong PINs came from
a trusted device and which session came from an invitation (R20); version 5 adds judges'
unsaved result entries (R19); version 6 adds the schedule and each sitting's clock (R26), the
booking lists of qualifier sittings, players who checked themselves in (R25) and the
installation's keys; version 7 (R27) adds the installation's list of tournaments and seasons,
the player directory, whether a tournament is archived, and which tournament a judge's session
and invitation belong to. A change to
the tables below bumps `SCHEMA_VERSION` and adds a step to `stsa.store.migrations.MIGRATIONS` that
brings a version-(n-1) database to version n, so tournament files made by earlier releases keep
opening.
"""

from __future__ import annotations

import datetime as dt

import sqlalchemy as sa
from sqlalchemy import (
    BigInteger,
    Boolean,
    CheckConstraint,
    Column,
    ForeignKey,
    ForeignKeyConstraint,
    Index,
    Integer,
    String,
    Table,
    Text,
    UniqueConstraint,
)

from stsa.domain import Kind, PlayerStatus, SittingStatus

SCHEMA_VERSION = 8

# The stored words are the domain's (str enums equal to their values).
KINDS = tuple(k.value for k in Kind)
SITTING_STATUSES = tuple(s.value for s in SittingStatus)
PLAYER_STATUSES = tuple(s.value for s in PlayerStatus)


class UTCDateTime(sa.types.TypeDecorator):
    """Timezone-aware UTC datetimes, stored naive in UTC on every engine."""

    impl = sa.DateTime
    cache_ok = True

    def process_bind_param(self, value, dialect):
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to a UTC column")
        return value.astimezone(dt.UTC).replace(tzinfo=None)

    def process_result_value(self, value, dialect):
        if value is None:
            return None
        if isinstance(value, str):  # a backup copied by another tool
            value = dt.datetime.fromisoformat(value)
        return value.replace(tzinfo=dt.UTC)


metadata = sa.MetaData(naming_convention={
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_N_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
})


def _in(column: str, values: tuple[str, ...]) -> str:
    return f"{column} IN ({', '.join(repr(v) for v in values)})"


schema_version = Table(
    "schema_version", metadata,
    Column("version", Integer, primary_key=True, autoincrement=False),
    Column("applied_at", UTCDateTime, nullable=False),
)

players = Table(
    "players", metadata,
    Column("id", Integer, primary_key=True),
    Column("name", String(100), nullable=False),
    # casefolded, spaces collapsed: "  ann  LEE" and "Ann Lee" are the same player
    Column("name_key", String(100), nullable=False, unique=True),
    Column("club", String(100), nullable=False, server_default=""),
    Column("email", String(254), nullable=False, server_default=""),
    Column("extra", Text, nullable=False, server_default="{}"),  # JSON object
    Column("status", String(16), nullable=False, server_default=PlayerStatus.ACTIVE.value),
    Column("checked_in", Boolean, nullable=False, server_default=sa.false()),
    # R22: what spectators see; by default the name. Unique like names (its key casefolded).
    Column("nickname", String(100), nullable=False, server_default=""),
    Column("nickname_key", String(100), unique=True),
    # R21: 1, 2, … for pre-registered players in registration order; NULL for a drop-in
    Column("registration_order", Integer),
    Column("checked_in_at", UTCDateTime),  # R21: drop-ins take seats in check-in order
    # R25: checked in on My seat with the room's code (the organizer sees and may undo it)
    Column("self_check_in", Boolean, nullable=False, server_default=sa.false()),
    Column("created_by", String(100), nullable=False),
    Column("created_at", UTCDateTime, nullable=False),
    CheckConstraint(_in("status", PLAYER_STATUSES), name="status"),
    sqlite_autoincrement=True,  # ids are never reused: the log names players by id
)

sittings = Table(
    "sittings", metadata,
    Column("id", Integer, primary_key=True),
    Column("kind", String(16), nullable=False),
    Column("number", Integer, nullable=False),  # 1, 2, … within its kind
    Column("seed", String(40), nullable=False),  # the draw's seed (any size of int), R3
    Column("status", String(16), nullable=False),
    Column("created_by", String(100), nullable=False),
    Column("created_at", UTCDateTime, nullable=False),
    Column("published_at", UTCDateTime),
    Column("completed_at", UTCDateTime),
    # R24: a named rule change for this sitting and how its extra (variant) points are earned
    Column("rule_change", String(100), nullable=False, server_default=""),
    Column("rule_change_points", Text, nullable=False, server_default=""),
    UniqueConstraint("kind", "number"),
    CheckConstraint(_in("kind", KINDS), name="kind"),
    CheckConstraint(_in("status", SITTING_STATUSES), name="status"),
    sqlite_autoincrement=True,
)

# One row per table of a sitting; its id is the game id of the results frames.
tables = Table(
    "tables", metadata,
    Column("id", Integer, primary_key=True),
    Column("sitting_id", ForeignKey("sittings.id", ondelete="CASCADE"), nullable=False),
    Column("table_no", Integer, nullable=False),
    Column("setup_id", String(100), nullable=False),
    Column("removed_leaders", Text, nullable=False, server_default="[]"),  # JSON list, R9
    Column("available_leaders", Text, nullable=False, server_default="[]"),  # JSON list
    Column("setup_override", Boolean, nullable=False, server_default=sa.false()),  # R6
    Column("result_version", Integer, nullable=False, server_default="0"),  # 0 = no result
    UniqueConstraint("sitting_id", "table_no"),
    CheckConstraint("result_version >= 0", name="result_version"),
    sqlite_autoincrement=True,
)

sit_outs = Table(  # R1: a checked-in player the draw chose to sit this sitting out
    "sit_outs", metadata,
    Column("sitting_id", ForeignKey("sittings.id", ondelete="CASCADE"), primary_key=True),
    Column("player_id", ForeignKey("players.id"), primary_key=True),
)

waiting = Table(  # R21: checked-in players a drawn sitting had no seat for, in queue order
    "waiting", metadata,
    Column("sitting_id", ForeignKey("sittings.id", ondelete="CASCADE"), primary_key=True),
    Column("player_id", ForeignKey("players.id"), primary_key=True),
    Column("position", Integer, nullable=False),  # 1 = next in line
    CheckConstraint("position >= 1", name="position"),
)

seats = Table(
    "seats", metadata,
    Column("table_id", ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True, autoincrement=False),  # 1 = first player, R3
    Column("sitting_id", ForeignKey("sittings.id", ondelete="CASCADE"), nullable=False),
    Column("player_id", ForeignKey("players.id"), nullable=False),
    Column("colour", String(32), nullable=False),
    Column("pick_order", Integer, nullable=False),  # R9: 1 picks first
    UniqueConstraint("table_id", "player_id"),
    UniqueConstraint("sitting_id", "player_id"),  # one seat per player per sitting
    CheckConstraint("seat >= 1", name="seat"),
    Index(None, "player_id"),
)

results = Table(  # the current version of each table's result, one row per player (R13)
    "results", metadata,
    Column("table_id", Integer, primary_key=True, autoincrement=False),
    Column("player_id", Integer, primary_key=True, autoincrement=False),
    Column("seat", Integer, nullable=False),
    Column("leader", String(100), nullable=False),
    Column("vp", Integer, nullable=False),
    Column("spice", Integer, nullable=False),
    Column("solari", Integer, nullable=False),
    Column("troops", Integer, nullable=False),
    Column("water", Integer, nullable=False),
    Column("variant_points", Integer, nullable=False, server_default="0"),
    Column("tiebreak", Integer),  # a judge's settled order among tied players, R11
    Column("version", Integer, nullable=False),
    Column("saved_by", String(100), nullable=False),
    Column("saved_at", UTCDateTime, nullable=False),
    Column("submission_id", String(100)),
    ForeignKeyConstraint(["table_id", "player_id"], ["seats.table_id", "seats.player_id"],
                         name="fk_results_seat"),
    CheckConstraint("vp >= 0 AND spice >= 0 AND solari >= 0 AND troops >= 0 AND water >= 0",
                    name="counts"),
    CheckConstraint("version >= 1", name="version"),
    Index(None, "player_id"),
)

leader_votes = Table(  # R10 Vote Off: each player's secret votes at a table (hidden, R20)
    "leader_votes", metadata,
    Column("table_id", ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
    Column("player_id", ForeignKey("players.id"), primary_key=True),
    Column("leader", String(100), primary_key=True),
    Column("entered_by", String(100), nullable=False),
    Column("entered_at", UTCDateTime, nullable=False),
)

wild_cards = Table(  # R10 Wild Card: each player's choice after picks and the leader it gave
    "wild_cards", metadata,
    Column("table_id", ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
    Column("player_id", ForeignKey("players.id"), primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("picked_leader", String(100), nullable=False),
    Column("swapped", Boolean, nullable=False),
    Column("leader", String(100), nullable=False),
    Column("entered_by", String(100), nullable=False),
    Column("entered_at", UTCDateTime, nullable=False),
)

result_drafts = Table(  # R19: a judge's unsaved entry for a table, theirs only; gone on save
    "result_drafts", metadata,
    Column("table_id", ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
    Column("judge", String(100), primary_key=True),  # the name the judge signed in with
    Column("role", String(16), nullable=False),
    Column("base_version", Integer, nullable=False),  # the result version it was typed over
    Column("seating", Text, nullable=False),  # JSON {seat: player_id} the form showed
    Column("rows", Text, nullable=False),  # JSON: each player's leader and numbers, blanks null
    Column("saved_at", UTCDateTime, nullable=False),
)

schedule_items = Table(  # R26: the tournament's plan: its sittings and other items, in time
    "schedule_items", metadata,
    Column("id", Integer, primary_key=True),
    Column("title", String(100), nullable=False),  # "Lunch"; a sitting's is its own name
    # a planned sitting (qualifier 3, the final) whether drawn yet or not; NULL for other items
    Column("sitting_kind", String(16)),
    Column("sitting_number", Integer),
    Column("starts_at", UTCDateTime, nullable=False),
    Column("minutes", Integer, nullable=False),
    Column("updated_by", String(100), nullable=False),
    Column("updated_at", UTCDateTime, nullable=False),
    UniqueConstraint("sitting_kind", "sitting_number"),
    CheckConstraint("minutes >= 1", name="minutes"),
    CheckConstraint(f"(sitting_kind IS NULL AND sitting_number IS NULL) OR "
                    f"({_in('sitting_kind', KINDS)} AND sitting_number >= 1)", name="sitting"),
    Index(None, "starts_at"),
    sqlite_autoincrement=True,
)

#: R26: what a sitting's clock can be told; its state is these actions folded in order.
CLOCK_ACTIONS = ("start", "pause", "resume", "extend", "extend_table", "call")

clock_actions = Table(  # R26: append-only, like the log: the clock is read from its actions
    "clock_actions", metadata,
    Column("id", BigInteger().with_variant(Integer, "sqlite"), primary_key=True),
    Column("sitting_id", ForeignKey("sittings.id", ondelete="CASCADE"), nullable=False),
    Column("action", String(16), nullable=False),
    Column("table_no", Integer),  # extend_table: the one table given more time
    Column("seconds", Integer, nullable=False, server_default="0"),  # extend: how much more
    Column("reason", String(200), nullable=False, server_default=""),
    Column("at", UTCDateTime, nullable=False),
    Column("actor", String(100), nullable=False),
    CheckConstraint(_in("action", CLOCK_ACTIONS), name="action"),
    CheckConstraint("seconds >= 0", name="seconds"),
    Index(None, "sitting_id"),
    sqlite_autoincrement=True,
)

bookings = Table(  # R25: who booked a planned qualifier sitting, in booking order
    "bookings", metadata,
    Column("sitting_number", Integer, primary_key=True, autoincrement=False),  # qualifier N
    Column("player_id", ForeignKey("players.id"), primary_key=True),
    Column("position", Integer, nullable=False),  # 1 = booked first
    Column("booked_at", UTCDateTime),  # the booking time, when the list gives one
    Column("imported_by", String(100), nullable=False),
    Column("imported_at", UTCDateTime, nullable=False),
    # after the check-in deadline: the waiting player the organizer confirmed for this seat
    Column("replaced_by", ForeignKey("players.id")),
    UniqueConstraint("sitting_number", "position"),
    CheckConstraint("position >= 1 AND sitting_number >= 1", name="position"),
    Index(None, "player_id"),
)

absences = Table(  # R17
    "absences", metadata,
    Column("stage", String(16), primary_key=True),
    Column("player_id", ForeignKey("players.id"), primary_key=True),
    Column("marked_by", String(100), nullable=False),
    Column("marked_at", UTCDateTime, nullable=False),
)

settings = Table(
    "settings", metadata,
    Column("key", String(64), primary_key=True),
    Column("value", Text, nullable=False),  # JSON
    Column("updated_by", String(100), nullable=False),
    Column("updated_at", UTCDateTime, nullable=False),
)

users = Table(  # one PIN per role
    "users", metadata,
    Column("role", String(16), primary_key=True),
    Column("pin_hash", String(200), nullable=False),
    Column("updated_by", String(100), nullable=False),
    Column("updated_at", UTCDateTime, nullable=False),
)

sessions = Table(  # one row per sign-in; only the hash of the random session id is stored
    "sessions", metadata,
    Column("id_hash", String(64), primary_key=True),
    Column("actor", String(100), nullable=False),
    Column("role", String(16), nullable=False),
    Column("client", String(100), nullable=False),
    Column("created_at", UTCDateTime, nullable=False),
    Column("last_seen_at", UTCDateTime, nullable=False),
    Column("revoked_at", UTCDateTime),
    Column("revoked_by", String(100)),
    Column("invitation_id", Integer),  # the invitation a judge signed in with (R20), if any
    Column("tournament_id", Integer),  # R27: a judge's tournament (NULL: the organizer's)
    Index(None, "role"),
    Index(None, "invitation_id"),
)

devices = Table(  # R20: browsers that signed in before; only the hash of the random token
    "devices", metadata,
    Column("id_hash", String(64), primary_key=True),
    Column("role", String(16), nullable=False),  # of the session that earned it
    Column("created_at", UTCDateTime, nullable=False),
    Column("last_used_at", UTCDateTime, nullable=False),
    Column("revoked_at", UTCDateTime),
    Index(None, "role"),
)

invitations = Table(  # R20: a judge signs in by scanning a QR code; only the token's hash
    "invitations", metadata,
    Column("id", Integer, primary_key=True),
    Column("token_hash", String(64), nullable=False, unique=True),
    Column("name", String(100), nullable=False),  # the judge's name, for the log
    Column("role", String(16), nullable=False, server_default="judge"),
    Column("created_by", String(100), nullable=False),
    Column("created_at", UTCDateTime, nullable=False),
    Column("expires_at", UTCDateTime, nullable=False),
    Column("revoked_at", UTCDateTime),
    Column("uses", Integer, nullable=False, server_default="0"),
    Column("tournament_id", Integer),  # R27: the tournament it lets a judge into
    CheckConstraint("role = 'judge'", name="role"),
    CheckConstraint("uses >= 0", name="uses"),
    sqlite_autoincrement=True,
)

handoffs = Table(  # R20: one-time codes for a session; the id sealed with a key from the code
    "handoffs", metadata,
    Column("code_hash", String(64), primary_key=True),
    Column("session_hash", String(64), nullable=False),
    Column("sealed", String(400), nullable=False),  # hex
    Column("created_at", UTCDateTime, nullable=False),
    Column("expires_at", UTCDateTime, nullable=False),
    Index(None, "expires_at"),
)

installation_keys = Table(  # random keys of this installation (the room's check-in code)
    "installation_keys", metadata,
    Column("name", String(32), primary_key=True),
    Column("value", String(200), nullable=False),
    Column("created_at", UTCDateTime, nullable=False),
)

# -- R27: the installation's tournaments (only the installation's database uses these) -------
tournaments = Table(  # where each tournament lives; its name, venue and dates are its settings
    "tournaments", metadata,
    Column("id", Integer, primary_key=True),
    Column("key", String(64), nullable=False, unique=True),  # in addresses: ?t=gothcon-2026
    Column("location", String(200), nullable=False),  # "" = this database; else its own
    Column("season_id", ForeignKey("seasons.id")),
    Column("demo", Boolean, nullable=False, server_default=sa.false()),  # deleted in one click
    Column("created_by", String(100), nullable=False),
    Column("created_at", UTCDateTime, nullable=False),
    Column("deleted_at", UTCDateTime),  # deleted: its backup stays, the list no longer shows it
    sqlite_autoincrement=True,
)

seasons = Table(
    "seasons", metadata,
    Column("id", Integer, primary_key=True),
    Column("name", String(200), nullable=False, unique=True),
    Column("points", Text),  # JSON {final rank: points}, or NULL: the default standing
    Column("created_by", String(100), nullable=False),
    Column("created_at", UTCDateTime, nullable=False),
    sqlite_autoincrement=True,
)

directory = Table(  # the player directory: which person each tournament's player is
    "directory", metadata,
    Column("tournament_id", Integer, primary_key=True, autoincrement=False),
    Column("player_id", Integer, primary_key=True, autoincrement=False),
    Column("person_id", Integer, nullable=False),
    Index(None, "person_id"),
)

overlays = Table(  # stream overlays: a page per filmed table (and others); the token's hash
    "overlays", metadata,
    Column("id", Integer, primary_key=True),
    Column("token_hash", String(64), nullable=False, unique=True),
    Column("tournament_id", Integer, nullable=False),
    Column("kind", String(16), nullable=False),  # table | standings | next
    Column("table_no", Integer),  # the filmed table (kind table), in the sitting being played
    Column("label", String(100), nullable=False, server_default=""),
    Column("created_by", String(100), nullable=False),
    Column("created_at", UTCDateTime, nullable=False),
    Column("revoked_at", UTCDateTime),
    CheckConstraint("kind IN ('table', 'standings', 'next')", name="kind"),
    CheckConstraint("(kind = 'table') = (table_no IS NOT NULL)", name="table_no"),
    sqlite_autoincrement=True,
)

tournament_state = Table(  # one row in every tournament's database: archived or not
    "tournament_state", metadata,
    Column("id", Integer, primary_key=True, autoincrement=False),
    Column("archived_at", UTCDateTime),
    Column("archived_by", String(100)),
    CheckConstraint("id = 1", name="one_row"),
)

data_version = Table(  # one row: the restore epoch of the data version (db.data_version)
    "data_version", metadata,
    Column("id", Integer, primary_key=True, autoincrement=False),
    Column("version", BigInteger, nullable=False),
    CheckConstraint("id = 1", name="one_row"),
)

sign_in_failures = Table(  # a wrong PIN, recorded before the PIN is checked (and kept if wrong)
    "sign_in_failures", metadata,
    Column("id", Integer, primary_key=True),
    Column("client", String(100), nullable=False),
    Column("at", UTCDateTime, nullable=False),
    Column("device", String(64)),  # the trusted device's hash (counted on its own), or NULL
    Index(None, "client"),
    Index(None, "at"),
    Index(None, "device"),
    sqlite_autoincrement=True,
)

events = Table(  # append-only audit log, R19: nothing in STSA updates or deletes a row here
    "events", metadata,
    Column("id", BigInteger().with_variant(Integer, "sqlite"), primary_key=True),
    Column("at", UTCDateTime, nullable=False),
    Column("actor", String(100), nullable=False),
    Column("role", String(16), nullable=False),
    Column("action", String(64), nullable=False),
    Column("subject", String(200), nullable=False),
    Column("before", Text),  # JSON or NULL
    Column("after", Text),  # JSON or NULL
    Index(None, "action"),
    Index(None, "subject"),
    sqlite_autoincrement=True,
)

submissions = Table(  # idempotency: one row per accepted result submission
    "submissions", metadata,
    Column("submission_id", String(100), primary_key=True),
    Column("table_id", ForeignKey("tables.id"), nullable=False),
    Column("version", Integer, nullable=False),
    Column("outcome", Text, nullable=False),  # JSON: the rows as saved
    Column("saved_by", String(100), nullable=False),
    Column("saved_at", UTCDateTime, nullable=False),
    Index(None, "table_id"),
)

# Parents before children: the order to copy rows in (restore) and the reverse to delete them.
TABLE_ORDER = [schema_version, players, sittings, tables, sit_outs, waiting, seats, results,
               leader_votes, wild_cards, result_drafts, absences, schedule_items, clock_actions,
               bookings, settings, users, sessions, sign_in_failures, devices, invitations,
               handoffs, installation_keys, data_version, events, submissions, seasons,
               tournaments, directory, tournament_state]

#: Who may get in: PIN hashes, sessions, failed sign-ins, trusted devices, invitations and
#: handoff codes belong to this installation. No backup, workbook or restore carries them.
ACCESS_TABLES = (users, sessions, sign_in_failures, devices, invitations, handoffs,
                 installation_keys, overlays)
#: What belongs to this installation and is never replaced by a restore: the access tables,
#: the data version, which only ever goes up (derived tables are cached by it), and the
#: judges' unsaved entries (a restore's tables take theirs with them).
INSTALLATION_TABLES = (*ACCESS_TABLES, data_version, result_drafts, seasons, tournaments,
                       directory, tournament_state)


#: Tables whose ids are generated by the database (PostgreSQL sequences to advance on restore).
ID_TABLES = (players, sittings, tables, events, schedule_items, clock_actions)
