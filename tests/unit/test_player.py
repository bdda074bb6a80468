"""A player's own page (`services.player`): where they sit in the sitting being played, their
games, rank and the cut in plain words (R3, R14, R16, R20–R22)."""

import pandas as pd
import pytest

from stsa import store
from stsa.auth import Actor, Role
from stsa.services import draws, finals, player, results, sittings
from stsa.services.player import Now
from stsa.services.snapshot import Snapshot

ORGANIZER = Actor("Olivia", Role.ORGANIZER)


def book_of(engine, waiting=None, schedule=None, now=None):
    """The pages' book as the public sees it, from the frames the pages share (`schedule`
    and `now`: what is left to come, R26)."""
    snap = Snapshot(engine, actor=None)
    scored = results.scored(snap)
    table = results.standings(scored, snap.names, results.qualifier_players(snap))
    playing = [int(s) for s in player.in_play(snap.sittings)["sitting_id"]]
    return player.prepare(
        players=snap.players, sittings=snap.sittings,
        seats={s: sittings.overview_of(snap, s) for s in playing},
        sit_outs={s: store.sit_outs(engine, s) for s in playing}, scored=scored,
        standings=table, finals=finals.finals_status(finals.view_of(Snapshot(engine), table)),
        waiting=waiting, schedule=schedule, now=now)


def facts(engine, player_id):
    """The page's facts as the public sees them, from the frames the pages share."""
    return player.player_facts(book_of(engine), player_id)


def draw(engine, ids, *, publish=True, sit_out=False):
    drawn = draws.draw_qualifier(engine, ids, seed=5, sit_out=sit_out, actor=ORGANIZER)
    if publish:
        draws.publish(engine, drawn["sitting_id"], actor=ORGANIZER)
    return drawn


def ids_of(engine):
    return store.players(engine)["player_id"].tolist()


# --- where do I sit? ---------------------------------------------------------------------------

@pytest.mark.slow
def test_R3_a_seated_player_sees_table_seat_colour_first_player_and_setup(demo_copy):
    engine = demo_copy(3)
    ids = ids_of(engine)
    drawn = draw(engine, ids[:12])
    seats = store.seats(engine, drawn["sitting_id"])
    mine = seats.loc[seats["seat"] == 3].iloc[0]
    first = seats.loc[(seats["table_id"] == mine["table_id"]) & (seats["seat"] == 1)].iloc[0]
    table = store.tables(engine, drawn["sitting_id"]).set_index("table_id").loc[mine["table_id"]]

    found = facts(engine, int(mine["player_id"]))

    assert found.now == Now.SEATED and found.sitting == "Qualifier 4"
    assert found.seat == player.Seat(
        table_no=int(mine["table_no"]), seat=3, colour=mine["colour"],
        first_player=store.player(engine, int(first["player_id"]))["nickname"],
        setup=sittings.setups.setup_names()[table["setup_id"]], players=4)
    assert found.waiting is None


def test_R1_a_player_without_a_seat_sits_this_one_out(demo_copy):
    engine = demo_copy(3)
    ids = ids_of(engine)
    draw(engine, ids[:12])
    found = facts(engine, ids[20])
    assert found.now == Now.SITTING_OUT and found.sitting == "Qualifier 4"
    assert found.seat is None and not found.sat_out_by_draw


def test_R1_the_draw_choosing_a_player_to_sit_out_says_so(demo_copy):
    engine = demo_copy(3)
    ids = ids_of(engine)
    draw(engine, ids[:5], sit_out=True)
    out = store.sit_outs(engine)["player_id"].tolist()
    assert len(out) == 1
    assert facts(engine, out[0]).sat_out_by_draw
    assert facts(engine, out[0]).now == Now.SITTING_OUT


@pytest.mark.parametrize("stage", ["complete", "unpublished"])
def test_R20_no_sitting_in_play_means_not_drawn_yet(demo_copy, stage):
    """After the last sitting is complete, and while the next draw is a draft the public does
    not see, the page says the seat is not drawn yet."""
    engine = demo_copy(3)
    if stage == "unpublished":
        draw(engine, ids_of(engine), publish=False)
    found = facts(engine, ids_of(engine)[0])
    assert found.now == Now.NOT_DRAWN and found.seat is None and found.sitting == ""


def test_R12_R14_games_scores_and_rank_so_far(demo_copy):
    engine = demo_copy(3)
    table = results.standings_table(engine)
    top = table.iloc[0]
    found = facts(engine, int(top["player_id"]))
    mine = results.scored_results(engine)
    mine = mine.loc[mine["player_id"] == top["player_id"]].sort_values("sitting_no")
    assert found.games["sitting"].tolist() == ["Qualifier 1", "Qualifier 2", "Qualifier 3"]
    assert found.games["qualifier_score"].tolist() == mine["qualifier_score"].tolist()
    assert found.games["table_no"].tolist() == mine["table_no"].tolist()
    assert found.rank == 1 and found.best_score == top["best_score"]
    assert found.nickname == store.player(engine, int(top["player_id"]))["nickname"]


def test_a_player_with_no_game_yet_has_no_rank(sqlite_engine):
    ids = store.import_players(sqlite_engine, pd.DataFrame({"name": list("ABCDEFGH")}),
                               actor=ORGANIZER)["player_id"].tolist()
    found = facts(sqlite_engine, ids[0])
    assert found.rank is None and found.games.empty
    assert found.standing.startswith("No result yet")
    assert facts(sqlite_engine, 10_000) is None


# --- the cut in plain words (R16) ---------------------------------------------------------------

def standings(scores, ties=()):
    """A standings frame of len(scores) players (ids 1…), ranks shared on equal scores, zones
    by position for 12 players: 4 straight to the final, the next 4 in the semifinal."""
    n = len(scores)
    zone = (["final"] * 4 + ["semifinal"] * 4 + ["out"] * (n - 8)) if n >= 8 else [""] * n
    frame = pd.DataFrame({"player_id": range(1, n + 1), "best_score": scores, "zone": zone})
    return frame.assign(rank=frame["best_score"].rank(method="min", ascending=False)
                        .astype(int), tie_at_cut=frame["player_id"].isin(ties))


SCORES = [40, 38, 36, 34, 31, 30, 29, 27, 25, 24, 20, 10]


@pytest.mark.parametrize("player_id, words", [
    (2, "2nd; the top 4 go straight to the final."),
    (8, "8th; places 5–8 play the semifinal, 7 points behind 4th (the last place straight "
        "to the final)."),
    (9, "9th; the cut is the top 8: 2 points behind 8th."),
    (12, "12th; the cut is the top 8: 17 points behind 8th."),
])
def test_R16_rank_and_the_cut_in_plain_words(player_id, words):
    assert player.standing_words(standings(SCORES), player_id) == words


def test_R14_R16_level_on_points_at_the_cut_line_says_the_tie_breaks_decide():
    level = SCORES[:8] + [27] + SCORES[9:]
    words = player.standing_words(standings(level, ties=(8, 9)), 9)
    assert words.startswith("8th; the cut is the top 8: level on points with 8th: the "
                            "tie-breaks decide.")
    assert "shared across the cut line" in words


def test_R16_fewer_than_four_players_have_no_cut():
    assert player.standing_words(standings([20, 10, 5]), 2) == (
        "2nd of 3; the finals need at least 4 players.")


def test_R16_R18_once_the_finals_are_played_the_finals_say_where_a_player_stands():
    status = pd.DataFrame({"player_id": [1, 9], "status": ["champion", "semifinal"],
                           "wildcard": [False, True]})
    table = standings(SCORES)
    assert player.standing_words(table, 1, status) == (
        "1st after the qualifiers; you are the champion.")
    assert player.standing_words(table, 9, status) == (
        "9th after the qualifiers; you play the semifinal (as a wildcard).")


# --- finding yourself (R22) ----------------------------------------------------------------------

def test_R22_the_search_finds_nicknames_exact_match_first():
    found = player.directory(pd.DataFrame({"player_id": [1, 2, 3],
                                           "nickname": ["Annabel", "Ann", "Bo"]}))
    assert player.search(found, " ann ")["nickname"].tolist() == ["Ann", "Annabel"]
    assert player.search(found, "[a-z]").empty  # as typed, not a pattern


@pytest.mark.parametrize("raw, expected", [("2", 2), (" 3 ", 3), ("4", None), ("x", None),
                                           ("-1", None), ("9" * 40, None), (None, None)])
def test_a_bookmarked_link_names_a_player_of_this_tournament(raw, expected):
    found = player.directory(pd.DataFrame({"player_id": [1, 2, 3], "nickname": list("abc")}))
    assert player.linked(found, raw) == expected


def test_R21_the_waiting_list_place_counts_from_the_front():
    waiting = pd.DataFrame({"player_id": [7, 5, 9], "position": [3, 1, 2]})
    assert [player.waiting_place(waiting, p) for p in (5, 9, 7, 8)] == [1, 2, 3, None]
    assert player.waiting_place(None, 5) is None


def test_ordinals():
    assert [player.ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 103, 111)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "103rd", "111th"]


def test_R18_once_the_final_is_complete_a_player_reads_their_final_place_and_that_it_is_over():
    """After the final, a player's standing is their place in the final standings, in the past
    tense, never "you play the semifinal"; the qualifier place follows."""
    status = pd.DataFrame({"player_id": [1, 9, 4], "status": ["champion", "semifinal", "out"],
                           "wildcard": [False, True, False],
                           "final_rank": pd.array([1, 6, 12], dtype="Int64")})
    ranked = player.ranking(standings(SCORES), status, over=True)
    assert player._words(ranked, 1) == (
        "1st in the final standings: you are the champion; 1st after the qualifiers. "
        "The tournament is over.")
    assert player._words(ranked, 9) == (
        "6th in the final standings: you played the semifinal (as a wildcard); 9th after the "
        "qualifiers. The tournament is over.")
    assert "you play the semifinal" not in player._words(ranked, 9)
    while_playing = player.ranking(standings(SCORES), status, over=False)
    assert player._words(while_playing, 9) == (
        "9th after the qualifiers; you play the semifinal (as a wildcard).")


# --- every player at once (My seat's one answer for every phone) ---------------------------------

def same_as_each_page(book):
    """`everyone`, `everyone_games` and `sentences` say of every player what their own page
    (`player_facts`) says."""
    frame = player.everyone(book)
    ids = frame["player_id"].tolist()
    games = player.everyone_games(book, ids)
    said = player.sentences(book.ranking, ids)
    assert ids == book.players.index.tolist()
    for row, played, words in zip(frame.to_dict("records"), games, said):
        one = player.player_facts(book, row["player_id"])
        seat = one.seat
        assert (row["nickname"], row["withdrawn"], row["now"], row["sitting"]) == (
            one.nickname, one.withdrawn, one.now, one.sitting)
        if seat is None:
            assert pd.isna(row["table_no"]) and pd.isna(row["colour"])
        else:
            assert (row["table_no"], row["seat"], row["colour"], row["first_player"],
                    row["setup"], row["players"]) == (seat.table_no, seat.seat, seat.colour,
                                                      seat.first_player, seat.setup,
                                                      seat.players)
        assert row["sat_out_by_draw"] == one.sat_out_by_draw
        assert (None if pd.isna(row["waiting"]) else row["waiting"]) == one.waiting
        assert (None if pd.isna(row["rank"]) else row["rank"]) == one.rank
        assert (None if pd.isna(row["best_score"]) else row["best_score"]) == one.best_score
        assert played == one.games.assign(sitting=[int(s.split()[-1]) for s in
                                                   one.games["sitting"]]).values.tolist()
        assert words == one.standing
    return frame


def test_R1_R3_R21_everyone_at_once_is_what_each_players_page_says(demo_copy):
    engine = demo_copy(3)
    ids = ids_of(engine)
    store.withdraw_player(engine, ids[-1], actor=ORGANIZER)
    draw(engine, ids[:5], sit_out=True)
    waiting = pd.DataFrame({"player_id": [ids[15], ids[14], ids[15]], "position": [2, 1, 3]})
    frame = same_as_each_page(book_of(engine, waiting))
    assert set(frame["now"]) == {Now.SEATED, Now.SITTING_OUT}
    assert frame["sat_out_by_draw"].sum() == 1 and frame["withdrawn"].sum() == 1
    assert frame.set_index("player_id").loc[[ids[14], ids[15]], "waiting"].tolist() == [1, 2]


@pytest.mark.slow
@pytest.mark.parametrize("stage", ["final", "over"])
def test_R16_R18_everyone_at_once_in_the_finals_and_after(tmp_path, stage):
    from tests.support import finished as done
    engine = store.connect(f"sqlite:///{tmp_path / 'f.db'}", backup_dir=tmp_path / "b")
    try:
        store.set_settings(engine, {"auto_backup": False}, actor=ORGANIZER)
        (done.up_to_the_final if stage == "final" else done.finished)(engine)
        frame = same_as_each_page(book_of(engine))
        assert set(frame["now"]) == ({Now.OVER} if stage == "over"
                                     else {Now.SEATED, Now.SITTING_OUT})
    finally:
        engine.dispose()


@pytest.mark.slow
def test_R18_R26_the_tournament_is_over_only_when_nothing_is_left_on_the_schedule(tmp_path):
    """Issue 33: the final is complete but a Player meeting is planned after it: My seat says
    the final is played and gives the final place, never "the tournament is over" beside
    "Next: Player meeting"; once nothing is left, it is over."""
    from tests.support import finished as done
    engine = store.connect(f"sqlite:///{tmp_path / 'f.db'}", backup_dir=tmp_path / "b")
    try:
        store.set_settings(engine, {"auto_backup": False}, actor=ORGANIZER)
        done.finished(engine)
        now = pd.Timestamp("2027-03-07 17:00", tz="UTC")
        meeting = pd.DataFrame({"item_id": [9], "title": ["Player meeting"],
                                "starts_at": [now + pd.Timedelta(hours=1)],
                                "ends_at": [now + pd.Timedelta(hours=2)]})
        ahead = book_of(engine, schedule=meeting, now=now)
        frame = same_as_each_page(ahead)
        assert set(frame["now"]) == {Now.FINAL_PLAYED}
        said = player.sentences(ahead.ranking, frame["player_id"].tolist())
        assert all("in the final standings" in s and "tournament is over" not in s
                   for s in said), said
        after = book_of(engine, schedule=meeting, now=now + pd.Timedelta(hours=3))
        assert set(same_as_each_page(after)["now"]) == {Now.OVER}
        assert all(s.endswith("The tournament is over.") for s in player.sentences(
            after.ranking, frame["player_id"].tolist()))
    finally:
        engine.dispose()


def test_everyone_at_once_before_any_player_or_game(sqlite_engine):
    assert player.everyone(book_of(sqlite_engine)).empty
    store.import_players(sqlite_engine, pd.DataFrame({"name": list("ABCD")}), actor=ORGANIZER)
    frame = same_as_each_page(book_of(sqlite_engine))
    assert set(frame["now"]) == {Now.NOT_DRAWN} and frame["rank"].isna().all()
