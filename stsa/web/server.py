"""The app server: Streamlit's ASGI app (`st.App`) under uvicorn, with the limits a venue's
open Wi-Fi needs (README "On the venue's network").

`python -m stsa serve` runs `run()`. It serves STSA's own routes (stsa.web.guard) beside
Streamlit's, over HTTPS when the laptop has a certificate (`make tls`), and holds what one
visitor could otherwise take from everyone (stsa.web.limits: connections per address, a
deadline for a request's headers, the descriptor limit raised, identical log lines throttled)
and client messages near 1 MB. Nothing here asks the internet anything: the addresses printed
at start come from this machine's own interfaces.
"""

from __future__ import annotations

import ipaddress
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import streamlit as st
import uvicorn
from starlette.middleware import Middleware

from stsa.ui import session
from stsa.web import guard, limits
from stsa.web.limits import (
    CONNECTIONS_ENV,
    CONNECTIONS_PER_ADDRESS,
    GuardedWebSocket,
    Room,
    event_loop,
    http_protocol,
    raise_descriptor_limit,
    throttle_logs,
)

ROOT = Path(__file__).resolve().parents[2]
ENTRY = ROOT / "app.py"
MESSAGE_BYTES = 1024 * 1024  # a client message: widget values, a search, a form (not uploads)
# A live page polls the feed every 5 s: its connection stays open between polls (no new TCP
# or TLS handshake for each), and an idle one is closed after three missed polls.
KEEP_ALIVE_SECONDS = 15

# Streamlit's settings for a tournament server (README, "Production server settings").
STREAMLIT_OPTIONS: dict[str, Any] = {
    "server.headless": True, "server.fileWatcherType": "none", "server.runOnSave": False,
    "runner.postScriptGC": False, "browser.gatherUsageStats": False,
    "global.developmentMode": False,
}


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
    `feed` (the data feed's ASGI app, `stsa.web.feed.asgi`) in the guard's hands."""
    _guard_streamlit()
    _log_runs()
    guard.engine_source = session.engine
    guard.feed_app = feed
    return st.App(str(ENTRY), routes=guard.routes(), middleware=[Middleware(guard.Guard)])


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
    global SERVED
    limit = raise_descriptor_limit()
    cap = int(os.environ.get(CONNECTIONS_ENV, CONNECTIONS_PER_ADDRESS))
    limits.ROOM, SERVED = Room(cap, frozenset(trusted)), served
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
