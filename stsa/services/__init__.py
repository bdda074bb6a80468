"""What the pages ask for, one module per job: each user action reads one snapshot, checks
every rule, and writes through the store in one transaction (DESIGN.md).

- `exports`: the tournament workbook, the CSV downloads, the printed slips and pairings.
- `restore`: a tournament recreated from its workbook, every row checked as entry checks it.
- `roster_import`: a roster file read with entry's rules and added in one transaction.
- `roster`: finding players, a pasted name list, single players, check-in.
- `sittings`: the table plan, qualifier draws, the draw report, hand-set setups, publishing,
  corrections after publishing (a voided sitting, a no-show), the current sitting and a
  sitting's seats.
- `results`: scored results and standings, the result form's preview, a table's result
  submitted with every rule checked.
- `finals`: the cut, absences and wildcards, the semifinal winners' contest, the finals draws.
- `admin`: settings saved with every check, PINs and sessions, the Home page's status.
- `setups`: the setups a tournament draws from, with its settings applied.
- `snapshot`: what one action reads, each frame once (`Snapshot`).
"""
