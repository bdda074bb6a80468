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
