"""A sitting's rule change (R24) on the Draw page and on TV: the organizer names it before
publishing; judges see it with the draft, everyone once published, as plain text; TV shows the
current sitting's once published, never a draft's."""

import pytest

from stsa import store
from stsa.services import draws
from tests.app.conftest import JUDGE, ORGANIZER, shown
from tests.app.test_draw import _drawn
from tests.app.test_tv import element as tv_element

DRAW, TV = "views/draw.py", "views/tv.py"
NAME = "Spice *must* flow"  # typed markup shows as typed
POINTS = "1 point for each [spice](http://x.example) left"
LINE = f"Rule change for this sitting: {NAME}: {POINTS}"


def _with_rule_change(engine, publish: bool):
    sitting = _drawn(engine, 8)
    draws.set_rule_change(engine, sitting["sitting_id"], NAME, POINTS, actor=ORGANIZER)
    if publish:
        draws.publish(engine, sitting["sitting_id"], actor=ORGANIZER)
    return sitting["sitting_id"]


def test_the_organizer_names_the_rule_change_of_a_draft(open_page, engine):
    sid = _drawn(engine, 8)["sitting_id"]
    at = open_page(DRAW, as_=ORGANIZER)
    assert not any(i.value.startswith("Rule change") for i in at.info)
    at.text_input(key=f"draw_rule_change_{sid}").input(NAME)
    at.text_area(key=f"draw_rule_change_points_{sid}").input(POINTS)
    at.button(key=f"draw_rule_change_save_{sid}").click().run()
    assert not at.exception and not at.error
    saved = store.sitting(engine, sid)
    assert (saved["rule_change"], saved["rule_change_points"]) == (NAME, POINTS)
    assert shown(at.success) == [f"Rule change saved: {NAME}: {POINTS}."]
    assert shown(at.info) == [LINE]
    assert "\\*must\\*" in at.info[0].value  # escaped: no emphasis, no link
    assert at.text_input(key=f"draw_rule_change_{sid}").value == NAME
    assert len(store.events(engine, actor=ORGANIZER, action="sitting.rule_change")) == 1


def test_a_points_line_without_a_name_is_refused_on_the_page(open_page, engine):
    sid = _drawn(engine, 8)["sitting_id"]
    at = open_page(DRAW, as_=ORGANIZER)
    at.text_area(key=f"draw_rule_change_points_{sid}").input(POINTS)
    at.button(key=f"draw_rule_change_save_{sid}").click().run()
    assert shown(at.error) == ["Qualifier 1: name the rule change its extra points belong to."]
    assert store.sitting(engine, sid)["rule_change_points"] == ""


def test_after_publishing_everyone_reads_it_and_nobody_changes_it(open_page, engine):
    sid = _with_rule_change(engine, publish=True)
    at = open_page(DRAW, as_=ORGANIZER)
    assert LINE in shown(at.info)
    assert f"draw_rule_change_{sid}" not in [t.key for t in at.text_input]
    for who in (JUDGE, None):
        page = open_page(DRAW, as_=who)
        assert not page.exception
        assert LINE in shown(page.info)


def test_a_drafts_rule_change_is_for_judges_not_spectators(open_page, engine):
    sid = _with_rule_change(engine, publish=False)
    judge = open_page(DRAW, as_=JUDGE)
    assert LINE in shown(judge.info)
    assert f"draw_rule_change_{sid}" not in [t.key for t in judge.text_input]
    spectator = open_page(DRAW)
    assert not any(NAME in text for text in shown(spectator.info))


@pytest.mark.parametrize("who", [None, JUDGE, ORGANIZER])
def test_tv_shows_the_current_sittings_rule_change_once_published(open_page, engine, who):
    _with_rule_change(engine, publish=True)
    at = open_page(TV, as_=who)
    assert not at.exception
    answer = tv_element(at)["answer"]  # the TV's live element sets it as plain text
    assert answer["rule_change"] == f"Rule change this sitting: {NAME}: {POINTS}"
    # Everyone is seated, nobody has a result yet: all share the rank after the scored ones.
    assert [r["rank"] for r in answer["standings"]] == [1] * 8


def test_tv_never_shows_a_drafts_rule_change(open_page, engine):
    _with_rule_change(engine, publish=False)
    at = open_page(TV, as_=ORGANIZER)
    assert not at.exception
    assert tv_element(at)["answer"]["rule_change"] is None
