"""The data feed's shapes (`stsa.services.feed`): field paths, the allow-list that refuses any
field it does not name (R20, R22), JSON values from pandas, and sitting addresses."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from stsa.services import feed


def test_paths_name_every_field_lists_as_brackets():
    payload = {"tournament": "x", "tables": [{"table": 1, "seats": [{"player": "A"}]},
                                             {"table": 2, "seats": []}], "format": None}
    assert feed.paths(payload) == {"tournament", "tables[].table", "tables[].seats[].player",
                                   "tables[].seats", "format"}


def test_a_field_outside_the_list_is_refused_before_anything_is_sent():
    good = {"tournament": "x", "cut": None, "standings": [{"rank": 1, "player": "Ace"}]}
    assert feed.check("standings", good) is good
    assert feed.check("standings", {"tournament": "x", "standings": []})  # none yet
    with pytest.raises(feed.Refused, match=r"standings\[\]\.email"):
        feed.check("standings", {"tournament": "x", "standings": [{"rank": 1,
                                                                   "email": "a@b.example"}]})
    with pytest.raises(feed.Refused, match="removed_leaders"):
        feed.check("sitting", {"tournament": "x", "removed_leaders": ["Leto"]})


def test_no_allow_list_names_a_private_field():
    last = {f.replace("[]", ".").split(".")[-1] for fields in feed.FIELDS.values()
            for f in fields}
    assert not {w for w in feed.NEVER for name in last if w in name}


def test_records_are_plain_json_with_nulls_for_missing_values():
    frame = pd.DataFrame({"Rank": np.array([1, 2], dtype="int64"),
                          "Best score": pd.array([21, None], dtype="Int64"),
                          "Share": [0.5, np.nan], "Tied": np.array([True, False])})
    found = feed.records(frame, {"Rank": "rank", "Best score": "best_score",
                                 "Share": "share", "Tied": "tied"})
    assert found == [{"rank": 1, "best_score": 21, "share": 0.5, "tied": True},
                     {"rank": 2, "best_score": None, "share": None, "tied": False}]
    json.dumps(found)  # no numpy value left


def test_only_published_and_complete_sittings_are_listed():
    frame = pd.DataFrame({"sitting_id": [1, 2, 3], "kind": ["qualifier"] * 3,
                          "number": [1, 2, 3], "status": ["complete", "published", "draft"],
                          "tables": [2, 2, 2], "results": [2, 1, 0],
                          "rule_change": ["", "Spice must flow", ""]})
    listed = feed.sittings("gothcon", frame)["sittings"]
    assert [(s["sitting"], s["rule_change"]) for s in listed] == [
        ("qualifier-1", None), ("qualifier-2", "Spice must flow")]


# --- the feed's words in the reader's language (issue 25) ------------------------------------
# Field names and machine values stay English (a stable API); the words meant for people follow
# `?lang=`, else the tournament's language.

def _home(kind: str = "qualifier", number: int = 2):
    from types import SimpleNamespace
    status = SimpleNamespace(
        sitting=SimpleNamespace(kind=kind, number=number), tournament_name="GothCon",
        players=12, checked_in=10, missing_tables=[3],
        podium=[(SimpleNamespace(value="champion"), "Ace")])
    settings = SimpleNamespace(venue="Hall B", starts_on="2026-03-07", ends_on="2026-03-08",
                               time_zone="Europe/Stockholm")
    return status, settings


def _fields(payload) -> set[str]:
    return feed.paths(payload)


def test_a_swedish_answer_has_swedish_words_and_the_same_machine_fields():
    from stsa import i18n
    status, settings = _home()
    english = feed.tournament("gothcon", status, settings, archived=False)
    with i18n.language("sv"):
        swedish = feed.tournament("gothcon", status, settings, archived=False)
    with i18n.language("fr"):
        french = feed.tournament("gothcon", status, settings, archived=False)
    assert english["current_sitting"] == "Qualifier 2"
    assert swedish["current_sitting"] == "Kvalomgång 2"
    assert french["current_sitting"] == "Qualification 2"
    assert _fields(swedish) == _fields(english) == _fields(french)
    same = {k: v for k, v in english.items() if k != "current_sitting"}
    assert {k: v for k, v in swedish.items() if k != "current_sitting"} == same
    assert swedish["podium"] == [{"place": "champion", "player": "Ace"}]  # a machine value


def test_a_swedish_schedule_reads_its_days_in_swedish_and_keeps_its_times():
    from stsa import i18n
    from stsa.services import schedule as schedule_service
    zone = "Europe/Stockholm"
    frame = pd.DataFrame({
        "item_id": [1, 2], "label": ["Qualifier 1", "Lunch"], "title": ["Qualifier 1", "Lunch"],
        "sitting_kind": ["qualifier", None], "sitting_number": [1, None],
        "starts_at": pd.to_datetime(["2026-03-07 08:00", "2026-03-07 11:00"], utc=True),
        "ends_at": pd.to_datetime(["2026-03-07 10:30", "2026-03-07 12:00"], utc=True),
        "minutes": [150, 60]})
    from zoneinfo import ZoneInfo
    public = schedule_service.public_schedule(frame, ZoneInfo(zone))
    english = feed.schedule("gothcon", frame, public, zone)
    with i18n.language("sv"):
        swedish = feed.schedule("gothcon", frame, public, zone)
    assert [i["day"] for i in english["items"]] == ["Saturday 7 March"] * 2
    assert [i["day"] for i in swedish["items"]] == ["lördag 7 mars"] * 2
    assert swedish["items"][0]["sitting"] == "Kvalomgång 1"
    assert swedish["items"][0]["title"] == "Kvalomgång 1"
    assert swedish["items"][1]["title"] == "Lunch"  # typed by the organizer: as it is
    for a, b in zip(english["items"], swedish["items"]):
        assert {k: a[k] for k in ("starts_at", "ends_at", "starts", "ends", "minutes")} == \
            {k: b[k] for k in ("starts_at", "ends_at", "starts", "ends", "minutes")}
    assert _fields(swedish) == _fields(english)


def test_the_answer_language_is_the_one_asked_for_else_the_tournaments_else_english():
    from types import SimpleNamespace

    from starlette.requests import Request

    from stsa.web import feed as served

    def asking(query: bytes) -> Request:
        return Request({"type": "http", "method": "GET", "path": "/api/v1/tournaments",
                        "headers": [], "query_string": query})

    french, unset = SimpleNamespace(language="fr"), SimpleNamespace(language=None)
    assert served.language_of(asking(b"lang=sv"), french) == "sv"
    assert served.language_of(asking(b"lang=SV-se"), unset) == "sv"
    assert served.language_of(asking(b""), french) == "fr"
    assert served.language_of(asking(b"lang=de"), french) == "fr"  # not one of STSA's
    assert served.language_of(asking(b""), unset) == "en"
    assert served.language_of(asking(b"lang=fr")) == "fr"
    assert served.language_of(asking(b"")) == "en"


def test_the_overlay_page_speaks_its_language_and_keeps_its_words_out_of_markup():
    import re

    from stsa.web import overlay_page

    def words(page: str) -> dict:
        return json.loads(re.search(r'id="words">(.*?)</script>', page).group(1))

    english, swedish = overlay_page.page("en"), overlay_page.page("sv")
    assert '<html lang="en">' in english and '<html lang="sv">' in swedish
    assert words(english)["table"] == "Table {table}" and words(english)["vp"] == "{vp} VP"
    assert words(swedish)["table"] == "Bord {table}" and words(swedish)["vp"] == "{vp} SP"
    assert words(swedish).keys() == words(english).keys()
    assert '<html lang="fr">' in overlay_page.gone("Retirée.", "fr")
