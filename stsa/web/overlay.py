"""R26: the stream overlays: a token's answer (the standings, what is next, a filmed table
with its clock) and its page (transparent, no Streamlit, `stsa.web.overlay_page`), served by
`stsa.web.feed` at `/api/v1/overlays/{token}` and `/overlay/{token}`.
"""

from __future__ import annotations

import time
from collections.abc import Hashable

import pandas as pd
from starlette.requests import Request
from starlette.responses import Response

from stsa import auth, i18n
from stsa.domain import TournamentError
from stsa.i18n import _
from stsa.services import feed as shape
from stsa.services import overlays as overlay_service
from stsa.services import player as player_service
from stsa.services import schedule as schedule_service
from stsa.services.shared import Answer
from stsa.ui import data, session
from stsa.web import overlay_page
from stsa.web.answers import as_json, refs
from stsa.web.cache import ANSWERS, HEADERS, Missing, answer, kept, missing, peek, reply
from stsa.web.language import asked, language_of


def _overlays(version: int) -> dict:
    """The live overlays by their token's hash, kept per installation data version."""
    return kept("overlays", version, lambda: overlay_service.live_overlays(session.installation()))


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
        return as_json(shape.overlay_standings(overlay, name, reads.standings_shown(),
                                               reads.standings_notes().cut, cut_rank))
    if overlay["kind"] == "next":
        frame = reads.schedule()
        public = schedule_service.public_schedule(frame, settings.zone)
        return as_json(shape.overlay_next(overlay, name, frame, public,
                                          pd.Timestamp.now(tz="UTC"), str(settings.zone)))
    sitting = reads.home_status().sitting
    table = clock = words = None
    if sitting is not None:
        row = next((r for r in refs(reads).values()
                    if int(r["sitting_id"]) == sitting.sitting_id), None)
        if row is not None:
            words = shape.sitting_words(row["kind"], row["number"])
            whole = shape.sitting("", row, reads.sitting_overview(sitting.sitting_id),
                                  reads.scored_results(None))
            table = next((t for t in whole["tables"]
                          if t["table"] == int(overlay["table_no"])), None)
            clock = _table_clock(reads, sitting.sitting_id, int(overlay["table_no"]))
    return as_json(shape.overlay_table(overlay, name, words, table, clock))


def _overlay_key(overlay: dict, request: Request) -> tuple[Hashable, Hashable]:
    """An overlay answer's key and the part of its stamp beside the data version: the minute
    for "next up" (what is next moves on with the time, not only with saves)."""
    minute = int(time.time() // 60) if overlay["kind"] == "next" else 0
    return ("overlay", session.database_url(), int(overlay["id"]), asked(request) or ""), minute


def fast(request: Request) -> Answer | None:
    inst = session.opened_engine_of(None)
    live = peek("overlays", data.VERSIONS.fresh(inst)) if inst is not None else None
    found = live.get(auth.token_hash(str(request.path_params["token"]))) if live else None
    engine = session.opened_engine_of(int(found["tournament_id"])) if found else None
    version = data.VERSIONS.fresh(engine) if engine is not None else None
    if found is None or version is None:
        return None
    key, minute = _overlay_key(found, request)
    return ANSWERS.peek(key, (version, minute))


def answered(request: Request) -> Response:
    token = request.path_params["token"]
    lang = language_of(request)
    with i18n.language(lang):  # its tournament unknown yet: the language asked for
        try:
            overlay = _overlay(token)
        except Missing as gone:
            return missing(str(gone))
        try:
            reads = data.public(int(overlay["tournament_id"]))
        except TournamentError:  # its tournament was deleted
            return missing(_("This overlay's tournament is no longer here."))
    lang = language_of(request, reads.settings())
    key, minute = _overlay_key(overlay, request)
    return reply(request, answer(key, (reads.version, minute), lang,
                                 lambda: _overlay_answer(overlay, reads)))


def page_of(request: Request) -> Response:
    """The overlay's page: transparent, no Streamlit, polling its answer with the ETag; its
    words in its tournament's language (or the one asked for)."""
    lang = language_of(request)
    try:
        with i18n.language(lang):
            overlay = _overlay(request.path_params["token"])
    except Missing as gone:
        return Response(overlay_page.gone(str(gone), lang), status_code=404,
                        media_type="text/html; charset=utf-8", headers=HEADERS)
    try:
        settings = data.public(int(overlay["tournament_id"])).settings()
    except TournamentError:  # its tournament was deleted: the answers say so
        settings = None
    return Response(overlay_page.page(language_of(request, settings)),
                    media_type="text/html; charset=utf-8",
                    headers=dict(HEADERS, **overlay_page.HEADERS))
