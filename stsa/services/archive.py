"""Publishing results (README, "Publishing results"): one zip of a finished tournament that
opens from the file system and can be uploaded to any web host: HTML pages (the overview,
the final and qualifier standings, the finals, every published sitting's tables and results,
the charts as SVG images), the data feed's JSON answers and the CSV files.

Everything in it is what the data feed gives a spectator (R20, R22): the JSON files are the
feed's own answers, shaped by `services.feed` with its allow-lists, from the same public reads
(nicknames only; no real name, club, e-mail, removed leader, vote or unpublished draw), and
the pages are written from those answers alone (`formats.archive`). The charts are the
Statistics page's own (`stsa.charts`), drawn to SVG.

`reads` is a tournament's shared public reads (`stsa.ui.data.public`, as the feed's): each
frame is computed once per data version for the pages, the feed and this alike. No
Streamlit here.

The zip speaks the tournament's language (`settings.language`, None: English): its pages, the
charts' titles and the feed's words in its JSON, as the feed gives them by default. What this
tells the organizer while it works (`progress`, `NotFinished`) is in the page's own language.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import altair as alt
import pandas as pd
import vl_convert

from stsa import charts, i18n
from stsa.domain import Kind, SittingStatus, TournamentError
from stsa.formats import archive as pages
from stsa.formats.csv import csv_bytes
from stsa.i18n import N_, _
from stsa.services import feed as shape
from stsa.services import results as results_service
from stsa.services import schedule as schedule_service

Progress = Callable[[float, str], object]  # what it returns is not used
CHART_WIDTH = 720  # px: the static charts' width (the pages' charts follow the screen's)


class NotFinished(TournamentError):
    """The final has no result yet: there are no final results to publish."""


@dataclass(frozen=True)
class Archive:
    """The zip (`content`), the folder it unpacks to and every path inside that folder."""

    content: bytes
    folder: str
    files: tuple[str, ...]


def _quiet(fraction: float, words: str) -> None:
    """No progress shown (scripts, tests)."""


def finished(sittings: pd.DataFrame) -> bool:
    """R18: whether the tournament is over: its final is complete (every table's result in)."""
    final = sittings.loc[sittings["kind"] == Kind.FINAL]
    return bool(len(final)) and bool((final["status"] == SittingStatus.COMPLETE).all())


def not_finished_words(sittings: pd.DataFrame) -> str:
    """Why the results cannot be published yet, in words an organizer can act on."""
    final = sittings.loc[sittings["kind"] == Kind.FINAL]
    if final.empty:
        return _("Results can be published once the tournament is finished: the final has not "
                 "been drawn yet. Until then the live pages and the data feed show where "
                 "everyone stands.")
    return _("Results can be published once the tournament is finished: the final's result "
             "is not in yet. Save it on the Results page, then publish.")


def _json(payload: Any) -> bytes:
    return (json.dumps(payload, ensure_ascii=False, indent=1) + "\n").encode()


def _csv(frame: pd.DataFrame) -> bytes:
    """A frame as the feed's CSV answers are (`stsa.web.feed`): its columns, nulls empty."""
    rows = frame.astype(object).where(frame.notna(), None).to_numpy().tolist()
    return csv_bytes(list(frame.columns), rows)


def chart_svgs(frames: dict) -> list[tuple[str, str, bytes]]:
    """The Statistics page's charts (`stsa.charts`) from `stats` frames, as (title, file,
    SVG) for each chart that has anything to show, titled in this run's language. Drawn
    with no network: the data is in the chart, and no other address may be read."""
    made: list[tuple[str, str, alt.TopLevelMixin]] = []
    if len(frames["ranked"]):
        line = frames["cut"]
        made.append((_("Best scores"), "best-scores", charts.best_scores(
            frames["ranked"], line.direct, line.semifinal)))
    for title, name, frame, draw in (
            (N_("Qualifier scores per sitting"), "sittings", frames["spread"],
             charts.score_spread),
            (N_("Leaders"), "leaders", frames["leaders"], charts.leaders),
            (N_("Win rate by seat"), "seats", frames["seats"], charts.seats),
            (N_("Setups played"), "setups", frames["setups"], charts.setups)):
        if len(frame):
            made.append((_(title), name, draw(frame)))
    return [(title, f"{pages.CHARTS_DIR}/{name}.svg", vl_convert.vegalite_to_svg(
                chart.properties(width=CHART_WIDTH).to_dict(), allowed_base_urls=[]).encode())
            for title, name, chart in made]


def payloads(reads, key: str) -> dict[str, dict]:
    """Every feed answer of the tournament, by its file in the archive's data folder: the
    tournament, schedule, sittings, standings, finals, and each published sitting with its
    results: shaped exactly as the feed shapes them (`stsa.web.feed`), from the same reads."""
    settings = reads.settings()
    frame = reads.schedule()
    standings = reads.standings()
    names = dict(zip(standings["player_id"], standings["name"].astype(str)))
    scored = reads.scored_results(None)
    found = {
        "tournament.json": shape.tournament(
            key, reads.home_status(), settings, archived=reads.archived(),
            days=schedule_service.tournament_days(settings, frame)),
        "schedule.json": shape.schedule(key, frame, schedule_service.public_schedule(
            frame, settings.zone), str(settings.zone)),
        "sittings.json": shape.sittings(key, reads.sittings()),
        "standings.json": shape.standings(key, reads.standings_shown(),
                                          reads.standings_notes().cut),
        "finals.json": shape.finals(key, reads.finals(), reads.finals_status(), names),
    }
    for row in shape.public_sittings(reads.sittings()).to_dict("records"):
        ref, sid = shape.sitting_ref(row["kind"], row["number"]), int(row["sitting_id"])
        found[f"sittings/{ref}.json"] = shape.sitting(key, row, reads.sitting_overview(sid),
                                                      scored)
        found[f"sittings/{ref}/results.json"] = shape.results(
            key, ref, results_service.sitting_results(scored, sid))
    return found


def _write_pages(files: dict[str, bytes | str], name: str, answers: dict[str, dict],
                 shown: list[tuple[str, str]], refs: list[str]) -> None:
    """The archive's HTML pages into `files`, written from the feed's `answers`."""
    files[pages.INDEX] = pages.index_page(answers["tournament.json"], answers["sittings.json"],
                                          shown, answers["schedule.json"])
    files[pages.STANDINGS] = pages.standings_page(name, answers["standings.json"])
    files[pages.FINALS] = pages.finals_page(name, answers["finals.json"],
                                            answers["sittings.json"])
    files[pages.CHARTS] = pages.charts_page(name, shown)
    for ref in refs:
        data = [f"{pages.DATA_DIR}/sittings/{ref}.json",
                f"{pages.DATA_DIR}/sittings/{ref}/results.json",
                f"{pages.DATA_DIR}/sittings/{ref}/results.csv"]
        files[pages.sitting_file(ref)] = pages.sitting_page(
            name, answers[f"sittings/{ref}.json"], answers[f"sittings/{ref}/results.json"],
            data)


def publish(reads, key: str, *, progress: Progress = _quiet) -> Archive:
    """R20, R22: the finished tournament's results as one zip (`Archive`), its folder named by
    `key`, in the tournament's language; `NotFinished` (nothing written) while the final's
    result is not in. `progress` is told how far it has got (0 to 1) and what it is doing, in
    words (the run's language)."""
    sittings = reads.sittings()
    if not finished(sittings):
        raise NotFinished(not_finished_words(sittings))
    spoken = reads.settings().language
    progress(0.05, _("Gathering the standings, finals and sittings…"))
    with i18n.language(spoken):
        answers = payloads(reads, key)
        standings_csv = _csv(shape.standings_csv_frame(reads.standings_shown()))
    name = str(answers["tournament.json"]["name"] or key)
    files: dict[str, bytes | str] = {f"{pages.DATA_DIR}/{path}": _json(payload)
                                     for path, payload in answers.items()}
    files[f"{pages.DATA_DIR}/standings.csv"] = standings_csv
    scored, public = reads.scored_results(None), shape.public_sittings(sittings)
    ids = {shape.sitting_ref(k, n): int(i) for k, n, i in zip(
        public["kind"], public["number"], public["sitting_id"])}
    refs = [r["sitting"] for r in answers["sittings.json"]["sittings"]]
    for ref in refs:
        files[f"{pages.DATA_DIR}/sittings/{ref}/results.csv"] = _csv(
            results_service.sitting_results(scored, ids[ref]).rename(
                columns=shape.RESULT_FIELDS))
    progress(0.25, _("Drawing the charts…"))
    with i18n.language(spoken):
        drawn = chart_svgs(reads.statistics())
    for _title, path, svg in drawn:
        files[path] = svg
    shown = [(title, path) for title, path, _svg in drawn]
    progress(0.75, _("Writing the pages…"))
    with i18n.language(spoken):
        _write_pages(files, name, answers, shown, refs)
    progress(0.95, _("Packing the zip…"))
    folder = f"{key}-results"
    content = pages.zip_bytes(folder, files)
    progress(1.0, _("Done."))
    return Archive(content=content, folder=folder, files=tuple(sorted(files)))
