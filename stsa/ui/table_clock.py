"""Each table's time for the judges, in the browser (R26): the Results page's clock block shows
every table of the sitting with its time left, the minutes given to it alone and whether its
result is in, and says which tables are still playing at time. The times count down in the
browser from what the page's run gave (the server's "now" included, so a browser clock that
is off does not matter): no Streamlit run on a timer. They sync again whenever the page runs
(choosing the sitting, a clock button) and when the page comes back into view; which tables
still wait for a result they also learn from the result entry on the same page each time it
runs (a save runs the entry's part alone), so a table just saved is no longer "playing".

Its words come with the data, in the page's language; everything it shows is set as text."""

from __future__ import annotations

import datetime as dt

import streamlit as st

from stsa.i18n import N_, _
from stsa.services.clock import SittingClock, epoch_ms

HTML = """<div class="stsa-times">
<p class="stsa-times-late" hidden></p>
<table><thead><tr></tr></thead><tbody></tbody></table>
</div>"""

CSS = """
.stsa-times [hidden] { display: none !important; }
.stsa-times { font-family: var(--st-font, inherit); color: var(--st-text-color, inherit); }
.stsa-times-late { background: var(--st-yellow-background-color, #fffce7);
  color: var(--st-yellow-text-color, #926c05); border-radius: var(--st-base-radius, 0.5rem);
  padding: 0.5rem 0.75rem; margin: 0.3rem 0; }
.stsa-times table { border-collapse: collapse; width: 100%; font-size: 0.95rem; }
.stsa-times th, .stsa-times td { text-align: left; padding: 0.25rem 0.5rem;
  border-bottom: 1px solid var(--st-border-color, rgba(49, 51, 63, 0.2)); }
.stsa-times th { font-weight: 600; }
.stsa-times td.stsa-num { font-variant-numeric: tabular-nums; }
"""

JS = r"""
function words(ms) {  // as `stsa.clock.minutes_words`: whole seconds, rounded up
  const whole = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(whole / 3600), m = Math.floor((whole % 3600) / 60), s = whole % 60;
  const two = (n) => String(n).padStart(2, "0");
  return h ? `${h}:${two(m)}:${two(s)}` : `${two(m)}:${two(s)}`;
}

export default function (component) {
  const { data, parentElement } = component;
  const root = parentElement.querySelector(".stsa-times");
  const kept = root.__stsa || (root.__stsa = {});
  if (kept.stop) kept.stop();
  const say = data.words;
  const skew = Date.now() - data.now_ms;  // how far this browser's clock is off the server's
  const head = root.querySelector("thead tr");
  head.replaceChildren();
  for (const name of ["table", "left", "added", "result"]) {
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = say.headings[name];
    head.appendChild(th);
  }
  const body = root.querySelector("tbody");
  body.replaceChildren();
  const cells = data.tables.map((t) => {
    const tr = document.createElement("tr");
    const out = [t.table, "", t.added_minutes, ""].map((value, i) => {
      const td = document.createElement("td");
      td.textContent = String(value);
      if (i < 3) td.className = "stsa-num";
      tr.appendChild(td);
      return td;
    });
    body.appendChild(tr);
    return { table: t, left: out[1], result: out[3] };
  });

  // The result entry says which tables still wait, each time its part of the page runs.
  function waiting(detail) {
    if (!detail || detail.sitting !== data.sitting_id) return;
    const still = new Set(detail.tables);
    for (const cell of cells) cell.table.playing = still.has(cell.table.table);
    tick();
  }
  const told = (event) => waiting(event.detail);

  function tick() {
    const now = Date.now() - skew;
    const late = [];
    for (const cell of cells) {
      const t = cell.table;
      const left = t.status === "running" && t.deadline_ms !== null
        ? t.deadline_ms - now : t.left_ms;
      const up = t.status !== "not started" && t.status !== "paused" && left <= 0;
      const state = t.playing ? (up ? say.late : say.playing) : say.result_in;
      if (t.playing && up) late.push(t.table);
      const shown = words(left);
      if (cell.left.textContent !== shown) cell.left.textContent = shown;
      if (cell.result.textContent !== state) cell.result.textContent = state;
    }
    const note = root.querySelector(".stsa-times-late");
    note.hidden = !late.length;
    const text = say.late_note.replace("{tables}", late.join(", "));
    if (note.textContent !== text) note.textContent = text;
  }

  tick();
  const every = setInterval(tick, 1000);
  const again = () => tick();
  document.addEventListener("visibilitychange", again);
  window.addEventListener("pageshow", again);
  window.addEventListener("stsa-waiting", told);
  kept.stop = () => {
    clearInterval(every);
    document.removeEventListener("visibilitychange", again);
    window.removeEventListener("pageshow", again);
    window.removeEventListener("stsa-waiting", told);
    kept.stop = null;
  };
  return kept.stop;
}
"""

_TIMES = st.components.v2.component("stsa_table_times", html=HTML, css=CSS, js=JS)

HEADINGS = {"table": N_("Table"), "left": N_("Time left"), "added": N_("More time (min)"),
            "result": N_("Result")}
# Each table's state, as `ui.clock.table_times` names them.
LATE, PLAYING, RESULT_IN = N_("still playing at time"), N_("playing"), N_("result in")


def table_times(sitting_clock: SittingClock, *, key: str) -> None:
    """R26: every table's time left, added minutes and result state, counting down in the
    browser; the tables still playing at time said above them."""
    now = dt.datetime.now(dt.UTC)
    tables = sitting_clock.table_countdowns(now)
    _TIMES(key=key, height="content", data={
        "now_ms": epoch_ms(now), "tables": tables, "sitting_id": int(sitting_clock.sitting_id),
        "words": {"headings": {k: _(w) for k, w in HEADINGS.items()}, "late": _(LATE),
                  "playing": _(PLAYING), "result_in": _(RESULT_IN),
                  "late_note": _("Still playing at time: table {tables}.")}})
