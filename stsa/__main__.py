"""`python -m stsa`: the console commands of STSA.

- `python -m stsa` prepares the database: creates or upgrades it, checks its integrity and gives
  the organizer and judges a PIN where none is stored (from STSA_ORGANIZER_PIN /
  STSA_JUDGE_PIN when set, else a random 8-digit PIN, printed once here; only hashes are kept).
- `python -m stsa serve [--port N] [--address A]` prepares the database, then runs the app with
  the production server settings (`make run` uses it).
- `python -m stsa pins --reset` sets both PINs anew, ends every session and forgets wrong
  PINs: for a lost PIN, from the console of the machine that runs STSA.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from stsa import store
from stsa.errors import TournamentError

ROOT = Path(__file__).resolve().parents[1]
TRUSTED_PROXY_ENV = "STSA_TRUSTED_PROXY"


def _print_pins(made: dict, note: str) -> None:
    for role, pin in made.items():
        print(f"STSA: the {role.value} PIN is {pin}. Write it down: it is shown only now "
              f"({note}).")


def _pins_on_database(set_pins, failure: str):
    """Open the database and run `set_pins(engine)`: (engine, PINs made) or a message and None."""
    try:
        engine = store.connect()
        return engine, set_pins(engine)
    except TournamentError as exc:
        print(f"{failure}: {exc}", file=sys.stderr)
        return None, None


def prepare() -> int:
    engine, made = _pins_on_database(store.ensure_pins, "STSA cannot start")
    if engine is None:
        return 1
    where = engine.url.render_as_string(hide_password=True)
    print(f"STSA: tournament database {where} is ready.")
    _print_pins(made, "change it on the Settings page")
    if not made:
        print("STSA: the PINs were set before; they are printed only when they are made. "
              "Lost one? On this machine run `make pins` (or `.venv/bin/python -m stsa pins "
              "--reset`): it prints new PINs and signs everyone out; STSA may keep running.")
    engine.dispose()
    return 0


def reset_pins() -> int:
    engine, made = _pins_on_database(store.reset_pins, "STSA cannot reset the PINs")
    if engine is None:
        return 1
    _print_pins(made, "every session was signed out")
    for role in {"organizer", "judge"} - {r.value for r in made}:
        print(f"STSA: the {role} PIN is now the one in STSA_{role.upper()}_PIN.")
    print("STSA: everyone was signed out and wrong PINs were forgotten.")
    engine.dispose()
    return 0


def server_command(port: int, address: str | None) -> list[str]:
    """`streamlit run app.py` with the production settings (README, "Running for a full
    room"): no watching of source files, no full garbage collection after every run."""
    command = [sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"),
               "--server.port", str(port), "--server.headless", "true",
               "--server.fileWatcherType", "none", "--server.runOnSave", "false",
               "--runner.postScriptGC", "false", "--browser.gatherUsageStats", "false"]
    return command + (["--server.address", address] if address else [])


def server_env() -> dict[str, str]:
    """The server trusts a forwarded client address only from the proxies named in
    STSA_TRUSTED_PROXY (none by default): a forged header cannot pick the key wrong PINs are
    counted under."""
    return {**os.environ, "FORWARDED_ALLOW_IPS": os.environ.get(TRUSTED_PROXY_ENV, "")}


def serve(port: int, address: str | None) -> int:
    code = prepare()
    if code:
        return code
    sys.stdout.flush()
    os.chdir(ROOT)
    os.execve(sys.executable, server_command(port, address), server_env())
    return 0  # not reached: the server replaces this process


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m stsa", description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command")
    run = commands.add_parser("serve", help="prepare the database and run the app")
    run.add_argument("--port", type=int, default=int(os.environ.get("STSA_PORT", "8501")))
    run.add_argument("--address", default=os.environ.get("STSA_ADDRESS"))
    pins = commands.add_parser("pins", help="set new PINs (for a lost PIN)")
    pins.add_argument("--reset", action="store_true", required=True,
                      help="set both PINs anew and sign everyone out")
    args = parser.parse_args(argv)
    if args.command == "serve":
        return serve(args.port, args.address)
    if args.command == "pins":
        return reset_pins()
    return prepare()


if __name__ == "__main__":
    raise SystemExit(main())
