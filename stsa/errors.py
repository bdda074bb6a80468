"""The two kinds of error (see DESIGN.md): a user-fixable error is a `TournamentError`.

Pages catch `TournamentError` and show its message; anything else is a bug and surfaces.
Every `TournamentError` is a `ValueError`, so callers that only know the core API's
contract ("raises ValueError") keep working.
"""


class TournamentError(ValueError):
    """Input that the organizer, a judge or a spreadsheet can fix; the message says what and where."""
