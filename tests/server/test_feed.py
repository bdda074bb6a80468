"""The data feed (`/api/v1/…`) over plain HTTP against a real app on 127.0.0.1: every endpoint,
ETags and 304s, each tournament's own version, 404s in words, CORS for GET; and privacy by
allow-list (R20, R22) on a roster whose real names, clubs and e-mails differ from its
nicknames, with a draw not yet published."""

from __future__ import annotations

import datetime as dt
import gzip
import json
import urllib.error
import urllib.request

import icalendar
import pandas as pd
import pytest

from stsa import store, tournament
from stsa.auth import Actor, Role
from stsa.services import feed
from stsa.services import schedule as schedule_service
from tests.support.appserver import started
from tests.support.store_helpers import rows_for

pytestmark = pytest.mark.server

WHO = Actor("Olivia", Role.ORGANIZER)
API = feed.PREFIX
LIVE = ("standings", "cards", "home", "schedule", "players", "tv")  # the live elements' answers
PEOPLE = [(f"Realname Number{i}", f"Nick{i}", f"Club{i}", f"player{i}@mail.example")
          for i in range(1, 9)]


def _result(engine, table_id: int) -> list[dict]:
    """A valid result: `rows_for`'s numbers, leaders from those the table offers."""
    offered = store.tables(engine, table_id=table_id, actor=WHO)["available_leaders"].iloc[0]
    return [dict(row, leader=leader) for row, leader in zip(rows_for(engine, table_id),
                                                            offered)]


def _prepare(url: str) -> dict:
    """GothCon (8 players, Qualifier 1 played, Qualifier 2 drawn, not published, a schedule)
    and LinCon (4 players, Qualifier 1 published), both in a season."""
    inst = store.connect(url)
    made = {}
    try:
        season = store.create_season(inst, "Sweden 2026", actor=WHO)
        for name, people in (("GothCon 2026", PEOPLE), ("LinCon 2026", PEOPLE[:4])):
            t = store.create_tournament(inst, name, actor=WHO)
            store.set_season(inst, t.tournament_id, season, actor=WHO)
            engine = store.open_tournament(inst, t.key)
            store.set_settings(engine, {"auto_backup": False, "time_zone": "Europe/Stockholm"},
                               actor=WHO)
            ids = store.import_players(engine, [{"name": n, "nickname": k, "club": c,
                                                 "email": e} for n, k, c, e in people],
                                       actor=WHO)["player_id"].tolist()
            first = tournament.draw_qualifier(engine, ids, seed=5, actor=WHO)
            store.publish_sitting(engine, first["sitting_id"], actor=WHO)
            tables = store.tables(engine, first["sitting_id"], actor=WHO)
            if name.startswith("GothCon"):
                for table_id in tables["table_id"]:
                    store.submit_table_result(engine, int(table_id),
                                              _result(engine, int(table_id)),
                                              expected_version=0, submission_id=None,
                                              actor=WHO)
                tournament.draw_qualifier(engine, ids, seed=6, actor=WHO)  # not published
                schedule_service.plan_item(engine, kind="qualifier", number=3,
                                           starts_at=dt.datetime(2026, 3, 7, 13, tzinfo=dt.UTC),
                                           actor=WHO)
            made[t.key] = {"tables": tables, "removed": store.tables(
                engine, first["sitting_id"], actor=WHO)["removed_leaders"].tolist()}
            engine.dispose()
        made["season"] = season
        gothcon = store.open_tournament(inst, "gothcon-2026")
        try:
            made["overlays"] = {kind: store.create_overlay(
                gothcon, kind, table_no=2 if kind == "table" else None, label="Cam 2",
                actor=WHO) for kind in ("table", "standings", "next")}
        finally:
            gothcon.dispose()
    finally:
        inst.dispose()
    return made


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    root = tmp_path_factory.mktemp("feed")
    url = f"sqlite:///{root / 'stsa.db'}"
    made = _prepare(url)
    # every request reads the version: each write below shows at once
    with started(root, database_url=url, env={"STSA_VERSION_SECONDS": "0",
                                              "STSA_FEED_REBUILD_SECONDS": "0"}) as running:
        running.made = made
        yield running


def get(app, path: str, *, etag: str | None = None, method: str = "GET",
        headers: dict[str, str] | None = None):
    """(status, headers, body) of one plain HTTP request."""
    request = urllib.request.Request(app.url + path, method=method,
                                     headers={**({"If-None-Match": etag} if etag else {}),
                                              **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, answer.headers, answer.read()
    except urllib.error.HTTPError as refused:
        return refused.code, refused.headers, refused.read()


def outside(sent: set[str], fields: frozenset[str]) -> set[str]:
    """The fields sent that the list does not name (a null object or an empty list stands in
    for the fields under it)."""
    return {p for p in sent if p not in fields
            and not any(f.startswith((f"{p}[]", f"{p}.")) for f in fields)}


def endpoints(season: int) -> dict[str, str]:
    """Every endpoint, by the allow-list it answers under (CSV and calendar: None)."""
    t, s = f"{API}/tournaments/gothcon-2026", f"{API}/tournaments/gothcon-2026/sittings"
    return {f"{API}/tournaments": "tournaments", t: "tournament",
            f"{t}/schedule": "schedule", f"{t}/schedule.ics": None,
            f"{t}/sittings": "sittings", f"{s}/qualifier-1": "sitting",
            f"{s}/qualifier-1/results": "results", f"{s}/qualifier-1/results.csv": None,
            f"{t}/standings": "standings", f"{t}/standings.csv": None,
            f"{t}/finals": "finals", f"{API}/seasons": "seasons",
            **{f"{t}/live/{name}": f"live_{name}" for name in LIVE},
            f"{t}/live/charts/best-scores.svg": None, f"{t}/live/charts/sittings.svg": None,
            f"{API}/seasons/{season}": "season", f"{API}/seasons/{season}/standings.csv": None}


def test_every_endpoint_answers_with_only_its_allowed_fields_and_nothing_private(app):
    for path, allowed in endpoints(app.made["season"]).items():
        status, headers, body = get(app, path)
        assert status == 200, (path, body)
        assert headers["Access-Control-Allow-Origin"] == "*"
        text = body.decode("utf-8-sig")
        for name, _, club, email in PEOPLE:
            assert name not in text and club not in text and email not in text, path
        if allowed is not None:
            assert headers["Content-Type"].startswith("application/json")
            sent = feed.paths(json.loads(body))
            assert sent and not outside(sent, feed.FIELDS[allowed]), path
    for allowed in feed.FIELDS.values():  # no private word can be allowed by mistake
        assert not [f for f in allowed for word in feed.NEVER
                    if word in f.replace("[]", ".").split(".")[-1]]


def test_the_published_sitting_shows_seats_and_results_and_no_removed_leader(app):
    _, _, body = get(app, f"{API}/tournaments/gothcon-2026/sittings/qualifier-1")
    sitting = json.loads(body)
    assert [t["table"] for t in sitting["tables"]] == [1, 2]
    removed = app.made["gothcon-2026"]["removed"]
    for table, hidden in zip(sitting["tables"], removed):
        seats = table["seats"]
        assert [s["seat"] for s in seats] == list(range(1, len(seats) + 1))
        assert [s["first_player"] for s in seats] == [True] + [False] * (len(seats) - 1)
        assert {s["player"] for s in seats} <= {k for _, k, _, _ in PEOPLE}
        assert all(s["placing"] and s["score"] is not None for s in seats)
        assert not set(hidden or []) & set(json.dumps(table).split('"'))
    _, _, listed = get(app, f"{API}/tournaments/gothcon-2026/sittings")
    assert [s["sitting"] for s in json.loads(listed)["sittings"]] == ["qualifier-1"]
    status, _, _ = get(app, f"{API}/tournaments/gothcon-2026/sittings/qualifier-2")
    assert status == 404  # drawn but not published: nobody outside sees it


def test_standings_csv_schedule_and_calendar_read_back(app):
    _, _, body = get(app, f"{API}/tournaments/gothcon-2026/standings")
    standings = json.loads(body)
    assert len(standings["standings"]) == 8 and standings["cut"]
    _, _, csv_body = get(app, f"{API}/tournaments/gothcon-2026/standings.csv")
    lines = csv_body.decode("utf-8-sig").splitlines()
    assert lines[0].startswith("rank,player,best_score")
    assert [line.split(",")[1] for line in lines[1:]] == [r["player"] for r in
                                                         standings["standings"]]
    _, _, body = get(app, f"{API}/tournaments/gothcon-2026/schedule")
    items = json.loads(body)["items"]
    assert [(i["title"], i["starts"], i["sitting"]) for i in items] == [
        ("Qualifier 3", "14:00", "Qualifier 3")]  # 13:00 UTC in Stockholm's winter
    assert items[0]["starts_at"].startswith("2026-03-07T13:00:00")
    _, headers, ics = get(app, f"{API}/tournaments/gothcon-2026/schedule.ics")
    assert headers["Content-Type"].startswith("text/calendar")
    events = icalendar.Calendar.from_ical(ics).walk("VEVENT")
    assert [str(e["SUMMARY"]) for e in events] == ["Qualifier 3"]
    engine = store.connect(app.database_url, tournament="gothcon-2026")
    try:
        nick1 = store.players(engine, actor=WHO).set_index("nickname").loc["Nick1", "player_id"]
    finally:
        engine.dispose()
    _, headers, ics = get(app, f"{API}/tournaments/gothcon-2026/players/{nick1}/calendar.ics")
    mine = icalendar.Calendar.from_ical(ics)
    assert "Nick1" in str(mine["X-WR-CALNAME"]) and "Realname" not in ics.decode()
    assert get(app, f"{API}/tournaments/gothcon-2026/players/999/calendar.ics")[0] == 404
    _, _, body = get(app, f"{API}/seasons/{app.made['season']}")
    season = json.loads(body)
    assert season["tournaments"] == ["gothcon-2026", "lincon-2026"]
    assert {r["player"] for r in season["standings"]} <= {k for _, k, _, _ in PEOPLE}


def test_an_etag_answers_304_until_its_own_tournament_changes(app):
    path = f"{API}/tournaments/gothcon-2026/standings"
    _, headers, first = get(app, path)
    tag = headers["ETag"]
    status, again, body = get(app, path, etag=tag)
    assert status == 304 and body == b"" and again["ETag"] == tag
    other = store.connect(app.database_url, tournament="lincon-2026")
    try:  # a save at another tournament leaves this one's answers as they were
        table_id = int(app.made["lincon-2026"]["tables"]["table_id"].iloc[0])
        store.submit_table_result(other, table_id, _result(other, table_id),
                                  expected_version=0, submission_id=None, actor=WHO)
    finally:
        other.dispose()
    assert get(app, path, etag=tag)[0] == 304
    assert get(app, f"{API}/tournaments/lincon-2026/standings", etag=tag)[0] == 200
    listed_tag = get(app, f"{API}/tournaments")[1]["ETag"]
    at_a_glance = get(app, f"{API}/tournaments/gothcon-2026")[1]["ETag"]
    engine = store.connect(app.database_url, tournament="gothcon-2026")
    try:
        store.add_player(engine, "Late Comer", actor=WHO)
    finally:
        engine.dispose()
    # The ETag follows what an answer holds: a player with no game is not in the standings,
    # so their pollers keep their 304; the answers that count players change.
    assert get(app, path, etag=tag)[0] == 304
    status, changed, body = get(app, f"{API}/tournaments/gothcon-2026", etag=at_a_glance)
    assert status == 200 and changed["ETag"] != at_a_glance and json.loads(body)["players"] == 9
    assert get(app, f"{API}/tournaments", etag=listed_tag)[0] == 200  # 9 players now


def test_answers_may_be_kept_by_a_proxy_for_a_second_and_go_gzipped_to_who_takes_it(app):
    path = f"{API}/tournaments/gothcon-2026/sittings/qualifier-1"
    status, plain, body = get(app, path)
    assert status == 200 and len(body) > 1024 and "Content-Encoding" not in plain
    assert plain["Cache-Control"] == "public, max-age=1" and "Origin" not in plain.get("Vary", "")
    status, packed, squeezed = get(app, path, headers={"Accept-Encoding": "gzip, br"})
    assert status == 200 and packed["Content-Encoding"] == "gzip"
    assert packed["Vary"] == "Accept-Encoding" and packed["ETag"] == plain["ETag"]
    assert gzip.decompress(squeezed) == body and len(squeezed) < len(body)
    status, held, nothing = get(app, path, etag=plain["ETag"], headers={"Accept-Encoding": "gzip"})
    assert status == 304 and nothing == b"" and held["ETag"] == plain["ETag"]


def test_what_is_not_there_is_a_404_in_words_and_nothing_but_get_is_taken(app):
    for path, words in ((f"{API}/tournaments/nowhere", "There is no tournament “nowhere”"),
                        (f"{API}/tournaments/gothcon-2026/sittings/final-1",
                         "There is no published sitting “final-1”"),
                        (f"{API}/seasons/999", "There is no season “999”"),
                        (f"{API}/seasons/x", "There is no season “x”"),
                        (f"{API}/tournaments/gothcon-2026/live/charts/x.svg",
                         "There is no /api/v1/tournaments/gothcon-2026/live/charts/x.svg"),
                        (f"{API}/players", "There is no /api/v1/players")):
        status, headers, body = get(app, path)
        assert status == 404, path
        assert headers["Content-Type"].startswith("application/json")
        assert json.loads(body)["error"].startswith(words), body
    assert get(app, f"{API}/tournaments", method="POST")[0] == 405
    assert get(app, f"{API}/tournaments/gothcon-2026", method="DELETE")[0] == 405


def test_a_season_standing_follows_both_tournaments(app):
    _, _, body = get(app, f"{API}/seasons")
    seasons = json.loads(body)["seasons"]
    assert seasons == [{"season": app.made["season"], "name": "Sweden 2026", "points": None,
                        "tournaments": ["gothcon-2026", "lincon-2026"]}]
    _, _, csv_body = get(app, f"{API}/seasons/{app.made['season']}/standings.csv")
    frame = pd.read_csv(pd.io.common.BytesIO(csv_body), encoding="utf-8-sig")
    assert list(frame.columns[:2]) == ["Rank", "Player"]


def test_overlays_answer_with_only_their_allowed_fields_and_end_when_withdrawn(app):
    made = app.made["overlays"]
    answers = {}
    for kind, (_, token) in made.items():
        status, headers, body = get(app, f"{API}/overlays/{token}")
        assert status == 200, body
        assert int(headers["X-STSA-Now"]) > 0  # the page counts down from the server's time
        answers[kind] = json.loads(body)
        assert not outside(feed.paths(answers[kind]), feed.FIELDS["overlay"])
        for name, _, club, email in PEOPLE:
            assert not {name, club, email} & set(json.dumps(answers[kind]).split('"'))
            assert name not in body.decode() and email not in body.decode()
        page = get(app, f"/overlay/{token}")
        assert page[0] == 200 and "default-src 'none'" in page[1]["Content-Security-Policy"]
        assert token not in page[2].decode()  # the page reads its token from its address
    table = answers["table"]
    assert (table["kind"], table["table"], table["label"]) == ("table", 2, "Cam 2")
    assert table["sitting"] == "Qualifier 1" and table["reported"] is True
    assert [s["seat"] for s in table["seats"]] == [1, 2, 3, 4]
    assert all(s["leader"] and s["placing"] for s in table["seats"])
    assert answers["standings"]["standings"][0]["rank"] == 1
    assert [i["title"] for i in answers["next"]["items"]] in ([], ["Qualifier 3"])
    engine = store.connect(app.database_url, tournament="gothcon-2026")
    try:
        store.revoke_overlay(engine, made["table"][0], actor=WHO)
    finally:
        engine.dispose()
    status, _, body = get(app, f"{API}/overlays/{made['table'][1]}")
    assert status == 404 and "withdrawn" in json.loads(body)["error"]
    status, _, page = get(app, f"/overlay/{made['table'][1]}")
    assert status == 404 and b"withdrawn" in page
    assert get(app, f"{API}/overlays/nothing-like-a-token")[0] == 404


def test_a_language_asked_for_changes_the_words_and_the_etag_not_the_fields(app):
    """`?lang=sv`: the words meant for people in Swedish, the field names and machine values
    as in English (a stable API), under an ETag of its own."""
    t = f"{API}/tournaments/gothcon-2026"
    _, english_headers, english = get(app, t)
    status, swedish_headers, swedish = get(app, f"{t}?lang=sv")
    english, swedish = json.loads(english), json.loads(swedish)
    assert status == 200 and feed.paths(swedish) == feed.paths(english)
    assert swedish_headers["ETag"] != english_headers["ETag"]
    assert english["current_sitting"].startswith("Qualifier ")
    assert swedish["current_sitting"] == english["current_sitting"].replace(
        "Qualifier", "Kvalomgång")
    assert (swedish["key"], swedish["players"]) == (english["key"], english["players"])
    assert get(app, f"{t}?lang=sv", etag=swedish_headers["ETag"])[0] == 304
    assert get(app, t, etag=swedish_headers["ETag"])[0] == 200  # English is another answer
    _, _, plan = get(app, f"{t}/schedule?lang=fr")
    english_plan = json.loads(get(app, f"{t}/schedule")[2])
    for french_item, english_item in zip(json.loads(plan)["items"], english_plan["items"]):
        assert french_item["starts_at"] == english_item["starts_at"]
        assert french_item["day"] != english_item["day"]  # "samedi 7 mars"
    status, _, body = get(app, f"{API}/tournaments/nowhere?lang=fr")
    assert status == 404 and json.loads(body)["error"].startswith("Il n’y a pas de tournoi")
