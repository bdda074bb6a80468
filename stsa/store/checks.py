"""The checks entry makes, in one place, for every way in: a page, a script, a restore.

Plain functions over values and rows, with no database: the store runs them before it writes,
and a restore (`stsa.store.transfer.load_tournament`, the workbook restore of
`stsa.services.restore`) runs the same ones over the rows of a file, so nothing gets in that
entry would refuse (R19). Each one raises a `TournamentError` (a `ValueError`) that says what is
wrong, or returns the value as the store keeps it.
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection, Mapping
from typing import Any

import numpy as np
import pandas as pd

from stsa.domain import (
    PlayerStatus,
    Problem,
    SittingStatus,
    TournamentError,
    sitting_label,
    whole_number,
)
from stsa.i18n import N_, _, ngettext
from stsa.store.schema import KINDS

STATS = ("vp", "spice", "solari", "troops", "water")  # R11's order
MAX_NUMBER = 100_000
#: What entry takes for each number of a result (R11-R13): counts from 0, variant points
#: either way, a settled order from 1.
NUMBER_RANGES = {**{c: (0, MAX_NUMBER) for c in STATS},
                 "variant_points": (-MAX_NUMBER, MAX_NUMBER), "tiebreak": (1, MAX_NUMBER)}
# Each number as the result form names it, so a refusal reads in the form's own words.
NUMBER_WORDS = {"vp": N_("VP"), "spice": N_("spice"), "solari": N_("solari"),
                "troops": N_("troops"), "water": N_("water"),
                "variant_points": N_("rule change points"), "tiebreak": N_("settled order")}
#: The words `text` is given for its field by the roster and the schedule (translated where a
#: message names the field).
TEXT_FIELDS = (N_("name"), N_("nickname"), N_("club"), N_("email"), N_("title"))
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2066-\u2069]")


def and_list(parts) -> str:
    """"A and B" (and "A and B and C"): parts of a message in this run's language."""
    parts = list(parts)
    out = parts[0] if parts else ""
    for part in parts[1:]:
        out = _("{first} and {second}").format(first=out, second=part)
    return out


# -- single values -----------------------------------------------------------------------------
def missing(value: Any) -> bool:
    """None, pandas' NA or NaT, or a float NaN: no value at all."""
    return value is None or value is pd.NA or value is pd.NaT or (
        isinstance(value, float) and math.isnan(value))


def blank(value: Any) -> bool:
    """No value, or text of spaces only."""
    return missing(value) or (isinstance(value, str) and not value.strip())


def whole(value: Any, what: str) -> int:
    """`value` as an int, or a `TournamentError` saying `what` must be a whole number (`what`
    the English words, marked with `N_`, translated here)."""
    n = whole_number(value)
    if n is None:
        raise TournamentError(_("{what} must be a whole number, not {value}.").format(
            what=_(what), value=repr(value)))
    return n


def text(value: Any, field: str, limit: int, where: str, *, required: bool = False) -> str:
    """Roster text (a name, club or email) as entry keeps it: spaces collapsed, no control
    characters, at most `limit` characters, not empty when `required` (R19, R22). `field` is
    the English word (`TEXT_FIELDS`), translated when a message names it."""
    value = "" if missing(value) else value if isinstance(value, str) else str(value)
    if _CONTROL.search(value):
        raise TournamentError(_("{where}: the {field} contains a control character.").format(
            where=where, field=_(field)))
    value = " ".join(value.split())
    if required and not value:
        raise TournamentError(_("{where}: the {field} is empty.").format(where=where,
                                                                         field=_(field)))
    if len(value) > limit:
        raise TournamentError(_("{where}: the {field} is longer than {limit} characters.").format(
            where=where, field=_(field), limit=limit))
    return value


#: R24: the most characters of a rule change's name and of its line on the extra points.
RULE_CHANGE_LIMITS = {"rule_change": 100, "rule_change_points": 200}


def rule_change(name: Any, points: Any, where: str) -> dict[str, str]:
    """R24: a sitting's rule change as the store keeps it: `rule_change` (its name) and
    `rule_change_points` (how its extra points are earned), spaces collapsed, within
    `RULE_CHANGE_LIMITS`; both empty for none. A points line needs a name."""
    out = {"rule_change": text(name, N_("rule change's name"),
                               RULE_CHANGE_LIMITS["rule_change"], where),
           "rule_change_points": text(points, N_("line on the extra points"),
                                      RULE_CHANGE_LIMITS["rule_change_points"], where)}
    if out["rule_change_points"] and not out["rule_change"]:
        raise TournamentError(_("{where}: name the rule change its extra points belong "
                                "to.").format(where=where))
    return out


def extra_details(value: Any, where: str) -> dict:
    """A player's extra details (the roster file's other columns): {column: plain value},
    blanks left out."""
    if missing(value):
        return {}
    if not isinstance(value, dict):
        raise TournamentError(_("{where}: extra details must be a mapping of column to "
                                "value.").format(where=where))
    out = {}
    for key, item in value.items():
        if missing(item):
            continue
        if hasattr(item, "item"):  # numpy scalars
            item = item.item()
        out[str(key)] = item if isinstance(item, (str, int, float, bool)) else str(item)
    return out


def check_kind(kind: Any) -> str:
    """A sitting's kind (R2, R16): qualifier, semifinal or final."""
    if kind not in KINDS:
        raise TournamentError(_("Unknown sitting kind {kind}: use {kinds}.").format(
            kind=repr(kind), kinds=", ".join(KINDS)))
    return str(kind)


def check_status(status: Any, words: type[SittingStatus] | type[PlayerStatus]) -> str:
    """A sitting's or a player's status, one of `words` (`SittingStatus`, `PlayerStatus`)."""
    allowed = [w.value for w in words]
    if status not in allowed:
        raise TournamentError(_("The status must be {allowed}, not {status}.").format(
            allowed=", ".join(allowed), status=repr(status)))
    return str(status)


def check_seed(value: Any) -> int:
    """R3: a draw's recorded seed, a whole number of 0 or more (of any size)."""
    seed = whole(value, N_("The draw's seed"))
    if seed < 0:
        raise TournamentError(_("The draw's seed cannot be negative."))
    return seed


def result_number(field: str, value: Any) -> int | None:
    """One number of a player's result as entry takes it (R11-R13): VP, spice, solari, troops
    and water from 0, variant points either way (blank = 0), a settled order from 1 (blank =
    none), none beyond `MAX_NUMBER`. The `TournamentError` names the field."""
    low, high = NUMBER_RANGES[field]
    if type(value) is int and low <= value <= high:  # the usual number: no words needed
        return value
    words = _(NUMBER_WORDS[field]) if field in NUMBER_WORDS else field
    if blank(value):
        if field in STATS:
            raise TournamentError(_("{field} is missing").format(field=words))
        return 0 if field == "variant_points" else None
    n = whole_number(value)
    if n is not None and n < 0 <= low:
        raise TournamentError(_("{field} cannot be negative, not {value}").format(field=words,
                                                                                  value=n))
    if n is None or not low <= n <= high:
        rule = (_("{field} must be a whole number (up to {highest}), not {value}") if low < 0
                else _("{field} must be a whole number of {lowest} or more (up to {highest}), "
                       "not {value}"))
        raise TournamentError(rule.format(field=words, lowest=low, highest=high,
                                          value=repr(value)))
    return n


def status_problem(kind: str, number: int, status: str, tables_with_results: int,
                   tables_without: list[int]) -> str | None:
    """R20: results are entered once a sitting is published, and a sitting is complete once
    every table has a result. What is wrong with a sitting's status, or None."""
    label = sitting_label(kind, number)
    if status == SittingStatus.DRAWN and tables_with_results:
        return _("{sitting} is drawn (not published) but has results; results are entered "
                 "once a sitting is published").format(sitting=label)
    if status == SittingStatus.COMPLETE and tables_without:
        return ngettext("{sitting} is complete but table {tables} has no result",
                        "{sitting} is complete but tables {tables} have no result",
                        len(tables_without)).format(
                            sitting=label, tables=", ".join(map(str, tables_without)))
    return None


# -- a draw (R1, R3, R9) ---------------------------------------------------------------------------
def leader_list(value: Any, what: str) -> list[str]:
    """A list of leader names (R7, R9), none of them empty; None is an empty list. `what`
    names the list in words (the English ones, marked with `N_`, or already translated)."""
    if value is None:
        return []
    if isinstance(value, str) or not hasattr(value, "__iter__"):
        raise TournamentError(_("{what} must be a list of leader names.").format(what=_(what)))
    out = [str(v) for v in value]
    if any(not v.strip() for v in out):
        raise TournamentError(_("{what} contains an empty leader name.").format(what=_(what)))
    return out


#: The columns of a draw's seats and tables that its check reads (and the only ones).
_SEAT_COLUMNS = ("table_no", "seat", "player_id", "colour", "pick_order")
_TABLE_COLUMNS = ("table_no", "setup_id", "removed_leaders", "available_leaders")


def _draw_frames(draw: Any):
    try:
        seats, tables, seed, sit_outs = draw.seats, draw.tables, draw.seed, draw.sit_outs
    except AttributeError as exc:
        raise TournamentError(_("A draw needs seats, tables, seed and sit_outs "
                                "({error}).").format(error=exc)) from exc
    for frame, need, what in ((seats, _SEAT_COLUMNS, N_("The draw's seats lack {columns}.")),
                              (tables, _TABLE_COLUMNS, N_("The draw's tables lack {columns}."))):
        lacking = set(need) - set(getattr(frame, "columns", []))
        if lacking:
            raise TournamentError(_(what).format(columns=", ".join(sorted(lacking))))
    return seats, tables, seed, sit_outs


_LEADER_LISTS = {"removed_leaders": N_("Table {table}'s removed leaders"),
                 "available_leaders": N_("Table {table}'s available leaders")}


def _draw_tables(tables: pd.DataFrame) -> list[dict]:
    rows: list[dict[str, Any]] = []
    for rec in records(tables[list(_TABLE_COLUMNS)]):
        no = whole(rec["table_no"], N_("A table number"))
        setup = str(rec["setup_id"] or "").strip()
        if not setup:
            raise TournamentError(_("Table {table} has no setup.").format(table=no))
        rows.append({"table_no": no, "setup_id": setup, **{
            col: leader_list(rec[col], _(_LEADER_LISTS[col]).format(table=no))
            for col in ("removed_leaders", "available_leaders")}})
    numbers_ = [t["table_no"] for t in rows]
    if not rows:
        raise TournamentError(_("The draw has no tables."))
    if len(set(numbers_)) != len(numbers_) or min(numbers_) < 1:
        raise TournamentError(_("The draw's table numbers must be distinct and start at 1."))
    return sorted(rows, key=lambda t: t["table_no"])


def _draw_seats(seats: pd.DataFrame, table_numbers: list[int]) -> list[dict]:
    rows = [{"table_no": whole(rec["table_no"], N_("A seat's table number")),
             "seat": whole(rec["seat"], N_("A seat number")),
             "player_id": whole(rec["player_id"], N_("A seated player id")),
             "colour": str(rec["colour"] or "").strip(),
             "pick_order": whole(rec["pick_order"], N_("A pick order"))}
            for rec in records(seats[list(_SEAT_COLUMNS)])]
    known = set(table_numbers)
    at: dict[int, list[dict]] = {}  # each table's seats, in order (a pass, not one per table)
    for s in rows:
        if s["table_no"] not in known:
            raise TournamentError(_("A seat is at table {table}, which the draw lacks.").format(
                table=s["table_no"]))
        at.setdefault(s["table_no"], []).append(s)
    for no in table_numbers:
        _check_table_seats(no, at.get(no, []))
    return sorted(rows, key=lambda s: (s["table_no"], s["seat"]))


def _check_table_seats(no: int, at: list[dict]) -> None:
    """R1, R3, R9: 3 or 4 players, seats and pick order 1..n, a colour each, all different."""
    n = len(at)
    if not 3 <= n <= 4:
        raise TournamentError(ngettext("Table {table} has {count} player; every table seats 3 "
                                       "or 4.",
                                       "Table {table} has {count} players; every table seats 3 "
                                       "or 4.", n).format(table=no, count=n))
    if sorted(s["seat"] for s in at) != list(range(1, n + 1)):
        raise TournamentError(_("Table {table}'s seats must be numbered 1 to {count}.").format(
            table=no, count=n))
    if sorted(s["pick_order"] for s in at) != list(range(1, n + 1)):
        raise TournamentError(_("Table {table}'s pick order must run 1 to {count}.").format(
            table=no, count=n))
    colours = [s["colour"] for s in at]
    if not all(colours) or len(set(colours)) != n:
        raise TournamentError(_("Table {table} needs a different colour for each "
                                "player.").format(table=no))


def _sit_outs(seat_rows: list[dict], sit_outs: Any) -> list[int]:
    """R1: every player seated once, and nobody both seated and sitting out."""
    ids = [s["player_id"] for s in seat_rows]
    twice = sorted({p for p in ids if ids.count(p) > 1}) if len(set(ids)) != len(ids) else []
    if twice:
        raise TournamentError(_("Players seated twice in one sitting: {players}.").format(
            players=twice))
    outs = sorted({whole(p, N_("A sit-out player id")) for p in (sit_outs or [])})
    both = sorted(set(outs) & set(ids))
    if both:
        raise TournamentError(_("Players both seated and sitting out: {players}.").format(
            players=both))
    return outs


def check_draw(draw: Any) -> dict:
    """A draw's shape (R1, R3, R9), as `stsa.draw` makes it (`.seats`, `.tables`, `.seed`,
    `.sit_outs`): returns plain rows {"seed", "tables", "seats", "sit_outs"} sorted by table
    and seat, or raises a `TournamentError` naming the first thing wrong."""
    seats, tables, seed, sit_outs = _draw_frames(draw)
    seed = check_seed(seed)
    table_rows = _draw_tables(tables)
    seat_rows = _draw_seats(seats, [t["table_no"] for t in table_rows])
    return {"seed": seed, "tables": table_rows, "seats": seat_rows,
            "sit_outs": _sit_outs(seat_rows, sit_outs)}


# -- a table's result (R11-R13) ----------------------------------------------------------------
def _native(value: Any) -> Any:
    """A frame's value as `DataFrame.to_dict` gives it: numpy scalars as Python ones, pandas'
    NA as None."""
    if value is pd.NA:
        return None
    return value.item() if isinstance(value, np.generic) else value


def records(rows: Any) -> list[dict]:
    """A submitted result as plain rows: a frame's rows with the values `to_dict("records")`
    gives (read in one pass, not a Series per column), or each mapping of any other iterable
    copied. A `TournamentError` if it is neither (R13: a result is a list of rows)."""
    if isinstance(rows, pd.DataFrame):
        columns = rows.columns.tolist()
        return [dict(zip(columns, map(_native, r)))
                for r in rows.to_numpy(dtype=object).tolist()]
    try:
        return [dict(r) for r in rows]
    except (TypeError, ValueError) as exc:
        raise TournamentError(_("A result is a list of rows, one per player.")) from exc


def _rows_by_player(records: list[dict], seated: Mapping[int, Any],
                    problems: list[str]) -> dict[int, dict]:
    """Each seated player's submitted row; strangers, repeats and missing seats named."""
    by_player: dict[int, dict] = {}
    for i, rec in enumerate(records, start=1):
        pid = whole_number(rec.get("player_id"))
        if pid is None or pid not in seated:
            problems.append(_("row {row}: player {player} is not seated at this table").format(
                row=i, player=repr(rec.get("player_id"))))
        elif pid in by_player:
            problems.append(_("{player} has more than one row").format(player=_who(seated[pid])))
        else:
            by_player[pid] = rec
    problems += [_("{player} has no result").format(player=_who(s))
                 for pid, s in seated.items() if pid not in by_player]
    return by_player


def _who(s: Any) -> str:
    return _("seat {seat} ({player})").format(seat=s.seat, player=s.name)


def _numbers(rec: dict, who: str, problems: list[str]) -> dict:
    """A row's numbers through `result_number`; a refused one is None, and named."""
    row = {}
    for field in NUMBER_RANGES:
        try:
            row[field] = result_number(field, rec.get(field))
        except TournamentError as exc:
            problems.append(f"{who}: {exc}")
            row[field] = None
    return row


def _leader(rec: dict, who: str, allowed: set[str], taken: dict[str, str],
            problems: list[str]) -> str:
    """R9, R10: a leader of this table (removed ones too with the wild card), once a table."""
    leader = "" if blank(rec.get("leader")) else " ".join(str(rec["leader"]).split())
    if not leader:
        problems.append(_("{player}: leader is missing").format(player=who))
    elif allowed and leader not in allowed:
        problems.append(_("{player}: leader {leader} is not one of this table's leaders").format(
            player=who, leader=repr(leader)))
    elif leader in taken:
        problems.append(_("{player}: leader {leader} is already taken by {other}").format(
            player=who, leader=repr(leader), other=taken[leader]))
    else:
        taken[leader] = who
    return leader


def unsettled_ties(rows: list[dict]) -> list[int]:
    """R11: the seats of players equal to another on VP, spice, solari, troops and water whose
    tie has no settled order (a different `tiebreak` for each of them), by seat."""
    groups: dict[tuple, list[dict]] = {}
    for r in rows:
        groups.setdefault(tuple(r[c] for c in STATS), []).append(r)
    seats = []
    for group in groups.values():
        orders = [r.get("tiebreak") for r in group]
        if len(group) > 1 and (None in orders or len(set(orders)) < len(orders)):
            seats += [r["seat"] for r in group]
    return sorted(seats)


def tie_problem(rows: list[dict], seated: Mapping[int, Any]) -> str | None:
    """R11: the message for a full tie without a settled order (the result entry page's
    words), or None. `rows` have `player_id`, `seat`, the five numbers and `tiebreak`."""
    complete = [r for r in rows if all(r.get(c) is not None for c in STATS)]
    open_ = set(unsettled_ties(complete))
    if not open_:
        return None
    who = and_list(_who(seated[r["player_id"]])
                   for r in sorted(complete, key=lambda r: r["seat"]) if r["seat"] in open_)
    return _("{players} are equal on VP, spice, solari, troops and water: enter their settled "
             "order (1, 2, …) before saving").format(players=who)


def check_result_rows(records: list[dict], seated: Mapping[int, Any], available: list[str],
                      removed: list[str], where: str, wild_card: bool) -> list[dict]:
    """A table's result as entry takes it (R9-R13): one row per seated player (`seated`:
    {player id: an object with `seat` and `name`}), each number through `result_number`, a
    leader of this table for each (removed ones too with the `wild_card`, R10), no leader
    twice, and no full tie without a settled order (R11). Returns the rows by seat with
    `player_id, seat, leader, vp, spice, solari, troops, water, variant_points, tiebreak`;
    else one `TournamentError` names every problem by seat and field, after `where` (and has
    a `Problem` for each)."""
    problems: list[str] = []
    by_player = _rows_by_player(records, seated, problems)
    allowed = set(available) | (set(removed) if wild_card else set())
    clean: list[dict] = []
    taken: dict[str, str] = {}
    for pid, rec in sorted(by_player.items(), key=lambda kv: seated[kv[0]].seat):
        who = _who(seated[pid])
        numbers_ = _numbers(rec, who, problems)
        leader = _leader(rec, who, allowed, taken, problems)
        clean.append({"player_id": pid, "seat": seated[pid].seat, "leader": leader,
                      **numbers_})
    tie = tie_problem(clean, seated)
    problems += [tie] if tie else []
    if problems:
        raise TournamentError(_("{table}: {problems}. Nothing was saved.").format(
                                  table=where, problems="; ".join(problems)),
                              [Problem(where, p) for p in problems])
    return clean


def plainly_right(results: pd.DataFrame, seats: pd.DataFrame,
                  leaders: Mapping[Any, Collection[str]]) -> set:
    """R9-R13 for every table at once: the ids of the tables whose result rows
    `check_result_rows` (with the wild card) takes as they are, so a restore need not check
    them one by one. A table is plainly right when each seated player (`seats`: `table_id,
    player_id`) has exactly one row, every number is a whole number in its range
    (`NUMBER_RANGES`; variant points and the settled order may be blank), each leader is
    written as entry keeps it, one of the table's (`leaders`: {table id: the available and
    removed leaders}; none listed: any) and nobody else's at the table, and no two players
    are equal on all five numbers (R11: the check looks at their settled order). Any other
    table may be refused: check it with `check_result_rows`."""
    count = len(results)
    if not count:
        return set()

    def column(name: str) -> list:
        return results[name].tolist() if name in results else [None] * count

    tables, players, named = column("table_id"), column("player_id"), column("leader")
    right = np.fromiter((type(p) is int for p in players), bool, count)
    for field, (low, high) in NUMBER_RANGES.items():
        blank_ok = field not in STATS
        right &= np.fromiter(((type(v) is int and low <= v <= high) or (blank_ok and v is None)
                              for v in column(field)), bool, count)
    right &= np.fromiter((type(name) is str and name != "" and name == " ".join(name.split())
                          and t in leaders and (not leaders[t] or name in leaders[t])
                          for t, name in zip(tables, named)), bool, count)
    seat_keys = pd.DataFrame({"table_id": seats["table_id"].tolist(),
                              "player_id": seats["player_id"].tolist()}, dtype=object)
    seated = set(zip(seat_keys["table_id"], seat_keys["player_id"]))
    right &= np.fromiter(((t, p) in seated for t, p in zip(tables, players)), bool, count)
    keys = pd.DataFrame({"table_id": tables, "player_id": players, "leader": named,
                         **{c: column(c) for c in STATS}}, dtype=object)
    right &= ~keys.duplicated(["table_id", "player_id"], keep=False).to_numpy()
    right &= ~keys.duplicated(["table_id", "leader"], keep=False).to_numpy()
    right &= ~keys.duplicated(["table_id", *STATS], keep=False).to_numpy()  # a full tie
    wrong = set(keys.loc[~right, "table_id"])
    wrong |= set(seat_keys.loc[seat_keys.duplicated(keep=False), "table_id"])
    rows = keys["table_id"].value_counts()
    sits = seat_keys["table_id"].value_counts()
    wrong |= {t for t, n in rows.items() if sits.get(t) != n}  # a seat without its row
    return set(tables) - wrong
