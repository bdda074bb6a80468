"""The path a judge's Save takes, made lighter (the issue "A lighter write path"): the form's
frame read as `to_dict` reads it, an untied form sent straight to the store, one read and one
batch of writes per table, and the saved result's frame shaped as the store's frames are
(R11-R13, R19, R20). Database tests run on SQLite and PostgreSQL."""

import math

import numpy as np
import pandas as pd
import pytest
from sqlalchemy import event

from bench import write
from stsa import store
from stsa.services import results
from stsa.store import checks, frames, game_results
from tests.support.store_helpers import JUDGE, ORGANIZER, published_sitting, rows_for


def _form(rows: list[dict]) -> pd.DataFrame:
    """Rows as the Results page's form frames them: nullable numbers, `seat`, no tiebreak."""
    frame = pd.DataFrame(rows)
    return pd.DataFrame({
        "player_id": frame["player_id"].astype("int64"),
        "seat": np.arange(1, len(frame) + 1), "leader": frame["leader"].astype("str"),
        **{c: pd.array(frame[c].tolist(), dtype="Int64")
           for c in (*checks.STATS, "variant_points")},
        "tiebreak": pd.array([None] * len(frame), dtype="Int64")})


def _same(a, b) -> bool:
    """Equal values of the same type, NaN equal to NaN."""
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return type(a) is type(b) and a == b


FRAMES = {
    "form": _form([{"player_id": 7, "leader": "Leto", "vp": 9, "spice": 1, "solari": 2,
                    "troops": 3, "water": None, "variant_points": -1}]),
    "text and blanks": pd.DataFrame({"player_id": ["7", None], "vp": ["9", " "],
                                     "leader": [np.nan, "Paul"]}),
    "floats with NaN": pd.DataFrame({"player_id": [1.0, np.nan], "vp": [2.5, 3.0]}),
    "booleans and nullable": pd.DataFrame({
        "troops": [True, False], "water": pd.array([1.5, None], dtype="Float64"),
        "spice": pd.array([None, 2], dtype="Int64"),
        "leader": pd.array(["Irulan", None], dtype="string")}),
    "numpy scalars in objects": pd.DataFrame({"vp": [np.int64(3), np.float32(2.0)],
                                              "seat": pd.Categorical(["a", None])}),
    "no rows": pd.DataFrame(columns=["player_id", "vp"]),
}


@pytest.mark.parametrize("name", FRAMES)
def test_records_read_a_frame_as_to_dict_does(name):
    frame = FRAMES[name]
    got, want = checks.records(frame), frame.to_dict("records")
    assert [list(r) for r in got] == [list(r) for r in want]
    assert all(_same(g[k], w[k]) for g, w in zip(got, want) for k in w), (got, want)


def test_records_copy_plain_rows_and_refuse_anything_else():
    rows = [{"player_id": 1}]
    assert checks.records(rows) == rows and checks.records(rows)[0] is not rows[0]
    with pytest.raises(store.TournamentError, match="list of rows"):
        checks.records(5)


@pytest.mark.parametrize("rows", [
    [],
    [{"player_id": 3, "seat": 1, "leader": "Leto", "vp": 9, "spice": 0, "solari": 1,
      "troops": 2, "water": 3, "variant_points": -4, "tiebreak": None},
     {"player_id": 4, "seat": 2, "leader": "Paul", "vp": 9, "spice": 0, "solari": 1,
      "troops": 2, "water": 3, "variant_points": 0, "tiebreak": 2}],
])
def test_the_saved_rows_frame_is_shaped_as_the_stores_frames(rows):
    fast, plain = game_results._rows_frame(rows), frames.frame(rows, game_results.ROW_SPEC)
    pd.testing.assert_frame_equal(fast, plain, check_exact=True)
    assert list(fast.dtypes) == list(plain.dtypes)


@pytest.fixture
def table(engine):
    """A published 8-player qualifier; the first table's id."""
    _, tables = published_sitting(engine, 8)
    return int(tables["table_id"][0])


def _statements(engine, action) -> list[str]:
    """The SQL statements `action()` sends (BEGIN included, COMMIT not); the saver's draft
    going (R19) as "DELETE DRAFT"."""
    sent = []

    def spy(conn, cursor, statement, *args):
        verb = statement.split()[0].upper()
        sent.append("DELETE DRAFT" if verb == "DELETE" and "result_drafts" in statement
                    else verb)

    event.listen(engine, "before_cursor_execute", spy)
    try:
        action()
    finally:
        event.remove(engine, "before_cursor_execute", spy)
    return sent


def test_a_first_result_is_one_read_and_one_batch_of_writes(engine, table):
    """R13, R19: the table with its seats, setting and submission id in one read (PostgreSQL
    reads the submission id again under the row lock), the rows in one batch, the version, the
    submission and the log (the data version counts the log: nothing to update), the saver's
    unsaved entry removed, and the completion check (R20; PostgreSQL checks
    again after the commit, see `draws.complete_if_done`)."""
    rows = rows_for(engine, table)
    sent = _statements(engine, lambda: store.submit_table_result(
        engine, table, rows, expected_version=0, submission_id="one", actor=JUDGE))
    sqlite = engine.dialect.name == "sqlite"
    assert sent.count("SELECT") == (1 if sqlite else 2)
    assert sent.count("INSERT") == 3 and sent.count("UPDATE") == (2 if sqlite else 3)
    assert "DELETE" not in sent, "a first result has no rows to replace"
    assert sent.count("DELETE DRAFT") == 1  # the saver's unsaved entry goes with the save


def _result_reads(engine, action) -> int:
    """How many statements `action()` sends that read the results table's rows."""
    reads = []

    def spy(conn, cursor, statement, *args):
        text = " ".join(statement.split()).upper()
        if text.startswith("SELECT") and " FROM RESULTS" in text:
            reads.append(text)

    event.listen(engine, "before_cursor_execute", spy)
    try:
        action()
    finally:
        event.remove(engine, "before_cursor_execute", spy)
    return len(reads)


@pytest.mark.parametrize("over_theirs", [False, True])
def test_a_judges_save_reads_the_tables_result_rows_once(engine, table, over_theirs):
    """R19: a first result reads no stored rows; a correction from the Results page, through
    `services.results.submit_result`, reads them once (what the log keeps as before, and whose
    version a save over another judge's replaced, from the same read)."""
    first = _form(rows_for(engine, table))
    assert _result_reads(engine, lambda: results.submit_result(
        engine, table, first, expected_version=0, submission_id="r1", actor=JUDGE)) == 0
    again = _form(rows_for(engine, table, base=12))
    assert _result_reads(engine, lambda: results.submit_result(
        engine, table, again, expected_version=1, submission_id="r2", actor=JUDGE,
        over_theirs=over_theirs)) == 1
    logged = store.events(engine, action="result.correct", actor=ORGANIZER)
    assert len(logged) == 1


def test_the_service_saves_an_untied_form_as_the_store_keeps_it(engine, table):
    rows = rows_for(engine, table)
    out = results.submit_result(engine, table, _form(rows), expected_version=0,
                                submission_id="form-1", actor=JUDGE)
    stored = store.table_result(engine, table)
    assert (out.version, stored.version, stored.submission_id) == (1, 1, "form-1")
    pd.testing.assert_frame_equal(out.rows, stored.rows)
    assert out.rows["player_id"].tolist() == [r["player_id"] for r in rows]
    logged = store.events(engine, action="result.submit", actor=ORGANIZER)
    assert len(logged) == 1 and logged["before"].isna().all()
    again = results.submit_result(engine, table, _form(rows), expected_version=0,
                                  submission_id="form-1", actor=JUDGE)
    assert again.duplicate and again.version == 1
    with pytest.raises(store.ConflictError, match="after you opened it"):
        results.submit_result(engine, table, _form(rows), expected_version=0,
                              submission_id="form-2", actor=JUDGE)


def test_the_service_names_an_unknown_table_before_anything_else(engine, table):
    form = _form(rows_for(engine, table))
    for bad in ({"expected_version": -1}, {"submission_id": ""}):
        request = {"expected_version": 0, "submission_id": "x", **bad}
        with pytest.raises(store.NotFound, match="There is no table with id 99999"):
            results.submit_result(engine, 99999, form, actor=JUDGE, **request)


@pytest.mark.slow
def test_bench_write_reports_its_figures():
    figures = write.run(players=16, sittings=1, repeat=1)
    assert figures["write_seats"] == 16
    for key in ("write_seat_ms_service", "write_seat_ms_store", "write_backup_ms_service",
                "write_backup_seat_ms_store"):
        assert figures[key] > 0
