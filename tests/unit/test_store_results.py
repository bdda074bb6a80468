"""Submitting and correcting table results, ties settled by their order (R11); the frames
stsa.rules scores (R11-R13, R19, R20). Every test runs on SQLite and PostgreSQL."""

import pandas as pd
import pytest

from stsa import rules, store
from tests.support.store_helpers import (
    JUDGE,
    JUDGE2,
    LEADERS,
    ORGANIZER,
    REMOVED,
    SPECTATOR,
    add_players,
    make_draw,
    published_sitting,
    rows_for,
)


@pytest.fixture
def table(engine):
    """A published 8-player qualifier; the first table's id."""
    _, tables = published_sitting(engine, 8)
    return int(tables["table_id"][0])


def _count(engine, action):
    return len(store.events(engine, action=action, actor=ORGANIZER))


def test_submit_stores_one_version_and_reads_back(engine, table):
    rows = rows_for(engine, table)
    rows[2]["variant_points"] = -3
    out = store.submit_table_result(engine, table, pd.DataFrame(rows), expected_version=0,
                                    submission_id="sub-1", actor=JUDGE)
    assert (out.version, out.saved_by, out.submission_id, out.duplicate) == (1, "Jude",
                                                                            "sub-1", False)
    assert out.rows.columns.tolist() == ["player_id", "seat", "leader", "vp", "spice", "solari",
                                         "troops", "water", "variant_points", "tiebreak"]
    assert out.rows["variant_points"].tolist() == [0, 0, -3, 0]
    current = store.table_result(engine, table)
    assert current.version == 1 and current.saved_by == "Jude"
    pd.testing.assert_frame_equal(current.rows, out.rows)
    assert store.table_result(engine, table + 1).version == 0
    assert store.table_result(engine, table + 1).rows.empty
    with pytest.raises(store.NotFound):
        store.table_result(engine, 999)


def test_results_frame_is_ready_for_rules(engine):
    ids = add_players(engine, 11)
    _, tables = published_sitting(engine, ids=ids)
    for tid in tables["table_id"]:
        store.submit_table_result(engine, int(tid), rows_for(engine, int(tid)),
                                  expected_version=0, submission_id=f"q1-{tid}", actor=JUDGE)
    res = store.results(engine)
    assert res.columns.tolist()[:9] == ["game_id", "player_id", "vp", "spice", "solari",
                                        "troops", "water", "variant_points", "tiebreak"]
    assert {"sitting_id", "sitting_no", "table_no", "seat", "leader", "setup_id",
            "version"} <= set(res.columns)
    assert len(res) == 11 and res["game_id"].nunique() == 3
    assert str(res["vp"].dtype) == "int64" and str(res["tiebreak"].dtype) == "Int64"
    assert res["game_id"].tolist() == sorted(res["game_id"].tolist())
    scored = rules.score_games(res)
    assert scored.groupby("game_id")["placing"].min().eq(1).all()
    assert rules.standings(scored)["player_id"].nunique() == 11
    semi = store.save_draw(engine, make_draw(ids[:4]), kind="semifinal", actor=ORGANIZER)
    store.publish_sitting(engine, semi["sitting_id"], actor=ORGANIZER)
    stid = int(store.tables(engine, semi["sitting_id"])["table_id"][0])
    store.submit_table_result(engine, stid, rows_for(engine, stid), expected_version=0,
                              submission_id="semi", actor=JUDGE)
    assert len(store.results(engine)) == 11  # qualifiers by default
    assert store.results(engine, "semifinal")["game_id"].unique().tolist() == [stid]
    assert len(store.results(engine, None)) == 15
    assert len(store.results(engine, None, sitting_id=semi["sitting_id"])) == 4
    empty = store.results(engine, "final")
    assert empty.empty and str(empty["vp"].dtype) == "int64"


@pytest.mark.slow
@pytest.mark.parametrize("change, message", [
    (lambda r: r[1].update(vp=-1), r"seat 2 \(Player 0001\): VP cannot be negative, not -1"),
    (lambda r: r[0].update(spice=2.5), r"seat 1 \(Player 0000\): spice must be a whole"),
    (lambda r: r[3].update(water="lots"), r"seat 4 \(Player 0003\): water must be"),
    (lambda r: r[3].update(troops=True), r"seat 4 \(Player 0003\): troops must be"),
    (lambda r: r[0].update(solari=None), r"seat 1 \(Player 0000\): solari is missing"),
    (lambda r: r[0].update(vp=float("nan")), r"seat 1 \(Player 0000\): VP is missing"),
    (lambda r: r[2].update(vp=10**9), r"seat 3 .*VP must be .*up to 100000"),
    (lambda r: r[2].update(tiebreak=0), r"seat 3 .*settled order must be a whole number of 1"),
    (lambda r: r[1].update(leader="Leader A"),
     r"seat 2 \(Player 0001\): leader 'Leader A' is already taken by seat 1 \(Player 0000\)"),
    (lambda r: r[1].update(leader="Leader X"), r"seat 2 .*'Leader X' is not one of this"),
    (lambda r: r[1].update(leader=" "), r"seat 2 .*leader is missing"),
    (lambda r: r.pop(), r"seat 4 \(Player 0003\) has no result"),
    (lambda r: r.append(dict(r[0])), r"seat 1 \(Player 0000\) has more than one row"),
    (lambda r: r[0].update(player_id=5), r"row 1: player 5 is not seated at this table"),
])
def test_bad_results_name_seat_and_field_and_change_nothing(engine, table, change, message):
    rows = rows_for(engine, table)
    change(rows)
    with pytest.raises(store.TournamentError, match=message) as err:
        store.submit_table_result(engine, table, rows, expected_version=0,
                                  submission_id="bad", actor=JUDGE)
    assert str(err.value).startswith("Qualifier 1, table 1: ")
    assert store.table_result(engine, table).version == 0
    assert _count(engine, "result.submit") == 0
    out = store.submit_table_result(engine, table, rows_for(engine, table), expected_version=0,
                                    submission_id="bad", actor=JUDGE)  # the id is still free
    assert out.version == 1 and not out.duplicate


def test_numbers_from_forms_are_accepted(engine, table):
    rows = rows_for(engine, table)
    rows[0].update(vp="12", spice=3.0, variant_points=" -2 ", tiebreak=float("nan"))
    rows[1].update(variant_points=None)
    out = store.submit_table_result(engine, table, rows, expected_version=0,
                                    submission_id=None, actor=ORGANIZER)
    assert out.rows.loc[0, ["vp", "spice", "variant_points"]].tolist() == [12, 3, -2]
    assert out.rows["variant_points"].tolist()[1] == 0 and out.rows["tiebreak"].isna().all()
    assert len(out.submission_id) == 32  # generated


def test_wild_card_allows_removed_leaders(engine, table):
    rows = rows_for(engine, table)
    rows[0]["leader"] = REMOVED[0]
    with pytest.raises(store.TournamentError, match="not one of this table's leaders"):
        store.submit_table_result(engine, table, rows, expected_version=0, submission_id="w",
                                  actor=JUDGE)
    store.set_settings(engine, {"wild_card": True}, actor=ORGANIZER)  # R10
    assert store.submit_table_result(engine, table, rows, expected_version=0,
                                     submission_id="w", actor=JUDGE).version == 1


def test_no_results_for_an_unpublished_sitting(engine):
    ids = add_players(engine, 8)
    s = store.save_draw(engine, make_draw(ids), kind="qualifier", actor=ORGANIZER)
    tid = int(store.tables(engine, s["sitting_id"], actor=ORGANIZER)["table_id"][0])
    with pytest.raises(store.InvalidState, match="not published yet"):
        store.submit_table_result(engine, tid, rows_for(engine, tid), expected_version=0,
                                  submission_id="x", actor=JUDGE)


def test_a_stale_version_conflicts_and_never_overwrites(engine, table):
    first = store.submit_table_result(engine, table, rows_for(engine, table),
                                      expected_version=0, submission_id="a", actor=JUDGE)
    with pytest.raises(store.ConflictError) as err:
        store.submit_table_result(engine, table, rows_for(engine, table, base=20),
                                  expected_version=0, submission_id="b", actor=JUDGE2)
    e = err.value
    assert isinstance(e, store.TournamentError)
    assert (e.version, e.saved_by, e.saved_at) == (1, "Jude", first.saved_at)
    assert "saved by Jude" in str(e) and "nothing was overwritten" in str(e)
    pd.testing.assert_frame_equal(e.rows, first.rows)
    assert store.table_result(engine, table).rows["vp"].tolist() == [9, 8, 7, 6]
    with pytest.raises(store.ConflictError, match="no result yet"):
        store.submit_table_result(engine, table + 1, rows_for(engine, table + 1),
                                  expected_version=1, submission_id="c", actor=JUDGE)
    assert store.table_result(engine, table + 1).version == 0
    with pytest.raises(store.TournamentError, match="expected_version"):
        store.submit_table_result(engine, table, rows_for(engine, table), expected_version=-1,
                                  submission_id="d", actor=JUDGE)


def test_the_same_submission_twice_is_stored_once(engine, table):
    rows = rows_for(engine, table)
    first = store.submit_table_result(engine, table, rows, expected_version=0,
                                      submission_id="phone-42", actor=JUDGE)
    again = store.submit_table_result(engine, table, rows, expected_version=0,
                                      submission_id="phone-42", actor=JUDGE)
    assert again.duplicate and again.version == 1 and again.saved_at == first.saved_at
    pd.testing.assert_frame_equal(again.rows, first.rows)
    assert _count(engine, "result.submit") == 1
    store.submit_table_result(engine, table, rows_for(engine, table, base=15),
                              expected_version=1, submission_id="phone-43", actor=JUDGE)
    late = store.submit_table_result(engine, table, rows, expected_version=0,
                                     submission_id="phone-42", actor=JUDGE)
    assert late.duplicate and late.version == 1 and late.rows["vp"].tolist() == [9, 8, 7, 6]
    assert store.table_result(engine, table).version == 2  # the retry changed nothing
    with pytest.raises(store.TournamentError, match="already used for another table"):
        store.submit_table_result(engine, table + 1, rows_for(engine, table + 1),
                                  expected_version=0, submission_id="phone-42", actor=JUDGE)


def test_corrections_are_new_versions_and_keep_the_old_values(engine, table):
    store.submit_table_result(engine, table, rows_for(engine, table), expected_version=0,
                              submission_id="v1", actor=JUDGE)
    fixed = rows_for(engine, table, seat2={"vp": 11, "leader": "Leader H"})
    out = store.submit_table_result(engine, table, fixed, expected_version=1,
                                    submission_id="v2", actor=JUDGE2)
    assert out.version == 2 and out.saved_by == "Jasmine"
    assert store.results(engine).query(f"game_id == {table}")["version"].eq(2).all()
    ev = store.events(engine, subject=f"table {table}", actor=ORGANIZER)
    assert ev["action"].tolist() == ["result.submit", "result.correct"]
    assert ev.loc[0, "before"] is None and ev.loc[0, "after"]["version"] == 1
    before, after = ev.loc[1, "before"], ev.loc[1, "after"]
    assert before["version"] == 1 and after["version"] == 2
    assert [r["vp"] for r in before["rows"]] == [9, 8, 7, 6]  # R19: the old value is kept
    assert [r["vp"] for r in after["rows"]] == [9, 11, 7, 6]
    assert after["rows"][1]["leader"] == "Leader H" and ev.loc[1, "actor"] == "Jasmine"


TIED = {"vp": 9, "spice": 3, "solari": 2, "troops": 1, "water": 0}


def _refused(engine, table, rows) -> str:
    with pytest.raises(store.TournamentError) as err:
        store.submit_table_result(engine, table, rows, expected_version=0,
                                  submission_id="tie", actor=JUDGE)
    assert store.table_result(engine, table).version == 0
    assert _count(engine, "result.submit") == 0
    return str(err.value)


@pytest.mark.parametrize("orders", [{}, {"seat1": 1}, {"seat1": 1, "seat3": 1}])
def test_an_unsettled_full_tie_is_refused_naming_the_seats(engine, table, orders):
    """R11: players equal on all five need a settled order before the result is saved, from
    any caller, in the words of the result entry page."""
    rows = rows_for(engine, table, seat1=TIED, seat3=TIED)
    for seat, row in enumerate(rows, start=1):
        row["tiebreak"] = orders.get(f"seat{seat}")
    assert _refused(engine, table, rows) == (
        "Qualifier 1, table 1: seat 1 (Player 0000) and seat 3 (Player 0002) are equal on VP, "
        "spice, solari, troops and water: enter their settled order (1, 2, …) before saving. "
        "Nothing was saved.")


@pytest.mark.slow
def test_a_settled_tie_is_saved_and_corrected(engine, table):
    rows = rows_for(engine, table, seat1=dict(TIED, tiebreak=2), seat3=dict(TIED, tiebreak=1))
    out = store.submit_table_result(engine, table, rows, expected_version=0,
                                    submission_id="t", actor=JUDGE)
    assert out.rows["tiebreak"].fillna(0).tolist() == [2, 0, 1, 0]
    scored = rules.score_games(store.results(engine).query(f"game_id == {table}"))
    assert not scored["tied"].any()
    p1, p3 = int(out.rows.player_id[0]), int(out.rows.player_id[2])
    assert scored.set_index("player_id").loc[p3, "placing"] == 1
    rows[0]["tiebreak"], rows[2]["tiebreak"] = 1, 2  # the roll-off was entered the wrong way
    fixed = store.submit_table_result(engine, table, rows, expected_version=1,
                                      submission_id="t2", actor=JUDGE2)
    scored = rules.score_games(store.results(engine).query(f"game_id == {table}"))
    assert fixed.version == 2 and scored.set_index("player_id").loc[p1, "placing"] == 1
    ev = store.events(engine, action="result.correct", actor=ORGANIZER).iloc[0]
    assert [r["tiebreak"] for r in ev["before"]["rows"]] == [2, None, 1, None]
    assert [r["tiebreak"] for r in ev["after"]["rows"]] == [1, None, 2, None]


def test_a_tie_group_must_be_settled_whole(engine, table):
    tied = {"vp": 5, "spice": 5, "solari": 5, "troops": 5, "water": 5}
    rows = rows_for(engine, table, seat1=dict(tied, tiebreak=2), seat2=dict(tied, tiebreak=1),
                    seat4=tied)
    assert "seat 1 (Player 0000) and seat 2 (Player 0001) and seat 4 (Player 0003) are " \
           "equal" in _refused(engine, table, rows)
    rows[3]["tiebreak"] = 3
    out = store.submit_table_result(engine, table, rows, expected_version=0,
                                    submission_id="t3", actor=JUDGE)
    assert out.rows["tiebreak"].fillna(0).tolist() == [2, 1, 0, 3]


def test_only_the_open_tie_of_two_is_named(engine, table):
    low = {"vp": 1, "spice": 0, "solari": 0, "troops": 0, "water": 0}
    rows = rows_for(engine, table, seat1=dict(TIED, tiebreak=1), seat2=dict(TIED, tiebreak=2),
                    seat3=low, seat4=low)
    message = _refused(engine, table, rows)
    assert "seat 3 (Player 0002) and seat 4 (Player 0003) are equal" in message
    assert "seat 1" not in message


def test_only_judges_and_the_organizer_enter_results(engine, table):
    for who in (SPECTATOR, None):
        with pytest.raises(store.PermissionDenied, match="enter results"):
            store.submit_table_result(engine, table, rows_for(engine, table),
                                      expected_version=0, submission_id="s", actor=who)
    assert store.table_result(engine, table).version == 0
    assert store.submit_table_result(engine, table, rows_for(engine, table), expected_version=0,
                                     submission_id="s", actor=ORGANIZER).version == 1


def test_leaders_are_checked_against_this_tables_list(engine, table):
    store.override_setup(engine, table, "Uprising", reason="swap",
                         available_leaders=["U1", "U2", "U3", "U4"], actor=ORGANIZER)
    rows = rows_for(engine, table)
    with pytest.raises(store.TournamentError, match=f"{LEADERS[0]!r} is not one of"):
        store.submit_table_result(engine, table, rows, expected_version=0, submission_id="l",
                                  actor=JUDGE)
    for row, leader in zip(rows, ["U4", "U3", "U2", "U1"]):
        row["leader"] = leader
    assert store.submit_table_result(engine, table, rows, expected_version=0,
                                     submission_id="l", actor=JUDGE).rows["leader"].tolist() == [
        "U4", "U3", "U2", "U1"]
