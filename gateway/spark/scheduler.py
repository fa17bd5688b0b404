"""Spark's FAIR scheduler pools of the gateway: one per session, and one lane for proven-small statements.

Each session's jobs run in its own pool (``workbench-session-<n>``, made by Spark on first use:
weight 1, minShare 0, FIFO inside). Spark's FAIR scheduler offers a free core to the pool with
the fewest running tasks per weight and breaks ties by pool *name*: with more busy pools than
cores (30 long scans on ``local[2]``) many pools run 0 tasks, and the one whose name sorts first
wins every free core, so another session's ``SELECT 1`` waited more than 120 s for its one task.

A statement whose every input Spark proves tiny (``gateway.spark.plans.proven_small_input``:
``SELECT 1``, ``VALUES``, an aggregate over a 10-row table) runs its jobs in ``SMALL_POOL``
instead. That pool is defined in the allocation file written at start with ``minShare`` 1: while
it runs fewer tasks than that, it is *needy* and Spark serves it before every session pool
(whose minShare is 0), so its task takes the next core that frees. Once it runs one task it is
not needy any more and competes like any other pool: the lane can take at most one core ahead
of the sessions, whoever sends statements into it. The number of pools stays bounded: one per
session open at once (numbers are reused), plus this one.
"""
from __future__ import annotations

from pathlib import Path

SMALL_POOL = "workbench-small"
SMALL_POOL_MIN_SHARE = 1
ALLOCATION_FILE = "fairscheduler.xml"  # under the data directory

_XML = """<?xml version="1.0"?>
<!-- Written by Spark SQL Workbench at every start (gateway/spark/scheduler.py); edits are lost.
     To use your own, set spark.scheduler.allocation.file in [spark.conf] and define this pool in it. -->
<allocations>
  <pool name="{name}">
    <schedulingMode>FIFO</schedulingMode>
    <weight>1</weight>
    <minShare>{min_share}</minShare>
  </pool>
</allocations>
"""


def allocation_xml() -> str:
    return _XML.format(name=SMALL_POOL, min_share=SMALL_POOL_MIN_SHARE)


def write_allocation_file(path: Path) -> Path:
    """Write the gateway's allocation file at ``path`` (replaced atomically) and return it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    partial.write_text(allocation_xml(), encoding="utf-8")
    partial.replace(path)
    return path


def pool_for(df, session_pool: str) -> str:
    """The pool to run ``df``'s jobs in: ``SMALL_POOL`` when Spark proves its inputs tiny, else ``session_pool``.

    Rows already in the driver (``isLocal``: a command's output, VALUES) need no job: the session's
    pool. Without Catalyst's plans (``Capability.PLAN_INTERNALS``) nothing is proven.
    """
    from gateway.spark.backend import Capability, supports
    from gateway.spark.plans import proven_small_input

    if df is None or df.isLocal() or not supports(df.sparkSession, Capability.PLAN_INTERNALS):
        return session_pool
    return SMALL_POOL if proven_small_input(df) else session_pool
