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


def test_a_room_at_a_steps_edge_keeps_its_interval(monkeypatch):
    """Growing past a step changes the interval at once; shrinking only once the room has
    emptied by a fifth more, so pages coming and going at the edge do not swing it."""
    import streamlit as st

    reruns = []
    monkeypatch.setattr(st, "rerun", lambda scope: reruns.append(scope))
    counted = server.Pages()
    monkeypatch.setattr(server, "PAGES", counted)

    def room(pages: int, every: int) -> bool:
        counted._count = pages
        reruns.clear()
        live.follow_room(every)
        return reruns == ["app"]

    assert room(401, 10), "a page set for 10 s in a room of 401 takes 15 s"
    assert not room(401, 15)
    assert not room(399, 15) and not room(330, 15), "still near the edge: 15 s stays"
    assert room(320, 15), "a fifth below the edge: back to 10 s"
    assert not room(0, 10)
