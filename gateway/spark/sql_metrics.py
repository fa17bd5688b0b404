"""Spark's own SQL execution metrics of an operation: the operator graph, each operator's metrics,
and the stages with their task-time distribution (the query profile, issue 31 item 3).

Where it comes from (all in the driver, through Py4J, behind ``Capability.PLAN_INTERNALS``):

- ``SQLAppStatusStore`` (``sharedState().statusStore()``), the store behind the SQL tab of Spark's UI:
  ``execution(id)``, ``planGraph(id)`` and ``executionMetrics(id)``; ``makeNodeDetailsJson`` gives
  every node with its formatted metrics in one call.
- The link from an operation to its SQL executions: the executor runs each operation under its own
  job group; ``statusTracker().getJobIdsForGroup`` gives the group's jobs, and an execution records
  the jobs that ran under it (``SQLExecutionUIData.jobs``). An execution whose jobs are among the
  group's belongs to the operation. The ``spark.sql.execution.id`` local property is not enough on its
  own: it is set only while Spark's action runs and is gone when the operation ends.
- A result streamed partition by partition (``Dataset.toArrowBatchRdd``) runs its jobs outside any SQL
  execution: Spark's SQL tab never sees it. ``StreamExecution`` gives such a stream an execution of its
  own, as ``SQLExecution.withNewExecutionId`` does for an action: it posts
  ``SparkListenerSQLExecutionStart`` with the executed plan before the plan is prepared, sets the
  execution id on the thread whose jobs (and the stream's serving thread, which inherits local
  properties) run it, and posts ``SparkListenerSQLExecutionEnd`` when the stream is closed, after asking the
  DAG scheduler to forget the execution's jobs (``cleanupQueryJobs``), as Spark's own end does. Spark's
  own counter is private, so these ids count from ``STREAM_EXECUTION_BASE`` (2**40), far above it.
- Stages: ``AppStatusStore`` (``SparkContext.statusStore``): ``lastStageAttempt`` and ``taskSummary``
  (min, median and max of the tasks' run time).
"""
from __future__ import annotations

import itertools
import json
import logging
import re
import threading
import time
from collections import OrderedDict
from typing import Optional

from gateway.spark.backend import (Capability, NotAvailableOnBackend, jcontext, jdataframe, jsession, jvm, require,
                                   supports)
from gateway.spark.errors import ENGINE_ERRORS

log = logging.getLogger(__name__)

_WHAT = "the query profile (Spark's SQL execution metrics)"
STREAM_EXECUTION_BASE = 1 << 40
_stream_ids = itertools.count(STREAM_EXECUTION_BASE)
_ids_lock = threading.Lock()
# job group -> ids of the executions made for its streamed results (bounded: the newest groups)
_stream_executions: "OrderedDict[str, list[int]]" = OrderedDict()
_KEPT_GROUPS = 4096
EXECUTION_ID_KEY = "spark.sql.execution.id"
EXECUTION_ROOT_ID_KEY = "spark.sql.execution.root.id"


def available(spark) -> bool:
    """Can this backend give SQL execution metrics (classic PySpark: yes; Spark Connect: no)?"""
    return supports(spark, Capability.PLAN_INTERNALS)


def refusal(spark) -> Optional[str]:
    """Why this backend gives no SQL execution metrics (None when it does)."""
    try:
        require(spark, Capability.PLAN_INTERNALS, _WHAT)
    except NotAvailableOnBackend as exc:
        return str(exc)
    return None


def _module(package, name: str):
    return getattr(getattr(package, name + "$"), "MODULE$")


# ---------------------------------------------------------------------------------------------
# An execution for a streamed result
# ---------------------------------------------------------------------------------------------

class StreamExecution:
    """A SQL execution in Spark's status store for a result streamed outside any Spark action.

    ``begin`` before the plan is prepared (a broadcast's job starts then), ``detach`` once the threads
    that run the stream's jobs exist, ``end`` when the stream is done. Each step is best effort: a
    failure is logged, never raised, since the result matters more than its profile.
    """

    def __init__(self, df) -> None:
        self.spark = df.sparkSession
        self.id: Optional[int] = None
        self._thread: Optional[int] = None
        self._previous: tuple = (None, None)
        if not available(self.spark):
            return
        try:
            self._begin(df)
        except ENGINE_ERRORS:
            log.debug("no SQL execution for a streamed result", exc_info=True)
            self.id = None

    def _begin(self, df) -> None:
        context = self.spark.sparkContext
        group = context.getLocalProperty("spark.jobGroup.id")
        if context.getLocalProperty(EXECUTION_ID_KEY):  # already inside an action's execution
            return
        view = jvm(self.spark, Capability.PLAN_INTERNALS, _WHAT)
        execution = view.org.apache.spark.sql.execution
        query = jdataframe(df, Capability.PLAN_INTERNALS, _WHAT).queryExecution()
        info = _module(execution, "SparkPlanInfo").fromSparkPlan(query.executedPlan())
        with _ids_lock:
            self.id = next(_stream_ids)
            if group:
                _stream_executions.setdefault(group, []).append(self.id)
                _stream_executions.move_to_end(group)
                while len(_stream_executions) > _KEPT_GROUPS:
                    _stream_executions.popitem(last=False)
        scala = view.scala
        some = _module(scala, "Some")
        description = context.getLocalProperty("spark.job.description") or "streamed result"
        start = execution.ui.SparkListenerSQLExecutionStart(
            self.id, some.apply(self.id), description, "result streamed partition by partition",
            query.toString(), info, int(time.time() * 1000), _module(scala.collection.immutable, "Map").empty(),
            _module(scala.collection.immutable, "Set").empty(),
            some.apply(group) if group else _module(scala, "None"), _module(scala, "None"))
        jcontext(self.spark, Capability.PLAN_INTERNALS, _WHAT).sc().listenerBus().post(start)
        self._previous = (context.getLocalProperty(EXECUTION_ID_KEY), context.getLocalProperty(EXECUTION_ROOT_ID_KEY))
        context.setLocalProperty(EXECUTION_ID_KEY, str(self.id))
        context.setLocalProperty(EXECUTION_ROOT_ID_KEY, str(self.id))
        self._thread = threading.get_ident()
        _attached.execution = self

    def detach(self) -> None:
        """Take the execution id off this thread (the stream's own threads keep their copy)."""
        if self._thread is None or self._thread != threading.get_ident():
            return
        self._thread = None
        _attached.execution = None
        try:
            context = self.spark.sparkContext
            context.setLocalProperty(EXECUTION_ID_KEY, self._previous[0])
            context.setLocalProperty(EXECUTION_ROOT_ID_KEY, self._previous[1])
        except ENGINE_ERRORS:
            log.debug("the execution id could not be taken off the thread", exc_info=True)

    def end(self) -> None:
        """Post the execution's end (once)."""
        self.detach()
        if self.id is None:
            return
        ident, self.id = self.id, None
        try:
            view = jvm(self.spark, Capability.PLAN_INTERNALS, _WHAT)
            none = _module(view.scala, "None")
            end = view.org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionEnd(
                ident, int(time.time() * 1000), none, none)
            context = jcontext(self.spark, Capability.PLAN_INTERNALS, _WHAT).sc()
            # As SQLExecution's end does: Spark 4's DAGScheduler files every job run under an execution id in
            # activeQueryToJobs until its execution ends. Without this the stream's finished jobs stayed
            # there for the driver's life, each with its result handler and the partitions' Arrow batches
            # it had collected (2 MiB for 20,000 rows of 60 bytes; benchmarks/driver_heap.py).
            context.dagScheduler().cleanupQueryJobs(ident)
            context.listenerBus().post(end)
        except ENGINE_ERRORS:
            log.debug("the end of streamed execution %s could not be posted", ident, exc_info=True)


_attached = threading.local()


def detach_thread() -> None:
    """Take a streamed result's execution id off this pool thread if one is still on it (a stream
    closed from another thread); costs nothing otherwise. Called where the job group is cleared."""
    execution = getattr(_attached, "execution", None)
    if execution is not None:
        execution.detach()


def stream_executions(job_group: str) -> list[int]:
    with _ids_lock:
        return list(_stream_executions.get(job_group, ()))


# ---------------------------------------------------------------------------------------------
# Reading the status store
# ---------------------------------------------------------------------------------------------

def _status_store(spark):
    return jsession(spark, Capability.PLAN_INTERNALS, _WHAT).sharedState().statusStore()


def executions_of(spark, job_group: str, job_ids: list[int], since_s: float, scan_limit: int = 2000) -> list[int]:
    """Ids of the SQL executions that ran the group's jobs (and its streamed results), oldest first.

    Executions are stored by id; Spark's own ids grow with time, so the scan walks back from the
    newest and stops at one submitted before ``since_s`` (the operation's start, less a second)."""
    found = set(stream_executions(job_group))
    wanted = {int(j) for j in job_ids}
    if wanted:
        store = _status_store(spark)
        since_ms = int((since_s - 1.0) * 1000)
        end, scanned, older = int(store.executionsCount()), 0, False
        while end > 0 and scanned < scan_limit and not older:
            start = max(0, end - 64)
            window = store.executionsList(start, end - start).iterator()
            rows = []
            while window.hasNext():
                rows.append(window.next())
            for ui in reversed(rows):
                scanned += 1
                ident = int(ui.executionId())
                if ident >= STREAM_EXECUTION_BASE:
                    continue
                if int(ui.submissionTime()) < since_ms:
                    older = True
                    break
                jobs = {int(j) for j in str(ui.jobs().keys().mkString(",")).split(",") if j}
                if jobs & wanted:
                    found.add(ident)
            end = start
    return sorted(found)


def wait_until_recorded(spark, execution_id: int, timeout_s: float) -> Optional[str]:
    """Wait (bounded) until Spark's listener has recorded the execution's end; its status, None if unknown."""
    store = _status_store(spark)
    deadline = time.monotonic() + timeout_s
    while True:
        found = store.execution(execution_id)
        if not found.isEmpty():
            status = str(found.get().executionStatus())
            if status != "RUNNING" or time.monotonic() >= deadline:
                return status
        elif time.monotonic() >= deadline:
            return None
        time.sleep(0.05)


_EDGE = re.compile(r"SparkPlanGraphEdge\((\d+),\s*(\d+)\)")


def execution_graph(spark, execution_id: int) -> dict:
    """One execution: its description, status, times, and its operator graph with every metric.

    ``operators``: each node (``kind`` ``operator``, or ``cluster`` for a WholeStageCodegen stage with
    ``members``) with its metrics parsed (``metrics``: name, type, the text Spark shows, ``total`` as a
    number: ms, bytes or a count) and the headline figures ``time_ms``, ``rows``, ``spill_bytes`` and
    ``peak_memory_bytes``; ``edges``: ``[child, parent]`` pairs (rows flow from child to parent).
    """
    store = _status_store(spark)
    found = store.execution(execution_id)
    if found.isEmpty():
        return {"id": execution_id, "status": "UNKNOWN", "operators": [], "edges": [],
                "description": "", "note": "Spark no longer keeps this execution (spark.sql.ui.retainedExecutions)"}
    ui = found.get()
    graph = store.planGraph(execution_id)
    details = json.loads(str(graph.makeNodeDetailsJson(store.executionMetrics(execution_id))))
    edges = [[int(a), int(b)] for a, b in _EDGE.findall(str(graph.edges().mkString(";")))]
    completion = ui.completionTime()
    ended_ms = None if completion.isEmpty() else int(completion.get().getTime())
    submitted_ms = int(ui.submissionTime())
    operators = []
    cluster_of: dict[int, int] = {}
    for key, node in details.items():
        if key.startswith("cluster"):
            for member in node.get("children") or ():
                cluster_of[int(member[len("node"):])] = int(key[len("cluster"):])
    for key, node in details.items():
        kind = "cluster" if key.startswith("cluster") else "operator"
        ident = int(key[len("cluster" if kind == "cluster" else "node"):])
        metrics = [dict(name=m.get("name"), type=m.get("type"), value=m.get("value"),
                        **parse_metric(str(m.get("value", "")), m.get("type")))
                   for m in node.get("metrics") or ()]
        entry = {"id": ident, "kind": kind, "name": node.get("name"), "description": node.get("desc"),
                 "cluster": cluster_of.get(ident), "metrics": metrics, **headline(metrics)}
        if kind == "cluster":
            entry["members"] = [int(m[len("node"):]) for m in node.get("children") or ()]
        operators.append(entry)
    operators.sort(key=lambda o: o["id"])
    return {"id": execution_id, "description": str(ui.description()), "status": str(ui.executionStatus()),
            "streamed": execution_id >= STREAM_EXECUTION_BASE, "submitted_ms": submitted_ms, "ended_ms": ended_ms,
            "duration_ms": None if ended_ms is None else max(0, ended_ms - submitted_ms),
            "error": None if ui.errorMessage().isEmpty() else str(ui.errorMessage().get())[:2000],
            "operators": operators, "edges": edges}


# ---------------------------------------------------------------------------------------------
# Metric texts as numbers (Spark formats them: Utils.msDurationToString, Utils.bytesToString)
# ---------------------------------------------------------------------------------------------

_TIME_UNITS = {"ms": 1.0, "s": 1000.0, "m": 60_000.0, "min": 60_000.0, "h": 3_600_000.0}
_SIZE_UNITS = {"B": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30, "TiB": 1 << 40, "PiB": 1 << 50,
               "EiB": 1 << 60}
_VALUE = r"(-?[\d,]+(?:\.\d+)?)\s*([A-Za-z]+)?"
_STATS = re.compile(_VALUE + r"\s*\(" + _VALUE + r",\s*" + _VALUE + r",\s*" + _VALUE)


def _number(text: str, unit: Optional[str]) -> Optional[float]:
    try:
        value = float(text.replace(",", ""))
    except ValueError:
        return None
    if unit in _TIME_UNITS:
        return value * _TIME_UNITS[unit]
    if unit in _SIZE_UNITS:
        return value * _SIZE_UNITS[unit]
    return value


def parse_metric(text: str, metric_type: Optional[str] = None) -> dict:
    """A metric's text as numbers: ``total`` and, where Spark gives them, ``min``, ``median`` and ``max``
    of the tasks (times in ms, sizes in bytes, counts as counts)."""
    lines = text.strip().splitlines()
    body = lines[-1].strip() if lines else ""
    stats = _STATS.match(body) if len(lines) > 1 else None
    if stats:
        values = [_number(stats.group(i), stats.group(i + 1)) for i in (1, 3, 5, 7)]
        return dict(zip(("total", "min", "median", "max"), values))
    match = re.match(_VALUE, body)
    return {"total": _number(match.group(1), match.group(2)) if match else None}


def headline(metrics: list[dict]) -> dict:
    """The figures a profile shows for an operator: time (the sum of its timing metrics), rows, spill, peak memory."""
    time_ms = rows = spill = peak = None
    for metric in metrics:
        total, name = metric.get("total"), (metric.get("name") or "").lower()
        if total is None:
            continue
        if metric.get("type") in ("timing", "nsTiming") and "wait" not in name and "remote" not in name:
            time_ms = (time_ms or 0.0) + total
        elif name == "number of output rows":
            rows = int(total)
        elif "spill" in name and metric.get("type") == "size":
            spill = (spill or 0) + int(total)
        elif name.startswith("peak memory"):
            peak = (peak or 0) + int(total)
    return {"time_ms": time_ms, "rows": rows, "spill_bytes": spill, "peak_memory_bytes": peak}


# ---------------------------------------------------------------------------------------------
# Stages and tasks
# ---------------------------------------------------------------------------------------------

def stage_ids_of_jobs(spark, job_ids: list[int]) -> list[int]:
    tracker = spark.sparkContext.statusTracker()
    stages: set[int] = set()
    for job_id in job_ids:
        job = tracker.getJobInfo(job_id)
        if job is not None:
            stages.update(int(s) for s in job.stageIds)
    return sorted(stages)


def stage_profile(spark, stage_id: int) -> Optional[dict]:
    """One stage's last attempt: tasks, run time, spill, memory, I/O, and the tasks' run time
    min / median / max (``skew``: max over median), from Spark's status store."""
    store = jcontext(spark, Capability.PLAN_INTERNALS, _WHAT).sc().statusStore()
    try:
        data = store.lastStageAttempt(stage_id)
    except ENGINE_ERRORS:  # NoSuchElementException: skipped, or no longer kept (spark.ui.retainedStages)
        return None
    attempt = int(data.attemptId())
    quantiles = jvm(spark, Capability.PLAN_INTERNALS, _WHAT).double
    wanted = spark.sparkContext._gateway.new_array(quantiles, 3)
    for i, q in enumerate((0.0, 0.5, 1.0)):
        wanted[i] = q
    summary = store.taskSummary(stage_id, attempt, wanted)
    task_ms = None
    if not summary.isEmpty():
        run = summary.get().executorRunTime()
        task_ms = {"min": float(run.apply(0)), "median": float(run.apply(1)), "max": float(run.apply(2))}
    skew = None
    if task_ms and task_ms["median"] > 0:
        skew = round(task_ms["max"] / task_ms["median"], 2)
    return {"id": stage_id, "attempt": attempt, "name": str(data.name()), "status": str(data.status()),
            "tasks": int(data.numTasks()), "completed_tasks": int(data.numCompleteTasks()),
            "failed_tasks": int(data.numFailedTasks()), "run_time_ms": int(data.executorRunTime()),
            "task_time_ms": task_ms, "skew": skew,
            "spill_bytes": int(data.memoryBytesSpilled()) + int(data.diskBytesSpilled()),
            "peak_memory_bytes": int(data.peakExecutionMemory()), "input_bytes": int(data.inputBytes()),
            "shuffle_read_bytes": int(data.shuffleReadBytes()), "shuffle_write_bytes": int(data.shuffleWriteBytes())}
