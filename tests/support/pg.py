"""A throwaway PostgreSQL server for the store tests.

Debian's `postgresql` package ships `initdb` and `pg_ctl` under /usr/lib/postgresql/<major>/bin.
`PgServer` makes a cluster in a temporary directory, starts it on a free port on 127.0.0.1 with
trust authentication for loopback connections only, and removes everything when stopped.
`initdb` refuses to run as root (as in CI): then the directory is handed to the `postgres` system
user that the package creates, and the server runs as that user through `runuser`.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import sqlalchemy as sa


def find_bindir() -> Path | None:
    """The newest Debian PostgreSQL bin directory that has initdb and pg_ctl, or None."""
    candidates = []
    for initdb in glob.glob("/usr/lib/postgresql/*/bin/initdb"):
        bindir = Path(initdb).parent
        if (bindir / "pg_ctl").exists():
            try:
                major = int(bindir.parent.name.split(".")[0])
            except ValueError:
                major = 0
            candidates.append((major, bindir))
    return max(candidates)[1] if candidates else None


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PgServer:
    """One PostgreSQL cluster in a temporary directory; `start()`, `url(db)`, `stop()`."""

    def __init__(self, bindir: Path):
        self.bindir = Path(bindir)
        self.as_root = os.geteuid() == 0
        self.root = Path(tempfile.mkdtemp(prefix="stsa-pg-"))
        self.datadir = self.root / "data"
        self.logfile = self.root / "server.log"
        self.port: int | None = None
        self._counter = 0

    # -- running the binaries -------------------------------------------------------------
    def _run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        cmd = [str(self.bindir / args[0]), *args[1:]]
        if self.as_root:
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        return subprocess.run(cmd, cwd=self.root, capture_output=True, text=True, check=check,
                              timeout=120)

    def start(self) -> PgServer:
        if self.as_root:
            try:
                pw = pwd.getpwnam("postgres")
            except KeyError:
                raise RuntimeError("running as root, and there is no 'postgres' system user to "
                                   "run the server as (install Debian's postgresql package)"
                                   ) from None
            os.chown(self.root, pw.pw_uid, pw.pw_gid)
        self._run("initdb", "-D", str(self.datadir), "-U", "postgres", "--auth=trust",
                  "-E", "UTF8", "--locale=C", "--no-instructions")
        last_error = ""
        for _ in range(5):  # the free port may be taken between choosing and binding it
            self.port = free_port()
            opts = (f"-p {self.port} -c listen_addresses=127.0.0.1 "
                    f"-c unix_socket_directories={self.root} -c max_connections=100")
            done = self._run("pg_ctl", "-D", str(self.datadir), "-l", str(self.logfile),
                             "-o", opts, "-w", "-t", "60", "start", check=False)
            if done.returncode == 0:
                self._wait_ready()
                return self
            last_error = done.stdout + done.stderr + self.log_tail()
        raise RuntimeError(f"PostgreSQL did not start:\n{last_error}")

    def _wait_ready(self) -> None:
        engine = sa.create_engine(self.url("postgres"), poolclass=sa.pool.NullPool)
        try:
            deadline = time.monotonic() + 30
            while True:
                try:
                    with engine.connect() as conn:
                        conn.exec_driver_sql("SELECT 1")
                    return
                except sa.exc.OperationalError:
                    if time.monotonic() > deadline:
                        raise RuntimeError("PostgreSQL does not answer:\n"
                                           + self.log_tail()) from None
                    time.sleep(0.1)
        finally:
            engine.dispose()

    def log_tail(self, n: int = 40) -> str:
        try:
            return "\n".join(self.logfile.read_text(errors="replace").splitlines()[-n:])
        except OSError:
            return ""

    def stop(self) -> None:
        if self.port is not None and self.datadir.exists():
            self._run("pg_ctl", "-D", str(self.datadir), "-m", "immediate", "-w", "stop",
                      check=False)
        shutil.rmtree(self.root, ignore_errors=True)

    # -- databases -------------------------------------------------------------------------
    def url(self, database: str) -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{database}"

    def admin(self, *statements: str) -> None:
        """Run statements (CREATE/DROP DATABASE …) outside a transaction."""
        engine = sa.create_engine(self.url("postgres"), poolclass=sa.pool.NullPool,
                                  isolation_level="AUTOCOMMIT")
        try:
            with engine.connect() as conn:
                for statement in statements:
                    conn.exec_driver_sql(statement)
        finally:
            engine.dispose()

    def create_database(self, template: str | None = None) -> str:
        """A new empty database (copied from `template` when given); returns its name."""
        self._counter += 1
        name = f"stsa_test_{os.getpid()}_{self._counter}"
        suffix = f" TEMPLATE {template}" if template else ""
        self.admin(f"CREATE DATABASE {name}{suffix}")
        return name

    def drop_database(self, name: str) -> None:
        self.admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
