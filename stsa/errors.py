"""The two kinds of error (see DESIGN.md): a user-fixable error is a `TournamentError`.

It lives in `stsa.domain`; this name stays importable for scripts written against it.
"""

from stsa.domain import Problem, TournamentError

__all__ = ["Problem", "TournamentError"]
