"""A whole tournament out and back in (R19): `load_tournament` takes nothing entry would refuse,
names each table and row it refuses, and writes nothing then. Loads run on SQLite and
PostgreSQL."""

from __future__ import annotations

import pytest

from stsa import store
from stsa.domain import Problem
from tests.support.store_helpers import JUDGE, ORGANIZER, published_sitting, rows_for


@pytest.fixture
def dump(tmp_path):
    """A qualifier of two tables, both reported (so complete), as rows."""
    source = store.connect(f"sqlite:///{tmp_path / 'source.db'}", backup_dir=tmp_path / "b")
    try:
        store.set_settings(source, {"auto_backup": False}, actor=ORGANIZER)
        _, tables = published_sitting(source, 8)
        for tid in tables["table_id"]:
            store.submit_table_result(source, int(tid), rows_for(source, int(tid)),
                                      expected_version=0, submission_id=f"s{tid}", actor=JUDGE)
        return store.dump_tournament(source)
    finally:
        source.dispose()


def _row(rows: list[dict], **match) -> tuple[int, dict]:
    """The first row with these values, and its number (from 1)."""
    return next((i, r) for i, r in enumerate(rows, start=1)
                if all(r[k] == v for k, v in match.items()))


def refused(engine, dump) -> list[Problem]:
    """The problems `load_tournament` names; the database keeps nothing of the rows."""
    with pytest.raises(store.TournamentError) as err:
        store.load_tournament(engine, dump, actor=ORGANIZER)
    assert str(err.value).startswith("Nothing was restored: ")
    assert store.players(engine).empty and store.sittings(engine, actor=ORGANIZER).empty
    assert store.events(engine, actor=ORGANIZER).empty
    return err.value.problems


def test_the_rows_of_a_tournament_load_as_they_were(engine, dump):
    counts = store.load_tournament(engine, dump, actor=ORGANIZER)
    assert counts["results"] == 8 and counts["sittings"] == 1
    assert store.sittings(engine)["status"].tolist() == ["complete"]
    assert store.results(engine)["vp"].tolist() == [9, 8, 7, 6, 9, 8, 7, 6]


@pytest.mark.parametrize("seed, what", [
    ("not-a-seed", "The draw's seed must be a whole number, not 'not-a-seed'"),
    ("-5", "The draw's seed cannot be negative"),
])
def test_a_seed_must_be_a_whole_number(engine, dump, seed, what):
    """R3: a seed that is not a whole number once made every page fail."""
    dump["sittings"][0]["seed"] = seed
    assert refused(engine, dump) == [Problem("sittings row 1", what)]


@pytest.mark.slow
@pytest.mark.parametrize("field, value, what", [
    ("variant_points", 10**15, "rule change points must be a whole number (up to 100000), not "
                               "1000000000000000"),
    ("variant_points", -100_001, "rule change points must be a whole number (up to 100000), not "
                                 "-100001"),
    ("tiebreak", -7, "settled order cannot be negative, not -7"),
    ("vp", 100_001, "VP must be a whole number of 0 or more (up to 100000), not 100001"),
])
def test_result_numbers_are_bounded_as_entry_bounds_them(engine, dump, field, value, what):
    """R11-R13: what a judge cannot enter cannot be restored either."""
    dump["results"][2][field] = value
    assert refused(engine, dump) == [Problem("results row 3", what)]


def test_a_drawn_sitting_has_no_results(engine, dump):
    """R20: results are entered once a sitting is published."""
    dump["sittings"][0]["status"] = "drawn"
    assert refused(engine, dump) == [Problem(
        "sittings row 1", "Qualifier 1 is drawn (not published) but has results; results are "
                          "entered once a sitting is published")]


def test_a_complete_sitting_has_every_result(engine, dump):
    table_id = dump["tables"][1]["id"]
    dump["results"] = [r for r in dump["results"] if r["table_id"] != table_id]
    dump["tables"][1]["result_version"] = 0
    assert refused(engine, dump) == [Problem("sittings row 1", "Qualifier 1 is complete but "
                                                               "table 2 has no result")]


def test_a_full_tie_needs_its_settled_order(engine, dump):
    """R11: a result with players equal on all five and no settled order is not final."""
    table_id = dump["tables"][0]["id"]
    first, second = (r for r in dump["results"] if r["table_id"] == table_id and r["seat"] <= 2)
    second.update({c: first[c] for c in ("vp", "spice", "solari", "troops", "water")})
    row, _ = _row(dump["results"], table_id=table_id)
    (problem,) = refused(engine, dump)
    assert problem.where == f"results row {row}"
    assert problem.what == ("Qualifier 1, table 1: seat 1 (Player 0000) and seat 2 "
                            "(Player 0001) are equal on VP, spice, solari, troops and water: "
                            "enter their settled order (1, 2, …) before saving")
    first["tiebreak"], second["tiebreak"] = 2, 1
    assert store.load_tournament(engine, dump, actor=ORGANIZER)["results"] == 8


def test_every_problem_is_named_by_table_and_row(engine, dump):
    dump["sittings"][0]["kind"] = "friendly"
    dump["players"][3]["status"] = "gone"
    dump["results"][5]["spice"] = "lots"
    problems = refused(engine, dump)
    assert [p.where for p in problems] == ["players row 4", "sittings row 1", "results row 6"]
    assert problems[0].what == "The status must be active, withdrawn, not 'gone'"
    assert problems[1].what.startswith("Unknown sitting kind 'friendly'")
    assert problems[2].what == "spice must be a whole number, not 'lots'"
