"""Small builders for store tests: actors, draws shaped like `stsa.draw.Draw`, result rows."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

import pandas as pd

from stsa import store
from stsa.auth import Actor, Role

ORGANIZER = Actor("Olga", Role.ORGANIZER)
JUDGE = Actor("Jude", Role.JUDGE)
JUDGE2 = Actor("Jasmine", Role.JUDGE)
SPECTATOR = Actor("Sam", Role.SPECTATOR)
COLOURS = ["red", "green", "blue", "yellow"]
LEADERS = [f"Leader {c}" for c in "ABCDEFGH"]
REMOVED = ["Leader X", "Leader Y", "Leader Z"]
# The PINs the sign-in tests set through STSA_ORGANIZER_PIN / STSA_JUDGE_PIN (not trivial).
ORGANIZER_PIN, JUDGE_PIN = "48091573", "73620419"


def set_pins(engine, monkeypatch):
    """Give `engine` the sign-in tests' PINs, as a first start with the variables set does."""
    monkeypatch.setenv("STSA_ORGANIZER_PIN", ORGANIZER_PIN)
    monkeypatch.setenv("STSA_JUDGE_PIN", JUDGE_PIN)
    store.ensure_pins(engine)
    return engine


def later(monkeypatch, **delta):
    """Move the store's clock forward (back-off, session expiry and handoffs read it)."""
    from stsa.store import db
    moved = dt.datetime.now(dt.UTC) + dt.timedelta(**delta)
    monkeypatch.setattr(db, "now", lambda: moved)


@dataclass
class FakeDraw:
    """Duck-typed like stsa.draw.Draw."""

    seats: pd.DataFrame
    tables: pd.DataFrame
    seed: int
    sit_outs: list = field(default_factory=list)


def sizes(n: int) -> list[int]:
    """R1 table sizes (4s first, then 3s)."""
    tables = -(-n // 4)
    threes = 4 * tables - n
    return [4] * (tables - threes) + [3] * threes


def make_draw(player_ids, *, seed: int = 7, setups=("Legacy", "Uprising", "Legacy+Ix"),
              sit_outs=()) -> FakeDraw:
    """Players seated in the given order, 4 to a table (R1), seats 1..n, pick order reversed."""
    ids = list(player_ids)
    seat_rows, table_rows, i = [], [], 0
    for t, n in enumerate(sizes(len(ids)), start=1):
        for s in range(1, n + 1):
            seat_rows.append({"table_no": t, "seat": s, "player_id": ids[i],
                              "colour": COLOURS[s - 1], "pick_order": n + 1 - s})
            i += 1
        table_rows.append({"table_no": t, "setup_id": setups[(t - 1) % len(setups)],
                           "removed_leaders": list(REMOVED),
                           "available_leaders": list(LEADERS)})
    return FakeDraw(pd.DataFrame(seat_rows), pd.DataFrame(table_rows), seed, list(sit_outs))


def add_players(engine, n: int, prefix: str = "Player") -> list[int]:
    frame = store.import_players(engine, [{"name": f"{prefix} {i:04d}"} for i in range(n)],
                                 actor=ORGANIZER)
    return frame["player_id"].tolist()


def published_sitting(engine, n_players: int = 8, *, kind: str = "qualifier", ids=None,
                      seed: int = 7):
    """Players added (unless `ids`), drawn and published; returns (sitting, tables frame)."""
    ids = ids if ids is not None else add_players(engine, n_players)
    sitting = store.save_draw(engine, make_draw(ids, seed=seed), kind=kind, actor=ORGANIZER)
    store.publish_sitting(engine, sitting["sitting_id"], actor=ORGANIZER)
    return sitting, store.tables(engine, sitting["sitting_id"], actor=ORGANIZER)


def rows_for(engine, table_id: int, *, base: int = 10, **overrides) -> list[dict]:
    """A valid result for a table: seat s scores base - s VP, distinct leaders."""
    seats = store.seats(engine, table_id=table_id, actor=ORGANIZER)
    rows = []
    for r in seats.itertuples():
        row = {"player_id": int(r.player_id), "leader": LEADERS[r.seat - 1],
               "vp": base - r.seat, "spice": r.seat, "solari": 2, "troops": 1, "water": 0,
               "variant_points": 0}
        row.update(overrides.get(f"seat{r.seat}", {}))
        rows.append(row)
    return rows


#: The tables schema version 6 added (R25, R26): an older file is made by dropping them.
VERSION_6_TABLES = ("schedule_items", "clock_actions", "bookings", "installation_keys")
VERSION_7_TABLES = ("tournament_state", "directory", "tournaments", "seasons")  # children first


VERSION_8_TABLES = ("overlays",)


def drop_version_7(conn) -> None:
    """Take from a current database what version 7 added (R27), and version 8 after it (the
    stream overlays): the list of tournaments,
    seasons, the directory, the archived state, and the tournament of sessions and
    invitations; a test that makes an older file calls it first."""
    for table in (*VERSION_8_TABLES, *VERSION_7_TABLES):
        conn.exec_driver_sql(f"DROP TABLE {table}")
    for table in ("sessions", "invitations"):
        conn.exec_driver_sql(f"ALTER TABLE {table} DROP COLUMN tournament_id")
