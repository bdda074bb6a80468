"""A tournament recreated from its workbook (R19): the file parsed by
`stsa.formats.workbook_reader`, every row checked with the validators entry uses, then
written through the store in one transaction, all or nothing.

A restore takes nothing that entry would refuse: a seed that is not a whole number, a count
beyond what a judge may enter, a tie-break below 1, results in a sitting that was never
published. The checks run in two rounds, each naming every problem by sheet and row
("Results sheet, row 7: …"): first the file's shape as the database holds it (cells that must
be filled, text lengths, repeated keys, ids that point at nothing), then the tournament's own
rules, as roster entry (R19), the draw (R1, R3, R9), result entry (R11–R13), the sitting
statuses (R20) and the settings check them.

The messages are in the reader's language; the sheets and columns they point at are named as
the file names them (a Swedish workbook's "Resultat", a French one's "Résultats").
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

import pandas as pd
from sqlalchemy import UniqueConstraint

from stsa import i18n, store
from stsa.auth import Actor, require
from stsa.domain import (
    Kind,
    PlayerStatus,
    Problem,
    Role,
    SittingStatus,
    TournamentError,
    sitting_label,
    table_label,
)
from stsa.formats import workbook_reader
from stsa.formats.guards import at_row
from stsa.formats.workbook_reader import RestoreError
from stsa.formats.workbook_sheets import HEADING_OF, SHEET_OF
from stsa.i18n import N_, _, ngettext
from stsa.services import bulk
from stsa.settings import REGISTRY
from stsa.store import checks, db, game_results, roster, schema
from stsa.store import schedule as store_schedule

Frames = dict[str, pd.DataFrame]  # store table -> rows, indexed by spreadsheet row number


@dataclass(frozen=True, eq=False)
class RestoreOutcome(Mapping):
    """What a restore brought in: the file's name (`source`; None when it had none) and how
    many rows each table received (`rows`: {"players": 24, …}). Reads as the dict it
    replaces too: `outcome["players"]`, `outcome["source"]`."""

    source: str | None
    rows: Mapping[str, int]
    #: R27: the address key the restored tournament has (None: an engine on no listed
    #: tournament) and the one the workbook recorded (None: an older workbook, whose
    #: tournament gets its name's). They differ when another tournament here has that key.
    key: str | None = None
    recorded_key: str | None = None

    def __getitem__(self, key: str):
        return self.source if key == "source" else self.rows[key]

    def __iter__(self):
        return iter(("source", *self.rows))

    def __len__(self) -> int:
        return 1 + len(self.rows)


Progress = Callable[[float, str], None]


def restore_workbook(engine, source: Any, *, actor: Actor,
                     progress: Progress | None = None) -> RestoreOutcome:
    """Recreate a tournament from its `tournament_workbook` file in an EMPTY database (no
    players, no sittings): players (nicknames, registration order and check-in times too),
    settings, sittings (with their rule changes), tables, seats, sit-outs, the waiting list,
    results with their versions, votes, wild cards, absences and the log, keeping every id,
    so printed slips stay valid. Workbooks of earlier releases restore too (a nickname they
    lack is the name), and so does one a spreadsheet application opened and saved.

    Organizer only (R20); all or nothing. A file that is not an STSA workbook, a hostile or
    damaged one, or rows that entry would refuse raise `RestoreError`, its `problems` naming
    each sheet and row; a database that already holds a tournament, `InvalidState`. Standings,
    finals and the other computed columns are recomputed, not read. The file's log is its own
    record, which anyone can edit in a spreadsheet: every event it brings in is marked as
    coming from that file (its actor "Olivia (from the workbook spring.xlsx, restored
    2026-03-07 09:41 UTC)", `workbook_reader.mark_imported`), so the Log page shows it as imported
    history (R19). The log gains one `tournament.restore` event. Returns how many rows each
    table received and `source`, the file's name.
    """
    require(actor, Role.ORGANIZER, action=N_("restore a tournament"))
    tell = progress or (lambda _fraction, _words: None)
    with bulk.collector_paused():
        return _restore_parsed(engine, _parsed(source, tell), actor=actor, tell=tell)


def restore_workbook_as_new(installation, source: Any, *, actor: Actor,
                            progress: Progress | None = None) -> tuple[int, str, Any]:
    """R19, R27: `restore_workbook` into a NEW tournament named as the workbook's Settings
    sheet names it (`restore_as_new`), reading the file once. Returns (its id, its name,
    the `RestoreOutcome`); `progress(fraction, words)` as `restore_workbook` tells it."""
    require(actor, Role.ORGANIZER, action=N_("restore a tournament"))
    tell = progress or (lambda _fraction, _words: None)
    with bulk.collector_paused():
        parsed = _parsed(source, tell)
        return restore_as_new(installation, lambda engine: _restore_parsed(
            engine, parsed, actor=actor, tell=tell), _name_in(parsed.tables["settings"]),
            actor=actor)


def key_words(outcome: RestoreOutcome) -> str:
    """R27: what a restore did with the tournament's links, in words: the key the workbook
    recorded kept, or given a number because another tournament here has it, or (an older
    workbook) the key of its name; "" for an engine on no listed tournament."""
    if outcome.key is None:
        return ""
    if outcome.recorded_key is None:
        return _("Its links use “{key}”, from its name (this workbook records no links).").format(
            key=outcome.key)
    recorded = store.key_of(outcome.recorded_key)
    if outcome.key != recorded:
        return _("Its links use “{key}”: “{recorded}” belongs to another tournament "
                 "here.").format(key=outcome.key, recorded=recorded)
    return _("Its links are the ones it had (“{key}”).").format(key=outcome.key)


def _parsed(source: Any, tell: Progress) -> workbook_reader.ParsedWorkbook:
    """The workbook read (`workbook_reader.parse_workbook`), telling each sheet as it goes."""
    tell(0.0, _("Reading the workbook…"))
    sheets = len(SHEET_OF)
    return workbook_reader.parse_workbook(source, sheet_step=lambda i, title: tell(
        0.05 + 0.4 * i / sheets, _("Reading the {sheet} sheet…").format(sheet=_(title))))


def _restore_parsed(engine, parsed: workbook_reader.ParsedWorkbook, *, actor: Actor,
                    tell: Progress) -> RestoreOutcome:
    """`restore_workbook`'s checks and writing, for a workbook read already."""
    results = len(parsed.tables["results"])
    with named_as(parsed):
        for fraction, check in ((0.5, shape_problems), (0.7, rule_problems)):
            tell(fraction, ngettext("Checking {count} result…", "Checking {count} results…",
                                    results).format(count=i18n.number(results)))
            problems = check(parsed.tables)
            if problems:
                raise workbook_reader.restore_error(problems)
    tables = {**parsed.tables, "events": workbook_reader.mark_imported(
        parsed.tables["events"], parsed.source, dt.datetime.now(dt.UTC))}
    rows = sum(len(frame) for frame in tables.values())
    tell(0.8, _("Checking the rows once more before saving…"))
    try:
        counts = store.load_tournament(
            engine, _stored(tables), actor=actor, source=parsed.source or _("the workbook"),
            checked=lambda: tell(0.9, ngettext("Saving {count} row…", "Saving {count} rows…",
                                               rows).format(count=i18n.number(rows))))
    except (store.InvalidState, store.PermissionDenied):
        raise
    except TournamentError as exc:  # a rule of the store's own the checks above do not know
        raise RestoreError(str(exc), exc.problems) from exc
    key = None
    if db.tournament_id(engine) is not None:  # its links as the workbook records them
        key = store.adopt_key(engine, parsed.key or _name_in(parsed.tables["settings"])
                              or _("Restored tournament"), actor=actor)
    tell(1.0, _("Restored."))
    return RestoreOutcome(source=parsed.source, rows=dict(counts), key=key,
                          recorded_key=parsed.key)


def restore_as_new(installation, restore: Callable[[Any], Any], name: str, *,
                   actor: Actor) -> tuple[int, str, Any]:
    """R27: a restore that makes a NEW tournament and never touches another: a tournament
    named `name` (with " (restored)" when another has that name) is created, `restore(engine)`
    fills it, and the restored name is set again; on failure the half-made tournament is
    deleted and the error raised. Returns (its id, its name, what `restore` returned)."""
    require(actor, Role.ORGANIZER, action=N_("restore a tournament"))
    taken = {str(n).casefold() for n in _names(installation)}
    wanted = " ".join(str(name or "").split()) or _("Restored tournament")
    if wanted.casefold() in taken:
        wanted = _("{name} (restored)").format(name=wanted)
    made = store.create_tournament(installation, wanted, actor=actor)
    engine = store.open_tournament(installation, made.tournament_id)
    try:
        outcome = restore(engine)
        named = store.typed_settings(engine).tournament_name
        if named != wanted and store.archived(engine) is None:
            store.set_settings(engine, {"tournament_name": wanted}, actor=actor, keep_key=True)
    except BaseException:  # all or nothing: the restore left it empty
        store.delete_tournament(engine, actor=actor,
                                confirm=store.typed_settings(engine).tournament_name)
        raise
    finally:
        if engine is not installation:
            engine.dispose()
    return made.tournament_id, wanted, outcome


def _names(installation) -> list[str]:
    names = []
    for tid in store.tournaments(installation)["tournament_id"]:
        engine = store.open_tournament(installation, int(tid))
        try:
            names.append(store.typed_settings(engine).tournament_name)
        finally:
            if engine is not installation:
                engine.dispose()
    return names


def _name_in(settings: pd.DataFrame) -> str:
    """The tournament name a parsed Settings sheet holds ("" when none)."""
    found = settings.loc[settings["key"] == "tournament_name", "value"]
    return str(json.loads(found.iloc[0])) if len(found) else ""


def _stored(frames: Frames) -> Frames:
    """The frames as `store.load_tournament` takes them: leader lists as JSON text."""
    as_json = {c: frames["tables"][c].map(lambda v: json.dumps(v or [], ensure_ascii=False))
               for c in ("removed_leaders", "available_leaders")}
    return {**frames, "tables": frames["tables"].assign(**as_json)}


# How the file being restored names its sheets and columns (`named_as`); English without one.
_NAMING: ContextVar[workbook_reader.ParsedWorkbook | None] = ContextVar("restore_naming",
                                                                 default=None)


@contextmanager
def named_as(parsed: workbook_reader.ParsedWorkbook) -> Iterator[None]:
    """The checks inside name sheets and columns as the workbook `parsed` names them."""
    token = _NAMING.set(parsed)
    try:
        yield
    finally:
        _NAMING.reset(token)


def _sheet(table: str) -> str:
    """The name of the sheet that restores `table`, as the file calls it."""
    parsed = _NAMING.get()
    return (parsed.sheets.get(table) if parsed else None) or SHEET_OF[table]


def _heading(table: str, col: str) -> str:
    """The heading of `table`'s column `col`, as the file calls it."""
    parsed = _NAMING.get()
    return (parsed.headings.get((table, col)) if parsed else None) or HEADING_OF[(table, col)]


def _row_of(table: str, row: int) -> str:
    """"Players sheet, row 7", as `at_row` says it."""
    return at_row(row, "", _sheet(table)).where or ""


def _at(table: str, row: int, what: str) -> Problem:
    """A problem with row `row` of the sheet that restores `table`."""
    return at_row(row, what, _sheet(table))


def _records(frame: pd.DataFrame) -> list[dict]:
    """A parsed sheet's rows as {column: value} (`to_dict("records")` of its plain values,
    built column by column)."""
    columns = list(frame.columns)
    return [dict(zip(columns, values))
            for values in zip(*(frame[c].tolist() for c in columns))] if columns else [
        {} for _x in range(len(frame))]


def _values(words) -> set[str]:
    return {w.value for w in words}


def _refused(where: str, check: Callable[[], Any]) -> str | None:
    """What an entry validator refuses (its message without the `where` it was given), or
    None when it passes."""
    try:
        check()
    except (TournamentError, ValueError, TypeError) as exc:  # TypeError: a value of a kind
        text = str(exc)  # the check never met
        for said in (f"{where}: ", f"{where} : ", f"{where}\u00a0: "):
            text = text.removeprefix(said)
        return text.removesuffix(".")
    return None


# -- round 1: the shape the database holds -------------------------------------------------------
def shape_problems(frames: Frames) -> list[Problem]:
    """Cells every row needs, text that is too long, keys that repeat and ids that point at
    nothing, as the database schema declares them."""
    problems: list[Problem] = []
    for name, frame in frames.items():
        table = schema.metadata.tables[name]
        problems += _missing(name, frame, table.columns)
        problems += _too_long(name, frame, table.columns)
        problems += _repeated(name, frame, table)
        problems += _dangling(name, frame, table, frames)
    return problems


def _missing(name: str, frame: pd.DataFrame, columns: Iterable) -> list[Problem]:
    needed = [c.name for c in columns if c.name in frame and not c.nullable
              and c.server_default is None]
    return [_at(name, row, _("{column} is missing").format(column=_heading(name, col)))
            for col in needed for row in frame.index[frame[col].isna()]]


def _too_long(name: str, frame: pd.DataFrame, columns: Iterable) -> list[Problem]:
    problems = []
    for col in columns:
        limit = getattr(col.type, "length", None)
        if col.name not in frame or not limit:
            continue
        lengths = frame[col.name].map(lambda v: len(v) if isinstance(v, str) else 0)
        problems += [_at(name, row, _("{column} is longer than {limit} characters "
                                      "({length})").format(
                              column=_heading(name, col.name), limit=limit, length=n))
                     for row, n in lengths.loc[lengths > limit].items()]
    return problems


def _repeated(name: str, frame: pd.DataFrame, table) -> list[Problem]:
    """Rows whose key (the primary key or a unique set of columns) an earlier row has."""
    keys = [list(table.primary_key.columns.keys())] + [
        list(c.columns.keys()) for c in table.constraints if isinstance(c, UniqueConstraint)]
    problems = []
    for key in (k for k in keys if set(k) <= set(frame.columns)):
        first = (pd.Series(frame.index, index=frame.index)
                 .groupby([frame[c] for c in key], dropna=True).transform("first"))
        headings = ", ".join(_heading(name, c) for c in key)
        problems += [_at(name, row, _("repeats the {columns} of row {row}").format(
                         columns=headings, row=int(earlier)))
                     for row, earlier in first.loc[first.notna() & (first != first.index)]
                     .items()]  # a key with a blank part (an item that is no sitting) is none
    return problems


def _dangling(name: str, frame: pd.DataFrame, table, frames: Frames) -> list[Problem]:
    """Rows that name a player, sitting, table or seat the workbook does not hold."""
    problems = []
    for key in table.foreign_key_constraints:
        cols, target = list(key.column_keys), key.referred_table.name
        known = set(frames[target][[e.column.name for e in key.elements]]
                    .itertuples(index=False, name=None))
        here = frame[cols].dropna()
        for row, values in zip(here.index, here.itertuples(index=False, name=None)):
            if values not in known:
                named = ", ".join(f"{_heading(name, c)} {v}" for c, v in zip(cols, values))
                problems.append(_at(name, row, _("{values} is not on the {sheet} sheet").format(
                    values=named, sheet=_sheet(target))))
    return problems


# -- round 2: the tournament's rules, as entry checks them ---------------------------------------
def rule_problems(frames: Frames) -> list[Problem]:
    """Every row through the validators entry uses: roster entry, settings, the draw, result
    entry and the sitting statuses, absences and the log's roles."""
    return [*_players(frames["players"]), *_settings(frames["settings"]),
            *_sittings(frames), *_seat_sittings(frames), *_results(frames),
            *_statuses(frames), *_absences(frames["absences"]), *_events(frames["events"]),
            *_schedule(frames["schedule_items"])]


def _schedule(items: pd.DataFrame) -> list[Problem]:
    """R26: each schedule item as planning it checks it (its kind, number, title, length)."""
    problems = []
    for row, item in zip(items.index, _records(items)):
        where = _row_of("schedule_items", row)
        refused = _refused(where, lambda: store_schedule.check_item(item, where))  # noqa: B023
        if refused:
            problems.append(_at("schedule_items", row, refused))
    return problems


def _players(players: pd.DataFrame) -> list[Problem]:
    """R19: names, nicknames, clubs, emails and extra details as `store.add_player` takes
    them; no two names, and no two nicknames (R22; a blank nickname is the name), the same
    player."""
    problems: list[Problem] = []
    first_row: dict[str, int] = {}
    first_nick: dict[str, int] = {}
    fields = (("name", roster.NAME_MAX, True), ("nickname", roster.NICKNAME_MAX, False),
              ("club", roster.CLUB_MAX, False), ("email", roster.EMAIL_MAX, False))
    for row, p in zip(players.index, _records(players)):
        where = _row_of("players", row)
        refused = [_refused(where, lambda: roster._text(p[f], f, limit, where, required=req))  # noqa: B023
                   for f, limit, req in fields]
        refused.append(_refused(where, lambda: roster._extra(json.loads(p["extra"] or "{}"),  # noqa: B023
                                                             where)))  # noqa: B023
        if p["status"] is not None and p["status"] not in _values(PlayerStatus):
            refused.append(_("status must be {choices}, not {value}").format(
                choices=_(" or ").join(PlayerStatus), value=repr(p["status"])))
        key = store.normalize_name(p["name"] or "")
        if key and key in first_row:
            refused.append(_("the same name as row {row} ({name})").format(
                row=first_row[key], name=p["name"]))
        first_row.setdefault(key, row)
        nick = store.normalize_name(p["nickname"] or p["name"] or "")
        if nick and nick in first_nick:
            refused.append(_("the same nickname as row {row} ({nickname})").format(
                row=first_nick[nick], nickname=p["nickname"] or p["name"]))
        first_nick.setdefault(nick, row)
        problems += [_at("players", row, what) for what in refused if what]
    return problems


def _settings(settings: pd.DataFrame) -> list[Problem]:
    """R4, R5, R7, R9, R10, R12: each setting through `store.set_settings`' validator."""
    problems = []
    for row, key, value in zip(settings.index, settings["key"], settings["value"]):
        found = REGISTRY.get(key)
        check = found.check if found else None
        refused = (_("{key} is not a setting").format(key=repr(key)) if check is None
                   else _refused("", lambda: check(json.loads(value))))  # noqa: B023
        if refused:
            problems.append(_at("settings", row, refused if check is None
                                else f"{key} {refused}"))
    return problems


def _draw(sitting: dict, tables: pd.DataFrame, seats: pd.DataFrame,
          sit_outs: pd.DataFrame) -> SimpleNamespace:
    """A sitting's rows in the shape `store.save_draw` takes (`.seed, .tables, .seats,
    .sit_outs`), the seed a whole number where its text is one."""
    at = tables.loc[tables["sitting_id"] == sitting["id"]]
    table_no = dict(zip(at["id"], at["table_no"]))
    seated = seats.loc[seats["table_id"].isin(table_no)]
    seed = game_results._whole(sitting["seed"])
    return SimpleNamespace(
        seed=sitting["seed"] if seed is None else seed, tables=at,
        seats=seated.assign(table_no=seated["table_id"].map(table_no)),
        sit_outs=sit_outs.loc[sit_outs["sitting_id"] == sitting["id"], "player_id"].tolist())


def _sittings(frames: Frames) -> list[Problem]:
    """R1, R3, R9, R16: each sitting's kind and status, and its draw (seed, tables, seats,
    colours, pick order, sit-outs) through the draw's own check."""
    problems = []
    for row, s in zip(frames["sittings"].index, _records(frames["sittings"])):
        where = _row_of("sittings", row)
        label = sitting_label(s["kind"], s["number"])
        refused = [_refused(where, lambda: checks.check_kind(s["kind"]))]  # noqa: B023
        if s["status"] not in _values(SittingStatus):
            refused.append(_("status must be {choices}, not {value}").format(
                choices=", ".join(SittingStatus), value=repr(s["status"])))
        if s["number"] < 1 or (s["kind"] != Kind.QUALIFIER and s["number"] != 1):
            refused.append(_("{sitting} cannot be number {number}: qualifiers count from 1, "
                             "and there is one semifinal and one final").format(
                sitting=label, number=s["number"]))
        draw = _draw(s, frames["tables"], frames["seats"], frames["sit_outs"])
        wrong_draw = _refused(where, lambda: checks.check_draw(draw))  # noqa: B023
        refused.append(wrong_draw and _("{sitting}: {problem}").format(
            sitting=label, problem=wrong_draw))
        problems += [_at("sittings", row, what) for what in refused if what]
    return problems


def _seat_sittings(frames: Frames) -> list[Problem]:
    """A seat belongs to the sitting of its table."""
    seats, tables = frames["seats"], frames["tables"]
    of_table = seats["table_id"].map(dict(zip(tables["id"], tables["sitting_id"])))
    wrong = seats.loc[seats["sitting_id"] != of_table]
    return [_at("seats", row, _("sitting_id is {sitting} but table {table} belongs to "
                                "sitting {other}").format(sitting=s, table=t, other=o))
            for row, s, t, o in zip(wrong.index, wrong["sitting_id"], wrong["table_id"],
                                    of_table.loc[wrong.index])]


def _seated(frames: Frames) -> dict[int, dict[int, SimpleNamespace]]:
    """{table id: {player id: (seat, name)}}, as result entry looks a table's players up."""
    names = dict(zip(frames["players"]["id"], frames["players"]["name"]))
    seated: dict[int, dict[int, SimpleNamespace]] = {}
    seats = frames["seats"]
    for table_id, seat, player_id in zip(seats["table_id"], seats["seat"], seats["player_id"]):
        seated.setdefault(table_id, {})[player_id] = SimpleNamespace(
            seat=seat, name=names.get(player_id))
    return seated


def _table_results(rows: list[tuple[int, dict]], table: dict, seated: dict,
                   label: str) -> list[Problem]:
    """R11-R13: one table's result rows ((spreadsheet row, record)) through result entry's
    check. When it refuses, each row is checked alone to name the rows at fault; a fault
    between rows (a leader taken twice, a seat without a result) is named at the table's
    first row."""
    def check(records: list[dict], players: dict) -> str | None:
        # the wild card setting may have changed since: a removed leader is one of the table's
        refused = _refused(label, lambda: game_results._check_rows(
            records, players, table["available_leaders"] or [], table["removed_leaders"] or [],
            label, True))
        return refused and refused.removesuffix(". Nothing was saved")

    whole = check([rec for _x, rec in rows], seated)
    if whole is None:
        return []
    each = [(row, check([rec], {p: s for p, s in seated.items() if p == rec["player_id"]}))
            for row, rec in rows]
    found = [(row, what) for row, what in each if what] or [(rows[0][0], whole)]
    return [_at("results", row, _("{table}, {problem}").format(table=label, problem=what))
            for row, what in found]


def _results(frames: Frames) -> list[Problem]:
    """R11-R13: every table's result as result entry takes it; each result row of its
    table's version and in its player's seat."""
    tables = {t["id"]: t for t in _records(frames["tables"])}
    sittings = {s["id"]: s for s in _records(frames["sittings"])}
    seated = _seated(frames)
    by_table: dict[int, list[tuple[int, dict]]] = {}
    results = frames["results"]
    for row, rec in zip(results.index, _records(results)):
        by_table.setdefault(rec["table_id"], []).append((row, rec))
    right = checks.plainly_right(results, frames["seats"], {  # removed ones: the wild card
        t: {*(table["available_leaders"] or []), *(table["removed_leaders"] or [])}
        for t, table in tables.items()})
    problems = []
    for table_id, rows in by_table.items():
        if table_id in right:  # what the check takes as it is, found for all tables at once
            continue
        table = tables[table_id]
        sitting = sittings[table["sitting_id"]]
        label = table_label(sitting["kind"], sitting["number"], table["table_no"])
        problems += _table_results(rows, table, seated.get(table_id, {}), label)
    return problems + _versions(frames, tables) + _seats_of_results(frames, seated)


def _versions(frames: Frames, tables: dict[int, dict]) -> list[Problem]:
    """R13, R19: a result's rows carry their table's version; a table without a result has
    version 0."""
    results = frames["results"]
    version_of = {t: table["result_version"] for t, table in tables.items()}
    wrong = results.loc[results["version"] != results["table_id"].map(version_of)]
    problems = [_at("results", row, _("version is {version} but its table's version is "
                                      "{expected}").format(version=v, expected=version_of[t]))
                for row, v, t in zip(wrong.index, wrong["version"], wrong["table_id"])]
    with_result = set(results["table_id"])
    empty = frames["tables"].loc[~frames["tables"]["id"].isin(with_result)
                                 & (frames["tables"]["result_version"] != 0)]
    return problems + [_at("tables", row, _("version is {version} but the table has no "
                                            "result (version 0)").format(version=v))
                       for row, v in empty["result_version"].items()]


def _seats_of_results(frames: Frames, seated: dict) -> list[Problem]:
    results = frames["results"]
    return [_at("results", row, _("seat is {seat} but player {player} sits in seat "
                                  "{other} on the {sheet} sheet").format(
                    seat=seat, player=p, other=seated[t][p].seat, sheet=_sheet("seats")))
            for row, t, p, seat in zip(results.index, results["table_id"],
                                       results["player_id"], results["seat"])
            if p in seated.get(t, {}) and seated[t][p].seat != seat]


def _statuses(frames: Frames) -> list[Problem]:
    """R20: results are entered once a sitting is published, and a sitting is complete once
    every table has a result."""
    tables = frames["tables"]
    reported = tables["id"].isin(set(frames["results"]["table_id"]))
    problems = []
    for row, s in zip(frames["sittings"].index, _records(frames["sittings"])):
        mine = tables["sitting_id"] == s["id"]
        label = sitting_label(s["kind"], s["number"])
        if s["status"] == SittingStatus.DRAWN and (mine & reported).any():
            problems.append(_at("sittings", row, _(
                "{sitting} is drawn (not published) but has results; results are entered "
                "once a sitting is published").format(sitting=label)))
        missing = sorted(tables.loc[mine & ~reported, "table_no"])
        if s["status"] == SittingStatus.COMPLETE and missing:
            problems.append(_at("sittings", row, ngettext(
                "{sitting} is complete but table {tables} has no result",
                "{sitting} is complete but tables {tables} have no result",
                len(missing)).format(sitting=label, tables=", ".join(map(str, missing)))))
    return problems


def _absences(absences: pd.DataFrame) -> list[Problem]:
    """R17: absences are for the finals."""
    return [_at("absences", row, _("unknown stage {stage}; absences are for {stages}").format(
                stage=repr(stage), stages=", ".join(roster.STAGES)))
            for row, stage in absences["stage"].items() if stage not in roster.STAGES]


def _events(events: pd.DataFrame) -> list[Problem]:
    """R19, R20: the log names each actor's role."""
    return [_at("events", row, _("role must be {choices}, not {value}").format(
                choices=", ".join(Role), value=repr(role)))
            for row, role in events["role"].items() if role not in _values(Role)]


def backup_name(path: Any) -> str:
    """The tournament name a backup file holds ("" when it cannot be read)."""
    import sqlite3

    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            row = conn.execute("SELECT value FROM settings WHERE key = 'tournament_name'"
                               ).fetchone()
        finally:
            conn.close()
        return str(json.loads(row[0])) if row else ""
    except (sqlite3.Error, ValueError):
        return ""
