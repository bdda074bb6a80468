"""Finals page (R16–R18, R20): the cut and wildcards for everyone; absences, the semifinal and
final draws for the organizer only; unpublished draws hidden from spectators; who advanced and
why; the final standings with a spreadsheet-safe CSV."""

import csv
import io
import json

import pandas as pd
import pytest
import sqlalchemy as sa
import streamlit as st

from stsa import demo, store, tournament
from stsa.formats import file_names
from stsa.services import finals as finals_service
from stsa.store import schema
from stsa.ui import finals as finals_view
from stsa.ui import tables
from tests.app.conftest import JUDGE, ORGANIZER, live_data, shown
from tests.support import feed_routes

PAGE = "views/finals.py"
PHONE_WIDTH = tables.PHONE_WIDTH  # px: what a phone shows of a table without a swipe


def standings_rows(at) -> list[dict]:
    """The standings the Standings page's live element starts from (its answer's rows)."""
    return live_data(at, "standings")["answer"]["standings"]


def phone_columns(frame) -> list[str]:
    """The columns of a shown table that fit a phone's width, in the order shown (a column
    with no width set may be any width: none after it counts)."""
    widths, fitting, used = json.loads(frame.proto.columns), [], 0
    for column in frame.proto.column_order or frame.value.columns:
        used += widths.get(column, {}).get("width", PHONE_WIDTH + 1)
        if used > PHONE_WIDTH:
            break
        fitting.append(column)
    return fitting


def enter(engine, sitting_id, vps, spice=None, tiebreak=None):
    """Enter every table of a sitting: `vps[t]` by seat for table t + 1 (spice and a settled
    order likewise)."""
    tables = store.tables(engine, sitting_id, actor=ORGANIZER)
    seats = store.seats(engine, sitting_id, actor=ORGANIZER)
    for i, table in enumerate(tables.itertuples()):
        at = seats.loc[seats["table_id"] == table.table_id]
        rows = pd.DataFrame({"player_id": at["player_id"].to_numpy(),
                             "leader": table.available_leaders[:len(at)], "vp": vps[i],
                             "spice": (spice or [[0] * 4] * len(vps))[i][:len(at)],
                             "solari": 0, "troops": 0, "water": 0,
                             "tiebreak": (tiebreak or [[None] * 4] * len(vps))[i][:len(at)]})
        store.submit_table_result(engine, table.table_id, rows, expected_version=0,
                                  submission_id=None, actor=JUDGE)
    st.cache_data.clear()  # as a judge's save on the Results page does


def qualifier(engine, names, vps, spice=None):
    ids = store.import_players(engine, pd.DataFrame({"name": names}),
                               actor=ORGANIZER)["player_id"].tolist()
    sitting = tournament.draw_qualifier(engine, ids, seed=11, actor=ORGANIZER)
    store.publish_sitting(engine, sitting["sitting_id"], actor=ORGANIZER)
    enter(engine, sitting["sitting_id"], vps, spice)
    return ids


def play(engine, draw, vps):
    """Draw a finals sitting, publish it and enter `vps`."""
    sitting = draw(engine, seed=7, actor=ORGANIZER)
    store.publish_sitting(engine, sitting["sitting_id"], actor=ORGANIZER)
    enter(engine, sitting["sitting_id"], vps)
    return sitting


@pytest.fixture
def demo_tournament(engine):
    demo.load_demo(engine, actor=ORGANIZER)
    return engine


@pytest.fixture
def eight_players(engine):
    """One qualifier, two tables: best scores 25, 24, 21, 21, 11, 11, 0, 0, every rank distinct
    (spice breaks the equal ones). The weakest direct finalist's best score is 21 (R16)."""
    qualifier(engine, [f"Player {i}" for i in range(8)], [[12, 11, 2, 1], [13, 12, 2, 1]],
              spice=[[0] * 4, [1] * 4])
    return engine


def standing(engine):
    return tournament.standings_table(engine)


texts = shown


# --- everyone ---------------------------------------------------------------------------------

@pytest.mark.parametrize("who", [None, JUDGE, ORGANIZER])
def test_no_finals_below_four_players(open_page, engine, who):
    qualifier(engine, ["Ann", "Ben", "Cy"], [[9, 6, 3]])
    at = open_page(PAGE, as_=who)
    assert not at.exception
    assert at.info[0].value.startswith(
        "3 players seated in a qualifier so far: finals need at least 4")
    assert not at.button and not at.dataframe


def test_empty_tournament_gives_the_reason(open_page):
    at = open_page(PAGE)
    assert at.info[0].value.startswith("0 players seated in a qualifier")


@pytest.mark.parametrize("who", [None, JUDGE])
def test_format_and_entrants_without_organizer_controls(open_page, demo_tournament, who):
    at = open_page(PAGE, as_=who)
    assert not at.exception
    assert "24 players played a qualifier: the top 3 go straight to the final." in texts(
        at.markdown)
    entrants = at.dataframe[0].value
    assert entrants["Stage"].tolist() == ["Final"] * 3 + ["Semifinal"] * 8
    assert entrants["Player"].tolist() == standing(demo_tournament)["name"].head(11).tolist()
    assert not entrants["Wildcard"].any()
    assert not at.button and not at.multiselect and not at.number_input
    assert "The semifinal has not been drawn yet." in texts(at.info)
    assert "The final table is known once every semifinal result is in." in texts(at.info)


# --- absences and wildcards (R17) ---------------------------------------------------------------

def test_organizer_marks_a_finalist_absent_and_a_wildcard_takes_the_seat(open_page,
                                                                         demo_tournament):
    table = standing(demo_tournament)
    first = int(table["player_id"].iloc[0])
    at = open_page(PAGE, as_=ORGANIZER)
    assert at.multiselect(key="finals_absent").proto.select_all == 0  # no "Select all": one by one
    at.multiselect(key="finals_absent").set_value([first])
    at.button(key="finals_save_absences").click().run()
    assert not at.exception
    assert store.absences(demo_tournament)["player_id"].tolist() == [first]
    assert "Absences saved (1 changed)." in texts(at.success)
    entrants = at.dataframe[0].value
    assert table["name"].iloc[0] not in entrants["Player"].tolist()
    assert entrants["Wildcard"].sum() == 1
    assert any(t.startswith(f"Absent: {table['name'].iloc[0]}.") for t in texts(at.caption))

    spectator = open_page(PAGE)
    assert spectator.dataframe[0].value["Wildcard"].sum() == 1, "wildcards marked for everyone"

    at.multiselect(key="finals_absent").set_value([])
    at.button(key="finals_save_absences").click().run()
    assert store.absences(demo_tournament).empty
    assert not at.dataframe[0].value["Wildcard"].any()


def test_absences_are_fixed_once_the_semifinal_is_published(open_page, demo_tournament):
    semi = tournament.draw_semifinal(demo_tournament, seed=3, actor=ORGANIZER)
    store.publish_sitting(demo_tournament, semi["sitting_id"], actor=ORGANIZER)
    at = open_page(PAGE, as_=ORGANIZER)
    assert not at.multiselect
    assert "Absences are fixed once a finals sitting is published." in texts(at.caption)


# --- the semifinal ----------------------------------------------------------------------------

def test_organizer_draws_and_publishes_the_semifinal(open_page, demo_tournament):
    at = open_page(PAGE, as_=ORGANIZER)
    assert 100_000_000 <= at.number_input(key="finals_semifinal_seed").value < 1_000_000_000
    at.number_input(key="finals_semifinal_seed").set_value(424242)
    at.button(key="finals_draw_semifinal").click().run()
    assert not at.exception
    semi = store.sittings(demo_tournament, kind="semifinal", actor=ORGANIZER).iloc[0]
    assert (semi["status"], semi["seed"]) == ("drawn", 424242)
    assert "The semifinal is drawn (seed 424242); publish it when ready." in texts(at.success)
    seating = at.dataframe[1].value
    assert len(seating) == 8 and "Pick order" in seating.columns
    assert set(seating["Player"]) == set(standing(demo_tournament)["name"].iloc[3:11])
    assert at.number_input(key="finals_semifinal_seed").value != 424242, "a fresh seed"

    # R20: spectators see nothing of an unpublished draw; judges see it is not published.
    spectator = open_page(PAGE)
    assert len(spectator.dataframe) == 1
    assert "The semifinal has not been drawn yet." in texts(spectator.info)
    judge = open_page(PAGE, as_=JUDGE)
    assert any("not published yet" in t for t in texts(judge.info))

    at.button(key="finals_publish_semifinal").click().run()
    assert not at.exception
    assert store.sitting(demo_tournament, int(semi["sitting_id"]))["status"] == "published"
    assert not at.button, "a published semifinal cannot be redrawn"
    spectator = open_page(PAGE)
    seating = spectator.dataframe[1].value
    assert len(seating) == 8 and "Pick order" not in seating.columns
    assert "Judges enter the semifinal results on the Results page." in texts(spectator.caption)


def test_drawn_semifinal_goes_stale_when_an_absence_changes(open_page, demo_tournament):
    tournament.draw_semifinal(demo_tournament, seed=3, actor=ORGANIZER)
    fourth = int(standing(demo_tournament)["player_id"].iloc[3])
    store.mark_absent(demo_tournament, fourth, actor=ORGANIZER)
    at = open_page(PAGE, as_=ORGANIZER)
    assert any("no longer matches who plays" in t for t in texts(at.warning))
    assert at.button(key="finals_publish_semifinal").disabled
    at.button(key="finals_draw_semifinal").click().run()
    assert not any("no longer matches" in t for t in texts(at.warning))
    assert not at.button(key="finals_publish_semifinal").disabled


def test_a_semifinal_published_elsewhere_is_not_drawn_again(open_page, demo_tournament):
    """Another tab publishes the semifinal: the click's run reads the new data version, shows
    the published semifinal and offers no draw any more; nothing is redrawn."""
    at = open_page(PAGE, as_=ORGANIZER)
    semi = tournament.draw_semifinal(demo_tournament, seed=3, actor=ORGANIZER)
    store.publish_sitting(demo_tournament, semi["sitting_id"], actor=ORGANIZER)  # another tab
    at.button(key="finals_draw_semifinal").click().run()
    assert not at.exception and not at.error
    assert "finals_draw_semifinal" not in [b.key for b in at.button]
    assert "Seed 3 · published" in [c.value for c in at.caption]
    assert int(store.sitting(demo_tournament, int(semi["sitting_id"]))["seed"]) == 3
    with pytest.raises(store.InvalidState, match="semifinal is already published"):
        tournament.draw_semifinal(demo_tournament, seed=4, actor=ORGANIZER)


# --- the final table (R16) --------------------------------------------------------------------

def test_semifinal_winner_not_above_the_weakest_finalist_does_not_advance(open_page,
                                                                          eight_players):
    play(eight_players, tournament.draw_semifinal, [[10, 9, 5, 3]])  # the winner scores 21
    at = open_page(PAGE)
    assert not at.exception
    table = standing(eight_players)
    weakest = table["name"].iloc[3]
    note = [t for t in texts(at.markdown) if "won the semifinal" in t][0]
    assert note.endswith(f"not more than {weakest}'s best qualifier score of 21: {weakest} "
                         f"keeps the final seat.")
    final_table = at.dataframe[2].value
    assert final_table["Player"].tolist() == table["name"].head(4).tolist()
    assert (final_table["Way in"] == "Direct").all()


def test_whole_finals_for_eight_players(open_page, eight_players, downloads):
    semi = play(eight_players, tournament.draw_semifinal, [[14, 9, 5, 3]])  # winner: 25 > 21
    winner = store.results(eight_players, "semifinal").sort_values("vp")["player_id"].iloc[-1]
    table = standing(eight_players)
    names = dict(zip(table["player_id"], table["name"]))
    weakest = table["name"].iloc[3]

    at = open_page(PAGE, as_=ORGANIZER)
    assert not at.exception
    assert (f"{names[winner]} won the semifinal with 25 points, more than {weakest}'s best "
            f"qualifier score of 21: {names[winner]} takes {weakest}'s final seat."
            in texts(at.markdown))
    final_table = at.dataframe[2].value
    assert final_table["Way in"].tolist().count("Semifinal winner") == 1
    assert weakest not in final_table["Player"].tolist()
    entrants = at.dataframe[0].value.set_index("Player")
    assert entrants.at[weakest, "Stage"] == "Final"
    assert entrants.at[weakest, "Now"] == "Lost final seat"
    assert entrants.at[weakest, "Note"] == f"Lost the final seat to {names[winner]}"
    assert entrants.at[names[winner], "Now"] == "Final"

    at.button(key="finals_draw_final").click().run()
    assert not at.exception
    at.button(key="finals_publish_final").click().run()
    final = store.sittings(eight_players, kind="final").iloc[0]
    assert final["status"] == "published"
    enter(eight_players, int(final["sitting_id"]), [[11, 8, 6, 4]])
    assert store.sitting(eight_players, int(semi["sitting_id"]))["status"] == "complete"

    spectator = open_page(PAGE)
    assert not spectator.exception
    standings = spectator.dataframe[0].value  # the final is played: its standings first
    assert standings["Rank"].tolist() == list(range(1, 9))
    assert standings["Stage reached"].tolist() == ["Final"] * 4 + ["Semifinal"] * 3 + [
        "Qualifier"]
    assert standings["Player"].iloc[-1] == weakest, "R18: lost the seat, ranks last"
    assert spectator.download_button(key="finals_download").label == \
        "Download final standings (CSV)"
    name, text = downloads["finals_download"]
    tournament_name = store.settings(eight_players)["tournament_name"]
    assert name.startswith(f"{file_names.slug(tournament_name)}-final-standings-")
    assert name.endswith(".csv")
    rows = list(csv.DictReader(io.StringIO(text)))
    assert list(rows[0]) == ["Rank", "Player", "Stage reached", "Wildcard", "Qualifier rank",
                             "Best score"]
    assert [r["Player"] for r in rows] == standings["Player"].tolist()
    assert {r["Wildcard"] for r in rows} <= {"Yes", "No"}
    for frame in spectator.dataframe:  # the final standings, the cut, both finals tables
        assert {"Player", "Wildcard"} <= set(phone_columns(frame)), list(frame.value.columns)


def test_once_the_final_is_played_its_standings_and_champion_come_first(open_page,
                                                                        eight_players,
                                                                        table_heights):
    """Before the final's result the page reads from the cut down to the final; once it is
    in, the final standings and the podium open the page (on a phone, not 3,000 px down),
    every table at its full height with no box scrolling inside the page."""
    play(eight_players, tournament.draw_semifinal, [[14, 9, 5, 3]])
    before = open_page(PAGE)
    assert "Final standings" not in texts(before.header)
    assert not before.success

    play(eight_players, tournament.draw_final, [[11, 8, 6, 4]])
    names = dict(zip(standing(eight_players)["player_id"], standing(eight_players)["name"]))
    final = store.results(eight_players, "final").sort_values("vp", ascending=False)
    podium = [names[p] for p in final["player_id"]]
    table_heights.clear()
    at = open_page(PAGE)
    assert not at.exception
    assert texts(at.header) == ["Final standings", "Semifinal", "Final"]
    assert texts(at.success)[0] == (f"Champion: {podium[0]}; Runner-up: {podium[1]}; "
                                    f"Third: {podium[2]}.")
    first = at.dataframe[0]
    assert first.value["Player"].head(4).tolist() == podium
    assert list(first.proto.column_order)[:5] == ["Rank", "Player", "Stage reached",
                                                  "Wildcard", "Best score"]
    widths = json.loads(first.proto.columns)
    assert sum(widths[c]["width"] for c in list(first.proto.column_order)[:5]) == PHONE_WIDTH
    assert widths["Stage reached"]["label"] == "Reached"
    assert len(at.dataframe) == 5 and table_heights == ["content"] * 5


def test_two_semifinals_the_better_winner_advances(open_page, demo_tournament):
    play(demo_tournament, tournament.draw_semifinal, [[12, 8, 5, 3], [10, 9, 5, 3]])
    at = open_page(PAGE)
    assert not at.exception
    results = store.results(demo_tournament, "semifinal")
    names = dict(zip(standing(demo_tournament)["player_id"], standing(demo_tournament)["name"]))
    first, second = (names[p] for p in results.loc[results["vp"].isin([12, 10]), "player_id"])
    notes = texts(at.markdown)
    assert f"Semifinal winners: {first} (24 points at table 1), {second} (21 points at table 2)." \
        in notes
    assert f"{first} advances to the final." in notes
    final_table = at.dataframe[2].value
    assert final_table["Way in"].tolist() == ["Direct"] * 3 + ["Semifinal winner"]


def test_no_semifinal_with_six_players_the_top_four_play_the_final(open_page, engine):
    qualifier(engine, [f"P{i}" for i in range(6)], [[9, 7, 5], [8, 6, 4]])
    at = open_page(PAGE, as_=ORGANIZER)
    assert "There is no semifinal: too few players are left below the top 4." in texts(
        at.markdown)
    assert "No semifinal: the 4 direct finalists play the final." in texts(at.markdown)
    assert not at.button(key="finals_draw_final").disabled
    at.button(key="finals_draw_final").click().run()
    assert store.sittings(engine, kind="final", actor=ORGANIZER)["status"].tolist() == ["drawn"]


def test_unsettled_semifinal_tie_blocks_the_final_with_a_message(open_page, eight_players):
    """A first place tied without a settled order (R11): the store refuses one now, but a
    database written by an earlier STSA may hold one."""
    semi = tournament.draw_semifinal(eight_players, seed=7, actor=ORGANIZER)
    store.publish_sitting(eight_players, semi["sitting_id"], actor=ORGANIZER)
    enter(eight_players, semi["sitting_id"], [[9, 9, 5, 3]], tiebreak=[[1, 2, None, None]])
    with eight_players.begin() as conn:  # the order as an earlier STSA left it: not recorded
        conn.execute(sa.update(schema.results).values(tiebreak=None))
    st.cache_data.clear()
    at = open_page(PAGE, as_=ORGANIZER)
    assert not at.exception
    assert any("first place is tied" in t for t in texts(at.warning))
    assert "finals_draw_final" not in [b.key for b in at.button]


def test_names_with_markup_show_as_text_in_the_notes(open_page, engine):
    hostile = "**Evil** <img src=x>"
    ids = qualifier(engine, [hostile, "B", "C", "D", "E", "F", "G", "H"],
                    [[12, 11, 2, 1], [13, 12, 2, 1]], spice=[[0] * 4, [1] * 4])
    store.mark_absent(engine, ids[0], actor=ORGANIZER)
    at = open_page(PAGE)
    assert hostile not in at.dataframe[0].value["Player"].tolist()
    absent = [c.value for c in at.caption if "Absent" in c.value][0]
    assert "\\*\\*Evil\\*\\* \\<img src=x\\>" in absent


# --- CSV --------------------------------------------------------------------------------------

def test_csv_neutralises_formula_cells():
    frame = pd.DataFrame({"Rank": [1, 2, 3], "Player": ["=HYPERLINK(1)", "+Ann", "Bo -x"],
                          "Wildcard": [True, False, False]})
    csv = finals_view.to_csv(frame)
    assert csv.splitlines() == ["Rank,Player,Wildcard", "1,'=HYPERLINK(1),Yes", "2,'+Ann,No",
                                "3,Bo -x,No"]
    for bad in ("-1+2", "@SUM(A1)", "\tx"):
        assert finals_view.to_csv(pd.DataFrame({"P": [bad]})).splitlines()[1].startswith(
            ("'", "\"'"))


@pytest.mark.usefixtures("answers_at_once")  # the page opened again right after a write
@pytest.mark.parametrize("who", [None, ORGANIZER])
def test_standings_and_tv_show_the_finals_as_they_happen(open_page, eight_players, who):
    """After the cut the Standings and TV pages show who really plays where: the finalist who
    lost the seat to the semifinal winner; once the final is in, the champion and podium first,
    in the final standings' order."""
    play(eight_players, tournament.draw_semifinal, [[14, 9, 5, 3]])  # the winner takes a seat
    table = standing(eight_players)
    names = dict(zip(table["player_id"], table["name"]))
    weakest = table["name"].iloc[3]
    winner = names[store.results(eight_players, "semifinal").sort_values("vp")[
        "player_id"].iloc[-1]]
    at = open_page("views/standings.py", as_=who)
    assert not at.exception
    zones = {r["player"]: r["zone"] for r in standings_rows(at)}
    assert zones[weakest] == ["Lost final seat"]
    assert zones[winner] == ["Final"]

    play(eight_players, tournament.draw_final, [[11, 8, 6, 4]])
    final = store.results(eight_players, "final").sort_values("vp", ascending=False)
    podium = [names[p] for p in final["player_id"]]
    at = open_page("views/standings.py", as_=who)
    assert not at.exception
    shown = standings_rows(at)
    assert [r["player"] for r in shown[:4]] == podium
    assert [r["zone"] for r in shown[:4]] == [["Champion"], ["Runner-up"], ["Third"],
                                              ["Finalist"]]
    assert [r["rank"] for r in shown] == list(range(1, 9))
    assert shown[-1]["player"] == weakest
    assert live_data(at, "standings")["answer"]["podium"] == (
        f"Champion: {podium[0]}; Runner-up: {podium[1]}; Third: {podium[2]}.")

    tv = open_page("views/tv.py", as_=who)
    assert not tv.exception
    answer = live_data(tv, "tv")["answer"]
    assert [r["player"] for r in answer["standings"][:3]] == podium[:3]
    assert [r["zone"] for r in answer["standings"][:3]] == ["Champion", "Runner-up", "Third"]
    assert answer["podium"].startswith(f"Champion: {podium[0]}")


def test_standings_mark_an_absent_player_and_the_wildcard(open_page, demo_tournament):
    table = standing(demo_tournament)
    finals_service.save_absences(demo_tournament, [int(table["player_id"].iloc[0])],
                                 actor=ORGANIZER)
    wildcard = finals_service.finals(demo_tournament).wildcards.pop()
    names = dict(zip(table["player_id"], table["name"]))
    for page in ("views/standings.py", "views/tv.py"):
        at = open_page(page)
        assert not at.exception
        if page == "views/tv.py":
            zones = {r["player"]: r["zone"] for r in live_data(at, "tv")["answer"]["standings"]}
            assert zones.get(names[wildcard], "Final (wildcard)") == "Final (wildcard)"
        else:
            zones = {r["player"]: r["zone"] for r in standings_rows(at)}
            assert zones[names[wildcard]] == ["Final", "Wildcard"]
        assert "Absent" in str(zones[table["name"].iloc[0]])


def test_after_the_final_my_seat_says_it_is_over_with_the_final_place(db_url,
                                                                       eight_players):
    """Once the final is in, a player's own page says the tournament is over and gives their
    place in the final standings, never "Not drawn yet" or "you play the semifinal"."""
    from tests.app.test_player import element, open_link
    play(eight_players, tournament.draw_semifinal, [[14, 9, 5, 3]])
    play(eight_players, tournament.draw_final, [[11, 8, 6, 4]])
    final = store.results(eight_players, "final").sort_values("vp", ascending=False)
    champion = int(final["player_id"].iloc[0])
    semifinal = store.results(eight_players, "semifinal")
    lost = int(semifinal.loc[~semifinal["player_id"].isin(final["player_id"]),
                             "player_id"].iloc[0])
    at = open_link(db_url, champion)
    assert not at.exception
    shown_ = element(at)  # My seat's live element: "over" says the tournament is over
    assert shown_["me"]["now"] == "over" and shown_["words"]["over"].startswith(
        "The tournament is over")
    assert "1st in the final standings: you are the champion" in shown_["me"]["standing"]
    loser = element(open_link(db_url, lost))["me"]["standing"]
    assert "in the final standings: you played the semifinal" in loser
    assert "you play the semifinal" not in loser


def test_after_the_final_the_standings_search_card_agrees_with_the_table(open_page,
                                                                         eight_players):
    """The Standings search card after the final: the player's final place in words (as on
    their own page), never a stale qualifier rank or zone; their games include the semifinal
    and the final."""
    play(eight_players, tournament.draw_semifinal, [[14, 9, 5, 3]])
    play(eight_players, tournament.draw_final, [[11, 8, 6, 4]])
    at = open_page("views/standings.py")
    champion = standings_rows(at)[0]["player"]
    key = store.tournaments(eight_players)["key"].iloc[0]  # the cards the search shows
    answer = feed_routes.answer("/api/v1/tournaments/{key}/live/cards", key=key)
    found = next(p for p in json.loads(bytes(answer.body))["players"]
                 if p["player"] == champion)
    card = f"{found['line']} {found['said']}"
    assert "1st in the final standings: the champion" in card, card
    assert "rank " not in card and "zone" not in card and "you " not in card
    assert found["games"][-1]["sitting"] == "Final"
