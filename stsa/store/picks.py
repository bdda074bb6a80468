"""Leader picks at a table (R10): the Vote Off votes and the leaders they removed, and the Wild
Card choices with the leaders they gave. Both are hidden from spectators (R20) and logged with
what they replaced (R19). The decisions themselves (which leaders, which random draws) are made
by `stsa.draw` and checked by the services; the store keeps them and checks what it can see: a
published table without a result, players seated there, leaders of the table's deck.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from stsa.auth import Actor, can_see_hidden, require
from stsa.domain import Action, Role, SittingStatus, TournamentError, table_label
from stsa.i18n import N_, _
from stsa.store import audit, db, frames
from stsa.store.errors import InvalidState, PermissionDenied
from stsa.store.schema import leader_votes as votes_t
from stsa.store.schema import seats as seats_t
from stsa.store.schema import sittings as sittings_t
from stsa.store.schema import tables as tables_t
from stsa.store.schema import wild_cards as wild_t

VOTE_COLUMNS = {"player_id": "int64", "leader": "str", "entered_by": "str",
                "entered_at": frames.UTC_TIME}
WILD_CARD_COLUMNS = {"seat": "int64", "player_id": "int64", "picked_leader": "str",
                     "swapped": "bool", "leader": "str", "entered_by": "str",
                     "entered_at": frames.UTC_TIME}


def _open_table(conn: Connection, table_id: int) -> dict:
    """The table, locked, with its sitting; only a published table without a result takes
    picks (a drawn one may still be redrawn; a result fixes the leaders)."""
    table = db.lock_row(conn, tables_t, int(table_id), "table")
    sitting = conn.execute(sa.select(sittings_t).where(
        sittings_t.c.id == table.sitting_id)).one()
    where = table_label(sitting.kind, sitting.number, table.table_no)
    if sitting.status == SittingStatus.DRAWN:
        raise InvalidState(_("{table} is not published yet: publish the draw first.").format(
            table=where))
    if table.result_version:
        raise InvalidState(_("{table} has a result already: its leaders are fixed.").format(
            table=where))
    seated = set(conn.execute(sa.select(seats_t.c.player_id)
                              .where(seats_t.c.table_id == table.id)).scalars())
    return {"row": table, "where": where, "seated": seated}


def _check_players(found: set, seated: set, where: str) -> None:
    strangers = sorted(found - seated)
    if strangers:
        raise TournamentError(_("{table}: player {players} is not seated at this table.").format(
            table=where, players=", ".join(map(str, strangers))))


def save_vote_off(engine: Engine, table_id: int, votes: pd.DataFrame, removed: list[str], *,
                  actor: Actor, decided: list[dict] | None = None) -> dict:
    """R10 Vote Off: keep the table's votes (`player_id, leader`) and make `removed` (the two
    leaders the votes took out, `picks.vote_off_removals`) the table's removed leaders; the rest
    of its deck is what the players pick from. Judges and the organizer only; entering the votes
    again replaces them (logged with the earlier ones). Returns the table's removed and
    available leaders."""
    require(actor, Role.JUDGE, Role.ORGANIZER, action=N_("enter Vote Off votes"))
    rows = votes[["player_id", "leader"]].astype({"player_id": "int64", "leader": "str"})

    def work(conn: Connection) -> dict:
        table = _open_table(conn, table_id)
        _check_players(set(rows["player_id"]), table["seated"], table["where"])
        row = table["row"]
        deck = frames.loads(row.available_leaders) + frames.loads(row.removed_leaders)
        unknown = sorted((set(rows["leader"]) | set(removed)) - set(deck))
        if unknown:
            raise TournamentError(_("{table}: {leaders} is not in this table's leader "
                                    "deck.").format(table=table["where"],
                                                    leaders=", ".join(unknown)))
        before = _votes(conn, table_id)
        conn.execute(sa.delete(votes_t).where(votes_t.c.table_id == int(table_id)))
        at = db.now()
        conn.execute(sa.insert(votes_t), [{"table_id": int(table_id), "player_id": int(p),
                                           "leader": str(leader), "entered_by": actor.name,
                                           "entered_at": at}
                                          for p, leader in zip(rows["player_id"], rows["leader"])])
        available = [leader for leader in deck if leader not in removed]
        conn.execute(sa.update(tables_t).where(tables_t.c.id == int(table_id)).values(
            removed_leaders=frames.dumps(list(removed)), available_leaders=frames.dumps(available)))
        audit.log(conn, actor, Action.PICKS_VOTE_OFF, f"table {int(table_id)}",
               before={"votes": before} if before else None,
               after={"votes": rows.to_dict("records"), "removed": list(removed),
                      "decided": decided or []}, at=at)
        return {"removed_leaders": list(removed), "available_leaders": available}

    return db.write(engine, work)


def _votes(conn: Connection, table_id: int) -> list[dict]:
    return [{"player_id": r.player_id, "leader": r.leader} for r in conn.execute(
        sa.select(votes_t.c.player_id, votes_t.c.leader)
        .where(votes_t.c.table_id == int(table_id))
        .order_by(votes_t.c.player_id, votes_t.c.leader))]


def vote_off_votes(engine: Engine, table_id: int, *, actor: Actor | None) -> pd.DataFrame:
    """R10, R20: a table's votes (`player_id, leader, entered_by, entered_at`), for judges
    and the organizer only: spectators never see votes."""
    if not can_see_hidden(actor):
        raise PermissionDenied(_("Only judges and the organizer see the votes."))
    with db.reading(engine) as conn:
        return frames.query_frame(conn, sa.select(*[votes_t.c[c] for c in VOTE_COLUMNS])
                              .where(votes_t.c.table_id == int(table_id))
                              .order_by(votes_t.c.player_id, votes_t.c.leader), VOTE_COLUMNS)


def save_wild_cards(engine: Engine, table_id: int, chosen: pd.DataFrame, *,
                    actor: Actor) -> pd.DataFrame:
    """R10 Wild Card: keep each player's choice at the table (`seat, player_id,
    original_leader` as picked, `swapped`, `leader` as now played, from
    `picks.wild_card_draws`). The choice is final: a table's wild cards are entered once.
    Judges and the organizer only; logged. Returns the stored choices."""
    require(actor, Role.JUDGE, Role.ORGANIZER, action=N_("enter Wild Card choices"))

    def work(conn: Connection) -> None:
        table = _open_table(conn, table_id)
        _check_players(set(chosen["player_id"].astype(int)), table["seated"], table["where"])
        if conn.execute(sa.select(sa.func.count()).select_from(wild_t)
                        .where(wild_t.c.table_id == int(table_id))).scalar():
            raise InvalidState(_("{table}: the Wild Card choices are made already; they are "
                                 "final.").format(table=table["where"]))
        at = db.now()
        rows = [{"table_id": int(table_id), "seat": int(r["seat"]),
                 "player_id": int(r["player_id"]), "picked_leader": str(r["original_leader"]),
                 "swapped": bool(r["swapped"]), "leader": str(r["leader"]),
                 "entered_by": actor.name, "entered_at": at}
                for r in chosen.to_dict("records")]
        conn.execute(sa.insert(wild_t), rows)
        audit.log(conn, actor, Action.PICKS_WILD_CARD, f"table {int(table_id)}",
               after=[{k: _plain(r[k]) for k in ("seat", "player_id", "picked_leader",
                                                  "swapped", "leader")} for r in rows], at=at)

    db.write(engine, work)
    return wild_card_choices(engine, table_id, actor=actor)


def _plain(value: Any) -> Any:
    return value.item() if hasattr(value, "item") else value


def wild_card_choices(engine: Engine, table_id: int, *, actor: Actor | None) -> pd.DataFrame:
    """R10, R20: a table's Wild Card choices by seat, for judges and the organizer only."""
    if not can_see_hidden(actor):
        raise PermissionDenied(_("Only judges and the organizer see the Wild Card draws."))
    with db.reading(engine) as conn:
        return frames.query_frame(conn, sa.select(*[wild_t.c[c] for c in WILD_CARD_COLUMNS])
                              .where(wild_t.c.table_id == int(table_id))
                              .order_by(wild_t.c.seat), WILD_CARD_COLUMNS)
