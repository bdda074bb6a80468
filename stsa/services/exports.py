"""Files out: the tournament workbook, the standings and results CSVs, and the printed table
slips and pairings. Each reads the store and hands plain rows to `stsa.formats`.

The workbook is built from one snapshot of the store (`store.dump_tournament`), the results'
placings and scores computed from that same snapshot, so a result saved while the file is made
cannot leave a row without its placing. The Finals sheet still reads the finals as they stand
a moment later (`services.finals.finals` reads the store itself).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import cast

import pandas as pd

from stsa import i18n, local_time, rules, store
from stsa.domain import Kind, PickMethod, SittingStatus, TournamentError, sitting_label
from stsa.formats import slips, workbook_sheets, workbook_writer
from stsa.formats.csv import csv_bytes
from stsa.i18n import N_, _, pgettext
from stsa.services import bulk, log
from stsa.services import finals as finals_service
from stsa.services import results as results_service
from stsa.services import season as season_service
from stsa.settings import REGISTRY, Settings
from stsa.store import db
from stsa.store.db import SYSTEM
from stsa.store.db import now as db_now
from stsa.store.tournaments import find  # the export's time (UTC, shown in the room's zone)

RESULT_COLUMNS = {"table_id": "int64", "player_id": "int64",
                  **{c: "int64" for c in (*rules.PLACING_ORDER, "variant_points")},
                  "tiebreak": "Int64"}
FINALS_COLUMNS = ["final_rank", "name", "stage", "wildcard", "best_score", "rank", "player_id"]
PODIUM = (N_("Champion"), N_("2nd place"), N_("3rd place"))
QUALIFIER = i18n.template(N_("Qualifier {number}"))  # a sitting as the results CSV names it
# The CSVs' headings (`formats.workbook_sheets`', in English there) and the columns whose words
# are translated too (statuses, Yes and No, sittings), for the people who read the CSVs.
CSV_HEADINGS = (N_("Rank"), N_("Player"), N_("Best score"), N_("Games"), N_("Wins"),
                N_("Best game placing"), N_("Best game VP"), N_("Best game spice"),
                N_("Best game solari"), N_("Best game troops"), N_("Best game water"),
                N_("Zone"), N_("Tie at the cut"), N_("Sitting"), N_("Table"), N_("Seat"),
                N_("Name"), N_("Nickname"), N_("Leader"), N_("VP"), N_("Spice"), N_("Solari"),
                N_("Troops"), N_("Water"), N_("Variant points"), N_("Tie-break"), N_("Placing"),
                N_("Qualifier score"), N_("Tied"), N_("Setup id"), N_("Version"),
                N_("Saved by"), N_("Saved at"), N_("Player id"), N_("Table id"),
                N_("Sitting id"))
CSV_WORDS = (N_("Yes"), N_("No"), N_("Final"), N_("Semifinal"), N_("Out"))
WORD_COLUMNS = {"Zone", "Tie at the cut", "Sitting", "Tied"}


# -- scores from the snapshot --------------------------------------------------------------------
def _base_points(dump: dict) -> tuple[int, ...]:
    """R12: the base points setting as the snapshot holds it, else the default."""
    stored = {s["key"]: s["value"] for s in dump["settings"]}
    value = stored.get("base_points")
    return tuple(json.loads(value) if value else store.DEFAULT_SETTINGS["base_points"])


def _scored(dump: dict) -> pd.DataFrame:
    """R11, R12: every result of the snapshot with `placing, qualifier_score, tied`, and the
    `kind` of its sitting (games are scored one by one, so every kind at once is the same)."""
    results = (pd.DataFrame(dump["results"], columns=list(RESULT_COLUMNS))
               .astype(RESULT_COLUMNS).rename(columns={"table_id": "game_id"}))
    sitting_of = {t["id"]: t["sitting_id"] for t in dump["tables"]}
    kind_of = {s["id"]: s["kind"] for s in dump["sittings"]}
    return rules.score_games(results, base_points=_base_points(dump)).assign(
        kind=lambda d: d["game_id"].map(sitting_of).map(kind_of))


def _finals(view: finals_service.Finals) -> pd.DataFrame | None:
    """R16–R18: the final standings once the final is complete, else who plays where; each
    with the player's best qualifier score and qualifier rank (R14)."""
    entrants = view.entrants
    wildcard = dict(zip(entrants["player_id"], entrants["wildcard"])) if len(entrants) else {}
    if view.final_standings is not None:
        frame = view.final_standings
    elif len(entrants):
        frame = entrants.assign(final_rank=None)
    else:
        return None
    qualifier = view.standings[["player_id", "name", "best_score", "rank"]]
    return (frame.drop(columns=["name", "best_score", "rank"], errors="ignore")
            .merge(qualifier, on="player_id", how="left")
            .assign(wildcard=lambda d: d["player_id"].map(wildcard),
                    stage=lambda d: d["stage"].astype(str).str.capitalize()))[FINALS_COLUMNS]


def _summary(dump: dict, standings: pd.DataFrame, finals: pd.DataFrame | None,
             key: str | None = None) -> list[tuple]:
    """The Summary sheet: the tournament at a glance, in (what, value) lines; `key`, its
    address key, is what a restore gives the restored tournament (R19, R27)."""
    stored = {s["key"]: json.loads(s["value"]) for s in dump["settings"]}
    name = stored.get("tournament_name") or store.DEFAULT_SETTINGS["tournament_name"]
    players = pd.DataFrame(dump["players"], columns=["status"])
    sittings = pd.DataFrame(dump["sittings"], columns=["kind", "number", "status"])
    qualifiers = sittings.loc[sittings["kind"] == Kind.QUALIFIER]
    tz = Settings.of({k: v for k, v in stored.items() if k in REGISTRY}).zone
    lines: list[tuple] = [(_("Tournament"), name),
                          *([(_(workbook_sheets.KEY_LINE), key)] if key else []),
                          (_("Exported"), local_time.date_words(db_now(), tz)),
                          (_("Time zone"), str(tz)),
                          (_("Players"), int((players["status"] == "active").sum())),
                          (_("Withdrawn"), int((players["status"] == "withdrawn").sum())),
                          (_("Qualifiers drawn"), len(qualifiers)),
                          (_("Qualifiers complete"),
                           int((qualifiers["status"] == SittingStatus.COMPLETE).sum()))]
    for kind in (Kind.SEMIFINAL, Kind.FINAL):
        mine = sittings.loc[sittings["kind"] == kind, "status"]
        status = str(mine.iloc[-1]) if len(mine) else None
        lines.append((sitting_label(kind, 1),
                      _status(status) if status is not None else _("Not drawn yet")))
    if finals is not None and finals["final_rank"].notna().any():
        for rank, label in enumerate(PODIUM, start=1):
            names = finals.loc[finals["final_rank"] == rank, "name"].tolist()
            if names:
                lines.append((_(label), ", ".join(map(str, names))))
    elif len(standings):
        lines.append((_("Leading the qualifiers"), ", ".join(
            map(str, standings.loc[standings["rank"] == standings["rank"].min(), "name"]))))
    lines.append((_("Reading this workbook"), _(
        "The export time above and the schedule's Starts column are in the tournament's time "
        "zone; the dates and times in the other columns are UTC, as stored (a restore reads "
        "them back). Nickname is the name a player is known by in public (standings, screens, "
        "slips); Name is the real name. Names and words come first on each sheet; ids (they "
        "link the sheets) and the stored values a restore reads back come last. The organizer "
        "restores the tournament from this file on the Data page.")))
    return lines


def _status(status: str) -> str:
    """A sitting's status on the Summary sheet ("Published"), in this run's language."""
    words = {SittingStatus.DRAWN: pgettext("sitting status", "Drawn"),
             SittingStatus.PUBLISHED: pgettext("sitting status", "Published"),
             SittingStatus.COMPLETE: pgettext("sitting status", "Complete")}
    return words.get(cast(SittingStatus, status)) or str(status).capitalize()


def _frame(rows: list[dict], spec: dict[str, str]) -> pd.DataFrame:
    """Dumped rows as a frame of the `spec` columns, renamed."""
    return pd.DataFrame(rows, columns=list(spec)).rename(columns=spec)


def _what_happened(dump: dict) -> list[str]:
    """R19: every event of the snapshot in words (`services.log`)."""
    events = log.parsed_once(pd.DataFrame(dump["events"], dtype=object,
                                          columns=["action", "subject", "before", "after"]))
    places = log.places_of(
        _frame(dump["players"], {"id": "player_id", "name": "name"}),
        _frame(dump["sittings"], {"id": "sitting_id", "kind": "kind", "number": "number"}),
        _frame(dump["tables"], {"id": "table_id", "sitting_id": "sitting_id",
                               "table_no": "table_no"}), events)
    return log.event_sentences(events, places).tolist()


# -- the workbook and CSVs -----------------------------------------------------------------------
Progress = Callable[[float, str], None]  # (fraction done, what is being done, in words)


def tournament_workbook(engine, *, progress: Progress | None = None) -> bytes:
    """The whole tournament as one .xlsx, as an organizer hands it out: a Summary sheet, the
    Standings and the Finals (with best scores and qualifier ranks) first, then Players (name
    and nickname first, extra details in words), Sittings, Tables, Seats, Results, Votes,
    Wild cards, Sit-outs, the Waiting list, Absences, the Schedule (R26), Settings (every
    setting, defaults marked), the Log (each event in words beside its values) and, when the
    tournament is in a season, the Season's standing (R27, nicknames only; a restore
    skips it); readable headings and labels, Yes and No, ids and stored values last; a bold
    frozen header, a filter, widths to fit and stored times as dates (UTC, labelled so on the
    Summary: a restore reads them back exactly); the export time and the schedule's starts read
    in the tournament's time zone (R26). "Name" is the real name and "Nickname" the public one on
    every sheet that names a player (R22). Text that looks like a formula is stored as text.
    `restore.restore_workbook` recreates the tournament from it (R19).

    R20: it holds removed leaders, emails and the log; offer it to the organizer only.
    Times keep whole milliseconds (what a workbook stores). `progress(fraction, words)` hears
    of each step (reading the tournament, then each sheet), rising from 0.0 to 1.0, in the
    language of the person waiting; the workbook's words are in the tournament's language
    (`Settings.language`; English without one), like its slips."""
    reader = i18n.current()

    def tell(fraction: float, words: Callable[[], str]) -> None:
        if progress is not None:
            with i18n.language(reader):
                progress(fraction, words())

    tell(0.0, lambda: _("Reading the tournament…"))
    with bulk.collector_paused():
        dump = store.dump_tournament(engine)
        tell(0.25, lambda: _("Arranging the sheets…"))
        with i18n.language(_language(engine)):
            data = _workbook(engine, dump, tell)
    tell(1.0, lambda: _("The workbook is ready."))
    return data


def _key(engine) -> str | None:
    """The tournament's address key (R27), or None for an engine on no listed tournament."""
    tid = db.tournament_id(engine)
    if tid is None:
        return None
    return str(find(db.installation(engine), tid)["key"])


def _workbook(engine, dump: dict, tell: Callable[[float, Callable[[], str]], None]) -> bytes:
    """`tournament_workbook`'s sheets from `dump`, written in this run's language."""
    scored = _scored(dump)
    qualifiers = scored.loc[scored["kind"] == Kind.QUALIFIER].drop(columns="kind")
    standings = results_service.standings_table(engine, qualifiers)
    finals = _finals(finals_service.finals(engine))
    sheets = workbook_writer.tournament_sheets(
        dump, scored=scored, standings=standings, finals=finals,
        summary=_summary(dump, standings, finals, _key(engine)),
        defaults=store.DEFAULT_SETTINGS,
        what_happened=_what_happened(dump))
    season = season_service.season_of(engine, db.tournament_id(engine))
    if season is not None:  # R27: the season's standing, nicknames only; a restore skips it
        sheets["Season"] = workbook_writer.frame_sheet(season_service.season_sheet(
            season_service.season_table(engine, season)))
    # reading and arranging take about half the time, writing the sheets the other half
    rows = [max(len(r), 1) for _, r in sheets.values()]
    done = [0, *(sum(rows[:i + 1]) for i in range(len(rows)))]

    def step(index: int, title: str) -> None:
        tell(0.5 + 0.5 * done[index] / done[-1],
             lambda: _("Writing the {sheet} sheet…").format(sheet=_(title)))

    return workbook_writer.write_workbook(sheets, step=step)


def _language(engine) -> str | None:
    """The tournament's language (`Settings.language`), that its paper is written in."""
    return store.typed_settings(engine).language


def _shown(headings: list[str], rows) -> tuple[list[str], list[list]]:
    """A CSV for people in this run's language: its headings, and the words of its
    `WORD_COLUMNS` (Yes and No, zones, sittings); names and numbers as they are."""
    words = [h in WORD_COLUMNS for h in headings]
    return ([_(h) for h in headings],
            [[i18n.cell(v) if w else v for v, w in zip(row, words)] for row in rows])


def standings_csv(engine) -> bytes:
    """The qualifier standings (`services.results.standings_table`, R14–R16) as people read
    them (`formats.workbook_writer.standings_sheet`: "Rank", "Player", "Best score" …, the zone
    as "Final" or "Semifinal", Yes or No), players by nickname only (R22: a file to post or
    hand out), as CSV (UTF-8 with BOM); formula-like text neutralised with a leading '."""
    table = workbook_writer.standings_sheet(results_service.standings_table(engine))
    return csv_bytes(*_shown(*workbook_writer.frame_sheet(table)))


def results_csv(engine) -> bytes:
    """Every result, one row per player per game (the workbook's Results sheet without the
    submission ids: name and nickname, Yes or No, times to the second and marked UTC), as CSV
    (UTF-8 with BOM); formula-like text neutralised with a leading '."""
    dump = store.dump_tournament(engine)
    sheet = workbook_writer.tournament_sheets(dump, scored=_scored(dump), titles=["Results"])
    headings, rows = sheet["Results"]
    kinds = {h: kind for h, _, kind in workbook_sheets.SHEETS["Results"][1]}
    keep = [i for i, h in enumerate(headings) if h != "Submission id"]
    shown, cells = _shown([headings[i] for i in keep], ([r[i] for i in keep] for r in rows))
    return csv_bytes([_("{heading} (UTC)").format(heading=h) if kinds[headings[i]] == "time"
                      else h for i, h in zip(keep, shown)], cells)


# -- paper ---------------------------------------------------------------------------------------
def _sitting_paper(engine, sitting_id: int) -> tuple[store.SittingRow, pd.DataFrame,
                                                    pd.DataFrame, str]:
    """The sitting, its tables and seats in the judges' view (drafts and leader lists, R20)
    with players by nickname (R22), and the tournament's name; `NotFound` for no such
    sitting."""
    sitting = store.sitting(engine, sitting_id)
    tables = store.tables(engine, sitting_id, actor=SYSTEM)
    if tables.empty:
        raise TournamentError(_("{sitting} has no tables to print.").format(
            sitting=sitting_label(sitting["kind"], sitting["number"])))
    seats = store.seats(engine, sitting_id, actor=SYSTEM).pipe(_nicknames)
    return sitting, tables, seats, store.typed_settings(engine).tournament_name


def _nicknames(frame: pd.DataFrame) -> pd.DataFrame:
    """R22: paper goes on the tables and walls, in public: players by nickname only."""
    return frame.assign(name=frame["nickname"]).drop(columns="nickname")


def _sit_out_names(engine, sitting_id: int) -> list[str]:
    return store.sit_outs(engine, sitting_id, actor=SYSTEM).pipe(_nicknames)["name"].tolist()


def table_slips(engine, sitting_id: int, *, judges_copy: bool,
                result_url: Callable[[int], str] | str) -> bytes:
    """A PDF with one A4 page per table of the sitting (`formats.slips.table_slips`: setup
    steps in R8's order, seats, picks, a result grid and a QR code opening the table's result
    entry). The judges' copy also lists the removed and available leaders; the players' copy
    never does (R20). For the organizer and judges: it reads unpublished draws."""
    sitting, tables, seats, name = _sitting_paper(engine, sitting_id)
    settings = store.typed_settings(engine)
    vote_off = settings.vote_off_votes if settings.pick_method == PickMethod.VOTE_OFF else None
    picks = _picks(engine, tables, vote_off) if judges_copy else {}
    return _printed(engine, lambda: slips.table_slips(
        sitting, tables, seats, tournament_name=name, judges_copy=judges_copy,
        result_url=result_url, **picks, steps_vote_off=vote_off, wild_card=settings.wild_card))


def _printed(engine, make: Callable[[], bytes]) -> bytes:
    """Paper for the tables and the wall, written in the tournament's language
    (`Settings.language`; English without one), whatever language the page reads: the slips
    and lists are read by everyone in the room."""
    with i18n.language(_language(engine)):
        return make()


def _picks(engine, tables: pd.DataFrame, vote_off: int | None) -> dict:
    """R10 for the judges' copy: X under Vote Off (`vote_off`, None otherwise), and the
    sitting's votes and Wild Card choices by table (hidden from spectators, R20)."""
    ids = [int(t) for t in tables["table_id"]]
    votes = [store.vote_off_votes(engine, t, actor=SYSTEM).assign(table_id=t) for t in ids]
    cards = [store.wild_card_choices(engine, t, actor=SYSTEM).assign(table_id=t) for t in ids]
    return {"vote_off_votes": vote_off,
            "votes": pd.concat(votes, ignore_index=True) if votes else None,
            "wild_cards": pd.concat(cards, ignore_index=True) if cards else None}


def pairings_by_name(engine, sitting_id: int, *, player_url: str | None = None) -> bytes:
    """Where do I sit? Every seated player of the sitting by name (compared as the roster
    compares names), with table, seat and colour; then who sits out (R1). With `player_url`,
    a QR code to the players' own page heads it."""
    sitting, _, seats, name = _sitting_paper(engine, sitting_id)
    sit_outs = _sit_out_names(engine, sitting_id)
    return _printed(engine, lambda: slips.pairings_by_name(
        sitting, seats, sit_outs, tournament_name=name, name_key=store.normalize_name,
        player_url=player_url))


def pairings_by_table(engine, sitting_id: int) -> bytes:
    """The sitting's tables for the wall, each with its setup and seats in play order; then
    who sits out (R1)."""
    sitting, tables, seats, name = _sitting_paper(engine, sitting_id)
    sit_outs = _sit_out_names(engine, sitting_id)
    return _printed(engine, lambda: slips.pairings_by_table(
        sitting, tables, seats, sit_outs, tournament_name=name))
