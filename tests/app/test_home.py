"""Home (everyone): the tournament at a glance, the champion and podium first once the final is
in (R18, R22), the next step per role, quick links by role (R20), qualifier results corrected
after the finals were drawn (organizer and judges), and the demo tournament for an empty
database.

Its public parts are a live element (`ui.live_home`) drawn in the browser from the feed's
`live/home` answer, which the page's run hands it: those are read from the element's data."""

import dataclasses

import pytest

from stsa import demo, store, tournament
from stsa.domain import Sitting, sitting_label
from stsa.services.home import HomeStatus
from stsa.ui import organizer, widgets
from tests.app.conftest import JUDGE, ORGANIZER, corrected_after_the_finals, live_data, shown
from tests.app.test_finals import enter, play, qualifier
from tests.app.test_nicknames import sent

ORGANIZER_ONLY = {"Roster and check-in", "Settings", "Log"}
# a page run right after a write hands its element the new answer (in use: within a poll)
pytestmark = pytest.mark.usefixtures("answers_at_once")


def links(at):
    return {link.value for link in at.get("page_link")}


def home(at) -> dict:
    """The live element's answer: what Home shows of the tournament."""
    return live_data(at, "home")["answer"]


def infos(at):
    """What the page says to do next: the staff's on the page, the spectators' in the
    element."""
    said = [i.value for i in at.info]
    if live_data(at, "home")["next_step"]:
        said.append(home(at)["next_step"])
    return " ".join(said)


def metric(at, label):
    return str(home(at)[{"Players": "players", "Checked in": "checked_in",
                         "Sitting": "sitting"}[label]])


@pytest.fixture
def demo_loaded(engine):
    demo.load_demo(engine, actor=ORGANIZER)
    return engine


@pytest.fixture
def sitting_in_play(demo_loaded):
    """The demo plus a published fourth sitting with no results yet (6 tables)."""
    ids = store.players(demo_loaded)["player_id"].tolist()
    drawn = tournament.draw_qualifier(demo_loaded, ids, seed=7, actor=ORGANIZER)
    store.publish_sitting(demo_loaded, drawn["sitting_id"], actor=ORGANIZER)
    return demo_loaded


@pytest.fixture
def final_in_play(engine):
    """Eight players known by nicknames ("Nick 0" …; real names "Realname 0" …): a qualifier
    and the semifinal played, the final published with no result yet."""
    ids = qualifier(engine, [f"Realname {i}" for i in range(8)],
                    [[12, 11, 2, 1], [13, 12, 2, 1]], spice=[[0] * 4, [1] * 4])
    for i, player_id in enumerate(ids):
        store.edit_player(engine, player_id, nickname=f"Nick {i}", actor=ORGANIZER)
    play(engine, tournament.draw_semifinal, [[14, 9, 5, 3]])
    final = tournament.draw_final(engine, seed=7, actor=ORGANIZER)
    store.publish_sitting(engine, final["sitting_id"], actor=ORGANIZER)
    return int(final["sitting_id"])


def in_order(node):
    """Every element under `node`, in the order the page shows them."""
    for child in node.children.values():
        yield child
        yield from in_order(child) if getattr(child, "children", None) else ()


def test_before_the_final_is_in_home_shows_no_podium(open_page, final_in_play):
    at = open_page()
    assert not at.exception
    assert shown(at.subheader) == ["Go to"]
    assert home(at)["champion"] is None and home(at)["podium"] is None
    assert metric(at, "Sitting") == "Final"


@pytest.mark.parametrize("who", [None, JUDGE, ORGANIZER])
def test_once_the_final_is_in_home_opens_with_the_champion_and_podium(open_page, engine,
                                                                      final_in_play, who):
    """Right under the title, before the figures: the champion, then the runner-up and third,
    by nickname only, and a link to the final standings."""
    enter(engine, final_in_play, [[11, 8, 6, 4]])
    roster = store.players(engine, actor=ORGANIZER).set_index("player_id")["nickname"]
    final = store.results(engine, "final").sort_values("vp", ascending=False)
    champion, second, third = roster[final["player_id"]].head(3)
    at = open_page(as_=who)
    assert not at.exception
    assert home(at)["champion"] == f"Champion: {champion}"
    assert home(at)["podium"] == f"Runner-up: {second} · Third: {third}"
    found = live_data(at, "home")
    assert found["words"]["final_standings"] == "Final standings"
    assert found["finals_page"] == "finals"
    kinds = [e.type for e in in_order(at.main)]
    assert kinds.index("bidi_component") < kinds.index("subheader"), kinds  # before "Go to"
    assert "Realname" not in sent(at)
    assert infos(at).startswith("The tournament is over")


def test_spectator_on_an_empty_tournament(open_page):
    at = open_page()
    assert not at.exception
    assert at.title[0].value == widgets.plain(store.DEFAULT_SETTINGS["tournament_name"])
    assert metric(at, "Players") == "0"
    assert metric(at, "Sitting") == "None yet"
    assert "has not started yet" in infos(at)
    assert not at.button  # no demo, no actions
    assert links(at) == {"My seat", "Draw", "Results", "Standings", "Finals", "Sign in"}


def test_judge_sees_no_organizer_links_and_no_demo(open_page):
    at = open_page(as_=JUDGE)
    assert not at.exception
    assert links(at) == {"My seat", "Draw", "Results", "Standings", "Finals"}
    assert not at.button
    assert "Nothing to enter now" in infos(at)


def test_organizer_links_cover_every_page(open_page):
    at = open_page(as_=ORGANIZER)
    assert links(at) == {"My seat", "Draw", "Results", "Standings", "Finals"} | ORGANIZER_ONLY
    assert "Start on the Roster page" in infos(at)


def test_organizer_loads_the_demo_as_a_tournament_of_its_own(open_page, engine, db_url):
    """R27: the demo is a tournament of its own, shown at once; the empty one stays empty."""
    at = open_page(as_=ORGANIZER)
    assert "This tournament is empty" in " ".join(m.value for m in at.markdown)
    at.button(key="load_demo").click().run()
    assert not at.exception
    assert [s.value for s in at.success] == [
        "Demo tournament loaded: 24 players, 3 completed sittings."]
    assert store.players(engine).empty
    listed = store.tournaments(engine)
    assert len(listed) == 2 and listed["demo"].tolist() == [False, True]
    demo = store.connect(db_url, tournament=listed["key"].iloc[1])
    try:
        assert len(store.players(demo)) == 24
        sittings = store.sittings(demo, actor=ORGANIZER)
        assert sittings["status"].tolist() == ["complete"] * 3
    finally:
        demo.dispose()
    assert metric(at, "Players") == "24"
    assert metric(at, "Sitting") == "Qualifier 3"
    assert at.title[0].value == widgets.plain("Demo: Swordmasters Open")
    assert not at.button  # the demo is offered on an empty database only


def test_demo_is_not_loaded_once_the_database_is_not_empty(open_page, engine):
    """A player added from another tab moves the data version: the click's run sees the
    player, offers no demo any more and makes no demo tournament."""
    at = open_page(as_=ORGANIZER)
    store.add_player(engine, "Early Bird", actor=ORGANIZER)  # e.g. from another tab
    at.button(key="load_demo").click().run()
    assert not at.exception and "load_demo" not in [b.key for b in at.button]
    assert metric(at, "Players") == "1"
    assert store.players(engine)["name"].tolist() == ["Early Bird"]
    assert store.sittings(engine, actor=ORGANIZER).empty
    assert len(store.tournaments(engine)) == 1


def test_no_demo_button_with_only_withdrawn_players(open_page, engine):
    ann = store.add_player(engine, "Ann", actor=ORGANIZER)
    store.withdraw_player(engine, ann["player_id"], actor=ORGANIZER)
    at = open_page(as_=ORGANIZER)
    assert metric(at, "Players") == "0"
    assert not at.button


def test_completed_sittings_and_check_ins(open_page, demo_loaded):
    ids = store.players(demo_loaded)["player_id"].tolist()
    store.check_in(demo_loaded, ids[:9], actor=ORGANIZER)
    at = open_page(as_=ORGANIZER)
    assert metric(at, "Checked in") == "9"
    assert home(at)["sitting_line"] == "**Qualifier 3** is complete (6 of 6 tables reported)."
    assert "9 players are checked in: draw the next sitting" in infos(at)
    spectator = open_page()
    assert "See the Standings page" in infos(spectator)


def test_published_sitting_lists_missing_tables_per_role(open_page, sitting_in_play):
    missing = "Tables still missing results: 1, 2, 3, 4, 5, 6."
    organizer_view = open_page(as_=ORGANIZER)
    assert home(organizer_view)["missing"] == missing
    assert "judges still have to enter tables 1, 2, 3, 4, 5, 6" in infos(organizer_view)
    judge = open_page(as_=JUDGE)
    assert "Enter results on the Results page: tables 1, 2, 3, 4, 5, 6 of Qualifier 4" \
        in infos(judge)
    spectator = open_page()
    assert metric(spectator, "Sitting") == "Qualifier 4"
    assert "find your table on the Draw page" in infos(spectator)


def test_unpublished_draw_is_hidden_from_spectators(open_page, demo_loaded):
    ids = store.players(demo_loaded)["player_id"].tolist()
    tournament.draw_qualifier(demo_loaded, ids, seed=7, actor=ORGANIZER)
    spectator = open_page()
    assert metric(spectator, "Sitting") == "Qualifier 3"  # R20: the draw is not public yet
    assert "Qualifier 4" not in str(home(spectator)) + infos(spectator)
    judge = open_page(as_=JUDGE)
    assert "Qualifier 4 is drawn; results can be entered once the organizer publishes it." \
        in infos(judge)
    organizer_view = open_page(as_=ORGANIZER)
    assert "drawn but not published" in infos(organizer_view)


def test_tournament_name_is_shown_as_text(open_page, engine):
    name = "**Bold** <b>Open</b> [x](http://e.vil)"
    store.set_settings(engine, {"tournament_name": name}, actor=ORGANIZER)
    at = open_page()
    assert at.title[0].value == widgets.plain(name)
    assert "<b>" not in at.title[0].value


def test_next_step_and_listing_helpers():
    status = HomeStatus(tournament_name="Cup", players=12, checked_in=2, sitting=None,
                        missing_tables=())
    assert "Check in the players" in organizer.next_step(status, organizer.Role.ORGANIZER)
    assert organizer.listed(list(range(1, 31)), limit=3) == "1, 2, 3 … and 27 more"
    assert sitting_label("semifinal", 1) == "Semifinal"
    final = Sitting.of({"sitting_id": 9, "kind": "final", "number": 1, "seed": 1,
                        "status": "complete", "created_by": "Olga", "created_at": None,
                        "published_at": None, "completed_at": None, "tables": 1, "results": 1,
                        "rule_change": "", "rule_change_points": ""})
    over = dataclasses.replace(status, sitting=final)
    for role in organizer.Role:
        assert organizer.next_step(over, role).startswith("The tournament is over")


def test_a_qualifier_corrected_after_the_finals_are_drawn_is_flagged_for_staff(open_page,
                                                                               engine):
    where = corrected_after_the_finals(engine)
    line = (f"A qualifier result was corrected after the finals were drawn: {where}, by "
            f"{ORGANIZER.name} on ")
    for who in (ORGANIZER, JUDGE):
        at = open_page(as_=who)
        assert not at.exception
        flags = [w for w in shown(at.warning) if w.startswith(line)]
        assert len(flags) == 1 and flags[0].endswith(".")
    spectator = open_page()
    assert not [w for w in spectator.warning if "after the finals" in w.value]


@pytest.mark.parametrize("who", [None, JUDGE, ORGANIZER])
def test_home_has_no_timer_that_reruns_it(open_page, sitting_in_play, who, timers):
    """The element follows the feed by itself: opening Home is the one Python run."""
    at = open_page(as_=who)
    assert not at.exception
    assert home(at)["sitting"] == "Qualifier 4"
    assert timers == []


def test_the_clocks_state_comes_with_the_answer_so_a_pause_shows(open_page, sitting_in_play):
    """R26: the answer carries the clock's state (the deadline while it runs, the time left
    while paused): a judge's pause changes the feed's answer, which the element's next poll
    brings, with no run of the page."""
    import json

    from stsa.web import feed
    from tests.support import feed_routes

    engine = sitting_in_play
    sitting_id = int(store.sittings(engine, actor=ORGANIZER)["sitting_id"].iloc[-1])
    store.clock_action(engine, sitting_id, "start", actor=JUDGE)
    running = home(open_page())["clock"]
    assert running["status"] == "running" and running["deadline_ms"] > 0
    assert running["caption"].startswith("Qualifier 4: running, time at ")
    store.clock_action(engine, sitting_id, "pause", actor=JUDGE)
    feed.forget_recent()
    key = store.tournaments(engine)["key"].iloc[0]
    answer = feed_routes.answer("/api/v1/tournaments/{key}/live/home", key=key)
    paused = json.loads(bytes(answer.body))["clock"]
    assert paused["status"] == "paused" and paused["deadline_ms"] is None
    assert 0 < paused["left_ms"] <= running["left_ms"]
    assert paused["caption"] == "Qualifier 4: paused."
