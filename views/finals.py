"""Finals: the final standings with the champion first once the final is played (R18), then the
cut (R16), absences and wildcards (R17), the semifinal and final draws and the final table (R16).
The organizer acts; judges enter results on the Results page; everyone watches."""

import streamlit as st

from stsa.domain import Kind, Role, SittingStatus, Stage
from stsa.services import draws
from stsa.services import finals as service
from stsa.ui import corrections, data, session, tables, widgets
from stsa.ui import finals as view


def show(frame, key: str) -> None:
    """A table of names as text at its full height (`ui.tables.show`); on a phone, who and
    whether a wildcard first (`ui.finals.phone_first`)."""
    tables.show(frame, key, **view.phone_first(frame))


def final_standings(finals, reads) -> None:
    """R18: the champion and podium, then everyone's final place, with the CSV."""
    st.header("Final standings", anchor=False)
    if podium := reads.standings_notes().podium:
        st.success(widgets.plain(podium), icon=":material/trophy:")
    standings = view.final_standings_frame(finals)
    show(standings, "finals_standings_rows")
    st.download_button("Download final standings (CSV)", view.to_csv(standings),
                       file_name=widgets.file_name(reads.settings().tournament_name,
                                                   "final standings", "csv"),
                       mime="text/csv", key="finals_download", on_click="ignore")
    st.divider()


def sitting_open(sitting, role: Role) -> bool:
    """Spectators see a finals sitting once it is published (R20)."""
    return sitting is not None and (role.is_staff or sitting["status"] != SittingStatus.DRAWN)


def draw_controls(kind: Kind, sitting, drawer) -> None:
    """Draw (again, until published) from a seed shown on screen: organizer only (R3, R20)."""
    if sitting is not None and sitting["status"] != SittingStatus.DRAWN:
        return
    key = f"finals_{kind}_seed"
    if st.session_state.pop(f"{key}_used", False) or key not in st.session_state:
        st.session_state[key] = draws.new_seed()
    seed = st.number_input("Seed for a new draw" if sitting else "Seed", min_value=0, step=1,
                           key=key, help="Anyone can re-check a draw from its seed.")
    label = f"Draw the {kind} again" if sitting else f"Draw the {kind}"
    if st.button(label, key=f"finals_draw_{kind}"):
        drawn = widgets.act(lambda: drawer(session.engine(), seed=int(seed), actor=session.actor()),
                            done=f"The {kind} is drawn (seed {int(seed)}); publish it when ready.")
        if drawn is not None:
            st.session_state[f"{key}_used"] = True
            st.rerun()


def publish_control(kind: Kind, sitting, stale: str) -> None:
    """Publish a drawn finals sitting, unless it no longer seats who it should (the service
    refuses it then; the button waits for a new draw)."""
    if sitting is None or sitting["status"] != SittingStatus.DRAWN:
        return
    if stale:
        st.warning(widgets.plain(stale), icon=":material/warning:")
    if st.button(f"Publish the {kind}", key=f"finals_publish_{kind}", type="primary",
                 disabled=bool(stale)):
        published = widgets.act(
            lambda: draws.publish(session.engine(), int(sitting["sitting_id"]),
                                     actor=session.actor()),
            done=f"The {kind} is published: judges can enter its results.")
        if published is not None:
            st.rerun()


def show_sitting(kind: Kind, sitting, scored, reads, role: Role) -> None:
    """The tables of a finals sitting, results once in; where it stands. `reads`: this run's
    `ui.data.Data`."""
    if not sitting_open(sitting, role):
        st.info(f"The {kind} has not been drawn yet.")
        return
    overview = reads.sitting_overview(int(sitting["sitting_id"]))
    st.caption(f"Seed {sitting['seed']} · {sitting['status']}")
    if sitting["status"] == SittingStatus.DRAWN:
        st.info(f"This {kind} draw is not published yet: spectators do not see it, and "
                f"results can be entered once the organizer publishes it.")
    show(view.seating_frame(overview, scored, reads.finals().wildcards, role),
         f"finals_{kind}_rows")
    if sitting["status"] == SittingStatus.PUBLISHED:
        st.caption(f"Judges enter the {kind} results on the Results page.")


st.title("Finals")
widgets.flash()
role, reads = session.role(), data.now()
organizer = role is Role.ORGANIZER
finals = reads.finals()
if finals.format is None:
    st.info(f"{finals.reason} Finals appear here once enough qualifier results are in.")
    st.stop()
if finals.final_standings is not None:  # the final is played: its outcome first
    final_standings(finals, reads)

for line in view.format_lines(finals.format):
    st.write(line)
if organizer:
    for warning in view.tie_warnings(finals.standings):
        st.warning(widgets.plain(warning), icon=":material/warning:")
show(view.entrants_frame(finals, reads.finals_status()), "finals_entrants_rows")
names = dict(zip(finals.standings["player_id"], finals.standings["name"].astype(str)))
if finals.absent:
    st.caption(widgets.plain("Absent: " + ", ".join(names.get(p, str(p)) for p in finals.absent)
                             + ". Wildcards take their seats."))

if organizer:
    corrections.absences_form(finals, names)

if service.stage_players(finals, Stage.SEMIFINAL):
    st.header("Semifinal", anchor=False)
    if organizer:
        draw_controls(Kind.SEMIFINAL, finals.semifinal, service.draw_semifinal)
    show_sitting(Kind.SEMIFINAL, finals.semifinal, finals.semifinal_results, reads, role)
    if organizer:
        publish_control(Kind.SEMIFINAL, finals.semifinal, finals.stale.get(Kind.SEMIFINAL, ""))

st.header("Final", anchor=False)
if finals.final_blocker:
    st.warning(widgets.plain(finals.final_blocker), icon=":material/warning:")
elif finals.final_players is None:
    st.info("The final table is known once every semifinal result is in.")
else:
    for note in view.advance_notes(finals):
        st.markdown(widgets.plain(note))
    show(view.final_table_frame(finals), "finals_table_rows")
    if organizer:
        draw_controls(Kind.FINAL, finals.final, service.draw_final)
    show_sitting(Kind.FINAL, finals.final, finals.final_results, reads, role)
    if organizer:
        publish_control(Kind.FINAL, finals.final, finals.stale.get(Kind.FINAL, ""))

