"""Fair draws (stsa.draw balanced mode, pins; stsa.fairness cost and report): R1, R3, R6 still
hold, pinned players stay, the seed reproduces the draw, balanced never costs more than plain."""

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench import fair
from stsa import catalog, draw, fairness
from stsa.errors import TournamentError
from tests.unit.test_draw import check_draw, players

SETUPS = catalog.setups()
SETUPS_BOW = catalog.setups(battle_of_wills=True)

seeds = st.integers(min_value=0, max_value=2**63 - 1)
seatable = st.integers(min_value=3, max_value=64).filter(lambda n: n != 5)
fast = settings(max_examples=30, deadline=None)


def history_of(n_players: int, sittings: int, seed: int, setups=SETUPS, mode="random"):
    """Earlier seats of `sittings` sittings of `n_players` players, and the setup counts."""
    frames, counts = [], {}
    for number in range(1, sittings + 1):
        drawn = draw.draw_sitting(players(n_players), setups, seed=seed + number,
                                  setup_counts=counts, mode=mode,
                                  history=pd.concat(frames) if frames else None)
        counts = drawn.setup_counts(counts)
        frames.append(seated(drawn, number))
    history = pd.concat(frames, ignore_index=True) if frames else fairness.empty_history()
    return history, counts


def seated(drawn, sitting_id):
    rows = drawn.seats.merge(drawn.tables[["table_no", "setup_id"]], on="table_no")
    return rows.assign(sitting_id=sitting_id)[list(fairness.HISTORY_COLUMNS)]


def cost(drawn, history):
    return fairness.draw_cost(drawn.seats, drawn.tables, history)


# --- R1, R3, R6: the plain draw's constraints hold in balanced mode ---------------------------


@pytest.mark.slow
@fast
@given(n=seatable, earlier=st.integers(min_value=0, max_value=4), seed=seeds)
def test_R3_balanced_draw_keeps_every_constraint_of_the_plain_draw(n, earlier, seed):
    history, counts = history_of(n + 3, earlier, seed % 1000)  # some players not here now
    ids = players(n)
    result = draw.draw_sitting(ids, SETUPS, seed=seed, setup_counts=counts, mode="balanced",
                               history=history)
    check_draw(result, ids)  # every player once, R1 sizes, seats, colours, R9 pick order
    assert result.seed == seed
    plain = draw.draw_sitting(ids, SETUPS, seed=seed, setup_counts=counts)
    # R6: the same setups as the plain draw chose, only dealt to other tables.
    assert sorted(result.tables["setup_id"]) == sorted(plain.tables["setup_id"])
    if len(result.tables) <= len(SETUPS):
        assert result.tables["setup_id"].is_unique


@pytest.mark.slow
@settings(max_examples=10, deadline=None)
@given(sittings=st.lists(st.integers(min_value=3, max_value=40).filter(lambda n: n != 5),
                         min_size=8, max_size=8),
       enabled=st.sets(st.integers(min_value=0, max_value=31), min_size=1, max_size=32),
       seed=seeds)
def test_R6_balanced_setup_uses_stay_within_one_over_many_sittings(sittings, enabled, seed):
    setups = SETUPS_BOW.iloc[sorted(enabled)]
    counts, frames = {}, []
    for number, n in enumerate(sittings):
        result = draw.draw_sitting(players(n), setups, seed=seed + number, setup_counts=counts,
                                   mode="balanced",
                                   history=pd.concat(frames) if frames else None)
        counts = result.setup_counts(counts)
        frames.append(seated(result, number))
        uses = [counts.get(setup_id, 0) for setup_id in setups["setup_id"]]
        assert max(uses) - min(uses) <= 1
        if len(result.tables) <= len(setups):
            assert result.tables["setup_id"].is_unique


def test_R3_balanced_without_history_is_the_plain_draw():
    # Nothing to balance: every arrangement costs the same, so the random draw stands.
    for seed in range(5):
        plain = draw.draw_sitting(players(23), SETUPS, seed=seed)
        balanced = draw.draw_sitting(players(23), SETUPS, seed=seed, mode="balanced")
        pd.testing.assert_frame_equal(plain.seats, balanced.seats)
        pd.testing.assert_frame_equal(plain.tables, balanced.tables)


def test_R3_random_mode_ignores_history_and_is_unchanged():
    history, counts = history_of(16, 2, 1)
    before = draw.draw_sitting(players(16), SETUPS, seed=77, setup_counts=counts)
    explicit = draw.draw_sitting(players(16), SETUPS, seed=77, setup_counts=counts,
                                 mode="random", history=history, pins={})
    pd.testing.assert_frame_equal(before.seats, explicit.seats)
    pd.testing.assert_frame_equal(before.tables, explicit.tables)


@pytest.mark.slow
@fast
@given(n=seatable, seed=seeds)
def test_R3_balanced_same_seed_same_draw(n, seed):
    history, counts = history_of(n, 2, seed % 997)
    first, again = (draw.draw_sitting(players(n), SETUPS, seed=seed, setup_counts=counts,
                                      mode="balanced", history=history) for _ in range(2))
    pd.testing.assert_frame_equal(first.seats, again.seats)
    pd.testing.assert_frame_equal(first.tables, again.tables)


@pytest.mark.slow
@fast
@given(n=seatable, earlier=st.integers(min_value=1, max_value=5), seed=seeds,
       kind=st.sampled_from(["int", "str"]))
def test_balanced_never_costs_more_than_plain_for_the_same_seed(n, earlier, seed, kind):
    history, counts = history_of(n, earlier, seed % 991)
    ids = players(n)
    if kind == "str":  # the same tournament with string ids
        ids = [f"P{p}" for p in ids]
        history = history.assign(player_id="P" + history["player_id"].astype(str))
    plain = draw.draw_sitting(ids, SETUPS, seed=seed, setup_counts=counts, history=history)
    balanced = draw.draw_sitting(ids, SETUPS, seed=seed, setup_counts=counts,
                                 mode="balanced", history=history)
    assert cost(balanced, history) <= cost(plain, history) + 1e-6


@pytest.mark.slow
def test_balanced_cuts_repeats_and_evens_seats_in_a_small_tournament():
    plain = fair.simulate("random", players=32, sittings=5, seed=3)
    balanced = fair.simulate("balanced", players=32, sittings=5, seed=3)
    assert balanced["repeats"] <= plain["repeats"] / 2
    assert balanced["seat_spread"] <= plain["seat_spread"] / 2
    assert balanced["setup_repeats_per_player"] <= plain["setup_repeats_per_player"]


def test_bench_fair_reports_its_figures():
    figures = fair.run(players=16, sittings=3, big=60)
    for key in ("repeats_random", "repeats_balanced", "seat_spread_random",
                "seat_spread_balanced", "balanced_draw_seconds", "balanced_draw_1000_seconds"):
        assert figures[key] >= 0


def test_unknown_draw_mode_is_refused():
    with pytest.raises(TournamentError, match="random or balanced"):
        draw.draw_sitting(players(8), SETUPS, seed=1, mode="fair")


# --- pins -------------------------------------------------------------------------------------


@pytest.mark.slow
@fast
@given(n=seatable, seed=seeds, mode=st.sampled_from(["random", "balanced"]), data=st.data())
def test_pinned_players_keep_their_table(n, seed, mode, data):
    ids = players(n)
    history, counts = history_of(n, 2, seed % 983)
    sizes = draw.table_sizes(n)
    # Up to a full table's worth of pins per table, on random players.
    pinned = data.draw(st.lists(st.sampled_from(ids), unique=True, max_size=min(n, 8)))
    pins, room = {}, list(sizes)
    for player in pinned:
        table = data.draw(st.integers(min_value=1, max_value=len(sizes)))
        if room[table - 1]:
            room[table - 1] -= 1
            pins[player] = table
    result = draw.draw_sitting(ids, SETUPS, seed=seed, setup_counts=counts, mode=mode,
                               history=history, pins=pins)
    check_draw(result, ids)
    at = dict(zip(result.seats["player_id"], result.seats["table_no"]))
    assert all(at[player] == table for player, table in pins.items())
    again = draw.draw_sitting(ids, SETUPS, seed=seed, setup_counts=counts, mode=mode,
                              history=history, pins=pins)
    pd.testing.assert_frame_equal(result.seats, again.seats)


def test_a_full_table_of_pins_is_kept():
    pins = {100: 2, 101: 2, 102: 2, 103: 2}
    result = draw.draw_sitting(players(12), SETUPS, seed=4, pins=pins)
    assert sorted(result.seats.loc[result.seats["table_no"] == 2, "player_id"]) == [
        100, 101, 102, 103]


def test_pinned_player_who_sits_out_is_not_seated():
    for seed in range(20):
        result = draw.draw_sitting(players(5), SETUPS, seed=seed, sit_out=True,
                                   pins={100: 1, 101: 1})
        assert set(result.sit_outs) | set(result.seats["player_id"]) == set(players(5))


@pytest.mark.parametrize("pins, message", [
    ({100: 4}, "tables 1 to 3"),
    ({100: 0}, "tables 1 to 3"),
    ({100: "1"}, "tables 1 to 3"),
    ({999: 1}, "not in this sitting"),
    ({100: 3, 101: 3, 102: 3, 103: 3}, "Table 3 has 3 seats"),
    ([100], "map each pinned player"),
])
def test_bad_pins_are_refused(pins, message):
    with pytest.raises(TournamentError, match=message):
        draw.draw_sitting(players(10), SETUPS, seed=1, pins=pins)


# --- the draw report --------------------------------------------------------------------------


def test_report_finds_a_planted_repeat_seat_and_setup():
    # Earlier: 100 and 101 met twice, 100 had seat 1 twice, 101 played "uprising" once.
    history = pd.DataFrame({
        "sitting_id": [1, 1, 1, 2, 2, 2],
        "table_no": [1, 1, 1, 3, 3, 3],
        "seat": [1, 2, 3, 1, 2, 3],
        "player_id": [100, 101, 102, 100, 101, 103],
        "setup_id": ["legacy", "legacy", "legacy", "uprising", "uprising", "uprising"]})
    seats = pd.DataFrame({"table_no": [1, 1, 1, 2, 2, 2], "seat": [1, 2, 3, 1, 2, 3],
                          "player_id": [100, 101, 104, 103, 105, 102]})
    tables = pd.DataFrame({"table_no": [1, 2], "setup_id": ["uprising", "legacy-ix"]})
    report = fairness.draw_report(seats, tables, history)
    assert report.repeats.to_dict("records") == [
        {"table_no": 1, "player_a": 100, "player_b": 101, "met_before": 2}]
    assert report.seats[["player_id", "seat", "times_before"]].to_dict("records") == [
        {"player_id": 100, "seat": 1, "times_before": 2},
        {"player_id": 101, "seat": 2, "times_before": 2},
        {"player_id": 102, "seat": 3, "times_before": 1}]  # 102's most frequent seat
    assert report.setups[["player_id", "setup_id", "times_before"]].to_dict("records") == [
        {"player_id": 100, "setup_id": "uprising", "times_before": 1},
        {"player_id": 101, "setup_id": "uprising", "times_before": 1}]
    assert report.summary() == {"repeat_pairs": 1, "repeated_seats": 3, "repeated_setups": 2}


def test_report_of_a_first_sitting_is_clean():
    drawn = draw.draw_sitting(players(10), SETUPS, seed=3)
    report = fairness.draw_report(drawn.seats, drawn.tables, None)
    assert report.summary() == {"repeat_pairs": 0, "repeated_seats": 0, "repeated_setups": 0}


def test_report_finds_a_repeat_the_pins_force():
    history, _ = history_of(8, 1, 5)
    first = history.loc[history["table_no"] == 1, "player_id"].tolist()
    drawn = draw.draw_sitting(players(8), SETUPS, seed=9, pins={first[0]: 2, first[1]: 2})
    pairs = fairness.draw_report(drawn.seats, drawn.tables, history).repeats
    assert {tuple(sorted(p)) for p in zip(pairs["player_a"], pairs["player_b"])} >= {
        tuple(sorted(first[:2]))}


def test_history_without_its_columns_is_refused():
    with pytest.raises(TournamentError, match="lack the column"):
        fairness.past(pd.DataFrame({"player_id": [1]}), [1, 2], ["legacy"])
