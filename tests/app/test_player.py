"""My seat, a player's own page (R3, R14, R16, R20, R22), for everyone: find yourself by
nickname, see the sitting's table and seat, your games and the cut (a live element that draws
them in the browser from the shared `live/players` answer: its data is in the element tree);
a bookmarked link (`?player=<id>`) opens it again; one answer per data version for every
phone, and no timer that runs the page again."""

import json

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from stsa import demo, store
from stsa.services import draws, player
from stsa.ui import live_element
from tests.app.conftest import APP, JUDGE, ORGANIZER, count_calls, session_for, shown

PAGE = "views/player.py"


@pytest.fixture
def sitting_in_play(engine):
    """The demo (24 players, three complete qualifiers) and a published fourth qualifier for
    the first 12 players; returns its seats."""
    demo.load_demo(engine, actor=ORGANIZER)
    ids = store.players(engine)["player_id"].tolist()
    drawn = draws.draw_qualifier(engine, ids[:12], seed=9, actor=ORGANIZER)
    draws.publish(engine, drawn["sitting_id"], actor=ORGANIZER)
    return store.seats(engine, drawn["sitting_id"])


def open_link(db_url, player_id, as_=None) -> AppTest:
    """Open the page from a bookmarked link (`?player=<id>`), as a phone opens an address."""
    at = AppTest.from_file(APP, default_timeout=30)
    at.query_params["player"] = str(player_id)
    if as_ is not None:
        at.session_state["session_id"] = session_for(db_url, as_)
    at.switch_page(PAGE)
    return at.run()


def text(at) -> str:
    return " ".join(shown(at.markdown) + shown(at.header) + shown(at.subheader)
                    + shown(at.info) + shown(at.warning) + shown(at.caption))


def element(at) -> dict:
    """My seat's live element as the page mounted it: its data, its answer (`answer`) and
    the followed player's row of it (`me`, None when the answer has none)."""
    (mounted,) = [e for e in at.get("bidi_component")
                  if e.proto.component_name.endswith("stsa_live_seat")]
    found = live_element.data_of(mounted.proto.json)
    me = [p for p in found["answer"]["players"] if p["id"] == found["player"]]
    return {**found, "me": me[0] if me else None}


@pytest.fixture
def no_timers(monkeypatch):
    """Every fragment the pages make, with its `run_every`: a live page has none."""
    made, real = [], st.fragment

    def spy(func=None, *, run_every=None, **kwargs):
        made.append(run_every)
        return real(func, run_every=run_every, **kwargs)
    monkeypatch.setattr(st, "fragment", spy)
    return made


def find(at, query: str, nickname: str) -> AppTest:
    """Type `query` in the search and tap `nickname`."""
    at.text_input(key="player_search").input(query).run()
    assert not at.exception
    picks = [b for b in at.button if b.key and b.key.startswith("player_pick_")]
    button = next(b for b in picks if b.label == nickname)
    return button.click().run()


@pytest.mark.parametrize("who", [None, JUDGE, ORGANIZER])
def test_everyone_finds_a_seat_by_nickname_in_two_taps(open_page, sitting_in_play, who,
                                                       no_timers):
    seat = sitting_in_play.loc[sitting_in_play["seat"] == 2].iloc[0]
    at = open_page(PAGE, as_=who)
    assert not at.exception
    assert at.text_input(key="player_search").label == "Your nickname"
    name = seat["name"]  # the demo's nicknames are the players' names
    at = find(at, name[:5], name)
    assert not at.exception
    assert at.query_params["player"] == str(seat["player_id"])
    shown_ = element(at)
    me, answer, words = shown_["me"], shown_["answer"], shown_["words"]
    assert shown_["player"] == seat["player_id"] and me["player"] == name
    assert [p["id"] for p in answer["players"]] == [seat["player_id"]]  # the page's copy
    assert shown_["live"]["url"].endswith("/live/players?lang=en")
    assert (me["now"], me["table"], me["seat"], me["colour"], me["players"]) == (
        "seated", seat["table_no"], 2, seat["colour"], 4)
    assert words["table_seat"].format(table=me["table"], seat=me["seat"]) == \
        f"Table {seat['table_no']} · seat 2"
    first = sitting_in_play.loc[(sitting_in_play["table_id"] == seat["table_id"])
                                & (sitting_in_play["seat"] == 1), "name"].iloc[0]
    assert answer["sitting"] == "Qualifier 4" and me["first_player"] == first and me["setup"]
    assert words["first_player"] == "First player: **{player}** (seat 1); play goes clockwise."
    assert shown_["swatches"][seat["colour"]].startswith("var(--st-")  # a square of its colour
    assert [g[0] for g in me["games"]] == [1, 2, 3] and answer["game_fields"][0] == "sitting"
    assert words["rank_line"][2].format(rank=me["rank"], score=me["best_score"], count=3) \
        .endswith("· 3 games")
    assert not [every for every in no_timers if every]  # nothing reruns by itself


def test_a_bookmarked_link_opens_the_page_again(db_url, sitting_in_play):
    seat = sitting_in_play.loc[sitting_in_play["seat"] == 1].iloc[0]
    at = open_link(db_url, int(seat["player_id"]))
    assert not at.exception
    me = element(at)["me"]
    assert me["player"] == seat["name"] and me["seat"] == 1  # "You play first."
    assert "Bookmark this page" in text(at) and "every" not in shown(at.caption)[-1]
    at.button(key="player_other").click().run()  # not me: back to the search
    assert "player" not in at.query_params
    assert at.text_input(key="player_search")
    assert not at.get("bidi_component")


@pytest.mark.parametrize("raw", ["99999", "<b>x</b>"])
def test_a_link_to_no_player_says_so_and_offers_the_search(db_url, sitting_in_play, raw):
    at = open_link(db_url, raw)
    assert not at.exception
    assert "whom this tournament does not have" in shown(at.warning)[0]
    assert "<b>" not in at.warning[0].value  # shown as typed, never as markup
    assert at.text_input(key="player_search")


def test_a_signed_out_visitor_sees_the_public_page(db_url, engine, sitting_in_play):
    """A judge who signed out (their old address still carries the session) is a spectator."""
    session = session_for(db_url, JUDGE)
    store.sign_out(engine, session)
    seat = sitting_in_play.iloc[0]
    at = AppTest.from_file(APP, default_timeout=30)
    at.query_params.update(player=str(seat["player_id"]), session=session)
    at.switch_page(PAGE)
    at.run()
    assert not at.exception
    assert "session" not in at.query_params
    me = element(at)["me"]
    assert me["player"] == seat["name"] and me["table"] == seat["table_no"]


def test_R1_a_player_with_no_seat_sits_this_one_out(db_url, sitting_in_play, engine):
    unseated = set(store.players(engine)["player_id"]) - set(sitting_in_play["player_id"])
    found = element(open_link(db_url, min(unseated)))
    assert found["me"]["now"] == "sitting_out" and "table" not in found["me"]
    assert found["words"]["sitting_out"].format(sitting=found["answer"]["sitting"]) == \
        "You sit this one out: you have no seat in Qualifier 4."


def test_between_sittings_the_seat_is_not_drawn_yet(db_url, engine):
    demo.load_demo(engine, actor=ORGANIZER)
    ids = store.players(engine)["player_id"].tolist()
    draws.draw_qualifier(engine, ids, seed=9, actor=ORGANIZER)  # a draft: not public
    at = open_link(db_url, ids[0], as_=ORGANIZER)  # the public's view, for the organizer too
    assert not at.exception
    found = element(at)
    assert found["me"]["now"] == "not_drawn" and found["answer"]["sitting"] is None
    assert found["words"]["not_drawn"].startswith("Not drawn yet")
    assert "11th; places 4–11 play the semifinal, 3 points behind 3rd" in \
        found["me"]["standing"]


def test_R22_the_page_finds_and_shows_nicknames_never_real_names(open_page, engine,
                                                                   sitting_in_play):
    seat = sitting_in_play.iloc[0]
    real = store.player(engine, int(seat["player_id"]))["name"]
    store.edit_player(engine, int(seat["player_id"]), nickname="Sandworm*Rider",
                      actor=ORGANIZER)
    at = open_page(PAGE)
    at.text_input(key="player_search").input(real).run()
    assert not [b for b in at.button if b.key and b.key.startswith("player_pick_")]
    at = find(at, "worm*", "Sandworm\\*Rider")
    assert element(at)["me"]["player"] == "Sandworm*Rider"
    assert real not in text(at)
    assert real not in json.dumps(element(at))


def test_every_game_is_in_the_players_row(db_url, sitting_in_play):
    """The games table is the element's own (no scrolling box in the page)."""
    at = open_link(db_url, int(sitting_in_play["player_id"].iloc[0]))
    assert not at.exception
    me = element(at)["me"]
    assert len(me["games"]) == 3 and not at.dataframe


def test_an_empty_tournament_says_players_come_first(open_page):
    at = open_page(PAGE)
    assert not at.exception
    assert "No players yet" in shown(at.info)[0]


def test_every_phone_on_one_player_costs_one_computation_per_change(db_url, sitting_in_play,
                                                                     monkeypatch):
    prepared = count_calls(monkeypatch, player, "prepare")
    answered = count_calls(monkeypatch, player, "everyone")
    for seat in (sitting_in_play.iloc[0], sitting_in_play.iloc[1]):
        for who in (None, None, JUDGE, ORGANIZER):
            assert not open_link(db_url, int(seat["player_id"]), as_=who).exception
    assert len(prepared) == 1 and len(answered) == 1  # one book, one answer for every phone


def test_R25_the_page_runs_again_only_when_check_in_opens_or_closes(db_url, engine,
                                                                   sitting_in_play):
    """The element knows when check-in opens (its window in the answer) and asks for one run;
    the check-in form is the page's."""
    pid = int(sitting_in_play["player_id"].iloc[0])
    found = element(open_link(db_url, pid))
    assert found["check_in_open"] is False and found["answer"]["check_in"]["open"] is False
    store.set_settings(engine, {"self_check_in_open": True}, actor=ORGANIZER)
    at = open_link(db_url, pid)
    found = element(at)
    assert found["check_in_open"] is True and found["answer"]["check_in"]["open"] is True
    assert at.text_input(key="self_code")
