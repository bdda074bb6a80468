"""Concurrent judges (R19: nothing lost, nothing silently overwritten).

Written like PostgreSQL's isolation tests: two sessions, each in its own thread, and an explicit
order of steps. A session pauses inside its write transaction (after it has checked the table's
version, before it writes) until the test lets it go on. Steps are ordered by events and by what
the database itself shows (a session waiting for a lock), never by sleeping. Every test runs on
SQLite and PostgreSQL.
"""

from __future__ import annotations

import json
import queue
import random
import sqlite3
import threading
import time
from pathlib import Path

import pytest
import sqlalchemy as sa
from sqlalchemy import event

from stsa import store
from stsa.auth import Actor, Role
from stsa.store import checks, db, draws, schema
from tests.support.store_helpers import JUDGE, JUDGE2, ORGANIZER, add_players, make_draw, rows_for

BENCH_FILE = Path(__file__).resolve().parents[2] / "build" / "store_bench.json"
THREADS, PER_THREAD, VERSIONS = 8, 200, 4  # 8 × 50 tables × 4 versions = 1,600 results


class Session:
    """One judge's session in its own thread; `start(fn)` runs fn there, `result()` waits."""

    def __init__(self, name: str):
        self.name = name
        self.out: queue.Queue = queue.Queue()
        self.thread: threading.Thread | None = None

    def start(self, fn):
        def run():
            try:
                self.out.put(("ok", fn()))
            except BaseException as exc:  # noqa: BLE001 - handed to the test
                self.out.put(("error", exc))

        self.thread = threading.Thread(target=run, name=self.name, daemon=True)
        self.thread.start()
        return self

    def done(self) -> bool:
        return not self.thread.is_alive()

    def result(self, timeout: float = 20):
        kind, value = self.out.get(timeout=timeout)
        if kind == "error":
            raise value
        return value


class Pause:
    """Holds the named session inside its transaction, right after the version check."""

    def __init__(self, monkeypatch, session_name: str):
        self.reached, self.release = threading.Event(), threading.Event()
        original = checks.check_result_rows

        def paused(*args, **kwargs):
            if threading.current_thread().name == session_name:
                self.reached.set()
                assert self.release.wait(20), "the test never released the session"
            return original(*args, **kwargs)

        monkeypatch.setattr(checks, "check_result_rows", paused)

    def wait_reached(self):
        assert self.reached.wait(20), "the session never reached its pause point"


def _write_lock_taken(engine) -> bool:
    """SQLite: another transaction holds the write lock (BEGIN IMMEDIATE cannot have it)."""
    probe = sqlite3.connect(engine.url.database, timeout=0, isolation_level=None)
    try:
        probe.execute("BEGIN IMMEDIATE")
        probe.execute("ROLLBACK")
        return False
    except sqlite3.OperationalError as exc:
        assert "locked" in str(exc)
        return True
    finally:
        probe.close()


class Waits:
    """Sees, from the database, that a session waits for a lock another session holds.

    A session's statements are noted (and, on PostgreSQL, the server process of the latest);
    the test builds the session's rows before it starts, so its first statement opens its
    write. SQLite: the session has asked for the write lock (`BEGIN IMMEDIATE`) while another
    transaction holds it, so it waits until that one ends. PostgreSQL: `pg_stat_activity`
    shows the session's process waiting on a lock, polled until a deadline.
    """

    def __init__(self, engine, *names: str):
        self.engine = engine
        self.sent = {name: threading.Event() for name in names}
        self.pids: dict[str, int] = {}
        event.listen(engine, "before_cursor_execute", self._seen)

    def _seen(self, conn, cursor, statement, parameters, context, executemany):
        name = threading.current_thread().name
        if name in self.sent:
            if not db.is_sqlite(self.engine):
                self.pids[name] = conn.connection.dbapi_connection.info.backend_pid
            self.sent[name].set()

    def close(self) -> None:
        event.remove(self.engine, "before_cursor_execute", self._seen)

    def wait_blocked(self, name: str, timeout: float = 20) -> None:
        assert self.sent[name].wait(timeout), f"{name} never reached the database"
        if db.is_sqlite(self.engine):
            assert _write_lock_taken(self.engine), f"nothing holds the lock {name} waits for"
            return
        deadline = time.monotonic() + timeout
        query = sa.text("SELECT wait_event_type FROM pg_stat_activity WHERE pid = :pid")
        with self.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            while time.monotonic() < deadline:
                if conn.execute(query, {"pid": self.pids[name]}).scalar() == "Lock":
                    return
                time.sleep(0.01)  # polling the database's own state, not ordering steps
        pytest.fail(f"{name} never waited for a lock")


@pytest.fixture
def waits(engine):
    watcher = Waits(engine, "A", "B")
    yield watcher
    watcher.close()


@pytest.fixture
def table(engine):
    ids = add_players(engine, 8)
    s = store.save_draw(engine, make_draw(ids), kind="qualifier", actor=ORGANIZER)
    store.publish_sitting(engine, s["sitting_id"], actor=ORGANIZER)
    return int(store.tables(engine, s["sitting_id"])["table_id"][0])


def test_two_judges_same_table_same_version_one_wins(engine, table, monkeypatch, waits):
    pause = Pause(monkeypatch, "A")
    a_rows, b_rows = rows_for(engine, table, base=10), rows_for(engine, table, base=20)
    a, b = Session("A"), Session("B")
    # step 1: A opens its transaction, checks version 0 and stops before writing
    a.start(lambda: store.submit_table_result(engine, table, a_rows, expected_version=0,
                                              submission_id="A-1", actor=JUDGE))
    pause.wait_reached()
    # step 2: B saves the same table from the same version: it has to wait for A
    b.start(lambda: store.submit_table_result(engine, table, b_rows, expected_version=0,
                                              submission_id="B-1", actor=JUDGE2))
    waits.wait_blocked("B")
    assert not b.done(), "B must wait for A's transaction"
    # step 3: A commits
    pause.release.set()
    won = a.result()
    assert won.version == 1
    # step 4: B gets the conflict, with A's result
    with pytest.raises(store.ConflictError) as err:
        b.result()
    assert err.value.version == 1 and err.value.saved_by == "Jude"
    assert err.value.rows["vp"].tolist() == [9, 8, 7, 6]
    stored = store.table_result(engine, table)
    assert stored.version == 1 and stored.rows["vp"].tolist() == [9, 8, 7, 6]
    assert len(store.events(engine, action="result.submit", actor=ORGANIZER)) == 1


def test_a_reader_sees_the_last_committed_version_and_does_not_wait(engine, table,
                                                                    monkeypatch):
    pause = Pause(monkeypatch, "A")
    a = Session("A").start(lambda: store.submit_table_result(
        engine, table, rows_for(engine, table), expected_version=0, submission_id="A-1",
        actor=JUDGE))
    pause.wait_reached()
    seen = store.table_result(engine, table)  # step 2: read while A is mid-transaction
    assert store.results(engine).empty
    # the reads returned while A still held its transaction open: they did not wait for it
    assert not pause.release.is_set() and not a.done()
    assert seen.version == 0 and seen.rows.empty  # no dirty read
    pause.release.set()
    assert a.result().version == 1
    assert store.table_result(engine, table).version == 1 and len(store.results(engine)) == 4


def test_a_double_sent_submission_is_stored_once(engine, table, monkeypatch, waits):
    pause = Pause(monkeypatch, "A")
    rows = rows_for(engine, table)
    a, b = Session("A"), Session("B")
    a.start(lambda: store.submit_table_result(engine, table, rows, expected_version=0,
                                              submission_id="phone-7", actor=JUDGE))
    pause.wait_reached()
    b.start(lambda: store.submit_table_result(engine, table, rows, expected_version=0,
                                              submission_id="phone-7", actor=JUDGE))
    waits.wait_blocked("B")
    assert not b.done()
    pause.release.set()
    first, second = a.result(), b.result()
    assert not first.duplicate and second.duplicate and second.version == first.version == 1
    assert len(store.events(engine, action="result.submit", actor=ORGANIZER)) == 1


def test_a_settled_order_sent_against_a_correction_in_flight_conflicts(engine, table,
                                                                     monkeypatch, waits):
    tied = {"vp": 9, "spice": 3, "solari": 2, "troops": 1, "water": 0}
    v1 = store.submit_table_result(engine, table,
                                   rows_for(engine, table, seat1=dict(tied, tiebreak=1),
                                            seat2=dict(tied, tiebreak=2)),
                                   expected_version=0, submission_id="v1", actor=JUDGE)
    correction = rows_for(engine, table, base=30)
    # B re-enters the roll-off the other way round, on the version A is correcting
    reordered = rows_for(engine, table, seat1=dict(tied, tiebreak=2),
                         seat2=dict(tied, tiebreak=1))
    pause = Pause(monkeypatch, "A")
    a, b = Session("A"), Session("B")
    a.start(lambda: store.submit_table_result(engine, table, correction, expected_version=1,
                                              submission_id="v2", actor=JUDGE))
    pause.wait_reached()
    b.start(lambda: store.submit_table_result(engine, table, reordered, expected_version=1,
                                              submission_id="order", actor=JUDGE2))
    waits.wait_blocked("B")
    assert not b.done()
    pause.release.set()
    assert a.result().version == 2
    with pytest.raises(store.ConflictError):
        b.result()
    assert v1.rows["tiebreak"].fillna(0).tolist() == [1, 2, 0, 0]
    assert store.table_result(engine, table).rows["tiebreak"].isna().all()


def _record_bench(engine_name: str, figures: dict) -> None:
    BENCH_FILE.parent.mkdir(parents=True, exist_ok=True)
    try:
        data = json.loads(BENCH_FILE.read_text())
    except (OSError, ValueError):
        data = {}
    data[engine_name] = figures
    BENCH_FILE.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n")


@pytest.mark.slow
def test_eight_threads_submit_200_results_each_with_reads(engine):
    n_tables = THREADS * PER_THREAD // VERSIONS
    ids = add_players(engine, 4 * n_tables)
    s = store.save_draw(engine, make_draw(ids), kind="qualifier", actor=ORGANIZER)
    store.publish_sitting(engine, s["sitting_id"], actor=ORGANIZER)
    table_ids = store.tables(engine, s["sitting_id"])["table_id"].tolist()
    seats = store.seats(engine, s["sitting_id"])
    by_table = {t: g["player_id"].tolist() for t, g in seats.groupby("table_id")}
    errors: list[BaseException] = []
    sent: dict[str, tuple[int, int, int]] = {}  # submission id -> (table, version, vp of seat 1)
    lock = threading.Lock()
    go = threading.Barrier(THREADS)

    def judge(k: int) -> None:
        rng = random.Random(k)
        mine = table_ids[k::THREADS]
        who = Actor(f"judge-{k}", Role.JUDGE)
        try:
            go.wait()
            n = 0
            for version in range(VERSIONS):
                for t in mine:
                    vp = rng.randrange(0, 30)
                    rows = [{"player_id": p, "leader": f"Leader {'ABCD'[i]}", "vp": vp + i,
                             "spice": i, "solari": 1, "troops": 2, "water": 3}
                            for i, p in enumerate(by_table[t])]
                    sid = f"{k}-{t}-{version}"
                    out = store.submit_table_result(engine, t, rows, expected_version=version,
                                                    submission_id=sid, actor=who)
                    assert out.version == version + 1 and not out.duplicate
                    with lock:
                        sent[sid] = (t, version + 1, vp)
                    n += 1
                    if n % 10 == 0:  # a phone that did not see the answer sends again
                        again = store.submit_table_result(engine, t, rows,
                                                          expected_version=version,
                                                          submission_id=sid, actor=who)
                        assert again.duplicate and again.version == version + 1
                    other = rng.choice(table_ids)
                    store.table_result(engine, other)
                    if n % 25 == 0:
                        store.results(engine)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=judge, args=(k,)) for k in range(THREADS)]
    started = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - started
    assert not errors, f"{len(errors)} sessions failed, first: {errors[0]!r}"
    assert len(sent) == THREADS * PER_THREAD
    # all stored, none twice
    with engine.connect() as conn:
        subs = {r.submission_id: (r.table_id, r.version) for r in conn.execute(
            sa.select(schema.submissions))}
        logged = conn.execute(sa.select(sa.func.count()).select_from(schema.events).where(
            schema.events.c.action.in_(["result.submit", "result.correct"]))).scalar()
    assert subs == {sid: (t, v) for sid, (t, v, _) in sent.items()}
    assert logged == THREADS * PER_THREAD
    res = store.results(engine)
    assert len(res) == 4 * n_tables and res["version"].eq(VERSIONS).all()
    last = {t: vp for sid, (t, v, vp) in sent.items() if v == VERSIONS}
    first_seat = res[res["seat"] == 1].set_index("game_id")["vp"]
    assert first_seat.to_dict() == last
    assert store.sittings(engine)["status"].tolist() == ["complete"]
    rate = THREADS * PER_THREAD / elapsed
    name = engine.dialect.name
    print(f"\nSTSA store, {name}: {THREADS} threads × {PER_THREAD} results (with reads and "
          f"repeats) in {elapsed:.2f} s = {rate:.0f} results/s")
    _record_bench("postgresql" if name == "postgresql" else "sqlite",
                  {"threads": THREADS, "results": THREADS * PER_THREAD,
                   "seconds": round(elapsed, 3), "results_per_second": round(rate, 1)})


def test_the_last_two_tables_saved_at_once_complete_the_sitting_once(engine, monkeypatch,
                                                                      waits):
    ids = add_players(engine, 8)
    s = store.save_draw(engine, make_draw(ids), kind="qualifier", actor=ORGANIZER)
    store.publish_sitting(engine, s["sitting_id"], actor=ORGANIZER)
    t1, t2 = store.tables(engine, s["sitting_id"])["table_id"].tolist()
    reached, release = threading.Event(), threading.Event()
    original = draws.try_complete

    def paused(conn, sitting_id, actor):
        done = original(conn, sitting_id, actor)
        if threading.current_thread().name == "A" and not reached.is_set():
            reached.set()  # A has checked for completion and not committed yet
            assert release.wait(20)
        return done

    monkeypatch.setattr(draws, "try_complete", paused)
    a, b = Session("A"), Session("B")
    rows1, rows2 = rows_for(engine, t1), rows_for(engine, t2)
    # step 1: A saves table 1 and stops just before its commit (table 2 still empty)
    a.start(lambda: store.submit_table_result(engine, t1, rows1, expected_version=0,
                                              submission_id="A", actor=JUDGE))
    assert reached.wait(20)
    # step 2: B saves table 2 (SQLite: B waits for A's write lock; PostgreSQL: B commits and
    # still sees table 1 empty)
    b.start(lambda: store.submit_table_result(engine, t2, rows2, expected_version=0,
                                              submission_id="B", actor=JUDGE2))
    if engine.dialect.name == "sqlite":
        waits.wait_blocked("B")
        assert not b.done()
        release.set()  # step 3: A commits, then B
        outs = [a.result(), b.result()]
    else:
        first = b.result()  # B has committed while A is still open
        assert not first.completed_sitting
        release.set()  # step 3: A commits
        outs = [a.result(), first]
    assert sorted(o.completed_sitting for o in outs) == [False, True]
    assert store.sitting(engine, s["sitting_id"])["status"] == "complete"
    assert len(store.events(engine, action="sitting.complete", actor=ORGANIZER)) == 1
    assert store.backups(engine)["name"].str.contains("complete-qualifier-1").sum() == 1


def test_two_organizers_adding_the_same_name_at_once(engine):
    go = threading.Barrier(2)

    def add(k):
        go.wait()
        return store.add_player(engine, "Paul Atreides" if k else "paul  atreides",
                                actor=ORGANIZER)

    sessions = [Session(f"O{k}").start(lambda k=k: add(k)) for k in range(2)]
    outcomes = []
    for s in sessions:
        try:
            outcomes.append(s.result()["name"])
        except store.DuplicateName:
            outcomes.append("duplicate")
    assert outcomes.count("duplicate") == 1
    assert len(store.players(engine)) == 1
