"""The data version (DESIGN.md, shared state): derived tables are cached by a counter that the
store moves in the transaction of every write, and that never comes back to an earlier value."""

from __future__ import annotations

import pytest

from stsa import store
from stsa.auth import Actor, Role
from tests.support.store_helpers import published_sitting, rows_for

ORGANIZER = Actor("Olivia", Role.ORGANIZER)
JUDGE = Actor("Jamal", Role.JUDGE)


def test_every_write_moves_the_version_and_reads_do_not(engine):
    start = store.data_version(engine)
    store.add_player(engine, "Ann", actor=ORGANIZER)
    after_add = store.data_version(engine)
    assert after_add > start
    store.players(engine)
    store.settings(engine)
    assert store.data_version(engine) == after_add
    store.set_settings(engine, {"tournament_name": "Spring Cup"}, actor=ORGANIZER)
    assert store.data_version(engine) > after_add


def test_a_refused_write_leaves_the_version(engine):
    store.add_player(engine, "Ann", actor=ORGANIZER)
    before = store.data_version(engine)
    with pytest.raises(store.TournamentError):
        store.add_player(engine, "ann", actor=ORGANIZER)
    assert store.data_version(engine) == before


@pytest.mark.slow
def test_a_saved_result_moves_the_version_but_a_sign_in_does_not(engine, monkeypatch):
    monkeypatch.setenv("STSA_ORGANIZER_PIN", "48091573")
    monkeypatch.setenv("STSA_JUDGE_PIN", "73620419")
    store.ensure_pins(engine)
    _, tables = published_sitting(engine, 4)
    before = store.data_version(engine)
    store.sign_in(engine, "Jamal", "73620419")
    assert store.data_version(engine) == before, "a sign-in changes no tournament data"
    tid = int(tables["table_id"][0])
    store.submit_table_result(engine, tid, rows_for(engine, tid), expected_version=0,
                              submission_id="first", actor=JUDGE)
    assert store.data_version(engine) > before


def test_a_restore_moves_the_version_on_never_back(engine):
    store.add_player(engine, "Ann", actor=ORGANIZER)
    path = store.backup(engine)
    store.add_player(engine, "Ben", actor=ORGANIZER)
    before = store.data_version(engine)
    store.restore(engine, path, actor=ORGANIZER)
    assert store.data_version(engine) > before
    assert store.players(engine)["name"].tolist() == ["Ann"]
