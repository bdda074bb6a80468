"""The HAProxy recipe of `make serve-cluster` (scripts/serve_cluster.py): HTTPS with this
laptop's certificate (plain HTTP without one), timeouts, a body size cap and per-address limits.

The rendered configuration is checked line by line, validated by `haproxy -c`, and run: a real
HAProxy in front of a small stand-in app (this test's own HTTP server, so no app process
starts) answers over TLS with HSTS, refuses big and chunked bodies, drops forged forwarding
headers, and limits each address (with the limits made small for the test)."""

from __future__ import annotations

import hashlib
import http.client
import http.server
import os
import shutil
import signal
import socket
import ssl
import stat
import subprocess
import threading
from contextlib import contextmanager
from pathlib import Path

import pytest

from scripts import serve_cluster
from stsa import tls

HAPROXY = shutil.which("haproxy") or next(
    (p for p in ("/usr/sbin/haproxy",) if os.access(p, os.X_OK)), None)
needs_haproxy = pytest.mark.skipif(HAPROXY is None, reason="HAProxy is not installed: "
                                   "scripts/test-deps.sh installs it")


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
    assert 6 * 2**20 < serve_cluster.MAX_BODY_BYTES < 7 * 2**20


def test_the_certificate_file_for_haproxy_is_the_owner_s_only(certificate, pem):
    assert stat.S_IMODE(pem.stat().st_mode) == 0o600
    assert pem.read_bytes() == certificate.cert_path.read_bytes() + \
        certificate.key_path.read_bytes()
    again = serve_cluster.tls_pem(certificate.cert_path.parent, pem.parent)
    assert again == pem and stat.S_IMODE(pem.stat().st_mode) == 0o600


def test_no_certificate_no_file(tmp_path):
    assert serve_cluster.tls_pem(tmp_path / "empty", tmp_path / "run") is None
    assert not (tmp_path / "run").exists()


@needs_haproxy
@pytest.mark.parametrize("with_tls", [False, True], ids=["http", "https"])
def test_haproxy_accepts_the_configuration(tmp_path, pem, with_tls):
    config = tmp_path / "haproxy.cfg"
    config.write_text(serve_cluster.haproxy_config(8501, [8601, 8602], "0.0.0.0",
                                                   pem if with_tls else None))
    checked = subprocess.run([HAPROXY, "-c", "-f", str(config)], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "WARNING" not in checked.stdout + checked.stderr, checked.stderr


# -- a real HAProxy ------------------------------------------------------------------------------
class _Echo(http.server.BaseHTTPRequestHandler):
    """The stand-in app: answers every request with the headers it received."""

    protocol_version = "HTTP/1.1"

    def do_GET(self):  # the standard library's name
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(length)
        body = "\n".join(f"{k.lower()}: {v}" for k, v in self.headers.items()).encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_POST = do_GET

    def log_message(self, *args):
        pass


class _Quiet(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        pass  # HAProxy's health checks and refused clients hang up early


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def proxy(tmp_path: Path, pem: Path | None, monkeypatch, **limits):
    """HAProxy (daemonised: it listens once `haproxy -D` returns) with `serve_cluster`'s
    configuration, `limits` set on the module, in front of the stand-in app; yields its
    port, and stops both after."""
    for name, value in limits.items():
        monkeypatch.setattr(serve_cluster, name, value)
    app = _Quiet(("127.0.0.1", 0), _Echo)
    threading.Thread(target=app.serve_forever, daemon=True).start()
    port = _free_port()
    config, pid_file = tmp_path / "haproxy.cfg", tmp_path / "haproxy.pid"
    config.write_text(serve_cluster.haproxy_config(port, [app.server_address[1]], "127.0.0.1",
                                                   pem))
    started = subprocess.run([HAPROXY, "-D", "-p", str(pid_file), "-f", str(config)],
                             capture_output=True, text=True, timeout=60)
    assert started.returncode == 0, started.stdout + started.stderr
    pid = int(pid_file.read_text().split()[0])
    try:
        yield port
    finally:
        os.kill(pid, signal.SIGTERM)
        app.shutdown()
        app.server_close()


def _https(port: int, certificate: tls.Certificate) -> http.client.HTTPSConnection:
    context = ssl.create_default_context(cafile=str(certificate.cert_path))
    return http.client.HTTPSConnection("127.0.0.1", port, context=context, timeout=30)


def _get(connection, path="/", headers=None) -> tuple[int, dict, str]:
    connection.request("GET", path, headers=headers or {})
    reply = connection.getresponse()
    return reply.status, dict(reply.getheaders()), reply.read().decode()


@pytest.mark.slow
@needs_haproxy
def test_https_answers_with_hsts_and_only_haproxy_s_forwarding_headers(tmp_path, certificate,
                                                                       pem, monkeypatch):
    with proxy(tmp_path, pem, monkeypatch) as port:
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
def test_big_and_chunked_bodies_are_refused(tmp_path, certificate, pem, monkeypatch):
    with proxy(tmp_path, pem, monkeypatch) as port:
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
def test_an_address_sending_too_many_requests_gets_429(tmp_path, monkeypatch):
    with proxy(tmp_path, None, monkeypatch, MAX_REQUESTS_PER_10S=10) as port:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        statuses = [_get(connection)[0] for _ in range(16)]
        connection.close()
    assert statuses[:10] == [200] * 10 and statuses[-1] == 429


@pytest.mark.slow
@needs_haproxy
def test_an_address_holding_too_many_connections_is_refused_more(tmp_path, monkeypatch):
    with proxy(tmp_path, None, monkeypatch, MAX_OPEN=3) as port:
        held = [http.client.HTTPConnection("127.0.0.1", port, timeout=30) for _ in range(3)]
        assert [_get(c)[0] for c in held] == [200] * 3  # three open, each answered
        assert _answer(port) is None
        assert [_get(c)[0] for c in held] == [200] * 3  # the open ones still work
        for connection in held:
            connection.close()


@pytest.mark.slow
@needs_haproxy
def test_an_address_opening_connections_too_fast_is_refused(tmp_path, monkeypatch):
    with proxy(tmp_path, None, monkeypatch, MAX_NEW_PER_10S=4) as port:
        statuses = [_answer(port) for _ in range(10)]
    assert statuses[:4] == [200] * 4 and statuses[-1] is None
