"""Saves land where the judge meant (R19, R20), checked below the page: a save names the
seating its form was opened on and is refused when the table changed since; a correction of a
complete sitting needs a confirmation; once the finals are drawn only the organizer corrects a
qualifier result, after seeing what it changes, and the log flags it; the store's role checks
follow R20. Store tests run on SQLite and PostgreSQL."""

import ast
from pathlib import Path

import pandas as pd
import pytest

from stsa import store
from stsa.domain import Stage
from stsa.services import corrections, draws, finals, log, results
from stsa.store.game_results import SeatingChanged, seating_changes
from tests.support.store_helpers import (
    JUDGE,
    ORGANIZER,
    SPECTATOR,
    add_players,
    published_sitting,
    rows_for,
)

ROOT = Path(__file__).resolve().parents[2]
ONLY_THE_ORGANIZER = "Only the organizer can correct a qualifier result once the finals are drawn."


def _seated(engine, table_id) -> pd.DataFrame:
    return store.seats(engine, table_id=table_id, actor=ORGANIZER).sort_values("seat")


def _seating(engine, table_id) -> dict[int, int]:
    seats = _seated(engine, table_id)
    return dict(zip(seats["seat"].astype(int), seats["player_id"].astype(int)))


@pytest.fixture
def table(engine):
    """The first table (four players) of a published 8-player qualifier."""
    _, tables = published_sitting(engine, 8)
    return int(tables["table_id"][0])


# --- the seating a form was opened on (R3, R19) ------------------------------------------------

def test_a_save_from_before_a_seat_was_left_empty_is_refused_then_lands_by_player(engine,
                                                                                  table):
    """The organizer leaves seat 2 empty while a judge's form is open: the players after it
    move up a seat. The judge's save names the seating the form showed and is refused like a
    conflict, saying what changed; saved again on the new seating, each player keeps the
    numbers typed for them."""
    opened, names = _seating(engine, table), dict(zip(_seated(engine, table)["player_id"],
                                                     _seated(engine, table)["name"]))
    typed = rows_for(engine, table)
    gone = opened[2]
    store.leave_seat_empty(engine, table, 2, actor=ORGANIZER)
    kept = [r for r in typed if r["player_id"] != gone]
    with pytest.raises(SeatingChanged) as refused:
        store.submit_table_result(engine, table, kept, expected_version=0, submission_id="a",
                                  actor=JUDGE, seating=opened)
    assert isinstance(refused.value, store.ConflictError) and refused.value.current is None
    assert refused.value.changes == [f"seat 2 is now {names[opened[3]]}",
                                     f"seat 3 is now {names[opened[4]]}", "seat 4 is empty now"]
    message = str(refused.value)
    assert message.startswith("The table changed since you opened it (Qualifier 1, table 1): "
                              "seat 2 is now ")
    assert message.endswith("Nothing was saved: check each player's numbers and save again.")
    assert store.table_result(engine, table).version == 0
    assert refused.value.seating == _seating(engine, table)

    out = store.submit_table_result(engine, table, kept, expected_version=0, submission_id="b",
                                    actor=JUDGE, seating=refused.value.seating)
    stored = out.rows.set_index("player_id")
    assert {p: stored.at[p, "vp"] for p in stored.index} == {
        r["player_id"]: r["vp"] for r in kept}
    assert stored.loc[opened[3], "seat"] == 2 and gone not in stored.index


def test_a_replaced_player_refuses_the_save_through_the_service_too(engine, table):
    opened = _seating(engine, table)
    newcomer = add_players(engine, 1, prefix="Late")[0]
    store.check_in(engine, [newcomer], actor=ORGANIZER)
    store.replace_player(engine, table, 2, newcomer, actor=ORGANIZER)
    rows = pd.DataFrame(rows_for(engine, table))
    with pytest.raises(SeatingChanged, match="seat 2 is now Late 0000") as refused:
        results.submit_result(engine, table, rows, expected_version=0, submission_id=None,
                              actor=JUDGE, seating=opened)
    assert refused.value.changes == ["seat 2 is now Late 0000"]
    assert store.table_result(engine, table).version == 0
    saved = results.submit_result(engine, table, rows, expected_version=0, submission_id=None,
                                  actor=JUDGE, seating=_seating(engine, table))
    assert saved.version == 1


def test_an_unchanged_seating_saves_and_a_bad_one_is_refused(engine, table):
    rows = rows_for(engine, table)
    with pytest.raises(store.TournamentError, match="names a player twice"):
        store.submit_table_result(engine, table, rows, expected_version=0, submission_id=None,
                                  actor=JUDGE, seating={1: 5, 2: 5})
    with pytest.raises(store.TournamentError, match="seat to its player"):
        store.submit_table_result(engine, table, rows, expected_version=0, submission_id=None,
                                  actor=JUDGE, seating=[1, 2])
    assert store.submit_table_result(engine, table, rows, expected_version=0, submission_id=None,
                                     actor=JUDGE, seating=_seating(engine, table)).version == 1


def test_seating_changes_in_words():
    names = {1: "Ann", 2: "Bo", 3: "Cy", 4: "Di", 9: "Ed"}
    assert seating_changes({1: 1, 2: 2, 3: 3, 4: 4}, {1: 1, 2: 2, 3: 3, 4: 4}, names) == []
    assert seating_changes({1: 1, 2: 2, 3: 3, 4: 4}, {1: 1, 2: 3, 3: 4}, names) == [
        "seat 2 is now Cy", "seat 3 is now Di", "seat 4 is empty now"]
    assert seating_changes({1: 1, 2: 2, 3: 3}, {1: 1, 2: 9, 3: 3}, {}) == ["seat 2 is now player 9"]


# --- a complete sitting (R19) ------------------------------------------------------------------

def test_a_correction_of_a_complete_sitting_needs_the_confirmation(demo_copy):
    engine = demo_copy()
    stored = store.results(engine)
    game = stored.loc[stored["sitting_no"] == 1, "game_id"].iloc[0]
    rows = stored.loc[stored["game_id"] == game, ["player_id", "leader", *results.STATS,
                                                  "variant_points", "tiebreak"]]
    fixed = rows.assign(vp=rows["vp"] + 1)
    version = int(stored.loc[stored["game_id"] == game, "version"].iloc[0])
    with pytest.raises(store.InvalidState, match="Qualifier 1 is complete: confirm"):
        results.submit_result(engine, int(game), fixed, expected_version=version,
                              submission_id=None, actor=JUDGE)
    assert store.table_result(engine, int(game)).version == version
    saved = results.submit_result(engine, int(game), fixed, expected_version=version,
                                  submission_id=None, actor=JUDGE, confirm_complete=True)
    assert saved.version == version + 1


# --- once the finals are drawn (R16, R20) ------------------------------------------------------

@pytest.fixture
def finals_drawn(demo_copy):
    """The demo (24 players, three complete qualifiers) with its semifinal drawn."""
    engine = demo_copy()
    finals.draw_semifinal(engine, seed=5, actor=ORGANIZER)
    return engine


def _outsider_win(engine):
    """The best player below the cut, and the rows of their first qualifier game with their VP
    raised to 40: a correction that takes them to the top of the standings."""
    table = results.standings_table(engine)
    outsider = table.loc[table["zone"] == Stage.OUT].iloc[0]
    stored = store.results(engine)
    game = stored.loc[stored["player_id"] == outsider["player_id"]].iloc[0]
    rows = stored.loc[stored["game_id"] == game["game_id"],
                      ["player_id", "leader", *results.STATS, "variant_points", "tiebreak"]]
    rows = rows.assign(vp=rows["vp"].where(rows["player_id"] != outsider["player_id"], 40))
    where = f"Qualifier {game['sitting_no']}, table {game['table_no']}"
    return outsider, int(game["game_id"]), int(game["version"]), rows.reset_index(drop=True), where


def test_a_judge_cannot_correct_a_qualifier_once_the_finals_are_drawn(finals_drawn):
    engine = finals_drawn
    _, game, version, rows, where = _outsider_win(engine)
    for save in (lambda: results.submit_result(
                     engine, game, rows, expected_version=version, submission_id=None,
                     actor=JUDGE, confirm_complete=True, confirm_after_finals=True),
                 lambda: store.submit_table_result(engine, game, rows, expected_version=version,
                                                   submission_id=None, actor=JUDGE)):
        with pytest.raises(store.PermissionDenied) as refused:
            save()
        assert str(refused.value).startswith(ONLY_THE_ORGANIZER)
        assert where in str(refused.value)
    assert store.table_result(engine, game).version == version


@pytest.mark.slow
def test_the_organizer_sees_what_a_late_correction_changes_confirms_and_it_is_flagged(
        finals_drawn):
    engine = finals_drawn
    outsider, game, version, rows, where = _outsider_win(engine)
    impact = results.correction_impact(engine, game, rows)
    assert impact.finals == ["Semifinal (drawn, not published yet)"]
    moved = impact.changes.set_index("Player").loc[outsider["name"]]
    assert moved["Rank before"] == outsider["rank"] and moved["Rank after"] == 1
    assert (moved["Cut before"], moved["Cut after"]) == ("out of the finals", "the final")
    assert (moved["Finals before"], moved["Finals after"]) == ("no finals seat", "the final")
    assert len(impact.changes) > 1  # someone else loses a place
    assert impact.words.startswith("It moves ") and outsider["name"] in impact.words

    with pytest.raises(store.InvalidState, match="the finals are drawn .*confirm it"):
        results.submit_result(engine, game, rows, expected_version=version, submission_id=None,
                              actor=ORGANIZER, confirm_complete=True)
    assert store.table_result(engine, game).version == version
    saved = results.submit_result(engine, game, rows, expected_version=version,
                                  submission_id=None, actor=ORGANIZER, confirm_complete=True,
                                  confirm_after_finals=True)
    assert saved.version == version + 1
    assert results.standings_table(engine).iloc[0]["player_id"] == outsider["player_id"]

    logged = store.events(engine, action="result.correct", actor=ORGANIZER).iloc[-1]
    assert logged["after"]["after_finals"] == {"table": where, "finals": ["Semifinal"],
                                               "changes": impact.words}
    places = log.Places(tables={game: where})
    words = log.sentence("result.correct", f"table {game}", logged["before"], logged["after"],
                         places)
    assert words.startswith(f"{log.LATE}: Corrected the result of {where} (version ")
    assert words.endswith(impact.words)
    for who in (ORGANIZER, JUDGE):
        lines = log.late_corrections(engine, actor=who)
        assert len(lines) == 1
        assert lines[0].startswith(f"{log.LATE}: {where}, by Olga on ")
        assert lines[0].endswith(impact.words)
    with pytest.raises(store.PermissionDenied):
        log.late_corrections(engine, actor=SPECTATOR)


@pytest.mark.slow
def test_before_the_finals_and_for_finals_tables_nothing_changes(demo_copy):
    engine = demo_copy()
    _, game, version, rows, _ = _outsider_win(engine)
    assert results.correction_impact(engine, game, rows) is None
    saved = results.submit_result(engine, game, rows, expected_version=version,
                                  submission_id=None, actor=JUDGE, confirm_complete=True)
    assert "after_finals" not in store.events(engine, action="result.correct",
                                              actor=ORGANIZER).iloc[-1]["after"]
    assert saved.version == version + 1 and log.late_corrections(engine, actor=JUDGE) == []
    semi = finals.draw_semifinal(engine, seed=5, actor=ORGANIZER)
    draws.publish(engine, semi["sitting_id"], actor=ORGANIZER)
    tid = int(store.tables(engine, semi["sitting_id"], actor=ORGANIZER)["table_id"].iloc[0])
    assert results.correction_impact(engine, tid, pd.DataFrame(rows_for(engine, tid))) is None
    leaders = store.tables(engine, table_id=tid, actor=ORGANIZER)["available_leaders"].iloc[0]
    first = [{**r, "leader": name} for r, name in zip(rows_for(engine, tid), leaders)]
    store.submit_table_result(engine, tid, first, expected_version=0, submission_id=None,
                              actor=JUDGE)
    fixed = [{**r, "vp": r["vp"] + 1} for r in first]
    assert store.submit_table_result(engine, tid, fixed, expected_version=1, submission_id=None,
                                     actor=JUDGE).version == 2  # a semifinal's own judges


# --- the store's role checks follow R20 --------------------------------------------------------

def test_R20_only_the_organizer_changes_a_tables_setup(engine, table):
    for change in (lambda who: store.override_setup(engine, table, "Uprising", reason="box",
                                                    actor=who),
                   lambda who: corrections.override_setup(engine, table, "uprising",
                                                              reason="box", actor=who)):
        with pytest.raises(store.PermissionDenied, match="only the organizer"):
            change(JUDGE)
    assert store.override_setup(engine, table, "Uprising", reason="box",
                                actor=ORGANIZER)["setup_override"]


def test_R20_only_the_organizer_reads_the_whole_log(engine, table):
    for who in (JUDGE, SPECTATOR):
        with pytest.raises(store.PermissionDenied):
            store.events(engine, actor=who)
        with pytest.raises(store.PermissionDenied):
            log.events(engine, actor=who)
    assert len(log.events(engine, actor=ORGANIZER, action="sitting.")) == 2


#: What judges do (R20: entering results and their tables' leader picks, R10); everything
#: else the store and the services allow is the organizer's.
JUDGES_MAY = {"enter results", "enter Vote Off votes", "enter Wild Card choices",
              "see leader picks", "see late corrections",
              "run the clock"}  # R26: judges start, pause and extend a sitting's clock


def _words(node: ast.expr) -> str:
    """The action's English words: a literal, or one marked for translation (N_("…"))."""
    return node.args[0].value if isinstance(node, ast.Call) else node.value


def _require_calls():
    for path in sorted([*(ROOT / "stsa" / "store").glob("*.py"),
                        *(ROOT / "stsa" / "services").glob("*.py")]):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "require":
                roles = {a.attr for a in node.args[1:] if isinstance(a, ast.Attribute)}
                action = next((_words(k.value) for k in node.keywords if k.arg == "action"),
                              "")
                yield path.relative_to(ROOT), node.lineno, roles, action


@pytest.mark.slow
def test_R20_every_role_check_lets_judges_only_enter_results_and_picks():
    calls = list(_require_calls())
    assert len(calls) > 20
    wrong = [(str(p), line, action) for p, line, roles, action in calls
             if "JUDGE" in roles and action not in JUDGES_MAY]
    assert not wrong, wrong
    assert not [c for c in calls if "SPECTATOR" in c[2]], "spectators write nothing"
    organizer = {action for _, _, roles, action in calls if roles == {"ORGANIZER"}}
    assert {"change a table's setup", "read the log", "save draws", "change settings",
            "change the roster"} <= organizer


def test_a_judge_still_enters_and_corrects_results_before_the_finals(engine, table):
    rows = rows_for(engine, table)
    store.submit_table_result(engine, table, rows, expected_version=0, submission_id=None,
                              actor=JUDGE)
    rows[0]["vp"] += 1
    out = results.submit_result(engine, table, pd.DataFrame(rows), expected_version=1,
                                submission_id=None, actor=JUDGE,
                                seating=_seating(engine, table))
    assert out.version == 2 and out.saved_by == JUDGE.name


def test_every_text_box_on_the_pages_has_a_length_limit():
    """Text a person types is cut at what the store keeps (a reason, a name, a search)."""
    unlimited = []
    for path in sorted([*(ROOT / "views").glob("*.py"), *(ROOT / "stsa" / "ui").glob("*.py")]):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", None) in (
                    "text_input", "text_area") and not any(
                    k.arg == "max_chars" for k in node.keywords):
                unlimited.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not unlimited, unlimited
