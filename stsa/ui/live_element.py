"""Live elements: the spectators' live views as browser components that poll one shared answer
of the data feed (`/api/v1/tournaments/{key}/live/…`) and redraw themselves (DESIGN.md, "The
crowd"). Opening a page runs Python once and hands the element the very answer the feed gives;
after that a phone costs the server a poll of a shared, cached answer, never a Python run.

An element is made once per module with `element(name, html=…, css=…, js=…)`; its JavaScript
is an ES module whose default export calls the shared runtime, prepended here:

    export default function (component) {
      return follow(component, {render(answer, view) { … }});
    }

The runtime (`RUNTIME_JS`), for every element alike:
- polls the answer's address every `EVERY_MS` (the first poll at a random moment of the first
  interval, so a room of phones opened together spreads out) with
  `fetch(url, {cache: "no-store", headers: {"If-None-Match": etag}})`, and calls `render` only
  on a 200 with a new ETag;
- after a run of the page (a person acted: the element is handed a new answer), polls again
  as soon as the feed may have built its answer anew (`feed.REBUILD_SECONDS`), so the person
  sees what they did even when the run was handed the answer of a moment before;
- pauses while the tab is hidden and polls at once when it shows again, comes back online, or
  is shown from the back-forward cache or focused;
- on an error (no network, a server that does not answer) tries again later and later, up to
  `BACKOFF_MS`, and says how old its data is ("Not updated since 14:05:03 …"); while all is
  well it says "Updated 14:05:08": the last time the server answered, in the tournament's time
  zone (the server's clock, from the answer's `X-STSA-Now`);
- never puts data in as markup: `el(tag, text, cls)` builds a node and sets its `textContent`.

What `render(answer, view)` gets: the answer (parsed JSON) and `view` = `{root, body, data,
now(), etag(), ask(value), redraw()}`: `body` is the element's own HTML (draw into it), `data`
the component's data from Python (words, settings), `now()` the server's time (epoch ms),
`etag()` the answer's ETag (null for the page's own copy), `ask(value)` one Python run of the
page (`setTriggerValue("run", value)`, at a random moment of the next `ASK_WITHIN_MS`, so a
room does not run at once; only for what the element cannot show itself, and only when
mounted with `on_run`), `redraw()` draws the answer held again (an element whose controls,
like a search box, change what it shows). Helpers for every element:
`el`, `headCells(words, numeric)` (a table's column headers), `fill(template, values)`
("Updated {time}"), `clockWords(ms, zone)` ("14:05:03"),
`boldParts(node, text)` (a sentence with **bold** parts, as text), `comingNext(coming, now,
zone)` ("Next: Lunch at 12:30" from `services.schedule.coming_up`, by the server's clock).
"""

from __future__ import annotations

import functools
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import streamlit as st

from stsa import i18n
from stsa.i18n import _
from stsa.ui import data, session
from stsa.web import feed

EVERY_MS = 5_000  # an element polls its answer this often while its tab shows
BACKOFF_MS = 30_000  # after errors, it tries again at most this far apart
ASK_WITHIN_MS = 10_000  # a Python run an element asks for starts within this, at random
RERUN_MARGIN_MS = 250  # after a page run, poll this long after the feed may build again
# The browser's clock is measured against the server's at each page run. A poll's answer may
# come from a cache (a second old) and over a slow network, so it re-measures only a clock that
# jumped by more than this (set by hand, a phone that woke with a wrong time): a countdown must
# not step back and forth a second at every poll.
RESYNC_MS = 30_000
PREFIX = "/api/v1/tournaments"

# The runtime's own nodes around each element's HTML: the element draws into the body; the
# runtime says when its data is from (the time itself not announced to screen readers every
# few seconds; only losing and regaining the connection is, in the status region).
_FRAME = ('<div class="stsa-live"><div class="stsa-live-body">{html}</div>'
          '<p class="stsa-live-updated"><span class="stsa-live-time" aria-live="off"></span>'
          '<span class="stsa-live-alert" role="status"></span></p></div>')

RUNTIME_CSS = """
.stsa-live { font-family: var(--st-font, inherit); color: var(--st-text-color, inherit);
  font-size: var(--st-base-font-size, 1rem); line-height: 1.5; }
.stsa-live-updated { margin: 0.25rem 0 0; font-size: 0.8rem; opacity: 0.75; }
.stsa-live-updated.stale { opacity: 1; font-weight: 600; color: var(--st-red-text-color, #a61b1b); }
.stsa-live-sr { position: absolute; width: 1px; height: 1px; overflow: hidden;
  clip: rect(0 0 0 0); white-space: nowrap; }
"""

# Every value comes from the answer or the component's data; text goes in as textContent only.
RUNTIME_JS = """
// --- the live runtime (stsa/ui/live_element.py): shared by every live element -------------
const LIVE_KEPT = "__stsaLive";
const LIVE_EVERY_MS = EVERY_MS_VALUE, LIVE_BACKOFF_MS = BACKOFF_MS_VALUE;
const LIVE_ASK_WITHIN_MS = ASK_WITHIN_MS_VALUE, LIVE_RESYNC_MS = RESYNC_MS_VALUE;

function el(tag, text, cls) {
  const made = document.createElement(tag);
  if (text !== undefined && text !== null) made.textContent = String(text);
  if (cls) made.className = cls;
  return made;
}

function headCells(words, numeric) {  // a table's column headers; numeric(i): right-aligned
  return words.map((word, i) => {
    const th = el("th", word, numeric(i) ? "num" : "");
    th.scope = "col";
    return th;
  });
}

function fill(template, values) {  // "Updated {time}" with values.time
  return String(template || "").replace(/\\{(\\w+)\\}/g,
    (whole, name) => (name in values ? String(values[name]) : whole));
}

function boldParts(node, text) {  // "Best score **23**, rank 4": the ** parts in <strong>
  node.replaceChildren();
  String(text || "").split("**").forEach((part, i) => {
    if (part) node.appendChild(i % 2 ? el("strong", part) : document.createTextNode(part));
  });
  return node;
}

const liveFormats = {};
function clockWords(ms, zone) {  // "14:05:03" in the tournament's time zone (24-hour)
  const key = zone || "";
  if (!liveFormats[key]) {
    const options = {hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23"};
    try {
      liveFormats[key] = new Intl.DateTimeFormat("en-GB", zone ? {...options, timeZone: zone}
                                                               : options);
    } catch (e) {  // a zone this browser does not know: its own
      liveFormats[key] = new Intl.DateTimeFormat("en-GB", options);
    }
  }
  return liveFormats[key].format(new Date(ms));
}

// "Next: Lunch at 12:30" by the browser's clock (`services.schedule.coming_up`'s items): the
// first item that starts at or after `now` (epoch ms, the server's clock), said as on its own
// day or on another day in the tournament's time zone; "" when nothing is left.
const liveDays = {};
function comingNext(coming, now, zone) {
  const next = (coming || []).find((item) => Date.parse(item.starts_at) >= now);
  if (!next) return "";
  const key = zone || "";
  if (!liveDays[key]) {
    const options = {year: "numeric", month: "2-digit", day: "2-digit"};
    try { liveDays[key] = new Intl.DateTimeFormat("en-CA", {...options, timeZone: zone}); }
    catch (e) { liveDays[key] = new Intl.DateTimeFormat("en-CA", options); }
  }
  return liveDays[key].format(new Date(now)) === next.date ? next.today : next.later;
}

function follow(component, options) {
  const { data, parentElement } = component;
  const live = data.live;
  const root = parentElement.querySelector(".stsa-live");
  const body = root.querySelector(".stsa-live-body");
  const status = root.querySelector(".stsa-live-updated");
  const time = status.querySelector(".stsa-live-time");
  const alert = status.querySelector(".stsa-live-alert");
  const kept = root[LIVE_KEPT] || (root[LIVE_KEPT] = {etag: null, answer: null, at: null,
                                                      offset: 0, polls: 0});
  if (kept.stop) kept.stop();
  const every = options.every || live.every_ms || LIVE_EVERY_MS;
  // The page's run brought the answer as it is now: it is the newest.
  if (live.body) {
    kept.answer = JSON.parse(live.body);
    kept.etag = live.etag || null;
    kept.at = live.now_ms;
  }
  kept.offset = live.now_ms - Date.now();  // how far this browser's clock is off the server's
  let timer = null, busy = false, stopped = false, failures = 0, last = 0, ok = true;
  const view = {
    root, body, data,
    now: () => Date.now() + kept.offset,
    etag: () => kept.etag,
    redraw: () => draw(),
    ask: (value) => {
      if (!component.setTriggerValue) return;
      setTimeout(() => { if (!stopped) component.setTriggerValue("run", value); },
                 Math.random() * (options.askWithin || LIVE_ASK_WITHIN_MS));
    },
  };

  function draw() {
    if (kept.answer === null) return;
    try { options.render(kept.answer, view); }
    catch (e) { console.error("STSA live element", e); }  // the next answer may draw
    root.dataset.etag = kept.etag || "";
  }

  function say() {
    const at = kept.at === null ? "" : clockWords(kept.at, live.time_zone);
    status.classList.toggle("stale", !ok);
    root.dataset.state = ok ? "live" : "stale";
    if (ok) {
      time.textContent = at ? fill(live.words.updated, {time: at}) : "";
      if (alert.textContent) alert.textContent = "";
    } else {
      time.textContent = "";
      const words = fill(at ? live.words.stale : live.words.offline, {time: at});
      if (alert.textContent !== words) alert.textContent = words;
    }
  }

  function later(ms) {
    clearTimeout(timer);
    timer = null;
    if (!stopped && document.visibilityState !== "hidden") timer = setTimeout(poll, ms);
  }

  async function poll() {
    timer = null;
    if (stopped || busy || document.visibilityState === "hidden") return;
    busy = true;
    last = Date.now();
    let answered = false;
    try {
      const got = await fetch(live.url, {cache: "no-store",
                                         headers: kept.etag ? {"If-None-Match": kept.etag} : {}});
      if (got.status === 200 || got.status === 304) {
        const now = Number(got.headers.get("X-STSA-Now"));
        if (now && Math.abs(now - Date.now() - kept.offset) > LIVE_RESYNC_MS) {
          kept.offset = now - Date.now();
        }
        const etag = got.headers.get("ETag");
        if (got.status === 200 && (etag === null || etag !== kept.etag)) {
          const answer = await got.json();
          if (!stopped) { kept.answer = answer; kept.etag = etag; draw(); }
        }
        kept.at = now || Date.now();
        answered = true;
      }
    } catch (e) { /* the venue's network: said below, tried again later */ }
    busy = false;
    kept.polls += 1;
    root.dataset.polls = String(kept.polls);
    if (stopped) return;
    ok = answered;
    failures = answered ? 0 : failures + 1;
    say();
    later(answered ? every : Math.min(LIVE_BACKOFF_MS, every * 2 ** failures));
  }

  function wake(event) {
    if (stopped) return;
    if (document.visibilityState === "hidden") { clearTimeout(timer); timer = null; return; }
    if (event && event.type === "online") failures = 0;
    // back in view, online again, or focused: catch up at once (not twice in a second)
    if (!busy && Date.now() - last > 1000) { clearTimeout(timer); poll(); }
    else if (!busy && timer === null) later(every);
  }

  draw();
  say();
  // Phones opened together spread their first polls over the interval; after a run of the
  // page (a person acted), poll once the feed may have built its answer again, so what they
  // did shows at once even if the run was handed the answer of a moment before.
  later(kept.mounted ? live.rerun_ms : Math.random() * every);
  kept.mounted = true;
  document.addEventListener("visibilitychange", wake);
  window.addEventListener("online", wake);
  window.addEventListener("pageshow", wake);
  window.addEventListener("focus", wake);
  kept.stop = () => {
    stopped = true;
    clearTimeout(timer);
    document.removeEventListener("visibilitychange", wake);
    window.removeEventListener("online", wake);
    window.removeEventListener("pageshow", wake);
    window.removeEventListener("focus", wake);
    kept.stop = null;
  };
  return kept.stop;
}
// --- the element ------------------------------------------------------------------------------
""".replace("EVERY_MS_VALUE", str(EVERY_MS)).replace("BACKOFF_MS_VALUE", str(BACKOFF_MS)) \
    .replace("RESYNC_MS_VALUE", str(RESYNC_MS)) \
    .replace("ASK_WITHIN_MS_VALUE", str(ASK_WITHIN_MS))


@dataclass(frozen=True)
class Answer:
    """What an element follows: the answer's address in the feed (with its language), its
    ETag and its JSON as the page's run found it (the feed gives the same; the first poll
    then costs a 304)."""

    url: str
    etag: str | None
    body: str


def url(key: str, name: str, lang: str | None = None) -> str:
    """The address of the live answer `name` ("standings") of tournament `key`, in language
    `lang` (default: this run's)."""
    return f"{PREFIX}/{key}/live/{name}?lang={lang or i18n.current()}"


def words() -> dict[str, str]:
    """The runtime's own words, in this run's language."""
    return {"updated": _("Updated {time}"),
            "stale": _("Not updated since {time}: trying again…"),
            "offline": _("Not updated yet: trying again…")}


class Element:
    """A live element, made once per module (`element`); called on a page to mount it."""

    def __init__(self, name: str, *, html: str, css: str = "", js: str) -> None:
        self.name = name
        self._mount = st.components.v2.component(
            name, html=_FRAME.format(html=html), css=RUNTIME_CSS + css, js=RUNTIME_JS + js)

    def __call__(self, answer: Answer, *, key: str, time_zone: str | None = None,
                 data: dict[str, Any] | None = None, every_ms: int = EVERY_MS,
                 on_run: Callable[[], None] | None = None) -> Any:
        """Mount the element following `answer` (`time_zone`: the tournament's, for the
        "Updated" time), with the element's own `data` (its words, settings). `on_run`: the
        callback of a Python run the element asks for (`view.ask`); without it, it asks for
        none. Returns the component's result (its `run` trigger: the value asked with)."""
        live = {"url": answer.url, "etag": answer.etag, "body": answer.body,
                "every_ms": int(every_ms), "now_ms": int(time.time() * 1000),
                "rerun_ms": int(feed.REBUILD_SECONDS * 1000) + RERUN_MARGIN_MS,
                "time_zone": time_zone or None, "words": words()}
        payload = {**(data or {}), "live": live}
        if on_run is None:
            return self._mount(key=key, data=payload, height="content")
        return self._mount(key=key, data=payload, height="content", on_run_change=on_run)


def element(name: str, *, html: str, css: str = "", js: str) -> Element:
    """A live element named `name` (unique in the app): its own HTML (what the runtime's
    body holds at first), CSS and JavaScript (an ES module whose default export returns
    `follow(component, {render})`)."""
    return Element(name, html=html, css=css, js=js)


@functools.cache
def _feed_routes() -> None:
    """The feed's answers are registered with its routes: made once per process, so a page
    that runs before the server has made them (a test's page run) finds its answer."""
    feed.routes()


def page_answer(name: str, reads: data.Data) -> Answer:
    """The live answer `name` ("standings": `live/standings`, `stsa.ui.live_answers`) as this
    page's run hands it to its element: of the tournament the run shows (`reads`: the run's,
    at its data version), as everyone may see it, in the run's language: the very answer
    and ETag the feed gives now (`feed.shared_answer`), so the element's first poll gets a
    304."""
    key = session.tournament_key() or ""
    lang = i18n.current()
    tournament = session.tournament_id()
    public = reads if tournament is None else data.public(tournament, version=reads.version)
    _feed_routes()
    etag, body = feed.shared_answer(public, key, f"live_{name}", {}, lang)
    return Answer(url(key, name, lang), etag, body_text(body))


def body_text(body: bytes | str) -> str:
    """An answer's bytes as the JSON text an element is given."""
    return body.decode() if isinstance(body, bytes) else str(body)


def data_of(mounted_json: str) -> dict[str, Any]:
    """The data a mounted element carries (its proto's JSON), with its answer parsed
    (`answer`): for tests and tools that read a page's elements."""
    found = json.loads(mounted_json)
    return {**found, "answer": json.loads(found["live"]["body"]) if found["live"]["body"]
            else None}
