"""Undoing an organizer's mistakes after publishing: void a published sitting that has no
result yet, and replace a player who did not come (or leave their seat empty at a table of
four). Each is one transaction, organizer only (R20), refused once a result is in, and logged
with everything it changed (R19).
"""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from stsa.auth import Actor, require
from stsa.domain import (
    Action,
    Kind,
    PlayerStatus,
    Role,
    SittingStatus,
    TournamentError,
    sitting_label,
    table_label,
)
from stsa.i18n import N_, _, ngettext
from stsa.store import audit, db, draws, sitting_reads
from stsa.store.errors import InvalidState, NotFound
from stsa.store.schema import leader_votes as votes_t
from stsa.store.schema import players as players_t
from stsa.store.schema import seats as seats_t
from stsa.store.schema import sit_outs as sit_outs_t
from stsa.store.schema import sittings as sittings_t
from stsa.store.schema import tables as tables_t
from stsa.store.schema import waiting as waiting_t
from stsa.store.schema import wild_cards as wild_t

MAX_REASON = 500
SMALLEST_TABLE = 3  # R1: a table seats 3 or 4 players


def _reason(reason: str | None) -> str:
    reason = " ".join(str(reason or "").split())
    if len(reason) > MAX_REASON:
        raise TournamentError(_("The reason is longer than {limit} characters.").format(
            limit=MAX_REASON))
    return reason


def _tables_with_results(conn: Connection, sitting_id: int) -> list[int]:
    return conn.execute(sa.select(tables_t.c.table_no).where(
        tables_t.c.sitting_id == sitting_id, tables_t.c.result_version > 0)
        .order_by(tables_t.c.table_no)).scalars().all()  # type: ignore[return-value]


def void_sitting(engine: Engine, sitting_id: int, *, reason: str = "",
                 actor: Actor) -> sitting_reads.SittingRow:
    """Void a published sitting that has no result yet (organizer, R20): it is deleted with
    its tables, seats, sit-outs, waiting list and leader picks, so spectators no longer see it,
    its setups no longer count for the balance of the next draws (R6) and the next draw of its
    kind takes its number again. The log keeps its seed and seating (R3, R19) and the reason.

    Refused, with nothing changed, once any of its tables has a result, for an unpublished
    draft (discard it) and while a later sitting exists (void or discard that one first).
    Returns the sitting as it was."""
    require(actor, Role.ORGANIZER, action=N_("void sittings"))
    reason = _reason(reason)

    def work(conn: Connection) -> sitting_reads.SittingRow:
        s = db.lock_row(conn, sittings_t, int(sitting_id), "sitting")
        label = sitting_label(s.kind, s.number)
        if s.status == SittingStatus.DRAWN:
            raise InvalidState(_("{sitting} is not published yet: discard the draft "
                                 "instead.").format(sitting=label))
        reported = _tables_with_results(conn, s.id)
        if reported:
            raise InvalidState(ngettext(
                "{sitting} cannot be voided: table {tables} already has a result. Correct a "
                "wrong result on the Results page instead.",
                "{sitting} cannot be voided: tables {tables} already have a result. Correct a "
                "wrong result on the Results page instead.", len(reported)).format(
                    sitting=label, tables=", ".join(map(str, reported))))
        later = conn.execute(sa.select(sittings_t).where(sittings_t.c.id > s.id)
                             .order_by(sittings_t.c.id.desc()).limit(1)).first()
        if later is not None:
            raise InvalidState(_("{later} was drawn after {sitting}: discard or void it "
                                 "first.").format(later=sitting_label(later.kind, later.number),
                                                  sitting=label))
        before = draws.drop_sitting(conn, s)
        audit.log(conn, actor, Action.SITTING_VOID, f"sitting {s.id}", before=before,
               after={"sitting": label, "status": "void", "reason": reason})
        return sitting_reads.sitting_row(s)

    return db.write(engine, work)


def _player(conn: Connection, player_id: int):
    row = conn.execute(sa.select(players_t).where(players_t.c.id == int(player_id))
                       .with_for_update()).first()
    if row is None:
        raise NotFound(_("There is no player with id {id}.").format(id=player_id))
    return row


def _open_seat(conn: Connection, table_id: int, seat: int):
    """The table (locked), its sitting, the seat's row and the table's label; refused for a
    finals table, once the table has a result, and where its wild cards are drawn or the
    leaving player has voted (R10: the table's leaders are then settled with them)."""
    t = db.lock_row(conn, tables_t, int(table_id), "table")
    s = conn.execute(sa.select(sittings_t).where(sittings_t.c.id == t.sitting_id)).one()
    where = table_label(s.kind, s.number, t.table_no)
    if s.kind != Kind.QUALIFIER:
        raise InvalidState(_(
            "The final's seats follow the cut: to replace a player who is not there, void the "
            "final, mark the player absent on the Finals page (a wildcard takes the seat) and "
            "draw it again.") if s.kind == Kind.FINAL else _(
            "The semifinal's seats follow the cut: to replace a player who is not there, void "
            "the semifinal, mark the player absent on the Finals page (a wildcard takes the "
            "seat) and draw it again."))
    if t.result_version or s.status == SittingStatus.COMPLETE:
        raise InvalidState(_("{table} already has a result: its players can no longer "
                             "change.").format(table=where))
    row = conn.execute(sa.select(seats_t).where(seats_t.c.table_id == t.id,
                                                seats_t.c.seat == int(seat))).first()
    if row is None:
        raise NotFound(_("{table} has no seat {seat}.").format(table=where, seat=seat))
    if conn.execute(sa.select(wild_t.c.player_id).where(wild_t.c.table_id == t.id)).first():
        raise InvalidState(_("{table} has drawn its wild cards: its players can no longer "
                             "change.").format(table=where))
    if conn.execute(sa.select(votes_t.c.leader).where(
            votes_t.c.table_id == t.id, votes_t.c.player_id == row.player_id)).first():
        raise InvalidState(_("Seat {seat} at {table} has voted leaders off: that player was "
                             "there, so the seat cannot change.").format(seat=seat, table=where))
    return t, s, row, where


def _seat_entry(row, name: str) -> dict:
    return {"seat": int(row.seat), "player_id": int(row.player_id), "name": name,
            "colour": row.colour, "pick_order": int(row.pick_order)}


def _check_newcomer(conn: Connection, p, sitting_id: int) -> None:
    """Who takes a seat: an active, checked-in player without a seat in this sitting."""
    seated = conn.execute(
        sa.select(tables_t.c.table_no, seats_t.c.seat)
        .join(tables_t, tables_t.c.id == seats_t.c.table_id)
        .where(seats_t.c.sitting_id == sitting_id, seats_t.c.player_id == p.id)).first()
    if seated is not None:
        raise InvalidState(_("{player} already plays in this sitting, at table {table}, seat "
                             "{seat}.").format(player=p.name, table=seated.table_no,
                                               seat=seated.seat))
    if p.status != PlayerStatus.ACTIVE:
        raise InvalidState((_("{player} is withdrawn: only active players take a seat.")
                            if p.status == PlayerStatus.WITHDRAWN else
                            _("{player} is {status}: only active players take a seat.")).format(
                                player=p.name, status=p.status))
    if not p.checked_in:
        raise InvalidState(_("{player} is not checked in: check them in on the Roster page "
                             "first.").format(player=p.name))


def _off_the_lists(conn: Connection, sitting_id: int, player_id: int) -> dict:
    """Take a newly seated player off the sitting's sit-outs (R1) and waiting list (R21), the
    places behind them moving up; says which lists they left."""
    left: dict[str, bool | int] = {}
    out = sa.delete(sit_outs_t).where(sit_outs_t.c.sitting_id == sitting_id,
                                      sit_outs_t.c.player_id == player_id)
    if conn.execute(out).rowcount:
        left["was_sitting_out"] = True
    position = conn.execute(sa.select(waiting_t.c.position).where(
        waiting_t.c.sitting_id == sitting_id, waiting_t.c.player_id == player_id)).scalar()
    if position is not None:
        conn.execute(sa.delete(waiting_t).where(waiting_t.c.sitting_id == sitting_id,
                                                waiting_t.c.player_id == player_id))
        behind = conn.execute(sa.select(waiting_t.c.player_id, waiting_t.c.position).where(
            waiting_t.c.sitting_id == sitting_id, waiting_t.c.position > position)
            .order_by(waiting_t.c.position)).fetchall()
        for r in behind:  # in order: each moves into the place just freed
            conn.execute(sa.update(waiting_t).where(
                waiting_t.c.sitting_id == sitting_id, waiting_t.c.player_id == r.player_id)
                .values(position=r.position - 1))
        left["was_waiting"] = int(position)
    return left


def replace_player(engine: Engine, table_id: int, seat: int, player_id: int, *,
                   reason: str = "", actor: Actor) -> dict:
    """Seat `player_id` in place of the player at `seat` of a qualifier table (a no-show):
    the newcomer keeps the seat's number, colour and pick order (R3, R9). Organizer only
    (R20); refused once the table has a result, and for a player who is not active and
    checked in or already seated in this sitting. A newcomer who sat out (R1) or was waiting
    (R21) leaves those lists. Logged with who left and who came (R19). Returns
    `{"where", "seat", "left", "came"}` (names)."""
    require(actor, Role.ORGANIZER, action=N_("change a table's players"))
    reason = _reason(reason)

    def work(conn: Connection) -> dict:
        t, s, row, where = _open_seat(conn, table_id, seat)
        newcomer = _player(conn, player_id)
        _check_newcomer(conn, newcomer, s.id)
        gone = _player(conn, row.player_id)
        conn.execute(sa.update(seats_t).where(seats_t.c.table_id == t.id,
                                              seats_t.c.seat == row.seat)
                     .values(player_id=newcomer.id))
        left = _off_the_lists(conn, s.id, newcomer.id)
        audit.log(conn, actor, Action.TABLE_REPLACE_PLAYER, f"table {t.id}",
               before={"table": where, **_seat_entry(row, gone.name)},
               after={"table": where, **_seat_entry(row, newcomer.name),
                      "player_id": int(newcomer.id), **left, "reason": reason})
        return {"where": where, "seat": int(row.seat), "left": gone.name,
                "came": newcomer.name}

    return db.write(engine, work)


def leave_seat_empty(engine: Engine, table_id: int, seat: int, *, reason: str = "",
                     actor: Actor) -> dict:
    """Take the player at `seat` off a four-player qualifier table (a no-show), leaving a
    table of three (R1). The players after that seat move up one seat, keeping their colours
    and play order, and the pick order follows the new seats (R3, R9: the last seat picks
    first). Organizer only (R20); refused at a table of three (two cannot play) and once the
    table has a result. Logged with the table's seats before and after (R19). Returns
    `{"where", "seat", "left", "players"}`."""
    require(actor, Role.ORGANIZER, action=N_("change a table's players"))
    reason = _reason(reason)

    def work(conn: Connection) -> dict:
        t, s, row, where = _open_seat(conn, table_id, seat)
        seated = conn.execute(
            sa.select(seats_t, players_t.c.name)
            .join(players_t, players_t.c.id == seats_t.c.player_id)
            .where(seats_t.c.table_id == t.id).order_by(seats_t.c.seat)).fetchall()
        if len(seated) <= SMALLEST_TABLE:
            raise InvalidState(ngettext(
                "{table} has only {count} player, the fewest a table can play with: its seat "
                "cannot be left empty. Choose a player to take it instead.",
                "{table} has only {count} players, the fewest a table can play with: its seat "
                "cannot be left empty. Choose a player to take it instead.",
                len(seated)).format(table=where, count=len(seated)))
        conn.execute(sa.delete(seats_t).where(seats_t.c.table_id == t.id,
                                              seats_t.c.seat == row.seat))
        stay = [r for r in seated if r.seat != row.seat]
        after = []
        for new_seat, r in enumerate(stay, start=1):  # in seat order: each seat is free
            pick = len(stay) - new_seat + 1
            conn.execute(sa.update(seats_t).where(seats_t.c.table_id == t.id,
                                                  seats_t.c.seat == r.seat)
                         .values(seat=new_seat, pick_order=pick))
            after.append({"seat": new_seat, "player_id": int(r.player_id), "name": r.name,
                          "colour": r.colour, "pick_order": pick})
        gone = next(r.name for r in seated if r.seat == row.seat)
        audit.log(conn, actor, Action.TABLE_EMPTY_SEAT, f"table {t.id}",
               before={"table": where, "seats": [_seat_entry(r, r.name) for r in seated]},
               after={"table": where, "seats": after, "left": gone, "reason": reason})
        return {"where": where, "seat": int(row.seat), "left": gone, "players": len(after)}

    return db.write(engine, work)
