"""Across the installation's tournaments (R27): the season standing, the unofficial rating and
the public player page, from every tournament's own games and the player directory.

Each tournament's database is opened (`store.open_tournament`), read in one snapshot in the
public view (spectators' reads: published sittings, nicknames only, R20, R22) and closed
again; the installation's database gives the list, the seasons and the directory. The pure
modules do the work: `stsa.season` (R27 over R14), `stsa.rating`, `stsa.directory`.

People: a tournament player in the directory is its person; one who is not counts as a person
of their own, with the id −(tournament id × 10⁹ + player id) (`synthetic_person`): negative,
so it never meets a directory id, and the same on every read, so their player page keeps its
address until they are linked.

Chronology (the rating's order): tournaments by their first day (`starts_on`; those without
one after those with one), then by id; within a tournament, sittings in the order they were
drawn. Game ids across tournaments are tournament id × 10⁹ + table id (`game_key`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from stsa import directory, i18n, rating, rules, store
from stsa import season as season_rules
from stsa.domain import Kind, SittingStatus, TournamentError
from stsa.formats import workbook_sheets, workbook_writer
from stsa.formats.csv import csv_bytes
from stsa.i18n import N_, _
from stsa.services import finals as finals_service
from stsa.services import results as results_service
from stsa.services.snapshot import Snapshot
from stsa.store import db, season_reads
from stsa.store.seasons import check_points

SPAN = 10**9  # tournament id × SPAN + a tournament's own id: ids unique across tournaments
_KEY = ["tournament_id", "player_id"]
GAME_COLUMNS = ["tournament_id", "game_id", "table_id", "sitting_id", "kind", "order", "at",
                "person_id", "player_id", *rules.PLACING_ORDER, "placing", "qualifier_score",
                "final_rank"]
TOURNAMENT_COLUMNS = ["tournament_id", "name", "starts_on", "season_id", "position"]
PLAYER_COLUMNS = ["tournament_id", "player_id", "person_id", "nickname"]
STANDING_COLUMNS = ["tournament_id", "player_id", "person_id", "rank", "best_score"]
FINAL_COLUMNS = ["tournament_id", "player_id", "person_id", "final_rank"]
SEASON_TABLE_COLUMNS = ["rank", "person_id", "nickname", "best_score", "best_tournament_id",
                        "best_tournament", "events", "best_final_rank", "points", "games",
                        "wins"]
CURRENT_COLUMNS = ["rank", "person_id", "nickname", "mu", "sigma", "ordinal", "games"]
HISTORY_COLUMNS = ["person_id", "tournament_id", "game_id", "order", "at", "mu", "sigma",
                   "ordinal"]
# English headings (marked): shared tables keep them; pages and files translate them where they
# are shown (`i18n.headings`).
SEASON_HEADINGS = {"rank": N_("Rank"), "nickname": workbook_sheets.PUBLIC_PLAYER,
                   "best_score": N_("Best score"), "best_tournament": N_("Best tournament"),
                   "events": N_("Tournaments"), "best_final_rank": N_("Best final rank"),
                   "points": N_("Points"), "games": N_("Games"), "wins": N_("Wins")}


def synthetic_person(tournament_id, player_id):
    """The person id of a tournament player not in the directory (works on arrays too)."""
    return -(np.asarray(tournament_id, dtype="int64") * SPAN
             + np.asarray(player_id, dtype="int64"))


def game_key(tournament_id, table_id):
    """A game's id across tournaments (works on arrays too)."""
    return np.asarray(tournament_id, dtype="int64") * SPAN + np.asarray(table_id, dtype="int64")


@dataclass(frozen=True)
class Played:
    """What the installation's tournaments hold, as frames (columns in the constants above):
    `tournaments` (with `position`, the chronological order), `players` (everyone, with the
    person and the nickname there), `games` (every scored game of every kind, one row per
    player per game, with the player's final rank in that tournament), `standings` (each
    tournament's qualifier standing) and `finals` (each final standing, R18)."""

    tournaments: pd.DataFrame
    players: pd.DataFrame
    games: pd.DataFrame
    standings: pd.DataFrame
    finals: pd.DataFrame

    def latest_nicknames(self) -> pd.Series:
        """person_id → the nickname in the person's latest tournament read (R22)."""
        at = self.players["tournament_id"].map(
            self.tournaments.set_index("tournament_id")["position"])
        return (self.players.assign(_at=at).sort_values(["person_id", "_at"], kind="stable")
                .drop_duplicates("person_id", keep="last").set_index("person_id")["nickname"])


def _read_one(installation, tournament_id: int, engine_of=None) -> dict:
    """One tournament's frames, read in one snapshot of its own database in the public view,
    only the columns the season and the rating need (`store.season_reads`): its results
    unscored (`played` scores every tournament at once), sittings, public names and the
    players seated at a qualifier still being played (R16). A tournament whose final is
    complete also gives its scored `games`, `standings` and `finals` (R18) as it shows them.
    `engine_of`: the caller's open engine of a tournament id (the app's shared ones); else one
    is opened for this read and disposed (never the installation's own)."""
    engine = (store.open_tournament(installation, int(tournament_id)) if engine_of is None
              else engine_of(int(tournament_id)))
    try:
        with store.snapshot(engine) as conn:
            reading: Any = conn  # the store's reads take this one snapshot for an engine
            settings = store.typed_settings(conn)
            lean = season_reads.season_frames(conn)
            sittings = lean["sittings"]
            final = sittings.loc[sittings["kind"] == Kind.FINAL].tail(1)
            open_ = sittings.loc[(sittings["kind"] == Kind.QUALIFIER)
                                 & (sittings["status"] == SittingStatus.PUBLISHED), "sitting_id"]
            out = {"name": settings.tournament_name, "starts_on": settings.starts_on,
                   "base_points": tuple(settings.base_points), "results": lean["results"],
                   "sittings": sittings[["sitting_id", "completed_at"]],
                   "names": lean["names"], "games": None, "standings": None, "finals": None,
                   "seated": [int(p) for s in open_
                              for p in store.seats(reading, int(s), actor=None)["player_id"]]}
            if len(final) and final["status"].iloc[0] == SittingStatus.COMPLETE:
                # R18 as the tournament shows it, once its final is complete (a few of them)
                scored = rules.score_games(lean["results"], base_points=settings.base_points)
                with Snapshot(conn, actor=None) as snap:
                    table = results_service.standings(
                        scored.loc[scored["kind"] == Kind.QUALIFIER], snap.names, out["seated"])
                    out.update(games=scored, standings=table,
                               finals=finals_service.view_of(snap, table).final_standings)
            return out
    finally:
        if engine_of is None and engine is not installation:
            engine.dispose()


def _scored(read: dict) -> pd.DataFrame:
    """Every tournament's results scored (R11, R12), the tournaments of one set of base points
    at once: with `tournament_id`, `table_id` (the tournament's game id) and `game_id`
    (`game_key`)."""
    parts: list[pd.DataFrame] = []
    raw: dict[tuple, list[pd.DataFrame]] = {}
    for t, r in read.items():
        if r["games"] is not None:
            parts.append(r["games"].assign(tournament_id=t))
        elif len(r["results"]):
            raw.setdefault(r["base_points"], []).append(r["results"].assign(tournament_id=t))
    keyed = [pd.concat(frames, ignore_index=True) for frames in raw.values()]
    parts += [rules.score_games(f.assign(game_id=game_key(f["tournament_id"], f["game_id"])),
                                base_points=points).assign(table_id=f["game_id"].to_numpy())
              for points, f in zip(raw, keyed)]
    parts = [p.assign(table_id=p["game_id"], game_id=game_key(p["tournament_id"], p["game_id"]))
             if "table_id" not in p else p for p in parts]
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame()


def _standings(read: dict, scored: pd.DataFrame) -> pd.DataFrame:
    """Each tournament's qualifier standing (R14, R16): `tournament_id, player_id, rank,
    best_score`, as `services.results.standings` ranks it; those without a complete final
    ranked all at once (R14's order is the same in every tournament: players keyed by
    tournament, each rank counted within its tournament). The players seated at a qualifier
    still being played without a result yet come last, sharing the rank after every scored
    player, no score."""
    given = [r["standings"][["player_id", "rank", "best_score"]].assign(tournament_id=t)
             for t, r in read.items() if r["standings"] is not None]
    rest = [t for t, r in read.items() if r["standings"] is None]
    parts = list(given)
    if len(scored) and rest:
        q = scored.loc[(scored["kind"] == Kind.QUALIFIER) & scored["tournament_id"].isin(rest)]
        if len(q):
            table = rules.standings(q.assign(player_id=game_key(q["tournament_id"],
                                                                q["player_id"])))
            key = table["player_id"].to_numpy()
            table = table.assign(tournament_id=key // SPAN, player_id=key % SPAN)
            at = table.groupby("tournament_id", sort=False).cumcount() + 1
            rank = at.groupby([table["tournament_id"], table["rank"]]).transform("min")
            parts.append(table.assign(rank=rank.astype("int64"))
                         [["player_id", "rank", "best_score", "tournament_id"]])
    counted = (pd.concat(parts, ignore_index=True) if parts
               else pd.DataFrame({c: pd.Series(dtype="int64") for c in _KEY}))
    waiting = []
    for t in rest:
        seated = pd.unique(pd.Series(read[t]["seated"], dtype="int64"))
        have = counted.loc[counted["tournament_id"] == t, "player_id"]
        extra = seated[~np.isin(seated, have)]
        if len(extra):
            waiting.append(pd.DataFrame({"tournament_id": t, "player_id": extra,
                                         "rank": len(have) + 1, "best_score": np.nan}))
    return pd.concat([counted, *waiting], ignore_index=True) if waiting else counted


def _with_person(frame: pd.DataFrame, people: pd.Series) -> pd.DataFrame:
    """`frame` (with `tournament_id, player_id`) with each row's `person_id`: the directory's
    (`people`, indexed by tournament and player), else `synthetic_person`."""
    found = people.reindex(pd.MultiIndex.from_frame(frame[_KEY])).to_numpy(dtype="float64")
    missing = np.isnan(found)
    person = np.where(missing, 0, found).astype("int64")
    person[missing] = synthetic_person(frame["tournament_id"], frame["player_id"])[missing]
    return frame.assign(person_id=person)


def played(installation, tournament_ids: Iterable[int] | None = None, *,
           engine_of: Callable[[int], object] | None = None) -> Played:
    """The frames of `Played` for the installation's tournaments (only `tournament_ids` when
    given). `installation`: the installation's engine, or any of its tournaments'.
    `engine_of`: an open engine of each tournament id, kept by the caller (the app's shared
    engines); else each is opened for the read and closed again."""
    inst = db.installation(installation)
    listed = store.tournaments(inst)
    if tournament_ids is not None:
        listed = listed.loc[listed["tournament_id"].isin([int(t) for t in tournament_ids])]
    # One after another: reading them in threads gains nothing measurable (the frames'
    # building holds Python's lock), see docs/performance.md
    read = {int(t): _read_one(inst, int(t), engine_of) for t in listed["tournament_id"]}
    links = store.directory(inst)
    people = links.set_index(_KEY)["person_id"]
    tournaments = (pd.DataFrame({
        "tournament_id": pd.Series(list(read), dtype="int64"),
        "name": pd.Series([r["name"] for r in read.values()], dtype="str"),
        "starts_on": pd.Series([r["starts_on"] for r in read.values()], dtype="object")})
        .merge(listed[["tournament_id", "season_id"]], on="tournament_id")
        .sort_values(["starts_on", "tournament_id"], na_position="last", kind="stable",
                     ignore_index=True))
    tournaments = tournaments.assign(position=np.arange(len(tournaments)))[TOURNAMENT_COLUMNS]

    def stacked(part: str, columns: list[str], empty: dict[str, str]) -> pd.DataFrame:
        frames = [r[part].assign(tournament_id=t) for t, r in read.items()
                  if r[part] is not None and len(r[part])]
        if not frames:
            return pd.DataFrame({c: pd.Series(dtype=empty.get(c, "int64")) for c in columns})
        return pd.concat(frames, ignore_index=True)

    names = stacked("names", ["tournament_id", "player_id", "name"], {"name": "str"})
    players = _with_person(names.rename(columns={"name": "nickname"}), people)[PLAYER_COLUMNS]
    scored = _scored(read)
    ranked = _standings(read, scored)
    standings = _with_person(ranked if len(ranked) else pd.DataFrame({
        "tournament_id": pd.Series(dtype="int64"), "player_id": pd.Series(dtype="int64"),
        "rank": pd.Series(dtype="int64"), "best_score": pd.Series(dtype="float64")}),
        people)[STANDING_COLUMNS]
    finals = _with_person(stacked("finals", ["tournament_id", "player_id", "final_rank"], {}),
                          people)[FINAL_COLUMNS]
    return Played(tournaments, players, _games(read, scored, tournaments, finals, people),
                  standings, finals)


def _games(read: dict, scored: pd.DataFrame, tournaments: pd.DataFrame, finals: pd.DataFrame,
           people: pd.Series) -> pd.DataFrame:
    """Every scored game (`scored`, from `_scored`), with its chronological `order` and time
    (`at`: the sitting's completion; NaT while it is not complete)."""
    if scored.empty:
        return pd.DataFrame({c: pd.Series(dtype="object" if c in ("kind", "at") else "int64")
                             for c in GAME_COLUMNS})
    sittings = pd.concat([r["sittings"].assign(tournament_id=t) for t, r in read.items()],
                         ignore_index=True)
    games = (scored
             .merge(sittings, on=["tournament_id", "sitting_id"], how="left")
             .rename(columns={"completed_at": "at"})
             .merge(tournaments[["tournament_id", "position"]], on="tournament_id")
             .merge(finals[[*_KEY, "final_rank"]], on=_KEY, how="left"))
    games = games.assign(
        order=games.groupby(["position", "sitting_id"], sort=True).ngroup().astype("int64"),
        final_rank=games["final_rank"].astype("Int64"))
    return (_with_person(games, people)
            .sort_values(["order", "table_id", "placing", "player_id"], kind="stable",
                         ignore_index=True)[GAME_COLUMNS])


def tournament_games(installation, tournament_ids: Iterable[int] | None = None) -> pd.DataFrame:
    """R27: every scored game of the installation's tournaments (only `tournament_ids` when
    given), one row per player per game, of every kind (the season takes `kind` "qualifier";
    the rating takes all): `tournament_id, game_id` (unique across tournaments: `game_key`),
    `table_id, sitting_id, kind, order` (chronological: see the module's docstring), `at`
    (the sitting's completion, NaT before), `person_id` (the directory's; else
    `synthetic_person`), `player_id` (the tournament's), `vp, spice, solari, troops, water,
    placing, qualifier_score`, and `final_rank` (Int64: the player's rank in that
    tournament's final standings, R18; NA without finals)."""
    return played(installation, tournament_ids).games


def _season_inputs(games: pd.DataFrame, finals: pd.DataFrame) -> tuple[pd.DataFrame,
                                                                      pd.DataFrame]:
    qualifier = games.loc[games["kind"] == Kind.QUALIFIER]
    season_games = (qualifier.drop(columns="player_id").rename(columns={"person_id": "player_id"})
                    .loc[:, season_rules.GAME_COLUMNS])
    met = pd.MultiIndex.from_frame(qualifier[_KEY].drop_duplicates())
    ranked = finals.loc[pd.MultiIndex.from_frame(finals[_KEY]).isin(met)]
    season_finals = (ranked.drop(columns="player_id").rename(columns={"person_id": "player_id"})
                     .loc[:, season_rules.FINALS_COLUMNS].astype({"final_rank": "int64"}))
    return season_games, season_finals


def season_table(installation, season_id: int, *,
                 engine_of: Callable[[int], object] | None = None) -> pd.DataFrame:
    """R27: season `season_id`'s standing over its tournaments (`stsa.season`: R14's best
    qualifier score across them, then the best final rank; or its points table): `rank,
    person_id, nickname` (the nickname in the person's latest tournament of the season; never a
    real name, R22), `best_score, best_tournament_id, best_tournament` (that tournament's name),
    `events` (tournaments with a qualifier game), `best_final_rank` (Int64, NA for none),
    `points` (only when the season has a points table), `games, wins`; best first. A season
    without tournaments or games has no rows. `NotFound` for no such season. `engine_of`: as
    `played`'s."""
    inst = db.installation(installation)
    season = store.season(inst, season_id)
    listed = store.tournaments(inst)
    data = played(inst, listed.loc[listed["season_id"] == season["season_id"], "tournament_id"],
                  engine_of=engine_of)
    games, finals = _season_inputs(data.games, data.finals)
    table = season_rules.season_standing(games, finals, points=season["points"])
    names = data.tournaments.set_index("tournament_id")["name"]
    out = (table.rename(columns={"player_id": "person_id"})
           .assign(nickname=lambda d: d["person_id"].map(data.latest_nicknames()).astype("str"),
                   best_tournament=lambda d: d["best_tournament_id"].map(names).astype("str")))
    columns = [c for c in SEASON_TABLE_COLUMNS if c != "points" or season["points"] is not None]
    return out.loc[:, columns].reset_index(drop=True)


def season_sheet(table: pd.DataFrame) -> pd.DataFrame:
    """R27: a `season_table` as people read it: "Rank", "Player" (the nickname alone, R22),
    "Best score", "Best tournament", "Tournaments", "Best final rank", "Points" with a points
    table, "Games", "Wins"; whole numbers, NA where there is none. The Season page, its CSV,
    the TV's season slide and the workbook's Season sheet show this."""
    table = table.astype({c: "Int64" for c in ("best_score", "best_final_rank", "points")
                          if c in table})
    return table[[c for c in SEASON_HEADINGS if c in table]].rename(columns=SEASON_HEADINGS)


def season_csv(installation, season_id: int, table: pd.DataFrame | None = None) -> bytes:
    """R27: `season_table` as people read it (`season_sheet`), as CSV (UTF-8 with BOM);
    formula-like text neutralised with a leading ' (`formats.csv`). `table`: the season's
    `season_table` when the caller has it already (the Season page's shared read)."""
    found = season_table(installation, season_id) if table is None else table
    return csv_bytes(*workbook_writer.frame_sheet(i18n.headings(season_sheet(found))))


def season_of(installation, tournament_id: int | None) -> int | None:
    """R27: the season tournament `tournament_id` is in, or None (also for no tournament)."""
    if tournament_id is None:
        return None
    listed = store.tournaments(db.installation(installation))
    found = listed.loc[listed["tournament_id"] == int(tournament_id), "season_id"]
    return None if found.empty or pd.isna(found.iloc[0]) else int(found.iloc[0])


def season_tournaments(installation, season_id: int) -> list[int]:
    """R27: the ids of the tournaments in season `season_id`, oldest first."""
    listed = store.tournaments(db.installation(installation))
    return [int(t) for t in listed.loc[listed["season_id"] == int(season_id), "tournament_id"]]


def parse_points(text: str) -> dict[int, int] | None:
    """R27 (*setting*): a points table typed as the points of final ranks 1, 2, … in order
    ("25, 18, 15, 12"; commas, semicolons or spaces between) as {1: 25, 2: 18, …}; empty text
    is no table (None: the format's own standing). A `TournamentError` says what is wrong
    (checked by `store.seasons.check_points` too)."""
    parts = [p for p in re.split(r"[,;\s]+", str(text or "").strip()) if p]
    if not parts:
        return None
    wrong = [p for p in parts if not p.isdigit()]
    if wrong:
        raise TournamentError(_("Points are whole numbers, 0 or more, in the order of the "
                                "final ranks, as “25, 18, 15, 12” (“{typed}” is not one).")
                              .format(typed=wrong[0][:20]))
    return check_points({rank: int(p) for rank, p in enumerate(parts, start=1)})


def points_text(points: dict[int, int] | None) -> str:
    """A points table as `parse_points` reads it ("25, 18, 15"); "" for none."""
    return "" if not points else ", ".join(str(points[r]) for r in sorted(points))


def _ratings(data: Played) -> rating.Ratings:
    games = data.games
    found = rating.ratings(games.drop(columns="player_id")
                           .rename(columns={"person_id": "player_id"})
                           .loc[:, ["order", "game_id", "player_id", "placing", "at"]])
    nicknames = data.latest_nicknames()
    current = (found.current.rename(columns={"player_id": "person_id"})
               .assign(nickname=lambda d: d["person_id"].map(nicknames).astype("str"))
               .loc[:, CURRENT_COLUMNS])
    history = (found.history.rename(columns={"player_id": "person_id"})
               .assign(tournament_id=lambda d: (d["game_id"] // SPAN).astype("int64"))
               .loc[:, HISTORY_COLUMNS])
    return rating.Ratings(current, history)


def rating_table(installation, *, engine_of: Callable[[int], object] | None = None,
                 data: Played | None = None) -> rating.Ratings:
    """The unofficial rating (`stsa.rating`, openskill's Plackett-Luce; not a ruling) over
    every game of every tournament, in the module docstring's chronological order:
    `Ratings(current, history)`, `current`: `rank, person_id, nickname, mu, sigma, ordinal,
    games`, best first; `history`: `person_id, tournament_id, game_id, order, at` (the
    sitting's completion; NaT before), `mu, sigma, ordinal` after each game. `engine_of`: as
    `played`'s; `data`: the installation's `played` when the caller has it already."""
    return _ratings(played(installation, engine_of=engine_of) if data is None else data)


@dataclass(frozen=True)
class PlayerPage:
    """A person's public page (R27, R22: nicknames only): the nickname in their latest
    tournament, `record` (`stsa.directory.player_record`: one row per tournament, newest
    first), the current `rating` (a row of `rating_table`'s current as a dict; None without a
    game) and the rating `history` (as `rating_table`'s, with `tournament`: its name)."""

    person_id: int
    nickname: str
    record: pd.DataFrame
    rating: dict | None
    history: pd.DataFrame


def player_page(installation, person_id: int, *, data: Played | None = None,
                ratings: rating.Ratings | None = None,
                engine_of: Callable[[int], object] | None = None) -> PlayerPage:
    """R27: person `person_id`'s public record across tournaments, their current rating and
    its history (`PlayerPage`). `NotFound` when no tournament has that person. What is shared
    by every player's page may be given, so that a page computes nothing per person but its
    own rows: `data`, the installation's `played` (every tournament), and `ratings`, its
    `rating_table`; `engine_of` as `played`'s (when `data` is not given)."""
    data = played(installation, engine_of=engine_of) if data is None else data
    person = int(person_id)
    if not (data.players["person_id"] == person).any():
        raise store.NotFound(_("There is no person {person} in this STSA's tournaments.")
                             .format(person=person))
    record = directory.player_record(data.players, data.standings, data.finals,
                                     data.tournaments, person)
    found = _ratings(data) if ratings is None else ratings
    mine = found.current.loc[found.current["person_id"] == person]
    names = data.tournaments.set_index("tournament_id")["name"]
    history = (found.history.loc[found.history["person_id"] == person]
               .assign(tournament=lambda d: d["tournament_id"].map(names).astype("str"))
               .reset_index(drop=True))
    current = None if mine.empty else {k: (v.item() if hasattr(v, "item") else v)
                                       for k, v in mine.iloc[0].to_dict().items()}
    return PlayerPage(person, str(data.latest_nicknames()[person]), record, current, history)
