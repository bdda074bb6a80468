"""My seat's live element (R3, R12, R14, R16, R21, R22, R26): the chosen player's nickname,
where they are in the sitting being played (table, seat, colour, first player, setup; sitting
out, and whether the draw chose it; not drawn yet; the tournament over), their waiting-list
number, what comes next on the schedule, the clock of their own table (`ui.countdown`'s logic,
each table's own time included), where they stand in words, their rank, best score and games:
all drawn in the browser from the `live/players` answer, one answer that every phone shares
(the element picks its player by id). A judge's save or a publish shows on the phone within a
poll, with no Python run.

The page's run hands the element the answer with its player's row alone (`live_answers
.one_player`): the first poll brings everyone's. Self check-in is a form (a person acting) and
stays on the page's run: when the answer says check-in opened or closed (`check_in`: its
window, or the organizer's switch), the element asks for one run, at a random moment of the
next few seconds, so a room does not run at once.
"""

from __future__ import annotations

from stsa import i18n
from stsa.i18n import _, ngettext
from stsa.services import bookings as booking_service
from stsa.ui import countdown, data, live_answers, live_element, session, sittings

# Each colour's square beside its name, in the theme's text colour of that name (light or dark
# theme), as `ui.sittings.colour` shows it in a line of text; other colours by name alone.
SWATCHES = {name: f"var(--st-{theme}-text-color, {sittings.COLOUR_TAGS[name]})"
            for name, theme in sittings.TEXT_COLOURS.items()}
PLURAL = 3  # plural templates for 0, 1 and 2 or more (English, Swedish and French alike)

SCHEDULE = ('<svg class="icon" viewBox="0 0 24 24" aria-hidden="true"><path d="M12 2a10 10 0 1 0 '
            '0 20 10 10 0 0 0 0-20zm0 18a8 8 0 1 1 0-16 8 8 0 0 1 0 16zm.5-13H11v6l5.2 3.2.8-1.'
            '3-4.5-2.7V7z"/></svg>')

HTML = f"""<div class="seat">
<div class="gone warning" hidden></div>
<div class="me">
<h2 class="nickname"></h2>
<p class="caption withdrawn" hidden></p>
<div class="where" aria-live="polite">
<section class="seated" hidden><h3 class="table-seat"></h3><p class="at-table"></p>
<p class="first"></p><p class="setup"></p></section>
<div class="not-seated info" hidden></div>
<div class="over success" hidden></div>
<div class="waiting info" hidden></div>
</div>
<p class="next" hidden>{SCHEDULE}<span class="next-words"></span></p>
<div class="clock" hidden>{countdown.HTML}</div>
<h3 class="standing-heading"></h3>
<p class="standing"></p>
<p class="rank" hidden></p>
<div class="wrap" hidden><table class="games"><thead><tr></tr></thead><tbody></tbody></table>
</div>
</div>
</div>"""

CSS = countdown.CSS + """
.seat [hidden] { display: none !important; }
.seat h2 { font-size: var(--st-heading-font-size-2, 2.25rem); font-weight: 600;
  margin: 0 0 0.5rem; line-height: 1.2; overflow-wrap: anywhere; }
.seat h3 { font-size: var(--st-heading-font-size-3, 1.75rem); font-weight: 600;
  margin: 0.5rem 0 0.5rem; line-height: 1.2; }
.seat p { margin: 0 0 0.75rem; }
.seat .caption { font-size: 0.875rem; opacity: 0.8; }
.seat .seated { border: 1px solid var(--st-border-color, #d6d6d9); border-radius: 0.5rem;
  padding: 1rem; margin: 0 0 1rem; }
.seat .seated h3 { margin-top: 0; }
.seat .seated p:last-child { margin-bottom: 0; }
.seat .info, .seat .success, .seat .warning { border-radius: 0.5rem; padding: 0.75rem 1rem;
  margin: 0 0 1rem; }
.seat .info { background: var(--st-blue-background-color, #e8f0fb);
  color: var(--st-blue-text-color, #0d3c74); }
.seat .success { background: var(--st-green-background-color, #e6f4ea);
  color: var(--st-green-text-color, #145a32); }
.seat .warning { background: var(--st-yellow-background-color, #fff8db);
  color: var(--st-yellow-text-color, #6b4b00); }
.seat .icon { width: 1.2em; height: 1.2em; fill: currentColor; vertical-align: -0.2em;
  margin-right: 0.4rem; }
.seat .swatch { font-weight: 700; }
.seat .wrap { overflow-x: auto; margin: 0 0 1rem;
  border: 1px solid var(--st-dataframe-border-color, #e6e9ef); border-radius: 0.5rem; }
.seat table { border-collapse: collapse; width: 100%; font-size: 0.875rem; }
.seat th, .seat td { padding: 0.3rem 0.5rem; text-align: left;
  border-bottom: 1px solid var(--st-dataframe-border-color, #e6e9ef); }
.seat th { font-weight: 600; background: var(--st-dataframe-header-background-color, #f7f8fa); }
.seat td.num, .seat th.num { text-align: right; font-variant-numeric: tabular-nums; }
"""

JS = countdown.CLOCK_JS + """
// `template` with its {names} filled from `values` (text, or a node for a swatch) and its
// **parts** in bold: the template's own ** only, never one inside a nickname.
function fillParts(node, template, values) {
  node.replaceChildren();
  String(template || "").split("**").forEach((part, i) => {
    const into = i % 2 ? node.appendChild(el("strong")) : node;
    part.split(/(\\{\\w+\\})/).forEach((bit) => {
      const name = /^\\{(\\w+)\\}$/.exec(bit);
      const value = name && name[1] in values ? values[name[1]] : bit;
      if (value instanceof Node) into.appendChild(value);
      else if (value !== "") into.appendChild(document.createTextNode(String(value)));
    });
  });
  return node;
}

function counted(templates, n) {  // the plural form for n (0, 1, 2 or more)
  return templates[Math.min(n, templates.length - 1)];
}

function seatParts(body) {
  const q = (name) => body.querySelector(name);
  return {
    gone: q(".gone"), me: q(".me"), nickname: q(".nickname"), withdrawn: q(".withdrawn"),
    seated: q(".seated"), tableSeat: q(".table-seat"), atTable: q(".at-table"),
    first: q(".first"), setup: q(".setup"), notSeated: q(".not-seated"), over: q(".over"),
    waiting: q(".waiting"), next: q(".next"), nextWords: q(".next-words"),
    clock: q(".clock"), countdown: q(".stsa-countdown"), standingHeading: q(".standing-heading"),
    standing: q(".standing"), rank: q(".rank"), wrap: q(".wrap"), head: q(".games thead tr"),
    rows: q(".games tbody"),
    clockKept: {audio: null, rang: false}, clockStop: null, timer: null, asked: null,
    askedAt: 0,
  };
}

function colourNode(answer, colour, data) {
  const found = (answer.colours || []).find((c) => c.colour === colour);
  const word = found ? found.word : colour;
  const swatch = data.swatches[String(colour).trim().toLowerCase()];
  const node = el("span");
  if (swatch) {
    const square = node.appendChild(el("span", "\\u25a0 ", "swatch"));
    square.style.color = swatch;
    square.setAttribute("aria-hidden", "true");
  }
  node.appendChild(document.createTextNode(word));
  return node;
}

function checkInOpen(window, now) {  // self check-in is open now
  if (!window) return false;
  if (window.from_ms === null || window.until_ms === null) return !!window.open;
  return window.from_ms <= now && now < window.until_ms;
}

function seatDraw(ui, answer, view) {
  const data = view.data, W = data.words;
  const me = (answer.players || []).find((p) => p.id === data.player);
  ui.gone.hidden = !!me;
  ui.me.hidden = !me;
  ui.gone.textContent = me ? "" : W.gone;
  if (ui.clockStop) { ui.clockStop(); ui.clockStop = null; }
  if (!me) return;
  ui.nickname.textContent = me.player;
  ui.withdrawn.hidden = !me.withdrawn;
  ui.withdrawn.textContent = me.withdrawn ? W.withdrawn : "";
  const sitting = me.sitting || answer.sitting || "";
  ui.seated.hidden = me.now !== "seated";
  ui.notSeated.hidden = !(me.now === "sitting_out" || me.now === "not_drawn");
  // the final is played: "over" only when nothing is left on the schedule (the answer's
  // decision, `services.player.Now`); else the final place, beside what comes next
  const ended = me.now === "over" || me.now === "final_played";
  ui.over.hidden = !ended;
  if (me.now === "seated") {
    ui.tableSeat.textContent = fill(W.table_seat, {table: me.table, seat: me.seat});
    fillParts(ui.atTable, counted(W.at_table, me.players),
              {sitting: sitting, colour: colourNode(answer, me.colour, data), count: me.players});
    fillParts(ui.first, me.seat === 1 ? W.you_first : W.first_player, {player: me.first_player});
    fillParts(ui.setup, W.setup, {setup: me.setup});
  } else if (me.now === "sitting_out") {
    ui.notSeated.textContent = fill(W.sitting_out, {sitting: sitting})
      + (me.sat_out_by_draw ? " " + W.by_draw : "");
  } else if (me.now === "not_drawn") {
    ui.notSeated.textContent = W.not_drawn;
  }
  ui.over.textContent = !ended ? "" : me.now === "over" ? W.over : W.final_played;
  ui.waiting.hidden = !me.waiting;
  ui.waiting.textContent = me.waiting ? fill(W.waiting, {number: me.waiting}) : "";
  const next = () => {
    const words = comingNext(answer.coming, view.now(), data.zone);
    ui.nextWords.textContent = words;
    ui.next.hidden = !words;
    // self check-in: its form is the page's: a run shows or hides it when check-in opens or
    // closes (asked once for each change, again a minute later if the page did not follow)
    const now = view.now(), open = checkInOpen(answer.check_in, now);
    if (open !== data.check_in_open && (ui.asked !== open || now - ui.askedAt > 60000)) {
      ui.asked = open;
      ui.askedAt = now;
      view.ask("check-in");
    }
  };
  next();
  clearInterval(ui.timer);
  ui.timer = setInterval(next, 15000);  // an item starting moves "next" on
  const clock = answer.clock;
  const mine = me.now === "seated" && clock && clock.label === sitting;
  ui.clock.hidden = !mine;
  if (mine) {
    const own = (clock.tables || []).find((t) => t.table === me.table) || clock;
    ui.clockStop = countdownRun(ui.countdown, {
      status: own.status, deadline_ms: own.deadline_ms, left_ms: own.left_ms,
      words: clock.words, label: fill(W.table_label, {sitting: sitting, table: me.table}),
      ...data.clock_words}, view.now, ui.clockKept);
  }
  ui.standingHeading.textContent = W.standing;
  ui.standing.textContent = me.standing;
  const games = me.games || [];
  ui.rank.hidden = !games.length;
  ui.wrap.hidden = !games.length;
  if (games.length) {
    fillParts(ui.rank, counted(W.rank_line, games.length),
              {rank: me.rank, score: me.best_score, count: games.length});
    ui.head.replaceChildren(...headCells(W.games, (i) => i > 0));
    const at = Object.fromEntries(answer.game_fields.map((f, i) => [f, i]));
    ui.rows.replaceChildren(...games.map((game) => {
      const row = el("tr");
      row.appendChild(el("td", fill(W.qualifier, {number: game[at.sitting]})));
      for (const field of ["table", "placing", "vp", "score"])
        row.appendChild(el("td", game[at[field]], "num"));
      return row;
    }));
  }
}

export default function (component) {
  const body = component.parentElement.querySelector(".stsa-live-body");
  const ui = body.__seat || (body.__seat = seatParts(body));
  const stop = follow(component, {render(answer, view) { seatDraw(ui, answer, view); }});
  return () => {
    stop();
    clearInterval(ui.timer);
    if (ui.clockStop) { ui.clockStop(); ui.clockStop = null; }
  };
}
"""

ELEMENT = live_element.element("stsa_live_seat", html=HTML, css=CSS, js=JS)


def words() -> dict:
    """The element's own words, in this run's language (the same for every player)."""
    return {
        "gone": _("This player is no longer on the roster: find yourself again."),
        "withdrawn": _("Withdrawn from the tournament."),
        "table_seat": _("Table {table} · seat {seat}"),
        "at_table": [ngettext("{sitting} · {colour} · {count} player at the table",
                              "{sitting} · {colour} · {count} players at the table", n)
                     for n in range(PLURAL)],
        "you_first": _("**You play first.**"),
        "first_player": _("First player: **{player}** (seat 1); play goes clockwise."),
        "setup": _("Setup: **{setup}**"),
        "sitting_out": _("You sit this one out: you have no seat in {sitting}."),
        "by_draw": _("The draw chose you to sit out."),
        "over": _("The tournament is over: the final is played. Your final place is below."),
        "final_played": _("The final is played: your final place is below."),
        "not_drawn": _("Not drawn yet: your table and seat show here as soon as the next "
                       "sitting is published."),
        "waiting": _("You are number {number} on the waiting list: a seat is yours if one "
                     "frees up."),
        "table_label": _("{sitting}, table {table}"),
        "standing": _("Standing"),
        "rank_line": [ngettext("Rank **{rank}** · best score **{score}** · {count} game",
                               "Rank **{rank}** · best score **{score}** · {count} games", n)
                      for n in range(PLURAL)],
        "games": [_("Sitting"), _("Table"), _("Placing"), _("VP"), _("Score")],
        "qualifier": _("Qualifier {number}"),
    }


def show(reads: data.Data, player_id: int) -> None:
    """My seat's live element for `player_id`, following `live/players` in this run's
    language (the public's view for everyone, R20, R22)."""
    key = session.tournament_key() or ""
    tournament = session.tournament_id()
    public = reads if tournament is None else data.public(tournament, version=reads.version)
    lang = i18n.current()
    mine = live_answers.one_player(live_answers.players_payload(public, key), int(player_id))
    zone = str(reads.settings().zone)
    opened = booking_service.open_plan(session.engine(), plan=reads.next_plan()) is not None
    ELEMENT(live_element.Answer(live_element.url(key, "players", lang), None,
                                live_answers.body_of(mine)),
            key="live_seat", time_zone=zone, on_run=lambda: None,
            data={"player": int(player_id), "zone": zone, "words": words(),
                  "clock_words": countdown.words(), "swatches": SWATCHES,
                  "check_in_open": opened})
