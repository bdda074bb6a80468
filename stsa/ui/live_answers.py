"""The answers the live elements poll (`/api/v1/tournaments/{key}/live/…`, README "Data
feed"): what the spectators' pages show, built from the shared public reads
(`stsa.ui.data.public`, as the rest of the feed) in the language asked for, shaped and
allow-listed by `stsa.services.feed` (nicknames only, the public view: R20, R22).

Each builder is `build(reads, key, params) -> (bytes, media)`, the feed's `_tournament_route`
form: the feed keeps each answer per data version and language, and a page's run hands its
element the same answer (`live_element.page_answer`), so a phone's first poll gets a 304.

What changes with the clock alone is never in an answer: the countdown counts in the browser
from the clock's deadline, and "Next: Lunch at 12:30" is chosen there from every item's start
(`services.schedule.coming_up`).

My seat and TV: `players` (every player's seat, games and standing, one answer that every
phone shares: the element picks its player), `tv` (the TV's slides besides the charts) and
`chart_svg` (a TV chart drawn as SVG, shown with `<img>`)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pandas as pd
import vl_convert

from stsa import i18n
from stsa.domain import SITTING_STATUS_WORDS, Kind, Role, sitting_title
from stsa.i18n import N_, _, ngettext
from stsa.services import feed as shape
from stsa.services import player
from stsa.services import schedule as schedule_service
from stsa.services import season as season_service
from stsa.services.clock import epoch_ms
from stsa.ui import clock, data, finals, live, organizer, rule_change, session
from stsa.ui import sittings as sitting_view
from stsa.ui import statistics as stats

JSON = "application/json"
SVG = "image/svg+xml"
Build = Callable[[data.Data, str, dict], tuple[bytes, str]]


def _json(payload: Any) -> tuple[bytes, str]:
    return body_of(payload).encode(), JSON


def body_of(payload: Any) -> str:
    """An answer's JSON text, as the feed sends it."""
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":"))


# --- Standings ----------------------------------------------------------------------------------

def standings(reads: data.Data, key: str, params: dict) -> tuple[bytes, str]:
    """`live/standings`: the Standings page's element (`services.feed.live_standings`)."""
    notes = reads.standings_notes()
    return _json(shape.live_standings(key, live.zone_tags(reads.standings_shown()),
                                      cut=notes.cut, podium=notes.podium, legend=notes.legend,
                                      progress=stats.progress(reads)))


def _games(scored: pd.DataFrame) -> dict[Any, list[dict]]:
    """Every player's games as a card lists them (R12, R13: the qualifiers, then the
    semifinal and the final; sittings in this run's language), by player id."""
    order = {Kind.QUALIFIER: 0, Kind.SEMIFINAL: 1, Kind.FINAL: 2}
    games = (scored.assign(stage=scored["kind"].map(order))
             .sort_values(["player_id", "stage", "sitting_no", "table_no"]))
    titles = {(k, n): sitting_title(k, n)
              for k, n in games[["kind", "sitting_no"]].drop_duplicates().itertuples(
                  index=False)}
    rows = shape.records(games.assign(
        Sitting=[titles[k, n] for k, n in zip(games["kind"], games["sitting_no"])],
        Table=games["table_no"], Placing=games["placing"], VP=games["vp"],
        Score=games["qualifier_score"]), shape.CARD_GAMES)
    found: dict[Any, list[dict]] = {}
    for player_id, row in zip(games["player_id"], rows):
        found.setdefault(player_id, []).append(row)
    return found


def cards(reads: data.Data, key: str, params: dict) -> tuple[bytes, str]:
    """`live/cards`: every player's card as the Standings search shows one (R12–R18): best
    score, rank, games and wins in one line, how far from the cut (or, once the finals
    begin, where they stand in them), and their games. An element asks for it only while a
    search leaves a few players."""
    table = reads.standings()
    finals_on = stats.finals_started(reads)
    games = _games(reads.scored_results(None))  # the finals' games too, once played
    book = reads.player_book() if finals_on else None
    distance = None if finals_on else stats.distance_sentences(table)
    found: list[dict[str, Any]] = []
    for row in table.itertuples():
        if row.games == 0:
            found.append({"player": str(row.name), "line": _("Seated in a qualifier: no "
                                                            "result yet."), "said": None,
                          "games": []})
            continue
        played = ngettext("{count} game", "{count} games", row.games).format(count=row.games)
        wins = ngettext("{count} win", "{count} wins", row.wins).format(count=row.wins)
        if book is not None:  # where the finals put the player, as on their own page (R16–R18)
            line = _("Best score **{score}**, {games}, {wins}.").format(
                score=f"{row.best_score:.0f}", games=played, wins=wins)
            said = player.shown(player.said_about(book, row.player_id))
        else:
            line = _("Best score **{score}**, rank {rank}, {games}, {wins}.").format(
                score=f"{row.best_score:.0f}", rank=row.rank, games=played, wins=wins)
            said = distance.get(row.player_id, "") if distance is not None else ""
        found.append({"player": str(row.name), "line": line, "said": said or None,
                      "games": games.get(row.player_id, [])})
    return _json(shape.live_cards(key, found))


# --- Home ---------------------------------------------------------------------------------------

def _clock(reads: data.Data) -> dict | None:
    """R26: the sitting's clock for a countdown in the browser (no `now_ms`: the element
    counts from the server's time its polls bring), and the line under it."""
    sitting_clock = reads.clock()
    if sitting_clock is None:
        return None
    down = sitting_clock.countdown().as_data()
    return {"status": down["status"], "deadline_ms": down["deadline_ms"],
            "left_ms": down["left_ms"], "words": down["words"], "label": down["label"],
            "caption": clock.caption(sitting_clock, reads.settings().zone)}


def home(reads: data.Data, key: str, params: dict) -> tuple[bytes, str]:
    """`live/home`: the public parts of Home (`services.feed.live_home`)."""
    status = reads.home_status()
    sitting = status.sitting
    champion, others = finals.podium_words(status.podium)
    sitting_line = None
    if sitting:
        sitting_line = ngettext(
            "**{sitting}** is {status} ({done} of {count} table reported).",
            "**{sitting}** is {status} ({done} of {count} tables reported).",
            sitting.tables).format(sitting=i18n.cell(sitting.label),
                                   status=_(SITTING_STATUS_WORDS[sitting.status]),
                                   done=sitting.results, count=sitting.tables)
    missing = (_("Tables still missing results: {tables}.").format(
        tables=organizer.listed(list(status.missing_tables))) if status.missing_tables
        else None)
    frame = reads.schedule()
    return _json(shape.live_home(key, {
        "champion": champion or None, "podium": others or None,
        "players": int(status.players), "checked_in": int(status.checked_in),
        "sitting": i18n.cell(sitting.label) if sitting else _("None yet"),
        "sitting_line": sitting_line, "missing": missing, "clock": _clock(reads),
        "next_step": organizer.next_step(status, Role.SPECTATOR)},
        schedule_service.coming_up(frame, reads.settings().zone)))


# --- Schedule -----------------------------------------------------------------------------------

def schedule(reads: data.Data, key: str, params: dict) -> tuple[bytes, str]:
    """`live/schedule`: the Schedule page's element (`services.feed.live_schedule`)."""
    settings = reads.settings()
    frame, zone = reads.schedule(), settings.zone
    return _json(shape.live_schedule(
        key, frame, schedule_service.public_schedule(frame, zone), str(zone),
        schedule_service.coming_up(frame, zone),
        _("Times are in the tournament's time zone ({zone}).").format(zone=zone)))


# --- My seat and TV -------------------------------------------------------------------------------

def _kept(reads: data.Data, name: str, compute: Callable[[], Any]) -> Any:
    """`compute()` kept once per data version and this run's language."""
    lang = i18n.current()

    def said() -> Any:
        with i18n.language(lang):
            return compute()
    return reads.kept(("live", name, lang), said)


def _seat_clock(reads: data.Data, *, tables: bool = False) -> dict | None:
    """R26: the sitting's clock as Home's (`_clock`), whether it sounds at time (TV), and
    with `tables` each table with time of its own (given to it alone) as its own countdown,
    so My seat counts down each player's own table."""
    found = _clock(reads)
    sitting_clock = reads.clock()
    if found is None or sitting_clock is None:
        return None
    own = [] if not tables else [
        {"table": int(no), "status": down.status, "deadline_ms": down.deadline_ms,
         "left_ms": down.left_ms}
        for no in sorted(sitting_clock.state().table_extra)
        for down in [sitting_clock.countdown(table_no=int(no))]]
    return {**found, "sound": bool(sitting_clock.sound), "tables": own}


def _check_in(reads: data.Data) -> dict:
    """R25: the next qualifier's self check-in window (epoch ms; none without a planned start:
    then `open` says whether the organizer has opened it), so a page knows when its check-in
    form and the room's code come and go."""
    plan = reads.next_plan()
    window = plan.window()
    return {"number": int(plan.number), "open": bool(plan.opened),
            "from_ms": None if window is None else epoch_ms(window[0]),
            "until_ms": None if window is None else epoch_ms(window[1])}


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
    colours = [{"colour": c, "word": sitting_view.colour_word(c)}
               for c in sorted(everyone["colour"].dropna().astype(str).unique())]
    zone = reads.settings().zone
    return shape.live_players(
        key, zone_name=str(zone), sitting=str(i18n.cell(book.sitting)),
        clock=_seat_clock(reads, tables=True),
        coming=schedule_service.coming_up(reads.schedule(), zone), check_in=_check_in(reads),
        everyone=shown, games=player.everyone_games(book, ids),
        standing=player.sentences(book.ranking, ids), colours=colours)


def players(reads: data.Data, key: str, params: dict) -> tuple[bytes, str]:
    """`live/players`: My seat's element (`players_payload`)."""
    return _json(players_payload(reads, key))


def one_player(payload: dict, player_id: int) -> dict:
    """My seat's answer with `player_id`'s row alone: what a page's run hands its element
    (the element's first poll then brings everyone's)."""
    return {**payload, "players": [p for p in payload["players"] if p["id"] == player_id]}


CHARTS = {"best-scores": "Best scores", "sittings": "Sittings"}  # address → `stats.chart` name
CHART_HEADINGS = {"best-scores": N_("Best scores"), "sittings": N_("Scores per sitting")}
CHART_ALT = {"best-scores": N_("A bar for each player's best qualifier score, best first, "
                               "named under the bars; dashed lines mark the finals cut."),
             "sittings": N_("How the qualifier scores spread in each sitting.")}
CHART_HEIGHT = 680  # px, title, legend and names included: most of a 1080-line projector
CHART_WIDTH = 1700  # px: the SVG scales to the screen; this sets its proportions
# A chart is drawn again at most this often, however often saves move the data version (it
# costs ~0.1 s to draw; a TV shows it for one slide's time).
CHART_SECONDS = 15


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
    cut = str(i18n.cell(notes.cut)) + (
        " " + _("{count} more on the Standings page.").format(count=more) if more else "")
    settings = reads.settings()
    return shape.live_tv(
        key, name=settings.tournament_name, zone_name=str(settings.zone),
        progress=stats.progress(reads), rule_change=rule_change.tv_line(reads.home_status()),
        clock=_seat_clock(reads), coming=schedule_service.coming_up(reads.schedule(),
                                                                    settings.zone),
        check_in=_check_in(reads), shown=tinted, players=len(table), slides=slides,
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
    sheet = season_service.season_sheet(found.head(live.TV_ROWS)).drop(columns=["Games", "Wins"])
    rows = shape.records(sheet, {c: c for c in sheet.columns})  # by English: plain JSON values
    shown = i18n.labels(sheet.columns)  # then each heading in words, no two the same
    return {"columns": [str(shown[c]) for c in sheet.columns],
            "rows": [list(row.values()) for row in rows]}


def tv(reads: data.Data, key: str, params: dict) -> tuple[bytes, str]:
    """`live/tv`: the TV's element (`tv_payload`)."""
    return _json(tv_payload(reads, key))


def chart_svg(name: str) -> Build:
    """`live/charts/{name}.svg`: one of the TV's charts (`stats.chart`, the players named
    under their bars) at the TV's size, as SVG, drawn with no network (no other address may
    be read)."""
    def build(reads: data.Data, key: str, params: dict) -> tuple[bytes, str]:
        chart = (stats.chart(reads, CHARTS[name], names=True)
                 .properties(height=CHART_HEIGHT, width=CHART_WIDTH)
                 .configure_axis(labelFontSize=18, titleFontSize=20)
                 .configure_title(fontSize=26)
                 .configure_legend(labelFontSize=18, titleFontSize=18))
        return vl_convert.vegalite_to_svg(chart.to_dict(), allowed_base_urls=[]).encode(), SVG
    return build


# --- the answers, by name (`stsa.web.feed` serves each as `live/{name}`) -----------------------

ANSWERS: dict[str, Build] = {"standings": standings, "cards": cards, "home": home,
                             "schedule": schedule, "players": players, "tv": tv,
                             **{f"charts/{chart}.svg": chart_svg(chart) for chart in CHARTS}}
# Answers built again at most every so many seconds (default: the feed's `REBUILD_SECONDS`).
EVERY: dict[str, float] = {f"charts/{chart}.svg": CHART_SECONDS for chart in CHARTS}
