"""The live pages' refresh interval follows the room (stsa.ui.live.refresh_seconds)."""

import pytest

from stsa.ui import live, server


@pytest.mark.parametrize(("pages", "seconds"), [
    (0, 10), (1, 10), (400, 10), (401, 15), (600, 15), (601, 20), (1000, 25), (1024, 30),
    (4000, 100)])
def test_a_fuller_room_refreshes_less_often_in_whole_steps(pages, seconds):
    assert live.refresh_seconds(pages) == seconds
    # what one process is then asked for stays near its share
    assert pages / live.refresh_seconds(pages) <= live.ROOM_REFRESHES


def test_the_room_share_can_be_set_for_a_slower_laptop(monkeypatch):
    monkeypatch.setenv(live.ROOM_REFRESHES_ENV, "20")
    assert live.refresh_seconds(300) == 15
    for nonsense in ("0", "-5", "many", "inf", "nan"):
        monkeypatch.setenv(live.ROOM_REFRESHES_ENV, nonsense)
        assert live.refresh_seconds(400) == 10, nonsense


def test_the_open_pages_are_counted_by_the_server():
    pages = server.Pages()
    for _ in range(3):
        pages.open()
    pages.close()
    assert pages.count() == 2
    pages.close(), pages.close(), pages.close()  # a close never counts below none
    assert pages.count() == 0
    assert live.refresh_seconds() == live.REFRESH_SECONDS  # no server here: no pages
