"""Settings (organizer): tournament name, setups (R5), picks (R9, R10), colours (R4), base
points (R12) and PIN changes (R20); every bad value refused with nothing changed."""

import pandas as pd
import pytest
import sqlalchemy as sa

from stsa import store
from stsa.auth import Actor, Role
from stsa.services import admin
from stsa.store import schema
from tests.app.conftest import JUDGE, JUDGE_PIN, ORGANIZER, ORGANIZER_PIN, session_for, shown

SETTINGS = "views/settings.py"


@pytest.fixture
def page(open_page, engine):
    return open_page(SETTINGS, as_=ORGANIZER)


def save(at):
    return at.button(key="settings_save").click().run()


def errors(at):
    return " ".join(shown(at.error))


def test_shows_the_current_settings_and_no_pins(page):
    assert not page.exception
    assert page.text_input(key="set_name").value == store.DEFAULT_SETTINGS["tournament_name"]
    assert page.multiselect(key="set_setups").value == []  # none chosen: every setup
    assert len(page.multiselect(key="set_setups").options) == 16
    assert page.radio(key="set_pick").value == "hidden_picks"
    assert page.number_input(key="set_vote_off_votes").value == 2
    labels = " ".join(str(w.label) for w in [*page.number_input, *page.checkbox, *page.radio,
                                              *page.multiselect])
    assert "(R" not in labels  # plain words, no ruling numbers
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
    page.radio(key="set_bow").set_value("both")
    page.radio(key="set_pick").set_value("vote_off")
    page.number_input(key="set_vote_off_votes").set_value(3)
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
        ("both", "vote_off", True)
    assert got["vote_off_votes"] == 3
    assert got["hidden_picks"] == {"Legacy": 5, "Uprising": 3}
    assert got["colours"] == ["red", "green", "blue", "purple"]
    assert got["base_points"] == [25, 15, 5, 1]
    logged = store.events(engine, actor=ORGANIZER, action="settings.change")
    assert logged["after"].iloc[-1]["tournament_name"] == "Arrakis Open 2026"
    assert page.text_input(key="set_name").value == "Arrakis Open 2026"


def test_battle_of_wills_by_stage_in_plain_words(open_page, engine):
    """R23: a choice of stages in plain words, the final rounds by default."""
    at = open_page(SETTINGS, as_=ORGANIZER)
    stages = at.radio(key="set_bow")
    assert stages.value == "finals"
    assert stages.options == [
        "The semifinal and the final", "The qualifiers",
        "The qualifiers, the semifinal and the final"]
    assert "Battle of Wills" in stages.label and "(R" not in stages.label
    stages.set_value("qualifiers")
    save(at)
    assert store.settings(engine)["battle_of_wills"] == "qualifiers"
    assert at.radio(key="set_bow").value == "qualifiers"


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
    (["red", "green", "Red", "yellow"],
     "Colours must all differ: colour 1 and colour 3 are both “Red”"),
    (["red", "green", "  ", "yellow"], "Colours must all be filled in."),
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
    assert "Base points (1st, 2nd, 3rd, 4th) must run from highest to lowest" in errors(page)
    assert store.settings(engine)["base_points"] == [20, 15, 10, 0]


def test_empty_tournament_name_is_refused(page, engine):
    page.text_input(key="set_name").input("   ")
    save(page)
    assert "Tournament name must be non-empty text" in errors(page)
    assert store.settings(engine)["tournament_name"] == store.DEFAULT_SETTINGS["tournament_name"]


# --- PINs ---------------------------------------------------------------------------------------

def change_pin(at, whose, pin, again, current=ORGANIZER_PIN):
    at.radio(key="pin_role").set_value(whose)
    at.text_input(key="pin_current").input(current)
    at.text_input(key="pin_new").input(pin)
    at.text_input(key="pin_confirm").input(again)
    return at.button(key="pin_save").click().run()


def test_change_the_judges_pin(page, engine):
    change_pin(page, "judge", "694203", "694203")
    assert shown(page.success) == ["The judges’ PIN is changed: tell the people who use it."]
    assert store.check_pin(engine, "694203") is Role.JUDGE
    assert store.check_pin(engine, JUDGE_PIN) is None
    assert store.check_pin(engine, ORGANIZER_PIN) is Role.ORGANIZER


def test_change_the_organizer_pin_signs_the_organizer_out(page, engine):
    """R20: changing a PIN ends every session of that role, the organizer's own included."""
    change_pin(page, "organizer", "314159", "314159")
    assert store.check_pin(engine, "314159") is Role.ORGANIZER
    assert not page.exception
    assert page.session_state["actor"].role is Role.SPECTATOR


@pytest.mark.parametrize("pin, again, current, message", [
    ("", "", ORGANIZER_PIN, "Type the same new PIN in both fields."),
    ("608142", "608143", ORGANIZER_PIN, "Type the same new PIN in both fields."),
    ("12345", "12345", ORGANIZER_PIN, "A PIN must have 6 to 64 characters (it has 5)."),
    (ORGANIZER_PIN, ORGANIZER_PIN, ORGANIZER_PIN,
     "The judge PIN must differ from the organizer PIN."),
    ("608142", "608142", JUDGE_PIN, "The current organizer PIN is not right."),
    ("608142", "608142", "", "The current organizer PIN is not right."),
    ("123456", "123456", ORGANIZER_PIN, "That PIN is too easy to guess (digits that count up or "
                                        "down, like 123456). Choose another."),
    ("424242", "424242", ORGANIZER_PIN, "That PIN is too easy to guess (a short block repeated, "
                                        "like 121212). Choose another."),
])
def test_bad_pins_are_refused(page, engine, pin, again, current, message):
    change_pin(page, "judge", pin, again, current)
    assert message in errors(page)
    assert store.check_pin(engine, JUDGE_PIN) is Role.JUDGE


def test_the_organizer_sees_who_is_signed_in_and_signs_everyone_out(page, engine, db_url):
    judge_session = session_for(db_url, JUDGE)
    page.run()
    signed_in = page.dataframe[0].value
    assert sorted(signed_in["Role"]) == ["judge", "organizer"]
    page.button(key="sign_everyone_out").click().run()
    assert shown(page.success) == ["Signed out 1 judge."]
    assert store.session_actor(engine, judge_session) is None
    assert page.session_state["actor"].role is Role.ORGANIZER, "the organizer stays signed in"


def test_colour_helper():
    assert admin.settings_changes({"a": 1, "b": 2}, {"a": 1, "b": 3}) == {"b": 3}


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


# --- judges' invitations and the sign-in pause (R20) --------------------------------------------

def test_the_organizer_invites_a_judge_by_qr_code_and_withdraws_it(page, engine, monkeypatch):
    from stsa.ui import access

    coded = []
    real = access.qr_png
    monkeypatch.setattr(access, "qr_png", lambda url: coded.append(url) or real(url))
    store.set_settings(engine, {"public_url": "http://192.168.1.20:8501"}, actor=ORGANIZER)
    page.run()
    page.text_input(key="invite_name").input("Jo Judge")
    page.number_input(key="invite_hours").set_value(3)
    page.button(key="invite_make").click().run()
    assert not page.exception and not page.error
    url = coded[-1]
    assert url.startswith("http://192.168.1.20:8501/join#")
    token = url.partition("#")[2]
    assert len(token) >= 43
    assert len(page.image) == 1, "the QR code is on screen"
    listed = store.invitations(engine, actor=ORGANIZER)
    until = listed.loc[0, "expires_at"].to_pydatetime().astimezone().strftime("%H:%M")
    assert f"**Scan to sign in as a judge; valid until {until}.**" in shown(page.markdown)
    assert any("Invitation for Jo Judge" in c for c in shown(page.caption))
    assert listed.loc[0, "expires_at"] - listed.loc[0, "created_at"] == pd.Timedelta(hours=3)
    assert token not in " ".join(shown(page.markdown)), "the token is only in the QR code"
    joined = store.join(engine, token)  # what scanning it does (the /join page)
    assert joined.actor == Actor("Jo Judge", Role.JUDGE)
    page.run()
    assert any("Jo Judge: valid until" in m and "used 1 time" in m for m in shown(page.markdown))
    page.button(key=f"invite_withdraw_{listed.loc[0, 'id']}").click().run()
    assert shown(page.success) == ["Invitation withdrawn; 1 session ended."]
    assert store.session_actor(engine, joined.session_id) is None
    assert not page.image, "a withdrawn invitation's QR code is gone"
    assert store.invitations(engine, actor=ORGANIZER)["revoked"].tolist() == [True]


def test_an_invitation_opened_on_the_laptop_itself_uses_its_network_address(
        open_page, engine, monkeypatch):
    """The organizer's browser on localhost: the invitation's QR code opens the laptop's
    address on the venue's network (found at start), never localhost; with no such address
    known, the page says phones cannot open it."""
    from types import SimpleNamespace

    import streamlit as st

    from stsa.ui import access
    from stsa.web import server
    coded = []
    real = access.qr_png
    monkeypatch.setattr(access, "qr_png", lambda url: coded.append(url) or real(url))
    monkeypatch.setattr(st, "context", SimpleNamespace(url="http://127.0.0.1:8501/settings"))
    at = open_page(SETTINGS, as_=ORGANIZER)
    assert any("QR codes open http://127.0.0.1:8501/join: only this laptop opens that address"
               in w for w in shown(at.warning))
    monkeypatch.setattr(server, "SERVED", server.venue("0.0.0.0", 8501,
                                                       names=["192.0.2.7", "127.0.0.1"]))
    at.run()
    assert not at.warning
    at.text_input(key="invite_name").input("Jo Judge")
    at.button(key="invite_make").click().run()
    assert coded[-1].startswith("http://192.0.2.7:8501/join#")
    assert any("QR codes open http://192.0.2.7:8501/join: this laptop's address on the venue's"
               in c for c in shown(at.caption))


def test_an_invitation_without_a_name_is_refused(page, engine):
    page.button(key="invite_make").click().run()
    assert "Enter the judge's name" in errors(page)
    assert store.invitations(engine, actor=ORGANIZER).empty


def test_the_organizer_sees_a_sign_in_pause_and_lifts_it(page, engine):
    assert "lift_pause" not in [b.key for b in page.button]
    assert not any("Sign-in is paused" in w for w in shown(page.warning))
    at = store.db.now()
    with engine.begin() as conn:  # the wrong PINs that pause everyone, as sign_in writes them
        conn.execute(sa.insert(schema.sign_in_failures),
                     [{"client": f"10.1.0.{n}", "at": at} for n in range(50)])
    page.run()
    assert any("Sign-in is paused" in w and "signed in before can still sign in" in w
               for w in shown(page.warning))
    page.button(key="lift_pause").click().run()
    assert shown(page.success) == ["Sign-in is open again (50 wrong PINs forgotten); the PINs "
                                   "did not change."]
    assert store.sign_in_pause(engine) == 0
    assert store.check_pin(engine, ORGANIZER_PIN) is Role.ORGANIZER
    assert "lift_pause" not in [b.key for b in page.button]


def test_open_invitations_are_listed_beside_who_is_signed_in_with_a_link_to_copy(
        page, engine):
    """Issue 33: the invitation is a QR code and a link to copy (the same address, token after
    `#`); the open invitations stand beside the sessions, and "Sign everyone out" ends them
    too and says exactly what it ended."""
    store.set_settings(engine, {"public_url": "http://192.168.1.20:8501"}, actor=ORGANIZER)
    page.run()
    page.text_input(key="invite_name").input("Jo Judge")
    page.button(key="invite_make").click().run()
    assert not page.exception and not page.error
    links = [c.value for c in page.code]
    assert len(links) == 1 and links[0].startswith("http://192.168.1.20:8501/join#")
    token = links[0].partition("#")[2]
    assert len(token) >= 43 and token not in " ".join(shown(page.markdown))
    invited = [d.value for d in page.dataframe if "Tournament" in d.value.columns]
    assert [f["Name"].tolist() for f in invited] == [["Jo Judge"]]
    assert any(m.startswith("**Open invitations**") for m in shown(page.markdown))
    assert store.join(engine, token).actor.name == "Jo Judge", "the link signs the judge in"
    page.button(key="sign_everyone_out").click().run()
    assert shown(page.success) == ["Signed out 1 judge. Withdrew 1 open invitation."]
    assert not page.code, "a withdrawn invitation's link is gone"
    with pytest.raises(store.TournamentError, match="not valid"):
        store.join(engine, token)
    assert any("No invitation is open" in c for c in shown(page.caption))


def test_an_archived_tournament_offers_no_new_invitation(page, engine):
    store.archive_tournament(engine, actor=ORGANIZER)
    page.run()
    assert not page.exception
    assert not [b for b in page.button if b.key == "invite_make"]
    assert any("takes no new judge invitations" in i for i in shown(page.info))
