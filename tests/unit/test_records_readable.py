"""The records an organizer downloads read as the tournament speaks (R19, R22): the standings
and results CSVs with plain headings and words for values, and a workbook whose "Name" is
always the real name and "Nickname" always the public one, with extra details in words."""

from __future__ import annotations

import csv
import datetime as dt
import io
import re

import openpyxl
import pandas as pd
import pytest
import sqlalchemy as sa

from stsa import excel, store, tournament
from stsa.auth import Actor, Role
from stsa.formats import workbook_reader, workbook_writer
from stsa.formats.csv import csv_bytes
from stsa.store import schema

ORGANIZER = Actor("Olivia", Role.ORGANIZER)
SNAKE = re.compile(r"^[a-z]+(_[a-z]+)+$")
CODES = {"final", "semifinal", "out", "TRUE", "FALSE", "True", "False"}
PEOPLE_SHEETS = {"Standings", "Finals", "Players", "Seats", "Results", "Votes", "Wild cards",
                 "Sit-outs", "Waiting list", "Absences", "Bookings"}


def nick(player_id: int) -> str:
    return f"Nick {player_id:02d}"


@pytest.fixture
def convention(demo_copy):
    """The demo tournament (three qualifiers played) where every player's nickname differs
    from the real name, with extra details, an absence for the finals, a fourth qualifier
    drawn with a player sitting out, and a waiting list."""
    engine = demo_copy()
    for player_id in store.players(engine)["player_id"]:
        store.edit_player(engine, int(player_id), nickname=nick(int(player_id)),
                          actor=ORGANIZER)
    store.edit_player(engine, 1, extra={"city": "Umeå", "roster_id": "12", "paid": True},
                      actor=ORGANIZER)
    store.mark_absent(engine, 3, actor=ORGANIZER)
    tournament.draw_qualifier(engine, [4, 5, 6, 7, 8], seed=3, sit_out=True, actor=ORGANIZER)
    sitting = int(store.sittings(engine, actor=ORGANIZER)["sitting_id"].iloc[-1])
    with engine.begin() as conn:
        conn.execute(sa.insert(schema.waiting), [
            {"sitting_id": sitting, "player_id": 9, "position": 1}])
    return engine


def csv_rows(data: bytes) -> list[dict]:
    assert data.startswith(b"\xef\xbb\xbf")  # Excel reads the accents right
    return list(csv.DictReader(io.StringIO(data.decode("utf-8-sig"))))


def sheet_rows(wb, title: str) -> list[dict]:
    ws = wb[title]
    heads = [c.value for c in ws[1]]
    return [dict(zip(heads, r)) for r in ws.iter_rows(min_row=2, values_only=True)
            if any(v is not None for v in r)]


# --- the standings CSV ------------------------------------------------------------------------

@pytest.mark.slow
def test_the_standings_csv_reads_as_the_standings_page(convention):
    rows = csv_rows(excel.standings_csv(convention))
    assert list(rows[0]) == [
        "Rank", "Player", "Best score", "Games", "Wins", "Best game placing", "Best game VP",
        "Best game spice", "Best game solari", "Best game troops", "Best game water", "Zone",
        "Tie at the cut", "Player id"]
    assert len(rows) == 24 and rows[0]["Rank"] == "1"
    assert {r["Player"] for r in rows} == {nick(i) for i in range(1, 25)}  # nicknames only
    assert {r["Zone"] for r in rows} == {"Final", "Semifinal", "Out"}
    assert {r["Tie at the cut"] for r in rows} <= {"Yes", "No"}
    assert all(re.fullmatch(r"\d+", r["Best score"]) for r in rows)  # never "26.0"
    assert not any(v in CODES for r in rows for v in r.values())
    real = set(store.players(convention, actor=ORGANIZER)["name"])
    assert not any(name in v for r in rows for v in r.values() for name in real)


def test_standings_words_for_zones_ties_and_players_without_a_result():
    standings = pd.DataFrame({
        "rank": [1, 2, 2, 4], "player_id": [7, 8, 9, 10], "name": ["Ann", "Bo", "Cy", "Di"],
        "best_score": [30.0, 25.0, 25.0, float("nan")], "games": [2, 2, 2, 0],
        "wins": [1, 1, 0, 0], "placing": [1.0, 1.0, 2.0, float("nan")],
        **{c: [9.0, 8.0, 8.0, float("nan")] for c in ("vp", "spice", "solari", "troops",
                                                      "water")},
        "zone": ["final", "semifinal", "out", ""], "tie_at_cut": [False, True, True, False]})
    headings, rows = workbook_writer.frame_sheet(workbook_writer.standings_sheet(standings))
    text = csv_bytes(headings, rows).decode("utf-8-sig").splitlines()
    assert text[0].startswith("Rank,Player,Best score,Games,Wins,Best game placing,")
    assert text[1:] == ["1,Ann,30,2,1,1,9,9,9,9,9,Final,No,7",
                        "2,Bo,25,2,1,1,8,8,8,8,8,Semifinal,Yes,8",
                        "2,Cy,25,2,0,2,8,8,8,8,8,Out,Yes,9",
                        "4,Di,,0,0,,,,,,,,No,10"]
    organizers = workbook_writer.standings_sheet(standings, {7: "Ann Lee", 8: "Bo Ek"})
    assert list(organizers.columns[:3]) == ["Rank", "Nickname", "Name"]
    assert organizers["Name"].tolist()[:2] == ["Ann Lee", "Bo Ek"]


def test_the_results_csv_has_names_nicknames_words_and_times_to_the_second(convention):
    rows = csv_rows(excel.results_csv(convention))
    assert {"Name", "Nickname", "Tied", "Saved at (UTC)"} <= set(rows[0])
    assert not any(SNAKE.match(h) for h in rows[0]) and "Submission id" not in rows[0]
    players = store.players(convention, actor=ORGANIZER).set_index("player_id")
    assert all((r["Name"], r["Nickname"]) == (players.at[int(r["Player id"]), "name"],
                                              nick(int(r["Player id"]))) for r in rows)
    assert {r["Tied"] for r in rows} <= {"Yes", "No"}
    assert all(re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", r["Saved at (UTC)"])
               for r in rows)


def test_every_csv_writes_yes_no_and_times_in_words():
    data = csv_bytes(["Checked in", "When"], [[True, dt.datetime(2027, 3, 6, 14, 5, 9, 123000)],
                                              [False, None]])
    assert data.decode("utf-8-sig").splitlines() == ["Checked in,When",
                                                     "Yes,2027-03-06 14:05:09", "No,"]


# --- the workbook -----------------------------------------------------------------------------

@pytest.mark.slow
def test_name_and_nickname_mean_the_same_on_every_sheet(convention):
    wb = openpyxl.load_workbook(io.BytesIO(excel.tournament_workbook(convention)))
    players = store.players(convention, actor=ORGANIZER).set_index("player_id")
    named = set()
    for ws in wb.worksheets:
        heads = [c.value for c in ws[1]]
        assert "Player" not in heads, ws.title  # the workbook names both, never "Player"
        if "Name" not in heads and "Nickname" not in heads:
            continue
        assert {"Name", "Nickname", "Player id"} <= set(heads), ws.title
        named.add(ws.title)
        for row in sheet_rows(wb, ws.title):
            key = row["Player id"]
            assert (row["Name"], row["Nickname"]) == (players.at[key, "name"], nick(key)), \
                (ws.title, row)
    assert named == PEOPLE_SHEETS
    filled = {t for t in PEOPLE_SHEETS if sheet_rows(wb, t)}
    # no Vote Off, Wild Card nor booking list here
    assert filled == PEOPLE_SHEETS - {"Votes", "Wild cards", "Bookings"}


@pytest.mark.slow
def test_the_workbook_writes_words_not_codes(convention):
    wb = openpyxl.load_workbook(io.BytesIO(excel.tournament_workbook(convention)))
    standings = sheet_rows(wb, "Standings")
    assert {r["Zone"] for r in standings} == {"Final", "Semifinal", "Out"}
    assert {r["Tie at the cut"] for r in standings} <= {"Yes", "No"}
    assert {r["Wildcard"] for r in sheet_rows(wb, "Finals")} <= {"Yes", "No"}
    assert {r["Checked in"] for r in sheet_rows(wb, "Players")} == {"No"}
    assert {r["Setup changed"] for r in sheet_rows(wb, "Tables")} == {"No"}
    assert {r["Default"] for r in sheet_rows(wb, "Settings")} == {"Yes", "No"}
    for ws in wb.worksheets:
        for row in ws.iter_rows(min_row=1, values_only=True):
            assert not any(isinstance(v, bool) for v in row), ws.title
    heads = [c.value for ws in wb.worksheets for c in ws[1]]
    assert not [h for h in heads if h and SNAKE.match(h)]


@pytest.mark.slow
def test_extra_details_are_words_and_restore_as_they_were(convention, tmp_path):
    data = excel.tournament_workbook(convention)
    wb = openpyxl.load_workbook(io.BytesIO(data))
    first = sheet_rows(wb, "Players")[0]
    assert first["Extra details"] == "City: Umeå; Player id in the roster file: 12; Paid: Yes"
    assert sheet_rows(wb, "Players")[1]["Extra details"] is None  # none: blank
    assert list(first)[-1] == "Stored extra details"  # what a restore reads, last
    target = store.connect(f"sqlite:///{tmp_path / 'back.db'}", backup_dir=tmp_path / "b")
    try:
        excel.restore_workbook(target, io.BytesIO(data), actor=ORGANIZER)
        restored = store.player(target, 1, actor=ORGANIZER)
        assert restored["extra"] == {"city": "Umeå", "roster_id": "12", "paid": True}
    finally:
        target.dispose()


def test_the_roster_files_details_read_in_words(sqlite_engine):
    wb = openpyxl.Workbook()
    wb.active.append(["Name", "Nickname", "City", "Player ID", "Registered"])
    wb.active.append(["Åsa Öberg", "Sandwalker", "Göteborg", "A-17",
                      dt.datetime(2027, 2, 1, 18, 30)])
    out = io.BytesIO()
    wb.save(out)
    excel.import_roster(sqlite_engine, out.getvalue(), actor=ORGANIZER)
    book = openpyxl.load_workbook(io.BytesIO(excel.tournament_workbook(sqlite_engine)))
    assert sheet_rows(book, "Players")[0]["Extra details"] == (
        "City: Göteborg; Player id in the roster file: A-17; Registered: 2027-02-01 18:30:00")


def test_extra_details_in_words():
    words = workbook_writer.extra_words
    assert words('{"shirt_size": "L", "city": "Umeå", "table": 4.0, "vegan": false}') == (
        "City: Umeå; Shirt size: L; Table: 4; Vegan: No")
    assert words("{}") is None and words(None) is None and words("") is None
    assert words({"registered": "2027-02-01 18:30:00"}) == "Registered: 2027-02-01 18:30:00"
    assert words("not JSON") == "not JSON"  # a hand-edited cell, shown as it is


@pytest.mark.slow
def test_hostile_extra_details_stay_text(convention):
    store.edit_player(convention, 2, extra={"=cmd|' /C calc'!A0": "@SUM(A1)"}, actor=ORGANIZER)
    wb = openpyxl.load_workbook(io.BytesIO(excel.tournament_workbook(convention)))
    players = wb["Players"]
    column = [c.value for c in players[1]].index("Extra details") + 1
    cell = players.cell(3, column)
    assert cell.value == "=cmd|' /C calc'!A0: @SUM(A1)"
    assert cell.data_type == "s" and cell.quotePrefix


@pytest.mark.slow
def test_a_yes_or_no_cell_is_read_back_in_any_spelling():
    for written, meant in [("Yes", True), ("no", False), (" TRUE ", True), ("false", False),
                           (1, True), (0, False), (True, True)]:
        assert workbook_reader._value("bool", written) is meant, written
    with pytest.raises(ValueError, match="Yes or No"):
        workbook_reader._value("bool", "maybe")
