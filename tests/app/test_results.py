"""Results page: judges enter a table's result (typed in the browser, previewed there, R11,
R12), settle full ties, resolve another judge's save and correct results (R19); spectators read
published results without removed leaders (R20). AppTest runs no JavaScript: these tests read
what the entry is given and send its Save as the browser does (tests/app/conftest.py), and
check the one run each save costs; the browser side has its tests in tests/e2e."""

import re

import pandas as pd
import pytest

from stsa import catalog, store, tournament
from stsa.auth import Actor, Role
from stsa.services import log
from stsa.store import schema
from stsa.ui import result_form
from tests.app.conftest import (
    JUDGE,
    JUDGE_PIN,
    ORGANIZER,
    entry,
    entry_data,
    entry_values,
    fill_entry,
    save_entry,
    session_for,
)

PAGE = "views/results.py"
OTHER_JUDGE = Actor("Kim Judge", Role.JUDGE)
STATS = ("vp", "spice", "solari", "troops", "water")


def _table(engine, sitting_id, table_no=1):
    tables = store.tables(engine, sitting_id, actor=ORGANIZER)
    table = tables.loc[tables["table_no"] == table_no].iloc[0]
    seats = store.seats(engine, sitting_id, actor=ORGANIZER)
    return table, seats.loc[seats["table_id"] == table["table_id"]].reset_index(drop=True)


def _fill(engine, table, values, leaders=None):
    """values: one (vp, spice, solari, troops, water) per seat, in seat order: as the entry
    sends them, by seat."""
    return fill_entry(engine, table, values, leaders)


def _open_table(open_page, as_, table):
    at = open_page(PAGE, as_=as_)
    at.selectbox(key=f"res_table_{int(table['sitting_id'])}").set_value(int(table["table_id"]))
    return at.run()


VALUES = [(10, 1, 0, 0, 0), (7, 0, 0, 0, 0), (5, 0, 0, 0, 0), (2, 0, 0, 0, 0)]


def _saved(engine, table, by=ORGANIZER, values=VALUES):
    rows = pd.DataFrame([dict(zip(STATS, v)) for v in values]).assign(
        player_id=store.seats(engine, table_id=int(table["table_id"]), actor=ORGANIZER)[
            "player_id"].to_numpy(), leader=table["available_leaders"][:len(values)])
    return store.submit_table_result(engine, int(table["table_id"]), rows, expected_version=0,
                                     submission_id=None, actor=by)


# --- spectators --------------------------------------------------------------------------------

def test_spectator_without_published_sittings_is_told_what_comes(open_page, engine):
    names = pd.DataFrame({"name": [f"P{i}" for i in range(4)]})
    ids = store.import_players(engine, names, actor=ORGANIZER)["player_id"].tolist()
    tournament.draw_qualifier(engine, ids, seed=1, actor=ORGANIZER)  # a draft only
    at = open_page(PAGE)
    assert not at.exception and not at.selectbox
    assert any("No results yet" in i.value for i in at.info)


def test_spectator_reads_results_with_leaders_but_no_removed_leaders(open_page, engine,
                                                                     sitting):
    table, _ = _table(engine, sitting)
    _saved(engine, table)
    at = open_page(PAGE)
    assert not at.exception
    assert not [b for b in at.button], "spectators enter nothing"
    assert not at.number_input and len(at.selectbox) == 1
    shown = at.dataframe[0].value
    assert shown["Placing"].tolist() == [1, 2, 3, 4]
    assert shown["VP"].tolist() == [10, 7, 5, 2]
    assert shown["Score"].tolist() == [23, 17, 13, 0]  # R12: 20+3, 15+2, 10+3, 0
    assert set(shown["Leader"]) == set(table["available_leaders"][:4])
    text = " ".join(map(str, shown.to_numpy().ravel()))
    assert not any(name in text for name in table["removed_leaders"])
    assert any("Waiting for table 2" in c.value for c in at.caption)


def test_a_phone_reads_table_placing_player_vp_and_score_without_a_swipe(open_page, engine,
                                                                         sitting,
                                                                         table_heights):
    """The five columns fill a 390 px phone's table width; the leader, seat and tie flag
    follow; every row shows (no box scrolling inside the page)."""
    import json

    from stsa.ui import tables
    table, _ = _table(engine, sitting)
    _saved(engine, table)
    at = open_page(PAGE)
    frame = at.dataframe[0]
    order = list(frame.proto.column_order)
    assert order[:5] == ["Table", "Placing", "Player", "VP", "Score"]
    assert set(frame.value.columns) <= set(order)
    widths = json.loads(frame.proto.columns)
    assert sum(widths[c]["width"] for c in order[:5]) == tables.PHONE_WIDTH
    assert table_heights == ["content"]


# --- entering a result -------------------------------------------------------------------------

def test_judge_enters_a_result_and_one_run_saves_it(open_page, engine, sitting):
    table, seats = _table(engine, sitting)
    at = _open_table(open_page, JUDGE, table)
    data = entry_data(at)
    assert data["words"]["save"] == "Save result"
    tid = int(table["table_id"])
    assert data["leaders"] == catalog.by_name(table["available_leaders"])  # to find one quickly
    assert [s["name"] for s in data["seats"]] == seats["name"].tolist()
    assert data["fields"] == ["vp", "spice", "solari", "troops", "water"]
    assert data["base_points"] == [20, 15, 10, 0]  # the preview scores by the settings' points
    at = save_entry(at, _fill(engine, table, VALUES))
    assert not at.exception and not at.error
    assert "saved as version 1" in at.success[0].value
    assert "Table 1 is saved. This is table 2, the next waiting for a result." in \
        [i.value for i in at.info]
    stored = store.table_result(engine, tid)
    assert stored.version == 1 and stored.saved_by == JUDGE.name
    assert stored.rows["vp"].tolist() == [10, 7, 5, 2]
    assert [c.value for c in at.caption if "Waiting for" in c.value] == ["Waiting for table 2."]
    # The sitting's results below the entry are drawn again at the page's next run (the save
    # ran the entry's part alone).
    assert at.run().dataframe[-1].value["Score"].tolist() == [23, 17, 13, 0]
    # On to the next table waiting for its result: the judge walks there, the entry is ready.
    other, _ = _table(engine, sitting, table_no=2)
    assert at.selectbox(key=f"res_table_{sitting}").value == int(other["table_id"])
    assert entry_data(at)["words"]["save"] == "Save result"
    at.selectbox(key=f"res_table_{sitting}").set_value(tid).run()
    assert entry_data(at)["words"]["save"] == "Save correction"
    assert entry_values(at)[1]["vp"] == 10


def test_the_browser_is_told_to_drop_the_saved_tables_draft(open_page, engine, sitting):
    table, _ = _table(engine, sitting)
    at = save_entry(_open_table(open_page, JUDGE, table), _fill(engine, table, VALUES))
    forget = entry_data(at)["forget"]
    assert len(forget) == 1 and forget[0].endswith(f"/{int(table['table_id'])}/{JUDGE.name}")
    assert entry_data(at.run())["forget"] == []  # said once


def test_validation_names_seat_and_field_and_saves_nothing(open_page, engine, sitting):
    table, seats = _table(engine, sitting)
    at = _open_table(open_page, JUDGE, table)
    values = _fill(engine, table, VALUES)
    values[2]["vp"] = None
    at = save_entry(at, values)
    message = at.error[0].value
    assert f"seat 2 ({seats['name'][1]}): VP is missing" in message
    assert "Nothing was saved" in message
    assert store.table_result(engine, int(table["table_id"])).version == 0
    assert entry(at) is not None, "the entry stays, with what was typed (in the browser)"


def test_text_that_is_no_number_is_refused_in_words(open_page, engine, sitting):
    """Whatever a browser sends reaches the same checks as a person's numbers."""
    table, seats = _table(engine, sitting)
    values = _fill(engine, table, VALUES)
    values[3]["spice"] = "3.5"
    at = save_entry(_open_table(open_page, JUDGE, table), values)
    assert "spice must be a whole number" in at.error[0].value
    assert store.table_result(engine, int(table["table_id"])).version == 0


def test_whatever_a_browser_sends_is_refused_in_words_and_saves_nothing(open_page, engine,
                                                                        sitting):
    """A hostile or broken browser: junk numbers, a huge text, rows of nobody at the table."""
    table, _ = _table(engine, sitting)
    values = _fill(engine, table, VALUES)
    values[1].update(vp="9" * 5000, spice=[1, 2], solari={"a": 1}, troops=True)
    at = save_entry(_open_table(open_page, JUDGE, table), values)
    assert not at.exception and at.error, [e.value for e in at.error]
    assert "VP must be a whole number" in at.error[0].value
    assert store.table_result(engine, int(table["table_id"])).version == 0


def test_a_leader_can_be_picked_once(open_page, engine, sitting):
    table, _ = _table(engine, sitting)
    at = _open_table(open_page, JUDGE, table)
    twice = [table["available_leaders"][0]] * 2 + table["available_leaders"][1:3]
    at = save_entry(at, _fill(engine, table, VALUES, leaders=twice))
    assert "seat 2" in at.error[0].value and "already taken by seat 1" in at.error[0].value
    assert store.table_result(engine, int(table["table_id"])).version == 0


def test_after_a_correction_the_table_box_stays_and_shows_its_new_label(open_page, engine,
                                                                        sitting):
    """A correction stays on its table, whose label changes with the save; the page sends the
    new label to the browser. (Otherwise the browser keeps showing the old label and sends it
    back at the next change, which matches no option: the form jumped to table 1.)"""
    table, _ = _table(engine, sitting, table_no=2)
    _saved(engine, table)
    at = _open_table(open_page, JUDGE, table)
    at = save_entry(at, {1: {"vp": 11}})
    box = at.selectbox(key=f"res_table_{sitting}")
    assert box.value == int(table["table_id"])
    assert box.proto.set_value and box.proto.raw_value == "Table 2 · reported (version 2)"
    at.run()
    assert at.selectbox(key=f"res_table_{sitting}").value == int(table["table_id"])


def test_after_the_last_tables_first_result_the_form_goes_on_from_the_first(open_page, engine,
                                                                          sitting):
    """Table 2 saved while table 1 still waits: the form goes on to table 1; once no table
    waits, it stays on the table just saved."""
    first, _ = _table(engine, sitting, table_no=1)
    second, _ = _table(engine, sitting, table_no=2)
    at = save_entry(_open_table(open_page, JUDGE, second), _fill(engine, second, VALUES))
    assert at.selectbox(key=f"res_table_{sitting}").value == int(first["table_id"])
    at = save_entry(at, _fill(engine, first, VALUES))
    assert not at.error
    assert at.selectbox(key=f"res_table_{sitting}").value == int(first["table_id"])
    assert not [i for i in at.info if "next waiting" in i.value]


def test_R10_removed_leaders_offered_only_with_wild_card(open_page, engine, sitting):
    table, _ = _table(engine, sitting)
    assert set(entry_data(_open_table(open_page, JUDGE, table))["leaders"]) == \
        set(table["available_leaders"])
    store.set_settings(engine, {"wild_card": True}, actor=ORGANIZER)
    options = entry_data(_open_table(open_page, JUDGE, table))["leaders"]
    assert set(options) == set(table["available_leaders"]) | set(table["removed_leaders"])


def test_R11_full_tie_needs_the_settled_order(open_page, engine, sitting):
    table, _ = _table(engine, sitting)
    tid = int(table["table_id"])
    at = _open_table(open_page, JUDGE, table)
    tie = [(8, 1, 2, 3, 4), (8, 1, 2, 3, 4), (5, 0, 0, 0, 0), (2, 0, 0, 0, 0)]
    at = save_entry(at, _fill(engine, table, tie))
    assert "enter their settled order" in at.error[0].value
    assert store.table_result(engine, tid).version == 0

    values = _fill(engine, table, tie)
    values[1]["tiebreak"], values[2]["tiebreak"], values[3]["tiebreak"] = 2, 1, 1
    at = save_entry(at, values)  # seat 3's order is no tie's: not kept
    assert not at.error
    rows = store.table_result(engine, tid).rows
    assert rows["tiebreak"].tolist()[:2] == [2, 1] and rows["tiebreak"].isna()[2:].all()
    scored = tournament.scored_results(engine).set_index("seat")
    assert scored.loc[2, "placing"] == 1 and scored.loc[1, "placing"] == 2


def test_each_seat_asks_for_the_five_numbers_and_no_variant_points(open_page, engine,
                                                                    sitting):
    table, _ = _table(engine, sitting)
    data = entry_data(_open_table(open_page, JUDGE, table))
    assert [data["words"]["fields"][f] for f in data["fields"]] == \
        ["VP", "Spice", "Solari", "Troops", "Water"]
    assert "variant_points" not in data["fields"]


def _rule_change(engine, sitting_id, text):
    """R24: the sitting's rule change, as the organizer sets it (the column exists; the Draw
    page's setting of it comes with the stages)."""
    with engine.begin() as conn:
        conn.execute(schema.sittings.update().where(schema.sittings.c.id == sitting_id)
                     .values(rule_change=text, rule_change_points="1 per spy recalled"))


def test_R24_a_sittings_rule_change_asks_for_extra_points(open_page, engine, sitting):
    table, _ = _table(engine, sitting)
    tid = int(table["table_id"])
    _rule_change(engine, sitting, "Spies return")
    at = _open_table(open_page, ORGANIZER, table)
    data = entry_data(at)
    assert data["fields"][-1] == "variant_points"
    assert data["words"]["fields"]["variant_points"] == "Rule pts"
    assert "Rule change: Spies return: 1 per spy recalled. Each player's points from it go in " \
           "“Rule pts”." in [c.value for c in at.caption]
    values = _fill(engine, table, VALUES)
    values[4]["variant_points"] = 3
    at = save_entry(at, values)
    assert not at.error
    rows = store.table_result(engine, tid).rows.sort_values("seat")
    assert rows["variant_points"].tolist() == [0, 0, 0, 3]
    shown_scores = at.run().dataframe[-1].value.set_index("VP")["Score"]
    assert shown_scores[2] == 3  # 0 for 4th + 3 (R12)


def test_stored_variant_points_stay_in_view_without_a_rule_change(open_page, engine, sitting):
    """A result holding variant points (entered before the rule change was taken away) shows
    them, so a correction neither hides nor drops them."""
    table, _ = _table(engine, sitting)
    tid = int(table["table_id"])
    rows = pd.DataFrame([dict(zip(STATS, v)) for v in VALUES]).assign(
        player_id=store.seats(engine, table_id=tid, actor=ORGANIZER)["player_id"].to_numpy(),
        leader=table["available_leaders"][:4], variant_points=[0, 0, 2, 0])
    store.submit_table_result(engine, tid, rows, expected_version=0, submission_id=None,
                              actor=ORGANIZER)
    at = _open_table(open_page, JUDGE, table)
    assert "variant_points" in entry_data(at)["fields"]
    assert entry_values(at)[3]["variant_points"] == 2


def test_organizer_enters_a_result_too(open_page, engine, sitting):
    table, _ = _table(engine, sitting, table_no=2)
    at = save_entry(_open_table(open_page, ORGANIZER, table), _fill(engine, table, VALUES))
    assert "saved as version 1" in at.success[0].value
    assert store.table_result(engine, int(table["table_id"])).saved_by == ORGANIZER.name


def test_a_spectator_sees_no_entry_and_a_save_sent_anyway_saves_nothing(open_page, engine,
                                                                        sitting):
    """A browser that sends a Save from a page whose person was signed out meanwhile."""
    table, _ = _table(engine, sitting)
    at = _open_table(open_page, JUDGE, table)
    assert entry(open_page(PAGE)) is None  # spectators get no entry
    at.session_state["session_id"] = "gone"  # signed out meanwhile
    at = save_entry(at, _fill(engine, table, VALUES))
    assert not at.exception and entry(at) is None
    assert store.table_result(engine, int(table["table_id"])).version == 0


# --- corrections and conflicts (R19) -----------------------------------------------------------

def test_correction_loads_the_stored_values_and_logs_a_new_version(open_page, engine, sitting):
    table, _ = _table(engine, sitting)
    tid = int(table["table_id"])
    _saved(engine, table)
    at = _open_table(open_page, ORGANIZER, table)
    values = entry_values(at)
    assert values[1]["vp"] == 10 and values[3]["leader"] == table["available_leaders"][2]
    assert any("Version 1 saved by" in i.value for i in at.info)

    at = save_entry(at)
    assert any("nothing changed since version 1" in i.value for i in at.info)
    assert store.table_result(engine, tid).version == 1

    at = save_entry(at, {1: {"vp": 12}})
    assert "version 2 (a correction)" in at.success[0].value
    assert store.table_result(engine, tid).rows["vp"].tolist()[0] == 12
    corrections = store.events(engine, action="result.correct", actor=ORGANIZER)
    assert len(corrections) == 1
    assert corrections["before"].iloc[0]["rows"][0]["vp"] == 10


def _conflicting(open_page, engine, sitting):
    """Two judges open table 1; Jamal saves first, then Kim saves other values."""
    table, _ = _table(engine, sitting)
    tid = int(table["table_id"])
    jamal = _open_table(open_page, JUDGE, table)
    kim = _open_table(open_page, OTHER_JUDGE, table)
    save_entry(jamal, _fill(engine, table, VALUES))
    assert store.table_result(engine, tid).version == 1
    kim = save_entry(kim, _fill(engine, table, [(11, 0, 0, 0, 0), (7, 0, 0, 0, 0),
                                                (5, 0, 0, 0, 0), (2, 0, 0, 0, 0)]))
    assert not kim.exception
    return table, tid, kim


def test_conflict_shows_both_versions_and_keep_theirs_reloads_them(open_page, engine, sitting):
    table, tid, kim = _conflicting(open_page, engine, sitting)
    assert any("saved by Jamal Judge" in w.value for w in kim.warning)
    assert any("Theirs" in m.value and "version 1" in m.value for m in kim.markdown)
    assert entry_data(kim)["frozen"], "nothing to change until the judge chose"
    differ = kim.dataframe[0].value  # only seat 1's VP and spice differ: nothing else shows
    first = store.seats(engine, table_id=tid, actor=ORGANIZER).sort_values("seat")["name"].iloc[0]
    assert differ.to_dict("records") == [
        {"Player": first, "Field": "VP", "Theirs": "10", "Yours": "11"},
        {"Player": first, "Field": "Spice", "Theirs": "1", "Yours": "0"}]
    assert store.table_result(engine, tid).rows["vp"].tolist()[0] == 10, "nothing overwritten"

    kim.button(key="res_keep_theirs").click().run()
    assert not kim.exception
    data = entry_data(kim)
    assert entry_values(kim)[1]["vp"] == 10 and data["reset"] and not data["frozen"]
    assert data["words"]["save"] == "Save correction"
    assert store.table_result(engine, tid).version == 1
    assert store.events(engine, action="result.correct", actor=ORGANIZER).empty


def test_R19_differences_name_only_the_values_that_differ():
    seats = pd.DataFrame({"player_id": [7, 8, 9], "seat": [1, 2, 3], "name": ["Ana", "Ben",
                                                                               "Cy"]})
    theirs = pd.DataFrame({"player_id": [9, 8, 7], "leader": ["Rhombur", "Ilban", "Paul"],
                           "vp": [5, 6, 9], "spice": [1, 1, 1], "solari": [0, 0, 0],
                           "troops": [2, 2, 2], "water": [0, 0, 0],
                           "variant_points": [0, 0, 0], "tiebreak": [None, None, None]})
    mine = theirs.iloc[::-1].assign(  # another row order, one of everything changed
        leader=["Leto", "Ilban", "Rhombur"], vp=pd.array([9, None, 5], dtype="Int64"),
        tiebreak=pd.array([None, None, 1], dtype="Int64"))
    found = result_form.differences(theirs, mine, seats)
    assert found.to_dict("records") == [
        {"Player": "Ana", "Field": "Leader", "Theirs": "Paul", "Yours": "Leto"},
        {"Player": "Ben", "Field": "VP", "Theirs": "6", "Yours": ""},
        {"Player": "Cy", "Field": "Settled order", "Theirs": "", "Yours": "1"}]
    assert result_form.differences(theirs, theirs, seats).empty


def test_conflict_save_mine_over_theirs_is_a_logged_correction(open_page, engine, sitting):
    table, tid, kim = _conflicting(open_page, engine, sitting)
    kim.button(key="res_save_mine").click().run()
    assert not kim.exception and not kim.error
    stored = store.table_result(engine, tid)
    assert stored.version == 2 and stored.saved_by == OTHER_JUDGE.name
    assert stored.rows["vp"].tolist()[0] == 11
    corrections = store.events(engine, action="result.correct", actor=ORGANIZER)
    assert corrections["actor"].tolist() == [OTHER_JUDGE.name]
    assert corrections["after"][0]["over"] == {"version": 1, "saved_by": JUDGE.name}
    assert not [b for b in kim.button if b.key == "res_save_mine"]
    assert not entry_data(kim)["frozen"]
    events = store.events(engine, actor=ORGANIZER)
    places = log.places_of(store.players(engine, actor=ORGANIZER),
                           store.sittings(engine, actor=ORGANIZER),
                           store.tables(engine, actor=ORGANIZER), events)
    assert any(line.startswith(f"Saved over {JUDGE.name}'s version 1 of the result of "
                               f"Qualifier 1, table 1, after both saved it (version 2): VP "
                               f"10 → 11 for") for line in log.event_sentences(events, places))


def test_a_double_click_stores_once(open_page, engine, sitting):
    """The second press of a double click may come before the first one's run answered: it
    carries the same submission id, so the store keeps one version."""
    table, _ = _table(engine, sitting)
    tid = int(table["table_id"])
    at = _open_table(open_page, JUDGE, table)
    before_save = dict(at.session_state["res_form"])
    at = save_entry(at, _fill(engine, table, VALUES))
    at.session_state["res_form"] = before_save  # as if the first press's run never answered
    at.session_state[f"res_table_{sitting}"] = tid  # (the form had not gone on to table 2)
    at.run()
    at = save_entry(at, _fill(engine, table, VALUES), base={"version": 0, "seating": {}})
    assert not at.exception and not at.error
    assert store.table_result(engine, tid).version == 1
    assert len(store.events(engine, action="result.", actor=ORGANIZER)) == 1


# --- a table slip's QR code: results?table=<table id> ------------------------------------------

def _linked(open_page, as_, table_id, **other):
    """The Results page opened from a slip's QR code."""
    at = open_page(PAGE, as_=as_)
    for name, value in {"table": str(table_id), **other}.items():
        at.query_params[name] = value
    return at.run()


def test_qr_link_opens_that_tables_form_for_a_judge(open_page, engine, sitting):
    table, seats = _table(engine, sitting, table_no=2)
    tid = int(table["table_id"])
    at = _linked(open_page, JUDGE, tid)
    assert not at.exception and not at.warning
    assert at.selectbox(key="res_sitting").value == sitting
    assert at.selectbox(key=f"res_table_{sitting}").value == tid
    assert [s["name"] for s in entry_data(at)["seats"]][0] == seats["name"].iloc[0]
    other = int(_table(engine, sitting, table_no=1)[0]["table_id"])
    at.selectbox(key=f"res_table_{sitting}").set_value(other).run()
    assert at.selectbox(key=f"res_table_{sitting}").value == other, "the link chose once"
    assert at.query_params["table"] == str(tid)


def test_a_qr_link_with_an_old_session_in_it_signs_nobody_in(open_page, engine, db_url,
                                                              sitting):
    """An address of an earlier release carried the session (`?session=`): it still opens the
    table, as a spectator, and the session is dropped from the address unread."""
    table, _ = _table(engine, sitting, table_no=2)
    token = session_for(db_url, ORGANIZER)
    at = _linked(open_page, None, int(table["table_id"]), session=token)
    assert not at.exception
    assert at.session_state["actor"].role is Role.SPECTATOR
    assert "sign in to enter this table's result" in at.info[0].value
    assert "session" not in at.query_params
    assert at.query_params["table"] == str(int(table["table_id"]))


def test_qr_link_asks_a_spectator_to_sign_in(open_page, engine, sitting):
    table, _ = _table(engine, sitting, table_no=2)
    at = _linked(open_page, None, int(table["table_id"]))
    assert not at.exception
    assert "sign in to enter this table's result" in at.info[0].value
    assert [link.proto.label for link in at.get("page_link")] == ["Sign in"]
    assert entry(at) is None and not at.button  # still no entry for spectators
    assert at.query_params["table"] == str(int(table["table_id"]))


def _sign_in_on(at, pin=JUDGE_PIN):
    at.text_input(key="sign_in_name").input("Jamal")
    at.text_input(key="sign_in_pin").input(pin)
    at.button[0].click().run()
    return at


def test_qr_link_signs_in_and_goes_on_to_the_table(open_page, engine, sitting):
    """A judge scans a slip before signing in: the Sign in link keeps the table; after the
    sign-in the judge is at that table's form, signed in."""
    table, seats = _table(engine, sitting, table_no=2)
    tid = int(table["table_id"])
    at = _linked(open_page, None, tid)
    link = at.get("page_link")[0].proto
    assert link.page.endswith("sign_in") and f"table={tid}" in link.query_string
    assert "next=results" in link.query_string

    at = open_page("views/sign_in.py", query={"next": "results", "table": str(tid)})
    assert any("go on to the Results page" in i.value for i in at.info)
    at = _sign_in_on(at)
    assert not at.exception and at.session_state["actor"].role is Role.JUDGE
    assert at.selectbox(key=f"res_table_{sitting}").value == tid
    assert entry_data(at)["seats"][0]["name"] == seats["name"].iloc[0]
    assert at.query_params["table"] == str(tid) and "session" not in at.query_params


def test_sign_in_from_the_menu_after_a_slip_link_goes_on_too(open_page, engine, sitting):
    table, _ = _table(engine, sitting, table_no=2)
    tid = int(table["table_id"])
    at = _linked(open_page, None, tid)
    at.switch_page("views/sign_in.py")
    at = _sign_in_on(at.run())
    assert at.selectbox(key=f"res_table_{sitting}").value == tid


def test_a_plain_sign_in_stays_on_the_sign_in_page(open_page, engine, sitting):
    at = _sign_in_on(open_page("views/sign_in.py"))
    assert any("Signed in as" in m.value for m in at.markdown)
    assert "table" not in at.query_params


def test_sign_in_goes_on_only_to_the_apps_pages(open_page, engine, sitting):
    at = open_page("views/sign_in.py", query={"next": "https://evil.example", "table": "1"})
    assert not at.info
    at = _sign_in_on(at)
    assert any("Signed in as" in m.value for m in at.markdown)


@pytest.mark.parametrize("value", ["99999", "abc", "-1", "1" * 40])
def test_qr_link_to_an_unknown_table_says_so(open_page, engine, sitting, value):
    at = _linked(open_page, JUDGE, value)
    assert not at.exception
    assert "which this tournament does not have" in at.warning[0].value
    assert at.selectbox(key="res_sitting").value == sitting  # the page works as usual


def test_qr_link_to_an_unpublished_table_waits_for_the_publish(open_page, engine, sitting):
    ids = store.players(engine)["player_id"].tolist()
    draft = tournament.draw_qualifier(engine, ids, seed=5, confirm=True, actor=ORGANIZER)
    table = store.tables(engine, draft["sitting_id"], actor=ORGANIZER).iloc[0]
    at = _linked(open_page, JUDGE, int(table["table_id"]))
    assert not at.exception
    assert "Table 1 of Qualifier 2 is not published yet" in at.warning[0].value
    assert at.selectbox(key="res_sitting").value == sitting


LINK = re.compile(r"(?<!\\)\[[^\]]*(?<!\\)\]\(")


def test_a_markdown_link_in_a_judges_name_shows_as_text(open_page, engine, sitting):
    """R20: a judge who signs in as a link cannot put a link in front of another judge."""
    table, _ = _table(engine, sitting)
    tid = int(table["table_id"])
    trick = Actor("[PIN expired, sign in](http://evil.example/login)", Role.JUDGE)
    them, kim = _open_table(open_page, trick, table), _open_table(open_page, OTHER_JUDGE, table)
    save_entry(them, _fill(engine, table, VALUES))
    kim = save_entry(kim, _fill(engine, table, [(11, 0, 0, 0, 0), (7, 0, 0, 0, 0),
                                                (5, 0, 0, 0, 0), (2, 0, 0, 0, 0)]))
    assert store.table_result(engine, tid).saved_by == trick.name
    shown_text = [e.value for kind in ("warning", "markdown", "error", "info", "caption")
                  for e in getattr(kim, kind)]
    assert any("PIN expired" in t for t in shown_text), "the name is shown, as text"
    assert not any(LINK.search(t) or "http://evil" in t for t in shown_text)


def test_a_negative_vp_is_refused_in_the_forms_own_words(open_page, engine, sitting):
    """A VP of −3 reaches the save (the entry has no lower limit) and is refused as what it is,
    with the seat and player named; nothing is saved."""
    table, seats = _table(engine, sitting)
    values = _fill(engine, table, VALUES)
    values[1]["vp"] = -3
    at = save_entry(_open_table(open_page, JUDGE, table), values)
    assert not at.exception, at.exception
    message = at.error[0].value
    assert f"seat 1 ({seats['name'][0]}): VP cannot be negative, not -3" in message, message
    assert "missing" not in message
    assert store.table_result(engine, int(table["table_id"])).version == 0
