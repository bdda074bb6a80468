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
