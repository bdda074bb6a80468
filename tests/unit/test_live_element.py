"""The live elements' Python side (stsa.ui.live_element): an element is mounted with the answer
the page's run found (its address in the feed with the page's language, its ETag, its JSON),
the runtime's words in the page's language and the server's time; its script is the shared
runtime followed by the element's own, and nothing in either puts data in as markup."""

from __future__ import annotations

import json
import re

from streamlit.testing.v1 import AppTest

from stsa import i18n
from stsa.ui import live_element


def test_the_address_names_the_answer_and_the_pages_language():
    assert live_element.url("gothcon-2027", "standings", "sv") == \
        "/api/v1/tournaments/gothcon-2027/live/standings?lang=sv"
    with i18n.language("fr"):
        assert live_element.url("x", "home").endswith("/live/home?lang=fr")


def _page():
    """A page that mounts one element (run by AppTest in its own script)."""
    from stsa import i18n
    from stsa.ui import live_element

    shown = live_element.element(
        "stsa_test_live", html='<p class="line"></p>',
        js="export default function (component) {\n"
           "  return follow(component, {render(answer, view) {\n"
           "    view.body.querySelector('.line').textContent = answer.line;\n"
           "  }});\n}\n")
    with i18n.language("sv"):
        shown(live_element.Answer(live_element.url("k", "standings"), '"abc"',
                                  '{"line":"<b>Ann</b>"}'),
              key="live_test", time_zone="Europe/Stockholm", data={"heading": "Ställning"})


def test_a_mounted_element_carries_its_answer_words_and_time():
    at = AppTest.from_function(_page)
    at.run()
    assert not at.exception
    (mounted,) = at.get("bidi_component")
    found = live_element.data_of(mounted.proto.json)
    live = found["live"]
    assert live["url"] == "/api/v1/tournaments/k/live/standings?lang=sv"
    assert live["etag"] == '"abc"' and found["answer"] == {"line": "<b>Ann</b>"}
    assert live["every_ms"] == live_element.EVERY_MS and live["time_zone"] == "Europe/Stockholm"
    assert live["now_ms"] > 1_700_000_000_000  # the server's clock, epoch ms
    assert found["heading"] == "Ställning"  # the element's own data beside the runtime's
    with i18n.language("sv"):
        assert live["words"] == live_element.words()
    assert live["words"]["updated"] != "Updated {time}"  # in the page's language
    assert "{time}" in live["words"]["updated"] and "{time}" in live["words"]["stale"]
    proto = mounted.proto
    assert proto.js_content.startswith(live_element.RUNTIME_JS)
    assert "function follow(component, options)" in proto.js_content
    assert 'class="line"' in proto.html_content and "stsa-live-updated" in proto.html_content


def test_the_runtime_polls_with_the_etag_and_never_inserts_markup():
    js = live_element.RUNTIME_JS
    assert 'cache: "no-store"' in js and '"If-None-Match"' in js
    assert "visibilitychange" in js and '"online"' in js and '"pageshow"' in js
    assert "innerHTML" not in js and "insertAdjacentHTML" not in js
    assert re.search(r"Math\.min\(LIVE_BACKOFF_MS", js)
    assert str(live_element.BACKOFF_MS) in js and str(live_element.EVERY_MS) in js


def test_data_of_reads_an_element_without_an_answer():
    mounted = json.dumps({"live": {"body": "", "url": "u"}})
    assert live_element.data_of(mounted)["answer"] is None
