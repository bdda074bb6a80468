"""The load test (bench/load.py, `make load`) in small: 10 spectators and 2 judges for 20 s
against a real app server. It keeps the load generator honest, so that `make load`'s figures
measure what they claim: every person's steps work on the real pages (no exception, no error,
no timeout), every save the judges saw reached the database as a new version with its log
entry, and every spectator's live Standings refreshed through its fragment.

No timings are asserted: they depend on the machine; `make load` reports them."""

from __future__ import annotations

import pytest

from bench import load

pytestmark = [pytest.mark.server, pytest.mark.slow]


@pytest.fixture(scope="module")
def figures(tmp_path_factory) -> dict:
    # A smaller tournament than the room's (8 tables in its latest qualifier, enough for two
    # judges): it builds in seconds; the pages and steps are the same.
    return load.run(spectators=10, judges=2, seconds=20, players=32, sittings=2,
                    cache=tmp_path_factory.mktemp("load"), log=lambda _: None)


def test_no_errors(figures):
    """No page showed an exception or an error, no run timed out, no connection broke, and
    the app's output has no traceback."""
    assert figures["load_errors"] == 0, figures["load_error_samples"]


def test_every_save_reached_the_database(figures):
    """Each judge saved (a correction every 10 s), and the database holds exactly as many new
    result versions and result log entries as saves the judges were told succeeded."""
    assert figures["load_saves"] >= 2, figures
    assert figures["load_saves_in_database"] == figures["load_saves"], figures
    assert figures["load_sign_in_p50_ms"] is not None, "the judges' sign-ins were timed"


def test_every_spectator_got_refreshes(figures):
    """Every spectator opened Standings and its fragment reran at least once by the page's own
    interval, as a browser's timer reruns it."""
    assert figures["load_min_refreshes_per_spectator"] >= 1, figures
    assert figures["load_refreshes"] >= 10, figures
