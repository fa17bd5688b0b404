"""Forgetting what a session cached about tables, so that it reads what another session wrote.

Each SparkSession keeps its own cache of resolved table relations (``SessionCatalog``'s
``tableRelationCache``), and each cached relation holds the table's file list. After another
session overwrites, replaces, drops or appends to a table, those entries are stale: reads fail
with ``FAILED_READ_FILE.FILE_NOT_EXIST`` or silently miss the new files until ``REFRESH TABLE``.
Dropping the whole relation cache is one in-memory call in the JVM; the next read of each table
resolves it again from the metastore and lists its files once.
"""
from __future__ import annotations

import logging
from typing import Optional

from gateway.spark.backend import Capability, backend_name, is_connect, jsession, supports
from gateway.spark.errors import ENGINE_ERRORS

log = logging.getLogger(__name__)
_warned = False


def forget_cached_tables(spark) -> bool:
    """Drop ``spark``'s cached table relations and file lists; False when the backend cannot.

    Data cached with ``CACHE TABLE`` is shared by all sessions and kept up to date by Spark's
    own write commands; it is not touched here.
    """
    global _warned
    if not supports(spark, Capability.SESSION_STATE):
        if not _warned:
            _warned = True
            log.warning("%s gives no access to a session's table cache: sessions may read "
                        "stale table data after another session's write until they run REFRESH TABLE",
                        backend_name(spark))
        return False
    jsession(spark, Capability.SESSION_STATE, "forgetting a session's cached tables") \
        .sessionState().catalog().invalidateAllCachedTables()
    return True


def refresh_cached_data(spark, location: str) -> bool:
    """Data cached with ``CACHE TABLE`` (by any session) that reads files under ``location``: list its files
    again and rebuild it lazily. False when the backend cannot.

    Spark's own write commands do this (``CacheManager.recacheByPath``); a write that swaps a table's
    directory outside them (the atomic INSERT OVERWRITE) must too. ``REFRESH TABLE`` is not enough: it
    rebuilds the cache from the cached plan, whose file list still names the files that were swapped away,
    and every session's next read fails with ``FAILED_READ_FILE.FILE_NOT_EXIST`` (issue 27).
    """
    if not supports(spark, Capability.SESSION_STATE):
        return False
    session = jsession(spark, Capability.SESSION_STATE, "refreshing cached table data")
    session.sharedState().cacheManager().recacheByPath(session, location)
    return True


# -- sessions that refresh tables by name (Spark Connect) -------------------------------------------------

def write_scope(spark) -> Optional[str]:
    """Where a write is seen by name: the Spark Connect server's address for a session on one (its other
    sessions refresh the tables it names), None for a session that drops its whole cache instead (classic)."""
    if not is_connect(spark):
        return None
    builder = spark.client._builder
    return f"{builder.host}:{builder.url.port or 15002}"


def written_tables(spark, targets) -> tuple[str, ...]:
    """The tables a write names (the statement analysis's targets, each in its parts), each as
    ``catalog.db.name`` quoted: a reader's current database may differ from the writer's. One round trip for
    the writer's current catalog and database when a name is not qualified; empty when it cannot be asked
    (the server is down: the readers are then told their tables may be stale)."""
    from gateway.spark.connect import query_dataframe

    parts = [tuple(p) for p in targets if p]
    if not parts:
        return ()
    current: tuple = ()
    if any(len(p) < 3 for p in parts):
        try:
            current = tuple(query_dataframe(spark, "SELECT current_catalog(), current_database()").first())
        except ENGINE_ERRORS as exc:
            log.info("a write's tables are not known to the other sessions (%s): they may read stale data", exc)
            return ()
    names = []
    for p in parts:
        full = p if len(p) >= 3 else (current[: 3 - len(p)] + tuple(p))
        names.append(".".join(_quoted(part) for part in full))
    return tuple(names)


def _quoted(part: str) -> str:
    return "`" + part.replace("`", "``") + "`"


def refresh_tables(spark, names, complete: bool = True) -> int:
    """``REFRESH TABLE`` each of ``names`` in ``spark``'s session (``spark.catalog.refreshTable``: its cached
    relation and file list are read again); a table that is gone, or a view, is skipped. ``complete`` False:
    some writes named no table, and this session may read stale data from those until REFRESH TABLE (logged).
    Returns how many were refreshed."""
    global _warned
    if not complete and not _warned:
        _warned = True
        log.warning("a write on %s named no table the gateway could read (or too many writes passed): other "
                    "sessions may read stale data of its tables until they run REFRESH TABLE", backend_name(spark))
    refreshed = 0
    for name in names:
        try:
            spark.catalog.refreshTable(name)
            refreshed += 1
        except ENGINE_ERRORS as exc:  # dropped since, or not a table of this session's catalogs
            log.debug("REFRESH TABLE %s skipped: %s", name, exc)
    return refreshed
