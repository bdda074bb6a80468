"""R27: a tournament's address key ("gothcon-2026", the `?t=` of the pages and the
`/tournaments/{key}` of the data feed), the one lookup both use: the pages (stsa.ui.session)
and the web front door (stsa.web)."""

from __future__ import annotations

import pandas as pd


def by_key(listed: pd.DataFrame) -> dict[str, int]:
    """The tournaments' ids by address key, from the installation's list
    (`store.tournaments`: its "key" and "tournament_id" columns)."""
    return {str(k): int(t) for k, t in zip(listed["key"], listed["tournament_id"])}


def named(keys: dict[str, int], asked: object) -> int | None:
    """The id of the tournament `asked` names (any case, spaces around it ignored), or None
    (nothing asked, or no tournament here by that key)."""
    if asked is None or asked == "":
        return None
    return keys.get(str(asked).strip().lower())


def key_of(listed: pd.DataFrame, tournament_id: int | None) -> str | None:
    """The address key of tournament `tournament_id` in the installation's list, or None."""
    if tournament_id is None:
        return None
    found = listed.loc[listed["tournament_id"].astype(int) == int(tournament_id), "key"]
    return None if found.empty else str(found.iloc[0])
