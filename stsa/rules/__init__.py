"""Pure, vectorized tournament maths: table sizes, placings, qualifier scores, standings, finals.

No I/O, no randomness. Ruling numbers (R1, R11 …) refer to the project's RULINGS.md.
Every function takes and returns pandas frames with the columns of DESIGN.md's core API, and
raises `TournamentError` (a `ValueError`) naming the game and player for impossible input.

The names are read here, `stsa.rules.standings` as DESIGN.md's core API names them; the maths
lives in `qualifiers` (R1, R11–R15, R21), `finals` (R16–R18) and the checks both share
(`checks`).
"""

from stsa.rules.checks import BASE_POINTS, PLACING_ORDER, RESULT_COLUMNS, STANDINGS_COLUMNS
from stsa.rules.finals import (
    FinalsFormat,
    cut_ties,
    final_standings,
    final_table,
    finals_entrants,
    finals_format,
    weakest_finalist,
)
from stsa.rules.qualifiers import (
    BOOKING_COLUMNS,
    QUEUE_COLUMNS,
    score_games,
    seat_queue,
    standings,
    table_sizes,
)

__all__ = [
    "PLACING_ORDER", "RESULT_COLUMNS", "BASE_POINTS", "STANDINGS_COLUMNS",
    "table_sizes", "QUEUE_COLUMNS", "seat_queue", "BOOKING_COLUMNS", "score_games", "standings",
    "FinalsFormat", "finals_format", "finals_entrants", "cut_ties", "weakest_finalist",
    "final_table", "final_standings",
]
