"""The write journal: one small JSON file per open transaction under ``<data_dir>/atomic``.

Written (atomically: temporary file, fsync, rename) before any staging exists and again at
each publishing step, so a process killed at any point leaves enough to repair on the next
start. A transaction's file is removed once it is fully committed or aborted.
"""
from __future__ import annotations

import json
import logging
import os
import threading
from pathlib import Path

log = logging.getLogger(__name__)

# Phases of a transaction, in order. Before COMMITTED recovery rolls back; from COMMITTED on
# it completes the clean-up.
WRITING = "writing"
PUBLISHING = "publishing"
COMMITTED = "committed"


class Journal:
    def __init__(self, directory: Path) -> None:
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()

    def record(self, entry: dict) -> None:
        """Write (or rewrite) a transaction's entry; durable when this returns."""
        path = self.directory / f"{entry['txid']}.json"
        temporary = path.with_suffix(".tmp")
        with self._lock:
            with open(temporary, "w") as handle:
                json.dump(entry, handle, sort_keys=True)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(temporary, path)
            _fsync_dir(self.directory)

    def remove(self, txid: str) -> None:
        with self._lock:
            (self.directory / f"{txid}.json").unlink(missing_ok=True)

    def entries(self) -> list[dict]:
        """Every open transaction, oldest first; unreadable files are reported and skipped."""
        found = []
        for path in sorted(self.directory.glob("*.json"), key=lambda p: p.stat().st_mtime):
            try:
                found.append(json.loads(path.read_text()))
            except (OSError, ValueError) as exc:
                log.error("atomic-write journal %s is unreadable (%s); leaving it for inspection", path, exc)
        for leftover in self.directory.glob("*.tmp"):  # a rewrite interrupted before its rename
            leftover.unlink(missing_ok=True)
        return found


def _fsync_dir(directory: Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
