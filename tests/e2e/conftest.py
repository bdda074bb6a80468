"""Real-browser fixtures: the app started the way `make run` starts it, on a free 127.0.0.1 port
with its own empty database and known PINs, and Debian's Chromium driven by Playwright.

- `server` (one per test module): a running app with a fresh database; `fresh_server` gives a
  test its own. Both yield an `AppServer` (`.url`, `.database_url`, `.output()`).
- `browser` (one per session): Chromium launched headless with the flags below.
- `open_app(path="", as_=None, viewport=DESKTOP, app=None)`: a new browser context (one
  person: their own session and sign-in) on `server` (or `app`), signed in when
  `as_=(name, pin)`; closed after the test, with screenshots kept when the test failed.
- Helpers for journeys: `new_page`, `wait_ready`, `go_to` (a click in the navigation, as a
  person moves between pages), `sign_in`, `field` (an input by its label).

Streamlit renders asynchronously: wait for text (`page.get_by_text(...).wait_for()`), never
sleep. `scripts/screenshots.py` reuses `run_app`, `launch_browser` and the helpers.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
               "--disable-background-networking", "--disable-component-update",
               "--disable-sync"]
ORGANIZER_PIN = "4242"
JUDGE_PIN = "1717"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
START_TIMEOUT = 60  # seconds for the app to answer its health check
TIMEOUT_MS = 20_000  # Playwright's wait for any one thing to appear


# --- the app ----------------------------------------------------------------------------------

@dataclass
class AppServer:
    """A running STSA app: its address, its database and what it printed."""

    url: str
    database_url: str
    root: Path
    process: subprocess.Popen
    log_path: Path

    def output(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as reply:
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


@contextlib.contextmanager
def run_app(root: Path, *, timeout: float = START_TIMEOUT) -> Iterator[AppServer]:
    """Start `streamlit run app.py` with a fresh SQLite database under `root`; stop it after.

    Raises RuntimeError with the app's output if it exits or does not answer in `timeout` s.
    """
    root.mkdir(parents=True, exist_ok=True)
    port = free_port()
    database_url = f"sqlite:///{root / 'stsa.db'}"
    env = {**os.environ, "STSA_DATABASE_URL": database_url,
           "STSA_ORGANIZER_PIN": ORGANIZER_PIN, "STSA_JUDGE_PIN": JUDGE_PIN,
           "STSA_BACKUP_DIR": str(root / "backups"), "PYTHONUNBUFFERED": "1"}
    log_path = root / "server.log"
    with open(log_path, "wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "streamlit", "run", "app.py", "--server.port", str(port),
             "--server.headless", "true", "--server.address", "127.0.0.1",
             "--browser.gatherUsageStats", "false"],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    server = AppServer(f"http://127.0.0.1:{port}", database_url, root, process, log_path)
    try:
        deadline = time.monotonic() + timeout
        while not _healthy(server.url):
            if process.poll() is not None:
                raise RuntimeError(f"The app exited with code {process.returncode} before "
                                   f"answering. Its output:\n{server.output()}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"The app did not answer {server.url}/_stcore/health within "
                                   f"{timeout:.0f} s. Its output:\n{server.output()}")
            time.sleep(0.2)
        yield server
    finally:
        _stop(process)


@contextlib.contextmanager
def _started(tmp: Path) -> Iterator[AppServer]:
    with contextlib.ExitStack() as stack:
        try:
            app = stack.enter_context(run_app(tmp))
        except RuntimeError as exc:  # it did not start: say why, with its output
            pytest.fail(str(exc), pytrace=False)
        yield app


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[AppServer]:
    """The app with a fresh database, shared by the tests of one module."""
    with _started(tmp_path_factory.mktemp("app")) as app:
        yield app


@pytest.fixture
def fresh_server(tmp_path) -> Iterator[AppServer]:
    """The app with a database of this test's own (for journeys that need an empty start)."""
    with _started(tmp_path / "app") as app:
        yield app


# --- the browser ------------------------------------------------------------------------------

def chromium_path() -> str | None:
    return CHROMIUM if os.access(CHROMIUM, os.X_OK) else shutil.which("chromium")


@contextlib.contextmanager
def launch_browser():
    """Debian's Chromium, headless, through Playwright (browsers are not downloaded)."""
    from playwright.sync_api import sync_playwright

    path = chromium_path()
    if path is None:
        raise RuntimeError(f"Chromium not found at {CHROMIUM}: install Debian's chromium package.")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=path, args=LAUNCH_ARGS,
                                             headless=True)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture(scope="session")
def browser():
    """Chromium for the session; skipped without it locally, a failure in CI (env CI set)."""
    if chromium_path() is None:
        reason = (f"Chromium not found at {CHROMIUM}: install Debian's chromium package "
                  f"(make test does it as root)")
        if os.environ.get("CI"):
            pytest.fail(reason + "; browser tests are never skipped in CI", pytrace=False)
        pytest.skip(reason)
    with launch_browser() as chromium:
        yield chromium


def new_page(browser, viewport: dict | None = None):
    """A page in a new browser context: a separate person with their own session."""
    context = browser.new_context(viewport=viewport or DESKTOP, locale="en-GB")
    context.set_default_timeout(TIMEOUT_MS)
    return context.new_page()


def wait_ready(page) -> None:
    """Wait until the app has drawn its own navigation (app.py's, not the pages-folder list
    Streamlit shows before the script runs) and is no longer running a script."""
    page.locator('[data-testid="stAppViewContainer"]').wait_for()
    page.wait_for_function(
        """() => [...document.querySelectorAll(
                    '[data-testid="stSidebarNavLink"], [data-testid="stTopNavLink"]')]
                 .some(a => a.textContent.trim().endsWith('Sign in'))""")
    page.wait_for_function(
        """() => !document.querySelector('[data-testid="stStatusWidget"]')
                 || !document.querySelector('[data-testid="stStatusWidget"]')
                      .textContent.includes('Running')""")
    assert_no_exception(page)


def assert_no_exception(page) -> None:
    errors = page.locator('[data-testid="stException"]')
    if errors.count():
        raise AssertionError(f"The page shows an exception:\n{errors.first.inner_text()}")


def go_to(page, title: str) -> None:
    """Open a page by its title in the navigation (opening the sidebar on a phone first)."""
    link = page.locator('[data-testid="stSidebarNavLink"]', has_text=title).first
    if not link.is_visible():
        expand = page.locator('[data-testid="stExpandSidebarButton"]')
        if expand.count():
            expand.first.click()
    href = link.get_attribute("href")
    link.click()
    if href:  # the query (e.g. a session token) may differ: compare paths
        path = urllib.parse.urlparse(href).path
        page.wait_for_url(lambda url: urllib.parse.urlparse(url).path == path,
                          wait_until="commit")
    wait_ready(page)
    collapse = page.locator('[data-testid="stSidebarCollapseButton"] button')
    if page.viewport_size and page.viewport_size["width"] < 640 and collapse.count():
        collapse.first.click()


def field(page, label: str):
    """The input a widget labels `label` (not its help button)."""
    return page.locator(f'input[aria-label="{label}"], textarea[aria-label="{label}"]').first


def sign_in(page, name: str, pin: str) -> None:
    """Sign in on the Sign in page as a person would; waits until the app says who is in."""
    go_to(page, "Sign in")
    field(page, "Your name").fill(name)
    field(page, "PIN").fill(pin)
    page.get_by_role("button", name="Sign in").click()
    page.get_by_text("Signed in as").first.wait_for()
    wait_ready(page)


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    """Keep each phase's report on the test item, so fixtures can tell a failed test."""
    report = yield
    setattr(item, f"report_{report.when}", report)
    return report


@pytest.fixture
def open_app(request, browser, tmp_path):
    """open_app(path="", as_=("Olivia", ORGANIZER_PIN), viewport=PHONE, app=None) → a ready
    page on `app` (default: the module's `server`, started on first use).

    Each call is a new person (browser context). When the test fails, a screenshot of every
    page opened and the app's output are kept in the test's tmp_path, printed with the failure.
    """
    pages = []

    def _open(path: str = "", as_: tuple[str, str] | None = None,
              viewport: dict | None = None, app: AppServer | None = None):
        app = app or request.getfixturevalue("server")
        page = new_page(browser, viewport)
        pages.append((page, app))
        page.goto(f"{app.url}/{path.lstrip('/')}")
        wait_ready(page)
        if as_ is not None:
            sign_in(page, *as_)
        return page

    yield _open
    report = getattr(request.node, "report_call", None)
    if report is not None and report.failed and pages:
        for i, (page, _) in enumerate(pages):
            with contextlib.suppress(Exception):  # a crashed page must not hide the failure
                page.screenshot(path=str(tmp_path / f"page-{i}.png"), full_page=True)
        (tmp_path / "server.log").write_text(pages[-1][1].output())
        print(f"Screenshots and the app's output: {tmp_path}")
    for page, _ in pages:
        page.context.close()
