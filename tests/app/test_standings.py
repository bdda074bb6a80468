"""Standings page (R14–R16, R20): ranks for everyone, the finals cut, ties at a cut line for the
organizer, a player search with that player's games; names shown as text.

The page is a live element (`ui.live_standings`) that the browser draws from the feed's
`live/standings` answer, and searches in: a page's run hands it that answer, its words and its
columns, with no fragment that reruns Python. What the browser does with them (the search,
All columns, pages of rows) is tested in tests/e2e; here, what the page gives it and what the
cards' answer (`live/cards`) says of a player."""

import json

import pandas as pd
import pytest

from stsa import demo, store, tournament
from stsa.ui import live, live_standings, tables
from tests.app.conftest import JUDGE, ORGANIZER, PINS, count_calls, live_data
from tests.app.test_home import final_in_play  # noqa: F401  (a fixture)
from tests.support import feed_routes

PAGE = "views/standings.py"
# a page run right after a write hands its element the new answer (in use: within a poll)
pytestmark = pytest.mark.usefixtures("answers_at_once")


def play_qualifier(engine, names, vps):
    """Add `names`, draw one qualifier for them, publish it and enter `vps[t]` (by seat) for
    table t + 1, every other number 0."""
    ids = store.import_players(engine, pd.DataFrame({"name": names}),
                               actor=ORGANIZER)["player_id"].tolist()
    sitting = tournament.draw_qualifier(engine, ids, seed=11, actor=ORGANIZER)
    store.publish_sitting(engine, sitting["sitting_id"], actor=ORGANIZER)
    tables = store.tables(engine, sitting["sitting_id"], actor=ORGANIZER)
    seats = store.seats(engine, sitting["sitting_id"], actor=ORGANIZER)
    for table, vp in zip(tables.itertuples(), vps):
        at = seats.loc[seats["table_id"] == table.table_id]
        rows = pd.DataFrame({"player_id": at["player_id"].to_numpy(),
                             "leader": table.available_leaders[:len(at)], "vp": vp,
                             "spice": 0, "solari": 0, "troops": 0, "water": 0})
        store.submit_table_result(engine, table.table_id, rows, expected_version=0,
                                  submission_id=None, actor=ORGANIZER)
    return ids


@pytest.fixture
def demo_tournament(engine):
    demo.load_demo(engine, actor=ORGANIZER)
    return engine


@pytest.fixture
def tournament_with_tie_at_cut(engine):
    """12 players, three tables with the same results: ranks 1,1,1,4,4,4,7,7,7,10,10,10, so
    rank 4 straddles the final line (4) and rank 7 the semifinal line (8)."""
    play_qualifier(engine, [f"Player {i:02}" for i in range(12)], [[10, 9, 8, 7]] * 3)
    return engine


def standings(at) -> dict:
    """The standings element's data (its answer under `answer`)."""
    return live_data(at, "standings")


def shown_table(at) -> pd.DataFrame:
    """The standings the element starts from, one row per player, its zone tags joined ("" before
    there is a cut)."""
    rows = pd.DataFrame(standings(at)["answer"]["standings"])
    return rows.assign(zone=[", ".join(tags) for tags in rows["zone"]]) if len(rows) else rows


def card(engine, name: str) -> dict:
    """The card a search for `name` shows (the `live/cards` answer's, as the feed gives it)."""
    key = store.tournaments(engine)["key"].iloc[0]
    answer = feed_routes.answer("/api/v1/tournaments/{key}/live/cards", key=key)
    assert answer.status_code == 200
    return next(p for p in json.loads(bytes(answer.body))["players"] if p["player"] == name)


@pytest.mark.parametrize("who", [None, JUDGE, ORGANIZER])
def test_empty_tournament_says_what_comes_next(open_page, who, timers):
    at = open_page(PAGE, as_=who)
    assert not at.exception
    found = standings(at)
    assert found["answer"]["standings"] == [] and "No results yet" in found["words"]["empty"]
    assert not at.dataframe and not at.text_input  # the search is the element's
    assert timers == []  # nothing reruns the page: the element polls the feed


def test_fewer_than_four_players_have_no_cut(open_page, engine):
    play_qualifier(engine, ["Ann", "Ben", "Cy"], [[9, 6, 3]])
    at = open_page(PAGE)
    assert not at.exception
    assert standings(at)["answer"]["cut"] == "3 players so far: finals need at least 4."
    table = shown_table(at)
    assert sorted(table["player"]) == ["Ann", "Ben", "Cy"]
    assert table["best_score"].tolist() == [23, 18, 10]
    assert (table["zone"] == "").all()


@pytest.mark.parametrize("who", [None, JUDGE, ORGANIZER])
def test_demo_standings_show_ranks_and_the_cut(open_page, demo_tournament, who, timers):
    at = open_page(PAGE, as_=who)
    assert not at.exception
    found = standings(at)
    answer = found["answer"]
    assert answer["cut"] == ("24 players: the top 3 go straight to the final, the next 8 play "
                             "the semifinal, 13 are out.")
    assert answer["progress"] == "Qualifier 3: all 6 tables have reported."
    assert found["live"]["url"].endswith("/live/standings?lang=en")
    table = shown_table(at)
    expected = tournament.standings_table(demo_tournament)
    assert answer["columns"] == ["rank", "player", "best_score", "zone", "games", "wins",
                                 "placing", "vp"]
    assert table["player"].tolist() == expected["name"].tolist()
    assert table["best_score"].tolist() == expected["best_score"].tolist()
    assert table["zone"].tolist() == ["Final"] * 3 + ["Semifinal"] * 8 + ["Out"] * 13
    assert not at.warning and timers == []


def test_tie_at_cut_warns_the_organizer(open_page, tournament_with_tie_at_cut):
    at = open_page(PAGE, as_=ORGANIZER)
    assert not at.exception
    warnings = [w.value.replace("\\", "") for w in at.warning]
    assert len(warnings) == 2
    assert warnings[0].startswith("Rank 4 is shared across the final cut line by")
    assert warnings[1].startswith("Rank 7 is shared across the semifinal cut line by")
    assert standings(at)["words"]["tie"] == ""  # the warnings say it, naming the players
    table = shown_table(at)
    assert table["tie_at_cut"].tolist() == [False] * 3 + [True] * 6 + [False] * 3


@pytest.mark.parametrize("who", [None, JUDGE])
def test_tie_at_cut_is_flagged_but_not_a_warning_for_others(open_page, who,
                                                             tournament_with_tie_at_cut):
    at = open_page(PAGE, as_=who)
    assert not at.warning
    found = standings(at)
    assert found["answer"]["tie_at_cut"] is True
    assert found["words"]["tie"].startswith("A rank is shared across a cut line")
    assert shown_table(at)["tie_at_cut"].sum() == 6


def test_a_search_card_shows_a_players_games_and_best_score(demo_tournament):
    row = tournament.standings_table(demo_tournament).set_index("name").loc["Alia Brandt"]
    found = card(demo_tournament, "Alia Brandt")
    assert found["line"].startswith(f"Best score **{row['best_score']}**, rank {row['rank']}, "
                                    f"3 games")
    assert [g["sitting"] for g in found["games"]] == ["Qualifier 1", "Qualifier 2",
                                                      "Qualifier 3"]
    assert max(g["score"] for g in found["games"]) == row["best_score"]
    assert set(found["games"][0]) == {"sitting", "table", "placing", "vp", "score"}


def test_the_element_gets_its_search_words_and_when_to_show_cards(open_page, demo_tournament):
    found = standings(open_page(PAGE))
    words = found["words"]
    assert words["find"] == "Find a player" and words["placeholder"] == "Type part of a name"
    assert words["no_match"] == "No player's name contains “{query}”."
    assert words["many"] == "{count} players match: type more of a name to see their games."
    assert words["games"] == ["Sitting", "Table", "Placing", "VP", "Score"]
    assert found["cards"] == live_standings.CARDS == 5
    assert found["cards_url"].endswith("/live/cards?lang=en")


def test_names_with_markup_are_sent_as_typed_for_the_browser_to_set_as_text(open_page, engine):
    hostile = "**Bold** <b>x</b> [link](http://x)"
    play_qualifier(engine, [hostile, "Ben", "Cy", "Di"], [[9, 7, 5, 3]])
    at = open_page(PAGE)
    assert hostile in shown_table(at)["player"].tolist()
    assert card(engine, hostile)["player"] == hostile


# --- live standings: cut-line colours, distance to the cut, the sitting in progress -----------

def test_a_phone_shows_rank_player_zone_best_score_and_games(open_page, demo_tournament):
    """A 390 px phone: the five columns a player looks for fill the table's width, the name
    taking what the others leave; the rest after "All columns"."""
    found = standings(open_page(PAGE))
    columns = found["columns"]
    first = columns[:found["compact"]]
    assert [c["key"] for c in first] == ["rank", "player", "zone", "best_score", "games"]
    assert [c["label"] for c in first] == ["Rank", "Player", "Zone", "Best", "Games"]
    rest = sum(c["width"] for c in first if c["key"] != "player")
    assert tables.PHONE_WIDTH - rest >= 120, "long names keep most of their letters"
    assert [c["key"] for c in columns[found["compact"]:]] == [
        "wins", "qualifier_rank", "placing", "vp", "tie_at_cut"]
    assert found["page_rows"] == tables.PAGE_ROWS


def test_zones_are_coloured_so_the_cut_lines_show(open_page, demo_tournament):
    """Each zone is a coloured tag (gold, blue, grey): the colour changes at a cut line."""
    found = standings(open_page(PAGE))
    colours = {tag: t["colour"] for tag, t in found["tags"].items()}
    assert colours == live.ZONE_TAGS
    assert colours["Final"] != colours["Semifinal"] != colours["Out"]
    assert found["answer"]["legend"] == ("Gold: places 1–3 go straight to the final; blue: "
                                         "places 4–11 play the semifinal.")


def test_a_card_shows_the_distance_to_the_cut(demo_tournament):
    table = tournament.standings_table(demo_tournament)
    last = table.iloc[-1]
    gap_final = int(table["best_score"].iloc[2] - last["best_score"])
    gap_semi = int(table["best_score"].iloc[10] - last["best_score"])
    assert card(demo_tournament, last["name"])["said"] == (
        f"{gap_final} points behind the last spot straight to the final; {gap_semi} points "
        f"behind the last semifinal spot.")
    assert card(demo_tournament, table["name"].iloc[0])["said"] == \
        "In the zone straight to the final."


@pytest.mark.parametrize("who", [None, ORGANIZER])
def test_tables_still_playing_are_listed(open_page, engine, who):
    ids = play_qualifier(engine, [f"Player {i:02}" for i in range(8)], [[9, 7, 5, 3]])
    sitting = tournament.draw_qualifier(engine, ids, seed=3, confirm=True, actor=ORGANIZER)
    store.publish_sitting(engine, sitting["sitting_id"], actor=ORGANIZER)
    at = open_page(PAGE, as_=who)
    assert not at.exception
    assert standings(at)["answer"]["progress"].startswith(
        "Qualifier 2: 0 of 2 tables have reported; still playing: tables 1, 2.")
    waiting = tournament.standings_table(engine).iloc[-1]["name"]  # seated, no result yet
    assert card(engine, waiting)["line"] == "Seated in a qualifier: no result yet."


def test_the_page_hands_its_element_the_feeds_answer(open_page, engine):
    """The element starts from the answer the feed gives at that moment, so its first poll
    brings nothing new; a write moves the feed's answer, which the element's next poll
    fetches (tests/e2e: with no Python run)."""
    at = open_page(PAGE)
    key = store.tournaments(engine)["key"].iloc[0]
    route = "/api/v1/tournaments/{key}/live/standings"
    assert standings(at)["answer"] == json.loads(bytes(feed_routes.answer(route, key=key).body))
    play_qualifier(engine, ["Ann", "Ben", "Cy", "Di"], [[9, 7, 5, 3]])
    from stsa.web import feed
    feed.forget_recent()
    moved = json.loads(bytes(feed_routes.answer(route, key=key).body))
    assert sorted(r["player"] for r in moved["standings"]) == ["Ann", "Ben", "Cy", "Di"]
    assert sorted(shown_table(at.run())["player"]) == ["Ann", "Ben", "Cy", "Di"]


# --- shared work: computed once per data version, for every session ---------------------------

@pytest.fixture
def standings_spy(monkeypatch):
    """Counts the computations of the standings (the service the pages' shared reads call)."""
    from stsa.services import results
    return count_calls(monkeypatch, results, "standings")


def test_a_second_session_reuses_the_standings_of_an_unchanged_version(
        open_page, demo_tournament, standings_spy):
    first = open_page(PAGE)
    assert len(standings_spy) == 1
    second = open_page(PAGE, as_=JUDGE)  # another phone, another person: the same version
    first.run()
    second.run()
    assert not first.exception and not second.exception
    assert len(standings_spy) == 1
    assert shown_table(second)["player"].tolist() == shown_table(first)["player"].tolist()


def test_a_sign_in_leaves_the_shared_standings_warm(open_page, demo_tournament, standings_spy):
    at = open_page(PAGE)
    judge = open_page("views/sign_in.py")
    judge.text_input(key="sign_in_name").input("Jamal")
    judge.text_input(key="sign_in_pin").input(PINS[JUDGE.role])
    judge.button[0].click().run()
    assert "Signed in as Jamal (judge)." in [s.value for s in judge.success]
    at.run()
    assert len(standings_spy) == 1


def test_a_write_makes_every_session_see_the_new_data_once(open_page, engine, standings_spy):
    play_qualifier(engine, ["Ann", "Ben", "Cy", "Di"], [[9, 7, 5, 3]])
    first, second = open_page(PAGE), open_page(PAGE)
    assert len(standings_spy) == 1
    play_qualifier(engine, ["Eve", "Fay", "Gil"], [[8, 6, 4]])  # a judge's save elsewhere
    first.run()
    second.run()
    assert len(standings_spy) == 2
    for at in (first, second):
        assert sorted(shown_table(at)["player"]) == ["Ann", "Ben", "Cy", "Di", "Eve", "Fay",
                                                     "Gil"]


@pytest.mark.usefixtures("final_in_play")
def test_once_the_finals_begin_a_card_says_where_the_finals_put_the_player(engine):
    """R16–R18: no rank and no distance to the cut once a finals sitting is played: where
    the player stands in the finals, as their own page says it."""
    import re

    key = store.tournaments(engine)["key"].iloc[0]
    answer = feed_routes.answer("/api/v1/tournaments/{key}/live/cards", key=key)
    found = json.loads(bytes(answer.body))["players"]
    assert found and all(re.fullmatch(r"Best score \*\*\d+\*\*, \d+ games?, \d+ wins?\.",
                                      p["line"]) for p in found)
    assert all("after the qualifiers" in p["said"] for p in found)
    assert any(g["sitting"] == "Semifinal" for p in found for g in p["games"])
