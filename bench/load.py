"""`make load`: a full room on one laptop. One app process, as `make run` starts it, serves a
finished tournament while phones watch the live pages and judges enter results, all at once,
as their browsers would (bench/wsclient.py speaks Streamlit's websocket; bench/phones.py polls
the feed as the pages' live elements do).

Why: the design's bars for the room (100 spectators, 12 judges, 120 players on one 2-core
laptop; and the convention hall, 1,000 phones and 24 judges) are about the server under many
people at once (its threads, the GIL, the shared caches, the database), which no single-page
timing shows.

The scenario (all on the loopback interface, bounded in count and time, it stops by itself):

- the tournament: `players` players after `sittings` complete qualifiers, built once through
  the store (bench/big.py) and kept in build/ (build/big.db when it has this shape, else
  build/load-<players>x<sittings>.db); each run serves a fresh copy, so saves never pile up;
- each phone (spectator) comes from a loopback address of its own (127.a.b.c), so the
  server's per-address limits hold as in a room, and behaves as a browser on a live page does:
  it opens the page (Standings; My seat following one player; TV) over the websocket, which
  is one script run, and keeps it open; the page's live element then polls the feed answer the
  page gave it (its address and ETag, from the element's data) every 5 s, the first poll at a
  random moment of the first interval, with the ETag it holds, on a kept-alive connection: a
  304 while the answer is the same, the new answer (gzipped) when it changed. No poll is a
  script run: the server's own count of script runs (`STSA_LOG_RUNS`) checks it;
- each judge opens the Sign in page and signs in with a name and the judge PIN, opens Results,
  then every `period` seconds enters a result of the latest qualifier as the entry in their
  browser does: chooses one of their own tables (one run; judges get disjoint tables, so no
  two save the same table), types the seats' VPs (in the browser: no run) and presses Save,
  which sends the whole entry once (one run, `Session.trigger`), with the tick a correction of
  a complete sitting asks for before typing. A table already has a result, so each save is a
  correction with new VPs: a new version in the database. At the end the database is read to
  check that every save is there (versions and log entries). Each acknowledged save is
  stamped with the data version right after it; a phone has "seen" it at its first poll whose
  answer was built at that version or later (`X-STSA-Version`): `seen_p95_ms` is how long
  after the acknowledgement (the bar: 6 s);
- starts are staggered evenly over the first interval (or `--arrival` seconds), so the rates
  are steady (100 phones polling every 5 s = 20 polls a second; 12 judges = 1.2 saves a
  second).

The convention room (`--room convention`, `make load ROOM=convention`): 1,000 phones (600 on
My seat, 350 on Standings, 50 on the TV page) and 24 judges on the same tournament, 120 s, the
latest sitting's clock running. The judges open Sign in as above, then wait until every
phone's page has opened (the room is full) and 5 s more, meet at a barrier and all send the
PIN at the same moment: `sign_in_…` is from sending the PIN to the page that says "Signed in
as". Their saves start over the period after the next one. Its targets: saves p95 < 0.5 s,
sign-ins p95 < 3 s, seen p95 < 6 s, the server under 70 % of a core, no error;
`room_full_after_s` says when every page had opened.

Timings are from sending the request to the run's last `script_finished` (for a save, the
chain: save, then the rerun that shows "saved as version N"), and for a poll from sending it
to its last byte. Errors are exceptions on pages, error messages, saves that did not save,
runs or polls that did not finish in `timeout` seconds, and broken connections.

The client runs in its own process: one thread per person for the websocket pages (each
waits for its own answers), every phone's polls on one asyncio event loop. The figures include
the client's own CPU use and the machine's load average, so a busy machine or client shows in
them.

`python -m bench.load [--room convention] [--spectators 100] [--judges 12] [--seconds 60]
[--players 120] [--sittings 5] [--https]` prints the figures and merges them into
build/bench.json: under `load_…` for the room of the design (120 players, 5 sittings),
`load_convention_…` for the convention room, under `load_<players>x<sittings>_…` for any other
tournament (e.g. `--players 2000 --sittings 12 --spectators 50 --judges 0`). It exits 1 when
there were errors or a target was missed.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import resource
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from bench.phones import PhonesApart, element_target
from bench.phones import address as phones_address
from bench.wsclient import Element, ProtocolError, Run, RunTimeout, Session
from tests.support.appserver import JUDGE_PIN, ORGANIZER_PIN, run_app

ROOT = Path(__file__).resolve().parents[1]
BUILD = ROOT / "build"
PERIOD = 10.0  # seconds between a judge's saves (and the refresh interval if a page names none)
TIMEOUT = 30.0  # seconds a run may take before it counts as an error
LATE = 1.0  # an action that starts this many seconds after it was due counts as late
SETTLE = 5.0  # judges signing in together do so this long after the room is full
SEED = 7
DESIGN = (120, 5)  # the room of the design: players, sittings; its figures go under `load_`
# The design's room: saves p95 < 1 s, the phones' polls p95 < 2 s, and every phone holding a
# save within 6 s of its acknowledgement (p95; the elements poll every 5 s).
TARGETS_MS = {"judge_save_p95_ms": 1000.0, "poll_p95_ms": 2000.0, "seen_p95_ms": 6000.0}


@dataclass(frozen=True)
class Feed:
    """Clients of the data feed (`/api/v1/…`): `clients` connections kept alive, each asking
    `rate` times a second for one answer: "standings" of the tournament or the "sitting" being
    played; with `revalidate`, sending its ETag back as overlays do (304 while nothing
    changed)."""

    clients: int
    rate: float
    path: str = "standings"  # or "sitting", or "overlay": one of OVERLAYS tables' overlays
    revalidate: bool = False


OVERLAYS = 10  # the filmed tables of the overlays room: its clients share their overlays


@dataclass(frozen=True)
class Room:
    """A named scenario (`--room NAME`, `make load ROOM=NAME`): its people, its tournament,
    the pages its spectators watch (kind -> share), whether the judges sign in all at one
    moment, and its own targets. Its figures go under `load_<name>_…`."""

    spectators: int
    judges: int
    players: int
    sittings: int
    mix: dict[str, float]
    together: bool
    targets_ms: dict[str, float]
    seconds: float = 60
    clock: bool = False  # the latest sitting's clock runs (its countdown on TV and My seat)
    feed: Feed | None = None  # clients of the data feed beside the pages
    languages: tuple[str, ...] = ()  # the spectators' languages (?lang=), in turn


ROOMS = {
    # Issue 22: a convention hall. A thousand phones and the TV on one process, most phones on
    # My seat (each following a player), and every judge signing in at the same moment.
    "convention": Room(spectators=1000, judges=24, players=120, sittings=5,
                       mix={"player": 0.6, "standings": 0.35, "tv": 0.05}, together=True,
                       targets_ms={"judge_save_p95_ms": 500.0, "poll_p95_ms": 1000.0,
                                   "seen_p95_ms": 6000.0, "sign_in_p95_ms": 3000.0,
                                   "server_cpu_percent": 70.0},
                       # the arrivals' rush, the moment, then a whole minute with every page open
                       seconds=120, clock=True),
    # Issue 25: the design's room with its spectators reading English, Swedish and French in
    # turn: the shared tables are still made once per data version, not once per language.
    "languages": Room(spectators=100, judges=12, players=120, sittings=5,
                      mix={"standings": 1.0}, together=False, targets_ms=TARGETS_MS,
                      languages=("en", "sv", "fr")),
    # Issue 24: the design's room while a club's website and scripts read the data feed, 500
    # requests a second in all, each a whole answer (no ETag sent back: from the kept copy).
    "feed": Room(spectators=100, judges=12, players=120, sittings=5, mix={"standings": 1.0},
                 together=False, feed=Feed(clients=25, rate=20.0, path="standings"),
                 targets_ms={**TARGETS_MS, "feed_p95_ms": 50.0,
                             "feed_per_s_short": 25.0}),  # 95 % of the 500 asked
    # Issue 24: 200 stream overlays, each asking for the sitting being played every second
    # with its ETag (304 while nothing changed): their whole cost to the server's CPU.
    "overlays": Room(spectators=0, judges=0, players=120, sittings=5, mix={"standings": 1.0},
                     together=False, feed=Feed(clients=200, rate=1.0, path="overlay",
                                               revalidate=True),
                     targets_ms={"server_cpu_percent": 10.0,
                                 "feed_per_s_short": 10.0}),  # 95 % of the 200 asked
}
SAVED = re.compile(r"saved as version (\d+)")
JUDGES_FROM = 500_000  # judges' loopback addresses come after any room's phones
ENTRY = "stsa_result_entry"  # the Results page's entry (a component: typing costs no run)
FRAGMENT_OR_PAGE = ("finished", "fragment_finished")  # the entry's part of the page runs alone
TABLE = re.compile(r"^Table (\d+) ·")


# --- the tournament --------------------------------------------------------------------------

def _shape(path: Path) -> tuple[int, int] | None:
    """(players, complete qualifier sittings) of a tournament file, None if unreadable. Read
    as immutable: no lock or shared-memory file is left beside the cached file."""
    try:
        with sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True) as conn:
            players = conn.execute("SELECT count(*) FROM players").fetchone()[0]
            done = conn.execute("SELECT count(*) FROM sittings WHERE kind = 'qualifier' "
                                "AND status = 'complete'").fetchone()[0]
            total = conn.execute("SELECT count(*) FROM sittings").fetchone()[0]
        return (players, done) if done == total else None
    except sqlite3.Error:
        return None


def tournament(players: int, sittings: int, *, cache: Path = BUILD,
               log: Callable[[str], None] = print) -> Path:
    """A finished tournament of this shape in `cache`: build/big.db when it matches (`make
    bench` builds the 2,000 × 12 one there), else load-<players>x<sittings>.db, built the first
    time (through the store, as the app would; 2,000 × 12 takes minutes)."""
    named = cache / f"load-{players}x{sittings}.db"
    for candidate in (cache / "big.db", named):
        if candidate.exists() and _shape(candidate) == (players, sittings):
            return candidate
    if named.exists():  # a broken or partial file of that name: build it again
        named.unlink()
    from bench import big  # imports the store (pandas, SQLAlchemy): only when building

    log(f"building a tournament of {players} players × {sittings} sittings in {named} …")
    start = time.monotonic()
    big.build(named, players=players, sittings=sittings, seed=SEED)
    log(f"built in {time.monotonic() - start:.0f} s")
    return named


def _prepare(source: Path, root: Path) -> Path:
    """A copy of the tournament to serve, with the test PINs set the way an organizer would
    after losing one (`python -m stsa pins --reset`), whatever PINs the file had."""
    root.mkdir(parents=True, exist_ok=True)
    target = root / "stsa.db"
    shutil.copyfile(source, target)
    env = {**os.environ, "STSA_DATABASE_URL": f"sqlite:///{target}",
           "STSA_ORGANIZER_PIN": ORGANIZER_PIN, "STSA_JUDGE_PIN": JUDGE_PIN,
           "STSA_BACKUP_DIR": str(root / "backups")}
    subprocess.run([sys.executable, "-m", "stsa", "pins", "--reset"], cwd=ROOT, env=env,
                   check=True, capture_output=True, timeout=120)
    return target


def _start_clock(database: Path) -> None:
    """Start the clock of the tournament's latest sitting, as a judge would on the day, so
    every TV and My seat shows a running countdown (issue 22: the clock must not cost the
    room)."""
    from stsa import store
    from stsa.auth import Actor, Role

    engine = store.connect(f"sqlite:///{database}", backup_dir=database.parent / "backups")
    try:
        latest = store.sittings(engine).sort_values("sitting_id").iloc[-1]
        store.clock_action(engine, int(latest["sitting_id"]), "start",
                           actor=Actor("Bench judge", Role.JUDGE))
    finally:
        engine.dispose()


def _saved(path: Path) -> dict:
    """What the database holds of results: versions summed over tables, result log entries,
    and each (table number of the latest qualifier, version) stored."""
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
        versions = conn.execute("SELECT coalesce(sum(result_version), 0) FROM tables").fetchone()[0]
        events = conn.execute("SELECT count(*) FROM events WHERE action IN "
                              "('result.submit', 'result.correct')").fetchone()[0]
        latest = conn.execute("SELECT max(id) FROM sittings WHERE kind = 'qualifier'").fetchone()[0]
        stored = set(conn.execute(
            "SELECT t.table_no, s.version FROM submissions s JOIN tables t ON t.id = s.table_id "
            "WHERE t.sitting_id = ?", (latest,)).fetchall())
    return {"versions": versions, "events": events, "stored": stored}


# --- what the people do ----------------------------------------------------------------------

@dataclass
class Tally:
    """What every person's thread reports, under one lock."""

    timings: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: list[str] = field(default_factory=list)
    saves: list[tuple[int, int]] = field(default_factory=list)  # (table number, version)
    # (monotonic time, the data version right after it) of each acknowledged save
    acknowledged: list[tuple[float, int]] = field(default_factory=list)
    versions: Callable[[], int] | None = None  # reads the tournament's data version
    late: int = 0
    # page kind -> script runs the server did for spectators of that kind (`new_session`s)
    runs: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    viewers: dict[str, int] = field(default_factory=lambda: defaultdict(int))  # kind -> count
    opened: int = 0  # spectators whose page opened (once each)
    full: threading.Event = field(default_factory=threading.Event)  # all of them opened
    full_at: float | None = None  # when (time.monotonic())
    room_full: Callable[[float], None] | None = None  # told the moment the room is full
    lock: threading.Lock = field(default_factory=threading.Lock)

    def time(self, what: str, run: Run) -> None:
        with self.lock:
            self.timings[what].append(run.seconds)

    def acknowledge(self) -> None:
        """A judge was just told a save succeeded: when, and the data version now (an answer
        built at it or later holds the save)."""
        at = time.monotonic()
        version = self.versions() if self.versions is not None else 0
        with self.lock:
            self.acknowledged.append((at, version))

    def count_runs(self, page: str, run: Run) -> None:
        with self.lock:
            self.runs[page] += run.runs

    def open(self, first: bool) -> None:
        """A spectator's page opened; the last one's first opening makes the room full."""
        with self.lock:
            self.opened += first
            if self.opened < sum(self.viewers.values()) or self.full.is_set():
                return
            self.full_at = time.monotonic()
        if self.room_full is not None:
            self.room_full(self.full_at)
        self.full.set()

    def error(self, who: str, message: str) -> None:
        with self.lock:
            self.errors.append(f"{who}: {message}"[:2000])


class Problem(Exception):
    """A page that shows what it should not (an exception, an error, no saved message)."""


def _check(run: Run, what: str, statuses=("finished",)) -> Run:
    if run.status not in statuses:
        raise Problem(f"{what}: the run ended {run.status}")
    if run.exceptions:
        raise Problem(f"{what}: the page shows an exception: {run.exceptions[0][:500]}")
    if run.alerts["error"]:
        raise Problem(f"{what}: the page shows an error: {run.alerts['error'][0][:300]}")
    return run


class Clock:
    """The scenario's time: everyone acts at their due times until `end`; `abort` stops all
    at once (Ctrl-C)."""

    def __init__(self, start: float, seconds: float, tally: Tally):
        self.start, self.end, self.tally = start, start + seconds, tally
        self.abort = threading.Event()

    def wait_until(self, due: float) -> bool:
        """Wait for `due` (a time.monotonic() value); False if the scenario is over by then.
        An action that could not start within LATE seconds of its due time is counted."""
        if due >= self.end or self.abort.is_set():
            return False
        delay = due - time.monotonic()
        if delay > 0:
            return not self.abort.wait(delay)
        if -delay > LATE:
            with self.tally.lock:
                self.tally.late += 1
        return True


#: What each kind of spectator opens (url path).
PAGES = {"standings": "standings", "player": "player", "tv": "tv"}


def spectator(number: int, url: str, clock: Clock, offset: float, timeout: float,
              tally: Tally, phones: PhonesApart, tls=None, page: str = "standings",
              query: str = "") -> None:
    """A phone, as its browser behaves: open a live page (Standings; My seat following one
    player, `query` "player=<id>"; TV) from its own loopback address (one script run), then
    keep the page open while its live element polls the feed (`bench.phones`: the address and
    ETag the page's element was given, at its interval, with the ETag it holds) until the
    scenario ends. After an error the browser would load the page again: open it again at the
    next due time."""
    who = f"spectator {number} ({page})"
    due = clock.start + offset
    opened = False
    while clock.wait_until(due):
        session = Session(url, path=PAGES[page], query=query, timeout=timeout, ssl=tls,
                          source=phones_address(number))
        try:
            with session:
                first = _check(session.run(), f"opening {page}")
                tally.time("spectator_open", first)
                tally.time(f"spectator_open_{page}", first)
                tally.count_runs(page, first)
                target = element_target(first, url)
                if target is None:
                    raise Problem(f"{page} has no live element following the feed")
                phones.add(number, target, clock.end)
                tally.open(not opened)
                opened = True
                # the page stays open, its websocket idle, while its element polls
                clock.abort.wait(max(0.0, clock.end - time.monotonic()))
                return
        except (Problem, RunTimeout, ProtocolError, OSError, LookupError) as exc:
            tally.error(who, f"{type(exc).__name__}: {exc}")
            due = time.monotonic() + PERIOD


def _table_box(run: Run):
    return run.widget("Table", kind="selectbox")


def choose(session: Session, box: Element, label: str) -> Run:
    """Choose `label` in the select box `box` as the browser does: a box inside a fragment
    reruns that fragment alone."""
    if box.fragment_id:
        return session.rerun_fragment(box.fragment_id, {box.key: label}, auto=False)
    return session.run(widgets={box.key: label})


def chosen(box) -> str:
    """The option a select box shows."""
    p = box.proto
    if p.set_value and p.HasField("raw_value"):
        return p.raw_value
    return p.options[p.default] if p.HasField("default") else ""


@dataclass
class Together:
    """Every judge signs in at one moment: each opens the Sign in page (staggered like
    everyone else), waits until the room is full (every spectator's page has opened once) and
    `settle` seconds more, then at the barrier until every judge is there, and sends the PIN.
    Their saves then start staggered over the period after the next one."""

    full: threading.Event  # set when every spectator's page has opened
    settle: float
    barrier: threading.Barrier
    at: float = 0.0  # the moment (time.monotonic()), once the room is full

    def meet(self, clock: Clock) -> bool:
        """Wait for the moment and the other judges; False if the scenario ends first."""
        if not self.full.wait(max(0.0, clock.end - time.monotonic())):
            return False
        if not clock.wait_until(self.at):
            return False
        self.barrier.wait()
        return True


def table_entry(entry: Element, vps: list[int]) -> dict:
    """What the Results page's entry (`ui.result_entry`) sends on Save once `vps` (one per
    seat, in seat order) were typed over what it shows: each seat's leader as shown (or a
    different one of the table's, for a first result), the other numbers as shown (0 when
    blank), and the ticks it asks for before typing (a correction of a complete sitting)."""
    data = entry.data
    rows = []
    for n, (seat, vp) in enumerate(zip(data["seats"], vps)):
        shown = data["values"][str(seat["player_id"])]
        rows.append({**{f: shown.get(f) or 0 for f in ("spice", "solari", "troops", "water",
                                                       "variant_points")},
                     "player_id": seat["player_id"], "vp": vp, "tiebreak": None,
                     "leader": shown.get("leader") or data["leaders"][n]})
    ticks = {tick["name"]: True for tick in data["ticks"]}
    return {"sent": data["answered"] + 1, "token": data["token"], "base": data["base"],
            "rows": rows, "confirm": {"unusual": False, "after_finals": False, **ticks}}


def judge(number: int, judges: int, url: str, clock: Clock, offset: float, period: float,
          timeout: float, tally: Tally, tls=None, together: Together | None = None) -> None:
    """Sign in, open Results, then every `period` seconds correct one of this judge's tables
    of the latest qualifier (tables number, number + judges, …) as the entry in the browser
    does: choose it (one run), type new VPs (no run), Save (one run: the whole entry). After
    an error, start again (sign in anew, on one's own) at the next due time."""
    who = f"judge {number + 1}"
    due = clock.start + offset
    saves = 0
    while clock.wait_until(due):
        session = Session(url, path="sign_in", timeout=timeout, ssl=tls,
                          source=phones_address(JUDGES_FROM + number))
        meet, together = together, None  # a judge signing in again comes alone
        try:
            with session:
                tally.count_runs("judge", _check(session.run(), "opening Sign in"))
                if meet is not None and not meet.meet(clock):
                    return
                # from sending the PIN to the signed-in page (the chain's last run)
                done = _check(session.submit_form(
                    "Sign in", {"Your name": f"Load judge {number + 1}", "PIN": JUDGE_PIN}),
                    "signing in")
                tally.count_runs("judge", done)
                if "Signed in as" not in done.text():
                    raise Problem(f"signing in: not signed in: {done.texts()[:4]}")
                tally.time("sign_in", done)
                page = _check(session.run(page="results"), "opening Results")
                tally.time("judge_open_page", page)
                tally.count_runs("judge", page)
                if meet is not None:  # the saves start staggered after the common sign-in
                    if not clock.wait_until(meet.at + (1 + (number + 0.5) / judges) * period):
                        return
                labels = list(_table_box(page).proto.options)
                mine = [int(TABLE.match(label)[1]) for i, label in enumerate(labels)
                        if i % judges == number]
                if not mine:
                    raise Problem(f"no table for judge {number + 1}: the latest qualifier has "
                                  f"{len(labels)} tables for {judges} judges")
                start = time.monotonic()
                k = 0
                while clock.wait_until(due := start + k * period):
                    table_no = mine[k % len(mine)]
                    box = _table_box(session.last)
                    label = next(o for o in box.proto.options
                                 if o.startswith(f"Table {table_no} ·"))
                    if chosen(box) != label:
                        opened = choose(session, box, label)
                        tally.time("judge_open_table", _check(opened, "choosing a table",
                                                              FRAGMENT_OR_PAGE))
                        tally.count_runs("judge", opened)
                    entry = session.last.component(ENTRY)
                    # Plausible VPs (a usual game's, so no "unusual" tick), four apart at a
                    # table (no ties), and a table's next save never repeats its last one.
                    again = (k // len(mine)) % 4
                    vps = [2 + 4 * seat + again for seat in range(len(entry.data["seats"]))]
                    run = _check(session.trigger(entry, "save", table_entry(entry, vps)),
                                 "saving", FRAGMENT_OR_PAGE)
                    found = [m for text in run.alerts["success"] if (m := SAVED.search(text))]
                    if not found:
                        raise Problem(f"saving table {table_no}: no 'saved' message: "
                                      f"{run.texts()[:6]}")
                    tally.time("judge_save", run)
                    tally.count_runs("judge", run)
                    tally.acknowledge()
                    with tally.lock:
                        tally.saves.append((table_no, int(found[0][1])))
                    saves += 1
                    k += 1
                return
        except (Problem, RunTimeout, ProtocolError, OSError, LookupError, StopIteration,
                threading.BrokenBarrierError) as exc:
            tally.error(who, f"{type(exc).__name__}: {exc}")
            due = time.monotonic() + period


# --- measuring the machine -------------------------------------------------------------------

def _process_cpu(pid: int) -> float | None:
    """CPU seconds (user + system) a process has used so far (Linux /proc)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return None


def _machine_cpu() -> tuple[float, float] | None:
    """(busy, total) CPU time of the whole machine so far (Linux /proc/stat), in ticks."""
    try:
        values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
        idle = values[3] + (values[4] if len(values) > 4 else 0)
        return sum(values) - idle, sum(values)
    except (OSError, ValueError, IndexError):
        return None


def _own_cpu() -> float:
    """The client's CPU seconds: its own and its reaped children's (the phones' process)."""
    return sum(usage.ru_utime + usage.ru_stime for usage in (
        resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)))


def overlay_paths(database: Path, tables: int = OVERLAYS) -> list[str]:
    """Overlays of tables 1 … `tables` made in the room's database (before the server
    starts), as the organizer makes them: their answers' addresses."""
    from stsa import store
    from stsa.auth import Actor, Role

    engine, who = store.connect(f"sqlite:///{database}"), Actor("Bench", Role.ORGANIZER)
    try:
        made = [store.create_overlay(engine, "table", table_no=n, actor=who)
                for n in range(1, tables + 1)]
        return [f"/api/v1/overlays/{token}" for _, token in made]
    finally:
        engine.dispose()


def feed_path(url: str, what: str, tls=None) -> str:
    """The feed address the clients ask for: the first tournament's standings, or its latest
    published sitting."""
    import urllib.request
    with urllib.request.urlopen(f"{url}/api/v1/tournaments", context=tls, timeout=30) as r:
        key = json.loads(r.read())["tournaments"][0]["key"]
    base = f"/api/v1/tournaments/{key}"
    if what == "standings":
        return f"{base}/standings"
    with urllib.request.urlopen(f"{url}{base}/sittings", context=tls, timeout=30) as r:
        latest = json.loads(r.read())["sittings"][-1]["sitting"]
    return f"{base}/sittings/{latest}"


def feed_client(number: int, url: str, path: str, clock: Clock, offset: float, feed: Feed,
                timeout: float, tally: Tally, tls=None) -> None:
    """One client of the data feed: GET `path` every 1/rate s on one kept-alive connection
    (a new one after an error), sending the ETag back when `feed.revalidate`."""
    import http.client
    import urllib.parse

    where = urllib.parse.urlsplit(url)

    def connect():
        if where.scheme == "https":
            return http.client.HTTPSConnection(where.hostname, where.port, timeout=timeout,
                                               context=tls)
        return http.client.HTTPConnection(where.hostname, where.port, timeout=timeout)

    connection, etag, due = connect(), None, clock.start + offset
    while clock.wait_until(due):
        due += 1.0 / feed.rate
        headers = {"If-None-Match": etag} if feed.revalidate and etag else {}
        started = time.monotonic()
        try:
            connection.request("GET", path, headers=headers)
            answer = connection.getresponse()
            answer.read()
        except (OSError, http.client.HTTPException) as broken:
            tally.error(f"feed-{number}", f"{type(broken).__name__}: {broken}")
            connection.close()
            connection = connect()
            continue
        took = time.monotonic() - started
        if answer.status not in (200, 304):
            tally.error(f"feed-{number}", f"answered {answer.status}")
            continue
        etag = answer.getheader("ETag") or etag
        with tally.lock:
            tally.timings["feed"].append(took)
            tally.timings[f"feed_{answer.status}"].append(took)
    connection.close()


class Monitor:
    """CPU use of the server, of this client and of the machine over the scenario, and the
    1-minute load average sampled every second."""

    def __init__(self, server_pid: int):
        self.pid = server_pid
        self.loads: list[float] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, name="monitor", daemon=True)

    def _sample(self) -> None:
        while not self._stop.wait(1.0):
            self.loads.append(os.getloadavg()[0])

    def __enter__(self) -> Monitor:
        self.load_start = os.getloadavg()[0]
        self.wall = time.monotonic()
        self.server, self.client, self.machine = _process_cpu(self.pid), _own_cpu(), _machine_cpu()
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()
        self.seconds = time.monotonic() - self.wall
        self.load_end = os.getloadavg()[0]
        server = _process_cpu(self.pid)
        self.server_cpu = (None if server is None or self.server is None
                           else 100 * (server - self.server) / self.seconds)
        self.client_cpu = 100 * (_own_cpu() - self.client) / self.seconds
        machine = _machine_cpu()
        self.machine_cpu = (None if machine is None or self.machine is None
                            or machine[1] == self.machine[1]
                            else 100 * (machine[0] - self.machine[0])
                            / (machine[1] - self.machine[1]))

    def figures(self) -> dict:
        r = lambda v: None if v is None else round(v, 1)  # noqa: E731
        return {"loadavg_start": r(self.load_start), "loadavg_end": r(self.load_end),
                "loadavg_max": r(max(self.loads, default=self.load_end)),
                # the middle of the run's samples: the room itself, not its teardown's burst
                "loadavg_median": r(float(np.median(self.loads)) if self.loads
                                    else self.load_end),
                "server_cpu_percent": r(self.server_cpu),  # of one core
                "client_cpu_percent": r(self.client_cpu),  # of one core
                "machine_cpu_percent": r(self.machine_cpu),  # of all cores together
                "cpus": os.cpu_count()}


# --- the scenario ----------------------------------------------------------------------------

def _ms(values: list[float], q: float) -> float | None:
    return round(float(np.percentile(values, q)) * 1000, 1) if values else None


def _per_minute(runs: int, people: int, seconds: float) -> float | None:
    return round(runs / people / (seconds / 60), 2) if people and seconds else None


def _player_ids(path: Path) -> list[int]:
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
        return [r[0] for r in conn.execute("SELECT id FROM players ORDER BY id")]


def _kinds(spectators: int, mix: dict[str, float]) -> list[str]:
    """Each spectator's page kind, `mix` (kind -> share) spread evenly over the arrivals."""
    total = sum(mix.values())
    kinds: list[str] = []
    seen = dict.fromkeys(mix, 0.0)
    for _ in range(spectators):  # the kind furthest behind its share comes next
        kind = max(mix, key=lambda k: mix[k] / total * (len(kinds) + 1) - seen[k])
        seen[kind] += 1
        kinds.append(kind)
    return kinds


def run(spectators: int = 100, judges: int = 12, seconds: float = 60, players: int = 120,
        sittings: int = 5, *, period: float = PERIOD, timeout: float = TIMEOUT,
        cache: Path = BUILD, log: Callable[[str], None] = print, https: bool = False,
        arrival: float | None = None, mix: dict[str, float] | None = None,
        together: bool = False, run_clock: bool = False, feed: Feed | None = None,
        languages: tuple[str, ...] = ()) -> dict:
    """Run the scenario once against a new app process and return its figures (times in ms):
    `load_judge_save_p50_ms` / `_p95_ms`, `load_poll_p50_ms` / `_p95_ms` (the phones' polls
    of the feed), `load_seen_p95_ms` (from a save's acknowledgement to each phone's first poll
    holding an answer built after it), `load_spectator_open_p95_ms` (a page opening),
    `load_sign_in_p50_ms` / `_p95_ms`, other steps' times, `load_errors` (with up to ten
    `load_error_samples`), `load_saves` (saves the judges saw succeed) and
    `load_saves_in_database` (new versions the database holds; both must agree), the
    server's script runs (`load_server_script_runs`, and after the pages opened
    `load_script_runs_per_spectator_minute`), the CPU use and load average, and the
    scenario's parameters (`arrival`: the seconds over which the spectators open their
    pages, default the judges' `period`; `run_clock`: the latest sitting's clock is running;
    `languages`: the spectators read these languages in turn)."""
    source = tournament(players, sittings, cache=cache, log=log)
    tally = Tally()
    with tempfile.TemporaryDirectory(prefix="stsa-load-") as tmp:
        root = Path(tmp)
        database = _prepare(source, root)
        if run_clock:
            _start_clock(database)
        before = _saved(database)
        ids = _player_ids(database)
        overlays = overlay_paths(database) if feed is not None and feed.path == "overlay" \
            else []
        certificate = None
        if https:  # the laptop's own certificate, as `make tls` makes it
            from stsa import tls
            certificate = root / "tls"
            tls.make_certificate(certificate, ["localhost", "127.0.0.1"])
        tally.versions = _version_reader(database)
        # every phone and judge comes from a loopback address of its own, so the server's
        # limits per address hold as they do in a room; the feed's clients share 127.0.0.1
        with run_app(root, tls=certificate, count_runs=True,
                     env={"STSA_CONNECTIONS_PER_ADDRESS": "0"} if feed else None) as app:
            log(f"app at {app.url}: {spectators} spectators, {judges} judges, {seconds:.0f} s")
            clock = Clock(time.monotonic() + 1.0, seconds, tally)
            phones = PhonesApart(ssl=app.ssl, timeout=timeout)
            # seconds between two spectators' arrivals
            opens = (arrival or period) / max(spectators, 1)
            kinds = _kinds(spectators, mix or {"standings": 1.0})
            for kind in kinds:
                tally.viewers[kind] += 1
            people = [threading.Thread(
                target=spectator, name=f"spectator-{i}", daemon=True,
                args=(i, app.url, clock, i * opens, timeout, tally, phones, app.ssl, kind,
                      # My seat follows one player, the room's players in turn
                      "&".join(q for q in (
                          f"player={ids[i % len(ids)]}" if kind == "player" else "",
                          f"lang={languages[i % len(languages)]}" if languages else "") if q)))
                for i, kind in enumerate(kinds)]
            # all at once, a moment after every spectator's page opened (the room is full)
            meet = (Together(tally.full, SETTLE, threading.Barrier(judges, timeout=timeout))
                    if together and judges else None)
            if meet is not None:
                tally.room_full = lambda at: setattr(meet, "at", at + meet.settle)
            # judges start between the spectators' starts, spread over the same first period
            people += [threading.Thread(target=judge, name=f"judge-{j}", daemon=True,
                                        args=(j, judges, app.url, clock,
                                              (j + 0.5) * period / judges, period, timeout,
                                              tally, app.ssl, meet))
                       for j in range(judges)]
            if feed is not None:  # the feed's clients, spread over their first second
                paths = overlays or [feed_path(app.url, feed.path, app.ssl)]
                people += [threading.Thread(
                    target=feed_client, name=f"feed-{c}", daemon=True,
                    args=(c, app.url, paths[c % len(paths)], clock,
                          c / feed.clients / feed.rate, feed, timeout, tally, app.ssl))
                    for c in range(feed.clients)]
            # a person whose thread broke on something unforeseen is an error, not a silence
            threading.excepthook = lambda broke: tally.error(
                broke.thread.name if broke.thread else "load",
                f"{broke.exc_type.__name__}: {broke.exc_value}")
            with Monitor(app.process.pid) as monitor:
                for person in people:
                    person.start()
                try:
                    for person in people:
                        # everyone ends by the end of the scenario plus one run's timeout
                        person.join(max(0.0, clock.end - time.monotonic()) + 2 * timeout + 60)
                    phones.wait(max(0.0, clock.end - time.monotonic()) + 2 * timeout)
                except KeyboardInterrupt:
                    clock.abort.set()
                    raise
            threading.excepthook = threading.__excepthook__
            stuck = [p.name for p in people if p.is_alive()]
            if stuck:
                clock.abort.set()
                tally.error("load", f"still running after the scenario: {stuck[:5]}")
            server_log = app.output()
            runs = app.script_runs()
        tally.versions = None
        after = _saved(database)

    saves = len(tally.saves)
    in_database = after["versions"] - before["versions"]
    logged = after["events"] - before["events"]
    missing = set(tally.saves) - after["stored"]
    if in_database != saves or logged != saves or missing:
        tally.error("database", f"{saves} saves seen by judges, {in_database} new versions and "
                                f"{logged} result log entries in the database; "
                                f"not stored: {sorted(missing)[:10]}")
    if "Traceback" in server_log:
        tally.error("server", "the app's output has a traceback: "
                    + server_log[server_log.index("Traceback"):][:1500])
    polls = phones.polls
    for message in polls.errors[:20]:
        tally.error("phones", message)
    if len(polls.errors) > 20:
        tally.error("phones", f"… and {len(polls.errors) - 20} more poll errors")
    t = tally.timings
    durations = list(polls.durations())
    seen = list(polls.seen_after(tally.acknowledged))
    # the runs the server did beyond each page's opening, the judges' and the feed's none
    judge_runs = sum(tally.runs.get(k, 0) for k in ("judge",))
    after_opening = max(0, runs - len(t["spectator_open"]) - judge_runs)
    figures = {
        "judge_save_p50_ms": _ms(t["judge_save"], 50),
        "judge_save_p95_ms": _ms(t["judge_save"], 95),
        "judge_save_max_ms": _ms(t["judge_save"], 100),
        "judge_open_table_p95_ms": _ms(t["judge_open_table"], 95),
        "judge_open_page_p95_ms": _ms(t["judge_open_page"], 95),
        "poll_p50_ms": _ms(durations, 50),
        "poll_p95_ms": _ms(durations, 95),
        "poll_max_ms": _ms(durations, 100),
        "polls": len(durations),
        "polls_per_s": round(len(durations) / seconds, 1),
        "polls_changed": polls.count(200),
        "polls_not_modified": polls.count(304),
        "poll_errors": len(polls.errors),
        "poll_mb_received": round(polls.received / 2**20, 1),
        # from a save's acknowledgement to each phone's first poll holding it
        "seen_p50_ms": _ms(seen, 50),
        "seen_p95_ms": _ms(seen, 95),
        "seen_max_ms": _ms(seen, 100),
        "spectator_open_p50_ms": _ms(t["spectator_open"], 50),
        "spectator_open_p95_ms": _ms(t["spectator_open"], 95),
        **{f"spectator_open_{kind}_p95_ms": _ms(t[f"spectator_open_{kind}"], 95)
           for kind in sorted(tally.viewers) if len(tally.viewers) > 1},
        # when every spectator's page had opened (the arrivals' rush over)
        "room_full_after_s": (None if tally.full_at is None
                              else round(tally.full_at - clock.start, 1)),
        "sign_in_p50_ms": _ms(t["sign_in"], 50),
        "sign_in_p95_ms": _ms(t["sign_in"], 95),
        "sign_in_max_ms": _ms(t["sign_in"], 100),
        "sign_ins": len(t["sign_in"]),
        # every script run the server started (pages, fragments), and those beyond the
        # spectators' page openings and the judges' own runs, per spectator and minute
        "server_script_runs": runs,
        "script_runs_per_spectator_minute": _per_minute(after_opening, spectators, seconds),
        **({} if feed is None else {
            "feed_p50_ms": _ms(t["feed"], 50), "feed_p95_ms": _ms(t["feed"], 95),
            "feed_max_ms": _ms(t["feed"], 100), "feed_requests": len(t["feed"]),
            "feed_not_modified": len(t["feed_304"]),
            "feed_per_s": round(len(t["feed"]) / seconds, 1),
            # how far the rate fell short of the clients' asking (0: every request was made)
            "feed_per_s_short": round(max(0.0, feed.clients * feed.rate
                                          - len(t["feed"]) / seconds), 1),
            "feed_clients": feed.clients, "feed_rate_per_client": feed.rate,
            "feed_path": feed.path, "feed_revalidate": feed.revalidate}),
        "errors": len(tally.errors),
        "error_samples": tally.errors[:10],
        "saves": saves,
        "saves_in_database": in_database,
        "late_starts": tally.late,
        **monitor.figures(),
        "players": players, "sittings": sittings, "spectators": spectators, "judges": judges,
        "seconds": seconds, "judge_period_s": period, "arrival_s": arrival or period,
        **({"spectator_pages": dict(tally.viewers)} if len(tally.viewers) > 1 else {}),
        "sign_in_together": bool(together and judges), "clock_running": run_clock,
    }
    return {f"load_{k}": v for k, v in figures.items()}


def _version_reader(database: Path) -> Callable[[], int]:
    """The tournament's data version as the store reads it, from this process (a save's
    acknowledgement is stamped with the version right after it)."""
    import sqlalchemy as sa

    from stsa import store

    engine = sa.create_engine(f"sqlite:///{database}")
    return lambda: store.data_version(engine)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.load",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--room", choices=sorted([*ROOMS, "cluster"]), default=None,
                        help="a named scenario: its people, pages and targets (the flags below "
                             "then change only what they name)")
    parser.add_argument("--spectators", type=int, default=None, help="default 100")
    parser.add_argument("--judges", type=int, default=None, help="default 12")
    parser.add_argument("--seconds", type=float, default=None, help="default 60")
    parser.add_argument("--players", type=int, default=None, help="default 120")
    parser.add_argument("--sittings", type=int, default=None, help="default 5")
    parser.add_argument("--period", type=float, default=PERIOD,
                        help="seconds between a judge's saves")
    parser.add_argument("--timeout", type=float, default=TIMEOUT,
                        help="seconds a run may take before it counts as an error")
    parser.add_argument("--arrival", type=float, default=None,
                        help="seconds over which the spectators open their pages (default: the "
                             "judges' period, everyone within the first 10 s)")
    parser.add_argument("--https", action="store_true",
                        help="serve HTTPS from a certificate made for the run (make tls)")
    parser.add_argument("--clock", action=argparse.BooleanOptionalAction, default=None,
                        help="run the latest sitting's clock (default: the room's choice)")
    parser.add_argument("--out", type=Path, default=BUILD / "bench.json")
    args = parser.parse_args(argv)
    log = lambda message: print(message, file=sys.stderr, flush=True)  # noqa: E731
    if args.room == "cluster":  # the proxy's cache, two processes, PostgreSQL (bench.cluster)
        from bench import cluster
        figures = cluster.run(**{k: v for k, v in (("phones", args.spectators),
                                                   ("judges", args.judges),
                                                   ("seconds", args.seconds)) if v is not None},
                              https=args.https, arrival=args.arrival, log=log)
        prefix = "load_cluster" + ("_https" if args.https else "")
        named = {prefix + key[len("load_cluster"):]: value for key, value in figures.items()}
        return _report(named, prefix, cluster.TARGETS_MS, args.out,
                       figures["load_cluster_errors"] > 0)
    room = ROOMS.get(args.room or "")
    given: dict[str, float] = {"spectators": 100, "judges": 12, "players": 120, "sittings": 5,
                               "seconds": 60}
    for name in given:
        if getattr(args, name) is not None:
            given[name] = getattr(args, name)
        elif room is not None:
            given[name] = getattr(room, name)
    figures = run(int(given["spectators"]), int(given["judges"]), given["seconds"],
                  int(given["players"]), int(given["sittings"]), period=args.period,
                  timeout=args.timeout, log=log, https=args.https, arrival=args.arrival,
                  mix=room.mix if room else None, together=bool(room and room.together),
                  run_clock=bool(room and room.clock) if args.clock is None else args.clock,
                  feed=room.feed if room else None, languages=room.languages if room else ())
    targets = room.targets_ms if room else TARGETS_MS

    shape = (int(given["players"]), int(given["sittings"]))
    prefix = ("load" + (f"_{args.room}" if args.room else "")
              + ("" if shape == DESIGN else f"_{shape[0]}x{shape[1]}")
              + ("_https" if args.https else "")
              + ("_no_clock" if args.clock is False and room and room.clock else ""))
    named = {prefix + key[len("load"):]: value for key, value in figures.items()}
    return _report(named, prefix, targets, args.out, figures["load_errors"] > 0)


def _report(named: dict, prefix: str, targets: dict[str, float], out: Path,
            failed: bool) -> int:
    """Merge the figures into `out` (build/bench.json), print them with their targets; 1 when
    `failed` (errors) or a target was missed."""
    out.parent.mkdir(parents=True, exist_ok=True)
    merged = json.loads(out.read_text()) if out.exists() else {}
    merged.update(named, python=platform.python_version(), machine=platform.machine())
    out.write_text(json.dumps(merged, indent=2) + "\n")
    print(f"{'figure':<52}{'value':>12}  target")
    for key, value in named.items():
        if key.endswith("error_samples"):
            continue
        bound = targets.get(key[len(prefix) + 1:])
        mark = ""
        if bound is not None and value is not None:
            ok = value < bound
            failed |= not ok
            mark = f"< {bound:.0f}  {'ok' if ok else 'MISSED'}"
        shown = "-" if value is None else value if isinstance(value, int | float) else str(value)
        print(f"{key:<52}{shown:>12}  {mark}")
    for sample in next((v for k, v in named.items() if k.endswith("error_samples")), []):
        print(f"error: {sample}")
    print(f"written to {out}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
