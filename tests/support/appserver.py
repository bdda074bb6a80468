"""A real STSA app server for tests: started the way `make run` starts it, on a free 127.0.0.1
port, with its own database and known PINs; stopped afterwards.

Shared by the browser tests (tests/e2e), the protocol-level server tests (tests/server) and
scripts that need a running app (scripts/screenshots.py). `run_app(root)` gives a fresh SQLite
database under `root`; `run_app(root, database_url=...)` serves an existing database instead
(two servers on one PostgreSQL database share it); `env` adds or overrides environment
variables of the server.
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ORGANIZER_PIN = "480915"
JUDGE_PIN = "736204"
START_TIMEOUT = 60  # seconds for the app to answer its health check


@dataclass
class AppServer:
    """A running STSA app: its address, its database and what it printed."""

    url: str
    database_url: str
    root: Path
    process: subprocess.Popen
    log_path: Path
    ssl: object = None  # an ssl.SSLContext trusting the server's certificate (https only)

    def output(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def script_runs(self, kind: str | None = None) -> int:
        """How many script runs the server has started so far (a page's or a fragment's;
        `kind` "page" or "fragment" for one of them): served with `STSA_LOG_RUNS=1`, which
        `run_app(count_runs=True)` sets."""
        lines = [line.split(":", 1)[1].strip() for line in self.output().splitlines()
                 if line.startswith("STSA script run:")]
        return sum(1 for line in lines if kind is None or line == kind)


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _healthy(url: str, context=None) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2,
                                    context=context) as reply:
            return reply.status == 200
    except (urllib.error.URLError, OSError):
        return False


def _stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


def server_command(port: int) -> list[str]:
    """The launcher `make run` uses (`python -m stsa serve`), on 127.0.0.1 only."""
    return [sys.executable, "-m", "stsa", "serve", "--port", str(port),
            "--address", "127.0.0.1"]


@contextlib.contextmanager
def run_app(root: Path, *, timeout: float = START_TIMEOUT, env: Mapping[str, str] | None = None,
            database_url: str | None = None, tls: Path | None = None,
            count_runs: bool = False) -> Iterator[AppServer]:
    """Start the app with a fresh SQLite database under `root` (or on `database_url`); stop it
    after. `env` overrides the server's environment (PINs, backups, …) last. `tls`: a folder
    with a certificate made by `stsa.tls` to serve HTTPS from (default: plain HTTP).

    `count_runs`: the server logs each script run it starts (`AppServer.script_runs`).

    Raises RuntimeError with the app's output if it exits or does not answer in `timeout` s.
    """
    root.mkdir(parents=True, exist_ok=True)
    port = free_port()
    database_url = database_url or f"sqlite:///{root / 'stsa.db'}"
    server_env = {**os.environ, "STSA_DATABASE_URL": database_url,
                  "STSA_ORGANIZER_PIN": ORGANIZER_PIN, "STSA_JUDGE_PIN": JUDGE_PIN,
                  "STSA_BACKUP_DIR": str(root / "backups"), "PYTHONUNBUFFERED": "1",
                  "STSA_TLS_DIR": str(tls or root / "no-tls"),
                  **({"STSA_LOG_RUNS": "1"} if count_runs else {}), **(env or {})}
    log_path = root / "server.log"
    with open(log_path, "wb") as log:
        process = subprocess.Popen(server_command(port), cwd=ROOT, env=server_env, stdout=log,
                                   stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    context = None
    if tls is not None:
        import ssl
        context = ssl.create_default_context(cafile=str(tls / "stsa-cert.pem"))
    scheme = "https" if tls is not None else "http"
    server = AppServer(f"{scheme}://127.0.0.1:{port}", database_url, root, process, log_path,
                       context)
    try:
        deadline = time.monotonic() + timeout
        while not _healthy(server.url, context):
            if process.poll() is not None:
                raise RuntimeError(f"The app exited with code {process.returncode} before "
                                   f"answering. Its output:\n{server.output()}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"The app did not answer {server.url}/_stcore/health within "
                                   f"{timeout:.0f} s. Its output:\n{server.output()}")
            time.sleep(0.2)  # polling the health check while the server starts
        yield server
    finally:
        _stop(process)


@contextlib.contextmanager
def started(root: Path, **kwargs) -> Iterator[AppServer]:
    """`run_app` for a test: an app that does not start fails the test with its output."""
    import pytest

    with contextlib.ExitStack() as stack:
        try:
            app = stack.enter_context(run_app(root, **kwargs))
        except RuntimeError as exc:
            pytest.fail(str(exc), pytrace=False)
        yield app
