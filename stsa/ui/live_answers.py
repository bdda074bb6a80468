"""The answers the live elements poll (`/api/v1/tournaments/{key}/live/…`, README "Data
feed"): what the spectators' pages show, built from the shared public reads
(`stsa.ui.data.public`, as the rest of the feed) in the language asked for, shaped and
allow-listed by `stsa.services.feed` (nicknames only, the public view: R20, R22).

Each builder is `build(reads, key, params) -> (bytes, media)`, the feed's `_tournament_route`
form: the feed keeps each answer per data version and language, and a page's run hands its
element the same answer (`live_element.page_answer`), so a phone's first poll gets a 304.

What changes with the clock alone is never in an answer: the countdown counts in the browser
from the clock's deadline, and "Next: Lunch at 12:30" is chosen there from every item's start
(`services.schedule.coming_up`)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pandas as pd

from stsa import i18n
from stsa.domain import SITTING_STATUS_WORDS, Kind, Role, sitting_title
from stsa.i18n import _, ngettext
from stsa.services import feed as shape
from stsa.services import player
from stsa.services import schedule as schedule_service
from stsa.ui import clock, data, finals, live, organizer
from stsa.ui import statistics as stats

JSON = "application/json"
Build = Callable[[data.Data, str, dict], tuple[bytes, str]]


def _json(payload: Any) -> tuple[bytes, str]:
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode(), JSON


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


# --- the answers, by name (`stsa.ui.feed` serves each as `live/{name}`) -----------------------

ANSWERS: dict[str, Build] = {"standings": standings, "cards": cards, "home": home,
                             "schedule": schedule}
