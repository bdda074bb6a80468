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
