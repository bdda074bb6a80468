"""The pages' shared reads (`stsa.ui.data`): computed once per data version for every session,
one computation when many sessions ask at once, nothing kept of older versions, and a page
run that sees a write at its next run (DESIGN.md, "Shared state")."""

import threading

import pytest

from stsa import demo, store
from stsa.services import results, shared
from tests.app.conftest import JUDGE, ORGANIZER, count_calls, live_data


def test_many_sessions_asking_at_once_compute_once():
    shelf, started, release = shared.Shelf(), threading.Event(), threading.Event()
    calls, seen = [], []

    def compute():
        calls.append(1)
        started.set()
        release.wait(5)  # the others ask while this one computes
        return "standings"

    def ask():
        seen.append(shelf.get("standings", 7, compute))

    first = threading.Thread(target=ask)
    first.start()
    started.wait(5)
    others = [threading.Thread(target=ask) for _ in range(20)]
    for thread in others:
        thread.start()
    release.set()
    for thread in [first, *others]:
        thread.join(5)
    assert len(calls) == 1 and seen == ["standings"] * 21


def test_a_new_version_is_computed_once_and_a_late_run_gets_the_newer_value():
    shelf, calls = shared.Shelf(), []

    def compute(value):
        return lambda: calls.append(value) or value

    assert shelf.get("standings", 1, compute("v1")) == "v1"
    assert shelf.get("standings", 1, compute("again")) == "v1"
    assert shelf.get("statistics", 1, compute("s1")) == "s1"
    assert shelf.get("standings", 2, compute("v2")) == "v2"
    assert calls == ["v1", "s1", "v2"]
    assert shelf.get("statistics", 2, compute("s2")) == "s2"  # version 1's value is not used
    # a run that read version 1 before a save gets version 2's value: never the past again
    assert shelf.get("standings", 1, compute("late")) == "v2"
    assert calls == ["v1", "s1", "v2", "s2"]
    # a value computed late for an older version never replaces a newer one
    assert shelf.get("finals", 3, compute("f3")) == "f3"
    assert shelf.get("finals", 2, compute("never")) == "f3"


def test_a_failed_computation_is_not_kept():
    shelf = shared.Shelf()

    def broken():
        raise RuntimeError("database gone")

    with pytest.raises(RuntimeError):
        shelf.get("standings", 1, broken)
    assert shelf.get("standings", 1, lambda: "fine") == "fine"


@pytest.fixture
def scoring_spy(monkeypatch):
    """Counts the scorings of every result (what the Standings, Statistics and Results pages
    share)."""
    return count_calls(monkeypatch, results, "scored")


@pytest.mark.parametrize("pages", [("views/standings.py", "views/statistics.py"),
                                   ("views/statistics.py", "views/results.py"),
                                   ("views/tv.py", "views/standings.py")])
def test_pages_and_sessions_share_one_scoring_per_version(open_page, engine, scoring_spy,
                                                         pages):
    demo.load_demo(engine, actor=ORGANIZER)
    first = open_page(pages[0])
    second = open_page(pages[1], as_=JUDGE)
    first.run()
    assert not first.exception and not second.exception
    assert len(scoring_spy) == 1


@pytest.mark.usefixtures("answers_at_once")
def test_a_write_is_seen_by_the_next_run_of_every_page(open_page, engine, scoring_spy):
    demo.load_demo(engine, actor=ORGANIZER)
    results_page = open_page("views/results.py")
    standings = open_page("views/standings.py")
    assert len(scoring_spy) == 1
    scored = store.results(engine)
    game = int(scored.loc[scored["sitting_id"] == scored["sitting_id"].max(), "game_id"].iloc[0])
    rows = scored.loc[scored["game_id"] == game, ["player_id", "leader", "vp", "spice",
                                                  "solari", "troops", "water"]]
    winner = int(rows.sort_values("vp")["player_id"].iloc[0])  # the last, now far ahead
    corrected = rows.assign(vp=[30 if p == winner else 1 for p in rows["player_id"]])
    store.submit_table_result(engine, game, corrected, expected_version=1,
                              submission_id=None, actor=JUDGE)
    results_page.run()
    standings.run()
    assert len(scoring_spy) == 2
    listed = results_page.dataframe[-1].value
    assert 30 in listed["VP"].tolist()
    best = {r["player"]: r["best_score"]  # what the page hands its live element
            for r in live_data(standings, "standings")["answer"]["standings"]}
    assert best[store.player(engine, winner)["name"]] >= 49
