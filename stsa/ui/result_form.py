"""The Results page's form for one table (R11–R13, R19): its state (what it loaded, the version
it is based on, the table's seating it was opened on, its submission id), the fields, the
preview, the save and a conflict with another judge's save. The form's fields are keyed by
player, not by seat, so a value stays with the player it was typed for when the table's seats
change. The rules behind it live in `stsa.services.results`."""

from __future__ import annotations

import uuid

import numpy as np
import pandas as pd
import streamlit as st

from stsa import catalog, local_time, store
from stsa.domain import TournamentError, rule_change_line
from stsa.i18n import N_, _, ngettext
from stsa.services import results
from stsa.ui import data, widgets
from stsa.ui.sittings import colour

STATS = results.STATS  # vp, spice, solari, troops, water (R11)
NUMBERS = {"vp": N_("VP"), "spice": N_("Spice"), "solari": N_("Solari"),
           "troops": N_("Troops in garrison"), "water": N_("Water"),
           "variant_points": N_("Variant points")}
# The form's labels, short so a seat's numbers fit one row on a phone; the variant points are
# the points of the sitting's rule change (R24), named above the seats (`rule_change_caption`).
SHORT = {**NUMBERS, "troops": N_("Troops"), "variant_points": N_("Rule pts")}
HELP = {"variant_points": N_("Points from this sitting's rule change (named above the seats); "
                             "0 for none")}
FORM, CONFLICT = "res_form", "res_conflict"
MAX_NUMBER = store.game_results.MAX_NUMBER


def key(table_id: int, player_id: int, field: str) -> str:
    """The widget key of one player's field in a table's result form: by player, so a value
    stays with the player it was typed for when seats move (a seat left empty)."""
    return f"res_{table_id}_p{int(player_id)}_{field}"


def seating(seats: pd.DataFrame) -> dict[int, int]:
    """A table's seating as a save names it (R3): {seat: player_id}."""
    return {int(s): int(p) for s, p in zip(seats["seat"], seats["player_id"])}


def _set_values(table_id: int, seats: pd.DataFrame, rows: pd.DataFrame,
                leaders: dict[int, str] | None = None) -> None:
    by_player = {int(r["player_id"]): r for r in rows.to_dict("records")}
    for pid in seats["player_id"].astype(int):
        row = by_player.get(pid, {})
        st.session_state[key(table_id, pid, "leader")] = \
            row.get("leader") or (leaders or {}).get(pid)
        for field in (*STATS, "variant_points", "tiebreak"):
            value = row.get(field, 0 if field == "variant_points" else None)
            st.session_state[key(table_id, pid, field)] = None if pd.isna(value) else int(value)


def _meta(table_id: int, result, rows: pd.DataFrame, seated: dict[int, int]) -> dict:
    """The form's state: the version it is based on, who saved it, the values loaded, the
    table's seating it was opened on ({seat: player_id}) and its submission id."""
    loaded = _comparable(rows)
    return {"table_id": table_id, "version": int(result.version), "saved_by": result.saved_by,
            "saved_at": result.saved_at, "rows": loaded, "seating": dict(seated),
            "submission_id": uuid.uuid4().hex, "opened": loaded, "drafted": loaded}


def ensure_form(engine, table_id: int, seats: pd.DataFrame,
                leaders: dict[int, str] | None = None, *, actor) -> dict:
    """The form for `table_id`: loaded from the store (a correction if a result exists) when
    first shown, or when its fields were dropped (another table or page was open, a reload, a
    new connection). Without a result, each seat's leader starts from `leaders` (player →
    leader: the Wild Card ones). `actor`'s unsaved entry for the table (`keep_draft`), if
    any, is put back over it, on the version and seating it was typed on (R19): a save over
    a version saved since meets the other judge's, as any late save does.

    The form keeps the seating it was opened on (R19): when the table's seats change while
    it is open (a no-show replaced, a seat left empty), its values stay with their players
    and its saves are refused until the judge has checked them (`seating_changed`)."""
    form, seated = st.session_state.get(FORM), set(seats["player_id"].astype(int))
    staying = [] if form is None else [p for p in form.get("seating", {}).values()
                                       if p in seated]
    fresh = form is None or form["table_id"] != table_id or not staying or any(
        key(table_id, p, "vp") not in st.session_state for p in staying)
    if fresh:
        result = store.table_result(engine, table_id)
        _set_values(table_id, seats, result.rows, leaders)
        form = _meta(table_id, result, result.rows, seating(seats))
        form["opened"] = form["drafted"] = _comparable(form_rows(table_id, seats)[0])
        kept = store.draft(engine, table_id, actor=actor)
        if kept is not None:
            _set_values(table_id, seats, kept.rows)
            form.update(version=kept.base_version, seating=dict(kept.seating),
                        drafted=_comparable(form_rows(table_id, seats)[0]),
                        restored=kept.saved_at)
        st.session_state[FORM] = form
        st.session_state.pop(CONFLICT, None)
    return st.session_state[FORM]


def keep_draft(engine, table_id: int, rows: pd.DataFrame, *, actor) -> None:
    """R19: keep what the judge typed and has not saved as their draft of the table, in the
    database, so that a reload, Back or a new connection finds it (`ensure_form`); written
    only when the values changed, and forgotten when they are back to what the form opened
    with. A save removes it."""
    form = st.session_state[FORM]
    now = _comparable(rows)
    if now == form["drafted"]:
        return
    try:
        if now == form["opened"]:
            store.clear_draft(engine, table_id, actor=actor)
        else:
            store.save_draft(engine, table_id, rows, base_version=form["version"],
                             seating=form["seating"], actor=actor)
    except store.InvalidState:  # archived meanwhile (R27): the save says so in words
        return
    form["drafted"] = now


def unsaved(form: dict, rows: pd.DataFrame) -> bool:
    """Whether the form holds values not saved yet (kept as a draft by `keep_draft`)."""
    return _comparable(rows) != form["opened"]


def discard_draft(engine, table_id: int, seats: pd.DataFrame, *, actor) -> None:
    """A button callback: forget the judge's unsaved entry and show the table as stored."""
    store.clear_draft(engine, table_id, actor=actor)
    st.session_state.pop(FORM, None)
    result = store.table_result(engine, table_id)
    _set_values(table_id, seats, result.rows)


def next_waiting(tables, saved_table_id: int) -> int | None:
    """The table after `saved_table_id` still waiting for a result (by table number, from
    the first again after the last), or None when none is: where a judge goes on after a
    first result (`sittings.ResultTables`)."""
    numbers = {t: int(tables.seats[t]["table_no"].iloc[0]) for t in tables.waiting}
    after = int(tables.seats[saved_table_id]["table_no"].iloc[0]) \
        if saved_table_id in tables.seats else 0
    later = sorted(numbers, key=lambda t: (numbers[t] <= after, numbers[t]))
    return later[0] if later else None


def seating_changed(form: dict, seats: pd.DataFrame) -> list[str]:
    """R3, R19: how the table's seats changed since the form was opened, in words ("seat 2 is
    now Bob", "seat 4 is empty now"); empty when they did not."""
    return store.game_results.seating_changes(
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
    field = SHORT["variant_points"]
    return (_("Rule change: {rule_change}. Each player's points from it go in “{field}”.").format(
        rule_change=line, field=_(field)) if line else "")


def number_fields(sitting: dict | None, table_id: int, seats: pd.DataFrame) -> list[str]:
    """The numbers the form asks for: the five of R11, and the variant points (R12) when the
    sitting (a row of the sittings, as a dict) has a rule change (R24), or when the loaded
    result already holds some."""
    change = (sitting or {}).get("rule_change", "")
    held = any(st.session_state.get(key(table_id, p, "variant_points")) not in (None, 0)
               for p in seats["player_id"])
    return [*STATS, *(["variant_points"] if (isinstance(change, str) and change.strip())
                      or held else [])]


#: The seats' number fields on a phone: no clear button (it took half of a narrow field), a
#: larger centred number (16 px keeps phones from zooming in on a tap), a taller touch target.
FORM_STYLE = """<style>
[class*="st-key-res_seat_"] [data-testid="stNumberInputClearButton"] { display: none; }
[class*="st-key-res_seat_"] [data-testid="stNumberInputField"] {
    font-size: 1.1rem; text-align: center; min-height: 2.75rem; padding: 0 0.2rem; }
</style>"""


def form_style() -> None:
    """Give the result form's seats `FORM_STYLE`."""
    st.html(FORM_STYLE)


def seat_block(table_id: int, seat, options: list[str], fields: list[str]) -> None:
    """One seat's entry on a phone's width: its player, the leader, then every number of
    `fields` side by side in one row (labels short, so the row never wraps)."""
    with st.container(border=True, gap="small", key=f"res_seat_{table_id}_{seat.player_id}"):
        st.markdown(_("**Seat {seat}** · {colour} · {player}").format(
            seat=seat.seat, colour=colour(seat.colour), player=widgets.plain(seat.name)))
        leader_key = key(table_id, seat.player_id, "leader")
        stored = st.session_state.get(leader_key)
        st.selectbox(_("Leader"),
                     options + ([stored] if stored and stored not in options else []),
                     index=None, placeholder=_("Choose the leader"), key=leader_key,
                     label_visibility="collapsed")
        with st.container(horizontal=True, wrap=False, gap="small"):
            for field in fields:
                # No lower limit in the browser: a negative number reaches the save, which
                # says what is wrong in words, instead of a field silently left blank.
                st.number_input(_(SHORT[field]), min_value=-MAX_NUMBER, max_value=MAX_NUMBER,
                                step=1,
                                value=None, key=key(table_id, seat.player_id, field),
                                help=_(HELP[field]) if field in HELP else None)


def form_rows(table_id: int, seats: pd.DataFrame) -> tuple[pd.DataFrame, list[int]]:
    """The form's values as result rows, and the seats in a full tie (R11); a settled order
    is kept only for those. Built once a run: the values are the ones this run was sent, so
    the settled-order fields drawn after it change nothing here."""
    get = st.session_state.get
    players = seats["player_id"].astype("int64").tolist()
    rows = pd.DataFrame({
        "player_id": seats["player_id"].astype("int64").to_numpy(),
        "seat": seats["seat"].astype("int64").to_numpy(),
        "leader": [get(key(table_id, p, "leader")) for p in players],
        **{f: pd.array([get(key(table_id, p, f)) for p in players], dtype="Int64")
           for f in (*STATS, "variant_points", "tiebreak")}})
    tied = results.full_ties(rows)
    rows.loc[~rows["seat"].isin(tied), "tiebreak"] = pd.NA
    return rows, tied


_PREVIEWED = ["player_id", "seat", *STATS, "variant_points", "tiebreak"]
_previews: dict[tuple, pd.DataFrame] = {}  # the same numbers preview alike, for any session


def _preview(rows: pd.DataFrame, base_points) -> pd.DataFrame:
    """`services.results.preview_result`, kept for forms with the same numbers: the run that
    saves and the one after it, or a leader chosen, show the preview of numbers already
    scored."""
    found = _previews.get(key := (tuple(rows[_PREVIEWED].itertuples(index=False, name=None)),
                                  tuple(base_points)))
    if found is None:
        if len(_previews) >= 1000:
            _previews.clear()
        found = _previews[key] = results.preview_result(rows, base_points)
    return found


def settled_order(table_id: int, seats: pd.DataFrame, tied: list[int]) -> None:
    """R11: the settled order of the seats in a full tie (for example by a roll-off)."""
    if not tied:
        return
    st.warning(_("Seats {seats} are equal on VP, spice, solari, troops and water. Settle their "
                 "order (for example by a roll-off) and enter it: 1 places highest.").format(
                   seats=", ".join(map(str, tied))))
    for seat in seats.loc[seats["seat"].isin(tied)].itertuples():
        st.number_input(_("Settled order of seat {seat} ({player})").format(
                            seat=seat.seat, player=widgets.plain(seat.name)),
                        min_value=1, max_value=len(seats), step=1, value=None,
                        key=key(table_id, seat.player_id, "tiebreak"))


def blanks(rows: pd.DataFrame, fields: list[str]) -> list[str]:
    """The numbers of `fields` still blank, in seat order ("seat 2 VP"): a save refuses a
    blank, so the preview waits for them too (one rule for both)."""
    blank = rows[fields].isna().to_numpy()  # the form's rows, in seat order
    seats = rows["seat"].to_numpy()
    return [_("seat {seat} {field}").format(seat=seats[r], field=_(SHORT[fields[c]]))
            for r, c in zip(*np.nonzero(blank))]


def preview(rows: pd.DataFrame, seats: pd.DataFrame, base_points, fields: list[str]) -> None:
    """R11, R12: the placings and qualifier scores the form would save, once every number
    is in; until then, which numbers are still blank."""
    st.markdown(_("**Preview** · placings and qualifier scores"))
    missing = blanks(rows, fields)
    if missing:
        listed = ", ".join(missing[:6])
        st.caption(ngettext(
            "The preview shows once every number is in. Still blank: {fields} and {count} more.",
            "The preview shows once every number is in. Still blank: {fields} and {count} more.",
            len(missing) - 6).format(fields=listed, count=len(missing) - 6)
            if len(missing) > 6 else
            _("The preview shows once every number is in. Still blank: {fields}.").format(
                fields=listed))
        return
    shown = preview_frame(rows, seats, base_points)
    if shown is None:
        st.caption(_("No preview while a number cannot be scored: Save says which one."))
    else:
        st.dataframe(shown, hide_index=True, column_config=preview_columns())


def go_on(tables, table_key: str) -> str:
    """After a first result was saved (the page set `res_went_on` to its table): choose the
    next table waiting for a result in the table box, and say so; "" otherwise."""
    saved = st.session_state.pop("res_went_on", None)
    following = None if saved is None else next_waiting(tables, saved)
    if following is None:
        return ""
    st.session_state[table_key] = following
    done = tables.seats[saved]["table_no"].iloc[0] if saved in tables.seats else "?"
    return _("Table {saved_table} is saved. This is table {next_table}, the next waiting for a "
             "result.").format(saved_table=done,
                               next_table=tables.seats[following]["table_no"].iloc[0])


def preview_frame(rows: pd.DataFrame, seats: pd.DataFrame, base_points) -> pd.DataFrame | None:
    """R11, R12: placings and qualifier scores of the form as it stands; None while a number
    cannot be scored (a negative one: the save says which, in words)."""
    try:
        scored = _preview(rows, base_points)
    except TournamentError:
        return None
    return pd.DataFrame({"Placing": scored["placing"], "Seat": scored["seat"],
                         "Player": seats["name"].to_numpy(), "VP": rows["vp"],
                         "Score": scored["qualifier_score"], "Tied": scored["tied"]},
                        ).sort_values(["Placing", "Seat"]).reset_index(drop=True)


#: The preview's headings (the frame keeps the English ones), and its narrow columns, so that
#: it fits a phone's width with the player's name.
PREVIEW_HEADINGS = {"Placing": N_("Placing"), "Seat": N_("Seat"), "Player": N_("Player"),
                    "VP": N_("VP"), "Score": N_("Score"), "Tied": N_("Tied")}
PREVIEW_WIDTHS = {"Placing": 56, "Seat": 40, "VP": 40, "Score": 40, "Tied": 40}


def preview_columns() -> dict:
    """The preview's column settings, each heading in this run's language."""
    return {name: st.column_config.Column(_(heading), width=PREVIEW_WIDTHS.get(name))
            for name, heading in PREVIEW_HEADINGS.items()}


def _comparable(rows: pd.DataFrame) -> list[tuple]:
    cols = ["player_id", "leader", *STATS, "variant_points", "tiebreak"]
    frame = rows.reindex(columns=cols).astype(object)
    return sorted(tuple(None if pd.isna(v) else (str(v) if c == "leader" else int(v))
                        for c, v in zip(cols, r)) for r in frame.itertuples(index=False))


def save(engine, table_id: int, rows: pd.DataFrame, where: str, *, actor,
         over_version: int | None = None, **confirmed: bool):
    """Submit the form (R11, R13, R19) through `services.results.submit_result`, which checks
    every rule (a full tie needs its settled order first) and where the save lands: the
    seating the form was opened on, and the confirmations `confirmed` (`confirm_complete`,
    `confirm_after_finals`). A version conflict is kept to show both versions; a changed
    seating is shown, and the form takes the new seating so that the judge checks the values
    and saves again; a double click stores once (one submission id per form); saving
    unchanged values stores nothing."""
    form = st.session_state[FORM]
    if over_version is None and form["version"] and _comparable(rows) == form["rows"]:
        st.info(_("{table}: nothing changed since version {version}; nothing was saved.").format(
            table=where, version=form["version"]))
        return None

    def submit():
        try:
            return results.submit_result(
                engine, table_id, rows,
                expected_version=form["version"] if over_version is None else over_version,
                submission_id=form["submission_id"], actor=actor,
                seating=form.get("seating"), over_theirs=over_version is not None,
                **confirmed)
        except store.game_results.SeatingChanged as exc:
            form["seating"] = dict(exc.seating)  # checked by the judge before the next save
            raise
        except store.ConflictError as exc:
            if exc.current is None:
                raise
            st.session_state[CONFLICT] = {"table_id": table_id, "message": str(exc),
                                          "version": int(exc.version), "saved_by": exc.saved_by,
                                          "saved_at": exc.saved_at, "rows": exc.rows}
            return None

    out = widgets.act(submit, done=lambda r: r and (
        _("{table}: saved as version {version} (a correction).") if r.version > 1 else
        _("{table}: saved as version {version}.")).format(table=where, version=r.version))
    if out is not None:
        st.session_state[FORM] = _meta(table_id, out, out.rows, seating(out.rows))
        st.session_state.pop(CONFLICT, None)
    return out


def conflict(table_id: int) -> dict | None:
    found = st.session_state.get(CONFLICT)
    return found if found and found["table_id"] == table_id else None


def keep_theirs(table_id: int, seats: pd.DataFrame) -> None:
    """A button callback: load the other judge's saved values into the form (R19)."""
    theirs = st.session_state.pop(CONFLICT)
    _set_values(table_id, seats, theirs["rows"])
    result = store.TableResult(table_id=table_id, version=theirs["version"], rows=theirs["rows"],
                               saved_by=theirs["saved_by"], saved_at=theirs["saved_at"])
    st.session_state[FORM] = _meta(table_id, result, theirs["rows"],
                                   st.session_state[FORM].get("seating", seating(seats)))


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
