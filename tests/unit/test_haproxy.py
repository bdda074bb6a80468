"""The proxy recipe of `make serve-cluster` (scripts/serve_cluster.py): HAProxy with HTTPS from
this laptop's certificate (plain HTTP without one), timeouts, a body size cap, per-address
limits and the connections it takes, handing the data feed's requests to nginx's cache.

The rendered configurations are checked line by line, validated by `haproxy -c` and `nginx -t`,
and run: the real proxies in front of a small stand-in app (this test's own HTTP server, so no
app process starts) answer over TLS with HSTS, refuse big and chunked bodies, drop forged
forwarding headers, limit each address (with the limits made small for the test), answer the
feed's polls from the cache, and HAProxy starts on a system that allows fewer open files.
tests/server/test_proxy_cache.py runs it in front of two real app processes."""

from __future__ import annotations

import hashlib
import http.client
import http.server
import resource
import ssl
import stat
import subprocess
import threading
from contextlib import contextmanager
from pathlib import Path

import pytest

from scripts import serve_cluster
from stsa import tls
from tests.support.appserver import free_port
from tests.support.haproxy import (
    HAPROXY,
    NGINX,
    cluster_proxy,
    needs_haproxy,
    needs_nginx,
    running,
    until,
)


def lines(config: str) -> list[str]:
    return [line.strip() for line in config.splitlines() if line.strip()]


@pytest.fixture
def certificate(tmp_path) -> tls.Certificate:
    return tls.make_certificate(tmp_path / "tls", ["localhost", "127.0.0.1"])


@pytest.fixture
def pem(certificate, tmp_path) -> Path:
    return serve_cluster.tls_pem(certificate.cert_path.parent, tmp_path / "run")


# -- the configuration ---------------------------------------------------------------------------
def test_plain_http_without_a_certificate_and_every_guard_anyway():
    config = lines(serve_cluster.haproxy_config(8501, [8601, 8602], "0.0.0.0"))
    assert "bind 0.0.0.0:8501" in config
    assert not any("ssl" in line or "Strict-Transport-Security" in line for line in config)
    for line in ("timeout http-request 10s", "timeout client 60s", "timeout tunnel 1h",
                 "timeout connect 5s", "timeout server 60s", "timeout client-fin 10s",
                 "tcp-request connection track-sc0 src",
                 "tcp-request connection reject if { sc0_conn_cur gt 40 }",
                 "tcp-request connection reject if { sc0_conn_rate gt 60 }",
                 "http-request deny deny_status 429 if { sc0_http_req_rate gt 300 }",
                 f"http-request deny deny_status 413 if {{ req.body_size gt "
                 f"{serve_cluster.MAX_BODY_BYTES} }}",
                 "http-request del-header X-Forwarded-For",
                 "http-request set-header X-Forwarded-Proto http",
                 "server app1 127.0.0.1:8601 check", "server app2 127.0.0.1:8602 check"):
        assert line in config, line
    table = next(line for line in config if line.startswith("stick-table"))
    assert "type ipv6" in table and "conn_cur" in table and "conn_rate(10s)" in table
    assert "http_req_rate(10s)" in table


def test_https_with_a_certificate_and_hsts(pem):
    config = lines(serve_cluster.haproxy_config(8443, [8601], "0.0.0.0", pem))
    assert f"bind 0.0.0.0:8443 ssl crt {pem}" in config
    assert "ssl-default-bind-options ssl-min-ver TLSv1.2 no-tls-tickets" in config
    assert 'http-response set-header Strict-Transport-Security "max-age=86400"' in config
    assert "http-request set-header X-Forwarded-Proto https" in config


def test_the_body_cap_lets_every_upload_the_app_takes_through():
    """The same upload passes behind HAProxy as without it: a tournament workbook of up to
    50 MB (what a restore reads and Streamlit's `maxUploadSize` allows) with its form, and not
    a byte more than the app itself takes (`guard.UPLOAD_BYTES`)."""
    from stsa.formats import guards
    from stsa.web import guard

    assert serve_cluster.MAX_BODY_BYTES == guard.UPLOAD_BYTES
    assert guards.MAX_WORKBOOK_BYTES < serve_cluster.MAX_BODY_BYTES
    config = (Path(serve_cluster.ROOT) / ".streamlit" / "config.toml").read_text()
    assert "maxUploadSize = 50\n" in config
    assert 50 * 2**20 < serve_cluster.MAX_BODY_BYTES < 51 * 2**20


def test_the_certificate_file_for_haproxy_is_the_owner_s_only(certificate, pem):
    assert stat.S_IMODE(pem.stat().st_mode) == 0o600
    assert pem.read_bytes() == certificate.cert_path.read_bytes() + \
        certificate.key_path.read_bytes()
    again = serve_cluster.tls_pem(certificate.cert_path.parent, pem.parent)
    assert again == pem and stat.S_IMODE(pem.stat().st_mode) == 0o600


def test_no_certificate_no_file(tmp_path):
    assert serve_cluster.tls_pem(tmp_path / "empty", tmp_path / "run") is None
    assert not (tmp_path / "run").exists()


def test_the_feed_and_the_overlays_go_to_the_cache_once_the_limits_let_them():
    config = lines(serve_cluster.haproxy_config(8501, [8601, 8602], "0.0.0.0", cache_port=8600))
    frontend = config[config.index("frontend stsa"):config.index("backend cache")]
    assert "http-request set-var(txn.cached) bool(true) if { path_beg /api/ /overlay/ }" \
        in frontend
    assert "acl cached var(txn.cached) -m bool" in frontend
    assert "use_backend cache if cached" in frontend and frontend[-1] == "default_backend apps"
    # the per-address limits come first: a flood is refused, not answered from the cache
    assert frontend.index("use_backend cache if cached") > max(
        i for i, line in enumerate(frontend) if "deny" in line or "reject" in line)
    # a kept answer tells the proxy's clock, not the one kept a second ago
    assert "acl hit res.hdr(X-Cache) -m str HIT" in frontend
    assert ("http-after-response set-header X-STSA-Now %[date(0,ms)] if cached hit clock_sent"
            in frontend)
    cache = config[config.index("backend cache"):config.index("backend apps")]
    assert cache == ["backend cache", "server cache 127.0.0.1:8600"]
    assert not any(line.startswith("cache ") or "cache-use" in line for line in config)


def test_the_cache_keeps_each_answer_a_second_and_fetches_it_once(tmp_path):
    config = lines(serve_cluster.nginx_config(8600, [8601, 8602], tmp_path))
    assert "listen 127.0.0.1:8600;" in config  # behind HAProxy only
    assert "server 127.0.0.1:8601;" in config and "server 127.0.0.1:8602;" in config
    for line in ("proxy_cache feed;", "proxy_cache_valid 200 1s;",
                 # one request fetches a new answer; the others wait or get the kept one
                 "proxy_cache_lock on;", "proxy_cache_use_stale updating;",
                 "proxy_cache_background_update on;",
                 # the app answers whole (200), which is what the cache keeps
                 'proxy_set_header If-None-Match "";',
                 "add_header X-Cache $stsa_cache always;"):
        assert line in config, line
    assert f"proxy_cache_path {tmp_path / 'cache'} levels=1:2 keys_zone=feed:8m" in config
    assert f"pid {tmp_path / 'nginx.pid'};" in config


def test_websockets_stay_on_one_process_per_client():
    config = lines(serve_cluster.haproxy_config(8501, [8601, 8602], "0.0.0.0"))
    assert "balance source" in config and "hash-type consistent" in config
    assert "timeout tunnel 1h" in config


def test_ten_thousand_phones_fit_where_the_system_allows_the_files():
    """HAProxy computes its maxconn from its open-file limit, up to fd-hard-limit: two files a
    connection, two connections a phone, and a quarter more for pages opening."""
    config = lines(serve_cluster.haproxy_config(8501, [8601, 8602], "0.0.0.0"))
    assert f"fd-hard-limit {serve_cluster.FD_HARD_LIMIT}" in config
    assert not any(line.startswith("maxconn") for line in config)  # computed, never refused
    assert serve_cluster.MAXCONN >= 2 * serve_cluster.PHONES * 5 // 4
    assert serve_cluster.FD_HARD_LIMIT > 2 * serve_cluster.MAXCONN
    # a phone at rest: two connections, two polls per 10 s, far inside its address's limits
    assert serve_cluster.MAX_OPEN >= 2 * 6 and serve_cluster.MAX_REQUESTS_PER_10S >= 100


def test_a_room_of_pollers_may_take_more_connections_than_half_the_files():
    """The load test's phones hold one connection each and open no websocket: the run names
    how many to take, and HAProxy takes them under a limit that gives fewer than two files
    each (it warns and goes on rather than refusing to start)."""
    config = lines(serve_cluster.haproxy_config(8501, [8601], "0.0.0.0", connections=10_500))
    assert "maxconn 10500" in config and "no strict-limits" in config
    assert config.index("maxconn 10500") < config.index("defaults")  # the process's own limit


def test_the_limits_said_when_haproxy_starts():
    short = serve_cluster.capacity(9_986)
    assert "9,986 connections" in short and "50,100 files" in short and "ulimit -Hn" in short
    enough = serve_cluster.capacity(25_036)
    assert "25,036 connections" in enough and "ulimit" not in enough


def test_the_stats_socket_is_the_owner_s_only(tmp_path):
    config = lines(serve_cluster.haproxy_config(8501, [8601], "0.0.0.0",
                                                stats=tmp_path / "haproxy.sock"))
    assert f"stats socket {tmp_path / 'haproxy.sock'} mode 600 level operator" in config
    assert not any("stats socket" in line
                   for line in lines(serve_cluster.haproxy_config(8501, [8601], "0.0.0.0")))


@needs_nginx
def test_nginx_accepts_the_cache_configuration(tmp_path):
    config = tmp_path / "nginx.conf"
    config.write_text(serve_cluster.nginx_config(free_port(), [8601, 8602], tmp_path))
    checked = subprocess.run([NGINX, "-t", "-c", str(config), "-p", str(tmp_path),
                              "-e", str(tmp_path / "error.log")],
                             capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "[warn]" not in checked.stderr, checked.stderr


@needs_haproxy
@pytest.mark.parametrize("with_tls", [False, True], ids=["http", "https"])
def test_haproxy_accepts_the_configuration(tmp_path, pem, with_tls):
    config = tmp_path / "haproxy.cfg"
    config.write_text(serve_cluster.haproxy_config(8501, [8601, 8602], "0.0.0.0",
                                                   pem if with_tls else None,
                                                   tmp_path / "haproxy.sock"))
    checked = subprocess.run([HAPROXY, "-c", "-f", str(config)], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "WARNING" not in checked.stdout + checked.stderr, checked.stderr


# -- a real HAProxy ------------------------------------------------------------------------------
class _Echo(http.server.BaseHTTPRequestHandler):
    """The stand-in app: answers every request with the headers it received. Under /api/ it
    answers as the data feed does: an ETag, public for a second, its clock, and 304 to a
    client holding the ETag. Each request it gets is noted (`server.seen`: path and
    If-None-Match)."""

    protocol_version = "HTTP/1.1"
    ETAG = '"v1"'

    def do_GET(self):  # the standard library's name
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(length)
        self.server.seen.append((self.path, self.headers.get("If-None-Match")))
        body = "\n".join(f"{k.lower()}: {v}" for k, v in self.headers.items()).encode()
        kept = self.headers.get("If-None-Match") == self.ETAG
        self.send_response(304 if kept else 200)
        if self.path.startswith("/api/"):
            for name, value in (("ETag", self.ETAG), ("Cache-Control", "public, max-age=1"),
                                ("X-STSA-Now", "1")):  # an old clock: a hit shows its own
                self.send_header(name, value)
        else:  # a page says it may be kept too: still not cached, only the feed is
            self.send_header("Cache-Control", "public, max-age=60")
        if not kept:
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if not kept:
            self.wfile.write(body)

    do_POST = do_GET

    def log_message(self, *args):
        pass


class _Quiet(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, *args):
        super().__init__(*args)
        self.seen: list[tuple[str, str | None]] = []

    def handle_error(self, request, client_address):
        pass  # HAProxy's health checks and refused clients hang up early


@contextmanager
def proxy(tmp_path: Path, pem: Path | None, monkeypatch, **limits):
    """The recipe's proxies (HAProxy, nginx's cache behind it) with `serve_cluster`'s
    configurations, `limits` set on the module, in front of the stand-in app; yields
    HAProxy's port and the app, and stops them all after."""
    for name, value in limits.items():
        monkeypatch.setattr(serve_cluster, name, value)
    app = _Quiet(("127.0.0.1", 0), _Echo)
    threading.Thread(target=app.serve_forever, daemon=True).start()
    port = free_port()
    try:
        with cluster_proxy(port, [app.server_address[1]], tmp_path, pem):
            yield port, app
    finally:
        app.shutdown()
        app.server_close()


def _https(port: int, certificate: tls.Certificate) -> http.client.HTTPSConnection:
    context = ssl.create_default_context(cafile=str(certificate.cert_path))
    return http.client.HTTPSConnection("127.0.0.1", port, context=context, timeout=30)


def _get(connection, path="/", headers=None) -> tuple[int, dict, str]:
    """(status, headers by their names in lower case as HAProxy sends them, body)."""
    connection.request("GET", path, headers=headers or {})
    reply = connection.getresponse()
    return reply.status, dict(reply.getheaders()), reply.read().decode()


@pytest.mark.slow
@needs_haproxy
@needs_nginx
def test_https_answers_with_hsts_and_only_haproxy_s_forwarding_headers(tmp_path, certificate,
                                                                       pem, monkeypatch):
    with proxy(tmp_path, pem, monkeypatch) as (port, _):
        connection = _https(port, certificate)
        status, headers, seen = _get(connection, headers={"X-Forwarded-For": "203.0.113.9",
                                                          "Forwarded": "for=203.0.113.9"})
        served = connection.sock.getpeercert(binary_form=True)
        connection.close()
    assert status == 200 and headers["strict-transport-security"] == "max-age=86400"
    assert "x-forwarded-for: 127.0.0.1" in seen.splitlines()
    assert "203.0.113.9" not in seen and "x-forwarded-proto: https" in seen.splitlines()
    fingerprint = ":".join(f"{b:02X}" for b in hashlib.sha256(served).digest())
    assert fingerprint == certificate.fingerprint


@pytest.mark.slow
@needs_haproxy
@needs_nginx
def test_big_and_chunked_bodies_are_refused(tmp_path, certificate, pem, monkeypatch):
    with proxy(tmp_path, pem, monkeypatch) as (port, _):
        big = _https(port, certificate)
        big.putrequest("POST", "/_stcore/upload_file")
        big.putheader("Content-Length", str(serve_cluster.MAX_BODY_BYTES + 1))
        big.endheaders()  # the body never comes: HAProxy answers from the length alone
        assert big.getresponse().status == 413
        chunked = _https(port, certificate)
        chunked.putrequest("POST", "/_stcore/upload_file")
        chunked.putheader("Transfer-Encoding", "chunked")
        chunked.endheaders()  # HAProxy answers before the first chunk
        assert chunked.getresponse().status == 411
        fine = _https(port, certificate)
        fine.request("POST", "/_stcore/upload_file", body=b"x" * 100_000)
        assert fine.getresponse().status == 200


@pytest.mark.slow
@needs_haproxy
@needs_nginx
def test_a_workbook_of_50_mb_passes_and_a_byte_more_than_the_app_takes_is_refused(
        tmp_path, certificate, pem, monkeypatch):
    """A restore's workbook may be 50 MB: the whole body, with its form, reaches the app
    through HAProxy; one byte over the app's own limit gets 413 from HAProxy."""
    from stsa.web import guard

    limit = guard.UPLOAD_BYTES  # the app's: 50 MB and the form around it
    with proxy(tmp_path, pem, monkeypatch) as (port, _):
        workbook = _https(port, certificate)
        workbook.request("POST", "/_stcore/upload_file", body=b"x" * limit)
        answer = workbook.getresponse()
        assert answer.status == 200
        assert f"content-length: {limit}" in answer.read().decode().splitlines()
        over = _https(port, certificate)
        over.putrequest("POST", "/_stcore/upload_file")
        over.putheader("Content-Length", str(limit + 1))
        over.endheaders()
        assert over.getresponse().status == 413


def _answer(port: int) -> int | None:
    """The status of one GET on a new connection, or None when HAProxy closes the
    connection before answering."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        return _get(connection)[0]
    except (ConnectionError, http.client.RemoteDisconnected, http.client.BadStatusLine):
        return None
    finally:
        connection.close()


# HAProxy's rates are counted over a sliding 10 s and may count a little low across the edge of
# its period: each test below checks the first requests are let through and a later one,
# well past the limit, is not.
@pytest.mark.slow
@needs_haproxy
@needs_nginx
def test_an_address_sending_too_many_requests_gets_429(tmp_path, monkeypatch):
    with proxy(tmp_path, None, monkeypatch, MAX_REQUESTS_PER_10S=10) as (port, _):
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        statuses = [_get(connection)[0] for _ in range(16)]
        connection.close()
    assert statuses[:10] == [200] * 10 and statuses[-1] == 429


@pytest.mark.slow
@needs_haproxy
@needs_nginx
def test_an_address_holding_too_many_connections_is_refused_more(tmp_path, monkeypatch):
    with proxy(tmp_path, None, monkeypatch, MAX_OPEN=3) as (port, _):
        held = [http.client.HTTPConnection("127.0.0.1", port, timeout=30) for _ in range(3)]
        assert [_get(c)[0] for c in held] == [200] * 3  # three open, each answered
        assert _answer(port) is None
        assert [_get(c)[0] for c in held] == [200] * 3  # the open ones still work
        for connection in held:
            connection.close()


@pytest.mark.slow
@needs_haproxy
@needs_nginx
def test_an_address_opening_connections_too_fast_is_refused(tmp_path, monkeypatch):
    with proxy(tmp_path, None, monkeypatch, MAX_NEW_PER_10S=4) as (port, _):
        statuses = [_answer(port) for _ in range(10)]
    assert statuses[:4] == [200] * 4 and statuses[-1] is None


# -- the cache -----------------------------------------------------------------------------------
@pytest.mark.slow
@needs_haproxy
@needs_nginx
def test_a_poll_is_answered_from_the_cache_and_pages_are_not(tmp_path, monkeypatch):
    poll = "/api/v1/tournaments/gothcon/standings"
    with proxy(tmp_path, None, monkeypatch) as (port, app):
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

        def asked(path: str):
            """The answer, and how many times the app got `path` for it."""
            before = [p for p, _ in app.seen].count(path)
            answer = _get(connection, path)
            return answer, [p for p, _ in app.seen].count(path) - before

        (status, headers, body), reached = until(
            lambda: asked(poll), lambda a: a[0][1].get("x-cache") == "HIT",
            "poll answered from the cache")
        pages = [asked("/") for _ in range(3)]
        connection.close()
    assert reached == 0, "the app answered a poll the cache answered"
    assert status == 200 and headers["etag"] == '"v1"' and body
    assert int(headers["x-stsa-now"]) > 10**12  # the proxy's clock in ms, not the kept "1"
    assert all(reached == 1 and "x-cache" not in headers
               for (_, headers, _), reached in pages), "a page was answered from the cache"


@pytest.mark.slow
@needs_haproxy
@needs_nginx
def test_polls_that_all_send_their_etag_still_fill_the_cache(tmp_path, monkeypatch):
    """A miss reaches the app without the ETag, gets the whole answer (kept), and the next
    polls are answered 304 by the cache itself."""
    with proxy(tmp_path, None, monkeypatch) as (port, app):
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        poll = "/api/v1/overlays/a-token"
        answers: list = []
        until(lambda: answers.append(_get(connection, poll, {"If-None-Match": '"v1"'}))
              or answers[-1], lambda a: a[0] == 304 and a[1].get("x-cache") == "HIT",
              "304 from the cache")
        connection.close()
    assert answers[-1][1]["etag"] == '"v1"' and answers[-1][2] == ""
    assert app.seen and all(etag is None for path, etag in app.seen if path == poll)


@pytest.mark.slow
@needs_haproxy
def test_haproxy_takes_the_connections_the_open_file_limit_allows(tmp_path):
    """On a system allowing fewer files than `FD_HARD_LIMIT` HAProxy starts all the same,
    with a maxconn of about half that limit, and says so on its stats socket."""
    stats = tmp_path / "haproxy.sock"
    config = serve_cluster.haproxy_config(free_port(), [free_port()], "127.0.0.1", None, stats)
    with running(config, tmp_path,
                 preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (4000, 4000))):
        info = serve_cluster.haproxy_info(stats)
    assert int(info["Ulimit-n"]) <= 4000
    assert 1900 < int(info["Maxconn"]) <= 2000
    assert stat.S_IMODE(stats.stat().st_mode) == 0o600
