"""Draw: the organizer draws each qualifier from a recorded seed, redraws until it is published,
hand-sets a table's setup, names the sitting's rule change and publishes (R1, R3, R6, R9, R24),
then corrects a no-show or voids a sitting published by mistake; judges see every sitting with
pick order and removed leaders, and print slips and pairings; spectators see published
sittings only, never removed leaders or paper (R20)."""

import streamlit as st

from stsa.domain import Kind, PlayerStatus, Role, SittingStatus, count_of, sitting_label
from stsa.i18n import _
from stsa.services import draws
from stsa.services import sittings as service
from stsa.ui import (
    bookings,
    capacity,
    corrections,
    data,
    data_tools,
    draw_options,
    rule_change,
    session,
    sittings,
    tables,
    widgets,
)

# Narrow number columns: table, seat, colour (tags, `sittings.colour_column`) and player fit a
# phone without a swipe.
SEATS = {"Table": st.column_config.NumberColumn(width=48),
         "Seat": st.column_config.NumberColumn(width=44)}

st.title(_("Draw"))
widgets.flash()
role, reads = session.role(), data.now()
staff = role.is_staff
organizer = role is Role.ORGANIZER
if "draw_show" in st.session_state:  # just drawn: show the draft, offer a fresh seed
    st.session_state["draw_sitting"] = st.session_state.pop("draw_show")
    st.session_state.pop("draw_seed", None)
st.session_state.setdefault("draw_seed", draws.new_seed())
all_sittings = reads.sittings()


def draw_form() -> None:
    """Players present, the R1 table plan, the seed (R3), and Draw."""
    roster = reads.players()
    active = roster.loc[roster["status"] == PlayerStatus.ACTIVE]
    if active.empty:
        st.info(_("No players yet: add them on the Roster page."))
        return
    names, present = draw_options.who_plays(active, all_sittings)
    bookings.offers(session.engine(), session.actor())  # R25: booked seats of the missing
    playing, extra = capacity.seats(reads, present)  # R21: the rest wait
    sit_out = len(playing) == 5 and st.checkbox(
        _("Let the draw pick one player to sit this sitting out"), key="draw_sit_out")
    seatable, pins = draw_options.plan_and_pins(playing, names, bool(sit_out))
    st.caption(draw_options.mode_caption(reads.settings()))
    draft = all_sittings.loc[(all_sittings["kind"] == Kind.QUALIFIER)
                             & (all_sittings["status"] == SittingStatus.DRAWN)]
    st.number_input(_("Seed for the next draw (anyone can re-check a draw from its seed)"),
                    min_value=0, step=1, key="draw_seed")
    if len(draft):  # the box holds the next seed, not the draft's
        st.caption(_("The unpublished draw below was drawn from seed {seed}; Draw again uses "
                     "the seed above.").format(seed=draft["seed"].iloc[0]))
    st.button(_("New seed"), key="draw_new_seed",
              on_click=lambda: st.session_state.update(draw_seed=draws.new_seed()))
    label = _("Draw again (replaces the unpublished draw)") if len(draft) else _("Draw")
    confirmed = corrections.confirm_draw(all_sittings)
    if st.button(label, key="draw_go", type="primary", disabled=not (seatable and confirmed)):
        done = widgets.act(lambda: draws.draw_qualifier(
            session.engine(), present, seed=int(st.session_state["draw_seed"]),
            sit_out=bool(sit_out), pins=pins, confirm=confirmed, extra_tables=extra,
            actor=session.actor()),
            done=lambda s: _("Qualifier {number} drawn from seed {seed}; check it, then "
                             "publish it.").format(number=s["number"], seed=s["seed"]))
        if done:
            st.session_state["draw_show"] = int(done["sitting_id"])
            st.rerun()


def show_sitting(sitting) -> None:
    """The chosen sitting's tables and seats, for this role (R9, R20)."""
    sitting_id = int(sitting["sitting_id"])
    overview = reads.sitting_overview(sitting_id)
    facts = [_("Seed {seed}").format(seed=sitting["seed"]),
             count_of(int(sitting["tables"]), "table")]
    facts += capacity.left_out(reads.sit_outs(sitting_id), reads.waiting(sitting_id))
    st.caption(widgets.plain(" · ".join(facts)))
    rule_change.part(sitting, role)
    if sitting["status"] == SittingStatus.DRAWN:
        st.warning(_("Not published yet: players do not see this draw."),
                   icon=":material/lock:")
        if organizer:
            draw_options.publish_or_discard(sitting_id)
    if staff:  # R20: the slips and lists read drafts; the judges' copy lists removed leaders
        data_tools.paper(session.engine(), reads.settings(), sitting_id,
                         sitting_label(sitting["kind"], sitting["number"]),
                         me=session.actor())
    search = st.text_input(_("Find a player"), key="draw_search", placeholder=_("Name"),
                           max_chars=60)
    shown = service.tables_with_player(overview, search)
    if shown.empty:
        st.info(_("No player of this sitting matches that name."))
        return
    # Side by side for everyone (a phone stacks them: the seats first, every row); the staff's
    # wider tables (nickname, pick order, removed leaders) one above the other.
    seats, setups_part = (st.container(), st.container()) if staff else st.columns([3, 2])
    seat_rows, seat_settings = tables.in_words(sittings.seat_frame(shown, role), {
        "column_config": {**SEATS, "Colour": sittings.colour_column(shown["colour"])}})
    seats.dataframe(seat_rows, hide_index=True, width="stretch", height="content",
                    **seat_settings)
    setups_part.markdown(_("**Setups** · removed leaders for judges and the organizer only")
                         if staff else _("**Setups**"))
    table_rows, table_settings = tables.in_words(sittings.tables_frame(shown, role),
                                                 {"column_config": SEATS})
    setups_part.dataframe(table_rows, hide_index=True, width="stretch", height="content",
                          **table_settings)
    if staff and sitting["kind"] == Kind.QUALIFIER:  # R20: the report reads drafts
        with st.expander(_("Fairness check against the earlier qualifiers"),
                         expanded=sitting["status"] == SittingStatus.DRAWN):
            draw_options.show_report(reads.draw_report(sitting_id))
    if organizer and sitting["status"] != SittingStatus.COMPLETE:
        corrections.setup_change(reads, sitting, overview)
        corrections.sitting_fixes(all_sittings, sitting, overview, reads.players())


if organizer:
    st.subheader(_("Draw the next qualifier"), anchor=False)
    draw_form()
    st.divider()

choices = sittings.sitting_choices(all_sittings)
if not choices:
    st.info(_("No sitting has been drawn yet.") if staff else
            _("No draw has been published yet: it appears here as soon as the organizer "
              "publishes it."))
    st.stop()
sittings.keep_choice("draw_sitting", choices)
chosen = st.selectbox(_("Sitting"), list(choices), format_func=sittings.choice_label(choices),
                      key="draw_sitting")
show_sitting(all_sittings.set_index("sitting_id", drop=False).loc[chosen])
