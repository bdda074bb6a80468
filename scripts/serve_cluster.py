"""`make serve-cluster`: several STSA app processes on one PostgreSQL database behind HAProxy,
whose cache answers the phones' polls.

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

The cache: a phone's live page polls a shared answer of the data feed (`/api/…`, and an
overlay polls its own) every few seconds with the ETag it holds. HAProxy keeps each answer
the app gives for a second (the feed says `Cache-Control: public, max-age=1`) and answers
every poll of that second itself: a 304 when the phone's ETag is the kept one, else the kept
answer. So a thousand phones on one answer cost an app process about one request a second,
and a save shows on the phones within that second plus the app's own freshness. Each answer
says `X-Cache: HIT` (from the cache, with its `Age`) or `MISS` (from an app process).

Why HAProxy's cache and not nginx in front of it: HAProxy already holds the certificate,
keeps each client on its process and limits each address; its cache is a few lines in the
same file, so one proxy does it all, from one Debian package. Its cache keeps only full 200
answers: a miss goes to the app without the phone's `If-None-Match`, so the app answers 200
(never 304) and the cache refills even when every phone sends its ETag.

The limits and the cache hold together: each address may hold `MAX_OPEN` connections, open
`MAX_NEW_PER_10S` and send `MAX_REQUESTS_PER_10S` requests per 10 s, polls the cache answers
included; a phone holds two connections and polls twice per 10 s, so a flood is refused before
the cache answers it, and a phone never is. HAProxy takes up to `MAXCONN` connections at once
(10,000 phones) as far as its open-file limit allows (`FD_HARD_LIMIT`), and this script prints
how many it took. Its stats socket, build/haproxy.sock, answers `show info` and `show cache`.

Stops every process on Ctrl+C (or SIGTERM). Needs Debian's `haproxy`.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from stsa.errors import TournamentError  # noqa: E402
from stsa.ui.web import FEED_PREFIXES  # noqa: E402

PROXY_ADDRESS = "127.0.0.1"
RUN_FOLDER = ROOT / "build"
# Per client address: open connections at once, new connections and requests per 10 s. A phone
# holds two connections (its page's websocket, and the kept-alive one its polls reuse: a poll
# every 5 s is inside `timeout http-keep-alive`) and sends two polls per 10 s, answered from
# the cache or not; opening a page takes a few connections and a few dozen files. Far more is
# a flood. The limits count each address: they hold while each phone reaches the proxy from its
# own address (the venue's Wi-Fi on the proxy's network); behind one NAT address, raise them.
MAX_OPEN, MAX_NEW_PER_10S, MAX_REQUESTS_PER_10S = 40, 60, 300
# The cache in front of the data feed and the overlays (`FEED_PREFIXES`): an answer is kept a
# second at most (and as long as the app's `Cache-Control: max-age` says, if shorter).
CACHE_NAME = "feed"
CACHE_SECONDS = 1
CACHE_MEGABYTES = 64  # shared memory, split in 1 kB blocks; the oldest answers go first
CACHE_OBJECT_BYTES = 4 * 2**20  # a larger answer is passed on, not kept
# HAProxy's connections at once: 10,000 phones hold two each, and a quarter more for pages
# opening (a browser opens up to six at once), the judges and the organizer. HAProxy reckons
# two open files per connection (the client's end and the app's) and computes its `maxconn`
# from the open-file limit it gets, up to `FD_HARD_LIMIT`: a system that allows fewer files
# gets fewer connections, not a proxy that refuses to start (`main` says how many it took).
PHONES = 10_000
MAXCONN = 25_000
FD_HARD_LIMIT = 2 * MAXCONN + 100  # and a few for its listeners, checks and logs
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
                   pem: Path | None = None, stats: Path | None = None,
                   connections: int | None = None) -> str:
    """HAProxy in front of the app processes: websockets kept open, one process per client, the
    data feed's answers cached for a second.

    With `pem` (certificate and key in one file, `tls_pem`) it serves HTTPS only (TLS 1.2 or
    newer) and sends HSTS; without, plain HTTP. Either way: a request's headers must arrive
    within 10 s (slow clients hold no connection open), an idle client or app is dropped after
    60 s (an open websocket after an hour), bodies over `MAX_BODY_BYTES` are refused (413), and
    each client address may hold `MAX_OPEN` connections, open `MAX_NEW_PER_10S` new ones and
    send `MAX_REQUESTS_PER_10S` requests per 10 s (beyond that: refused, or 429; a request
    the cache answers counts too). Forwarding headers a client sent are dropped: the apps
    believe only HAProxy's own.

    The cache: GETs under `FEED_PREFIXES` are answered from it when it holds the answer (a
    304 when the client's `If-None-Match` is its ETag), for `CACHE_SECONDS`; on a miss the
    request goes to the app without `If-None-Match`, so the app's 200 is kept (the cache keeps
    no 304) and the next polls are answered from it. `X-Cache: HIT` or `MISS` on those answers;
    a hit's `X-STSA-Now` (the server's clock, which overlays count down from) is the proxy's
    now, not the second-old one kept. `stats`: a socket for `show info` / `show cache`, the
    owner's only.

    `connections`: take that many connections at once even where the open-file limit gives
    fewer than two files for each (the load test's phones: each holds one connection that the
    cache answers and opens no websocket, so one file each is what they use)."""
    servers = "\n".join(f"    server app{n} {PROXY_ADDRESS}:{p} check"
                        for n, p in enumerate(backends, 1))
    tls_global = "".join(f"\n    {line}" for line in (
        "ssl-default-bind-options ssl-min-ver TLSv1.2 no-tls-tickets",
        f"ssl-default-bind-ciphers {TLS_CIPHERS}",
        f"ssl-default-bind-ciphersuites {TLS_SUITES}")) if pem else ""
    stats_socket = f"\n    stats socket {stats} mode 600 level operator" if stats else ""
    bind = f"bind {address}:{port}" + (f" ssl crt {pem}" if pem else "")
    scheme = "https" if pem else "http"
    hsts = (f'\n    http-response set-header Strict-Transport-Security "max-age={HSTS_SECONDS}"'
            if pem else "")
    cached = " ".join(FEED_PREFIXES)
    own_limit = (f"\n    maxconn {connections}\n    no strict-limits" if connections else "")
    return f"""global
    fd-hard-limit {FD_HARD_LIMIT}{own_limit}{stats_socket}{tls_global}

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

cache {CACHE_NAME}
    total-max-size {CACHE_MEGABYTES}
    max-object-size {CACHE_OBJECT_BYTES}
    max-age {CACHE_SECONDS}
    process-vary on

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
    http-request set-var(txn.cached) bool(true) if {{ path_beg {cached} }}
    acl cached var(txn.cached) -m bool
    acl hit res.cache_hit
    acl clock_sent res.hdr(X-STSA-Now) -m found
    http-request cache-use {CACHE_NAME} if cached
    http-after-response set-header X-Cache HIT if cached hit
    http-after-response set-header X-Cache MISS if cached !hit
    http-after-response set-header X-STSA-Now %[date(0,ms)] if hit clock_sent
    default_backend apps

backend apps
    balance source
    hash-type consistent
    option httpchk GET /_stcore/health
    http-request del-header If-None-Match if {{ var(txn.cached) -m bool }}
    http-response cache-store {CACHE_NAME} if {{ var(txn.cached) -m bool }}
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


def haproxy_info(stats: Path) -> dict[str, str]:
    """HAProxy's own figures from its stats socket (`show info`): "Maxconn" (the connections
    it takes at once, computed from its open-file limit), "Ulimit-n", …"""
    with socket.socket(socket.AF_UNIX) as connection:
        connection.settimeout(5)
        connection.connect(str(stats))
        connection.sendall(b"show info\n")
        said = b"".join(iter(lambda: connection.recv(65536), b"")).decode()
    return dict(line.split(": ", 1) for line in said.splitlines() if ": " in line)


def capacity(maxconn: int) -> str:
    """What HAProxy's `maxconn` holds, in words for the one who started the cluster."""
    said = (f"STSA: HAProxy takes {maxconn:,} connections at once; a phone holds two (its "
            "page's websocket and its polls').")
    if maxconn < MAXCONN:
        said += (f" {PHONES:,} phones need {MAXCONN:,}: let it open {FD_HARD_LIMIT:,} files "
                 f"(as root, `ulimit -Hn {FD_HARD_LIMIT}` in the shell that starts it, or "
                 "LimitNOFILE in its systemd unit).")
    return said


def _wait_info(stats: Path, proxy: subprocess.Popen, timeout: float) -> dict[str, str]:
    deadline = time.monotonic() + timeout
    while True:
        try:
            return haproxy_info(stats)
        except OSError:
            if proxy.poll() is not None:
                raise SystemExit("STSA: HAProxy stopped while starting; see above.") from None
            if time.monotonic() > deadline:
                raise SystemExit("STSA: HAProxy did not start in time.") from None
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
    config, stats = RUN_FOLDER / "haproxy.cfg", RUN_FOLDER / "haproxy.sock"
    config.parent.mkdir(exist_ok=True)
    config.write_text(haproxy_config(args.port, ports, args.address, pem, stats))
    proxy = None
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        _wait_healthy(ports, apps, timeout=120)
        proxy = subprocess.Popen([haproxy, "-db", "-f", str(config)])
        maxconn = int(_wait_info(stats, proxy, timeout=60)["Maxconn"])
        scheme = "https" if pem else "http"
        print(f"STSA: {len(ports)} app processes behind {scheme}://{args.address}:{args.port}",
              flush=True)
        print(capacity(maxconn), flush=True)
        while all(p.poll() is None for p in [*apps, proxy]):
            time.sleep(1)
        return 1
    except KeyboardInterrupt:
        return 0
    finally:
        _stop([p for p in [proxy, *apps] if p is not None])


if __name__ == "__main__":
    raise SystemExit(main())
