"""Plain words on every page: ruling numbers (R1 … R24) are for the code and its documents, never
for people. Every page each role opens, on the demo tournament, every chart of the Statistics
page and every TV slide, read in full: texts, labels, help, options, tables and charts."""

from __future__ import annotations

import json
import re

import pytest
from google.protobuf.descriptor import FieldDescriptor

from stsa import demo
from stsa.auth import Role
from stsa.ui import navigation
from tests.app.conftest import JUDGE, ORGANIZER

RULING = re.compile(r"\bR\d{1,2}\b")
CHARTS = ["Best scores", "Sittings", "Players", "Leaders", "Seats", "Setups"]
TV_SLIDES = 1  # every slide is in the TV's one answer (the browser cycles them)


@pytest.fixture
def demo_tournament(engine):
    demo.load_demo(engine, actor=ORGANIZER)
    return engine


# A component's own code (its HTML, CSS and script) is no text for people: every word it shows
# comes in its data (`json`), which is read.
CODE = {"js_content", "css_content", "html_content", "js_source_path", "css_source_path"}


def texts(message) -> list[str]:
    """Every string in an element's message, nested ones too (tables' cells arrive as bytes in
    Arrow's format and are read from their frames instead; a component's code is skipped)."""
    found = []
    for field, value in message.ListFields():
        if field.name in CODE:
            continue
        values = value if field.is_repeated else [value]
        for item in values:
            if field.type == FieldDescriptor.TYPE_STRING:
                found.append(item)
            elif field.type == FieldDescriptor.TYPE_MESSAGE:
                found.extend(texts(item))
    return found


def data_texts(value) -> list[str]:
    """Every string in a component's JSON data (its words, and a live element's answer)."""
    if isinstance(value, dict):
        return [t for v in value.values() for t in data_texts(v)]
    if isinstance(value, list):
        return [t for v in value for t in data_texts(v)]
    return [value] if isinstance(value, str) else []


def component_texts(proto) -> list[str]:
    """What a browser component shows: the words of its data (a live element's answer read
    as the browser reads it), not its code."""
    data = json.loads(proto.json) if proto.json else {}
    live = data.get("live") or {}
    if live.get("body"):
        data = {**data, "live": {**live, "body": json.loads(live["body"])}}
    return data_texts(data)


def everything_shown(at) -> list[str]:
    """What the page shows, element by element, tables' cells and headings included."""
    found, stack = [], [at._tree]
    while stack:
        node = stack.pop()
        stack.extend(getattr(node, "children", {}).values())
        proto = getattr(node, "proto", None)
        if getattr(node, "type", "") == "bidi_component":
            found.extend(component_texts(proto))
        elif proto is not None and not isinstance(proto, (bytes, str)):
            found.extend(texts(proto))
        if getattr(node, "type", "") in ("dataframe", "table"):
            frame = node.value
            frame = getattr(frame, "data", frame)  # a styled table: its frame
            found.append(frame.to_csv())
    return found


def rulings_in(texts_: list[str]) -> list[str]:
    return [t[:120] for t in texts_ if RULING.search(t)]


ROLES = [(None, Role.SPECTATOR), (JUDGE, Role.JUDGE), (ORGANIZER, Role.ORGANIZER)]


@pytest.mark.slow
@pytest.mark.parametrize("who, role", ROLES, ids=["spectator", "judge", "organizer"])
def test_no_page_shows_a_ruling_number(open_page, demo_tournament, who, role):
    found = {}
    for page in navigation.pages(role):
        at = open_page(page.path, as_=who)
        assert not at.exception, page.title
        shown = everything_shown(at)
        if page.title == "Standings":  # the table's cells are read too
            assert "Bruno Okafor" in shown and "Semifinal" in shown
        if page.title == "Statistics":
            for chart in CHARTS[1:]:
                at.session_state["stats_chart"] = chart
                shown += everything_shown(at.run())
        if page.title == "TV mode":
            for _ in range(TV_SLIDES - 1):
                shown += everything_shown(at.run())
        if rulings_in(shown):
            found[page.title] = rulings_in(shown)
    assert not found, found


def test_the_reader_finds_a_ruling_number_where_there_is_one(open_page):
    """The check above can fail: a page that did show one is caught."""
    at = open_page()
    at.session_state["_flash"] = "Seats follow R3."
    at.run()
    assert rulings_in(everything_shown(at)) == ["Seats follow R3."]
