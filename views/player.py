"""My seat: a player's own page (R3, R14, R16, R21, R22). Find yourself by nickname; see your
table, seat, colour, first player and setup in the sitting being played, your games, your rank
and the cut. The address (`?player=<id>`) can be bookmarked, and the pairings list prints a QR
code to this page. Everyone sees the public view here; the player's part is a live element
(`ui.live_seat`) that updates by itself in the browser, with no run of this page."""

import streamlit as st

from stsa.domain import Role
from stsa.i18n import _
from stsa.services import player
from stsa.ui import bookings, data, live_seat, widgets
from stsa.ui import schedule as schedule_view

PARAM = "player"

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


if raw is not None and chosen is None:
    st.warning(widgets.plain(_("This link names player {player}, whom this tournament does not "
                               "have: find yourself below.").format(player=repr(str(raw)[:20]))),
               icon=":material/warning:")
if chosen is None:
    find()
else:
    live_seat.show(reads, chosen)  # seat, clock, next up, standing, games: live in the browser
    schedule_view.my_calendar(chosen, reads)  # my sittings as a calendar file
    bookings.my_seat(chosen, reads)  # bookings, waiting, and checking in with the room's code
    st.caption(_("Bookmark this page: it always shows your seat in the sitting being played, "
                 "and updates by itself."))
    st.button(_("Not you? Find another player"), key="player_other", on_click=open_player,
              args=(None,), icon=":material/search:")
