"""The Draw page's capacity part (organizer, R21): before drawing, who plays and who waits, and
why; extra tables of exactly four from the front of the waiting list. The queue itself is
`services.capacity.queue_of`; the draw applies it again (`services.draws.draw_qualifier`)."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from stsa.i18n import _, ngettext
from stsa.services import capacity as capacity_service
from stsa.ui import session, widgets

EXTRA = "draw_extra_tables"


def queue_lines(queue: pd.DataFrame) -> list[str]:
    """Players of a `queue_of` frame as lines: "3. Ann Lee: pre-registered, number 3 in
    registration order" (names as typed: the page shows them as plain text)."""
    line = _("{position}. {player}: {reason}")
    return [line.format(position=n, player=name, reason=why)
            for n, name, why in zip(queue["queue"], queue["name"], queue["reason"])]


def waiting_frame(queue: pd.DataFrame) -> pd.DataFrame:
    """The waiting players of a `queue_of` frame: position (1 = next in line), name, why."""
    waits = queue.loc[~queue["plays"]]
    return pd.DataFrame({_("Position"): waits["waiting"].astype("int64"),
                         _("Player"): waits["name"], _("Why"): waits["reason"]}
                        ).reset_index(drop=True)


def waits(n: int) -> str:
    """"1 waits", "3 wait"."""
    return ngettext("{count} waits", "{count} wait", n).format(count=n)


def _extra_tables(waiting: int) -> int:
    """The organizer's extra tables of four (R21): offered only when four or more wait."""
    most = waiting // 4
    if most == 0:
        st.session_state.pop(EXTRA, None)
        st.caption(ngettext("An extra table seats exactly four players from the front of the "
                            "waiting list; {count} player waits.",
                            "An extra table seats exactly four players from the front of the "
                            "waiting list; {count} players wait.", waiting).format(count=waiting))
        return 0
    if st.session_state.get(EXTRA, 0) > most:  # fewer wait than when it was chosen
        st.session_state[EXTRA] = most
    return int(st.number_input(
        _("Extra tables of four, from the front of the waiting list"), min_value=0,
        max_value=most, step=1, key=EXTRA,
        help=_("Each extra table seats the next four players on the waiting list.")))


def seats(reads, present: list[int]) -> tuple[list[int], int]:
    """Who of `present` plays within the capacity setting and who waits (R21), shown with the
    reasons; returns the players who play (in `present`'s order) and the extra tables
    chosen. Nothing is shown while everyone fits. R25: a seat held for a booked player who is
    not here yet counts as taken."""
    capacity = reads.settings().capacity
    queue = capacity_service.seat_queue(session.engine(), present)  # R25: with bookings
    if queue["plays"].all():  # seats held for booked players may leave someone waiting
        return present, 0
    extra = _extra_tables(int((~queue["plays"]).sum()))
    if extra:
        queue = capacity_service.seat_queue(session.engine(), present, extra_tables=extra)
    playing = set(queue.loc[queue["plays"], "player_id"])
    waiting = len(queue) - len(playing)
    limit = (ngettext("the {capacity}-seat limit and {count} extra table",
                      "the {capacity}-seat limit and {count} extra tables", extra)
             if extra else _("the {capacity}-seat limit")).format(capacity=capacity, count=extra)
    head = ngettext("**{playing} play, {count} waits**", "**{playing} play, {count} wait**",
                    waiting).format(playing=len(playing), count=waiting)
    said = (_("{plays} ({limit}): seats go first to players booked for this sitting in booking "
              "order, then to drop-ins in the order they checked in.") if "priority" in queue
            else _("{plays} ({limit}): seats go first to pre-registered players in registration "
                   "order, then to drop-ins in the order they checked in."))
    st.markdown(said.format(plays=head, limit=limit))
    if waiting:
        st.markdown(_("**Waiting list**"))
        st.dataframe(waiting_frame(queue), hide_index=True)
    with st.expander(_("Who plays, and why ({count})").format(count=len(playing))):
        st.markdown("  \n".join(map(widgets.plain, queue_lines(queue.loc[queue["plays"]]))))
    return [p for p in present if p in playing], extra


def left_out(sit_outs: pd.DataFrame, waiting: pd.DataFrame) -> list[str]:
    """Who a drawn sitting left out, as lines for its caption (the page shows them as plain
    text): the sit-outs (R1, `store.sit_outs`) and the waiting list in order (R21,
    `store.waiting`); none when nobody was left out."""
    lines = ([_("sitting out: {players}").format(players=", ".join(sit_outs["name"]))]
             if len(sit_outs) else [])
    if len(waiting):
        lines.append(_("waiting for a seat: {players}").format(players=", ".join(
            f"{n}. {name}" for n, name in zip(waiting["position"], waiting["name"]))))
    return lines
