"""The live answers the spectators' pages poll (`/api/v1/tournaments/{key}/live/…`, built by
`stsa.ui.live_answers`) in every language: each sends only the fields of its allow-list (R20,
R22), the same machine fields in English, Swedish and French, its words in the language asked
for, and each language under an ETag of its own."""

from __future__ import annotations

import datetime as dt
import json

import pytest

from stsa import demo, store, tournament
from stsa.services import feed as shape
from stsa.services import schedule
from stsa.ui import live_answers
from stsa.web import feed
from tests.app.conftest import JUDGE, ORGANIZER
from tests.support import feed_routes
from tests.support.english import english_sentences

LIVE = tuple(n for n in live_answers.ANSWERS if not n.endswith(".svg"))  # JSON answers
LANGUAGES = ("en", "sv", "fr")


@pytest.fixture
def room(engine):
    """The demo, a fourth qualifier published with its clock running, lunch and the next
    qualifier on the schedule: every live answer has something to say. The tournament's key."""
    demo.load_demo(engine, actor=ORGANIZER)
    ids = store.players(engine)["player_id"].tolist()
    drawn = tournament.draw_qualifier(engine, ids, seed=7, actor=ORGANIZER)
    store.publish_sitting(engine, drawn["sitting_id"], actor=ORGANIZER)
    store.clock_action(engine, drawn["sitting_id"], "start", actor=JUDGE)
    soon = dt.datetime.now(dt.UTC) + dt.timedelta(hours=3)
    schedule.plan_item(engine, kind="other", title="Lunch", starts_at=soon, minutes=45,
                       actor=ORGANIZER)
    schedule.plan_item(engine, kind="qualifier", number=5,
                       starts_at=soon + dt.timedelta(days=1), actor=ORGANIZER)
    feed.forget_recent()
    return str(store.tournaments(engine)["key"].iloc[0])


def get(key: str, name: str, lang: str) -> tuple[int, dict, dict]:
    answer = feed_routes.answer(f"{shape.PREFIX}/tournaments/{{key}}/live/{name}", lang=lang,
                                key=key)
    return answer.status_code, dict(answer.headers), json.loads(bytes(answer.body))


def strings(value) -> list[str]:
    if isinstance(value, dict):
        return [s for v in value.values() for s in strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in strings(v)]
    return [value] if isinstance(value, str) else []


@pytest.mark.parametrize("name", LIVE)
def test_every_live_answer_in_every_language_sends_its_fields_only(room, name):
    answers, tags = {}, set()
    for lang in LANGUAGES:
        status, headers, answers[lang] = get(room, name, lang)
        assert status == 200 and headers["content-type"].startswith("application/json")
        assert shape.paths(answers[lang])
        shape.check(f"live_{name}", answers[lang])  # an empty list stands for its fields
        tags.add(headers["etag"])
    assert len(tags) == len(LANGUAGES)  # each language its own answer
    assert shape.paths(answers["sv"]) == shape.paths(answers["en"]) == shape.paths(answers["fr"])
    for lang in ("sv", "fr"):
        assert english_sentences(strings(answers[lang])) == [], lang
        assert answers[lang] != answers["en"], f"{name} says nothing in words"


def test_the_words_follow_the_language_and_the_machine_values_stay(room):
    _, _, english = get(room, "standings", "en")
    _, _, swedish = get(room, "standings", "sv")
    _, _, french = get(room, "standings", "fr")
    assert english["cut"].startswith("24 players: the top 3 go straight to the final")
    assert swedish["cut"].startswith("24 spelare") and french["cut"].startswith("24 joueurs")
    assert swedish["standings"] == english["standings"]  # zone tags: machine values
    assert {t for r in english["standings"] for t in r["zone"]} == {"Final", "Semifinal",
                                                                    "Out"}
    home = {lang: get(room, "home", lang)[2] for lang in LANGUAGES}
    assert home["en"]["clock"]["status"] == home["sv"]["clock"]["status"] == "running"
    assert home["sv"]["clock"]["caption"].startswith("Kvalomgång 4")
    assert home["fr"]["sitting"] == "Qualification 4"
    plan = {lang: get(room, "schedule", lang)[2] for lang in LANGUAGES}
    assert plan["en"]["coming"][0]["today"].startswith("Next: Lunch at ")
    assert [i["starts"] for i in plan["sv"]["items"]] == [i["starts"] for i in plan["en"]["items"]]
    cards = {lang: get(room, "cards", lang)[2] for lang in LANGUAGES}
    assert cards["sv"]["players"][0]["line"].startswith("Bästa poäng")
    assert [p["player"] for p in cards["fr"]["players"]] == \
        [p["player"] for p in cards["en"]["players"]]


def test_each_answer_is_built_once_per_version_and_language(room, monkeypatch):
    from tests.app.conftest import count_calls
    built = count_calls(monkeypatch, shape, "live_standings")
    for _ in range(3):
        for lang in ("en", "sv"):
            feed.forget_recent()
            assert get(room, "standings", lang)[0] == 200
    assert built == [1, 1]
