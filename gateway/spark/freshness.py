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

from gateway.spark.backend import Capability, backend_name, jsession, supports

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

