"""Finals: the final standings with the champion first once the final is played (R18), then the
cut (R16), absences and wildcards (R17), the semifinal and final draws and the final table (R16).
The organizer acts; judges enter results on the Results page; everyone watches."""

import streamlit as st

from stsa import i18n
from stsa.domain import STATUS_WORDS, Kind, Role, SittingStatus, Stage
from stsa.i18n import _
from stsa.services import draws
from stsa.services import finals as service
from stsa.ui import corrections, data, session, tables, widgets
from stsa.ui import finals as view


def show(frame, key: str) -> None:
    """A table of names as text at its full height (`ui.tables.show`); on a phone, who and
    whether a wildcard first (`ui.finals.phone_first`)."""
    tables.show(frame, key, **view.phone_first(frame))


def final_standings(finals, reads, names: dict) -> None:
    """R18: the champion and podium, then everyone's final place, with the CSV."""
    st.header(_("Final standings"), anchor=False)
    if podium := view.podium_line(reads.finals_status(), names):
        st.success(widgets.plain(podium), icon=":material/trophy:")
    standings = view.final_standings_frame(finals)
    show(standings, "finals_standings_rows")
    st.download_button(_("Download final standings (CSV)"), view.to_csv(standings),
                       file_name=widgets.file_name(reads.settings().tournament_name,
                                                   _("final standings"), "csv"),
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
    seed = st.number_input(_("Seed for a new draw") if sitting else _("Seed"), min_value=0,
                           step=1, key=key, help=_("Anyone can re-check a draw from its seed."))
    label = view.said(kind, "again") if sitting else view.said(kind, "draw")
    if st.button(label, key=f"finals_draw_{kind}"):
        drawn = widgets.act(lambda: drawer(session.engine(), seed=int(seed), actor=session.actor()),
                            done=view.said(kind, "drawn", seed=int(seed)))
        if drawn is not None:
            st.session_state[f"{key}_used"] = True
            st.rerun()


def publish_control(kind: Kind, sitting, stale: str) -> None:
    """Publish a drawn finals sitting, unless it no longer seats who it should (the service
    refuses it then; the button waits for a new draw)."""
    if sitting is None or sitting["status"] != SittingStatus.DRAWN:
        return
    if stale:
        st.warning(widgets.plain(str(i18n.cell(stale))), icon=":material/warning:")
    if st.button(view.said(kind, "publish"), key=f"finals_publish_{kind}", type="primary",
                 disabled=bool(stale)):
        published = widgets.act(
            lambda: draws.publish(session.engine(), int(sitting["sitting_id"]),
                                     actor=session.actor()),
            done=view.said(kind, "published"))
        if published is not None:
            st.rerun()


def show_sitting(kind: Kind, sitting, scored, reads, role: Role) -> None:
    """The tables of a finals sitting, results once in; where it stands. `reads`: this run's
    `ui.data.Data`."""
    if not sitting_open(sitting, role):
        st.info(view.said(kind, "not_drawn"))
        return
    overview = reads.sitting_overview(int(sitting["sitting_id"]))
    st.caption(_("Seed {seed} · {status}").format(
        seed=sitting["seed"], status=_(STATUS_WORDS.get(sitting["status"], sitting["status"]))))
    if sitting["status"] == SittingStatus.DRAWN:
        st.info(view.said(kind, "draft"))
    show(view.seating_frame(overview, scored, reads.finals().wildcards, role),
         f"finals_{kind}_rows")
    if sitting["status"] == SittingStatus.PUBLISHED:
        st.caption(view.said(kind, "results"))


st.title(_("Finals"))
widgets.flash()
role, reads = session.role(), data.now()
organizer = role is Role.ORGANIZER
finals = reads.finals()
if finals.format is None:
    st.info(_("{reason} Finals appear here once enough qualifier results are in.").format(
        reason=view.no_finals_yet(finals)))
    st.stop()
names = dict(zip(finals.standings["player_id"], finals.standings["name"].astype(str)))
if finals.final_standings is not None:  # the final is played: its outcome first
    final_standings(finals, reads, names)

for line in view.format_lines(finals.format):
    st.write(line)
if organizer:
    for warning in view.tie_warnings(finals.standings):
        st.warning(widgets.plain(warning), icon=":material/warning:")
show(view.entrants_frame(finals, reads.finals_status()), "finals_entrants_rows")
if finals.absent:
    st.caption(widgets.plain(_("Absent: {players}. Wildcards take their seats.").format(
        players=", ".join(names.get(p, str(p)) for p in finals.absent))))

if organizer:
    corrections.absences_form(finals, names)

if service.stage_players(finals, Stage.SEMIFINAL):
    st.header(_("Semifinal"), anchor=False)
    if organizer:
        draw_controls(Kind.SEMIFINAL, finals.semifinal, service.draw_semifinal)
    show_sitting(Kind.SEMIFINAL, finals.semifinal, finals.semifinal_results, reads, role)
    if organizer:
        publish_control(Kind.SEMIFINAL, finals.semifinal, finals.stale.get(Kind.SEMIFINAL, ""))

st.header(_("Final"), anchor=False)
if finals.final_blocker:
    st.warning(widgets.plain(str(i18n.cell(finals.final_blocker))), icon=":material/warning:")
elif finals.final_players is None:
    st.info(_("The final table is known once every semifinal result is in."))
else:
    for note in view.advance_notes(finals):
        st.markdown(widgets.plain(note))
    show(view.final_table_frame(finals), "finals_table_rows")
    if organizer:
        draw_controls(Kind.FINAL, finals.final, service.draw_final)
    show_sitting(Kind.FINAL, finals.final, finals.final_results, reads, role)
    if organizer:
        publish_control(Kind.FINAL, finals.final, finals.stale.get(Kind.FINAL, ""))

