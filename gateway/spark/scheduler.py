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

import xml.etree.ElementTree as ElementTree
from pathlib import Path

from gateway.errors import ConfigurationError

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


def check_allocation_file(path: Path) -> None:
    """A user's own allocation file (``spark.scheduler.allocation.file``) must define ``SMALL_POOL``:
    without it Spark makes the pool with minShare 0 and short statements lose their lane, unseen."""
    try:
        root = ElementTree.parse(path).getroot()
    except (OSError, ElementTree.ParseError) as exc:
        raise ConfigurationError(f"the scheduler allocation file {path} (spark.scheduler.allocation.file) cannot be "
                                 f"read: {exc}") from None
    pools = {pool.get("name"): pool for pool in root.iter("pool")}
    pool = pools.get(SMALL_POOL)
    min_share = pool.findtext("minShare", "0").strip() if pool is not None else "0"
    if not min_share.isdigit() or int(min_share) < SMALL_POOL_MIN_SHARE:
        raise ConfigurationError(
            f"the scheduler allocation file {path} (spark.scheduler.allocation.file) must define the pool "
            f"{SMALL_POOL!r} with minShare {SMALL_POOL_MIN_SHARE} or more: the workbench runs statements Spark proves "
            f"tiny there so that they start while long scans hold the cores. Add to <allocations>:\n"
            f"{allocation_xml().split('<allocations>')[1].split('</allocations>')[0].strip()}\n"
            f"or leave the setting out to let the workbench write its own file.")


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
