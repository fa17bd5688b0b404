"""Spark jobs of an operation: taking its job group off a pool thread."""
from __future__ import annotations

import threading

from gateway.spark.backend import Capability, jcontext, supports
from gateway.spark.sql_metrics import detach_thread

_thread = threading.local()

_JOB_GROUP_PROPERTIES = ("spark.jobGroup.id", "spark.job.description", "spark.job.interruptOnCancel")


def clear_job_group(spark) -> None:
    """Take the operation's job group off this pool thread.

    Through the JVM it is one Py4J call (``JavaSparkContext.clearJobGroup``) instead of three
    ``setLocalProperty`` calls: under load each round trip waited milliseconds for the JVM
    (measured with py-spy). Without it, the public way.
    """
    detach_thread()  # a streamed result's SQL execution id, if still on this thread (no JVM call otherwise)
    if supports(spark, Capability.JOB_CONTROL):
        jcontext(spark, Capability.JOB_CONTROL, "clearing a job group").clearJobGroup()
        return
    context = spark.sparkContext
    for key in _JOB_GROUP_PROPERTIES:
        context.setLocalProperty(key, None)


_ui_urls: dict[int, str | None] = {}


def ui_url(spark) -> str | None:
    """Address of Spark's web UI for this SparkContext (public API), None when the UI is off; asked once."""
    context = spark.sparkContext
    key = id(context)
    if key not in _ui_urls:
        _ui_urls[key] = context.uiWebUrl
    return _ui_urls[key]


def job_links(spark, job_ids: list[int]) -> tuple[str | None, list[str]]:
    """The page of these jobs in Spark's web UI (the one job's page, else the Jobs list) and each job's page."""
    base = ui_url(spark)
    if not base:
        return None, []
    pages = [f"{base}/jobs/job/?id={job_id}" for job_id in job_ids]
    return (pages[0] if len(pages) == 1 else f"{base}/jobs/"), pages


def use_scheduler_pool(spark, pool: str) -> None:
    """Run this thread's next Spark jobs in the FAIR scheduler pool ``pool``.

    A local property of the thread (PySpark pins a Python thread to a JVM thread); it is set
    only when it changes, so a statement on a thread that ran the same session before pays nothing.
    Pools unknown to the allocation file are made on first use (weight 1, FIFO inside).
    """
    if getattr(_thread, "pool", None) == pool:
        return
    spark.sparkContext.setLocalProperty("spark.scheduler.pool", pool)
    _thread.pool = pool
