"""A gateway-wide budget of driver heap for streamed results (issue 18, item 3).

A streamed result (``gateway.spark.arrow_stream.ArrowBatchStream``) holds its partitions in the
driver heap: the one the client reads and, with prefetch, the next one. A partition that arrives
from a task is there about three times over for a moment (the task's serialized result, the copy
the driver fetches, the arrays it becomes). Eight unfetched scans of 200 MB partitions ended a
2 GB driver with OutOfMemoryError (two streams with prefetch), so before Spark runs anything each stream reserves
``PARTITION_COPIES`` x Spark's estimate of one partition (twice that with prefetch, which it gets
only for partitions estimated under ``PREFETCH_MAX_BYTES``). The reservations of the open streams
stay within ``budget_bytes`` (``result.stream_memory_fraction`` of the driver heap), and at most
``limit`` streams are open (``result.max_streams``). A stream that does not fit waits, while its
operation is still wanted, up to ``wait_s`` for others to end, then fails saying why. One whose
partitions, measured (the rows Spark expects, from a count or a real estimate, times the width of a sample of real rows), need more than the whole budget fails at once (issue 27:
a 1.5 GB partition ended a 2 GB driver in 6 s, read by one client as fast as it could): a partition is
held whole, so no reader's pace can save the heap then. One that only Spark's estimate makes that big
(after a shuffle the estimate is often its "unknown", Long.MaxValue, even for a two-row GROUP BY) runs
alone, with the whole budget. Estimates can be low (a string counts as 20 bytes; the stream corrects
them from a sample of rows, ``arrow_stream.measured_result_bytes``), so the memory guard
(``gateway.core.health``) stays the backstop.
"""
from __future__ import annotations

import threading
import time
from typing import Callable, Optional

from gateway.errors import BusyError, InvalidStatementError

PARTITION_COPIES = 4  # three copies while a partition arrives, and the estimate runs low (0.75x Arrow's size for longs)
PREFETCH_MAX_BYTES = 64 * 1024 * 1024
UNKNOWN_PARTITION_BYTES = 32 * 1024 * 1024  # no estimate (a backend without Catalyst's plans)
MIN_RESERVATION = 8 * 1024 * 1024
_MIB = 1024 * 1024


def reservation_for(partition_bytes: Optional[int]) -> tuple[int, bool]:
    """(bytes to reserve, whether to prefetch) for a stream whose partitions Spark estimates so."""
    estimate = UNKNOWN_PARTITION_BYTES if partition_bytes is None else max(0, partition_bytes)
    prefetch = estimate <= PREFETCH_MAX_BYTES
    return max(MIN_RESERVATION, PARTITION_COPIES * estimate * (2 if prefetch else 1)), prefetch


class StreamBudget:
    def __init__(self, limit: int, wait_s: float, budget_bytes: int = 0) -> None:
        self.limit = limit
        self.wait_s = wait_s
        self.budget_bytes = budget_bytes
        self.open_now = 0
        self.reserved = 0
        self._cond = threading.Condition()

    def admit(self, stream, wanted: Callable[[], bool] = lambda: True):
        """Wait until a prepared stream fits the budget, then start it; its ``close()`` gives the
        reservation back. Call it without holding the session: the wait may be long."""
        need, prefetch = reservation_for(stream.partition_bytes)
        try:
            if self.budget_bytes > 0 and need > self.budget_bytes:
                if getattr(stream, "partition_bytes_measured", False):
                    raise self._too_big(stream, need)  # real rows say the driver cannot hold a partition
                need = self.budget_bytes  # Spark's estimate alone may be its "unknown": alone, it may have it all
            self._acquire(need, wanted)
        except BaseException:
            stream.close()
            raise
        try:
            stream.start(prefetch)
        except BaseException:
            self._release(need)
            stream.close()
            raise
        return _BudgetedStream(stream, lambda: self._release(need))

    def _fits(self, need: int) -> bool:
        if self.limit > 0 and self.open_now >= self.limit:
            return False
        return self.budget_bytes <= 0 or self.reserved + need <= self.budget_bytes

    def _acquire(self, need: int, wanted: Callable[[], bool]) -> None:
        deadline = time.monotonic() + self.wait_s if self.wait_s > 0 else None
        with self._cond:
            while not self._fits(need):
                if not wanted():
                    raise BusyError("the statement was stopped while it waited for driver memory to stream its result")
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    raise BusyError(self._refusal(need))
                self._cond.wait(0.1 if left is None else min(0.1, left))
            self.open_now += 1
            self.reserved += need

    def _release(self, need: int) -> None:
        with self._cond:
            self.open_now -= 1
            self.reserved -= need
            self._cond.notify_all()

    def _too_big(self, stream, need: int) -> InvalidStatementError:
        part = (stream.partition_bytes or 0) // _MIB
        return InvalidStatementError(
            f"this result comes in {getattr(stream, 'partitions', 0):,} partition(s) of about {part:,} MiB each "
            f"(Spark's estimate, corrected by a sample of rows), and the driver holds a partition whole while it is "
            f"read: {PARTITION_COPIES} copies, {need // _MIB:,} MiB, are more than the driver memory for streamed results "
            f"({self.budget_bytes // _MIB:,} MiB, setting result.stream_memory_fraction of the driver heap). Read less at "
            f"once: add a LIMIT or a filter, spread the rows over more partitions (SELECT /*+ REPARTITION(200) */ …), "
            f"write the result to a table, or give the driver more memory (spark.driver.memory)",
            error_class="RESULT_PARTITIONS_TOO_BIG")

    def _refusal(self, need: int) -> str:
        if self.limit > 0 and self.open_now >= self.limit:
            held = f"{self.limit} large results are being read already (setting result.max_streams)"
        else:
            held = (f"the driver memory for streamed results ({self.budget_bytes // _MIB:,} MiB, setting "
                    f"result.stream_memory_fraction of the driver heap) is held by {self.open_now} "
                    f"result{'s' if self.open_now != 1 else ''} being read ({self.reserved // _MIB:,} MiB); this one needs about {need // _MIB:,} MiB (Spark's "
                    f"estimate of one partition, {PARTITION_COPIES} times over: copies while it arrives)")
        return (f"{held}, and none ended within {self.wait_s:g} s: fetch or close results you no longer read, "
                f"or try again later")


class _BudgetedStream:
    """A stream that gives its reservation back once, when closed."""

    def __init__(self, stream, release: Callable[[], None]) -> None:
        self._stream = stream
        self._release = release
        self._lock = threading.Lock()

    def __iter__(self):
        return iter(self._stream)

    def close(self) -> None:
        try:
            self._stream.close()
        finally:
            with self._lock:
                release, self._release = self._release, None
            if release is not None:
                release()

