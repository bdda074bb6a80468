"""`make serve-cluster`: several STSA app processes on one PostgreSQL database behind HAProxy.

Every process serves the same tournament: sessions, wrong-PIN counts, PINs and the data
version live in the database, so a judge signed in through one process is signed in on all of
them, and a result saved on one shows on every spectator's page. HAProxy keeps each browser on
one process (Streamlit keeps a session's widgets in the process that holds its websocket) by
hashing the client's address, and passes that address on in `X-Forwarded-For`, which the app
processes believe because STSA_TRUSTED_PROXY names HAProxy (the loopback address).

    STSA_DATABASE_URL=postgresql+psycopg://stsa@db-host/stsa make serve-cluster PROCESSES=3

With this laptop's certificate (`make tls`, in data/tls/ or STSA_TLS_DIR) HAProxy serves
HTTPS (and tells browsers to keep to it), else plain HTTP. Either way it guards the app
processes: timeouts for slow or idle clients, a cap on request bodies, and per-address limits
on open connections, new connections and requests (`haproxy_config`).

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
sys.path.insert(0, str(ROOT))

from stsa.errors import TournamentError  # noqa: E402

PROXY_ADDRESS = "127.0.0.1"
RUN_FOLDER = ROOT / "build"
# Per client address: open connections at once, new connections and requests per 10 s. A phone
# opens one websocket and a few dozen files when a page loads; far more is a flood.
MAX_OPEN, MAX_NEW_PER_10S, MAX_REQUESTS_PER_10S = 40, 60, 300
# The largest request body: the app's upload limit (6 MiB, stsa/ui/server.py) and the form
# around the file. Anything larger is refused before it reaches an app process.
MAX_BODY_BYTES = 6 * 2**20 + 64 * 2**10
# A body sent in chunks has no length to check before it arrives; browsers always send one.
LENGTH_REQUIRED = ('http-request return status 411 content-type text/plain '
                   'string "Send the length of the body."')
HSTS_SECONDS = 86400  # a day: the tournament; a laptop back on plain HTTP is not locked out long
TLS_CIPHERS = ("ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-GCM-SHA384:"
               "ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-AES128-GCM-SHA256:"
               "ECDHE-RSA-AES256-GCM-SHA384:ECDHE-RSA-CHACHA20-POLY1305")
TLS_SUITES = "TLS_AES_128_GCM_SHA256:TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256"


def haproxy_config(port: int, backends: list[int], address: str,
                   pem: Path | None = None) -> str:
    """HAProxy in front of the app processes: websockets kept open, one process per client.

    With `pem` (certificate and key in one file, `tls_pem`) it serves HTTPS only (TLS 1.2 or
    newer) and sends HSTS; without, plain HTTP. Either way: a request's headers must arrive
    within 10 s (slow clients hold no connection open), an idle client or app is dropped after
    60 s (an open websocket after an hour), bodies over `MAX_BODY_BYTES` are refused (413), and
    each client address may hold `MAX_OPEN` connections, open `MAX_NEW_PER_10S` new ones and
    send `MAX_REQUESTS_PER_10S` requests per 10 s (beyond that: refused, or 429). Forwarding
    headers a client sent are dropped: the apps believe only HAProxy's own."""
    servers = "\n".join(f"    server app{n} {PROXY_ADDRESS}:{p} check"
                        for n, p in enumerate(backends, 1))
    tls_global = "".join(f"\n    {line}" for line in (
        "ssl-default-bind-options ssl-min-ver TLSv1.2 no-tls-tickets",
        f"ssl-default-bind-ciphers {TLS_CIPHERS}",
        f"ssl-default-bind-ciphersuites {TLS_SUITES}")) if pem else ""
    bind = f"bind {address}:{port}" + (f" ssl crt {pem}" if pem else "")
    scheme = "https" if pem else "http"
    hsts = (f'\n    http-response set-header Strict-Transport-Security "max-age={HSTS_SECONDS}"'
            if pem else "")
    return f"""global
    maxconn 4096{tls_global}

defaults
    mode http
    option forwardfor
    timeout connect 5s
    timeout http-request 10s
    timeout http-keep-alive 10s
    timeout client 60s
    timeout client-fin 10s
    timeout server 60s
    timeout tunnel 1h

frontend stsa
    {bind}
    stick-table type ipv6 size 100k expire 1m store conn_cur,conn_rate(10s),http_req_rate(10s)
    tcp-request connection track-sc0 src
    tcp-request connection reject if {{ sc0_conn_cur gt {MAX_OPEN} }}
    tcp-request connection reject if {{ sc0_conn_rate gt {MAX_NEW_PER_10S} }}
    http-request deny deny_status 429 if {{ sc0_http_req_rate gt {MAX_REQUESTS_PER_10S} }}
    http-request deny deny_status 413 if {{ req.body_size gt {MAX_BODY_BYTES} }}
    {LENGTH_REQUIRED} if {{ req.hdr(transfer-encoding) -m found }}
    http-request del-header X-Forwarded-For
    http-request del-header X-Forwarded-Host
    http-request del-header Forwarded
    http-request set-header X-Forwarded-Proto {scheme}{hsts}
    default_backend apps

backend apps
    balance source
    hash-type consistent
    option httpchk GET /_stcore/health
{servers}
"""


def tls_pem(folder: Path | None = None, run_folder: Path = RUN_FOLDER) -> Path | None:
    """This laptop's certificate and key (`stsa.tls`: `folder`, else STSA_TLS_DIR, else
    data/tls/) in one file for HAProxy, `haproxy.pem` in `run_folder`, readable by its owner
    only (0600); None when there is no certificate (HAProxy then serves plain HTTP)."""
    from stsa import tls

    chosen = folder or os.environ.get("STSA_TLS_DIR") or tls.default_folder()
    certificate = tls.load_certificate(Path(chosen))
    if certificate is None:
        return None
    pem = certificate.cert_path.read_bytes() + certificate.key_path.read_bytes()
    run_folder.mkdir(parents=True, exist_ok=True)
    return tls.write_private(run_folder / "haproxy.pem", pem)  # 0600 from its first byte


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
    """The app processes on loopback, plain HTTP: HAProxy holds the certificate. Every
    connection comes from HAProxy, which has its own per-source limits."""
    env = {**os.environ, "STSA_TRUSTED_PROXY": PROXY_ADDRESS}
    return [subprocess.Popen([sys.executable, "-m", "stsa", "serve", "--port", str(port),
                              "--address", PROXY_ADDRESS, "--plain-http"], cwd=ROOT, env=env)
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
    try:
        pem = tls_pem()
    except TournamentError as exc:
        print(f"STSA: {exc}", file=sys.stderr)
        return 2
    subprocess.run([sys.executable, "-m", "stsa"], cwd=ROOT, check=True)  # prepare once
    apps = _start_apps(ports)
    config = RUN_FOLDER / "haproxy.cfg"
    config.parent.mkdir(exist_ok=True)
    config.write_text(haproxy_config(args.port, ports, args.address, pem))
    proxy = None
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        _wait_healthy(ports, apps, timeout=120)
        proxy = subprocess.Popen([haproxy, "-db", "-f", str(config)])
        scheme = "https" if pem else "http"
        print(f"STSA: {len(ports)} app processes behind {scheme}://{args.address}:{args.port}",
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
