"""TV mode for a projector: the standings around the cut, then a chart, in large type, cycling
by itself; no sidebar (a static style block hides it: open another page by its address)."""

import streamlit as st

from stsa import charts, stats
from stsa.ui import data, live, rule_change, widgets
from stsa.ui import finals as view

SLIDES = ["Standings", "Best scores", "Scores per sitting"]
TV_ROWS = 12  # rows of the standings shown, or the finals zones and two more (R16: up to 14)

live.tv_style()


def standings_slide(table, every, podium: str) -> None:
    """`every`: the standings as shown, each player's finals status in the Zone column (the
    final standings' order once the final is in)."""
    line = stats.cut(table)
    shown = every.head(max(TV_ROWS, line.semifinal + 2))
    columns = ["Rank", "Player", "Best score", "Zone", "Games", "Wins"]
    # Rank is a column, not the index: shared ranks (R14) and the players still without a
    # result share one, and a styled table needs each row's index to differ.
    st.table(live.zone_styler(shown[columns].astype({"Best score": object}).fillna("")
                              .reset_index(drop=True)), hide_index=True)
    more = len(table) - len(shown)
    if podium:
        st.write(widgets.plain(podium))
    st.write(view.cut_caption(table) + (f" {more} more on the Standings page." if more else ""))


def chart_slide(name: str, frames: dict) -> None:
    if name == "Best scores":
        line = frames["cut"]
        chart = charts.best_scores(frames["ranked"], line.direct, line.semifinal)
    else:
        chart = charts.score_spread(frames["spread"])
    st.altair_chart(chart.configure_axis(labelFontSize=18, titleFontSize=20)
                    .configure_title(fontSize=26)
                    .configure_legend(labelFontSize=18, titleFontSize=18),
                    width="stretch", height=560)


@st.fragment(run_every=live.TV_SECONDS)
def slideshow() -> None:
    tick = st.session_state.get("tv_tick", -1) + 1
    st.session_state["tv_tick"] = tick
    name = SLIDES[tick % len(SLIDES)]
    reads = data.now()  # this slide's data version: everything below is shared, per version
    title = reads.settings().get("tournament_name") or "Standings"
    st.title(f"{widgets.plain(title)} · {name}", anchor=False)
    st.write(stats.sitting_progress(reads.home_status()))
    rule_change.on_tv(reads.home_status())
    table = reads.standings()
    if table.empty:
        st.info("No results yet: the standings appear once the first qualifier results are in.")
    elif name == "Standings":
        names = dict(zip(table["player_id"], table["name"].astype(str)))
        standings_slide(table, reads.standings_shown(),
                        view.podium_line(reads.finals_status(), names))
    else:
        chart_slide(name, reads.statistics())
    st.caption(f"Slide {tick % len(SLIDES) + 1} of {len(SLIDES)}; the next in "
               f"{live.TV_SECONDS} s.")


slideshow()
st.page_link("views/standings.py", label="Leave TV mode", icon=":material/close:")
