"""What a poll costs the server (DESIGN.md, "The crowd"): each tournament's data version read at
most once per short interval per process (`Versions`), and the feed's answers built once per
version, at most once a second, by one thread while the others get the answer as it was
(`Answers`), under an ETag that follows the content."""

from __future__ import annotations

import gzip
import threading

from stsa import store
from stsa.services.shared import Answers, Versions, make_answer
from tests.support.store_helpers import ORGANIZER


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class Engine:
    """A stand-in engine: its version, and how often it was read."""

    def __init__(self, version: int = 1) -> None:
        self.version, self.reads = version, 0

    def read(self) -> int:
        self.reads += 1
        return self.version


def _versions(seconds: float = 0.25, clock=None) -> Versions:
    return Versions(seconds, read=lambda engine: engine.read(), clock=clock or Clock())


def test_a_version_is_read_once_per_interval_and_again_after_it():
    clock = Clock()
    versions, engine = _versions(clock=clock), Engine(7)
    assert versions.fresh(engine) is None  # nothing read yet: no guess
    assert [versions.current(engine) for _ in range(50)] == [7] * 50
    assert engine.reads == 1 and versions.fresh(engine) == 7
    engine.version = 8  # another process saved
    clock.now += 0.2
    assert versions.current(engine) == 7 and engine.reads == 1  # within the interval
    clock.now += 0.1
    assert versions.fresh(engine) is None
    assert versions.current(engine) == 8 and engine.reads == 2


def test_a_write_in_this_process_is_seen_at_once():
    versions, engine = _versions(seconds=60), Engine(3)
    assert versions.current(engine) == 3
    engine.version = 4
    versions.moved(engine)
    assert versions.current(engine) == 4 and engine.reads == 2


def test_readers_of_a_stale_version_wait_for_one_read():
    reading, go = threading.Event(), threading.Event()

    class Slow(Engine):
        def read(self) -> int:
            reading.set()
            go.wait(10)
            return super().read()

    versions, engine = _versions(), Slow(5)
    found: list[int] = []
    first = threading.Thread(target=lambda: found.append(versions.current(engine)))
    first.start()
    assert reading.wait(10)
    others = [threading.Thread(target=lambda: found.append(versions.current(engine)))
              for _ in range(5)]
    for thread in others:
        thread.start()
    go.set()
    for thread in [first, *others]:
        thread.join(10)
    assert found == [5] * 6 and engine.reads == 1


def test_the_store_tells_of_every_committed_write(sqlite_engine):
    heard = []
    store.db.on_write(heard.append)
    store.db.on_write(heard.append)  # registered once, however often asked
    try:
        store.add_player(sqlite_engine, "Ann", actor=ORGANIZER)
        assert heard == [sqlite_engine]
    finally:
        store.db._written.remove(heard.append)


def _made(body: bytes, stamp=1, clock=None):
    return lambda: make_answer(stamp, body, "application/json", salt=("v1", "en"),
                               clock=clock or Clock())


def test_an_answer_is_built_once_per_version_and_at_most_once_a_second():
    clock = Clock()
    answers, builds = Answers(1.0, clock=clock), []

    def build(version):
        def made():
            builds.append(version)
            return make_answer(version, b'{"v":%d}' % version, "application/json",
                               clock=clock)
        return made

    assert answers.get("standings", 1, build(1)).body == b'{"v":1}'
    assert answers.get("standings", 1, build(1)).body == b'{"v":1}' and builds == [1]
    clock.now += 0.3  # a judge saved: version 2, a moment after the last build
    assert answers.peek("standings", 2).body == b'{"v":1}'  # as it was, no work
    assert answers.get("standings", 2, build(2)).body == b'{"v":1}' and builds == [1]
    clock.now += 0.8  # a second after the last build
    assert answers.peek("standings", 3) is None
    assert answers.get("standings", 3, build(3)).body == b'{"v":3}' and builds == [1, 3]
    assert answers.get("other", 3, build(3)).body == b'{"v":3}'  # each key its own
    answers.expire()  # tests: a write must show at once
    assert answers.get("standings", 3, build(3)).body == b'{"v":3}' and builds == [1, 3, 3]
    assert answers.get("standings", 4, build(4)).body == b'{"v":4}'


def test_while_one_thread_builds_the_others_get_the_answer_as_it_was():
    clock = Clock()
    answers = Answers(0.0, clock=clock)
    answers.get("standings", 1, _made(b"old", 1, clock))
    building, done = threading.Event(), threading.Event()

    def slow():
        building.set()
        done.wait(10)
        return make_answer(2, b"new", "application/json", clock=clock)

    builder = threading.Thread(target=lambda: answers.get("standings", 2, slow))
    builder.start()
    assert building.wait(10)
    assert answers.get("standings", 2, _made(b"never")).body == b"old"  # no second build
    done.set()
    builder.join(10)
    assert answers.get("standings", 2, _made(b"never")).body == b"new"


def test_a_first_answer_is_waited_for_not_built_twice():
    answers, building, done, builds = Answers(1.0), threading.Event(), threading.Event(), []

    def slow():
        builds.append(1)
        building.set()
        done.wait(10)
        return make_answer(1, b"first", "application/json")

    found: list[bytes] = []
    first = threading.Thread(target=lambda: found.append(answers.get("k", 1, slow).body))
    first.start()
    assert building.wait(10)
    second = threading.Thread(target=lambda: found.append(answers.get("k", 1, slow).body))
    second.start()
    done.set()
    first.join(10)
    second.join(10)
    assert found == [b"first", b"first"] and builds == [1]


def test_the_etag_follows_the_content_and_big_answers_are_gzipped_once():
    small = make_answer(1, b'{"a":1}', "application/json", salt=("v1", "en"))
    same = make_answer(2, b'{"a":1}', "application/json", salt=("v1", "en"))
    other = make_answer(2, b'{"a":2}', "application/json", salt=("v1", "en"))
    swedish = make_answer(1, b'{"a":1}', "application/json", salt=("v1", "sv"))
    assert small.etag == same.etag != other.etag
    assert swedish.etag != small.etag  # the language is part of it
    assert small.gzipped is None  # not worth it
    body = b'{"standings":[' + b",".join(b'{"rank":%d}' % n for n in range(200)) + b"]}"
    big = make_answer(1, body, "application/json")
    assert big.gzipped is not None and gzip.decompress(big.gzipped) == body
    assert len(big.gzipped) < len(body) / 3
