"""The published results as static pages (README, "Publishing results"): HTML written from
the data feed's answers (`services.feed`), so the pages hold exactly what the feed gives and
nothing else (nicknames only, R20, R22), and one zip of them with the feed's JSON and CSV and
the charts.

The pages open from the file system with no server and no network: every link is relative,
the style is inline, there are no scripts, fonts or images from elsewhere (the charts are
files of the zip). Every text a person typed (nicknames, the tournament's name and venue, a
rule change) is HTML-escaped here, in `text`, and nowhere else.

No database and no Streamlit: `services.archive` gathers the answers and calls these.
"""

from __future__ import annotations

import html
import io
import zipfile
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from stsa.domain import FINALS_STATUS_LABELS, FinalsStatus, Kind, sitting_label

INDEX = "index.html"
STANDINGS = "standings.html"
FINALS = "finals.html"
CHARTS = "charts.html"
SITTINGS_DIR = "sittings"
CHARTS_DIR = "charts"
DATA_DIR = "data"

STYLE = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:#1f1f1f;
background:#fbf8f3;line-height:1.45}
header{background:#8c4a1c;color:#fff;padding:.8rem 1.2rem}
header a{color:#fff}
nav{display:flex;flex-wrap:wrap;gap:.4rem 1.2rem;margin-top:.4rem}
main{padding:1rem 1.2rem;max-width:60rem}
h1{margin:0;font-size:1.5rem}
h2{margin-top:1.6rem;font-size:1.2rem}
table{border-collapse:collapse;margin:.6rem 0 1rem;font-size:.95rem}
th,td{border:1px solid #d6cfc4;padding:.25rem .55rem;text-align:left;vertical-align:top}
th{background:#efe7db}
td.n{text-align:right}
.note{color:#555}
img{max-width:100%;height:auto;background:#fff;border:1px solid #d6cfc4}
footer{padding:1rem 1.2rem;color:#555;font-size:.85rem}
""".strip()


def text(value: Any) -> str:
    """Any value as HTML text: escaped (quotes too), None as ""; yes/no for flags."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else ""
    return html.escape(str(value), quote=True)


def sitting_file(ref: str) -> str:
    """A sitting's page in the archive ("sittings/qualifier-2.html")."""
    return f"{SITTINGS_DIR}/{ref}.html"


def _up(depth: int) -> str:
    return "../" * depth


def link(href: str, words: Any, depth: int = 0) -> str:
    """A relative link from a page `depth` folders down to `href` (a path in the archive)."""
    return f'<a href="{text(_up(depth) + href)}">{text(words)}</a>'


def table(headings: Sequence[str], rows: Iterable[Sequence[Any]],
          numbers: Iterable[str] = ()) -> str:
    """An HTML table, every cell escaped; the columns named in `numbers` right-aligned.
    A cell given as `Html` is written as it is (a link made by `link`)."""
    right = {i for i, h in enumerate(headings) if h in set(numbers)}
    head = "".join(f"<th>{text(h)}</th>" for h in headings)
    body = "".join(
        "<tr>" + "".join(
            f'<td{" class=n" if i in right else ""}>'
            f'{c.markup if isinstance(c, Html) else text(c)}</td>'
            for i, c in enumerate(row)) + "</tr>"
        for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


class Html:
    """Markup already made safe here (a link), kept as it is in a table cell."""

    def __init__(self, markup: str):
        self.markup = markup


def page(title: str, tournament: str, body: str, *, depth: int = 0) -> str:
    """A whole page: the tournament's name, the navigation (relative links), `body`."""
    nav = " ".join(link(href, words, depth) for href, words in (
        (INDEX, "Overview"), (STANDINGS, "Standings"), (FINALS, "Finals"),
        (CHARTS, "Charts")))
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{text(title)} · {text(tournament)}</title><style>{STYLE}</style></head>"
            f"<body><header><h1>{text(tournament)}</h1><nav>{nav}</nav></header>"
            f"<main><h2>{text(title)}</h2>{body}</main>"
            f"<footer>Published results: nicknames only. The same data as JSON and CSV is "
            f"in the {link(DATA_DIR + '/tournament.json', 'data folder', depth)}.</footer>"
            f"</body></html>\n")


def _days(first: str | None, last: str | None) -> str:
    if first and last and first != last:
        return f"{first} to {last}"
    return first or last or ""


def _label(row: Mapping[str, Any]) -> str:
    return sitting_label(str(row["kind"]), int(row["number"]))


def index_page(tournament: Mapping[str, Any], sittings: Mapping[str, Any],
               charts: Sequence[tuple[str, str]], schedule: Mapping[str, Any]) -> str:
    """The entry page: where and when, the podium, every published sitting, the charts."""
    facts = [p for p in (tournament.get("venue"),
                         _days(tournament.get("first_day"), tournament.get("last_day")))
             if p]
    parts = [f'<p class="note">{text(" · ".join(facts))}</p>' if facts else "",
             f"<p>{text(tournament.get('players'))} players.</p>"]
    podium = tournament.get("podium") or []
    if podium:
        parts.append(table(["Place", "Player"], ([_place(p["place"]), p["player"]]
                                                 for p in podium)))
    parts.append(f"<p>{link(STANDINGS, 'Standings')} · {link(FINALS, 'Finals')} · "
                 f"{link(CHARTS, 'Charts')}</p>")
    shown = sittings.get("sittings") or []
    parts.append("<h2>Sittings</h2>")
    parts.append(table(["Sitting", "Tables", "Results in"], (
        [Html(link(sitting_file(s["sitting"]), _label(s))), s["tables"], s["results_in"]]
        for s in shown), numbers=["Tables", "Results in"]) if shown
        else "<p>No sitting was published.</p>")
    items = schedule.get("items") or []
    if items:
        parts.append("<h2>Schedule</h2>")
        parts.append(table(["Day", "Starts", "Ends", "What"], (
            [i.get("day"), i.get("starts"), i.get("ends"), i.get("title")] for i in items)))
    if charts:
        parts.append("<h2>Charts</h2><ul>" + "".join(
            f"<li>{link(CHARTS + '#' + _anchor(name), name)}</li>" for name, _ in charts)
            + "</ul>")
    return page("Overview", str(tournament.get("name") or ""), "".join(parts))


def _place(value: str) -> str:
    try:
        return FINALS_STATUS_LABELS[FinalsStatus(value)] or str(value)
    except ValueError:
        return str(value)


def _anchor(name: str) -> str:
    return "".join(c if c.isalnum() else "-" for c in name.lower())


def standings_page(name: str, standings: Mapping[str, Any]) -> str:
    """The standings: the final standings once the final is in (with each player's place in
    the finals), then the qualifier standings, by qualifier rank."""
    rows = standings.get("standings") or []
    final = any(r.get("qualifier_rank") is not None for r in rows)
    parts = [f'<p class="note">{text(standings.get("cut"))}</p>' if standings.get("cut")
             else ""]
    columns = ["Best score", "Games", "Wins", "Placing", "VP"]
    if final:
        parts.append("<h2>Final standings</h2>")
        parts.append(table(["Rank", "Player", "Finals"], (
            [r.get("rank"), r["player"], r.get("zone")] for r in rows
            if r.get("rank") is not None), numbers=["Rank"]))
        qualifier = sorted(rows, key=lambda r: (r.get("qualifier_rank") is None,
                                                r.get("qualifier_rank") or 0))
        rank_of = "qualifier_rank"
    else:
        qualifier, rank_of = rows, "rank"
    parts.append("<h2>Qualifier standings</h2>")
    headings = ["Rank", "Player", *columns] + ([] if final else ["Zone"])
    parts.append(table(headings, (
        [r.get(rank_of), r["player"], r.get("best_score"), r.get("games"), r.get("wins"),
         r.get("placing"), r.get("vp"), *([] if final else [r.get("zone")])]
        for r in qualifier), numbers=["Rank", *columns]))
    return page("Standings", name, "".join(parts))


def finals_page(name: str, finals: Mapping[str, Any], sittings: Mapping[str, Any]) -> str:
    """The finals: the format, each finals sitting's page, and where each player finished."""
    fmt = finals.get("format")
    parts = []
    if fmt:
        semi = (f"the next {fmt['semifinal']} played the semifinal "
                f"({fmt['semifinal_tables']} table(s), {fmt['advance']} went on)"
                if fmt["semifinal"] else "there was no semifinal")
        parts.append(f"<p>The top {text(fmt['direct'])} went straight to the final; "
                     f"{text(semi)}.</p>")
    finals_sittings = [s for s in sittings.get("sittings") or []
                       if s["kind"] in (Kind.SEMIFINAL, Kind.FINAL)]
    if finals_sittings:
        parts.append("<p>" + " · ".join(link(sitting_file(s["sitting"]), _label(s))
                                        for s in finals_sittings) + "</p>")
    players = sorted(finals.get("players") or [],
                     key=lambda p: (p.get("final_rank") is None, p.get("final_rank") or 0))
    parts.append(table(["Final rank", "Player", "Finals", "Wildcard"], (
        [p.get("final_rank"), p["player"], _place(p["status"]), p.get("wildcard")]
        for p in players), numbers=["Final rank"]) if players
        else "<p>No finals were played.</p>")
    return page("Finals", name, "".join(parts))


def sitting_page(name: str, sitting: Mapping[str, Any], results: Mapping[str, Any],
                 files: Sequence[str]) -> str:
    """One published sitting: each table's setup and seats in seat order (nickname, colour,
    first player, and once saved the leader, placing, VP and score), then its results by
    table and placing; `files` are its JSON and CSV in the archive."""
    label = _label(sitting)
    depth = 1
    parts = []
    if sitting.get("rule_change"):
        parts.append(f'<p class="note">Rule change: {text(sitting["rule_change"])}</p>')
    for t in sitting.get("tables") or []:
        parts.append(f"<h2>Table {text(t['table'])}</h2>"
                     f"<p>Setup: {text(t.get('setup') or 'not recorded')}</p>")
        parts.append(table(["Seat", "Player", "Colour", "First player", "Leader", "Placing",
                            "VP", "Score"], (
            [s["seat"], s["player"], s.get("colour"), s.get("first_player"), s.get("leader"),
             s.get("placing"), s.get("vp"), s.get("score")] for s in t.get("seats") or []),
            numbers=["Seat", "Placing", "VP", "Score"]))
    found = results.get("results") or []
    parts.append("<h2>Results</h2>")
    parts.append(table(["Table", "Placing", "Player", "Leader", "VP", "Score", "Seat", "Tied"], (
        [r.get("table"), r.get("placing"), r["player"], r.get("leader"), r.get("vp"),
         r.get("score"), r.get("seat"), r.get("tied")] for r in found),
        numbers=["Table", "Placing", "VP", "Score", "Seat"]) if found
        else "<p>No result was saved.</p>")
    parts.append("<p>Data: " + " · ".join(link(f, f.rsplit("/", 1)[-1], depth)
                                          for f in files) + "</p>")
    return page(label, name, "".join(parts), depth=depth)


def charts_page(name: str, charts: Sequence[tuple[str, str]]) -> str:
    """The charts as image files of the archive (`charts`: (title, path) pairs)."""
    if not charts:
        return page("Charts", name, "<p>No charts: no qualifier result was saved.</p>")
    return page("Charts", name, "".join(
        f'<h2 id="{_anchor(title)}">{text(title)}</h2>'
        f'<p><img src="{text(path)}" alt="{text(title)}"></p>' for title, path in charts))


def zip_bytes(root: str, files: Mapping[str, bytes | str]) -> bytes:
    """`files` (paths inside the archive) in one zip, all under the folder `root`, so that
    unzipping gives one folder with index.html in it."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as bundle:
        for path, content in files.items():
            bundle.writestr(f"{root}/{path}",
                            content.encode() if isinstance(content, str) else content)
    return out.getvalue()
