"""The installation's tournaments (R27): one STSA holds any number, each in a database of its
own, so every store function keeps its arguments and sees one tournament.

- The installation's database (`STSA_DATABASE_URL`) holds the list (`tournaments`), the
  seasons, the player directory, the organizer's PIN, every session and every wrong PIN. The
  tournament it held before version 7 stays in it, with nothing moved (its `location` is "").
- Every other tournament lives beside it: on SQLite a file in the `tournaments` folder next to
  the installation's file, on PostgreSQL a schema `stsa_t<id>` of the same database. Each has
  the whole schema, its own log, data version, settings and backups folder.

A tournament's name, venue and days are its settings (a restore carries them); the list keeps
where it lives, its address key, its season, and whether it is the demo. The key follows the
name until the tournament is public (`links_fixed`), then stays; a restore keeps the key its
workbook records (`adopt_key`). Archived is kept in
the tournament's own database (`tournament_state`), so the check that refuses a write to it
runs in that write's own transaction (`audit.log`).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd
import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from stsa import settings as settings_rules
from stsa.auth import Actor, require
from stsa.domain import Action, Role, SittingStatus, TournamentError
from stsa.i18n import N_, _
from stsa.store import admin, archive, audit, db, frames, schema
from stsa.store.errors import InvalidState, NotFound

t = schema.tournaments
KEY_MAX = 40
FOLDER = "tournaments"  # beside the installation's SQLite file
LIST_COLUMNS = {"tournament_id": "int64", "key": "str", "location": "str",
                "season_id": "Int64", "demo": "bool", "created_at": frames.UTC_TIME}
#: Settings a new tournament never copies from an earlier one: its own facts and its address.
OWN_SETTINGS = ("tournament_name", "venue", "starts_on", "ends_on", "self_check_in_open",
                "public_url")


@dataclass(frozen=True)
class Created:
    """A new tournament: its id and address key, and its judges' PIN (shown once)."""

    tournament_id: int
    key: str
    judge_pin: str


def key_of(name: str) -> str:
    """The address key a tournament's name gives ("GothCon 2026" → "gothcon-2026")."""
    text = unicodedata.normalize("NFKD", str(name)).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:KEY_MAX].strip("-")
    return slug or "tournament"


def _unique_key(conn: Connection, wanted: str, *, but: int | None = None,
                files: bool = False) -> str:
    """`wanted`, or `wanted-2`, `-3` … : a key no other listed tournament has or had (deleted
    ones keep theirs: their backups are in its folder); with `files`, nor names the file of
    (a renamed tournament keeps its file; a new one's is named by its key). `but`: the
    tournament asking, whose own key is free to it."""
    rows = conn.execute(sa.select(t.c.id, t.c.key, t.c.location)).all()
    prefix = f"{FOLDER}/"
    taken = {r.key for r in rows if r.id != but} | ({
        r.location[len(prefix):-3] for r in rows
        if r.id != but and r.location.startswith(prefix) and r.location.endswith(".db")}
        if files else set())
    key, n = wanted, 2
    while key in taken:
        key, n = f"{wanted[:KEY_MAX - 4]}-{n}", n + 1
    return key


# -- the key follows the name until the tournament is public (R27) -----------------------------
def links_fixed(engine: Engine) -> bool:
    """R27: whether this tournament's address key (its feed, calendar and page links, the
    results zip's folder, its backups folder) is fixed for good. It is, from the first of: a
    sitting published (results come after), a schedule item planned (the public Schedule page
    and its calendar links show it), a judge invited or a stream overlay made. Removing the
    item or withdrawing the invitation or overlay later leaves it fixed: the links are out.
    Before that, a rename moves the key to the new name's (`follow_name`)."""
    tid = db.tournament_id(engine)
    inst = db.installation(engine)
    with db.reading(engine) as conn:
        if any(conn.execute(query.limit(1)).first() for query in (
                sa.select(sa.literal(1)).where(
                    schema.sittings.c.status != SittingStatus.DRAWN.value),
                sa.select(sa.literal(1)).select_from(schema.schedule_items),
                sa.select(sa.literal(1)).where(schema.events.c.action.in_(
                    [Action.SITTING_PUBLISH.value, Action.SCHEDULE_ADD.value])))):
            return True
    mine_i = schema.invitations.c.tournament_id == tid
    if engine is inst:  # before version 7 the own tournament's invitations named none
        mine_i = sa.or_(mine_i, schema.invitations.c.tournament_id.is_(None))
    with db.reading(inst) as conn:
        return any(conn.execute(query.limit(1)).first() for query in (
            sa.select(sa.literal(1)).where(mine_i),
            sa.select(sa.literal(1)).where(schema.overlays.c.tournament_id == tid)))


def set_settings(engine: Engine, changes: dict[str, Any], *, actor: Actor,
                 keep_key: bool = False) -> dict[str, Any]:
    """Change settings (`admin.set_settings`: R19, R20). A new `tournament_name` moves the
    tournament's address key to the name's while nothing of it is public (R27,
    `follow_name`); not with `keep_key`, as a restore names it. Returns all settings."""
    changed = admin.set_settings(engine, changes, actor=actor)
    if "tournament_name" in changed and not keep_key:
        follow_name(engine, changed["tournament_name"], actor=actor)
    return admin.settings(engine)


def follow_name(engine: Engine, name: str, *, actor: Actor) -> str | None:
    """R27: after a rename of this tournament to `name`, its key becomes the name's
    (`key_of`, made unique) unless its links are fixed (`links_fixed`). Logged in the
    installation's log; its backups folder moves with it. Returns the new key, or None when
    it stays."""
    if db.tournament_id(engine) is None or links_fixed(engine):
        return None
    return _set_key(engine, key_of(name), actor=actor)


def adopt_key(engine: Engine, wanted: str, *, actor: Actor) -> str:
    """R19, R27: a restored tournament takes the key its workbook records (`wanted`, made a
    key by `key_of`), so its links are the ones people have. An EMPTY tournament here whose
    links are not fixed (a fresh installation's first one) holds no promise: it gives the key
    up and takes the key with a number. Held by any other tournament, the restored one gets
    the number (`-2` …) instead. Part of the restore, whose own `tournament.restore` event
    stands for it: not logged apart (the restored log is the workbook's, plus that event).
    Returns the key it has now."""
    tid = db.tournament_id(engine)
    if tid is None:
        raise InvalidState(_("Open the tournament with store.connect to change its key."))
    key, inst = key_of(wanted), db.installation(engine)
    with db.reading(inst) as conn:
        holder = conn.execute(sa.select(t.c.id).where(
            t.c.key == key, t.c.id != tid, t.c.deleted_at.is_(None))).scalar()
    if holder is not None:
        other = open_tournament_row(inst, int(holder))
        try:
            if is_empty(other) and not links_fixed(other):
                _set_key(other, key, actor=actor, numbered=True, logged=False)
        finally:
            if other is not inst and other is not engine:
                other.dispose()
    return _set_key(engine, key, actor=actor, logged=False) or find(engine, tid)["key"]


def _set_key(engine: Engine, wanted: str, *, actor: Actor, numbered: bool = False,
             logged: bool = True) -> str | None:
    """The tournament's key made `wanted` (unique among the others'; `numbered`: the first
    numbered one, `wanted-2` …, giving `wanted` up), `logged` in the installation's log;
    None when it stays."""
    tid = int(db.tournament_id(engine))  # type: ignore[arg-type]
    inst = db.installation(engine)

    def work(conn: Connection) -> tuple[str, str, str] | None:
        row = conn.execute(sa.select(t).where(t.c.id == tid)).first()
        if row is None:
            return None
        key = _unique_key(conn, wanted, but=None if numbered else tid)
        if key == row.key:
            return None
        conn.execute(sa.update(t).where(t.c.id == tid).values(key=key))
        if logged:
            audit.log(conn, actor, Action.TOURNAMENT_KEY, f"tournament {tid}",
                      before={"key": row.key}, after={"key": key})
        else:  # the list's readers (every page) see the new key at once
            audit.new_epoch(conn)
        return row.key, key, row.location

    moved = db.write(inst, work)
    if moved is None:
        return None
    old, key, location = moved
    if location != "" and engine is not inst:  # the own tournament's backups are the install's
        _move_backups(engine, inst, old, key)
    return key


def _move_backups(engine: Engine, inst: Engine, old: str, key: str) -> None:
    """A tournament's backups folder (named by its key) follows its new key."""
    before, after = db.backup_dir(inst) / old, db.backup_dir(inst) / key
    if db.backup_dir(engine) == before:
        with contextlib.suppress(OSError):
            if before.is_dir() and not after.exists():
                before.rename(after)
        db.bind_tournament(engine, int(db.tournament_id(engine)), inst,  # type: ignore[arg-type]
                           after)


# -- the list ----------------------------------------------------------------------------------
def register_own(engine: Engine) -> int:
    """The id of the tournament the installation's own database holds, put on the list the
    first time (a database of schema 1 to 6 opens as one tournament, nothing moved). Not
    logged: nothing of the tournament changes."""
    with db.reading(engine) as conn:
        found = conn.execute(sa.select(t.c.id).where(t.c.location == "")).scalar()
    if found is not None:
        return int(found)

    def work(conn: Connection) -> int:
        again = conn.execute(sa.select(t.c.id).where(t.c.location == "")).scalar()
        if again is not None:
            return int(again)
        name = admin.settings(conn)["tournament_name"]
        return int(conn.execute(sa.insert(t).values(
            key=_unique_key(conn, key_of(name)), location="", created_by=db.SYSTEM.name,
            created_at=db.now())).inserted_primary_key[0])  # type: ignore[index]

    return db.write(engine, work)


def tournaments(engine: Engine) -> pd.DataFrame:
    """R27: the installation's tournaments (deleted ones left out), oldest first:
    `tournament_id, key, location, season_id, demo, created_at`."""
    inst = db.installation(engine)
    with db.reading(inst) as conn:
        return frames.query_frame(conn, sa.select(
            t.c.id.label("tournament_id"), t.c.key, t.c.location, t.c.season_id, t.c.demo,
            t.c.created_at).where(t.c.deleted_at.is_(None)).order_by(t.c.id), LIST_COLUMNS)


def _row(conn: Connection, which) -> sa.Row:
    """The listed tournament `which`: an id, a key, or None for the only (or the own) one."""
    rows = conn.execute(sa.select(t).where(t.c.deleted_at.is_(None)).order_by(t.c.id)).all()
    if which is None:
        own = [r for r in rows if r.location == ""]
        if len(rows) == 1 or own:
            return (own or rows)[0]
        if not rows:
            raise NotFound(_("This STSA holds no tournament: create one on the Tournaments "
                             "page."))
        raise TournamentError(_("This STSA holds {count} tournaments ({keys}): choose one with "
                                "tournament=… (its key or id).").format(
            count=len(rows), keys=", ".join(r.key for r in rows)))
    text = str(which).strip().lower()
    for r in rows:
        if text == r.key or (text.isdigit() and int(text) == r.id):
            return r
    raise NotFound(_("There is no tournament {tournament} here (tournaments: {keys}).").format(
        tournament=repr(str(which)[:60]), keys=", ".join(r.key for r in rows) or _("none")))


def find(engine: Engine, which=None) -> dict:
    """The listed tournament `which` (id or key; None: the only one, else the installation's
    own) as `tournament_id, key, location, season_id, demo`; `NotFound` names the keys."""
    with db.reading(db.installation(engine)) as conn:
        r = _row(conn, which)
    return {"tournament_id": int(r.id), "key": r.key, "location": r.location,
            "season_id": None if r.season_id is None else int(r.season_id), "demo": bool(r.demo)}


def open_tournament(installation: Engine, which=None) -> Engine:
    """An engine on tournament `which` of `installation` (see `find`); the installation's own
    tournament is the installation's engine itself. Its schema is made or upgraded (R19)."""
    return open_tournament_row(installation, find(installation, which)["tournament_id"])


def _file(installation: Engine, location: str) -> Path:
    folder = Path(str(installation.url.database)).resolve().parent
    path = (folder / location).resolve()
    if path.parent != folder / FOLDER or path.suffix != ".db":
        raise InvalidState(_("The list of tournaments names an unexpected file ({file}).")
                           .format(file=repr(location)))
    return path


# -- writes ------------------------------------------------------------------------------------
def create_tournament(engine: Engine, name: str, *, venue: str | None = None,
                      starts_on=None, ends_on=None, time_zone: str | None = None,
                      copy_from: Engine | None = None, demo: bool = False,
                      actor: Actor) -> Created:
    """R27: a new, empty tournament named `name`, with its venue, days and time zone; its
    other settings copied from tournament `copy_from` (an engine) or the defaults. Organizer
    only; logged in the installation's log and the new tournament's. Every value is checked
    before anything is written; a tournament that cannot be made leaves nothing behind.
    Returns its id, key and a new judges' PIN, to show once."""
    from stsa.store import pins  # pins reads the list of tournaments: imported late

    require(actor, Role.ORGANIZER, action=N_("create tournaments"))
    own = {"tournament_name": name, "venue": venue, "starts_on": starts_on,
           "ends_on": ends_on, "time_zone": time_zone}
    values = {k: settings_rules.check(k, v) for k, v in own.items()
              if v is not None or k == "tournament_name"}
    if values.get("starts_on") and values.get("ends_on") and \
            values["ends_on"] < values["starts_on"]:
        raise TournamentError(_("The last day comes before the first day."))
    copied = {} if copy_from is None else {
        k: v for k, v in admin.settings(copy_from).items() if k not in OWN_SETTINGS}
    inst = db.installation(engine)

    def listed(conn: Connection) -> tuple[int, str]:
        key = _unique_key(conn, key_of(values["tournament_name"]), files=True)
        made = int(conn.execute(sa.insert(t).values(
            key=key, location="", demo=bool(demo), created_by=actor.name, created_at=db.now(),
            deleted_at=db.now())).inserted_primary_key[0])  # type: ignore[index]
        location = f"{FOLDER}/{key}.db" if db.is_sqlite(conn) else f"stsa_t{made}"
        conn.execute(sa.update(t).where(t.c.id == made).values(location=location))
        return made, key

    made, key = db.write(inst, listed)  # listed as deleted until it is whole
    try:
        new = open_tournament_row(inst, made)
        try:
            admin.set_settings(new, {**copied, **values}, actor=actor)
            pin = pins.new_judge_pin(new)
        finally:
            new.dispose()

        def whole(conn: Connection) -> None:
            conn.execute(sa.update(t).where(t.c.id == made).values(deleted_at=None))
            audit.log(conn, actor, Action.TOURNAMENT_CREATE, f"tournament {made}",
                      after={"key": key, "name": values["tournament_name"], "demo": demo})

        db.write(inst, whole)
    except BaseException:
        _drop_storage(inst, made)
        raise
    return Created(made, key, pin)


def open_tournament_row(installation: Engine, tournament_id: int) -> Engine:
    """`open_tournament` for a listed row, even one not whole yet (being created)."""
    with db.reading(installation) as conn:
        r = conn.execute(sa.select(t).where(t.c.id == int(tournament_id))).first()
    if r is None:
        raise NotFound(_("There is no tournament with id {tournament}.").format(
            tournament=tournament_id))
    if r.location == "":
        db.bind_tournament(installation, r.id)
        return installation
    backups = db.backup_dir(installation) / r.key
    if db.is_sqlite(installation):
        engine = db.open_engine(f"sqlite:///{_file(installation, r.location)}",
                                backup_dir=backups)
    else:
        engine = db.open_engine(installation.url.render_as_string(hide_password=False),
                                backup_dir=backups, pg_schema=r.location)
    db.bind_tournament(engine, r.id, installation, backups)
    return engine


def _drop_storage(installation: Engine, tournament_id: int) -> None:
    """Remove a tournament's own database (its file, or its PostgreSQL schema)."""
    with db.reading(installation) as conn:
        r = conn.execute(sa.select(t).where(t.c.id == int(tournament_id))).first()
    if r is None or r.location == "":
        return
    if db.is_sqlite(installation):
        path = _file(installation, r.location)
        for suffix in ("", "-wal", "-shm", "-journal"):
            with contextlib.suppress(FileNotFoundError):
                path.with_name(path.name + suffix).unlink()
    else:
        if not db.PG_SCHEMA.fullmatch(r.location):
            raise InvalidState(_("The list of tournaments names an unexpected schema "
                                 "({schema}).").format(schema=repr(r.location)))
        db.write(installation, lambda conn: conn.exec_driver_sql(
            f"DROP SCHEMA IF EXISTS {r.location} CASCADE"))


def archived(engine: Engine | Connection) -> dt.datetime | None:
    """When this tournament was archived (R27), or None: it takes changes."""
    with db.reading(engine) as conn:
        return conn.execute(sa.select(schema.tournament_state.c.archived_at)).scalar()


def archive_tournament(engine: Engine, *, actor: Actor) -> bool:
    """R27: make this tournament read-only: the store refuses every change to it from now on,
    every page still shows it. Organizer only; logged. False if it was archived already."""
    require(actor, Role.ORGANIZER, action=N_("archive tournaments"))

    def work(conn: Connection) -> bool:
        state = conn.execute(sa.select(schema.tournament_state)).first()
        if state is not None and state.archived_at is not None:
            return False
        audit.log(conn, actor, Action.TOURNAMENT_ARCHIVE, "tournament")  # logged while open
        conn.execute(sa.update(schema.tournament_state).values(archived_at=db.now(),
                                                               archived_by=actor.name))
        return True

    return db.write(engine, work)


def reopen_tournament(engine: Engine, *, actor: Actor) -> bool:
    """R27: an archived tournament takes changes again. Organizer only; logged. False if it
    was not archived."""
    require(actor, Role.ORGANIZER, action=N_("reopen tournaments"))

    def work(conn: Connection) -> bool:
        changed = conn.execute(sa.update(schema.tournament_state)
                               .where(schema.tournament_state.c.archived_at.is_not(None))
                               .values(archived_at=None, archived_by=None)).rowcount
        if changed:
            audit.log(conn, actor, Action.TOURNAMENT_REOPEN, "tournament")
        return bool(changed)

    return db.write(engine, work)


def is_empty(engine: Engine | Connection) -> bool:
    """No player and no sitting yet."""
    with db.reading(engine) as conn:
        return not any(conn.execute(sa.select(sa.literal(1)).select_from(table).limit(1))
                       .first() for table in (schema.players, schema.sittings))


def delete_tournament(engine: Engine, *, actor: Actor, confirm: str | None = None) -> Path:
    """R27: delete this tournament, after a backup (whose path is returned, and which stays).
    Only an archived or empty one, and (the demo apart) only with its name typed as `confirm`.
    The installation's own tournament is emptied in place; another's database is removed.
    Organizer only; logged in the installation's log. The engine is not to be used after."""
    require(actor, Role.ORGANIZER, action=N_("delete tournaments"))
    tid = db.tournament_id(engine)
    if tid is None:
        raise InvalidState(_("Open the tournament with store.connect to delete it."))
    inst = db.installation(engine)
    listed = find(inst, tid)
    name = admin.settings(engine)["tournament_name"]
    if not listed["demo"]:
        if archived(engine) is None and not is_empty(engine):
            raise InvalidState(_("“{tournament}” is neither archived nor empty: archive it "
                                 "first.").format(tournament=name))
        if " ".join(str(confirm or "").split()).casefold() != name.casefold():
            raise TournamentError(_("To delete it, type the tournament's name, “{tournament}”.")
                                  .format(tournament=name))
    saved = archive.backup(engine, label=f"deleted-{listed['key']}")

    def unlist(conn: Connection) -> None:
        conn.execute(sa.update(t).where(t.c.id == tid).values(deleted_at=db.now()))
        conn.execute(sa.delete(schema.directory).where(schema.directory.c.tournament_id == tid))
        audit.log(conn, actor, Action.TOURNAMENT_DELETE, f"tournament {tid}",
                  after={"key": listed["key"], "name": name, "backup": saved.name})

    if listed["location"] == "":
        def empty_and_unlist(conn: Connection) -> None:
            _empty_own(conn)
            unlist(conn)

        db.write(inst, empty_and_unlist)
    else:
        db.write(inst, unlist)
        if engine is not inst:
            engine.dispose()
        _drop_storage(inst, tid)
    return saved


def _empty_own(conn: Connection) -> None:
    """The installation's own tournament, emptied in place (its backup was written first);
    the log's entry of the deletion comes after."""
    archive.empty_tournament(conn)
    conn.execute(sa.update(schema.tournament_state).values(archived_at=None, archived_by=None))
    audit.new_epoch(conn)


def set_season(engine: Engine, tournament_id: int, season_id: int | None, *,
               actor: Actor) -> None:
    """R27: put tournament `tournament_id` in season `season_id` (None: in none). Organizer
    only; logged in the installation's log."""
    require(actor, Role.ORGANIZER, action=N_("group tournaments into seasons"))
    inst = db.installation(engine)

    def work(conn: Connection) -> None:
        listed = _row(conn, int(tournament_id))
        if season_id is not None and conn.execute(sa.select(schema.seasons.c.id).where(
                schema.seasons.c.id == int(season_id))).first() is None:
            raise NotFound(_("There is no season with id {season}.").format(season=season_id))
        conn.execute(sa.update(t).where(t.c.id == listed.id).values(season_id=season_id))
        audit.log(conn, actor, Action.SEASON_SET, f"tournament {listed.id}",
                  before={"season_id": listed.season_id}, after={"season_id": season_id})

    db.write(inst, work)
