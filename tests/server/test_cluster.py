"""More than one app process (README, "More than one process"): two servers on one PostgreSQL
database serve one tournament. A result a judge saves through one shows on a spectator's
Standings page served by the other, at its element's next poll of the feed, because the data
version the pages' shared values are computed by lives in the database."""

from __future__ import annotations

import json
import urllib.request

import pytest

from bench.load import ENTRY, FRAGMENT_OR_PAGE, SAVED, choose, chosen, table_entry
from stsa import store
from tests.server.conftest import assert_clean
from tests.server.test_sign_in_attacks import signed_in_as
from tests.support.appserver import JUDGE_PIN
from tests.support.store_helpers import published_sitting

pytestmark = [pytest.mark.server, pytest.mark.postgres]


def _save_table(judge, table_no: int, vps: list[int]):
    """As a judge on the Results page: choose the table (one run), type each seat's VP in the
    entry (in the browser: no run), Save (one run with the whole entry)."""
    page = assert_clean(judge.run(page="results"))
    box = page.widget("Table", kind="selectbox")
    label = next(o for o in box.proto.options if o.startswith(f"Table {table_no} ·"))
    if chosen(box) != label:
        assert choose(judge, box, label).status in FRAGMENT_OR_PAGE
    entry = judge.last.component(ENTRY)
    assert len(entry.data["seats"]) == len(vps), entry.data["seats"]
    saved = judge.trigger(entry, "save", table_entry(entry, vps))
    assert saved.status == "fragment_finished" and not saved.exceptions, saved.exceptions
    assert saved.runs == 1, "the save is one run (of the entry's part of the page)"
    assert any(SAVED.search(text) for text in saved.alerts["success"]), \
        (saved.alerts, saved.texts())


def _live(app, key: str, name: str) -> dict:
    """The live answer `name` of tournament `key` as server `app` gives it."""
    url = f"{app.url}/api/v1/tournaments/{key}/live/{name}"
    with urllib.request.urlopen(url, timeout=30) as answer:
        return json.loads(answer.read())


def test_a_save_on_one_server_shows_on_the_other(two_servers, connect):
    a, b = two_servers
    engine = store.connect(a.database_url)
    try:
        _, tables = published_sitting(engine, 4)
        seats = store.seats(engine, table_id=int(tables["table_id"][0]))
        names = seats.sort_values("seat")["name"].tolist()
        key = str(store.tournaments(engine)["key"].iloc[0])
    finally:
        engine.dispose()
    spectator = connect(b, "standings")
    before = assert_clean(spectator.run())
    assert not before.fragments, "Standings is a live element: no Python reruns it"

    judge = connect(a, "sign_in")
    signed_in_as(judge, "Jamal", JUDGE_PIN)
    _save_table(judge, 1, [14, 11, 8, 5])

    # what the spectator's element polls next, from the other server
    standings = _live(b, key, "standings")
    assert standings["standings"][0]["player"] == names[0]
    assert standings["standings"][0]["best_score"] == 23  # 20 + (14 − 11), R12
    card = next(p for p in _live(b, key, "cards")["players"] if p["player"] == names[0])
    assert card["line"].startswith("Best score **23**")
