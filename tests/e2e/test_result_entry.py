"""The Results page's entry in a real browser (R11, R12, R19): a judge types a whole table with
no run of the server (counted on the server's side), Save is the one run; the placings and
scores the browser previews are the ones the server saves (a full tie settled by order, a
three-player table, the tournament's own base points); what was typed and not saved comes
back after a reload until the judge discards it; the entry has no serious accessibility
problem with its preview, its settled order and its ticks showing."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from stsa import store, tournament
from stsa.auth import Actor, Role
from tests.e2e.conftest import (
    ENTRY,
    JUDGE_PIN,
    PHONE,
    click,
    enter_result,
    fill_seat,
    go_to,
    leaders,
    load,
    open_table,
    preview,
    published_qualifier,
    seat,
    seat_names,
    type_in,
    wait_ready,
)

pytestmark = pytest.mark.e2e

JUDGE = ("Ana", JUDGE_PIN)
ORGANIZER = Actor("Olivia", Role.ORGANIZER)
NAMES = ["Alia Brandt", "Duncan Moss", "Gurney Hale", "Irulan Reyes", "Jessica Lund",
         "Leto Vance", "Stilgar Ames"]  # seven players: a table of four and one of three
BASE_POINTS = [25, 15, 8, 1]  # the tournament's own (R12), not the default


@pytest.fixture(scope="module")
def counted(tmp_path_factory):
    """An app that logs each script run it starts (`AppServer.script_runs`)."""
    from tests.support.appserver import started

    with started(tmp_path_factory.mktemp("entry"), count_runs=True) as app:
        yield app


@pytest.fixture(scope="module")
def sitting(counted):
    """Qualifier 1 published: a table of four and a table of three, the tournament's own base
    points."""
    with published_qualifier(counted, NAMES, seed=5) as (engine, tables):
        store.set_settings(engine, {"base_points": BASE_POINTS}, actor=ORGANIZER)
        yield engine, tables


def _judge(open_app, counted, table: int):
    page = open_app(as_=JUDGE, app=counted, viewport=PHONE)
    go_to(page, "Results")
    open_table(page, table)
    return page


def _saved(engine, table_id: int) -> dict[int, tuple[int, int, bool]]:
    """What the server stored and scores for a table: seat → (placing, score, tied)."""
    scored = tournament.scored_results(engine)
    rows = scored.loc[scored["game_id"] == table_id]
    return {int(s): (int(p), int(q), bool(t)) for s, p, q, t in
            zip(rows["seat"], rows["placing"], rows["qualifier_score"], rows["tied"])}


def _previewed(page) -> dict[int, tuple[int, int, bool]]:
    """What the browser previews: seat → (placing, score, tied)."""
    return {int(r["Seat"]): (int(r["Placing"]), int(r["Score"]), r["Tied"] != "")
            for r in preview(page)}


def test_a_whole_table_of_four_is_typed_with_no_run_and_saved_with_one(open_app, counted,
                                                                       sitting):
    engine, tables = sitting
    judge = _judge(open_app, counted, 1)
    assert len(seat_names(judge)) == 4
    before = counted.script_runs()
    offered = leaders(judge)
    for n, values in enumerate([(9, 2, 1, 0, 3), (12, 0, 4, 2, 1), (4, 1, 1, 1, 1),
                                (7, 5, 0, 3, 0)], start=1):
        fill_seat(judge, n, values, offered[n - 1])
    assert [r["Player"] for r in preview(judge)][0] == seat_names(judge)[1]  # 12 VP won
    ticks = judge.locator(ENTRY).get_by_role("checkbox")
    assert not [t for t in ticks.all() if t.is_visible()], "a first result asks for no tick"
    assert counted.script_runs() == before, "typing a whole table runs nothing on the server"
    click(judge, "Save result", expect=re.compile(r"saved as version 1"))
    wait_ready(judge)
    assert counted.script_runs() - before == 1, "the save is one run"
    assert store.table_result(engine, tables[1]).version == 1


def test_the_preview_is_what_the_server_saves_a_tie_settled_by_order(open_app, counted,
                                                                    sitting):
    engine, tables = sitting
    judge = _judge(open_app, counted, 1)  # a correction of table 1 (saved above, or now)
    if store.table_result(engine, tables[1]).version == 0:
        enter_result(judge, [(9, 2, 1, 0, 3), (12, 0, 4, 2, 1), (4, 1, 1, 1, 1),
                             (7, 5, 0, 3, 0)], table=1)
        open_table(judge, 1)
    # Seats 2 and 3 equal on all five: the settled order appears, the preview shows the tie.
    for n, values in enumerate([(8, 1, 1, 1, 1), (10, 2, 2, 2, 2), (10, 2, 2, 2, 2),
                                (5, 0, 0, 0, 0)], start=1):
        fill_seat(judge, n, values)
    judge.get_by_text("Seats 2, 3 are equal on VP, spice, solari, troops and water.",
                      exact=False).wait_for()
    tied = _previewed(judge)
    assert tied[2] == tied[3] == (1, BASE_POINTS[0], True), tied
    type_in(judge.locator(ENTRY), f"Settled order of seat 2 ({seat_names(judge)[1]})", 2)
    type_in(judge.locator(ENTRY), f"Settled order of seat 3 ({seat_names(judge)[2]})", 1)
    shown = _previewed(judge)
    assert shown[3][0] == 1 and shown[2][0] == 2 and not shown[2][2], shown
    complete = judge.get_by_role("checkbox", name=re.compile("is complete: yes"))
    if complete.count() and complete.first.is_visible():  # once every table is in
        complete.first.check()
    click(judge, "Save correction", expect=re.compile(r"saved as version 2"))
    assert _saved(engine, tables[1]) == shown, "the browser previewed what the server saved"


def test_the_preview_is_what_the_server_saves_at_a_table_of_three(open_app, counted, sitting):
    engine, tables = sitting
    judge = _judge(open_app, counted, 2)
    assert len(seat_names(judge)) == 3
    enter_result(judge, [(11, 3, 0, 0, 0), (6, 0, 2, 1, 0), (6, 0, 1, 1, 0)], table=2,
                 save=False)
    shown = _previewed(judge)
    assert shown == {1: (1, BASE_POINTS[0] + 5, False), 2: (2, BASE_POINTS[1], False),
                     3: (3, BASE_POINTS[2], False)}, shown  # 3rd of three: no margin (R12)
    click(judge, "Save result", expect=re.compile(r"saved as version 1"))
    assert _saved(engine, tables[2]) == shown


def test_an_unsaved_entry_comes_back_after_a_reload_and_goes_when_discarded(open_app, counted,
                                                                          sitting):
    engine, tables = sitting
    stored = store.table_result(engine, tables[1])
    judge = _judge(open_app, counted, 1)
    before = [seat(judge, n).locator('input[aria-label="VP"]').input_value() for n in (1, 2)]
    type_in(seat(judge, 1), "VP", 17)
    type_in(seat(judge, 2), "VP", 3)
    judge.get_by_text("Not saved yet. What you typed is kept").wait_for()
    load(judge)  # the phone reloads: nothing was sent, the browser kept it
    open_table(judge, 1)
    judge.get_by_text(re.compile(r"^Restored what you typed at \d\d:\d\d and did not save"))\
        .wait_for()
    assert [seat(judge, n).locator('input[aria-label="VP"]').input_value()
            for n in (1, 2)] == ["17", "3"]
    runs = counted.script_runs()
    judge.get_by_role("button", name="Discard my unsaved entry").click()
    assert [seat(judge, n).locator('input[aria-label="VP"]').input_value()
            for n in (1, 2)] == before
    assert not judge.get_by_text(re.compile(r"^Restored what you typed")).is_visible()
    assert counted.script_runs() == runs, "discarding runs nothing on the server"
    load(judge)
    open_table(judge, 1)
    assert not judge.get_by_text(re.compile(r"^Restored what you typed")).count()
    assert store.table_result(engine, tables[1]).version == stored.version, "nothing saved"


def _every_table_saved(engine, tables, judge) -> None:
    """Both tables of Qualifier 1 with a result (the earlier tests save them, or now): the
    sitting is complete, so a correction asks for its tick."""
    for number, values in ((1, [(9, 2, 1, 0, 3), (12, 0, 4, 2, 1), (4, 1, 1, 1, 1),
                                (7, 5, 0, 3, 0)]),
                           (2, [(11, 3, 0, 0, 0), (6, 0, 2, 1, 0), (6, 0, 1, 1, 0)])):
        if store.table_result(engine, tables[number]).version == 0:
            enter_result(judge, values, table=number)


def test_save_correction_says_which_tick_it_waits_for(open_app, counted, sitting):
    """Issue 33: "Save correction" of a complete sitting stays disabled until its tick is set,
    and the words beside it name that tick; they go once it is ticked."""
    engine, tables = sitting
    judge = _judge(open_app, counted, 1)
    _every_table_saved(engine, tables, judge)
    open_table(judge, 1)
    vp = seat(judge, 4).locator('input[aria-label="VP"]')
    type_in(seat(judge, 4), "VP", int(vp.input_value() or 0) + 1)
    save = judge.locator(ENTRY).get_by_role("button", name="Save correction")
    expect(save).to_be_disabled()
    why = judge.locator(f"{ENTRY} .stsa-why")
    expect(why).to_have_text("Tick “Qualifier 1 is complete: yes, correct this result” to "
                             "save.")
    judge.get_by_role("checkbox", name="Qualifier 1 is complete: yes, correct this result") \
        .check()
    expect(save).to_be_enabled()
    expect(why).to_be_hidden()


def test_an_abandoned_correction_comes_back_said_and_can_be_discarded(open_app, counted,
                                                                      sitting):
    """Issue 33: a correction typed (6 → 8) and left for another page is put back when the
    table is opened again, with words that say so and a Discard that brings back the stored
    result (no later "+2" on top of numbers nobody remembers typing)."""
    engine, tables = sitting
    judge = _judge(open_app, counted, 1)
    _every_table_saved(engine, tables, judge)
    open_table(judge, 1)
    vp = seat(judge, 1).locator('input[aria-label="VP"]')
    stored = vp.input_value()
    type_in(seat(judge, 1), "VP", int(stored) + 2)
    judge.get_by_text("Not saved yet. What you typed is kept").wait_for()
    go_to(judge, "Home")  # abandoned: the judge goes elsewhere
    go_to(judge, "Results")
    open_table(judge, 1)
    notice = judge.locator(f"{ENTRY} .stsa-restored")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text(re.compile(
        r"^Restored what you typed at \d\d:\d\d and did not save"))
    assert seat(judge, 1).locator('input[aria-label="VP"]').input_value() == str(int(stored) + 2)
    notice.get_by_role("button", name="Discard").click()
    assert seat(judge, 1).locator('input[aria-label="VP"]').input_value() == stored
    expect(notice).to_be_hidden()


def test_the_entry_has_no_serious_accessibility_violation(open_app, counted, sitting):
    from tests.e2e.test_accessibility import severe_violations

    judge = _judge(open_app, counted, 1)
    for n, values in enumerate([(30, 1, 1, 1, 1), (30, 1, 1, 1, 1)], start=1):
        fill_seat(judge, n, values)  # a tie (the settled order) and unusual numbers (a tick)
    judge.get_by_role("checkbox", name="These numbers are right").wait_for()
    assert not severe_violations(judge)
