"""TV mode for a projector: the standings in two columns of large type (a slide per page of
them), then the charts, cycling by itself; no sidebar (a static style block hides it: open
another page by its address)."""

import streamlit as st

from stsa import i18n
from stsa.i18n import N_, _
from stsa.services import season as season_service
from stsa.ui import bookings, data, live, rule_change, season_data, session, widgets
from stsa.ui import clock as clock_view
from stsa.ui import finals as view
from stsa.ui import schedule as schedule_view
from stsa.ui import statistics as stats

CHARTS = [N_("Best scores"), N_("Scores per sitting")]
CHART_HEIGHT = 680  # px, title, legend and names included: most of a 1080-line projector
COLUMNS = ["Rank", "Player", "Best score", "Zone", "Games", "Wins"]

live.tv_style()


def standings_slide(table, every, podium: str, page: tuple[int, int]) -> None:
    """`every`: the standings as shown, each player's finals status in the Zone column (the
    final standings' order once the final is in); `page`: the positions this slide shows.
    Rank is a column, not the index: shared ranks (R14) and the players still without a
    result share one, and a styled table needs each row's index to differ."""
    shown = (every.iloc[page[0]:page[1]][COLUMNS].astype({"Best score": object}).fillna("")
             .reset_index(drop=True))
    for column, part in zip(st.columns(live.TV_COLUMNS), live.tv_columns(shown)):
        column.table(live.zone_styler(part), hide_index=True)
    if podium:
        st.write(widgets.plain(i18n.cell(podium)))
    more = len(table) - live.tv_pages(len(table))[-1][1]
    st.write(i18n.cell(view.cut_caption(table)) + (
        " " + _("{count} more on the Standings page.").format(count=more) if more else ""))


def chart_slide(name: str, reads) -> None:
    chart = stats.chart(reads, "Best scores" if name == "Best scores" else "Sittings",
                        names=True)
    st.altair_chart(chart.properties(height=CHART_HEIGHT)
                    .configure_axis(labelFontSize=18, titleFontSize=20)
                    .configure_title(fontSize=26)
                    .configure_legend(labelFontSize=18, titleFontSize=18),
                    width="stretch", height=CHART_HEIGHT)


def season_slide(season_id: int) -> None:
    """R27: the top of the season standing of the shown tournament's season."""
    found = season_data.table(season_id)
    if found.empty:
        st.info(_("No results yet in this season's tournaments."))
        return
    shown = season_service.season_sheet(found.head(live.TV_ROWS)).drop(columns=["Games", "Wins"])
    st.table(i18n.headings(shown.astype(object).fillna("")), hide_index=True)


@st.fragment(run_every=live.TV_SECONDS)
def slideshow() -> None:
    tick = st.session_state.get("tv_tick", -1) + 1
    st.session_state["tv_tick"] = tick
    reads = data.now()  # this slide's data version: everything below is shared, per version
    table = reads.standings()
    pages = live.tv_pages(len(table))
    slides = [(N_("Standings"), page) for page in pages] + [(name, None) for name in CHARTS]
    season = season_data.season_of_shown()
    if season is not None:
        slides.append((N_("Season"), None))
    name, page = slides[tick % len(slides)]
    heading = _(name) if len(pages) == 1 or page is None else \
        _("{slide}, places {first}–{last}").format(slide=_(name), first=page[0] + 1,
                                                   last=page[1])
    if name == "Best scores" and stats.top_words(len(table)):  # the chart's bars stop there
        heading = _("Best scores, top {top} of {count} players").format(top=stats.TOP,
                                                                       count=len(table))
    title = reads.settings().get("tournament_name") or _("Standings")
    st.title(f"{widgets.plain(title)} · {heading}", anchor=False)
    st.write(stats.progress(reads))
    schedule_view.next_up(reads)  # "Next: Lunch at 12:30"
    rule_change.on_tv(reads.home_status())
    clock_view.on_tv(reads)  # the sitting's countdown, large
    bookings.room_code(session.engine(), reads=reads)  # while players may check themselves in
    if name == "Season":
        season_slide(season)
    elif table.empty:
        st.info(_("No results yet: the standings appear once the first qualifier results are "
                  "in."))
    elif name == "Standings":
        names = dict(zip(table["player_id"], table["name"].astype(str)))
        standings_slide(table, reads.standings_shown(),
                        view.podium_line(reads.finals_status(), names), page)
    else:
        chart_slide(name, reads)
    st.caption(_("Slide {number} of {count}; the next in {seconds} s.").format(
        number=tick % len(slides) + 1, count=len(slides), seconds=live.TV_SECONDS))


slideshow()
st.page_link("views/standings.py", label=_("Leave TV mode"), icon=":material/close:")
