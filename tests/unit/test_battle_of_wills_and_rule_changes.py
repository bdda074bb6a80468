"""Battle of Wills by stage (R23) and a sitting's rule change (R24): the setting and how an old
on/off reads, each stage's setup pool, the R6 balance counted per stage, the rule change set
before publishing only, and variant points only in a sitting with a rule change (R12)."""

import json
import sqlite3
from pathlib import Path

import pandas as pd
import pytest

from stsa import store
from stsa.catalog import BOW_SUFFIX
from stsa.domain import BattleOfWills, Kind, SittingStatus
from stsa.errors import TournamentError
from stsa.services import corrections, draws, finals, log, results, setups
from stsa.settings import REGISTRY
from tests.support.store_helpers import (
    JUDGE,
    ORGANIZER,
    SPECTATOR,
    add_players,
    published_sitting,
    rows_for,
)
from tests.unit.test_store import _v1_file

KINDS = (Kind.QUALIFIER, Kind.SEMIFINAL, Kind.FINAL)


def _bow(frame: pd.DataFrame) -> pd.Series:
    return frame["setup_id"].str.endswith(BOW_SUFFIX)


def _raw_setting(engine, key: str, value) -> None:
    """A setting as an earlier release stored it, written beside STSA (SQLite file)."""
    con = sqlite3.connect(Path(engine.url.database))
    con.execute("INSERT INTO settings (key, value, updated_by, updated_at) VALUES (?, ?, ?, ?)",
                (key, json.dumps(value), "Olga", "2025-03-01 10:00:00.000000"))
    con.commit()
    con.close()


# --- R23: the setting --------------------------------------------------------------------------

def test_R23_the_default_is_the_final_rounds_only(sqlite_engine):
    assert store.settings(sqlite_engine)["battle_of_wills"] == BattleOfWills.FINALS == "finals"


@pytest.mark.parametrize("old, reads", [(True, "both"), (False, "finals")])
def test_R23_an_old_on_off_setting_reads_as_stages(sqlite_engine, old, reads):
    _raw_setting(sqlite_engine, "battle_of_wills", old)
    assert store.settings(sqlite_engine)["battle_of_wills"] == reads
    # Saving what it reads as changes nothing, so nothing is logged.
    store.set_settings(sqlite_engine, {"battle_of_wills": reads}, actor=ORGANIZER)
    assert store.events(sqlite_engine, actor=ORGANIZER, action="settings.change").empty


def test_R23_R24_a_version_1_file_with_battle_of_wills_on_opens_and_keeps_working(tmp_path):
    """A tournament file of the first schema, Battle of Wills on, a result with variant points
    in a sitting that (like every sitting then) names no rule change: it opens, Battle of
    Wills is on in every stage, and that table's result can still be corrected as it was."""
    path = tmp_path / "spring-open.db"
    _v1_file(path)
    con = sqlite3.connect(path)
    con.execute("INSERT INTO settings VALUES ('battle_of_wills', 'true', 'Olga', "
                "'2025-03-01 10:00:00.000000')")
    con.commit()
    con.close()
    engine = store.connect(f"sqlite:///{path}", backup_dir=tmp_path / "b")
    try:
        settings = store.settings(engine)
        assert settings["battle_of_wills"] == "both"
        assert all(_bow(setups.from_settings(settings, kind)).any() for kind in KINDS)
        assert store.sitting(engine, 1)["rule_change"] == ""
        fixed = pd.DataFrame(rows_for(engine, 1)).assign(leader=list("ABC"),
                                                         variant_points=[0, 2, 0])
        saved = results.submit_result(engine, 1, fixed, expected_version=1,
                                      submission_id=None, actor=JUDGE, confirm_complete=True)
        assert saved.version == 2
        assert store.results(engine)["variant_points"].tolist() == [0, 2, 0]
    finally:
        engine.dispose()


def test_R23_an_old_workbook_or_file_setting_passes_the_check():
    """A restore checks each setting with the store's own check: an old true/false passes and
    means both / the final rounds; anything else is refused, naming the choices."""
    check = REGISTRY["battle_of_wills"].check
    assert (check(True), check(False)) == ("both", "finals")
    assert [check(v) for v in ("qualifiers", "finals", "both")] == \
        ["qualifiers", "finals", "both"]
    with pytest.raises(ValueError, match="must be one of qualifiers, finals, both"):
        check("semifinal")


def test_R23_a_choice_is_saved_and_logged(sqlite_engine):
    store.set_settings(sqlite_engine, {"battle_of_wills": "qualifiers"}, actor=ORGANIZER)
    assert store.settings(sqlite_engine)["battle_of_wills"] == "qualifiers"
    logged = store.events(sqlite_engine, actor=ORGANIZER, action="settings.change").iloc[-1]
    assert (logged["before"], logged["after"]) == ({"battle_of_wills": "finals"},
                                                   {"battle_of_wills": "qualifiers"})


# --- R23: each stage's setup pool --------------------------------------------------------------

@pytest.mark.parametrize("choice, with_bow", [
    ("finals", {Kind.SEMIFINAL, Kind.FINAL}),
    ("qualifiers", {Kind.QUALIFIER}),
    ("both", set(KINDS)),
    (True, set(KINDS)),  # an old "on" that was never saved again
    (False, {Kind.SEMIFINAL, Kind.FINAL}),
])
def test_R23_each_stage_draws_from_its_own_pool(choice, with_bow):
    settings = {**store.DEFAULT_SETTINGS, "enabled_setups": ["legacy", "uprising"],
                "battle_of_wills": choice}
    for kind in KINDS:
        pool = setups.from_settings(settings, kind)
        expected = (["legacy", "uprising", "legacy-bow", "uprising-bow"] if kind in with_bow
                    else ["legacy", "uprising"])
        assert pool["setup_id"].tolist() == expected, kind


def _finals_ready(demo_copy, stages: str):
    """The demo's three complete qualifiers, one enabled setup, Battle of Wills in `stages`."""
    engine = demo_copy(sittings=3)
    store.set_settings(engine, {"enabled_setups": ["legacy"], "battle_of_wills": stages},
                       actor=ORGANIZER)
    return engine


@pytest.mark.slow
def test_R23_the_final_rounds_play_battle_of_wills_by_default(demo_copy):
    engine = _finals_ready(demo_copy, "finals")
    before = store.setup_counts(engine, include_drawn=True)
    semifinal = finals.draw_semifinal(engine, seed=4, actor=ORGANIZER)
    tables = store.tables(engine, semifinal["sitting_id"], actor=ORGANIZER)
    # Two setups to draw from (legacy and its Battle of Wills version), no two tables alike
    # while there are enough: the first two tables play one of each.
    assert set(tables["setup_id"].head(2)) == {"legacy", "legacy-bow"}
    # R6: the qualifier balance counts qualifier tables only; the semifinal changes nothing.
    assert store.setup_counts(engine, include_drawn=True) == before
    # A semifinal table may be hand-set to the Battle of Wills version.
    table = tables.loc[tables["setup_id"] == "legacy"].iloc[0]
    changed = corrections.override_setup(engine, int(table["table_id"]), "legacy-bow",
                                      reason="room", actor=ORGANIZER, seed=1)
    assert changed["setup_id"] == "legacy-bow"


def test_R23_qualifiers_only_keeps_it_out_of_the_final_rounds(demo_copy):
    engine = _finals_ready(demo_copy, "qualifiers")
    semifinal = finals.draw_semifinal(engine, seed=4, actor=ORGANIZER)
    tables = store.tables(engine, semifinal["sitting_id"], actor=ORGANIZER)
    assert set(tables["setup_id"]) == {"legacy"}
    with pytest.raises(TournamentError, match="not an enabled setup"):
        corrections.override_setup(engine, int(tables["table_id"].iloc[0]), "legacy-bow",
                                reason="room", actor=ORGANIZER, seed=1)


def test_R23_qualifiers_under_the_default_never_play_it(sqlite_engine):
    ids = add_players(sqlite_engine, 16)
    drawn = draws.draw_qualifier(sqlite_engine, ids, seed=9, actor=ORGANIZER)
    tables = store.tables(sqlite_engine, drawn["sitting_id"], actor=ORGANIZER)
    assert not _bow(tables).any()
    warnings = corrections.override_warnings(sqlite_engine, int(tables["table_id"].iloc[0]),
                                          "legacy-bow")
    assert any("not an enabled setup" in w for w in warnings)


def test_R6_counts_per_stage_when_the_qualifiers_take_battle_of_wills_on(demo_copy):
    """Turned on for the qualifiers after three of them, the new versions have been played
    0 times: R6's balance deals them first, counted against the qualifiers only."""
    engine = demo_copy(sittings=3)
    before = store.setup_counts(engine)
    assert not any(s.endswith("-bow") for s in before)
    store.set_settings(engine, {"battle_of_wills": "both"}, actor=ORGANIZER)
    ids = store.players(engine, actor=ORGANIZER)["player_id"].tolist()
    drawn = draws.draw_qualifier(engine, ids, seed=12, actor=ORGANIZER)
    tables = store.tables(engine, drawn["sitting_id"], actor=ORGANIZER)
    assert _bow(tables).all() and tables["setup_id"].is_unique
    counts = pd.Series(store.setup_counts(engine, include_drawn=True))
    pool = setups.from_settings(store.settings(engine), Kind.QUALIFIER)["setup_id"]
    counts = counts.reindex(pool, fill_value=0)
    assert counts.max() - counts.min() <= 2  # 3 sittings of 6 tables on 16, then 6 of 16 new


# --- R24: a sitting's rule change --------------------------------------------------------------

def _drawn(engine, n=8):
    ids = add_players(engine, n)
    return draws.draw_qualifier(engine, ids, seed=5, actor=ORGANIZER)


def test_R24_the_organizer_sets_a_rule_change_before_publishing(engine):
    sitting = _drawn(engine)
    sid = sitting["sitting_id"]
    assert (sitting["rule_change"], sitting["rule_change_points"]) == ("", "")
    saved = draws.set_rule_change(engine, sid, "  Spice   must flow ",
                                     "1 point per spice left", actor=ORGANIZER)
    assert (saved["rule_change"], saved["rule_change_points"]) == \
        ("Spice must flow", "1 point per spice left")
    frame = store.sittings(engine, actor=ORGANIZER).set_index("sitting_id")
    assert frame.loc[sid, "rule_change"] == "Spice must flow"
    assert frame.loc[sid, "rule_change_points"] == "1 point per spice left"
    assert store.sittings(engine, actor=SPECTATOR).empty  # a draft: spectators see nothing
    logged = store.events(engine, actor=ORGANIZER, action="sitting.rule_change")
    assert len(logged) == 1 and logged["subject"].iloc[0] == f"sitting {sid}"
    assert logged["before"].iloc[0] == {"rule_change": "", "rule_change_points": ""}
    assert logged["after"].iloc[0] == {"rule_change": "Spice must flow",
                                       "rule_change_points": "1 point per spice left"}
    # The same again changes nothing and logs nothing; a redraw keeps the rule change.
    draws.set_rule_change(engine, sid, "Spice must flow", "1 point per spice left",
                             actor=ORGANIZER)
    assert len(store.events(engine, actor=ORGANIZER, action="sitting.rule_change")) == 1
    ids = store.seats(engine, sid, actor=ORGANIZER)["player_id"].tolist()
    redrawn = draws.draw_qualifier(engine, ids, seed=6, actor=ORGANIZER)
    assert redrawn["sitting_id"] == sid and redrawn["rule_change"] == "Spice must flow"
    # Published: everyone sees it; it can no longer change.
    draws.publish(engine, sid, actor=ORGANIZER)
    public = store.sittings(engine, actor=SPECTATOR).set_index("sitting_id")
    assert public.loc[sid, "rule_change"] == "Spice must flow"
    with pytest.raises(store.InvalidState, match="Qualifier 1 is already published: a rule "
                                                 "change is set before the sitting is "
                                                 "published. Nothing was changed."):
        draws.set_rule_change(engine, sid, "Another", "", actor=ORGANIZER)
    assert store.sitting(engine, sid)["rule_change"] == "Spice must flow"
    assert len(store.events(engine, actor=ORGANIZER, action="sitting.rule_change")) == 1


@pytest.mark.parametrize("name, points, message", [
    ("x" * 101, "", "Qualifier 1: the rule change's name is longer than 100 characters."),
    ("Spice", "y" * 201, "Qualifier 1: the line on the extra points is longer than 200 "
                         "characters."),
    ("", "1 point per spice", "Qualifier 1: name the rule change its extra points belong "
                              "to."),
    ("Spice\x00", "", "Qualifier 1: the rule change's name contains a control character."),
])
def test_R24_a_bad_rule_change_is_refused_with_nothing_changed(sqlite_engine, name, points,
                                                               message):
    sid = _drawn(sqlite_engine)["sitting_id"]
    with pytest.raises(TournamentError) as refused:
        draws.set_rule_change(sqlite_engine, sid, name, points, actor=ORGANIZER)
    assert str(refused.value) == message
    assert store.sitting(sqlite_engine, sid)["rule_change"] == ""
    assert store.events(sqlite_engine, actor=ORGANIZER, action="sitting.rule_change").empty


def test_R24_the_longest_texts_fit_and_both_empty_clears_it(sqlite_engine):
    sid = _drawn(sqlite_engine)["sitting_id"]
    saved = draws.set_rule_change(sqlite_engine, sid, "n" * 100, "p" * 200,
                                     actor=ORGANIZER)
    assert (len(saved["rule_change"]), len(saved["rule_change_points"])) == (100, 200)
    cleared = draws.set_rule_change(sqlite_engine, sid, " ", "", actor=ORGANIZER)
    assert (cleared["rule_change"], cleared["rule_change_points"]) == ("", "")


@pytest.mark.parametrize("who", [JUDGE, SPECTATOR])
def test_R24_only_the_organizer_sets_a_rule_change(sqlite_engine, who):
    sid = _drawn(sqlite_engine)["sitting_id"]
    with pytest.raises(store.PermissionDenied):
        draws.set_rule_change(sqlite_engine, sid, "Spice", "", actor=who)


# --- R12, R24: variant points only with a rule change ------------------------------------------

def _published(engine, rule_change: str = ""):
    ids = add_players(engine, 8)
    sitting = draws.draw_qualifier(engine, ids, seed=5, actor=ORGANIZER)
    if rule_change:
        draws.set_rule_change(engine, sitting["sitting_id"], rule_change, "1 a spice",
                                 actor=ORGANIZER)
    draws.publish(engine, sitting["sitting_id"], actor=ORGANIZER)
    return store.tables(engine, sitting["sitting_id"], actor=ORGANIZER)


def _rows(engine, table, **variant):
    """A valid result for `table`, its leaders from the table's own deck."""
    rows = pd.DataFrame(rows_for(engine, int(table["table_id"])))
    return rows.assign(leader=table["available_leaders"][:len(rows)], **variant)


def _save(engine, table, rows, version=0):
    return results.submit_result(engine, int(table["table_id"]), rows,
                                 expected_version=version, submission_id=None, actor=JUDGE)


def test_R24_variant_points_are_refused_without_a_rule_change(sqlite_engine):
    table = _published(sqlite_engine).iloc[0]
    rows = _rows(sqlite_engine, table)
    seats = store.seats(sqlite_engine, table_id=int(table["table_id"]), actor=ORGANIZER)
    rows.loc[1, "variant_points"] = 2
    with pytest.raises(TournamentError) as refused:
        _save(sqlite_engine, table, rows)
    assert str(refused.value) == (
        f"Qualifier 1, table 1: this sitting has no rule change, so nobody earns variant "
        f"points: enter 0 variant points for seat 2 ({seats['name'].iloc[1]}). Nothing was "
        f"saved.")
    assert store.table_result(sqlite_engine, int(table["table_id"])).version == 0
    # Zeros (or no column at all) are the usual result and save.
    assert _save(sqlite_engine, table, rows.assign(variant_points=0)).version == 1


def test_R24_variant_points_are_entered_with_a_rule_change(sqlite_engine):
    table = _published(sqlite_engine, "Spice must flow").iloc[0]
    rows = _rows(sqlite_engine, table, variant_points=[3, 0, -1, 0])
    assert _save(sqlite_engine, table, rows).version == 1
    stored = store.results(sqlite_engine, None)
    assert sorted(stored["variant_points"]) == [-1, 0, 0, 3]


def test_R24_a_sitting_from_before_rule_changes_keeps_its_variant_points(sqlite_engine):
    """Results saved with variant points before sittings named their rule changes (straight
    through the store here): that sitting's other tables and corrections still take them."""
    _, tables = published_sitting(sqlite_engine, 8)
    first, second = tables.iloc[0], tables.iloc[1]
    old = rows_for(sqlite_engine, int(first["table_id"]), seat1={"variant_points": 2})
    store.submit_table_result(sqlite_engine, int(first["table_id"]), old, expected_version=0,
                              submission_id=None, actor=JUDGE)
    again = pd.DataFrame(old).assign(vp=[12, 8, 7, 6])
    assert _save(sqlite_engine, first, again, version=1).version == 2
    other = pd.DataFrame(rows_for(sqlite_engine, int(second["table_id"]),
                                  seat3={"variant_points": 1}))
    assert _save(sqlite_engine, second, other).version == 1


def test_R24_the_sittings_frame_carries_the_rule_change_for_the_result_form(sqlite_engine):
    _published(sqlite_engine, "Spice must flow")
    frame = store.sittings(sqlite_engine, actor=JUDGE)
    assert {"rule_change", "rule_change_points"} <= set(frame.columns)
    assert frame["rule_change"].tolist() == ["Spice must flow"]
    assert frame["status"].tolist() == [SittingStatus.PUBLISHED]


def test_R23_R24_the_log_says_them_in_words():
    places = log.Places(sittings={3: "Qualifier 2"})
    assert log.sentence("settings.change", "settings", {"battle_of_wills": True},
                        {"battle_of_wills": "qualifiers"}, places) == (
        "Changed the settings: Battle of Wills Yes → The qualifiers.")  # an old on, then
    was = {"rule_change": "Spice must flow", "rule_change_points": "1 a spice"}
    assert log.sentence("sitting.rule_change", "sitting 3", was,
                        {"rule_change": "", "rule_change_points": ""}, places) == (
        "Removed the rule change of Qualifier 2 (it was: Spice must flow: 1 a spice).")
    assert log.sentence("sitting.rule_change", "sitting 3",
                        {"rule_change": "", "rule_change_points": ""},
                        {"rule_change": "Worms", "rule_change_points": ""}, places) == (
        "Set the rule change of Qualifier 2: Worms.")
