"""The schedule travels with the tournament (R26, R19): the workbook's Schedule sheet names
each item and its start in the tournament's time zone, and a restore brings every item back,
ids, authors and times kept."""

from __future__ import annotations

import datetime as dt
import io

import openpyxl
import pandas as pd
import pytest

from stsa import excel, store
from tests.support.store_helpers import ORGANIZER

NINE = dt.datetime(2026, 3, 7, 9, 0, tzinfo=dt.UTC)


@pytest.mark.slow
def test_the_schedule_round_trips_through_the_workbook(sqlite_engine, tmp_path):
    store.set_settings(sqlite_engine, {"time_zone": "Europe/Stockholm"}, actor=ORGANIZER)
    store.add_player(sqlite_engine, "Ann Lee", actor=ORGANIZER)
    store.add_schedule_item(sqlite_engine, sitting_kind="qualifier", sitting_number=1,
                            starts_at=NINE, actor=ORGANIZER)
    store.add_schedule_item(sqlite_engine, title="Lunch", minutes=45, actor=ORGANIZER,
                            starts_at=NINE + dt.timedelta(hours=3))
    data = excel.tournament_workbook(sqlite_engine)
    wb = openpyxl.load_workbook(io.BytesIO(data), read_only=True)
    try:
        rows = [list(r) for r in wb["Schedule"].iter_rows(values_only=True)]
        summary = {r[0]: r[1] for r in wb["Summary"].iter_rows(values_only=True)}
    finally:
        wb.close()
    assert rows[0][:6] == ["Item", "Title", "Stage", "Number", "Starts", "Minutes"]
    assert [r[:6] for r in rows[1:]] == [
        ["Qualifier 1", "Qualifier 1", "Qualifier", 1, "2026-03-07 10:00", 150],
        ["Lunch", "Lunch", None, None, "2026-03-07 13:00", 45]]  # Stockholm: UTC+1 in March
    assert summary["Time zone"] == "Europe/Stockholm" and "Exported (UTC)" not in summary
    target = store.connect(f"sqlite:///{tmp_path / 'restored.db'}",
                           backup_dir=tmp_path / "restored-backups")
    try:
        counts = excel.restore_workbook(target, data, actor=ORGANIZER)
        assert counts["schedule_items"] == 2
        pd.testing.assert_frame_equal(store.schedule_items(target).drop(columns="updated_at"),
                                      store.schedule_items(sqlite_engine)
                                      .drop(columns="updated_at"))
        added = store.add_schedule_item(target, title="Prize giving", actor=ORGANIZER,
                                        starts_at=NINE + dt.timedelta(hours=8))
        assert added["item_id"] == 3  # new ids follow the restored ones
    finally:
        target.dispose()


@pytest.mark.slow
def test_a_bad_schedule_row_is_named_and_nothing_is_restored(sqlite_engine, tmp_path):
    store.add_player(sqlite_engine, "Ann Lee", actor=ORGANIZER)
    store.add_schedule_item(sqlite_engine, title="Lunch", minutes=45, starts_at=NINE,
                            actor=ORGANIZER)
    wb = openpyxl.load_workbook(io.BytesIO(excel.tournament_workbook(sqlite_engine)))
    sheet = wb["Schedule"]
    minutes = [c.value for c in sheet[1]].index("Minutes") + 1
    sheet.cell(row=2, column=minutes, value=0)
    out = io.BytesIO()
    wb.save(out)
    target = store.connect(f"sqlite:///{tmp_path / 'restored.db'}",
                           backup_dir=tmp_path / "restored-backups")
    try:
        with pytest.raises(excel.RestoreError, match="Schedule sheet, row 2: the length must be "
                                                     "a whole number of minutes from 1 to "
                                                     "1440, not 0"):
            excel.restore_workbook(target, out.getvalue(), actor=ORGANIZER)
        assert store.players(target).empty and store.schedule_items(target).empty
    finally:
        target.dispose()
