"""Paper for the tables and the wall, under the names pages and scripts use: the PDFs are made
by `stsa.formats.slips` from what `stsa.services.exports` reads; these names stay importable
here with the same arguments and meaning."""

from stsa.formats.slips import FONT_DIR, result_link
from stsa.services.exports import pairings_by_name, pairings_by_table, table_slips

__all__ = ["table_slips", "pairings_by_name", "pairings_by_table", "result_link", "FONT_DIR"]
