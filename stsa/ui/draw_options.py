"""The Draw page's choices: who plays this sitting, the draw mode, the table plan with the
players who keep a table (R1, R3), and the draw report as a checklist (R3, R6). The rules live
in `stsa.services.draws`."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from stsa.domain import plural
from stsa.services import draws, roster, setups
from stsa.settings import Settings
from stsa.ui import organizer, widgets
from stsa.ui.sittings import keep_choice


def who_plays(active: pd.DataFrame, sittings: pd.DataFrame) -> tuple[dict[int, str], list[int]]:
    """The checked-in players, changed by hand for this sitting (some left out, others seated
    too), with a warning when they were checked in for the last qualifier played: returns
    every active player's name by id, and who plays."""
    names = dict(zip(active["player_id"].astype(int), widgets.known_as(active)))
    checked = [int(p) for p in active.loc[active["checked_in"], "player_id"]]
    st.markdown(f"**{plural(len(checked), 'player')} checked in** (check players in on the Roster "
                f"page).")
    stale = roster.stale_check_ins(active, sittings)
    if stale:
        st.warning(widgets.plain(stale), icon=":material/history:")
    others = [p for p in names if p not in set(checked)]
    keep_choice("draw_leave_out", checked)
    keep_choice("draw_add", others)
    with st.expander("Change who plays this sitting"):
        # No "Select all": a tap on it would empty the sitting or seat everyone.
        out = st.multiselect("Leave out", checked, format_func=widgets.labels_of(names),
                             select_all=False,
                             key="draw_leave_out")
        add = st.multiselect("Also seat", others, format_func=widgets.labels_of(names),
                             select_all=False,
                             key="draw_add")
    return names, [p for p in checked if p not in set(out)] + add


def mode_caption(settings: Settings) -> str:
    return (f"Draw mode: {organizer.DRAW_MODES.get(settings.draw_mode, settings.draw_mode)} "
            f"(change it in Settings).")


def plan_and_pins(present: list[int], names: dict, sit_out: bool) -> tuple[bool, dict]:
    """The R1 table plan (or why the players cannot be seated) and the pinned players; returns
    whether the draw can go ahead, and the pins (player_id → table_no)."""
    plan = draws.table_plan(len(present), sit_out=sit_out)
    if plan.ok:
        st.markdown(widgets.plain(plan.text))
    else:
        st.error(widgets.plain(plan.text), icon=":material/warning:")
    pins = pin_choice(present, names)
    problem = draws.pin_problem(pins, names, len(plan.sizes)) if plan.ok else None
    if problem:
        st.error(widgets.plain(problem), icon=":material/warning:")
    return plan.ok and not problem, pins


def pin_choice(present: list[int], names: dict) -> dict[int, int]:
    """Players who keep a table (a player who cannot move): chosen in an expander, each with
    their table number. Returns player_id → table_no."""
    keep_choice("draw_pins", present)
    pins = {}
    with st.expander("Players who keep a table"):
        chosen = st.multiselect("Players who cannot move", present, select_all=False,
                                format_func=widgets.labels_of(names),
                                key="draw_pins", placeholder="Nobody")
        for pid in chosen:
            pins[pid] = int(st.number_input(f"Table for {widgets.plain(names[pid])}",
                                            min_value=1, step=1, key=f"draw_pin_{pid}"))
    return pins


def report_items(report) -> list[tuple[str, pd.DataFrame]]:
    """The draw report (`services.draws.draw_report`) as checklist lines and their tables;
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
    def agrees(count: int, one: str, many: str) -> str:  # "1 player gets", "2 players get"
        return one if count == 1 else many

    return [(f"{plural(len(repeats), 'pair')} of players "
             f"{agrees(len(repeats), 'meets', 'meet')} again", repeats),
            (f"{plural(len(seats), 'player')} {agrees(len(seats), 'gets', 'get')} a seat "
             f"they had most often or twice", seats),
            (f"{plural(len(played), 'player')} {agrees(len(played), 'plays', 'play')} a setup "
             f"again", played)]


def show_report(report) -> None:
    """The draw report as a checklist: a tick for a clean line, else the players concerned."""
    for line, frame in report_items(report):
        if frame.empty:
            st.markdown(f":material/check_circle: {line}")
        else:
            st.markdown(f":material/warning: {line}")
            st.dataframe(frame.reset_index(drop=True), hide_index=True)
