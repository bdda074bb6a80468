"""The load test (bench/load.py, `make load`) in small: 10 phones and 2 judges for 20 s against
a real app server. It keeps the load generator honest, so that `make load`'s figures measure
what they claim: every person's steps work on the real pages (no exception, no error, no
timeout), every save the judges saw reached the database as a new version with its log entry,
every phone's live element polled the feed answer its page gave it, each from its own
address, and the server ran no script for a phone after its page opened.

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


def test_every_phone_polls_its_answer_and_costs_no_script_run_after_opening(figures):
    """Every phone opened its page once and then polled the feed every 5 s (about four polls
    in 20 s, most of them 304s); the server started no script run beyond the pages' openings
    and the judges' own runs; the phones saw the judges' saves."""
    assert figures["load_polls"] >= 10 * 2, figures
    assert figures["load_poll_errors"] == 0, figures
    assert figures["load_polls_not_modified"] > 0, figures
    assert figures["load_script_runs_per_spectator_minute"] == 0, figures
    assert figures["load_seen_p95_ms"] is not None, figures


@pytest.fixture(scope="module")
def convention(tmp_path_factory) -> dict:
    """The convention room in small: spectators on My seat, Standings and TV, the judges
    signing in at one moment once every page has opened."""
    room = load.ROOMS["convention"]
    return load.run(spectators=9, judges=3, seconds=40, players=32, sittings=2,
                    cache=tmp_path_factory.mktemp("convention"), log=lambda _: None,
                    mix=room.mix, together=room.together)


def test_the_convention_room_signs_everyone_in_together_and_counts_script_runs(convention):
    """Every page kind opened and polled with no error; every judge signed in once (at the
    barrier) and saved; no phone cost a script run after its page opened."""
    assert convention["load_errors"] == 0, convention["load_error_samples"]
    assert convention["load_sign_in_together"] is True
    assert convention["load_sign_ins"] == 3, convention
    assert convention["load_room_full_after_s"] is not None, convention
    assert convention["load_saves_in_database"] == convention["load_saves"] >= 1, convention
    assert set(convention["load_spectator_pages"]) == {"player", "standings", "tv"}
    assert convention["load_polls"] >= 9, convention
    assert convention["load_script_runs_per_spectator_minute"] == 0, convention
