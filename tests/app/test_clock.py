"""R26: each sitting's clock on the pages, for each role: the countdown on TV, Home, My seat
and the judges' Results page (the deadline and the server's now, for the browser to count
down); judges and the organizer start, pause, resume, extend and call time on the Results
page; spectators get no controls; publishing a draw never starts the clock."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from stsa import store, tournament
from stsa.auth import Actor, Role
from tests.app.conftest import JUDGE, ORGANIZER

RESULTS = "views/results.py"
# a page run right after a write hands its element the new answer (in use: within a poll)
pytestmark = pytest.mark.usefixtures("answers_at_once")


@pytest.fixture
def playing(engine):
    """A published qualifier of 8 players (two tables), its clock not started; the first
    player's id and table."""
    store.set_settings(engine, {"sitting_minutes": 90, "time_words": "Finish the round."},
                       actor=ORGANIZER)
    ids = store.import_players(engine, pd.DataFrame({"name": [f"P{i}" for i in range(8)]}),
                               actor=ORGANIZER)["player_id"].tolist()
    store.check_in(engine, ids, actor=ORGANIZER)
    sid = int(tournament.draw_qualifier(engine, ids, seed=3, actor=ORGANIZER)["sitting_id"])
    store.publish_sitting(engine, sid, actor=ORGANIZER)
    seats = store.seats(engine, sid, actor=ORGANIZER)
    first = seats.iloc[0]
    return {"engine": engine, "sitting_id": sid, "player_id": int(first["player_id"]),
            "table_no": int(first["table_no"])}


def countdowns(at) -> list[dict]:
    """The data each countdown on the page was given (the browser counts down from it)."""
    return [json.loads(e.proto.json) for e in at.get("bidi_component")
            if e.proto.component_name.endswith("stsa_countdown")]


def live_clock(at) -> dict | None:
    """The clock a live element counts down (the browser does it from the answer): Home's
    and TV's everyone's (TV's large); My seat's the player's own table (its own time when it
    was given more), labelled with it. None without one."""
    from stsa.ui import live_element

    for mounted in at.get("bidi_component"):
        name = mounted.proto.component_name
        if not name.endswith(("stsa_live_tv", "stsa_live_seat", "stsa_live_home")):
            continue
        found = live_element.data_of(mounted.proto.json)
        clock = found["answer"]["clock"]
        if clock is None:
            return None
        if not name.endswith("stsa_live_seat"):
            return {**clock, "large": name.endswith("stsa_live_tv")}
        (me,) = [p for p in found["answer"]["players"] if p["id"] == found["player"]]
        own = next((t for t in clock["tables"] if t["table"] == me.get("table")), clock)
        return {**clock, **{k: own[k] for k in ("status", "deadline_ms", "left_ms")},
                "label": found["words"]["table_label"].format(sitting=clock["label"],
                                                              table=me.get("table"))}
    return None


def table_times(at) -> dict[int, dict]:
    """What the judges' table times were given, by table (the browser counts down each)."""
    found = [json.loads(e.proto.json) for e in at.get("bidi_component")
             if e.proto.component_name .endswith("stsa_table_times")]
    assert len(found) == 1, found
    return {t["table"]: t for t in found[0]["tables"]}


def press(at, key: str):
    at.button(key=key).click()
    at.run()
    assert not at.exception
    return at


def test_R26_publishing_never_starts_the_clock_and_judges_start_it(open_page, playing):
    at = open_page(RESULTS, as_=JUDGE)
    assert not at.exception
    (shown,) = countdowns(at)
    assert shown["status"] == "not started" and shown["left_ms"] == 90 * 60 * 1000
    assert shown["deadline_ms"] is None
    press(at, "clock_start")
    (shown,) = countdowns(at)
    assert shown["status"] == "running"
    assert shown["deadline_ms"] - shown["now_ms"] == shown["left_ms"] <= 90 * 60 * 1000
    assert [a.action for a in store.clock_actions(playing["engine"], playing["sitting_id"])] \
        == ["start"]
    press(at, "clock_pause")
    assert countdowns(at)[0]["status"] == "paused"
    press(at, "clock_resume")
    at.number_input(key="clock_extend_minutes").set_value(7)
    press(at, "clock_extend")
    (shown,) = countdowns(at)
    assert 96 * 60 * 1000 < shown["left_ms"] <= 97 * 60 * 1000
    times = table_times(at)
    assert list(times) == [1, 2] and all(t["playing"] for t in times.values())
    assert {t["status"] for t in times.values()} == {"running"}
    assert all(abs(t["deadline_ms"] - shown["deadline_ms"]) <= 2 for t in times.values())


def test_R26_one_table_gets_more_time_with_a_reason(open_page, playing):
    store.clock_action(playing["engine"], playing["sitting_id"], "start", actor=JUDGE)
    at = open_page(RESULTS, as_=ORGANIZER)
    at.selectbox(key="clock_table").set_value(2)
    at.number_input(key="clock_table_minutes").set_value(4)
    press(at, "clock_extend_table")
    assert "Say why" in at.error[0].value  # the reason is asked for
    at.text_input(key="clock_table_reason").input("a judge's ruling")
    press(at, "clock_extend_table")
    times = table_times(at)
    assert times[2]["added_minutes"] == 4 and times[1]["added_minutes"] == 0
    assert times[2]["left_ms"] - times[1]["left_ms"] == 4 * 60 * 1000
    (action,) = [a for a in store.clock_actions(playing["engine"], playing["sitting_id"])
                 if a.action == "extend_table"]
    assert (action.table_no, action.seconds, action.reason) == (2, 240, "a judge's ruling")


def test_R26_calling_time_needs_a_tick_and_shows_everywhere(open_page, playing):
    engine, sid = playing["engine"], playing["sitting_id"]
    store.clock_action(engine, sid, "start", actor=JUDGE)
    at = open_page(RESULTS, as_=JUDGE)
    assert at.button(key="clock_call").disabled  # a mis-tap calls nothing
    at.checkbox(key="clock_call_sure").check()
    at.run()
    press(at, "clock_call")
    (shown,) = countdowns(at)
    assert shown["status"] == "time called" and shown["words"] == "Finish the round."
    times = table_times(at)  # the browser marks tables still playing at time
    assert all(t["playing"] and t["status"] == "time called" and t["left_ms"] == 0
               for t in times.values())
    for page, query in (("views/tv.py", None), ("views/home.py", None),
                        ("views/player.py", {"player": str(playing["player_id"])})):
        seen = open_page(page, query=query)
        assert not seen.exception
        shown = live_clock(seen)
        assert shown["status"] == "time called" and shown["words"] == "Finish the round."


def test_R26_my_seat_counts_down_to_my_tables_time(open_page, playing):
    engine, sid, table_no = playing["engine"], playing["sitting_id"], playing["table_no"]
    store.clock_action(engine, sid, "start", actor=JUDGE)
    store.clock_action(engine, sid, "extend_table", minutes=6, table_no=table_no,
                       reason="a spill", actor=JUDGE)
    at = open_page("views/player.py", query={"player": str(playing["player_id"])})
    shown = live_clock(at)
    assert shown["label"] == f"Qualifier 1, table {table_no}"
    assert shown["left_ms"] > 95 * 60 * 1000  # 90 minutes and the table's own 6
    home = live_clock(open_page("views/home.py"))
    assert home["left_ms"] <= 90 * 60 * 1000 and home["label"] == "Qualifier 1"


def test_R26_spectators_see_the_clock_but_no_controls(open_page, playing):
    store.clock_action(playing["engine"], playing["sitting_id"], "start", actor=JUDGE)
    with pytest.raises(store.PermissionDenied):  # refused on the server, not only hidden
        store.clock_action(playing["engine"], playing["sitting_id"], "pause",
                           actor=Actor("Sam", Role.SPECTATOR))
    at = open_page(RESULTS)
    assert not at.exception
    assert not [b for b in at.button if str(b.key).startswith("clock_")]
    assert countdowns(at) == []  # the judges' clock is theirs; TV, Home and My seat show it
    tv = open_page("views/tv.py")
    shown = live_clock(tv)
    assert shown["status"] == "running" and shown["large"] is True


def test_R26_the_tv_offers_sound_only_when_the_setting_is_on(open_page, playing):
    store.clock_action(playing["engine"], playing["sitting_id"], "start", actor=JUDGE)
    assert live_clock(open_page("views/tv.py"))["sound"] is False
    store.set_settings(playing["engine"], {"clock_sound": True}, actor=ORGANIZER)
    assert live_clock(open_page("views/tv.py"))["sound"] is True


def test_R26_no_clock_before_a_sitting_is_published(open_page, engine):
    for page in ("views/tv.py", "views/home.py", RESULTS):
        at = open_page(page, as_=ORGANIZER)
        assert not at.exception
        assert countdowns(at) == [] and live_clock(at) is None


def test_R26_the_clock_is_read_once_per_data_version_for_every_session(open_page, playing,
                                                                       monkeypatch):
    from stsa.services import clock as clock_service
    from tests.app.conftest import count_calls

    calls = count_calls(monkeypatch, clock_service, "clock_of")
    for page in ("views/tv.py", "views/home.py", "views/tv.py"):  # three people, one read
        seen = open_page(page)
        shown = live_clock(seen)
        assert shown["status"] == "not started"
    assert len(calls) == 1
    store.clock_action(playing["engine"], playing["sitting_id"], "start", actor=JUDGE)
    assert live_clock(open_page("views/tv.py"))["status"] == "running"  # a new version
    assert len(calls) == 2
