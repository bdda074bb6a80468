"""The page of a stream overlay (README, "Overlays"): a transparent page a stream loads as a
browser source. No Streamlit session: the page asks the feed for its overlay's answer every
second, with the ETag of the last one (304 while nothing changed), and draws it. Every text
from the answer is set as text (`textContent`), never as markup; the page loads nothing but its
answers (its Content-Security-Policy says so). Its own words are in its tournament's language
(`page(code)`), the answers' words in the same (the feed's)."""

from __future__ import annotations

import functools
import html
import json

from stsa import i18n
from stsa.i18n import _, pgettext

POLL_MS = 1000  # a save shows within this plus the feed's half second

HEADERS = {"Content-Security-Policy": (
    "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
    "connect-src 'self'; base-uri 'none'; form-action 'none'"),
    "Cache-Control": "no-store"}

_STYLE = """
html, body { margin: 0; background: transparent; color: #fff;
  font: 600 28px/1.25 "DejaVu Sans", system-ui, sans-serif;
  text-shadow: 0 2px 4px #000, 0 0 2px #000; }
#overlay { display: inline-block; padding: 12px 18px; background: rgba(0, 0, 0, 0.55);
  border-radius: 10px; min-width: 420px; }
.head { font-size: 22px; opacity: 0.9; }
.clock { font-size: 40px; font-variant-numeric: tabular-nums; }
.clock.low { color: #ffd54f; } .clock.out { color: #ff8a80; }
table { border-collapse: collapse; margin-top: 6px; }
td { padding: 2px 10px 2px 0; vertical-align: middle; }
.swatch { display: inline-block; width: 18px; height: 18px; border-radius: 4px;
  border: 2px solid #fff; vertical-align: -2px; }
.first { font-size: 18px; padding: 1px 6px; border: 1px solid #fff; border-radius: 4px; }
.num { text-align: right; font-variant-numeric: tabular-nums; }
.below td { opacity: 0.6; } .cutline td { border-top: 3px dashed #ffd54f; }
.note { font-size: 20px; opacity: 0.85; }
"""

_SCRIPT = r"""
const token = decodeURIComponent(location.pathname.split("/").pop());
const answerAt = "/api/v1/overlays/" + encodeURIComponent(token);
const COLOURS = {red: "#d32f2f", green: "#2e7d32", yellow: "#fbc02d", blue: "#1565c0",
                 white: "#f5f5f5", black: "#212121", purple: "#6a1b9a", orange: "#ef6c00"};
const WORDS = JSON.parse(document.getElementById("words").textContent);
function fill(template, values) {  // "Table {table}" with values.table
  return template.replace(/\{(\w+)\}/g, (m, k) => k in values ? String(values[k]) : m);
}
let etag = null, answer = null, offset = 0;
const root = document.getElementById("overlay");

function el(tag, text, cls) {
  const made = document.createElement(tag);
  if (text !== undefined && text !== null) made.textContent = String(text);
  if (cls) made.className = cls;
  return made;
}
function row(cells, cls) {
  const tr = el("tr", null, cls);
  for (const cell of cells) {
    const td = el("td", null, cell && cell.cls);
    if (cell && cell.node) td.appendChild(cell.node); else if (cell) td.textContent = cell.text;
    tr.appendChild(td);
  }
  return tr;
}
function mmss(ms) {  // 2:29:54, 45:00, 0:09
  const s = Math.max(0, Math.ceil(ms / 1000)), h = Math.floor(s / 3600);
  const m = Math.floor(s / 60) % 60, two = n => String(n).padStart(2, "0");
  return h ? h + ":" + two(m) + ":" + two(s % 60) : m + ":" + two(s % 60);
}
function clockText(clock) {
  if (!clock || clock.status === "not started") return null;
  if (clock.status === "time called") return {text: WORDS.time, cls: "clock out"};
  const left = clock.status === "running" ? clock.deadline_ms - (Date.now() + offset)
                                          : clock.left_ms;
  const cls = "clock" + (left <= 0 ? " out" : left < 10 * 60 * 1000 ? " low" : "");
  const paused = clock.status === "paused", added = clock.added_minutes;
  const shown = added ? (paused ? WORDS.paused_added : WORDS.added)
                      : (paused ? WORDS.paused : "{clock}");
  return {text: fill(shown, {clock: mmss(left), minutes: added}), cls: cls};
}
function drawTable(a) {
  root.appendChild(el("div", [a.tournament, a.sitting, fill(WORDS.table, {table: a.table})]
    .filter(Boolean).join(" · "), "head"));
  if (a.setup) root.appendChild(el("div", a.setup, "note"));
  const shown = clockText(a.clock);
  if (shown) root.appendChild(el("div", shown.text, shown.cls + " js-clock"));
  if (!a.seats.length) { root.appendChild(el("div", WORDS.not_drawn, "note")); return; }
  const t = el("table");
  for (const s of a.seats) {
    const swatch = el("span", null, "swatch");
    swatch.style.background = COLOURS[s.colour] || "#9e9e9e";
    swatch.title = s.colour;
    t.appendChild(row([{node: swatch}, {text: s.player},
      s.first_player ? {node: el("span", WORDS.first, "first")} : {text: ""},
      {text: s.leader || ""},
      a.reported ? {text: s.placing ? "#" + s.placing : "", cls: "num"} : null,
      a.reported ? {text: s.vp === null ? "" : fill(WORDS.vp, {vp: s.vp}), cls: "num"} : null]
      .filter(c => c !== null)));
  }
  root.appendChild(t);
}
function drawStandings(a) {
  root.appendChild(el("div", a.tournament + " · " + WORDS.standings, "head"));
  const t = el("table");
  let crossed = false;
  for (const s of a.standings) {
    const cls = s.below_cut ? (crossed ? "below" : "below cutline") : "";
    crossed = crossed || s.below_cut;
    t.appendChild(row([{text: s.rank, cls: "num"}, {text: s.player},
                       {text: s.best_score === null ? "" : s.best_score, cls: "num"},
                       {text: s.zone || ""}], cls));
  }
  root.appendChild(t);
  if (a.cut) root.appendChild(el("div", a.cut, "note"));
}
function drawNext(a) {
  root.appendChild(el("div", a.tournament + " · " + WORDS.next, "head"));
  if (!a.items.length) { root.appendChild(el("div", WORDS.nothing_more, "note")); return; }
  const t = el("table");
  for (const i of a.items) t.appendChild(row([{text: i.day}, {text: i.starts, cls: "num"},
                                              {text: i.title}]));
  root.appendChild(t);
}
function draw() {
  root.replaceChildren();
  if (!answer) return;
  if (answer.error) { root.appendChild(el("div", answer.error, "note")); return; }
  ({table: drawTable, standings: drawStandings, next: drawNext})[answer.kind](answer);
  document.body.dataset.version = etag || "";
}
async function poll() {
  try {
    const got = await fetch(answerAt, {headers: etag ? {"If-None-Match": etag} : {},
                                      cache: "no-store"});
    const now = Number(got.headers.get("X-STSA-Now"));
    if (now) offset = now - Date.now();
    if (got.status === 200) {
      answer = await got.json(); etag = got.headers.get("ETag"); draw();
    } else if (got.status === 404) {
      answer = await got.json(); etag = null; draw();
    }
  } catch (e) { /* the venue's network: try again at the next poll */ }
}
function tick() {  // the clock counts down between polls
  const shown = answer && answer.kind === "table" ? clockText(answer.clock) : null;
  const box = root.querySelector(".js-clock");
  if (shown && box) { box.textContent = shown.text; box.className = shown.cls + " js-clock"; }
}
poll(); setInterval(poll, POLL_MS); setInterval(tick, 250);
"""


def _page(body: str, script: str = "") -> str:
    """A page in this run's language: its `lang`, its title."""
    return (f"<!doctype html><html lang=\"{i18n.current()}\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width\">"
            "<title>" + html.escape(_("STSA overlay")) + "</title>"
            f"<style>{_STYLE}</style></head><body>{body}"
            + (f"<script>{script}</script>" if script else "") + "</body></html>")


def _words() -> dict[str, str]:
    """The page's own words, in this run's language, for its script (`WORDS`)."""
    return {
        "time": pgettext("the clock ran out", "Time"),
        "paused": _("{clock} paused"),
        "added": _("{clock} (+{minutes} min)"),
        "paused_added": _("{clock} paused (+{minutes} min)"),
        "table": _("Table {table}"),
        "not_drawn": _("Not drawn yet"),
        "first": pgettext("the first player's mark", "1st"),
        "vp": _("{vp} VP"),
        "standings": _("Standings"),
        "next": _("Next up"),
        "nothing_more": _("Nothing more today"),
    }


@functools.cache
def page(code: str = i18n.ENGLISH) -> str:
    """The overlay's page in language `code` (made once per language): its words travel as
    JSON in a data block (never markup), read by its script."""
    with i18n.language(code):
        words = json.dumps(_words(), ensure_ascii=False).replace("<", "\\u003c")
        return _page('<div id="overlay"></div>'
                     f'<script type="application/json" id="words">{words}</script>',
                     _SCRIPT.replace("POLL_MS", str(POLL_MS)))


def gone(words: str, code: str = i18n.ENGLISH) -> str:
    """The page of an overlay that was withdrawn or never made: says so (`words`, already in
    language `code`), and asks nothing."""
    with i18n.language(code):
        return _page(f'<div id="overlay"><div class="note">{html.escape(words)}</div></div>')
