"""A player's own page: where they sit now, their games, their rank and the cut, in the
public's view (R3, R12, R14, R16, R20–R22).

Pure functions over the frames the pages already share per data version (`stsa.ui.data`):
nothing here reads the store, so a hundred phones asking "where do I sit?" after a publish cost
one computation per player per change, not a query per phone. Players are found and named by
nickname only (R22).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from stsa import i18n, rules, stats, store
from stsa import schedule as plan
from stsa.domain import FinalsStatus, Kind, PlayerStatus, SittingStatus, sitting_label
from stsa.i18n import N_, _, ngettext
from stsa.services import roster

SHOWN_LIMIT = 10  # a search shows at most this many nicknames: type more to narrow it


class Now:
    """Where a player is in the current sitting (`PlayerFacts.now`)."""

    SEATED = "seated"  # at a table of a published sitting still being played
    SITTING_OUT = "sitting_out"  # a sitting is being played without them (R1, R2, R21)
    NOT_DRAWN = "not_drawn"  # no sitting is being played: the next one is not published yet
    OVER = "over"  # the final is complete and nothing is left on the schedule: it is over (R18)
    # the final is complete but the schedule still has an item to come (a player meeting, the
    # prize-giving): the final place, without "the tournament is over" beside "Next: …" (R26)
    FINAL_PLAYED = "final_played"


@dataclass(frozen=True)
class Seat:
    """A player's place at a table (R3): seat 1 plays first; `first_player` is seat 1's
    nickname; `players` how many sit at the table."""

    table_no: int
    seat: int
    colour: str
    first_player: str
    setup: str
    players: int


@dataclass(frozen=True)
class PlayerFacts:
    """Everything a player's own page says, in the public's view.

    `sitting`: the sitting being played ("Qualifier 4"; "" when none is). `now`: a `Now`.
    `seat`: their table when seated. `sat_out_by_draw`: the draw chose them to sit out (R1).
    `waiting`: their number on the sitting's waiting list (R21), None when not waiting.
    `games`: their qualifier games (`sitting, table_no, placing, vp, qualifier_score`), in
    order. `rank`, `best_score`: R14, None before a first result. `standing`: their rank and
    the cut in plain words (R16), or where they stand in the finals once those are played."""

    player_id: int
    nickname: str
    withdrawn: bool
    sitting: str
    now: str
    seat: Seat | None
    sat_out_by_draw: bool
    waiting: int | None
    games: pd.DataFrame
    rank: int | None
    best_score: float | None
    standing: str  # `Words`: English, said in the reader's language by `shown`


def directory(players: pd.DataFrame) -> pd.DataFrame:
    """R22: `player_id, nickname` of every player (withdrawn ones too: their results stay),
    by nickname, for the search."""
    return (players[["player_id", "nickname"]]
            .assign(nickname=lambda d: d["nickname"].astype(str))
            .sort_values("nickname", key=lambda s: s.str.casefold(), kind="stable")
            .reset_index(drop=True))


def search(found: pd.DataFrame, query: str) -> pd.DataFrame:
    """The players of `directory` whose nickname contains `query` (any case, spaces
    collapsed; not a pattern); one whose nickname is exactly `query` comes first."""
    hits = found.loc[roster.name_matches(found["nickname"], query)]
    exact = hits["nickname"].map(store.normalize_name) == store.normalize_name(query or "")
    return pd.concat([hits.loc[exact], hits.loc[~exact]]).reset_index(drop=True)


def linked(found: pd.DataFrame, raw) -> int | None:
    """The player a bookmarked link names (`?player=<id>`), if `found` (`directory`) has
    them; None for anything else (not a number, no such player)."""
    text = str(raw or "").strip()
    if not (text.isdigit() and len(text) <= 12) or int(text) not in set(found["player_id"]):
        return None
    return int(text)


def in_play(sittings: pd.DataFrame) -> pd.DataFrame:
    """The published sittings still being played (R20: the public never sees a draft),
    latest first."""
    return sittings.loc[sittings["status"] == SittingStatus.PUBLISHED].iloc[::-1]


def finals_started(sittings: pd.DataFrame) -> bool:
    """Whether a semifinal or final sitting is published (R16–R18: where a player stands is
    then the finals' word, not the cut's)."""
    return bool(((sittings["kind"] != Kind.QUALIFIER)
                 & (sittings["status"] != SittingStatus.DRAWN)).any())


def nothing_left(schedule: pd.DataFrame | None, now) -> bool:
    """R26: whether no schedule item starts at or after `now` (what "Next: …" would name):
    only then may a page say the tournament is over."""
    return schedule is None or now is None or plan.next_item(schedule, now) is None


def final_complete(sittings: pd.DataFrame) -> bool:
    """Whether the final has every result in: the tournament is over (R18)."""
    return bool(((sittings["kind"] == Kind.FINAL)
                 & (sittings["status"] == SittingStatus.COMPLETE)).any())


class Words(str):
    """A sentence kept once per data version for every reader: its value is the English
    words (what tests and shared tables compare), and `shown()` says it again in this run's
    language (`say` is called then, so nothing shared depends on who read it first)."""

    say: Callable[[], str]

    def __new__(cls, say: Callable[[], str]) -> Words:
        with i18n.language(i18n.ENGLISH):
            text = say()
        made = super().__new__(cls, text)
        made.say = say
        return made

    def shown(self) -> str:
        """These words in this run's language."""
        return str(self) if i18n.current() == i18n.ENGLISH else self.say()


def shown(words: str) -> str:
    """A `Words` sentence (a player's standing) in this run's language; other text as it is."""
    return words.shown() if isinstance(words, Words) else words


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st … (Swedish 1:a, 2:a, 3:e; French 1er, 2e)
    in this run's language."""
    n = int(n)
    language = i18n.current()
    if language == "sv":
        return f"{n}:{'a' if n % 10 in (1, 2) and n % 100 not in (11, 12) else 'e'}"
    if language == "fr":
        return f"{n}er" if n == 1 else f"{n}e"
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _points(gap: float) -> str:
    whole = float(gap).is_integer()
    number = f"{gap:g}" if i18n.current() == i18n.ENGLISH else i18n.number(gap)
    return ngettext("{count} point", "{count} points",
                    int(gap) if whole else 2).format(count=number)


def _behind(gap: float, rank: int) -> str:
    if gap <= 0:
        return _("level on points with {place}: the tie-breaks decide").format(
            place=ordinal(rank))
    return _("{points} behind {place}").format(points=_points(gap), place=ordinal(rank))


FINALS_WORDS = {
    FinalsStatus.FINAL: N_("you play the final"),
    FinalsStatus.SEMIFINAL: N_("you play the semifinal"),
    FinalsStatus.OUT: N_("you did not make the cut"),
    FinalsStatus.ABSENT: N_("you are marked absent for the finals: a wildcard takes your seat"),
    FinalsStatus.LOST_SEAT: N_("the semifinal winner took your final seat"),
    FinalsStatus.CHAMPION: N_("you are the champion"),
    FinalsStatus.RUNNER_UP: N_("you are the runner-up"),
    FinalsStatus.THIRD: N_("you placed third"), FinalsStatus.FINALIST: N_("you played the final"),
}
# Once the final is complete (R18): where each player finished, in the past tense.
FINISHED_WORDS = {
    **FINALS_WORDS, FinalsStatus.SEMIFINAL: N_("you played the semifinal"),
    FinalsStatus.ABSENT: N_("you were absent for the finals"),
}
# The same said about a player, for others (the Standings search card).
FINALS_ABOUT = {
    FinalsStatus.FINAL: N_("plays the final"), FinalsStatus.SEMIFINAL: N_("plays the semifinal"),
    FinalsStatus.OUT: N_("did not make the cut"),
    FinalsStatus.ABSENT: N_("marked absent for the finals: a wildcard takes their seat"),
    FinalsStatus.LOST_SEAT: N_("the semifinal winner took their final seat"),
    FinalsStatus.CHAMPION: N_("the champion"), FinalsStatus.RUNNER_UP: N_("the runner-up"),
    FinalsStatus.THIRD: N_("third"), FinalsStatus.FINALIST: N_("played the final"),
}
FINISHED_ABOUT = {**FINALS_ABOUT, FinalsStatus.SEMIFINAL: N_("played the semifinal"),
                  FinalsStatus.ABSENT: N_("absent for the finals")}


@dataclass(frozen=True)
class Ranking:
    """The standings prepared for the cut in words (R14, R16): `rows` by player id, each
    position's rank and best score, the cut lines (`stats.cut`) and the finals format (None
    below 4 players); `finals`: player id → (finals status, wildcard) once they are played."""

    rows: pd.DataFrame
    ranks: np.ndarray
    scores: np.ndarray
    line: stats.Cut
    fmt: rules.FinalsFormat | None
    finals: dict | None
    over: bool = False  # the final is complete: `final_ranks` holds the final standings (R18)
    final_ranks: dict | None = None
    ended: bool = False  # over, and nothing is left on the schedule: "the tournament is over"


def ranking(table: pd.DataFrame, finals: pd.DataFrame | None = None,
            over: bool = False, left: bool = False) -> Ranking:
    """`Ranking` of the standings `table` (`services.results.standings`), with `finals`
    (`services.finals.finals_status`) once a finals sitting is played; `over`: the final is
    complete, so the final standings' ranks (R18) say where each player finished; `left`:
    the schedule still has an item to come, so nothing says the tournament is over (R26)."""
    ranks = None
    if over and finals is not None and "final_rank" in finals:
        done = finals.loc[finals["final_rank"].notna()]
        ranks = dict(zip(done["player_id"], done["final_rank"].astype(int)))
    return Ranking(rows=table.set_index("player_id"), ranks=table["rank"].to_numpy(),
                   scores=table["best_score"].to_numpy(dtype=float), line=stats.cut(table),
                   fmt=rules.finals_format(len(table)) if len(table) >= 4 else None,
                   finals=None if finals is None else dict(zip(
                       finals["player_id"], zip(finals["status"], finals["wildcard"]))),
                   over=bool(over and ranks), final_ranks=ranks,
                   ended=bool(over and ranks and not left))


def standing_words(table: pd.DataFrame, player_id, finals: pd.DataFrame | None = None) -> str:
    """R14, R16 in plain words: "8th; the cut is the top 8", "14th; the cut is the top 11:
    4 points behind 11th". Once a finals sitting is played (`finals`: the rows of
    `services.finals.finals_status`), where the player stands in the finals instead."""
    return _words(ranking(table, finals), player_id)


def said_about(book: Book, player_id) -> str:
    """A player's standing (`PlayerFacts.standing`) said about them, for others: "1st in the
    final standings: the champion; 4th after the qualifiers. The tournament is over." """
    return _words(book.ranking, player_id, FINALS_ABOUT, FINISHED_ABOUT)


def _words(ranked: Ranking, player_id, said: dict = FINALS_WORDS,
           finished: dict = FINISHED_WORDS) -> Words:
    """Where the player stands, as `Words`: English in the shared value, said again in each
    reader's language where a page shows it (`shown`)."""
    return Words(lambda: _sentence(ranked, player_id, said, finished))


def _sentence(ranked: Ranking, player_id, said: dict, finished: dict) -> str:
    return sentences(ranked, [player_id], said, finished)[0]


def sentences(ranked: Ranking, player_ids, said: dict = FINALS_WORDS,
              finished: dict = FINISHED_WORDS) -> list[str]:
    """R14, R16, R18: where each of `player_ids` stands, in this run's language (what
    `standing_words` says of one player), for a whole roster at once: the standings are
    looked up once for all of them, then each sentence is worded from plain values."""
    rows = ranked.rows.reindex(list(player_ids))
    finals = ranked.finals or {}
    final_ranks = (ranked.final_ranks or {}) if ranked.over else {}
    count = int((~np.isnan(ranked.scores)).sum())
    none = (FinalsStatus.NONE, False)
    return [_say(ranked, count, rank, score, zone, tie, finals.get(pid, none),
                 final_ranks.get(pid), said, finished)
            for pid, rank, score, zone, tie in zip(
                rows.index, rows["rank"].tolist(), rows["best_score"].tolist(),
                rows["zone"].tolist(), rows["tie_at_cut"].tolist())]


def _say(ranked: Ranking, count: int, rank, score, zone, tie, in_finals: tuple, final_rank,
         said: dict, finished: dict) -> str:
    """One player's sentence of `sentences`, from their row's plain values (`in_finals`:
    their finals status and whether as a wildcard)."""
    status, wildcard = in_finals
    if pd.isna(score):
        return _("No result yet: your rank shows once your first game is in.")
    place, score = ordinal(rank), float(score)
    if final_rank is not None:
        final = ordinal(final_rank)
        done = finished.get(status, "")
        if not ranked.ended:  # something is left on the schedule (R26): not "over" yet
            text = (_("{final} in the final standings: {finish} (as a wildcard); {place} after "
                      "the qualifiers.") if done and wildcard else
                    _("{final} in the final standings: {finish}; {place} after the "
                      "qualifiers.") if done else
                    _("{final} in the final standings (as a wildcard); {place} after the "
                      "qualifiers.") if wildcard else
                    _("{final} in the final standings; {place} after the qualifiers."))
        elif done and wildcard:
            text = _("{final} in the final standings: {finish} (as a wildcard); {place} after "
                     "the qualifiers. The tournament is over.")
        elif done:
            text = _("{final} in the final standings: {finish}; {place} after the "
                     "qualifiers. The tournament is over.")
        elif wildcard:
            text = _("{final} in the final standings (as a wildcard); {place} after the "
                     "qualifiers. The tournament is over.")
        else:
            text = _("{final} in the final standings; {place} after the qualifiers. The "
                     "tournament is over.")
        return text.format(final=final, finish=_(done) if done else "", place=place)
    if status in said:
        text = (_("{place} after the qualifiers; {finals} (as a wildcard).") if wildcard
                else _("{place} after the qualifiers; {finals}."))
        return text.format(place=place, finals=_(said[status]))
    if ranked.fmt is None:
        return _("{place} of {count}; the finals need at least 4 players.").format(
            place=place, count=count)
    fmt, line = ranked.fmt, ranked.line
    tie = " " + _("Your rank is shared across the cut line: the organizer settles it.") \
        if bool(tie) else ""
    if zone == "final":
        return _("{place}; the top {count} go straight to the final.").format(
            place=place, count=fmt.direct) + tie
    if zone == "semifinal":
        gap = ranked.scores[line.direct - 1] - score
        return _("{place}; places {first}–{last} play the semifinal, {behind} (the last place "
                 "straight to the final).").format(
            place=place, first=fmt.direct + 1, last=fmt.cut,
            behind=_behind(gap, ranked.ranks[line.direct - 1])) + tie
    last = line.semifinal or line.direct
    gap = ranked.scores[last - 1] - score
    return _("{place}; the cut is the top {count}: {behind}.").format(
        place=place, count=last, behind=_behind(gap, ranked.ranks[last - 1])) + tie


def waiting_place(waiting: pd.DataFrame | None, player_id) -> int | None:
    """R21: the player's number on the current sitting's waiting list (1 = next in), None
    when they are not on it. `waiting` is that list (`player_id, position`, by position) as
    the waiting-list service reads it; None while there is none."""
    if waiting is None or waiting.empty:
        return None
    queue = waiting.sort_values("position", kind="stable")["player_id"].tolist()
    return queue.index(player_id) + 1 if player_id in queue else None


SEAT_COLUMNS = ["sitting", "table_no", "seat", "colour", "first_player", "setup", "players"]


@dataclass(frozen=True)
class Book:
    """What every player's own page reads, prepared once per data version (`prepare`): one
    player's facts are then a few lookups, not scans of the tournament's frames.

    `players` (nickname, status) and `seats` (`SEAT_COLUMNS`, each seated player's place in
    the latest sitting being played where they have one) by player id; `sitting`: the latest
    sitting being played ("" for none) and `sat_out` who its draw sat out (R1); `games`: the
    scored qualifier results by player, sitting and table, `game_ids` their player ids;
    `ranking` (R14, R16); `waiting` (R21)."""

    players: pd.DataFrame
    seats: pd.DataFrame
    sitting: str
    sat_out: frozenset
    games: pd.DataFrame
    game_ids: np.ndarray
    ranking: Ranking
    waiting: pd.DataFrame | None


def prepare(*, players: pd.DataFrame, sittings: pd.DataFrame, seats: dict[int, pd.DataFrame],
            sit_outs: dict[int, pd.DataFrame], scored: pd.DataFrame, standings: pd.DataFrame,
            finals: pd.DataFrame | None = None, waiting: pd.DataFrame | None = None,
            schedule: pd.DataFrame | None = None, now=None) -> Book:
    """The `Book` of every player's page, from frames as the public sees them (R20, R22):
    `players` (with `nickname`), `sittings`, the `seats` of each sitting being played
    (`services.sittings.sitting_overview`, by sitting id), who its draw sat out (`sit_outs`,
    by sitting id), the scored qualifier results, the standings with zones
    (`services.results.standings`), `finals` (`services.finals.finals_status`: used once
    `finals_started`, may be None before), the current sitting's waiting list (R21), and the
    `schedule` with the time `now` (R26): a complete final is "over" only when no item of
    the schedule is still to come (`nothing_left`)."""
    nicknames = players.set_index("player_id")["nickname"].astype(str)
    playing = in_play(sittings)
    labels = dict(zip(playing["sitting_id"].astype(int),
                      map(sitting_label, playing["kind"], playing["number"])))
    frames = [seats[s] for s in labels if s in seats and len(seats[s])]  # latest first
    placed = pd.DataFrame(columns=["player_id", *SEAT_COLUMNS])
    if frames:
        every = pd.concat(frames, ignore_index=True)
        first = (every.loc[every["seat"] == 1, ["table_id", "player_id"]]
                 .rename(columns={"player_id": "first_id"}))
        placed = (every.merge(first, on="table_id", how="left")
                  .assign(first_player=lambda d: d["first_id"].map(nicknames).fillna(""),
                          players=lambda d: d.groupby("table_id")["player_id"]
                          .transform("size"),
                          sitting=lambda d: d["sitting_id"].map(labels))
                  .drop_duplicates("player_id")[["player_id", *SEAT_COLUMNS]])
    latest = next(iter(labels), None)
    outs = sit_outs.get(latest) if latest is not None else None
    games = scored.sort_values(["player_id", "sitting_no", "table_no"], kind="stable")
    return Book(players=players.set_index("player_id")[["nickname", "status"]],
                seats=placed.set_index("player_id"),
                sitting=labels.get(latest, ""),
                sat_out=frozenset(outs["player_id"]) if outs is not None else frozenset(),
                games=games, game_ids=games["player_id"].to_numpy(),
                ranking=ranking(standings, finals if finals_started(sittings) else None,
                                over=final_complete(sittings),
                                left=not nothing_left(schedule, now)),
                waiting=waiting)


def player_facts(book: Book, player_id: int) -> PlayerFacts | None:
    """What player `player_id`'s own page shows (R3, R12, R14, R16, R21, R22), from the
    version's `Book`; None when there is no such player."""
    if player_id not in book.players.index:
        return None
    me = book.players.loc[player_id]
    seat, now, sitting = None, Now.NOT_DRAWN, book.sitting
    if player_id in book.seats.index:
        row = book.seats.loc[player_id]
        now, sitting = Now.SEATED, row["sitting"]
        seat = Seat(table_no=int(row["table_no"]), seat=int(row["seat"]),
                    colour=str(row["colour"]), first_player=str(row["first_player"]),
                    setup=str(row["setup"]), players=int(row["players"]))
    elif sitting:
        now = Now.SITTING_OUT
    elif book.ranking.over:
        now = Now.OVER if book.ranking.ended else Now.FINAL_PLAYED
    games = book.games.iloc[np.searchsorted(book.game_ids, player_id, side="left"):
                            np.searchsorted(book.game_ids, player_id, side="right")]
    rows = book.ranking.rows
    ranked = player_id in rows.index and pd.notna(rows.at[player_id, "best_score"])
    return PlayerFacts(
        player_id=int(player_id), nickname=str(me["nickname"]),
        withdrawn=me["status"] == PlayerStatus.WITHDRAWN,
        sitting=sitting, now=now, seat=seat,
        sat_out_by_draw=now == Now.SITTING_OUT and player_id in book.sat_out,
        waiting=waiting_place(book.waiting, player_id) if now != Now.SEATED else None,
        games=pd.DataFrame({
            "sitting": [sitting_label(Kind.QUALIFIER, n) for n in games["sitting_no"]],
            "table_no": games["table_no"].to_numpy(), "placing": games["placing"].to_numpy(),
            "vp": games["vp"].to_numpy(), "qualifier_score": games["qualifier_score"].to_numpy()}),
        rank=int(rows.at[player_id, "rank"]) if ranked else None,
        best_score=float(rows.at[player_id, "best_score"]) if ranked else None,
        standing=_words(book.ranking, player_id))


GAME_FIELDS = ("sitting", "table", "placing", "vp", "score")  # a game in `everyone_games`


def everyone(book: Book) -> pd.DataFrame:
    """Every player's `PlayerFacts` at once (My seat's one answer for every phone: R3, R14,
    R21, R22), one row per player in roster order: `player_id, nickname, withdrawn, now,
    sitting, table_no, seat, colour, first_player, setup, players` (the seat columns empty
    unless seated), `sat_out_by_draw, waiting` (None unless on the waiting list), `rank,
    best_score` (empty before a first result). Their games: `everyone_games`; their standing:
    `sentences(book.ranking, …)`."""
    me = book.players
    seats = book.seats.reindex(me.index)
    seated = seats["table_no"].notna().to_numpy()
    now = np.select([seated, np.full(len(me), bool(book.sitting)),
                     np.full(len(me), book.ranking.ended),
                     np.full(len(me), book.ranking.over)],
                    [Now.SEATED, Now.SITTING_OUT, Now.OVER, Now.FINAL_PLAYED], Now.NOT_DRAWN)
    queue = (pd.Series(dtype="Int64") if book.waiting is None or book.waiting.empty else
             book.waiting.sort_values("position", kind="stable")
             .assign(number=lambda d: np.arange(1, len(d) + 1))
             .drop_duplicates("player_id").set_index("player_id")["number"])
    ranked = book.ranking.rows.reindex(me.index)
    has_score = ranked["best_score"].notna()
    return pd.DataFrame({
        "player_id": me.index.astype(int), "nickname": me["nickname"].astype(str).to_numpy(),
        "withdrawn": (me["status"] == PlayerStatus.WITHDRAWN).to_numpy(), "now": now,
        "sitting": np.where(seated, seats["sitting"].fillna(""), book.sitting),
        **{c: seats[c].to_numpy() for c in SEAT_COLUMNS[1:]},
        "sat_out_by_draw": (now == Now.SITTING_OUT) & me.index.isin(list(book.sat_out)),
        "waiting": np.where(now != Now.SEATED, queue.reindex(me.index).astype("Int64"), pd.NA),
        "rank": ranked["rank"].where(has_score).astype("Int64").to_numpy(),
        "best_score": ranked["best_score"].where(has_score).to_numpy(dtype=float)})


def everyone_games(book: Book, player_ids) -> list[list[list[int]]]:
    """R12: each of `player_ids`' qualifier games in order, as `GAME_FIELDS` lists (the
    qualifier's number, table, placing, VP, qualifier score): one plain list per player."""
    games = book.games
    rows = np.column_stack([games[c].to_numpy(dtype="int64") for c in (
        "sitting_no", "table_no", "placing", "vp", "qualifier_score")]).tolist() \
        if len(games) else []
    ids = np.asarray(list(player_ids))
    starts = np.searchsorted(book.game_ids, ids, side="left").tolist()
    stops = np.searchsorted(book.game_ids, ids, side="right").tolist()
    return [rows[a:b] for a, b in zip(starts, stops)]
