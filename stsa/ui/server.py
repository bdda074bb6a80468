"""The app server: Streamlit's ASGI app (`st.App`) under uvicorn, with the limits a venue's
open Wi-Fi needs (README "On the venue's network").

`python -m stsa serve` runs `run()`. It serves STSA's own routes (stsa.ui.web) beside
Streamlit's, over HTTPS when the laptop has a certificate (`make tls`), and holds what one
visitor could otherwise take from everyone: connections per address, a deadline for a
request's headers, client messages near 1 MB, the descriptor limit raised, identical log lines
throttled. Nothing here asks the internet anything: the addresses printed at start come from
this machine's own interfaces.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import os
import resource
import sys
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import streamlit as st
import uvicorn
from starlette.middleware import Middleware
from uvicorn.protocols.http.h11_impl import H11Protocol

try:  # the fast parser (C) where the platform has it; h11 (pure Python) otherwise
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
except ImportError:  # pragma: no cover - httptools is pinned in requirements.txt
    HttpToolsProtocol = None  # type: ignore[assignment,misc]
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from stsa.ui import session, web

ROOT = Path(__file__).resolve().parents[2]
ENTRY = ROOT / "app.py"
MESSAGE_BYTES = 1024 * 1024  # a client message: widget values, a search, a form (not uploads)
HEADER_SECONDS = 10.0  # a request's headers must be complete by then (slow-header attacks)
# A live page polls the feed every 5 s: its connection stays open between polls (no new TCP
# or TLS handshake for each), and an idle one is closed after three missed polls.
KEEP_ALIVE_SECONDS = 15
CONNECTIONS_ENV = "STSA_CONNECTIONS_PER_ADDRESS"
CONNECTIONS_PER_ADDRESS = 40  # a phone uses 2–6; a person with three tabs about 15
LOG_REPEATS = 5  # identical log lines a minute before the rest are counted, not written

# Streamlit's settings for a tournament server (README, "Production server settings").
STREAMLIT_OPTIONS: dict[str, Any] = {
    "server.headless": True, "server.fileWatcherType": "none", "server.runOnSave": False,
    "runner.postScriptGC": False, "browser.gatherUsageStats": False,
    "global.developmentMode": False,
}


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


# --- what Streamlit would otherwise give away -------------------------------------------------
def _guard_streamlit() -> None:
    """Two of Streamlit's habits that a hostile network can use, switched off:

    - a deferred download (workbook, CSVs, slips) runs for any session that names its file
      id; it now runs only for the session whose page made it;
    - every new session is told the server's own path to app.py; it is now told nothing.
    """
    from streamlit.proto.ForwardMsg_pb2 import BackendOperationResponse
    from streamlit.runtime import backend_operation_handler as ops
    from streamlit.runtime.app_session import AppSession

    handler = ops.DeferredFileHandler
    if not getattr(handler, "_stsa_guarded", False):
        original = handler.handle

        async def handle(self, request, session_id):
            entry = self._get_media_file_mgr()._deferred_callables.get(
                request.deferred_file.file_id)
            if entry is None or entry.get("session_id") != session_id:
                # i18n: as is (Streamlit's own words for a file it cannot give, untranslated)
                return BackendOperationResponse(request_id=request.request_id,
                                                error_msg="Failed to generate file for download")
            return await original(self, request, session_id)

        handler.handle, handler._stsa_guarded = handle, True  # type: ignore[method-assign,attr-defined]

    if not getattr(AppSession, "_stsa_guarded", False):
        new_session = AppSession._create_new_session_message

        def without_path(self, *args, **kwargs):
            message = new_session(self, *args, **kwargs)
            message.new_session.main_script_path = ""
            return message

        AppSession._create_new_session_message, AppSession._stsa_guarded = without_path, True  # type: ignore[method-assign,attr-defined]


RUNS_ENV = "STSA_LOG_RUNS"  # "1": one line per script run in the server's output (tests)
RUN_LINE = "STSA script run:"


def _log_runs() -> None:
    """With `STSA_LOG_RUNS=1`, print one line for every script run the server starts, a whole
    page's or a fragment's (`RUN_LINE page` / `RUN_LINE fragment`): the browser tests count
    them to show that a live page costs the server no run while it polls the feed. Off by
    default (nothing is printed)."""
    from streamlit.runtime.app_session import AppSession
    from streamlit.runtime.scriptrunner import ScriptRunnerEvent

    if os.environ.get(RUNS_ENV) != "1" or getattr(AppSession, "_stsa_counted", False):
        return
    handle = AppSession._on_scriptrunner_event

    def counted(self, sender, event, *args, **kwargs):
        if event == ScriptRunnerEvent.SCRIPT_STARTED:
            kind = "fragment" if kwargs.get("fragment_ids_this_run") else "page"
            print(f"{RUN_LINE} {kind}", flush=True)
        return handle(self, sender, event, *args, **kwargs)

    AppSession._on_scriptrunner_event, AppSession._stsa_counted = counted, True  # type: ignore[method-assign,attr-defined]


def build_app(feed=None) -> st.App:
    """The ASGI app: app.py's pages, STSA's routes, the guard in front of all of them, and
    `feed` (the data feed's ASGI app, `stsa.ui.feed.asgi`) in the guard's hands."""
    _guard_streamlit()
    _log_runs()
    web.engine_source = session.engine
    web.feed_app = feed
    return st.App(str(ENTRY), routes=web.routes(), middleware=[Middleware(web.Guard)])


# --- running -------------------------------------------------------------------------------
EVERY_ADDRESS = ("0.0.0.0", "::", "")


@dataclass(frozen=True)
class Served:
    """Where the server listens and how (for the start-up message and the QR codes).

    `phones`: the addresses phones on the venue's network open, best first; `uncovered`: this
    laptop's network addresses that its certificate does not name (phones would refuse them)."""

    address: str
    port: int
    certificate: Any = None  # a stsa.tls.Certificate, or None for plain HTTP
    phones: tuple[str, ...] = ()
    uncovered: tuple[str, ...] = ()

    @property
    def scheme(self) -> str:
        return "https" if self.certificate is not None else "http"

    @property
    def everywhere(self) -> bool:
        """Whether it listens on every address of this laptop."""
        return self.address in EVERY_ADDRESS

    @property
    def laptop(self) -> str:
        """The address to open on this laptop itself."""
        return self.url("localhost" if self.everywhere else self.address)

    def url(self, host: str) -> str:
        return f"{self.scheme}://{f'[{host}]' if ':' in host else host}:{self.port}"


def _ip_version(name: str) -> int | None:
    try:
        return ipaddress.ip_address(name).version
    except ValueError:
        return None


def is_loopback(host: str) -> bool:
    """Whether `host` names this laptop only (localhost, 127.x.x.x, ::1): no phone reaches it."""
    host = host.strip("[]").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    mapped = getattr(address, "ipv4_mapped", None)
    return address.is_loopback or (mapped is not None and mapped.is_loopback)


def venue(address: str, port: int, certificate=None, names: Sequence[str] = ()) -> Served:
    """`Served` with the addresses phones can open: for a server on every address, this
    laptop's `names` (`stsa.tls.network_names`, found on the laptop itself; IPv6 only on
    `::`), those its certificate names when it has one; else the one address it listens on.
    IP addresses come first (IPv4, then IPv6), then `.local` names (mDNS), then the bare
    host name: a phone reaches an address on its network, while a laptop's name may mean
    nothing to the venue's router. Loopback is never a phone's address."""
    plain = Served(address, port, certificate)
    found = [n for n in names if _ip_version(n) != 6 or address == "::"] \
        if plain.everywhere else [address]
    hosts = [n for n in dict.fromkeys(found) if not is_loopback(n)]
    named = set(certificate.names) if certificate is not None else set(hosts)
    phones = sorted((h for h in hosts if h in named),
                    key=lambda h: _ip_version(h) or (8 if h.endswith(".local") else 9))
    uncovered = [h for h in hosts if h not in named and _ip_version(h)]
    return Served(address, port, certificate, tuple(plain.url(h) for h in phones),
                  tuple(uncovered))


SERVED: Served | None = None  # what this process serves, once `run` starts (None elsewhere)


class _Server(uvicorn.Server):
    """uvicorn's server, calling `ready` once it listens: after Streamlit's start-up and any
    line of its own, so what the organizer needs comes last in the console."""

    def __init__(self, config: uvicorn.Config, ready: Callable[[], None] | None):
        super().__init__(config)
        self._ready = ready

    async def startup(self, sockets=None) -> None:
        await super().startup(sockets)
        if self.started and self._ready is not None:
            self._ready()


def _prepare_streamlit(served: Served) -> None:
    from streamlit import config
    from streamlit.web import bootstrap

    options = {**STREAMLIT_OPTIONS, "server.port": served.port,
               "server.address": served.address}
    config._main_script_path = str(ENTRY)
    bootstrap.load_config_options(options)
    bootstrap._prepare_asgi_app_run_context(str(ENTRY), [], options,
                                            server_mode="starlette-app-direct")


def uvicorn_config(app, served: Served, *, trusted: list[str]):
    """uvicorn's settings: STSA's guarded protocols (httptools' parser and uvloop where the
    platform has them), 1 MB client messages, timeouts, TLS."""
    tls = served.certificate
    return uvicorn.Config(
        app, host=served.address, port=served.port, http=http_protocol(), ws=GuardedWebSocket,
        loop=event_loop(),
        ws_max_size=MESSAGE_BYTES, ws_ping_interval=30, ws_ping_timeout=30,
        ws_per_message_deflate=False, timeout_keep_alive=KEEP_ALIVE_SECONDS,
        h11_max_incomplete_event_size=32 * 1024, server_header=False, access_log=False,
        use_colors=False, proxy_headers=bool(trusted),
        forwarded_allow_ips=",".join(trusted) if trusted else "",
        ssl_certfile=str(tls.cert_path) if tls else None,
        ssl_keyfile=str(tls.key_path) if tls else None, lifespan="on",
        log_level="warning")


def run(served: Served, *, trusted: list[str], ready: Callable[[], None] | None = None,
        feed=None) -> int:
    """Serve until stopped (Ctrl+C); `ready` is called once the server listens; `feed`: the
    data feed's ASGI app. Returns the exit code."""
    global ROOM, SERVED
    limit = raise_descriptor_limit()
    cap = int(os.environ.get(CONNECTIONS_ENV, CONNECTIONS_PER_ADDRESS))
    ROOM, SERVED = Room(cap, frozenset(trusted)), served
    _prepare_streamlit(served)
    app = build_app(feed)
    config = uvicorn_config(app, served, trusted=trusted)
    config.load()
    throttle_logs()
    print(f"STSA: serving at {served.scheme}://{served.address}:{served.port} "
          f"({limit} descriptors; at most {cap or 'any number of'} connections per address).",
          flush=True)
    server = _Server(config, ready)
    server.run()
    return 0 if server.started else 1


if __name__ == "__main__":  # pragma: no cover - `python -m stsa serve` is the way in
    sys.exit("Start STSA with `make run` (python -m stsa serve).")
