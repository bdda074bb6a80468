"""`python -m stsa`: prepare the database before the app starts (`make run` does this).

Creates or upgrades the tournament database, checks its integrity, and makes sure the organizer
and judges have PINs. PINs made now are printed once, here in the console; only their hashes
are stored. Set STSA_ORGANIZER_PIN / STSA_JUDGE_PIN to choose them instead.
"""

from __future__ import annotations

import sys

from stsa import store
from stsa.errors import TournamentError


def main() -> int:
    try:
        engine = store.connect()
        generated = store.ensure_pins(engine)
    except TournamentError as exc:
        print(f"STSA cannot start: {exc}", file=sys.stderr)
        return 1
    where = engine.url.render_as_string(hide_password=True)
    print(f"STSA: tournament database {where} is ready.")
    for role, pin in generated.items():
        print(f"STSA: the {role.value} PIN is {pin}. Write it down: it is shown only now "
              f"(change it on the Settings page).")
    if not generated:
        print("STSA: PINs were set before (or come from STSA_ORGANIZER_PIN / STSA_JUDGE_PIN).")
    engine.dispose()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
