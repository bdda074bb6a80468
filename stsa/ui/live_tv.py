"""TV mode's live element for a projector (R14–R18, R24–R27): the slides cycle in the browser,
one every `live.TV_SECONDS` (no Python run per slide): the standings in two columns of large
type, each row tinted by its zone so the cut lines show where the colour changes (at most
`live.TV_PAGES` slides of `live.TV_ROWS` rows a column), the best scores and the scores per
sitting as charts (`<img>` of the feed's SVG, drawn on the server from the same charts), and
the season's top when the tournament is in one; above them the tournament's name and the
slide's heading, where the tournament stands, what comes next, the rule change, the clock
large (`ui.countdown`'s logic, with "Sound on" and the beep) and, while self check-in is open,
the room's code. Type is sized to the screen's height (vh), as the page's own style block
sizes its frame.

Everything but the room's code comes from the `live/tv` answer. The code changes every few
minutes with no data version moving, and proves a player is in the room, so it is not in the
feed: it comes with the page's run, and while the answer says check-in is open the element
asks for one run when its code's time is up (it shows the old one until the new one comes:
the one before is still taken), or when it has none (check-in just opened), at a random
moment of the next few seconds, so a room of screens does not run at once.
"""

from __future__ import annotations

from stsa import auth, i18n
from stsa.i18n import _
from stsa.ui import bookings, countdown, data, live, live_answers, live_element, session

SCHEDULE = ('<svg class="icon" viewBox="0 0 24 24" aria-hidden="true"><path d="M12 2a10 10 0 1 0 '
            '0 20 10 10 0 0 0 0-20zm0 18a8 8 0 1 1 0-16 8 8 0 0 1 0 16zm.5-13H11v6l5.2 3.2.8-1.'
            '3-4.5-2.7V7z"/></svg>')
COLUMNS = ("rank", "player", "best_score", "zone", "games", "wins")
NUMBERS = ("rank", "best_score", "games", "wins")

HTML = f"""<div class="tv">
<div class="top"><div class="words">
<h1 class="heading"></h1>
<p class="progress"></p>
<p class="next" hidden>{SCHEDULE}<span class="next-words"></span></p>
<div class="rule info" hidden></div>
<div class="room info" hidden></div>
</div>
<div class="clock" hidden>{countdown.HTML}</div></div>
<div class="slide">
<div class="empty info" hidden></div>
<div class="columns" hidden></div>
<p class="podium" hidden></p>
<p class="cut" hidden></p>
<img class="chart" hidden alt="">
<div class="season" hidden></div>
</div>
<p class="caption count"></p>
</div>"""

# Sizes follow the screen's height (vh), so one screen of any size holds a whole slide with no
# scrolling (issue 33: 32 players and the clock at 1920 × 1080): the heading and the clock at
# its right take the top fifth, a standings slide's 16 rows a column about three fifths, 3.5 %
# of the height each (`live.TV_STYLE` frames the page: no header, no controls).
CSS = countdown.CSS + """
.tv [hidden] { display: none !important; }
.tv .top { display: flex; gap: 2vw; align-items: flex-start; }
.tv .words { flex: 1 1 auto; min-width: 0; }
.tv .clock { flex: none; text-align: right; }
.tv .stsa-countdown.large .stsa-countdown-label { font-size: 2.2vh; }
.tv .stsa-countdown.large .stsa-countdown-time { font-size: 10vh; line-height: 1; }
.tv .stsa-countdown.large.up .stsa-countdown-time { font-size: 6vh; }
.tv .stsa-countdown.large .stsa-countdown-note { font-size: 2.2vh; }
.tv h1 { font-size: 4.2vh; font-weight: 700; line-height: 1.2; margin: 0 0 0.6vh 0;
  overflow-wrap: anywhere; }
.tv p, .tv .info { font-size: 2.3vh; line-height: 1.3; margin: 0 0 0.6vh; }
.tv .caption { font-size: 1.6vh; opacity: 0.8; margin: 0; }
.tv .info { background: var(--st-blue-background-color, #e8f0fb);
  color: var(--st-blue-text-color, #0d3c74); border-radius: 0.5rem; padding: 1vh 1vw; }
.tv .icon { width: 1.2em; height: 1.2em; fill: currentColor; vertical-align: -0.2em;
  margin-right: 0.4rem; }
.tv .columns { display: grid; grid-template-columns: 1fr 1fr; gap: 1.5vw; align-items: start;
  margin: 0.4vh 0 0.6vh; }
.tv table { border-collapse: collapse; width: 100%; }
.tv th, .tv td { font-size: 2.2vh; line-height: 1.15; padding: 0.45vh 0.8vw; text-align: left;
  border-bottom: 1px solid var(--st-dataframe-border-color, #e6e9ef); }
.tv th { font-weight: 600; }
.tv td.num, .tv th.num { text-align: right; font-variant-numeric: tabular-nums; }
.tv tr.tinted td { color: #31333f; }
.tv .chart { display: block; width: 100%; max-height: 62vh; object-fit: contain;
  background: #fff; border-radius: 0.5rem; }
"""

JS = countdown.CLOCK_JS + """
function tvParts(body) {
  const q = (name) => body.querySelector(name);
  return {
    heading: q(".heading"), progress: q(".progress"), next: q(".next"),
    nextWords: q(".next-words"), rule: q(".rule"), clock: q(".clock"),
    countdown: q(".stsa-countdown"), room: q(".room"), empty: q(".empty"),
    columns: q(".columns"), podium: q(".podium"), cut: q(".cut"), chart: q(".chart"),
    season: q(".season"), count: q(".count"),
    clockKept: {audio: null, rang: false}, clockStop: null, slide: 0, answer: null,
    view: null, cycle: null, minute: null, asked: null, askedAt: 0, shownChart: null,
    preload: new Image(),
  };
}

function said(node, text) {  // a line that shows only when it has words
  node.textContent = text || "";
  node.hidden = !text;
}

function table(columns, headings, rows) {  // a standings column: a table of its rows
  const made = el("table");
  made.appendChild(el("thead")).appendChild(el("tr"))
    .append(...headCells(headings, (i) => columns[i].number));
  const body = made.appendChild(el("tbody"));
  for (const row of rows) {
    const tr = body.appendChild(el("tr", null, row.tint ? "tinted" : ""));
    if (row.tint) tr.style.background = row.tint;
    for (const c of columns)
      tr.appendChild(el("td", row[c.key] === null || row[c.key] === undefined ? "" : row[c.key],
                        c.number ? "num" : ""));
  }
  return made;
}

function checkInOpen(window, now) {  // self check-in is open now
  if (!window) return false;
  if (window.from_ms === null || window.until_ms === null) return !!window.open;
  return window.from_ms <= now && now < window.until_ms;
}

function tvMinute(ui) {  // what moves with the time: next up, the room's code
  const answer = ui.answer, view = ui.view, data = view.data, now = view.now();
  said(ui.nextWords, comingNext(answer.coming, now, data.zone));
  ui.next.hidden = !ui.nextWords.textContent;
  const open = checkInOpen(answer.check_in, now);
  const room = data.room;
  // a code is still taken for a while after its time (`taken_ms`): it shows until the new one
  const current = open && room && now < room.taken_ms;
  ui.room.hidden = !current;
  if (current) boldParts(ui.room, room.line);
  // check-in is open and this run's code (if any) has had its time: the page's run knows
  // the new one (asked once for each code, again a minute later if none came)
  if (open && !(room && now < room.until_ms)) {
    const asking = room ? room.until_ms : 0;
    if (ui.asked !== asking || now - ui.askedAt > 60000) {
      ui.asked = asking;
      ui.askedAt = now;
      view.ask("room code");
    }
  }
}

// The image of a chart slide for the answer held: its address changes with the answer, so a
// new chart is fetched and an unchanged one comes from the browser's cache.
function chartSource(ui, slide) {
  return ui.view.data.charts[slide.chart] + "&v=" + encodeURIComponent(ui.view.etag() || "");
}

function tvSlide(ui) {  // the slide `ui.slide` of the answer held
  const answer = ui.answer, data = ui.view.data, W = data.words;
  const slides = answer.slides;
  const at = ui.slide % slides.length, slide = slides[at];
  const name = answer.name || W.standings;
  ui.heading.textContent = name + " \\u00b7 " + slide.heading;
  const empty = !answer.standings.length && slide.kind !== "season";
  said(ui.empty, empty ? W.empty : "");
  const standings = !empty && slide.kind === "standings";
  ui.columns.hidden = !standings;
  said(ui.podium, standings ? answer.podium : "");
  said(ui.cut, standings ? answer.cut : "");
  if (standings) {
    const columns = data.columns;
    ui.columns.replaceChildren(...slide.columns.map(
      ([first, stop]) => table(columns, W.columns, answer.standings.slice(first, stop))));
  }
  const chart = !empty && slide.kind === "chart";
  ui.chart.hidden = !chart;
  if (chart) {
    const source = chartSource(ui, slide);
    if (ui.shownChart !== source) { ui.chart.src = source; ui.shownChart = source; }
    ui.chart.alt = slide.heading + ": " + slide.alt;
  }
  const coming = slides[(at + 1) % slides.length];  // fetched now, shown from the cache
  if (coming.kind === "chart" && answer.standings.length) ui.preload.src = chartSource(ui, coming);
  const season = slide.kind === "season" && answer.season;
  ui.season.hidden = !season;
  if (season) {
    if (answer.season.empty) {
      ui.season.replaceChildren(el("div", answer.season.empty, "info"));
    } else {
      const columns = answer.season.columns.map((heading, i) => ({key: i, number: i !== 1}));
      ui.season.replaceChildren(table(columns, answer.season.columns, answer.season.rows));
    }
  }
  ui.count.textContent = fill(W.slide, {number: at + 1, count: slides.length,
                                        seconds: data.seconds});
}

function tvDraw(ui, answer, view) {
  ui.answer = answer;
  ui.view = view;
  const data = view.data;
  said(ui.progress, answer.progress);
  said(ui.rule, answer.rule_change);
  if (ui.clockStop) { ui.clockStop(); ui.clockStop = null; }
  ui.clock.hidden = !answer.clock;
  if (answer.clock) {
    ui.clockStop = countdownRun(ui.countdown, {...answer.clock, large: true,
                                               ...data.clock_words}, view.now, ui.clockKept);
  }
  tvMinute(ui);
  tvSlide(ui);
  if (!ui.cycle) {
    ui.cycle = setInterval(() => { ui.slide += 1; tvSlide(ui); }, data.seconds * 1000);
    ui.minute = setInterval(() => tvMinute(ui), 5000);
  }
}

export default function (component) {
  const body = component.parentElement.querySelector(".stsa-live-body");
  const ui = body.__tv || (body.__tv = tvParts(body));
  const stop = follow(component, {render(answer, view) { tvDraw(ui, answer, view); }});
  return () => {
    stop();
    clearInterval(ui.cycle);
    clearInterval(ui.minute);
    ui.cycle = ui.minute = null;
    if (ui.clockStop) { ui.clockStop(); ui.clockStop = null; }
  };
}
"""

ELEMENT = live_element.element("stsa_live_tv", html=HTML, css=CSS, js=JS)


def words() -> dict:
    """The element's own words, in this run's language."""
    return {"standings": _("Standings"),
            "columns": [_("Rank"), _("Player"), _("Best score"), _("Zone"), _("Games"),
                        _("Wins")],
            "empty": _("No results yet: the standings appear once the first qualifier "
                       "results are in."),
            "slide": _("Slide {number} of {count}; the next in {seconds} s.")}


def show(reads: data.Data) -> None:
    """TV mode's live element, following `live/tv` in this run's language, with the room's
    check-in code while self check-in is open (this run's: it is not in the feed)."""
    key = session.tournament_key() or ""
    lang = i18n.current()
    zone = str(reads.settings().zone)
    room = bookings.room_line(session.engine(), reads=reads)
    ELEMENT(live_element.page_answer("tv", reads), key="live_tv", time_zone=zone,
            on_run=lambda: None, data={
                "zone": zone, "seconds": live.TV_SECONDS, "words": words(),
                "columns": [{"key": c, "number": c in NUMBERS} for c in COLUMNS],
                "charts": {chart: live_element.url(key, f"charts/{chart}.svg", lang)
                           for chart in live_answers.CHARTS},
                "clock_words": countdown.words(),
                "room": None if room is None else {
                    "line": room[0], "until_ms": int(room[1] * 1000),
                    "taken_ms": int((room[1] + auth.ROOM_CODE_SECONDS) * 1000)}})
