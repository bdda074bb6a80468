"""The read-only data feed (`/api/v1/…`): what a club's website, a stream overlay or a script
may read of the tournaments, shaped from the same public frames the spectators' pages show.

Privacy is an allow-list (R20, R22): every answer is built from frames in the public view
(nicknames under `name`; no club, e-mail, removed leader, vote or unpublished draw exists in
them), and `check(endpoint, payload)` refuses any field outside `FIELDS[endpoint]` before a
byte is sent. A field is named by its path: `tables[].seats[].player`.

Field names and machine values (keys, statuses, colours) stay English, a stable API; the
words meant for people (a sitting's name, the cut, zones, schedule titles) are in the language
the answer is made in (`stsa.web.feed` makes each inside `i18n.language(...)`).

No Streamlit here: `stsa.web.feed` serves these over HTTP and keeps each answer once per data
version and language (with its ETag) on the pages' shared shelf.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import numpy as np
import pandas as pd

from stsa import i18n
from stsa.domain import Kind, SittingStatus
from stsa.i18n import N_, _
from stsa.services import player

VERSION = "v1"
PREFIX = f"/api/{VERSION}"

# Every field each endpoint may send, by path; nothing else ever leaves (R20, R22).
FIELDS: dict[str, frozenset[str]] = {
    "tournaments": frozenset({
        "tournaments[].key", "tournaments[].name", "tournaments[].venue",
        "tournaments[].first_day", "tournaments[].last_day", "tournaments[].current",
        "tournaments[].archived", "tournaments[].players", "tournaments[].champion",
        "tournaments[].season", "tournaments[].demo", "tournaments[].links.standings",
        "tournaments[].links.sittings", "tournaments[].links.schedule",
        "tournaments[].links.finals"}),
    "tournament": frozenset({
        "key", "name", "venue", "first_day", "last_day", "time_zone", "archived", "players",
        "checked_in", "current_sitting", "missing_tables", "podium[].place",
        "podium[].player"}),
    "schedule": frozenset({
        "tournament", "time_zone", "items[].starts_at", "items[].ends_at", "items[].day",
        "items[].starts", "items[].ends", "items[].title", "items[].minutes",
        "items[].sitting"}),
    "sittings": frozenset({
        "tournament", "sittings[].sitting", "sittings[].kind", "sittings[].number",
        "sittings[].status", "sittings[].tables", "sittings[].results_in",
        "sittings[].rule_change"}),
    "sitting": frozenset({
        "tournament", "sitting", "kind", "number", "status", "rule_change",
        "tables[].table", "tables[].setup", "tables[].reported",
        "tables[].seats[].seat", "tables[].seats[].player", "tables[].seats[].colour",
        "tables[].seats[].first_player", "tables[].seats[].leader",
        "tables[].seats[].placing", "tables[].seats[].vp", "tables[].seats[].score",
        "tables[].seats[].tied"}),
    "results": frozenset({
        "tournament", "sitting", "results[].table", "results[].placing",
        "results[].player", "results[].leader", "results[].vp", "results[].score",
        "results[].seat", "results[].tied"}),
    "standings": frozenset({
        "tournament", "cut", "standings[].rank", "standings[].qualifier_rank",
        "standings[].player", "standings[].best_score", "standings[].zone",
        "standings[].games", "standings[].wins", "standings[].placing", "standings[].vp",
        "standings[].tie_at_cut"}),
    "finals": frozenset({
        "tournament", "format.direct", "format.semifinal", "format.semifinal_tables",
        "format.advance", "players[].player", "players[].status", "players[].wildcard",
        "players[].final_rank"}),
    "seasons": frozenset({
        "seasons[].season", "seasons[].name", "seasons[].points", "seasons[].tournaments"}),
    "season": frozenset({
        "season", "name", "points", "tournaments", "standings[].rank",
        "standings[].player", "standings[].best_score", "standings[].best_tournament",
        "standings[].tournaments", "standings[].best_final_rank", "standings[].points",
        "standings[].games", "standings[].wins"}),
    # stream overlays (`stsa.web.feed`): what a filmed table, the standings or the schedule show
    "overlay": frozenset({
        "kind", "label", "tournament", "sitting", "table", "setup", "reported",
        "seats[].seat", "seats[].player", "seats[].colour", "seats[].first_player",
        "seats[].leader", "seats[].placing", "seats[].vp", "seats[].score", "seats[].tied",
        "clock.status", "clock.deadline_ms", "clock.left_ms", "clock.added_minutes",
        "cut", "standings[].rank", "standings[].player", "standings[].best_score",
        "standings[].zone", "standings[].below_cut", "more",
        "items[].title", "items[].day", "items[].starts", "items[].ends",
        "items[].starts_at"}),
    # the live elements of the spectators' pages (`stsa.ui.live_answers`): what each page
    # shows, polled by its element in the browser
    "live_standings": frozenset({
        "tournament", "podium", "cut", "legend", "progress", "tie_at_cut", "columns",
        "standings[].rank", "standings[].qualifier_rank", "standings[].player",
        "standings[].best_score", "standings[].zone", "standings[].games", "standings[].wins",
        "standings[].placing", "standings[].vp", "standings[].tie_at_cut"}),
    "live_cards": frozenset({
        "tournament", "players[].player", "players[].line", "players[].said",
        "players[].games[].sitting", "players[].games[].table", "players[].games[].placing",
        "players[].games[].vp", "players[].games[].score"}),
    "live_home": frozenset({
        "tournament", "champion", "podium", "players", "checked_in", "sitting",
        "sitting_line", "missing", "next_step", "clock.status", "clock.deadline_ms",
        "clock.left_ms", "clock.words", "clock.label", "clock.caption",
        *(f"coming[].{f}" for f in ("starts_at", "date", "today", "later"))}),
    "live_schedule": frozenset({
        "tournament", "time_zone", "zone_note", "items[].starts_at", "items[].ends_at",
        "items[].day", "items[].starts", "items[].ends", "items[].title", "items[].minutes",
        "items[].sitting",
        *(f"coming[].{f}" for f in ("starts_at", "date", "today", "later"))}),
}
# Words that must never be a field of any answer, whatever an allow-list says (tested).
NEVER = ("name_key", "email", "club", "real", "removed", "vote", "pin", "session", "extra",
         "available", "pick_order", "draft", "saved_by")


class Refused(ValueError):
    """An answer holding a field its allow-list does not name: a bug, never sent."""


def paths(payload: Any, prefix: str = "") -> set[str]:
    """Every field path in `payload` (`a.b`, lists as `a[].b`), as `FIELDS` names them."""
    return _paths([payload], prefix)


def _paths(values: list, path: str) -> set[str]:
    """The field paths under `path` of all the `values` found there (the rows of a list
    looked at together: an answer of 2,000 players is walked key by key, not row by row)."""
    maps: list[Mapping] = []
    items: list = []
    for value in values:  # answers are plain JSON: dicts, lists and scalars
        if isinstance(value, dict):
            maps.append(value)
        elif isinstance(value, list):
            items.extend(value)
    found: set[str] = set()
    if maps:
        by_key: dict[Any, list] = {}
        for row in maps:
            for key, value in row.items():
                by_key.setdefault(key, []).append(value)
        for key, inner_values in by_key.items():
            inner_path = f"{path}.{key}" if path else str(key)
            inner = _paths(inner_values, inner_path)
            # a row with nothing under the key (null, an empty list) names the key itself
            found |= inner | {inner_path} if not inner or any(map(_bare, inner_values)) \
                else inner
    if items:
        found |= _paths(items, f"{path}[]")
    return found


def _bare(value: Any) -> bool:
    """Whether `value` holds no field of its own (a scalar, null, an empty object, a list of
    such)."""
    if isinstance(value, dict):
        return not value
    if isinstance(value, list):
        return all(map(_bare, value))
    return True


def check(endpoint: str, payload: dict[str, Any]) -> dict[str, Any]:
    """`payload` when every field it holds is on `endpoint`'s allow-list; else `Refused`."""
    allowed = FIELDS[endpoint]
    # an empty list or a null object stands where its allowed fields would be
    extra = sorted(p for p in paths(payload) if p not in allowed
                   and not any(f.startswith((f"{p}[]", f"{p}.")) for f in allowed))
    if extra:
        raise Refused(_("The {endpoint} answer would send fields outside its list: "
                        "{fields}.").format(endpoint=endpoint, fields=", ".join(extra)))
    return payload


def _plain(value: Any) -> Any:
    """A JSON value: numpy and pandas scalars as Python ones, NA and NaN as null."""
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if value is None or value is pd.NA or value is pd.NaT:
        return None
    if isinstance(value, float) and np.isnan(value):
        return None
    if isinstance(value, np.generic):
        return _plain(value.item())
    if isinstance(value, pd.Timestamp):
        return value.isoformat()
    return value


def records(frame: pd.DataFrame, columns: Mapping[str, str]) -> list[dict[str, Any]]:
    """`frame`'s rows as JSON records, `columns` mapping each frame column to its field."""
    part = frame[list(columns)].rename(columns=dict(columns))
    return [{k: _plain(v) for k, v in row.items()}
            for row in part.astype(object).to_dict("records")]


# `domain.sitting_label`'s English in a shared frame ("Qualifier 2": a schedule's title) is
# read back by it (`i18n.cell`)
QUALIFIER = i18n.template(N_("Qualifier {number}"))


def sitting_words(kind: str, number: int) -> str:
    """A sitting as people name it, in this run's language: "Qualifier 2", "Semifinal",
    "Final" (`domain.sitting_label`'s English)."""
    if kind == Kind.QUALIFIER:
        return _(QUALIFIER).format(number=int(number))
    return _("Semifinal") if kind == Kind.SEMIFINAL else _("Final")


def words(value: Any) -> Any:
    """One value of a shared English frame (a zone, a title, the cut) in this run's language
    (`i18n.cell`); None and non-words as they are."""
    return i18n.cell(value)


def tournament_links(key: str) -> dict[str, str]:
    base = f"{PREFIX}/tournaments/{key}"
    return {"standings": f"{base}/standings", "sittings": f"{base}/sittings",
            "schedule": f"{base}/schedule", "finals": f"{base}/finals"}


def tournaments(listing: pd.DataFrame, season_names: Mapping[int, str]) -> dict:
    """Every tournament (`services.tournaments.listing`), current ones first: key, name,
    venue, days, state (the demo says so), players, the champion's nickname, its season."""
    shown = listing
    rows = [dict(r, links=tournament_links(r["key"]),
                 season=season_names.get(int(s)) if pd.notna(s) else None)
            for r, s in zip(records(shown, {
                "key": "key", "name": "name", "venue": "venue", "starts_on": "first_day",
                "ends_on": "last_day", "current": "current", "archived": "archived",
                "players": "players", "champion": "champion", "demo": "demo"}),
                shown["season_id"])]
    for row in rows:  # an empty day is "no day", not a day called ""
        row["first_day"] = row["first_day"] or None
        row["last_day"] = row["last_day"] or None
        row["champion"] = row["champion"] or None
    return check("tournaments", {"tournaments": rows})


def tournament(key: str, status, settings, *, archived: bool,
               days: tuple[str | None, str | None] | None = None) -> dict:
    """One tournament at a glance (`services.home.HomeStatus`, the public view): where it
    stands now, and its podium once the final is in. Its first and last day are `days`
    (`services.schedule.tournament_days`: the schedule's once planned), else the settings'."""
    sitting = status.sitting
    first, last = days if days is not None else (settings.starts_on, settings.ends_on)
    return check("tournament", {
        "key": key, "name": status.tournament_name, "venue": settings.venue or None,
        "first_day": first or None, "last_day": last or None,
        "time_zone": settings.time_zone or None, "archived": bool(archived),
        "players": int(status.players), "checked_in": int(status.checked_in),
        "current_sitting": None if sitting is None else sitting_words(sitting.kind,
                                                                      sitting.number),
        "missing_tables": [int(t) for t in status.missing_tables],
        "podium": [{"place": str(place.value), "player": str(nick)}
                   for place, nick in status.podium]})


def schedule(key: str, frame: pd.DataFrame, public: pd.DataFrame, zone_name: str) -> dict:
    """R26: the day's plan (`services.schedule.schedule` and its `public_schedule` in the
    tournament's zone): each item's start and end as ISO times with offset, and as read."""
    sitting = np.where(frame["sitting_kind"].notna(), frame["label"], None)
    items = [dict(r, sitting=words(s)) for r, s in zip(records(
        _read(public, frame["starts_at"], zone_name).assign(
            starts_at=frame["starts_at"].map(_iso).to_numpy(),
            ends_at=frame["ends_at"].map(_iso).to_numpy()),
        {"starts_at": "starts_at", "ends_at": "ends_at", "day": "day", "starts": "starts",
         "ends": "ends", "label": "title", "minutes": "minutes"}), sitting)]
    return check("schedule", {"tournament": key, "time_zone": zone_name, "items": items})


def _read(public: pd.DataFrame, starts: pd.Series, zone_name: str) -> pd.DataFrame:
    """`public`'s words in this run's language: its titles ("Qualifier 2"), and its days
    ("Saturday 7 March": "lördag 7 mars") from `starts` in the zone `zone_name`."""
    if i18n.current() == i18n.ENGLISH:
        return public
    shown = public.assign(label=i18n.cells(public["label"]))
    try:
        zone = ZoneInfo(str(zone_name))
    except (ValueError, ZoneInfoNotFoundError):
        return shown
    days = [None if pd.isna(v) else i18n.day(pd.Timestamp(v).tz_convert(zone).date(),
                                              "EEEE d MMMM")
            for v in pd.to_datetime(starts, utc=True)]
    return shown.assign(day=days)


def _iso(value) -> str | None:
    return None if value is None or pd.isna(value) else pd.Timestamp(value).isoformat()


PUBLIC_STATUSES = (SittingStatus.PUBLISHED, SittingStatus.COMPLETE)


def public_sittings(sittings: pd.DataFrame) -> pd.DataFrame:
    """The sittings everyone may see (R20): published or complete, in drawing order."""
    return sittings.loc[sittings["status"].isin([s.value for s in PUBLIC_STATUSES])]


def sitting_ref(kind: str, number: int) -> str:
    """A sitting's address part: "qualifier-2", "semifinal-1", "final-1"."""
    return f"{kind}-{int(number)}"


def sittings(key: str, frame: pd.DataFrame) -> dict:
    """R20: the published sittings: kind, number, status, tables, results in."""
    shown = public_sittings(frame)
    rows = records(shown.assign(sitting=[sitting_ref(k, n) for k, n in
                                         zip(shown["kind"], shown["number"])],
                                rule_change=shown["rule_change"].replace("", None)),
                   {"sitting": "sitting", "kind": "kind", "number": "number",
                    "status": "status", "tables": "tables", "results": "results_in",
                    "rule_change": "rule_change"})
    return check("sittings", {"tournament": key, "sittings": rows})


def sitting(key: str, row: Mapping[str, Any], overview: pd.DataFrame,
            scored: pd.DataFrame) -> dict:
    """R20: one published sitting (`services.sittings.overview_of` in the public view, and its
    scored results): each table's setup and seats in seat order: nickname, colour, first
    player (seat 1, R3), and once saved the leader, placing, VP and qualifier score."""
    mine = scored.loc[scored["sitting_id"] == int(row["sitting_id"]),
                      ["table_no", "player_id", "leader", "placing", "vp", "qualifier_score",
                       "tied"]]
    seats = (overview.merge(mine, on=["table_no", "player_id"], how="left")
             .sort_values(["table_no", "seat"]))
    seat_rows = records(seats.assign(first_player=seats["seat"] == 1,
                                     placing=seats["placing"].astype("Int64"),
                                     vp=seats["vp"].astype("Int64"),
                                     qualifier_score=seats["qualifier_score"].astype("Int64")),
                        {"seat": "seat", "name": "player", "colour": "colour",
                         "first_player": "first_player", "leader": "leader",
                         "placing": "placing", "vp": "vp", "qualifier_score": "score",
                         "tied": "tied"})
    tables = (seats.drop_duplicates("table_no")[["table_no", "setup", "reported"]])
    by_table: dict[int, list] = {}
    for table_no, seat_row in zip(seats["table_no"].astype(int), seat_rows):
        by_table.setdefault(table_no, []).append(seat_row)
    table_rows = [dict(t, setup=words(t["setup"]), seats=by_table[int(t["table"])])
                  for t in records(tables, {"table_no": "table", "setup": "setup",
                                            "reported": "reported"})]
    return check("sitting", {
        "tournament": key, "sitting": sitting_ref(row["kind"], row["number"]),
        "kind": row["kind"], "number": int(row["number"]), "status": row["status"],
        "rule_change": row["rule_change"] or None, "tables": table_rows})


RESULT_FIELDS = {"Table": "table", "Placing": "placing", "Player": "player",
                 "Leader": "leader", "VP": "vp", "Score": "score", "Seat": "seat",
                 "Tied": "tied"}


def results(key: str, ref: str, frame: pd.DataFrame) -> dict:
    """R13, R20: a published sitting's saved results (`ui.sittings.results_frame`'s rows)."""
    return check("results", {"tournament": key, "sitting": ref,
                             "results": records(frame, RESULT_FIELDS)})


STANDING_FIELDS = {"Rank": "rank", "Qualifier rank": "qualifier_rank", "Player": "player",
                   "Best score": "best_score", "Zone": "zone", "Games": "games",
                   "Wins": "wins", "Placing": "placing", "VP": "vp",
                   "Tie at cut": "tie_at_cut"}


def standings(key: str, shown: pd.DataFrame, cut: str) -> dict:
    """R14–R18: the standings as the Standings page shows them (`ui.finals.standings_frame`),
    with the cut in words."""
    return check("standings", {"tournament": key, "cut": words(cut) or None,
                               "standings": records(_zones(shown), {
                                   c: f for c, f in STANDING_FIELDS.items() if c in shown})})


def _zones(shown: pd.DataFrame) -> pd.DataFrame:
    """`shown` with its zone words in this run's language (a copy; the shared frame stays)."""
    return shown.assign(Zone=i18n.cells(shown["Zone"])) if "Zone" in shown else shown


def standings_csv_frame(shown: pd.DataFrame) -> pd.DataFrame:
    """The standings' CSV: the JSON's fields as columns (its zone words in this run's
    language)."""
    return _zones(shown)[[c for c in STANDING_FIELDS if c in shown]].rename(
        columns=STANDING_FIELDS)


def finals(key: str, view, status: pd.DataFrame, names: Mapping[int, str]) -> dict:
    """R16–R18: the finals format and where each player in them stands (status words, the
    wildcard flag, the final rank once the final is in); nicknames only."""
    fmt = view.format
    shown = status.assign(player=status["player_id"].map(names).astype(str),
                          final_rank=status["final_rank"].astype("Int64"))
    shown = shown.loc[shown["status"].astype(str) != ""]
    return check("finals", {
        "tournament": key,
        "format": None if fmt is None else {
            "direct": int(fmt.direct), "semifinal": int(fmt.semifinal),
            "semifinal_tables": int(fmt.semifinal_tables), "advance": int(fmt.advance)},
        "players": [dict(r, status=str(getattr(r["status"], "value", r["status"])))
                    for r in records(shown, {"player": "player", "status": "status",
                                             "wildcard": "wildcard",
                                             "final_rank": "final_rank"})]})


def seasons(found: pd.DataFrame, tournaments_of: Mapping[int, Iterable[str]]) -> dict:
    """R27: the seasons: name, points per final rank (null: ranked by best score), and the
    keys of their tournaments."""
    rows = [{"season": int(s), "name": str(n),
             "points": None if not p else [int(p[r]) for r in sorted(p)],
             "tournaments": list(tournaments_of.get(int(s), []))}
            for s, n, p in zip(found["season_id"], found["name"], found["points"])]
    return check("seasons", {"seasons": rows})


SEASON_FIELDS = {"rank": "rank", "nickname": "player", "best_score": "best_score",
                 "best_tournament": "best_tournament", "events": "tournaments",
                 "best_final_rank": "best_final_rank", "points": "points", "games": "games",
                 "wins": "wins"}


def season(season_id: int, name: str, points, keys: list[str], table: pd.DataFrame) -> dict:
    """R27: a season's standing (`services.season.season_table`), nicknames only."""
    shown = table.astype({c: "Int64" for c in ("best_score", "best_final_rank", "points")
                          if c in table})
    return check("season", {
        "season": int(season_id), "name": name,
        "points": None if not points else [int(points[r]) for r in sorted(points)],
        "tournaments": keys,
        "standings": records(shown, {c: f for c, f in SEASON_FIELDS.items() if c in shown})})


# --- the live elements ------------------------------------------------------------------------

def live_standings(key: str, shown: pd.DataFrame, *, cut: str, podium: str, legend: str,
                   progress: str) -> dict:
    """R14–R18: the Standings page's live element: the standings as the page shows them
    (`ui.finals.standings_frame`, each zone a list of tags: `ui.live.zone_tags`; the tags'
    English are machine values, named in each language by the page), the columns there are,
    the podium, the cut, the colours' legend and the sitting's progress in words, and whether
    a rank is shared across a cut line."""
    columns = {c: f for c, f in STANDING_FIELDS.items() if c in shown}
    return check("live_standings", {
        "tournament": key, "podium": words(podium) or None, "cut": words(cut) or None,
        "legend": words(legend) or None, "progress": progress,
        "tie_at_cut": bool("Tie at cut" in shown and shown["Tie at cut"].any()),
        "columns": list(columns.values()), "standings": records(shown, columns)})


CARD_GAMES = {"Sitting": "sitting", "Table": "table", "Placing": "placing", "VP": "vp",
              "Score": "score"}


def live_cards(key: str, cards: list[dict[str, Any]]) -> dict:
    """R12–R18: each player's card as the Standings search shows it (nickname, best score
    and rank in one line, where they stand in a sentence, their games)."""
    return check("live_cards", {"tournament": key, "players": cards})


def live_home(key: str, fields: Mapping[str, Any], coming: list[dict[str, str]]) -> dict:
    """The public parts of Home as its live element shows them: the podium, the players and
    the checked in, the sitting and its tables in words, its clock (R26: the status, the
    deadline or the time left, the words at time), the tables still missing, what comes
    next for everyone, and the schedule's next lines (`services.schedule.coming_up`)."""
    return check("live_home", {"tournament": key, **fields, "coming": coming})


def live_schedule(key: str, frame: pd.DataFrame, public: pd.DataFrame, zone_name: str,
                  coming: list[dict[str, str]], zone_note: str) -> dict:
    """R26: the Schedule page's live element: the schedule answer's items, the line under
    them and the next lines (`services.schedule.coming_up`)."""
    return check("live_schedule", {**schedule(key, frame, public, zone_name),
                                   "zone_note": zone_note, "coming": coming})


# --- stream overlays ------------------------------------------------------------------------

OVERLAY_STANDINGS = 16  # rows a standings overlay shows (a stream's corner, not the room)
OVERLAY_NEXT = 3  # schedule items a "next up" overlay shows


def overlay_table(overlay: Mapping[str, Any], name: str, sitting_name: str | None,
                  table: Mapping[str, Any] | None, clock: Mapping[str, Any] | None) -> dict:
    """A filmed table (`sitting`'s table of that number, or None before it is drawn and
    published): nicknames in seat order, colours, the first player, the setup, leaders and
    the result once saved, and its clock (R26: everyone's time plus its own extensions)."""
    payload: dict[str, Any] = {
        "kind": "table", "label": overlay.get("label") or None, "tournament": name,
        "sitting": sitting_name, "table": int(overlay["table_no"]), "setup": None,
        "reported": False, "seats": [], "clock": clock}
    if table is not None:
        payload.update(setup=table["setup"], reported=bool(table["reported"]),
                       seats=table["seats"])
    return check("overlay", payload)


def overlay_standings(overlay: Mapping[str, Any], name: str, shown: pd.DataFrame,
                      cut: str, cut_rank: int | None) -> dict:
    """The standings' top `OVERLAY_STANDINGS` with the cut in words, each row marked when it
    is below the cut (`cut_rank`: the last rank that makes it; None: no cut yet)."""
    top = _zones(shown.head(OVERLAY_STANDINGS))
    rows = records(top, {c: f for c, f in STANDING_FIELDS.items()
                         if c in top and f in ("rank", "player", "best_score", "zone")})
    for row in rows:
        row["below_cut"] = cut_rank is not None and int(row["rank"]) > cut_rank
    return check("overlay", {"kind": "standings", "label": overlay.get("label") or None,
                             "tournament": name, "cut": words(cut) or None,
                             "standings": rows,
                             "more": max(0, len(shown) - len(top))})


def overlay_next(overlay: Mapping[str, Any], name: str, frame: pd.DataFrame,
                 public: pd.DataFrame, now: pd.Timestamp, zone_name: str = "UTC") -> dict:
    """What comes next on the schedule (R26): the next `OVERLAY_NEXT` items not yet over."""
    coming = (frame["ends_at"].fillna(frame["starts_at"]) > now).to_numpy()
    starts = frame.loc[coming, "starts_at"].head(OVERLAY_NEXT)
    part = _read(public.loc[coming].head(OVERLAY_NEXT), starts, zone_name).assign(
        starts_at=starts.map(_iso).to_numpy())
    return check("overlay", {"kind": "next", "label": overlay.get("label") or None,
                             "tournament": name, "items": records(part, {
                                 "label": "title", "day": "day", "starts": "starts",
                                 "ends": "ends", "starts_at": "starts_at"})})


# --- the live elements (`stsa.ui.live_answers`): My seat and TV -----------------------------
# What a live page draws by itself in the browser, one answer for every phone or screen: the
# clock (R26) as its deadline (the browser counts down; each answer's `X-STSA-Now` header says
# the server's time), what comes next as the schedule's items (the browser picks the next one
# as time passes), and self check-in's window (R25), so a page knows when its form opens or
# closes. Nothing that moves with the time alone is in an answer: it is kept per data version.

LIVE_CLOCK = ("clock.label", "clock.status", "clock.deadline_ms", "clock.left_ms",
              "clock.words", "clock.caption", "clock.sound", "clock.tables[].table",
              "clock.tables[].status", "clock.tables[].deadline_ms", "clock.tables[].left_ms")
LIVE_COMING = tuple(f"coming[].{f}" for f in ("starts_at", "date", "today", "later"))
LIVE_CHECK_IN = ("check_in.number", "check_in.open", "check_in.from_ms", "check_in.until_ms")
FIELDS["live_players"] = frozenset({
    "tournament", "time_zone", "sitting", *LIVE_CLOCK, *LIVE_COMING, *LIVE_CHECK_IN,
    "colours[].colour", "colours[].word", "game_fields",
    "players[].id", "players[].player", "players[].withdrawn", "players[].now",
    "players[].sitting", "players[].table", "players[].seat", "players[].colour",
    "players[].first_player", "players[].setup", "players[].players",
    "players[].sat_out_by_draw", "players[].waiting", "players[].rank",
    "players[].best_score", "players[].games", "players[].standing"})
FIELDS["live_tv"] = frozenset({
    "tournament", "name", "time_zone", "progress", "rule_change", *LIVE_CLOCK, *LIVE_COMING,
    *LIVE_CHECK_IN, "players", "standings[].rank", "standings[].player",
    "standings[].best_score", "standings[].zone", "standings[].games", "standings[].wins",
    "standings[].tint", "podium", "cut", "slides[].kind", "slides[].heading",
    "slides[].columns", "slides[].chart", "slides[].alt", "season.columns", "season.rows",
    "season.empty"})

# A player's row in the live answer: frame column → field (`services.player.everyone`)
LIVE_PLAYER_FIELDS = {"player_id": "id", "nickname": "player", "withdrawn": "withdrawn",
                      "now": "now", "sitting": "sitting", "table_no": "table", "seat": "seat",
                      "colour": "colour", "first_player": "first_player", "setup": "setup",
                      "players": "players", "sat_out_by_draw": "sat_out_by_draw",
                      "waiting": "waiting", "rank": "rank", "best_score": "best_score"}


def _values(column: pd.Series) -> list:
    """A column as plain JSON values: NA as None, whole floats as ints (a score of 21)."""
    found = column.astype(object).where(column.notna(), None).tolist()
    if column.dtype.kind not in "fO":
        return found
    return [int(v) if isinstance(v, float) and v.is_integer() else v for v in found]


def live_players(key: str, *, zone_name: str, sitting: str, clock: dict | None,
                 coming: list[dict], check_in: dict | None, everyone: pd.DataFrame,
                 games: list, standing: list[str], colours: list[dict]) -> dict:
    """R3, R12, R14, R16, R21, R22, R26: what My seat shows of every player, in one answer
    that every phone shares (`services.player.everyone` as the public sees it, nicknames
    only): where each sits in the sitting being played (`sitting` unless their own differs),
    their waiting-list number, rank, best score, games (`game_fields` lists), where they
    stand in words; and the sitting's clock with each table's own time, the schedule's items
    (`coming`: what comes next) and self check-in's window. A field a player has nothing in
    (no seat, not withdrawn) is left out: the answer stays small at 2,000 players."""
    frame = everyone.assign(sitting=everyone["sitting"].where(everyone["sitting"] != sitting,
                                                              ""))
    columns = [(field, _values(frame[column])) for column, field in LIVE_PLAYER_FIELDS.items()]
    rows = [{field: values[i] for field, values in columns
             if values[i] is not None and values[i] is not False and values[i] != ""}
            for i in range(len(frame))]
    for row, played, said in zip(rows, games, standing):
        if played:
            row["games"] = played
        row["standing"] = said
    return check("live_players", {
        "tournament": key, "time_zone": zone_name, "sitting": sitting or None,
        "clock": clock, "coming": coming, "check_in": check_in, "colours": colours,
        "game_fields": list(player.GAME_FIELDS), "players": rows})


TV_STANDING_FIELDS = {"Rank": "rank", "Player": "player", "Best score": "best_score",
                      "Zone": "zone", "Games": "games", "Wins": "wins", "tint": "tint"}


def live_tv(key: str, *, name: str | None, zone_name: str, progress: str,
            rule_change: str | None, clock: dict | None, coming: list[dict],
            check_in: dict | None, shown: pd.DataFrame, players: int, slides: list[dict],
            podium: str, cut: str, season: dict | None) -> dict:
    """R14–R18, R24–R27: what the TV shows besides its charts (`live/charts/…`): the
    tournament's name, where it stands, the rule change, the clock, what comes next and
    self check-in's window; the standings its slides show (`shown`: the first rows of the
    Standings page's frame, each with its zone's `tint`), the slides in order (their
    headings; a standings slide's rows by column), the podium, the cut, and the season's
    top when the tournament is in one."""
    return check("live_tv", {
        "tournament": key, "name": name or None, "time_zone": zone_name, "progress": progress,
        "rule_change": rule_change or None, "clock": clock, "coming": coming,
        "check_in": check_in, "players": int(players),
        "standings": records(_zones(shown), {c: f for c, f in TV_STANDING_FIELDS.items()
                                             if c in shown}),
        "slides": slides, "podium": podium or None, "cut": cut or None, "season": season})
