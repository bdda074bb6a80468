"""A sitting's capacity on the pages (R21): the organizer's Draw page shows who plays, who waits
and why before drawing, and opens extra tables of four from the waiting list; judges and
spectators see no such controls, only a drawn sitting's waiting list (spectators once it is
published); the Settings page sets the capacity; the Roster page shows pre-registered players,
drop-ins and check-in times; a waiting player's own page says their place in line."""

import pandas as pd
from streamlit.testing.v1 import AppTest

from stsa import store
from stsa.services import draws
from tests.app.conftest import APP, JUDGE, ORGANIZER, live_data, shown

DRAW, ROSTER, SETTINGS = "views/draw.py", "views/roster.py", "views/settings.py"


def checked_in(engine, registered: int, drop_ins: int) -> list[int]:
    """`registered` pre-registered players, then `drop_ins` players added and checked in one by
    one; all checked in. The ids in queue order."""
    ids = store.import_players(engine, pd.DataFrame(
        {"name": [f"Registered {i:02d}" for i in range(1, registered + 1)]}),
        actor=ORGANIZER, pre_registered=True)["player_id"].tolist()
    store.check_in(engine, ids, actor=ORGANIZER)
    for i in range(1, drop_ins + 1):
        ids.append(store.add_player(engine, f"Drop-in {i:02d}", actor=ORGANIZER)["player_id"])
        store.check_in(engine, ids[-1:], actor=ORGANIZER)
    return ids


def text(at) -> str:
    return "\n".join(shown([*at.markdown, *at.caption, *at.info, *at.warning, *at.error]))


def waiting_table(at) -> pd.DataFrame:
    found = [d.value for d in at.dataframe if list(d.value.columns) == ["Position", "Player",
                                                                         "Why"]]
    return found[0] if found else pd.DataFrame()


def test_organizer_sees_who_waits_and_why_then_draws_16_of_19(open_page, engine):
    ids = checked_in(engine, 12, 7)
    at = open_page(DRAW, as_=ORGANIZER)
    assert not at.exception
    page = text(at)
    assert "19 players checked in" in page and "16 play, 3 wait" in page
    assert "16 players: 4 tables (4 + 4 + 4 + 4)." in page
    waiting = waiting_table(at)
    assert waiting["Position"].tolist() == [1, 2, 3]
    assert waiting["Player"].tolist() == ["Drop-in 05", "Drop-in 06", "Drop-in 07"]
    assert all(why.startswith("dropped in at ") and why.endswith("over the 16-seat limit")
               for why in waiting["Why"])
    assert "12. Registered 12: pre-registered, number 12 in registration order" in page
    assert not [n for n in at.number_input if n.key == "draw_extra_tables"]  # 3 < 4
    assert "An extra table seats exactly four players" in page

    at.button(key="draw_go").click().run()
    assert not at.exception
    seats = store.seats(engine, actor=ORGANIZER)
    assert len(seats) == 16 and set(seats["player_id"]) == set(ids[:16])
    assert store.waiting(engine, actor=ORGANIZER)["player_id"].tolist() == ids[16:]
    assert "waiting for a seat: 1. Drop-in 05, 2. Drop-in 06, 3. Drop-in 07" in text(at)


def test_organizer_opens_an_extra_table_of_four(open_page, engine):
    ids = checked_in(engine, 16, 7)  # 23: seven wait, one extra table seats four of them
    at = open_page(DRAW, as_=ORGANIZER)
    extra = at.number_input(key="draw_extra_tables")
    assert extra.value == 0 and extra.max == 1
    extra.set_value(1).run()
    page = text(at)
    assert "20 play, 3 wait" in page and "20 players: 5 tables (4 + 4 + 4 + 4 + 4)." in page
    assert waiting_table(at)["Player"].tolist() == ["Drop-in 05", "Drop-in 06", "Drop-in 07"]
    at.button(key="draw_go").click().run()
    assert not at.exception
    assert set(store.seats(engine, actor=ORGANIZER)["player_id"]) == set(ids[:20])
    assert store.waiting(engine, actor=ORGANIZER)["position"].tolist() == [1, 2, 3]


def test_everyone_fits_and_nothing_about_waiting_is_shown(open_page, engine):
    checked_in(engine, 10, 2)
    at = open_page(DRAW, as_=ORGANIZER)
    assert "wait" not in text(at) and waiting_table(at).empty
    assert not [n for n in at.number_input if n.key == "draw_extra_tables"]


def test_judge_and_spectator_see_no_capacity_controls_but_the_drawn_waiting_list(
        open_page, engine):
    ids = checked_in(engine, 16, 4)
    sitting = draws.draw_qualifier(engine, ids, seed=3, actor=ORGANIZER)
    judge = open_page(DRAW, as_=JUDGE)
    assert not judge.exception
    assert not [n for n in judge.number_input if n.key == "draw_extra_tables"]
    assert waiting_table(judge).empty and "play, 4 wait" not in text(judge)
    assert "waiting for a seat: 1. Drop-in 01" in text(judge)
    spectator = open_page(DRAW)
    assert "waiting for a seat" not in text(spectator)  # an unpublished draw (R20)
    store.publish_sitting(engine, sitting["sitting_id"], actor=ORGANIZER)
    spectator = open_page(DRAW)
    assert not spectator.exception
    assert not [n for n in spectator.number_input if n.key == "draw_extra_tables"]
    assert "waiting for a seat: 1. Drop-in 01, 2. Drop-in 02, 3. Drop-in 03, 4. Drop-in 04" \
        in text(spectator)


def test_settings_page_sets_the_capacity(open_page, engine):
    at = open_page(SETTINGS, as_=ORGANIZER)
    assert at.number_input(key="set_capacity").value == 16
    at.number_input(key="set_capacity").set_value(5)
    at.button(key="settings_save").click().run()
    assert "cannot be 5" in " ".join(shown(at.error))
    assert store.settings(engine)["capacity"] == 16
    at.number_input(key="set_capacity").set_value(20)
    at.button(key="settings_save").click().run()
    assert store.settings(engine)["capacity"] == 20


def test_roster_shows_registration_check_in_time_and_who_waits(open_page, engine):
    checked_in(engine, 16, 2)
    store.add_player(engine, "Not Here Yet", actor=ORGANIZER)
    at = open_page(ROSTER, as_=ORGANIZER)
    assert not at.exception
    listed = at.data_editor[0].value.set_index("name")
    assert listed.loc["Registered 12", "registration"] == "pre-registered #12"
    assert listed.loc["Drop-in 01", "registration"] == "drop-in"
    assert listed.loc["Drop-in 01", "checked_in_at"] != ""
    assert listed.loc["Not Here Yet", "checked_in_at"] == ""
    assert "2 wait for a seat (the 16-seat limit" in text(at)


def test_a_waiting_player_reads_their_place_on_their_own_page(db_url, engine):
    ids = checked_in(engine, 16, 3)
    sitting = draws.draw_qualifier(engine, ids, seed=3, actor=ORGANIZER)
    draws.publish(engine, sitting["sitting_id"], actor=ORGANIZER)
    at = AppTest.from_file(APP, default_timeout=30)
    at.query_params["player"] = str(ids[17])  # Drop-in 02: second in line
    at.switch_page("views/player.py")
    at.run()
    assert not at.exception
    seat = live_data(at, "seat")  # the element says it from the answer, in the page's words
    (me,) = [p for p in seat["answer"]["players"] if p["id"] == seat["player"]]
    assert me["waiting"] == 2
    assert seat["words"]["waiting"].format(number=me["waiting"]).startswith(
        "You are number 2 on the waiting list")
