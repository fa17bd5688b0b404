"""A real PostgreSQL server for tests: Debian's binaries, a throw-away cluster in a temporary
directory, listening on 127.0.0.1 and a free port only, stopped by its PID.

initdb refuses to run as root, so as root the cluster belongs to the ``postgres`` user (Debian's
package creates it) and every server command runs through ``runuser -u postgres --``. Trust
authentication on 127.0.0.1 is enough for a server that lives in a temporary directory for one
test run. Shared by the tests through the session fixture ``postgres_server`` (tests/conftest.py).
"""
from __future__ import annotations

import glob
import os
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Optional

from ports import free_port

INSTALL_HINT = ("Debian's PostgreSQL server binaries are missing (looked in /usr/lib/postgresql/*/bin): "
                "install them with `apt-get install -y postgresql` (.ci/run does this on a fresh machine)")
SUPERUSER = "postgres"
START_TIMEOUT_S = 60
STOP_TIMEOUT_S = 30


def postgres_bin_dir() -> Path:
    """The newest /usr/lib/postgresql/<version>/bin that has initdb and pg_ctl."""
    candidates = [Path(p) for p in glob.glob("/usr/lib/postgresql/*/bin")
                  if (Path(p) / "initdb").exists() and (Path(p) / "pg_ctl").exists()]
    if not candidates:
        raise RuntimeError(INSTALL_HINT)
    return max(candidates, key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0)


class PostgresServer:
    """One PostgreSQL cluster: ``start()``, ``url(db)`` for SQLAlchemy, ``jdbc_url(db)``, ``create_database``, ``stop()``."""

    def __init__(self, base_dir: Optional[Path] = None) -> None:
        self.bin_dir = postgres_bin_dir()
        self.port = free_port()
        self.base_dir = Path(base_dir) if base_dir else Path(tempfile.mkdtemp(prefix="workbench-pg-"))
        self.data_dir = self.base_dir / "data"
        self.log_file = self.base_dir / "server.log"
        self.pid: Optional[int] = None
        self._as_root = os.geteuid() == 0

    # -- commands as the cluster's owner -----------------------------------------------------------

    def _command(self, program: str, *args: str) -> list[str]:
        command = [str(self.bin_dir / program), *args]
        return ["runuser", "-u", SUPERUSER, "--", *command] if self._as_root else command

    def _run(self, program: str, *args: str, timeout: float = 60) -> subprocess.CompletedProcess:
        result = subprocess.run(self._command(program, *args), capture_output=True, text=True, timeout=timeout,
                                cwd=self.base_dir)
        if result.returncode != 0:
            raise RuntimeError(f"{program} {' '.join(args)} failed ({result.returncode}): "
                               f"{result.stderr.strip() or result.stdout.strip()}\n{self._log_tail()}")
        return result

    def _log_tail(self) -> str:
        try:
            return "server log:\n" + "\n".join(self.log_file.read_text().splitlines()[-20:])
        except OSError:
            return ""

    # -- life --------------------------------------------------------------------------------------

    def start(self) -> "PostgresServer":
        self.base_dir.mkdir(parents=True, exist_ok=True)
        if self._as_root:
            shutil.chown(self.base_dir, SUPERUSER, SUPERUSER)
        self._run("initdb", "-D", str(self.data_dir), "-U", SUPERUSER, "--auth=trust", "--encoding=UTF8",
                  "--locale=C.UTF-8", "--no-sync")
        return self.resume()

    def pause(self) -> None:
        """Stop the server (fast shutdown) and keep its data: an outage that ``resume()`` ends."""
        self._run("pg_ctl", "-D", str(self.data_dir), "-m", "fast", "-w", "-t", str(STOP_TIMEOUT_S), "stop",
                  timeout=STOP_TIMEOUT_S + 10)
        self.pid = None

    def resume(self) -> "PostgresServer":
        """Start the initialized cluster (again) on the same port."""
        options = (f"-c listen_addresses=127.0.0.1 -p {self.port} -c unix_socket_directories={self.base_dir} "
                   f"-c fsync=off -c full_page_writes=off -c synchronous_commit=off -c max_connections=100")
        self._run("pg_ctl", "-D", str(self.data_dir), "-l", str(self.log_file), "-o", options,
                  "-w", "-t", str(START_TIMEOUT_S), "start", timeout=START_TIMEOUT_S + 10)
        self.pid = int((self.data_dir / "postmaster.pid").read_text().split()[0])
        self._wait_until_accepting()
        return self

    def _wait_until_accepting(self) -> None:
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            probe = subprocess.run([str(self.bin_dir / "pg_isready"), "-h", "127.0.0.1", "-p", str(self.port)],
                                   capture_output=True)
            if probe.returncode == 0:
                return
            time.sleep(0.1)
        raise RuntimeError(f"PostgreSQL on 127.0.0.1:{self.port} did not accept connections in "
                           f"{START_TIMEOUT_S} s\n{self._log_tail()}")

    def stop(self) -> None:
        """SIGINT (PostgreSQL's fast shutdown) to the postmaster's PID; SIGKILL if it outlives the timeout."""
        if self.pid is None:
            return
        pid, self.pid = self.pid, None
        try:
            os.kill(pid, signal.SIGINT)
        except ProcessLookupError:
            pid = None
        deadline = time.monotonic() + STOP_TIMEOUT_S
        while pid is not None and time.monotonic() < deadline:
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                break
            time.sleep(0.05)
        else:
            if pid is not None:
                os.kill(pid, signal.SIGKILL)
        shutil.rmtree(self.base_dir, ignore_errors=True)

    # -- addresses ---------------------------------------------------------------------------------

    def url(self, database: str = "postgres") -> str:
        """A SQLAlchemy URL (psycopg 3)."""
        return f"postgresql+psycopg://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def jdbc_url(self, database: str = "postgres") -> str:
        return f"jdbc:postgresql://127.0.0.1:{self.port}/{database}?user={SUPERUSER}"

    def create_database(self, name: str) -> str:
        """A new empty database; returns its SQLAlchemy URL."""
        self._run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", SUPERUSER, name)
        return self.url(name)
