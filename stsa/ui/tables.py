"""Public tables as a phone shows them: the columns a person looks for first, narrow enough to
fit the screen without a swipe, and every row at the table's full height, so that the page
scrolls and no box scrolls inside it; a very long table one page of rows at a time.

Tables come with English headings (a shared table's, or one whose settings are keyed by them);
`in_words` turns them, and the settings that name them, into the run's language as they are
shown, one column's words never another's."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import pandas as pd
import pyarrow as pa
import streamlit as st

from stsa import i18n
from stsa.i18n import _

# A 390 px phone shows 356 px of a table (the page's margins and the table's border off).
PHONE_WIDTH = 356
# A table shows this many rows at most, all at once: a taller one is a taller canvas for a phone
# to draw (and more to send every refresh); a longer table is shown a page of rows at a time.
PAGE_ROWS = 100
NAME = "Player"  # the column that takes what the other first columns leave of a phone's width


def phone_layout(columns: Iterable[str], first: Sequence[str],
                 settings: Mapping[str, Mapping]) -> dict:
    """`st.dataframe`'s `column_order` and `column_config` that show the `first` columns
    (those present, in that order) on a phone without a swipe, the others after them: each
    column with its `settings` (width, a shorter heading), the Player column as wide as the
    others leave of `PHONE_WIDTH`. A desktop stretches every column."""
    columns = list(columns)
    shown = [c for c in first if c in columns]
    config = {c: dict(settings[c]) for c in columns if c in settings}
    if NAME in shown:
        rest = sum(config.get(c, {}).get("width", 0) for c in shown if c != NAME)
        config[NAME] = {**config.get(NAME, {}), "width": PHONE_WIDTH - rest}
    return {"column_order": shown + [c for c in columns if c not in shown],
            "column_config": config}


def page_rows(rows: int, key: str, per_page: int | None = None) -> slice:
    """The rows a table of `rows` rows shows: all of them up to `per_page` (`PAGE_ROWS`); of a
    longer one, the page of rows chosen in a select box (`key`) shown above it, the first page
    to start."""
    per_page = per_page or PAGE_ROWS
    if rows <= per_page:
        return slice(0, rows)
    starts = list(range(0, rows, per_page))
    start = st.selectbox(
        _("Rows shown"), starts, key=key,
        format_func=lambda s: _("{first}–{last} of {rows}").format(
            first=i18n.number(s + 1), last=i18n.number(min(rows, s + per_page)),
            rows=i18n.number(rows)))
    start = start if start in starts else 0
    return slice(start, min(rows, start + per_page))


def in_words(data: pd.DataFrame | pa.Table, settings: Mapping | None = None
             ) -> tuple[pd.DataFrame | pa.Table, dict]:
    """`data` with its English headings in the run's language, and `st.dataframe`'s
    `settings` to match: `column_order` and the keys of `column_config` translated, and a
    column setting's `label` and `help`. In English, both as they are.

    Each heading's words come from one map of the English headings (`i18n.labels`: no two
    the same), so a setting keyed by one column's English lands on that column alone, even
    where a language says two headings with one word (issue 33)."""
    settings = dict(settings or {})
    if i18n.current() == i18n.ENGLISH:
        return data, settings

    def word(name):
        return _(name) if isinstance(name, str) and name else name
    columns = data.column_names if isinstance(data, pa.Table) else list(data.columns)
    shown = i18n.labels(columns)

    def heading(name):
        return shown[name] if name in shown else word(name)
    data = (data.rename_columns([heading(c) for c in columns]) if isinstance(data, pa.Table)
            else data.rename(columns=shown))
    if "column_order" in settings and settings["column_order"] is not None:
        settings["column_order"] = [heading(c) for c in settings["column_order"]]
    if settings.get("column_config"):
        config = {}
        for name, setting in settings["column_config"].items():
            if name not in shown and heading(name) in shown.values():
                continue  # a column not shown: its words may be another's heading
            if isinstance(setting, Mapping):
                setting = {k: word(v) if k in ("label", "help") else v
                           for k, v in setting.items()}
            config[heading(name)] = setting
        settings["column_config"] = config
    return data, settings


def show(data: pd.DataFrame | pa.Table, key: str, **settings) -> None:
    """`data` as a table at the full height of its rows (`page_rows`: a page of a very long
    one, chosen with `key`), with `st.dataframe`'s `settings` (`column_order`,
    `column_config`), its English headings shown in the run's language (`in_words`); an
    Arrow table shared by many runs is sliced, not copied."""
    rows = data.num_rows if isinstance(data, pa.Table) else len(data)
    part = page_rows(rows, key)
    if part != slice(0, rows):
        data = (data.slice(part.start, part.stop - part.start) if isinstance(data, pa.Table)
                else data.iloc[part])
    data, settings = in_words(data, settings)
    st.dataframe(data, hide_index=True, width="stretch", height="content", **settings)
