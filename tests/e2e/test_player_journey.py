"""A player on their phone right after a publish: "where do I sit?" (My seat, R3, R22). They
search their nickname, tap it, read their table and seat, and the bookmarked address opens
the same page again after a reload and on another phone."""

import re

import pytest

from stsa import demo, store
from stsa.auth import Actor, Role
from stsa.services import draws
from tests.e2e.conftest import PHONE, click, go_to, load, type_text

pytestmark = pytest.mark.e2e
ORGANIZER = Actor("Olivia", Role.ORGANIZER)


@pytest.fixture
def published(fresh_server):
    """The demo tournament and a published fourth qualifier for everyone; its seats."""
    engine = store.connect(fresh_server.database_url)
    demo.load_demo(engine, actor=ORGANIZER)
    drawn = draws.draw_qualifier(engine, store.players(engine)["player_id"].tolist(),
                                    seed=21, actor=ORGANIZER)
    draws.publish(engine, drawn["sitting_id"], actor=ORGANIZER)
    seats = store.seats(engine, drawn["sitting_id"])
    engine.dispose()
    return seats


def test_a_player_finds_their_seat_by_nickname_and_keeps_the_link(open_app, fresh_server,
                                                                  published):
    seat = published.loc[published["seat"] == 3].iloc[0]
    heading = f"Table {seat['table_no']} · seat 3"

    phone = open_app(viewport=PHONE, app=fresh_server)
    go_to(phone, "My seat")  # from the navigation, as a player finds the page
    type_text(phone, "Your nickname", seat["name"].split()[0].lower())
    click(phone, seat["name"])
    phone.get_by_role("heading", name=heading).wait_for()
    phone.get_by_text("Qualifier 4 · ").first.wait_for()
    link = phone.url
    assert re.search(rf"[?&]player={seat['player_id']}(&|$)", link), link

    load(phone)  # a refresh keeps the page: the address names the player
    phone.get_by_role("heading", name=heading).wait_for()
    assert phone.get_by_role("heading", name=seat["name"]).count() == 1

    bookmark = open_app(link.split("/", 3)[3], viewport=PHONE, app=fresh_server)
    bookmark.get_by_role("heading", name=heading).wait_for()
    assert not bookmark.locator('input[aria-label="Your nickname"]').count()
