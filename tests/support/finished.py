"""A finished tournament for the published results' tests: twelve players whose real names,
clubs and e-mails differ from their nicknames (one nickname is markup, `<b>x</b>`), two
qualifiers, the semifinal and the final played, every table's result in."""

from __future__ import annotations

import pandas as pd

from stsa import store, tournament
from stsa.auth import Actor, Role

ORGANIZER = Actor("Olivia Organizer", Role.ORGANIZER)
LETTERS = "ABCDEFGHIJKL"
# What only the organizer sees: none of it may be in anything published.
SECRETS = ("Realname", "Secretclub", "hidden.example")
MARKUP = "<b>x</b>"
NICKNAMES = [MARKUP if c == "A" else f"Nick {c}" for c in LETTERS]


def _vps(table_no: int, n: int, offset: int) -> list[int]:
    """VP distinct at every seat of every table, so no two players share a rank."""
    return [30 + 7 * table_no + offset, 20 + 3 * table_no + offset, 10 + table_no + offset,
            table_no + offset][:n]


def play(engine, sitting: dict, offset: int = 0) -> int:
    """Publish a drawn sitting and enter every table's result; its id."""
    sid = int(sitting["sitting_id"])
    store.publish_sitting(engine, sid, actor=ORGANIZER)
    seats = store.seats(engine, sid, actor=ORGANIZER)
    for t, table in enumerate(store.tables(engine, sid, actor=ORGANIZER).itertuples()):
        at = seats.loc[seats["table_id"] == table.table_id]
        rows = pd.DataFrame({"player_id": at["player_id"].to_numpy(),
                             "leader": table.available_leaders[:len(at)],
                             "vp": _vps(t, len(at), offset), "spice": 0, "solari": 0,
                             "troops": 0, "water": 0})
        store.submit_table_result(engine, table.table_id, rows, expected_version=0,
                                  submission_id=None, actor=ORGANIZER)
    return sid


def roster(engine) -> list[int]:
    """The twelve players, checked in."""
    frame = pd.DataFrame({"name": [f"Realname {c}{c.lower()}" for c in LETTERS],
                          "nickname": NICKNAMES, "club": "Secretclub",
                          "email": [f"{c}@hidden.example" for c in LETTERS]})
    ids = store.import_players(engine, frame, actor=ORGANIZER)["player_id"].tolist()
    store.check_in(engine, ids, actor=ORGANIZER)
    return ids


def up_to_the_final(engine) -> dict:
    """Two complete qualifiers and the semifinal; the final drawn and published, no result."""
    store.set_settings(engine, {"tournament_name": "Spring <Open> & Co",
                                "venue": "Arrakeen Hall"}, actor=ORGANIZER)
    ids = roster(engine)
    play(engine, tournament.draw_qualifier(engine, ids, seed=5, actor=ORGANIZER))
    play(engine, tournament.draw_qualifier(engine, ids, seed=6, actor=ORGANIZER), offset=50)
    play(engine, tournament.draw_semifinal(engine, seed=7, actor=ORGANIZER))
    final = tournament.draw_final(engine, seed=8, actor=ORGANIZER)
    store.publish_sitting(engine, final["sitting_id"], actor=ORGANIZER)
    return final


def finished(engine) -> None:
    """The whole tournament played: the final's result is in."""
    final = up_to_the_final(engine)
    seats = store.seats(engine, final["sitting_id"], actor=ORGANIZER)
    table = store.tables(engine, final["sitting_id"], actor=ORGANIZER).iloc[0]
    rows = pd.DataFrame({"player_id": seats["player_id"].to_numpy(),
                         "leader": table["available_leaders"][:len(seats)],
                         "vp": [12, 9, 6, 3][:len(seats)], "spice": 0, "solari": 0,
                         "troops": 0, "water": 0})
    store.submit_table_result(engine, int(table["table_id"]), rows, expected_version=0,
                              submission_id=None, actor=ORGANIZER)


def publish_finished(folder, patch) -> tuple[str, object]:
    """A finished tournament in a fresh database under `folder` (the app's environment set
    with `patch`, a pytest MonkeyPatch), published: (its key, the `services.archive.Archive`).
    The caller calls `forget()` when done."""
    from stsa.services import archive
    from stsa.ui import data, session

    patch.setenv("STSA_DATABASE_URL", f"sqlite:///{folder / 'stsa.db'}")
    patch.setenv("STSA_BACKUP_DIR", str(folder / "backups"))
    forget()
    engine = session.installation()
    store.ensure_pins(engine)
    finished(engine)
    key = str(store.tournaments(engine)["key"].iloc[0])
    return key, archive.publish(data.public(store.db.tournament_id(engine)), key)


def forget() -> None:
    """Close the app's engines and drop its shared reads (a test's database is gone next)."""
    import streamlit as st

    from stsa.ui import session
    from stsa.web import feed

    session.forget_engines()
    st.cache_resource.clear()
    feed.forget_recent()
