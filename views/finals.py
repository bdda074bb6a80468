"""Finals: the cut (R16), absences and wildcards (R17), the semifinal and final draws, the final
table (R16) and the final standings (R18). The organizer acts; judges enter results on the
Results page; everyone watches."""

import streamlit as st

from stsa import draw, store, tournament
from stsa.auth import Role
from stsa.ui import data, session, widgets
from stsa.ui import finals as view


def show(frame) -> None:
    """A table of names as text, all rows shown up to a screenful."""
    st.dataframe(frame, hide_index=True, width="stretch", height=view.table_height(len(frame)))


def sitting_open(sitting) -> bool:
    """Spectators see a finals sitting once it is published (R20)."""
    return sitting is not None and (staff or sitting["status"] != "drawn")


def draw_controls(kind: str, sitting, drawer) -> None:
    """Draw (again, until published) from a seed shown on screen: organizer only (R3, R20)."""
    if sitting is not None and sitting["status"] != "drawn":
        return
    key = f"finals_{kind}_seed"
    if st.session_state.pop(f"{key}_used", False) or key not in st.session_state:
        st.session_state[key] = draw.new_seed()
    seed = st.number_input("Seed for a new draw" if sitting else "Seed", min_value=0, step=1,
                           key=key, help="Anyone can re-check a draw from its seed (R3).")
    label = f"Draw the {kind} again" if sitting else f"Draw the {kind}"
    if st.button(label, key=f"finals_draw_{kind}"):
        drawn = widgets.act(lambda: drawer(session.engine(), seed=int(seed), actor=session.actor()),
                            done=f"The {kind} is drawn (seed {int(seed)}); publish it when ready.")
        if drawn is not None:
            st.session_state[f"{key}_used"] = True
            st.rerun()


def publish_control(kind: str, sitting, expected) -> None:
    """Publish a drawn finals sitting, unless it no longer seats who it should."""
    if sitting is None or sitting["status"] != "drawn":
        return
    seated = data.sitting_overview(url, int(sitting["sitting_id"]), role)["player_id"]
    stale = view.stale_draw(seated, expected)
    if stale:
        st.warning(stale, icon=":material/warning:")
    if st.button(f"Publish the {kind}", key=f"finals_publish_{kind}", type="primary",
                 disabled=bool(stale)):
        published = widgets.act(
            lambda: store.publish_sitting(session.engine(), int(sitting["sitting_id"]),
                                          actor=session.actor()),
            done=f"The {kind} is published: judges can enter its results.")
        if published is not None:
            st.rerun()


def show_sitting(kind: str, sitting) -> None:
    """The tables of a finals sitting, results once in; where it stands."""
    if not sitting_open(sitting):
        st.info(f"The {kind} has not been drawn yet.")
        return
    overview = data.sitting_overview(url, int(sitting["sitting_id"]), role)
    scored = data.scored_results(url, kind)
    st.caption(f"Seed {sitting['seed']} · {sitting['status']}")
    if sitting["status"] == "drawn":
        st.info(f"This {kind} draw is not published yet: spectators do not see it, and "
                f"results can be entered once the organizer publishes it.")
    show(view.seating_frame(overview, scored, wildcards, staff))
    if sitting["status"] == "published":
        st.caption(f"Judges enter the {kind} results on the Results page.")


st.title("Finals")
widgets.flash()
url, role = session.database_url(), session.role()
organizer, staff = role == Role.ORGANIZER, role in (Role.ORGANIZER, Role.JUDGE)
finals = data.finals(url)
if finals.format is None:
    st.info(f"{finals.reason} Finals appear here once enough qualifier results are in.")
    st.stop()

for line in view.format_lines(finals.format):
    st.write(line)
if organizer:
    for warning in view.tie_warnings(finals.standings):
        st.warning(widgets.plain(warning), icon=":material/warning:")
wildcards = set(finals.entrants.loc[finals.entrants["wildcard"], "player_id"])
show(view.entrants_frame(finals))
names = dict(zip(finals.standings["player_id"], finals.standings["name"].astype(str)))
if finals.absent:
    st.caption(widgets.plain("Absent: " + ", ".join(names.get(p, str(p)) for p in finals.absent)
                             + ". Wildcards (R17) take their seats."))

locked = any(s is not None and s["status"] != "drawn" for s in (finals.semifinal, finals.final))
if organizer:
    with st.expander("Absences (R17)", expanded=bool(finals.absent)):
        if locked:
            st.caption("Absences are fixed once a finals sitting is published.")
        else:
            options = finals.standings["player_id"].tolist()
            chosen = st.multiselect(
                "Players absent for the finals", options, key="finals_absent",
                default=[p for p in finals.absent if p in set(options)],
                format_func=lambda p: names.get(p, str(p)))
            if st.button("Save absences", key="finals_save_absences"):
                changes = view.absence_changes(finals.absent, chosen)
                saved = widgets.act(lambda: [store.mark_absent(session.engine(), p,
                                                               present=present,
                                                               actor=session.actor())
                                             for p, present in changes],
                                    done=f"Absences saved ({len(changes)} changed).")
                if saved is not None:
                    st.rerun()

semifinalists = view.stage_players(finals, "semifinal")
if semifinalists:
    st.header("Semifinal", anchor=False)
    if organizer:
        draw_controls("semifinal", finals.semifinal, tournament.draw_semifinal)
    show_sitting("semifinal", finals.semifinal)
    if organizer:
        publish_control("semifinal", finals.semifinal, semifinalists)

st.header("Final", anchor=False)
if finals.final_blocker:
    st.warning(widgets.plain(finals.final_blocker), icon=":material/warning:")
elif finals.final_players is None:
    st.info("The final table is known once every semifinal result is in.")
else:
    semifinal_scored = data.scored_results(url, "semifinal") if semifinalists else None
    for note in view.advance_notes(finals, semifinal_scored):
        st.markdown(widgets.plain(note))
    show(view.final_table_frame(finals))
    if organizer:
        draw_controls("final", finals.final, tournament.draw_final)
    show_sitting("final", finals.final)
    if organizer:
        publish_control("final", finals.final, finals.final_players)

if finals.final_standings is not None:
    st.header("Final standings", anchor=False)
    standings = view.final_standings_frame(finals)
    show(standings)
    st.download_button("Download final standings (CSV)", view.to_csv(standings),
                       file_name="final-standings.csv", mime="text/csv",
                       key="finals_download", on_click="ignore")
