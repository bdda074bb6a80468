"""My seat: a player's own page (R3, R14, R16, R21, R22). Find yourself by nickname; see your
table, seat, colour, first player and setup in the sitting being played, your games, your rank
and the cut. The address (`?player=<id>`) can be bookmarked, and the pairings list prints a QR
code to this page. Everyone sees the public view here; it updates by itself."""

import streamlit as st

from stsa import i18n
from stsa.domain import Role
from stsa.i18n import N_, _, ngettext
from stsa.services import player
from stsa.ui import bookings, data, live, sittings, widgets
from stsa.ui import clock as clock_view
from stsa.ui import schedule as schedule_view

PARAM = "player"
GAMES = {"sitting": N_("Sitting"), "table_no": N_("Table"), "placing": N_("Placing"),
         "vp": N_("VP"), "qualifier_score": N_("Score")}

st.title(_("My seat"))
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
        st.info(_("No players yet: your page is here once the organizer adds the players."))
        return
    query = st.text_input(_("Your nickname"), key="player_search", max_chars=100,
                          placeholder=_("Type your nickname"))
    if not query.strip():
        st.caption(_("Type part of your nickname, then tap it."))
        return
    found = player.search(directory, query)
    if found.empty:
        st.info(_("No player's nickname contains “{query}”.").format(
            query=widgets.plain(query.strip())))
        return
    shown = found.head(player.SHOWN_LIMIT)
    for player_id, nickname in zip(shown["player_id"], shown["nickname"]):
        st.button(widgets.plain(nickname), key=f"player_pick_{player_id}", width="stretch",
                  icon=":material/person:", on_click=open_player, args=(int(player_id),))
    if len(found) > len(shown):
        st.caption(_("{count} players match: type more of your nickname.").format(
            count=len(found)))


def where(facts: player.PlayerFacts) -> None:
    """The sitting being played: table, seat, colour, first player, setup; or why not."""
    sitting = i18n.cell(facts.sitting)
    if facts.now == player.Now.SEATED:
        seat = facts.seat
        with st.container(border=True):
            st.subheader(_("Table {table} · seat {seat}").format(table=seat.table_no,
                                                                 seat=seat.seat), anchor=False)
            st.markdown(ngettext("{sitting} · {colour} · {count} player at the table",
                                 "{sitting} · {colour} · {count} players at the table",
                                 seat.players).format(
                sitting=widgets.plain(sitting), colour=sittings.colour(seat.colour),
                count=seat.players))
            st.markdown(_("**You play first.**") if seat.seat == 1 else
                        _("First player: **{player}** (seat 1); play goes clockwise.").format(
                            player=widgets.plain(seat.first_player)))
            st.markdown(_("Setup: **{setup}**").format(setup=widgets.plain(seat.setup)))
    elif facts.now == player.Now.SITTING_OUT:
        st.info(_("You sit this one out: you have no seat in {sitting}.").format(
                    sitting=sitting)
                + (" " + _("The draw chose you to sit out.") if facts.sat_out_by_draw else ""),
                icon=":material/event_busy:")
    elif facts.now == player.Now.OVER:
        st.success(_("The tournament is over: the final is played. Your final place is below."),
                   icon=":material/trophy:")
    else:
        st.info(_("Not drawn yet: your table and seat show here as soon as the next sitting "
                  "is published."), icon=":material/hourglass_empty:")
    if facts.waiting is not None:  # R21: the one place the waiting list speaks to a player
        st.info(_("You are number {number} on the waiting list: a seat is yours if one frees "
                  "up.").format(number=facts.waiting), icon=":material/format_list_numbered:")


EVERY = live.refresh_seconds()  # 10 s; longer in a very full room


@st.fragment(run_every=EVERY)
def my_page(player_id: int, every: int) -> None:
    live.follow_room(every)
    now = data.now(Role.SPECTATOR)  # one read of the data version for the whole refresh
    facts = now.player_facts(player_id)
    if facts is None:
        st.warning(_("This player is no longer on the roster: find yourself again."))
        return
    st.header(widgets.plain(facts.nickname), anchor=False)
    if facts.withdrawn:
        st.caption(_("Withdrawn from the tournament."))
    where(facts)
    schedule_view.on_my_seat(player_id, now)  # what comes next; my sittings as a calendar file
    clock_view.for_player(facts, now)  # the clock of this player's table
    st.subheader(_("Standing"), anchor=False)
    st.markdown(widgets.plain(player.shown(facts.standing)))
    if len(facts.games):
        st.markdown(ngettext("Rank **{rank}** · best score **{score}** · {count} game",
                             "Rank **{rank}** · best score **{score}** · {count} games",
                             len(facts.games)).format(
            rank=facts.rank, score=f"{facts.best_score:g}", count=len(facts.games)))
        games = facts.games.assign(sitting=i18n.cells(facts.games["sitting"]))
        st.dataframe(games.rename(columns=lambda c: _(GAMES.get(c, c))), hide_index=True,
                     width="stretch", height="content")  # every game in view: the page scrolls
    st.caption(_("Bookmark this page: it always shows your seat in the sitting being played. "
                 "It updates by itself every {seconds} s.").format(seconds=every))


if raw is not None and chosen is None:
    st.warning(widgets.plain(_("This link names player {player}, whom this tournament does not "
                               "have: find yourself below.").format(player=repr(str(raw)[:20]))),
               icon=":material/warning:")
if chosen is None:
    find()
else:
    my_page(chosen, EVERY)
    bookings.my_seat(chosen, reads)  # bookings, waiting, and checking in with the room's code
    st.button(_("Not you? Find another player"), key="player_other", on_click=open_player,
              args=(None,), icon=":material/search:")
