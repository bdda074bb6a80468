"""My seat: a player's own page (R3, R14, R16, R21, R22). Find yourself by nickname; see your
table, seat, colour, first player and setup in the sitting being played, your games, your rank
and the cut. The address (`?player=<id>`) can be bookmarked, and the pairings list prints a QR
code to this page. Everyone sees the public view here; it updates by itself."""

import streamlit as st

from stsa.domain import Role, plural
from stsa.services import player
from stsa.ui import bookings, data, live, sittings, widgets
from stsa.ui import clock as clock_view
from stsa.ui import schedule as schedule_view

PARAM = "player"
GAMES = {"sitting": "Sitting", "table_no": "Table", "placing": "Placing", "vp": "VP",
         "qualifier_score": "Score"}

st.title("My seat")
reads = data.now(Role.SPECTATOR)  # the public's view for everyone (R20, R22)
directory = reads.player_directory()
raw = st.query_params.get(PARAM)
chosen = player.linked(directory, raw)


def open_player(player_id: int | None) -> None:
    """Show `player_id`'s page (None: the search), with an address that can be bookmarked."""
    if player_id is None:
        st.query_params.pop(PARAM, None)
    else:
        st.query_params[PARAM] = str(player_id)
    st.session_state.pop("player_search", None)


def find() -> None:
    """The search: every nickname containing what was typed, one tap each."""
    if directory.empty:
        st.info("No players yet: your page is here once the organizer adds the players.")
        return
    query = st.text_input("Your nickname", key="player_search", max_chars=100,
                          placeholder="Type your nickname")
    if not query.strip():
        st.caption("Type part of your nickname, then tap it.")
        return
    found = player.search(directory, query)
    if found.empty:
        st.info(f"No player's nickname contains “{widgets.plain(query.strip())}”.")
        return
    shown = found.head(player.SHOWN_LIMIT)
    for player_id, nickname in zip(shown["player_id"], shown["nickname"]):
        st.button(widgets.plain(nickname), key=f"player_pick_{player_id}", width="stretch",
                  icon=":material/person:", on_click=open_player, args=(int(player_id),))
    if len(found) > len(shown):
        st.caption(f"{len(found)} players match: type more of your nickname.")


def where(facts: player.PlayerFacts) -> None:
    """The sitting being played: table, seat, colour, first player, setup; or why not."""
    if facts.now == player.Now.SEATED:
        seat = facts.seat
        with st.container(border=True):
            st.subheader(f"Table {seat.table_no} · seat {seat.seat}", anchor=False)
            st.markdown(f"{widgets.plain(facts.sitting)} · {sittings.colour(seat.colour)} · "
                        f"{seat.players} players at the table")
            st.markdown("**You play first.**" if seat.seat == 1 else
                        f"First player: **{widgets.plain(seat.first_player)}** (seat 1); play "
                        f"goes clockwise.")
            st.markdown(f"Setup: **{widgets.plain(seat.setup)}**")
    elif facts.now == player.Now.SITTING_OUT:
        st.info(f"You sit this one out: you have no seat in {facts.sitting}."
                + (" The draw chose you to sit out." if facts.sat_out_by_draw else ""),
                icon=":material/event_busy:")
    elif facts.now == player.Now.OVER:
        st.success("The tournament is over: the final is played. Your final place is below.",
                   icon=":material/trophy:")
    else:
        st.info("Not drawn yet: your table and seat show here as soon as the next sitting "
                "is published.", icon=":material/hourglass_empty:")
    if facts.waiting is not None:  # R21: the one place the waiting list speaks to a player
        st.info(f"You are number {facts.waiting} on the waiting list: a seat is yours if "
                f"one frees up.", icon=":material/format_list_numbered:")


EVERY = live.refresh_seconds()  # 10 s; longer in a very full room


@st.fragment(run_every=EVERY)
def my_page(player_id: int, every: int) -> None:
    live.follow_room(every)
    now = data.now(Role.SPECTATOR)  # one read of the data version for the whole refresh
    facts = now.player_facts(player_id)
    if facts is None:
        st.warning("This player is no longer on the roster: find yourself again.")
        return
    st.header(widgets.plain(facts.nickname), anchor=False)
    if facts.withdrawn:
        st.caption("Withdrawn from the tournament.")
    where(facts)
    schedule_view.on_my_seat(player_id, now)  # what comes next; my sittings as a calendar file
    clock_view.for_player(facts, now)  # the clock of this player's table
    st.subheader("Standing", anchor=False)
    st.markdown(widgets.plain(facts.standing))
    if len(facts.games):
        st.markdown(f"Rank **{facts.rank}** · best score **{facts.best_score:g}** · "
                    f"{plural(len(facts.games), 'game')}")
        st.dataframe(facts.games.rename(columns=GAMES), hide_index=True, width="stretch",
                     height="content")  # every game in view: the page scrolls, not the table
    st.caption(f"Bookmark this page: it always shows your seat in the sitting being played. "
               f"It updates by itself every {every} s.")


if raw is not None and chosen is None:
    st.warning(widgets.plain(f"This link names player {str(raw)[:20]!r}, whom this tournament "
                             f"does not have: find yourself below."), icon=":material/warning:")
if chosen is None:
    find()
else:
    my_page(chosen, EVERY)
    bookings.my_seat(chosen, reads)  # bookings, waiting, and checking in with the room's code
    st.button("Not you? Find another player", key="player_other", on_click=open_player,
              args=(None,), icon=":material/search:")
