"""Saving, redrawing, publishing and completing sittings; setup overrides (R1, R3, R6, R16,
R19, R20). Every test runs on SQLite and PostgreSQL."""

import pandas as pd
import pytest

from stsa import store
from tests.support.store_helpers import (
    JUDGE,
    LEADERS,
    ORGANIZER,
    REMOVED,
    SPECTATOR,
    FakeDraw,
    add_players,
    make_draw,
    published_sitting,
    rows_for,
)


def test_save_draw_stores_tables_seats_seed_and_sit_outs(engine):
    ids = add_players(engine, 12)
    draw = make_draw(ids[:11], seed=2**63 - 1, sit_outs=[ids[11]])
    s = store.save_draw(engine, draw, kind="qualifier", actor=ORGANIZER)
    assert (s["kind"], s["number"], s["status"], s["seed"]) == ("qualifier", 1, "drawn",
                                                                2**63 - 1)
    tables = store.tables(engine, s["sitting_id"], actor=ORGANIZER)
    assert tables["table_no"].tolist() == [1, 2, 3] and tables["players"].tolist() == [4, 4, 3]
    assert tables["setup_id"].tolist() == draw.tables["setup_id"].tolist()
    assert tables.loc[0, "removed_leaders"] == REMOVED
    assert tables.loc[0, "available_leaders"] == LEADERS
    assert tables["version"].tolist() == [0, 0, 0] and not tables["setup_override"].any()
    seats = store.seats(engine, s["sitting_id"], actor=ORGANIZER)
    assert seats.columns.tolist() == ["table_id", "sitting_id", "kind", "sitting_no",
                                      "table_no", "seat", "player_id", "name", "colour",
                                      "pick_order", "nickname"]
    pd.testing.assert_frame_equal(
        seats[["table_no", "seat", "player_id", "colour", "pick_order"]],
        draw.seats.astype("int64", errors="ignore").astype({"colour": seats["colour"].dtype}),
        check_dtype=False)
    assert store.sit_outs(engine, s["sitting_id"], actor=ORGANIZER)["player_id"].tolist() == [
        ids[11]]
    logged = store.events(engine, action="sitting.draw", actor=ORGANIZER).loc[0, "after"]
    assert logged["seed"] == 2**63 - 1 and logged["sit_outs"] == [ids[11]]
    assert len(logged["seats"]) == 11


def test_redraw_replaces_an_unpublished_sitting_and_logs_the_old_draw(engine):
    ids = add_players(engine, 8)
    first = store.save_draw(engine, make_draw(ids, seed=1), kind="qualifier", actor=ORGANIZER)
    second = store.save_draw(engine, make_draw(ids[::-1], seed=2), kind="qualifier",
                             actor=ORGANIZER)
    assert second["sitting_id"] == first["sitting_id"] and second["number"] == 1
    assert second["seed"] == 2
    assert len(store.sittings(engine, actor=ORGANIZER)) == 1
    seats = store.seats(engine, actor=ORGANIZER)
    assert seats["player_id"].tolist() == ids[::-1]
    ev = store.events(engine, action="sitting.redraw", actor=ORGANIZER)
    assert ev.loc[0, "before"]["seed"] == 1 and ev.loc[0, "after"]["seed"] == 2
    assert [r["player_id"] for r in ev.loc[0, "before"]["seats"]] == ids


def test_a_published_sitting_cannot_be_redrawn(engine):
    ids = add_players(engine, 8)
    s, _ = published_sitting(engine, ids=ids)
    with pytest.raises(store.InvalidState, match="Qualifier 1 is published; a published "
                                                 "sitting cannot be redrawn"):
        store.save_draw(engine, make_draw(ids), kind="qualifier", sitting_id=s["sitting_id"],
                        actor=ORGANIZER)
    nxt = store.save_draw(engine, make_draw(ids, seed=9), kind="qualifier", actor=ORGANIZER)
    assert nxt["number"] == 2 and nxt["sitting_id"] != s["sitting_id"]  # a new sitting
    with pytest.raises(store.InvalidState, match="already published"):
        store.publish_sitting(engine, s["sitting_id"], actor=ORGANIZER)


def test_finals_draws_one_semifinal_and_one_final(engine):
    ids = add_players(engine, 12)
    published_sitting(engine, ids=ids)
    semi = store.save_draw(engine, make_draw(ids[4:12]), kind="semifinal", actor=ORGANIZER)
    again = store.save_draw(engine, make_draw(ids[4:12][::-1]), kind="semifinal",
                            actor=ORGANIZER)
    assert again["sitting_id"] == semi["sitting_id"]  # redraw while unpublished
    store.publish_sitting(engine, semi["sitting_id"], actor=ORGANIZER)
    with pytest.raises(store.InvalidState, match="semifinal is already published"):
        store.save_draw(engine, make_draw(ids[4:12]), kind="semifinal", actor=ORGANIZER)
    final = store.save_draw(engine, make_draw(ids[:4]), kind="final", actor=ORGANIZER)
    assert (final["kind"], final["number"]) == ("final", 1)
    frame = store.sittings(engine, actor=ORGANIZER)
    assert frame["kind"].tolist() == ["qualifier", "semifinal", "final"]
    with pytest.raises(store.InvalidState, match="is a final, not a semifinal"):
        store.save_draw(engine, make_draw(ids[:4]), kind="semifinal",
                        sitting_id=final["sitting_id"], actor=ORGANIZER)
    with pytest.raises(store.TournamentError, match="Unknown sitting kind"):
        store.save_draw(engine, make_draw(ids[:4]), kind="quarterfinal", actor=ORGANIZER)


def _bad(draw, frame, row, col, value):
    seats, tables = draw.seats.copy(), draw.tables.copy()
    (seats if frame == "seats" else tables).loc[row, col] = value
    return FakeDraw(seats, tables, draw.seed, draw.sit_outs)


@pytest.mark.parametrize("mutate, message", [
    (lambda d, ids: _bad(d, "seats", 1, "player_id", ids[0]), "seated twice"),
    (lambda d, ids: _bad(d, "seats", 1, "colour", "red"), "different colour"),
    (lambda d, ids: _bad(d, "seats", 1, "seat", 7), "numbered 1 to 4"),
    (lambda d, ids: _bad(d, "seats", 1, "pick_order", 4), "pick order"),
    (lambda d, ids: _bad(d, "seats", 1, "player_id", 9999), "not on the roster"),
    (lambda d, ids: _bad(d, "tables", 0, "setup_id", " "), "Table 1 has no setup"),
    (lambda d, ids: FakeDraw(d.seats.iloc[:6], d.tables, 1), "Table 2 has 2 players"),
    (lambda d, ids: FakeDraw(d.seats, d.tables, -1), "seed cannot be negative"),
    (lambda d, ids: FakeDraw(d.seats, d.tables, 1, [ids[0]]), "both seated and sitting out"),
    (lambda d, ids: FakeDraw(d.seats.drop(columns="colour"), d.tables, 1), "lack colour"),
])
def test_bad_draws_are_refused_and_change_nothing(engine, mutate, message):
    ids = add_players(engine, 8)
    with pytest.raises(store.TournamentError, match=message):
        store.save_draw(engine, mutate(make_draw(ids), ids), kind="qualifier",
                        actor=ORGANIZER)
    assert store.sittings(engine, actor=ORGANIZER).empty


def test_withdrawn_players_cannot_be_drawn(engine):
    ids = add_players(engine, 8)
    store.withdraw_player(engine, ids[3], actor=ORGANIZER)
    with pytest.raises(store.InvalidState, match="withdrawn players: Player 0003"):
        store.save_draw(engine, make_draw(ids), kind="qualifier", actor=ORGANIZER)


def test_discard_draw(engine):
    ids = add_players(engine, 8)
    s = store.save_draw(engine, make_draw(ids), kind="qualifier", actor=ORGANIZER)
    store.discard_draw(engine, s["sitting_id"], actor=ORGANIZER)
    assert store.sittings(engine, actor=ORGANIZER).empty and store.tables(
        engine, actor=ORGANIZER).empty
    assert store.events(engine, action="sitting.discard", actor=ORGANIZER).loc[0, "before"][
        "seed"] == 7
    s2, _ = published_sitting(engine, ids=ids)
    assert s2["number"] == 1
    with pytest.raises(store.InvalidState, match="only an unpublished draw"):
        store.discard_draw(engine, s2["sitting_id"], actor=ORGANIZER)


def test_r20_spectators_see_published_draws_without_leaders(engine):
    ids = add_players(engine, 16)
    published_sitting(engine, ids=ids[:8])
    hidden = store.save_draw(engine, make_draw(ids[8:]), kind="qualifier", actor=ORGANIZER)
    for who in (None, SPECTATOR):
        assert store.sittings(engine, actor=who)["number"].tolist() == [1]
        t = store.tables(engine, actor=who)
        assert len(t) == 2 and t["removed_leaders"].isna().all()
        assert t["available_leaders"].isna().all()
        assert len(store.seats(engine, actor=who)) == 8
        assert store.seats(engine, hidden["sitting_id"], actor=who).empty
    t = store.tables(engine, actor=JUDGE)
    assert len(t) == 4 and t.loc[0, "removed_leaders"] == REMOVED
    assert len(store.sittings(engine, actor=JUDGE)) == 2


def test_only_the_organizer_draws_and_publishes(engine):
    ids = add_players(engine, 8)
    s = store.save_draw(engine, make_draw(ids), kind="qualifier", actor=ORGANIZER)
    for who in (JUDGE, SPECTATOR, None):
        with pytest.raises(store.PermissionDenied):
            store.save_draw(engine, make_draw(ids), kind="qualifier", actor=who)
        with pytest.raises(store.PermissionDenied):
            store.publish_sitting(engine, s["sitting_id"], actor=who)
        with pytest.raises(store.PermissionDenied):
            store.discard_draw(engine, s["sitting_id"], actor=who)
        with pytest.raises(store.PermissionDenied):
            store.complete_sitting(engine, s["sitting_id"], actor=who)
    assert store.sitting(engine, s["sitting_id"])["status"] == "drawn"


def test_publish_backs_up_and_completion_follows_the_last_result(engine, tmp_path):
    s, tables = published_sitting(engine, 11)
    assert store.sitting(engine, s["sitting_id"])["published_at"] is not None
    names = store.backups(engine)["name"].tolist()
    assert len(names) == 1 and names[0].endswith("-published-qualifier-1.db")
    with pytest.raises(store.InvalidState, match="tables 1, 2, 3 have no result"):
        store.complete_sitting(engine, s["sitting_id"], actor=ORGANIZER)
    done = []
    for tid in tables["table_id"]:
        out = store.submit_table_result(engine, int(tid), rows_for(engine, int(tid)),
                                        expected_version=0, submission_id=f"r{tid}",
                                        actor=JUDGE)
        done.append(out.completed_sitting)
    assert done == [False, False, True]
    row = store.sittings(engine).iloc[0]
    assert (row["status"], row["tables"], row["results"]) == ("complete", 3, 3)
    assert store.backups(engine)["name"].iloc[0].endswith("-complete-qualifier-1.db")
    ev = store.events(engine, action="sitting.complete", actor=ORGANIZER)
    assert len(ev) == 1 and ev.loc[0, "actor"] == "Jude"
    # a correction keeps it complete and does not complete it again
    tid = int(tables["table_id"][0])
    store.submit_table_result(engine, tid, rows_for(engine, tid, base=12), expected_version=1,
                              submission_id="fix", actor=JUDGE)
    assert len(store.events(engine, action="sitting.complete", actor=ORGANIZER)) == 1
    assert store.complete_sitting(engine, s["sitting_id"], actor=ORGANIZER)["status"] == \
        "complete"


def test_no_backup_when_switched_off(engine):
    store.set_settings(engine, {"auto_backup": False}, actor=ORGANIZER)
    published_sitting(engine, 8)
    assert store.backups(engine).empty


def test_override_setup_is_recorded(engine):
    _, tables = published_sitting(engine, 8)
    tid = int(tables["table_id"][1])
    out = store.override_setup(engine, tid, "Uprising+Bloodlines", reason="box missing",
                               available_leaders=["U1", "U2", "U3", "U4", "U5"],
                               removed_leaders=["U6"], actor=ORGANIZER)
    assert out["setup_id"] == "Uprising+Bloodlines" and out["setup_override"]
    assert out["available_leaders"] == ["U1", "U2", "U3", "U4", "U5"]
    t = store.tables(engine, actor=ORGANIZER)
    assert t["setup_override"].tolist() == [False, True]
    ev = store.events(engine, action="table.override_setup", actor=ORGANIZER).iloc[0]
    assert ev["before"]["setup_id"] == tables["setup_id"][1]
    assert ev["after"]["reason"] == "box missing" and ev["actor"] == "Olga"
    with pytest.raises(store.TournamentError, match="reason"):
        store.override_setup(engine, tid, "Legacy", reason=" ", actor=ORGANIZER)
    for who in (JUDGE, SPECTATOR):  # R20: a setup is part of the draw, the organizer's
        with pytest.raises(store.PermissionDenied):
            store.override_setup(engine, tid, "Legacy", reason="x", actor=who)
    with pytest.raises(store.NotFound, match="no table with id 999"):
        store.override_setup(engine, 999, "Legacy", reason="x", actor=ORGANIZER)
    store.override_setup(engine, tid, "Legacy", reason="found the box", actor=ORGANIZER)
    assert store.tables(engine, actor=ORGANIZER).loc[1, "available_leaders"] == [
        "U1", "U2", "U3", "U4", "U5"]  # lists kept when none are given


def test_setup_counts_across_qualifiers(engine):
    ids = add_players(engine, 12)
    published_sitting(engine, ids=ids)  # Legacy, Uprising, Legacy+Ix
    s2 = store.save_draw(engine, make_draw(ids, setups=("Legacy", "Legacy", "Uprising")),
                         kind="qualifier", actor=ORGANIZER)
    assert store.setup_counts(engine) == {"Legacy": 1, "Legacy+Ix": 1, "Uprising": 1}
    assert store.setup_counts(engine, include_drawn=True) == {"Legacy": 3, "Legacy+Ix": 1,
                                                              "Uprising": 2}
    store.publish_sitting(engine, s2["sitting_id"], actor=ORGANIZER)
    semi = store.save_draw(engine, make_draw(ids[:8]), kind="semifinal", actor=ORGANIZER)
    store.publish_sitting(engine, semi["sitting_id"], actor=ORGANIZER)
    assert store.setup_counts(engine) == {"Legacy": 3, "Legacy+Ix": 1, "Uprising": 2}
