"""Helpers of the live pages (Standings, Statistics, TV): the zone colours of the standings
table, and the TV's slides and layout style.

The standings frames are shared per data version and hold English words (zones, headings);
what a page shows of them is put in its reader's language here, at the edge (`zone_column`'s
tags, `zone_legend` read back by its template; the TV's rows by `ui.live_answers`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pandas as pd
import pyarrow as pa
import streamlit as st

from stsa import i18n
from stsa.i18n import N_, _

if TYPE_CHECKING:
    from streamlit.elements.lib.column_types import ColumnConfig, ColumnWidth

TV_SECONDS = 15  # the TV page shows each slide this long

# Light versions of the chart palette's zone colours: the cut lines show as a change of colour.
ROW_COLOURS = {"Final": "#f3e2c4", "Semifinal": "#d6e6f2", "Out": "", "": "",
               "Champion": "#eccf8f", "Runner-up": "#e4e4e4", "Third": "#ead3bd",
               "Finalist": "#f3e2c4", "Absent": "#eeeeee", "Lost final seat": "#eeeeee"}
# The Standings table's Zone column shows each zone as a coloured tag (the chart palette's zone
# colours): the colour changes where a cut line falls, at any number of rows, for the price of
# one column's settings (a styled table costs ~0.2 ms a row on every run).
# Once the finals begin, the column says where each player really is (`ui.finals.STATUS_LABELS`).
# Each tag's colour carries white text at a contrast of at least 4.5:1 (README, Accessibility).
ZONE_TAGS = {N_("Final"): "#946200", N_("Semifinal"): "#2f6f9f", N_("Out"): "#6b7379",
             N_("Champion"): "#7a5a00", N_("Runner-up"): "#4a5a66", N_("Third"): "#a0522d",
             N_("Finalist"): "#946200", N_("Lost final seat"): "#6d4c41",
             N_("Absent"): "#616161", N_("Wildcard"): "#7b1fa2"}
WILDCARD = " (wildcard)"  # as `ui.finals.WILDCARD` marks a wildcard's zone
i18n.template(N_("{zone} (wildcard)"))  # a wildcard's zone, translated where it is shown
# The legend of the standings' colours (worded once per version, shown in each reader's words).
LEGEND_FINAL = i18n.template(N_("Gold: places 1–{direct} go straight to the final."))
LEGEND_BOTH = i18n.template(N_("Gold: places 1–{direct} go straight to the final; blue: places "
                               "{first}–{last} play the semifinal."))


def zone_column(help: str, width: ColumnWidth | None = None) -> ColumnConfig:
    """The column settings that show the Zone column as coloured tags (the heading and the
    tags in this run's language; the values stay the shared table's English)."""
    return st.column_config.MultiselectColumn(_("Zone"), options=list(ZONE_TAGS),
                                              width=width, color=list(ZONE_TAGS.values()),
                                              help=help,
                                              format_func=lambda tag: str(i18n.cell(tag)))


def zone_tags(frame: pd.DataFrame) -> pd.DataFrame:
    """The standings frame (`ui.finals.standings_frame`) with its Zone as a tag list, as
    `zone_column` shows it (no tag before there is a cut)."""
    return frame.assign(Zone=[([z.removesuffix(WILDCARD), "Wildcard"] if z.endswith(WILDCARD)
                               else [z]) if z else [] for z in frame["Zone"]])


def arrow(frame: pd.DataFrame) -> pa.Table:
    """`frame` as an Arrow table: a table shared by many runs is converted once, not on every
    run that shows it."""
    return pa.Table.from_pandas(frame, preserve_index=False)

TV_ROWS = 16  # rows in each of a TV standings slide's two columns: 32 players on one screen
TV_COLUMNS = 2
TV_PAGES = 4  # standings slides at most in one round of the TV; the rest: the Standings page

# Layout only (no user data): the TV page hides the sidebar and the header and gives its live
# element the whole screen (`ui.live_tv` sizes its type to the screen's height).
TV_STYLE = """<style>
[data-testid="stSidebar"], [data-testid="stSidebarCollapsedControl"],
[data-testid="stExpandSidebarButton"], [data-testid="stHeader"],
[data-testid="stToolbar"], [data-testid="stMainMenu"], [data-testid="stStatusWidget"],
[data-testid="stDecoration"] { display: none !important; }
[data-testid="stMainBlockContainer"] { padding-top: 1vh; padding-bottom: 0; max-width: 100%; }
</style>"""


def tv_pages(players: int) -> list[tuple[int, int]]:
    """The TV's standings slides: (first, stop) positions of the players each one shows, two
    columns of `TV_ROWS`; at most `TV_PAGES` slides (at least one, for an empty table)."""
    per_page = TV_ROWS * TV_COLUMNS
    pages = min(TV_PAGES, max(1, -(-players // per_page)))
    return [(start, min(players, start + per_page)) for start in range(0, pages * per_page,
                                                                        per_page)]


def tv_columns(frame: pd.DataFrame) -> list[pd.DataFrame]:
    """One TV slide's rows split into its columns, the first ones filled evenly from the top."""
    rows = max(1, -(-len(frame) // TV_COLUMNS))
    return [frame.iloc[i:i + rows] for i in range(0, len(frame), rows)]


def zone_legend(cut) -> str:
    """One line naming the colours and where the lines fall (positions in the table), in
    English: it is shared per version; a page shows it with `i18n.cell`."""
    if not cut.direct:
        return ""
    if cut.semifinal > cut.direct:
        return LEGEND_BOTH.format(direct=cut.direct, first=cut.direct + 1, last=cut.semifinal)
    return LEGEND_FINAL.format(direct=cut.direct)


def tv_style() -> None:
    """Hide the sidebar and header, and size the type to the screen (a static style block)."""
    st.html(TV_STYLE)
