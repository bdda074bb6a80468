"""STSA's own HTTP routes and the guard in front of Streamlit's (R20; README "Security").

Streamlit's websocket cannot set a cookie, so the session travels like this: the Sign in page
checks the PIN over the websocket and gets a one-time handoff code, which a script on the page
posts (in the body, never in an address) to `/_stsa/session`; the answer sets the session
cookie (HttpOnly, SameSite=Strict, Secure over HTTPS) and the device cookie that keeps this
device's sign-ins apart from a guesser's. A judge's invitation QR code opens `/join#token`:
the token stays in the fragment, which browsers never send, and the page's script posts it.

The guard (`Guard`, pure ASGI) runs before every Streamlit route: uploads only from an
organizer's session and capped in size and count, no public metrics, and the headers that
keep pages out of foreign frames and addresses out of other sites' logs.

No page run sets a language here: what a browser shows of these answers (the join page, a
refusal's words) is in the first of STSA's languages the browser asks for (`Accept-Language`),
else English.
"""

from __future__ import annotations

import html
import json
import threading
import urllib.parse
from collections.abc import Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from stsa import i18n
from stsa.domain import Role, TournamentError
from stsa.i18n import _
from stsa.services import access, database
from stsa.services import keys as address_keys
from stsa.web.language import browser_language

SESSION_COOKIE = "stsa_session"
DEVICE_COOKIE = "stsa_device"
SESSION_ROUTE = "/_stsa/session"
SIGN_OUT_ROUTE = "/_stsa/sign-out"
JOIN_PAGE = "/join"
JOIN_ROUTE = "/_stsa/join"
BODY_LIMIT = 1024  # a handoff code or an invitation token, never more
# Streamlit's own ceiling is 50 MB a file (.streamlit/config.toml: a tournament workbook, see
# `guards.MAX_WORKBOOK_BYTES`; rosters' uploaders say 5 MB); this one holds before a byte is
# read, with room for the form's envelope around the file.
UPLOAD_BYTES = 50 * 1024 * 1024 + 64 * 1024
UPLOADS_PER_SESSION = 8
_UPLOAD_PREFIX = "/_stcore/upload_file/"
_HIDDEN = ("/_stcore/metrics", "/_stcore/script-health-check")

# --- which Streamlit session is whose (uploads) ---------------------------------------------
# A Streamlit session lives in one process and dies with it, so this map is per process by
# nature; it is written on every run of every page (session.check) and never decides more
# than "this upload comes from an organizer's page".
_roles: dict[str, Role] = {}
_roles_lock = threading.Lock()


def remember_role(streamlit_session: str, role: Role) -> None:
    """Record the role this Streamlit session's last run was checked as."""
    with _roles_lock:
        if len(_roles) > 20_000:  # sessions that ended long ago
            _roles.clear()
        _roles[streamlit_session] = role


def role_of(streamlit_session: str) -> Role | None:
    with _roles_lock:
        return _roles.get(streamlit_session)


# --- the browser's language ----------------------------------------------------------------
def _scope_language(scope) -> str:
    accepted = next((v for k, v in scope.get("headers", []) if k == b"accept-language"), b"")
    return browser_language(accepted.decode("latin-1"))


def _request_language(request: Request) -> str:
    return browser_language(request.headers.get("accept-language"))


# --- cookies --------------------------------------------------------------------------------
def _secure(request: Request) -> bool:
    return request.url.scheme == "https"


def _set_cookie(response: Response, request: Request, name: str, value: str,
                seconds: int) -> None:
    response.set_cookie(name, value, max_age=seconds, path="/", httponly=True,
                        samesite="strict", secure=_secure(request))


def _signed_in(request: Request, redeemed: Any, next_page: str) -> JSONResponse:
    response = JSONResponse({"ok": True, "next": next_page})
    _set_cookie(response, request, SESSION_COOKIE, redeemed.session_id,
                access.SESSION_MAX_HOURS * 3600)
    _set_cookie(response, request, DEVICE_COOKIE, redeemed.device, access.DEVICE_DAYS * 86400)
    return response


def _same_origin(request: Request) -> bool:
    """A cookie-setting post must come from STSA's own pages (SameSite covers browsers; this
    covers a page that sends no Origin check of its own)."""
    origin = request.headers.get("origin")
    return origin is None or origin.split("://", 1)[-1] == request.headers.get("host", "")


async def _body(request: Request) -> str | None:
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > BODY_LIMIT:
            return None
        chunks.append(chunk)
    return b"".join(chunks).decode("utf-8", "replace").strip()


def _refuse(message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"ok": False, "message": message}, status_code=status)


async def _session(request: Request) -> Response:
    """The handoff code of a sign-in, once, becomes the session cookie."""
    with i18n.language(_request_language(request)):
        if not _same_origin(request):
            return _refuse(_("Sign in from STSA's own page."), 403)
        code = await _body(request)
        engine = _engine()
        redeemed = code and access.redeem_handoff(engine, code,
                                                       device=request.cookies.get(DEVICE_COOKIE))
        if not redeemed:
            return _refuse(_("That sign-in has expired. Sign in again."), 403)
        return _signed_in(request, redeemed, "/")


async def _sign_out(request: Request) -> Response:
    """End the session the cookie names and forget the cookie (the device cookie stays)."""
    if not _same_origin(request):
        with i18n.language(_request_language(request)):
            return _refuse(_("Sign out from STSA's own page."), 403)
    access.sign_out(_engine(), request.cookies.get(SESSION_COOKIE))
    response = JSONResponse({"ok": True})
    response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="strict",
                           secure=_secure(request))
    return response


async def _join(request: Request) -> Response:
    """An invitation token (posted by the join page) opens a judge's session."""
    with i18n.language(_request_language(request)):
        if not _same_origin(request):
            return _refuse(_("Open the invitation from its QR code."), 403)
        token = await _body(request)
        try:
            redeemed = access.join(_engine(), token or "", client=_client(request),
                                        device=request.cookies.get(DEVICE_COOKIE))
        except TournamentError as exc:  # its words in the browser's language too
            return _refuse(str(exc), 403)
    return _signed_in(request, redeemed, "/results" + _tournament_query(redeemed.actor.tournament))


def _tournament_query(tournament_id: int | None) -> str:
    """R27: "?t=<key>" of the tournament an invitation lets a judge into, when the
    installation holds several (with one, addresses carry none)."""
    listed = database.tournaments(_engine())
    if tournament_id is None or len(listed) < 2:
        return ""
    found = address_keys.key_of(listed, tournament_id)
    return f"?{urllib.parse.urlencode({'t': found})}" if found else ""


_JOIN_HTML = """<!doctype html>
<html lang="{lang}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer"><title>{title}</title>
<style>body{{font-family:sans-serif;background:#fbf8f3;color:#140d07;margin:2rem;
font-size:1.2rem}}a{{color:#9a5218}}</style></head>
<body><h1>{heading}</h1><p id="say">{waiting}</p>
<script>
(function () {{
  var token = window.location.hash.slice(1);
  history.replaceState(null, "", window.location.pathname);
  var say = document.getElementById("say");
  if (!token) {{ say.textContent = {missing}; return; }}
  fetch({route}, {{method: "POST", credentials: "same-origin", body: token,
                   headers: {{"Content-Type": "text/plain"}}}})
    .then(function (r) {{ return r.json(); }})
    .then(function (answer) {{
      if (answer.ok) {{ window.location.replace(answer.next); }}
      else {{ say.textContent = answer.message; }}
    }})
    .catch(function () {{ say.textContent = {failed}; }});
}})();
</script>
<noscript><p>{noscript}</p></noscript>
<p><a href="/">{home}</a></p></body></html>"""


async def _join_page(request: Request) -> Response:
    with i18n.language(_request_language(request)) as lang:
        page = _JOIN_HTML.format(
            lang=lang, title=html.escape(_("STSA: sign in as a judge")),
            heading=html.escape(_("Signing you in as a judge…")),
            waiting=html.escape(_("One moment.")), route=json.dumps(JOIN_ROUTE),
            missing=_script_text(_("This address holds no invitation. Scan the organizer's "
                                   "QR code again.")),
            failed=_script_text(_("STSA could not be reached. Check the Wi-Fi and scan "
                                  "again.")),
            noscript=html.escape(_("This page needs JavaScript to sign you in.")),
            home=html.escape(_("Go to the tournament without signing in")))
    return HTMLResponse(page, headers={"Cache-Control": "no-store"})


def _script_text(words: str) -> str:
    """`words` as a string of the page's script (a translation holds no markup)."""
    return json.dumps(words).replace("<", "\\u003c")


# The app's one engine per database (stsa.ui.session.engine), handed in by the server when it
# builds the app, so that this module and the session module do not import each other.
engine_source: Callable[[], Any] | None = None


def _engine():
    if engine_source is None:
        raise RuntimeError("stsa.web.server.build_app hands the routes their engine")
    return engine_source()


def _client(request: Request) -> str:
    return request.client.host if request.client else "local"


def routes() -> list[Route]:
    """STSA's routes beside Streamlit's (all under paths Streamlit does not use)."""
    return [Route(SESSION_ROUTE, _session, methods=["POST"]),
            Route(SIGN_OUT_ROUTE, _sign_out, methods=["POST"]),
            Route(JOIN_ROUTE, _join, methods=["POST"]),
            Route(JOIN_PAGE, _join_page, methods=["GET"])]


# --- the guard ---------------------------------------------------------------------------------
_HEADERS = [(b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"no-referrer"),
            (b"x-frame-options", b"SAMEORIGIN")]
_HSTS = (b"strict-transport-security", b"max-age=31536000")


def _upload_count(streamlit_session: str) -> int:
    from streamlit.runtime import Runtime
    manager = Runtime.instance().uploaded_file_mgr
    files = getattr(manager, "file_storage", {}).get(streamlit_session, {})
    return len(files)


def upload_refusal(method: str, path: str, length: int | None) -> tuple[int, str] | None:
    """Why Streamlit's upload route must not take this request, or None when it may: only a
    page run as the organizer uploads (rosters, restores), one file at most `UPLOAD_BYTES`,
    at most `UPLOADS_PER_SESSION` held at once (R20)."""
    parts = path[len(_UPLOAD_PREFIX):].split("/")
    streamlit_session = parts[0] if parts else ""
    if role_of(streamlit_session) is not Role.ORGANIZER:
        return 403, _("Only the organizer can upload files.")
    if method == "PUT":
        if length is None:
            return 411, _("Say how large the file is.")
        if length > UPLOAD_BYTES:
            return 413, _("That file is too large.")
        if _upload_count(streamlit_session) >= UPLOADS_PER_SESSION:
            return 429, _("Too many files at once: remove one first.")
    return None


FEED_PREFIXES = ("/api/", "/overlay/")  # the data feed and the stream overlays' pages
feed_app: Any = None  # the data feed's ASGI router (`stsa.web.feed`), set where the app is built


class Guard:
    """Pure ASGI middleware in front of every route (Streamlit's and STSA's), and the way
    into the data feed."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        path, method = scope.get("path", ""), scope.get("method", "GET")
        if path in _HIDDEN:
            with i18n.language(_scope_language(scope)):
                gone = Response(_("Not found"), status_code=404)
            return await gone(scope, receive, send)
        if path.startswith(_UPLOAD_PREFIX):
            length = next((v for k, v in scope.get("headers", []) if k == b"content-length"),
                          None)
            try:
                size = int(length) if length is not None else None
            except ValueError:
                size = -1
            with i18n.language(_scope_language(scope)):
                refused = upload_refusal(method, path, size) if size != -1 \
                    else (400, _("Bad size."))
            if refused:
                return await Response(refused[1], status_code=refused[0])(scope, receive, send)
            receive = _capped(receive, UPLOAD_BYTES)
        secure = scope.get("scheme") == "https"

        async def with_headers(message):
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", [])) + _HEADERS + ([_HSTS] if secure else [])
                message = {**message, "headers": headers}
            await send(message)

        if feed_app is not None and path.startswith(FEED_PREFIXES):
            # The data feed needs none of Streamlit's middleware (sessions, gzip, its paths'
            # checks): answered here, a poll costs the server a fraction of what it would.
            return await feed_app(scope, receive, with_headers)
        return await self.app(scope, receive, with_headers)


def _capped(receive, limit: int):
    """`receive` that ends the request once its body passes `limit` bytes, whatever the
    Content-Length said."""
    seen = 0

    async def wrapped():
        nonlocal seen
        message = await receive()
        if message["type"] == "http.request":
            seen += len(message.get("body", b""))
            if seen > limit:
                return {"type": "http.disconnect"}
        return message

    return wrapped
