"""`make serve-cluster`: several STSA app processes on one PostgreSQL database behind HAProxy.

Every process serves the same tournament: sessions, wrong-PIN counts, PINs and the data
version live in the database, so a judge signed in through one process is signed in on all of
them, and a result saved on one shows on every spectator's page. HAProxy keeps each browser on
one process (Streamlit keeps a session's widgets in the process that holds its websocket) by
hashing the client's address, and passes that address on in `X-Forwarded-For`, which the app
processes believe because STSA_TRUSTED_PROXY names HAProxy (the loopback address).

    STSA_DATABASE_URL=postgresql+psycopg://stsa@db-host/stsa make serve-cluster PROCESSES=3

Stops every process on Ctrl+C (or SIGTERM). Needs Debian's `haproxy`.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROXY_ADDRESS = "127.0.0.1"


def haproxy_config(port: int, backends: list[int], address: str) -> str:
    """HAProxy in front of the app processes: websockets kept open, one process per client."""
    servers = "\n".join(f"    server app{n} {PROXY_ADDRESS}:{p} check"
                        for n, p in enumerate(backends, 1))
    return f"""global
    maxconn 4096

defaults
    mode http
    option forwardfor
    timeout connect 5s
    timeout client 1h
    timeout server 1h
    timeout tunnel 1h

frontend stsa
    bind {address}:{port}
    default_backend apps

backend apps
    balance source
    hash-type consistent
    option httpchk GET /_stcore/health
{servers}
"""


def _healthy(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://{PROXY_ADDRESS}:{port}/_stcore/health",
                                    timeout=2) as reply:
            return reply.status == 200
    except OSError:
        return False


def _wait_healthy(ports: list[int], processes: list[subprocess.Popen], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    for port in ports:
        while not _healthy(port):
            if any(p.poll() is not None for p in processes):
                raise SystemExit("STSA: an app process stopped while starting; see above.")
            if time.monotonic() > deadline:
                raise SystemExit(f"STSA: the app on port {port} did not answer in time.")
            time.sleep(0.2)


def _start_apps(ports: list[int]) -> list[subprocess.Popen]:
    env = {**os.environ, "STSA_TRUSTED_PROXY": PROXY_ADDRESS}
    return [subprocess.Popen([sys.executable, "-m", "stsa", "serve", "--port", str(port),
                              "--address", PROXY_ADDRESS], cwd=ROOT, env=env)
            for port in ports]


def _stop(processes: list[subprocess.Popen]) -> None:
    for process in processes:
        if process.poll() is None:
            process.terminate()
    for process in processes:
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()


def check(database_url: str | None, haproxy: str | None) -> str | None:
    """Why a cluster cannot start here, or None."""
    if not (database_url or "").startswith("postgresql"):
        return ("STSA: a cluster shares one PostgreSQL database: set STSA_DATABASE_URL to "
                "postgresql+psycopg://user@host/database (SQLite serves one process only).")
    if haproxy is None:
        return "STSA: install HAProxy first (as root: apt-get install haproxy)."
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--port", type=int, default=int(os.environ.get("STSA_PORT", "8501")))
    parser.add_argument("--address", default=os.environ.get("STSA_ADDRESS", "0.0.0.0"))
    parser.add_argument("--app-ports", default="",
                        help="comma-separated ports of the app processes (default 8601, 8602 …)")
    args = parser.parse_args(argv)
    haproxy = shutil.which("haproxy")
    problem = check(os.environ.get("STSA_DATABASE_URL"), haproxy)
    if problem:
        print(problem, file=sys.stderr)
        return 2
    ports = ([int(p) for p in args.app_ports.split(",")] if args.app_ports
             else [8601 + n for n in range(max(1, args.processes))])
    subprocess.run([sys.executable, "-m", "stsa"], cwd=ROOT, check=True)  # prepare once
    apps = _start_apps(ports)
    config = ROOT / "build" / "haproxy.cfg"
    config.parent.mkdir(exist_ok=True)
    config.write_text(haproxy_config(args.port, ports, args.address))
    proxy = None
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        _wait_healthy(ports, apps, timeout=120)
        proxy = subprocess.Popen([haproxy, "-db", "-f", str(config)])
        print(f"STSA: {len(ports)} app processes behind http://{args.address}:{args.port}",
              flush=True)
        while all(p.poll() is None for p in [*apps, proxy]):
            time.sleep(1)
        return 1
    except KeyboardInterrupt:
        return 0
    finally:
        _stop([p for p in [proxy, *apps] if p is not None])


if __name__ == "__main__":
    raise SystemExit(main())
