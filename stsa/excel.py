"""Spreadsheets in and out, under the names organizers' scripts use (DESIGN.md, Scripting API).

The code lives in `stsa.formats` (files, no database) and `stsa.services` (reading and writing
the store); these names stay importable here with the same arguments and meaning.
"""

from stsa.formats.csv import neutralise
from stsa.formats.guards import MAX_UPLOAD_BYTES, MAX_WORKBOOK_BYTES, SpreadsheetError
from stsa.formats.roster_file import EXAMPLE_NAME, ROSTER_COLUMNS, RosterError, roster_template
from stsa.formats.workbook_reader import RestoreError
from stsa.services.exports import results_csv, standings_csv, tournament_workbook
from stsa.services.restore import restore_workbook
from stsa.services.roster_import import import_roster, read_roster

__all__ = ["MAX_UPLOAD_BYTES", "MAX_WORKBOOK_BYTES", "EXAMPLE_NAME", "ROSTER_COLUMNS",
           "SpreadsheetError", "RosterError", "RestoreError", "read_roster", "import_roster",
           "roster_template", "tournament_workbook", "standings_csv", "results_csv",
           "restore_workbook", "neutralise"]
