"""Phones in a room, as their browsers now behave (issue 32): a live page's element polls one
shared answer of the data feed every few seconds with the ETag it holds (`If-None-Match`), on a
kept-alive connection, each phone from an address of its own; it takes the body only when the
answer changed (200), else a 304. `make load` uses it beside the page openings; the cluster room
uses it alone, ten thousand at once.

Why asyncio and raw HTTP/1.1: ten thousand pollers with a thread each would measure the
client's own scheduler, and a Python HTTP library's parsing costs more than the server's 304.
Each phone is a coroutine on one event loop (uvloop where installed) in a thread of its own;
`Phones.add` starts one at any moment (after its page opened), `Phones.wait` waits for them
all. A phone keeps its connection open between polls, as a browser does while the server keeps
it alive.

Each phone binds its connection to its own loopback address (127.a.b.c: Linux answers every
address of 127.0.0.0/8 on the loopback), so the server's per-address limits see a room of
phones, not one address. What is recorded per poll: when it was sent, how long it took, its
status (200, 304, or an error), and the `X-STSA-Version` the answer was built at, from which
`seen_after` works out how long after a save's acknowledgement each phone first held an answer
built at or after it.
"""

from __future__ import annotations

import asyncio
import itertools
import multiprocessing
import random
import ssl as ssl_module
import threading
import time
import urllib.parse
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

HEADERS_LIMIT = 64 * 1024


def address(number: int) -> str:
    """The loopback address of phone `number` (127.1.0.1, 127.1.0.2, … 127.1.255.254, then
    127.2.…): never 127.0.0.1, the organizer's laptop itself."""
    high, low = divmod(number, 254 * 256)
    return f"127.{1 + high}.{low // 254}.{low % 254 + 1}"


@dataclass
class Polls:
    """What every phone's polls gave, kept per phone (appended from the event loop's thread
    only; read after `Phones.stop`)."""

    sent: dict[int, list[float]] = field(default_factory=dict)  # monotonic times
    seconds: dict[int, list[float]] = field(default_factory=dict)
    status: dict[int, list[int]] = field(default_factory=dict)  # 200, 304, or 0 for an error
    version: dict[int, list[int]] = field(default_factory=dict)  # X-STSA-Version, -1 if none
    hit: dict[int, list[bool]] = field(default_factory=dict)  # a proxy's cache answered it
    opened: dict[int, list[bool]] = field(default_factory=dict)  # it opened its connection
    errors: list[str] = field(default_factory=list)
    received: int = 0  # body bytes
    cached: int = 0  # answers a proxy's cache gave (`X-Cache: HIT`)

    def durations(self) -> np.ndarray:
        return np.array(list(itertools.chain.from_iterable(self.seconds.values())))

    def durations_of(self, hit: bool | None = None, opened: bool | None = None,
                     since: float | None = None) -> np.ndarray:
        """The durations of the polls a proxy's cache answered (`hit`) or not, that opened
        their connection (`opened`: a phone's first poll, or one after an error) or went on
        one held open, sent at or after the monotonic time `since`; None: any."""
        return np.array([took for phone, seconds in self.seconds.items()
                         for took, cached, fresh, sent in zip(
                             seconds, self.hit[phone], self.opened[phone], self.sent[phone])
                         if hit in (None, cached) and opened in (None, fresh)
                         and (since is None or sent >= since)])

    def count(self, status: int) -> int:
        return sum(s.count(status) for s in self.status.values())

    def seen_after(self, saves: Iterable[tuple[float, int]]) -> np.ndarray:
        """For each save (its acknowledgement's monotonic time, the data version read right
        after it) and each phone polling then: seconds from the acknowledgement to the end of
        the phone's first poll whose answer was built at or after that version (a 304 counts:
        the phone holds that answer). Saves a phone never caught up with before the end are
        left out here and counted by `missed`."""
        found = []
        for phone, sent in self.sent.items():
            done = np.array(sent) + np.array(self.seconds[phone])
            versions = np.maximum.accumulate(np.array(self.version[phone]))
            ok = np.array(self.status[phone]) > 0
            if not ok.any():
                continue
            done, versions = done[ok], versions[ok]
            for at, version in saves:
                after = done > at
                caught = np.flatnonzero(after & (versions >= version))
                if caught.size and done[0] <= at:  # its page was open when the save came
                    found.append(done[caught[0]] - at)
        return np.array(found)


@dataclass(frozen=True)
class Target:
    """What one phone polls: the address (`http(s)://host:port`) and path (with its query),
    the ETag its page opened with, and how often."""

    base: str
    path: str
    etag: str | None = None
    every: float = 5.0


class Phones:
    """Many phones polling on one event loop in a background thread."""

    def __init__(self, ssl: ssl_module.SSLContext | None = None, timeout: float = 30.0):
        self.ssl, self.timeout = ssl, timeout
        self.polls = Polls()
        self._stop: asyncio.Event | None = None
        self._tasks: set[asyncio.Future] = set()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, name="phones", daemon=True)
        self._thread.start()
        self._ready.wait(30)

    def _run(self) -> None:
        try:
            import uvloop
            loop = uvloop.new_event_loop()
        except ImportError:
            loop = asyncio.new_event_loop()
        self._loop = loop
        asyncio.set_event_loop(loop)
        self._stop = asyncio.Event()
        self._ready.set()
        loop.run_forever()

    def add(self, number: int, target: Target, until: float, start: float | None = None
            ) -> None:
        """Start phone `number` polling `target` until the monotonic time `until`; its first
        poll at `start`, else at a random moment of its first interval, as the live elements
        do."""
        future = asyncio.run_coroutine_threadsafe(self._phone(number, target, until, start),
                                                  self._loop)
        self._tasks.add(future)

    def wait(self, timeout: float) -> None:
        """Wait for every phone to end (each ends by its `until` plus a poll's timeout)."""
        deadline = time.monotonic() + timeout
        for future in list(self._tasks):
            try:
                future.result(max(0.0, deadline - time.monotonic()))
            except Exception as exc:  # noqa: BLE001 - a phone that broke is an error, counted
                self.polls.errors.append(f"phone: {type(exc).__name__}: {exc}")
        self._loop.call_soon_threadsafe(self._loop.stop)

    async def _phone(self, number: int, target: Target, until: float,
                     start: float | None = None) -> None:
        polls = self.polls
        for kept in (polls.sent, polls.seconds, polls.status, polls.version, polls.hit,
                     polls.opened):
            kept[number] = []
        parts = urllib.parse.urlsplit(target.base)
        host, port = parts.hostname or "127.0.0.1", parts.port or (443 if parts.scheme ==
                                                                    "https" else 80)
        secure = parts.scheme == "https"
        etag, reader, writer = target.etag, None, None
        due = start if start is not None else time.monotonic() + random.uniform(0, target.every)
        while due < until:
            await asyncio.sleep(max(0.0, due - time.monotonic()))
            sent = time.monotonic()
            status, version, hit = 0, -1, False
            fresh = writer is None or writer.is_closing()
            try:
                if fresh:
                    reader, writer = await asyncio.wait_for(asyncio.open_connection(
                        host, port, ssl=self.ssl if secure else None,
                        local_addr=(address(number), 0)), self.timeout)
                status, headers, body = await asyncio.wait_for(
                    _get(reader, writer, parts.netloc, target.path, etag), self.timeout)
                if status in (200, 304):
                    etag = headers.get("etag", etag)
                    version = int(headers.get("x-stsa-version", -1))
                    polls.received += len(body)
                    hit = headers.get("x-cache") == "HIT"
                    polls.cached += hit
                else:
                    polls.errors.append(f"phone {number}: HTTP {status}")
                    status = 0
                if headers.get("connection", "").lower() == "close":
                    writer.close()
                    writer = None
            except (TimeoutError, OSError, asyncio.IncompleteReadError, ValueError) as exc:
                polls.errors.append(f"phone {number}: {type(exc).__name__}: {exc}"[:300])
                if writer is not None:
                    writer.close()
                writer = None
            polls.sent[number].append(sent)
            polls.seconds[number].append(time.monotonic() - sent)
            polls.status[number].append(status)
            polls.version[number].append(version)
            polls.hit[number].append(hit)
            polls.opened[number].append(fresh)
            due += target.every
        if writer is not None:
            writer.close()


class PhonesApart:
    """`Phones` in a process of their own, forked here (so the TLS context goes with them):
    the client's other threads (the judges', the pages') hold its GIL for milliseconds at a
    time, and a phone's poll waiting behind them would count the client's time as the
    server's. Same `add` and `wait`; `polls` holds what they gave once `wait` returned. Make
    it before starting other threads (a fork copies only the calling thread). Its CPU shows in
    the client's own (`resource.RUSAGE_CHILDREN`, once `wait` has reaped it)."""

    def __init__(self, ssl: ssl_module.SSLContext | None = None, timeout: float = 30.0):
        forks = multiprocessing.get_context("fork")
        self._orders = forks.SimpleQueue()
        self._answer, answer = forks.Pipe(duplex=False)
        self._process = forks.Process(target=_apart, name="phones", daemon=True,
                                      args=(self._orders, answer, ssl, timeout))
        self._process.start()
        answer.close()
        self.polls = Polls()

    def add(self, number: int, target: Target, until: float, start: float | None = None
            ) -> None:
        """As `Phones.add` (thread-safe: the orders go through one queue)."""
        self._orders.put((number, target, until, start))

    def wait(self, timeout: float) -> None:
        """As `Phones.wait`; then the phones' process ends and its polls are here."""
        self._orders.put(("wait", timeout))
        if self._answer.poll(timeout + 60):
            self.polls = self._answer.recv()
        else:
            self.polls.errors.append("phones: their process gave no answer")
        self._process.join(30)
        if self._process.is_alive():
            self._process.kill()
            self._process.join()


def _apart(orders, answer, ssl: ssl_module.SSLContext | None, timeout: float) -> None:
    phones = Phones(ssl=ssl, timeout=timeout)
    while True:
        order = orders.get()
        if order[0] == "wait":
            phones.wait(order[1])
            answer.send(phones.polls)
            return
        phones.add(*order)


async def _get(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, host: str,
               path: str, etag: str | None) -> tuple[int, dict[str, str], bytes]:
    """One GET on a kept-alive connection, as a browser's fetch sends it: the ETag held, gzip
    taken (the body is kept as it came: a phone's cost is the bytes, not their parsing)."""
    request = (f"GET {path} HTTP/1.1\r\nHost: {host}\r\nAccept: */*\r\n"
               f"Accept-Encoding: gzip\r\n" + (f"If-None-Match: {etag}\r\n" if etag else "")
               + "\r\n").encode()
    writer.write(request)
    head = await reader.readuntil(b"\r\n\r\n")
    if len(head) > HEADERS_LIMIT:
        raise ValueError("headers too long")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ", 2)[1])
    headers = {}
    for line in lines[1:]:
        name, _sep, value = line.partition(":")
        if name:
            headers[name.strip().lower()] = value.strip()
    if headers.get("transfer-encoding", "").lower() == "chunked":
        body = bytearray()
        while True:
            size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
            chunk = await reader.readexactly(size + 2)
            if size == 0:
                break
            body += chunk[:-2]
        return status, headers, bytes(body)
    length = int(headers.get("content-length", "0") or 0)
    body = await reader.readexactly(length) if length and status != 304 else b""
    return status, headers, body


def element_target(run, base: str, every: float = 5.0) -> Target | None:
    """What a page's live element polls, from the page run as the server sent it: the first
    component whose data holds a `live` answer (its feed address and ETag); None when the page
    has no live element."""
    import json

    for element in run.elements:
        if "component" not in element.kind:
            continue
        proto = element.proto
        text = proto.json or (proto.mixed.json if proto.HasField("mixed") else "")
        if not text:
            continue
        live = json.loads(text).get("live")
        if isinstance(live, dict) and str(live.get("url", "")).startswith("/api/"):
            return Target(base, live["url"], live.get("etag"),
                          float(live.get("every_ms", every * 1000)) / 1000)
    return None
