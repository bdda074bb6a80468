"""The data feed over HTTP (`/api/v1/…`, README "Data feed"): read-only JSON (and CSV where
the answer is a table, a calendar for the schedule) on the app's own port, in the app's own
process, beside Streamlit's routes (`st.App(routes=…)`): one process per port, so the feed
reads the very shelf the pages fill and costs no second server. The spectators' live pages
poll it from the browser (DESIGN.md, "The crowd").

What a poll costs (README, "Performance"):

- Each answer is kept (`services.shared.Answers`) under its route, tournament, parameters and
  the language asked for, with the data versions it was built from. A poll whose tournament's
  version this process read a moment ago (`data.VERSIONS`, at most every `VERSION_SECONDS`,
  and at once after a write of its own) and whose answer is kept for that version is answered
  on the event loop with no database read and no thread.
- A moved version builds the answer again in a worker thread, once, at most once every
  `REBUILD_SECONDS` however fast judges save: meanwhile, and while one thread builds, every
  other poll gets the answer as it was (a phone catches up at its next poll).
- The ETag is a hash of the answer's content (and the feed's version and language), so an
  answer that a save did not change keeps its ETag: its pollers keep getting 304 and no body.
  Answers over a kilobyte go gzipped to clients that take it (compressed once per build).
- `Cache-Control: public, max-age=1`: a reverse proxy (`make serve-cluster`) may answer every
  poll for a second from its cache; browsers' live elements ask with `cache: "no-store"` and
  their own `If-None-Match`.

GET only, for any origin (CORS: a club's website embeds the standings); nothing here reads a
session, so nothing here can show what a spectator may not see (`services.feed`'s
allow-lists).

The words meant for people in an answer (not its field names or machine values) follow
`?lang=sv|fr|en`, else the tournament's language setting, else English; each answer is kept per
data version and language, and the language is part of its ETag.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Hashable
from typing import Any

import pandas as pd
from starlette.concurrency import run_in_threadpool
from starlette.middleware.exceptions import ExceptionMiddleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route, Router

from stsa import auth, i18n, store
from stsa.domain import TournamentError
from stsa.formats import calendar, overlay_page
from stsa.formats.csv import csv_bytes
from stsa.i18n import _
from stsa.services import feed as shape
from stsa.services import player as player_service
from stsa.services import schedule as schedule_service
from stsa.services import season as season_service
from stsa.services import tournaments as tournament_service
from stsa.services.shared import Answer, Answers, make_answer
from stsa.settings import Settings
from stsa.ui import data, live_answers, session

JSON = "application/json"
CSV = "text/csv; charset=utf-8"
# Any origin may read (no Vary: Origin, the answer is the same for all), and a reverse proxy
# may keep an answer for a second (README, "More than one process").
_HEADERS = {"Access-Control-Allow-Origin": "*",
            "Access-Control-Expose-Headers": "ETag, X-STSA-Now, X-STSA-Version",
            "Cache-Control": "public, max-age=1"}
# Answers are built again at most this often, however fast the versions move;
# STSA_FEED_REBUILD_SECONDS=0 builds each new version at once (tests that check a write).
REBUILD_SECONDS = float(os.environ.get("STSA_FEED_REBUILD_SECONDS", "1"))
ANSWERS = Answers(REBUILD_SECONDS)


class Missing(LookupError):
    """What the address names is not here: answered 404 with these words."""


def _body(payload: Any) -> bytes:
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode()


def asked(request: Request) -> str | None:
    """The language the request asks for (`?lang=sv`), or None (none asked, or not one of
    STSA's)."""
    return i18n.known(request.query_params.get("lang"))


def language_of(request: Request, settings: Settings | None = None) -> str:
    """The language of an answer's words: the one asked for, else the tournament's
    (`settings.language`), else English."""
    return _language(asked(request), settings)


def _language(asked_for: str | None, settings: Settings | None) -> str:
    found = asked_for
    if found is None and settings is not None:
        found = i18n.known(getattr(settings, "language", None))
    return found or i18n.ENGLISH


def _in(lang: str, make: Callable[[], tuple[bytes, str]]) -> Callable[[], tuple[bytes, str]]:
    """`make`, run in language `lang`."""
    def made() -> tuple[bytes, str]:
        with i18n.language(lang):
            return make()
    return made


def _reply(request: Request, kept: Answer) -> Response:
    """304 when the client holds the answer's ETag, else the answer (gzipped when the client
    takes it and it is worth it)."""
    headers = dict(_HEADERS, ETag=kept.etag)
    headers["X-STSA-Now"] = str(int(time.time() * 1000))  # overlays count down from it
    if isinstance(kept.stamp, int):  # the tournament's data version the answer was built at
        headers["X-STSA-Version"] = str(kept.stamp)
    if kept.gzipped is not None:
        headers["Vary"] = "Accept-Encoding"
    held = request.headers.get("if-none-match", "")
    if held and kept.etag in {tag.strip().removeprefix("W/") for tag in held.split(",")}:
        return Response(status_code=304, headers=headers)
    if kept.gzipped is not None and "gzip" in request.headers.get("accept-encoding", ""):
        headers["Content-Encoding"] = "gzip"
        return Response(kept.gzipped, media_type=kept.media, headers=headers)
    return Response(kept.body, media_type=kept.media, headers=headers)


def _answer(key: Hashable, stamp: Hashable, lang: str,
            make: Callable[[], tuple[bytes, str]], every: float | None = None) -> Answer:
    """The answer under `key` for the data versions `stamp`: kept, or built by `make` in
    language `lang` (`ANSWERS`: once per stamp, at most once every `REBUILD_SECONDS`, or
    every `every` seconds for an answer that is dear to build and need not follow each
    save)."""
    def build() -> Answer:
        body, media = _in(lang, make)()
        return make_answer(stamp, body, media, salt=(shape.VERSION, lang))
    return ANSWERS.get(key, stamp, build, every=every)


def _served(name: str, fast: Callable[[Request], Answer | None],
            slow: Callable[[Request], Response]):
    """The route's endpoint: an answer `fast` finds kept is given on the event loop (no
    database read, no thread); anything else is read (and maybe built) by `slow` in a worker
    thread."""
    async def endpoint(request: Request) -> Response:
        kept = fast(request)
        if kept is not None:
            return _reply(request, kept)
        return await run_in_threadpool(slow, request)
    endpoint.__name__ = f"feed_{name}"
    return endpoint


def forget_recent() -> None:
    """Read every version again at its next use and let every answer be built again at once
    for a new version (tests: a write must show at the next request)."""
    data.VERSIONS.forget()
    ANSWERS.expire()


def _missing(words: str) -> Response:
    return Response(_body({"error": words}), status_code=404, media_type=JSON,
                    headers=_HEADERS)


# --- which tournament, which sitting --------------------------------------------------------
# Small lookups kept for the stamp (data versions) they were made at: the tournaments by key,
# the live overlays by token hash.


_by_stamp: dict[tuple[str, str], tuple[Hashable, Any]] = {}


def _kept(name: str, stamp: Hashable, make: Callable[[], Any]) -> Any:
    """The lookup `name` of this installation made at `stamp` (made now if it was not)."""
    key = (session.database_url(), name)
    found = _by_stamp.get(key)
    if found is None or found[0] != stamp:
        found = _by_stamp[key] = (stamp, make())
    return found[1]


def _peek(name: str, stamp: Hashable | None) -> Any:
    """The lookup `name` if it is kept for `stamp` (no work), else None."""
    found = _by_stamp.get((session.database_url(), name))
    return found[1] if found is not None and stamp is not None and found[0] == stamp else None


def _listed() -> pd.DataFrame:
    return session.listed()


def _keys_of(version: int) -> dict[str, int]:
    """The tournaments' ids by key, kept per installation data version (the list is logged
    there)."""
    def by_key() -> dict[str, int]:
        listed = _listed()
        return {str(k): int(t) for k, t in zip(listed["key"], listed["tournament_id"])}
    return _kept("keys", version, by_key)


def _tournament_id(key: str) -> int:
    """The id of the tournament `key` names (`Missing` when there is none)."""
    found = _keys_of(data.VERSIONS.current(session.installation())).get(
        str(key).strip().lower())
    if found is None:
        raise Missing(_("There is no tournament “{key}” here. The list is at {address}.")
                      .format(key=key, address=f"{shape.PREFIX}/tournaments"))
    return found


def _refs(reads: data.Data) -> dict[str, dict]:
    """The published sittings by their address part ("qualifier-2"), kept per version."""
    def by_ref() -> dict[str, dict]:
        shown = shape.public_sittings(reads.sittings())
        return {shape.sitting_ref(k, n): row for k, n, row in zip(
            shown["kind"], shown["number"], shown.to_dict("records"))}
    return reads.kept(("sitting_refs",), by_ref)


def _sitting_row(reads: data.Data, ref: str) -> dict:
    found = _refs(reads).get(ref)
    if found is None:
        raise Missing(_("There is no published sitting “{sitting}” in this tournament. Its "
                        "sittings are at …/sittings.").format(sitting=ref))
    return found


Build = Callable[[data.Data, str, dict], tuple[bytes, str]]


def _answer_key(name: str, tid: int, params: dict, asked_for: str | None) -> Hashable:
    return (name, session.data_key_of(tid), tuple(sorted(params.items())), asked_for or "")


def shared_answer(reads: data.Data, key: str, name: str, params: dict | None = None,
                  lang: str | None = None) -> tuple[str, bytes]:
    """The feed's answer `name` of the tournament `reads` shows (`key`: its address key), as
    the feed gives it now to a client asking for `lang`: (ETag, body). A page run hands it to
    its live element, whose first poll then gets 304 (DESIGN.md, "The crowd": a page opens
    with the answer the feed gives)."""
    params = dict(params or {})
    build = _TOURNAMENT_BUILDS[name]
    tid = int(reads.tournament) if reads.tournament is not None else _tournament_id(key)
    lang_used = _language(i18n.known(lang), reads.settings())
    found = _answer(_answer_key(name, tid, params, i18n.known(lang)), reads.version, lang_used,
                    lambda: build(reads, key, params), _EVERY.get(name))
    return found.etag, found.body


_TOURNAMENT_BUILDS: dict[str, Build] = {}
_EVERY: dict[str, float | None] = {}


def _tournament_route(name: str, build: Build, *, every: float | None = None):
    """A GET route of one tournament: its answer kept per data version and language asked
    for, built on the tournament's shared reads (the shelf its pages fill); built again at
    most every `every` seconds when given (default `REBUILD_SECONDS`)."""
    _TOURNAMENT_BUILDS[name] = build
    if REBUILD_SECONDS <= 0:  # tests: every write shows at once, for every answer
        every = None
    _EVERY[name] = every

    def fast(request: Request) -> Answer | None:
        params = dict(request.path_params)
        inst = session.opened_engine_of(None)
        keys = _peek("keys", data.VERSIONS.fresh(inst)) if inst is not None else None
        tid = keys.get(str(params.pop("key")).strip().lower()) if keys else None
        engine = session.opened_engine_of(tid) if tid is not None else None
        version = data.VERSIONS.fresh(engine) if engine is not None else None
        if tid is None or version is None:
            return None
        return ANSWERS.peek(_answer_key(name, tid, params, asked(request)), version,
                            every=every)

    def slow(request: Request) -> Response:
        params = dict(request.path_params)
        key = params.pop("key")
        try:
            with i18n.language(language_of(request)):  # the tournament unknown yet
                tid = _tournament_id(key)
            reads = data.public(tid)
            lang = language_of(request, reads.settings())
            with i18n.language(lang):
                if "ref" in params:
                    _sitting_row(reads, params["ref"])  # 404 before an answer
                if "player" in params:
                    _nickname(reads, params["player"])
        except Missing as gone:
            return _missing(str(gone))
        return _reply(request, _answer(_answer_key(name, tid, params, asked(request)),
                                       reads.version, lang,
                                       lambda: build(reads, key, params), every))
    return _served(name, fast, slow)


def _everywhere_stamp(fresh: bool = False) -> tuple | None:
    """Every tournament's data version, then the installation's: what the list and the
    seasons are computed from. `fresh`: only from versions read a moment ago (None when one
    is not)."""
    inst = session.opened_engine_of(None) if fresh else session.installation()
    own = (data.VERSIONS.fresh(inst) if inst is not None else None) if fresh \
        else data.VERSIONS.current(inst)
    if own is None:
        return None
    listed = _peek("listed", own) if fresh else _kept("listed", own, _listed)
    if listed is None:
        return None
    versions = []
    for t in listed["tournament_id"]:
        engine = session.opened_engine_of(int(t)) if fresh else session.engine_of(int(t))
        if engine is None:
            return None
        found = data.VERSIONS.fresh(engine) if fresh else data.VERSIONS.current(engine)
        if found is None:
            return None
        versions.append((int(t), found))
    return (*versions, ("installation", own))


def _installation_route(name: str, build: Callable[[dict], tuple[bytes, str]]):
    """A GET route over every tournament (the list, the seasons): in the language asked for,
    else English (no one tournament's setting speaks for them all)."""
    def key_of(request: Request, params: dict) -> Hashable:
        return (name, session.database_url(), tuple(sorted(params.items())),
                asked(request) or "")

    def fast(request: Request) -> Answer | None:
        stamp = _everywhere_stamp(fresh=True)
        return None if stamp is None else ANSWERS.peek(
            key_of(request, dict(request.path_params)), stamp)

    def slow(request: Request) -> Response:
        params = dict(request.path_params)
        lang = language_of(request)
        raw = dict(params)
        try:
            stamp = _everywhere_stamp()
            if "season" in params:
                with i18n.language(lang):
                    params["season"] = _season_id(params["season"])
        except Missing as gone:
            return _missing(str(gone))
        return _reply(request, _answer(key_of(request, raw), stamp, lang,
                                       lambda: build(params)))
    return _served(name, fast, slow)


def _season_id(raw: str) -> int:
    found = store.seasons(session.installation())
    ids = set(found["season_id"].astype(int))
    if not str(raw).isdigit() or int(raw) not in ids:
        raise Missing(_("There is no season “{season}” here. The seasons are at {address}.")
                      .format(season=raw, address=f"{shape.PREFIX}/seasons"))
    return int(raw)


# --- the answers ----------------------------------------------------------------------------

def _json(payload: Any) -> tuple[bytes, str]:
    return _body(payload), JSON


def _csv(frame: pd.DataFrame) -> tuple[bytes, str]:
    rows = frame.astype(object).where(frame.notna(), None).to_numpy().tolist()
    return csv_bytes(list(frame.columns), rows), CSV


def _listing() -> pd.DataFrame:
    return tournament_service.listing(session.installation(), session.engine_of)


def _season_names() -> dict[int, str]:
    found = store.seasons(session.installation())
    return dict(zip(found["season_id"].astype(int), found["name"].astype(str)))


def _tournaments(params: dict) -> tuple[bytes, str]:
    return _json(shape.tournaments(_listing(), _season_names()))


def _tournament(reads: data.Data, key: str, params: dict) -> tuple[bytes, str]:
    status, settings = reads.home_status(), reads.settings()
    return _json(shape.tournament(
        key, status, settings, archived=reads.archived(),
        days=schedule_service.tournament_days(settings, reads.schedule())))


def _schedule(reads: data.Data, key: str, params: dict) -> tuple[bytes, str]:
    settings: Settings = reads.settings()
    frame = reads.schedule()
    public = schedule_service.public_schedule(frame, settings.zone)
    return _json(shape.schedule(key, frame, public, str(settings.zone)))


def _schedule_ics(reads: data.Data, key: str, params: dict) -> tuple[bytes, str]:
    settings: Settings = reads.settings()
    return (calendar.calendar_ics(reads.schedule(), tournament=settings.tournament_name,
                                  calendar_name=settings.tournament_name, tz=settings.zone),
            calendar.MEDIA_TYPE)


def _nickname(reads: data.Data, raw: str) -> str:
    nicknames = reads.kept(("nicknames",), lambda: {
        str(p): str(n) for p, n in zip(reads.player_directory()["player_id"],
                                       reads.player_directory()["nickname"])})
    if str(raw) not in nicknames:
        raise Missing(_("There is no player {player} in this tournament.").format(player=raw))
    return nicknames[str(raw)]


def calendar_path(key: str, player_id: int) -> str:
    """R26: the address of one player's calendar in the feed (My seat links it)."""
    return f"{shape.PREFIX}/tournaments/{key}/players/{int(player_id)}/calendar.ics"


def _player_ics(reads: data.Data, key: str, params: dict) -> tuple[bytes, str]:
    player_id = int(params["player"])
    return (schedule_service.player_calendar(reads.engine, player_id,
                                             _nickname(reads, params["player"])),
            calendar.MEDIA_TYPE)


def _sittings(reads: data.Data, key: str, params: dict) -> tuple[bytes, str]:
    return _json(shape.sittings(key, reads.sittings()))


def _sitting(reads: data.Data, key: str, params: dict) -> tuple[bytes, str]:
    row = _sitting_row(reads, params["ref"])
    sid = int(row["sitting_id"])
    return _json(shape.sitting(key, row, reads.sitting_overview(sid),
                               reads.scored_results(None)))


def _results_frame(reads: data.Data, ref: str) -> pd.DataFrame:
    from stsa.ui import sittings
    sid = int(_sitting_row(reads, ref)["sitting_id"])
    return sittings.results_frame(reads.scored_results(None), sid)


def _results(reads: data.Data, key: str, params: dict) -> tuple[bytes, str]:
    return _json(shape.results(key, params["ref"], _results_frame(reads, params["ref"])))


def _results_csv(reads: data.Data, key: str, params: dict) -> tuple[bytes, str]:
    frame = _results_frame(reads, params["ref"])
    return _csv(frame.rename(columns=shape.RESULT_FIELDS))


def _standings(reads: data.Data, key: str, params: dict) -> tuple[bytes, str]:
    return _json(shape.standings(key, reads.standings_shown(), reads.standings_notes().cut))


def _standings_csv(reads: data.Data, key: str, params: dict) -> tuple[bytes, str]:
    return _csv(shape.standings_csv_frame(reads.standings_shown()))


def _finals(reads: data.Data, key: str, params: dict) -> tuple[bytes, str]:
    standings = reads.standings()
    names = dict(zip(standings["player_id"], standings["name"].astype(str)))
    return _json(shape.finals(key, reads.finals(), reads.finals_status(), names))


def _keys_by_season() -> dict[int, list[str]]:
    listed = _listed()
    return {int(s): part["key"].tolist()
            for s, part in listed.loc[listed["season_id"].notna()].groupby("season_id")}


def _seasons(params: dict) -> tuple[bytes, str]:
    return _json(shape.seasons(store.seasons(session.installation()), _keys_by_season()))


def _season_parts(params: dict):
    inst = session.installation()
    found = store.seasons(inst)
    row = found.loc[found["season_id"].astype(int) == params["season"]].iloc[0]
    return row, season_service.season_table(inst, params["season"])


def _season(params: dict) -> tuple[bytes, str]:
    row, table = _season_parts(params)
    return _json(shape.season(params["season"], str(row["name"]), row["points"],
                              _keys_by_season().get(params["season"], []), table))


def _season_csv(params: dict) -> tuple[bytes, str]:
    _row, table = _season_parts(params)
    return _csv(season_service.season_sheet(table))


# --- stream overlays --------------------------------------------------------------------------

def _overlays(version: int) -> dict:
    """The live overlays by their token's hash, kept per installation data version."""
    return _kept("overlays", version, lambda: store.live_overlays(session.installation()))


def _overlay(token: str) -> dict:
    """The overlay `token` opens (`Missing` when it was withdrawn or never made)."""
    live = _overlays(data.VERSIONS.current(session.installation()))
    found = live.get(auth.token_hash(str(token)))
    if found is None:
        raise Missing(_("This overlay was withdrawn, or never made: the organizer makes a new "
                        "one on the Data page."))
    return found


def _table_clock(reads: data.Data, sitting_id: int, table_no: int) -> dict | None:
    """R26: a table's clock as a stream shows it: the status, the deadline (epoch ms, this
    server's clock: each answer's `X-STSA-Now` header lets the page count down from it) or
    the time left while paused, and the minutes given to the table alone."""
    clock = reads.clock(sitting_id)
    if clock is None:
        return None
    found = clock.countdown(table_no=table_no)
    extra = clock.table_times().set_index("table_no")["extra"]
    return {"status": found.status, "deadline_ms": found.deadline_ms, "left_ms": found.left_ms,
            "added_minutes": int(extra.get(table_no, 0) or 0)}


def _overlay_answer(overlay: dict, reads: data.Data) -> tuple[bytes, str]:
    settings = reads.settings()
    name = settings.tournament_name
    if overlay["kind"] == "standings":
        table = reads.standings()
        inside = table.loc[table["zone"].isin(["final", "semifinal"]), "rank"]
        finished = player_service.finals_started(reads.sittings())
        cut_rank = None if inside.empty or finished else int(inside.max())
        return _json(shape.overlay_standings(overlay, name, reads.standings_shown(),
                                             reads.standings_notes().cut, cut_rank))
    if overlay["kind"] == "next":
        frame = reads.schedule()
        public = schedule_service.public_schedule(frame, settings.zone)
        return _json(shape.overlay_next(overlay, name, frame, public,
                                        pd.Timestamp.now(tz="UTC"), str(settings.zone)))
    sitting = reads.home_status().sitting
    table = clock = words = None
    if sitting is not None:
        row = next((r for r in _refs(reads).values()
                    if int(r["sitting_id"]) == sitting.sitting_id), None)
        if row is not None:
            words = shape.sitting_words(row["kind"], row["number"])
            whole = shape.sitting("", row, reads.sitting_overview(sitting.sitting_id),
                                  reads.scored_results(None))
            table = next((t for t in whole["tables"]
                          if t["table"] == int(overlay["table_no"])), None)
            clock = _table_clock(reads, sitting.sitting_id, int(overlay["table_no"]))
    return _json(shape.overlay_table(overlay, name, words, table, clock))


def _overlay_key(overlay: dict, request: Request) -> tuple[Hashable, Hashable]:
    """An overlay answer's key and the part of its stamp beside the data version: the minute
    for "next up" (what is next moves on with the time, not only with saves)."""
    minute = int(time.time() // 60) if overlay["kind"] == "next" else 0
    return ("overlay", session.database_url(), int(overlay["id"]), asked(request) or ""), minute


def _overlay_fast(request: Request) -> Answer | None:
    inst = session.opened_engine_of(None)
    live = _peek("overlays", data.VERSIONS.fresh(inst)) if inst is not None else None
    found = live.get(auth.token_hash(str(request.path_params["token"]))) if live else None
    engine = session.opened_engine_of(int(found["tournament_id"])) if found else None
    version = data.VERSIONS.fresh(engine) if engine is not None else None
    if found is None or version is None:
        return None
    key, minute = _overlay_key(found, request)
    return ANSWERS.peek(key, (version, minute))


def _overlay_data(request: Request) -> Response:
    token = request.path_params["token"]
    lang = language_of(request)
    with i18n.language(lang):  # its tournament unknown yet: the language asked for
        try:
            overlay = _overlay(token)
        except Missing as gone:
            return _missing(str(gone))
        try:
            reads = data.public(int(overlay["tournament_id"]))
        except TournamentError:  # its tournament was deleted
            return _missing(_("This overlay's tournament is no longer here."))
    lang = language_of(request, reads.settings())
    key, minute = _overlay_key(overlay, request)
    return _reply(request, _answer(key, (reads.version, minute), lang,
                                   lambda: _overlay_answer(overlay, reads)))


def _overlay_page(request: Request) -> Response:
    """The overlay's page: transparent, no Streamlit, polling its answer with the ETag; its
    words in its tournament's language (or the one asked for)."""
    lang = language_of(request)
    try:
        with i18n.language(lang):
            overlay = _overlay(request.path_params["token"])
    except Missing as gone:
        return Response(overlay_page.gone(str(gone), lang), status_code=404,
                        media_type="text/html; charset=utf-8", headers=_HEADERS)
    try:
        settings = data.public(int(overlay["tournament_id"])).settings()
    except TournamentError:  # its tournament was deleted: the answers say so
        settings = None
    return Response(overlay_page.page(language_of(request, settings)),
                    media_type="text/html; charset=utf-8",
                    headers=dict(_HEADERS, **overlay_page.HEADERS))


def _not_found(request: Request) -> Response:
    with i18n.language(language_of(request)):
        return _missing(_("There is no {address} in the data feed. It starts at {start}.")
                        .format(address=request.url.path, start=f"{shape.PREFIX}/tournaments"))


def asgi():
    """The feed as an ASGI app for the server's guard to hand its addresses to (405s and
    other refusals answered, not raised)."""
    return ExceptionMiddleware(Router(routes=routes()))


def routes() -> list[Route]:
    """The feed's routes (GET; HEAD answers as GET without a body)."""
    t = f"{shape.PREFIX}/tournaments/{{key}}"
    s = f"{t}/sittings/{{ref}}"
    get = ["GET"]
    return [
        Route(f"{shape.PREFIX}/tournaments", _installation_route("tournaments", _tournaments),
              methods=get),
        Route(t, _tournament_route("tournament", _tournament), methods=get),
        Route(f"{t}/schedule", _tournament_route("schedule", _schedule), methods=get),
        Route(f"{t}/schedule.ics", _tournament_route("schedule.ics", _schedule_ics),
              methods=get),
        Route(f"{t}/players/{{player}}/calendar.ics",
              _tournament_route("player.ics", _player_ics), methods=get),
        Route(f"{t}/sittings", _tournament_route("sittings", _sittings), methods=get),
        Route(s, _tournament_route("sitting", _sitting), methods=get),
        Route(f"{s}/results", _tournament_route("results", _results), methods=get),
        Route(f"{s}/results.csv", _tournament_route("results.csv", _results_csv),
              methods=get),
        Route(f"{t}/standings", _tournament_route("standings", _standings), methods=get),
        Route(f"{t}/standings.csv", _tournament_route("standings.csv", _standings_csv),
              methods=get),
        Route(f"{t}/finals", _tournament_route("finals", _finals), methods=get),
        *(Route(f"{t}/live/{name}", _tournament_route(
            f"live_{name}", build, every=live_answers.EVERY.get(name)), methods=get)
          for name, build in live_answers.ANSWERS.items()),
        Route(f"{shape.PREFIX}/seasons", _installation_route("seasons", _seasons),
              methods=get),
        Route(f"{shape.PREFIX}/seasons/{{season}}", _installation_route("season", _season),
              methods=get),
        Route(f"{shape.PREFIX}/seasons/{{season}}/standings.csv",
              _installation_route("season.csv", _season_csv), methods=get),
        Route(f"{shape.PREFIX}/overlays/{{token}}",
              _served("overlay", _overlay_fast, _overlay_data), methods=get),
        Route("/overlay/{token}", _served("overlay_page", lambda _request: None,
                                          _overlay_page), methods=get),
        Route("/api/{rest:path}", _not_found, methods=get),
    ]
