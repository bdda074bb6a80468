"""The tournament workbook written from plain rows (R19).

A Summary sheet, the Standings and the Finals first, then one sheet per table of the
tournament, names and labels first ("Qualifier 2", "Published", "Yes"), ids and the stored
values a restore reads back (JSON) last; each with a bold frozen header, a filter, widths to
fit and times as dates (UTC, what a restore reads back; the Schedule's "Starts" reads in the
tournament's time zone); text a spreadsheet would take for a formula is stored as text.
The workbook holds hidden information (removed leaders, emails, the log): organizer only
(R20).

Languages: the workbook is written in the tournament's language (its `language` setting;
English where it has none): sheet names, headings, labels, Yes and No, recorded in the file's
properties (`workbook_sheets` knows the words). Data stays as stored: names, numbers, setups,
leaders, keys and JSON.
"""

from __future__ import annotations

import datetime as dt
import io
import json
import operator
from collections.abc import Iterable, Mapping
from functools import cache
from typing import Any

import pandas as pd
from openpyxl.styles import Font, PatternFill

from stsa import catalog, i18n, local_time
from stsa.domain import sitting_label
from stsa.formats import xlsx_writer
from stsa.formats.workbook_sheets import (
    EXTRA_LABELS,
    PUBLIC_PLAYER,
    SHEETS,
    STANDINGS_HEADINGS,
    TOURNAMENT,
    WORDS,
    Sheet,
    key_index,
    language_of,
    sheet_title,
    word_label,
    yes_no,
)
from stsa.i18n import _
from stsa.settings import REGISTRY, Settings
from stsa.settings import label as setting_label
from stsa.settings import words as setting_words

HEADER_FONT = Font(bold=True)
HEADER_FILL = PatternFill("solid", fgColor="DDE3EA")
TIME_FORMAT = xlsx_writer.TIME_FORMAT
EXCEL_TEXT_MAX = 16_000  # Excel holds 32,767 UTF-16 units in a cell; any character is ≤ 2


class Sheets(dict):
    """{English sheet title: (headings, rows)} as `tournament_sheets` makes them; `language`
    is the one the labels in the rows are in (what `write_workbook` names the sheets in)."""

    def __init__(self, *args: Any, language: str = i18n.ENGLISH, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.language = language


# -- values as cells -----------------------------------------------------------------------------
def plain(value: Any) -> Any:
    """A Python value for a cell: numpy scalars unwrapped, every kind of missing as None."""
    kind = type(value)
    if kind is str or kind is int or kind is bool or kind is dt.datetime:  # the usual ones
        return value
    if value is None or value is pd.NA or value is pd.NaT:
        return None
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):
        value = value.item()
    if isinstance(value, float) and value != value:
        return None
    return value


def excel_time(value: Any) -> dt.datetime | None:
    """UTC, naive (Excel has no time zones), to the millisecond (what a workbook keeps)."""
    if value is None or value is pd.NaT:
        return None
    if isinstance(value, pd.Timestamp):
        value = value.to_pydatetime()
    if value.tzinfo is not None:
        value = value.astimezone(dt.UTC).replace(tzinfo=None)
    return value.replace(microsecond=value.microsecond // 1000 * 1000)


def _sheet_value(kind: str, value: Any) -> Any:
    value = plain(value)
    if value is None:
        return None
    if kind == "time":
        return excel_time(value)
    if kind == "list":
        return "; ".join(json.loads(value) if isinstance(value, str) else list(value))
    if kind == "int":
        return int(value)
    if kind == "bool":
        return yes_no(value)
    if kind.startswith("word:"):
        return word_label(kind[5:], value)
    return value


#: The Python types a column's values already have as cells (`_sheet_value` returns them
#: unchanged): the rows of a large tournament skip the general conversion.
_AS_IS = {"text": str, "int": int, "json": str, "num": int}


def _quick_words(kind: str) -> dict | None:
    """{stored value: its cell} of a column of Yes and No or of coded words, in this run's
    language, as `_sheet_value` writes them: looked up per cell instead of translated."""
    if kind == "bool":
        return {True: yes_no(True), False: yes_no(False)}
    if kind.startswith("word:"):
        return {code: _(label) for code, label in WORDS[kind[5:]].items()}
    return None


def _sheet_rows(records: list[dict], columns: list[tuple[str, str]]) -> list[list]:
    """Rows of `_sheet_value`s of each record's (key, kind) `columns`, column by column."""
    def converted(key: str, kind: str) -> list:
        same = _AS_IS.get(kind)
        try:
            values = list(map(operator.itemgetter(key), records))
        except KeyError:  # a record without the column: blank there
            values = [rec.get(key) for rec in records]
        words = _quick_words(kind)
        if words is not None:
            return [words[v] if (type(v) is bool or type(v) is str) and v in words
                    else _sheet_value(kind, v) for v in values]
        return [v if v is None or type(v) is same else _sheet_value(kind, v) for v in values]

    cols = [converted(key, kind) for key, kind in columns]
    return list(map(list, zip(*cols))) if cols else [[] for _x in records]


def frame_sheet(frame: pd.DataFrame, columns: list[str] | None = None) -> Sheet:
    """A frame as (headings, rows) of plain values."""
    frame = frame if columns is None else frame[columns]
    cells = [[plain(v) for v in frame.iloc[:, j].tolist()] for j in range(frame.shape[1])]
    return list(frame.columns), (list(map(list, zip(*cells))) if cells
                                 else [[] for _x in range(len(frame))])


def _detail_label(key: str) -> str:
    label = (_(EXTRA_LABELS[key]) if key in EXTRA_LABELS
             else " ".join(str(key).replace("_", " ").split()) or _("Detail"))
    return label[:1].upper() + label[1:]


def _detail_value(value: Any) -> str:
    if isinstance(value, bool):
        return yes_no(value)
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def extra_words(extra: Any) -> str | None:
    """R19: a player's extra details (a JSON object of {detail: value}, as stored, or that
    object) in words: "City: Umeå; Player id in the roster file: 12; Shirt size: L", the
    roster import's details first (`EXTRA_LABELS`), yes/no as words. None when there are
    none; text that is not a JSON object as it is."""
    try:
        details = json.loads(extra) if isinstance(extra, str) else extra
    except ValueError:
        return extra or None
    if not details:
        return None
    if not isinstance(details, dict):
        return str(extra)
    keys = [*(k for k in EXTRA_LABELS if k in details),
            *(k for k in details if k not in EXTRA_LABELS)]
    return "; ".join(_("{detail}: {value}").format(detail=_detail_label(k),
                                                    value=_detail_value(details[k]))
                     for k in keys)


#: Standings columns of whole numbers: a player seated with no result yet has none (blank).
_STANDINGS_NUMBERS = ["rank", "best_score", "games", "wins", "placing", "vp", "spice",
                      "solari", "troops", "water", "player_id"]


def standings_sheet(standings: pd.DataFrame,
                    real_names: Mapping[Any, Any] | None = None) -> pd.DataFrame:
    """R14–R16: the qualifier standings (`services.results.standings_table`'s frame) as
    people read them: the headings of `STANDINGS_HEADINGS` in their order, the zone in words
    ("Final", "Semifinal", "Out"; blank while there is none), the tie at the cut as Yes or
    No, whole numbers as whole numbers and blanks where a player seated with no result yet
    has none. With `real_names` ({player id: real name}: the organizer's workbook) both the
    Nickname and the Name; without, the nickname alone under "Player" (R22: a file that
    anyone may be shown)."""
    frame = standings.astype({c: "Int64" for c in _STANDINGS_NUMBERS if c in standings})
    if real_names is not None and "player_id" in frame:
        frame = frame.assign(real_name=frame["player_id"].map(real_names))
    if "zone" in frame:
        frame = frame.assign(zone=frame["zone"].map(
            {code: _(label) for code, label in WORDS["zone"].items()}).fillna(""))
    if "tie_at_cut" in frame:
        frame = frame.assign(tie_at_cut=frame["tie_at_cut"].fillna(False).astype(bool)
                             .map({True: yes_no(True), False: yes_no(False)}))
    headings = (STANDINGS_HEADINGS if real_names is not None
                else {**STANDINGS_HEADINGS, "name": PUBLIC_PLAYER})
    return frame[[c for c in headings if c in frame]].rename(columns=headings)


# -- the tournament as sheets --------------------------------------------------------------------
def _split_long(columns: list[tuple[str, str | None, str]], rows: list[list]) -> list[list]:
    """A JSON text longer than a cell holds continues in the rows below, which repeat the
    first column (the id) and leave the others blank; `workbook_reader._join_long` puts it
    back together."""
    long = [i for i, (_title, _sheet, kind) in enumerate(columns) if kind == "json"]
    if not any(isinstance(row[i], str) and len(row[i]) > EXCEL_TEXT_MAX
               for row in rows for i in long):
        return rows
    key = key_index(columns)
    out = []
    for row in rows:
        parts = {i: [row[i][k:k + EXCEL_TEXT_MAX] for k in range(0, len(row[i]), EXCEL_TEXT_MAX)]
                 for i in long if isinstance(row[i], str) and len(row[i]) > EXCEL_TEXT_MAX}
        out.append([parts[i][0] if i in parts else v for i, v in enumerate(row)])
        for n in range(1, max((len(p) for p in parts.values()), default=0)):
            out.append([row[i] if i == key else parts[i][n] if i in parts and n < len(parts[i])
                        else None for i in range(len(row))])
    return out


def _joined(dump: Mapping[str, list[dict]], scored: pd.DataFrame, defaults: Mapping[str, Any],
            what_happened: Iterable[str] | None) -> dict[str, list[dict]]:
    """Each table's rows with what a reader wants beside them: names and nicknames, sitting
    labels, setup names, counts, the results' placings and scores (R11, R12), extra details,
    every setting (the defaults too, marked) and the log's events in words."""
    people = {p["id"]: {"Name": p["name"], "Nickname": p.get("nickname") or p["name"]}
              for p in dump["players"]}
    nobody = {"Name": None, "Nickname": None}

    def who(player_id: Any) -> dict:
        """R22: the player's real name and the nickname the public knows, side by side."""
        return people.get(player_id, nobody)

    sittings = {s["id"]: {**s, "label": sitting_label(s["kind"], s["number"])}
                for s in dump["sittings"]}
    tables = {t["id"]: t for t in dump["tables"]}
    setup_names = dict(catalog.setups(battle_of_wills=True)[["setup_id", "name"]]
                       .itertuples(index=False, name=None))
    seated = pd.Series([s["table_id"] for s in dump["seats"]], dtype="int64").value_counts(
        ).to_dict()
    by_sitting = pd.DataFrame(dump["tables"], columns=["sitting_id", "result_version"])
    counts = by_sitting.groupby("sitting_id")["result_version"].agg(
        tables="size", results=lambda v: int((v > 0).sum()))
    unscored = {"Placing": None, "Qualifier score": None, "Tied": None}
    score = {(int(g), int(p)): {"Placing": pl, "Qualifier score": qs, "Tied": bool(t)}
             for g, p, pl, qs, t in scored[["game_id", "player_id", "placing",
                                            "qualifier_score", "tied"]].itertuples(
                 index=False, name=None)}

    @cache
    def at_table(table_id: int) -> dict:
        t = tables[table_id]
        s = sittings[t["sitting_id"]]
        return {"sitting_id": s["id"], "Sitting id": s["id"], "Sitting": s["label"],
                "_order": s["id"], "Table": t["table_no"], "Setup id": t["setup_id"]}

    def place(rows: Iterable[dict]) -> list[dict]:
        return sorted(rows, key=lambda r: (r["_order"], r["Table"], r.get("seat", 0)))

    def in_sitting(rows: Iterable[dict]) -> list[dict]:
        return [{**r, "Sitting": sittings[r["sitting_id"]]["label"], **who(r["player_id"])}
                for r in rows]

    stored = {s["key"]: s for s in dump["settings"]}
    tz = Settings.of({k: json.loads(s["value"]) for k, s in stored.items()
                      if k in REGISTRY}).zone
    settings = []
    for key in [*defaults, *(k for k in stored if k not in defaults)]:
        row = stored.get(key) or {"key": key, "value": json.dumps(defaults[key])}
        value = json.loads(row["value"])
        settings.append({**row, "Setting": setting_label(key), "Value": setting_words(key, value),
                         "Default": key in defaults and value == defaults[key]})
    texts = list(what_happened) if what_happened is not None else []
    return {
        "players": [{**p, "Extra details": extra_words(p.get("extra"))}
                    for p in dump["players"]],
        "sittings": [{**s, "Sitting": s["label"], "Tables": counts["tables"].get(s["id"], 0),
                      "Results": counts["results"].get(s["id"], 0)}
                     for s in sittings.values()],
        "tables": [{**t, "Sitting": sittings[t["sitting_id"]]["label"],
                    "Setup": setup_names.get(t["setup_id"], t["setup_id"]),
                    "Players": seated.get(t["id"], 0)} for t in dump["tables"]],
        "seats": place({**s, **at_table(s["table_id"]), **who(s["player_id"])}
                       for s in dump["seats"]),
        "results": place({**r, **at_table(r["table_id"]), **who(r["player_id"]),
                          **score.get((r["table_id"], r["player_id"]), unscored)}
                         for r in dump["results"]),
        "leader_votes": place({**v, **at_table(v["table_id"]), **who(v["player_id"])}
                              for v in dump.get("leader_votes", [])),
        "wild_cards": place({**w, **at_table(w["table_id"]), **who(w["player_id"])}
                            for w in dump.get("wild_cards", [])),
        "sit_outs": in_sitting(dump["sit_outs"]),
        "waiting": in_sitting(sorted(dump.get("waiting", []),
                                     key=lambda w: (w["sitting_id"], w["position"]))),
        "absences": [{**a, **who(a["player_id"])} for a in dump["absences"]],
        "schedule_items": [
            {**i, "Item": sitting_label(i["sitting_kind"], i["sitting_number"] or 1)
             if i.get("sitting_kind") else i["title"],
             "Starts": local_time.date_words(i["starts_at"], tz)}
            for i in sorted(dump.get("schedule_items", []),
                            key=lambda i: (i["starts_at"], i["id"]))],
        "bookings": [{**b, **who(b["player_id"])} for b in dump.get("bookings", [])],
        "settings": settings,
        "events": [{**e, "What happened": texts[i] if i < len(texts) else None}
                   for i, e in enumerate(dump["events"])],
    }


def tournament_sheets(dump: Mapping[str, list[dict]], *, scored: pd.DataFrame,
                      standings: pd.DataFrame | None = None,
                      finals: pd.DataFrame | None = None,
                      summary: list[tuple[str, Any]] | None = None,
                      defaults: Mapping[str, Any] | None = None,
                      what_happened: Iterable[str] | None = None,
                      titles: Iterable[str] = tuple(SHEETS),
                      language: str | None = TOURNAMENT) -> Sheets:
    """{sheet title: (headings, rows)} for the sheets named in `titles`, from one snapshot of
    the store's tables (`dump`, as `store.dump_tournament` returns it), the results scored
    (`game_id, player_id, placing, qualifier_score, tied`), and for the computed sheets what
    to show: `summary` ((what, value) lines, the first the tournament's name), `standings`
    (`results.standings_table`'s frame), `finals` (`final_rank, name, stage, wildcard,
    best_score, rank, player_id`; `name` the nickname, as in the standings). Both get each
    player's real name beside the nickname, from `dump`. `defaults`: every setting's default,
    so the Settings sheet lists each setting (a default marked so); `what_happened`: each
    event in words, in the dump's order.

    The titles and headings are the English ones of `SHEETS` (what code and `write_workbook`
    know them by); the labels in the rows (sittings, stages, statuses, Yes and No, settings
    and details in words) are in `language`: by default the tournament's own
    (`language_of(dump)`) for a whole workbook (a `summary` given), else this run's. The
    result remembers it (`Sheets.language`) for `write_workbook`."""
    if language == TOURNAMENT:
        language = language_of(dump) if summary is not None else i18n.current()
    with i18n.language(language) as chosen:
        sheets = _tournament_sheets(dump, scored, standings, finals, summary, defaults,
                                    what_happened, titles)
    return Sheets(sheets, language=chosen)


def _tournament_sheets(dump, scored, standings, finals, summary, defaults, what_happened,
                       titles) -> dict[str, Sheet]:
    joined = _joined(dump, scored, defaults or {}, what_happened)
    real_names = {p["id"]: p["name"] for p in dump["players"]}
    sheets = {}
    for title in titles:
        table, columns = SHEETS[title]
        if title == "Summary":
            lines = [[_(v) if i == 0 and isinstance(v, str) and v else
                      plain(v) if not isinstance(v, dt.datetime) else excel_time(v)
                      for i, v in enumerate(line)] for line in (summary or [])]
            sheets[title] = (["Tournament", str(lines[0][1]) if lines else ""], lines[1:])
        elif title == "Standings":
            frame = standings if standings is not None else pd.DataFrame()
            sheets[title] = frame_sheet(standings_sheet(frame, real_names))
        elif table is None:
            heads = [h for h, _x, _x in columns]
            frame = finals if finals is not None else pd.DataFrame(
                columns=[c for _x, c, _x in columns])
            frame = frame.assign(real_name=frame["player_id"].map(real_names))
            rows = _sheet_rows(frame.to_dict("records"), [(c or h, k) for h, c, k in columns])
            sheets[title] = (heads, rows)
        else:
            rows = _sheet_rows(joined[table], [(c or h, k) for h, c, k in columns])
            sheets[title] = ([h for h, _x, _x in columns], _split_long(columns, rows))
    return sheets


# -- writing -------------------------------------------------------------------------------------
def workbook_bytes(wb) -> bytes:
    """An openpyxl workbook saved as .xlsx bytes, made by STSA."""
    wb.properties.creator = "STSA"
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def write_workbook(sheets: Mapping[str, Sheet], *, step: xlsx_writer.Step | None = None,
                   language: str | None = TOURNAMENT) -> bytes:
    """An .xlsx with one styled sheet per item of {title: (headings, rows)}, in order (a bold
    frozen header, a filter, widths from the content, dates as dates, formula-like text as
    text), written by `formats.xlsx_writer` (openpyxl takes seconds per sheet of the largest
    tournament). `step(index, title)` is called before each sheet, with its English title.

    The sheet names and headings are written in `language`, by default the one
    `tournament_sheets` wrote the labels in (`Sheets.language`; English for a plain
    mapping), and the file records it (its properties' language): the English titles and
    headings are translated here, the Summary's second heading (the tournament's name) kept
    as it is."""
    if language == TOURNAMENT:
        language = getattr(sheets, "language", None)
    with i18n.language(language) as chosen:
        named: dict[str, Sheet] = {}
        for title, (headings, rows) in sheets.items():
            name = sheet_title(title)
            if not name or name.casefold() in {n.casefold() for n in named}:
                name = title  # two titles one name in this language: the English one
            heads = [h if (title == "Summary" and i > 0) or not isinstance(h, str) or not h
                     else _(h) for i, h in enumerate(headings)]
            named[name] = (heads, rows)
    english = list(sheets)

    def told(index: int, _name: str) -> None:
        if step:
            step(index, english[index])

    return xlsx_writer.write(named, creator="STSA", step=told, language=chosen)
