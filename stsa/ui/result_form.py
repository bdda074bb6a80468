"""The Results page's entry of one table's result, on the server (R11–R13, R19): the form's
state (the version it is based on, the table's seating it was opened on, its submission id, the
values it was given), the one run a Save costs (`take_save`: every rule checked again through
`services.results.submit_result`, never the browser's preview), what the save answered, and a
conflict with another judge's save. The values are keyed by player, not by seat, so a value
stays with the player it was typed for when the table's seats change. The typing itself
happens in the browser (`ui.result_entry`)."""

from __future__ import annotations

import uuid
from typing import Any

import pandas as pd
import streamlit as st

from stsa import catalog, i18n, local_time
from stsa.domain import (
    Kind,
    Role,
    SittingStatus,
    TournamentError,
    rule_change_line,
    table_label,
)
from stsa.i18n import N_, _
from stsa.services import forms, results
from stsa.ui import data, result_entry, session

STATS = results.STATS  # vp, spice, solari, troops, water (R11)
NUMBERS = {"vp": N_("VP"), "spice": N_("Spice"), "solari": N_("Solari"),
           "troops": N_("Troops in garrison"), "water": N_("Water"),
           "variant_points": N_("Variant points")}
VALUES = ("leader", *STATS, "variant_points", "tiebreak")  # a row's values, as the form keeps them
FORM, CONFLICT, PENDING = "res_form", "res_conflict", "res_pending"


def seating(seats: pd.DataFrame) -> dict[int, int]:
    """A table's seating as a save names it (R3): {seat: player_id}."""
    return {int(s): int(p) for s, p in zip(seats["seat"], seats["player_id"])}


MOST_SENT = 40  # characters of a value the browser sent that are kept (the save names it)


def _plain(value: Any) -> Any:
    """A value as the browser gets it: None for a blank, an int, or text as it was typed
    (cut short: no number has that many digits)."""
    if isinstance(value, str) and len(value) > MOST_SENT:
        return value[:MOST_SENT] + "…"
    if value is None or isinstance(value, (dict, list)) \
            or (not isinstance(value, str) and pd.isna(value)):
        return None if value is None else str(value)[:MOST_SENT]
    number = forms.whole_number(value)
    return str(value) if number is None else number


def form_values(rows: pd.DataFrame, leaders: dict[int, str] | None = None) -> dict[str, dict]:
    """Stored or sent rows as the form's values, by player id (as text, for JSON): the leader
    (or the Wild Card one from `leaders`, player → leader), the numbers and the settled
    order."""
    values = {str(int(rec["player_id"])): _values_of(rec) for rec in _records(rows)}
    for pid, leader in (leaders or {}).items():
        row = values.setdefault(str(int(pid)), result_entry.blank_row())
        row["leader"] = row["leader"] or leader
    return values


def _records(rows: pd.DataFrame) -> list[dict]:
    """A table's few rows as plain dicts (a frame's machinery costs more than its rows)."""
    columns = [c for c in ("player_id", *VALUES) if c in rows.columns]
    return [dict(zip(columns, values))
            for values in zip(*(rows[c].tolist() for c in columns))]


def _values_of(rec: dict) -> dict:
    row = {field: _plain(rec.get(field)) for field in VALUES}
    row["leader"] = None if row["leader"] is None else str(row["leader"])
    return row


def _meta(table_id: int, sitting_id: int, result, rows: pd.DataFrame, seated: dict[int, int],
          *, leaders: dict[int, str] | None = None, reset: bool = False, answered: int = 0) -> dict:
    """The form's state: the version it is based on, who saved it, the values loaded (to tell a
    change), the values the browser is given (`values`, under a new `token`; with `reset` they
    replace whatever it kept), the table's seating it was opened on ({seat: player_id}) and its
    submission id."""
    return {"table_id": table_id, "sitting_id": sitting_id, "version": int(result.version),
            "saved_by": result.saved_by,
            "saved_at": result.saved_at, "rows": _comparable(rows),
            "values": form_values(rows, leaders), "seating": dict(seated),
            "submission_id": uuid.uuid4().hex, "token": result_entry.new_token(),
            "reset": reset, "answered": answered}


def ensure_form(engine, table_id: int, seats: pd.DataFrame,
                leaders: dict[int, str] | None = None) -> dict:
    """The form for `table_id`: loaded from the store (a correction if a result exists) when
    first shown, or when the entry was not on the page in the last run (another table or
    page was open, a reload, a new connection). Without a result, each seat's leader starts
    from `leaders` (player → leader: the Wild Card ones). The browser puts back what the
    judge typed and has not saved, on the version and seating it was typed on (R19).

    The form keeps the seating it was opened on (R19): when the table's seats change while
    it is open (a no-show replaced, a seat left empty), its values stay with their players
    and its saves are refused until the judge has checked them (`seating_changed`)."""
    form = st.session_state.get(FORM)
    if form is None or form["table_id"] != table_id \
            or result_entry.key(table_id) not in st.session_state:
        # a table waiting for its first result (as this run reads it) has nothing to load
        result = results.stored_result(engine, table_id, int(seats["version"].iloc[0]))
        form = _meta(table_id, int(seats["sitting_id"].iloc[0]), result, result.rows,
                     seating(seats), leaders=leaders,
                     answered=form.get("answered", 0) if form else 0)
        st.session_state[FORM] = form
        st.session_state.pop(CONFLICT, None)
    return st.session_state[FORM]


def set_leaders(table_id: int, leaders: dict[int, str]) -> None:
    """Start the open form of `table_id` from these leaders (player → leader: Wild Card's)."""
    form = st.session_state.get(FORM)
    if form is None or form["table_id"] != table_id:
        return
    for pid, leader in leaders.items():
        form["values"].setdefault(str(int(pid)), result_entry.blank_row())["leader"] = leader
    form.update(token=result_entry.new_token(), reset=True)


def stash(table_id: int) -> None:
    """The element's callback: keep what its Save sent for this run to take (`take_save`),
    which then runs in the person's language and after their session was checked."""
    found = result_entry.sent(table_id)
    if isinstance(found, dict):
        st.session_state[PENDING] = (int(table_id), found)


def _whole(value: Any, default: int = 0) -> int:
    number = forms.whole_number(value)
    return default if number is None else number


def rows_from(sent_rows: Any, seats: pd.DataFrame) -> pd.DataFrame:
    """What the browser sent, as result rows of the table's seated players, in seat order: a
    player's own row (matched by player id; none sent: blanks), the leader as text, each
    number a whole number, None for a blank, or the text as typed (the save names it). A
    settled order is kept only for the seats in a full tie (R11)."""
    sent = {}
    for row in sent_rows[:2 * len(seats)] if isinstance(sent_rows, list) else []:
        if isinstance(row, dict) and forms.whole_number(row.get("player_id")) is not None:
            sent[forms.whole_number(row.get("player_id"))] = row
    players = seats["player_id"].astype("int64").tolist()
    values = {field: [_plain(sent.get(p, {}).get(field, 0 if field == "variant_points" else None))
                      for p in players] for field in (*STATS, "variant_points", "tiebreak")}
    # R11: a settled order only where a full tie needs it (as `services.results.full_ties`)
    five = [tuple(values[f][i] for f in STATS) for i in range(len(players))]
    filled = [all(type(v) is int for v in row) for row in five]
    tied = [filled[i] and sum(filled[j] and five[j] == five[i] for j in range(len(five))) > 1
            for i in range(len(five))]
    values["tiebreak"] = [v if tied[i] else None for i, v in enumerate(values["tiebreak"])]
    leaders = [sent.get(p, {}).get("leader") for p in players]
    return pd.DataFrame({
        "player_id": pd.array(players, dtype="int64"),
        "seat": seats["seat"].astype("int64").to_numpy(),
        "leader": [str(v)[:100] if isinstance(v, str) and v else None for v in leaders],
        **{field: pd.array(column, dtype="Int64" if all(v is None or type(v) is int
                                                         for v in column) else object)
           for field, column in values.items()}})


def _base(form: dict, sent: dict) -> tuple[int, dict[int, int]]:
    """The version and seating a save is made over: the form's, or the older ones an entry
    put back in the browser was typed on (it then meets any save made since, R19)."""
    base = sent.get("base")
    base = base if isinstance(base, dict) else {}
    version = forms.whole_number(base.get("version"))
    version = form["version"] if version is None or not 0 <= version <= form["version"] \
        else version
    given = base.get("seating")
    pairs = [(forms.whole_number(s), forms.whole_number(p))
             for s, p in (given.items() if isinstance(given, dict) else [])]
    seated = {s: p for s, p in pairs if s is not None and p is not None}
    if not seated or len(seated) != len(pairs):
        return version, form["seating"]
    return version, seated


def late_correction(reads, seats: pd.DataFrame, version: int) -> bool:
    """Whether saving over `version` corrects a qualifier result once the finals are drawn
    (R20): only the organizer may, after a look at what it changes."""
    return bool(version) and seats["kind"].iloc[0] == Kind.QUALIFIER \
        and bool(reads.finals_drawn())


def ticks_before(reads, seats: pd.DataFrame, version: int) -> list[dict]:
    """The confirmations a save of this table needs that are known before typing (R19): a
    correction of a complete sitting."""
    if not version:
        return []
    sitting = reads.sitting_rows()[int(seats["sitting_id"].iloc[0])]
    if sitting["status"] != SittingStatus.COMPLETE:
        return []
    name = i18n.cell(reads.sitting_names()[int(sitting["sitting_id"])])
    return [{"name": "complete",
             "label": _("{sitting} is complete: yes, correct this result").format(sitting=name)}]


def take_save(reads) -> bool:
    """The one run a Save costs: take what the element sent (`stash`) for the form's table of
    check it as any save is checked and save it (`save`); what it answered is
    kept for the page to show after the entry (`said`). A correction of a qualifier once the
    finals are drawn is first weighed for the organizer (`services.results.correction_impact`,
    shown with a tick), and saved once it was confirmed for these very values. The person's
    session is checked again first (the entry's part of the page runs alone): nothing is
    taken from a spectator, a person signed out meanwhile, or in an archived tournament.
    True when something was written (the page then reads again)."""
    pending = st.session_state.pop(PENDING, None)
    form = st.session_state.get(FORM)
    if pending is None or form is None or pending[0] != form["table_id"]:
        return False
    if not session.check().role.is_staff or reads.archived():
        return False
    table_id, sent = pending
    form["answered"] = max(int(form.get("answered", 0)), _whole(sent.get("sent")))
    seats = reads.result_tables(form["sitting_id"]).seats.get(table_id)
    if seats is None:
        return False
    rows = rows_from(sent.get("rows"), seats)
    version, seated = _base(form, sent)
    ticked = sent.get("confirm") if isinstance(sent.get("confirm"), dict) else {}
    confirmed = {"confirm_unusual": ticked.get("unusual") is True,
                 "confirm_complete": ticked.get("complete") is True}
    form.pop("said", None)
    if late_correction(reads, seats, version) and session.role() is Role.ORGANIZER:
        weighed = form.get("impact")
        if not (ticked.get("after_finals") is True and weighed
                and weighed["for"] == _comparable(rows)):
            impact = results.correction_impact(session.engine(), table_id, rows)
            if impact is not None:
                form["impact"] = {"for": _comparable(rows), "token": uuid.uuid4().hex,
                                  "finals": impact.finals, "words": impact.words,
                                  "changes": impact.changes}
                return False
        confirmed["confirm_after_finals"] = True
    first = version == 0
    saved = save(session.engine(), table_id, rows, where(seats), actor=session.actor(),
                 base=(version, seated), **confirmed)
    if saved is not None and first:
        st.session_state["res_went_on"] = table_id
    return saved is not None


def where(seats: pd.DataFrame) -> str:
    """"Qualifier 2, table 4": the table the seats are of."""
    first = seats.iloc[0]
    return table_label(first["kind"], first["sitting_no"], first["table_no"])


def next_waiting(tables, saved_table_id: int) -> int | None:
    """The table after `saved_table_id` still waiting for a result (by table number, from
    the first again after the last), or None when none is: where a judge goes on after a
    first result (`sittings.ResultTables`)."""
    numbers = {t: tables.numbers[t] for t in tables.waiting}
    after = tables.numbers.get(saved_table_id, 0)
    later = sorted(numbers, key=lambda t: (numbers[t] <= after, numbers[t]))
    return later[0] if later else None


def seating_changed(form: dict, seats: pd.DataFrame) -> list[str]:
    """R3, R19: how the table's seats changed since the form was opened, in words ("seat 2 is
    now Bob", "seat 4 is empty now"); empty when they did not."""
    return results.seating_changes(
        form.get("seating", {}), seating(seats),
        dict(zip(seats["player_id"].astype(int), seats["name"])))


def leader_options(seats: pd.DataFrame, wild_card: bool) -> list[str]:
    """R9, R10: the table's available leaders, plus its removed ones with Wild Card on, in
    alphabetical order."""
    first = seats.iloc[0]
    options = list(first["available_leaders"] or [])
    if wild_card:
        options += [n for n in first["removed_leaders"] or [] if n not in options]
    return catalog.by_name(options)


def rule_change_caption(sitting: dict | None) -> str:
    """The sitting's rule change as the form names it above the seats (R24): its name, how its
    points are earned, and the field they go in; "" for a sitting without one (or none)."""
    line = rule_change_line(sitting) if sitting else ""
    field = result_entry.SHORT["variant_points"]
    return (_("Rule change: {rule_change}. Each player's points from it go in “{field}”.").format(
        rule_change=line, field=_(field)) if line else "")


def number_fields(sitting: dict | None, form: dict) -> list[str]:
    """The numbers the form asks for: the five of R11, and the variant points (R12) when the
    sitting (a row of the sittings, as a dict) has a rule change (R24), or when the loaded
    result already holds some."""
    change = (sitting or {}).get("rule_change", "")
    held = any(row.get("variant_points") not in (None, 0) for row in form["values"].values())
    return [*STATS, *(["variant_points"] if (isinstance(change, str) and change.strip())
                      or held else [])]


def go_on(tables, table_key: str) -> str:
    """After a first result was saved (the page set `res_went_on` to its table): choose the
    next table waiting for a result in the table box, and say so; "" otherwise."""
    saved = st.session_state.pop("res_went_on", None)
    following = None if saved is None else next_waiting(tables, saved)
    if following is None:
        return ""
    st.session_state[table_key] = following
    done = tables.numbers.get(saved, "?")
    return _("Table {saved_table} is saved. This is table {next_table}, the next waiting for a "
             "result.").format(saved_table=done,
                               next_table=tables.numbers[following])


def _comparable(rows: pd.DataFrame) -> list[tuple]:
    """A table's values in a form two entries compare by (row order and types aside)."""
    return sorted((int(rec["player_id"]), *(_values_of(rec)[f] for f in VALUES))
                  for rec in _records(rows))


def save(engine, table_id: int, rows: pd.DataFrame, where: str, *, actor,
         over_version: int | None = None, base: tuple[int, dict[int, int]] | None = None,
         **confirmed: bool):
    """Submit the entry (R11, R13, R19) through `services.results.submit_result`, which checks
    every rule (a full tie needs its settled order first) and where the save lands: the
    version and seating the entry was typed on (`base`, default the form's), and the
    confirmations `confirmed` (`confirm_unusual`, `confirm_complete`, `confirm_after_finals`).
    A version conflict is kept to show both versions; a changed seating is said, and the form
    takes the new seating so that the judge checks the values and saves again; a double click
    stores once (one submission id per form); saving unchanged values stores nothing. What
    it answered is kept in the form (`said`, shown after the entry); a success is flashed."""
    form = st.session_state[FORM]
    version, seated = base or (form["version"], form["seating"])
    if over_version is None and form["version"] and version == form["version"] \
            and _comparable(rows) == form["rows"]:
        form["said"] = ("info", _("{table}: nothing changed since version {version}; nothing was "
                                  "saved.").format(table=where, version=form["version"]))
        return None
    try:
        out = results.submit_result(
            engine, table_id, rows,
            expected_version=version if over_version is None else over_version,
            submission_id=form["submission_id"], actor=actor, seating=seated,
            over_theirs=over_version is not None, **confirmed)
    except results.SeatingChanged as exc:
        # checked by the judge before the next save: the entry keeps what was typed
        form.update(seating=dict(exc.seating), version=version, values=form_values(rows),
                    token=result_entry.new_token(), reset=True, said=("error", str(exc)))
        return None
    except results.ConflictError as exc:
        if exc.current is None:
            form["said"] = ("error", str(exc))
            return None
        st.session_state[CONFLICT] = {"table_id": table_id, "message": str(exc),
                                      "version": int(exc.version), "saved_by": exc.saved_by,
                                      "saved_at": exc.saved_at, "rows": exc.rows, "mine": rows,
                                      "confirmed": confirmed}
        return None
    except TournamentError as exc:
        form["said"] = ("error", str(exc))
        return None
    st.session_state["_flash"] = ((
        _("{table}: saved as version {version} (a correction).") if out.version > 1 else
        _("{table}: saved as version {version}.")).format(table=where, version=out.version))
    st.session_state[FORM] = _meta(table_id, form["sitting_id"], out, out.rows,
                                   seating(out.rows), reset=True,
                                   answered=form.get("answered", 0))
    st.session_state.setdefault("res_forget", []).append(int(table_id))
    st.session_state.pop(CONFLICT, None)
    return out


def said(form: dict) -> tuple[str, str] | None:
    """What the last save answered, once: ("error" | "info", words)."""
    return form.pop("said", None)


def forget() -> list[int]:
    """The tables saved in this session whose browser drafts are to be dropped (once)."""
    return st.session_state.pop("res_forget", [])


def conflict(table_id: int) -> dict | None:
    found = st.session_state.get(CONFLICT)
    return found if found and found["table_id"] == table_id else None


def keep_theirs(table_id: int) -> None:
    """A button callback: load the other judge's saved values into the entry (R19)."""
    theirs = st.session_state.pop(CONFLICT)
    form = st.session_state[FORM]
    result = results.TableResult(table_id=table_id, version=theirs["version"],
                                 rows=theirs["rows"], saved_by=theirs["saved_by"],
                                 saved_at=theirs["saved_at"])
    st.session_state[FORM] = _meta(table_id, form["sitting_id"], result, theirs["rows"],
                                   form["seating"], reset=True,
                                   answered=form.get("answered", 0))


def save_mine(engine, table_id: int, where: str, *, actor, confirmed: dict) -> bool:
    """R19: save the entry that met another judge's save over theirs (with the confirmations
    it still needs, `confirmed`); True when saved."""
    clash = conflict(table_id)
    if clash is None:
        return False
    ticks = {**clash["confirmed"], **confirmed}
    return save(engine, table_id, clash["mine"], where, actor=actor,
                over_version=clash["version"], **ticks) is not None


FIELDS = {"leader": N_("Leader"), **NUMBERS, "tiebreak": N_("Settled order")}


def _long(rows: pd.DataFrame, side: str) -> pd.DataFrame:
    """A table's rows as one row per player and field, each value as text ("" for blank)."""
    values = rows.reindex(columns=["player_id", *FIELDS]).astype({f: object for f in FIELDS})
    return (values.melt(id_vars="player_id", var_name="field", value_name=side)
            .assign(**{side: lambda d: d[side].map(
                lambda v: "" if pd.isna(v) else str(v) if isinstance(v, str) else str(int(v)))}))


def differences(theirs: pd.DataFrame, mine: pd.DataFrame, seats: pd.DataFrame) -> pd.DataFrame:
    """R19: where two versions of a table's result differ, one row per player and field, in
    seat order: Player, Field, Theirs, Yours ("" for a blank). Equal values are left out."""
    order = list(FIELDS)
    return (_long(theirs, "Theirs").merge(_long(mine, "Yours"), on=["player_id", "field"],
                                          how="outer")
            .fillna({"Theirs": "", "Yours": ""})
            .query("Theirs != Yours")
            .merge(seats[["player_id", "seat", "name"]], on="player_id", how="left")
            .assign(rank=lambda d: d["field"].map(order.index))
            .sort_values(["seat", "rank"])
            .pipe(lambda d: pd.DataFrame({
                "Player": d["name"].to_numpy(),
                "Field": d["field"].map(lambda f: _(FIELDS[f])).to_numpy(),
                "Theirs": d["Theirs"].to_numpy(), "Yours": d["Yours"].to_numpy()})))


THEIRS_COLOUR, YOURS_COLOUR = "#fde2b3", "#cfe8fc"
DIFFERENCE_HEADINGS = {"Player": N_("Player"), "Field": N_("Field"), "Theirs": N_("Theirs"),
                       "Yours": N_("Yours")}


def differences_table(found: pd.DataFrame):
    """`differences` for the page: the two versions' values highlighted, each side its own
    colour (a few rows only, so a styled table costs nothing); its headings in this run's
    language."""
    shown = found.rename(columns={c: _(DIFFERENCE_HEADINGS[c]) for c in DIFFERENCE_HEADINGS})
    theirs, yours = _(DIFFERENCE_HEADINGS["Theirs"]), _(DIFFERENCE_HEADINGS["Yours"])
    return (shown.style
            .set_properties(subset=[theirs], **{"background-color": THEIRS_COLOUR,
                                                "color": "black", "font-weight": "bold"})
            .set_properties(subset=[yours], **{"background-color": YOURS_COLOUR,
                                               "color": "black", "font-weight": "bold"}))


def when(saved_at) -> str:
    """"14:05:09": when a result was saved, in the tournament's time zone (R26)."""
    if saved_at is None:
        return "?"
    return local_time.clock_words(pd.Timestamp(saved_at).to_pydatetime(),
                                  data.now().settings().zone, seconds=True)
