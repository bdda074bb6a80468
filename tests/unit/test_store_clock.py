"""R26: each sitting's clock in the store, on SQLite and PostgreSQL: judges and the organizer
run it on a published sitting, every action is checked against the ones before and logged,
two engines on one database read the same clock, and two judges pressing Start at once give
one start and one clear refusal."""

from __future__ import annotations

import datetime as dt
import threading

import pytest

from stsa import clock, store
from stsa.auth import Actor, Role
from stsa.domain import Action
from stsa.services import draws

ORGANIZER = Actor("Olivia", Role.ORGANIZER)
JUDGE = Actor("Jamal", Role.JUDGE)
OTHER_JUDGE = Actor("Jo", Role.JUDGE)


def sitting_of(engine, *, publish: bool = True) -> int:
    """A qualifier of 8 players (two tables), published unless told otherwise."""
    ids = store.import_players(engine, [{"name": f"Player {n}"} for n in range(8)],
                               actor=ORGANIZER)["player_id"].tolist()
    store.check_in(engine, ids, actor=ORGANIZER)
    sid = int(draws.draw_qualifier(engine, ids, seed=7, actor=ORGANIZER)["sitting_id"])
    if publish:
        draws.publish(engine, sid, actor=ORGANIZER)
    return sid


def test_R26_judges_run_a_published_sittings_clock_and_every_action_is_logged(engine):
    sid = sitting_of(engine)
    store.set_settings(engine, {"sitting_minutes": 100}, actor=ORGANIZER)
    assert store.clock_state(engine, sid).status is clock.Status.NOT_STARTED
    started = store.clock_action(engine, sid, "start", actor=JUDGE)
    assert started.status is clock.Status.RUNNING and started.length == 6000
    store.clock_action(engine, sid, "pause", actor=ORGANIZER)
    with pytest.raises(store.InvalidState, match="Qualifier 1: The clock is already paused."):
        store.clock_action(engine, sid, "pause", actor=JUDGE)
    store.clock_action(engine, sid, "resume", actor=JUDGE)
    store.clock_action(engine, sid, "extend", minutes=5, actor=JUDGE)
    with pytest.raises(store.TournamentError, match="Say why"):
        store.clock_action(engine, sid, "extend_table", minutes=5, table_no=2, actor=JUDGE)
    with pytest.raises(store.TournamentError, match="has no table 9"):
        store.clock_action(engine, sid, "extend_table", minutes=5, table_no=9, reason="x",
                           actor=JUDGE)
    found = store.clock_action(engine, sid, "extend_table", minutes=3, table_no=2,
                               reason="a  spilled\ndrink", actor=JUDGE)
    assert found.table_extra == {2: 180}
    assert found.table_left(2) - found.left == 180 and found.left <= 6300  # 100 + 5 minutes
    called = store.clock_action(engine, sid, "call", actor=ORGANIZER)
    assert called.called and called.called_early
    actions = store.clock_actions(engine, sid)
    assert [a.action for a in actions] == ["start", "pause", "resume", "extend",
                                           "extend_table", "call"]
    assert actions[4].reason == "a spilled drink" and actions[4].seconds == 180
    logged = store.events(engine, actor=ORGANIZER, action=Action.SITTING_CLOCK)
    assert len(logged) == 6 and set(logged["subject"]) == {f"sitting {sid}"}


def test_R26_spectators_and_drafts_get_no_clock(engine):
    sid = sitting_of(engine, publish=False)
    with pytest.raises(store.PermissionDenied):
        store.clock_action(engine, sid, "start", actor=Actor("Sam", Role.SPECTATOR))
    with pytest.raises(store.PermissionDenied):
        store.clock_action(engine, sid, "start", actor=None)  # type: ignore[arg-type]
    with pytest.raises(store.InvalidState, match="not published yet"):
        store.clock_action(engine, sid, "start", actor=ORGANIZER)
    assert store.clock_actions(engine, sid) == []


def test_R26_a_planned_length_from_the_schedule_wins(engine):
    sid = sitting_of(engine)
    with engine.begin() as conn:
        conn.execute(store.schema.schedule_items.insert().values(
            title="Qualifier 1", sitting_kind="qualifier", sitting_number=1,
            starts_at=dt.datetime(2027, 3, 6, 9, tzinfo=dt.UTC), minutes=90,
            updated_by="Olivia", updated_at=dt.datetime(2027, 3, 1, tzinfo=dt.UTC)))
    assert store.clock_action(engine, sid, "start", actor=JUDGE).length == 90 * 60


def test_R26_two_engines_on_one_database_read_the_same_clock(engine_url, tmp_path):
    first = store.connect(engine_url, backup_dir=tmp_path / "a")
    second = store.connect(engine_url, backup_dir=tmp_path / "b")
    try:
        sid = sitting_of(first)
        store.clock_action(first, sid, "start", actor=JUDGE)
        store.clock_action(second, sid, "pause", actor=OTHER_JUDGE)
        at = dt.datetime.now(dt.UTC) + dt.timedelta(minutes=30)
        one, two = store.clock_state(first, sid, now=at), store.clock_state(second, sid, now=at)
        assert one == two and one.status is clock.Status.PAUSED
    finally:
        first.dispose()
        second.dispose()


def test_R26_two_judges_pressing_start_at_once_give_one_start(engine_url, tmp_path):
    first = store.connect(engine_url, backup_dir=tmp_path / "a")
    second = store.connect(engine_url, backup_dir=tmp_path / "b")
    try:
        sid = sitting_of(first)
        gate, outcomes, lock = threading.Barrier(2, timeout=60), [], threading.Lock()

        def press(engine, judge) -> None:
            gate.wait()
            try:
                store.clock_action(engine, sid, "start", actor=judge)
                outcome = "started"
            except store.InvalidState as exc:
                outcome = str(exc)
            with lock:
                outcomes.append(outcome)

        threads = [threading.Thread(target=press, args=args)
                   for args in ((first, JUDGE), (second, OTHER_JUDGE))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(outcomes) == ["Qualifier 1: The clock has started already.", "started"]
        assert [a.action for a in store.clock_actions(first, sid)] == ["start"]
    finally:
        first.dispose()
        second.dispose()


def test_R26_a_clock_action_moves_the_data_version_and_a_refusal_does_not(engine):
    sid = sitting_of(engine)
    before = store.data_version(engine)
    store.clock_action(engine, sid, "start", actor=JUDGE)
    started = store.data_version(engine)
    assert started > before  # every page reads the new clock at its next refresh
    with pytest.raises(store.InvalidState):
        store.clock_action(engine, sid, "resume", actor=JUDGE)
    assert store.data_version(engine) == started
    assert [a.action for a in store.clock_actions(engine, sid)] == ["start"]
