"""One workbench process per data directory: a lock file holding the owner's PID.

The embedded Derby metastore admits one process, and the atomic-write journal, the jar store and
the compiled plans under the data directory assume no second process shares them. The gateway
takes ``<data_dir>/workbench.lock`` when it starts, before the store and Spark, and keeps it until
the process exits (a stopped SparkSession keeps Derby open in its JVM as long as the process
lives). The lock is an advisory ``flock`` on that file, which the kernel drops when its holder
dies, so the lock of a dead process (killed, crashed) is taken over at the next start; the PID and
command line written into the file only name the holder in the error.
"""
from __future__ import annotations

import fcntl
import os
import sys
import threading
from pathlib import Path

from gateway.errors import DataDirectoryInUseError

LOCK_FILE = "workbench.lock"
_held: dict[Path, int] = {}  # data directory -> open descriptor holding its flock, for this process's life
_guard = threading.Lock()


def _holder(path: Path) -> tuple[str, str]:
    """The PID and command line written by the process that holds the lock (best effort)."""
    try:
        lines = path.read_text(errors="replace").splitlines()
    except OSError:
        return "unknown", ""
    pid = lines[0].strip() if lines else "unknown"
    command = lines[1].strip() if len(lines) > 1 else ""
    return pid or "unknown", command


def acquire(data_dir: Path) -> Path:
    """Take the data directory's lock for this process (again, at no cost, if this process has it)."""
    data_dir = Path(data_dir)
    with _guard:
        if data_dir in _held:
            return data_dir / LOCK_FILE
        data_dir.mkdir(parents=True, exist_ok=True)
        path = data_dir / LOCK_FILE
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            pid, command = _holder(path)
            raise DataDirectoryInUseError(
                f"The data directory {data_dir} is in use by another workbench process (PID {pid}"
                f"{': ' + command if command else ''}; lock file {path}). One data directory belongs to one "
                f"process: its embedded Derby metastore admits one, and its atomic-write journal assumes it. "
                f"Stop that process, or use its REST API instead of starting a second one, or start this one "
                f"on another data directory (WORKBENCH_DATA_DIR=/other/dir, or data_dir in workbench.toml). "
                f"For several processes over the same tables, give each its own data_dir and share a "
                f"metastore (metastore.jdbc_url, or metastore.uri) and a warehouse (spark.sql.warehouse.dir); "
                f"see docs/cluster.md.",
                data_dir=str(data_dir), holder_pid=pid) from None
        except OSError:
            os.close(fd)
            raise
        # Ours now (a dead holder's lock is taken over here): say who holds it.
        command = " ".join(sys.argv)[:500].replace("\n", " ")
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n{command}\n".encode(), 0)
        os.fsync(fd)
        _held[data_dir] = fd
        return path


def held(data_dir: Path) -> bool:
    """Does this process hold the data directory's lock?"""
    return Path(data_dir) in _held
