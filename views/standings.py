"""Standings: best scores and ranks (R14, R15), the finals cut (R16), and a player search. On a
phone the table fits the screen and shows every row at its full height (`ui.tables`).

The table reads again every few seconds (through the shared cache) without reloading the page;
`?tv=1` opens the TV page."""

import streamlit as st

from stsa import i18n
from stsa.domain import Role
from stsa.i18n import _, ngettext
from stsa.services import player
from stsa.ui import data, live, session, tables, widgets
from stsa.ui import finals as view
from stsa.ui import statistics as stats

# A phone shows rank, player, zone, best score and games without a swipe (`ui.tables`): narrow
# number columns, short headings, the name taking the rest. "All columns" adds wins, the best
# game's placing and VP (R14's tie-breaks), the qualifier rank once the final is in and the tie
# flag; nothing is pinned, so a desktop stretches every column. The shared table keeps its
# English headings (the code names them); each column's label says it in the reader's words.
COLUMNS = {
    "Rank": st.column_config.NumberColumn(_("Rank"), width=42),
    "Player": st.column_config.TextColumn(_("Player")),
    "Zone": live.zone_column(help=_("Where this player stands at the finals cut; once the "
                                    "finals begin, where they really play, and the podium"),
                             width=90),
    "Best score": st.column_config.NumberColumn(_("Best"), width=40,
                                                help=_("The best qualifier score")),
    "Games": st.column_config.NumberColumn(_("Games"), width=52),
    "Wins": st.column_config.NumberColumn(_("Wins"), width=44),
    "Qualifier rank": st.column_config.NumberColumn(_("Qualifier rank")),
    "Placing": st.column_config.NumberColumn(
        _("Placing"), help=_("Placing in the game that gave the best score")),
    "VP": st.column_config.NumberColumn(_("VP"), help=_("VP in the game that gave the best score")),
    "Tie at cut": st.column_config.CheckboxColumn(
        _("Tie at cut"), help=_("A rank shared across a cut line: the organizer settles it")),
}
COMPACT = ["Rank", "Player", "Zone", "Best score", "Games"]
ALL_COLUMNS = [*COMPACT, "Wins", "Qualifier rank", "Placing", "VP", "Tie at cut"]

if st.query_params.get("tv") == "1":
    st.switch_page("views/tv.py")

st.title(_("Standings"))
widgets.flash()


EVERY = live.refresh_seconds()  # 10 s; longer in a very full room


@st.fragment(run_every=EVERY)
def standings(every: int) -> None:
    live.follow_room(every)
    reads = data.now()  # this refresh's data version: everything below is shared, per version
    table = reads.standings()
    progress = (stats.progress(reads) + " "
                + _("This page updates by itself every {seconds} s.").format(seconds=every))
    if table.empty:
        st.info(_("No results yet: the standings appear once the first qualifier results are "
                  "in (judges enter them on the Results page)."))
        st.caption(progress)
        return
    notes = reads.standings_notes()
    if notes.podium:
        st.success(widgets.plain(i18n.cell(notes.podium)), icon=":material/trophy:")
    st.caption(i18n.cell(notes.cut))
    if notes.legend:
        st.caption(i18n.cell(notes.legend))
    st.caption(progress)
    if notes.ties:
        if session.role() == Role.ORGANIZER:
            for warning in notes.ties:
                st.warning(widgets.plain(i18n.cell(warning)), icon=":material/warning:")
        else:
            st.caption(_("A rank is shared across a cut line (“Tie at cut” under All columns): "
                         "the organizer settles it before the finals."))

    query = st.text_input(_("Find a player"), key="standings_search", max_chars=100,
                          placeholder=_("Type part of a name"))
    every_column = st.toggle(_("All columns"), key="standings_all_columns",
                             help=_("Also wins, the placing and VP of each player's best game, "
                                    "and once the final is in, the rank after the qualifiers"))
    shown = view.search(table, query) if query.strip() else table
    if shown.empty:
        st.info(_("No player's name contains “{query}”.").format(
            query=widgets.plain(query.strip())))
    else:
        rows = reads.standings_table() if shown is table else live.zone_tags(
            view.standings_frame(shown, reads.finals_status()))
        tables.show(rows, "standings_rows", **tables.phone_layout(
            ALL_COLUMNS if every_column else COMPACT, COMPACT, COLUMNS))

    if query.strip() and 0 < len(shown) <= 5:
        scored = reads.scored_results(None)  # the finals' games too, once played
        finals_on = stats.finals_started(reads)
        for row in shown.itertuples():
            st.subheader(widgets.plain(row.name), anchor=False)
            if row.games == 0:
                st.write(_("Seated in a qualifier: no result yet."))
                continue
            games = ngettext("{count} game", "{count} games", row.games).format(count=row.games)
            wins = ngettext("{count} win", "{count} wins", row.wins).format(count=row.wins)
            if finals_on:  # where the finals put the player, as on their own page (R16–R18)
                st.write(_("Best score **{score}**, {games}, {wins}.").format(
                    score=f"{row.best_score:.0f}", games=games, wins=wins))
                st.write(widgets.plain(player.shown(reads.said_about(row.player_id))))
            else:
                st.write(_("Best score **{score}**, rank {rank}, {games}, {wins}.").format(
                    score=f"{row.best_score:.0f}", rank=row.rank, games=games, wins=wins))
                st.write(stats.distance_sentence(table, row.player_id))
            games_table = view.player_games(scored, row.player_id)
            st.dataframe(i18n.headings(games_table.assign(
                Sitting=i18n.cells(games_table["Sitting"]))), hide_index=True,
                width="stretch", height="content")
    elif len(shown) > 5 and query.strip():
        st.caption(_("{count} players match: type more of a name to see their games.").format(
            count=len(shown)))


standings(EVERY)
