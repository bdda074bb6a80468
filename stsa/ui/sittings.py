"""Sittings and seats on the pages: sitting choices, a choice kept across reruns, colours, the
seat and table frames for each role (R20), and the tables waiting for a result.

The sitting and table choices are kept per data version for every session (`ui.data.Data`), so
they are English, made from templates `i18n.cell` reads back: a select box shows them with
`choice_label`. The seat and table frames are made for one run: cells in its language, English
headings (the pages translate them: `ui.tables`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

import pandas as pd
import streamlit as st

from stsa import catalog, i18n
from stsa.domain import SITTING_STATUS_WORDS, Role, SittingStatus, sitting_label
from stsa.i18n import N_, _, ngettext
from stsa.services import results
from stsa.ui import tables, widgets

if TYPE_CHECKING:
    from streamlit.elements.lib.column_types import ColumnConfig

# A player's colour shows as its name with a mark of that colour drawn by the page itself, never
# an emoji, which a laptop without a colour emoji font (a projector's Debian) shows as empty
# boxes; the name reads without the colour too. In tables (`colour_column`) the name is on a tag
# of that colour, with black text when the tag is light and white text when it is dark: 4.5:1 at
# least either way (README, Accessibility); any other colour name gets a grey tag. In a line of
# text (`colour`) a square (U+25A0, in every common font) in Streamlit's text colour of that name,
# which follows the light or dark theme, before the name; a colour Streamlit has no text colour
# for (black, white, brown, any other name) is its name alone, as no theme colour would be true.
COLOUR_TAGS = {"red": "#c62828", "green": "#2e7d32", "blue": "#1565c0", "yellow": "#fdd835",
               "purple": "#6a1b9a", "orange": "#ffb74d", "black": "#212121", "white": "#ffffff",
               "brown": "#6d4c41"}
OTHER_TAG = "#616161"
TEXT_COLOURS = {"red": "red", "green": "green", "blue": "blue", "yellow": "yellow",
                "purple": "violet", "orange": "orange"}  # Streamlit's Markdown colours

# "Qualifier 2 · being played", "Table 3 · reported (version 2)": English in the shared choices,
# read back in the run's language by `i18n.cell` (`choice_label`).
SITTING_CHOICES = {
    SittingStatus.DRAWN: i18n.template(N_("{sitting} · drawn, not published yet")),
    SittingStatus.PUBLISHED: i18n.template(N_("{sitting} · being played")),
    SittingStatus.COMPLETE: i18n.template(N_("{sitting} · complete")),
}
# The seat and table frames' headings (English in the frames, translated where shown).
HEADINGS = (N_("Table"), N_("Seat"), N_("Colour"), N_("Player"), N_("Nickname"),
            N_("Pick order"), N_("Setup"), N_("Removed leaders"))
TABLE_REPORTED = i18n.template(N_("Table {table} · reported (version {version})"))
TABLE_WAITING = i18n.template(N_("Table {table} · waiting for the result"))


def sitting_choices(sittings: pd.DataFrame, statuses=None) -> dict[int, str]:
    """sitting_id → "Qualifier 2 · published", latest first (finals, then later qualifiers);
    English (`choice_label` shows them)."""
    rows = sittings if statuses is None else sittings.loc[sittings["status"].isin(statuses)]

    def label(row) -> str:
        sitting = sitting_label(row["kind"], row["number"])
        found = SITTING_CHOICES.get(row["status"])
        return (found.format(sitting=sitting) if found else
                f"{sitting} · {SITTING_STATUS_WORDS.get(row['status'], row['status'])}")
    return {int(r["sitting_id"]): label(r) for r in rows.iloc[::-1].to_dict("records")}


def choice_label(choices: dict):
    """A select box's `format_func` for `choices` (`sitting_choices`, `table_choices`): each
    label in the run's language."""
    def label(key) -> str:
        found = choices.get(key, key)
        return found if i18n.current() == i18n.ENGLISH else str(i18n.cell(found))
    return label


def sitting_name(sittings: pd.DataFrame, sitting_id: int) -> str:
    """The name of sitting `sitting_id` of `sittings`: "Qualifier 2", "Semifinal"."""
    row = sittings.loc[sittings["sitting_id"] == sitting_id].iloc[0]
    return sitting_label(row["kind"], row["number"])


def keep_choice(key: str, options) -> None:
    """Forget a remembered selection that is no longer offered (a discarded draft, a player
    checked in or out since); for a multiselect, drop just those values.

    A kept single choice is set again, so that the box shows its option's label as it is now
    ("Table 3 · reported (version 1)" after a save). Otherwise the browser keeps the old label
    on screen and sends it back at the next click anywhere; matching no option any more, the
    box would silently fall back to its first option (another table)."""
    if key not in st.session_state:
        return
    chosen = st.session_state[key]
    if isinstance(chosen, list):
        kept = [c for c in chosen if c in set(options)]
        if kept != chosen:
            st.session_state[key] = kept
    elif chosen not in options:
        del st.session_state[key]
    else:
        st.session_state[key] = chosen


def colour_word(name) -> str:
    """A colour's name as people read it: a default colour (`catalog.COLOUR_WORDS`, any case)
    in the run's language, its first letter as typed; another name as typed."""
    text = str(name)
    key = text.strip().lower()
    if i18n.current() == i18n.ENGLISH or key not in catalog.COLOUR_WORDS:
        return text
    word = _(key)
    return word[:1].upper() + word[1:] if text.strip()[:1].isupper() else word


def colour(name: str) -> str:
    """A player's colour for Markdown: a square of that colour, then its name as plain text."""
    mark = TEXT_COLOURS.get(str(name).strip().lower())
    word = widgets.plain(colour_word(name))
    return f":{mark}[■] {word}" if mark else word


def colour_column(colours, width: int = 84) -> ColumnConfig:
    """The column settings that show a Colour column (`colour_tags`) as tags of each colour
    in `colours` (the colours that occur, or the settings' colours)."""
    names = list(dict.fromkeys(str(c) for c in colours))
    return st.column_config.MultiselectColumn(
        _("Colour"), options=[colour_word(n) for n in names], width=width,
        color=[COLOUR_TAGS.get(n.strip().lower(), OTHER_TAG) for n in names] or OTHER_TAG)


def colour_tags(colours: pd.Series) -> list[list[str]]:
    """Each colour as the one-tag list `colour_column` shows."""
    return [[colour_word(c)] for c in colours]


def seat_frame(overview: pd.DataFrame, viewer: Role) -> pd.DataFrame:
    """Seats in play order for display; the pick order (R9) only for judges and organizer,
    who also see the nickname beside the name (spectators' `name` is the nickname, R22).
    Each table's setup is in `tables_frame`: four narrow columns fit a phone. The Colour
    column holds tags for `colour_column`."""
    frame = pd.DataFrame({"Table": overview["table_no"], "Seat": overview["seat"],
                          "Colour": colour_tags(overview["colour"]),
                          "Player": overview["name"]})
    if viewer.is_staff:
        frame["Nickname"] = overview["nickname"]
        frame["Pick order"] = overview["pick_order"]
    return frame.reset_index(drop=True)


def tables_frame(overview: pd.DataFrame, viewer: Role) -> pd.DataFrame:
    """Each table's setup; its removed leaders for judges and the organizer only (R9, R20)."""
    tables = overview.drop_duplicates("table_id")
    frame = pd.DataFrame({"Table": tables["table_no"], "Setup": tables["setup"]})
    if viewer.is_staff:
        frame["Removed leaders"] = tables["removed_leaders"].map(
            lambda names: ", ".join(names or []))
    return frame.reset_index(drop=True)


def table_choices(overview: pd.DataFrame) -> dict[int, str]:
    """table_id → "Table 3 · reported (version 2)" or "Table 3 · waiting for the result";
    English (`choice_label` shows them)."""
    tables = overview.drop_duplicates("table_id")
    return {int(t): (TABLE_REPORTED.format(table=n, version=v) if v else
                     TABLE_WAITING.format(table=n))
            for t, n, v in zip(tables["table_id"], tables["table_no"], tables["version"])}


class SeatsByTable(Mapping):
    """Each table's seats in seat order (table id → frame), cut from a sitting's overview
    when a page asks for a table: a page shows one table's seats of dozens."""

    def __init__(self, overview: pd.DataFrame):
        self._all = overview.sort_values("seat", kind="stable")
        self._rows = {int(t): rows for t, rows in self._all.groupby("table_id", sort=False)
                      .indices.items()}
        self._cut: dict[int, pd.DataFrame] = {}

    def __getitem__(self, table_id) -> pd.DataFrame:
        found = self._cut.get(table_id)
        if found is None:
            found = self._cut[table_id] = self._all.iloc[self._rows[table_id]]
        return found

    def __iter__(self):
        return iter(self._rows)

    def __len__(self) -> int:
        return len(self._rows)


@dataclass(frozen=True)
class ResultTables:
    """A sitting's tables as the Results page offers them (`result_tables`): the choices
    (`table_choices`), the ids and numbers of the tables still waiting for a result, each
    table's number and its seats in seat order."""

    choices: dict[int, str]
    waiting: list[int]
    missing: list[int]
    numbers: dict[int, int]
    seats: Mapping[int, pd.DataFrame]


def result_tables(overview: pd.DataFrame) -> ResultTables:
    """`ResultTables` of a sitting's seats (`services.sittings.sitting_overview`)."""
    open_ = overview.loc[overview["version"] == 0]
    tables = overview.drop_duplicates("table_id")
    return ResultTables(
        choices=table_choices(overview),
        waiting=[int(t) for t in open_["table_id"].unique()],
        missing=sorted(int(n) for n in open_["table_no"].unique()),
        numbers=dict(zip(tables["table_id"].astype(int), tables["table_no"].astype(int))),
        seats=SeatsByTable(overview))


# A phone shows each result's table, placing, player, VP and score without a swipe
# (`ui.tables.phone_layout`); the leader, the seat and the tie flag follow, a swipe away.
RESULTS_FIRST = ("Table", "Placing", "Player", "VP", "Score")
RESULT_COLUMNS = {"Table": {"width": 48}, "Placing": {"width": 56}, "VP": {"width": 36},
                  "Score": {"width": 48}}


def results_frame(scored: pd.DataFrame, sitting_id: int) -> pd.DataFrame:
    """A sitting's stored results for everyone (R13, R20; `services.results.sitting_results`,
    which the published archive shares)."""
    return results.sitting_results(scored, sitting_id)


def waiting_for(found: ResultTables) -> None:
    """The tables of a sitting still waiting for their result, in words (none: nothing)."""
    if missing := found.missing:
        st.caption(ngettext("Waiting for table {tables}.", "Waiting for tables {tables}.",
                            len(missing)).format(tables=", ".join(map(str, missing))))


def show_results(frame, sitting_id: int) -> None:
    """A sitting's results (`results_frame`, as the shared Arrow table) at their full height,
    the columns of `RESULTS_FIRST` in a phone's view (`ui.tables`)."""
    tables.show(frame, f"res_rows_{sitting_id}", **tables.phone_layout(
        frame.column_names, RESULTS_FIRST, RESULT_COLUMNS))
