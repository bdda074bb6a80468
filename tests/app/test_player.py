"""My seat, a player's own page (R3, R14, R16, R20, R22), for everyone: find yourself by
nickname, see the sitting's table and seat, your games and the cut; a bookmarked link
(`?player=<id>`) opens it again; one computation per player and data version for every phone."""

import pytest
from streamlit.testing.v1 import AppTest

from stsa import demo, store
from stsa.services import draws, player
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


def find(at, query: str, nickname: str) -> AppTest:
    """Type `query` in the search and tap `nickname`."""
    at.text_input(key="player_search").input(query).run()
    assert not at.exception
    picks = [b for b in at.button if b.key and b.key.startswith("player_pick_")]
    button = next(b for b in picks if b.label == nickname)
    return button.click().run()


@pytest.mark.parametrize("who", [None, JUDGE, ORGANIZER])
def test_everyone_finds_a_seat_by_nickname_in_two_taps(open_page, sitting_in_play, who):
    seat = sitting_in_play.loc[sitting_in_play["seat"] == 2].iloc[0]
    at = open_page(PAGE, as_=who)
    assert not at.exception
    assert at.text_input(key="player_search").label == "Your nickname"
    name = seat["name"]  # the demo's nicknames are the players' names
    at = find(at, name[:5], name)
    assert not at.exception
    assert at.query_params["player"] == str(seat["player_id"])
    assert shown(at.header) == [name]
    assert shown(at.subheader)[0] == f"Table {seat['table_no']} · seat 2"
    first = sitting_in_play.loc[(sitting_in_play["table_id"] == seat["table_id"])
                                & (sitting_in_play["seat"] == 1), "name"].iloc[0]
    assert "Qualifier 4 · " in text(at)
    assert f":{seat['colour']}[■] {seat['colour']} · 4 players at the table" in text(at), \
        "a square of the colour, then its name"
    assert f"First player: **{first}** (seat 1)" in text(at) and "Setup: **" in text(at)
    assert "· 3 games" in text(at)
    assert at.dataframe[0].value["Sitting"].tolist() == ["Qualifier 1", "Qualifier 2",
                                                         "Qualifier 3"]


def test_a_bookmarked_link_opens_the_page_again(db_url, sitting_in_play):
    seat = sitting_in_play.loc[sitting_in_play["seat"] == 1].iloc[0]
    at = open_link(db_url, int(seat["player_id"]))
    assert not at.exception
    assert shown(at.header) == [seat["name"]]
    assert "You play first." in text(at)
    at.button(key="player_other").click().run()  # not me: back to the search
    assert "player" not in at.query_params
    assert at.text_input(key="player_search")


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
    assert shown(at.header) == [seat["name"]]
    assert f"Table {seat['table_no']} · seat" in shown(at.subheader)[0]


def test_R1_a_player_with_no_seat_sits_this_one_out(db_url, sitting_in_play, engine):
    unseated = set(store.players(engine)["player_id"]) - set(sitting_in_play["player_id"])
    at = open_link(db_url, min(unseated))
    assert "You sit this one out: you have no seat in Qualifier 4." in shown(at.info)


def test_between_sittings_the_seat_is_not_drawn_yet(db_url, engine):
    demo.load_demo(engine, actor=ORGANIZER)
    ids = store.players(engine)["player_id"].tolist()
    draws.draw_qualifier(engine, ids, seed=9, actor=ORGANIZER)  # a draft: not public
    at = open_link(db_url, ids[0], as_=ORGANIZER)  # the public's view, for the organizer too
    assert not at.exception
    assert any(i.startswith("Not drawn yet") for i in shown(at.info))
    assert "11th; places 4–11 play the semifinal, 3 points behind 3rd" in text(at)


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
    assert shown(at.header) == ["Sandworm*Rider"]
    assert real not in text(at)


def test_every_game_shows_at_the_tables_full_height(db_url, sitting_in_play, table_heights):
    """The games table shows all its rows: the page scrolls, not a box inside it."""
    at = open_link(db_url, int(sitting_in_play["player_id"].iloc[0]))
    assert not at.exception
    assert len(at.dataframe[0].value) == 3 and table_heights == ["content"]


def test_an_empty_tournament_says_players_come_first(open_page):
    at = open_page(PAGE)
    assert not at.exception
    assert "No players yet" in shown(at.info)[0]


def test_every_phone_on_one_player_costs_one_computation_per_change(db_url, sitting_in_play,
                                                                     monkeypatch):
    prepared = count_calls(monkeypatch, player, "prepare")
    calls = count_calls(monkeypatch, player, "player_facts")
    for seat in (sitting_in_play.iloc[0], sitting_in_play.iloc[1]):
        for who in (None, None, JUDGE, ORGANIZER):
            assert not open_link(db_url, int(seat["player_id"]), as_=who).exception
    assert len(prepared) == 1 and len(calls) == 2  # one book, then a few lookups per player
