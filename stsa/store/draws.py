"""A sitting's writes: save a draw (qualifier, semifinal or final), publish it, override a
table's setup, complete it, discard or void it (R3, R6, R16, R20); `stsa.store.sitting_reads`
reads them.

Only the database steps: the automatic backups after a publish and a completed sitting are
taken by `stsa.store.maintenance` (`store.publish_sitting`, `store.complete_sitting`).
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from stsa.auth import Actor, require
from stsa.domain import (
    Action,
    DrawMode,
    Kind,
    PlayerStatus,
    Role,
    SittingStatus,
    TournamentError,
    sitting_title,
)
from stsa.i18n import N_, _
from stsa.store import audit, checks, db, frames
from stsa.store.errors import InvalidState, NotFound
from stsa.store.schema import leader_votes as votes_t
from stsa.store.schema import players as players_t
from stsa.store.schema import seats as seats_t
from stsa.store.schema import sit_outs as sit_outs_t
from stsa.store.schema import sittings as sittings_t
from stsa.store.schema import tables as tables_t
from stsa.store.schema import waiting as waiting_t
from stsa.store.schema import wild_cards as wild_t
from stsa.store.sitting_reads import (  # what a write returns, reads again or checks
    SittingRow,
    sitting_row,
    tables,
)


def _summary(conn: Connection, sitting_id: int) -> dict:
    """A sitting's draw as plain data, for the audit log."""
    s = conn.execute(sa.select(sittings_t).where(sittings_t.c.id == sitting_id)).one()
    tbls = conn.execute(sa.select(tables_t).where(tables_t.c.sitting_id == sitting_id)
                        .order_by(tables_t.c.table_no)).fetchall()
    seats = conn.execute(sa.select(tables_t.c.table_no, seats_t.c.seat, seats_t.c.player_id,
                                   seats_t.c.colour, seats_t.c.pick_order)
                         .join(tables_t, tables_t.c.id == seats_t.c.table_id)
                         .where(seats_t.c.sitting_id == sitting_id)
                         .order_by(tables_t.c.table_no, seats_t.c.seat)).fetchall()
    outs = conn.execute(sa.select(sit_outs_t.c.player_id)
                        .where(sit_outs_t.c.sitting_id == sitting_id)).scalars().all()
    waits = conn.execute(sa.select(waiting_t.c.player_id)
                         .where(waiting_t.c.sitting_id == sitting_id)
                         .order_by(waiting_t.c.position)).scalars().all()
    return {"kind": s.kind, "number": s.number, "seed": int(s.seed), "status": s.status,
            "tables": [{"table_id": t.id, "table_no": t.table_no, "setup_id": t.setup_id,
                        "removed_leaders": frames.loads(t.removed_leaders),
                        "available_leaders": frames.loads(t.available_leaders)} for t in tbls],
            "seats": [dict(r._mapping) for r in seats], "sit_outs": sorted(outs),
            **({"waiting": list(waits)} if waits else {})}


def _reread(conn: Connection, sitting_id: int) -> SittingRow:
    return sitting_row(conn.execute(sa.select(sittings_t)
                                      .where(sittings_t.c.id == sitting_id)).one())


def _check_drawn_players(conn: Connection, clean: dict) -> None:
    """Everyone the draw names is on the roster and not withdrawn."""
    ids = sorted({s["player_id"] for s in clean["seats"]} | set(clean["sit_outs"])
                 | set(clean.get("waiting", ())))
    known = {r.id: r for r in conn.execute(
        sa.select(players_t.c.id, players_t.c.name, players_t.c.status)
        .where(players_t.c.id.in_(ids)))}
    unknown = [p for p in ids if p not in known]
    if unknown:
        raise NotFound(_("The draw names players who are not on the roster: {players}.").format(
            players=unknown))
    gone = [known[p].name for p in ids if known[p].status == PlayerStatus.WITHDRAWN]
    if gone:
        raise InvalidState(_("The draw seats withdrawn players: {players}.").format(
            players=", ".join(gone)))


def _redrawn(conn: Connection, kind: str, sitting_id: int | None):
    """The unpublished sitting a new draw replaces (`sitting_id`, else the latest of `kind`),
    or None for a new sitting; a published one cannot be redrawn."""
    if sitting_id is not None:
        target = db.lock_row(conn, sittings_t, int(sitting_id), "sitting")
        if target.kind != kind:
            raise InvalidState(_("Sitting {sitting} is a {kind}, not a {wanted}.").format(
                sitting=sitting_id, kind=_(target.kind), wanted=_(kind)))
    else:
        target = conn.execute(sa.select(sittings_t).where(sittings_t.c.kind == kind)
                              .order_by(sittings_t.c.number.desc()).limit(1)
                              .with_for_update()).first()
        if target is not None and target.status != SittingStatus.DRAWN:
            if kind == Kind.SEMIFINAL:
                raise InvalidState(_("The semifinal is already published; it cannot be "
                                     "redrawn."))
            if kind != Kind.QUALIFIER:
                raise InvalidState(_("The final is already published; it cannot be redrawn."))
            return None
    if target is not None and target.status != SittingStatus.DRAWN:
        raise InvalidState(_("{sitting} is {status}; a published sitting cannot be "
                             "redrawn.").format(sitting=sitting_title(target.kind, target.number),
                                                status=_(target.status)))
    return target


def _clear_draw(conn: Connection, sitting_id: int) -> None:
    for table in (seats_t, sit_outs_t, waiting_t, tables_t):
        conn.execute(sa.delete(table).where(table.c.sitting_id == sitting_id))


def _sitting_row(conn: Connection, kind: str, target, seed: int, actor: Actor, at) -> int:
    """The sitting's id: `target` emptied for its redraw, or a new sitting numbered next."""
    if target is not None:
        _clear_draw(conn, target.id)
        conn.execute(sa.update(sittings_t).where(sittings_t.c.id == target.id).values(
            seed=str(seed), created_by=actor.name, created_at=at))
        return target.id
    number = (conn.execute(sa.select(sa.func.max(sittings_t.c.number))
                           .where(sittings_t.c.kind == kind)).scalar() or 0) + 1
    return conn.execute(sa.insert(sittings_t).values(
        kind=kind, number=number, seed=str(seed), status=SittingStatus.DRAWN.value,
        created_by=actor.name, created_at=at).returning(sittings_t.c.id)).scalar_one()


def _write_draw(conn: Connection, sid: int, clean: dict) -> None:
    """The draw's tables, seats, sit-outs and waiting list (R1, R3, R9, R21) under sitting
    `sid`."""
    table_ids = dict(zip(
        [t["table_no"] for t in clean["tables"]],
        conn.execute(sa.insert(tables_t).returning(tables_t.c.id, sort_by_parameter_order=True),
                     [{"sitting_id": sid, "table_no": t["table_no"], "setup_id": t["setup_id"],
                       "removed_leaders": frames.dumps(t["removed_leaders"]),
                       "available_leaders": frames.dumps(t["available_leaders"])}
                      for t in clean["tables"]]).scalars()))
    conn.execute(sa.insert(seats_t), [
        {"table_id": table_ids[s["table_no"]], "sitting_id": sid, "seat": s["seat"],
         "player_id": s["player_id"], "colour": s["colour"], "pick_order": s["pick_order"]}
        for s in clean["seats"]])
    if clean["sit_outs"]:
        conn.execute(sa.insert(sit_outs_t), [{"sitting_id": sid, "player_id": p}
                                             for p in clean["sit_outs"]])
    if clean.get("waiting"):
        conn.execute(sa.insert(waiting_t), [{"sitting_id": sid, "player_id": p, "position": i}
                                            for i, p in enumerate(clean["waiting"], start=1)])


def save_draw(engine: Engine, draw: Any, *, kind: str, actor: Actor,
              sitting_id: int | None = None, waiting: Any = ()) -> SittingRow:
    """Store a draw (from `stsa.draw`: `.seats`, `.tables`, `.seed`, `.sit_outs`) as a sitting
    in status "drawn"; organizer only (R20). Qualifier, semifinal and final draws alike (R16).

    If the latest sitting of that kind (or `sitting_id`) is still unpublished, the new draw
    replaces it (a redraw, logged with the old draw, R19); a published sitting cannot be
    redrawn. The seed is recorded (R3); sit-outs are recorded (R1); so is a qualifier's
    waiting list (R21): `waiting`, the player ids without a seat, next in line first. Returns
    the sitting.
    """
    require(actor, Role.ORGANIZER, action=N_("save draws"))
    kind = checks.check_kind(kind)
    clean = {**checks.check_draw(draw), "waiting": _waiting(waiting, draw, kind)}
    # R3: the seed, the mode and the pins re-check the draw (the history is the database).
    how = {"mode": str(getattr(draw, "mode", DrawMode.RANDOM)),
           "pins": {str(k): int(v) for k, v in dict(getattr(draw, "pins", {}) or {}).items()}}

    def work(conn: Connection) -> SittingRow:
        _check_drawn_players(conn, clean)
        target = _redrawn(conn, kind, sitting_id)
        before = None if target is None else _summary(conn, target.id)
        at = db.now()
        sid = _sitting_row(conn, kind, target, clean["seed"], actor, at)
        _write_draw(conn, sid, clean)
        audit.log(conn, actor, Action.SITTING_REDRAW if before else Action.SITTING_DRAW,
               f"sitting {sid}", before=before, after={**_summary(conn, sid), **how}, at=at)
        return _reread(conn, sid)

    return db.write(engine, work)


def drop_sitting(conn: Connection, s) -> dict:
    """Delete sitting row `s` with everything drawn for it (tables, seats, sit-outs, the
    waiting list, its tables' leader votes and wild cards); returns its draw as it was, for the
    log (R19: the seed and the seating stay there). The number is free again for the next draw
    of its kind. Discarding a draft and voiding a published sitting both end here."""
    before = _summary(conn, s.id)
    table_ids = sa.select(tables_t.c.id).where(tables_t.c.sitting_id == s.id)
    for table in (votes_t, wild_t):
        conn.execute(sa.delete(table).where(table.c.table_id.in_(table_ids)))
    conn.execute(sa.delete(waiting_t).where(waiting_t.c.sitting_id == s.id))
    _clear_draw(conn, s.id)
    conn.execute(sa.delete(sittings_t).where(sittings_t.c.id == s.id))
    return before
def _waiting(waiting: Any, draw: Any, kind: str) -> list[int]:
    """R21: the waiting list as player ids in order: whole numbers, each once, none seated or
    sitting out; only a qualifier has one."""
    ids = [checks.whole(p, N_("A waiting player id")) for p in (waiting or ())]
    if not ids:
        return []
    if kind != Kind.QUALIFIER:
        raise TournamentError(_("Only a qualifier sitting has a waiting list."))
    if len(set(ids)) != len(ids):
        raise TournamentError(_("The waiting list names a player twice."))
    drawn = {int(p) for p in draw.seats["player_id"]} | {int(p) for p in draw.sit_outs or ()}
    both = sorted(drawn.intersection(ids))
    if both:
        raise TournamentError(_("Players {players} are both drawn and waiting.").format(
            players=", ".join(map(str, both))))
    return ids


def discard_draw(engine: Engine, sitting_id: int, *, actor: Actor) -> SittingRow:
    """Delete an unpublished sitting (organizer, R20); the draw stays in the log (R19)."""
    require(actor, Role.ORGANIZER, action=N_("discard draws"))

    def work(conn: Connection) -> SittingRow:
        s = db.lock_row(conn, sittings_t, int(sitting_id), "sitting")
        if s.status != SittingStatus.DRAWN:
            raise InvalidState(_("{sitting} is {status}; only an unpublished draw can be "
                                 "discarded.").format(sitting=sitting_title(s.kind, s.number),
                                                      status=_(s.status)))
        audit.log(conn, actor, Action.SITTING_DISCARD, f"sitting {s.id}",
                  before=drop_sitting(conn, s))
        return sitting_row(s)

    return db.write(engine, work)


def mark_published(engine: Engine, sitting_id: int, *, actor: Actor) -> SittingRow:
    """Publish a drawn sitting: spectators now see it (R20) and judges can enter results.

    Organizer only; logged (R19). Returns the sitting. The database step only:
    `store.publish_sitting` also writes the automatic backup.
    """
    require(actor, Role.ORGANIZER, action=N_("publish sittings"))

    def work(conn: Connection) -> SittingRow:
        s = db.lock_row(conn, sittings_t, int(sitting_id), "sitting")
        if s.status != SittingStatus.DRAWN:
            raise InvalidState(_("{sitting} is already {status}.").format(
                sitting=sitting_title(s.kind, s.number), status=_(s.status)))
        at = db.now()
        conn.execute(sa.update(sittings_t).where(sittings_t.c.id == s.id)
                     .values(status=SittingStatus.PUBLISHED.value, published_at=at))
        audit.log(conn, actor, Action.SITTING_PUBLISH, f"sitting {s.id}",
               before={"status": SittingStatus.DRAWN.value},
               after={"status": SittingStatus.PUBLISHED.value}, at=at)
        return _reread(conn, s.id)

    return db.write(engine, work)


# Completing a sitting whose tables all have results (R20), built once: every first result
# runs it.
_COMPLETE = (
    sa.update(sittings_t)
    .where(sittings_t.c.id == sa.bindparam("sitting"),
           sittings_t.c.status == SittingStatus.PUBLISHED.value,
           ~sa.exists(sa.select(tables_t.c.id)
                      .where(tables_t.c.sitting_id == sa.bindparam("sitting"),
                             tables_t.c.result_version == 0)))
    .values(status=SittingStatus.COMPLETE.value,
            completed_at=sa.bindparam("at", type_=sittings_t.c.completed_at.type)))


def set_rule_change(engine: Engine, sitting_id: int, name: str, points: str, *,
                    actor: Actor) -> SittingRow:
    """R24: name a sitting's rule change and say how its extra (variant) points are earned;
    both empty for none. Organizer only (R20), while the sitting is drawn and not yet
    published: players see it with the draw. Texts as `checks.rule_change` keeps them; a
    change is logged with the values before and after (R19). Returns the sitting."""
    require(actor, Role.ORGANIZER, action=N_("set a sitting's rule change"))

    def work(conn: Connection) -> SittingRow:
        s = db.lock_row(conn, sittings_t, int(sitting_id), "sitting")
        after = checks.rule_change(name, points, sitting_title(s.kind, s.number))
        if s.status != SittingStatus.DRAWN:
            raise InvalidState(_("{sitting} is already {status}: a rule change is set before the "
                                 "sitting is published. Nothing was changed.").format(
                                     sitting=sitting_title(s.kind, s.number),
                                     status=_(s.status)))
        before = {"rule_change": s.rule_change, "rule_change_points": s.rule_change_points}
        if after != before:
            conn.execute(sa.update(sittings_t).where(sittings_t.c.id == s.id).values(**after))
            audit.log(conn, actor, Action.SITTING_RULE_CHANGE, f"sitting {s.id}", before=before,
                   after=after)
        return _reread(conn, s.id)

    return db.write(engine, work)


def try_complete(conn: Connection, sitting_id: int, actor: Actor) -> bool:
    """Mark a published sitting complete if every table has a result; True if this did it."""
    at = db.now()
    done = conn.execute(_COMPLETE, {"sitting": sitting_id, "at": at}).rowcount
    if done:
        audit.log(conn, actor, Action.SITTING_COMPLETE, f"sitting {sitting_id}",
               before={"status": SittingStatus.PUBLISHED.value},
               after={"status": SittingStatus.COMPLETE.value}, at=at)
    return bool(done)


def complete_if_done(engine: Engine, sitting_id: int, actor: Actor) -> bool:
    """In its own transaction: complete the sitting if every table has a result; True if this
    did it.

    PostgreSQL runs this after a first result commits: two judges saving the last two tables
    at once each see the other's table still empty inside their own transactions.
    """
    return db.write(engine, lambda conn: try_complete(conn, sitting_id, actor))


def complete_finished(engine: Engine) -> list[int]:
    """Complete every published sitting whose tables all have results; the ids completed (run
    when a database opens: a PostgreSQL process stopped between a last result and its
    completion leaves one behind)."""
    def work(conn: Connection) -> list[int]:
        candidates = conn.execute(
            sa.select(sittings_t.c.id)
            .where(sittings_t.c.status == SittingStatus.PUBLISHED.value)).scalars().all()
        return [sid for sid in candidates if try_complete(conn, sid, db.SYSTEM)]

    return db.write(engine, work)


def _tables_without_result(conn: Connection, sitting_id: int) -> list[int]:
    return conn.execute(sa.select(tables_t.c.table_no).where(
        tables_t.c.sitting_id == sitting_id, tables_t.c.result_version == 0)
        .order_by(tables_t.c.table_no)).scalars().all()  # type: ignore[return-value]


def mark_complete(engine: Engine, sitting_id: int, *, actor: Actor) -> tuple[SittingRow, bool]:
    """Mark a sitting complete (organizer, R20); refused, naming the tables, while any table
    lacks a result. Logged (R19). Returns the sitting and whether this call completed it (a
    complete sitting stays as it is). The database step only: `store.complete_sitting` also
    writes the automatic backup."""
    require(actor, Role.ORGANIZER, action=N_("complete sittings"))

    def work(conn: Connection) -> tuple[SittingRow, bool]:
        s = db.lock_row(conn, sittings_t, int(sitting_id), "sitting")
        if s.status == SittingStatus.DRAWN:
            raise InvalidState(_("{sitting} is not published yet.").format(
                sitting=sitting_title(s.kind, s.number)))
        done = False
        if s.status == SittingStatus.PUBLISHED:
            without = _tables_without_result(conn, s.id)
            if without:
                raise InvalidState(_("{sitting} cannot be completed: tables {tables} have no "
                                     "result yet.").format(
                                         sitting=sitting_title(s.kind, s.number),
                                         tables=", ".join(map(str, without))))
            done = try_complete(conn, s.id, actor)
        return _reread(conn, s.id), done

    return db.write(engine, work)


def override_setup(engine: Engine, table_id: int, setup_id: str, *, reason: str, actor: Actor,
                   available_leaders: list[str] | None = None,
                   removed_leaders: list[str] | None = None) -> dict:
    """R6: the organizer sets a table's setup by hand, with a reason; the table is flagged as
    overridden and the old and new setup are logged (R19). A setup is part of the draw, which
    only the organizer changes (R20: a judge is refused). The R6 warning (which allocation
    rule this breaks) is computed elsewhere. New leader lists may come with it (R7, R9);
    otherwise the table keeps its lists. Returns the table as a row of `tables`.
    """
    require(actor, Role.ORGANIZER, action=N_("change a table's setup"))
    setup_id = str(setup_id or "").strip()
    if not setup_id:
        raise TournamentError(_("Choose a setup for the override."))
    reason = " ".join(str(reason or "").split())
    if not reason:
        raise TournamentError(_("Give a reason for the setup override."))
    if len(reason) > 500:
        raise TournamentError(_("The override reason is longer than 500 characters."))
    avail = None if available_leaders is None else checks.leader_list(
        available_leaders, N_("The available leaders"))
    removed = None if removed_leaders is None else checks.leader_list(
        removed_leaders, N_("The removed leaders"))

    def work(conn: Connection) -> int:
        t = db.lock_row(conn, tables_t, int(table_id), "table")
        before = {"setup_id": t.setup_id, "removed_leaders": frames.loads(t.removed_leaders),
                  "available_leaders": frames.loads(t.available_leaders),
                  "setup_override": bool(t.setup_override)}
        values = {"setup_id": setup_id, "setup_override": True}
        if avail is not None:
            values["available_leaders"] = frames.dumps(avail)
        if removed is not None:
            values["removed_leaders"] = frames.dumps(removed)
        conn.execute(sa.update(tables_t).where(tables_t.c.id == t.id).values(**values))
        after = {"setup_id": setup_id, "removed_leaders": removed or before["removed_leaders"],
                 "available_leaders": avail or before["available_leaders"],
                 "setup_override": True, "reason": reason}
        audit.log(conn, actor, Action.TABLE_OVERRIDE_SETUP, f"table {t.id}", before=before,
                  after=after)
        return t.id

    tid = db.write(engine, work)
    row = tables(engine, table_id=tid, actor=actor).iloc[0].to_dict()
    return {k: v.item() if hasattr(v, "item") else v for k, v in row.items()}
