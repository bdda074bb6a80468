"""The data feed's routes called in this process, as the server would call them (for tests that
check what the feed shares with the pages or the archive)."""

from __future__ import annotations

import asyncio
import concurrent.futures

from starlette.requests import Request
from starlette.responses import Response

from stsa.web import feed


def answer(path: str, headers: dict[str, str] | None = None, lang: str | None = None,
           **params) -> Response:
    """The feed's answer at route `path` ("/api/v1/tournaments/{key}/standings") with
    `params`, request `headers` (lower-case names) and `?lang=`, given `lang`. The endpoint is
    a coroutine: it runs on an event loop of its own thread, since this thread may hold one
    already (the browser tests' Playwright keeps one running)."""
    route = next(r for r in feed.routes() if r.path == path)
    query = f"lang={lang}".encode() if lang else b""
    request = Request({"type": "http", "method": "GET", "path": path.format(**params),
                       "headers": [(k.encode(), v.encode()) for k, v in (headers or {}).items()],
                       "query_string": query, "path_params": params})
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, route.endpoint(request)).result()
