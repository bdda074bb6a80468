"""Fixtures for tests that talk to a real app server over Streamlit's websocket protocol, with
`bench.wsclient` instead of a browser: many sessions, exact messages, no rendering.

- `server` (one per test module): the app on a fresh SQLite database; `fresh_server` gives a
  test its own (wrong PINs are counted per database and address, and every session here
  comes from 127.0.0.1: a test that gets PINs wrong needs a database of its own).
- `two_servers` (tests/conftest.py): two app processes on one new PostgreSQL database
  (tests/support/pg.py's throwaway server), as a tournament run behind a load balancer would be.
- `connect(app, path="sign_in", query="")`: a connected `Session`, closed after the test.
- `sign_in(session, name, pin)`: fill and submit the Sign in form; returns the run.
"""

from __future__ import annotations

import contextlib
import re
import urllib.error
import urllib.request
from collections.abc import Iterator
from http.cookies import SimpleCookie

import pytest

from bench.wsclient import Run, Session
from tests.support.appserver import AppServer


@pytest.fixture
def connect(request) -> Iterator:
    """connect(app, path="sign_in", query="") → a connected Session (one person's browser
    tab); the app's output is printed when the test fails."""
    opened: list[tuple[Session, AppServer]] = []

    def _connect(app: AppServer, path: str = "/", query: str = "", **options) -> Session:
        if app.ssl is not None:
            options.setdefault("ssl", app.ssl)
        session = Session(app.url, path=path, query=query, **options).connect()
        opened.append((session, app))
        return session

    yield _connect
    for session, _ in opened:
        with contextlib.suppress(Exception):
            session.close()
    report = getattr(request.node, "report_call", None)
    if report is not None and report.failed:
        for app in {id(app): app for _, app in opened}.values():
            print(f"--- output of the app at {app.url}:\n{app.output()[-4000:]}")


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    """Keep each phase's report on the test item, so fixtures can tell a failed test."""
    report = yield
    setattr(item, f"report_{report.when}", report)
    return report


def sign_in(session: Session, name: str, pin: str) -> Run:
    """Open the Sign in page (when not on it) and submit its form with `name` and `pin`."""
    if session.last is None or session.last.page != "sign_in":
        session.run(page="sign_in")
    return session.submit_form("Sign in", {"Your name": name, "PIN": pin})


def assert_clean(run: Run) -> Run:
    """The run finished and the page shows no exception."""
    assert run.status == "finished", run.status
    assert not run.exceptions, "The page shows an exception:\n" + "\n".join(run.exceptions)
    return run


# --- plain HTTP, as a script on the network (or the page's own script) sends it ------------
def post(app, path: str, body: str = "", *, cookies: dict | None = None,
         headers: dict | None = None, method: str = "POST"):
    """(status, headers, text) of a plain HTTP request, as a script on the network sends it."""
    request = urllib.request.Request(f"{app.url}{path}", data=body.encode() if body else None,
                                     method=method, headers=dict(headers or {}))
    if cookies:
        request.add_header("Cookie", "; ".join(f"{k}={v}" for k, v in cookies.items()))
    try:
        with urllib.request.urlopen(request, timeout=30, context=app.ssl) as reply:
            return reply.status, reply.headers, reply.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers, exc.read().decode()


def set_cookies(headers) -> dict[str, dict]:
    """Set-Cookie headers: name -> {"value": …, and each attribute in lower case}."""
    found = {}
    for line in headers.get_all("set-cookie") or []:
        jar = SimpleCookie()
        jar.load(line)
        for name, morsel in jar.items():
            attributes = line.lower()
            found[name] = {"value": morsel.value, "line": attributes,
                           "httponly": "httponly" in attributes,
                           "samesite": re.search(r"samesite=(\w+)", attributes).group(1)
                           if "samesite=" in attributes else None,
                           "secure": "; secure" in attributes}
    return found


def handoff_code(runs) -> str:
    """The one-time code the page's script posts after a sign-in (what a browser runs)."""
    for run in runs:
        for element in run.find("html"):
            found = re.search(r'fetch\("/_stsa/session".*body: "([^"]+)"', element.proto.body)
            if found:
                return found.group(1)
    raise AssertionError("no handoff script on the page after signing in")



def handoff_cookies(app: AppServer, run: Run) -> dict[str, str]:
    """After a sign-in run, do what the page's script does in a browser (post the one-time
    code): the cookies the browser then holds, by name."""
    status, headers, said = post(app, "/_stsa/session", handoff_code([run]),
                                 headers={"Origin": app.url})
    assert status == 200, (status, said)
    return {name: c["value"] for name, c in set_cookies(headers).items()}
