"""The benchmark runs and reports every figure build/bench.json promises (on a small size)."""

from bench import core
from stsa import rules


def test_bench_core_reports_its_figures():
    figures = core.run(n_games=2_000, players=400, draw_players=500)
    assert figures["score_rows"] == 8_000
    assert figures["draw_players"] == 500
    for key in ("score_seconds", "oracle_speedup", "draw_seconds", "draw_counted_seconds"):
        assert figures[key] > 0


def test_bench_synthetic_tournament_is_valid():
    results = core.synthetic_results(1_000, players=300)
    scored = rules.score_games(results)
    assert scored.groupby("game_id")["placing"].min().eq(1).all()
    assert len(rules.standings(scored)) <= 300


def test_every_phone_has_a_loopback_address_of_its_own():
    from bench import phones

    found = [phones.address(n) for n in range(70_000)]
    assert len(set(found)) == len(found)
    assert all(a.startswith("127.") and not a.startswith("127.0.") for a in found)
    assert all(0 < int(a.rsplit(".", 1)[1]) < 255 for a in found)


def test_a_save_is_seen_at_a_phones_first_poll_built_after_it():
    from bench.phones import Polls

    polls = Polls()
    # phone 1 polls at 0, 5, 10, 15 s (each taking 0.1 s); its answers were built at
    # versions 10, 10, 12 (a 304 on the same answer counts too), then an error, then 12
    polls.sent[1] = [0.0, 5.0, 10.0, 15.0, 20.0]
    polls.seconds[1] = [0.1] * 5
    polls.status[1] = [200, 304, 200, 0, 304]
    polls.version[1] = [10, 10, 12, -1, 12]
    # phone 2 never caught up with version 12
    polls.sent[2], polls.seconds[2] = [1.0, 6.0], [0.2, 0.2]
    polls.status[2], polls.version[2] = [200, 304], [10, 10]
    # phone 3 opened its page after both saves: how late it came says nothing of the saves
    polls.sent[3], polls.seconds[3] = [30.0], [0.1]
    polls.status[3], polls.version[3] = [200], [12]
    seen = polls.seen_after([(3.0, 11), (4.0, 10)])
    # the save at 3 s (version 11): phone 1 at 10.1 s; phone 2 never (left out). The save at
    # 4 s (version 10): phone 1 at 5.1 s, phone 2 at 6.2 s.
    assert sorted(round(s, 1) for s in seen) == [1.1, 2.2, 7.1]
