"""What one visitor could otherwise take from everyone on a venue's open Wi-Fi (README "On the
venue's network"): connections per address, a deadline for a request's headers (uvicorn's
HTTP/1.1 protocols, guarded), identical log lines throttled, the descriptor limit raised.
`stsa.web.server` runs uvicorn with these.
"""

from __future__ import annotations

import asyncio
import logging
import resource
import threading
import time
from collections import defaultdict
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

try:  # the fast parser (C) where the platform has it; h11 (pure Python) otherwise
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
except ImportError:  # pragma: no cover - httptools is pinned in requirements.txt
    HttpToolsProtocol = None  # type: ignore[assignment,misc]
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

HEADER_SECONDS = 10.0  # a request's headers must be complete by then (slow-header attacks)
CONNECTIONS_ENV = "STSA_CONNECTIONS_PER_ADDRESS"
CONNECTIONS_PER_ADDRESS = 40  # a phone uses 2–6; a person with three tabs about 15
LOG_REPEATS = 5  # identical log lines a minute before the rest are counted, not written


# --- connections per address ---------------------------------------------------------------
class Room:
    """Open connections per client address (one process): a new one over the cap is closed
    at once. Addresses of a trusted proxy are not capped (it has its own per-source limits)."""

    def __init__(self, cap: int, exempt: frozenset[str] = frozenset()):
        self.cap, self.exempt = cap, exempt
        self._open: dict[str, set[int]] = defaultdict(set)
        self._lock = threading.Lock()

    def enter(self, address: str, connection: int) -> bool:
        if self.cap <= 0 or address in self.exempt:
            return True
        with self._lock:
            held = self._open[address]
            if connection not in held and len(held) >= self.cap:
                return False
            held.add(connection)
            return True

    def leave(self, address: str, connection: int) -> None:
        with self._lock:
            held = self._open.get(address)
            if held is not None:
                held.discard(connection)
                if not held:
                    del self._open[address]

    def count(self, address: str) -> int:
        with self._lock:
            return len(self._open.get(address, ()))


ROOM = Room(CONNECTIONS_PER_ADDRESS)


def _address(transport) -> str:
    try:  # a TLS transport that is closing has no peer to tell any more
        peer = transport.get_extra_info("peername")
    except AttributeError:
        return "local"
    return str(peer[0]) if isinstance(peer, tuple) and peer else "local"


class _Guarded:
    """The connection cap and a deadline for a request's headers, on either of uvicorn's
    HTTP/1.1 protocols (`GuardedHTTP`, `GuardedHttpTools`): a request whose headers have not
    all arrived `HEADER_SECONDS` after the connection opened, or after the last answer on a
    kept-alive connection, is dropped."""

    _stsa_address: str
    _stsa_seen: Any  # the request cycle whose headers arrived last
    _stsa_deadline: asyncio.TimerHandle | None

    def connection_made(self, transport) -> None:
        super().connection_made(transport)  # type: ignore[misc]
        self._stsa_address, self._stsa_seen = _address(transport), None
        if not ROOM.enter(self._stsa_address, id(transport)):
            transport.abort()
            return
        self._stsa_deadline = self.loop.call_later(  # type: ignore[attr-defined]
            HEADER_SECONDS, self._stsa_too_slow)

    def _stsa_too_slow(self) -> None:
        transport = self.transport  # type: ignore[attr-defined]
        if not transport.is_closing() and self.cycle is self._stsa_seen:  # type: ignore[attr-defined]
            transport.abort()

    def _stsa_cancel(self) -> None:
        deadline = getattr(self, "_stsa_deadline", None)
        if deadline is not None:
            deadline.cancel()
            self._stsa_deadline = None

    def _stsa_arrived(self) -> None:
        """After the parser had its say: a whole request head arrived when a new cycle began."""
        cycle = self.cycle  # type: ignore[attr-defined]
        if cycle is not None and cycle is not self._stsa_seen:
            self._stsa_seen = cycle
            self._stsa_cancel()

    def on_response_complete(self) -> None:
        # The next request's headers get their deadline, set before uvicorn handles a request
        # already waiting (pipelined): its arrival then cancels the deadline, as for any other.
        self._stsa_cancel()
        if not self.transport.is_closing():  # type: ignore[attr-defined]
            self._stsa_seen = self.cycle  # type: ignore[attr-defined]
            self._stsa_deadline = self.loop.call_later(  # type: ignore[attr-defined]
                HEADER_SECONDS, self._stsa_too_slow)
        super().on_response_complete()  # type: ignore[misc]

    def handle_websocket_upgrade(self, *event) -> None:
        self._stsa_cancel()
        super().handle_websocket_upgrade(*event)  # type: ignore[misc]

    def connection_lost(self, exc) -> None:
        try:
            self._stsa_cancel()
            ROOM.leave(getattr(self, "_stsa_address", "local"),
                       id(self.transport))  # type: ignore[attr-defined]
        finally:
            super().connection_lost(exc)  # type: ignore[misc]


class GuardedHTTP(_Guarded, H11Protocol):
    """uvicorn's pure-Python HTTP/1.1 protocol (h11), guarded: where httptools is missing."""

    def handle_events(self) -> None:
        super().handle_events()
        self._stsa_arrived()


if HttpToolsProtocol is not None:
    class GuardedHttpTools(_Guarded, HttpToolsProtocol):
        """uvicorn's fast HTTP/1.1 protocol (the httptools parser, written in C), guarded."""

        def on_headers_complete(self) -> None:
            super().on_headers_complete()
            self._stsa_arrived()


def http_protocol() -> type:
    """The fastest guarded HTTP protocol this platform has: httptools', else h11's."""
    return GuardedHttpTools if HttpToolsProtocol is not None else GuardedHTTP


def event_loop() -> str:
    """uvicorn's event loop: uvloop (libuv) where it is installed, else asyncio's own."""
    try:
        import uvloop  # noqa: F401
    except ImportError:
        return "asyncio"
    return "uvloop"


class GuardedWebSocket(WebSocketsSansIOProtocol):
    """The websocket a connection became (one per open browser page): it leaves the room when
    it closes (under the address it came from, taken while the connection was still open)."""

    def connection_made(self, transport) -> None:
        self._stsa_address = _address(transport)
        super().connection_made(transport)

    def connection_lost(self, exc) -> None:
        try:
            ROOM.leave(getattr(self, "_stsa_address", "local"), id(self.transport))
        finally:
            super().connection_lost(exc)


# --- log lines ----------------------------------------------------------------------------
class RepeatFilter(logging.Filter):
    """Lets the first `repeats` copies of a log line through each minute and counts the rest,
    so running out of descriptors (one line per refused accept) cannot fill the disk."""

    def __init__(self, repeats: int = LOG_REPEATS, window: float = 60.0, clock=time.monotonic):
        super().__init__()
        self.repeats, self.window, self.clock = repeats, window, clock
        self._seen: dict[tuple, tuple] = {}
        self._lock = threading.Lock()

    def filter(self, record: logging.LogRecord) -> bool:
        key, now = (record.name, record.levelno, str(record.msg)), self.clock()
        with self._lock:
            start, count, dropped = self._seen.get(key, (now, 0, 0))
            if now - start >= self.window:
                if dropped:
                    record.msg = f"{record.msg} (and {dropped} more like it in the last minute)"
                start, count, dropped = now, 0, 0
            count += 1
            if count > self.repeats:
                dropped += 1
            self._seen[key] = (start, count, dropped)
            if len(self._seen) > 10_000:
                self._seen.clear()
            return count <= self.repeats


def throttle_logs() -> None:
    """Put one `RepeatFilter` on every handler that writes the server's logs."""
    repeat = RepeatFilter()
    for name in ("", "uvicorn", "uvicorn.error", "asyncio", "streamlit"):
        for handler in logging.getLogger(name).handlers:
            if not any(isinstance(f, RepeatFilter) for f in handler.filters):
                handler.addFilter(repeat)


def raise_descriptor_limit() -> int:
    """Every descriptor the system allows this process (a full room holds thousands)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 65536)
    if wanted > soft:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]
