"""The checks a workbook's rows pass before a restore writes them (R19), in two rounds, each
naming every problem by sheet and row ("Results sheet, row 7: …"): first the file's shape as
the database holds it (cells that must be filled, text lengths, repeated keys, ids that point
at nothing), then the tournament's own rules, as roster entry (R19), the draw (R1, R3, R9),
result entry (R11–R13), the sitting statuses (R20) and the settings check them. Sheets and
columns are named as the file names them (`named_as`). `stsa.services.restore` runs them.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from types import SimpleNamespace
from typing import Any

import pandas as pd
from sqlalchemy import UniqueConstraint

from stsa import store
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
from stsa.formats.workbook_sheets import HEADING_OF, SHEET_OF
from stsa.i18n import _, ngettext
from stsa.settings import REGISTRY
from stsa.store import checks, game_results, roster, schema
from stsa.store import schedule as store_schedule

Frames = dict[str, pd.DataFrame]  # store table -> rows, indexed by spreadsheet row number


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
