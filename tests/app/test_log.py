"""Log (organizer): the audit events newest first (R19), each in words with names and labels
(never ids or JSON), filtered by kind, who and words, limited, and an injection-safe CSV
download that keeps the raw values; late corrections and history a restore brought in are
flagged as such (R19, R20)."""

import io
import re

import pandas as pd
import pytest

from stsa import excel, store, tournament
from stsa.auth import Actor, Role
from stsa.services import log as log_service
from stsa.ui import organizer
from tests.app.conftest import JUDGE, ORGANIZER, corrected_after_the_finals

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


def test_newest_first_in_words(open_page, history):
    at = open_page(LOG, as_=ORGANIZER)
    assert not at.exception
    log = table(at)
    assert list(log.columns) == ["event_id", "at", "actor", "role", "what", "details"]
    assert log["event_id"].is_monotonic_decreasing
    assert log["what"].head(3).tolist() == ["Players added", "Player edited", "Players added"]
    assert log["details"].head(3).tolist() == [
        "Added Bo to the roster.",
        "Edited Ann Lee: name Ann → Ann Lee; nickname Ann → Ann Lee.",  # it followed (R22)
        "Added Ann to the roster."]
    assert not log["details"].str.contains(r"[{}\[\]]|\"player_id\"").any()
    assert at.get("download_button")[0].proto.label == "Download as CSV"
    assert f"{len(log)} events, newest first." in [m.value for m in at.markdown]


def test_a_corrected_result_names_the_table_and_what_changed(open_page, engine):
    players = store.import_players(engine, [{"name": n} for n in (
        "Wellington Yueh", "Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus")], actor=ORGANIZER)
    ids = players["player_id"].tolist()
    sitting = tournament.draw_qualifier(engine, ids, seed=5, actor=ORGANIZER)
    store.publish_sitting(engine, sitting["sitting_id"], actor=ORGANIZER)
    tables = store.tables(engine, sitting["sitting_id"], actor=ORGANIZER)
    table_row = tables.iloc[-1]
    seats = store.seats(engine, sitting["sitting_id"], actor=ORGANIZER)
    seated = seats.loc[seats["table_id"] == table_row["table_id"]].sort_values("seat")
    rows = pd.DataFrame({"player_id": seated["player_id"].tolist(),
                         "leader": table_row["available_leaders"][:4],
                         "vp": [7, 9, 5, 3], "spice": 0, "solari": 0, "troops": 0, "water": 0})
    store.submit_table_result(engine, int(table_row["table_id"]), rows, expected_version=0,
                              submission_id="a", actor=ORGANIZER)
    names = dict(zip(players["player_id"], players["name"]))
    who = names[seated["player_id"].iloc[0]]
    store.submit_table_result(engine, int(table_row["table_id"]), rows.assign(
        vp=[8, 9, 5, 3]), expected_version=1, submission_id="b", actor=ORGANIZER)
    at = open_page(LOG, as_=ORGANIZER)
    details = table(at)["details"].tolist()
    where = f"Qualifier 1, table {table_row['table_no']}"
    assert details[0] == f"Corrected the result of {where} (version 2): VP 7 → 8 for {who}."
    assert details[1].startswith(f"Entered the result of {where}: {who} 7 VP; ")
    assert "Published Qualifier 1: everyone sees its tables now." in details
    assert f"table {table_row['table_id']}" not in " ".join(details[:2]).replace(where, "")


@pytest.mark.parametrize("key, value, whats", [
    ("log_by", "Second Desk", ["Players added"]),
    ("log_find", "ann LEE", ["Player edited"]),
])
def test_text_filters(open_page, history, key, value, whats):
    at = open_page(LOG, as_=ORGANIZER)
    at.text_input(key=key).input(value).run()
    assert table(at)["what"].tolist() == whats


def test_filter_by_kind_of_change(open_page, history):
    at = open_page(LOG, as_=ORGANIZER)
    at.selectbox(key="log_action").select("Players added").run()
    assert table(at)["details"].tolist() == ["Added Bo to the roster.",
                                             "Added Ann to the roster."]


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
    assert set(table(at)["what"]) == {"PIN set"}  # PINs are logged, never their values
    assert set(table(at)["details"]) == {
        "Set the organizer PIN (everyone signed in with the old one is signed out).",
        "Set the judge PIN (everyone signed in with the old one is signed out)."}


def test_csv_download_keeps_the_raw_values_and_is_injection_safe(open_page, engine, csv_spy,
                                                                 downloads):
    store.add_player(engine, "Cy", actor=Actor("=HYPERLINK(\"http://e.vil\")", Role.ORGANIZER))
    store.set_settings(engine, {"tournament_name": "Spice/Must \"Flow\""}, actor=ORGANIZER)
    at = open_page(LOG, as_=ORGANIZER)
    assert re.fullmatch(r"spice-must-flow-log-\d{4}-\d\d-\d\d-\d{4}\.csv",
                        downloads["log_csv"][0])
    at.selectbox(key="log_action").select("Players added").run()
    offered = pd.read_csv(io.StringIO(csv_spy[-1]), dtype=str)
    assert list(offered.columns) == ["event_id", "at", "actor", "role", "action", "subject",
                                     "before", "after", "details"]
    assert offered["action"].tolist() == ["players.add"]
    assert offered["actor"].iloc[0] == "'=HYPERLINK(\"http://e.vil\")"
    assert '"name": "Cy"' in offered["after"].iloc[0]
    assert offered["details"].iloc[0] == "Added Cy to the roster."


def test_csv_text_quotes_formula_cells_only():
    frame = pd.DataFrame({"a": ["=1+1", "+x", "-2", "@me", "plain", None], "n": range(6)})
    lines = organizer.csv_text(frame).splitlines()
    assert lines[1:] == ["'=1+1,0", "'+x,1", "'-2,2", "'@me,3", "plain,4", ",5"]


def test_links_to_the_data_page(open_page, engine):
    at = open_page(LOG, as_=ORGANIZER)
    assert [link.proto.page for link in at.get("page_link")
            if link.proto.label.endswith("Data page")] == ["data"]


def test_a_qualifier_corrected_after_the_finals_are_drawn_is_flagged(open_page, engine):
    where = corrected_after_the_finals(engine)
    at = open_page(LOG, as_=ORGANIZER)
    assert any(w.value.startswith(f"A qualifier result was corrected after the finals were "
                                  f"drawn: {where}, by ") for w in at.warning)
    assert table(at)["details"].iloc[0].startswith(
        f"A qualifier result was corrected after the finals were drawn: Corrected the result "
        f"of {where} (version ")


def test_history_a_restore_brought_in_shows_as_imported(open_page, engine, tmp_path):
    other = store.connect(f"sqlite:///{tmp_path / 'other.db'}", backup_dir=tmp_path / "b")
    try:
        store.add_player(other, "Ann", actor=ORGANIZER)
        path = tmp_path / "spring.xlsx"
        path.write_bytes(excel.tournament_workbook(other))
    finally:
        other.dispose()
    excel.restore_workbook(engine, path, actor=ORGANIZER)
    at = open_page(LOG, as_=ORGANIZER)
    log = table(at)
    assert log["what"].iloc[0] == "Tournament restored" and log["actor"].iloc[0] == ORGANIZER.name
    added = log.loc[log["what"] == "Players added"].iloc[0]
    assert added["actor"].startswith(f"{ORGANIZER.name} (from the workbook spring.xlsx, "
                                     f"restored ")
    assert added["details"] == "Added Ann to the roster."
    assert any("came in with a restore" in c.value for c in at.caption)


def test_judges_cannot_read_the_log_below_the_page(engine):
    with pytest.raises(store.PermissionDenied):
        log_service.events(engine, actor=JUDGE)
