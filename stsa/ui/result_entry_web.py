"""The result entry's browser side (`ui.result_entry`): its HTML, CSS and JavaScript.

`RULES_JS` holds the rules the preview applies, as pure functions of plain values (no page,
no state), so that a test runs the very same text in a browser and compares it with
`stsa.rules.score_games` (R11, R12) and `services.results` (full ties, unusual numbers):

- `scoreTable(rows, basePoints)` → each row's `{placing, qualifier_score, tied}`;
- `fullTies(rows)` → the indices of the rows equal on all five to another filled row;
- `unusualNumbers(rows, usualMax)` → `{index, field, number}` above a usual game's, by seat.

`JS` is the element: it draws each seat (player, colour, leader, numbers), keeps what the
judge types in the page and in the browser's storage until the server has saved it, shows the
preview, the settled order, the ticks and Save, and sends the whole entry once. Every word
comes in the data from Python; every text goes in with `textContent`, never as markup.
"""

from __future__ import annotations

HTML = """<div class="stsa-entry">
<div class="stsa-restored stsa-note" hidden><p class="stsa-restored-text"></p>
<button type="button" class="stsa-discard"></button></div>
<div class="stsa-seats"></div>
<div class="stsa-ties" hidden><p class="stsa-warn stsa-ties-text"></p>
<div class="stsa-orders"></div></div>
<div class="stsa-preview"><p class="stsa-preview-title"></p>
<p class="stsa-caption stsa-preview-note"></p>
<table class="stsa-preview-table" hidden><thead><tr></tr></thead><tbody></tbody></table></div>
<div class="stsa-unusual" hidden><p class="stsa-warn stsa-unusual-text"></p>
<label class="stsa-tick"><input type="checkbox" class="stsa-unusual-tick">
<span class="stsa-unusual-label"></span></label></div>
<div class="stsa-ticks"></div>
<button type="button" class="stsa-save" hidden></button>
<p class="stsa-caption stsa-why" aria-live="polite" hidden></p>
<p class="stsa-caption stsa-unsaved" hidden></p>
</div>"""

CSS = """
.stsa-entry [hidden] { display: none !important; }
.stsa-entry { font-family: var(--st-font, inherit); color: var(--st-text-color, inherit);
  font-size: 1rem; line-height: 1.4; }
.stsa-entry p { margin: 0.3rem 0; }
.stsa-seat { border: 1px solid var(--st-border-color, rgba(49, 51, 63, 0.2));
  border-radius: var(--st-base-radius, 0.5rem); margin: 0 0 0.5rem 0;
  padding: 0.4rem 0.6rem 0.6rem; }
.stsa-seat legend { padding: 0 0.25rem; }
.stsa-swatch { display: inline-block; width: 0.8em; height: 0.8em; margin-right: 0.25em;
  border: 1px solid rgba(0, 0, 0, 0.4); vertical-align: -0.05em; }
.stsa-entry select, .stsa-entry input[type="text"] { font-size: 16px; font-family: inherit;
  color: inherit; background: var(--st-secondary-background-color, #f0f2f6);
  border: 1px solid var(--st-widget-border-color, transparent);
  border-radius: var(--st-base-radius, 0.5rem); min-height: 2.75rem; box-sizing: border-box; }
.stsa-entry select { width: 100%; padding: 0 0.5rem; margin-bottom: 0.4rem; }
.stsa-numbers { display: grid; gap: 0.3rem;
  grid-template-columns: repeat(var(--fields, 5), minmax(0, 1fr)); }
.stsa-number { display: flex; flex-direction: column; min-width: 0; font-size: 0.8rem; }
.stsa-number span { white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.stsa-number input { width: 100%; text-align: center; padding: 0 0.2rem; }
.stsa-order { display: flex; flex-direction: column; max-width: 22rem; margin: 0.3rem 0;
  font-size: 0.9rem; }
.stsa-order input { width: 6rem; text-align: center; }
.stsa-warn, .stsa-note { background: var(--st-yellow-background-color, #fffce7);
  color: var(--st-yellow-text-color, #926c05); border-radius: var(--st-base-radius, 0.5rem);
  padding: 0.5rem 0.75rem; }
.stsa-note { background: var(--st-blue-background-color, #e6f0fa);
  color: var(--st-blue-text-color, #0054a3); padding: 0.25rem 0.75rem 0.5rem; }
.stsa-caption { font-size: 0.875rem; opacity: 0.8; }
.stsa-preview { margin: 0.6rem 0; }
.stsa-preview-table { border-collapse: collapse; width: 100%; font-size: 0.95rem; }
.stsa-preview-table th, .stsa-preview-table td { text-align: left; padding: 0.25rem 0.4rem;
  border-bottom: 1px solid var(--st-border-color, rgba(49, 51, 63, 0.2)); }
.stsa-preview-table th { font-weight: 600; }
.stsa-tick { display: flex; gap: 0.5rem; align-items: center; margin: 0.4rem 0;
  min-height: 2.2rem; cursor: pointer; }
.stsa-tick input { width: 1.2rem; height: 1.2rem; }
.stsa-entry button { font-size: 1rem; font-family: inherit; min-height: 2.75rem;
  border-radius: var(--st-button-radius, 0.5rem); padding: 0.3rem 1rem; cursor: pointer;
  border: 1px solid var(--st-border-color, rgba(49, 51, 63, 0.2));
  background: var(--st-background-color, #fff); color: inherit; }
.stsa-entry button.stsa-save { width: 100%; margin-top: 0.4rem; color: #fff;
  background: var(--st-primary-color, #ff4b4b); border-color: var(--st-primary-color, #ff4b4b); }
.stsa-entry button:disabled { opacity: 0.5; cursor: not-allowed; }
.stsa-entry :focus-visible { outline: 2px solid var(--st-primary-color, #ff4b4b);
  outline-offset: 1px; }
"""

#: The rules of the preview, pure (R11, R12): the same text runs in the element and in the
#: tests that compare it with `stsa.rules.score_games`.
RULES_JS = r"""
const STATS = ["vp", "spice", "solari", "troops", "water"];

function isWhole(value) { return Number.isInteger(value); }

// A row's five in order of strength (higher is better in each).
function strengthOrder(a, b) {
  for (const field of STATS) {
    if (a[field] !== b[field]) return b[field] - a[field];
  }
  return 0;
}

// As `stsa.rules.score_games` for one game: `rows` hold whole numbers `vp, spice,
// solari, troops, water`, optional `variant_points` and `tiebreak` (a settled order, lower
// first; null when none). Returns, in the rows' order, {placing, qualifier_score, tied}.
function scoreTable(rows, basePoints) {
  const count = rows.length;
  const settled = (i) => (isWhole(rows[i].tiebreak) ? rows[i].tiebreak : null);
  const settling = rows.some((row, i) => settled(i) !== null);
  // The game's order: the five, then the settled order (unset last), then the row's place.
  const order = rows.map((row, i) => i).sort((a, b) => {
    const strength = strengthOrder(rows[a], rows[b]);
    if (strength !== 0) return strength;
    const ta = settled(a), tb = settled(b);
    if (ta !== tb) return ta === null ? 1 : tb === null ? -1 : ta - tb;
    return a - b;
  });
  const same = order.map((row, j) => j > 0 && strengthOrder(rows[row], rows[order[j - 1]]) === 0);
  // A group equal on all five stays tied unless every member has a distinct settled order.
  let open = order.map(() => true);
  if (settling) {
    const t = order.map((row) => settled(row));
    open = t.map((value, j) => value === null || (j > 0 && same[j] && value === t[j - 1]));
    for (let j = 1; j < count; j++) open[j] = open[j] || (same[j] && open[j - 1]);
    for (let j = count - 2; j >= 0; j--) open[j] = open[j] || (same[j + 1] && open[j + 1]);
  }
  const shares = same.map((value, j) => value && open[j]);
  const placing = [];
  order.forEach((row, j) => { placing.push(shares[j] ? placing[j - 1] : j + 1); });
  const vp = order.map((row) => rows[row].vp);
  const out = new Array(count);
  order.forEach((row, j) => {
    const place = placing[j];
    // Base points, the VP margin to the player at the next position, variant points.
    const hasNext = place < count && place <= 3;
    const margin = hasNext ? vp[j] - vp[place] : 0;
    const variant = isWhole(rows[row].variant_points) ? rows[row].variant_points : 0;
    out[row] = { placing: place, qualifier_score: basePoints[place - 1] + margin + variant,
                 tied: shares[j] || (j + 1 < count && shares[j + 1]) };
  });
  return out;
}

// The rows (by index) equal on all five to another row, among rows with all five whole.
function fullTies(rows) {
  const filled = rows.map((row) => STATS.every((field) => isWhole(row[field])));
  const key = (row) => STATS.map((field) => row[field]).join(",");
  const seen = new Map();
  rows.forEach((row, i) => {
    if (filled[i]) seen.set(key(row), (seen.get(key(row)) || 0) + 1);
  });
  return rows.map((row, i) => i).filter((i) => filled[i] && seen.get(key(rows[i])) > 1);
}

// The numbers above a usual game's (`usualMax`: field -> most), row by row (rows in seat
// order), each row's fields in the order of `usualMax`.
function unusualNumbers(rows, usualMax) {
  const found = [];
  rows.forEach((row, index) => {
    for (const [field, most] of Object.entries(usualMax)) {
      const number = row[field];
      if (typeof number === "number" && Number.isFinite(number) && number > most) {
        found.push({ index, field, number });
      }
    }
  });
  return found;
}
"""

JS = RULES_JS + r"""
const NUMBERS = ["vp", "spice", "solari", "troops", "water", "variant_points"];
const KEPT_HOURS = 24;  // a draft older than this is forgotten
// This page's life (one per loaded page): a draft written by another, earlier one is put back
// with words that say so, never silently, even under the same form.
const PAGE_LIFE = Math.random().toString(36).slice(2) + Date.now().toString(36);

// Text, with "**bold**" parts in <strong> and {name} filled from `values`: all as text nodes.
function fill(element, template, values) {
  element.replaceChildren();
  String(template || "").split("**").forEach((part, i) => {
    const text = part.replace(/\{(\w+)\}/g, (whole, name) =>
      (values && name in values ? String(values[name]) : whole));
    if (!text) return;
    if (i % 2) {
      const strong = document.createElement("strong");
      strong.textContent = text;
      element.appendChild(strong);
    } else {
      element.appendChild(document.createTextNode(text));
    }
  });
}

function words(template, values) {
  return String(template || "").replace(/\{(\w+)\}/g, (whole, name) =>
    (values && name in values ? String(values[name]) : whole));
}

// What a field holds: null when blank, a whole number, or the text as typed (the server's
// check names it).
function parsed(raw) {
  const text = String(raw === null || raw === undefined ? "" : raw).trim();
  if (text === "") return null;
  if (/^[-\u2212]?\d{1,9}$/.test(text)) return Number(text.replace("\u2212", "-"));
  return text;
}

function storage() {
  try { return window.localStorage; } catch (error) { return null; }
}

function readDraft(key) {
  const kept = storage();
  if (!kept) return null;
  try {
    const draft = JSON.parse(kept.getItem(key) || "null");
    if (!draft || typeof draft !== "object" || !draft.values || !draft.base) return null;
    if (!(Date.now() - draft.at < KEPT_HOURS * 3600 * 1000)) { kept.removeItem(key); return null; }
    return draft;
  } catch (error) { return null; }
}

function writeDraft(key, draft) {
  const kept = storage();
  if (!kept) return;
  try { kept.setItem(key, JSON.stringify(draft)); } catch (error) { /* full: not kept */ }
}

function dropDraft(key) {
  const kept = storage();
  if (kept) { try { kept.removeItem(key); } catch (error) { /* nothing to drop */ } }
}

function clockWords(at, zone) {  // "14:05", in the tournament's time zone
  try {
    return new Intl.DateTimeFormat("en-GB", { timeZone: zone || undefined, hour: "2-digit",
      minute: "2-digit", hourCycle: "h23" }).format(new Date(at));
  } catch (error) {
    return new Date(at).toTimeString().slice(0, 5);
  }
}

export default function (component) {
  const { data, parentElement, setTriggerValue } = component;
  const root = parentElement.querySelector(".stsa-entry");
  const say = data.words;
  const kept = root.__stsa || (root.__stsa = { token: null, sent: 0, busy: false });
  const seats = data.seats;
  const part = (name) => root.querySelector(name);
  root.dataset.table = String(data.table_id);
  // The judges' table times on the page (`ui.table_clock`) learn which tables still wait.
  window.__stsaWaiting = { sitting: data.sitting_id, tables: data.waiting };
  window.dispatchEvent(new CustomEvent("stsa-waiting", { detail: window.__stsaWaiting }));

  // --- the values: the server's, or the judge's draft kept in this browser --------------------
  function fromData() {
    const values = {};
    for (const seat of seats) {
      const given = data.values[String(seat.player_id)] || {};
      const row = { leader: given.leader || "" };
      for (const field of [...NUMBERS, "tiebreak"]) {
        const value = given[field];
        row[field] = value === null || value === undefined ? "" : String(value);
      }
      values[seat.player_id] = row;
    }
    return values;
  }

  function current(values, fallback) {
    // Every seated player's row, as text; a player missing from `values` (new at the table
    // since the draft was typed) takes the server's.
    const out = {};
    for (const seat of seats) {
      const row = (values && values[seat.player_id]) || fallback[seat.player_id];
      out[seat.player_id] = { leader: row.leader || "" };
      for (const field of [...NUMBERS, "tiebreak"]) {
        out[seat.player_id][field] = row[field] === null || row[field] === undefined
          ? "" : String(row[field]);
      }
    }
    return out;
  }

  function numbersOf(values) {
    return seats.map((seat) => {
      const row = { player_id: seat.player_id, seat: seat.seat };
      for (const field of NUMBERS) row[field] = parsed(values[seat.player_id][field]);
      row.tiebreak = parsed(values[seat.player_id].tiebreak);
      return row;
    });
  }

  function tiedSeats(values) {
    return new Set(fullTies(numbersOf(values)).map((i) => seats[i].player_id));
  }

  // What a comparison of two entries looks at (the settled order only where a tie needs it).
  function signature(values) {
    const tied = tiedSeats(values);
    return JSON.stringify(seats.map((seat) => {
      const row = values[seat.player_id];
      return [row.leader, ...NUMBERS.map((f) => String(row[f]).trim()),
              tied.has(seat.player_id) ? String(row.tiebreak).trim() : ""];
    }));
  }

  const given = fromData();
  if (kept.token !== data.token) {
    const draft = readDraft(data.draft_key);
    kept.restoredAt = null;
    if (data.reset || !draft) {
      if (draft) dropDraft(data.draft_key);
      kept.values = current(given, given);
      kept.base = data.base;
    } else if (draft.token === data.token && draft.page === PAGE_LIFE) {
      // the element was drawn again in this page's life, as the judge typed: go on silently
      kept.values = current(draft.values, given);
      kept.base = draft.base;
    } else if (signature(current(draft.values, given)) !== signature(given)) {
      kept.values = current(draft.values, given);  // an unsaved entry from before a reload
      kept.base = draft.base;
      kept.restoredAt = draft.at;
    } else {
      dropDraft(data.draft_key);
      kept.values = current(given, given);
      kept.base = data.base;
    }
    kept.token = data.token;
    kept.ticks = {};
    kept.impactToken = null;
    kept.changed = false;
  } else {
    kept.values = current(kept.values, given);
  }
  for (const key of data.forget || []) if (key !== data.draft_key) dropDraft(key);
  if (data.answered >= kept.sent) kept.busy = false;

  // --- drawing: built again only when what is asked changes -----------------------------------
  const shape = JSON.stringify([seats, data.fields, data.leaders, say, data.ticks]);
  if (kept.shape !== shape) {
    kept.shape = shape;
    const box = part(".stsa-seats");
    box.replaceChildren();
    for (const seat of seats) {
      const set = document.createElement("fieldset");
      set.className = "stsa-seat";
      set.dataset.seat = String(seat.seat);
      const legend = document.createElement("legend");
      if (seat.swatch) {
        const swatch = document.createElement("span");
        swatch.className = "stsa-swatch";
        swatch.style.backgroundColor = seat.swatch;
        swatch.setAttribute("aria-hidden", "true");
        legend.appendChild(swatch);
      }
      const head = document.createElement("span");
      fill(head, say.seat, { seat: seat.seat, colour: seat.colour, player: seat.name });
      legend.appendChild(head);
      set.appendChild(legend);
      const leader = document.createElement("select");
      leader.setAttribute("aria-label", say.leader);
      leader.dataset.player = String(seat.player_id);
      leader.dataset.field = "leader";
      const none = document.createElement("option");
      none.value = "";
      none.textContent = say.choose_leader;
      leader.appendChild(none);
      const stored = kept.values[seat.player_id].leader;
      const offered = [...data.leaders];
      if (stored && !offered.includes(stored)) offered.push(stored);
      for (const name of offered) {
        const option = document.createElement("option");
        option.value = name;
        option.textContent = name;
        leader.appendChild(option);
      }
      set.appendChild(leader);
      const numbers = document.createElement("div");
      numbers.className = "stsa-numbers";
      numbers.style.setProperty("--fields", String(data.fields.length));
      for (const field of data.fields) {
        const label = document.createElement("label");
        label.className = "stsa-number";
        const name = document.createElement("span");
        name.textContent = say.fields[field];
        const input = document.createElement("input");
        input.type = "text";
        // Variant points may be negative, and phones' number pads often lack a minus sign.
        input.inputMode = field === "variant_points" ? "text" : "numeric";
        input.autocomplete = "off";
        input.maxLength = 8;
        input.setAttribute("aria-label", say.fields[field]);
        if (say.help[field]) input.title = say.help[field];
        input.dataset.player = String(seat.player_id);
        input.dataset.field = field;
        label.append(name, input);
        numbers.appendChild(label);
      }
      set.appendChild(numbers);
      box.appendChild(set);
    }
    const headings = part(".stsa-preview-table thead tr");
    headings.replaceChildren();
    for (const name of ["placing", "seat", "player", "vp", "score", "tied"]) {
      const th = document.createElement("th");
      th.scope = "col";
      th.textContent = say.headings[name];
      headings.appendChild(th);
    }
    part(".stsa-orders").replaceChildren();
    const ticks = part(".stsa-ticks");
    ticks.replaceChildren();
    for (const tick of [...data.ticks, { name: "after_finals", label: say.after_finals }]) {
      const label = document.createElement("label");
      label.className = "stsa-tick";
      label.dataset.tick = tick.name;
      const box2 = document.createElement("input");
      box2.type = "checkbox";
      box2.dataset.tick = tick.name;
      const text = document.createElement("span");
      text.textContent = tick.label;
      label.append(box2, text);
      ticks.appendChild(label);
    }
    fill(part(".stsa-preview-title"), say.preview);
    part(".stsa-unusual-label").textContent = say.unusual_tick;
    part(".stsa-discard").textContent = say.discard;
  }
  part(".stsa-save").textContent = say.save;
  part(".stsa-save").hidden = false;  // named now: no nameless button before the script runs

  // --- values into the fields (only where they differ: a caret stays where it is) -----------
  for (const input of root.querySelectorAll(".stsa-seats [data-field]")) {
    const value = kept.values[input.dataset.player][input.dataset.field];
    if (input.value !== value) input.value = value;
  }
  for (const input of root.querySelectorAll(".stsa-ticks input")) {
    input.checked = !!kept.ticks[input.dataset.tick];
  }

  // The organizer's tick after the finals are drawn: offered for the values it was worked out
  // for (the ones last sent), and hidden again once a number changes.
  if (data.impact && data.impact !== kept.impactToken) {
    kept.impactToken = data.impact;
    kept.impactFor = kept.lastSent || signature(kept.values);
    kept.ticks.after_finals = false;
  }
  if (!data.impact) kept.impactToken = null;

  function orders(tied) {
    const box = part(".stsa-orders");
    const shown = [...box.querySelectorAll("input")].map((i) => Number(i.dataset.player));
    const wanted = seats.filter((seat) => tied.has(seat.player_id));
    if (JSON.stringify(shown) !== JSON.stringify(wanted.map((s) => s.player_id))) {
      box.replaceChildren();
      for (const seat of wanted) {
        const label = document.createElement("label");
        label.className = "stsa-order";
        const name = document.createElement("span");
        name.textContent = words(say.order, { seat: seat.seat, player: seat.name });
        const input = document.createElement("input");
        input.type = "text";
        input.inputMode = "numeric";
        input.autocomplete = "off";
        input.maxLength = 2;
        input.setAttribute("aria-label", name.textContent);
        input.dataset.player = String(seat.player_id);
        input.dataset.field = "tiebreak";
        input.value = kept.values[seat.player_id].tiebreak;
        input.disabled = !!data.frozen;
        label.append(name, input);
        box.appendChild(label);
      }
    }
    part(".stsa-ties").hidden = wanted.length === 0;
    fill(part(".stsa-ties-text"), say.tie, { seats: wanted.map((s) => s.seat).join(", ") });
  }

  function preview(rows, tied) {
    const note = part(".stsa-preview-note"), table = part(".stsa-preview-table");
    const blanks = [];
    rows.forEach((row, i) => {
      for (const field of data.fields) {
        if (row[field] === null) blanks.push(words(say.blank_field, { seat: seats[i].seat,
                                                                     field: say.fields[field] }));
      }
    });
    table.hidden = true;
    if (blanks.length) {
      const more = blanks.length - 6;
      const listed = blanks.slice(0, 6).join(", ");
      note.textContent = more > 0
        ? words(say.blank_more[String(more)] || say.blank_more.many,
                { fields: listed, count: more })
        : words(say.blank, { fields: listed });
      return;
    }
    const scorable = rows.every((row) => STATS.every((f) => isWhole(row[f]) && row[f] >= 0)
      && (row.variant_points === null || isWhole(row.variant_points)));
    if (!scorable) { note.textContent = say.unscorable; return; }
    const scored = scoreTable(rows.map((row) => ({ ...row,
      tiebreak: tied.has(row.player_id) && isWhole(row.tiebreak) ? row.tiebreak : null })),
      data.base_points);
    note.textContent = "";
    const lines = rows.map((row, i) => ({ row, seat: seats[i], ...scored[i] }))
      .sort((a, b) => a.placing - b.placing || a.seat.seat - b.seat.seat);
    const body = table.querySelector("tbody");
    body.replaceChildren();
    for (const line of lines) {
      const tr = document.createElement("tr");
      tr.dataset.player = String(line.seat.player_id);
      for (const value of [line.placing, line.seat.seat, line.seat.name, line.row.vp,
                           line.qualifier_score, line.tied ? "\u2713" : ""]) {
        const td = document.createElement("td");
        td.textContent = String(value);
        tr.appendChild(td);
      }
      body.appendChild(tr);
    }
    table.hidden = false;
  }

  function confirmations(unusual) {
    const confirm = {};
    for (const tick of data.ticks) confirm[tick.name] = !!kept.ticks[tick.name];
    confirm.unusual = unusual.length > 0 && !!kept.ticks.unusual;
    confirm.after_finals = !!data.impact && kept.impactFor === signature(kept.values)
      && !!kept.ticks.after_finals;
    return confirm;
  }

  function update() {
    const rows = numbersOf(kept.values);
    const tied = tiedSeats(kept.values);
    orders(tied);
    preview(rows, tied);
    const unusual = unusualNumbers(rows, data.usual_max);
    const listed = unusual.map((u) => words(say.unusual_one, { seat: seats[u.index].seat,
      player: seats[u.index].name, field: say.number_words[u.field], number: u.number }));
    const unusualKey = JSON.stringify(listed);
    if (kept.unusualKey !== unusualKey) {  // other numbers ask again
      kept.unusualKey = unusualKey;
      kept.ticks.unusual = false;
    }
    part(".stsa-unusual-tick").checked = !!kept.ticks.unusual;
    part(".stsa-unusual").hidden = !listed.length;
    part(".stsa-unusual-text").textContent = words(say.unusual, { numbers: listed.join("; ") });
    const late = root.querySelector('.stsa-ticks label[data-tick="after_finals"]');
    late.hidden = !(data.impact && kept.impactFor === signature(kept.values));
    const confirm = confirmations(unusual);
    // The ticks Save still waits for, in the order they show: the first is named beside it.
    const missing = [...data.ticks.filter((tick) => !confirm[tick.name]).map((t) => t.label),
      ...(listed.length && !confirm.unusual ? [say.unusual_tick] : []),
      ...(!late.hidden && !confirm.after_finals ? [say.after_finals] : [])];
    const ticked = missing.length === 0;
    const save = part(".stsa-save");
    save.disabled = !!data.locked || !!data.frozen || kept.busy || !ticked;
    const why = part(".stsa-why");
    why.hidden = ticked || !!data.locked || !!data.frozen;
    why.textContent = ticked ? "" : words(say.why, { tick: missing[0] });
    save.setAttribute("aria-busy", kept.busy ? "true" : "false");
    const fields = "[data-field], .stsa-ticks input, .stsa-unusual-tick";
    for (const field of root.querySelectorAll(fields)) field.disabled = !!data.frozen;
    part(".stsa-ticks").hidden = !!data.frozen;  // the choice of which result stands asks them
    const unsaved = signature(kept.values) !== signature(given);
    part(".stsa-unsaved").hidden = !unsaved;
    part(".stsa-unsaved").textContent = say.unsaved;
    const restored = part(".stsa-restored");
    restored.hidden = !kept.restoredAt;
    if (kept.restoredAt) {
      part(".stsa-restored-text").textContent = words(say.restored,
        { time: clockWords(kept.restoredAt, data.zone) });
    }
    if (unsaved) {
      writeDraft(data.draft_key, { token: kept.token, page: PAGE_LIFE,
        at: kept.restoredAt && !kept.changed ? kept.restoredAt : Date.now(), base: kept.base,
        values: kept.values });
    } else {
      dropDraft(data.draft_key);
    }
  }

  root.oninput = (event) => {
    const field = event.target.dataset && event.target.dataset.field;
    if (field) {
      kept.values[event.target.dataset.player][field] = event.target.value;
      kept.changed = true;
    } else if (event.target.dataset && event.target.dataset.tick) {
      kept.ticks[event.target.dataset.tick] = event.target.checked;
    } else if (event.target.classList.contains("stsa-unusual-tick")) {
      kept.ticks.unusual = event.target.checked;
    }
    update();
  };
  root.onchange = root.oninput;
  part(".stsa-discard").onclick = () => {
    dropDraft(data.draft_key);
    kept.values = current(given, given);
    kept.base = data.base;
    kept.restoredAt = null;
    kept.changed = false;
    for (const input of root.querySelectorAll(".stsa-seats [data-field]")) {
      input.value = kept.values[input.dataset.player][input.dataset.field];
    }
    update();
  };
  part(".stsa-save").onclick = () => {
    if (kept.busy) return;
    const rows = numbersOf(kept.values);
    const tied = tiedSeats(kept.values);
    const unusual = unusualNumbers(rows, data.usual_max);
    kept.sent = Math.max(kept.sent, data.answered) + 1;
    kept.busy = true;
    kept.lastSent = signature(kept.values);
    setTriggerValue("save", {
      sent: kept.sent, token: kept.token, base: kept.base, confirm: confirmations(unusual),
      rows: rows.map((row) => ({ player_id: row.player_id,
        leader: kept.values[row.player_id].leader || null,
        ...Object.fromEntries(NUMBERS.map((f) => [f, row[f]])),
        tiebreak: tied.has(row.player_id) ? row.tiebreak : null })),
    });
    update();
  };
  update();
}
"""
