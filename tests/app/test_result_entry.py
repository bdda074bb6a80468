"""Result entry as a judge on the day meets it (R11, R12, R19): an unsaved entry survives a
reload, Back or a new connection (kept in the database under the judge and the table, never
shown to another judge, gone on save); numbers far above a usual game's ask for a tick first;
the preview and the save share one rule for blank numbers."""

from __future__ import annotations

import pytest

from stsa import store
from stsa.services import results
from stsa.ui import result_form
from tests.app.conftest import JUDGE, ORGANIZER
from tests.app.test_results import OTHER_JUDGE, VALUES, _fill, _open_table, _table, key
from tests.support.store_helpers import SPECTATOR


def texts(elements) -> str:
    return " ".join(e.value for e in elements)


@pytest.fixture
def half_typed(open_page, engine, sitting):
    """Jamal has typed table 1's leaders and seats 1–3, seat 4's numbers still blank."""
    table, _ = _table(engine, sitting)
    at = _fill(_open_table(open_page, JUDGE, table), table, VALUES[:3])
    return table, at


def test_a_reload_brings_back_what_the_judge_typed(open_page, engine, sitting, half_typed):
    table, typed = half_typed
    tid = int(table["table_id"])
    assert "Not saved yet. What you typed is kept" in texts(typed.caption)
    kept = store.draft(engine, tid, actor=JUDGE)
    assert kept is not None and kept.base_version == 0
    assert kept.rows["vp"].tolist()[:3] == [10, 7, 5]
    assert store.table_result(engine, tid).version == 0  # a draft is no result
    again = _open_table(open_page, JUDGE, table)  # a reload: a new session, same judge
    assert "Your unsaved entry from" in texts(again.info)
    assert [again.number_input(key=key(again, tid, seat, "vp")).value
            for seat in (1, 2, 3, 4)] == [10, 7, 5, None]
    assert again.selectbox(key=key(again, tid, 1, "leader")).value == \
        table["available_leaders"][0]
    again.number_input(key=key(again, tid, 4, "vp")).set_value(2)
    for field in ("spice", "solari", "troops", "water"):
        again.number_input(key=key(again, tid, 4, field)).set_value(0)
    again.selectbox(key=key(again, tid, 4, "leader")).set_value(table["available_leaders"][3])
    again.run()
    again.button(key="res_save").click().run()
    assert not again.error and "saved as version 1" in again.success[0].value
    assert store.table_result(engine, tid).rows["vp"].tolist() == [10, 7, 5, 2]
    assert store.draft(engine, tid, actor=JUDGE) is None  # gone with the save
    assert "Your unsaved entry" not in texts(_open_table(open_page, JUDGE, table).info)


def test_another_judge_never_sees_the_draft(open_page, engine, sitting, half_typed):
    table, _ = half_typed
    tid = int(table["table_id"])
    kim = _open_table(open_page, OTHER_JUDGE, table)
    assert "unsaved entry" not in texts(kim.info)
    assert kim.number_input(key=key(kim, tid, 1, "vp")).value is None
    assert store.draft(engine, tid, actor=OTHER_JUDGE) is None
    spectator = open_page("views/results.py")
    assert "No table of this sitting has reported yet." in texts(spectator.info)


def test_the_judge_may_discard_the_draft(open_page, engine, sitting, half_typed):
    table, _ = half_typed
    tid = int(table["table_id"])
    again = _open_table(open_page, JUDGE, table)
    again.button(key="res_discard_draft").click().run()
    assert not again.exception
    assert store.draft(engine, tid, actor=JUDGE) is None
    assert again.number_input(key=key(again, tid, 1, "vp")).value is None
    assert "unsaved entry" not in texts(again.info)


def test_values_typed_back_to_the_start_leave_no_draft(open_page, engine, sitting):
    table, _ = _table(engine, sitting)
    tid = int(table["table_id"])
    at = _open_table(open_page, JUDGE, table)
    at.number_input(key=key(at, tid, 1, "vp")).set_value(9).run()
    assert store.draft(engine, tid, actor=JUDGE) is not None
    at.number_input(key=key(at, tid, 1, "vp")).set_value(None).run()
    assert store.draft(engine, tid, actor=JUDGE) is None
    assert "Not saved yet" not in texts(at.caption)


def test_a_draft_typed_before_another_judges_save_meets_it(open_page, engine, sitting,
                                                           half_typed):
    """Kim saves table 1 while Jamal's phone is away; Jamal's draft comes back on version 0,
    so his save shows both versions instead of overwriting Kim's."""
    table, _ = half_typed
    tid = int(table["table_id"])
    kim = _fill(_open_table(open_page, OTHER_JUDGE, table), table, VALUES)
    kim.button(key="res_save").click().run()
    again = _open_table(open_page, JUDGE, table)
    again.selectbox(key=f"res_table_{int(table['sitting_id'])}").set_value(tid).run()
    again = _fill(again, table, [*VALUES[:3], (1, 0, 0, 0, 0)])
    again.button(key="res_save").click().run()
    assert any(f"saved by {OTHER_JUDGE.name}" in w.value for w in again.warning)
    assert store.table_result(engine, tid).rows["vp"].tolist() == [10, 7, 5, 2]


def test_drafts_do_not_move_the_data_version(engine, sitting):
    """A thousand spectators' pages do not read again because a judge typed a number."""
    table, seats = _table(engine, sitting)
    before = store.data_version(engine)
    store.save_draft(engine, int(table["table_id"]),
                     seats[["player_id"]].assign(vp=[1, 2, 3, 4]), base_version=0,
                     seating={1: int(seats["player_id"][0])}, actor=JUDGE)
    assert store.data_version(engine) == before
    with pytest.raises(store.PermissionDenied):
        store.save_draft(engine, int(table["table_id"]), seats[["player_id"]], base_version=0,
                         seating={}, actor=SPECTATOR)


def test_an_unusual_vp_asks_for_a_tick_before_it_saves(open_page, engine, sitting):
    table, seats = _table(engine, sitting)
    tid = int(table["table_id"])
    at = _fill(_open_table(open_page, JUDGE, table), table,
               [(100, 1, 0, 0, 0), *VALUES[1:]])
    assert (f"Unusually high for one game: seat 1 ({seats['name'][0]}): VP 100. Check them "
            f"before saving.") in texts(at.warning)
    assert at.button(key="res_save").disabled
    tick = next(c for c in at.checkbox if c.key.startswith(f"res_unusual_{tid}_"))
    assert tick.label == "These numbers are right"
    tick.check().run()
    at.button(key="res_save").click().run()
    assert not at.error
    assert store.table_result(engine, tid).rows["vp"].tolist() == [100, 7, 5, 2]


def test_the_service_refuses_unusual_numbers_without_the_confirmation(engine, sitting):
    """Below the page: a script sending VP 250 gets the same question, and nothing saves."""
    table, seats = _table(engine, sitting)
    rows = seats[["player_id", "seat"]].assign(
        leader=table["available_leaders"][:4], vp=[250, 7, 5, 2], spice=0, solari=0, troops=0,
        water=[0, 0, 0, 45])
    with pytest.raises(results.TournamentError, match=r"Unusually high for one game: seat 1: "
                                                      r"VP 250; seat 4: water 45\. "):
        results.submit_result(engine, int(table["table_id"]), rows, expected_version=0,
                              submission_id=None, actor=JUDGE)
    assert store.table_result(engine, int(table["table_id"])).version == 0
    saved = results.submit_result(engine, int(table["table_id"]), rows, expected_version=0,
                                  submission_id=None, actor=JUDGE, confirm_unusual=True)
    assert saved.version == 1


def test_the_preview_waits_for_the_blank_numbers_the_save_asks_for(open_page, engine, sitting,
                                                                   half_typed):
    table, at = half_typed
    assert not at.dataframe or "Placing" not in at.dataframe[0].value.columns
    assert ("The preview shows once every number is in. Still blank: seat 4 VP, seat 4 Spice, "
            "seat 4 Solari, seat 4 Troops, seat 4 Water.") in texts(at.caption)
    at = _fill(at, table, VALUES)
    assert at.dataframe[0].value["Score"].tolist() == [23, 17, 13, 0]
    assert "Still blank" not in texts(at.caption)


def test_the_organizer_has_drafts_of_their_own(open_page, engine, sitting, half_typed):
    table, _ = half_typed
    tid = int(table["table_id"])
    olga = _open_table(open_page, ORGANIZER, table)
    assert olga.number_input(key=key(olga, tid, 1, "vp")).value is None
    assert result_form.FORM in olga.session_state
