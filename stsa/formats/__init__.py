"""Files in and out, with no database: the guards every uploaded file passes first
(`guards`), roster files (`roster_file`), the tournament workbook written and parsed back
(`workbook`), CSV and its one formula guard (`csv`), the printed slips and pairings
(`slips`), and the names of downloaded files (`file_names`).

Everything here works on bytes and plain frames; `stsa.services` reads the store, calls these
and writes back. A file that cannot be used raises a `guards.SpreadsheetError` whose `problems`
name each row to fix.
"""
