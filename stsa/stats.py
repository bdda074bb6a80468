"""What the standings and the charts show, aggregated in pandas (no Streamlit, no Altair).

Inputs are the service layer's frames: `services.results.standings_table` (one row per player,
with `zone`), `services.results.scored_results` (one row per player per qualifier game, with `seat`,
`leader`, `setup_id`, `placing`, `qualifier_score`, `name`) and `store.setup_counts` (tables per
setup). Every function returns a small frame: a chart gets at most a few hundred rows.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd

from stsa import i18n
from stsa.i18n import N_, _, ngettext

TOP = 30  # bars in a ranked chart: readable on a phone
# The sitting named in the shared frames ("Qualifier 2"), translated where a page shows it.
QUALIFIER = i18n.template(N_("Qualifier {number}"))
FINALS_NAMES = {"semifinal": N_("Semifinal"), "final": N_("Final")}


@dataclass(frozen=True)
class Cut:
    """R16 by position: the last rank position straight to the final, and the last one in the
    semifinal (positions count from 1; 0 = no such zone yet)."""

    direct: int
    semifinal: int


def cut(table: pd.DataFrame) -> Cut:
    zone = table["zone"] if len(table) else pd.Series(dtype=object)
    direct = int((zone == "final").sum())
    return Cut(direct, direct + int((zone == "semifinal").sum()))


def ranked_scores(table: pd.DataFrame, top: int = TOP) -> pd.DataFrame:
    """The best `top` players: `position` (1…), `rank`, `name`, `best_score`, `zone`."""
    head = table.head(top)
    return pd.DataFrame({
        "position": range(1, len(head) + 1), "rank": head["rank"].to_numpy(),
        "name": head["name"].astype(str).to_numpy(), "best_score": head["best_score"].to_numpy(),
        "zone": head["zone"].replace("", "none").to_numpy(),
    })


def distance_to_cut(table: pd.DataFrame, player_id) -> dict:
    """R16 for one player: points behind the last direct-final spot and the last semifinal
    spot (0 = level on points: tie-breaks decide; negative = that many points ahead), or None
    when that line does not exist yet."""
    line = cut(table)
    scores = table["best_score"].to_numpy()
    mine = int(table.loc[table["player_id"] == player_id, "best_score"].iloc[0])
    out = {}
    for key, position in (("final", line.direct), ("semifinal", line.semifinal)):
        out[key] = int(scores[position - 1]) - mine if position else None
    return out


def distance_sentence(table: pd.DataFrame, player_id) -> str:
    """`distance_to_cut` in words, for a player's card on the Standings page (in this run's
    language: it is worded where the page shows it)."""
    return distance_sentences(table).get(player_id, "")


def distance_sentences(table: pd.DataFrame) -> pd.Series:
    """`distance_sentence` of every player in `table` at once, by player id ("" for a
    player with no result yet): the Standings cards of every player in one pass (R16)."""
    line = cut(table)
    scores = table["best_score"].to_numpy(dtype=float)
    if not line.direct:
        said = [_("No cut yet: finals need at least 4 players.")] * len(table)
        return pd.Series(said, index=table["player_id"].to_numpy(), dtype=object)
    to_final = scores[line.direct - 1] - scores
    to_semifinal = scores[line.semifinal - 1] - scores
    both = line.semifinal > line.direct

    def sentence(zone: str, final_gap: float, semifinal_gap: float) -> str:
        if np.isnan(final_gap):
            return ""
        if zone == "final":
            return _("In the zone straight to the final.")
        final = _to_final(int(final_gap))
        if zone == "semifinal":
            text = _("{to_final}; in the semifinal zone").format(to_final=final)
        elif both:
            text = _("{to_final}; {to_semifinal}").format(
                to_final=final, to_semifinal=_to_semifinal(int(semifinal_gap)))
        else:
            text = final
        return text[0].upper() + text[1:] + "."

    return pd.Series([sentence(z, f, s) for z, f, s in zip(table["zone"], to_final,
                                                          to_semifinal)],
                     index=table["player_id"].to_numpy(), dtype=object)


def _to_final(gap: int) -> str:
    if gap <= 0:
        return _("level on points with the last spot straight to the final (tie-breaks decide)")
    return ngettext("{count} point behind the last spot straight to the final",
                    "{count} points behind the last spot straight to the final",
                    gap).format(count=gap)


def _to_semifinal(gap: int) -> str:
    if gap <= 0:
        return _("level on points with the last semifinal spot (tie-breaks decide)")
    return ngettext("{count} point behind the last semifinal spot",
                    "{count} points behind the last semifinal spot", gap).format(count=gap)


def score_spread(scored: pd.DataFrame) -> pd.DataFrame:
    """Qualifier scores per sitting as a box plot's numbers: `sitting` ("Qualifier n"),
    `sitting_no, games, min, q1, median, q3, max, mean` (one row per sitting)."""
    cols = ["sitting", "sitting_no", "scores", "min", "q1", "median", "q3", "max", "mean"]
    if scored.empty:
        return pd.DataFrame(columns=cols)
    grouped = scored.groupby("sitting_no")["qualifier_score"]
    out = pd.DataFrame({
        "scores": grouped.size(), "min": grouped.min(), "q1": grouped.quantile(0.25),
        "median": grouped.median(), "q3": grouped.quantile(0.75), "max": grouped.max(),
        "mean": grouped.mean().round(1),
    }).reset_index()
    out["sitting"] = "Qualifier " + out["sitting_no"].astype(str)  # i18n: as is (QUALIFIER)
    return out[cols]


def leader_stats(scored: pd.DataFrame, setups: pd.DataFrame, top: int = TOP) -> pd.DataFrame:
    """How often each leader was picked and won, per base game (from the table's setup):
    `base_game, leader, label, picked, wins, win_rate`, most picked first, the top `top`."""
    cols = ["base_game", "leader", "label", "picked", "wins", "win_rate"]
    rows = scored.loc[scored["leader"].notna() & (scored["leader"].astype(str) != "")]
    if rows.empty:
        return pd.DataFrame(columns=cols)
    base = setups.set_index("setup_id")["base_game"]
    out = (rows.assign(base_game=rows["setup_id"].map(base).fillna("Other"),
                       won=rows["placing"] == 1)
           .groupby(["base_game", "leader"], as_index=False)
           .agg(picked=("won", "size"), wins=("won", "sum"))
           .assign(win_rate=lambda d: (d["wins"] / d["picked"]).round(3),
                   label=lambda d: d["leader"] + " · " + d["base_game"])
           .sort_values(["picked", "wins", "label"], ascending=[False, False, True]))
    return out.head(top)[cols].reset_index(drop=True)


def seat_stats(scored: pd.DataFrame) -> pd.DataFrame:
    """Win rate by seat (seat 1 = first player, R3), separately for 3- and 4-player tables:
    `table_size, seat, games, wins, win_rate, fair` (fair = 1 / table size)."""
    cols = ["table_size", "seat", "games", "wins", "win_rate", "fair"]
    if scored.empty:
        return pd.DataFrame(columns=cols)
    out = (scored.assign(table_size=scored.groupby("game_id")["player_id"].transform("size"),
                         won=scored["placing"] == 1)
           .groupby(["table_size", "seat"], as_index=False)
           .agg(games=("won", "size"), wins=("won", "sum"))
           .assign(win_rate=lambda d: (d["wins"] / d["games"]).round(3),
                   fair=lambda d: (1 / d["table_size"]).round(3)))
    return out[cols]


def setup_usage(counts: Mapping[str, int], names: dict[str, str],
                setups: pd.DataFrame) -> pd.DataFrame:
    """R6: how many qualifier tables each setup was drawn for (`counts`: setup_id → tables,
    as `store.setup_counts` gives them): `setup_id, setup, base_game, tables`, most used
    first."""
    cols = ["setup_id", "setup", "base_game", "tables"]
    if not counts:
        return pd.DataFrame(columns=cols)
    base = setups.set_index("setup_id")["base_game"]
    out = pd.DataFrame({"setup_id": list(counts), "tables": [int(n) for n in counts.values()]})
    out = out.assign(setup=out["setup_id"].map(names).fillna(out["setup_id"]),
                     base_game=out["setup_id"].map(base).fillna("Other"))
    return out.sort_values(["tables", "setup"], ascending=[False, True])[cols].reset_index(
        drop=True)


def player_scores(scored: pd.DataFrame, player_ids) -> pd.DataFrame:
    """The chosen players' qualifier scores by sitting: `name, sitting_no, sitting, table_no,
    placing, score` (a player with two games in a sitting has two rows)."""
    rows = scored.loc[scored["player_id"].isin(list(player_ids))].sort_values(
        ["name", "sitting_no", "table_no"])
    return pd.DataFrame({
        "name": rows["name"].astype(str), "sitting_no": rows["sitting_no"],
        "sitting": "Qualifier " + rows["sitting_no"].astype(str),  # i18n: as is (QUALIFIER)
        "table_no": rows["table_no"],
        "placing": rows["placing"], "score": rows["qualifier_score"],
    }).reset_index(drop=True)


def sitting_progress(status: dict) -> str:
    """For the current sitting (`services.home.home_status`): how many tables have reported and
    which are still playing, in this run's language."""
    sitting = status.get("sitting")
    if sitting is None:
        return _("No sitting drawn yet.")
    kind = str(sitting["kind"])
    label = (_(QUALIFIER).format(number=sitting["number"]) if kind == "qualifier"
             else _(FINALS_NAMES[kind]) if kind in FINALS_NAMES else kind.capitalize())
    if sitting["status"] == "drawn":
        return _("{sitting} is drawn but not published yet.").format(sitting=label)
    total, missing = int(sitting["tables"]), list(status.get("missing_tables") or [])
    if sitting["status"] == "complete" or not missing:
        return (_("{sitting}: its table has reported.") if total == 1 else
                _("{sitting}: all {count} tables have reported.")).format(sitting=label,
                                                                         count=total)
    shown = ", ".join(str(t) for t in missing[:40]) + (" …" if len(missing) > 40 else "")
    done = total - len(missing)
    if done == 1:
        text = ngettext("{sitting}: {done} of {count} tables has reported; still playing: "
                        "table {tables}.",
                        "{sitting}: {done} of {count} tables has reported; still playing: "
                        "tables {tables}.", len(missing))
    elif total == 1:
        text = _("{sitting}: {done} of {count} table have reported; still playing: table "
                 "{tables}.")
    else:
        text = ngettext("{sitting}: {done} of {count} tables have reported; still playing: "
                        "table {tables}.",
                        "{sitting}: {done} of {count} tables have reported; still playing: "
                        "tables {tables}.", len(missing))
    return text.format(sitting=label, done=done, count=total, tables=shown)
