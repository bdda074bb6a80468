"""The live elements' answers in the data feed (`/api/v1/tournaments/{key}/live/…`): what each
spectator page draws in the browser, built from the pages' shared reads (`stsa.ui.data.Data`,
once per data version and language) and shaped and allow-listed by `stsa.services.feed`
(R20, R22: the public's view, nicknames only). Each builder has the feed's signature
`build(reads, key, params) -> (bytes, media)` (`stsa.ui.feed` serves them).

My seat and TV: `players` (every player's seat, games and standing, one answer for every
phone), `tv` (the TV's slides besides the charts) and `chart_svg` (a TV chart as SVG).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from typing import Any

import pandas as pd
import vl_convert

from stsa import i18n
from stsa.i18n import N_, _
from stsa.services import feed as shape
from stsa.services import player
from stsa.services import schedule as schedule_service
from stsa.services import season as season_service
from stsa.services.clock import epoch_ms
from stsa.ui import data, live, rule_change, session, sittings
from stsa.ui import finals as finals_view
from stsa.ui import statistics as stats

JSON = "application/json"
SVG = "image/svg+xml"


def _json(payload: Any) -> tuple[bytes, str]:
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode(), JSON


def _kept(reads: data.Data, name: str, compute: Callable[[], Any]) -> Any:
    """`compute()` kept once per data version and this run's language."""
    lang = i18n.current()

    def said() -> Any:
        with i18n.language(lang):
            return compute()
    return reads.kept(("live", name, lang), said)


# --- what several live pages show ---------------------------------------------------------------

def clock(reads: data.Data, *, tables: bool = False) -> dict | None:
    """R26: the sitting's clock as the browser counts it down: its status, deadline (epoch
    ms, the server's clock) or the time left while it is not running, the tournament's words
    at time and whether it sounds; with `tables`, each table with time of its own (given to
    it alone) as its own countdown. None without a sitting being played."""
    found = reads.clock()
    if found is None:
        return None
    everyone = found.countdown()
    own = [] if not tables else [
        {"table": int(no), "status": down.status, "deadline_ms": down.deadline_ms,
         "left_ms": down.left_ms}
        for no in sorted(found.state().table_extra)
        for down in [found.countdown(table_no=int(no))]]
    return {"sitting": everyone.label, "status": everyone.status,
            "deadline_ms": everyone.deadline_ms, "left_ms": everyone.left_ms,
            "words": everyone.words, "sound": bool(found.sound), "tables": own}


def coming(reads: data.Data) -> list[dict]:
    """R26: the schedule's coming items as "Next: Lunch at 12:30" lines, for the browser to
    show the next one as time passes (`services.schedule.next_lines`)."""
    lines = schedule_service.next_lines(reads.schedule(), reads.settings().zone,
                                        pd.Timestamp.now(tz="UTC").to_pydatetime())
    return [{"starts_ms": epoch_ms(at.to_pydatetime()), "date": d, "today": t, "later": la}
            for at, d, t, la in zip(pd.to_datetime(lines["starts_at"], utc=True),
                                    lines["date"], lines["today"], lines["later"])]


def check_in(reads: data.Data) -> dict:
    """R25: the next qualifier's self check-in window (epoch ms; none without a planned start:
    then `open` says whether the organizer has opened it), so a page knows when its check-in
    form and the room's code come and go."""
    plan = reads.next_plan()
    window = plan.window()
    return {"number": int(plan.number), "open": bool(plan.opened),
            "from_ms": None if window is None else epoch_ms(window[0]),
            "until_ms": None if window is None else epoch_ms(window[1])}


# --- My seat --------------------------------------------------------------------------------------

def players_payload(reads: data.Data, key: str) -> dict:
    """R3, R12, R14, R16, R21, R22, R26: My seat's answer for every player
    (`services.feed.live_players`), kept once per data version and language."""
    return _kept(reads, "players", lambda: _players(reads, key))


def _players(reads: data.Data, key: str) -> dict:
    book = reads.player_book()
    everyone = player.everyone(book)
    ids = everyone["player_id"].tolist()
    shown = everyone.assign(sitting=i18n.cells(everyone["sitting"]),
                            setup=i18n.cells(everyone["setup"]))
    colours = [{"colour": c, "word": sittings.colour_word(c)}
               for c in sorted(everyone["colour"].dropna().astype(str).unique())]
    return shape.live_players(
        key, zone_name=str(reads.settings().zone), sitting=str(i18n.cell(book.sitting)),
        clock=clock(reads, tables=True), coming=coming(reads), check_in=check_in(reads),
        everyone=shown, games=player.everyone_games(book, ids),
        standing=player.sentences(book.ranking, ids), colours=colours)


def players(reads: data.Data, key: str, params: dict) -> tuple[bytes, str]:
    """The feed's `live/players`."""
    return _json(players_payload(reads, key))


def one_player(payload: dict, player_id: int) -> dict:
    """My seat's answer with `player_id`'s row alone: what a page's run hands its element
    (the element's first poll then brings everyone's)."""
    return {**payload, "players": [p for p in payload["players"] if p["id"] == player_id]}


# --- TV -----------------------------------------------------------------------------------------

CHARTS = {"best-scores": "Best scores", "sittings": "Sittings"}  # address → `stats.chart` name
CHART_HEADINGS = {"best-scores": N_("Best scores"), "sittings": N_("Scores per sitting")}
CHART_ALT = {"best-scores": N_("A bar for each player's best qualifier score, best first, "
                               "named under the bars; dashed lines mark the finals cut."),
             "sittings": N_("How the qualifier scores spread in each sitting.")}
CHART_HEIGHT = 680  # px, title, legend and names included: most of a 1080-line projector
CHART_WIDTH = 1700  # px: the SVG scales to the screen; this sets its proportions
CHART_SECONDS = 15  # a chart is drawn again at most this often (one slide's time on the TV)


def tv_payload(reads: data.Data, key: str) -> dict:
    """R14–R18, R24–R27: the TV's answer (`services.feed.live_tv`), kept once per data
    version and language."""
    return _kept(reads, "tv", lambda: _tv(reads, key))


def _tv(reads: data.Data, key: str) -> dict:
    table = reads.standings()
    shown = reads.standings_shown()
    pages = live.tv_pages(len(table))
    notes = reads.standings_notes()
    slides = [{"kind": "standings", "heading": _("Standings") if len(pages) == 1 else
               _("{slide}, places {first}–{last}").format(slide=_("Standings"),
                                                          first=page[0] + 1, last=page[1]),
               "columns": _columns(page)} for page in pages]
    for chart, heading in CHART_HEADINGS.items():
        said = _(heading)
        if chart == "best-scores" and stats.top_words(len(table)):  # the bars stop there
            said = _("Best scores, top {top} of {count} players").format(top=stats.TOP,
                                                                        count=len(table))
        slides.append({"kind": "chart", "heading": said, "chart": chart,
                       "alt": _(CHART_ALT[chart])})
    season = _season(reads)
    if season is not None:
        slides.append({"kind": "season", "heading": _("Season")})
    more = len(table) - pages[-1][1]
    top = shown.iloc[:pages[-1][1]]
    tinted = top.assign(
        tint=top["Zone"].str.removesuffix(live.WILDCARD).map(live.ROW_COLOURS).fillna(""),
        **{"Best score": top["Best score"].astype("Int64")})
    cut = str(i18n.cell(finals_view.cut_caption(table))) + (
        " " + _("{count} more on the Standings page.").format(count=more) if more else "")
    settings = reads.settings()
    return shape.live_tv(
        key, name=settings.tournament_name, zone_name=str(settings.zone),
        progress=stats.progress(reads), rule_change=rule_change.tv_line(reads.home_status()),
        clock=clock(reads), coming=coming(reads), check_in=check_in(reads),
        shown=tinted, players=len(table), slides=slides,
        podium=str(i18n.cell(notes.podium)) if notes.podium else "", cut=cut, season=season)


def _columns(page: tuple[int, int]) -> list[list[int]]:
    """A standings slide's rows by column (`live.tv_columns`), as (first, stop) positions."""
    split = live.tv_columns(pd.DataFrame(index=range(page[0], page[1])))
    return [[int(part.index[0]), int(part.index[-1]) + 1] for part in split if len(part)]


def _season(reads: data.Data) -> dict | None:
    """R27: the top of the season standing when the tournament is in a season (its words
    in this run's language), else None."""
    from stsa.ui import season_data  # the season's shared reads

    season_id = season_service.season_of(session.installation(), reads.tournament)
    if season_id is None:
        return None
    found = season_data.table(season_id)
    if found.empty:
        return {"empty": _("No results yet in this season's tournaments."), "columns": [],
                "rows": []}
    sheet = i18n.headings(season_service.season_sheet(found.head(live.TV_ROWS))
                          .drop(columns=["Games", "Wins"]))
    rows = sheet.astype(object).where(sheet.notna(), "").to_numpy().tolist()
    return {"columns": [str(c) for c in sheet.columns],
            "rows": [[shape._plain(v) for v in row] for row in rows]}


def tv(reads: data.Data, key: str, params: dict) -> tuple[bytes, str]:
    """The feed's `live/tv`."""
    return _json(tv_payload(reads, key))


class _Drawn:
    """The charts as last drawn, by database, chart and language: drawn again at most every
    `CHART_SECONDS`, however often saves move the data version (a chart costs ~0.1 s to draw;
    only saves work, like every cache here)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._kept: dict[tuple, tuple[float, bytes]] = {}

    def get(self, key: tuple, draw: Callable[[], bytes]) -> bytes:
        with self._lock:
            kept = self._kept.get(key)
            if kept is not None and time.monotonic() - kept[0] < CHART_SECONDS:
                return kept[1]
            drawn = draw()
            self._kept[key] = (time.monotonic(), drawn)
            return drawn

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()


_drawn = _Drawn()


def chart_svg(name: str) -> Callable[[data.Data, str, dict], tuple[bytes, str]]:
    """The feed's `live/charts/{name}.svg`: one of the TV's charts (`stats.chart`, players
    named under their bars) at the TV's size, as SVG (drawn with no network: no other
    address may be read)."""
    def build(reads: data.Data, key: str, params: dict) -> tuple[bytes, str]:
        def draw() -> bytes:
            chart = (stats.chart(reads, CHARTS[name], names=True)
                     .properties(height=CHART_HEIGHT, width=CHART_WIDTH)
                     .configure_axis(labelFontSize=18, titleFontSize=20)
                     .configure_title(fontSize=26)
                     .configure_legend(labelFontSize=18, titleFontSize=18))
            return vl_convert.vegalite_to_svg(chart.to_dict(), allowed_base_urls=[]).encode()
        return _drawn.get((reads.url, name, i18n.current()), draw), SVG
    return build


def forget_charts() -> None:
    """Forget the charts drawn (tests: a save must show at once)."""
    _drawn.clear()


def empty_words() -> str:
    """What the TV's standings and chart slides say before any result."""
    return _("No results yet: the standings appear once the first qualifier results are in.")
