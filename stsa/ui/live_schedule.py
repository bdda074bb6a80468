"""The Schedule page's live element (R26): what comes next (chosen by the browser's clock from
every item's start: `services.schedule.coming_up`) and the plan by day, a table a day, in the
tournament's time zone, drawn in the browser from the `live/schedule` answer; an empty plan
says so. The organizer's forms and the calendar file stay on the page's own run
(`views/schedule.py`)."""

from __future__ import annotations

from stsa.domain import Role
from stsa.i18n import _
from stsa.services import schedule as service
from stsa.ui import data, live_element, live_home

HTML = f"""<div class="plan">
<div class="empty info" hidden>{live_home.SCHEDULE}<span class="empty-words"></span></div>
<p class="next" hidden>{live_home.SCHEDULE}<span class="next-words"></span></p>
<div class="days"></div>
<p class="caption zone-note" hidden></p>
</div>"""

CSS = """
.plan [hidden] { display: none !important; }
.plan .icon { width: 1.2em; height: 1.2em; fill: currentColor; flex: none;
  vertical-align: -0.2em; margin-right: 0.4rem; }
.plan .info { background: var(--st-blue-background-color, #e8f0fb);
  color: var(--st-blue-text-color, #0d3c74); border-radius: 0.5rem; padding: 0.75rem 1rem;
  margin: 0 0 1rem; display: flex; align-items: flex-start; }
.plan p { margin: 0 0 1rem; }
.plan .caption { font-size: 0.875rem; opacity: 0.8; }
.plan h3 { font-size: var(--st-heading-font-size-3, 1.5rem); font-weight: 600;
  margin: 1rem 0 0.5rem; line-height: 1.3; }
.plan .wrap { overflow-x: auto; margin: 0 0 1rem;
  border: 1px solid var(--st-dataframe-border-color, #e6e9ef); border-radius: 0.5rem; }
.plan table { border-collapse: collapse; width: 100%; font-size: 0.875rem; }
.plan th, .plan td { padding: 0.3rem 0.5rem; text-align: left; vertical-align: top;
  overflow-wrap: anywhere; border-bottom: 1px solid var(--st-dataframe-border-color, #e6e9ef); }
.plan th { font-weight: 600; background: var(--st-dataframe-header-background-color, #f7f8fa); }
.plan .num { text-align: right; font-variant-numeric: tabular-nums; }
"""

JS = """
function planDraw(ui, answer, view) {
  const W = view.data.words, items = answer.items;
  ui.empty.hidden = items.length > 0;
  ui.emptyWords.textContent = W.empty;
  const next = () => {
    const words = items.length ? comingNext(answer.coming, view.now(), answer.time_zone) : "";
    ui.nextWords.textContent = words;
    ui.next.hidden = !words;
  };
  next();
  clearInterval(ui.timer);
  ui.timer = setInterval(next, 15000);  // an item starting moves "next" on
  const days = [];
  for (const item of items) {
    if (!days.length || days[days.length - 1].day !== item.day)
      days.push({day: item.day, items: []});
    days[days.length - 1].items.push(item);
  }
  ui.days.replaceChildren(...days.map((day) => {
    const part = el("section");
    part.appendChild(el("h3", day.day));
    const wrap = el("div", null, "wrap"), table = el("table");
    table.setAttribute("aria-label", day.day);
    const head = el("tr");
    head.append(...headCells(W.columns, (i) => i === 3));
    const thead = el("thead"), tbody = el("tbody");
    thead.appendChild(head);
    for (const item of day.items) {
      const tr = el("tr");
      tr.append(el("td", item.starts), el("td", item.ends), el("td", item.title),
                el("td", item.minutes === null ? "" : item.minutes, "num"));
      tbody.appendChild(tr);
    }
    table.append(thead, tbody);
    wrap.appendChild(table);
    part.appendChild(wrap);
    return part;
  }));
  ui.zoneNote.textContent = items.length ? answer.zone_note : "";
  ui.zoneNote.hidden = !items.length;
}

export default function (component) {
  const body = component.parentElement.querySelector(".stsa-live-body");
  const q = (name) => body.querySelector(name);
  const ui = body.__plan || (body.__plan = {
    empty: q(".empty"), emptyWords: q(".empty-words"), next: q(".next"),
    nextWords: q(".next-words"), days: q(".days"), zoneNote: q(".zone-note"), timer: null});
  const stop = follow(component, {render(answer, view) { planDraw(ui, answer, view); }});
  return () => { stop(); clearInterval(ui.timer); };
}
"""

ELEMENT = live_element.element("stsa_live_schedule", html=HTML, css=CSS, js=JS)


def show(reads: data.Data, role: Role) -> None:
    """The Schedule page's live element, following `live/schedule` in this run's language."""
    empty = (_("Nothing is on the schedule yet. Plan the sittings and the rest of the day "
               "above.") if role is Role.ORGANIZER else
             _("Nothing is on the schedule yet. The organizer's plan for the day shows here."))
    ELEMENT(live_element.page_answer("schedule", reads), key="live_schedule",
            time_zone=str(reads.settings().zone),
            data={"words": {"empty": empty,
                            "columns": [_(w) for w in service.SHOWN.values()]}})
