"""The Draw and Results pages' helpers: sitting choices, seat tables for each role (R20), and the
result form's state (R11–R13, R19): what it loaded, the version it is based on, the table's
seating it was opened on, its submission id, and a conflict with another judge's save. The
form's fields are keyed by player, not by seat, so a value stays with the player it was typed
for when the table's seats change. The rules behind them live in `stsa.services`."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

import pandas as pd
import streamlit as st

from stsa import store
from stsa.auth import Role
from stsa.domain import SittingStatus, plural, sitting_label
from stsa.services import results, setups
from stsa.services import sittings as sitting_service
from stsa.ui import organizer, session, widgets

STATUS = {SittingStatus.DRAWN: "draft, not published", SittingStatus.PUBLISHED: "published",
          SittingStatus.COMPLETE: "complete"}
COLOUR_MARKS = {"red": "🔴", "green": "🟢", "blue": "🔵", "yellow": "🟡", "purple": "🟣",
                "orange": "🟠", "black": "⚫", "white": "⚪", "brown": "🟤"}
STATS = results.STATS  # vp, spice, solari, troops, water (R11)
NUMBERS = {"vp": "VP", "spice": "Spice", "solari": "Solari", "troops": "Troops in garrison",
           "water": "Water", "variant_points": "Variant points"}
SHORT = {**NUMBERS, "troops": "Troops", "variant_points": "Extra"}  # the form's labels
FORM, CONFLICT = "res_form", "res_conflict"
MAX_NUMBER = store.game_results.MAX_NUMBER


# --- sittings and seats -----------------------------------------------------------------------

def sitting_choices(sittings: pd.DataFrame, statuses=None) -> dict[int, str]:
    """sitting_id → "Qualifier 2 · published", latest first (finals, then later qualifiers)."""
    rows = sittings if statuses is None else sittings.loc[sittings["status"].isin(statuses)]
    return {int(r["sitting_id"]): f"{sitting_label(r['kind'], r['number'])} · "
                                  f"{STATUS.get(r['status'], r['status'])}"
            for r in rows.iloc[::-1].to_dict("records")}


def sitting_name(sittings: pd.DataFrame, sitting_id: int) -> str:
    """The name of sitting `sitting_id` of `sittings`: "Qualifier 2", "Semifinal"."""
    row = sittings.loc[sittings["sitting_id"] == sitting_id].iloc[0]
    return sitting_label(row["kind"], row["number"])


def keep_choice(key: str, options) -> None:
    """Forget a remembered selection that is no longer offered (a discarded draft, a player
    checked in or out since); for a multiselect, drop just those values.

    A kept single choice is set again, so that the box shows its option's label as it is now
    ("Table 3 · reported (version 1)" after a save). Otherwise the browser keeps the old label
    on screen and sends it back at the next click anywhere; matching no option any more, the
    box would silently fall back to its first option (another table)."""
    if key not in st.session_state:
        return
    chosen = st.session_state[key]
    if isinstance(chosen, list):
        kept = [c for c in chosen if c in set(options)]
        if kept != chosen:
            st.session_state[key] = kept
    elif chosen not in options:
        del st.session_state[key]
    else:
        st.session_state[key] = chosen


def colour(name: str) -> str:
    return f"{COLOUR_MARKS.get(str(name).lower(), '')} {name}".strip()


def seat_frame(overview: pd.DataFrame, *, staff: bool) -> pd.DataFrame:
    """Seats in play order for display; the pick order (R9) only for judges and organizer,
    who also see the nickname beside the name (spectators' `name` is the nickname, R22).
    Each table's setup is in `tables_frame`: four narrow columns fit a phone."""
    frame = pd.DataFrame({"Table": overview["table_no"], "Seat": overview["seat"],
                          "Colour": overview["colour"].map(colour), "Player": overview["name"]})
    if staff:
        frame["Nickname"] = overview["nickname"]
        frame["Pick order"] = overview["pick_order"]
    return frame.reset_index(drop=True)


def tables_frame(overview: pd.DataFrame, *, staff: bool) -> pd.DataFrame:
    """Each table's setup; its removed leaders for judges and the organizer only (R9, R20)."""
    tables = overview.drop_duplicates("table_id")
    frame = pd.DataFrame({"Table": tables["table_no"], "Setup": tables["setup"]})
    if staff:
        frame["Removed leaders"] = tables["removed_leaders"].map(
            lambda names: ", ".join(names or []))
    return frame.reset_index(drop=True)


def table_choices(overview: pd.DataFrame) -> dict[int, str]:
    """table_id → "Table 3 · reported (version 2)" or "Table 3 · waiting for the result"."""
    tables = overview.drop_duplicates("table_id")
    return {int(t): f"Table {n} · " + (f"reported (version {v})" if v else
                                        "waiting for the result")
            for t, n, v in zip(tables["table_id"], tables["table_no"], tables["version"])}


@dataclass(frozen=True)
class ResultTables:
    """A sitting's tables as the Results page offers them (`result_tables`): the choices
    (`table_choices`), the ids and numbers of the tables still waiting for a result, and each
    table's seats in seat order."""

    choices: dict[int, str]
    waiting: list[int]
    missing: list[int]
    seats: dict[int, pd.DataFrame]


def result_tables(overview: pd.DataFrame) -> ResultTables:
    """`ResultTables` of a sitting's seats (`services.sittings.sitting_overview`)."""
    open_ = overview.loc[overview["version"] == 0]
    return ResultTables(
        choices=table_choices(overview),
        waiting=[int(t) for t in open_["table_id"].unique()],
        missing=sorted(int(n) for n in open_["table_no"].unique()),
        seats={int(t): seats for t, seats in overview.sort_values("seat", kind="stable")
               .groupby("table_id", sort=False)})


def results_frame(scored: pd.DataFrame, sitting_id: int) -> pd.DataFrame:
    """A sitting's stored results for everyone (R13, R20): leaders picked are public."""
    rows = scored.loc[scored["sitting_id"] == sitting_id].sort_values(["table_no", "placing"])
    return pd.DataFrame({"Table": rows["table_no"], "Placing": rows["placing"],
                         "Player": rows["name"], "Leader": rows["leader"], "VP": rows["vp"],
                         "Score": rows["qualifier_score"], "Seat": rows["seat"],
                         "Tied": rows["tied"]}).reset_index(drop=True)


# --- fair draws: the draw mode, pinned players and the draw report -----------------------------

def who_plays(active: pd.DataFrame) -> tuple[dict[int, str], list[int]]:
    """The checked-in players, changed by hand for this sitting (some left out, others seated
    too): returns every active player's name by id, and who plays."""
    names = dict(zip(active["player_id"].astype(int), active["name"]))
    checked = [int(p) for p in active.loc[active["checked_in"], "player_id"]]
    st.markdown(f"**{plural(len(checked), 'player')} checked in** (check players in on the Roster "
                f"page).")
    others = [p for p in names if p not in set(checked)]
    keep_choice("draw_leave_out", checked)
    keep_choice("draw_add", others)
    with st.expander("Change who plays this sitting"):
        out = st.multiselect("Leave out", checked, format_func=names.get, key="draw_leave_out")  # type: ignore[arg-type]
        add = st.multiselect("Also seat", others, format_func=names.get, key="draw_add")  # type: ignore[arg-type]
    return names, [p for p in checked if p not in set(out)] + add


def mode_caption(settings: dict) -> str:
    mode = settings.get("draw_mode") or "random"
    return f"Draw mode: {organizer.DRAW_MODES.get(mode, mode)} (change it in Settings)."


def plan_and_pins(present: list[int], names: dict, sit_out: bool) -> tuple[bool, dict]:
    """The R1 table plan (or why the players cannot be seated) and the pinned players; returns
    whether the draw can go ahead, and the pins (player_id → table_no)."""
    plan = sitting_service.table_plan(len(present), sit_out=sit_out)
    if plan.ok:
        st.markdown(widgets.plain(plan.text))
    else:
        st.error(widgets.plain(plan.text), icon=":material/warning:")
    pins = pin_choice(present, names)
    problem = sitting_service.pin_problem(pins, names, len(plan.sizes)) if plan.ok else None
    if problem:
        st.error(widgets.plain(problem), icon=":material/warning:")
    return plan.ok and not problem, pins


def pin_choice(present: list[int], names: dict) -> dict[int, int]:
    """Players who keep a table (a player who cannot move): chosen in an expander, each with
    their table number. Returns player_id → table_no."""
    keep_choice("draw_pins", present)
    pins = {}
    with st.expander("Players who keep a table"):
        chosen = st.multiselect("Players who cannot move", present, format_func=names.get,  # type: ignore[arg-type]
                                key="draw_pins", placeholder="Nobody")
        for pid in chosen:
            pins[pid] = int(st.number_input(f"Table for {widgets.plain(names[pid])}",
                                            min_value=1, step=1, key=f"draw_pin_{pid}"))
    return pins


def report_items(report) -> list[tuple[str, pd.DataFrame]]:
    """The draw report (`services.sittings.draw_report`) as checklist lines and their tables;
    an empty table means the line is fine."""
    names = setups.setup_names()
    repeats = pd.DataFrame({"Table": report.repeats["table_no"],
                            "Player": report.repeats["name_a"],
                            "Meets again": report.repeats["name_b"],
                            "Met before": report.repeats["met_before"]})
    seats = pd.DataFrame({"Table": report.seats["table_no"], "Seat": report.seats["seat"],
                          "Player": report.seats["name"],
                          "Had this seat": report.seats["times_before"],
                          "Games before": report.seats["games_before"]})
    played = pd.DataFrame({"Table": report.setups["table_no"], "Player": report.setups["name"],
                           "Setup": report.setups["setup_id"].map(names),
                           "Played before": report.setups["times_before"]})
    return [(f"{plural(len(repeats), 'pair')} of players meet again", repeats),
            (f"{plural(len(seats), 'player')} get a seat they had most often or twice", seats),
            (f"{plural(len(played), 'player')} play a setup again", played)]


def show_report(report) -> None:
    """The draw report as a checklist: a tick for a clean line, else the players concerned."""
    for line, frame in report_items(report):
        if frame.empty:
            st.markdown(f":material/check_circle: {line}")
        else:
            st.markdown(f":material/warning: {line}")
            st.dataframe(frame.reset_index(drop=True), hide_index=True)


# --- a table slip's QR code: results?table=<table id> ------------------------------------------

TABLE_PARAM = "table"


def follow_table_link(reads, role: Role, choices: dict[int, str]) -> None:
    """A slip's QR code opens the Results page with `?table=<table id>`: for judges and the
    organizer, choose that table's sitting and table (once per link, so they can still pick
    another); tell anyone else to sign in. Other query parameters (the sign-in token) are
    left alone. `reads` is this run's `ui.data.Data`."""
    raw = st.query_params.get(TABLE_PARAM)
    if raw is None:
        return
    if role not in (Role.JUDGE, Role.ORGANIZER):
        st.info("This link opens a table's result entry, for judges: sign in to enter this "
                "table's result.", icon=":material/qr_code:")
        session.sign_in_link("views/results.py", {TABLE_PARAM: str(raw)[:40]})
        return
    raw = str(raw).strip()
    found = reads.table(int(raw)) if raw.isdigit() and len(raw) <= 12 else None
    if found is None or found.empty:
        st.warning(widgets.plain(f"The link names table {raw[:20]!r}, which this tournament "
                                 f"does not have: choose the table below."),
                   icon=":material/warning:")
        return
    row = found.iloc[0]
    sitting_id, table_id = int(row["sitting_id"]), int(row["table_id"])
    if sitting_id not in choices:
        name = sitting_label(row["kind"], row["sitting_no"])
        st.warning(f"Table {row['table_no']} of {name} is not published yet: its result can "
                   f"be entered once the organizer publishes the draw.", icon=":material/lock:")
        return
    if st.session_state.get("res_link") != raw:  # the first run with this link
        st.session_state["res_link"] = raw
        st.session_state["res_sitting"] = sitting_id
        st.session_state[f"res_table_{sitting_id}"] = table_id


# --- the result form --------------------------------------------------------------------------

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
    return {"table_id": table_id, "version": int(result.version), "saved_by": result.saved_by,
            "saved_at": result.saved_at, "rows": _comparable(rows), "seating": dict(seated),
            "submission_id": uuid.uuid4().hex}


def ensure_form(engine, table_id: int, seats: pd.DataFrame,
                leaders: dict[int, str] | None = None) -> dict:
    """The form for `table_id`: loaded from the store (a correction if a result exists) when
    first shown, or when its fields were dropped (another table or page was open). Without a
    result, each seat's leader starts from `leaders` (player → leader: the Wild Card ones).

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
        st.session_state[FORM] = _meta(table_id, result, result.rows, seating(seats))
        st.session_state.pop(CONFLICT, None)
    return st.session_state[FORM]


def seating_changed(form: dict, seats: pd.DataFrame) -> list[str]:
    """R3, R19: how the table's seats changed since the form was opened, in words ("seat 2 is
    now Bob", "seat 4 is empty now"); empty when they did not."""
    return store.game_results.seating_changes(
        form.get("seating", {}), seating(seats),
        dict(zip(seats["player_id"].astype(int), seats["name"])))


def leader_options(seats: pd.DataFrame, wild_card: bool) -> list[str]:
    """R9, R10: the table's available leaders, plus its removed ones with Wild Card on."""
    first = seats.iloc[0]
    options = list(first["available_leaders"] or [])
    if wild_card:
        options += [n for n in first["removed_leaders"] or [] if n not in options]
    return options


def number_fields(sittings: pd.DataFrame, sitting_id: int, table_id: int,
                  seats: pd.DataFrame) -> list[str]:
    """The numbers the form asks for: the five of R11, and the variant points (R12) when the
    sitting has a rule change (R24), or when the loaded result already holds some."""
    row = sittings.loc[sittings["sitting_id"] == sitting_id]
    change = row["rule_change"].iloc[0] if "rule_change" in row and len(row) else ""
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
        st.markdown(f"**Seat {seat.seat}** · {colour(seat.colour)} · {widgets.plain(seat.name)}")
        leader_key = key(table_id, seat.player_id, "leader")
        stored = st.session_state.get(leader_key)
        st.selectbox("Leader", options + ([stored] if stored and stored not in options else []),
                     index=None, placeholder="Choose the leader", key=leader_key,
                     label_visibility="collapsed")
        with st.container(horizontal=True, wrap=False, gap="small"):
            for field in fields:
                low = -MAX_NUMBER if field == "variant_points" else 0
                st.number_input(SHORT[field], min_value=low, max_value=MAX_NUMBER, step=1,
                                value=None, key=key(table_id, seat.player_id, field))


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


def preview_frame(rows: pd.DataFrame, seats: pd.DataFrame, base_points) -> pd.DataFrame:
    """R11, R12: placings and qualifier scores of the form as it stands (blanks count 0)."""
    scored = _preview(rows, base_points)
    return pd.DataFrame({"Placing": scored["placing"], "Seat": scored["seat"],
                         "Player": seats["name"].to_numpy(), "VP": rows["vp"],
                         "Score": scored["qualifier_score"], "Tied": scored["tied"]},
                        ).sort_values(["Placing", "Seat"]).reset_index(drop=True)


#: The preview's narrow columns, so that it fits a phone's width with the player's name.
PREVIEW_COLUMNS = {name: st.column_config.Column(width=40 if name != "Placing" else 56)
                   for name in ("Placing", "Seat", "VP", "Score", "Tied")}


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
        st.info(f"{where}: nothing changed since version {form['version']}; nothing was saved.")
        return None

    def submit():
        try:
            return results.submit_result(
                engine, table_id, rows,
                expected_version=form["version"] if over_version is None else over_version,
                submission_id=form["submission_id"], actor=actor,
                seating=form.get("seating"), **confirmed)
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
        f"{where}: saved as version {r.version}" + (" (a correction)." if r.version > 1 else ".")))
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


FIELDS = {"leader": "Leader", **NUMBERS, "tiebreak": "Settled order"}


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
                "Player": d["name"].to_numpy(), "Field": d["field"].map(FIELDS).to_numpy(),
                "Theirs": d["Theirs"].to_numpy(), "Yours": d["Yours"].to_numpy()})))


THEIRS_COLOUR, YOURS_COLOUR = "#fde2b3", "#cfe8fc"


def differences_table(found: pd.DataFrame):
    """`differences` for the page: the two versions' values highlighted, each side its own
    colour (a few rows only, so a styled table costs nothing)."""
    return (found.style
            .set_properties(subset=["Theirs"], **{"background-color": THEIRS_COLOUR,
                                                  "color": "black", "font-weight": "bold"})
            .set_properties(subset=["Yours"], **{"background-color": YOURS_COLOUR,
                                                 "color": "black", "font-weight": "bold"}))


def when(saved_at) -> str:
    return saved_at.astimezone().strftime("%H:%M:%S") if saved_at is not None else "?"

