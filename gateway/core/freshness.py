"""Every session sees every write: a process-wide write epoch that sessions catch up on.

A statement that may write (its analysis says so: anything but a query, SHOW, DESCRIBE, EXPLAIN,
SET, RESET or USE; a query with INSERT among its tokens, comments removed, counts as a write)
moves the epoch on when it ends, whatever its outcome (a failed write may have changed files).
Before each statement, and before each catalog call, a session whose last seen epoch is older
forgets the tables it cached (``gateway.spark.freshness``) and takes the current epoch. The
cost on the statement's path is one integer comparison; the catch-up itself (one in-memory call
in the JVM) is paid only by a session's first statement after another write.
"""
from __future__ import annotations

import threading

from gateway.spark.freshness import forget_cached_tables


class WriteEpoch:
    def __init__(self) -> None:
        self._value = 0
        self._lock = threading.Lock()
        self.catch_ups = 0  # how many times a session refreshed its cache (tests, benchmarks)

    @property
    def value(self) -> int:
        return self._value

    def bump(self) -> int:
        with self._lock:
            self._value += 1
            return self._value

    def catch_up(self, session) -> bool:
        """Make ``session`` forget cached tables if anything was written since it last looked."""
        epoch = self._value
        if getattr(session, "seen_epoch", epoch) == epoch:
            return False
        forget_cached_tables(session.spark)
        session.seen_epoch = epoch
        self.catch_ups += 1
        return True


# One per process: every session of every gateway in the process shares one JVM and one metastore.
WRITES = WriteEpoch()


def may_write(statement) -> bool:
    """Can this statement change a table's data or definition? Its analysis says
    (``StatementAnalysis.writes``: ``WITH q AS (…) INSERT/**/INTO t …`` is a write)."""
    return statement.analysis.writes
