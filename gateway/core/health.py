"""The driver's health: a memory guard before the JVM is at risk, and a clear answer when it died.

One watchdog thread per gateway checks, every ``health.check_interval_s``:

- that the driver JVM still runs (``gateway.spark.liveness``). Once it has ended, every contract
  call answers ``EngineDownError`` (HTTP 503) naming what happened, the health call says DOWN,
  active operations end in ERROR, and after ``health.exit_after_s`` the process exits with
  ``ENGINE_DIED_EXIT`` (75) so that its supervisor (``./workbench``) starts a fresh one. A dead
  JVM is never answered as if healthy.
- how full the driver heap is after garbage collection. Above ``health.memory_guard_fraction``
  of the heap, the newest operation still producing a result is stopped with an error that says
  why (DRIVER_MEMORY_EXHAUSTED), before the JVM runs out of memory; then the next check waits for
  the memory to come back.
- that work can start (``health.probe_timeout_s``): each check is a probe of the driver (a few Py4J
  calls). When one has gone unanswered that long (a JVM frozen, or busy collecting a full heap), or
  a statement whose session runs nothing else has waited that long for a thread, the health call
  says DEGRADED (HTTP 503) with the reason, not UP.
"""
from __future__ import annotations

import logging
import os
import threading
import time
from typing import Callable, Optional


from gateway.errors import EngineDownError
from gateway.models import OperationStatus
from gateway.spark.backend import Capability, NotAvailableOnBackend, supports
from gateway.spark.errors import ENGINE_ERRORS
from gateway.spark.liveness import HeapGauge, driver_lost, jvm_exit_code, jvm_pid
from gateway.spark.parser_cache import managed_bytes

log = logging.getLogger(__name__)

ENGINE_DIED_EXIT = 75  # the process's exit code when its driver JVM died: "restart me"
_COOL_DOWN_S = 3.0
_COLLECT_EVERY_S = 30.0
_CONFIRM_EVERY_S = 2.0  # after a collection the old generation's reading is fresh: trust it this long


class EngineState:
    """Process-wide: one driver JVM per process, so one answer for every gateway in it."""

    def __init__(self) -> None:
        self.failure: Optional[str] = None
        self.memory_stops = 0
        self.watchdog: Optional["HealthWatchdog"] = None

    def check(self) -> None:
        if self.failure is not None:
            raise EngineDownError(self.failure)

    def lost_by(self, exc: BaseException) -> bool:
        """Does this failure say the driver is gone (its connection refused or reset, its SparkContext
        stopped by the JVM's shutdown)? Then the engine is marked down at once, not at the next check."""
        marker = driver_lost(exc)
        if marker is None:
            return False
        if self.failure is None:
            reason = (f"the Spark driver has stopped ({marker}); "
                      f"every statement and session of this workbench process is lost. The process exits so that its "
                      f"supervisor starts a new one; open a new session then")
            if self.watchdog is not None:
                self.watchdog.engine_died(reason)
            else:
                self.failure = reason
        return True


ENGINE = EngineState()


class HealthWatchdog:
    def __init__(self, root, operations, interval_s: float, memory_fraction: float, exit_after_s: float,
                 exit: Callable[[int], None] = os._exit, probe_timeout_s: float = 0.0) -> None:
        self.root = root
        self.operations = operations
        self.interval_s = interval_s
        self.memory_fraction = memory_fraction
        self.exit_after_s = exit_after_s
        self.probe_timeout_s = probe_timeout_s
        self._probe_started: Optional[float] = None  # the probe in flight (None: none)
        self._last_probe_s = 0.0  # how long the last answered probe took
        self._exit = exit
        self._stop = threading.Event()
        self._quiet_until = 0.0
        self._next_collect = 0.0
        self._next_confirm = 0.0
        self._gauge: Optional[HeapGauge] = None
        self.last_heap: Optional[tuple[int, int, int]] = None
        self._thread: Optional[threading.Thread] = None
        ENGINE.watchdog = self
        if interval_s > 0:
            self._thread = threading.Thread(target=self._loop, name="gateway-health", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        self._stop.set()

    def status(self) -> dict:
        heap = self.last_heap
        degraded = None if ENGINE.failure else self.degraded()
        return {"status": "DOWN" if ENGINE.failure else "DEGRADED" if degraded else "UP",
                "reason": ENGINE.failure or degraded or "",
                "heap_live_bytes": heap[0] if heap else None, "heap_used_bytes": heap[1] if heap else None,
                "heap_max_bytes": heap[2] if heap else None, "memory_stops": ENGINE.memory_stops,
                "jvm_pid": jvm_pid()}

    def degraded(self) -> Optional[str]:
        """Why work cannot start now (None: it can). Reads what the loop measured; never calls the JVM."""
        bound = self.probe_timeout_s
        if bound <= 0 or self._thread is None:
            return None
        now = time.monotonic()
        started = self._probe_started
        if started is not None and now - started > bound:
            return (f"the Spark driver has not answered the health probe for {now - started:.0f} s (a trivial call; "
                    f"setting health.probe_timeout_s = {bound:g}): it is frozen or out of memory, and new statements "
                    f"would wait")
        if self._last_probe_s > bound:
            return (f"the Spark driver took {self._last_probe_s:.0f} s to answer the health probe (a trivial call; "
                    f"setting health.probe_timeout_s = {bound:g})")
        waiting = self._stuck_waiting(time.time(), bound)
        if waiting:
            return (f"{len(waiting)} statement{'s have' if len(waiting) > 1 else ' has'} waited more than {bound:g} s "
                    f"for a thread while {'their sessions run' if len(waiting) > 1 else 'its session runs'} nothing "
                    f"else (operation.pool_size threads all busy)")
        return None

    def _stuck_waiting(self, now: float, bound: float) -> list:
        operations = self.operations.all()
        busy = {id(op.session) for op in operations if op.status is OperationStatus.RUNNING}
        return [op for op in operations if op.status is OperationStatus.PENDING and now - op.submitted_at > bound
                and id(op.session) not in busy]

    # -- the loop -------------------------------------------------------------------------------

    def _loop(self) -> None:
        while not self._stop.wait(self.interval_s):
            self._probe_started = started = time.monotonic()
            try:
                self.check_once()
            except Exception:  # noqa: BLE001 - the watchdog must outlive one bad reading
                log.exception("the health check failed")
            finally:
                self._last_probe_s = time.monotonic() - started
                self._probe_started = None
            if ENGINE.failure is not None:
                return

    def check_once(self) -> None:
        code = jvm_exit_code(self.root)
        if code is not None:
            self.engine_died(f"the Spark driver JVM has stopped (exit code {code}"
                             f"{', 52: out of memory' if code == 52 else ''}); every statement and session of this "
                             f"workbench process is lost. The process exits so that its supervisor starts a new one; "
                             f"open a new session then")
            return
        if self.memory_fraction <= 0 or not supports(self.root, Capability.JVM):
            return  # no driver heap here (Spark Connect: the server guards its own)
        try:
            if self._gauge is None:
                self._gauge = HeapGauge(self.root)
            self.last_heap = live, in_use, maximum = self._gauge.read()
        except ENGINE_ERRORS:
            return  # the next check finds out whether the JVM is gone
        if time.monotonic() < self._quiet_until or maximum <= 0:
            return
        limit = self.memory_fraction * maximum
        now = time.monotonic()
        producing = self._producing()
        if (live > limit or (producing and in_use > limit)) and now >= self._next_confirm:
            # Over the line, or a result being produced while the heap fills: find out what is live.
            # The old generation's reading dates from its last collection: a big result freed since
            # stays "live" in it (an idle JVM may never collect again) and would stop every new
            # statement; and a partition being built fills the heap long before that reading moves.
            # A full collection stops the JVM for a moment: at most once per _CONFIRM_EVERY_S.
            live = self._gauge.collect()
            self._next_confirm = time.monotonic() + _CONFIRM_EVERY_S
        elif live <= limit and in_use > 0.97 * maximum and now >= self._next_collect:
            # An idle heap that looks full is garbage the JVM has not collected yet: collect now and
            # then (at most once per _COLLECT_EVERY_S) so that the health figures say what is live.
            live = self._gauge.collect()
            self._next_collect = time.monotonic() + _COLLECT_EVERY_S
        if live > limit and producing:
            self._stop_newest(producing, live, in_use, maximum)

    def _producing(self) -> list:
        """Operations still producing a result: what the guard may stop."""
        return [op for op in self.operations.all()
                if op.status in (OperationStatus.RUNNING, OperationStatus.FINISHED)
                and not op.fetcher.ended and not op.done.is_set()]

    def _stop_newest(self, producing: list, live: int, in_use: int, maximum: int) -> None:
        victim = max(producing, key=lambda op: op.started_at or 0)
        mib = 1024 * 1024
        error = {
            "root_cause": (f"the statement was stopped to protect the Spark driver, whose heap every session "
                           f"shares: it held {live // mib:,} MiB live after garbage collection and {in_use // mib:,} "
                           f"MiB in use, of {maximum // mib:,} MiB (the guard stops the newest result still produced "
                           f"above {self.memory_fraction:.0%} live, setting health.memory_guard_fraction)"
                           f"{self._parser_share()}. "
                           f"Nothing else is lost: the session, its other results and other sessions go on, and the "
                           f"statement can run again when the heap has room. If this result is big, read less at once: "
                           f"add a LIMIT or a filter, spread the data over more partitions (REPARTITION), or write the "
                           f"result to a table; if the heap stays full without it (GET /v1/health: heap_live_bytes), "
                           f"give the driver more memory (spark.driver.memory) or restart the workbench"),
            "exception_stack": "", "error_class": "DRIVER_MEMORY_EXHAUSTED", "sqlstate": "53200"}
        if self.operations.fail(victim, error):
            ENGINE.memory_stops += 1
            log.warning("memory guard: stopped operation %s (heap live %d MiB, in use %d MiB, max %d MiB)",
                        victim.handle, live // mib, in_use // mib, maximum // mib)
            self._quiet_until = time.monotonic() + _COOL_DOWN_S

    def _parser_share(self) -> str:
        """What Spark's parser caches hold of it (bounded by spark.sql.parser.*, gateway/spark/parser_cache.py)."""
        try:
            states, size = managed_bytes(self.root)
        except (ENGINE_ERRORS, NotAvailableOnBackend):
            return ""
        return (f"; Spark's parser caches held {states:,} states (about {size // (1024 * 1024):,} MiB by Spark's "
                f"estimate; they are dropped past spark.sql.parser.parserDfaCacheFlushRatio)")

    def engine_died(self, reason: str) -> None:
        if ENGINE.failure is not None:
            return
        ENGINE.failure = reason
        log.critical("%s", reason)
        error = {"root_cause": reason, "exception_stack": "", "error_class": "ENGINE_DOWN", "sqlstate": "08006"}
        for operation in self.operations.all():
            try:
                self.operations.fail(operation, error)
            except Exception:  # noqa: BLE001 - tell every operation we can
                log.debug("an operation could not be told the engine is down", exc_info=True)
        if self.exit_after_s > 0:
            timer = threading.Timer(self.exit_after_s, self._exit, args=(ENGINE_DIED_EXIT,))
            timer.daemon = True
            timer.start()
