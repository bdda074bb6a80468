"""The pages' reads, computed once per data version and shared by every session (DESIGN.md,
"Shared state").

The store moves the data version (`store.data_version`) in the transaction of every logged
write and never repeats it. A page run asks for `data.now()` once: one tiny read of the
version. Everything it then reads (settings, players, sittings, scored results, standings, the
statistics frames, the finals view …) comes from a shelf shared by every session of this app
process, computed the first time anyone asks for it at that version and kept until the
version moves. So a hundred phones refreshing the standings cost one computation per change,
not one per phone; a sign-in (no tournament data) leaves everything warm, and a save makes
only what depends on the data computed again, once.

Shared values are in English, whoever reads first: each is computed in English
(`i18n.language`), and pages translate them where they show them (`i18n.headings`,
`i18n.cells`). A value that is words already (the standings' notes, a player's page, sitting
names) is kept per language as well, computed in the language of the runs that read it.

Caches only save work: nothing here guards access (the role's view is part of each key; the
store checks every write), and a shelf dropped by any client is simply filled again. Values
are shared, not copied: callers treat frames and dicts from here as read-only.
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any

import pandas as pd
import streamlit as st

from stsa import catalog, i18n, stats
from stsa.domain import Kind, Role, sitting_label
from stsa.services import bookings as booking_service
from stsa.services import capacity, draws, home, player, results, setups, sitting_plan
from stsa.services import clock as clock_service
from stsa.services import finals as finals_service
from stsa.services import log as log_service
from stsa.services import reads as stored
from stsa.services import schedule as schedule_service
from stsa.services import sittings as sitting_service
from stsa.services.reads import SYSTEM
from stsa.services.shared import ResultsLog, Shelf
from stsa.services.snapshot import Snapshot
from stsa.settings import Settings
from stsa.ui import finals as finals_view
from stsa.ui import live, session, sittings
from stsa.ui.sittings import ResultTables

VERSIONS = session.VERSIONS  # each tournament's data version, read a moment ago at most


@st.cache_resource(show_spinner=False)
def _shelf(url: str) -> Shelf:
    return Shelf()


@st.cache_resource(show_spinner=False)
def _results(url: str) -> ResultsLog:
    """Every stored result, kept across data versions (only what was saved since is read)."""
    return ResultsLog()


def shelf(url: str | None = None) -> Shelf:
    """The shared shelf of this app's database."""
    return _shelf(url or session.data_key())


def clear() -> None:
    """Forget every shared value (tests and benchmarks: a cold start). Never needed after a
    write: the data version moves by itself."""
    _shelf.clear()
    _results.clear()


def now(role: Role | None = None) -> Data:
    """The tournament as it stands for this run, as `role` (default: the signed-in person's)
    may see it (R20): its data version as this process read it a moment ago
    (`VERSIONS`)."""
    url = session.data_key()
    version = VERSIONS.current(session.engine())
    staff = (session.role() if role is None else role).is_staff
    return Data(url, staff, version, session.tournament_id())


def public(tournament_id: int, version: int | None = None) -> Data:
    """Tournament `tournament_id` as a spectator sees it now, outside any page run (the data
    feed, R22): the same shared reads, under the same keys, as its pages' spectators use.
    `version`: its data version when the caller has just read it."""
    if version is None:
        version = VERSIONS.current(session.engine_of(int(tournament_id)))
    return Data(session.data_key_of(int(tournament_id)), False, version, int(tournament_id))


def _in(language: str, compute: Callable[[], Any]) -> Any:
    """`compute()` in `language` (a shared value's words, never its first reader's)."""
    with i18n.language(language):
        return compute()


@dataclass(frozen=True)
class StandingsNotes:
    """The standings in words: the cut (R16), the champion and podium once the final is in
    ("" before), the zone colours' legend ("" before a cut), the
    shared ranks across a cut line (R14; none: empty). Kept per language (`Data._worded`)."""

    cut: str
    podium: str
    legend: str
    ties: tuple[str, ...]


@dataclass(frozen=True)
class Data:
    """What one run reads, at one data version. `staff`: the judges' and organizer's view
    (drafts, removed leaders, contact details, R20), else what a spectator may see.

    The store's frames are read through two snapshots kept per version, one as a spectator
    sees the tournament and one as the system does (`services.snapshot.Snapshot`, each frame
    read once, on first use, by whichever session asks first; frames the same in both views,
    like the results, read once for both); everything derived from them is kept per version
    too. A frame is read at the version the run saw or a later one, so nothing shared is ever
    older than its key says; a run that races a write may mix the two versions once, and the
    next run reads the new version afresh."""

    url: str
    staff: bool
    version: int
    tournament: int | None = None  # whose data (`session.engine_of`); None: the own one

    @property
    def engine(self):
        return session.engine_of(self.tournament)

    @functools.cached_property
    def _shelf(self) -> Shelf:
        # looked up once per run: Streamlit's cache lookup costs more than most reads it saves
        return shelf(self.url)

    def _get(self, key: Hashable, compute: Callable[[], Any]) -> Any:
        """The version's value under `key`, computed in English: the same for every reader,
        whatever language the first one reads (pages translate it where they show it)."""
        return self._shelf.get(key, self.version, lambda: _in(i18n.ENGLISH, compute))

    def _worded(self, key: Hashable, compute: Callable[[], Any]) -> Any:
        """A value in words ("Qualifier 2 · published", a player's standing in a sentence):
        kept per version and per language, computed in this run's language."""
        language = i18n.current()
        return self._shelf.get((key, language), self.version, lambda: _in(language, compute))

    def _snap(self, staff: bool | None = None) -> Snapshot:
        """The version's snapshot for the staff's view (`staff`, default: this run's view)
        or the public one."""
        staff = self.staff if staff is None else staff
        if not staff:
            return self._get(("snapshot", False), lambda: Snapshot(
                self.engine, actor=None,
                read_results=lambda: _results(self.url).read(self.engine)))
        return self._get(("snapshot", True), lambda: Snapshot(
            self.engine, actor=SYSTEM, like=self._snap(False)))

    # --- reads of the store, as this run's view may see them -----------------------------------

    def settings(self) -> Settings:
        return self._snap(False).settings

    def kept(self, key: Hashable, compute: Callable[[], Any]) -> Any:
        """Any value derived from this version's reads, computed once per version under
        `key` and shared (the data feed's answers)."""
        return self._get(("kept", key), compute)

    def schedule(self) -> pd.DataFrame:
        """R26: the schedule frame (`services.schedule.schedule`), public to everyone."""
        return self._get("schedule", lambda: schedule_service.schedule(self.engine))

    def archived(self) -> bool:
        """R27: whether this tournament is archived (read once per data version: archiving
        and reopening are logged, so they move it)."""
        return self._get(("archived",), lambda: stored.archived(self.engine))

    def players(self) -> pd.DataFrame:
        return self._snap().players

    def sittings(self) -> pd.DataFrame:
        return self._snap().sittings

    def sitting_rows(self) -> dict[int, dict]:
        """Each sitting as a dict, by id, kept per version: a run that needs one sitting's
        fields (the Results page, every keystroke of a judge) looks it up, no frame filtered."""
        return self._get(("sitting_rows", self.staff), lambda: dict(zip(
            self.sittings()["sitting_id"].astype(int),
            self.sittings().to_dict("records"))))

    def finals_drawn(self) -> list[str]:
        """`services.results.finals_drawn` of this view's sittings, kept per version."""
        return self._worded(("finals_drawn", self.staff),
                         lambda: results.finals_drawn(self.sittings()))

    def sitting_overview(self, sitting_id: int) -> pd.DataFrame:
        return self._get(("sitting_overview", int(sitting_id), self.staff),
                         lambda: sitting_service.overview_of(self._snap(), int(sitting_id)))

    def sit_outs(self, sitting_id: int) -> pd.DataFrame:
        """R1: who the draw chose to sit a sitting out (unpublished draws: staff only)."""
        return self._get(("sit_outs", int(sitting_id), self.staff), lambda: stored.sit_outs(
            self.engine, int(sitting_id), actor=SYSTEM if self.staff else None))

    def waiting(self, sitting_id: int) -> pd.DataFrame:
        """R21: a qualifier's waiting list (unpublished draws: staff only)."""
        return self._get(("waiting", int(sitting_id), self.staff), lambda: stored.waiting(
            self.engine, int(sitting_id), actor=SYSTEM if self.staff else None))

    def table(self, table_id: int) -> pd.DataFrame:
        """One table (a `store.tables` row) as this view may see it; empty if none."""
        return self._snap().table(int(table_id))

    def played_seats(self) -> pd.DataFrame:
        """The seats of the published and complete qualifiers (`services.draws.history`)."""
        return self._get(("played_seats", self.staff), lambda: draws.history(self._snap()))

    def home_status(self) -> home.HomeStatus:
        """`services.home.home_status`, the podium from the shared `finals_status`."""
        return self._get(("home_status", self.staff),
                         lambda: home.status_of(self._snap(), self.finals_status))

    def enabled_setups(self, kind: Kind = Kind.QUALIFIER) -> pd.DataFrame:
        """R5, R23: the setups sittings of `kind` draw from."""
        return self._get(("enabled_setups", kind),
                         lambda: setups.from_settings(self.settings(), kind))

    # --- derived tables (public: results exist for published sittings only) -------------------

    def scored_results(self, kind: Kind | None = Kind.QUALIFIER) -> pd.DataFrame:
        """R11–R13: the results of `kind` (every kind for None), scored, with names. Every
        kind is read and scored once; a kind is a slice of it."""
        every = self._get("scored", lambda: results.scored(self._snap(False), None))
        if kind is None:
            return every
        return self._get(("scored", kind), lambda: every.loc[every["kind"] == kind]
                         .reset_index(drop=True))

    def standings(self) -> pd.DataFrame:
        """R14–R16: the qualifier standings with zones (`services.results.standings`)."""
        def compute() -> pd.DataFrame:
            snap = self._snap(False)
            return results.standings(self.scored_results(), snap.names,
                                     results.qualifier_players(snap))
        return self._get("standings", compute)

    def finals_status(self) -> pd.DataFrame:
        """Where each player stands in the finals now (`services.finals.finals_status`):
        entrants, absences, wildcards, the contest and the podium, for every role (no draft's
        tables: who plays where follows from the cut and published results)."""
        return self._get("finals_status",
                         lambda: finals_service.finals_status(self.finals()))

    def standings_shown(self) -> pd.DataFrame:
        """The standings as the Standings and TV pages show them (`ui.finals.standings_frame`
        with each player's finals status)."""
        return self._get("standings_shown", lambda: finals_view.standings_frame(
            self.standings(), self.finals_status()))

    def standings_table(self):
        """The whole standings as the Standings page shows them (`standings_shown`, zones as
        coloured tags), as an Arrow table: converted once per version, not on every
        spectator's refresh."""
        return self._get("standings_table", lambda: live.arrow(live.zone_tags(
            self.standings_shown())))

    def standings_notes(self) -> StandingsNotes:
        """What the Standings page says above the table (R14, R16), worded once per
        version."""
        def compute() -> StandingsNotes:
            table = self.standings()
            names = dict(zip(table["player_id"], table["name"].astype(str)))
            return StandingsNotes(cut=finals_view.cut_caption(table),
                                  podium=finals_view.podium_line(self.finals_status(), names),
                                  legend=live.zone_legend(stats.cut(table)),
                                  ties=tuple(finals_view.tie_warnings(table)))
        return self._worded("standings_notes", compute)

    def sitting_choices(self, statuses: tuple | None = None) -> dict[int, str]:
        """`ui.sittings.sitting_choices` of the sittings this view sees, per version."""
        return self._worded(("sitting_choices", statuses, self.staff),
                         lambda: sittings.sitting_choices(self.sittings(), statuses))

    def sitting_names(self) -> dict[int, str]:
        """sitting_id → "Qualifier 2", "Semifinal" for the sittings this view sees."""
        def compute() -> dict[int, str]:
            rows = self.sittings()
            return {int(i): sitting_label(k, n)
                    for i, k, n in zip(rows["sitting_id"], rows["kind"], rows["number"])}
        return self._worded(("sitting_names", self.staff), compute)

    def result_tables(self, sitting_id: int) -> ResultTables:
        """`ui.sittings.result_tables` of a sitting: its table choices, the tables waiting for
        a result and each table's seats, per version."""
        return self._worded(("result_tables", int(sitting_id), self.staff),
                         lambda: sittings.result_tables(self.sitting_overview(sitting_id)))

    def sitting_results(self, sitting_id: int):
        """A sitting's stored results as the Results page lists them (R13, R20), as an Arrow
        table converted once per version."""
        return self._get(("sitting_results", int(sitting_id)), lambda: live.arrow(
            sittings.results_frame(self.scored_results(None), int(sitting_id))))

    def statistics(self) -> dict:
        """The Statistics and TV pages' aggregated frames (`stsa.stats`):
        `ranked, cut, spread, leaders, seats, setups`."""
        def compute() -> dict:
            table, scored = self.standings(), self.scored_results()
            every = catalog.setups(battle_of_wills=True)
            return {"ranked": stats.ranked_scores(table), "cut": stats.cut(table),
                    "spread": stats.score_spread(scored),
                    "leaders": stats.leader_stats(scored, every),
                    "seats": stats.seat_stats(scored),
                    "setups": stats.setup_usage(self._snap(False).setup_counts(),
                                                setups.setup_names(), every)}
        return self._get("statistics", compute)

    def clock(self, sitting_id: int | None = None) -> clock_service.SittingClock | None:
        """R26: the clock of the sitting being played (or of `sitting_id`) while it is
        published, as everyone sees it; None without one. Its actions are read once per
        version (every clock action is logged, so it moves the version); the time left is
        worked out at each run from them."""
        return self._worded(("clock", sitting_id), lambda: clock_service.clock_of(
            self._snap(False), sitting_id))

    # --- bookings and self check-in (R25): the public's view ----------------------------------

    def next_plan(self) -> sitting_plan.SittingPlan:
        """R25: the next qualifier's booking list, planned start and check-in deadline."""
        return self._get("next_plan", lambda: booking_service.next_plan(self._snap(False)))

    def booking_lines(self, player_id: int) -> list[str]:
        """R25: My seat's bookings and waiting place in words (`services.bookings.bookings_of`),
        kept per player, and afresh once the check-in deadline passes."""
        at = dt.datetime.now(dt.UTC)
        passed = self.next_plan().deadline_passed(at)
        return self._worded(("booking_lines", int(player_id), passed),
                         lambda: booking_service.bookings_of(self._snap(False), int(player_id),
                                                             now=at))

    # --- a player's own page: the public's view for everyone (R20, R22) -------------------------

    def player_directory(self) -> pd.DataFrame:
        """`services.player.directory`: every player's id and nickname, for the search."""
        return self._get("player_directory", lambda: player.directory(
            self._snap(False).players))

    def player_book(self) -> player.Book:
        """`services.player.prepare`: what every player's own page reads, as the public sees
        it, prepared once per version from the values every page shares (no words in it: its
        sentences are said in each reader's language when read, so one book serves all)."""
        def compute() -> player.Book:
            public = Data(self.url, False, self.version, self.tournament)
            sittings_ = public.sittings()
            playing = [int(s) for s in player.in_play(sittings_)["sitting_id"]]
            return player.prepare(
                players=public.players(), sittings=sittings_,
                seats={s: public.sitting_overview(s) for s in playing},
                sit_outs={s: public.sit_outs(s) for s in playing},
                scored=self.scored_results(), standings=self.standings(),
                finals=self.finals_status() if player.finals_started(sittings_) else None,
                waiting=capacity.waiting_of(self._snap(False)),  # R21, as public
                # R26: "over" only when no item is left to come (kept per version: an item
                # that passes later leaves "the final is played", never "over" beside "Next")
                schedule=self.schedule(), now=dt.datetime.now(dt.UTC))
        return self._get("player_book", compute)

    def said_about(self, player_id: int) -> str:
        """`services.player.said_about`: a player's standing in words, for others."""
        return self._worded(("said_about", int(player_id)),
                         lambda: player.said_about(self.player_book(), int(player_id)))

    # --- for every role, from the system's view -----------------------------------------------

    def finals(self) -> finals_service.Finals:
        """R16–R18 as they stand. It holds unpublished finals sittings: pages show those to
        judges and the organizer only (R20)."""
        return self._get("finals", lambda: finals_service.view_of(
            self._snap(True), self.standings()))  # the same standings: published results

    def draw_report(self, sitting_id: int):
        """A sitting's fairness check against the earlier qualifiers (staff only: it reads
        drafts, R20)."""
        return self._worded(("draw_report", int(sitting_id)),
                         lambda: draws.report_of(self._snap(True), int(sitting_id)))

    # --- not shared: the organizer's pages, read as they are ----------------------------------

    def events(self, action: str | None = None, by: str | None = None,
               subject: str | None = None, limit: int | None = None) -> pd.DataFrame:
        """The audit log, oldest first (R19); judges and the organizer only (R20)."""
        return stored.events(self.engine, actor=SYSTEM if self.staff else None,
                            action=action, by=by, subject=subject, limit=limit)

    def log(self, events: pd.DataFrame, *, find: str = "",
            limit: int | None = None) -> pd.DataFrame:
        """`events` as the Log page shows them, newest first, each in words with sittings,
        tables and players by name (`services.log.readable`, R19); only those whose words
        contain `find` (any case), at most `limit`."""
        snap = self._snap()
        tables = self._get(("table_numbers", self.staff), lambda: stored.table_numbers(
            self.engine, actor=SYSTEM if self.staff else None))
        log = log_service.readable(events, log_service.places_of(
            snap.names, snap.sittings, tables, events))
        find = " ".join(str(find).split())
        if find:
            log = log.loc[log["details"].str.contains(find, case=False, regex=False)]
        return log.head(limit) if limit is not None else log

    def backups(self) -> pd.DataFrame:
        """The backup files, newest first (files, not data: read each time)."""
        return stored.backups(self.engine)
