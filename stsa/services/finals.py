"""The finals (R16–R18): the cut, absences and wildcards, the semifinal winners' contest, the
semifinal and final draws, and whether a drawn finals sitting still seats who it should.

Everything is worked out from one `Snapshot`: the finals view reads each frame once, so the
cut, the sittings and their results always belong together. The view is shared by every
session (`ui.data.Data.finals`), so its sentences (`reason`, `stale`, the notes of
`finals_status`) are English, marked for the catalogs: pages say them in the reader's language
(`too_few`, `i18n.cell`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import pandas as pd

from stsa import draw, i18n, rules, store
from stsa.auth import Actor, require
from stsa.domain import (
    FinalsStatus,
    Kind,
    Role,
    Sitting,
    SittingStatus,
    Stage,
    TournamentError,
)
from stsa.i18n import N_, _, ngettext
from stsa.services import results, setups
from stsa.services.snapshot import Snapshot

FINALS_KINDS = (Kind.SEMIFINAL, Kind.FINAL)

# Why a drawn finals sitting must be drawn again (`Finals.stale`), and the notes of
# `finals_status`: English in the shared view, translated where shown (`i18n.cell`).
STALE = {
    Kind.SEMIFINAL: N_("This semifinal draw no longer matches who plays (an absence or a result "
                       "changed since it was drawn): draw the semifinal again before "
                       "publishing."),
    Kind.FINAL: N_("This final draw no longer matches who plays (an absence or a result changed "
                   "since it was drawn): draw the final again before publishing."),
}
NOT_KNOWN = N_("The final table is not known yet: it is known once every semifinal result is "
               "in.")
WON = N_("Won the semifinal")
LOST = N_("Lost the final seat")
LOST_TO = i18n.template(N_("Lost the final seat to {players}"))
TOOK = i18n.template(N_("Won the semifinal: took {player}'s seat"))


def too_few(count: int) -> str:
    """Why there are no finals yet: fewer than 4 players (`Finals.reason`), in the run's
    language."""
    return ngettext("{count} player seated in a qualifier so far: finals need at least 4.",
                    "{count} players seated in a qualifier so far: finals need at least 4.",
                    count).format(count=count)


@dataclass
class Finals:
    """R16–R18 as they stand: the format, who plays where, the sittings and the final standings.

    `semifinal` and `final` are the latest sitting of each kind (drafts included: pages show
    those to judges and the organizer only, R20), `semifinal_results` and `final_results` their
    scored results once any are in. `contested` is the finalist a 4–16-player semifinal winner
    contests (R16). `stale` says, for a drawn finals sitting that no longer seats who it should,
    why it must be drawn again."""

    standings: pd.DataFrame
    format: rules.FinalsFormat | None = None
    reason: str = ""
    entrants: pd.DataFrame = field(default_factory=pd.DataFrame)
    cut_ties: pd.DataFrame = field(default_factory=pd.DataFrame)
    absent: list = field(default_factory=list)
    semifinal: Sitting | None = None
    final: Sitting | None = None
    semifinal_results: pd.DataFrame | None = None
    final_results: pd.DataFrame | None = None
    final_players: list | None = None
    final_blocker: str = ""
    contested: object = None
    final_standings: pd.DataFrame | None = None
    stale: dict = field(default_factory=dict)

    @property
    def absences_locked(self) -> bool:
        """R17: absences are fixed once a finals sitting is published."""
        return any(s is not None and s["status"] != SittingStatus.DRAWN
                   for s in (self.semifinal, self.final))

    @property
    def wildcards(self) -> set:
        """R17: the players who took a seat as wildcards."""
        if self.entrants.empty:
            return set()
        return set(self.entrants.loc[self.entrants["wildcard"], "player_id"])


def stage_players(view: Finals, stage: Stage) -> list:
    """The players `view.entrants` puts in the final or the semifinal (R16, R17)."""
    if view.entrants.empty:
        return []
    return view.entrants.loc[view.entrants["stage"] == stage, "player_id"].tolist()


# --- the view ---------------------------------------------------------------------------------

def finals(engine) -> Finals:
    """R16, R17, R18: the cut, wildcards for absent players, the semifinal and final sittings,
    the final table once the semifinal is in, and the final standings once the final is.

    When the semifinal results cannot set the final table yet (a tie for first not settled,
    R11), `final_players` stays None and `final_blocker` says why and what to do."""
    with Snapshot(engine) as snap:
        return view_of(snap)


def view_of(snap: Snapshot, standings: pd.DataFrame | None = None) -> Finals:
    """`finals` from the frames of one snapshot; `standings`: its qualifier standings
    (`results.standings`) when the caller has them already."""
    table = standings if standings is not None else results.standings(
        results.scored(snap), snap.names, results.qualifier_players(snap))
    view = Finals(standings=table)
    if len(table) < 4:
        with i18n.language(i18n.ENGLISH):  # shared: English (pages say `too_few`)
            view.reason = too_few(len(table))
        return view
    view.format = rules.finals_format(len(table))
    view.absent = snap.absences["player_id"].tolist()
    present = set(table["player_id"]) - set(view.absent)
    view.entrants = rules.finals_entrants(table, present=present).merge(
        snap.names, on="player_id", how="left")
    view.cut_ties = rules.cut_ties(table)
    view.semifinal, view.final = snap.latest(Kind.SEMIFINAL), snap.latest(Kind.FINAL)
    view.semifinal_results = _scored(snap, Kind.SEMIFINAL, view.semifinal)
    view.final_results = _scored(snap, Kind.FINAL, view.final)
    _final_table(view)
    if view.final and view.final["status"] == SittingStatus.COMPLETE:
        view.final_standings = rules.final_standings(
            table.fillna({"best_score": -1}), view.semifinal_results, view.final_results).merge(
            snap.names, on="player_id", how="left")
    view.stale = {kind: problem for kind, sitting in zip(FINALS_KINDS,
                                                         (view.semifinal, view.final))
                  if sitting is not None and (problem := _draw_problem(snap, view, sitting))}
    return view


def _scored(snap: Snapshot, kind: Kind, sitting: Sitting | None) -> pd.DataFrame | None:
    """R11, R12: the scored results of the finals sitting of `kind`, None before any."""
    found = snap.results_of(kind)
    if sitting is None or found.empty:
        return None
    return rules.score_games(found, base_points=snap.settings.base_points)


def _final_table(view: Finals) -> None:
    """R16: who sits at the final once it is known, and the finalist a lone semifinal winner
    contests; or why the semifinal cannot set it yet (`final_blocker`)."""
    assert view.format is not None  # called once there are finals
    needs_semifinal = view.format.semifinal > 0 and bool(stage_players(view, Stage.SEMIFINAL))
    if view.format.challenge:
        view.contested = rules.weakest_finalist(view.standings, view.entrants)
    done = view.semifinal is not None and view.semifinal["status"] == SittingStatus.COMPLETE
    if needs_semifinal and not done:
        return
    try:
        view.final_players = rules.final_table(view.standings, view.entrants,
                                               view.semifinal_results)
    except TournamentError as exc:
        view.final_blocker = str(exc)


def _draw_problem(snap: Snapshot, view: Finals, sitting: Mapping) -> str:
    """Why a drawn finals sitting cannot be published as drawn ("" if it can): it no longer
    seats who plays (an absence or a result changed since it was drawn)."""
    if sitting["status"] != SittingStatus.DRAWN:
        return ""
    kind = Kind(sitting["kind"])
    expected: list | None
    if kind is Kind.SEMIFINAL:
        expected = stage_players(view, Stage.SEMIFINAL)
    else:
        expected = view.final_players
    if expected is None:
        return view.final_blocker or NOT_KNOWN
    seated = snap.sitting_seats(int(sitting["sitting_id"]))["player_id"]
    if set(seated) == set(expected):
        return ""
    return STALE[kind]


def publish_problem(snap: Snapshot, sitting: Mapping) -> str:
    """Why this finals sitting cannot be published ("" if it can), from the snapshot, in the
    run's language."""
    view = view_of(snap)
    if view.format is None:
        return too_few(len(view.standings))
    return str(i18n.cell(_draw_problem(snap, view, sitting)))


# --- where each player stands in the finals ---------------------------------------------------

PODIUM = {1: FinalsStatus.CHAMPION, 2: FinalsStatus.RUNNER_UP, 3: FinalsStatus.THIRD}


def finals_status(view: Finals) -> pd.DataFrame:
    """Where each player of `view.standings` stands in the finals now (R16–R18).

    Columns: `player_id`, `status` (a `Status`), `wildcard` (took an absent player's seat,
    R17), `final_rank` (R18, once the final is in; else missing), `note` (who took or lost a
    final seat, in words; else ""). Before the cut is final it follows the standings' order
    and the cut as it would fall now (absences and wildcards included); once the semifinal is
    in, the semifinal winner's contest (R16); once the final is in, the final standings' order,
    champion and podium first (R18)."""
    table = view.standings
    names = dict(zip(table["player_id"], table["name"].astype(str)))
    out = pd.DataFrame({"player_id": table["player_id"].to_numpy(),
                        "status": table["zone"].fillna("").to_numpy(dtype=object),
                        "wildcard": False, "final_rank": pd.array([pd.NA] * len(table),
                                                                  dtype="Int64"),
                        "note": ""})
    if view.format is None:
        return out
    scored = table["best_score"].notna().to_numpy()
    status = dict.fromkeys(table["player_id"], FinalsStatus.OUT)
    status.update(dict(zip(view.entrants["player_id"], view.entrants["stage"])))
    status.update(dict.fromkeys(view.absent, FinalsStatus.ABSENT))
    note = {}
    if view.final_players is not None:
        seated = set(view.final_players)
        for player in stage_players(view, Stage.SEMIFINAL):
            if player in seated:
                status[player] = FinalsStatus.FINAL
                note[player] = WON
        for player in stage_players(view, Stage.FINAL):
            if player not in seated:
                status[player] = FinalsStatus.LOST_SEAT
                winners = [names.get(p, str(p)) for p in view.final_players
                           if note.get(p)]
                note[player] = (LOST_TO.format(players=" and ".join(winners))
                                if winners else LOST)
                for p in view.final_players:
                    if note.get(p) == WON:
                        note[p] = TOOK.format(player=names.get(player, player))
    out["status"] = [s if ok else FinalsStatus.NONE for s, ok in
                     zip(map(status.get, out["player_id"]), scored)]
    out["wildcard"] = out["player_id"].isin(view.wildcards) & scored
    out["note"] = [note.get(p, "") for p in out["player_id"]]
    if view.final_standings is None:
        return out
    ranks = view.final_standings[["player_id", "final_rank", "stage"]]
    out = ranks.merge(out.drop(columns="final_rank"), on="player_id", how="left")
    played = out["stage"] == Stage.FINAL
    out.loc[played, "status"] = [PODIUM.get(int(r), FinalsStatus.FINALIST)
                                 for r in out.loc[played, "final_rank"]]
    out = out.astype({"final_rank": "Int64"}).drop(columns="stage")
    return out[["player_id", "status", "wildcard", "final_rank", "note"]]


def podium(status: pd.DataFrame) -> pd.DataFrame:
    """R18: the rows of `finals_status` on the podium (champion, runner-up, third), in the
    final standings' order: `player_id, status`; none before the final is in."""
    return status.loc[status["status"].isin(list(PODIUM.values())), ["player_id", "status"]]


# --- actions ----------------------------------------------------------------------------------

def absence_changes(before, after) -> list[tuple[int, bool]]:
    """(player_id, present) for each player whose absence changes from `before` to `after`."""
    before, after = set(before), set(after)
    return ([(int(p), False) for p in sorted(after - before)]
            + [(int(p), True) for p in sorted(before - after)])


def save_absences(engine, absent, *, actor: Actor) -> list[tuple[int, bool]]:
    """R17: make `absent` the players absent for the finals; returns what changed. Refused
    once a finals sitting is published (its seats are fixed)."""
    require(actor, Role.ORGANIZER, action=N_("mark absences"))
    with Snapshot(engine) as snap:
        if view_of(snap).absences_locked:
            raise store.InvalidState(_("Absences are fixed once a finals sitting is published. "
                                       "Nothing was changed."))
        changes = absence_changes(snap.absences["player_id"], absent)
        for player_id, present in changes:
            store.mark_absent(engine, player_id, present=present, actor=actor)
        return changes


def _before_a_draw(engine, actor: Actor) -> tuple[Snapshot, Finals]:
    """The snapshot and finals view a finals draw starts from (organizer only, R20)."""
    require(actor, Role.ORGANIZER, action=N_("save draws"))
    with Snapshot(engine) as snap:
        view = view_of(snap)
        if view.format is None:
            raise TournamentError(too_few(len(view.standings)))
        snap.settings  # noqa: B018 - kept: the draw reads it after this snapshot has closed
        return snap, view


def draw_semifinal(engine, *, seed: int, actor: Actor) -> store.SittingRow:
    """R16: seat the semifinalists (and wildcards, R17) at random tables; saved unpublished."""
    snap, view = _before_a_draw(engine, actor)
    players = stage_players(view, Stage.SEMIFINAL)
    if not players:
        raise TournamentError(_("This tournament has no semifinal: draw the final directly."))
    drawn = draw.draw_sitting(players, setups.from_settings(snap.settings, Kind.SEMIFINAL),
                              seed=seed, colours=snap.settings.colours)
    return store.save_draw(engine, drawn, kind=Kind.SEMIFINAL, actor=actor)


def draw_final(engine, *, seed: int, actor: Actor) -> store.SittingRow:
    """R16: seat the final table at random; saved unpublished."""
    snap, view = _before_a_draw(engine, actor)
    if view.final_blocker:
        raise TournamentError(str(i18n.cell(view.final_blocker)))
    if view.final_players is None:
        raise TournamentError(_("The semifinal is not complete yet: the final table is known "
                                "once every semifinal result is in."))
    if len(view.final_players) < 3:
        count = len(view.final_players)
        raise TournamentError(ngettext(
            "Only {count} player can take a final seat; the final needs at least 3.",
            "Only {count} players can take a final seat; the final needs at least 3.",
            count).format(count=count))
    drawn = draw.draw_groups([view.final_players],
                             setups.from_settings(snap.settings, Kind.FINAL),
                             seed=seed, colours=snap.settings.colours)
    return store.save_draw(engine, drawn, kind=Kind.FINAL, actor=actor)
