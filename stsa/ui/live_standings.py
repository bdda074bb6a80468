"""The Standings page's live element (R14–R18): the podium, the cut, the colours' legend, the
sitting's progress, the search ("Find a player") and "All columns", the table with each zone
as a coloured tag and a line where a cut falls, a page of rows at a time, and a player's card
(best score, rank, games, wins, how far from the cut or where the finals put them, their
games) once a search leaves one to five players: all drawn in the browser from the
`live/standings` answer, the cards from `live/cards` (asked for only while a search leaves a
few players), so searching and choosing columns run no Python.

A phone shows rank, player, zone, best score and games without a swipe (`ui.tables`'s widths:
narrow number columns, short headings, the name taking the rest); "All columns" adds wins,
the qualifier rank once the final is in, the best game's placing and VP (R14's tie-breaks)
and the tie flag, a swipe away on a phone."""

from __future__ import annotations

from stsa import i18n
from stsa.domain import Role
from stsa.i18n import N_, _
from stsa.ui import data, live, live_element, session, tables

# The table's columns in order: the answer's field, the heading, its help and its width on a
# phone (None: what the others leave); the first five show without "All columns".
COLUMNS = (
    ("rank", N_("Rank"), "", 46),
    ("player", N_("Player"), "", None),
    ("zone", N_("Zone"), N_("Where this player stands at the finals cut; once the finals "
                            "begin, where they really play, and the podium"), 90),
    ("best_score", N_("Best"), N_("The best qualifier score"), 40),
    ("games", N_("Games"), "", 52),
    ("wins", N_("Wins"), "", 44),
    ("qualifier_rank", N_("Qualifier rank"), "", 70),
    ("placing", N_("Placing"), N_("Placing in the game that gave the best score"), 64),
    ("vp", N_("VP"), N_("VP in the game that gave the best score"), 44),
    ("tie_at_cut", N_("Tie at cut"), N_("A rank shared across a cut line: the organizer "
                                        "settles it"), 64),
)
COMPACT = 5  # the first columns a phone shows without a swipe
CARDS = 5  # a search that leaves at most this many players shows their cards
GAMES = (N_("Sitting"), N_("Table"), N_("Placing"), N_("VP"), N_("Score"))

HTML = """<div class="standings">
<div class="empty info" hidden></div>
<div class="podium success" hidden><svg class="icon" viewBox="0 0 24 24" aria-hidden="true">
<path d="M19 5h-2V3H7v2H5c-1.1 0-2 .9-2 2v1c0 2.55 1.92 4.63 4.39 4.94A5.01 5.01 0 0 0 11
15.9V19H7v2h10v-2h-4v-3.1a5.01 5.01 0 0 0 3.61-2.96C19.08 12.63 21 10.55 21 8V7c0-1.1-.9-2-2-2z
M5 8V7h2v3.82C5.84 10.4 5 9.3 5 8zm14 0c0 1.3-.84 2.4-2 2.82V7h2v1z"/></svg>
<span class="podium-words"></span></div>
<p class="caption cut"></p>
<p class="caption legend"></p>
<p class="caption progress"></p>
<p class="caption tie" hidden></p>
<div class="controls">
<label class="find"><span class="find-label"></span>
<input class="find-input" type="search" maxlength="100" autocomplete="off" spellcheck="false">
</label>
<label class="all"><input class="all-input" type="checkbox" role="switch">
<span class="all-label"></span></label>
</div>
<div class="no-match info" hidden></div>
<label class="rows" hidden><span class="rows-label"></span><select class="rows-select"></select>
</label>
<div class="wrap"><table class="table"><colgroup></colgroup><thead><tr></tr></thead>
<tbody></tbody></table></div>
<p class="caption many" hidden></p>
<div class="cards"></div>
</div>"""

CSS = """
.standings .caption { font-size: 0.875rem; opacity: 0.8; margin: 0 0 0.5rem; }
.standings [hidden] { display: none !important; }
.standings .info, .standings .success { border-radius: 0.5rem; padding: 0.75rem 1rem;
  margin: 0 0 1rem; }
.standings .info { background: var(--st-blue-background-color, #e8f0fb);
  color: var(--st-blue-text-color, #0d3c74); }
.standings .success { background: var(--st-green-background-color, #e6f4ea);
  color: var(--st-green-text-color, #145a32); display: flex; gap: 0.5rem;
  align-items: flex-start; }
.standings .icon { width: 1.25rem; height: 1.25rem; flex: none; fill: currentColor;
  margin-top: 0.15rem; }
.standings .controls { display: flex; flex-wrap: wrap; gap: 0.5rem 1.5rem;
  align-items: flex-end; margin: 0.5rem 0 1rem; }
.standings .find { display: flex; flex-direction: column; flex: 1 1 14rem; gap: 0.25rem;
  font-size: 0.875rem; }
.standings .find-input, .standings .rows-select { font: inherit; font-size: 1rem;
  color: inherit; background: var(--st-secondary-background-color, #f0f2f6);
  border: 1px solid var(--st-widget-border-color, transparent); border-radius: 0.5rem;
  padding: 0.5rem 0.75rem; min-height: 2.5rem; box-sizing: border-box; }
.standings .find-input:focus, .standings .rows-select:focus, .standings .all-input:focus-visible {
  outline: 2px solid var(--st-primary-color, #ff4b4b); outline-offset: 1px; }
.standings .all { display: flex; align-items: center; gap: 0.5rem; min-height: 2.5rem;
  cursor: pointer; }
.standings .all-input { appearance: none; width: 2.25rem; height: 1.25rem; margin: 0;
  border-radius: 1rem; background: #8a8d96; position: relative; cursor: pointer; flex: none; }
.standings .all-input::after { content: ""; position: absolute; top: 0.15rem; left: 0.15rem;
  width: 0.95rem; height: 0.95rem; border-radius: 50%; background: #fff;
  transition: left 0.15s; }
.standings .all-input:checked { background: var(--st-primary-color, #ff4b4b); }
.standings .all-input:checked::after { left: 1.15rem; }
.standings .rows { display: inline-flex; flex-direction: column; gap: 0.25rem;
  font-size: 0.875rem; margin: 0 0 0.75rem; }
.standings .wrap { overflow-x: auto; margin: 0 0 1rem;
  border: 1px solid var(--st-dataframe-border-color, #e6e9ef); border-radius: 0.5rem; }
.standings table { border-collapse: collapse; width: 100%; table-layout: fixed;
  font-size: 0.875rem; }
.standings table.all { min-width: 40rem; }
.standings th, .standings td { padding: 0.3rem 0.25rem; text-align: left; vertical-align: top;
  overflow-wrap: anywhere; border-bottom: 1px solid var(--st-dataframe-border-color, #e6e9ef); }
.standings th { font-weight: 600; background: var(--st-dataframe-header-background-color,
  #f7f8fa); }
.standings th:first-child, .standings td:first-child { padding-left: 0.4rem; }
/* a heading wider than its column breaks (hyphenated where the phone knows the language)
   rather than running into the next one: "Meilleur" in a 40 px column */
.standings th { overflow-wrap: break-word; hyphens: auto; }
.standings td.num, .standings th.num { text-align: right; font-variant-numeric: tabular-nums; }
.standings tr.cut td { border-top: 3px solid var(--st-text-color, #31333f); }
.standings .tag { display: inline-block; color: #fff; border-radius: 0.25rem;
  padding: 0 0.35rem; margin: 0 0.2rem 0.1rem 0; font-size: 0.8rem; line-height: 1.4; }
.standings .card h3 { font-size: 1.25rem; font-weight: 600; margin: 1rem 0 0.5rem; }
.standings .card p { margin: 0 0 0.5rem; }
.standings .card table { table-layout: auto; }
"""

JS = """
function standingsParts(body) {
  const q = (name) => body.querySelector(name);
  return {
    empty: q(".empty"), podium: q(".podium"), podiumWords: q(".podium-words"),
    cut: q(".cut"), legend: q(".legend"), progress: q(".progress"), tie: q(".tie"),
    controls: q(".controls"), findLabel: q(".find-label"), find: q(".find-input"),
    all: q(".all-input"), allLabel: q(".all-label"), noMatch: q(".no-match"),
    rows: q(".rows"), rowsLabel: q(".rows-label"), rowsSelect: q(".rows-select"),
    wrap: q(".wrap"), table: q(".table"), cols: q("colgroup"), head: q("thead tr"),
    tbody: q("tbody"), many: q(".many"), cards: q(".cards"),
    start: 0, cards_answer: null, cards_etag: null, cards_for: undefined, loading: false,
  };
}

function shown(text, node) {  // a line that shows only when it has words
  node.textContent = text || "";
  node.hidden = !text;
}

function standingsDraw(ui, answer, view) {
  const data = view.data, W = data.words;
  const rows = answer.standings;
  ui.empty.hidden = rows.length > 0;
  ui.empty.textContent = W.empty;
  for (const part of [ui.cut, ui.legend, ui.tie, ui.controls, ui.wrap])
    part.hidden = !rows.length;
  shown(rows.length ? answer.podium : "", ui.podiumWords);
  ui.podium.hidden = !rows.length || !answer.podium;
  shown(rows.length ? answer.cut : "", ui.cut);
  shown(rows.length ? answer.legend : "", ui.legend);
  shown(answer.progress, ui.progress);
  shown(rows.length && answer.tie_at_cut ? W.tie : "", ui.tie);
  if (!rows.length) {
    for (const part of [ui.noMatch, ui.rows, ui.many]) part.hidden = true;
    ui.cards.replaceChildren();
    return;
  }
  const query = ui.find.value.trim().split(/\\s+/).join(" ").toLowerCase();
  const found = query ? rows.filter((r) => String(r.player).toLowerCase().includes(query))
                      : rows;
  ui.noMatch.hidden = found.length > 0;
  ui.noMatch.textContent = found.length ? "" : fill(W.no_match, {query: ui.find.value.trim()});
  ui.wrap.hidden = !found.length;
  standingsTable(ui, answer, found, view);
  ui.many.hidden = !(query && found.length > data.cards);
  ui.many.textContent = ui.many.hidden ? "" : fill(W.many, {count: found.length});
  standingsCards(ui, query && found.length <= data.cards ? found : [], view);
}

function standingsTable(ui, answer, found, view) {
  const data = view.data;
  const every = ui.all.checked;
  const columns = data.columns.filter((c, i) => answer.columns.includes(c.key)
                                                && (every || i < data.compact));
  ui.table.classList.toggle("all", every);
  ui.cols.replaceChildren(...columns.map((c) => {
    const col = el("col");
    if (c.width) col.style.width = c.width + "px";
    return col;
  }));
  ui.head.replaceChildren(...columns.map((c) => {
    const th = el("th", c.label, c.number ? "num" : "");
    th.scope = "col";
    if (c.help) th.title = c.help;
    return th;
  }));
  // a long table: one page of rows at a time, chosen above it
  const per = data.page_rows, count = found.length;
  if (ui.start >= count) ui.start = 0;
  ui.rows.hidden = count <= per;
  if (count > per) {
    const starts = [];
    for (let s = 0; s < count; s += per) starts.push(s);
    const number = new Intl.NumberFormat(data.lang);
    ui.rowsSelect.replaceChildren(...starts.map((s) => {
      const option = el("option", fill(data.words.rows_of, {
        first: number.format(s + 1), last: number.format(Math.min(count, s + per)),
        rows: number.format(count)}));
      option.value = String(s);
      return option;
    }));
    ui.rowsSelect.value = String(ui.start);
  }
  const page = found.slice(ui.start, ui.start + per);
  let before = null;
  ui.tbody.replaceChildren(...page.map((row, i) => {
    const tr = el("tr");
    const zone = (row.zone || [])[0] || "";
    const previous = i ? ((page[i - 1].zone || [])[0] || "") : null;
    if (previous !== null && zone !== previous) tr.className = "cut";
    for (const c of columns) {
      const td = el("td", null, c.number ? "num" : "");
      const value = row[c.key];
      if (c.key === "zone") {
        for (const tag of value || []) {
          const known = data.tags[tag] || {words: tag, colour: "#616161"};
          const span = el("span", known.words, "tag");
          span.style.background = known.colour;
          td.appendChild(span);
        }
      } else if (c.key === "tie_at_cut") {
        td.textContent = value ? data.words.yes : "";
      } else {
        td.textContent = value === null || value === undefined ? "" : String(value);
      }
      tr.appendChild(td);
    }
    return tr;
  }));
}

async function standingsLoadCards(ui, view) {
  if (ui.loading) return;
  ui.loading = true;
  const wanted = view.etag();
  try {
    const got = await fetch(view.data.cards_url, {cache: "no-store",
      headers: ui.cards_etag ? {"If-None-Match": ui.cards_etag} : {}});
    if (got.status === 200) {
      ui.cards_answer = await got.json();
      ui.cards_etag = got.headers.get("ETag");
    }
    if (got.status === 200 || got.status === 304) ui.cards_for = wanted;
  } catch (e) { /* tried again with the next answer or keystroke */ }
  ui.loading = false;
  view.redraw();
}

function standingsCards(ui, found, view) {
  const W = view.data.words;
  if (!found.length) { ui.cards.replaceChildren(); return; }
  if (ui.cards_answer === null || ui.cards_for !== view.etag()) standingsLoadCards(ui, view);
  const by = new Map(((ui.cards_answer || {}).players || []).map((p) => [p.player, p]));
  ui.cards.replaceChildren(...found.map((row) => {
    const card = el("section", null, "card");
    card.appendChild(el("h3", row.player));
    const facts = by.get(row.player);
    if (!facts) return card;
    card.appendChild(boldParts(el("p"), facts.line));
    if (facts.said) card.appendChild(el("p", facts.said));
    if (facts.games.length) {
      const wrap = el("div", null, "wrap"), table = el("table");
      const head = el("tr");
      head.append(...headCells(W.games, (i) => i > 0));
      const thead = el("thead"), tbody = el("tbody");
      thead.appendChild(head);
      for (const g of facts.games) {
        const tr = el("tr");
        tr.appendChild(el("td", g.sitting));
        for (const v of [g.table, g.placing, g.vp, g.score])
          tr.appendChild(el("td", v === null ? "" : v, "num"));
        tbody.appendChild(tr);
      }
      table.append(thead, tbody);
      wrap.appendChild(table);
      card.appendChild(wrap);
    }
    return card;
  }));
}

export default function (component) {
  const body = component.parentElement.querySelector(".stsa-live-body");
  const ui = body.__standings || (body.__standings = standingsParts(body));
  const W = component.data.words;
  if (ui.cards_url !== component.data.cards_url) {  // another language: its own cards
    Object.assign(ui, {cards_url: component.data.cards_url, cards_answer: null,
                       cards_etag: null, cards_for: undefined});
  }
  ui.findLabel.textContent = W.find;
  ui.find.placeholder = W.placeholder;
  ui.find.setAttribute("aria-label", W.find);  // as Streamlit's own inputs are named
  ui.allLabel.textContent = W.all_columns;
  ui.all.title = W.all_columns_help;
  ui.rowsLabel.textContent = W.rows_shown;
  ui.table.setAttribute("aria-label", W.table);
  ui.table.setAttribute("lang", component.data.lang);  // hyphenation of its headings
  return follow(component, {render(answer, view) {
    ui.view = view;
    ui.find.oninput = () => { ui.start = 0; view.redraw(); };
    ui.all.onchange = () => view.redraw();
    ui.rowsSelect.onchange = () => { ui.start = Number(ui.rowsSelect.value) || 0; view.redraw(); };
    standingsDraw(ui, answer, view);
  }});
}
"""

ELEMENT = live_element.element("stsa_live_standings", html=HTML, css=CSS, js=JS)


def words(role: Role) -> dict:
    """The element's own words in this run's language (the same for every reader of it)."""
    return {
        "empty": _("No results yet: the standings appear once the first qualifier results "
                   "are in (judges enter them on the Results page)."),
        # the organizer sees the ties as warnings above the element, naming the players
        "tie": "" if role is Role.ORGANIZER else _(
            "A rank is shared across a cut line (“Tie at cut” under All columns): the "
            "organizer settles it before the finals."),
        "find": _("Find a player"), "placeholder": _("Type part of a name"),
        "all_columns": _("All columns"),
        "all_columns_help": _("Also wins, the placing and VP of each player's best game, and "
                              "once the final is in, the rank after the qualifiers"),
        "no_match": _("No player's name contains “{query}”."),
        "many": _("{count} players match: type more of a name to see their games."),
        "rows_shown": _("Rows shown"), "rows_of": _("{first}–{last} of {rows}"),
        "table": _("Standings"), "yes": _("Yes"), "games": [_(g) for g in GAMES],
    }


def show(reads: data.Data) -> None:
    """The Standings page's live element, following `live/standings` in this run's language."""
    answer = live_element.page_answer("standings", reads)
    key = session.tournament_key() or ""
    numbers = {"rank", "best_score", "games", "wins", "qualifier_rank", "placing", "vp"}
    ELEMENT(answer, key="live_standings", time_zone=str(reads.settings().zone), data={
        "words": words(session.role()), "lang": i18n.current(), "compact": COMPACT,
        "cards": CARDS, "page_rows": tables.PAGE_ROWS,
        "cards_url": live_element.url(key, "cards"),
        "columns": [{"key": k, "label": _(label), "help": _(help) if help else "",
                     "width": width, "number": k in numbers}
                    for k, label, help, width in COLUMNS],
        "tags": {tag: {"words": str(i18n.cell(tag)), "colour": colour}
                 for tag, colour in live.ZONE_TAGS.items()}})
