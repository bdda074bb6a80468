"""Every time STSA shows is in the tournament's time zone (R26), never UTC: check-in times,
the waiting list's reasons, the backups list, late corrections, invitation expiries and a
result saved by someone else first."""

from __future__ import annotations

from zoneinfo import ZoneInfo

import pandas as pd
import pytest

from stsa import store
from stsa.services import capacity, log
from stsa.ui import access, organizer
from tests.support.store_helpers import JUDGE, ORGANIZER, published_sitting, rows_for

ROOM = ZoneInfo("America/New_York")
AT = pd.Timestamp("2026-03-07 15:42", tz="UTC")  # 10:42 in New York


def test_check_in_and_backup_times_read_in_the_tournament_zone():
    players = pd.DataFrame({"checked_in_at": pd.Series([AT, pd.NaT], dtype="datetime64[us, UTC]")})
    assert organizer.check_in_time(players, ROOM).tolist() == ["10:42", ""]
    files = pd.DataFrame({"name": ["a.db"], "size": [2048], "modified": [AT]})
    made = organizer.backups_frame(files, ROOM)
    assert made.columns.tolist() == ["Backup", "Size (kB)", "Made"]
    assert made["Made"].tolist() == ["2026-03-07 10:42"]
    assert access.local_time(AT.to_pydatetime(), ROOM) == "10:42"


def test_the_waiting_list_and_late_corrections_read_in_the_tournament_zone():
    queue = pd.DataFrame({"registration_order": pd.array([None], dtype="Int64"),
                          "checked_in_at": pd.Series([AT], dtype="datetime64[us, UTC]"),
                          "plays": [True]})
    assert capacity.queue_reasons(queue, 16, 0, ROOM).tolist() == ["dropped in at 10:42"]
    late = pd.DataFrame({"event_id": [1], "at": [AT], "actor": ["Olivia"],
                         "table": ["Qualifier 1, table 2"], "changes": [""]})
    assert log.late_lines(late, ROOM)[0].endswith("by Olivia on 2026-03-07 at 10:42.")


@pytest.mark.parametrize("zone_name", ["America/New_York", "Asia/Tokyo"])
def test_a_save_that_lost_the_race_names_the_time_in_the_tournament_zone(sqlite_engine,
                                                                         zone_name):
    store.set_settings(sqlite_engine, {"time_zone": zone_name}, actor=ORGANIZER)
    _, tables = published_sitting(sqlite_engine)
    table_id = int(tables["table_id"].iloc[0])
    store.submit_table_result(sqlite_engine, table_id, rows_for(sqlite_engine, table_id),
                              expected_version=0, submission_id="first", actor=JUDGE)
    with pytest.raises(store.ConflictError) as caught:
        store.submit_table_result(sqlite_engine, table_id, rows_for(sqlite_engine, table_id),
                                  expected_version=0, submission_id="second", actor=JUDGE)
    saved = store.table_result(sqlite_engine, table_id).saved_at
    local = pd.Timestamp(saved).tz_convert(zone_name)
    assert f"at {local:%H:%M:%S} (version 1)" in str(caught.value)
    assert "UTC" not in str(caught.value)
