"""Data (organizer): the tournament workbook and CSV downloads, restoring a tournament from its
workbook into an empty database, database backups and restoring one (R19); nobody else gets
any of it (R20)."""

import io
import re

import openpyxl
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from stsa import excel, store, tournament
from stsa.store import db
from tests.app.conftest import APP, JUDGE, ORGANIZER

PAGE = "views/data.py"
DOWNLOADS = ["data_standings_csv", "data_results_csv"]  # the workbook once made




def played(engine, n=8):
    """n players, Qualifier 1 published, table 1's result in."""
    names = pd.DataFrame({"name": [f"Player {i}" for i in range(1, n + 1)]})
    ids = store.import_players(engine, names, actor=ORGANIZER)["player_id"].tolist()
    sitting = tournament.draw_qualifier(engine, ids, seed=7, actor=ORGANIZER)
    store.publish_sitting(engine, sitting["sitting_id"], actor=ORGANIZER)
    table = store.tables(engine, sitting["sitting_id"], actor=ORGANIZER).iloc[0]
    seats = store.seats(engine, table_id=int(table["table_id"]), actor=ORGANIZER)
    rows = pd.DataFrame({"player_id": seats["player_id"], "vp": [10, 7, 5, 2], "spice": 0,
                         "solari": 0, "troops": 0, "water": 0,
                         "leader": table["available_leaders"][:4]})
    store.submit_table_result(engine, int(table["table_id"]), rows, expected_version=0,
                              submission_id=None, actor=ORGANIZER)
    return sitting


def errors(at):
    return " ".join(e.value for e in at.error).replace("\\", "")


def players(engine):
    return sorted(store.players(engine)["name"])


# --- who may open it (R20) -----------------------------------------------------------------------

@pytest.mark.parametrize("who", [None, JUDGE])
def test_not_in_the_navigation_for_others(open_page, downloads, who):
    """Its address sends others Home, saying why; nothing of the page runs."""
    at = open_page(PAGE, as_=who)
    assert any("The Data page is for the organizer only" in i.value for i in at.info)
    assert not downloads and not at.get("file_uploader")


@pytest.mark.parametrize("who", [None, JUDGE])
def test_reached_directly_it_gives_others_nothing(db_url, engine, downloads, who):
    """Even run by its address: no workbook, CSV, backup list or restore (R20)."""
    played(engine)
    store.backup(engine)
    at = AppTest.from_file(APP.replace("app.py", PAGE), default_timeout=30)
    if who is not None:
        at.session_state["actor"] = who
    at.run()
    assert not at.exception
    assert "This page is for the organizer" in at.warning[0].value
    assert downloads == {} and not at.get("download_button")
    assert not at.file_uploader and not at.button and not at.dataframe


# --- downloads -----------------------------------------------------------------------------------

def test_workbook_and_csv_downloads(open_page, engine, downloads):
    played(engine)
    store.set_settings(engine, {"tournament_name": "GothCon Qualifiers 2027"}, actor=ORGANIZER)
    at = open_page(PAGE, as_=ORGANIZER)
    assert not at.exception
    assert set(downloads) == set(DOWNLOADS)
    at.button(key="data_workbook_make").click().run()  # made with progress shown, then offered
    assert not at.exception and at.status[0].label == "The workbook is ready."
    assert at.status[0].state == "complete"
    assert set(downloads) == {"data_workbook", *DOWNLOADS}
    stamp = r"\d{4}-\d\d-\d\d-\d{4}"
    for key, what, extension in [("data_workbook", "workbook", "xlsx"),
                                 ("data_standings_csv", "standings", "csv"),
                                 ("data_results_csv", "results", "csv")]:
        assert re.fullmatch(f"gothcon-qualifiers-2027-{what}-{stamp}\\.{extension}",
                            downloads[key][0]), downloads[key][0]
    name, content = downloads["data_workbook"]
    book = openpyxl.load_workbook(io.BytesIO(content), read_only=True)
    assert book.sheetnames[:4] == ["Summary", "Standings", "Finals", "Players"]
    assert {"Sittings", "Tables", "Seats", "Results", "Waiting list", "Settings",
            "Log"} <= set(book.sheetnames)
    summary = {r[0]: r[1] for r in book["Summary"].iter_rows(values_only=True)}
    assert summary["Players"] == 8 and summary["Qualifiers drawn"] == 1
    sittings = list(book["Sittings"].iter_rows(values_only=True))
    assert sittings[0][:4] == ("Sitting", "Stage", "Number", "Status")
    assert sittings[1][:4] == ("Qualifier 1", "Qualifier", 1, "Published")
    log = list(book["Log"].iter_rows(values_only=True))
    assert "Published Qualifier 1: everyone sees its tables now." in [r[4] for r in log]
    book.close()
    standings = pd.read_csv(io.BytesIO(downloads["data_standings_csv"][1]()),
                            encoding="utf-8-sig", keep_default_na=False)
    assert list(standings.columns[:3]) == ["Rank", "Player", "Best score"]
    # everyone seated in the qualifier; the 4 without a result yet last, with no score
    assert len(standings) == 8 and (standings["Best score"] != "").sum() == 4
    assert (standings["Best score"].iloc[4:] == "").all()
    assert standings["Best score"].iloc[:4].str.fullmatch(r"\d+").all()  # never "23.0"
    assert set(standings["Tie at the cut"]) <= {"Yes", "No"}
    assert (standings["Zone"].iloc[:4] == "Final").all()  # 8 players: the top 4 to the final
    assert set(standings["Zone"]) <= {"Final", "Semifinal", "Out", ""}  # words, not codes
    assert (standings["Zone"].iloc[4:] == "").all()  # no zone before a result
    results = pd.read_csv(io.BytesIO(downloads["data_results_csv"][1]()), encoding="utf-8-sig")
    assert sorted(results["VP"]) == [2, 5, 7, 10]
    assert set(results["Tied"]) == {"No"}


# --- restore from a workbook -----------------------------------------------------------------

@pytest.fixture
def workbook(tmp_path):
    """The workbook of another installation's tournament (8 players, one sitting)."""
    other = store.connect(f"sqlite:///{tmp_path / 'other.db'}", backup_dir=tmp_path / "ob")
    try:
        played(other)
        return excel.tournament_workbook(other), store.players(other)
    finally:
        other.dispose()


def restore(at, content, name="spring-open.xlsx"):
    at.file_uploader(key="data_restore_file_0").upload(name, content).run()
    at.button(key="data_restore_go").click().run()
    assert not at.exception
    return at


def test_workbook_restores_as_a_new_tournament(open_page, engine, workbook):
    content, theirs = workbook
    before = len(store.tournaments(engine))
    at = restore(open_page(PAGE, as_=ORGANIZER), content)
    assert not at.error
    message = at.success[0].value
    assert message.startswith("Restored the tournament from spring-open.xlsx: 8 players, "
                              "1 sitting, 2 tables, 4 player results, ")
    assert "It is a new tournament" in message
    assert players(engine) == []  # the shown tournament is untouched
    listed = store.tournaments(engine)
    assert len(listed) == before + 1
    new = store.open_tournament(db.installation(engine), int(listed["tournament_id"].max()))
    ours = store.players(new)
    assert ours[["player_id", "name"]].equals(theirs[["player_id", "name"]])
    assert len(store.results(new)) == 4
    assert at.file_uploader(key="data_restore_file_1") is not None  # an empty uploader again


def test_workbook_restore_never_touches_the_shown_tournament(open_page, engine, workbook):
    store.add_player(engine, "Already Here", actor=ORGANIZER)
    before = len(store.tournaments(engine))
    at = restore(open_page(PAGE, as_=ORGANIZER), workbook[0])
    assert not at.error and "new tournament" in at.success[0].value
    assert players(engine) == ["Already Here"]
    assert len(store.tournaments(engine)) == before + 1


@pytest.mark.parametrize("name, content, message", [
    ("players.xlsx", excel.roster_template(), "This is not an STSA tournament workbook"),
    ("notes.xlsx", b"just some text, not a workbook", ""),
])
def test_a_file_that_is_not_a_workbook_is_refused(open_page, engine, name, content, message):
    before = len(store.tournaments(engine))
    at = restore(open_page(PAGE, as_=ORGANIZER), content, name)
    assert errors(at) and message in errors(at)
    assert not at.success and players(engine) == []
    assert len(store.tournaments(engine)) == before  # nothing half-made is left


def test_a_refused_restore_shows_how_far_it_got(open_page, engine):
    """The restore runs inside a status box with a progress bar; a refused file leaves the
    box marked as failed, with nothing half-made. (The steps' words in every language:
    tests/unit/test_xlsx.py.)"""
    before = len(store.tournaments(engine))
    at = open_page(PAGE, as_=ORGANIZER)
    at.file_uploader(key="data_restore_file_0").upload("players.xlsx",
                                                       excel.roster_template()).run()
    at.button(key="data_restore_go").click().run()
    assert not at.exception and errors(at)
    assert [(s.label, s.state) for s in at.status] == [("Restoring the workbook…", "error")]
    assert len(store.tournaments(engine)) == before


# --- backups -----------------------------------------------------------------------------------

def test_back_up_now_then_restore_a_backup(open_page, engine):
    store.add_player(engine, "Ann", actor=ORGANIZER)
    at = open_page(PAGE, as_=ORGANIZER)
    assert "No backups yet: click Back up now." in [i.value for i in at.info]
    at.button(key="data_backup_now").click().run()
    assert not at.exception
    made = store.backups(engine)
    assert len(made) == 1 and at.success[0].value == f"Backed up to {made['name'][0]}."
    assert at.dataframe[0].value["Backup"].tolist() == made["name"].tolist()

    store.add_player(engine, "Bo", actor=ORGANIZER)  # after the backup
    at.selectbox(key="data_backup_choice").set_value(made["name"][0]).run()
    assert at.button(key="data_backup_restore").disabled, "tick the confirmation first"
    at.checkbox(key="data_backup_sure").check().run()
    before = len(store.tournaments(engine))
    at.button(key="data_backup_restore").click().run()
    assert not at.exception and not at.error
    assert players(engine) == ["Ann", "Bo"]  # the shown tournament is untouched
    listed = store.tournaments(engine)
    assert len(listed) == before + 1
    new = store.open_tournament(db.installation(engine), int(listed["tournament_id"].max()))
    assert players(new) == ["Ann"]
    assert at.success[0].value.startswith(f"Restored {made['name'][0]} (")
    assert "as a new tournament" in at.success[0].value
    shown = at.dataframe[0].value["Backup"].tolist()  # the new tournament's backups only
    assert shown == store.backups(new)["name"].tolist() and made["name"][0] not in shown
    assert not at.checkbox(key="data_backup_sure").value  # ticked again for the next one
    assert store.events(new, action="backup.restore", actor=ORGANIZER)["actor"].tolist() \
        == [ORGANIZER.name]


def test_restore_button_waits_for_a_backup_and_the_tick(open_page, engine):
    store.backup(engine)
    at = open_page(PAGE, as_=ORGANIZER)
    assert at.button(key="data_backup_restore").disabled
    at.checkbox(key="data_backup_sure").check().run()
    assert at.button(key="data_backup_restore").disabled  # no backup chosen yet


def test_a_restore_into_a_fresh_install_opens_the_restored_tournament(open_page, engine,
                                                                       workbook):
    """Issue 33: the restored tournament is shown, not the fresh install's empty first one,
    and it keeps the key its workbook records (the empty one gives it up)."""
    at = restore(open_page(PAGE, as_=ORGANIZER), workbook[0])
    assert not at.error
    listed = store.tournaments(engine)
    restored = int(listed["tournament_id"].max())
    assert at.session_state["_tournament"] == restored
    assert listed.loc[listed["tournament_id"] == restored, "key"].tolist() == [
        "dune-imperium-tournament"]
    assert "Its links are the ones it had" in at.success[0].value
    at.switch_page("views/home.py").run()
    assert not at.exception
    assert at.session_state["_tournament"] == restored
    assert at.query_params.get("t") in (["dune-imperium-tournament"], "dune-imperium-tournament")
