"""Every session sees every write: a process-wide write epoch that sessions catch up on.

A statement that may write (its analysis says so: anything but a query, SHOW, DESCRIBE, EXPLAIN,
SET, RESET or USE; a query with INSERT among its tokens, comments removed, counts as a write)
moves the epoch on when it ends, whatever its outcome (a failed write may have changed files).
Before each statement, and before each catalog call, a session whose last seen epoch is older
forgets the tables it cached (``gateway.spark.freshness``) and takes the current epoch. The
cost on the statement's path is one integer comparison; the catch-up itself (one in-memory call
in the JVM) is paid only by a session's first statement after another write.

A Spark Connect session cannot drop its whole cache (no JVM handles): each write there is logged with
the tables it names (the statement analysis's targets, qualified by the writer's current database) and
the server it ran on, and the other sessions on that server refresh those tables (``REFRESH TABLE``, one
round trip each) at their catch-up.
"""
from __future__ import annotations

import collections
import threading
from typing import NamedTuple

from gateway.core.statement_analysis import name_parts
from gateway.spark.freshness import forget_cached_tables, refresh_tables, write_scope, written_tables

# Writes remembered for sessions that refresh tables by name (Spark Connect): a session further behind than
# this refreshes what is left and is told (a warning) that older writes may still read stale.
LOGGED_WRITES = 4096


class LoggedWrite(NamedTuple):
    epoch: int
    scope: str          # the server the write ran on (``write_scope``)
    writer: str         # the writing session's id there: its own cache was refreshed by Spark
    tables: tuple       # qualified names; empty: not known (every table may be stale)


class WriteEpoch:
    def __init__(self) -> None:
        self._value = 0
        self._lock = threading.Lock()
        self.catch_ups = 0  # how many times a session refreshed its cache (tests, benchmarks)
        self._log: collections.deque = collections.deque(maxlen=LOGGED_WRITES)
        self._forgotten = 0  # the epoch of the newest write that fell out of the log

    @property
    def value(self) -> int:
        return self._value

    def bump(self, writer=None, analysis=None) -> int:
        """A write ended (done or failed); ``writer`` (its session) and the tables the statement names (its
        ``analysis``) are logged where other sessions refresh by name (Spark Connect)."""
        scope = write_scope(writer.spark) if writer is not None and analysis is not None else None
        if scope is not None and not _names_tables(analysis):
            scope = None  # a temporary view, a function, a database: nothing another session caches files of
        tables = written_tables(writer.spark, [name_parts(t) for t in analysis.targets]) if scope else ()
        with self._lock:
            self._value += 1
            if scope is not None:
                self._append(LoggedWrite(self._value, scope, writer.spark.session_id, tables))
            return self._value

    def _append(self, write: LoggedWrite) -> None:
        if len(self._log) == self._log.maxlen:
            self._forgotten = self._log[0].epoch  # a session behind it cannot know what it wrote
        self._log.append(write)

    def catch_up(self, session) -> bool:
        """Make ``session`` forget cached tables if anything was written since it last looked."""
        epoch = self._value
        seen = getattr(session, "seen_epoch", epoch)
        if seen == epoch:
            return False
        scope = write_scope(session.spark)
        if scope is None:
            forget_cached_tables(session.spark)
        else:
            refresh_tables(session.spark, *self._written_since(seen, epoch, scope, session.spark.session_id))
        session.seen_epoch = epoch
        self.catch_ups += 1
        return True

    def _written_since(self, seen: int, epoch: int, scope: str, reader: str) -> tuple[list, bool]:
        """The tables others wrote on ``scope`` after epoch ``seen`` up to ``epoch``, in order, each once, and
        whether that is all of them (False: a write named no table, or fell out of the log)."""
        with self._lock:
            entries = [w for w in self._log if seen < w.epoch <= epoch]
            complete = self._forgotten <= seen
        names: dict = {}
        for write in entries:
            if write.scope != scope or write.writer == reader:
                continue
            if not write.tables:
                complete = False
            names.update(dict.fromkeys(write.tables))
        return list(names), complete


# Words that make a statement's target something other than a table shared by the sessions.
_NOT_A_SHARED_TABLE = frozenset({"TEMPORARY", "TEMP", "FUNCTION", "DATABASE", "SCHEMA", "NAMESPACE", "CATALOG",
                                 "VARIABLE", "INDEX"})


def _names_tables(analysis) -> bool:
    """Does a write name tables (or views) that other sessions may have cached? Not a temporary view (the
    session's own), a function, a database: ``CREATE OR REPLACE TEMP VIEW v`` has ``v`` as its target."""
    head = analysis.words[:6]
    return bool(analysis.targets) and not (head and head[0] in ("CREATE", "DROP", "ALTER", "REPLACE")
                                           and _NOT_A_SHARED_TABLE.intersection(head))


# One per process: every session of every gateway in the process shares one JVM and one metastore.
WRITES = WriteEpoch()


def may_write(statement) -> bool:
    """Can this statement change a table's data or definition? Its analysis says
    (``StatementAnalysis.writes``: ``WITH q AS (…) INSERT/**/INTO t …`` is a write)."""
    return statement.analysis.writes
