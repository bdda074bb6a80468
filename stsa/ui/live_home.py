"""Home's live element: its public parts, drawn in the browser from the `live/home` answer:
the champion and podium once the final is in (R18, R22), the players and the checked in, the
sitting and its tables in words, what comes next on the schedule (chosen by the browser's
clock from every item's start: `services.schedule.coming_up`), the sitting's countdown (R26:
`ui.countdown`'s logic; the clock's state comes with each answer, so a pause shows within a
poll), the tables still missing a result, and for spectators what comes next for them. The
organizer's and judges' parts stay on the page's own run (`views/home.py`)."""

from __future__ import annotations

from stsa.domain import Role
from stsa.i18n import _
from stsa.ui import countdown, data, live_element, navigation

TROPHY = ('<svg class="icon" viewBox="0 0 24 24" aria-hidden="true"><path d="M19 5h-2V3H7v2H5c'
          '-1.1 0-2 .9-2 2v1c0 2.55 1.92 4.63 4.39 4.94A5.01 5.01 0 0 0 11 15.9V19H7v2h10v-2h-'
          '4v-3.1a5.01 5.01 0 0 0 3.61-2.96C19.08 12.63 21 10.55 21 8V7c0-1.1-.9-2-2-2zM5 8V7h2'
          'v3.82C5.84 10.4 5 9.3 5 8zm14 0c0 1.3-.84 2.4-2 2.82V7h2v1z"/></svg>')
SCHEDULE = ('<svg class="icon" viewBox="0 0 24 24" aria-hidden="true"><path d="M12 2a10 10 0 1 0 '
            '0 20 10 10 0 0 0 0-20zm0 18a8 8 0 1 1 0-16 8 8 0 0 1 0 16zm.5-13H11v6l5.2 3.2.8-1.'
            '3-4.5-2.7V7z"/></svg>')
ARROW = ('<svg class="icon" viewBox="0 0 24 24" aria-hidden="true"><path d="M12 4l-1.4 1.4 5.6 '
         '5.6H4v2h12.2l-5.6 5.6L12 20l8-8z"/></svg>')

HTML = f"""<div class="home">
<section class="podium" hidden>
<h3 class="champion">{TROPHY}<span class="champion-words"></span></h3>
<p class="others" hidden></p>
<a class="final-link" target="_self">{TROPHY}<span class="final-words"></span></a>
</section>
<div class="metrics">
<div class="metric"><div class="metric-label players-label"></div>
<div class="metric-value players"></div></div>
<div class="metric"><div class="metric-label checked-label"></div>
<div class="metric-value checked"></div></div>
<div class="metric"><div class="metric-label sitting-label"></div>
<div class="metric-value sitting"></div></div>
</div>
<p class="next" hidden>{SCHEDULE}<span class="next-words"></span></p>
<p class="sitting-line" hidden></p>
<div class="clock" hidden>{countdown.HTML}<p class="caption clock-caption"></p></div>
<p class="missing" hidden></p>
<div class="next-step info" hidden>{ARROW}<span class="next-step-words"></span></div>
</div>"""

CSS = countdown.CSS + """
.home [hidden] { display: none !important; }
.home .icon { width: 1.2em; height: 1.2em; fill: currentColor; flex: none;
  vertical-align: -0.2em; margin-right: 0.4rem; }
.home .podium { border: 1px solid var(--st-border-color, #d6d6d9); border-radius: 0.5rem;
  padding: 1rem; margin: 0 0 1rem; }
.home .champion { font-size: var(--st-heading-font-size-3, 1.5rem); font-weight: 600;
  margin: 0 0 0.5rem; line-height: 1.3; }
.home .others { margin: 0 0 0.5rem; }
.home .final-link { color: inherit; text-decoration: none; display: inline-flex;
  align-items: center; padding: 0.25rem 0; }
.home .final-link:hover span { text-decoration: underline; }
.home .metrics { display: flex; flex-wrap: wrap; gap: 1rem; margin: 0 0 1rem; }
.home .metric { flex: 1 1 0; min-width: 6rem; }
.home .metric-label { font-size: 0.875rem; }
.home .metric-value { font-size: 2.25rem; line-height: 1.25; overflow-wrap: anywhere; }
.home p { margin: 0 0 1rem; }
.home .caption { font-size: 0.875rem; opacity: 0.8; margin: 0 0 1rem; }
.home .info { background: var(--st-blue-background-color, #e8f0fb);
  color: var(--st-blue-text-color, #0d3c74); border-radius: 0.5rem; padding: 0.75rem 1rem;
  margin: 0 0 1rem; display: flex; align-items: flex-start; }
"""

JS = countdown.CLOCK_JS + """
function homeParts(body) {
  const q = (name) => body.querySelector(name);
  return {
    podium: q(".podium"), champion: q(".champion-words"), others: q(".others"),
    link: q(".final-link"), linkWords: q(".final-words"),
    playersLabel: q(".players-label"), players: q(".players"),
    checkedLabel: q(".checked-label"), checked: q(".checked"),
    sittingLabel: q(".sitting-label"), sitting: q(".sitting"),
    next: q(".next"), nextWords: q(".next-words"), sittingLine: q(".sitting-line"),
    clock: q(".clock"), countdown: q(".stsa-countdown"), clockCaption: q(".clock-caption"),
    missing: q(".missing"), nextStep: q(".next-step"), nextStepWords: q(".next-step-words"),
    clockKept: {audio: null, rang: false}, clockStop: null, nextTimer: null,
  };
}

function said(node, text, box) {  // a line that shows only when it has words
  node.textContent = text || "";
  (box || node).hidden = !text;
}

function homeDraw(ui, answer, view) {
  const W = view.data.words;
  ui.podium.hidden = !answer.champion;
  ui.champion.textContent = answer.champion || "";
  said(ui.others, answer.podium);
  ui.linkWords.textContent = W.final_standings;
  ui.link.href = view.data.finals_page;
  ui.playersLabel.textContent = W.players;
  ui.playersLabel.title = W.players_help;
  ui.checkedLabel.textContent = W.checked_in;
  ui.checkedLabel.title = W.checked_in_help;
  ui.sittingLabel.textContent = W.sitting;
  ui.players.textContent = String(answer.players);
  ui.checked.textContent = String(answer.checked_in);
  ui.sitting.textContent = answer.sitting;
  const next = () => said(ui.nextWords, comingNext(answer.coming, view.now(), view.data.zone),
                          ui.next);
  next();
  clearInterval(ui.nextTimer);
  ui.nextTimer = setInterval(next, 15000);  // an item starting moves "next" on
  boldParts(ui.sittingLine, answer.sitting_line || "");
  ui.sittingLine.hidden = !answer.sitting_line;
  if (ui.clockStop) { ui.clockStop(); ui.clockStop = null; }
  ui.clock.hidden = !answer.clock;
  if (answer.clock) {
    ui.clockStop = countdownRun(ui.countdown, {...answer.clock, ...view.data.clock_words},
                                view.now, ui.clockKept);
  }
  said(ui.clockCaption, answer.clock ? answer.clock.caption : "");
  said(ui.missing, answer.missing);
  said(ui.nextStepWords, view.data.next_step ? answer.next_step : "", ui.nextStep);
}

export default function (component) {
  const body = component.parentElement.querySelector(".stsa-live-body");
  const ui = body.__home || (body.__home = homeParts(body));
  const stop = follow(component, {render(answer, view) { homeDraw(ui, answer, view); }});
  return () => {
    stop();
    clearInterval(ui.nextTimer);
    if (ui.clockStop) { ui.clockStop(); ui.clockStop = null; }
  };
}
"""

ELEMENT = live_element.element("stsa_live_home", html=HTML, css=CSS, js=JS)
FINALS = next(p for p in navigation.PAGES if p.path == "views/finals.py")  # the podium's link


def show(reads: data.Data, role: Role) -> None:
    """Home's live element, following `live/home` in this run's language; what comes next
    for spectators in it too (the staff's next step is the page's)."""
    ELEMENT(live_element.page_answer("home", reads), key="live_home",
            time_zone=str(reads.settings().zone), data={
                "zone": str(reads.settings().zone), "next_step": role is Role.SPECTATOR,
                "finals_page": navigation.url_path(FINALS),
                "clock_words": countdown.words(),
                "words": {"players": _("Players"), "players_help": _("Active players on the "
                                                                     "roster."),
                          "checked_in": _("Checked in"),
                          "checked_in_help": _("For the next sitting."),
                          "sitting": _("Sitting"), "final_standings": _("Final standings")}})
