"""What the Standings and Finals pages show, as frames and sentences (R14–R18).

No Streamlit calls here: each function turns the service layer's frames into the columns and
words a page renders, so it can be tested on small frames. Sentences hold player names as typed;
pages escape them (`widgets.plain`) before showing them as Markdown.

Sentences are in the run's language. `standings_frame` and `status_labels` feed the shared
standings (`ui.data.Data.standings_shown`), so they keep English words (`ZONES`,
`STATUS_LABELS`, "Final (wildcard)"), which pages translate where shown (`i18n.cells`); the
other frames are made for one run and hold its language in their cells, English headings that
`ui.tables.show` translates (`PHONE_COLUMNS` is keyed by them).
"""

from __future__ import annotations

from functools import reduce

import pandas as pd

from stsa import i18n, rules
from stsa.domain import FINALS_STATUS_LABELS, FinalsStatus, Kind, Role, Stage
from stsa.formats import csv as csv_format
from stsa.i18n import N_, _, ngettext
from stsa.services.finals import podium, stage_players, too_few
from stsa.ui import tables
from stsa.ui.sittings import colour_word

ZONES = {Stage.FINAL: N_("Final"), Stage.SEMIFINAL: N_("Semifinal"), Stage.OUT: N_("Out"),
         "": ""}
STAGES = {Stage.FINAL: N_("Final"), Stage.SEMIFINAL: N_("Semifinal"),
          Kind.QUALIFIER: N_("Qualifier")}
# Where a player stands in the finals (`services.finals.finals_status`), in words.
STATUS_LABELS = FINALS_STATUS_LABELS
WILDCARD = " (wildcard)"
# The frames' headings, English in the frames (code and `PHONE_COLUMNS` name them), marked for
# the catalogs: `ui.tables.show` and `i18n.headings` translate them where they are shown.
HEADINGS = (N_("Rank"), N_("Player"), N_("Best score"), N_("Zone"), N_("Games"), N_("Wins"),
            N_("Placing"), N_("VP"), N_("Qualifier rank"), N_("Tie at cut"), N_("Stage"),
            N_("Wildcard"), N_("Now"), N_("Note"), N_("Table"), N_("Seat"), N_("Colour"),
            N_("Setup"), N_("Pick order"), N_("Score"), N_("Way in"), N_("Stage reached"))
# A wildcard's zone in the shared standings ("Final (wildcard)"), read back by `i18n.cells`.
WILDCARD_ZONE = i18n.template(N_("{zone} (wildcard)"))

# What the Finals page says of the semifinal and of the final, each in its own words.
KIND_TEXTS = {
    Kind.SEMIFINAL: {
        "draw": N_("Draw the semifinal"),
        "again": N_("Draw the semifinal again"),
        "drawn": N_("The semifinal is drawn (seed {seed}); publish it when ready."),
        "publish": N_("Publish the semifinal"),
        "published": N_("The semifinal is published: judges can enter its results."),
        "not_drawn": N_("The semifinal has not been drawn yet."),
        "draft": N_("This semifinal draw is not published yet: spectators do not see it, and "
                    "results can be entered once the organizer publishes it."),
        "results": N_("Judges enter the semifinal results on the Results page."),
    },
    Kind.FINAL: {
        "draw": N_("Draw the final"),
        "again": N_("Draw the final again"),
        "drawn": N_("The final is drawn (seed {seed}); publish it when ready."),
        "publish": N_("Publish the final"),
        "published": N_("The final is published: judges can enter its results."),
        "not_drawn": N_("The final has not been drawn yet."),
        "draft": N_("This final draw is not published yet: spectators do not see it, and "
                    "results can be entered once the organizer publishes it."),
        "results": N_("Judges enter the final results on the Results page."),
    },
}


def said(kind: Kind, what: str, **fields) -> str:
    """`KIND_TEXTS[kind][what]` in the run's language, `fields` filled in."""
    return _(KIND_TEXTS[Kind(kind)][what]).format(**fields)


def no_finals_yet(view) -> str:
    """Why the finals page has nothing yet (`Finals.reason`), in the run's language."""
    return too_few(len(view.standings))


def _and(names) -> str:
    """"Ann and Ben and Cy": names joined as a sentence lists them."""
    names = list(names)
    return reduce(lambda first, second: _("{first} and {second}").format(
        first=first, second=second), names) if names else ""


# What a phone shows of a finals table without a swipe (`ui.tables.phone_layout`): who, with
# their rank, stage or table and seat, how they got there and whether they are a wildcard (R17),
# in narrow columns with short headings; the other columns follow, a swipe away.
PHONE_FIRST = ("Rank", "Stage", "Table", "Seat", "Player", "Way in", "Stage reached",
               "Wildcard", "Colour", "Best score")
PHONE_COLUMNS: dict[str, dict] = {
    "Rank": {"width": 42}, "Stage": {"width": 68}, "Table": {"width": 48},
    "Seat": {"width": 40}, "Way in": {"width": 112}, "Wildcard": {"width": 66},
    "Colour": {"width": 60},
    "Stage reached": {"width": 68, "label": N_("Reached"),
                      "help": N_("How far the player went: the final, the semifinal or a "
                                 "qualifier")},
    "Best score": {"width": 40, "label": N_("Best"), "help": N_("The best qualifier score")},
}


def phone_first(frame: pd.DataFrame) -> dict:
    """`st.dataframe`'s `column_order` and `column_config` that show `frame`'s `PHONE_FIRST`
    columns first, narrow enough for a phone."""
    return tables.phone_layout(frame.columns, PHONE_FIRST, PHONE_COLUMNS)


# --- standings --------------------------------------------------------------------------------

def cut_caption(table: pd.DataFrame) -> str:
    """The finals cut in one line, from N: every player in the standings, those seated at a
    qualifier with no result yet included."""
    n = len(table)
    waiting = int(table["best_score"].isna().sum()) if n else 0
    tail = (" " + ngettext("{count} player seated in a qualifier have no result yet.",
                           "{count} players seated in a qualifier have no result yet.",
                           waiting).format(count=waiting)) if waiting else ""
    if n < 4:
        return ngettext("{count} player so far: finals need at least 4.",
                        "{count} players so far: finals need at least 4.",
                        n).format(count=n) + tail
    fmt = rules.finals_format(n)
    if fmt.semifinal:
        line = _("{count} players: the top {direct} go straight to the final, the next "
                 "{semifinal} play the semifinal, {out} are out.").format(
            count=n, direct=fmt.direct, semifinal=fmt.semifinal, out=n - fmt.cut)
    else:
        line = _("{count} players: the top {direct} go straight to the final, there is no "
                 "semifinal, {out} are out.").format(count=n, direct=fmt.direct,
                                                     out=n - fmt.cut)
    return line + tail


def tie_warnings(table: pd.DataFrame) -> list[str]:
    """One sentence per shared rank that straddles a cut line, naming the players."""
    tied = table.loc[table["tie_at_cut"]]
    out = []
    for rank, group in tied.groupby("rank", sort=True):
        players = ", ".join(group["name"].astype(str))
        if (group["zone"] == Stage.FINAL).any():
            out.append(_("Rank {rank} is shared across the final cut line by {players}: settle "
                         "who goes through before drawing the finals.").format(
                rank=rank, players=players))
        else:
            out.append(_("Rank {rank} is shared across the semifinal cut line by {players}: "
                         "settle who goes through before drawing the finals.").format(
                rank=rank, players=players))
    return out


def status_labels(status: pd.DataFrame) -> pd.Series:
    """Each player's finals status in words, wildcards marked, indexed by player id: English,
    as the shared standings hold it (`WILDCARD_ZONE`; pages translate with `i18n.cells`)."""
    words = status["status"].map(STATUS_LABELS).fillna("")
    words = words.where(~status["wildcard"].astype(bool), words + WILDCARD)
    return pd.Series(words.to_numpy(), index=status["player_id"].to_numpy())


def podium_line(status: pd.DataFrame, names: dict) -> str:
    """The champion and podium in one sentence once the final is in ("" before)."""
    top = podium(status)
    if top.empty:
        return ""
    return "; ".join(
        _("{place}: {player}").format(place=_(STATUS_LABELS[s]), player=names.get(p, str(p)))
        for p, s in zip(top["player_id"], top["status"])) + "."


def podium_words(top: tuple[tuple[FinalsStatus, str], ...]) -> tuple[str, str]:
    """The podium (`services.home.HomeStatus.podium`) for the top of Home: the champion's
    line and the others' ("Champion: Ann", "Runner-up: Ben · Third: Cy"); ("", "") before
    the final is in."""
    lines = [_("{place}: {player}").format(place=_(STATUS_LABELS[s]), player=name)
             for s, name in top]
    return (lines[0], " · ".join(lines[1:])) if lines else ("", "")


def standings_frame(table: pd.DataFrame, status: pd.DataFrame | None = None) -> pd.DataFrame:
    """The standings as shown: rank, player, best score, the zone (first, so that a phone
    shows it without scrolling), games, wins, the best game's placing and VP, and the tie flag
    when any rank is shared at a cut line.

    With `status` (`services.finals.finals_status`), the zone says where each player stands
    in the finals (wildcards, absences, a lost seat, the podium); once the final is in, the
    rows follow the final standings, `Rank` is the final rank and `Qualifier rank` follows."""
    if status is not None and len(status):
        have = set(table["player_id"])
        table = table.set_index("player_id").loc[
            [p for p in status["player_id"] if p in have]].reset_index()
        zone = table["player_id"].map(status_labels(status)).fillna("")
    else:
        zone = table["zone"].map(ZONES).fillna("")
    shown = pd.DataFrame({
        "Rank": table["rank"], "Player": table["name"].astype(str),
        "Best score": table["best_score"].astype("Int64"), "Zone": zone,
        "Games": table["games"], "Wins": table["wins"],
        "Placing": table["placing"].astype("Int64"), "VP": table["vp"].astype("Int64"),
    })
    if status is not None and status["final_rank"].notna().any():
        ranks = dict(zip(status["player_id"], status["final_rank"]))
        shown.insert(1, "Qualifier rank", table["rank"])
        shown["Rank"] = table["player_id"].map(ranks).astype("Int64")
    if table["tie_at_cut"].any():
        shown["Tie at cut"] = table["tie_at_cut"].astype(bool)
    return shown.reset_index(drop=True)


# --- finals -----------------------------------------------------------------------------------

def format_lines(fmt) -> list[str]:
    """R16 for this tournament's size, in words."""
    lines = [_("{count} players played a qualifier: the top {direct} go straight to the "
               "final.").format(count=fmt.n_players, direct=fmt.direct)]
    if not fmt.semifinal:
        lines.append(_("There is no semifinal: too few players are left below the top 4."))
    elif fmt.challenge:
        lines.append(_("The next {semifinal} play one semifinal. Its winner takes the seat of "
                       "the weakest finalist seated in the final (the lowest best qualifier "
                       "score there, a wildcard included) if the winner's semifinal score is "
                       "higher than that finalist's best qualifier score; on a tie the "
                       "finalist keeps it.").format(semifinal=fmt.semifinal))
    elif fmt.advance == 1:
        lines.append(_("The next {semifinal} play {tables} semifinals; the best of the winners "
                       "takes the last final seat (by semifinal score, then VP, spice, solari, "
                       "troops, water).").format(semifinal=fmt.semifinal,
                                                 tables=fmt.semifinal_tables))
    else:
        lines.append(_("The next {semifinal} play {tables} semifinals; the {advance} best "
                       "winners take the last {advance} final seats (by semifinal score, then "
                       "VP, spice, solari, troops, water).").format(
            semifinal=fmt.semifinal, tables=fmt.semifinal_tables, advance=fmt.advance))
    return lines


def entrants_frame(view, status: pd.DataFrame | None = None) -> pd.DataFrame:
    """Who the cut sends where, finalists first, wildcards marked; with `status`
    (`services.finals.finals_status`), where each one stands now (`Now`, and a `Note` such as
    the finalist who lost the seat to the semifinal winner). Cells in the run's language."""
    standing = view.standings[["player_id", "rank", "best_score"]]
    rows = view.entrants.merge(standing, on="player_id", how="left")
    shown = pd.DataFrame({
        "Stage": i18n.cells(rows["stage"].map(STAGES)), "Qualifier rank": rows["rank"],
        "Player": rows["name"].astype(str), "Best score": rows["best_score"].astype("Int64"),
        "Wildcard": rows["wildcard"].astype(bool),
    })
    if status is not None:
        now = status.set_index("player_id")
        shown["Now"] = i18n.cells(
            rows["player_id"].map(now["status"]).map(STATUS_LABELS).fillna(""))
        shown["Note"] = i18n.cells(rows["player_id"].map(now["note"]).fillna(""))
    return shown


def seating_frame(overview: pd.DataFrame, scored: pd.DataFrame | None, wildcards,
                  viewer: Role) -> pd.DataFrame:
    """A finals sitting's tables (R3), with results once in (R11, R12); wildcards marked (R17);
    the pick order (R9) for judges and the organizer only."""
    rows = overview
    if scored is not None and len(scored):
        rows = rows.merge(scored[["game_id", "player_id", "placing", "vp", "qualifier_score"]],
                          left_on=["table_id", "player_id"], right_on=["game_id", "player_id"],
                          how="left")
    shown = pd.DataFrame({
        "Table": rows["table_no"], "Seat": rows["seat"], "Player": rows["name"].astype(str),
        "Wildcard": rows["player_id"].isin(list(wildcards)),
        "Colour": rows["colour"].map(colour_word),
        "Setup": rows["setup"],
    })
    if viewer.is_staff:
        shown["Pick order"] = rows["pick_order"]
    if "placing" in rows:
        shown = shown.assign(Placing=rows["placing"].astype("Int64"),
                             VP=rows["vp"].astype("Int64"),
                             Score=rows["qualifier_score"].astype("Int64"))
    return shown.reset_index(drop=True)


def advance_notes(view) -> list[str]:
    """R16: who took the final seats and why, in words (once `view.final_players` is known).
    A lone semifinal winner contests `view.contested`: the weakest finalist seated in the
    final, a wildcard included."""
    names = dict(zip(view.standings["player_id"], view.standings["name"].astype(str)))
    best = dict(zip(view.standings["player_id"], view.standings["best_score"]))
    direct = stage_players(view, Stage.FINAL)
    semifinal_scored = view.semifinal_results
    if not stage_players(view, Stage.SEMIFINAL) or semifinal_scored is None:
        return [_("No semifinal: the {count} direct finalists play the final.").format(
            count=len(direct))]
    winners = (semifinal_scored.loc[semifinal_scored["placing"] == 1]
               .sort_values("qualifier_score", ascending=False))
    advanced = [p for p in view.final_players if p not in direct]
    if view.format.challenge:
        w = winners.iloc[0]
        who, score = names[w["player_id"]], int(w["qualifier_score"])
        if len(direct) < view.format.direct:
            return [_("{player} won the semifinal ({score} points) and takes the open final "
                      "seat.").format(player=who, score=score)]
        weakest = view.contested
        if w["player_id"] in advanced:
            return [_("{player} won the semifinal with {score} points, more than {finalist}'s "
                      "best qualifier score of {best}: {player} takes {finalist}'s final "
                      "seat.").format(player=who, score=score, finalist=names[weakest],
                                      best=best[weakest])]
        return [_("{player} won the semifinal with {score} points, not more than {finalist}'s "
                  "best qualifier score of {best}: {finalist} keeps the final seat.").format(
            player=who, score=score, finalist=names[weakest], best=best[weakest])]
    listed = ", ".join(_("{player} ({score} points at table {table})").format(
        player=names[p], score=int(s), table=t) for p, s, t in
        zip(winners["player_id"], winners["qualifier_score"], winners["table_no"]))
    return [_("Semifinal winners: {players}.").format(players=listed),
            ngettext("{players} advances to the final.", "{players} advance to the final.",
                     len(advanced)).format(players=_and(names[p] for p in advanced))]


def final_table_frame(view) -> pd.DataFrame:
    """R16: the players seated at the final and how each got there."""
    direct = set(stage_players(view, Stage.FINAL))
    wild = view.wildcards
    rows = (pd.DataFrame({"player_id": view.final_players})
            .merge(view.standings[["player_id", "rank", "name", "best_score"]],
                   on="player_id", how="left"))
    return pd.DataFrame({
        "Player": rows["name"].astype(str), "Qualifier rank": rows["rank"],
        "Best score": rows["best_score"],
        "Way in": [_("Direct") if p in direct else _("Semifinal winner")
                   for p in rows["player_id"]],
        "Wildcard": rows["player_id"].isin(wild),
    })


def final_standings_frame(view) -> pd.DataFrame:
    """R18: everyone, finalists first, with their qualifier rank and wildcards marked."""
    wild = view.wildcards
    rows = view.final_standings.merge(view.standings[["player_id", "rank", "best_score"]],
                                      on="player_id", how="left")
    return pd.DataFrame({
        "Rank": rows["final_rank"], "Player": rows["name"].astype(str),
        "Stage reached": i18n.cells(rows["stage"].map(STAGES)),
        "Wildcard": rows["player_id"].isin(wild), "Qualifier rank": rows["rank"],
        "Best score": rows["best_score"],
    })


def to_csv(frame: pd.DataFrame) -> str:
    """CSV for a spreadsheet, through the one formula guard (`formats.csv.frame_text`: a
    formula-like start of a cell, or of a piece after a separator, gets a quote); booleans
    read Yes or No, as in every CSV STSA writes; headings and words in the run's language."""
    yes_no = {c: frame[c].map({True: _("Yes"), False: _("No")})
              for c in frame.columns if frame[c].dtype == bool}
    return csv_format.frame_text(i18n.headings(frame.assign(**yes_no)))
