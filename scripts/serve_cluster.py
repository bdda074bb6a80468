"""`make serve-cluster`: several STSA app processes on one PostgreSQL database behind HAProxy,
with nginx's cache behind it answering the phones' polls.

Every process serves the same tournament: sessions, wrong-PIN counts, PINs and the data
version live in the database, so a judge signed in through one process is signed in on all of
them, and a result saved on one shows on every spectator's page. HAProxy keeps each browser on
one process (Streamlit keeps a session's widgets in the process that holds its websocket) by
hashing the client's address, and passes that address on in `X-Forwarded-For`, which the app
processes believe because STSA_TRUSTED_PROXY names the proxies' loopback address.

    STSA_DATABASE_URL=postgresql+psycopg://stsa@db-host/stsa make serve-cluster PROCESSES=3

With this laptop's certificate (`make tls`, in data/tls/ or STSA_TLS_DIR) HAProxy serves
HTTPS (and tells browsers to keep to it), else plain HTTP. Either way it guards the app
processes: timeouts for slow or idle clients, a cap on request bodies, and per-address limits
on open connections, new connections and requests (`haproxy_config`).

The cache: a phone's live page polls a shared answer of the data feed (`/api/…`, and an
overlay polls its own) every few seconds with the ETag it holds. HAProxy hands those requests,
once its limits let them through, to nginx on a loopback port (`nginx_config`), which keeps
each answer an app gives for a second (the feed says `Cache-Control: public, max-age=1`) and
answers every poll of that second itself: a 304 when the phone's ETag is the kept one, else
the kept answer. When the second is up, one request fetches the new answer while every other
poll still gets the kept one (`proxy_cache_lock`, `proxy_cache_use_stale updating`), so
however many phones follow an answer, the app processes see about one request for it a second,
and a save shows on the phones within that second plus the app's own freshness. Each answer
says `X-Cache: HIT` (from the cache) or `MISS` (from an app process).

Why nginx behind HAProxy: HAProxy holds the certificate, keeps each client on its process and
limits each address, and is tested for all of it; its own cache, though, sends every poll
that arrives while an answer is being fetched on to the apps (about 5 % of 2,000 polls a
second, measured: `make load ROOM=cluster`), where nginx's sends one. Both are Debian packages.

The limits and the cache hold together: each address may hold `MAX_OPEN` connections, open
`MAX_NEW_PER_10S` and send `MAX_REQUESTS_PER_10S` requests per 10 s, polls the cache answers
included; a phone holds two connections and polls twice per 10 s, so a flood is refused before
the cache answers it, and a phone never is. HAProxy takes up to `MAXCONN` connections at once
(10,000 phones) as far as its open-file limit allows (`FD_HARD_LIMIT`), and this script prints
how many it took. Its stats socket, build/haproxy.sock, answers `show info`.

Stops every process on Ctrl+C (or SIGTERM). Needs Debian's `haproxy` and `nginx-light`.
"""

from __future__ import annotations

import argparse
import os
import pwd
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
from stsa.web.guard import FEED_PREFIXES, UPLOAD_BYTES  # noqa: E402

PROXY_ADDRESS = "127.0.0.1"
RUN_FOLDER = ROOT / "build"
# Per client address: open connections at once, new connections and requests per 10 s. A phone
# holds two connections (its page's websocket, and the kept-alive one its polls reuse: a poll
# every 5 s is inside `timeout http-keep-alive`) and sends two polls per 10 s, answered from
# the cache or not; opening a page takes a few connections and a few dozen files. Far more is
# a flood. The limits count each address: they hold while each phone reaches the proxy from its
# own address (the venue's Wi-Fi on the proxy's network); behind one NAT address, raise them.
MAX_OPEN, MAX_NEW_PER_10S, MAX_REQUESTS_PER_10S = 40, 60, 300
# The cache in front of the data feed and the overlays (`FEED_PREFIXES`): nginx on a loopback
# port, an answer kept a second at most (and as long as the app's `Cache-Control: max-age`
# says, if shorter).
CACHE_PORT = 8600  # the app processes take 8601, 8602, …
CACHE_SECONDS = 1
CACHE_MEGABYTES = 64  # on disk under build/nginx/cache; the oldest answers go first
CACHE_LOCK_SECONDS = 5  # a poll waits at most so long for the first answer of an address
# HAProxy's connections at once: 10,000 phones hold two each, and a quarter more for pages
# opening (a browser opens up to six at once), the judges and the organizer. HAProxy reckons
# two open files per connection (the client's end and the app's) and computes its `maxconn`
# from the open-file limit it gets, up to `FD_HARD_LIMIT`: a system that allows fewer files
# gets fewer connections, not a proxy that refuses to start (`main` says how many it took).
PHONES = 10_000
MAXCONN = 25_000
FD_HARD_LIMIT = 2 * MAXCONN + 100  # and a few for its listeners, checks and logs
# The largest request body: the app's own upload limit (`web.UPLOAD_BYTES`: a file of up to
# 50 MB, the tournament workbook a restore reads, `guards.MAX_WORKBOOK_BYTES` and
# .streamlit/config.toml's `maxUploadSize`, with the form around it), so the same upload passes
# behind HAProxy as without it. Anything larger is refused before it reaches an app process.
MAX_BODY_BYTES = UPLOAD_BYTES
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
                   connections: int | None = None, cache_port: int = CACHE_PORT) -> str:
    """HAProxy in front of the app processes: websockets kept open, one process per client, the
    data feed's requests handed to the cache (`nginx_config`) on `cache_port`.

    With `pem` (certificate and key in one file, `tls_pem`) it serves HTTPS only (TLS 1.2 or
    newer) and sends HSTS; without, plain HTTP. Either way: a request's headers must arrive
    within 10 s (slow clients hold no connection open), an idle client or app is dropped after
    60 s (an open websocket after an hour), bodies over `MAX_BODY_BYTES` are refused (413), and
    each client address may hold `MAX_OPEN` connections, open `MAX_NEW_PER_10S` new ones and
    send `MAX_REQUESTS_PER_10S` requests per 10 s (beyond that: refused, or 429; a request
    the cache answers counts too: the limits come first). Forwarding headers a client sent are
    dropped: the apps believe only HAProxy's own, which the cache passes on.

    Requests under `FEED_PREFIXES` go to the cache; a kept answer's `X-STSA-Now` (the
    server's clock, which overlays count down from) is set to HAProxy's now, not the
    second-old one kept. `stats`: a socket for `show info`, the owner's only.

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
    acl hit res.hdr(X-Cache) -m str HIT
    acl clock_sent res.hdr(X-STSA-Now) -m found
    http-after-response set-header X-STSA-Now %[date(0,ms)] if cached hit clock_sent
    use_backend cache if cached
    default_backend apps

backend cache
    server cache {PROXY_ADDRESS}:{cache_port}

backend apps
    balance source
    hash-type consistent
    option httpchk GET /_stcore/health
{servers}
"""


def nginx_config(port: int, backends: list[int], folder: Path) -> str:
    """nginx as the data feed's cache, on loopback `port`, behind HAProxy (`haproxy_config`):
    each answer an app process gives is kept `CACHE_SECONDS` (or what its `max-age` says, if
    shorter; `no-store` is never kept), per address and per `Accept-Encoding`; a poll is
    answered from it, a 304 when the poll's `If-None-Match` is the kept ETag. A request that
    finds no answer, or one past its second, goes to an app alone: the others asking meanwhile
    wait for it (`proxy_cache_lock`) or get the kept answer (`proxy_cache_use_stale updating`,
    fetched in the background). The app is asked without the poll's `If-None-Match`, so its
    answer is always whole and kept. `X-Cache: HIT` or `MISS` on every answer. Its files (the
    cache, its temporary files, its log and pid) live in `folder`."""
    servers = "\n".join(f"        server {PROXY_ADDRESS}:{p};" for p in backends)
    temporary = " ".join(f"{kind}_temp_path {folder / kind};"
                         for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    # as root nginx would hand its worker to `nobody`, who cannot write the cache in `folder`
    user = f"user {pwd.getpwuid(os.geteuid()).pw_name};\n" if os.geteuid() == 0 else ""
    return f"""{user}daemon off;
worker_processes 1;
worker_rlimit_nofile 4096;
pid {folder / "nginx.pid"};
error_log {folder / "error.log"} warn;
events {{
    worker_connections 2048;
}}
http {{
    access_log off;
    server_tokens off;
    {temporary}
    proxy_cache_path {folder / "cache"} levels=1:2 keys_zone=feed:8m
                     max_size={CACHE_MEGABYTES}m inactive=1m;
    map $upstream_cache_status $stsa_cache {{
        HIT HIT; STALE HIT; UPDATING HIT; REVALIDATED HIT; default MISS;
    }}
    upstream apps {{
{servers}
        keepalive 32;
    }}
    server {{
        listen {PROXY_ADDRESS}:{port};
        keepalive_timeout 60s;
        keepalive_requests 1000000;
        location / {{
            proxy_pass http://apps;
            proxy_http_version 1.1;
            proxy_set_header Host $host;
            proxy_set_header Connection "";
            proxy_set_header If-None-Match "";
            proxy_cache feed;
            proxy_cache_valid 200 {CACHE_SECONDS}s;
            proxy_cache_lock on;
            proxy_cache_lock_timeout {CACHE_LOCK_SECONDS}s;
            proxy_cache_use_stale updating;
            proxy_cache_background_update on;
            add_header X-Cache $stsa_cache always;
        }}
    }}
}}
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


def check(database_url: str | None, haproxy: str | None, nginx: str | None = "") -> str | None:
    """Why a cluster cannot start here, or None."""
    if not (database_url or "").startswith("postgresql"):
        return ("STSA: a cluster shares one PostgreSQL database: set STSA_DATABASE_URL to "
                "postgresql+psycopg://user@host/database (SQLite serves one process only).")
    if haproxy is None:
        return "STSA: install HAProxy first (as root: apt-get install haproxy)."
    if nginx is None:
        return "STSA: install nginx first, the feed's cache (as root: apt-get install nginx-light)."
    return None


def start_cache(nginx: str, port: int, backends: list[int], folder: Path,
                timeout: float = 30) -> subprocess.Popen:
    """nginx with `nginx_config`, its files in `folder`; returns once it listens."""
    folder.mkdir(parents=True, exist_ok=True)
    config = folder / "nginx.conf"
    config.write_text(nginx_config(port, backends, folder))
    cache = subprocess.Popen([nginx, "-c", str(config), "-p", str(folder),
                              "-e", str(folder / "error.log")])
    deadline = time.monotonic() + timeout
    while True:
        try:
            socket.create_connection((PROXY_ADDRESS, port), timeout=1).close()
            return cache
        except OSError:
            if cache.poll() is not None:
                raise SystemExit("STSA: nginx stopped while starting; see "
                                 f"{folder / 'error.log'}.") from None
            if time.monotonic() > deadline:
                _stop([cache])
                raise SystemExit("STSA: nginx did not start in time.") from None
            time.sleep(0.1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--port", type=int, default=int(os.environ.get("STSA_PORT", "8501")))
    parser.add_argument("--address", default=os.environ.get("STSA_ADDRESS", "0.0.0.0"))
    parser.add_argument("--cache-port", type=int, default=CACHE_PORT,
                        help="the loopback port of the feed's cache (nginx)")
    parser.add_argument("--app-ports", default="",
                        help="comma-separated ports of the app processes (default 8601, 8602 …)")
    args = parser.parse_args(argv)
    haproxy, nginx = shutil.which("haproxy"), shutil.which("nginx")
    problem = check(os.environ.get("STSA_DATABASE_URL"), haproxy, nginx)
    if problem or haproxy is None or nginx is None:
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
    config.write_text(haproxy_config(args.port, ports, args.address, pem, stats,
                                     cache_port=args.cache_port))
    proxy = cache = None
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        _wait_healthy(ports, apps, timeout=120)
        cache = start_cache(nginx, args.cache_port, ports, RUN_FOLDER / "nginx")
        proxy = subprocess.Popen([haproxy, "-db", "-f", str(config)])
        maxconn = int(_wait_info(stats, proxy, timeout=60)["Maxconn"])
        scheme = "https" if pem else "http"
        print(f"STSA: {len(ports)} app processes behind {scheme}://{args.address}:{args.port}",
              flush=True)
        print(capacity(maxconn), flush=True)
        while all(p.poll() is None for p in [*apps, cache, proxy]):
            time.sleep(1)
        return 1
    except KeyboardInterrupt:
        return 0
    finally:
        _stop([p for p in [proxy, cache, *apps] if p is not None])


if __name__ == "__main__":
    raise SystemExit(main())
