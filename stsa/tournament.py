"""The tournament service under its first name: the functions organizers' scripts and older
code import from here, now kept in `stsa.services` (one module per job).

`standings_table(engine)` (with at least `name, rank, best_score, games`) is a stable
scripting API (DESIGN.md); the other names stay importable from here too.
"""

from stsa.services.corrections import override_setup, override_warnings
from stsa.services.draws import draw_qualifier, draw_report
from stsa.services.finals import Finals, draw_final, draw_semifinal, finals
from stsa.services.home import home_status
from stsa.services.results import preview_result, scored_results, standings_table
from stsa.services.setups import enabled_setups, setup_names
from stsa.services.sittings import current_sitting, sitting_overview

__all__ = ["Finals", "current_sitting", "draw_final", "draw_qualifier", "draw_report",
           "draw_semifinal", "enabled_setups", "finals", "home_status", "override_setup",
           "override_warnings", "preview_result", "scored_results", "setup_names",
           "sitting_overview", "standings_table"]
