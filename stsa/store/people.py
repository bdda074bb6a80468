"""The player directory's storage (R27): which person each tournament's player is.

The installation's database holds one row per linked tournament player (`directory`:
`tournament_id, player_id → person_id`); the players themselves (nicknames, e-mails) stay in
each tournament's own database. What to link is the pure `stsa.directory`'s work
(`match_players`, `assign_people`, `merge_people`, `split_player`); these functions read the
directory, let it compute, and write the whole change in one transaction that also holds the
directory against other writers (PostgreSQL: a table lock; SQLite: the write lock), so new
person ids are never given twice. Organizer only; logged in the installation's log.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import numpy as np
import pandas as pd
import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from stsa import directory as rules
from stsa.auth import Actor, require
from stsa.domain import Action, Problem, Role, TournamentError
from stsa.i18n import N_, _
from stsa.store import audit, db, frames, schema
from stsa.store.errors import NotFound

d = schema.directory
DIRECTORY_COLUMNS = {"person_id": "int64", "tournament_id": "int64", "player_id": "int64"}
_KEY = ["tournament_id", "player_id"]


def _read(conn: Connection) -> pd.DataFrame:
    return frames.query_frame(conn, sa.select(d.c.person_id, d.c.tournament_id, d.c.player_id)
                              .order_by(d.c.person_id, d.c.tournament_id, d.c.player_id),
                              DIRECTORY_COLUMNS)


def directory(engine: Engine | Connection) -> pd.DataFrame:
    """R27: the player directory, `person_id, tournament_id, player_id`, by person then
    tournament."""
    inst = engine if isinstance(engine, Connection) else db.installation(engine)
    with db.reading(inst) as conn:
        return _read(conn)


def _held(conn: Connection) -> pd.DataFrame:
    """The directory, read in a write that no other directory write overlaps."""
    if not db.is_sqlite(conn):
        conn.exec_driver_sql("LOCK TABLE directory IN SHARE ROW EXCLUSIVE MODE")
    return _read(conn)


def _links(rows: pd.DataFrame, nicknames: pd.DataFrame | None) -> pd.DataFrame:
    """Directory rows shaped as `stsa.directory`'s links: the nicknames when the caller gave
    them (`tournament_id, player_id, nickname`), else "player 12"; no e-mail."""
    named = rows.assign(nickname="player " + rows["player_id"].astype(str), email="")
    if nicknames is not None and len(nicknames):
        known = nicknames[[*_KEY, "nickname"]].drop_duplicates(_KEY).set_index(_KEY)["nickname"]
        found = pd.MultiIndex.from_frame(named[_KEY]).map(known.to_dict())
        named = named.assign(nickname=pd.Series(found, index=named.index).fillna(
            named["nickname"]))
    return named[rules.LINK_COLUMNS]


def _listed(conn: Connection) -> set[int]:
    t = schema.tournaments
    return set(conn.execute(sa.select(t.c.id).where(t.c.deleted_at.is_(None))).scalars())


def _new_rows(rows) -> pd.DataFrame:
    """The rows to link as a frame `person_id` (Int64: NA for a new person), `tournament_id`,
    `player_id`, or a `TournamentError`."""
    frame = pd.DataFrame(list(rows) if not isinstance(rows, pd.DataFrame) else rows)
    if frame.empty:
        return pd.DataFrame({"person_id": pd.Series(dtype="Int64"),
                             "tournament_id": pd.Series(dtype="int64"),
                             "player_id": pd.Series(dtype="int64")})
    missing = [c for c in _KEY if c not in frame]
    if missing:
        raise TournamentError(_("The players to link lack {columns}.").format(
            columns=" and ".join(missing)))  # column names, as code names them

    def numbers(column: str) -> np.ndarray:
        if column not in frame:
            return np.full(len(frame), np.nan)
        return pd.to_numeric(frame[column].astype(object).where(frame[column].notna(), np.nan),
                             errors="coerce").to_numpy(dtype="float64", na_value=np.nan)

    out = {c: numbers(c) for c in ["person_id", *_KEY]}
    person = out["person_id"]
    whole = [(v >= 1) & (v % 1 == 0) for v in (out["tournament_id"], out["player_id"])]
    bad = ~(whole[0] & whole[1] & (np.isnan(person) | ((person >= 1) & (person % 1 == 0))))
    if bad.any():
        raise TournamentError(_("Row {row} of the players to link: tournament, player and "
                                "person are whole numbers from 1.").format(
            row=int(bad.argmax()) + 1))
    return pd.DataFrame({"person_id": pd.array(person, dtype="Int64"),
                         "tournament_id": out["tournament_id"].astype("int64"),
                         "player_id": out["player_id"].astype("int64")})


def link_players(engine: Engine, rows: Iterable[Mapping] | pd.DataFrame, *,
                 actor: Actor) -> pd.DataFrame:
    """R27: add tournament players to the directory, all or none: `rows` of `tournament_id,
    player_id, person_id` (as `stsa.directory.assign_people` gives them; a blank person_id is
    a new person, numbered here above every person id, in the rows' order: the safe way to
    add new people while others link too). Refused (`TournamentError`, nothing written) when
    a tournament is not on the list, a player is already linked or listed twice, or a person
    would have two players in one tournament. Organizer only; logged. Returns the rows added
    (`person_id, tournament_id, player_id`)."""
    require(actor, Role.ORGANIZER, action=N_("link players across tournaments"))
    new = _new_rows(rows)

    def work(conn: Connection) -> pd.DataFrame:
        known = _held(conn)
        unlisted = sorted(set(new["tournament_id"]) - _listed(conn))
        if unlisted:
            raise NotFound(_("There is no tournament {tournament} on the list.").format(
                tournament=unlisted[0]))
        fresh = new["person_id"].isna().to_numpy()
        start = int(known["person_id"].max()) + 1 if len(known) else 1
        start = max(start, int(new["person_id"].max()) + 1 if (~fresh).any() else start)
        added = new.assign(person_id=new["person_id"].mask(
            new["person_id"].isna(), pd.Series(range(start, start + fresh.sum()),
                                               index=new.index[fresh], dtype="Int64"))
            .astype("int64"))[list(DIRECTORY_COLUMNS)]
        twice = added[added.duplicated(_KEY)]
        linked = added.merge(known[_KEY], on=_KEY)
        together = pd.concat([known, added]).loc[lambda f: f.duplicated(
            ["person_id", "tournament_id"], keep=False)].drop_duplicates(
            ["person_id", "tournament_id"])
        where = _("tournament {tournament}")
        problems = [
            *(Problem(where.format(tournament=t), _("Player {player} of tournament {tournament} "
                                                    "is listed twice.").format(
                player=p, tournament=t)) for t, p in twice[_KEY].to_numpy().tolist()),
            *(Problem(where.format(tournament=t), _("Player {player} of tournament {tournament} "
                                                    "is already in the player directory.")
                      .format(player=p, tournament=t))
              for t, p in linked[_KEY].to_numpy().tolist()),
            *(Problem(where.format(tournament=t), _("Person {person} would have two players in "
                                                    "tournament {tournament}: a person plays a "
                                                    "tournament once.").format(
                person=person, tournament=t))
              for person, t in together[["person_id", "tournament_id"]].to_numpy().tolist()),
        ]
        if problems:
            raise TournamentError(_("{problems} Nothing was linked.").format(
                problems=" ".join(p.what for p in problems[:5])), problems)
        if added.empty:
            return added
        conn.execute(sa.insert(d), added.to_dict("records"))
        audit.log(conn, actor, Action.DIRECTORY_LINK, "directory",
                  after={"links": added.to_numpy().tolist(),
                         "columns": list(DIRECTORY_COLUMNS)})
        return added.reset_index(drop=True)

    return db.write(db.installation(engine), work)


def _rewrite(conn: Connection, before: pd.DataFrame, after: pd.DataFrame) -> pd.DataFrame:
    """Write the rows whose person changed; returns them (`person_id` the new one)."""
    changed = after.loc[after["person_id"].to_numpy() != before["person_id"].to_numpy(),
                        list(DIRECTORY_COLUMNS)]
    for person, group in changed.groupby("person_id"):
        conn.execute(sa.update(d).where(sa.tuple_(d.c.tournament_id, d.c.player_id).in_(
            [tuple(k) for k in group[_KEY].to_numpy().tolist()])).values(person_id=int(person)))
    return changed


def merge_people(engine: Engine, keep: int, other: int, *, actor: Actor,
                 nicknames: pd.DataFrame | None = None) -> int:
    """R27: person `other`'s tournament players become person `keep`'s
    (`stsa.directory.merge_people`: refused when the two are one, either is unknown, or both
    played one tournament). `nicknames` (`tournament_id, player_id, nickname`) lets the refusal
    name the players; without, they read "player 12". Organizer only; logged. Returns how
    many tournament players moved."""
    require(actor, Role.ORGANIZER, action=N_("merge players across tournaments"))

    def work(conn: Connection) -> int:
        known = _held(conn)
        merged = rules.merge_people(_links(known, nicknames), int(keep), int(other))
        moved = _rewrite(conn, known, merged)
        audit.log(conn, actor, Action.DIRECTORY_MERGE, f"person {int(keep)}",
                  before={"person_id": int(other), "players": moved[_KEY].to_numpy().tolist()},
                  after={"person_id": int(keep)})
        return len(moved)

    return db.write(db.installation(engine), work)


def split_player(engine: Engine, tournament_id: int, player_id: int, *, actor: Actor) -> int:
    """R27: tournament `tournament_id`'s player `player_id` taken out of its person into a new
    person of its own (`stsa.directory.split_player`); unchanged, and not logged, when it is
    alone already. Organizer only; logged. Returns the player's person id (the new one)."""
    require(actor, Role.ORGANIZER, action=N_("split players across tournaments"))

    def work(conn: Connection) -> int:
        known = _held(conn)
        split = rules.split_player(_links(known, None), int(tournament_id), int(player_id))
        this = (split["tournament_id"] == int(tournament_id)) \
            & (split["player_id"] == int(player_id))
        person = int(split.loc[this, "person_id"].iloc[0])
        was = int(known.loc[this.to_numpy(), "person_id"].iloc[0])
        if person != was:
            _rewrite(conn, known, split)
            audit.log(conn, actor, Action.DIRECTORY_SPLIT,
                      f"tournament {int(tournament_id)} player {int(player_id)}",
                      before={"person_id": was}, after={"person_id": person})
        return person

    return db.write(db.installation(engine), work)
