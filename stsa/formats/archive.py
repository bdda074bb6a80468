"""The published results as static pages (README, "Publishing results"): HTML written from
the data feed's answers (`services.feed`), so the pages hold exactly what the feed gives and
nothing else (nicknames only, R20, R22), and one zip of them with the feed's JSON and CSV and
the charts.

The pages open from the file system with no server and no network: every link is relative,
the style is inline, there are no scripts, fonts or images from elsewhere (the charts are
files of the zip). Every text a person typed (nicknames, the tournament's name and venue, a
rule change) is HTML-escaped here, in `text`, and nowhere else.

The pages' words are in this run's language (`services.archive` writes them inside
`i18n.language(...)` of the tournament's language), and each page's `lang` says which.

No database and no Streamlit: `services.archive` gathers the answers and calls these.
"""

from __future__ import annotations

import html
import io
import zipfile
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from stsa import i18n
from stsa.domain import FINALS_STATUS_LABELS, FinalsStatus, Kind
from stsa.i18n import N_, _, ngettext

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
        return _("yes") if value else ""
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
    A cell given as `Html` is written as it is (a link made by `link`). `headings` are
    English (marked `N_`), written in this run's language."""
    right = {i for i, h in enumerate(headings) if h in set(numbers)}
    head = "".join(f"<th>{text(_(h))}</th>" for h in headings)
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
        (INDEX, _("Overview")), (STANDINGS, _("Standings")), (FINALS, _("Finals")),
        (CHARTS, _("Charts"))))
    footer = text(_("Published results: nicknames only. The same data as JSON and CSV is in "
                    "the {data_folder}.")).replace(
        "{data_folder}", link(DATA_DIR + "/tournament.json", _("data folder"), depth))
    return (f'<!DOCTYPE html>\n<html lang="{text(i18n.current())}"><head>'
            f'<meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{text(title)} · {text(tournament)}</title><style>{STYLE}</style></head>"
            f"<body><header><h1>{text(tournament)}</h1><nav>{nav}</nav></header>"
            f"<main><h2>{text(title)}</h2>{body}</main>"
            f"<footer>{footer}</footer>"
            f"</body></html>\n")


def _h2(words: str) -> str:
    return f"<h2>{text(words)}</h2>"


def _p(words: str) -> str:
    return f"<p>{text(words)}</p>"


def _days(first: str | None, last: str | None) -> str:
    if first and last and first != last:
        return _("{first} to {last}").format(first=first, last=last)
    return first or last or ""


def _label(row: Mapping[str, Any]) -> str:
    """"Qualifier 2", "Semifinal", "Final" in this run's language."""
    if row["kind"] == Kind.QUALIFIER:
        return _("Qualifier {number}").format(number=int(row["number"]))
    return _("Semifinal") if row["kind"] == Kind.SEMIFINAL else _("Final")


def index_page(tournament: Mapping[str, Any], sittings: Mapping[str, Any],
               charts: Sequence[tuple[str, str]], schedule: Mapping[str, Any]) -> str:
    """The entry page: where and when, the podium, every published sitting, the charts."""
    facts = [p for p in (tournament.get("venue"),
                         _days(tournament.get("first_day"), tournament.get("last_day")))
             if p]
    players = tournament.get("players")
    parts = [f'<p class="note">{text(" · ".join(facts))}</p>' if facts else "",
             "<p>" + text(ngettext("{count} player.", "{count} players.",
                                   players if isinstance(players, int) else 2)
                          .format(count="" if players is None else players)) + "</p>"]
    podium = tournament.get("podium") or []
    if podium:
        parts.append(table([N_("Place"), N_("Player")], ([_place(p["place"]), p["player"]]
                                                         for p in podium)))
    parts.append("<p>" + " · ".join(link(href, words) for href, words in (
        (STANDINGS, _("Standings")), (FINALS, _("Finals")), (CHARTS, _("Charts")))) + "</p>")
    shown = sittings.get("sittings") or []
    parts.append(_h2(_("Sittings")))
    parts.append(table([N_("Sitting"), N_("Tables"), N_("Results in")], (
        [Html(link(sitting_file(s["sitting"]), _label(s))), s["tables"], s["results_in"]]
        for s in shown), numbers=["Tables", "Results in"]) if shown
        else _p(_("No sitting was published.")))
    items = schedule.get("items") or []
    if items:
        parts.append(_h2(_("Schedule")))
        parts.append(table([N_("Day"), N_("Starts"), N_("Ends"), N_("What")], (
            [i.get("day"), i.get("starts"), i.get("ends"), i.get("title")] for i in items)))
    if charts:
        parts.append(_h2(_("Charts")) + "<ul>" + "".join(
            f"<li>{link(CHARTS + '#' + _anchor(name), name)}</li>" for name, _path in charts)
            + "</ul>")
    return page(_("Overview"), str(tournament.get("name") or ""), "".join(parts))


def _place(value: str) -> str:
    """A finals status ("champion") in words, in this run's language ("Champion")."""
    try:
        label = FINALS_STATUS_LABELS[FinalsStatus(value)]
    except ValueError:
        return str(value)
    return _(label) if label else str(value)


def _anchor(name: str) -> str:
    return "".join(c if c.isalnum() else "-" for c in name.lower())


def standings_page(name: str, standings: Mapping[str, Any]) -> str:
    """The standings: the final standings once the final is in (with each player's place in
    the finals), then the qualifier standings, by qualifier rank."""
    rows = standings.get("standings") or []
    final = any(r.get("qualifier_rank") is not None for r in rows)
    parts = [f'<p class="note">{text(standings.get("cut"))}</p>' if standings.get("cut")
             else ""]
    columns = [N_("Best score"), N_("Games"), N_("Wins"), N_("Placing"), N_("VP")]
    if final:
        parts.append(_h2(_("Final standings")))
        parts.append(table([N_("Rank"), N_("Player"), N_("Finals")], (
            [r.get("rank"), r["player"], r.get("zone")] for r in rows
            if r.get("rank") is not None), numbers=["Rank"]))
        qualifier = sorted(rows, key=lambda r: (r.get("qualifier_rank") is None,
                                                r.get("qualifier_rank") or 0))
        rank_of = "qualifier_rank"
    else:
        qualifier, rank_of = rows, "rank"
    parts.append(_h2(_("Qualifier standings")))
    headings = [N_("Rank"), N_("Player"), *columns] + ([] if final else [N_("Zone")])
    parts.append(table(headings, (
        [r.get(rank_of), r["player"], r.get("best_score"), r.get("games"), r.get("wins"),
         r.get("placing"), r.get("vp"), *([] if final else [r.get("zone")])]
        for r in qualifier), numbers=["Rank", *columns]))
    return page(_("Standings"), name, "".join(parts))


def finals_page(name: str, finals: Mapping[str, Any], sittings: Mapping[str, Any]) -> str:
    """The finals: the format, each finals sitting's page, and where each player finished."""
    fmt = finals.get("format")
    parts = []
    if fmt:
        said = (ngettext("The top {direct} went straight to the final; the next {semifinal} "
                         "played the semifinal ({tables} table(s), {advance} went on).",
                         "The top {direct} went straight to the final; the next {semifinal} "
                         "played the semifinal ({tables} table(s), {advance} went on).",
                         int(fmt["semifinal_tables"]))
                if fmt["semifinal"] else
                _("The top {direct} went straight to the final; there was no semifinal."))
        parts.append("<p>" + text(said.format(
            direct=fmt["direct"], semifinal=fmt["semifinal"], tables=fmt["semifinal_tables"],
            advance=fmt["advance"])) + "</p>")
    finals_sittings = [s for s in sittings.get("sittings") or []
                       if s["kind"] in (Kind.SEMIFINAL, Kind.FINAL)]
    if finals_sittings:
        parts.append("<p>" + " · ".join(link(sitting_file(s["sitting"]), _label(s))
                                        for s in finals_sittings) + "</p>")
    players = sorted(finals.get("players") or [],
                     key=lambda p: (p.get("final_rank") is None, p.get("final_rank") or 0))
    parts.append(table([N_("Final rank"), N_("Player"), N_("Finals"), N_("Wildcard")], (
        [p.get("final_rank"), p["player"], _place(p["status"]), p.get("wildcard")]
        for p in players), numbers=["Final rank"]) if players
        else _p(_("No finals were played.")))
    return page(_("Finals"), name, "".join(parts))


def sitting_page(name: str, sitting: Mapping[str, Any], results: Mapping[str, Any],
                 files: Sequence[str]) -> str:
    """One published sitting: each table's setup and seats in seat order (nickname, colour,
    first player, and once saved the leader, placing, VP and score), then its results by
    table and placing; `files` are its JSON and CSV in the archive."""
    label = _label(sitting)
    depth = 1
    parts = []
    if sitting.get("rule_change"):
        parts.append('<p class="note">' + text(_("Rule change: {rule}").format(
            rule=sitting["rule_change"])) + "</p>")
    for t in sitting.get("tables") or []:
        parts.append("<h2>" + text(_("Table {table}").format(table=t["table"])) + "</h2>"
                     "<p>" + text(_("Setup: {setup}").format(
                         setup=t.get("setup") or _("not recorded"))) + "</p>")
        parts.append(table([N_("Seat"), N_("Player"), N_("Colour"), N_("First player"),
                            N_("Leader"), N_("Placing"), N_("VP"), N_("Score")], (
            [s["seat"], s["player"], s.get("colour"), s.get("first_player"), s.get("leader"),
             s.get("placing"), s.get("vp"), s.get("score")] for s in t.get("seats") or []),
            numbers=["Seat", "Placing", "VP", "Score"]))
    found = results.get("results") or []
    parts.append(_h2(_("Results")))
    parts.append(table([N_("Table"), N_("Placing"), N_("Player"), N_("Leader"), N_("VP"),
                        N_("Score"), N_("Seat"), N_("Tied")], (
        [r.get("table"), r.get("placing"), r["player"], r.get("leader"), r.get("vp"),
         r.get("score"), r.get("seat"), r.get("tied")] for r in found),
        numbers=["Table", "Placing", "VP", "Score", "Seat"]) if found
        else _p(_("No result was saved.")))
    parts.append("<p>" + text(_("Data: {files}")).replace("{files}", " · ".join(
        link(f, f.rsplit("/", 1)[-1], depth) for f in files)) + "</p>")
    return page(label, name, "".join(parts), depth=depth)


def charts_page(name: str, charts: Sequence[tuple[str, str]]) -> str:
    """The charts as image files of the archive (`charts`: (title, path) pairs)."""
    if not charts:
        return page(_("Charts"), name,
                    _p(_("No charts: no qualifier result was saved.")))
    return page(_("Charts"), name, "".join(
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
