"""A tournament recreated from its workbook (R19): the file parsed by
`stsa.formats.workbook_reader`, every row checked with the validators entry uses, then
written through the store in one transaction, all or nothing.

A restore takes nothing that entry would refuse: a seed that is not a whole number, a count
beyond what a judge may enter, a tie-break below 1, results in a sitting that was never
published. The checks run in two rounds, each naming every problem by sheet and row
("Results sheet, row 7: …"): first the file's shape as the database holds it (cells that must
be filled, text lengths, repeated keys, ids that point at nothing), then the tournament's own
rules, as roster entry (R19), the draw (R1, R3, R9), result entry (R11–R13), the sitting
statuses (R20) and the settings check them (`stsa.services.restore_checks`).

The messages are in the reader's language; the sheets and columns they point at are named as
the file names them (a Swedish workbook's "Resultat", a French one's "Résultats").
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import pandas as pd

from stsa import i18n, store
from stsa.auth import Actor, require
from stsa.domain import (
    Role,
    TournamentError,
)
from stsa.formats import workbook_reader
from stsa.formats.workbook_reader import RestoreError
from stsa.formats.workbook_sheets import SHEET_OF
from stsa.i18n import N_, _, ngettext
from stsa.services import bulk
from stsa.services.restore_checks import Frames, named_as, rule_problems, shape_problems
from stsa.store import db


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
