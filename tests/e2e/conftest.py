"""Real-browser fixtures: the app started the way `make run` starts it, on a free 127.0.0.1 port
with its own empty database and known PINs, and Debian's Chromium driven by Playwright.

- `server` (one per test module): a running app with a fresh database; `fresh_server` gives a
  test its own. Both yield an `AppServer` (`.url`, `.database_url`, `.output()`).
- `browser` (one per session): Chromium launched headless with the flags below.
- `open_app(path="", as_=None, viewport=DESKTOP, app=None)`: a new browser context (one
  person: their own session and sign-in) on `server` (or `app`), signed in when
  `as_=(name, pin)`; closed after the test, with screenshots kept when the test failed.
- Helpers for journeys: `new_page`, `load` (open an address, or refresh), `wait_ready`,
  `go_to` (a click in the navigation, as a person moves between pages), `sign_in`, `field`
  (an input by its label); widgets: `click`, `type_text`, `number`, `choose`, `options`,
  `grid` (a table's rows as text), `live_grid` (a live element's table's rows); the Results
  page's entry (typed in the browser: no run until Save): `open_table`, `seat`,
  `seat_names`, `leaders`, `fill_seat`, `type_in`, `preview`, `enter_result`,
  `confirm_unusual`; `published_qualifier` arranges a published sitting through the store.

Streamlit renders asynchronously: wait for text (`page.get_by_text(...).wait_for()`) or for
the run an action starts (`rerun`, which the widget helpers use: each page counts the app's
finished runs from its websocket), never sleep. `scripts/screenshots.py` reuses `run_app`,
`launch_browser` and the helpers.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import time
import urllib.parse

import pytest

from tests.support.appserver import (  # noqa: F401  (re-exported for scripts/screenshots.py)
    JUDGE_PIN,
    ORGANIZER_PIN,
    START_TIMEOUT,
    AppServer,
    _healthy,
    _stop,
    free_port,
    run_app,
)

CHROMIUM = "/usr/bin/chromium"
SESSION_ROUTE = "/_stsa/session"  # where the page posts a sign-in's one-time code
LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
               "--disable-background-networking", "--disable-component-update",
               "--disable-sync"]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
TIMEOUT_MS = 20_000  # Playwright's wait for any one thing to appear
CLICK_SECONDS = 5  # a click that has begun no run of the app by then never reached it...
CLICK_TRIES = 3  # ...and is pressed again, up to this many presses in all


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


class ScriptRuns:
    """Counts the app's finished script runs for one page, from the messages the server sends
    over the page's websocket: a run starts with `new_session` and ends with `script_finished`
    (a run cut short by a newer one is not counted). Waiting for the count to move is how a
    test knows that what it clicked or typed has been processed, without sleeping."""

    def __init__(self) -> None:
        self.finished = 0
        self.started = 0
        self.running = False

    def listen(self, websocket) -> None:
        websocket.on("framereceived", self._frame)

    def _frame(self, payload) -> None:
        from google.protobuf.message import DecodeError
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

        if isinstance(payload, str):
            return
        message = ForwardMsg()
        try:
            message.ParseFromString(payload)
        except DecodeError:
            return
        kind = message.WhichOneof("type")
        if kind == "new_session":
            self.running = True
            self.started += 1
        elif kind == "script_finished" and (message.script_finished
                                            != ForwardMsg.FINISHED_EARLY_FOR_RERUN):
            self.running = False
            self.finished += 1


def runs(page) -> ScriptRuns:
    return page._stsa_runs


def new_page(browser, viewport: dict | None = None, locale: str = "en-GB"):
    """A page in a new browser context: a separate person with their own session, whose
    browser asks for `locale`'s language."""
    context = browser.new_context(viewport=viewport or DESKTOP, locale=locale)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    page._stsa_runs = ScriptRuns()
    page.on("websocket", page._stsa_runs.listen)
    return page


def wait_idle(page, after: int = 0, what: str = "the app to finish running") -> None:
    """Wait until more than `after` script runs have finished and none is running."""
    state, deadline = runs(page), time.monotonic() + TIMEOUT_MS / 1000
    while state.running or state.finished <= after:
        if time.monotonic() > deadline:
            raise AssertionError(f"Waited {TIMEOUT_MS / 1000:.0f} s for {what}.")
        page.wait_for_timeout(20)  # lets Playwright deliver the websocket messages


@contextlib.contextmanager
def rerun(page, what: str = "the app to answer"):
    """`with rerun(page): <one action that makes the app run again>` returns once that run
    has finished."""
    before = runs(page).finished
    yield
    wait_idle(page, before, what)


def sign_in_words() -> list[str]:
    """The Sign in page's title in every language (the last link of app.py's navigation)."""
    from stsa import i18n

    words = []
    for code in i18n.LANGUAGES:
        with i18n.language(code):
            words.append(i18n._("Sign in"))
    return words


def wait_ready(page) -> None:
    """Wait until the app has drawn its own navigation (app.py's, not the pages-folder list
    Streamlit shows before the script runs) and is no longer running a script."""
    page.locator('[data-testid="stAppViewContainer"]').wait_for()
    page.wait_for_function(
        """words => [...document.querySelectorAll(
                    '[data-testid="stSidebarNavLink"], [data-testid="stTopNavLink"]')]
                 .some(a => words.some(w => a.textContent.trim().endsWith(w)))""",
        arg=sign_in_words())
    if hasattr(page, "_stsa_runs"):
        wait_idle(page)
    else:
        page.wait_for_function(
            """() => !document.querySelector('[data-testid="stStatusWidget"]')
                     || !document.querySelector('[data-testid="stStatusWidget"]')
                          .textContent.includes('Running')""")
    assert_no_exception(page)


def load(page, url: str | None = None) -> None:
    """Open `url` (None: reload the page, as a person pressing refresh) and wait until ready."""
    runs(page).finished, runs(page).running = 0, False
    if url is None:
        page.reload()
    else:
        page.goto(url)
    wait_ready(page)


def assert_no_exception(page) -> None:
    errors = page.locator('[data-testid="stException"]')
    if errors.count():
        raise AssertionError(f"The page shows an exception:\n{errors.first.inner_text()}")


def go_to(page, title: str) -> None:
    """Open a page by its title in the navigation (opening the sidebar on a phone first)."""
    link = page.locator('[data-testid="stSidebarNavLink"]', has_text=title).first
    sidebar = page.locator('[data-testid="stSidebar"]')
    if sidebar.count() and sidebar.first.get_attribute("data-collapsed") == "true":
        # a collapsed sidebar (a phone) is drawn off screen: open it first
        page.locator('[data-testid="stExpandSidebarButton"]').first.click()
        page.locator('[data-testid="stSidebar"][data-collapsed="false"]').wait_for()
    href = link.get_attribute("href")
    with rerun(page, f"the {title} page"):
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
    """Sign in on the Sign in page as a person would; waits until the app says who is in and
    the page's script has put the session in its cookie (a refresh keeps the person in)."""
    go_to(page, "Sign in")
    field(page, "Your name").fill(name)
    field(page, "PIN").fill(pin)
    with page.expect_response(lambda r: r.url.endswith(SESSION_ROUTE)) as cookie:
        page.get_by_role("button", name="Sign in").click()
    assert cookie.value.status == 200, f"the session cookie was refused: {cookie.value.status}"
    page.get_by_text("Signed in as").first.wait_for()
    wait_ready(page)


# --- widgets ----------------------------------------------------------------------------------

def _page(scope):
    """The page of a page or of a locator."""
    return getattr(scope, "page", scope)


def click(scope, name: str, *, expect: str | re.Pattern | None = None) -> None:
    """Click the button named exactly `name` and wait for the run it starts; with `expect`,
    also for that text to show (e.g. the success message flashed after the write)."""
    page = _page(scope)
    button = scope.get_by_role("button", name=name, exact=True)
    with rerun(page, f"the app to answer “{name}”"):
        started = runs(page).started
        button.click()
        for _ in range(CLICK_TRIES - 1):
            if _run_started(page, started):
                break
            # No run began: the click landed while the page moved under the pointer (a table
            # drawing itself) and never reached the app, so nothing was done: press again.
            button.click()
    if expect is not None:
        page.get_by_text(expect).first.wait_for()
        wait_ready(page)


def _run_started(page, started: int) -> bool:
    """Whether the app began a run after `started` runs had begun, waiting up to
    `CLICK_SECONDS` (a run begins at once when the app hears of a click)."""
    deadline = time.monotonic() + CLICK_SECONDS
    while runs(page).started <= started:
        if time.monotonic() > deadline:
            return False
        page.wait_for_timeout(20)  # lets Playwright deliver the websocket messages
    return True


def type_text(scope, label: str, text: str) -> None:
    """Type into a text box or text area and commit it (Tab), waiting for the run it starts."""
    box = field(scope, label)
    if box.input_value() == text:
        return
    with rerun(_page(scope), f"the app to take “{label}”"):
        box.fill(text)
        box.press("Tab")


def number(scope, label: str, value: int) -> None:
    """Type a number into the number input labelled `label` and commit it (Tab), as a person
    would before clicking Save; waits for the run it starts."""
    box = scope.locator(f'input[aria-label="{label}"]').first
    if box.input_value() == str(value):
        return
    with rerun(_page(scope), f"the app to take {label} = {value}"):
        box.fill(str(value))
        box.press("Tab")


def listed(page, name: str | re.Pattern | None = None, exact: bool = False):
    """The options of the select box list open now (a Streamlit list, not the options of a
    native <select> such as the Results page's entry has)."""
    found = page.get_by_role("listbox")
    return found.get_by_role("option") if name is None else \
        found.get_by_role("option", name=name, exact=exact)


def _open_list(box) -> None:
    """Open a select box's list from the keyboard (after one select box was used, a click or
    typing in the next one does not open its list)."""
    box.focus()
    box.press("ArrowDown")


def choose(scope, label: str, option: str | re.Pattern) -> bool:
    """Pick `option` (its whole text, or a pattern) in the select box labelled `label`; waits
    for the run it starts. False when it was already chosen."""
    page = _page(scope)
    box = scope.locator(f'input[role="combobox"][aria-label="{label}"]').first
    current = box.input_value()
    if (option.search(current) if isinstance(option, re.Pattern) else current == option):
        return False
    with rerun(page, f"the app to take {label} = {option}"):
        _open_list(box)
        if isinstance(option, str):  # typing narrows a long list to the one wanted
            box.fill(option)
        wanted = listed(page, option, exact=isinstance(option, str)).first
        try:
            try:
                wanted.wait_for(timeout=5_000)
            except Exception:  # noqa: BLE001 - a busy machine: the list may not have opened; once more
                _open_list(box)
                wanted.wait_for()
        except Exception as exc:
            offered = listed(page).all_inner_texts()
            raise AssertionError(f"{label}: no option {option!r} among {offered}") from exc
        try:
            wanted.click(timeout=5_000)
        except Exception:  # noqa: BLE001 - a run that was still finishing redrew the box and closed its list
            wait_ready(page)
            _open_list(box)
            wanted.click()
    return True


def options(scope, label: str) -> list[str]:
    """The options a select box offers (it is opened and closed again)."""
    page = _page(scope)
    box = scope.locator(f'input[role="combobox"][aria-label="{label}"]').first
    _open_list(box)
    try:
        listed(page).first.wait_for(timeout=5_000)
    except Exception:  # noqa: BLE001 - a busy machine: the list may not have opened; once more
        wait_ready(page)
        _open_list(box)
        listed(page).first.wait_for()
    found, seen = listed(page).all_inner_texts(), None
    while found != seen:  # the list may still be drawing its options: until two reads agree
        page.wait_for_timeout(50)  # lets the browser draw
        seen, found = found, listed(page).all_inner_texts()
    box.press("Escape")
    return [o.strip() for o in found]


_GRID_JS = """el => {
    const heads = [...el.querySelectorAll('[role="columnheader"]')]
        .map(h => h.textContent.trim());
    const rows = {};
    for (const cell of el.querySelectorAll('[data-testid^="glide-cell-"]')) {
        const m = cell.getAttribute('data-testid').match(/^glide-cell-(\\d+)-(\\d+)$/);
        if (m) (rows[m[2]] ||= {})[heads[+m[1]]] = cell.textContent;
    }
    return [heads, Object.keys(rows).sort((a, b) => a - b).map(r => rows[r])];
}"""


def grids(scope) -> list[tuple[list[str], list[dict]]]:
    """Every table (st.dataframe) shown: its column names and its rows as {column: text}.
    (Tables draw on a canvas; these are the cells of the grid's accessible copy.)"""
    found = []
    for grid in scope.locator('[data-testid="stDataFrame"]').all():
        heads, rows = grid.evaluate(_GRID_JS)
        found.append((heads, rows))
    return found


def _table_with(scope, tables, what: str, columns: tuple[str, ...], rows: int | None,
                nth: int, drawn=lambda shown: True) -> list[dict]:
    """The rows of the `nth` of `tables(scope)` with all of `columns` (and, with `rows`, that
    many rows), waiting until it shows and `drawn(every table)` holds."""
    page, deadline = _page(scope), time.monotonic() + TIMEOUT_MS / 1000
    while True:
        shown = tables(scope)
        matching = [found for heads, found in shown if set(columns) <= set(heads)]
        if drawn(shown) and len(matching) > nth and (rows is None or len(matching[nth]) == rows):
            return matching[nth]
        if time.monotonic() > deadline:
            raise AssertionError(f"No {what} with columns {columns}"
                                 + (f" and {rows} rows" if rows else "") + " showed: "
                                 + repr([(h, len(r)) for h, r in tables(scope)]))
        page.wait_for_timeout(50)


def grid(scope, *columns: str, rows: int | None = None, nth: int = 0) -> list[dict]:
    """The rows of the first (`nth`) table with all of `columns`, waiting until it shows (and,
    with `rows`, until it has that many rows)."""
    # a table not drawn yet (no headings) would shift `nth`
    return _table_with(scope, grids, "table", columns, rows, nth,
                       drawn=lambda shown: all(heads for heads, _ in shown))


_TABLE_JS = """table => {
    const heads = [...table.querySelectorAll('thead th')].map(h => h.textContent.trim());
    return [heads, [...table.querySelectorAll('tbody tr')].map(tr => Object.fromEntries(
        [...tr.children].map((td, i) => [heads[i], td.textContent.trim()])))];
}"""


def live_tables(scope) -> list[tuple[list[str], list[dict]]]:
    """Every table a live element shows (`stsa.ui.live_element`: HTML tables in the page):
    its headings and its rows as {heading: text}."""
    return [table.evaluate(_TABLE_JS) for table in scope.locator(".stsa-live table").all()
            if table.is_visible()]


def live_grid(scope, *columns: str, rows: int | None = None, nth: int = 0) -> list[dict]:
    """The rows of the first (`nth`) live element's table with all of `columns`, waiting until
    it shows (and, with `rows`, until it has that many rows): `grid` for live elements."""
    return _table_with(scope, live_tables, "live table", columns, rows, nth)


def live_plan(scope, *columns: str, rows: int) -> list[dict]:
    """The rows of every live table with all of `columns`, in the page's order, waiting until
    they are `rows` in all: the Schedule shows one table per day, so a plan that runs past
    midnight (an evening run of a test) is in two."""
    def joined(scope) -> list[tuple[list[str], list[dict]]]:
        days = [found for heads, found in live_tables(scope) if set(columns) <= set(heads)]
        return [(list(columns), [row for day in days for row in day])] if days else []
    return _table_with(scope, joined, "live plan", columns, rows, 0)


# --- the Results page -------------------------------------------------------------------------

STATS = ("VP", "Spice", "Solari", "Troops", "Water")  # the entry's labels
ENTRY = ".stsa-entry"  # the Results page's entry (a component: typing in it runs nothing)


def form_table(page) -> str | None:
    """The table id the Results page's entry is for, or None when it shows none."""
    found = page.locator(f"{ENTRY}[data-table]")
    return found.first.get_attribute("data-table") if found.count() else None


def entry_table(page) -> int:
    """The table id of the entry the Results page shows, once its element has drawn it (the
    element mounts in the browser after the page's script has finished)."""
    found = page.locator(f"{ENTRY}[data-table]").first
    found.wait_for()
    return int(found.get_attribute("data-table"))


def seat(page, number: int):
    """Seat `number`'s block in the Results page's entry."""
    return page.locator(f'{ENTRY} fieldset.stsa-seat[data-seat="{number}"]')


def seat_names(page) -> list[str]:
    """The players of the entry's table, by seat ("Seat 2 · red · Name")."""
    heads = page.locator(f"{ENTRY} fieldset.stsa-seat legend").all_inner_texts()
    return [h.split(" · ", 2)[-1].strip() for h in heads]


def leaders(page) -> list[str]:
    """The leaders the entry offers (its first seat's list, without "Choose the leader")."""
    return [o.strip() for o in seat(page, 1).locator("select option").all_inner_texts()[1:]]


def open_table(page, table: int, sitting: str | None = None) -> None:
    """On the Results page: choose the sitting (by the start of its label, "Qualifier 2",
    "Semifinal") and the table, and wait until the entry is that table's."""
    if sitting is not None:
        before = form_table(page)
        if choose(page, "Sitting", re.compile(rf"^{re.escape(sitting)} ·")):
            _form_changed(page, before)
    before = form_table(page)
    if choose(page, "Table", re.compile(rf"^Table {table} ·")):
        _form_changed(page, before)
    seat(page, 1).wait_for()
    wait_ready(page)


def _form_changed(page, before: str | None) -> None:
    """Wait until the entry is no longer the one of table id `before`."""
    if before is not None:
        page.locator(f'{ENTRY}[data-table="{before}"]').wait_for(state="detached")


def type_in(block, label: str, value) -> None:
    """Type `value` into the entry's field labelled `label` (in `block`: a seat, or the page):
    the browser keeps it, the server hears nothing until Save."""
    block.locator(f'input[aria-label="{label}"]').first.fill(str(value))


def fill_seat(page, seat_no: int, values, leader: str | None = None) -> None:
    """One seat: the leader (when given), then VP, spice, solari, troops, water."""
    block = seat(page, seat_no)
    if leader is not None:
        block.locator("select").select_option(label=leader)
    for label, value in zip(STATS, values):
        type_in(block, label, value)


def preview(page) -> list[dict]:
    """The entry's preview, worked out in the browser: its rows as {heading: text}, in order
    ([] while it waits for blank numbers)."""
    table = page.locator(f"{ENTRY} .stsa-preview-table")
    if not table.is_visible():
        return []
    heads = [h.strip() for h in table.locator("thead th").all_inner_texts()]
    return [dict(zip(heads, [c.strip() for c in row.locator("td").all_inner_texts()]))
            for row in table.locator("tbody tr").all()]


def enter_result(page, values, *, table: int, sitting: str | None = None,
                 save: bool = True) -> list[str]:
    """As a judge on the Results page: open the table, give each seat a different leader from
    the table's list and its numbers (`values`: one (vp, spice, solari, troops, water) per
    seat), check the preview shows every VP, then save (one run) and wait for the saved
    message. Returns the players by seat."""
    open_table(page, table, sitting)
    names = seat_names(page)
    assert len(names) == len(values), f"table {table} seats {names}, values for {len(values)}"
    offered = leaders(page)
    for n, vals in enumerate(values, start=1):
        fill_seat(page, n, vals, offered[n - 1])
    shown = preview(page)
    assert sorted(int(r["VP"]) for r in shown) == sorted(v[0] for v in values), shown
    if save:
        confirm_unusual(page)
        click(page, "Save result", expect=re.compile(r"saved as version 1"))
        # On to the next table waiting for a result, or still this one when none waits.
        box = field(page, "Table").input_value()
        assert box.startswith(f"Table {table} · reported") or page.get_by_text(
            f"Table {table} is saved. This is table").count(), box
    return names


def confirm_unusual(page) -> None:
    """Tick "These numbers are right" when the entry asks (a VP above a usual game's)."""
    tick = page.get_by_role("checkbox", name="These numbers are right")
    if tick.count() and tick.is_visible() and not tick.is_checked():
        tick.check()


@contextlib.contextmanager
def published_qualifier(app: AppServer, names: list[str], seed: int):
    """`with published_qualifier(server, names, seed) as (engine, tables)`: the players
    imported and Qualifier 1 drawn and published through the store (for journeys that start
    at the Results page); `tables` maps table numbers to table ids."""
    import pandas as pd

    from stsa import store, tournament
    from stsa.auth import Actor, Role

    who = Actor("Olivia", Role.ORGANIZER)
    engine = store.connect(app.database_url)
    try:
        ids = store.import_players(engine, pd.DataFrame({"name": names}),
                                   actor=who)["player_id"].tolist()
        drawn = tournament.draw_qualifier(engine, ids, seed=seed, actor=who)
        store.publish_sitting(engine, drawn["sitting_id"], actor=who)
        tables = store.tables(engine, drawn["sitting_id"], actor=who)
        yield engine, dict(zip(tables["table_no"].astype(int), tables["table_id"].astype(int)))
    finally:
        engine.dispose()


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
              viewport: dict | None = None, app: AppServer | None = None,
              locale: str = "en-GB"):
        app = app or request.getfixturevalue("server")
        page = new_page(browser, viewport, locale)
        pages.append((page, app))
        load(page, f"{app.url}/{path.lstrip('/')}")
        if as_ is not None:
            sign_in(page, *as_)
        return page

    yield _open
    report = getattr(request.node, "report_call", None)
    if report is not None and report.failed and pages:
        for i, (page, _) in enumerate(pages):
            with contextlib.suppress(Exception):  # a crashed page must not hide the failure
                page.screenshot(path=str(tmp_path / f"page-{i}.png"), full_page=True)
        output = pages[-1][1].output()
        (tmp_path / "server.log").write_text(output)
        print(f"Screenshots and the app's output: {tmp_path}")
        print("The app's output, its end:", *output.splitlines()[-40:], sep="\n")
    for page, _ in pages:
        page.context.close()
