"""A restore takes nothing entry would refuse (R19): each row of the workbook goes through the
validators roster entry, the draw, result entry and the settings use, and every refusal names
the sheet and row, with nothing written. The log it brings in is the file's record: every
event is marked as coming from that file."""

import datetime as dt
import io

import openpyxl
import pytest

from stsa import excel, store
from stsa.auth import Actor, Role
from stsa.domain import Problem
from stsa.formats import workbook_reader
from stsa.formats.workbook_reader import RestoreError
from stsa.services import log

ORGANIZER = Actor("Olivia", Role.ORGANIZER)


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    """The demo tournament's workbook (24 players, three qualifier sittings)."""
    from stsa import demo

    folder = tmp_path_factory.mktemp("restore-validation")
    eng = store.connect(f"sqlite:///{folder / 'demo.db'}", backup_dir=folder / "backups")
    try:
        store.set_settings(eng, {"auto_backup": False}, actor=ORGANIZER)
        demo.load_demo(eng, actor=ORGANIZER, sittings=3)
        return excel.tournament_workbook(eng)
    finally:
        eng.dispose()


def edited(data: bytes, sheet: str, row: int, heading: str, value) -> bytes:
    """The workbook with one cell changed: `heading`'s column of row `row` of `sheet`."""
    wb = openpyxl.load_workbook(io.BytesIO(data))
    ws = wb[sheet]
    ws.cell(row, [c.value for c in ws[1]].index(heading) + 1).value = value
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def refused(engine, data: bytes) -> list[Problem]:
    """The problems the restore names; the database keeps nothing of the file."""
    events = len(store.events(engine, actor=ORGANIZER))
    with pytest.raises(RestoreError) as info:
        excel.restore_workbook(engine, data, actor=ORGANIZER)
    assert str(info.value).startswith("Nothing was restored: ")
    assert store.players(engine).empty and store.sittings(engine, actor=ORGANIZER).empty
    assert store.results(engine, None).empty
    assert len(store.events(engine, actor=ORGANIZER)) == events
    return info.value.problems


def only(problems: list[Problem]) -> Problem:
    assert len(problems) == 1, problems
    return problems[0]


@pytest.mark.slow
def test_the_untouched_workbook_is_restored(sqlite_engine, exported):
    counts = excel.restore_workbook(sqlite_engine, exported, actor=ORGANIZER)
    assert counts["players"] == 24 and counts["sittings"] == 3


@pytest.mark.slow
def test_a_seed_that_is_not_a_number(sqlite_engine, exported):
    problem = only(refused(sqlite_engine, edited(exported, "Sittings", 2, "Seed", "not-a-seed")))
    assert problem.where == "Sittings sheet, row 2" and problem.row == 2
    assert "seed must be a whole number, not 'not-a-seed'" in problem.what


@pytest.mark.slow
def test_a_negative_seed(sqlite_engine, exported):
    problem = only(refused(sqlite_engine, edited(exported, "Sittings", 3, "Seed", "-5")))
    assert problem.where == "Sittings sheet, row 3" and "seed cannot be negative" in problem.what


@pytest.mark.slow
@pytest.mark.parametrize("value, what", [
    (1e15, "Variant points must be a whole number"),  # beyond any database integer
    (200_000, "rule change points must be a whole number (up to 100000), not 200000"),
])
def test_variant_points_beyond_entry(sqlite_engine, exported, value, what):
    problem = only(refused(sqlite_engine, edited(exported, "Results", 7, "Variant points",
                                                 value)))
    assert problem.where == "Results sheet, row 7" and what in problem.what


def test_a_tiebreak_below_one(sqlite_engine, exported):
    problem = only(refused(sqlite_engine, edited(exported, "Results", 7, "Tie-break", -7)))
    assert problem.where == "Results sheet, row 7"
    assert "settled order cannot be negative, not -7" in problem.what
    assert problem.what.startswith("Qualifier 1, table ")  # which table, as a judge names it


@pytest.mark.slow
def test_a_negative_count_and_a_leader_not_at_the_table(sqlite_engine, exported):
    data = edited(edited(exported, "Results", 4, "VP", -1), "Results", 9, "Leader", "Nobody")
    problems = refused(sqlite_engine, data)
    assert [p.where for p in problems] == ["Results sheet, row 4", "Results sheet, row 9"]
    assert "VP cannot be negative, not -1" in problems[0].what
    assert "leader 'Nobody' is not one of this table's leaders" in problems[1].what


@pytest.mark.slow
def test_a_sitting_set_back_to_drawn_that_kept_its_results(sqlite_engine, exported):
    problem = only(refused(sqlite_engine, edited(exported, "Sittings", 2, "Status", "Drawn")))
    assert problem.where == "Sittings sheet, row 2"
    assert "Qualifier 1 is drawn (not published) but has results" in problem.what


def test_a_complete_sitting_missing_a_result(sqlite_engine, exported):
    wb = openpyxl.load_workbook(io.BytesIO(exported))
    results = wb["Results"]
    game = [c.value for c in results[1]].index("Table id")
    first_game = results.cell(2, game + 1).value
    doomed = [r for r in range(2, results.max_row + 1)
              if results.cell(r, game + 1).value == first_game]
    for r in reversed(doomed):
        results.delete_rows(r)
    tables = wb["Tables"]
    head = [c.value for c in tables[1]]
    for r in range(2, tables.max_row + 1):
        if tables.cell(r, head.index("Table id") + 1).value == first_game:
            tables.cell(r, head.index("Result version") + 1).value = 0
    out = io.BytesIO()
    wb.save(out)
    problem = only(refused(sqlite_engine, out.getvalue()))
    assert problem.where == "Sittings sheet, row 2"
    assert "Qualifier 1 is complete but table 1 has no result" in problem.what


@pytest.mark.slow
def test_players_as_roster_entry_takes_them(sqlite_engine, exported):
    first = openpyxl.load_workbook(io.BytesIO(exported))["Players"].cell(2, 1).value
    data = edited(edited(exported, "Players", 3, "Name", first.upper()), "Players", 5, "Name",
                  "Bad\tBell")
    problems = refused(sqlite_engine, data)
    assert [p.where for p in problems] == ["Players sheet, row 3", "Players sheet, row 5"]
    assert problems[0].what == f"the same name as row 2 ({first.upper()})"
    assert "control character" in problems[1].what


@pytest.mark.slow
def test_a_setting_its_validator_refuses(sqlite_engine, exported):
    wb = openpyxl.load_workbook(io.BytesIO(exported))
    settings = wb["Settings"]
    settings.append([None, None, None, "Olivia", None, "base_points", "[10, 20, 0, 0]"])
    out = io.BytesIO()
    wb.save(out)
    problems = refused(sqlite_engine, out.getvalue())
    row = settings.max_row
    assert [str(p) for p in problems] == [
        f"Settings sheet, row {row}: Set at is missing"]  # the shape first
    settings.cell(row, 5).value = settings.cell(2, 5).value
    out = io.BytesIO()
    wb.save(out)
    problem = only(refused(sqlite_engine, out.getvalue()))
    assert problem.where == f"Settings sheet, row {row}"
    assert problem.what.startswith("base_points must run from highest to lowest")


def test_a_seat_for_a_player_not_on_the_roster(sqlite_engine, exported):
    problems = refused(sqlite_engine, edited(exported, "Seats", 6, "Player id", 999))
    assert str(problems[0]) == "Seats sheet, row 6: Player id 999 is not on the Players sheet"
    assert [p.where for p in problems[1:]] == ["Results sheet, row 6"]  # its result too
    assert problems[1].what.endswith("is not on the Seats sheet")


def test_a_draw_that_breaks_the_seating_rules(sqlite_engine, exported):
    wb = openpyxl.load_workbook(io.BytesIO(exported))
    seats = wb["Seats"]
    colour = [c.value for c in seats[1]].index("Colour") + 1
    seats.cell(3, colour).value = seats.cell(2, colour).value  # two players of one colour
    out = io.BytesIO()
    wb.save(out)
    problem = only(refused(sqlite_engine, out.getvalue()))
    assert problem.where == "Sittings sheet, row 2"
    assert problem.what.startswith("Qualifier 1: Table 1 needs a different colour")


# -- the workbook's log is the file's record (R19) -----------------------------------------------

def with_invented_event(data: bytes) -> bytes:
    """The workbook with a Log row someone typed in: a result "corrected" by the organizer."""
    wb = openpyxl.load_workbook(io.BytesIO(data))
    log = wb["Log"]
    headings = [c.value for c in log[1]]
    last = max(int(r[0]) for r in log.iter_rows(min_row=2, values_only=True) if r[0] is not None)
    row = {"Event": last + 1, "When (UTC)": dt.datetime(2026, 3, 7, 18, 0), "By": "Olivia",
           "Role": "Organizer", "Action": "player.withdraw", "Subject": "player 1",
           "Before": '{"status": "active"}', "After": '{"status": "withdrawn"}'}
    log.append([row.get(h) for h in headings])
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


@pytest.mark.slow
def test_every_log_event_a_restore_brings_in_is_marked_as_coming_from_the_file(
        sqlite_engine, exported, tmp_path):
    path = tmp_path / "spring-open.xlsx"
    path.write_bytes(with_invented_event(exported))
    excel.restore_workbook(sqlite_engine, path, actor=ORGANIZER)
    events = store.events(sqlite_engine, actor=ORGANIZER)
    brought, restore = events.iloc[:-1], events.iloc[-1]
    assert restore["action"] == "tournament.restore" and restore["actor"] == "Olivia"
    assert brought["actor"].map(workbook_reader.is_imported).all()
    assert brought["actor"].str.fullmatch(
        r"(Olivia|STSA) \(from the workbook spring-open\.xlsx, restored "
        r"\d{4}-\d\d-\d\d \d\d:\d\d UTC\)").all()
    invented = brought.iloc[-1]
    assert invented["action"] == "player.withdraw" and invented["actor"].startswith(
        "Olivia (from the workbook spring-open.xlsx, restored ")
    assert log.imported(events) == len(brought)
    shown = log.readable(events, log.Places())  # the Log page's words keep the mark
    assert shown.loc[shown["event_id"] == invented["event_id"], "actor"].iloc[0] == \
        invented["actor"]


@pytest.mark.slow
def test_a_second_restore_marks_the_history_with_the_latest_file(sqlite_engine, exported,
                                                                  tmp_path):
    first = store.connect(f"sqlite:///{tmp_path / 'first.db'}", backup_dir=tmp_path / "b1")
    try:
        excel.restore_workbook(first, exported, actor=ORGANIZER)
        again = excel.tournament_workbook(first)
    finally:
        first.dispose()
    path = tmp_path / "autumn.xlsx"
    path.write_bytes(again)
    excel.restore_workbook(sqlite_engine, path, actor=ORGANIZER)
    events = store.events(sqlite_engine, actor=ORGANIZER)
    brought = events.iloc[:-1]
    assert brought["actor"].str.contains(r"\(from the workbook autumn\.xlsx, restored ").all()
    assert not brought["actor"].str.contains("from a workbook").any()  # one mark, the latest
    assert (brought["action"] == "tournament.restore").sum() == 1  # the first restore's own


def test_the_mark_fits_the_log_and_names_a_file_without_a_name():
    at = dt.datetime(2026, 3, 7, 9, 41, tzinfo=dt.UTC)
    assert workbook_reader.imported_actor("Olivia", "", at) == \
        "Olivia (from a workbook, restored 2026-03-07 09:41 UTC)"
    long = workbook_reader.imported_actor("N" * 100, "x" * 80 + ".xlsx", at)
    assert len(long) == workbook_reader.ACTOR_MAX and workbook_reader.is_imported(long)
    assert not workbook_reader.is_imported("Olivia") and not workbook_reader.is_imported(None)
