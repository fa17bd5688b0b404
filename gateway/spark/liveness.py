"""Is the driver JVM alive, and how full is its heap? (The health watchdog asks, gateway/core/health.py.)"""
from __future__ import annotations

import time
from typing import Optional

from py4j.protocol import Py4JError, Py4JJavaError, Py4JNetworkError

from gateway.spark.backend import Capability, jvm, supports

STILL_RUNNING = None
_STOPPED = ("Cannot call methods on a stopped SparkContext", "because SparkContext was shut down")
_EXIT_WAIT_S = 3.0  # how long a strange Py4J answer may take to turn out as a dying JVM


def driver_lost(exc: BaseException) -> Optional[str]:
    """What in this failure says the driver is gone (its connection refused or reset, its SparkContext
    stopped by the JVM's shutdown); None for any other failure."""
    if isinstance(exc, (Py4JNetworkError, ConnectionError)):
        return type(exc).__name__
    if not isinstance(exc, Py4JError):
        return None
    text = str(exc)[:20_000]
    marker = next((marker for marker in _STOPPED if marker in text), None)
    if marker is not None:
        return marker
    if isinstance(exc, Py4JJavaError):
        # In local mode the tasks share the driver's heap: an OutOfMemoryError there ends the JVM
        # (exit code 52) just after the statement hears of it. Say so, not the bare Java error.
        if "java.lang.OutOfMemoryError" in text and _exits_soon(_EXIT_WAIT_S):
            return "out of memory"
        return None
    # A Py4J failure that is no Java exception (``py4j.reflection does not exist in the JVM`` while
    # PySpark converted an error) is what a JVM in the middle of dying answers: wait for its end.
    return "the driver JVM exited" if _exits_soon(_EXIT_WAIT_S) else None


def _exits_soon(within_s: float) -> bool:
    from pyspark import SparkContext

    proc = getattr(SparkContext._gateway, "proc", None)
    if proc is None:
        return False
    deadline = time.monotonic() + within_s
    while proc.poll() is None:
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.05)
    return True


def jvm_exit_code(spark) -> Optional[int]:
    """None while the driver JVM runs; its exit code once it has ended (-1 when it is unreachable
    and its exit code unknown, e.g. a JVM that pyspark did not launch)."""
    from pyspark import SparkContext

    proc = getattr(SparkContext._gateway, "proc", None)
    if proc is not None:
        return proc.poll()
    if not supports(spark, Capability.JVM):
        return STILL_RUNNING  # Spark Connect: the server's health is its own
    try:
        jvm(spark, what="checking that the driver JVM runs").java.lang.System.nanoTime()
    except Py4JError:
        return -1
    return STILL_RUNNING


def driver_heap_max(spark) -> Optional[int]:
    """The most the driver heap may grow to (``-Xmx``), or None without a JVM of ours (Spark Connect)."""
    if not supports(spark, Capability.JVM):
        return None
    return int(jvm(spark, what="reading the driver's heap size").java.lang.Runtime.getRuntime().maxMemory())


def jvm_pid() -> Optional[int]:
    """The process id of the driver JVM that pyspark launched (None when it did not launch one)."""
    from pyspark import SparkContext

    proc = getattr(SparkContext._gateway, "proc", None)
    return getattr(proc, "pid", None)


class HeapGauge:
    """The driver heap: bytes live after the last garbage collection, and the most it may grow to."""

    def __init__(self, spark) -> None:
        self._jvm = jvm(spark, what="reading the driver's heap")
        self._runtime = self._jvm.java.lang.Runtime.getRuntime()
        self._old = None
        for pool in self._jvm.java.lang.management.ManagementFactory.getMemoryPoolMXBeans():
            if str(pool.getType().toString()) == "Heap memory" and pool.isCollectionUsageThresholdSupported() \
                    and any(word in str(pool.getName()) for word in ("Old", "Tenured")):
                self._old = pool

    def read(self) -> tuple[int, int, int]:
        """(live bytes of the old generation after its last collection, heap bytes in use now, max heap)."""
        maximum = int(self._runtime.maxMemory())
        in_use = int(self._runtime.totalMemory()) - int(self._runtime.freeMemory())
        after_gc = in_use
        if self._old is not None:
            usage = self._old.getCollectionUsage()
            if usage is not None and int(usage.getUsed()) > 0:  # 0: no collection of it yet
                after_gc = int(usage.getUsed())
        return after_gc, in_use, maximum

    def collect(self) -> int:
        """Heap bytes in use right after a full collection (``System.gc()``): what is really live when
        the heap looks full only because the JVM has not needed to collect its garbage yet."""
        self._jvm.java.lang.System.gc()
        return int(self._runtime.totalMemory()) - int(self._runtime.freeMemory())
