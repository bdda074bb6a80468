"""A plain, per-game Python reading of R11, R12 and R14: the oracle the vectorized rules are
checked against. Written for obviousness, not speed."""

from __future__ import annotations

import math

STATS = ("vp", "spice", "solari", "troops", "water")


def _strength(row: dict) -> tuple:
    return tuple(row[s] for s in STATS)


def score_game(rows: list[dict], base_points=(20, 15, 10, 0)) -> list[dict]:
    """R11, R12 for one game: rows get placing, qualifier_score and tied."""
    ordered = sorted(rows, key=_strength, reverse=True)
    # Tie groups: players equal on all five, in game order.
    groups: list[list[dict]] = []
    for row in ordered:
        if groups and _strength(groups[-1][0]) == _strength(row):
            groups[-1].append(row)
        else:
            groups.append([row])

    placed = []  # (row, placing, tied) in game order
    position = 0
    for group in groups:
        tiebreaks = [r.get("tiebreak") for r in group]
        settled = len(group) == 1 or (
            all(t is not None and not (isinstance(t, float) and math.isnan(t)) for t in tiebreaks)
            and len(set(tiebreaks)) == len(group)
        )
        if len(group) > 1 and settled:
            group = sorted(group, key=lambda r: r["tiebreak"])
        for i, row in enumerate(group):
            placing = position + (i if settled else 0) + 1
            placed.append((row, placing, not settled))
        position += len(group)

    in_order = [row for row, _, _ in placed]
    out = []
    for row, placing, tied in placed:
        score = base_points[placing - 1]
        if placing <= 3 and placing < len(rows):
            score += row["vp"] - in_order[placing]["vp"]
        score += row.get("variant_points", 0) or 0
        out.append({**row, "placing": placing, "qualifier_score": score, "tied": tied})
    return out


def score_games(rows: list[dict], base_points=(20, 15, 10, 0)) -> list[dict]:
    games: dict = {}
    for row in rows:
        games.setdefault(row["game_id"], []).append(row)
    return [r for game in games.values() for r in score_game(game, base_points)]


def standings(scored: list[dict]) -> list[dict]:
    """R14, R15: one dict per player, best first, with rank."""
    by_player: dict = {}
    for row in scored:
        by_player.setdefault(row["player_id"], []).append(row)

    def game_key(r):
        return (r["qualifier_score"], -r["placing"], *(r[s] for s in STATS))

    table = []
    for player, games in by_player.items():
        games = sorted(games, key=game_key, reverse=True)
        best = games[0]
        second = games[1]["qualifier_score"] if len(games) > 1 else -math.inf
        table.append({
            "player_id": player, "best_score": best["qualifier_score"], "games": len(games),
            "wins": sum(1 for g in games if g["placing"] == 1), "placing": best["placing"],
            **{s: best[s] for s in STATS},
            "_key": (*game_key(best), second),
        })
    # Best first; a player equal to the one before shares that player's rank.
    table.sort(key=lambda e: e["player_id"])
    table.sort(key=lambda e: e["_key"], reverse=True)
    for i, entry in enumerate(table):
        same = i > 0 and table[i - 1]["_key"] == entry["_key"]
        entry["rank"] = table[i - 1]["rank"] if same else i + 1
    for entry in table:
        del entry["_key"]
    return table


# --- R16, R17, R18: the finals, one player at a time -------------------------------------------

def finals_format(n: int) -> tuple[int, int, int, bool] | None:
    """R16: (direct, semifinal players, winners who advance, challenge), None below 4."""
    if n < 4:
        return None
    if n <= 16:
        semifinal = 4 if n >= 8 else (n - 4 if n - 4 >= 3 else 0)
        return 4, semifinal, 1 if semifinal else 0, bool(semifinal)
    if n <= 32:
        return 3, 8, 1, False
    return 2, 12, 2, False


def finals_entrants(table: list[dict], present: set) -> list[tuple]:
    """R16, R17: (player_id, stage, wildcard) in seat order; `table` is the standings, best
    first. Each absent player's seat, in seat order, goes to the next of the present players
    below the cut: winning players first, each group by standing."""
    direct, semifinal, _, _ = finals_format(len(table))
    cut = table[:direct + semifinal]
    below = [e for e in table[direct + semifinal:] if e["player_id"] in present]
    waiting = [e for e in below if e["wins"] > 0] + [e for e in below if e["wins"] == 0]
    seats = []
    for i, entry in enumerate(cut):
        stage = "final" if i < direct else "semifinal"
        if entry["player_id"] in present:
            seats.append((entry["player_id"], stage, False))
        elif waiting:
            seats.append((waiting.pop(0)["player_id"], stage, True))
    return seats


def final_table(table: list[dict], seats: list[tuple], semifinal: list[dict]) -> list:
    """R16: the players at the final. `semifinal` is the scored semifinal rows (first places
    settled)."""
    _, _, advance, challenge = finals_format(len(table))
    finalists = [p for p, stage, _ in seats if stage == "final"]
    if not advance or not any(stage == "semifinal" for _, stage, _ in seats):
        return finalists
    position = {e["player_id"]: i for i, e in enumerate(table)}
    best = {e["player_id"]: e["best_score"] for e in table}
    winners = sorted((r for r in semifinal if r["placing"] == 1),
                     key=lambda r: (-r["qualifier_score"], *(-r[s] for s in STATS),
                                    position[r["player_id"]]))
    if not challenge:
        return finalists + [r["player_id"] for r in winners[:advance]]
    winner = winners[0]
    if len(finalists) < 4:
        return finalists + [winner["player_id"]]
    # The weakest seated finalist: lowest best score, then the lowest in the standings.
    weakest = min(finalists, key=lambda p: (best[p], -position[p]))
    if winner["qualifier_score"] > best[weakest]:
        return [winner["player_id"] if p == weakest else p for p in finalists]
    return finalists


def final_standings(table: list[dict], semifinal: list[dict], final: list[dict]) -> list[tuple]:
    """R18: (player_id, final_rank, stage), best first: finalists by final placing, the other
    semifinalists by semifinal placing then best score, everyone else by standing. Players
    equal on what orders their group share the better rank."""
    rank = {e["player_id"]: e["rank"] for e in table}
    best = {e["player_id"]: e["best_score"] for e in table}
    in_final = {r["player_id"]: r["placing"] for r in final}
    in_semifinal = {r["player_id"]: r["placing"] for r in semifinal
                    if r["player_id"] not in in_final}
    groups = [
        ("final", sorted(((in_final[p], rank[p]), p) for p in in_final), 1),
        ("semifinal", sorted(((in_semifinal[p], -best[p], rank[p]), p) for p in in_semifinal), 3),
        ("qualifier", sorted(((rank[e["player_id"]],), e["player_id"]) for e in table
                             if e["player_id"] not in in_final | in_semifinal.keys()), 1),
    ]
    out = []
    for stage, members, key_length in groups:
        start = len(out)
        for i, (key, player) in enumerate(members):
            shares = i > 0 and members[i - 1][0][:key_length] == key[:key_length]
            out.append((player, out[-1][1] if shares else start + i + 1, stage))
    return out


# --- R10: Vote Off -------------------------------------------------------------------------------

def vote_off(deck: list[str], votes: list[tuple], removes: int = 2) -> tuple[list, list, int]:
    """R10: (leaders removed by votes alone, leaders tied for the remaining places, how many of
    the tied are still needed). Every leader of the deck counts, 0 votes if nobody chose it."""
    count = {leader: 0 for leader in deck}
    for _, leader in votes:
        count[leader] += 1
    ordered = sorted(deck, key=lambda leader: -count[leader])
    cut = count[ordered[removes - 1]]
    sure = [leader for leader in ordered if count[leader] > cut]
    tied = [leader for leader in ordered if count[leader] == cut]
    return sure, tied, removes - len(sure)


def seat_queue(players: list[dict], capacity: int, extra_tables: int = 0) -> list[dict]:
    """R21, plainly: pre-registered players by registration order, then drop-ins by check-in
    time, players never checked in last, each tie by player id; the first capacity + 4 per
    extra table play, the others wait in that order."""
    def key(p: dict) -> tuple:
        order, at = p["registration_order"], p["checked_in_at"]
        if order is not None:
            return (0, order, at is None, at or 0, p["player_id"])
        return (1, 0, at is None, at or 0, p["player_id"])

    seats = capacity + 4 * extra_tables
    out = []
    for place, p in enumerate(sorted(players, key=key), start=1):
        plays = place <= seats
        out.append({"player_id": p["player_id"], "queue": place, "plays": plays,
                    "waiting": None if plays else place - seats})
    return out


def booked_seat_queue(players: list[dict], bookings: list[dict], capacity: int,
                      extra_tables: int = 0, deadline: int | None = None) -> list[dict]:
    """R25, plainly: a seat is held for every booked player who is not here, unless (after
    the deadline) the organizer gave it to a replacement who is here; the replacement takes
    the booked position and the booked player, if here, queues as a drop-in. Booked players
    first by position, then everyone else by check-in time (never checked in last), each tie
    by player id; the free seats (capacity less the held ones, plus 4 per extra table) play."""
    here = {p["player_id"] for p in players}
    given = [b for b in bookings if deadline is not None and b.get("replaced_by") is not None
             and b["replaced_by"] in here]
    given_ids = {b["player_id"] for b in given}
    held = sum(1 for b in bookings if b["player_id"] not in here
               and b["player_id"] not in given_ids)
    first: dict[int, int] = {b["player_id"]: b["position"] for b in bookings
                             if b["player_id"] in here and b["player_id"] not in given_ids}
    for b in given:
        by = b["replaced_by"]
        first[by] = min(first.get(by, b["position"]), b["position"])

    def key(p: dict) -> tuple:
        at = p["checked_in_at"]
        if p["player_id"] in first:
            return (0, first[p["player_id"]], at is None, at or 0, p["player_id"])
        return (1, 0, at is None, at or 0, p["player_id"])

    seats = max(capacity - held, 0) + 4 * extra_tables
    out = []
    for place, p in enumerate(sorted(players, key=key), start=1):
        plays = place <= seats
        out.append({"player_id": p["player_id"], "queue": place, "plays": plays,
                    "waiting": None if plays else place - seats})
    return out
