"""The answers My seat and TV follow in the browser (`…/live/players`, `…/live/tv`, the TV's
charts as SVG): one answer for every phone or screen, in the public's view (R20, R22), in every
language, made once per data version and language, and holding only their allow-listed fields.
"""

from __future__ import annotations

import datetime as dt
import json

import pytest

from stsa import demo, store
from stsa.clock import Status
from stsa.services import draws
from stsa.services import feed as shape
from stsa.services import schedule as schedule_service
from stsa.ui import live, live_answers
from stsa.web import feed
from tests.app.conftest import ORGANIZER, count_calls
from tests.support import feed_routes

T = "/api/v1/tournaments/{key}"
PLAYERS, TV = f"{T}/live/players", f"{T}/live/tv"
LANGUAGES = ("en", "sv", "fr")


def _get(path: str, lang: str = "", **params) -> tuple[int, dict, dict | bytes]:
    answer = feed_routes.answer(path, lang=lang or None, **params)
    body = bytes(answer.body)
    media = answer.headers.get("content-type", "")
    return answer.status_code, dict(answer.headers), \
        json.loads(body) if media.startswith("application/json") else body


@pytest.fixture
def in_play(engine):
    """The demo (24 players, three qualifiers) and a published fourth qualifier for the first
    12, its clock running with table 2 given 5 more minutes, lunch on the schedule in an
    hour; returns (key, seats)."""
    demo.load_demo(engine, actor=ORGANIZER)
    ids = store.players(engine)["player_id"].tolist()
    drawn = draws.draw_qualifier(engine, ids[:12], seed=9, actor=ORGANIZER)
    draws.publish(engine, drawn["sitting_id"], actor=ORGANIZER)
    sid = int(drawn["sitting_id"])
    store.clock_action(engine, sid, "start", actor=ORGANIZER)
    store.clock_action(engine, sid, "extend_table", minutes=5, table_no=2, reason="a ruling",
                       actor=ORGANIZER)
    schedule_service.plan_item(engine, kind="other", title="Lunch",
                               starts_at=dt.datetime.now(dt.UTC) + dt.timedelta(hours=1),
                               minutes=45, actor=ORGANIZER)
    feed.forget_recent()
    return store.tournaments(engine)["key"].iloc[0], store.seats(engine, sid)


def _allowed(name: str, answer: dict) -> None:
    """Every field sent is on the answer's list (a null object or an empty list stands for
    the fields under it); `check` refused anything else before it was sent."""
    fields = shape.FIELDS[name]
    assert not {p for p in shape.paths(answer) if p not in fields
                and not any(f.startswith((f"{p}[]", f"{p}.")) for f in fields)}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_R3_R26_my_seat_answer_holds_every_player_in_the_pages_language(in_play, lang):
    key, seats = in_play
    status, headers, answer = _get(PLAYERS, lang, key=key)
    assert status == 200 and headers["etag"]
    _allowed("live_players", answer)
    assert len(answer["players"]) == 24 and answer["game_fields"] == [
        "sitting", "table", "placing", "vp", "score"]
    sitting = {"en": "Qualifier 4", "sv": "Kvalomgång 4", "fr": "Qualification 4"}[lang]
    assert answer["sitting"] == sitting
    by_id = {p["id"]: p for p in answer["players"]}
    seat = seats.loc[seats["table_no"] == 2].iloc[1]
    mine = by_id[int(seat["player_id"])]
    assert (mine["now"], mine["table"], mine["seat"], mine["colour"], mine["players"]) == (
        "seated", 2, int(seat["seat"]), seat["colour"], len(seats.loc[seats["table_no"] == 2]))
    first = seats.loc[(seats["table_no"] == 2) & (seats["seat"] == 1), "name"].iloc[0]
    assert mine["first_player"] == first and mine["setup"] and "sitting" not in mine
    assert [g[0] for g in mine["games"]] == [1, 2, 3] and mine["rank"] >= 1
    out = next(p for p in answer["players"] if p["now"] == "sitting_out")
    assert "table" not in out and "withdrawn" not in out  # nothing sent for nothing
    assert {c["colour"] for c in answer["colours"]} == set(seats["colour"])
    clock = answer["clock"]
    assert clock["label"] == sitting and clock["status"] == Status.RUNNING
    (table,) = clock["tables"]
    added = table["deadline_ms"] - clock["deadline_ms"]
    assert table["table"] == 2 and abs(added - 5 * 60_000) <= 1  # ms, rounded apart
    (lunch,) = answer["coming"]
    assert "Lunch" in lunch["today"] and "Lunch" in lunch["later"] and lunch["date"]
    english = _get(PLAYERS, "en", key=key)[2]
    assert shape.paths(answer) == shape.paths(english)  # the same fields in every language
    if lang != "en":
        assert mine["standing"] != next(p for p in english["players"]
                                        if p["id"] == mine["id"])["standing"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_R14_R16_tv_answer_holds_its_slides_in_the_pages_language(in_play, lang):
    key, _seats = in_play
    status, _headers, answer = _get(TV, lang, key=key)
    assert status == 200
    _allowed("live_tv", answer)
    assert answer["name"] == "Demo: Swordmasters Open" and answer["players"] == 24
    assert [s["kind"] for s in answer["slides"]] == ["standings", "chart", "chart"]
    assert answer["slides"][0]["columns"] == [[0, 12], [12, 24]]
    assert len(answer["standings"]) == 24 and answer["standings"][0]["rank"] == 1
    assert answer["standings"][0]["tint"] == live.ROW_COLOURS["Final"]
    assert answer["clock"]["status"] == Status.RUNNING and answer["clock"]["tables"] == []
    zone = {"en": "Final", "sv": "Final", "fr": "Finale"}[lang]
    assert answer["standings"][0]["zone"] == zone
    assert answer["progress"] and answer["cut"] and answer["check_in"]["number"] == 5
    charts = [s["chart"] for s in answer["slides"] if s["kind"] == "chart"]
    for chart in charts:
        status, headers, svg = _get(f"{T}/live/charts/{chart}.svg", lang, key=key)
        assert status == 200 and headers["content-type"].startswith("image/svg+xml")
        assert svg.startswith(b"<svg")
    status, _headers, svg = _get(f"{T}/live/charts/best-scores.svg", lang, key=key)
    top = answer["standings"][0]["player"]
    assert top.encode() in svg  # the players named under their bars


def test_a_large_field_sends_the_tv_its_slides_rows_and_how_many_more(engine):
    """130 players seated in a qualifier (no result yet): four slides of 32, the rest on the
    Standings page."""
    store.set_settings(engine, {"capacity": 130}, actor=ORGANIZER)
    ids = store.import_players(engine, [{"name": f"Player {i:03d}"} for i in range(130)],
                               actor=ORGANIZER)["player_id"].tolist()
    drawn = draws.draw_qualifier(engine, ids, seed=3, actor=ORGANIZER)
    draws.publish(engine, drawn["sitting_id"], actor=ORGANIZER)
    key = store.tournaments(engine)["key"].iloc[0]
    answer = _get(TV, key=key)[2]
    assert len(answer["standings"]) == 128  # four slides of two columns of 16
    assert [s["columns"] for s in answer["slides"] if s["kind"] == "standings"][1] == [
        [32, 48], [48, 64]]
    assert answer["slides"][1]["heading"] == "Standings, places 33–64"
    assert answer["cut"].endswith("2 more on the Standings page.")


def test_each_answer_is_made_once_per_version_and_language(in_play, monkeypatch):
    key, _seats = in_play
    made = count_calls(monkeypatch, shape, "live_players")
    shown = count_calls(monkeypatch, shape, "live_tv")
    for _ in range(3):
        for lang in ("en", "sv"):
            feed.forget_recent()
            assert _get(PLAYERS, lang, key=key)[0] == 200 and _get(TV, lang, key=key)[0] == 200
    assert made == [1, 1] and shown == [1, 1]


def test_an_unknown_tournament_is_a_404(in_play):
    assert _get(PLAYERS, key="no-such-tournament")[0] == 404
    assert _get(TV, key="no-such-tournament")[0] == 404


def test_R25_the_answers_say_when_self_check_in_opens_and_closes(in_play, engine):
    key, _seats = in_play
    start = dt.datetime.now(dt.UTC).replace(microsecond=0) + dt.timedelta(hours=2)
    schedule_service.plan_item(engine, kind="qualifier", number=5, starts_at=start,
                               actor=ORGANIZER)
    feed.forget_recent()
    window = _get(PLAYERS, key=key)[2]["check_in"]
    assert window["number"] == 5 and window["until_ms"] > window["from_ms"]
    assert window["from_ms"] == int((start - dt.timedelta(hours=1)).timestamp() * 1000)
    assert _get(TV, key=key)[2]["check_in"] == window


def test_the_one_players_answer_a_page_hands_its_element(in_play, engine):
    key, seats = in_play
    from stsa.ui import data
    reads = data.public(int(store.tournaments(engine)["tournament_id"].iloc[0]))
    whole = live_answers.players_payload(reads, key)
    mine = live_answers.one_player(whole, int(seats["player_id"].iloc[0]))
    assert [p["id"] for p in mine["players"]] == [int(seats["player_id"].iloc[0])]
    assert {k: v for k, v in mine.items() if k != "players"} == {
        k: v for k, v in whole.items() if k != "players"}
