"""A real HAProxy for tests, run with `make serve-cluster`'s configuration
(`scripts/serve_cluster.haproxy_config`): Debian's `haproxy`, daemonised, stopped after; and
the recipe as a whole (`cluster_proxy`: nginx's cache, then HAProxy in front of it).

Used by tests/unit/test_haproxy.py (in front of a stand-in app),
tests/server/test_proxy_cache.py (in front of two real app processes) and the cluster room of
`make load`. `until` asks again until the cache answers as a test waits for it."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

HAPROXY = shutil.which("haproxy") or next(
    (p for p in ("/usr/sbin/haproxy",) if os.access(p, os.X_OK)), None)
needs_haproxy = pytest.mark.skipif(HAPROXY is None, reason="HAProxy is not installed: "
                                   "scripts/test-deps.sh installs it")
NGINX = shutil.which("nginx") or next(
    (p for p in ("/usr/sbin/nginx",) if os.access(p, os.X_OK)), None)
needs_nginx = pytest.mark.skipif(NGINX is None, reason="nginx is not installed: "
                                 "scripts/test-deps.sh installs it")


@contextlib.contextmanager
def running(config: str, folder: Path, *, preexec_fn=None) -> Iterator[int]:
    """HAProxy with `config` (written to `folder`/haproxy.cfg); yields its process id once it
    listens (`haproxy -D` returns then), and stops it after. `preexec_fn` runs in the child
    before HAProxy starts (a test lowers its open-file limit there)."""
    assert HAPROXY is not None
    folder.mkdir(parents=True, exist_ok=True)
    path, pid_file = folder / "haproxy.cfg", folder / "haproxy.pid"
    path.write_text(config)
    started = subprocess.run([HAPROXY, "-D", "-p", str(pid_file), "-f", str(path)],
                             capture_output=True, text=True, timeout=60, preexec_fn=preexec_fn)
    assert started.returncode == 0, started.stdout + started.stderr
    pid = int(pid_file.read_text().split()[0])
    try:
        yield pid
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGTERM)


def until(ask: Callable, done: Callable, what: str, seconds: float = 30):
    """`ask()` again until `done(answer)`, and that answer; fails after `seconds` (the cache
    keeps an answer a second: this only bounds a broken proxy or app)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        answer = ask()
        if done(answer):
            return answer
    raise AssertionError(f"no {what} within {seconds} s")


@contextlib.contextmanager
def cluster_proxy(port: int, backends: list[int], folder: Path, pem: Path | None = None, *,
                  address: str = "127.0.0.1", stats: Path | None = None,
                  connections: int | None = None) -> Iterator[tuple[int, int]]:
    """The recipe's proxies in front of `backends`: nginx's cache on a free loopback port,
    HAProxy on `port` handing it the feed's requests; yields their process ids (HAProxy's,
    nginx's) and stops both after."""
    from scripts import serve_cluster
    from tests.support.appserver import free_port

    assert NGINX is not None
    cache_port = free_port()
    cache = serve_cluster.start_cache(NGINX, cache_port, backends, folder / "nginx")
    try:
        with running(serve_cluster.haproxy_config(port, backends, address, pem, stats,
                                                  connections, cache_port=cache_port),
                     folder / "haproxy") as pid:
            yield pid, cache.pid
    finally:
        cache.terminate()
        cache.wait(10)
