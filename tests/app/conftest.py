"""AppTest fixtures: each test gets its own empty SQLite tournament and a way to open any page
as a spectator, a judge or the organizer (the same way a person would, through app.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from stsa import store
from stsa.auth import Actor, Role
from stsa.ui import session

ORGANIZER = Actor("Olivia Organizer", Role.ORGANIZER)
JUDGE = Actor("Jamal Judge", Role.JUDGE)
ORGANIZER_PIN = "480915"
JUDGE_PIN = "736204"
PINS = {Role.ORGANIZER: ORGANIZER_PIN, Role.JUDGE: JUDGE_PIN}
APP = str(Path(__file__).resolve().parents[2] / "app.py")


@pytest.fixture(autouse=True, scope="session")
def full_error_details():
    """People see no tracebacks (.streamlit/config.toml); a failing test shows its own."""
    from streamlit import config

    config.set_option("client.showErrorDetails", "full")


@pytest.fixture(autouse=True)
def fresh_caches():
    """Each test starts like a freshly started app: no engine, cached reads or sign-in counts."""
    session.forget_engines()
    st.cache_resource.clear()
    st.cache_data.clear()
    yield
    session.forget_engines()
    st.cache_resource.clear()
    st.cache_data.clear()


@pytest.fixture
def db_url(tmp_path, monkeypatch):
    """A fresh database for the app under test, with known PINs."""
    url = f"sqlite:///{tmp_path / 'stsa.db'}"
    monkeypatch.setenv("STSA_DATABASE_URL", url)
    monkeypatch.setenv("STSA_ORGANIZER_PIN", ORGANIZER_PIN)
    monkeypatch.setenv("STSA_JUDGE_PIN", JUDGE_PIN)
    monkeypatch.setenv("STSA_BACKUP_DIR", str(tmp_path / "backups"))
    return url


@pytest.fixture
def engine(db_url):
    """The same database, for arranging a tournament before opening a page."""
    eng = store.connect(db_url)
    store.ensure_pins(eng)
    yield eng
    eng.dispose()


def shown(elements) -> list[str]:
    """What people read in these elements: their Markdown with STSA's escapes taken out."""
    return [re.sub(r"\\(.)", r"\1", e.value) for e in elements]


def live_data(at, name: str) -> dict:
    """The data the page's live element `name` ("standings": `stsa_live_standings`) carries,
    as the browser gets it: its words and settings, and under `answer` the feed's answer it
    starts from (`ui.live_element`)."""
    from stsa.ui import live_element

    found = [e for e in at.get("bidi_component")
             if e.proto.component_name == f"stsa_live_{name}"]
    assert len(found) == 1, [e.proto.component_name for e in at.get("bidi_component")]
    return live_element.data_of(found[0].proto.json)


def session_for(db_url: str, who: Actor) -> str:
    """A real session for `who`, opened with their role's PIN: what a sign-in leaves behind."""
    eng = store.connect(db_url)
    try:
        store.ensure_pins(eng)
        return store.sign_in(eng, who.name, PINS[who.role], client="test").session_id
    finally:
        eng.dispose()


@pytest.fixture
def open_page(db_url):
    """open_page("views/roster.py", as_=ORGANIZER) → a run AppTest on that page."""

    def _open(page: str = "views/home.py", as_: Actor | None = None,
              timeout: float = 30, query: dict | None = None) -> AppTest:
        at = AppTest.from_file(APP, default_timeout=timeout)
        for key, value in (query or {}).items():
            at.query_params[key] = value
        if as_ is not None:  # signed in as a person is: a session opened with the role's PIN
            at.session_state["session_id"] = session_for(db_url, as_)
        at.run()
        if page != "views/home.py":
            at.switch_page(page)
            at.run()
        return at

    return _open


@pytest.fixture
def downloads(monkeypatch):
    """What the page offers for download: {key: (file name, data)}; data is a function the
    browser's click calls. The real button is still drawn."""
    offered, real = {}, st.download_button

    def spy(label, data, *args, **kwargs):
        offered[kwargs.get("key")] = (kwargs.get("file_name"), data)
        return real(label, data, *args, **kwargs)
    monkeypatch.setattr(st, "download_button", spy)
    return offered


@pytest.fixture
def table_heights(monkeypatch):
    """The height each `st.dataframe` of the page asks for, in order ("auto" when none; a
    test's element does not carry it). The real table is still drawn."""
    heights, real = [], st.dataframe

    def spy(data=None, *args, **kwargs):
        heights.append(kwargs.get("height", "auto"))
        return real(data, *args, **kwargs)
    monkeypatch.setattr(st, "dataframe", spy)
    return heights


@pytest.fixture
def answers_at_once(monkeypatch):
    """The feed builds each answer again at once for a new data version (not at most once a
    second), as a page run a second after a write finds it: a test that writes, then reads
    what the page hands its live element, reads the write."""
    from stsa.web import feed

    monkeypatch.setattr(feed.ANSWERS, "rebuild_seconds", 0)


@pytest.fixture
def timers(monkeypatch):
    """The `run_every` of each fragment the page declares (a timer that reruns Python): a
    live page declares none. The real fragment is still made."""
    found, real = [], st.fragment

    def spy(func=None, *, run_every=None):
        found.append(run_every)
        return real(func, run_every=run_every)
    monkeypatch.setattr(st, "fragment", spy)
    return found


def count_calls(monkeypatch, owner, name: str) -> list:
    """Count the calls of `owner.name` (a service the pages' shared reads call): the list
    grows by one per call; the real function still runs."""
    calls, real = [], getattr(owner, name)

    def spy(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)
    monkeypatch.setattr(owner, name, spy)
    return calls


def corrected_after_the_finals(engine) -> str:
    """The demo tournament with its semifinal drawn, then a qualifier result corrected by the
    organizer (who confirms it): the corrected table's name ("Qualifier 1, table 2")."""
    from stsa import demo
    from stsa.services import finals, results
    demo.load_demo(engine, actor=ORGANIZER)
    finals.draw_semifinal(engine, seed=5, actor=ORGANIZER)
    stored = store.results(engine)
    first = stored.iloc[0]
    rows = stored.loc[stored["game_id"] == first["game_id"],
                      ["player_id", "leader", "vp", "spice", "solari", "troops", "water"]]
    results.submit_result(engine, int(first["game_id"]), rows.assign(vp=rows["vp"] + 1),
                          expected_version=int(first["version"]), submission_id=None,
                          actor=ORGANIZER, confirm_complete=True, confirm_after_finals=True)
    return f"Qualifier {first['sitting_no']}, table {first['table_no']}"


@pytest.fixture
def sitting(engine):
    """A published qualifier: 8 players at two tables of 4, no results yet."""
    import pandas as pd

    from stsa import tournament
    names = pd.DataFrame({"name": [f"Player {i}" for i in range(1, 9)]})
    ids = store.import_players(engine, names, actor=ORGANIZER)["player_id"].tolist()
    drawn = tournament.draw_qualifier(engine, ids, seed=21, actor=ORGANIZER)
    store.publish_sitting(engine, drawn["sitting_id"], actor=ORGANIZER)
    return drawn["sitting_id"]


# --- the Results page's entry: a browser component, sent to as the browser sends ----------------

ENTRY = "stsa_result_entry"


def entry(at):
    """The Results page's entry element (`ui.result_entry`), or None when the page has none.
    AppTest cannot run its JavaScript: a test reads what it was given (`entry_data`) and sends
    its Save as the browser does (`save_entry`)."""
    found = [e for e in at.get("bidi_component")
             if e.proto.component_name.split(".")[-1] == ENTRY]
    return found[-1] if found else None


def entry_data(at) -> dict:
    """What the entry was given: its seats, values, fields, ticks, words …"""
    import json

    return json.loads(entry(at).proto.json)


def entry_values(at) -> dict[int, dict]:
    """The values the entry shows, by seat: {seat: {"leader", "vp", … "tiebreak"}}."""
    data = entry_data(at)
    return {s["seat"]: data["values"][str(s["player_id"])] for s in data["seats"]}


def save_entry(at, values: dict | None = None, *, confirm: tuple[str, ...] = (),
               base: dict | None = None):
    """Press the entry's Save as the browser does: one run, with the whole entry in the
    element's trigger. `values` by seat ({seat: {"vp": 10, "leader": "Paul", …}}) change what
    the entry was given; `confirm` names the ticks ticked ("unusual", "complete",
    "after_finals"); `base` the version and seating the entry was typed on (default: the
    one it was given)."""
    import json

    from streamlit.components.v2.bidi_component.constants import EVENT_DELIM
    from streamlit.proto.WidgetStates_pb2 import WidgetState
    from streamlit.runtime.state.session_state import STREAMLIT_INTERNAL_KEY_PREFIX

    element = entry(at)
    assert element is not None, "the page shows no result entry"
    data = json.loads(element.proto.json)
    rows = []
    for seat in data["seats"]:
        row = {"player_id": seat["player_id"], **data["values"][str(seat["player_id"])]}
        row.update((values or {}).get(seat["seat"], {}))
        rows.append(row)
    payload = {"sent": data["answered"] + 1, "token": data["token"],
               "base": base or data["base"], "rows": rows,
               "confirm": {name: name in confirm for name in
                           ("unusual", "complete", "after_finals")}}
    trigger = f"{STREAMLIT_INTERNAL_KEY_PREFIX}_{element.proto.id}{EVENT_DELIM}events"
    states = at._tree.get_widget_states()
    states.widgets.append(WidgetState(id=trigger, json_trigger_value=json.dumps(
        [{"event": "save", "value": payload}])))
    return at._run(states)


def fill_entry(engine, table, values, leaders=None) -> dict:
    """Entry values by seat for `values` (one (vp, spice, solari, troops, water) per seat, in
    seat order), each seat a different leader of the table's (or `leaders`)."""
    leaders = leaders or list(table["available_leaders"])[:len(values)]
    return {seat: {"leader": leader, **dict(zip(("vp", "spice", "solari", "troops", "water"),
                                                 numbers))}
            for seat, (leader, numbers) in enumerate(zip(leaders, values), start=1)}
