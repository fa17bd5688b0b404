"""Spark jobs of an operation: its job group (classic) or its operation tag (Spark Connect), set on the
worker thread, cancelled from any thread, taken off the pool thread afterwards."""
from __future__ import annotations

import threading

from gateway.spark.backend import Capability, jcontext, supports
from gateway.spark.sql_metrics import detach_thread

_thread = threading.local()

_JOB_GROUP_PROPERTIES = ("spark.jobGroup.id", "spark.job.description", "spark.job.interruptOnCancel")


def begin_jobs(spark, group: str, description: str) -> None:
    """Mark this worker thread's next Spark work as the operation's: its job group with the driver's
    SparkContext (classic), else its operation tag (Spark Connect's ``addTag``: per thread and session)."""
    if supports(spark, Capability.SPARK_CONTEXT):
        spark.sparkContext.setJobGroup(group, description, interruptOnCancel=True)
    elif supports(spark, Capability.OPERATION_TAGS):
        spark.clearTags()
        spark.addTag(group)


def cancel_jobs(spark, group: str) -> None:
    """Stop the operation's running Spark work: ``cancelJobGroup`` (classic) or ``interruptTag`` (Connect)."""
    if supports(spark, Capability.SPARK_CONTEXT):
        spark.sparkContext.cancelJobGroup(group)
    elif supports(spark, Capability.OPERATION_TAGS):
        spark.interruptTag(group)


def job_ids(spark, group: str) -> list[int]:
    """The Spark job ids of a job group (the driver's status tracker); none where there is no SparkContext
    to ask (Spark Connect: the server's UI has them under the operation's tag)."""
    if not supports(spark, Capability.SPARK_CONTEXT):
        return []
    return list(spark.sparkContext.statusTracker().getJobIdsForGroup(group))


def clear_job_group(spark) -> None:
    """Take the operation's job group (or tag) off this pool thread.

    Through the JVM it is one Py4J call (``JavaSparkContext.clearJobGroup``) instead of three
    ``setLocalProperty`` calls: under load each round trip waited milliseconds for the JVM
    (measured with py-spy). Without it, the public way.
    """
    if supports(spark, Capability.OPERATION_TAGS):
        spark.clearTags()
        return
    detach_thread()  # a streamed result's SQL execution id, if still on this thread (no JVM call otherwise)
    if supports(spark, Capability.JOB_CONTROL):
        jcontext(spark, Capability.JOB_CONTROL, "clearing a job group").clearJobGroup()
        return
    context = spark.sparkContext
    for key in _JOB_GROUP_PROPERTIES:
        context.setLocalProperty(key, None)


def engine_master(spark, config) -> str:
    """Where statements run, for the gateway's info: the Spark master, or the Spark Connect server's address."""
    if supports(spark, Capability.SPARK_CONTEXT):
        return spark.sparkContext.master
    from gateway.config import connect_url
    from gateway.spark.connect import endpoint

    return f"Spark Connect sc://{endpoint(connect_url(config))}"


_engine_facts: dict[tuple[int, str], str] = {}


def engine_fact(spark, name: str) -> str:
    """``version`` or a static setting of the engine (``spark.sql.warehouse.dir``); a Spark Connect server's
    is asked once (an RPC), so that the gateway's info still answers while that server is down or restarting."""
    def ask() -> str:
        return spark.version if name == "version" else spark.conf.get(name)

    if supports(spark, Capability.SPARK_CONTEXT):
        return ask()
    key = (id(spark), name)
    if key not in _engine_facts:
        _engine_facts[key] = ask()
    return _engine_facts[key]


_ui_urls: dict[int, str | None] = {}


def ui_url(spark) -> str | None:
    """Address of Spark's web UI for this SparkContext (public API), None when the UI is off or there is no
    SparkContext here (Spark Connect); asked once."""
    if not supports(spark, Capability.SPARK_CONTEXT):
        return None
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
    if getattr(_thread, "pool", None) == pool or not supports(spark, Capability.SPARK_CONTEXT):
        return  # Spark Connect: the server shares its cores among its sessions by its own scheduler settings
    spark.sparkContext.setLocalProperty("spark.scheduler.pool", pool)
    _thread.pool = pool
