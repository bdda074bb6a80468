"""The `public_url` setting: the app's address as judges' phones reach it, printed as the QR
code on each table slip. Unset by default; only a plain http(s) address is kept."""

import pytest

from stsa import store
from tests.support.store_helpers import JUDGE, ORGANIZER


def test_unset_by_default(engine):
    assert store.DEFAULT_SETTINGS["public_url"] is None
    assert store.settings(engine)["public_url"] is None


@pytest.mark.parametrize("typed, kept", [
    ("http://192.168.1.20:8501", "http://192.168.1.20:8501"),
    ("  https://stsa.example.org/  ", "https://stsa.example.org"),
    ("http://tournament.local:8501/app", "http://tournament.local:8501/app"),
    ("HTTP://10.0.0.5", "HTTP://10.0.0.5"),
])
def test_a_web_address_is_kept_trimmed(engine, typed, kept):
    assert store.set_settings(engine, {"public_url": typed}, actor=ORGANIZER)["public_url"] \
        == kept


@pytest.mark.parametrize("typed", [None, "", "   "])
def test_blank_clears_it(engine, typed):
    store.set_settings(engine, {"public_url": "http://10.0.0.5:8501"}, actor=ORGANIZER)
    assert store.set_settings(engine, {"public_url": typed}, actor=ORGANIZER)["public_url"] \
        is None
    changes = store.events(engine, action="settings.change", actor=ORGANIZER)
    assert changes["after"].iloc[-1] == {"public_url": None}


@pytest.mark.parametrize("typed, message", [
    ("192.168.1.20:8501", "must start with http:// or https://"),
    ("ftp://10.0.0.5", "must start with http:// or https://"),
    ("http://", "must start with http:// or https://"),
    ("javascript:alert(1)", "must start with http:// or https://"),
    ("http://my host:8501", "without spaces"),
    ("http://10.0.0.5:port", "port that is not a number"),
    ("http://10.0.0.5:8501/?session=x", "without \\? or # parts"),
    ("http://" + "a" * 200 + ".org", "at most 200 characters"),
    (8501, "must be a web address"),
])
def test_anything_else_is_refused_and_changes_nothing(engine, typed, message):
    with pytest.raises(store.TournamentError, match=f"Settings unchanged: public_url .*{message}"):
        store.set_settings(engine, {"public_url": typed}, actor=ORGANIZER)
    assert store.settings(engine)["public_url"] is None


def test_only_the_organizer_sets_it(engine):
    with pytest.raises(store.PermissionDenied):
        store.set_settings(engine, {"public_url": "http://10.0.0.5"}, actor=JUDGE)
