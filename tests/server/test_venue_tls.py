"""HTTPS from the laptop itself (README, "On the venue's network"): `python -m stsa tls`
makes a certificate for the laptop's names and addresses, `make run` then serves https:// with
it, prints the address and the fingerprint phones are asked to compare, and cookies and
headers follow; and starting the server asks nothing of the internet."""

from __future__ import annotations

import http.client
import os
import ssl
import subprocess
import sys
import textwrap
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from stsa import tls
from tests.server.conftest import assert_clean, handoff_code, post, set_cookies, sign_in
from tests.support.appserver import JUDGE_PIN, started

pytestmark = pytest.mark.server
ROOT = Path(__file__).resolve().parents[2]


def test_the_tls_command_makes_a_certificate_for_this_laptop(tmp_path):
    env = {**os.environ, "STSA_TLS_DIR": str(tmp_path / "tls"),
           "STSA_DATABASE_URL": f"sqlite:///{tmp_path / 'stsa.db'}"}
    made = subprocess.run([sys.executable, "-m", "stsa", "tls"], cwd=ROOT, env=env, text=True,
                          capture_output=True, timeout=120)
    assert made.returncode == 0, made.stderr
    certificate = tls.load_certificate(tmp_path / "tls")
    assert certificate is not None and certificate.fingerprint in made.stdout
    assert "127.0.0.1" in certificate.names
    again = subprocess.run([sys.executable, "-m", "stsa", "tls"], cwd=ROOT, env=env, text=True,
                           capture_output=True, timeout=120)
    assert again.returncode == 0 and "exists already" in again.stdout
    assert tls.load_certificate(tmp_path / "tls").fingerprint == certificate.fingerprint


@pytest.fixture(scope="module")
def https_app(tmp_path_factory):
    root = tmp_path_factory.mktemp("https")
    tls.make_certificate(root / "tls", ["localhost", "127.0.0.1"])
    with started(root, tls=root / "tls") as running:
        yield running


def test_the_app_serves_https_with_the_certificate_it_names(https_app, connect):
    assert https_app.url.startswith("https://")
    certificate = tls.load_certificate(https_app.root / "tls")
    assert "https://" in https_app.output() and certificate.fingerprint in https_app.output()
    status, headers, _ = post(https_app, "/", method="GET")
    assert status == 200 and headers["strict-transport-security"].startswith("max-age=")
    plain = https_app.url.replace("https://", "http://")
    with pytest.raises((OSError, http.client.HTTPException)):  # no answer in plain HTTP
        urllib.request.urlopen(f"{plain}/_stcore/health", timeout=10)
    untrusting = ssl.create_default_context()
    with pytest.raises(urllib.error.URLError) as refused:
        urllib.request.urlopen(f"{https_app.url}/_stcore/health", timeout=10,
                               context=untrusting)
    assert isinstance(refused.value.reason, ssl.SSLError), "a certificate nobody vouched for"


def test_cookies_over_https_are_secure(https_app, connect):
    tab = connect(https_app, path="sign_in")
    run = assert_clean(sign_in(tab, "Jo", JUDGE_PIN))
    status, headers, _ = post(https_app, "/_stsa/session", handoff_code([run]),
                              headers={"Origin": https_app.url})
    assert status == 200
    for cookie in set_cookies(headers).values():
        assert cookie["secure"] and cookie["httponly"], cookie["line"]


def test_connections_closing_over_https_leave_no_error_behind(https_app, connect):
    """A TLS connection that closes has no peer any more: the connection count is kept under
    the address it came from, and nothing fails in the server (a bug the load test found)."""
    tabs = [connect(https_app, path="standings") for _ in range(3)]
    for tab in tabs:
        assert_clean(tab.run())
        tab.close()
    assert_clean(connect(https_app, path="standings").run())
    assert "Traceback" not in https_app.output(), https_app.output()[-3000:]


AUDIT = textwrap.dedent('''
    import os, sys
    LOG = os.environ["STSA_TEST_AUDIT_LOG"]
    LOCAL = ("127.", "::1", "localhost", "0.0.0.0", "::", "")

    def _hook(event, args):
        if event not in ("socket.connect", "socket.getaddrinfo"):
            return
        host = args[1][0] if event == "socket.connect" else args[0]
        host = host.decode() if isinstance(host, bytes) else str(host)
        if host.startswith("/") or host.startswith(LOCAL):
            return
        with open(LOG, "a") as out:
            out.write(f"{event} {host}\\n")

    sys.addaudithook(_hook)
    with open(LOG, "a") as out:
        out.write("watching\\n")
''')


def test_starting_the_server_asks_nothing_of_the_internet(tmp_path, connect):
    hooks = tmp_path / "hooks"
    hooks.mkdir()
    (hooks / "sitecustomize.py").write_text(AUDIT)
    log = tmp_path / "outbound.log"
    env = {"PYTHONPATH": f"{hooks}{os.pathsep}{ROOT}", "STSA_TEST_AUDIT_LOG": str(log)}
    with started(tmp_path / "app", env=env) as app:
        assert_clean(connect(app, path="standings").run())
    lines = log.read_text().splitlines()
    assert "watching" in lines, "the watch on the server's sockets was not installed"
    import socket
    own = {socket.gethostname(), f"{socket.gethostname()}.local"}
    outbound = [line for line in lines if line != "watching" and line.split()[1] not in own]
    assert outbound == [], outbound
