"""Standings page (R14–R16, R20): ranks for everyone, the finals cut, ties at a cut line for the
organizer, a player search with that player's games; names shown as text."""

import json

import pandas as pd
import pytest

from stsa import demo, store, tournament
from stsa.ui import tables
from tests.app.conftest import JUDGE, ORGANIZER, PINS, count_calls

PAGE = "views/standings.py"


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


def shown_table(at):
    """The standings table as shown, its Zone tags read as text ("" before there is a cut)."""
    table = at.dataframe[0].value
    return table.assign(Zone=[", ".join(tags) for tags in table["Zone"]])


@pytest.mark.parametrize("who", [None, JUDGE, ORGANIZER])
def test_empty_tournament_says_what_comes_next(open_page, who):
    at = open_page(PAGE, as_=who)
    assert not at.exception
    assert "No results yet" in at.info[0].value
    assert not at.dataframe and not at.text_input


def test_fewer_than_four_players_have_no_cut(open_page, engine):
    play_qualifier(engine, ["Ann", "Ben", "Cy"], [[9, 6, 3]])
    at = open_page(PAGE)
    assert not at.exception
    assert at.caption[1].value == "3 players so far: finals need at least 4."
    table = shown_table(at)
    assert sorted(table["Player"]) == ["Ann", "Ben", "Cy"]
    assert table["Best score"].tolist() == [23, 18, 10]
    assert (table["Zone"] == "").all()


@pytest.mark.parametrize("who", [None, JUDGE, ORGANIZER])
def test_demo_standings_show_ranks_and_the_cut(open_page, demo_tournament, who):
    at = open_page(PAGE, as_=who)
    assert not at.exception
    assert at.caption[1].value == ("24 players: the top 3 go straight to the final, the next 8 "
                                   "play the semifinal, 13 are out.")
    table = shown_table(at)
    expected = tournament.standings_table(demo_tournament)
    assert list(table.columns) == ["Rank", "Player", "Best score", "Zone", "Games", "Wins",
                                   "Placing", "VP"]
    assert table["Player"].tolist() == expected["name"].tolist()
    assert table["Best score"].tolist() == expected["best_score"].tolist()
    assert table["Zone"].tolist() == ["Final"] * 3 + ["Semifinal"] * 8 + ["Out"] * 13
    assert not at.warning


def test_tie_at_cut_warns_the_organizer(open_page, tournament_with_tie_at_cut):
    at = open_page(PAGE, as_=ORGANIZER)
    assert not at.exception
    warnings = [w.value.replace("\\", "") for w in at.warning]
    assert len(warnings) == 2
    assert warnings[0].startswith("Rank 4 is shared across the final cut line by")
    assert warnings[1].startswith("Rank 7 is shared across the semifinal cut line by")
    table = shown_table(at)
    assert table["Tie at cut"].tolist() == [False] * 3 + [True] * 6 + [False] * 3


@pytest.mark.parametrize("who", [None, JUDGE])
def test_tie_at_cut_is_flagged_but_not_a_warning_for_others(open_page, who,
                                                             tournament_with_tie_at_cut):
    at = open_page(PAGE, as_=who)
    assert not at.warning
    assert shown_table(at)["Tie at cut"].sum() == 6


def test_search_shows_a_players_games_and_best_score(open_page, demo_tournament,
                                                     table_heights):
    at = open_page(PAGE)
    table_heights.clear()
    at.text_input(key="standings_search").input("  aLIa ").run()
    assert not at.exception
    table = shown_table(at)
    assert table["Player"].tolist() == ["Alia Brandt"]
    assert at.subheader[0].value.replace("\\", "") == "Alia Brandt"
    row = tournament.standings_table(demo_tournament).set_index("name").loc["Alia Brandt"]
    assert f"Best score **{row['best_score']}**, rank {row['rank']}, 3 games" in \
        at.markdown[0].value
    games = at.dataframe[1].value
    assert list(games.columns) == ["Sitting", "Table", "Placing", "VP", "Score"]
    assert games["Sitting"].tolist() == ["Qualifier 1", "Qualifier 2", "Qualifier 3"]
    assert games["Score"].max() == row["best_score"]
    assert table_heights == ["content", "content"]  # the match, then their games: all rows


def test_search_without_match_says_so(open_page, demo_tournament):
    at = open_page(PAGE)
    at.text_input(key="standings_search").input("Zebedee (").run()
    assert not at.exception
    assert "No player's name contains" in at.info[0].value
    assert not at.dataframe


def test_broad_search_lists_players_without_their_games(open_page, demo_tournament):
    at = open_page(PAGE)
    at.text_input(key="standings_search").input("a").run()
    assert len(at.dataframe) == 1 and len(shown_table(at)) > 5
    assert "type more of a name" in at.caption[-1].value


def test_names_with_markup_show_as_text(open_page, engine):
    hostile = "**Bold** <b>x</b> [link](http://x)"
    play_qualifier(engine, [hostile, "Ben", "Cy", "Di"], [[9, 7, 5, 3]])
    at = open_page(PAGE)
    assert hostile in shown_table(at)["Player"].tolist()
    at.text_input(key="standings_search").input("bold").run()
    assert at.subheader[0].value == r"\*\*Bold\*\* \<b\>x\</b\> \[link\](http\://x)"


# --- live standings: cut-line colours, distance to the cut, the sitting in progress -----------

def phone_fit(frame) -> list[str]:
    """The columns of a shown table in the order shown, checking that their widths add up to
    the width a phone shows of a table (every column given one: none is cut at the edge)."""
    widths = json.loads(frame.proto.columns)
    order = list(frame.proto.column_order)
    assert sum(widths[c]["width"] for c in order) == tables.PHONE_WIDTH, widths
    return order


def test_a_phone_shows_rank_player_zone_best_score_and_games_at_full_height(
        open_page, demo_tournament, table_heights):
    """A 390 px phone: the five columns a player looks for fill the table's width, nothing
    after them to swipe to; every row shows, the page scrolls and no box inside it."""
    at = open_page(PAGE)
    frame = at.dataframe[0]
    assert phone_fit(frame) == ["Rank", "Player", "Zone", "Best score", "Games"]
    config = json.loads(frame.proto.columns)
    assert config["Best score"]["label"] == "Best"
    assert config["Player"]["width"] >= 120, "long names keep most of their letters"
    assert table_heights == ["content"]
    assert len(frame.value) == 24


def test_all_columns_add_wins_and_the_tie_breaks_after_the_five(open_page, demo_tournament):
    at = open_page(PAGE)
    at.toggle(key="standings_all_columns").set_value(True).run()
    assert not at.exception
    frame = at.dataframe[0]
    order = list(frame.proto.column_order)
    assert order[:5] == ["Rank", "Player", "Zone", "Best score", "Games"]
    assert set(frame.value.columns) <= set(order)  # nothing hidden
    assert {"Wins", "Placing", "VP"} <= set(order)


def test_a_long_table_shows_a_page_of_rows_at_a_time(open_page, demo_tournament, monkeypatch,
                                                     table_heights):
    """Past `ui.tables.PAGE_ROWS` rows (here 10 of 24) the table shows one page of rows at its
    full height, chosen above it; a search shows its own rows the same way."""
    monkeypatch.setattr(tables, "PAGE_ROWS", 10)
    expected = tournament.standings_table(demo_tournament)["name"].tolist()
    at = open_page(PAGE)
    box = at.selectbox(key="standings_rows")
    assert box.options == [
        "1–10 of 24", "11–20 of 24", "21–24 of 24"]
    assert shown_table(at)["Player"].tolist() == expected[:10]
    box.set_value(20).run()
    assert not at.exception
    assert shown_table(at)["Player"].tolist() == expected[20:]
    assert shown_table(at)["Rank"].tolist() == list(range(21, 25))
    assert set(table_heights) == {"content"}


def zone_column(at) -> dict:
    """The Zone column's settings as the page sends them to the browser."""
    config = json.loads(at.dataframe[0].proto.columns)
    return config["Zone"]


@pytest.mark.parametrize("query", ["", "a"])
def test_zones_are_coloured_so_the_cut_lines_show(open_page, demo_tournament, query):
    """Each zone is a coloured tag (gold, blue, grey): the colour changes at a cut line, for
    the whole table and for a search alike, without styling every cell."""
    from stsa.ui import live
    at = open_page(PAGE)
    at.text_input(key="standings_search").input(query).run()
    column = zone_column(at)
    assert column["type_config"]["type"] == "multiselect"
    colours = {o["value"]: o["color"] for o in column["type_config"]["options"]}
    assert colours == live.ZONE_TAGS
    assert colours["Final"] != colours["Semifinal"] != colours["Out"]
    assert not at.dataframe[0].proto.arrow_data.styler.styles
    tags = at.dataframe[0].value["Zone"].map(list).tolist()
    assert tags and all(len(t) == 1 and t[0] in colours for t in tags)
    if not query:
        assert tags[:4] == [["Final"]] * 3 + [["Semifinal"]]
    assert ("Gold: places 1–3 go straight to the final; blue: places 4–11 play the semifinal."
            in [c.value for c in at.caption])


def test_search_shows_the_distance_to_the_cut(open_page, demo_tournament):
    table = tournament.standings_table(demo_tournament)
    last = table.iloc[-1]
    at = open_page(PAGE)
    at.text_input(key="standings_search").input(last["name"]).run()
    gap_final = int(table["best_score"].iloc[2] - last["best_score"])
    gap_semi = int(table["best_score"].iloc[10] - last["best_score"])
    assert at.markdown[1].value == (
        f"{gap_final} points behind the last spot straight to the final; {gap_semi} points "
        f"behind the last semifinal spot.")
    at.text_input(key="standings_search").input(table["name"].iloc[0]).run()
    assert at.markdown[1].value == "In the zone straight to the final."


@pytest.mark.parametrize("who", [None, ORGANIZER])
def test_tables_still_playing_are_listed(open_page, engine, who):
    ids = play_qualifier(engine, [f"Player {i:02}" for i in range(8)], [[9, 7, 5, 3]])
    sitting = tournament.draw_qualifier(engine, ids, seed=3, confirm=True, actor=ORGANIZER)
    store.publish_sitting(engine, sitting["sitting_id"], actor=ORGANIZER)
    at = open_page(PAGE, as_=who)
    assert not at.exception
    assert any(c.value.startswith("Qualifier 2: 0 of 2 tables have reported; still playing: "
                                  "tables 1, 2.") for c in at.caption)


def test_new_results_show_on_the_next_refresh(open_page, engine):
    """The fragment reruns every few seconds; a write moves the data version, so the next run
    reads what changed (nothing is cleared, nothing waits for an expiry)."""
    at = open_page(PAGE)
    assert "No results yet" in at.info[0].value
    play_qualifier(engine, ["Ann", "Ben", "Cy", "Di"], [[9, 7, 5, 3]])
    at.run()
    assert sorted(shown_table(at)["Player"]) == ["Ann", "Ben", "Cy", "Di"]


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
    assert shown_table(second)["Player"].tolist() == shown_table(first)["Player"].tolist()


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
        assert sorted(shown_table(at)["Player"]) == ["Ann", "Ben", "Cy", "Di", "Eve", "Fay",
                                                     "Gil"]
