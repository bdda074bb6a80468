"""The tournament service: settings applied to setups, standings with cut zones, draws saved
through the store, the finals from cut to final standings (R5–R7, R9, R14–R18)."""

import pandas as pd
import pytest
import sqlalchemy as sa

from stsa import demo, draw, rules, store, tournament
from stsa.auth import Actor, Role
from stsa.errors import TournamentError
from stsa.store import schema

ORGANIZER = Actor("Olivia", Role.ORGANIZER)
JUDGE = Actor("Jamal", Role.JUDGE)


@pytest.fixture
def engine(sqlite_engine):
    return sqlite_engine


@pytest.fixture
def demo_engine(engine):
    demo.load_demo(engine, actor=ORGANIZER)
    return engine


def test_R5_R9_enabled_setups_follow_settings(engine):
    assert len(tournament.enabled_setups(engine)) == 16
    store.set_settings(engine, {"enabled_setups": ["legacy", "uprising-ix"],
                                "battle_of_wills": True,
                                "hidden_picks": {"Legacy": 5, "Uprising": 3}}, actor=ORGANIZER)
    setups = tournament.enabled_setups(engine).set_index("setup_id")
    assert sorted(setups.index) == ["legacy", "legacy-bow", "uprising-ix", "uprising-ix-bow"]
    assert setups.loc["legacy", "hidden_picks"] == 5
    assert setups.loc["uprising-ix-bow", "hidden_picks"] == 3


def test_R7_organizer_decks_replace_catalog_decks(engine):
    deck = tournament.enabled_setups(engine).set_index("setup_id").loc["legacy", "leader_deck"]
    store.set_settings(engine, {"leader_decks": {"legacy": deck[:12]}}, actor=ORGANIZER)
    assert tournament.enabled_setups(engine).set_index("setup_id").loc[
        "legacy", "leader_deck"] == deck[:12]


@pytest.mark.slow
def test_demo_fills_three_complete_sittings(demo_engine):
    sittings = store.sittings(demo_engine)
    assert sittings["status"].tolist() == ["complete"] * 3
    scored = tournament.scored_results(demo_engine)
    assert len(scored) == 24 * 3 and not scored["tied"].any()
    assert scored["name"].notna().all()


@pytest.mark.slow
def test_demo_refused_into_a_non_empty_database(demo_engine):
    with pytest.raises(TournamentError, match="empty"):
        demo.load_demo(demo_engine, actor=ORGANIZER)


@pytest.mark.slow
def test_R14_R16_standings_table_has_zones(demo_engine):
    table = tournament.standings_table(demo_engine)
    assert len(table) == 24
    fmt = rules.finals_format(24)
    assert table["zone"].tolist() == (["final"] * fmt.direct + ["semifinal"] * fmt.semifinal
                                      + ["out"] * (24 - fmt.cut))
    assert table["rank"].is_monotonic_increasing


def test_R3_draw_qualifier_saves_an_unpublished_reproducible_draw(engine):
    ids = store.import_players(engine, pd.DataFrame({"name": [f"P{i}" for i in range(10)]}),
                               actor=ORGANIZER)["player_id"].tolist()
    sitting = tournament.draw_qualifier(engine, ids, seed=77, actor=ORGANIZER)
    assert sitting["status"] == "drawn" and int(sitting["seed"]) == 77
    seats = store.seats(engine, sitting["sitting_id"], actor=ORGANIZER)
    again = draw.draw_sitting(ids, tournament.enabled_setups(engine), seed=77, setup_counts={})
    assert seats["player_id"].tolist() == again.seats["player_id"].tolist()
    assert store.seats(engine, sitting["sitting_id"]).empty, "spectators see no draft"


def test_R6_override_warnings(engine):
    store.set_settings(engine, {"enabled_setups": ["legacy", "uprising", "legacy-ix"]},
                       actor=ORGANIZER)
    ids = store.import_players(engine, pd.DataFrame({"name": [f"P{i}" for i in range(8)]}),
                               actor=ORGANIZER)["player_id"].tolist()
    sitting = tournament.draw_qualifier(engine, ids, seed=5, actor=ORGANIZER)
    tables = store.tables(engine, sitting["sitting_id"], actor=ORGANIZER)
    first, second = tables["table_id"].tolist()
    other_setup = tables.set_index("table_id").loc[second, "setup_id"]
    warnings = tournament.override_warnings(engine, first, other_setup)
    assert any("Another table" in w for w in warnings)
    unused = ({"legacy", "uprising", "legacy-ix"} - set(tables["setup_id"])).pop()
    assert tournament.override_warnings(engine, first, unused) == []


def test_preview_result_scores_a_half_filled_form():
    rows = pd.DataFrame({"player_id": [1, 2, 3], "vp": [10, None, 4], "spice": [0, 0, 0],
                         "solari": [0, 0, 0], "troops": [0, 0, 0], "water": [0, 0, 0]})
    preview = tournament.preview_result(rows)
    assert preview["placing"].tolist() == [1, 3, 2]
    assert preview["qualifier_score"].tolist() == [26, 10, 19]


@pytest.mark.slow
def test_R16_R18_finals_from_cut_to_final_standings(demo_engine):
    view = tournament.finals(demo_engine)
    assert view.format.direct == 3 and view.format.semifinal == 8
    assert view.final_players is None, "the semifinal decides the last seat"
    semi = tournament.draw_semifinal(demo_engine, seed=1, actor=ORGANIZER)
    store.publish_sitting(demo_engine, semi["sitting_id"], actor=ORGANIZER)
    _enter_all(demo_engine, semi["sitting_id"])
    view = tournament.finals(demo_engine)
    assert len(view.final_players) == 4
    final = tournament.draw_final(demo_engine, seed=2, actor=ORGANIZER)
    store.publish_sitting(demo_engine, final["sitting_id"], actor=ORGANIZER)
    _enter_all(demo_engine, final["sitting_id"])
    view = tournament.finals(demo_engine)
    table = view.final_standings
    assert len(table) == 24 and table["final_rank"].tolist()[:4] == [1, 2, 3, 4]
    assert set(table["player_id"].head(4)) == set(view.final_players)


@pytest.mark.slow
def test_R17_absent_finalist_replaced_by_wildcard(demo_engine):
    table = tournament.standings_table(demo_engine)
    store.mark_absent(demo_engine, int(table["player_id"].iloc[0]), actor=ORGANIZER)
    view = tournament.finals(demo_engine)
    assert view.entrants["wildcard"].sum() == 1
    assert int(table["player_id"].iloc[0]) not in view.entrants["player_id"].tolist()


def _enter_all(engine, sitting_id):
    """Every table of a sitting gets a result with distinct VP (no ties)."""
    tables = store.tables(engine, sitting_id, actor=ORGANIZER)
    seats = store.seats(engine, sitting_id, actor=ORGANIZER)
    for table_id, leaders in zip(tables["table_id"], tables["available_leaders"]):
        at = seats.loc[seats["table_id"] == table_id]
        rows = pd.DataFrame({"player_id": at["player_id"].to_numpy(),
                             "leader": leaders[:len(at)], "vp": range(10, 10 - len(at), -1),
                             "spice": 0, "solari": 0, "troops": 0, "water": 0})
        store.submit_table_result(engine, int(table_id), rows, expected_version=0,
                                  submission_id=None, actor=JUDGE)


@pytest.mark.slow
def test_R11_R16_unsettled_semifinal_tie_blocks_the_final_not_the_finals_view(engine):
    """A semifinal whose first place is tied (R11) without a settled order (the store refuses
    one now; a database written by an earlier STSA may hold one) cannot set the final table:
    the finals view says why instead of failing, and the final cannot be drawn until settled."""
    ids = store.import_players(engine, pd.DataFrame({"name": [f"P{i}" for i in range(8)]}),
                               actor=ORGANIZER)["player_id"].tolist()
    qualifier = tournament.draw_qualifier(engine, ids, seed=3, actor=ORGANIZER)
    store.publish_sitting(engine, qualifier["sitting_id"], actor=ORGANIZER)
    _enter_all(engine, qualifier["sitting_id"])
    semi = tournament.draw_semifinal(engine, seed=4, actor=ORGANIZER)
    store.publish_sitting(engine, semi["sitting_id"], actor=ORGANIZER)
    table = store.tables(engine, semi["sitting_id"], actor=ORGANIZER).iloc[0]
    seats = store.seats(engine, semi["sitting_id"], actor=ORGANIZER)
    rows = pd.DataFrame({"player_id": seats["player_id"].to_numpy(),
                         "leader": table["available_leaders"][:4], "vp": [9, 9, 5, 3],
                         "spice": 0, "solari": 0, "troops": 0, "water": 0})
    with pytest.raises(TournamentError, match="enter their settled order"):
        store.submit_table_result(engine, int(table["table_id"]), rows, expected_version=0,
                                  submission_id=None, actor=JUDGE)
    store.submit_table_result(engine, int(table["table_id"]),
                              rows.assign(tiebreak=[1, 2, None, None]), expected_version=0,
                              submission_id=None, actor=JUDGE)
    with engine.begin() as conn:  # the order as an earlier STSA left it: not recorded
        conn.execute(sa.update(schema.results).values(tiebreak=None))
    assert store.sitting(engine, semi["sitting_id"])["status"] == "complete"

    view = tournament.finals(engine)
    assert view.final_players is None
    assert "tied" in view.final_blocker
    with pytest.raises(TournamentError, match="tied"):
        tournament.draw_final(engine, seed=5, actor=ORGANIZER)

    store.submit_table_result(engine, int(table["table_id"]),
                              rows.assign(tiebreak=[1, 2, None, None]), expected_version=1,
                              submission_id=None, actor=JUDGE)
    view = tournament.finals(engine)
    assert view.final_blocker == "" and len(view.final_players) == 4


def _two_tables(engine, enabled):
    store.set_settings(engine, {"enabled_setups": enabled}, actor=ORGANIZER)
    ids = store.import_players(engine, pd.DataFrame({"name": [f"P{i}" for i in range(8)]}),
                               actor=ORGANIZER)["player_id"].tolist()
    sitting = tournament.draw_qualifier(engine, ids, seed=5, actor=ORGANIZER)
    return store.tables(engine, sitting["sitting_id"], actor=ORGANIZER)


def test_R6_R9_override_to_another_deck_draws_its_hidden_picks_afresh(engine):
    tables = _two_tables(engine, ["legacy-ix", "uprising"])
    legacy = tables.loc[tables["setup_id"] == "legacy-ix"].iloc[0]
    out = tournament.override_setup(engine, int(legacy["table_id"]), "uprising",
                                    reason="Box missing", seed=9, actor=ORGANIZER)
    assert out["setup_id"] == "uprising" and out["setup_override"]
    deck = tournament.enabled_setups(engine).set_index("setup_id").loc["uprising"]
    assert len(out["removed_leaders"]) == deck["hidden_picks"]
    assert sorted(out["removed_leaders"] + out["available_leaders"]) == sorted(deck["leader_deck"])
    logged = store.events(engine, action="table.override_setup", actor=ORGANIZER)
    assert logged["after"].iloc[-1]["reason"] == "Box missing"


def test_R6_override_within_the_same_deck_keeps_the_leaders(engine):
    store.set_settings(engine, {"battle_of_wills": True}, actor=ORGANIZER)
    tables = _two_tables(engine, ["legacy-ix", "uprising"])
    table = tables.iloc[0]
    setup = table["setup_id"]
    other = setup.removesuffix("-bow") if setup.endswith("-bow") else f"{setup}-bow"
    out = tournament.override_setup(engine, int(table["table_id"]), other, reason="Players ask",
                                    actor=ORGANIZER)
    assert out["setup_id"] == other
    assert out["removed_leaders"] == table["removed_leaders"]


def test_R6_override_refuses_setups_not_enabled_the_same_setup_and_spectators(engine):
    tables = _two_tables(engine, ["legacy-ix", "uprising"])
    table = tables.iloc[0]
    tid = int(table["table_id"])
    with pytest.raises(TournamentError, match="not an enabled setup"):
        tournament.override_setup(engine, tid, "legacy", reason="x", actor=ORGANIZER)
    with pytest.raises(TournamentError, match="already plays"):
        tournament.override_setup(engine, tid, table["setup_id"], reason="x", actor=ORGANIZER)
    with pytest.raises(TournamentError, match="only"):
        tournament.override_setup(engine, tid, "uprising", reason="x",
                                  actor=Actor("Sam", Role.SPECTATOR))


def test_R3_draw_mode_and_pins_are_logged_with_the_seed(engine):
    ids = store.import_players(engine, pd.DataFrame({"name": [f"P{i}" for i in range(8)]}),
                               actor=ORGANIZER)["player_id"].tolist()
    store.set_settings(engine, {"draw_mode": "balanced"}, actor=ORGANIZER)
    tournament.draw_qualifier(engine, ids, seed=9, pins={ids[0]: 2}, actor=ORGANIZER)
    event = store.events(engine, actor=ORGANIZER, action="sitting.draw").iloc[-1]
    assert event["after"]["seed"] == 9
    assert event["after"]["mode"] == "balanced"
    assert event["after"]["pins"] == {str(ids[0]): 2}
