"""On the venue's network (README): what a script on the same Wi-Fi tries against a real STSA
server on 127.0.0.1, over plain HTTP and Streamlit's websocket, and what it gets.

Each test names the point of the README's "On the venue's network" / "Security" it proves:
no credential in any address, the session in an HttpOnly SameSite=Strict cookie, invitations
that need no PIN, uploads only from the organizer's pages, downloads only for the session that
made them, no public metrics, no server path, client messages capped, connections per address
capped, a deadline for request headers, the descriptor limit raised.
"""

from __future__ import annotations

import http.client
import json
import resource
import socket
from pathlib import Path

import pytest

from bench.wsclient import ProtocolError, Session
from stsa import store
from stsa.auth import Actor, Role
from stsa.web import guard
from tests.server.conftest import (
    assert_clean,
    handoff_code,
    handoff_cookies,
    post,
    set_cookies,
    sign_in,
)
from tests.support.appserver import JUDGE_PIN, ORGANIZER_PIN, started

pytestmark = pytest.mark.server
ROOT = Path(__file__).resolve().parents[2]
ORGANIZER = Actor("Olga", Role.ORGANIZER)


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    with started(tmp_path_factory.mktemp("venue")) as running:
        yield running


def signed_in_browser(app, connect, name: str, pin: str) -> tuple[Session, dict]:
    """Sign in over the websocket, run the page's handoff as a browser would: the session and
    the cookies the browser then holds."""
    tab = connect(app, path="sign_in")
    return tab, handoff_cookies(app, assert_clean(sign_in(tab, name, pin)))


def is_signed_in(app, connect, cookies: dict) -> str:
    """What the Sign in page says to a new tab sending `cookies`."""
    return assert_clean(connect(app, path="sign_in", cookies=cookies).run()).text()


# --- no credential in any address -------------------------------------------------------------
def test_no_address_carries_a_session_after_signing_in(app, connect):
    tab = connect(app, path="sign_in")
    run = assert_clean(sign_in(tab, "Olga", ORGANIZER_PIN))
    assert "Signed in as" in run.text()
    for page in ("player", "tv", "standings", "results", "settings"):
        moved = assert_clean(tab.run(page=page))
        assert "session" not in moved.query_params, (page, moved.query)
        assert not any(len(v) >= 20 for v in moved.query_params.values()), moved.query


def test_an_old_session_address_signs_nobody_in(app, connect):
    engine = store.connect(app.database_url)
    try:
        token = store.sign_in(engine, "Olga", ORGANIZER_PIN, client="test").session_id
    finally:
        engine.dispose()
    run = assert_clean(connect(app, path="sign_in", query=f"session={token}").run())
    assert "Signed in as" not in run.text() and "session" not in run.query_params


# --- the cookie ---------------------------------------------------------------------------------
def test_a_sign_in_becomes_an_httponly_strict_cookie_once(app, connect):
    tab = connect(app, path="sign_in")
    first = assert_clean(sign_in(tab, "Jo", JUDGE_PIN))
    code = handoff_code([first])
    status, headers, _ = post(app, "/_stsa/session", code, headers={"Origin": app.url})
    assert status == 200
    cookies = set_cookies(headers)
    session, device = cookies["stsa_session"], cookies["stsa_device"]
    for cookie in (session, device):
        assert cookie["httponly"] and cookie["samesite"] == "strict", cookie["line"]
        assert "path=/" in cookie["line"]
    assert "max-age" in session["line"], "sessions end by themselves"
    assert code not in session["value"], "the cookie is the session, not the one-time code"
    again, _, said = post(app, "/_stsa/session", code, headers={"Origin": app.url})
    assert again == 403 and "expired" in said, "a handoff code works once"
    assert "Signed in as **Jo** (judge)" in is_signed_in(app, connect, {"stsa_session":
                                                                     session["value"]})


def test_a_cookie_post_from_another_site_is_refused(app, connect):
    tab = connect(app, path="sign_in")
    first = assert_clean(sign_in(tab, "Jo", JUDGE_PIN))
    code = handoff_code([first])
    status, headers, _ = post(app, "/_stsa/session", code,
                              headers={"Origin": "http://evil.example"})
    assert status == 403 and not set_cookies(headers)


def test_signing_out_ends_the_cookie(app, connect):
    tab, cookies = signed_in_browser(app, connect, "Olga", ORGANIZER_PIN)
    assert "Signed in as **Olga**" in is_signed_in(app, connect, cookies)
    assert_clean(tab.click("Sign out"))
    assert "Signed in as" not in is_signed_in(app, connect, cookies)


def test_a_forged_or_unknown_cookie_is_a_spectator(app, connect):
    text = is_signed_in(app, connect, {"stsa_session": "x" * 43})
    assert "Signed in as" not in text and "PIN" in text


# --- invitations --------------------------------------------------------------------------------
def test_an_invitation_signs_a_judge_in_with_no_typing_until_withdrawn(app, connect):
    engine = store.connect(app.database_url)
    try:
        invitation, token = store.create_invitation(engine, "Kim", hours=2, actor=ORGANIZER)
        status, _, page = post(app, "/join", method="GET")
        assert status == 200 and token not in page and "location.hash" in page
        refused, _, said = post(app, "/_stsa/join", "not-a-token", headers={"Origin": app.url})
        assert refused == 403 and "not valid" in said
        status, headers, said = post(app, "/_stsa/join", token, headers={"Origin": app.url})
        assert status == 200 and json.loads(said)["next"] == "/results"
        cookies = {k: v["value"] for k, v in set_cookies(headers).items()}
        assert set_cookies(headers)["stsa_session"]["httponly"]
        assert "Signed in as **Kim** (judge)" in is_signed_in(app, connect, cookies)
        store.revoke_invitation(engine, invitation, actor=ORGANIZER)
        assert "Signed in as" not in is_signed_in(app, connect, cookies)
        again, _, _ = post(app, "/_stsa/join", token, headers={"Origin": app.url})
        assert again == 403, "a withdrawn invitation signs nobody in"
    finally:
        engine.dispose()


def test_an_invitation_photographed_before_sign_everyone_out_signs_nobody_in(app, connect):
    """Issue 33: the organizer presses "Sign everyone out" on the Settings page (over the
    websocket, as a browser does); a QR code photographed earlier, posted to the join route as
    an attacker's script would, is refused, and its judge's session has ended."""
    engine = store.connect(app.database_url)
    try:
        _, token = store.create_invitation(engine, "Kim", hours=24, actor=ORGANIZER)
        status, headers, _ = post(app, "/_stsa/join", token, headers={"Origin": app.url})
        assert status == 200
        judge = {k: v["value"] for k, v in set_cookies(headers).items()}
        _, cookies = signed_in_browser(app, connect, "Olga", ORGANIZER_PIN)
        settings = connect(app, path="settings", cookies=cookies)
        assert_clean(settings.run())
        said = assert_clean(settings.click("sign_everyone_out")).alerts
        refused, _, words = post(app, "/_stsa/join", token, headers={"Origin": app.url})
        assert (refused, "not valid" in words) == (403, True), "the QR code still signs in"
        assert "Signed in as" not in is_signed_in(app, connect, judge)
        assert any("Withdrew 1 open invitation." in a for a in said.get("success", [])), said
        assert "Signed in as **Olga**" in is_signed_in(app, connect, cookies), "stays signed in"
    finally:
        engine.dispose()


# --- uploads and downloads ------------------------------------------------------------------------
def _upload(app, streamlit_session: str, size: int, name: str = "roster.csv"):
    """PUT a file to Streamlit's upload route as a script would: (status, text). The headers
    go first and the answer is read before the body, as the guard answers without reading."""
    boundary = "stsa-boundary"
    head = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; "
            f"filename=\"{name}\"\r\nContent-Type: text/csv\r\n\r\n").encode()
    tail = f"\r\n--{boundary}--\r\n".encode()
    host, port = app.url.split("//")[1].split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=30)
    try:
        connection.putrequest("PUT", f"/_stcore/upload_file/{streamlit_session}/f-{size}")
        connection.putheader("Content-Type", f"multipart/form-data; boundary={boundary}")
        connection.putheader("Content-Length", str(len(head) + size + len(tail)))
        connection.endheaders()
        if size <= 1024 * 1024:
            connection.send(head + b"n" * size + tail)
        reply = connection.getresponse()
        return reply.status, reply.read().decode()
    finally:
        connection.close()


def test_uploads_are_taken_only_from_an_organizer_page(app, connect):
    spectator = connect(app, path="standings")
    assert_clean(spectator.run())
    status, said = _upload(app, spectator.session_id, 1000)
    assert status == 403 and "Only the organizer" in said
    judge = connect(app, path="sign_in")
    assert_clean(sign_in(judge, "Jo", JUDGE_PIN))
    status, said = _upload(app, judge.session_id, 1000)
    assert status == 403 and "Only the organizer" in said
    organizer = connect(app, path="sign_in")
    assert_clean(sign_in(organizer, "Olga", ORGANIZER_PIN))
    assert_clean(organizer.run(page="roster"))
    status, said = _upload(app, organizer.session_id, guard.UPLOAD_BYTES + 1)
    assert status == 413, (status, said)
    status, said = _upload(app, organizer.session_id, 1000)
    assert status != 403 or "Only the organizer" not in said, said


def test_a_deferred_download_runs_only_for_the_session_that_made_it(app, connect):
    organizer = connect(app, path="sign_in")
    assert_clean(sign_in(organizer, "Olga", ORGANIZER_PIN))
    data = assert_clean(organizer.run(page="data"))
    buttons = [e for e in data.find("download_button") if e.proto.deferred_file_id]
    assert buttons, "the Data page offers its workbook as a deferred download"
    file_id = buttons[0].proto.deferred_file_id
    spectator = connect(app, path="standings")
    assert_clean(spectator.run())
    url, error = spectator.deferred_download(file_id)
    assert url == "" and error, "another session named the organizer's download"
    url, error = organizer.deferred_download(file_id)
    assert url and not error


# --- what Streamlit would give away ---------------------------------------------------------------
def test_metrics_are_not_public(app):
    for path in ("/_stcore/metrics", "/_stcore/script-health-check"):
        status, _, _ = post(app, path, method="GET")
        assert status == 404, path


def test_no_page_tells_a_browser_where_the_server_keeps_its_files(app, connect):
    tab = connect(app, path="sign_in")
    runs = [assert_clean(tab.run()), assert_clean(sign_in(tab, "Olga", ORGANIZER_PIN))]
    runs += [assert_clean(tab.run(page=p)) for p in ("settings", "data", "standings")]
    sent = b"".join(m.SerializeToString() for run in runs for m in run.messages)
    assert str(ROOT).encode() not in sent
    assert runs[0].messages, "the check read what the server sent"


def test_every_answer_carries_the_headers_that_keep_it_private(app):
    status, headers, _ = post(app, "/", method="GET")
    assert status == 200
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "no-referrer"
    assert headers["x-frame-options"] == "SAMEORIGIN"


# --- one visitor cannot stop the room -------------------------------------------------------------
def test_a_client_message_over_a_megabyte_closes_that_connection_only(app, connect):
    heavy = connect(app, path="sign_in")
    assert_clean(heavy.run())
    with pytest.raises(ProtocolError):
        heavy.run(widgets={"Your name": "x" * (2 * 1024 * 1024)})
        heavy.run()
    fine = connect(app, path="sign_in")
    assert_clean(fine.run())
    assert_clean(fine.run(widgets={"Your name": "x" * (200 * 1024)})), "200 kB is no attack"


def _closed_by_server(sock: socket.socket) -> bool:
    try:
        return sock.recv(1024) == b""
    except (ConnectionResetError, BrokenPipeError):
        return True


def test_connections_per_address_are_capped(tmp_path, connect):
    with started(tmp_path, env={"STSA_CONNECTIONS_PER_ADDRESS": "3"}) as capped:
        tabs = [connect(capped, path="standings") for _ in range(3)]
        for tab in tabs:
            assert_clean(tab.run())
        host, port = capped.url.split("//")[1].split(":")
        with socket.create_connection((host, int(port)), timeout=30) as extra:
            extra.sendall(b"GET /_stcore/health HTTP/1.1\r\nHost: x\r\n\r\n")
            assert _closed_by_server(extra), "a fourth connection from one address got in"
        assert_clean(tabs[0].run()), "the connections already open keep working"
        assert "connections per address" in capped.output()


def test_headers_that_never_finish_are_cut_off(app):
    host, port = app.url.split("//")[1].split(":")
    with socket.create_connection((host, int(port)), timeout=60) as slow:
        slow.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")  # and never the blank line
        assert _closed_by_server(slow)


def test_the_descriptor_limit_is_raised_at_start(tmp_path):
    """Started with a low limit (the server inherits this process's), it raises its own."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(256, hard), hard))
    try:
        with started(tmp_path) as low:
            limits = Path(f"/proc/{low.process.pid}/limits").read_text()
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    line = next(x for x in limits.splitlines() if x.startswith("Max open files"))
    assert line.split()[3:5] == [str(hard), str(hard)], line
