"""Finals scenarios for every size band of R16, through the core API from qualifier results on:
`score_games` → `standings` → `finals_entrants` (R17 wildcards) → `final_table` (R16) →
`final_standings` (R18).

Players are "P001", "P002" …; `qualifiers` builds games in which each player's best qualifier
score is exactly the one asked for, and only the players asked for win a game (R15).
"""

import pandas as pd
import pytest

from stsa import rules
from stsa.errors import TournamentError

VP_BY_PLACING = (10, 9, 8, 7)  # one VP apart: R12's base scores are 21, 16, 11 (10), 0


def pid(n: int) -> str:
    return f"P{n:03d}"


def ids(*numbers: int) -> list[str]:
    return [pid(n) for n in numbers]


def game(game_id, placed, spice=None):
    """Rows of one game: `placed` lists (player, qualifier score) in placing order; VPs one
    apart and variant points (R12) make each score exactly the one given. `spice` (player →
    spice) separates players equal on score in the standings (R14)."""
    base = [21, 16, 11 if len(placed) == 4 else 10, 0]
    spice = spice or {}
    return [{"game_id": game_id, "player_id": player, "vp": vp, "spice": spice.get(player, 0),
             "solari": 0, "troops": 0, "water": 0, "variant_points": score - base[i]}
            for i, ((player, score), vp) in enumerate(zip(placed, VP_BY_PLACING))]


def qualifiers(best: dict, winners=()) -> pd.DataFrame:
    """Qualifier results: player p's best qualifier score is `best[p]`; the players in
    `winners` (at least one) win a game and nobody else does (R15).

    The other players sit in threes (or twos) behind a winner, in the order given; each winner
    scores their best in the first game they win and 40 less in any other, and a winner who
    hosts no one plays a game of their own with two others placed behind, 40 under their best.
    """
    players = list(best)
    hosts = [p for p in players if p in set(winners)]
    others = [p for p in players if p not in set(winners)]
    assert hosts, "some player must win a game"
    sizes = [3] * (len(others) // 3) + ([len(others) % 3] if len(others) % 3 else [])
    if sizes and sizes[-1] == 1 and len(sizes) > 1:
        sizes[-2:] = [2, 2]
    chunks, start = [], 0
    for size in sizes:
        chunks.append(others[start:start + size])
        start += size
    rows, hosted = [], set()
    for game_id, chunk in enumerate(chunks, start=1):
        host = hosts[(game_id - 1) % len(hosts)]
        placed = [(host, best[host] - (40 if host in hosted else 0))]
        placed += [(p, best[p]) for p in chunk]
        pad = [p for p in players if p not in {q for q, _ in placed}][:max(0, 3 - len(placed))]
        placed += [(p, best[p] - 40) for p in pad]
        hosted.add(host)
        rows += game(game_id, placed)
    for game_id, host in enumerate([h for h in hosts if h not in hosted], start=len(chunks) + 1):
        pad = [p for p in players if p != host][:2]
        rows += game(game_id, [(host, best[host]), *((p, best[p] - 40) for p in pad)])
    return pd.DataFrame(rows)


def standings_for(best: dict, winners=()) -> pd.DataFrame:
    table = rules.standings(rules.score_games(qualifiers(best, winners)))
    got = table.set_index("player_id")
    assert got["best_score"].to_dict() == best, "the helper gives each player their best score"
    assert set(got.index[got["wins"] > 0]) == set(winners)
    return table


def descending(n: int, top: int, winners=()) -> pd.DataFrame:
    """Standings of P001 … Pn with best scores top, top − 1, … (P001 best, ranks in id order)."""
    return standings_for({pid(i): top + 1 - i for i in range(1, n + 1)}, ids(*winners))


def played(*games) -> pd.DataFrame:
    """Scored semifinal or final games (R11, R12); each game is (game_id, [(player, score), …])
    in placing order."""
    return rules.score_games(pd.DataFrame([r for g in games for r in game(*g)]))


def by_stage(entrants: pd.DataFrame, stage: str) -> list:
    return entrants.loc[entrants["stage"] == stage, "player_id"].tolist()


def wildcards(entrants: pd.DataFrame) -> list:
    return entrants.loc[entrants["wildcard"], "player_id"].tolist()


# --- N < 4: no finals ---------------------------------------------------------------------------

def test_R16_three_players_have_no_finals_and_standings_stay_the_qualifier_order():
    """R16: N < 4 means no finals; R18 then ranks everyone by qualifier standing (R14)."""
    table = descending(3, top=25, winners=[1])
    with pytest.raises(TournamentError, match="at least 4"):
        rules.finals_entrants(table)
    with pytest.raises(TournamentError, match="at least 4"):
        rules.final_table(table, pd.DataFrame({"player_id": [], "stage": []}), None)
    result = rules.final_standings(table, None, None)
    assert result["player_id"].tolist() == ids(1, 2, 3)
    assert result["final_rank"].tolist() == [1, 2, 3]
    assert (result["stage"] == "qualifier").all()


# --- 4 ≤ N ≤ 7: the top four, a semifinal only with N − 4 ≥ 3 ---------------------------------

@pytest.mark.parametrize("n", [4, 5, 6])
def test_R16_four_to_six_players_final_is_the_top_four_without_semifinal(n):
    """R16: with N < 8 the semifinal has the N − 4 others only if that is at least 3."""
    table = descending(n, top=30, winners=[1])
    entrants = rules.finals_entrants(table)
    assert by_stage(entrants, "final") == ids(1, 2, 3, 4)
    assert by_stage(entrants, "semifinal") == []
    assert rules.final_table(table, entrants, None) == ids(1, 2, 3, 4)


def test_R18_six_players_finalists_by_final_placing_then_the_rest_by_standing():
    """R18: finalists by final placing, then everyone else by qualifier standing."""
    table = descending(6, top=30, winners=[1])
    final = played((90, [(pid(3), 25), (pid(1), 15), (pid(4), 11), (pid(2), 0)]))
    result = rules.final_standings(table, None, final)
    assert result["player_id"].tolist() == ids(3, 1, 4, 2, 5, 6)
    assert result["final_rank"].tolist() == [1, 2, 3, 4, 5, 6]
    assert result["stage"].tolist() == ["final"] * 4 + ["qualifier"] * 2


def test_R17_six_players_absent_finalist_replaced_by_the_winning_player_below_the_cut():
    """R17: a winning player below the cut (P006) is preferred to a better-ranked one (P005)."""
    table = descending(6, top=30, winners=[1, 6])
    entrants = rules.finals_entrants(table, present=ids(1, 3, 4, 5, 6))
    assert by_stage(entrants, "final") == ids(1, 6, 3, 4)
    assert wildcards(entrants) == ids(6)
    assert rules.final_table(table, entrants, None) == ids(1, 6, 3, 4)


def test_R17_four_players_absence_leaves_the_seat_empty():
    """R17: with nobody below the cut, an absent finalist's seat stays empty."""
    table = descending(4, top=30, winners=[1])
    entrants = rules.finals_entrants(table, present=ids(1, 2, 4))
    assert by_stage(entrants, "final") == ids(1, 2, 4) and wildcards(entrants) == []
    assert rules.final_table(table, entrants, None) == ids(1, 2, 4)


def test_R16_seven_players_three_player_semifinal_winner_beats_the_weakest_finalist():
    """R16: with N = 7 the semifinal has the 3 others; its winner (12 > P004's 11) takes
    P004's seat."""
    table = standings_for({pid(1): 30, pid(2): 20, pid(3): 15, pid(4): 11, pid(5): 10,
                           pid(6): 9, pid(7): 8}, ids(1))
    entrants = rules.finals_entrants(table)
    assert by_stage(entrants, "semifinal") == ids(5, 6, 7)
    semi = played((80, [(pid(6), 12), (pid(5), 10), (pid(7), 0)]))
    assert rules.final_table(table, entrants, semi) == ids(1, 2, 3, 6)


def test_R16_seven_players_semifinal_winner_takes_a_seat_left_empty():
    """R16, R17: nobody is below the cut at N = 7, so an absent finalist's seat stays empty and
    the semifinal winner takes it without a contest."""
    table = descending(7, top=30, winners=[1])
    entrants = rules.finals_entrants(table, present=ids(1, 3, 4, 5, 6, 7))
    assert by_stage(entrants, "final") == ids(1, 3, 4)
    semi = played((80, [(pid(7), 1), (pid(5), 0), (pid(6), -5)]))
    assert rules.final_table(table, entrants, semi) == ids(1, 3, 4, 7)


# --- 8 ≤ N ≤ 16: one semifinal, its winner contests the weakest finalist ---------------------

def brief_example():
    """12 players, best scores 30, 29 … 19 (P001 … P012); P001 and P010 won games; P002 is
    absent, so P010 (best 21, a winning player below the cut) takes the direct seat (R17)."""
    table = descending(12, top=30, winners=[1, 10])
    entrants = rules.finals_entrants(table, present=set(ids(*range(1, 13))) - {pid(2)})
    return table, entrants


def test_R17_absent_direct_finalist_replaced_by_the_winning_player_below_the_cut():
    """R17: P010 (a winning player) is preferred to the better-ranked P009."""
    table, entrants = brief_example()
    assert by_stage(entrants, "final") == ids(1, 10, 3, 4)
    assert by_stage(entrants, "semifinal") == ids(5, 6, 7, 8)
    assert wildcards(entrants) == ids(10)


@pytest.mark.parametrize("score", [22, 24, 28])
def test_R16_semifinal_winner_contests_the_wildcard_who_is_the_weakest_finalist(score):
    """R16: the weakest finalist is P010 (wildcard, best 21), not the last direct seat (P004,
    best 27): a semifinal score of 22, 24 or 28 takes P010's seat, and P004 keeps theirs."""
    table, entrants = brief_example()
    assert rules.weakest_finalist(table, entrants) == pid(10)
    semi = played((80, [(pid(7), score), (pid(5), 15), (pid(6), 11), (pid(8), 0)]))
    assert rules.final_table(table, entrants, semi) == ids(1, 7, 3, 4)


def test_R16_semifinal_score_equal_to_the_weakest_best_score_keeps_the_finalist():
    """R16: on a tie (21 against P010's best 21) the finalist keeps the seat."""
    table, entrants = brief_example()
    semi = played((80, [(pid(7), 21), (pid(5), 15), (pid(6), 11), (pid(8), 0)]))
    assert rules.final_table(table, entrants, semi) == ids(1, 10, 3, 4)


def test_R16_without_absences_the_weakest_finalist_is_the_fourth():
    """R16: with the cut as drawn, the weakest finalist is P004 (best 27): 28 takes the seat,
    27 does not."""
    table = descending(12, top=30, winners=[1])
    entrants = rules.finals_entrants(table)
    assert rules.weakest_finalist(table, entrants) == pid(4)
    beats = played((80, [(pid(8), 28), (pid(5), 15), (pid(6), 11), (pid(7), 0)]))
    ties = played((80, [(pid(8), 27), (pid(5), 15), (pid(6), 11), (pid(7), 0)]))
    assert rules.final_table(table, entrants, beats) == ids(1, 2, 3, 8)
    assert rules.final_table(table, entrants, ties) == ids(1, 2, 3, 4)


def test_R16_equal_best_scores_the_lower_ranked_finalist_is_contested():
    """R16: P003 and P004 share the lowest best score of the final; P004 ranks lower (R14: same
    score, a worse placing in that game), so the winner contests P004, not P003."""
    best = {pid(1): 30, pid(2): 29, pid(3): 27, pid(4): 27,
            **{pid(i): 30 - i for i in range(5, 13)}}
    table = standings_for(best, ids(1))
    rank = table.set_index("player_id")["rank"]
    assert rank[pid(3)] < rank[pid(4)]
    entrants = rules.finals_entrants(table)
    assert rules.weakest_finalist(table, entrants) == pid(4)
    semi = played((80, [(pid(6), 28), (pid(5), 15), (pid(7), 11), (pid(8), 0)]))
    assert rules.final_table(table, entrants, semi) == ids(1, 2, 3, 6)


def test_R16_R17_wildcard_equal_to_a_direct_finalist_is_the_one_contested():
    """R16, R17: seven players share a best score of 25 (R14 orders them by their best games).
    The 2nd-ranked is absent; with no winning player below the cut the 9th-ranked takes the
    seat (R17). The wildcard and the 4th-ranked finalist have equal best scores; the wildcard
    ranks lower, so they are the one contested, whatever their seat."""
    best = {pid(1): 30, pid(2): 29, pid(3): 28, **{pid(i): 25 for i in range(4, 11)},
            pid(11): 20, pid(12): 19}
    table = standings_for(best, ids(1))
    order = table["player_id"].tolist()
    fourth, wildcard = order[3], order[8]
    assert best[fourth] == best[wildcard] == 25
    assert table["rank"].iat[3] < table["rank"].iat[8]
    entrants = rules.finals_entrants(table, present=set(best) - {pid(2)})
    assert by_stage(entrants, "final") == [pid(1), wildcard, pid(3), fourth]
    assert rules.weakest_finalist(table, entrants) == wildcard
    semifinalists = by_stage(entrants, "semifinal")
    semi = played((80, list(zip(semifinalists, [26, 15, 11, 0]))))
    assert rules.final_table(table, entrants, semi) == [pid(1), semifinalists[0], pid(3), fourth]


def test_R17_absent_semifinalist_replaced_without_a_winner_below_the_cut():
    """R17: no winning player below the cut: the best-ranked present one (P010, P009 being
    absent too) takes the semifinal seat; a semifinal wildcard can win the contest."""
    table = descending(12, top=30, winners=[1, 2])
    entrants = rules.finals_entrants(table, present=set(ids(*range(1, 13))) - {pid(6), pid(9)})
    assert by_stage(entrants, "semifinal") == ids(5, 10, 7, 8)
    assert wildcards(entrants) == ids(10)
    semi = played((80, [(pid(10), 28), (pid(5), 15), (pid(7), 11), (pid(8), 0)]))
    assert rules.final_table(table, entrants, semi) == ids(1, 2, 3, 10)


def test_R17_sixteen_players_several_absences_filled_winners_first():
    """R17: two absences in the cut (P003 final, P007 semifinal) go, in seat order, to the
    winning players below the cut by standing (P012, then P015)."""
    table = descending(16, top=40, winners=[1, 12, 15])
    entrants = rules.finals_entrants(table, present=set(ids(*range(1, 17))) - {pid(3), pid(7)})
    assert by_stage(entrants, "final") == ids(1, 2, 12, 4)
    assert by_stage(entrants, "semifinal") == ids(5, 6, 15, 8)
    assert wildcards(entrants) == ids(12, 15)


def test_R18_displaced_wildcard_ranks_after_the_semifinalists():
    """R18: the wildcard P010 lost the final seat (R16), so they rank after the semifinalists,
    by qualifier standing with everyone else (the absent P002 first)."""
    table, entrants = brief_example()
    semi = played((80, [(pid(7), 24), (pid(5), 15), (pid(6), 11), (pid(8), 0)]))
    seated = rules.final_table(table, entrants, semi)
    final = played((90, [(pid(4), 25), (pid(7), 16), (pid(1), 11), (pid(3), 0)]))
    assert sorted(seated) == sorted(final["player_id"])
    result = rules.final_standings(table, semi, final)
    assert result["player_id"].tolist() == ids(4, 7, 1, 3, 5, 6, 8, 2, 9, 10, 11, 12)
    assert result["stage"].tolist() == ["final"] * 4 + ["semifinal"] * 3 + ["qualifier"] * 5
    assert result["final_rank"].tolist() == list(range(1, 13))


def test_R18_displaced_direct_qualifier_ranks_after_the_semifinalists():
    """R18: P004 lost the seat to the semifinal winner P008 and ranks 8th, right after the
    semifinalists, ahead of the players who did not make the cut."""
    table = descending(12, top=30, winners=[1])
    rules.finals_entrants(table)
    semi = played((80, [(pid(8), 28), (pid(5), 15), (pid(6), 11), (pid(7), 0)]))
    final = played((90, [(pid(2), 25), (pid(8), 16), (pid(1), 11), (pid(3), 0)]))
    result = rules.final_standings(table, semi, final)
    assert result["player_id"].tolist() == ids(2, 8, 1, 3, 5, 6, 7, 4, 9, 10, 11, 12)


def test_R18_semifinal_winner_who_stays_out_heads_the_semifinalists():
    """R18: the winner who did not beat the weakest finalist still ranks first of the
    semifinalists, by semifinal placing; the finalist who kept the seat plays the final."""
    table = descending(12, top=30, winners=[1])
    entrants = rules.finals_entrants(table)
    semi = played((80, [(pid(8), 27), (pid(5), 15), (pid(6), 11), (pid(7), 0)]))
    assert rules.final_table(table, entrants, semi) == ids(1, 2, 3, 4)
    final = played((90, [(pid(4), 25), (pid(3), 16), (pid(2), 11), (pid(1), 0)]))
    result = rules.final_standings(table, semi, final)
    assert result["player_id"].tolist()[:8] == ids(4, 3, 2, 1, 8, 5, 6, 7)
    assert result["stage"].tolist()[4:8] == ["semifinal"] * 4


# --- 17 ≤ N ≤ 32: two semifinals, the better winner takes the fourth seat ----------------------

def two_semifinals(score_a, score_b):
    """20 players: P001–P003 direct, P004–P011 at two semifinals (R16)."""
    table = descending(20, top=40, winners=[1])
    entrants = rules.finals_entrants(table)
    a = (80, [(pid(4), score_a), (pid(5), 15), (pid(6), 11), (pid(7), 0)])
    b = (81, [(pid(8), score_b), (pid(9), 15), (pid(10), 11), (pid(11), 0)])
    return table, entrants, played(a, b)


def test_R16_seventeen_to_thirty_two_better_winner_takes_the_fourth_seat():
    """R16: X = 3, Y = 8; the winner with the higher semifinal score (P008, 26) advances."""
    table, entrants, semi = two_semifinals(24, 26)
    assert by_stage(entrants, "final") == ids(1, 2, 3)
    assert len(by_stage(entrants, "semifinal")) == 8
    assert rules.final_table(table, entrants, semi) == ids(1, 2, 3, 8)


def test_R16_seventeen_to_thirty_two_equal_winners_split_by_that_games_tiebreakers():
    """R16: equal semifinal scores; the winners' own games decide (VP, then spice …)."""
    table = descending(20, top=40, winners=[1])
    entrants = rules.finals_entrants(table)
    rows = pd.DataFrame(game(80, [(pid(4), 24), (pid(5), 15), (pid(6), 11), (pid(7), 0)])
                        + game(81, [(pid(8), 24), (pid(9), 15), (pid(10), 11), (pid(11), 0)],
                               spice={pid(8): 3}))
    semi = rules.score_games(rows)
    assert semi.loc[semi["placing"] == 1, "qualifier_score"].tolist() == [24, 24]
    assert rules.final_table(table, entrants, semi) == ids(1, 2, 3, 8)  # more spice
    # One more VP for P004 (and one variant point less, so still 24) outweighs the spice.
    p4 = (rows["player_id"] == pid(4)).astype(int)
    more_vp = rules.score_games(rows.assign(vp=rows["vp"] + p4,
                                            variant_points=rows["variant_points"] - p4))
    assert more_vp.loc[more_vp["placing"] == 1, "qualifier_score"].tolist() == [24, 24]
    assert rules.final_table(table, entrants, more_vp) == ids(1, 2, 3, 4)


def test_R16_seventeen_to_thirty_two_no_contest_with_a_weak_wildcard():
    """R16, R17: above 16 players the winner takes the fourth seat; a wildcard who took a
    direct seat keeps it, however low their best score."""
    table = descending(20, top=40, winners=[1, 18])
    entrants = rules.finals_entrants(table, present=set(ids(*range(1, 21))) - {pid(2)})
    assert by_stage(entrants, "final") == ids(1, 18, 3) and wildcards(entrants) == ids(18)
    semi = played((80, [(pid(4), 40), (pid(5), 15), (pid(6), 11), (pid(7), 0)]),
                  (81, [(pid(8), 22), (pid(9), 15), (pid(10), 11), (pid(11), 0)]))
    assert rules.final_table(table, entrants, semi) == ids(1, 18, 3, 4)


@pytest.mark.parametrize("n", [17, 32])
def test_R16_seventeen_and_thirty_two_are_in_the_two_semifinal_band(n):
    fmt = rules.finals_format(n)
    assert (fmt.direct, fmt.semifinal, fmt.semifinal_tables, fmt.advance, fmt.challenge) == (
        3, 8, 2, 1, False)


def test_R18_two_semifinals_second_places_ordered_by_best_score():
    """R18: semifinalists by semifinal placing; the two 2nd places (P005 at 36, P009 at 32)
    by best qualifier score, and so on for 3rd and 4th."""
    table, entrants, semi = two_semifinals(24, 26)
    final = played((90, [(pid(3), 25), (pid(8), 16), (pid(1), 11), (pid(2), 0)]))
    result = rules.final_standings(table, semi, final)
    assert result["player_id"].tolist()[:11] == ids(3, 8, 1, 2, 4, 5, 9, 6, 10, 7, 11)
    assert result["player_id"].tolist()[11:] == ids(*range(12, 21))


# --- N ≥ 33: three semifinals, the two best winners take the last two seats -------------------

def three_semifinals(scores):
    """40 players: P001, P002 direct; P003–P006, P007–P010, P011–P014 at three semifinals,
    whose winners score `scores` (R16)."""
    table = descending(40, top=50, winners=[1])
    entrants = rules.finals_entrants(table)
    semifinalists = by_stage(entrants, "semifinal")
    games = [(80 + t, list(zip(semifinalists[4 * t:4 * t + 4], [score, 15, 11, 0])))
             for t, score in enumerate(scores)]
    return table, entrants, played(*games)


def test_R16_thirty_three_and_more_two_best_of_three_winners_advance():
    """R16: X = 2, Y = 12 at three semifinals; the winners with 30 (P011) and 27 (P003) take
    the last two seats, best first."""
    table, entrants, semi = three_semifinals([27, 22, 30])
    assert by_stage(entrants, "final") == ids(1, 2)
    assert by_stage(entrants, "semifinal") == ids(*range(3, 15))
    assert rules.final_table(table, entrants, semi) == ids(1, 2, 11, 3)


def test_R16_thirty_three_and_more_equal_winners_split_by_standing_last():
    """R16: three winners equal on score and on every game stat: the game's tiebreakers do not
    split them, so the better qualifier standing does (P003, then P007)."""
    table, entrants, semi = three_semifinals([25, 25, 25])
    assert rules.final_table(table, entrants, semi) == ids(1, 2, 3, 7)


def test_R17_thirty_three_and_more_absent_finalist_replaced_and_seated_directly():
    """R17: P001 is absent; the best winning player below the cut (P030) takes the direct seat."""
    table = descending(40, top=50, winners=[1, 30, 35])
    entrants = rules.finals_entrants(table, present=set(ids(*range(2, 41))))
    assert by_stage(entrants, "final") == ids(30, 2) and wildcards(entrants) == ids(30)


def test_R18_three_semifinals_winner_left_out_heads_the_semifinalists():
    """R18: the third winner (P007, 22) ranks first of the semifinalists; 2nd places follow by
    best qualifier score (P004, P008, P012)."""
    table, entrants, semi = three_semifinals([27, 22, 30])
    final = played((90, [(pid(2), 25), (pid(11), 16), (pid(1), 11), (pid(3), 0)]))
    result = rules.final_standings(table, semi, final)
    assert result["player_id"].tolist()[:8] == ids(2, 11, 1, 3, 7, 4, 8, 12)
    assert result["stage"].value_counts().to_dict() == {"qualifier": 26, "semifinal": 10,
                                                        "final": 4}
