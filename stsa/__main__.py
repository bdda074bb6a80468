"""`python -m stsa`: the console commands of STSA.

- `python -m stsa` prepares the database: creates or upgrades it, checks its integrity and gives
  the organizer and judges a PIN where none is stored (from STSA_ORGANIZER_PIN /
  STSA_JUDGE_PIN when set, else a random 8-digit PIN, printed once here; only hashes are kept).
- `python -m stsa serve [--port N] [--address A]` prepares the database, then runs the app with
  the production server settings (`make run` uses it). Once the server listens, its output
  ends with the "STSA is ready." block: the addresses to open on this laptop and on phones,
  the PINs made at this start (only there), the fingerprint or the plain-HTTP warning.
- `python -m stsa pins --reset` sets the PINs anew in every tournament, ends every session,
  withdraws every open invitation, stops trusting every device and forgets wrong PINs: for a
  lost or leaked PIN, from the console of the machine that runs STSA; it says what it ended.
- `python -m stsa pins --unlock` lifts a sign-in pause after many wrong PINs; the PINs stay.
- `python -m stsa pins --code` prints a one-time code (`make code`): with it and the organizer
  PIN, one sign-in goes through a pause many wrong PINs put on everyone else, which stays.
- `python -m stsa tls [--force]` makes this laptop's HTTPS certificate (`make tls`).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from stsa import auth, store
from stsa.domain import TournamentError

ROOT = Path(__file__).resolve().parents[1]
TRUSTED_PROXY_ENV = "STSA_TRUSTED_PROXY"
LABEL = 26  # the ready block's labels, so the addresses and PINs line up
RULE = "-" * 88


PINS_SET_BEFORE = ("the PINs were set before; they are printed only when they are made. Lost "
                   "one? On this machine run `make pins` (or `.venv/bin/python -m stsa pins "
                   "--reset`): it prints new PINs and signs everyone out in every tournament; "
                   "STSA may keep running.")


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


def _prepared() -> dict | None:
    """Create, upgrade and check the database and give each role a PIN where none is stored:
    the PINs made now ({} when they were set before), or None when STSA cannot start."""
    engine, made = _pins_on_database(store.ensure_pins, "STSA cannot start")
    if engine is None:
        return None
    where = engine.url.render_as_string(hide_password=True)
    print(f"STSA: tournament database {where} is ready.")
    engine.dispose()
    return made


def prepare() -> int:
    made = _prepared()
    if made is None:
        return 1
    _print_pins(made, "change it on the Settings page")
    if not made:
        print(f"STSA: {PINS_SET_BEFORE}")
    return 0


def reset_pins() -> int:
    """`make pins`: new PINs in every tournament, every session and open invitation ended,
    every device no longer trusted, wrong PINs forgotten (`store.reset_pins`); says exactly
    what it ended."""
    from stsa.services.admin import ended_words

    engine, reset = _pins_on_database(store.reset_pins, "STSA cannot reset the PINs")
    if engine is None:
        return 1
    _print_pins(reset.made, "every session was signed out")
    for role in {"organizer", "judge"} - {r.value for r in reset.made}:
        print(f"STSA: the {role} PIN is now the one in STSA_{role.upper()}_PIN.")
    for key, pin in reset.judges.items():
        print(f"STSA: the judge PIN of {key} is {pin}. Write it down: it is shown only now.")
    print(f"STSA: in every tournament: {ended_words(reset.ended)}")
    print(f"STSA: everyone was signed out and every invitation withdrawn, in every tournament; "
          f"{reset.forgotten} wrong PINs were forgotten.")
    engine.dispose()
    return 0


def _trusted_proxies() -> list[str] | None:
    from stsa import netcheck
    try:
        return netcheck.trusted_proxies(os.environ.get(TRUSTED_PROXY_ENV))
    except TournamentError as exc:
        print(f"STSA cannot start: {exc}", file=sys.stderr)
        return None


def ready_lines(served, made: dict) -> list[str]:
    """What the organizer needs, printed last once the server listens: where to open STSA on
    this laptop and on phones, the PINs when they were made at this start (else how to get
    new ones), and the certificate's fingerprint or the plain-HTTP warning."""
    lines = [RULE, "STSA is ready.", f"  {'Open on this laptop:':{LABEL}}{served.laptop}"]
    lines += [f"  {'On phones (same network):' if n == 0 else '':{LABEL}}{url}"
              for n, url in enumerate(served.phones)]
    if not served.phones and served.everywhere:
        lines += ["  On phones: none yet. This laptop has no address on a network: join the",
                  "    venue's network, then start STSA again."]
    elif not served.phones:
        lines += [f"  On phones: none. STSA listens on {served.address} only (STSA_ADDRESS);",
                  "    leave it unset to serve the venue's network."]
    if served.uncovered:
        lines += [f"  The certificate does not name {', '.join(served.uncovered)}: phones would "
                  f"refuse it there.", "    `make tls FORCE=1` makes one for this network."]
    lines += [f"  {role.value.capitalize() + ' PIN:':{LABEL}}{pin}" for role, pin in made.items()]
    lines += (["  Write the PINs down: they are shown only now. Change them on the Settings "
               "page;", "    lost one? Run `make pins` on this laptop."] if made else
              ["  PINs: set before, so not shown (they are printed only when made).",
               "    Lost one? Run `make pins` on this laptop: new PINs, everyone signed out;",
               "    STSA may keep running."])
    lines += ["  Sign-in paused after many wrong PINs, on a phone that never signed in? Run",
              "    `make code` on this laptop: a one-time code that lets the organizer in."]
    if served.certificate is not None:
        lines += ["  HTTPS. Phones ask once whether to trust this address; the certificate",
                  "    fingerprint (SHA-256) they show must be",
                  f"    {served.certificate.fingerprint}"]
    else:
        lines += ["  Plain HTTP: anyone on this network can read PINs and sessions. Run",
                  "    `make tls` once for HTTPS (README, \"On the venue's network\")."]
    return [*lines, "  Stop STSA with Ctrl+C.", RULE]


def tls_folder() -> Path:
    """Where this laptop's certificate lives: `STSA_TLS_DIR`, else data/tls/."""
    from stsa import tls
    chosen = os.environ.get("STSA_TLS_DIR")
    return Path(chosen) if chosen else tls.default_folder()


def serve(port: int, address: str | None, *, plain: bool = False) -> int:
    """Prepare the database, then serve the app: over HTTPS when this laptop has a
    certificate (`make tls`) unless `plain` (behind a proxy that does TLS). The addresses and
    the PINs made now come last, once the server listens (`ready_lines`); PINs made for a
    server that then does not start are printed on the way out, or they would be lost."""
    from stsa import tls
    from stsa.web import feed, server

    os.umask(0o077)  # the database, its journal and backups: readable by their owner only
    trusted = _trusted_proxies()
    if trusted is None:
        return 1
    made = _prepared()
    if made is None:
        return 1
    try:
        certificate = None if plain else tls.load_certificate(tls_folder())
    except TournamentError as exc:
        print(f"STSA cannot start: {exc} Make a new certificate with `make tls FORCE=1`, or "
              f"start without HTTPS by moving that folder away.", file=sys.stderr)
        _print_pins(made, "STSA did not start")
        return 1
    served = server.venue(address or "0.0.0.0", port, certificate, tls.network_names())
    shown = []

    def ready() -> None:
        print("\n".join(ready_lines(served, made)), flush=True)
        shown.append(True)

    os.chdir(ROOT)
    try:
        return server.run(served, trusted=trusted, ready=ready, feed=feed.asgi())
    finally:
        if not shown:
            _print_pins(made, "STSA did not start")
            sys.stdout.flush()


def make_tls(force: bool) -> int:
    """Make this laptop's HTTPS certificate for its network names and addresses."""
    from stsa import tls
    folder = tls_folder()
    try:
        found = tls.load_certificate(folder)
    except TournamentError:
        found = None
        force = True  # a broken pair (say, a key without its certificate) is replaced
    if found is not None and not force:
        print(f"STSA: a certificate exists already ({found.cert_path}, fingerprint "
              f"{found.fingerprint}). `make tls FORCE=1` makes a new one (phones must "
              f"accept it again).")
        return 0
    made = tls.make_certificate(folder, tls.network_names(), replace=force)
    print(f"STSA: made an HTTPS certificate for {', '.join(made.names)}, valid until "
          f"{made.not_after:%Y-%m-%d}.")
    print(f"STSA: its fingerprint (SHA-256) is {made.fingerprint}.")
    print("STSA: `make run` now serves https://. Phones ask once whether to trust it: compare "
          "the fingerprint (README, \"On the venue's network\").")
    return 0


def unlock() -> int:
    """Lift a sign-in pause after many wrong PINs; the PINs stay as they are."""
    try:
        engine = store.connect()
        forgotten = store.lift_pause(engine, actor=store.db.SYSTEM)
    except TournamentError as exc:
        print(f"STSA cannot lift the pause: {exc}", file=sys.stderr)
        return 1
    print(f"STSA: sign-in is open again ({forgotten} wrong PINs forgotten); the PINs did not "
          f"change.")
    engine.dispose()
    return 0


def console_code() -> int:
    """A one-time code for the organizer to sign in with while sign-in is paused (`make code`):
    the pause stays for everyone else. Printed here only; the database keeps its hash."""
    try:
        engine = store.connect()
        code = store.make_console_code(engine)
    except TournamentError as exc:
        print(f"STSA cannot make a code: {exc}", file=sys.stderr)
        return 1
    minutes = auth.CONSOLE_CODE_SECONDS // 60
    print(f"STSA: one-time code {code}. On the Sign in page, after the pause is shown, type it "
          f"with the organizer PIN: it signs the organizer in once, within {minutes} minutes, "
          f"and everyone else stays paused. A new code replaces this one.")
    engine.dispose()
    return 0


def main(argv: list[str] | None = None) -> int:
    """`python -m stsa …`, and the `stsa …` command of an installed checkout (pyproject.toml)."""
    prog = "stsa" if Path(sys.argv[0]).name == "stsa" else "python -m stsa"
    parser = argparse.ArgumentParser(prog=prog, description=(__doc__ or "").split("\n")[0])
    commands = parser.add_subparsers(dest="command")
    run = commands.add_parser("serve", help="prepare the database and run the app")
    run.add_argument("--port", type=int, default=int(os.environ.get("STSA_PORT", "8501")))
    run.add_argument("--address", default=os.environ.get("STSA_ADDRESS"))
    run.add_argument("--plain-http", action="store_true",
                     help="no HTTPS even with a certificate (behind a proxy that does TLS)")
    pins = commands.add_parser("pins", help="new PINs, or sign-in open again")
    what = pins.add_mutually_exclusive_group(required=True)
    what.add_argument("--reset", action="store_true",
                      help="set both PINs anew and sign everyone out")
    what.add_argument("--unlock", action="store_true",
                      help="lift a pause after many wrong PINs, keeping the PINs")
    what.add_argument("--code", action="store_true",
                      help="a one-time code that lets the organizer in through a pause")
    certificate = commands.add_parser("tls", help="make this laptop's HTTPS certificate")
    certificate.add_argument("--force", action="store_true", help="replace an existing one")
    args = parser.parse_args(argv)
    if not (ROOT / "app.py").is_file():
        print("STSA cannot start: this installation has the library but not the app's files "
              "(app.py, views/, data/). Run STSA from its folder, or install that folder with "
              "`pip install -e .` (README, \"Developing\").", file=sys.stderr)
        return 1
    if args.command == "serve":
        return serve(args.port, args.address, plain=args.plain_http)
    if args.command == "pins":
        return unlock() if args.unlock else console_code() if args.code else reset_pins()
    if args.command == "tls":
        return make_tls(args.force)
    return prepare()


if __name__ == "__main__":
    raise SystemExit(main())
