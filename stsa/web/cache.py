"""The data feed's kept answers and how they are given (README, "Performance"): each answer
kept under its route, tournament, parameters and language with the data versions it was built
from (`services.shared.Answers`), built again at most every `REBUILD_SECONDS`; its ETag, 304s,
gzip and the headers every answer carries; and the feed's small lookups kept per data version.
`stsa.web.feed` serves them.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Hashable
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response

from stsa import i18n
from stsa.services import feed as shape
from stsa.services.shared import Answer, Answers, make_answer
from stsa.ui import session

JSON = "application/json"
CSV = "text/csv; charset=utf-8"
# Any origin may read (no Vary: Origin, the answer is the same for all), and a reverse proxy
# may keep an answer for a second (README, "More than one process").
HEADERS = {"Access-Control-Allow-Origin": "*",
           "Access-Control-Expose-Headers": "ETag, X-STSA-Now, X-STSA-Version",
           "Cache-Control": "public, max-age=1"}
# Answers are built again at most this often, however fast the versions move;
# STSA_FEED_REBUILD_SECONDS=0 builds each new version at once (tests that check a write).
REBUILD_SECONDS = float(os.environ.get("STSA_FEED_REBUILD_SECONDS", "1"))
ANSWERS = Answers(REBUILD_SECONDS)


class Missing(LookupError):
    """What the address names is not here: answered 404 with these words."""


def body(payload: Any) -> bytes:
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode()


def _in(lang: str, make: Callable[[], tuple[bytes, str]]) -> Callable[[], tuple[bytes, str]]:
    """`make`, run in language `lang`."""
    def made() -> tuple[bytes, str]:
        with i18n.language(lang):
            return make()
    return made


def reply(request: Request, kept: Answer) -> Response:
    """304 when the client holds the answer's ETag, else the answer (gzipped when the client
    takes it and it is worth it)."""
    headers = dict(HEADERS, ETag=kept.etag)
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


def answer(key: Hashable, stamp: Hashable, lang: str,
           make: Callable[[], tuple[bytes, str]], every: float | None = None) -> Answer:
    """The answer under `key` for the data versions `stamp`: kept, or built by `make` in
    language `lang` (`ANSWERS`: once per stamp, at most once every `REBUILD_SECONDS`, or
    every `every` seconds for an answer that is dear to build and need not follow each
    save)."""
    def build() -> Answer:
        body, media = _in(lang, make)()
        return make_answer(stamp, body, media, salt=(shape.VERSION, lang))
    return ANSWERS.get(key, stamp, build, every=every)


def served(name: str, fast: Callable[[Request], Answer | None],
           slow: Callable[[Request], Response]):
    """The route's endpoint: an answer `fast` finds kept is given on the event loop (no
    database read, no thread); anything else is read (and maybe built) by `slow` in a worker
    thread."""
    async def endpoint(request: Request) -> Response:
        kept = fast(request)
        if kept is not None:
            return reply(request, kept)
        return await run_in_threadpool(slow, request)
    endpoint.__name__ = f"feed_{name}"
    return endpoint


def missing(words: str) -> Response:
    return Response(body({"error": words}), status_code=404, media_type=JSON,
                    headers=HEADERS)


# Small lookups kept for the stamp (data versions) they were made at: the tournaments by key,
# the live overlays by token hash.

_by_stamp: dict[tuple[str, str], tuple[Hashable, Any]] = {}


def kept(name: str, stamp: Hashable, make: Callable[[], Any]) -> Any:
    """The lookup `name` of this installation made at `stamp` (made now if it was not)."""
    key = (session.database_url(), name)
    found = _by_stamp.get(key)
    if found is None or found[0] != stamp:
        found = _by_stamp[key] = (stamp, make())
    return found[1]


def peek(name: str, stamp: Hashable | None) -> Any:
    """The lookup `name` if it is kept for `stamp` (no work), else None."""
    found = _by_stamp.get((session.database_url(), name))
    return found[1] if found is not None and stamp is not None and found[0] == stamp else None
