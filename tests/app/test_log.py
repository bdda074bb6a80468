"""Log (organizer): the audit events newest first (R19), filtered by action, who and subject,
limited, with before/after as JSON text and an injection-safe CSV download."""

import io

import pandas as pd
import pytest

from stsa import store
from stsa.auth import Actor, Role
from stsa.ui import organizer
from tests.app.conftest import ORGANIZER

LOG = "views/log.py"


@pytest.fixture
def history(engine):
    """Ann added then renamed by the organizer, Bo added by a second organizer."""
    ann = store.add_player(engine, "Ann", actor=ORGANIZER)
    store.edit_player(engine, ann["player_id"], name="Ann Lee", actor=ORGANIZER)
    store.add_player(engine, "Bo", actor=Actor("Second Desk", Role.ORGANIZER))
    return ann["player_id"]


@pytest.fixture
def csv_spy(monkeypatch):
    """What the page offers for download."""
    offered = []
    real = organizer.csv_text
    monkeypatch.setattr(organizer, "csv_text", lambda frame: offered.append(real(frame))
                        or offered[-1])
    return offered


def table(at):
    return at.dataframe[0].value


def test_newest_first_with_json_before_and_after(open_page, history):
    at = open_page(LOG, as_=ORGANIZER)
    assert not at.exception
    log = table(at)
    assert list(log.columns) == ["event_id", "at", "actor", "role", "action", "subject",
                                 "before", "after"]
    assert log["event_id"].is_monotonic_decreasing
    assert log["action"].head(3).tolist() == ["players.add", "player.edit", "players.add"]
    edit = log.loc[log["action"] == "player.edit"].iloc[0]
    assert (edit["before"], edit["after"]) == ('{"name": "Ann"}', '{"name": "Ann Lee"}')
    assert edit["subject"] == f"player {history}"
    assert at.get("download_button")[0].proto.label == "Download as CSV"
    assert f"{len(log)} events, newest first." in [m.value for m in at.markdown]


@pytest.mark.parametrize("key, value, actions", [
    ("log_action", "player.", ["player.edit"]),
    ("log_action", "players.add", ["players.add", "players.add"]),
    ("log_by", "Second Desk", ["players.add"]),
    ("log_subject", "player  1", ["player.edit", "players.add"]),
])
def test_filters(open_page, history, key, value, actions):
    at = open_page(LOG, as_=ORGANIZER)
    at.text_input(key=key).input(value).run()
    assert table(at)["action"].tolist() == actions


def test_limit_keeps_the_latest(open_page, history):
    at = open_page(LOG, as_=ORGANIZER)
    at.number_input(key="log_limit").set_value(1).run()
    log = table(at)
    assert len(log) == 1
    assert log["actor"].iloc[0] == "Second Desk"
    assert "1 event, newest first." in [m.value for m in at.markdown]


def test_no_match_says_so(open_page, history):
    at = open_page(LOG, as_=ORGANIZER)
    at.text_input(key="log_by").input("Nobody").run()
    assert [i.value for i in at.info] == ["No events match these filters."]
    assert not at.dataframe and not at.get("download_button")


def test_fresh_tournament_shows_only_the_pin_setup(open_page, engine):
    at = open_page(LOG, as_=ORGANIZER)
    assert set(table(at)["action"]) == {"pin.set"}  # PINs are logged, never their values
    assert table(at)["after"].eq("").all()


def test_csv_download_is_the_filtered_log_and_injection_safe(open_page, engine, csv_spy):
    store.add_player(engine, "Cy", actor=Actor("=HYPERLINK(\"http://e.vil\")", Role.ORGANIZER))
    at = open_page(LOG, as_=ORGANIZER)
    at.text_input(key="log_action").input("players.").run()
    offered = pd.read_csv(io.StringIO(csv_spy[-1]), dtype=str)
    assert offered["action"].tolist() == ["players.add"]
    assert offered["actor"].iloc[0] == "'=HYPERLINK(\"http://e.vil\")"
    assert "Cy" in offered["after"].iloc[0]


def test_csv_text_quotes_formula_cells_only():
    frame = pd.DataFrame({"a": ["=1+1", "+x", "-2", "@me", "plain", None], "n": range(6)})
    lines = organizer.csv_text(frame).splitlines()
    assert lines[1:] == ["'=1+1,0", "'+x,1", "'-2,2", "'@me,3", "plain,4", ",5"]


def test_links_to_the_data_page(open_page, engine):
    at = open_page(LOG, as_=ORGANIZER)
    assert [link.proto.page for link in at.get("page_link")
            if link.proto.label.endswith("Data page")] == ["data"]
