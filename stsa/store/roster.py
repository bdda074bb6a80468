"""Players: add, import, edit, withdraw or remove, check in; absences for the finals (R17).

R21: a player imported from a registration file is pre-registered (`registration_order` 1, 2,
…); a player added on the day is a drop-in (no registration order). Checking in records the
time (`checked_in_at`), checking out clears it."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any

import pandas as pd
import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from stsa.auth import Actor, can_see_hidden, require
from stsa.domain import Action, PlayerStatus, Role, TournamentError, normalize_name
from stsa.i18n import N_, _
from stsa.store import audit, checks, db, frames
from stsa.store.errors import DuplicateName, InvalidState, NotFound
from stsa.store.schema import absences as absences_t
from stsa.store.schema import players as players_t
from stsa.store.schema import results as results_t
from stsa.store.schema import seats as seats_t
from stsa.store.schema import sit_outs as sit_outs_t
from stsa.store.schema import waiting as waiting_t

NAME_MAX = 100
NICKNAME_MAX = 100
CLUB_MAX = 100
EMAIL_MAX = 254
STAGES = ("finals",)
PLAYER_COLUMNS = {"player_id": "int64", "name": "str", "nickname": "str", "club": "str",
                  "email": "str",
                  "extra": "object", "status": "str", "checked_in": "bool",
                  "created_at": frames.UTC_TIME, "registration_order": "Int64",
                  "checked_in_at": frames.UTC_TIME}


# `normalize_name` (imported above) lives in stsa.domain, so the pure player directory (R27)
# shares it; `store.normalize_name` and `roster.normalize_name` stay for their callers.

# The names `stsa.services.restore` imports; the checks themselves live in `checks`.
_text = checks.text
_extra = checks.extra_details


def _row_dict(row) -> dict:
    m = row._mapping
    return {"player_id": m["id"], "name": m["name"], "nickname": m["nickname"] or m["name"],
            "club": m["club"], "email": m["email"],
            "extra": frames.loads(m["extra"]), "status": m["status"],
            "checked_in": bool(m["checked_in"]), "created_at": m["created_at"],
            "registration_order": m["registration_order"], "checked_in_at": m["checked_in_at"]}


def _get(conn: Connection, player_id: int):
    return db.lock_row(conn, players_t, int(player_id), "player")


def _taken(conn: Connection, key: str, but: int | None = None, *, column: str = "name_key"):
    q = (sa.select(players_t.c.id, players_t.c.name, players_t.c.nickname)
         .where(players_t.c[column] == key))
    if but is not None:
        q = q.where(players_t.c.id != but)
    return conn.execute(q).first()


def add_player(engine: Engine, name: str, *, nickname: str = "", club: str = "",
               email: str = "", extra: dict | None = None, actor: Actor) -> dict:
    """Add one player (organizer only, R20), a drop-in (R21); returns the stored player.
    Logged (R19).

    Names are unique ignoring case and spaces: a second "ann  lee" raises `DuplicateName`.
    R22: the nickname (the player's name in public) is unique the same way; blank, it is the
    name.
    """
    require(actor, Role.ORGANIZER, action=N_("change the roster"))
    return _add(engine, [{"name": name, "nickname": nickname, "club": club, "email": email,
                          "extra": extra}], actor, [_("the new player")])[0]


def import_players(engine: Engine, roster, *, actor: Actor,
                   labels: list[str] | None = None,
                   pre_registered: bool = False) -> pd.DataFrame:
    """Add every player of `roster` (a frame or records with `name`, optional `nickname` (R22:
    blank = the name), `club`, `email`; other columns are kept as extra details) in one
    transaction: all or none (R19, R20).

    Every bad or duplicate entry is named in one `TournamentError`/`DuplicateName`, by its
    label in `labels` (how the organizer knows it: "line 4" of a pasted list), else as
    "entry N". R21: with `pre_registered` the players are pre-registered in the order given,
    after any already on the roster; otherwise they are drop-ins. Returns the new players as a
    `players` frame.
    """
    require(actor, Role.ORGANIZER, action=N_("change the roster"))
    records = (roster.to_dict("records") if isinstance(roster, pd.DataFrame) else list(roster))
    return _frame(_add(engine, records, actor, labels, pre_registered))


def _label(labels: list[str] | None, i: int) -> str:
    return (labels[i - 1] if labels and 0 < i <= len(labels)
            else _("entry {number}").format(number=i))


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _entry(rec: Any, label: str) -> dict:
    """One roster entry as the store keeps it; other columns become extra details (R19)."""
    where = _capital(label)
    if not isinstance(rec, dict):
        raise TournamentError(_("{entry}: expected a mapping with a name.").format(entry=where))
    name = checks.text(rec.get("name"), "name", NAME_MAX, where, required=True)
    where = _("{entry} ({player})").format(entry=where, player=name)
    extra = dict(rec["extra"]) if isinstance(rec.get("extra"), dict) else {}
    extra.update({str(k): v for k, v in rec.items()
                  if k not in ("name", "nickname", "club", "email", "extra", "player_id")})
    nickname = checks.text(rec.get("nickname"), "nickname", NICKNAME_MAX, where) or name
    return {"name": name, "name_key": normalize_name(name),
            "nickname": nickname, "nickname_key": normalize_name(nickname),  # R22
            "club": checks.text(rec.get("club"), "club", CLUB_MAX, where),
            "email": checks.text(rec.get("email"), "email", EMAIL_MAX, where),
            "extra": checks.extra_details(extra, where)}


def _entries(records: list[dict], labels: list[str] | None) -> list[tuple[str, dict]]:
    """Every entry checked, no name or nickname twice (R22); one error names every problem by
    its label (R19)."""
    clean, problems = [], []
    seen: dict[str, str] = {}
    seen_nick: dict[str, str] = {}
    for i, rec in enumerate(records, start=1):
        label = _label(labels, i)
        try:
            item = _entry(rec, label)
        except TournamentError as exc:
            problems.append(str(exc))
            continue
        if item["name_key"] in seen:
            problems.append(_("{entry} ({player}): the same name as {other}.").format(
                entry=_capital(label), player=item["name"], other=seen[item["name_key"]]))
            continue
        if item["nickname_key"] in seen_nick:
            problems.append(_("{entry} ({player}): the same nickname ({nickname}) as "
                              "{other}.").format(entry=_capital(label), player=item["name"],
                                                 nickname=item["nickname"],
                                                 other=seen_nick[item["nickname_key"]]))
            continue
        seen[item["name_key"]], seen_nick[item["nickname_key"]] = label, label
        clean.append((label, item))
    if problems:
        raise TournamentError(_("Nothing was added. {problems}").format(
            problems=" ".join(problems)))
    if not clean:
        raise TournamentError(_("Nothing was added: the roster is empty."))
    return clean


def _existing(conn: Connection, column: str, keys: list[str]) -> dict[str, Any]:
    """{key: stored player} of the players whose `column` (`name_key`, `nickname_key`) is one
    of `keys`."""
    key_col, found = players_t.c[column], {}
    for start in range(0, len(keys), 500):
        found.update({r[0]: r for r in conn.execute(
            sa.select(key_col, players_t.c.name, players_t.c.nickname)
            .where(key_col.in_(keys[start:start + 500])))})
    return found


def _check_not_taken(conn: Connection, clean: list[tuple[str, dict]]) -> None:
    """No entry repeats a stored player's name, nor a stored nickname (R22)."""
    names = _existing(conn, "name_key", [c["name_key"] for _label, c in clean])
    nicks = _existing(conn, "nickname_key", [c["nickname_key"] for _label, c in clean])
    dupes = [_("{entry} ({player}) is already on the roster as {existing}").format(
                 entry=label, player=c["name"], existing=repr(names[c["name_key"]].name))
             if c["name_key"] in names else
             _("{entry} ({player}): the nickname {nickname} is already {other}'s").format(
                 entry=label, player=c["name"], nickname=repr(c["nickname"]),
                 other=nicks[c["nickname_key"]].name)
             for label, c in clean if c["name_key"] in names or c["nickname_key"] in nicks]
    if dupes:
        raise DuplicateName(_("Nothing was added: {problems}.").format(problems="; ".join(dupes)))


def _add(engine: Engine, records: list[dict], actor: Actor,
         labels: list[str] | None = None, pre_registered: bool = False) -> list[dict]:
    clean = _entries(records, labels)
    return db.write(engine, lambda conn: insert_players(conn, clean, actor, pre_registered))


def insert_players(conn: Connection, clean: list[tuple[str, dict]], actor: Actor,
                   pre_registered: bool = False) -> list[dict]:
    """Add the checked entries `clean` (`_entries`) within the caller's transaction (a booking
    list adds its new players with the list, R25); logged. Returns the new players' rows."""
    _check_not_taken(conn, clean)
    at = db.now()
    new = {"status": PlayerStatus.ACTIVE.value, "checked_in": False, "checked_in_at": None}
    last = (conn.execute(sa.select(sa.func.max(players_t.c.registration_order))).scalar()
            or 0) if pre_registered else None
    rows = [{**c, "extra": frames.dumps(c["extra"]), **new, "created_by": actor.name,
             "created_at": at, "registration_order": None if last is None else last + i}
            for i, (_label, c) in enumerate(clean, start=1)]
    ids = list(conn.execute(
        sa.insert(players_t).returning(players_t.c.id, sort_by_parameter_order=True),
        rows).scalars())
    added = [{"player_id": pid, "name": r["name"], "nickname": r["nickname"],
              "club": r["club"]}
             | ({"registration_order": r["registration_order"]} if pre_registered else {})
             for pid, r in zip(ids, rows)]
    audit.log(conn, actor, Action.PLAYERS_ADD,
              f"player {ids[0]}" if len(ids) == 1 else "players",
              after=added, at=at)
    return [{"player_id": pid, "name": r["name"], "nickname": r["nickname"],
             "club": r["club"], "email": r["email"],
             "extra": frames.loads(r["extra"]), **new, "created_at": at,
             "registration_order": r["registration_order"]} for pid, r in zip(ids, rows)]


def edit_player(engine: Engine, player_id: int, *, actor: Actor, name: str | None = None,
                nickname: str | None = None, club: str | None = None,
                email: str | None = None, extra: dict | None = None) -> dict:
    """Change a player's name, nickname, club, email or extra details (organizer, R20); logged
    with the old and new values (R19). Returns the stored player.

    R22: a nickname is unique like a name (`DuplicateName`); a blank one is the name, and one
    that is still the name (and left as it is) follows a new name."""
    require(actor, Role.ORGANIZER, action=N_("change the roster"))
    where = _("Player {player}").format(player=player_id)
    changes: dict[str, Any] = {}
    if name is not None:
        changes["name"] = checks.text(name, "name", NAME_MAX, where, required=True)
        changes["name_key"] = normalize_name(changes["name"])
    if nickname is not None:
        changes["nickname"] = checks.text(nickname, "nickname", NICKNAME_MAX, where)
    if club is not None:
        changes["club"] = checks.text(club, "club", CLUB_MAX, where)
    if email is not None:
        changes["email"] = checks.text(email, "email", EMAIL_MAX, where)
    if extra is not None:
        changes["extra"] = frames.dumps(checks.extra_details(extra, where))

    def work(conn: Connection) -> dict:
        old = _row_dict(_get(conn, player_id))
        values = dict(changes)
        kept = values.get("nickname", old["nickname"]) == old["nickname"] == old["name"]
        if values.get("nickname") == "" or ("name" in values and kept):
            values["nickname"] = values.get("name", old["name"])  # blank: the name (R22)
        if "nickname" in values:
            values["nickname_key"] = normalize_name(values["nickname"])
        if "name_key" in values:
            other = _taken(conn, values["name_key"], but=old["player_id"])
            if other is not None:
                raise DuplicateName(_("{name} is already on the roster (player {number}, "
                                      "{existing}).").format(name=repr(values["name"]),
                                                             number=other.id,
                                                             existing=repr(other.name)))
        if "nickname_key" in values:
            other = _taken(conn, values["nickname_key"], but=old["player_id"],
                           column="nickname_key")
            if other is not None:
                raise DuplicateName(_("The nickname {nickname} is already {player}'s (player "
                                      "{number}).").format(nickname=repr(values["nickname"]),
                                                           player=other.name, number=other.id))
        if values:
            conn.execute(sa.update(players_t).where(players_t.c.id == old["player_id"])
                         .values(**values))
        new = _row_dict(_get(conn, player_id))
        before = {k: old[k] for k in ("name", "nickname", "club", "email", "extra")
                  if old[k] != new[k]}
        if before:
            audit.log(conn, actor, Action.PLAYER_EDIT, f"player {player_id}", before=before,
                   after={k: new[k] for k in before})
        return new

    return db.write(engine, work)


def _has_history(conn: Connection, player_id: int) -> str | None:
    """Why a player cannot be deleted (seated, sat out, waited or has results), as a message
    with the field `{player}`, or None."""
    for table, what in ((results_t, _("{player} has results and cannot be deleted (nothing "
                                      "is ever erased); withdraw the player instead.")),
                        (seats_t, _("{player} has a seat in a draw and cannot be deleted "
                                    "(nothing is ever erased); withdraw the player instead.")),
                        (sit_outs_t, _("{player} has a recorded sit-out and cannot be deleted "
                                       "(nothing is ever erased); withdraw the player "
                                       "instead.")),
                        (waiting_t, _("{player} has a place on a sitting's waiting list and "
                                      "cannot be deleted (nothing is ever erased); withdraw "
                                      "the player instead."))):
        hit = conn.execute(sa.select(sa.literal(1)).select_from(table)
                           .where(table.c.player_id == player_id).limit(1)).first()
        if hit is not None:
            return what
    return None


def remove_player(engine: Engine, player_id: int, *, actor: Actor) -> dict:
    """Delete a player who was never drawn (organizer, R20). R19: a player with results or a
    seat cannot be deleted, only withdrawn (`InvalidState` says so). Logged."""
    require(actor, Role.ORGANIZER, action=N_("change the roster"))

    def work(conn: Connection) -> dict:
        old = _row_dict(_get(conn, player_id))
        why = _has_history(conn, old["player_id"])
        if why:
            raise InvalidState(why.format(player=old["name"]))
        conn.execute(sa.delete(absences_t).where(absences_t.c.player_id == old["player_id"]))
        conn.execute(sa.delete(players_t).where(players_t.c.id == old["player_id"]))
        audit.log(conn, actor, Action.PLAYER_REMOVE, f"player {player_id}", before=old)
        return old

    return db.write(engine, work)


def withdraw_player(engine: Engine, player_id: int, *, actor: Actor,
                    withdrawn: bool = True) -> dict:
    """Withdraw a player (or reinstate with `withdrawn=False`): results stay (R19); a withdrawn
    player is not checked in and is not drawn again. Organizer only (R20); logged."""
    require(actor, Role.ORGANIZER, action=N_("change the roster"))
    status = (PlayerStatus.WITHDRAWN if withdrawn else PlayerStatus.ACTIVE).value

    def work(conn: Connection) -> dict:
        old = _row_dict(_get(conn, player_id))
        if old["status"] != status:
            values = {"status": status} | ({"checked_in": False, "checked_in_at": None}
                                           if withdrawn else {})
            conn.execute(sa.update(players_t).where(players_t.c.id == old["player_id"])
                         .values(**values))
            audit.log(conn, actor, Action.PLAYER_WITHDRAW if withdrawn else Action.PLAYER_REINSTATE,
                   f"player {player_id}", before={"status": old["status"]},
                   after={"status": status})
        return _row_dict(_get(conn, player_id))

    return db.write(engine, work)


def check_in(engine: Engine, player_ids: Iterable[int], *, checked_in: bool = True,
             again_before: dt.datetime | None = None, actor: Actor) -> int:
    """Check players in for the next sitting (or out, `checked_in=False`); organizer only (R2,
    R20). Withdrawn players cannot be checked in. R21: checking in records the time (drop-ins
    take seats in check-in order), checking out clears it. With `again_before` (when the last
    qualifier played was drawn), a listed player still checked in from before then is checked
    in again now, for this sitting (logged with the others). Returns how many were not checked
    in (or out) before; logged."""
    require(actor, Role.ORGANIZER, action=N_("check players in"))
    ids = sorted({int(p) for p in player_ids})
    return db.write(engine, lambda conn: _check_in(conn, ids, checked_in, actor, again_before))


def set_check_ins(engine: Engine, player_ids: Iterable[int], *,
                  again_before: dt.datetime | None = None, actor: Actor) -> tuple[int, int]:
    """Exactly `player_ids` checked in for the next sitting (R2): they are checked in, everyone
    else out, in one transaction (a refusal changes nothing); `again_before` as `check_in`
    takes it. Organizer only (R20); logged as `check_in` logs. Returns how many were checked
    in (not checked in before) and how many out."""
    require(actor, Role.ORGANIZER, action=N_("check players in"))
    ids = sorted({int(p) for p in player_ids})

    def work(conn: Connection) -> tuple[int, int]:
        others = sorted(set(conn.execute(sa.select(players_t.c.id)
                                         .where(players_t.c.checked_in == sa.true())).scalars())
                        - set(ids))
        checked_in = _check_in(conn, ids, True, actor, again_before)
        return checked_in, _check_in(conn, others, False, actor)

    return db.write(engine, work)


def _check_in(conn: Connection, ids: list[int], checked_in: bool, actor: Actor,
              again_before: dt.datetime | None = None) -> int:
    found = {r.id: r for r in conn.execute(
        sa.select(players_t.c.id, players_t.c.name, players_t.c.status, players_t.c.checked_in,
                  players_t.c.checked_in_at).where(players_t.c.id.in_(ids)).with_for_update())}
    missing = [i for i in ids if i not in found]
    if missing:
        raise NotFound(_("No player with id {ids}.").format(ids=", ".join(map(str, missing))))
    if checked_in:
        gone = [found[i].name for i in ids if found[i].status == PlayerStatus.WITHDRAWN]
        if gone:
            raise InvalidState(_("Withdrawn players cannot be checked in: {players}.").format(
                players=", ".join(gone)))
    change = [i for i in ids if bool(found[i].checked_in) != checked_in]
    # a player still checked in from before the last draw, listed again: this sitting's now
    again = [i for i in ids if checked_in and again_before is not None and found[i].checked_in
             and (found[i].checked_in_at is None or found[i].checked_in_at < again_before)]
    if change or again:
        at = db.now()
        conn.execute(sa.update(players_t).where(players_t.c.id.in_(change + again))
                     .values(checked_in=checked_in, checked_in_at=at if checked_in else None,
                             self_check_in=False))
        action = Action.PLAYERS_CHECK_IN if checked_in else Action.PLAYERS_CHECK_OUT
        audit.log(conn, actor, action, "players", after={"player_ids": sorted(change + again)},
                  at=at)
    return len(change)


def clear_check_ins(engine: Engine, *, actor: Actor) -> int:
    """Check everyone out before checking in the next sitting (R2); organizer only (R20).
    Logged (R19)."""
    require(actor, Role.ORGANIZER, action=N_("check players in"))

    def work(conn: Connection) -> int:
        ids = list(conn.execute(sa.select(players_t.c.id)
                                .where(players_t.c.checked_in == sa.true())).scalars())
        if ids:
            conn.execute(sa.update(players_t).where(players_t.c.id.in_(ids))
                         .values(checked_in=False, checked_in_at=None, self_check_in=False))
            audit.log(conn, actor, Action.PLAYERS_CHECK_OUT, "players", after={"player_ids": ids})
        return len(ids)

    return db.write(engine, work)


def _public(row: dict) -> dict:
    """A player as spectators see them (R20, R22): the nickname as the name; no club, email or
    extra details."""
    return {**row, "name": row["nickname"], "club": "", "email": "", "extra": {}}


def _frame(rows: list[dict]) -> pd.DataFrame:
    return frames.frame(rows, PLAYER_COLUMNS)


def players(engine: Engine, *, actor: Actor | None = None,
            status: str | None = None) -> pd.DataFrame:
    """The roster: `player_id, name, nickname, club, email, extra, status, checked_in,
    created_at, registration_order` (R21: NA for a drop-in), `checked_in_at`, by id.

    R20, R22: unless `actor` is a judge or the organizer, `name` is the nickname and clubs,
    emails and extra details are blank. `status` ("active" or "withdrawn") filters.
    """
    q = sa.select(players_t).order_by(players_t.c.id)
    if status is not None:
        q = q.where(players_t.c.status == status)
    with db.reading(engine) as conn:
        rows = [_row_dict(r) for r in conn.execute(q)]
    if not can_see_hidden(actor):
        rows = [_public(r) for r in rows]
    return _frame(rows)


def player(engine: Engine, player_id: int, *, actor: Actor | None = None) -> dict:
    """One player as a dict (as a row of `players`); `NotFound` if there is none. R20, R22:
    the real name, club and contact details only for judges and the organizer."""
    with db.reading(engine) as conn:
        row = conn.execute(sa.select(players_t).where(players_t.c.id == int(player_id))).first()
    if row is None:
        raise NotFound(_("There is no player with id {ids}.").format(ids=player_id))
    out = _row_dict(row)
    return out if can_see_hidden(actor) else _public(out)


def mark_absent(engine: Engine, player_id: int, present: bool = False, *, actor: Actor,
                stage: str = "finals") -> bool:
    """R17: record that a player is absent for the finals (or present again, `present=True`).

    Organizer only (R20); logged (R19). Returns True if anything changed.
    """
    require(actor, Role.ORGANIZER, action=N_("mark absences"))
    if stage not in STAGES:
        raise TournamentError(_("Unknown stage {stage}; absences are for {stages}.").format(
            stage=repr(stage), stages=", ".join(STAGES)))

    def work(conn: Connection) -> bool:
        p = _row_dict(_get(conn, player_id))
        key = (absences_t.c.stage == stage) & (absences_t.c.player_id == p["player_id"])
        was_absent = conn.execute(sa.select(absences_t.c.player_id).where(key)).first() is not None
        if was_absent == (not present):
            return False
        if present:
            conn.execute(sa.delete(absences_t).where(key))
        else:
            conn.execute(sa.insert(absences_t).values(stage=stage, player_id=p["player_id"],
                                                      marked_by=actor.name, marked_at=db.now()))
        audit.log(conn, actor, Action.PLAYER_PRESENT if present else Action.PLAYER_ABSENT,
               f"player {player_id}", before={"absent": was_absent, "stage": stage},
               after={"absent": not present, "stage": stage})
        return True

    return db.write(engine, work)


def absences(engine: Engine, stage: str = "finals") -> pd.DataFrame:
    """R17: players marked absent: `player_id, name, stage, marked_by, marked_at`."""
    q = (sa.select(absences_t.c.player_id, players_t.c.name, absences_t.c.stage,
                   absences_t.c.marked_by, absences_t.c.marked_at)
         .join(players_t, players_t.c.id == absences_t.c.player_id)
         .where(absences_t.c.stage == stage).order_by(absences_t.c.player_id))
    with db.reading(engine) as conn:
        return frames.query_frame(conn, q, {"player_id": "int64", "name": "str", "stage": "str",
                                        "marked_by": "str", "marked_at": frames.UTC_TIME})
