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

from collections.abc import Callable, Hashable

from starlette.middleware.exceptions import ExceptionMiddleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route, Router

from stsa import i18n
from stsa.i18n import _
from stsa.services import feed as shape
from stsa.services import keys as address_keys
from stsa.services.shared import Answer
from stsa.ui import data, live_answers, session
from stsa.web import answers, overlay
from stsa.web.answers import Build, nickname, sitting_row
from stsa.web.cache import (
    ANSWERS,
    REBUILD_SECONDS,
    Missing,
    answer,
    kept,
    missing,
    peek,
    reply,
    served,
)
from stsa.web.language import asked, chosen_language, language_of


def forget_recent() -> None:
    """Read every version again at its next use and let every answer be built again at once
    for a new version (tests: a write must show at the next request)."""
    data.VERSIONS.forget()
    ANSWERS.expire()


# --- which tournament -------------------------------------------------------------------------

def _keys_of(version: int) -> dict[str, int]:
    """The tournaments' ids by key, kept per installation data version (the list is logged
    there)."""
    return kept("keys", version, lambda: address_keys.by_key(session.listed()))


def _tournament_id(key: str) -> int:
    """The id of the tournament `key` names (`Missing` when there is none)."""
    found = address_keys.named(_keys_of(data.VERSIONS.current(session.installation())), key)
    if found is None:
        raise Missing(_("There is no tournament “{key}” here. The list is at {address}.")
                      .format(key=key, address=f"{shape.PREFIX}/tournaments"))
    return found


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
    lang_used = chosen_language(i18n.known(lang), reads.settings())
    found = answer(_answer_key(name, tid, params, i18n.known(lang)), reads.version, lang_used,
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
        keys = peek("keys", data.VERSIONS.fresh(inst)) if inst is not None else None
        tid = address_keys.named(keys, params.pop("key")) if keys else None
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
                    sitting_row(reads, params["ref"])  # 404 before an answer
                if "player" in params:
                    nickname(reads, params["player"])
        except Missing as gone:
            return missing(str(gone))
        return reply(request, answer(_answer_key(name, tid, params, asked(request)),
                                     reads.version, lang,
                                     lambda: build(reads, key, params), every))
    return served(name, fast, slow)


def _everywhere_stamp(fresh: bool = False) -> tuple | None:
    """Every tournament's data version, then the installation's: what the list and the
    seasons are computed from. `fresh`: only from versions read a moment ago (None when one
    is not)."""
    inst = session.opened_engine_of(None) if fresh else session.installation()
    own = (data.VERSIONS.fresh(inst) if inst is not None else None) if fresh \
        else data.VERSIONS.current(inst)
    if own is None:
        return None
    listed = peek("listed", own) if fresh else kept("listed", own, session.listed)
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
                    params["season"] = answers.season_id(params["season"])
        except Missing as gone:
            return missing(str(gone))
        return reply(request, answer(key_of(request, raw), stamp, lang,
                                     lambda: build(params)))
    return served(name, fast, slow)


def _not_found(request: Request) -> Response:
    with i18n.language(language_of(request)):
        return missing(_("There is no {address} in the data feed. It starts at {start}.")
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
        Route(f"{shape.PREFIX}/tournaments",
              _installation_route("tournaments", answers.tournaments), methods=get),
        Route(t, _tournament_route("tournament", answers.tournament), methods=get),
        Route(f"{t}/schedule", _tournament_route("schedule", answers.schedule), methods=get),
        Route(f"{t}/schedule.ics", _tournament_route("schedule.ics", answers.schedule_ics),
              methods=get),
        Route(f"{t}/players/{{player}}/calendar.ics",
              _tournament_route("player.ics", answers.player_ics), methods=get),
        Route(f"{t}/sittings", _tournament_route("sittings", answers.sittings), methods=get),
        Route(s, _tournament_route("sitting", answers.sitting), methods=get),
        Route(f"{s}/results", _tournament_route("results", answers.results), methods=get),
        Route(f"{s}/results.csv", _tournament_route("results.csv", answers.results_csv),
              methods=get),
        Route(f"{t}/standings", _tournament_route("standings", answers.standings), methods=get),
        Route(f"{t}/standings.csv", _tournament_route("standings.csv", answers.standings_csv),
              methods=get),
        Route(f"{t}/finals", _tournament_route("finals", answers.finals), methods=get),
        *(Route(f"{t}/live/{name}", _tournament_route(
            f"live_{name}", build, every=live_answers.EVERY.get(name)), methods=get)
          for name, build in live_answers.ANSWERS.items()),
        Route(f"{shape.PREFIX}/seasons", _installation_route("seasons", answers.seasons),
              methods=get),
        Route(f"{shape.PREFIX}/seasons/{{season}}", _installation_route("season", answers.season),
              methods=get),
        Route(f"{shape.PREFIX}/seasons/{{season}}/standings.csv",
              _installation_route("season.csv", answers.season_csv), methods=get),
        Route(f"{shape.PREFIX}/overlays/{{token}}",
              served("overlay", overlay.fast, overlay.answered), methods=get),
        Route("/overlay/{token}", served("overlay_page", lambda _request: None,
                                         overlay.page_of), methods=get),
        Route("/api/{rest:path}", _not_found, methods=get),
    ]
