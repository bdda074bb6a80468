"""The charts of the Statistics and TV pages and the live pages' progress line, built from a
run's shared reads (`ui.data.Data`), so the pages name a chart and show it."""

from __future__ import annotations

from stsa import charts, stats
from stsa.i18n import N_, _
from stsa.services import player

TOP = stats.TOP  # the players or leaders a chart shows at most

CHARTS = (N_("Best scores"), N_("Sittings"), N_("Leaders"), N_("Seats"), N_("Setups"))


def progress(reads) -> str:
    """Where the tournament stands, in one line ("Qualifier 2 of …: 3 of 4 tables in")."""
    return stats.sitting_progress(reads.home_status())


def top_words(players: int) -> str:
    """"top 30 of 40 players" when the best scores chart shows only the first `TOP` of the
    `players` in the standings; "" when it shows every one of them."""
    return _("top {top} of {count} players").format(top=TOP, count=players) \
        if players > TOP else ""


def best_scores_caption(players: int) -> str:
    """The caption under the best scores chart (the players it leaves out, the cut lines)."""
    if players > TOP:
        return _("The top {top} of {count} players; the Standings page lists everyone. Dashed "
                 "lines: the finals cut.").format(top=TOP, count=players)
    return _("Dashed lines: the finals cut.")


def chart(reads, name: str, *, names: bool = False):
    """One of `CHARTS` for this run's data (`names`: the best scores chart names its
    players, as on the TV)."""
    frames = reads.statistics()
    if name == "Best scores":
        line = frames["cut"]
        return charts.best_scores(frames["ranked"], line.direct, line.semifinal, names=names)
    if name == "Sittings":
        return charts.score_spread(frames["spread"])
    return {"Leaders": charts.leaders, "Seats": charts.seats,
            "Setups": charts.setups}[name](frames[name.lower()])


def player_chart(reads, player_ids: list):
    """The chosen players' qualifier scores across the sittings."""
    return charts.player_scores(stats.player_scores(reads.scored_results(), player_ids))


def distance_sentence(table, player_id) -> str:
    """How far a player stands from the cut lines, in words (the Standings search card)."""
    return stats.distance_sentence(table, player_id)


def distance_sentences(table):
    """`distance_sentence` of every player at once, by player id (every card at once)."""
    return stats.distance_sentences(table)


def finals_started(reads) -> bool:
    """Whether a semifinal or final is published: where a player stands is then the finals'
    word, not the cut's (R16–R18)."""
    return player.finals_started(reads.sittings())
