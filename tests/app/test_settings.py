"""Settings (organizer): tournament name, setups (R5), picks (R9, R10), colours (R4), base
points (R12) and PIN changes (R20); every bad value refused with nothing changed."""

import pytest

from stsa import store
from stsa.auth import Role
from stsa.ui import organizer
from tests.app.conftest import JUDGE_PIN, ORGANIZER, ORGANIZER_PIN

SETTINGS = "views/settings.py"


@pytest.fixture
def page(open_page, engine):
    return open_page(SETTINGS, as_=ORGANIZER)


def save(at):
    return at.button(key="settings_save").click().run()


def errors(at):
    return " ".join(e.value for e in at.error)


def test_shows_the_current_settings_and_no_pins(page):
    assert not page.exception
    assert page.text_input(key="set_name").value == store.DEFAULT_SETTINGS["tournament_name"]
    assert page.multiselect(key="set_setups").value == []  # none chosen: every setup
    assert len(page.multiselect(key="set_setups").options) == 16
    assert page.radio(key="set_pick").value == "hidden_picks"
    assert page.number_input(key="set_picks_Legacy").value == 6
    assert page.number_input(key="set_picks_Uprising").value == 3
    assert [page.text_input(key=f"set_colour_{i}").value for i in range(1, 5)] == \
        ["red", "green", "blue", "yellow"]
    assert [page.number_input(key=f"set_points_{i}").value for i in range(1, 5)] == \
        [20, 15, 10, 0]
    assert page.text_input(key="pin_new").value == ""
    shown = " ".join(str(w.value) for w in page.text_input)
    assert ORGANIZER_PIN not in shown and JUDGE_PIN not in shown


def test_save_every_setting(page, engine):
    page.text_input(key="set_name").input("Arrakis Open 2026")
    page.multiselect(key="set_setups").select("uprising").select("uprising-ix")
    page.checkbox(key="set_bow").check()
    page.radio(key="set_pick").set_value("vote_off")
    page.checkbox(key="set_wild").check()
    page.number_input(key="set_picks_Legacy").set_value(5)
    page.text_input(key="set_colour_4").input("purple")
    for i, points in enumerate([25, 15, 5, 1], start=1):
        page.number_input(key=f"set_points_{i}").set_value(points)
    save(page)
    assert not page.exception
    assert [s.value for s in page.success] == ["Settings saved."]
    got = store.settings(engine)
    assert got["tournament_name"] == "Arrakis Open 2026"
    assert got["enabled_setups"] == ["uprising", "uprising-ix"]
    assert (got["battle_of_wills"], got["pick_method"], got["wild_card"]) == \
        (True, "vote_off", True)
    assert got["hidden_picks"] == {"Legacy": 5, "Uprising": 3}
    assert got["colours"] == ["red", "green", "blue", "purple"]
    assert got["base_points"] == [25, 15, 5, 1]
    logged = store.events(engine, actor=ORGANIZER, action="settings.change")
    assert logged["after"].iloc[-1]["tournament_name"] == "Arrakis Open 2026"
    assert page.text_input(key="set_name").value == "Arrakis Open 2026"


def test_clearing_the_setups_enables_all(open_page, engine):
    store.set_settings(engine, {"enabled_setups": ["legacy"]}, actor=ORGANIZER)
    at = open_page(SETTINGS, as_=ORGANIZER)
    assert at.multiselect(key="set_setups").value == ["legacy"]
    at.multiselect(key="set_setups").unselect("legacy")
    save(at)
    assert store.settings(engine)["enabled_setups"] is None


def test_nothing_changed(page, engine):
    save(page)
    assert [i.value for i in page.info] == ["Nothing changed."]
    assert store.events(engine, actor=ORGANIZER, action="settings.change").empty


@pytest.mark.parametrize("colours, message", [
    (["red", "green", "Red", "yellow"], "Colours: colour 1 and colour 3 are both “Red”"),
    (["red", "green", "  ", "yellow"], "Colours: fill in all four colours."),
])
def test_bad_colours_are_refused(page, engine, colours, message):
    page.text_input(key="set_name").input("Changed too")
    for i, colour in enumerate(colours, start=1):
        page.text_input(key=f"set_colour_{i}").input(colour)
    save(page)
    assert message in errors(page) and "Nothing was saved." in errors(page)
    assert store.settings(engine) == store.DEFAULT_SETTINGS


def test_base_points_must_fall(page, engine):
    page.number_input(key="set_points_2").set_value(30)
    save(page)
    assert "base_points must run from highest to lowest" in errors(page)
    assert store.settings(engine)["base_points"] == [20, 15, 10, 0]


def test_empty_tournament_name_is_refused(page, engine):
    page.text_input(key="set_name").input("   ")
    save(page)
    assert "tournament_name must be non-empty text" in errors(page)
    assert store.settings(engine)["tournament_name"] == store.DEFAULT_SETTINGS["tournament_name"]


# --- PINs ---------------------------------------------------------------------------------------

def change_pin(at, whose, pin, again):
    at.radio(key="pin_role").set_value(whose)
    at.text_input(key="pin_new").input(pin)
    at.text_input(key="pin_confirm").input(again)
    return at.button(key="pin_save").click().run()


def test_change_the_judges_pin(page, engine):
    change_pin(page, "judge", "9090", "9090")
    assert [s.value for s in page.success] == [
        "The judges’ PIN is changed: tell the people who use it."]
    assert store.check_pin(engine, "9090") is Role.JUDGE
    assert store.check_pin(engine, JUDGE_PIN) is None
    assert store.check_pin(engine, ORGANIZER_PIN) is Role.ORGANIZER


def test_change_the_organizer_pin(page, engine):
    change_pin(page, "organizer", "31415", "31415")
    assert store.check_pin(engine, "31415") is Role.ORGANIZER
    assert not page.exception


@pytest.mark.parametrize("pin, again, message", [
    ("", "", "Type the new PIN in both fields."),
    ("5555", "5556", "The two PINs differ"),
    ("12", "12", "A PIN must have 4 to 64 characters (it has 2)."),
    (ORGANIZER_PIN, ORGANIZER_PIN, "The judge PIN must differ from the organizer PIN."),
])
def test_bad_pins_are_refused(page, engine, pin, again, message):
    change_pin(page, "judge", pin, again)
    assert message in errors(page)
    assert store.check_pin(engine, JUDGE_PIN) is Role.JUDGE


def test_colour_helper():
    assert organizer.colour_problem(["a", "b", "c", "d"]) is None
    assert organizer.settings_changes({"a": 1, "b": 2}, {"a": 1, "b": 3}) == {"b": 3}


def test_draw_mode_is_random_until_the_organizer_chooses_balanced(page, engine):
    assert page.radio(key="set_draw_mode").value == "random"
    page.radio(key="set_draw_mode").set_value("balanced")
    save(page)
    assert not page.exception and not page.error
    assert store.settings(engine)["draw_mode"] == "balanced"
    assert page.radio(key="set_draw_mode").value == "balanced"


def test_store_refuses_an_unknown_draw_mode(engine):
    with pytest.raises(store.TournamentError, match="draw_mode must be one of random, balanced"):
        store.set_settings(engine, {"draw_mode": "fair"}, actor=ORGANIZER)
    assert store.settings(engine)["draw_mode"] == "random"
