"""Query profiles: for every operation that ran Spark jobs, the operator graph of its SQL executions
with each operator's metrics, the slowest operators, and its stages with their task-time spread.

A profile is built once, right after the operation's worker returns (``operation_done``), on one
background thread, so the statement's path pays nothing and the profile does not depend on the
operation staying open: it is kept per session, the last ``profile.kept_per_session``, after the
operation is closed. Spark's figures come from ``gateway/spark/sql_metrics.py``; on a backend
without them (Spark Connect) the profile says so instead.
"""
from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from typing import Optional

from gateway.errors import OperationNotFoundError
from gateway.spark.errors import ENGINE_ERRORS
from gateway.spark.jobs import ui_url
from gateway.spark import sql_metrics

log = logging.getLogger(__name__)

SLOWEST = 5
RECORD_WAIT_S = 5.0  # for Spark's listener to record an execution's end after the operation's


class QueryProfiles:
    """The operation observer that builds profiles, and the bounded store that keeps them."""

    def __init__(self, kept_per_session: int = 20) -> None:
        self.kept = max(1, kept_per_session)
        self._lock = threading.Lock()
        self._profiles: dict[object, "OrderedDict[str, dict]"] = {}
        self._ready: dict[tuple, threading.Event] = {}
        self._building: set[tuple] = set()
        self._builder = ThreadPoolExecutor(max_workers=1, thread_name_prefix="gateway-profile")
        self._stopped = False

    # -- the observer ---------------------------------------------------------------------------

    def operation_submitted(self, operation) -> None:
        with self._lock:  # from here on, a caller may wait for its profile
            self._ready[(operation.session.handle, str(operation.handle))] = threading.Event()

    def operation_ended(self, operation) -> None:
        pass

    def operation_done(self, operation) -> None:
        if self._stopped:  # the gateway is shutting down: no profile for what it stops
            return
        key = (operation.session.handle, str(operation.handle))
        with self._lock:
            self._ready.setdefault(key, threading.Event())
            self._building.add(key)
        try:
            self._builder.submit(self._build, operation, key)
        except RuntimeError:  # shut down between the check and here
            log.debug("no profile for operation %s: the gateway is stopping", operation.handle)

    def _build(self, operation, key: tuple) -> None:
        try:
            profile = build_profile(operation)
        except Exception as exc:  # noqa: BLE001 - a profile never fails anything; it says what went wrong
            log.warning("the profile of operation %s could not be built", operation.handle, exc_info=True)
            profile = _base(operation) | {"available": False,
                                          "reason": f"the profile could not be read from Spark: {type(exc).__name__}: "
                                                    f"{str(exc).splitlines()[0][:300] if str(exc) else ''}"}
        with self._lock:
            kept = self._profiles.setdefault(key[0], OrderedDict())
            kept[key[1]] = profile
            while len(kept) > self.kept:
                gone, _ = kept.popitem(last=False)
                self._ready.pop((key[0], gone), None)
            event = self._ready.get(key)
            self._building.discard(key)
        if event is not None:
            event.set()

    # -- reading --------------------------------------------------------------------------------

    def get(self, session_handle, operation: str, timeout_s: float = 10.0) -> dict:
        """The profile of a session's operation, waiting (bounded) while it is being built."""
        key = (session_handle, str(operation))
        with self._lock:
            event = self._ready.get(key)
            profile = self._profiles.get(session_handle, {}).get(key[1])
        if profile is None and event is not None and event.wait(max(0.0, timeout_s)):
            with self._lock:
                profile = self._profiles.get(session_handle, {}).get(key[1])
        if profile is not None:
            return profile
        if event is not None:
            with self._lock:
                building = key in self._building
            return {"operation": key[1], "ready": False, "available": False,
                    "reason": "the profile is being read from Spark; ask again in a moment" if building else
                    "the statement has not ended yet; its profile is read when it ends"}
        raise OperationNotFoundError(
            f"operation {operation} has no profile in session {session_handle}: it is still running, it "
            f"never existed in this session, or it is older than the last {self.kept} kept "
            f"(setting operation.profiles_per_session)")

    def forget_session(self, session_handle) -> None:
        with self._lock:
            self._profiles.pop(session_handle, None)
            for key in [k for k in self._ready if k[0] == session_handle]:
                self._ready.pop(key, None)
                self._building.discard(key)

    def shutdown(self) -> None:
        self._stopped = True
        self._builder.shutdown(wait=False, cancel_futures=True)


def _base(operation) -> dict:
    return {"operation": str(operation.handle), "statement": operation.statement[:4000],
            "status": (operation.outcome or operation.status).value, "started_at": operation.started_at,
            "ended_at": operation.ended_at, "job_group": operation.job_group, "ready": True}


def build_profile(operation) -> dict:
    """The profile of a finished operation (a plain value: JSON as it is)."""
    spark = operation.session.spark
    profile = _base(operation) | {"available": True, "reason": None, "job_ids": [], "executions": [],
                                  "slowest": [], "stages": [], "spark_ui_url": None}
    if not sql_metrics.available(spark):
        return profile | {"available": False, "reason": sql_metrics.refusal(spark)}
    if operation.started_at is None:
        return profile | {"available": False, "reason": "the statement never started (canceled or refused first)"}
    job_ids = sorted(int(j) for j in spark.sparkContext.statusTracker().getJobIdsForGroup(operation.job_group))
    executions = sql_metrics.executions_of(spark, operation.job_group, job_ids, operation.started_at)
    profile["job_ids"] = job_ids
    if not job_ids and not executions:
        return profile | {"available": False,
                          "reason": "the statement ran no Spark job (Spark answered it in the driver: a command, "
                                    "a constant or a result it already held), so there is nothing to profile"}
    base = ui_url(spark)
    for ident in executions:
        sql_metrics.wait_until_recorded(spark, ident, RECORD_WAIT_S)
        graph = sql_metrics.execution_graph(spark, ident)
        graph["url"] = f"{base}/SQL/execution/?id={ident}" if base else None
        profile["executions"].append(graph)
    stages = []
    for stage_id in sql_metrics.stage_ids_of_jobs(spark, job_ids):
        try:
            stage = sql_metrics.stage_profile(spark, stage_id)
        except ENGINE_ERRORS:
            log.debug("stage %s of operation %s could not be read", stage_id, operation.handle, exc_info=True)
            stage = None
        if stage is not None:
            stages.append(stage)
    profile["stages"] = stages
    profile["slowest"] = slowest_operators(profile["executions"])
    if profile["executions"]:
        profile["spark_ui_url"] = profile["executions"][-1]["url"]
    profile["built_at"] = time.time()
    return profile


def slowest_operators(executions: list[dict], count: int = SLOWEST) -> list[dict]:
    """The operators (and codegen stages) that took the most time, slowest first."""
    timed = [{"execution": e["id"], "id": o["id"], "kind": o["kind"], "name": o["name"], "time_ms": o["time_ms"],
              "rows": o["rows"]}
             for e in executions for o in e["operators"] if o.get("time_ms")]
    timed.sort(key=lambda o: -o["time_ms"])
    return timed[:count]
