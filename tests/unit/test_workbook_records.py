"""The tournament workbook as a record people keep (R19): it restores the tournament after a
spreadsheet application opened and saved it, workbooks of earlier releases still restore, and
the schema-3 columns (nicknames, registration order, check-in times, rule changes, the waiting
list) go through the workbook, the whole-tournament transfer and the backups."""

from __future__ import annotations

import datetime as dt
import io
import os
import shutil
import subprocess

import openpyxl
import pandas as pd
import pytest
import sqlalchemy as sa

from stsa import excel, store, tournament
from stsa.auth import Actor, Role
from stsa.formats import workbook_sheets
from stsa.store import schema

ORGANIZER = Actor("Olivia", Role.ORGANIZER)
CHECKED_IN = dt.datetime(2026, 3, 7, 9, 41, 12, 345000, tzinfo=dt.UTC)


@pytest.fixture
def event_day(demo_copy):
    """The demo tournament with a nickname, pre-registration, check-in times, a sitting's
    rule change and a waiting list."""
    engine = demo_copy()
    with engine.begin() as conn:
        players = schema.players
        conn.execute(sa.update(players).where(players.c.id == 1).values(
            nickname="The Duke", nickname_key="the duke", registration_order=1,
            checked_in=True, checked_in_at=CHECKED_IN))
        conn.execute(sa.update(players).where(players.c.id == 2).values(
            registration_order=2, checked_in=True,
            checked_in_at=CHECKED_IN + dt.timedelta(minutes=3)))
        conn.execute(sa.update(schema.sittings).where(schema.sittings.c.id == 2).values(
            rule_change="Spice must flow", rule_change_points="+1 point per 3 spice"))
        conn.execute(sa.insert(schema.waiting), [
            {"sitting_id": 3, "player_id": 7, "position": 1},
            {"sitting_id": 3, "player_id": 4, "position": 2}])
    return engine


def sheets(data: bytes) -> dict[str, list[list]]:
    """Every sheet's values, but the Summary's export time and the Log (a restore adds its own
    event to the log)."""
    wb = openpyxl.load_workbook(io.BytesIO(data), read_only=True)
    try:
        out = {ws.title: [list(r) for r in ws.iter_rows(values_only=True)] for ws in wb
               if ws.title != "Log"}
    finally:
        wb.close()
    out["Summary"] = [r for r in out["Summary"] if r[0] != "Exported"]
    return out


def sheet_rows(wb, title: str) -> list[dict]:
    """A sheet's rows as {heading: value}, as an organizer reads them under the headings."""
    ws = wb[title]
    return [dict(zip([c.value for c in ws[1]], r)) for r in ws.iter_rows(min_row=2,
                                                                         values_only=True)]


def to_ms(rows: list[dict]) -> list[dict]:
    """Rows with their times to the millisecond, as a workbook keeps them."""
    return [{k: v.replace(microsecond=v.microsecond // 1000 * 1000)
             if isinstance(v, dt.datetime) else v for k, v in r.items()} for r in rows]


def restored(tmp_path, data: bytes, name: str = "restored"):
    """A new database holding the tournament restored from `data`."""
    target = store.connect(f"sqlite:///{tmp_path / f'{name}.db'}", backup_dir=tmp_path / name)
    excel.restore_workbook(target, io.BytesIO(data), actor=ORGANIZER)
    return target


def assert_restores_as(tmp_path, original: bytes, saved: bytes) -> None:
    target = restored(tmp_path, saved)
    try:
        assert sheets(excel.tournament_workbook(target)) == sheets(original)
    finally:
        target.dispose()


def edit(data: bytes, change) -> bytes:
    """The workbook opened, changed by `change(workbook)` and saved, as a person would."""
    wb = openpyxl.load_workbook(io.BytesIO(data))
    change(wb)
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def test_the_schema_3_columns_are_in_the_workbook(event_day):
    wb = openpyxl.load_workbook(io.BytesIO(excel.tournament_workbook(event_day)))
    players = [dict(zip([c.value for c in wb["Players"][1]], r))
               for r in wb["Players"].iter_rows(min_row=2, values_only=True)]
    assert players[0]["Nickname"] == "The Duke" and players[0]["Registration order"] == 1
    assert players[0]["Checked in at"] == CHECKED_IN.replace(tzinfo=None)
    assert players[2]["Nickname"] == players[2]["Name"]
    assert players[2]["Registration order"] is None  # a drop-in
    sitting = [dict(zip([c.value for c in wb["Sittings"][1]], r))
               for r in wb["Sittings"].iter_rows(min_row=2, values_only=True)][1]
    assert (sitting["Rule change"], sitting["Rule change points"]) == (
        "Spice must flow", "+1 point per 3 spice")
    waiting = list(wb["Waiting list"].iter_rows(min_row=2, values_only=True))
    names = {p["Player id"]: p["Name"] for p in players}
    assert [(r[0], r[1], r[2]) for r in waiting] == [("Qualifier 3", 1, names[7]),
                                                     ("Qualifier 3", 2, names[4])]


@pytest.mark.slow
def test_the_restore_equals_the_original(event_day, tmp_path):
    original = excel.tournament_workbook(event_day)
    target = restored(tmp_path, original)
    try:
        assert sheets(excel.tournament_workbook(target)) == sheets(original)
        before, after = store.dump_tournament(event_day), store.dump_tournament(target)
        for table in ("players", "sittings", "waiting", "settings"):
            assert to_ms(after[table]) == to_ms(before[table]), table
    finally:
        target.dispose()


@pytest.mark.slow
def test_saved_again_by_a_spreadsheet_library(event_day, tmp_path):
    original = excel.tournament_workbook(event_day)
    assert_restores_as(tmp_path, original, edit(original, lambda wb: None))


def spreadsheet_writes(wb) -> None:
    """Cells as a spreadsheet application may write them back: whole numbers as 3.0 or as
    text, dates as day numbers in a General cell, TRUE/FALSE as 1/0, ids as text."""
    for ws in wb:
        for row in ws.iter_rows(min_row=2):
            for cell in row:
                value = cell.value
                if isinstance(value, bool):
                    cell.value = int(value)
                elif isinstance(value, int):
                    cell.value = float(value) if cell.column % 2 else str(value)
                elif isinstance(value, dt.datetime):
                    cell.value = openpyxl.utils.datetime.to_excel(value)
                    cell.number_format = "General"


@pytest.mark.slow
def test_saved_with_numbers_and_dates_as_a_spreadsheet_writes_them(event_day, tmp_path):
    original = excel.tournament_workbook(event_day)
    saved = edit(original, spreadsheet_writes)
    wb = openpyxl.load_workbook(io.BytesIO(saved))
    assert isinstance(wb["Players"]["L2"].value, float)  # Added at: a day number now
    assert_restores_as(tmp_path, original, saved)


def soffice() -> str:
    found = shutil.which("soffice") or shutil.which("libreoffice")
    if not found:
        if os.environ.get("CI"):
            pytest.fail("LibreOffice (soffice) is missing; scripts/test-deps.sh installs it",
                        pytrace=False)
        pytest.skip("LibreOffice (soffice) is not installed")
    return found


@pytest.mark.slow
def test_saved_by_libreoffice(event_day, tmp_path):
    """Opened and saved again as .xlsx by LibreOffice Calc (headless)."""
    original = excel.tournament_workbook(event_day)
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "tournament.xlsx").write_bytes(original)
    subprocess.run([soffice(), "--headless", "--norestore",
                    f"-env:UserInstallation=file://{tmp_path / 'profile'}",
                    "--convert-to", "xlsx:Calc MS Excel 2007 XML", "--outdir",
                    str(tmp_path / "out"), str(tmp_path / "in" / "tournament.xlsx")],
                   check=True, timeout=300, capture_output=True,
                   env={**os.environ, "HOME": str(tmp_path)})
    saved = (tmp_path / "out" / "tournament.xlsx").read_bytes()
    assert saved != original
    assert_restores_as(tmp_path, original, saved)


def legacy(wb) -> None:
    """The workbook as releases before the readable one wrote it: snake_case headings, codes
    in lower case, no Summary, no waiting list, no schema-3 columns."""
    for title in ("Summary", "Waiting list"):
        wb.remove(wb[title])
    for title, (table, columns) in workbook_sheets.SHEETS.items():
        if table is None or title not in wb.sheetnames:
            continue
        ws = wb[title]
        for (heading, col, kind), cell in zip(columns, ws[1]):
            assert cell.value == heading
            cell.value = workbook_sheets.LEGACY_HEADINGS.get((table, col), col or heading.lower())
            if kind.startswith("word:"):
                for (below,) in ws.iter_rows(min_row=2, min_col=cell.column,
                                             max_col=cell.column):
                    below.value = below.value and below.value.lower()
        for col in sorted((c.column for c in ws[1] if (table, c.value) in
                           workbook_sheets.NEW_COLUMNS), reverse=True):
            ws.delete_cols(col)


@pytest.mark.slow
def test_a_workbook_of_an_earlier_release_still_restores(demo_copy, tmp_path):
    engine = demo_copy()
    store.withdraw_player(engine, 5, actor=ORGANIZER)
    old = edit(excel.tournament_workbook(engine), legacy)
    assert "Nickname" not in [c.value for c in openpyxl.load_workbook(
        io.BytesIO(old))["Players"][1]]
    target = restored(tmp_path, old)
    try:
        players = store.dump_tournament(target)["players"]
        assert [p["nickname"] for p in players] == [p["name"] for p in players]
        with target.connect() as conn:
            keys = conn.execute(sa.select(schema.players.c.name_key,
                                          schema.players.c.nickname_key)).all()
        assert all(name == nick for name, nick in keys) and len(keys) == 24
        assert players[4]["status"] == "withdrawn"
        # An earlier release wrote no Summary, so no address key travels with the file: the
        # restored tournament takes its key from its name (as a new one would).
        restored_sheets, original_sheets = (sheets(excel.tournament_workbook(e))
                                             for e in (target, engine))
        assert ["Address key", "demo-swordmasters-open"] in restored_sheets["Summary"]
        for summary in (restored_sheets["Summary"], original_sheets["Summary"]):
            summary[:] = [row for row in summary if row[0] != "Address key"]
        assert restored_sheets == original_sheets
    finally:
        target.dispose()


def earlier_readable(wb) -> None:
    """The workbook as the first readable releases wrote it: the extra details as JSON under
    "Extra details", yes and no as TRUE and FALSE, "Name" for the nickname on the Standings
    and Finals, and no nicknames beside the names elsewhere."""
    players = wb["Players"]
    heads = [c.value for c in players[1]]
    players.delete_cols(heads.index("Extra details") + 1)
    heads = [c.value for c in players[1]]
    players.cell(1, heads.index("Stored extra details") + 1).value = "Extra details"
    for ws in wb:
        heads = [c.value for c in ws[1]]
        if ws.title in ("Standings", "Finals"):
            ws.delete_cols(heads.index("Name") + 1)
            ws.cell(1, heads.index("Nickname") + 1).value = "Name"
        elif "Nickname" in heads and ws.title != "Players":
            ws.delete_cols(heads.index("Nickname") + 1)
        for row in ws.iter_rows(min_row=2):
            for cell in row:
                if cell.value in ("Yes", "No"):
                    cell.value = cell.value == "Yes"


@pytest.mark.slow
def test_a_workbook_of_the_first_readable_release_still_restores(event_day, tmp_path):
    store.edit_player(event_day, 3, extra={"city": "Umeå", "roster_id": "12"}, actor=ORGANIZER)
    original = excel.tournament_workbook(event_day)
    earlier = edit(original, earlier_readable)
    players = openpyxl.load_workbook(io.BytesIO(earlier))["Players"]
    assert "Stored extra details" not in [c.value for c in players[1]]
    assert players.cell(4, [c.value for c in players[1]].index("Extra details") + 1).value \
        == '{"city": "Umeå", "roster_id": "12"}'
    target = restored(tmp_path, earlier)
    try:
        assert sheets(excel.tournament_workbook(target)) == sheets(original)
        assert to_ms(store.dump_tournament(target)["players"]) == to_ms(
            store.dump_tournament(event_day)["players"])
    finally:
        target.dispose()


def set_player_cell(row: int, heading: str, value):
    def change(wb):
        players = wb["Players"]
        players.cell(row, [c.value for c in players[1]].index(heading) + 1).value = value
    return change


@pytest.mark.slow
@pytest.mark.parametrize("change, message", [
    (set_player_cell(5, "Checked in at", "half past nine"),
     "Players sheet, row 5: Checked in at must be a date and time, not 'half past nine'"),
    (set_player_cell(5, "Registration order", "first"),
     "Players sheet, row 5: Registration order must be a whole number, not 'first'"),
    (set_player_cell(4, "Nickname", "the DUKE"),
     "Players sheet, row 4: the same nickname as row 2 (the DUKE)"),
])
def test_restore_still_names_bad_rows_by_sheet_and_row(event_day, tmp_path, change, message):
    target = store.connect(f"sqlite:///{tmp_path / 'empty.db'}", backup_dir=tmp_path / "e")
    try:
        with pytest.raises(excel.RestoreError) as refused:
            excel.restore_workbook(target, edit(excel.tournament_workbook(event_day), change),
                                   actor=ORGANIZER)
        assert message in str(refused.value)
        assert store.players(target).empty
    finally:
        target.dispose()


def by_transfer(source, target, tmp_path):
    store.load_tournament(target, store.dump_tournament(source), actor=ORGANIZER)


def by_backup(source, target, tmp_path):
    store.restore(target, store.backup(source, tmp_path / "backups"), actor=ORGANIZER)


@pytest.mark.parametrize("carry", [by_transfer, by_backup])
def test_transfer_and_backups_carry_the_schema_3_columns(event_day, tmp_path, carry):
    target = store.connect(f"sqlite:///{tmp_path / 'other.db'}", backup_dir=tmp_path / "o")
    try:
        carry(event_day, target, tmp_path)
        before, after = store.dump_tournament(event_day), store.dump_tournament(target)
        for table in ("players", "sittings", "waiting"):
            assert after[table] == before[table], table
        assert len(after["waiting"]) == 2
    finally:
        target.dispose()


def enter(engine, sitting_id: int, vps: list[list[int]]) -> None:
    """Every table of a published sitting: `vps[t]` by seat for table t + 1."""
    seats = store.seats(engine, sitting_id, actor=ORGANIZER)
    for table, vp in zip(store.tables(engine, sitting_id, actor=ORGANIZER).itertuples(), vps):
        at = seats.loc[seats["table_id"] == table.table_id].sort_values("seat")
        store.submit_table_result(engine, table.table_id, pd.DataFrame({
            "player_id": at["player_id"].to_numpy(), "leader": table.available_leaders[:len(at)],
            "vp": vp[:len(at)], "spice": 0, "solari": 0, "troops": 0, "water": 0}),
            expected_version=0, submission_id=None, actor=ORGANIZER)


@pytest.mark.slow
def test_finals_sheet_and_summary_once_the_final_is_played(sqlite_engine):
    engine = sqlite_engine
    ids = store.import_players(engine, pd.DataFrame({"name": [f"P{i}" for i in range(6)]}),
                               actor=ORGANIZER)["player_id"].tolist()
    for draw, vps in ((lambda e, **k: tournament.draw_qualifier(e, ids, **k), [[9, 7, 5],
                                                                               [8, 6, 4]]),
                      (tournament.draw_final, [[11, 8, 6, 4]])):
        sitting = draw(engine, seed=7, actor=ORGANIZER)
        store.publish_sitting(engine, sitting["sitting_id"], actor=ORGANIZER)
        enter(engine, sitting["sitting_id"], vps)
    wb = openpyxl.load_workbook(io.BytesIO(excel.tournament_workbook(engine)))
    finals = sheet_rows(wb, "Finals")
    assert [f["Final rank"] for f in finals] == [1, 2, 3, 4, 5, 6]
    assert [f["Stage"] for f in finals] == ["Final"] * 4 + ["Qualifier"] * 2
    standings = {r["Nickname"]: (r["Rank"], r["Best score"]) for r in sheet_rows(wb, "Standings")}
    assert all((f["Qualifier rank"], f["Best score"]) == standings[f["Nickname"]]
               for f in finals)
    summary = {r[0]: r[1] for r in wb["Summary"].iter_rows(values_only=True)}
    assert summary["Champion"] == finals[0]["Nickname"]
    assert (summary["2nd place"], summary["3rd place"]) == (finals[1]["Nickname"],
                                                            finals[2]["Nickname"])
    assert summary["Final"] == "Complete"


# -- the tournament's key goes through the workbook (R27, issue 33) -----------------------------
def _spring(tmp_path, *, renamed_after_publishing: bool = False):
    """A tournament "Spring Open 2026" with Qualifier 1 published, in an installation of its
    own; renamed before (its key follows) or after publishing (its key stays)."""
    engine = store.connect(f"sqlite:///{tmp_path / 'spring.db'}", backup_dir=tmp_path / "sb")
    if not renamed_after_publishing:
        store.set_settings(engine, {"tournament_name": "Spring Open 2026"}, actor=ORGANIZER)
    names = pd.DataFrame({"name": [f"Player {i}" for i in range(1, 9)]})
    ids = store.import_players(engine, names, actor=ORGANIZER)["player_id"].tolist()
    sitting = tournament.draw_qualifier(engine, ids, seed=7, actor=ORGANIZER)
    store.publish_sitting(engine, sitting["sitting_id"], actor=ORGANIZER)
    if renamed_after_publishing:
        store.set_settings(engine, {"tournament_name": "Spring Open 2026"}, actor=ORGANIZER)
    return engine


def _key_and_links(installation, tid: int) -> tuple[str, dict]:
    from stsa.services import feed
    from stsa.store.tournaments import find

    key = find(installation, tid)["key"]
    return key, feed.tournament_links(key)


def _without_key_line(data: bytes) -> bytes:
    """The workbook as an earlier release wrote it: no address key on the Summary."""
    wb = openpyxl.load_workbook(io.BytesIO(data))
    ws = wb["Summary"]
    at = next(r for r in range(1, ws.max_row + 1) if ws.cell(r, 1).value == "Address key")
    ws.delete_rows(at)
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


@pytest.mark.slow
def test_a_restore_into_a_fresh_install_keeps_the_key_and_its_links(tmp_path):
    from stsa.services import restore

    spring = _spring(tmp_path)
    try:
        key, links = _key_and_links(spring, store.tournaments(spring)["tournament_id"].iloc[0])
        assert key == "spring-open-2026"  # renamed before publishing: the key followed
        data = excel.tournament_workbook(spring)
    finally:
        spring.dispose()
    fresh = store.connect(f"sqlite:///{tmp_path / 'fresh.db'}", backup_dir=tmp_path / "fb")
    try:
        tid, name, outcome = restore.restore_workbook_as_new(fresh, io.BytesIO(data),
                                                             actor=ORGANIZER)
        assert name == "Spring Open 2026"
        assert _key_and_links(fresh, tid) == (key, links)
        assert restore.key_words(outcome) == "Its links are the ones it had (“spring-open-2026”)."
        # restored again beside it: the key is taken, the copy gets a number and says so
        tid2, _name, again = restore.restore_workbook_as_new(fresh, io.BytesIO(data),
                                                             actor=ORGANIZER)
        assert _key_and_links(fresh, tid2)[0] == "spring-open-2026-2"
        assert restore.key_words(again) == ("Its links use “spring-open-2026-2”: "
                                            "“spring-open-2026” belongs to another tournament "
                                            "here.")
    finally:
        fresh.dispose()


@pytest.mark.slow
def test_a_key_kept_after_a_rename_is_restored_and_an_older_workbook_gets_its_names(
        tmp_path):
    from stsa.services import restore

    spring = _spring(tmp_path, renamed_after_publishing=True)
    try:
        tid = store.tournaments(spring)["tournament_id"].iloc[0]
        assert _key_and_links(spring, tid)[0] == "dune-imperium-tournament"  # public: it stays
        data = excel.tournament_workbook(spring)
    finally:
        spring.dispose()
    fresh = store.connect(f"sqlite:///{tmp_path / 'fresh.db'}", backup_dir=tmp_path / "fb")
    try:
        # the fresh install's empty first tournament holds that key: it gives it up
        tid, _name, _outcome = restore.restore_workbook_as_new(fresh, io.BytesIO(data),
                                                               actor=ORGANIZER)
        assert _key_and_links(fresh, tid)[0] == "dune-imperium-tournament"
        assert store.tournaments(fresh)["key"].tolist() == ["dune-imperium-tournament-2",
                                                            "dune-imperium-tournament"]
        older, _name, outcome = restore.restore_workbook_as_new(
            fresh, io.BytesIO(_without_key_line(data)), actor=ORGANIZER)
        assert _key_and_links(fresh, older)[0] == "spring-open-2026"  # from its name
        assert "from its name" in restore.key_words(outcome)
    finally:
        fresh.dispose()
