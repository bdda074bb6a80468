"""The Results page's leader picks for one table (Vote Off and Wild Card), for its judge and the
organizer only: the votes form and the leaders it removed, then the Wild Card draw. Spectators
never get here (the store refuses them the votes and the draws). The rules live in
`stsa.services.picks`."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from stsa import catalog
from stsa.domain import Action, Decided
from stsa.i18n import N_, _, ngettext
from stsa.services import picks
from stsa.services.forms import and_list
from stsa.settings import Settings
from stsa.ui import result_form, widgets

DECIDED = {Decided.MOST_VOTES: N_("most votes"),
           Decided.ORGANIZER_CHOICE: N_("your choice among the tied"),
           Decided.RANDOM_CHOICE: N_("drawn at random among the tied")}
BY_THE_VOTES = N_("by the votes")
KEEP, TAKE = False, True
SWAP_WORDS = {KEEP: N_("Keep"), TAKE: N_("Take a random one")}


def _seat_of(name, seat) -> str:
    """"Ann (seat 2)": a player as the picks name them."""
    return _("{player} (seat {seat})").format(player=widgets.plain(name), seat=int(seat))


def key(table_id: int, field: str, seat: int | None = None) -> str:
    """The widget key of a picks field of a table (per seat when `seat` is given)."""
    return f"pick_{table_id}_{field}" + ("" if seat is None else f"_{seat}")


def table_picks(engine, reads, table_id: int, seats: pd.DataFrame, *, actor,
                has_result: bool) -> dict[int, str]:
    """Show the table's Vote Off and Wild Card part for the tournament's settings; returns the
    Wild Card leaders by player ({} when none were drawn), where the result form starts."""
    settings = reads.settings()
    vote_off, wild = picks.uses_vote_off(settings), settings.wild_card
    if not (vote_off or wild):
        return {}
    stored = picks.table_picks(engine, table_id, actor=actor)
    votes, cards = stored["votes"], stored["wild_cards"]
    # Once the picks are done, they fold into one line: on a phone the result form comes next.
    done = has_result or ((not vote_off or not votes.empty) and (not wild or not cards.empty))
    with (st.expander(done_line(seats, votes, cards, vote_off, wild), icon=":material/how_to_vote:")
          if done else st.container()):
        if vote_off:
            with st.container(border=not done):
                st.markdown(_("**Leader votes**"))
                if not votes.empty:
                    _removal(reads, table_id, seats, votes)
                if not has_result and cards.empty:
                    _vote_form(engine, table_id, seats, votes, settings, actor)
                elif votes.empty:
                    st.caption(_("No votes were entered at this table."))
        if wild and (not vote_off or not votes.empty):
            with st.container(border=not done):
                st.markdown("**Wild Card**")  # i18n: as is (the pick method's name)
                if not cards.empty:
                    _cards(cards, seats)
                elif not has_result:
                    _wild_form(engine, table_id, seats, actor)
    return {int(p): str(leader) for p, leader in zip(cards["player_id"], cards["leader"])}


def done_line(seats: pd.DataFrame, votes: pd.DataFrame, cards: pd.DataFrame, vote_off: bool,
              wild: bool) -> str:
    """The finished picks in one line ("Picks: removed A and B · 1 wild card drawn")."""
    parts = []
    if vote_off:
        removed = catalog.by_name(seats.iloc[0]["removed_leaders"] or [])
        parts.append(_("removed {leaders}").format(leaders=and_list(removed)) if len(votes)
                     else _("no votes"))
    if wild:
        drawn = int(cards["swapped"].sum()) if len(cards) else 0
        parts.append(ngettext("{count} wild card drawn", "{count} wild cards drawn", drawn)
                     .format(count=drawn) if len(cards) else _("no wild cards"))
    return _("Leader picks: {picks}").format(picks=" · ".join(parts))


def _name(seats: pd.DataFrame) -> dict[int, str]:
    return {int(p): _seat_of(n, s)
            for p, n, s in zip(seats["player_id"], seats["name"], seats["seat"])}


def _removal(reads, table_id: int, seats: pd.DataFrame, votes: pd.DataFrame) -> None:
    """The removed leaders with how each was decided, the votes, and what is left to pick."""
    first = seats.iloc[0]
    logged = reads.events(action=Action.PICKS_VOTE_OFF, subject=f"table {table_id}", limit=1)
    decided = {d["leader"]: d for d in (logged["after"].iloc[-1] or {}).get("decided", [])} \
        if len(logged) else {}
    for leader in first["removed_leaders"] or []:
        how = decided.get(leader, {})
        n = how.get("votes", int((votes["leader"] == leader).sum()))
        st.markdown(_("Removed: **{leader}** · {votes} · {decided}").format(
            leader=widgets.plain(leader),
            votes=ngettext("{count} vote", "{count} votes", n).format(count=n),
            decided=_(DECIDED.get(how.get("decided"), BY_THE_VOTES))))
    names = _name(seats)
    by_player = (votes.merge(seats[["player_id", "seat"]], on="player_id", how="left")
                 .sort_values(["seat", "leader"])
                 .groupby(["seat", "player_id"], sort=True, dropna=False)["leader"]
                 .agg(", ".join).reset_index())
    st.dataframe(pd.DataFrame({_("Player"): [names.get(int(p), str(p))
                                             for p in by_player["player_id"]],
                               _("Votes"): by_player["leader"].to_numpy()}), hide_index=True)
    st.markdown(_("Leaders to pick from: {leaders}").format(leaders=", ".join(
        widgets.plain(n) for n in first["available_leaders"] or [])))
    order = seats.sort_values("pick_order")
    turns = [_seat_of(n, s) for n, s in zip(order["name"], order["seat"])]
    listed = turns[0] if turns else ""
    for turn in turns[1:]:
        listed = _("{first}, then {second}").format(first=listed, second=turn)
    st.caption(_("Pick order: {players}").format(players=listed))


def _vote_form(engine, table_id: int, seats: pd.DataFrame, votes: pd.DataFrame,
               settings: Settings,
               actor) -> None:
    """Each player's X secret votes, an optional tie choice, then remove the two leaders."""
    first = seats.iloc[0]
    deck = catalog.by_name(set(first["available_leaders"] or []) | set(first["removed_leaders"]
                                                                       or []))
    x = settings.vote_off_votes
    with st.form(key(table_id, "votes_form")):
        st.caption(ngettext("Each player votes off {count} leader. Entering the votes again "
                            "before the result replaces them.",
                            "Each player votes off {count} leaders. Entering the votes again "
                            "before the result replaces them.", x).format(count=x))
        chosen = {}
        for seat in seats.sort_values("seat").itertuples():
            before = votes.loc[votes["player_id"] == seat.player_id, "leader"].tolist()
            chosen[int(seat.player_id)] = st.multiselect(
                _seat_of(seat.name, seat.seat), deck, max_selections=x,
                select_all=False,
                default=[v for v in before if v in deck], key=key(table_id, "vote", seat.seat),
                placeholder=_("Choose {count}").format(count=x))
        tie = st.multiselect(_("Tie choice (optional)"), deck, key=key(table_id, "tie"),
                             select_all=False,
                             placeholder=_("If votes tie: the leaders to remove"),
                             help=_("Used only when leaders tie on votes; without it STSA draws "
                                    "among the tied at random from the sitting's seed."))
        go = st.form_submit_button(_("Remove leaders"), type="primary",
                                   key=key(table_id, "votes_save"))
    if go:
        frame = pd.DataFrame([{"player_id": p, "leader": leader}
                              for p, leaders in chosen.items() for leader in leaders],
                             columns=["player_id", "leader"])
        done = widgets.act(lambda: picks.enter_votes(engine, table_id, frame, actor=actor,
                                                     organizer_choice=tie or None),
                           done=lambda r: _("Removed {leaders}.").format(
                               leaders=and_list(r["leader"])))
        if done is not None:
            st.rerun()


def _wild_form(engine, table_id: int, seats: pd.DataFrame, actor) -> None:
    """Each player's picked leader and Keep / Take a random one, then draw (final)."""
    options = catalog.by_name(seats.iloc[0]["available_leaders"] or [])
    with st.form(key(table_id, "wild_form")):
        st.caption(_("In play order from the first player. The draw is final."))
        picked, swaps = {}, {}
        for seat in seats.sort_values("seat").itertuples():
            pid = int(seat.player_id)
            picked[pid] = st.selectbox(_("{player} (seat {seat}) picked").format(
                                           player=widgets.plain(seat.name), seat=seat.seat),
                                       options, index=None, placeholder=_("Choose the leader"),
                                       key=key(table_id, "picked", seat.seat))
            swaps[pid] = st.radio(_("Wild card"), [KEEP, TAKE],
                                  format_func=lambda v: _(SWAP_WORDS[v]),
                                  horizontal=True, key=key(table_id, "swap", seat.seat),
                                  label_visibility="collapsed")
        go = st.form_submit_button(_("Draw wild cards"), type="primary",
                                   key=key(table_id, "wild_save"))
    if go:
        drawn = widgets.act(lambda: picks.draw_wild_cards(engine, table_id, picked, swaps,
                                                          actor=actor),
                            done=_("Wild cards drawn: the result form starts from these "
                                   "leaders."))
        if drawn is not None:
            result_form.set_leaders(table_id, {int(p): str(leader) for p, leader in
                                               zip(drawn["player_id"], drawn["leader"])})
            st.rerun()


def _cards(cards: pd.DataFrame, seats: pd.DataFrame) -> None:
    """Each player's leader after Wild Card, the drawn ones highlighted."""
    names = _name(seats)
    for card in cards.sort_values("seat").itertuples():
        who = names.get(int(card.player_id), str(card.player_id))
        if card.swapped:
            st.markdown(_("{player}: :orange-background[**{leader}**] drawn (gave up "
                          "{picked})").format(player=who, leader=widgets.plain(card.leader),
                                              picked=widgets.plain(card.picked_leader)))
        else:
            st.markdown(_("{player}: {leader} (kept)").format(
                player=who, leader=widgets.plain(card.leader)))
