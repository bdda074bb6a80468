"""`make load ROOM=cluster`: the crowd beyond one laptop (issue 32). The cluster recipe of
`make serve-cluster` — HAProxy, with nginx's cache behind it for the feed, in front of two app
processes on one PostgreSQL database (scripts/serve_cluster.py) — serves ten thousand phones
polling their live pages' answers every 5 s (2,000 requests a second) while 24 judges save a
table every 10 s through the same proxy.

The room, on this machine's loopback interface:
- a throwaway PostgreSQL server (tests/support/pg.py) holding the room's tournament (120
  players, 5 complete qualifiers, copied from the SQLite one `make load` builds, through the
  store's own whole-tournament transfer), the latest sitting's clock running;
- two app processes as `make serve-cluster` starts them (plain HTTP on loopback, trusting the
  proxy's address), and Debian's HAProxy and nginx with the recipe's configuration
  (tests/support/haproxy.cluster_proxy), over plain HTTP or,
  with `--https`, TLS at the proxy with a certificate made for the run;
- the phones (bench/phones.py), each from a loopback address of its own so the proxy's limits
  per address hold as at a venue: 60 % poll My seat's answer, 35 % the Standings', 5 % the TV's,
  arriving one after another over 30 s (`--arrival`), each opening its connection with its
  first poll, then polling every 5 s with the ETag it holds on the connection it keeps, as a
  page's element does. They only poll: a page opening is one script run for one of the
  processes, the single laptop's room (`make load ROOM=convention`) measures those. Ten
  thousand held connections are more than HAProxy's own reckoning allows under this machine's
  open-file limit (two files a connection), so the run tells it to take them (`maxconn`: a
  phone only polls the cache and holds one file); a venue's proxy host raises its limit
  (README, "More than one process");
- the judges (bench.load.judge): sign in through the proxy, then save a correction every
  10 s, each acknowledged save stamped with the data version right after it, so that
  `seen_p95_ms` says how soon each phone held an answer built after it (the proxy's second
  included).

Figures (under `load_cluster_…`, `load_cluster_https_…` in build/bench.json): the polls'
p50/p95/max and rate once every phone is in (the arrival's first polls, which open the
connections, apart as `arrival_poll_…`), errors, how many the cache answered (`X-Cache:
HIT`), the judges' saves and sign-ins, seen-after, and the CPU each part used (HAProxy,
nginx, each app process, PostgreSQL, this client) with the machine's load average. Targets:
polls p95 < 50 ms at 2,000 a second, saves p95 < 0.5 s, no error.
"""

from __future__ import annotations

import os
import resource
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import sqlalchemy as sa

from bench import load
from bench.phones import PhonesApart, Target

PHONES = 10_000
JUDGES = 24
SECONDS = 120.0
MIX = {"players": 0.6, "standings": 0.35, "tv": 0.05}  # the live answers the phones follow
TARGETS_MS = {"poll_p95_ms": 50.0, "judge_save_p95_ms": 500.0, "polls_per_s_short": 100.0}
APP_PROCESSES = 2
ARRIVAL = 30.0  # seconds over which the phones open their pages, one after another
PROXY_SPARE = 500  # connections beyond the phones': the judges' pages and polls, checks


def _cpu(pid: int) -> float:
    """CPU seconds of process `pid` and its children (nginx's worker under its master)."""
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        children = []
    return sum(load._process_cpu(p) or 0.0 for p in [pid, *map(int, children)])


def _postgres_cpu() -> float:
    """CPU seconds of every PostgreSQL process on the machine (the room's server alone runs
    then)."""
    total = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue
        if "(postgres)" in text.split(" ", 2)[1]:
            fields = text.rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def _copy_to_postgres(source: Path, url: str, backups: Path) -> None:
    """The room's tournament, from its SQLite file into the PostgreSQL database `url`, the
    latest sitting's clock started (the app processes set the load test's PINs from their
    environment, `run_app`, as `make pins` would)."""
    from stsa import store
    from stsa.auth import Actor, Role
    from stsa.store import transfer

    organizer = Actor("Bench", Role.ORGANIZER)
    sqlite = store.connect(f"sqlite:///{source}", backup_dir=backups)
    try:
        rows = transfer.dump_tournament(sqlite)
    finally:
        sqlite.dispose()
    target = store.connect(url, backup_dir=backups)
    try:
        transfer.load_tournament(target, rows, actor=organizer)
        latest = store.sittings(target).sort_values("sitting_id").iloc[-1]
        store.clock_action(target, int(latest["sitting_id"]), "start",
                           actor=Actor("Bench judge", Role.JUDGE))
    finally:
        target.dispose()


def _targets(base: str, tls, phones: int, every: float) -> list[Target]:
    """Each phone's answer, the mix spread evenly over the phones."""
    import json
    import urllib.request

    with urllib.request.urlopen(f"{base}/api/v1/tournaments", context=tls, timeout=30) as r:
        key = json.loads(r.read())["tournaments"][0]["key"]
    kinds = load._kinds(phones, MIX)
    return [Target(base, f"/api/v1/tournaments/{key}/live/{kind}?lang=en", None, every)
            for kind in kinds]


def run(phones: int = PHONES, judges: int = JUDGES, seconds: float = SECONDS, *,
        https: bool = False, players: int = 120, sittings: int = 5, every: float = 5.0,
        arrival: float | None = None, period: float = load.PERIOD,
        timeout: float = load.TIMEOUT, cache: Path = load.BUILD,
        log: Callable[[str], None] = print) -> dict:
    """Run the cluster room once and return its figures (`load_cluster_…`, times in ms)."""
    from scripts import serve_cluster
    from tests.support import haproxy
    from tests.support.appserver import free_port, run_app
    from tests.support.pg import PgServer, find_bindir

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    bindir = find_bindir()
    if bindir is None or haproxy.HAPROXY is None:
        raise SystemExit("The cluster room needs Debian's postgresql and haproxy "
                         "(scripts/test-deps.sh installs them).")
    source = load.tournament(players, sittings, cache=cache, log=log)
    tally = load.Tally()
    pg = PgServer(bindir)
    with tempfile.TemporaryDirectory(prefix="stsa-cluster-") as tmp:
        root = Path(tmp)
        try:
            pg.start()
            url = pg.url(pg.create_database())
            _copy_to_postgres(source, url, root / "backups")
            counter = sa.create_engine(url)
            from stsa import store
            tally.versions = lambda: store.data_version(counter)
            pem = None
            if https:
                from stsa import tls
                made = tls.make_certificate(root / "tls", ["localhost", "127.0.0.1"])
                pem = serve_cluster.tls_pem(made.cert_path.parent, root / "run")
            with _apps(run_app, root, url, APP_PROCESSES) as apps:
                port = free_port()
                with haproxy.cluster_proxy(port, [_port(a) for a in apps], root, pem,
                                           connections=phones + PROXY_SPARE) as proxy_pids:
                    scheme = "https" if https else "http"
                    base = f"{scheme}://127.0.0.1:{port}"
                    context = None
                    if https:
                        import ssl
                        context = ssl.create_default_context(
                            cafile=str(root / "tls" / "stsa-cert.pem"))
                    figures = _room(base, context, apps, proxy_pids, phones, judges, seconds,
                                    every, arrival, period, timeout, tally, log)
            counter.dispose()
        finally:
            pg.stop()
            resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    return {f"load_cluster_{k}": v for k, v in figures.items()}


def _port(app) -> int:
    return int(app.url.rsplit(":", 1)[1])


class _apps:
    """`count` app processes on the database `url`, as `make serve-cluster` starts them."""

    def __init__(self, run_app, root: Path, url: str, count: int):
        import contextlib
        self.stack = contextlib.ExitStack()
        self.run_app, self.root, self.url, self.count = run_app, root, url, count

    def __enter__(self):
        env = {"STSA_TRUSTED_PROXY": "127.0.0.1", "STSA_LOG_RUNS": "1"}
        return [self.stack.enter_context(self.run_app(self.root / f"app{n}",
                                                      database_url=self.url, env=env))
                for n in range(self.count)]

    def __exit__(self, *exc):
        return self.stack.__exit__(*exc)


def _room(base, context, apps, proxy_pids, phones, judges, seconds, every, arrival, period,
          timeout, tally, log) -> dict:
    log(f"cluster at {base}: {phones} phones, {judges} judges, {seconds:.0f} s")
    targets = _targets(base, context, phones, every)
    crowd = PhonesApart(ssl=context, timeout=timeout)
    clock = load.Clock(time.monotonic() + 1.0, seconds, tally)
    spread = arrival if arrival is not None else ARRIVAL
    tally.full.set()  # no pages to open: the judges need not wait for a room
    people = [threading.Thread(target=load.judge, name=f"judge-{j}", daemon=True,
                               args=(j, judges, base, clock, (j + 0.5) * period / judges,
                                     period, timeout, tally, context, None))
              for j in range(judges)]
    parts = {"haproxy": proxy_pids[0], "nginx": proxy_pids[1],
             **{f"app{n + 1}": a.process.pid for n, a in enumerate(apps)}}
    before = {name: _cpu(pid) for name, pid in parts.items()}
    before["postgres"], client, wall = _postgres_cpu(), load._own_cpu(), time.monotonic()
    loads = [os.getloadavg()[0]]
    for number, target in enumerate(targets):  # each phone's first poll within `spread`
        crowd.add(number, Target(target.base, target.path, None, target.every), clock.end,
                  start=clock.start + spread * number / len(targets))
    for person in people:
        person.start()
    while time.monotonic() < clock.end:
        time.sleep(1.0)  # the load average, sampled while the room runs (not a test)
        loads.append(os.getloadavg()[0])
    for person in people:
        person.join(2 * timeout + 60)
    crowd.wait(2 * timeout)
    span = time.monotonic() - wall
    used = {name: 100 * (_cpu(pid) - before[name]) / span for name, pid in parts.items()}
    used["postgres"] = 100 * (_postgres_cpu() - before["postgres"]) / span
    used["client"] = 100 * (load._own_cpu() - client) / span
    polls = crowd.polls
    # The room's figures are its polls once every phone is in: each on the connection its
    # phone holds, as a page's element polls. The arrival (each phone's first poll opening
    # its connection, as a page opening would) is reported apart.
    full = clock.start + spread
    durations = list(polls.durations_of(opened=False, since=full))
    arriving = list(polls.durations_of(opened=True))
    misses = list(polls.durations_of(hit=False, opened=False, since=full))
    seen = list(polls.seen_after(tally.acknowledged))
    t = tally.timings
    output = "\n".join(a.output() for a in apps)
    if "Traceback" in output:
        tally.error("server", output[output.index("Traceback"):][:1500])
    errors = tally.errors + polls.errors
    steady_s = max(1e-9, clock.end - full)
    return {
        "poll_p50_ms": load._ms(durations, 50), "poll_p95_ms": load._ms(durations, 95),
        "poll_max_ms": load._ms(durations, 100), "polls": len(durations),
        "polls_per_s": round(len(durations) / steady_s, 1),
        "polls_per_s_short": round(max(0.0, phones / every - len(durations) / steady_s), 1),
        "polls_changed": polls.count(200), "polls_not_modified": polls.count(304),
        "polls_from_cache": polls.cached,
        "poll_hit_p95_ms": load._ms(list(polls.durations_of(hit=True, opened=False,
                                                             since=full)), 95),
        "poll_miss_p50_ms": load._ms(misses, 50), "poll_miss_p95_ms": load._ms(misses, 95),
        "arrival_s": spread, "arrival_poll_p50_ms": load._ms(arriving, 50),
        "arrival_poll_p95_ms": load._ms(arriving, 95),
        "seen_p50_ms": load._ms(seen, 50), "seen_p95_ms": load._ms(seen, 95),
        "judge_save_p50_ms": load._ms(t["judge_save"], 50),
        "judge_save_p95_ms": load._ms(t["judge_save"], 95),
        "sign_in_p95_ms": load._ms(t["sign_in"], 95), "saves": len(tally.saves),
        "errors": len(errors), "error_samples": errors[:10],
        **{f"{name}_cpu_percent": round(value, 1) for name, value in used.items()},
        "loadavg_start": round(loads[0], 1), "loadavg_max": round(max(loads), 1),
        "loadavg_end": round(loads[-1], 1), "loadavg_median": round(float(np.median(loads)), 1),
        "cpus": os.cpu_count(),
        "phones": phones, "judges": judges, "seconds": seconds, "poll_every_s": every,
        "app_processes": len(apps), "https": bool(context),
        "server_script_runs": sum(a.script_runs() for a in apps),
    }
