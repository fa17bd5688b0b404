"""Context-aware completion candidates for a statement at a cursor position.

``analysis.analyze`` parses the statement under the cursor (sqlglot, Spark dialect, tolerant of
unfinished text) and says what is expected there and which relations are in scope: tables, CTEs,
subqueries and table functions by alias, select-list aliases, the source a JOIN … ON just added.
This module turns that into candidates from the session's ``SchemaCache``: tables and views
(temporary views told apart), databases, catalogs, columns with their types, struct fields at any
depth, functions with their argument list and one-line description, keywords; and what a person
types next (``a.customer_id = b.customer_id`` after ``JOIN b ON``, the non-aggregated select list
after ``GROUP BY``).

Always current, never slow: each session keeps a ``SchemaCache``. What a DDL statement creates,
alters or drops is read from its text before it runs (``changes.change_of``) and patched into every
session's cache, so the next request of every session offers it; after the statement (the service's
``schema_changed`` hook, or the process-wide write epoch moving) one background worker reloads every
cache while requests keep answering from what is known. Only the first use of a name (a table's
columns the session never asked for, the tables of the database just USEd) is a catalog round trip
on a request.
"""
from __future__ import annotations

import bisect
import heapq
import logging
import re
import threading
import time
from contextlib import contextmanager, nullcontext
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Callable, Iterable, Optional

from gateway.core.catalog import list_relations, quote, quote_name, split_name
from gateway.core.freshness import WRITES
from gateway.core.functions import builtin_functions
from gateway.spark.catalog import SessionTableSchemas
from gateway.errors import GatewayError, InvalidRequestError
from gateway.features.completion.analysis import PLACEHOLDER, Site, Source, _token_sources, analyze
from gateway.features.completion.changes import Change, change_of
from gateway.models import Candidate

log = logging.getLogger(__name__)

KEYWORDS = sorted({
    "SELECT", "FROM", "WHERE", "GROUP BY", "ORDER BY", "HAVING", "LIMIT", "OFFSET", "JOIN", "LEFT JOIN",
    "RIGHT JOIN", "FULL OUTER JOIN", "CROSS JOIN", "INNER JOIN", "ON", "USING", "AS", "AND", "OR", "NOT",
    "IN", "IS", "NULL", "LIKE", "RLIKE", "BETWEEN", "CASE", "WHEN", "THEN", "ELSE", "END", "DISTINCT",
    "UNION", "UNION ALL", "INTERSECT", "EXCEPT", "WITH", "INSERT INTO", "INSERT OVERWRITE", "VALUES",
    "CREATE TABLE", "CREATE OR REPLACE TABLE", "CREATE TEMPORARY VIEW", "CREATE VIEW", "CREATE DATABASE",
    "CREATE FUNCTION", "CREATE TEMPORARY FUNCTION", "DROP TABLE", "DROP VIEW", "DROP DATABASE",
    "DROP FUNCTION", "ALTER TABLE", "USE", "SET", "RESET", "SHOW TABLES", "SHOW DATABASES",
    "SHOW FUNCTIONS", "SHOW CREATE TABLE", "SHOW COLUMNS", "DESCRIBE", "DESCRIBE TABLE",
    "DESCRIBE FUNCTION", "EXPLAIN", "CACHE TABLE", "UNCACHE TABLE", "ANALYZE TABLE", "PARTITIONED BY",
    "STORED AS", "TBLPROPERTIES", "OVER", "PARTITION BY", "ROWS BETWEEN", "ASC", "DESC",
    "TRUE", "FALSE", "CAST", "INTERVAL", "LATERAL VIEW", "PIVOT", "QUALIFY", "WINDOW",
    "ADD JAR", "REMOVE JAR", "SHOW JARS", "LOAD MODULE", "UNLOAD MODULE", "USE MODULES", "SHOW MODULES",
})
# Spark's table-valued functions, offered after FROM (with their signature when it is known).
TABLE_FUNCTIONS = ("range", "explode", "explode_outer", "inline", "inline_outer", "posexplode", "posexplode_outer",
                   "json_tuple", "stack", "sql_keywords", "variant_explode", "variant_explode_outer")
# A call whose schema stands for every call of the function (its columns do not depend on arguments
# much): asked once per function when the call itself cannot be analyzed alone (it reads columns).
_TVF_PROBES = {"range": "range(1)", "explode": "explode(array(1))", "explode_outer": "explode_outer(array(1))",
               "posexplode": "posexplode(array(1))", "posexplode_outer": "posexplode_outer(array(1))",
               "inline": "inline(array(struct(1)))", "inline_outer": "inline_outer(array(struct(1)))",
               "sql_keywords": "sql_keywords()", "stack": "stack(1, 1)", "json_tuple": "json_tuple('{}', 'a')"}
_FUNCTION_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_TVF_NAME = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*\(")

_GONE = object()  # a part that failed to reload
# Set (to a list) while a request answers from what is known (``answering_now``): a table whose columns are not
# known yet is loaded in the background and named in the list, and the answer goes without its columns.
_ANSWER_NOW: ContextVar[Optional[list]] = ContextVar("completion_answer_now", default=None)
# Until when (time.monotonic()) such a request may wait for column loads already under way (ANSWER_WAIT_S).
_ANSWER_BY: ContextVar[float] = ContextVar("completion_answer_by", default=0.0)
# How long an answer-now request waits, at most and in all, for the columns of tables whose load is running or
# it just started (a local metastore answers in a few ms): the cold ``t.`` then needs one round trip, not two.
# Bounded, so no request waits for a slow catalog: past it the answer says ``loading``, and the editor asks again
# at once (a wait continued). 35 ms until stop 39: those waits were the server's p95 (goal: 20 ms); at 20 ms the
# cold popup still needed one request at p95 (benchmarks/browser_latency.py at 10,000 tables, docs/testing.md).
ANSWER_WAIT_S = 0.02


class SupersededError(GatewayError):
    """A newer completion request of the same editor arrived while this one waited: not answered (409)."""

    http_status = 409


class Supersession:
    """Whether a newer request of the same editor has arrived (ui/completion_route.py says so on its arrival).
    A request waiting within ``answering_now`` for a table's columns then stops waiting at once and ends with
    ``SupersededError``, computing nothing further: the newer request, the one a popup is for, does not queue
    behind that bounded wait (the burst ``SELECT t`` then ``.`` of a fast typist).

    ``continues``: the deadline (time.monotonic()) of the wait of the request this one superseded, if it was
    waiting: this one may wait up to ``ANSWER_WAIT_S`` past it (at most twice its own bound), as long as it would
    have waited behind that request, so that a load taking a little longer than one bound still makes one round
    trip, not two; once the columns are there it answers at once."""

    def __init__(self, continues: Optional[float] = None) -> None:
        self._lock = threading.Lock()
        self._superseded = False
        self._waiting: list[threading.Condition] = []
        self.continues = continues
        self.waiting_until: Optional[float] = None   # the deadline of this request's wait for columns, once waiting

    def supersede(self) -> Optional[float]:
        """Called once a newer request arrived: wakes this request's wait, if it is waiting, and returns that
        wait's deadline (for the newer request's ``continues``), else None."""
        with self._lock:
            self._superseded = True
            waiting = list(self._waiting)
            until = self.waiting_until if waiting else None
        for condition in waiting:
            with condition:
                condition.notify_all()
        return until

    def is_set(self) -> bool:
        return self._superseded

    @contextmanager
    def watching(self, condition: threading.Condition):
        """While a wait on ``condition`` runs: ``supersede`` notifies it (held by the caller)."""
        with self._lock:
            self._waiting.append(condition)
            self.waiting_until = _ANSWER_BY.get()
        try:
            yield
        finally:
            with self._lock:
                self._waiting.remove(condition)


_SUPERSEDED: ContextVar[Optional[Supersession]] = ContextVar("completion_superseded", default=None)


@contextmanager
def answering_now(superseded: Optional[Supersession] = None):
    """Within it, completion never waits for a table's columns (neither a catalog call nor a load another thread
    is making): unknown ones load in the background, and the list it yields names them (the editor asks again
    once they are there). Outside it, a request waits, as REST's ``complete-statement`` always has.
    ``superseded``: ends the short wait for a load under way once a newer request of the same editor came."""
    loading: list = []
    token = _ANSWER_NOW.set(loading)
    deadline = time.monotonic() + ANSWER_WAIT_S
    if superseded is not None and superseded.continues is not None:
        deadline = min(deadline + ANSWER_WAIT_S, max(deadline, superseded.continues + ANSWER_WAIT_S))
    by = _ANSWER_BY.set(deadline)
    cancel = _SUPERSEDED.set(superseded)
    try:
        yield loading
    finally:
        _SUPERSEDED.reset(cancel)
        _ANSWER_BY.reset(by)
        _ANSWER_NOW.reset(token)

_USE = re.compile(r"\s*USE\s+(?!MODULES\b)", re.I)
# At most this many candidates per answer (the best ones): a popup of 10,000 tables helps nobody.
MAX_CANDIDATES = 500
# At most this many tables' columns queued for the background per session (a statement naming more is rare).
PREFETCH_MAX = 16
# A request waits at most this long for a part another thread is loading, then asks the catalog itself.
LOAD_WAIT_S = 30.0
# Candidate kinds in the order they are offered when several match equally well.
_KIND_ORDER = {"suggestion": 0, "alias": 1, "column": 2, "field": 2, "cte": 3, "temporary view": 3, "table": 3,
               "view": 3, "table alias": 4, "table function": 5, "database": 6, "catalog": 7, "function": 8,
               "keyword": 9}


@dataclass(frozen=True)
class ColumnInfo:
    """A column as completion needs it: name, type text, and Spark's type (for struct fields)."""

    name: str
    type: str
    data_type: object = None

    def candidate(self, kind: str = "column") -> Candidate:
        return Candidate(self.name, kind, self.type)


# ---------------------------------------------------------------------------------------------
# One session's catalog snapshot
# ---------------------------------------------------------------------------------------------

class SchemaCache:
    """What one session's completion needs from its catalog.

    Each part loads on first use; ``refresh`` reloads every part loaded so far, one at a time, and
    swaps it in, so that answers during a refresh come from the previous contents."""

    def __init__(self, spark, session=None) -> None:
        self.spark = spark
        self.session = session
        self._lock = threading.RLock()
        self.generation = 0
        self.epoch = WRITES.value
        self.request_loads = 0   # catalog round trips made while answering (first use of a part)
        self.request_waits = 0   # requests that waited for a part another thread was loading (a prefetch)
        self.prefetch_loads = 0  # columns loaded in the background because a statement named their table
        self.column_lookups = 0  # catalog calls made for a table's columns (one per load, a missing table too)
        self.answered_loading = 0  # answers given without a table's columns, which were loading (answering_now)
        self.answered_waiting = 0  # of those not known, answered with them after a short wait (ANSWER_WAIT_S)
        self._version = 0        # moves with every change laid over the parts: loads overlapping it are not kept
        self._loading: dict[tuple, threading.Event] = {}
        self._prefetch_queue: dict[str, str] = {}   # lower-case name -> name, in order
        self._prefetcher: Optional[threading.Thread] = None
        self._prefetched = threading.Condition(self._lock)
        self._relations: dict[Optional[str], list[Candidate]] = {}
        self._index: dict[int, tuple] = {}   # id(listing) -> (listing, sorted lower-case names, sorted)
        self._databases: dict[Optional[str], list[str]] = {}
        self._catalogs: dict[None, list[str]] = {}
        self._user_functions: dict[None, list[Candidate]] = {}
        self._columns: dict[str, Optional[list[ColumnInfo]]] = {}
        self._tvf: dict[str, Optional[list[ColumnInfo]]] = {}
        self._builtins: tuple[int, list[Candidate]] = (-1, [])
        self.current_database: Optional[str] = None  # when the current database's tables were listed
        self._overlays: list[tuple] = []  # (write epoch before the statement, change, own, own database)
        # (database, name) of relations that statements still running create (a CTAS): "no such table" for one
        # is not kept while it runs, nor from a refresh that began before it ended (``settle``), so that the
        # first request after it asks the catalog again instead of answering "no columns" from a stale miss.
        self._creating: list[tuple[str, str]] = []
        self._settles = 0
        self._settled: dict[tuple[str, str], int] = {}   # relation -> ``_settles`` when its statement ended
        self._schemas = SessionTableSchemas(spark)   # a table's columns from the session catalog, few Py4J calls
        self._lookup_warmed = False

    def _part(self, store: dict, key, load: Callable, background: bool = False):
        """``store[key]``, loaded by ``load(key)`` on first use. One load per part at a time: a request that
        needs a part another thread is loading (a prefetch, another request) waits for that load instead of
        asking the catalog again. A load that overlapped a change (DDL patched in, a refresh swapped in) is
        answered but not kept: the next use loads again."""
        token = (id(store), key)
        waited = False
        while True:
            with self._lock:
                if key in store:
                    if waited and not background:
                        self.request_waits += 1
                    return store[key]
                loading = self._loading.get(token)
                if loading is None:
                    loading = self._loading[token] = threading.Event()
                    version = self._version
                    break
            waited = True
            if not loading.wait(LOAD_WAIT_S):
                break  # a load that hangs: ask again here (its own event stays with it)
        try:
            value = load(key)
        finally:
            with self._lock:
                if self._loading.get(token) is loading:
                    del self._loading[token]
                if background:
                    self.prefetch_loads += 1
                else:
                    self.request_loads += 1
            loading.set()
        with self._lock:
            if self._version != version or (value is None and store is self._columns and self._being_made(key)):
                return value
            self._prefetched.notify_all()   # requests waiting a moment for these columns (answering_now)
            return store.setdefault(key, value)

    def prefetch_columns(self, names: Iterable[str], latest: bool = False) -> None:
        """Start loading, in the background, the columns of the tables a statement names (its FROM and JOIN)
        that are not known yet: the editor asks on each keystroke, so by the time the user types ``t.`` the
        columns are known and the dot costs no catalog round trip. ``latest``: the names of the newest request
        replace those still queued (``FROM bench_t0``, ``bench_t00``, … typed on the way: each a lookup of a
        table that does not exist, and the table finally typed waited behind them all)."""
        with self._lock:
            if latest:
                self._prefetch_queue.clear()
            for name in names:
                key = name.lower()
                if len(self._prefetch_queue) >= PREFETCH_MAX or key in self._columns or key in self._prefetch_queue \
                        or (id(self._columns), key) in self._loading:
                    continue
                self._prefetch_queue[key] = name
            if self._prefetch_queue and (self._prefetcher is None or not self._prefetcher.is_alive()):
                self._prefetcher = threading.Thread(target=self._prefetch_all, name="completion-prefetch", daemon=True)
                self._prefetcher.start()

    def _prefetch_all(self) -> None:
        while True:
            with self._lock:
                if not self._prefetch_queue:
                    self._prefetcher = None
                    self._prefetched.notify_all()
                    return
                key = next(iter(self._prefetch_queue))
                name = self._prefetch_queue.pop(key)
            try:
                for _ in range(3):  # a load that overlapped a change (DDL, a refresh) is not kept: load again
                    self._part(self._columns, key, lambda _: self._load_columns(name), background=True)
                    with self._lock:
                        if key in self._columns or self._being_made(key):
                            break
            except Exception:  # noqa: BLE001 - a closed session: the next request loads on demand
                log.debug("completion prefetch of a table's columns failed", exc_info=True)

    def warm_column_lookup(self) -> Optional[threading.Thread]:
        """Read one listed table's schema once, in the background, its answer not kept (nor counted): the first
        lookup of a table's columns in a session (the metastore client compiling its queries, classes loading)
        took 1.8-1.9 s at 300 tables under load, later ones 20-300 ms; the user's first dot then finds the path
        warm. Once per cache, after its listing; None when done before or nothing is listed yet."""
        with self._lock:
            listed = self._relations.get(None)
            if self._lookup_warmed or not listed:
                return None
            self._lookup_warmed = True
            name = next((c.value for c in listed if c.kind in ("table", "view")), None)
        if name is None:
            return None

        def read() -> None:
            try:
                self._schemas.schema(split_name(name))
            except Exception:  # noqa: BLE001 - only a warm-up: the first request loads it as before
                log.debug("completion: warming the column lookup failed", exc_info=True)

        thread = threading.Thread(target=read, name="completion-warm-columns", daemon=True)
        thread.start()
        return thread

    def columns_not_known(self, names: Iterable[str]) -> list[str]:
        """Those of ``names`` whose columns (or absence) are not known yet."""
        with self._lock:
            return [n for n in names if n.lower() not in self._columns]

    def wait_prefetched(self, timeout_s: float = 30.0) -> bool:
        """Wait until no prefetch is queued or running (tests, benchmarks); True when settled."""
        with self._prefetched:
            return self._prefetched.wait_for(lambda: not self._prefetch_queue and self._prefetcher is None,
                                             timeout=timeout_s)

    # -- the parts ---------------------------------------------------------------------------------

    def relations(self, database: Optional[str] = None) -> list[Candidate]:
        """Tables and views of the current (or given) database, plus temporary views."""
        return self._part(self._relations, database.lower() if database else None,
                          lambda key: self._load_relations(database))

    def relations_matching(self, prefix: str, database: Optional[str] = None,
                           limit: int = None) -> list[Candidate]:
        """The relations whose name starts with ``prefix``, at most ``limit``, from a sorted index of the
        listing (built once per listing): 10,000 tables cost a binary search, not a scan."""
        found = self.relations(database)
        limit = MAX_CANDIDATES if limit is None else limit
        with self._lock:
            index = self._index.get(id(found))
        if index is None or index[0] is not found:
            ordered = sorted(found, key=lambda c: c.value.lower())
            index = (found, [c.value.lower() for c in ordered], ordered)
            with self._lock:
                self._index = {id(found): index, **{k: v for k, v in self._index.items()
                                                    if any(v[0] is listed for listed in self._relations.values())}}
        _, lowers, ordered = index
        low = prefix.lower()
        out = []
        for i in range(bisect.bisect_left(lowers, low), len(lowers)):
            if len(out) >= limit or not lowers[i].startswith(low):
                break
            out.append(ordered[i])
        return out

    def _load_relations(self, database: Optional[str]) -> list[Candidate]:
        if database is None:
            self.current_database = self.spark.catalog.currentDatabase()
        found = []
        for relation in list_relations(self.spark, split_name(database) if database else ()):
            if relation.is_temporary:
                kind = "temporary view"
            else:
                kind = "view" if relation.is_view else "table"
            found.append(Candidate(relation.name, kind, relation.namespace or "temporary"))
        return found

    def databases(self, catalog: Optional[str] = None) -> list[str]:
        return self._part(self._databases, catalog.lower() if catalog else None,
                          lambda key: self._load_databases(catalog))

    def _load_databases(self, catalog: Optional[str]) -> list[str]:
        target = f" IN {quote(catalog)}" if catalog else ""
        return sorted(r[0] for r in self.spark.sql(f"SHOW NAMESPACES{target}").collect())

    def catalogs(self) -> list[str]:
        return self._part(self._catalogs, None,
                          lambda key: sorted(c.name for c in self.spark.catalog.listCatalogs()))

    def user_functions(self) -> list[Candidate]:
        return self._part(self._user_functions, None, lambda key: [
            Candidate(r[0].split(".")[-1], "function", "user function")
            for r in self.spark.sql("SHOW USER FUNCTIONS").collect()])

    def functions(self) -> list[Candidate]:
        """User functions, then built-ins with their argument list and one-line description."""
        functions = builtin_functions()
        names = functions.names(self.spark)
        functions.load_details_in_background(self.spark)  # signatures appear once loaded
        known = len(functions._signatures)  # noqa: SLF001 - rebuild the list only when details arrived
        with self._lock:
            built, builtins = self._builtins
        if built != known or not builtins:
            builtins = [Candidate(n, "function", _function_detail(functions, n))
                        for n in sorted(names) if _FUNCTION_NAME.match(n)]
            with self._lock:
                self._builtins = (known, builtins)
        return self.user_functions() + builtins

    def column_infos(self, name: str) -> Optional[list[ColumnInfo]]:
        """Columns of a table or view with their types; None when there is no such table. Within
        ``answering_now``, [] for a table not known yet, whose columns then load in the background."""
        loading = _ANSWER_NOW.get()
        if loading is not None:
            key = name.lower()
            with self._lock:
                if key in self._columns:
                    return self._columns[key]
                self.answered_loading += 1
            self.prefetch_columns([name])
            superseded = _SUPERSEDED.get()
            # The load just started or already under way: a short, bounded wait, which a newer request ends.
            with self._prefetched, superseded.watching(self._prefetched) if superseded else nullcontext():
                if self._prefetched.wait_for(lambda: key in self._columns or self._being_made(key)
                                             or (superseded is not None and superseded.is_set()),
                                             timeout=max(0.0, _ANSWER_BY.get() - time.monotonic())):
                    if superseded is not None and superseded.is_set():
                        raise SupersededError("a newer completion request of this editor arrived while this one "
                                              "waited for a table's columns: not answered")
                    if key in self._columns:
                        self.answered_waiting += 1
                        return self._columns[key]
            if name not in loading:
                loading.append(name)
            return []
        return self._part(self._columns, name.lower(), lambda key: self._load_columns(name))

    def _load_columns(self, name: str) -> Optional[list[ColumnInfo]]:
        try:
            if self.current_database is None and len(split_name(name)) == 1:
                # Kept by a bare name: which database it is in, so that DDL naming ``db.t`` patches it too
                # (unless a USE came meanwhile: then the next load asks again).
                version, current = self._version, self.spark.catalog.currentDatabase()
                with self._lock:
                    if self._version == version and self.current_database is None:
                        self.current_database = current
            self.column_lookups += 1
            try:
                schema = self._schemas.schema(split_name(name))  # the metadata only: quick
            except Exception as exc:  # noqa: BLE001
                if _no_such_table(exc):
                    return None  # the session catalog's word: no second lookup through spark.table
                log.debug("completion: a table's schema from the session catalog failed", exc_info=True)
                schema = None
            if schema is None:
                self.column_lookups += 1
                schema = self.spark.table(quote_name(name)).schema
        except Exception:
            log.debug("completion: no columns for a table", exc_info=True)
            return None
        return [ColumnInfo(f.name, f.dataType.simpleString().upper(), f.dataType) for f in schema.fields]

    def columns(self, name: str) -> Optional[list[Candidate]]:
        infos = self.column_infos(name)
        return None if infos is None else [c.candidate() for c in infos]

    def tvf_columns(self, call: str) -> Optional[list[ColumnInfo]]:
        """Output columns of a table function call: Spark analyzes the call itself (no job runs), or,
        when it reads columns of another relation, a probe call of the same function, cached."""
        found = self._part(self._tvf, call.lower(), lambda key: self._load_tvf(call))
        if found is None:
            match = _TVF_NAME.match(call)
            probe = _TVF_PROBES.get(match.group(1).lower()) if match else None
            if probe and probe != call:
                found = self._part(self._tvf, probe, lambda key: self._load_tvf(probe))
        return found

    def _load_tvf(self, call: str) -> Optional[list[ColumnInfo]]:
        try:
            schema = self.spark.sql(f"SELECT * FROM {call}").schema
        except Exception:
            log.debug("completion: no columns for a table function call", exc_info=True)
            return None
        return [ColumnInfo(f.name, f.dataType.simpleString().upper(), f.dataType) for f in schema.fields]

    # -- freshness -----------------------------------------------------------------------------------

    def refresh(self) -> None:
        """Reload every part loaded so far (after DDL somewhere); requests answer from the old parts until
        the new ones are swapped in together."""
        self.epoch = WRITES.value  # taken first: a write during the reload schedules another
        if self.session is not None:
            WRITES.catch_up(self.session)  # this session's Spark forgets the tables it cached
        loaders = [(self._relations, lambda key: self._load_relations(key)),
                   (self._databases, lambda key: self._load_databases(key)),
                   (self._catalogs, lambda key: sorted(c.name for c in self.spark.catalog.listCatalogs())),
                   (self._user_functions, lambda key: [
                       Candidate(r[0].split(".")[-1], "function", "user function")
                       for r in self.spark.sql("SHOW USER FUNCTIONS").collect()]),
                   (self._columns, lambda key: self._load_columns(key))]
        started, settles = self.epoch, self._settles
        loaded = []
        for store, load in loaders:
            with self._lock:
                keys = list(store)
            for key in keys:
                try:
                    loaded.append((store, key, load(key)))
                except Exception as exc:  # a database dropped meanwhile: forget the part
                    log.debug("completion refresh of %r failed: %s", key, exc)
                    loaded.append((store, key, _GONE))
        with self._lock:  # swapped in at once, then the statements that may not show yet laid over again
            for store, key, value in loaded:
                if value is _GONE or (value is None and store is self._columns and self._being_made(key, settles)):
                    store.pop(key, None)   # a miss read while the statement making it ran: not kept
                else:
                    store[key] = value
            self._overlays = [o for o in self._overlays if o[0] >= started]
            for _, change, own, own_database in self._overlays:
                self._apply(change, own, own_database)
            self.generation += 1
            self._version += 1

    def apply(self, change: Change, own: bool, own_database: Optional[str]) -> None:
        """Patch the cached lists with what a DDL statement of some session changes (``own``: this
        session's). The patch is kept and laid again over what a refresh loads, until a refresh that
        started after the statement ended (the write epoch moved on) shows the catalog's own word."""
        with self._lock:
            self._overlays.append((WRITES.value, change, own, own_database))
            if change.created and change.relation:
                self._creating.append(_relation_key(change, own_database))
            self._apply(change, own, own_database)

    def settle(self, change: Change, own_database: Optional[str]) -> None:
        """The statement that made ``change`` ended: a miss read for the relation it creates while it ran is
        dropped (the next use asks the catalog), and loads that overlapped the end are not kept."""
        relation = _relation_key(change, own_database)
        with self._lock:
            if relation in self._creating:
                self._creating.remove(relation)
            self._settles += 1
            self._settled.pop(relation, None)
            self._settled[relation] = self._settles
            while len(self._settled) > 256:   # the oldest (no refresh outlasts 256 statements making tables)
                del self._settled[next(iter(self._settled))]
            self._version += 1
            for key in [k for k, v in self._columns.items() if v is None and _names(k, relation)]:
                del self._columns[key]

    def _being_made(self, key: str, settles_before: Optional[int] = None) -> bool:
        """Whether a miss for ``key`` may be stale: a statement still running creates it, or (for a refresh that
        began at ``settles_before``) one that ended after the refresh began."""
        if any(_names(key, relation) for relation in self._creating):
            return True
        return settles_before is not None and any(
            at > settles_before and _names(key, relation) for relation, at in self._settled.items())

    def _apply(self, change: Change, own: bool, own_database: Optional[str]) -> None:
        with self._lock:
            self._version += 1
            if change.function:
                if None in self._user_functions and (own or not change.temporary):
                    listed = [c for c in self._user_functions[None] if c.value.lower() != change.function.lower()]
                    if change.created:
                        listed.append(Candidate(change.function, "function", "user function"))
                    self._user_functions[None] = listed
                return
            if change.database:
                if None in self._databases:
                    names = [n for n in self._databases[None] if n.lower() != change.database.lower()]
                    self._databases[None] = sorted(names + [change.database] if change.database_created else names)
                return
            parts = change.relation
            name = parts[-1]
            database = (parts[-2] if len(parts) > 1 else own_database or "").lower()
            temporary = change.temporary or (own and len(parts) == 1 and change.dropped and any(
                c.kind == "temporary view" and c.value.lower() == name.lower() for c in self._relations.get(None, [])))
            if temporary and not own:
                return
            for key in list(self._relations):
                if temporary:
                    if key is not None:
                        continue
                else:
                    here = (self.current_database or "").lower() if key is None else key.split(".")[-1]
                    if not database or here != database:
                        continue
                kind = "temporary view" if temporary else ("view" if change.view else "table")
                listed = [c for c in self._relations[key]
                          if not (c.value.lower() == name.lower() and (c.kind == "temporary view") == temporary)]
                if change.created:
                    listed.append(Candidate(name, kind, "temporary" if temporary else database))
                if change.renamed_to:
                    old = next((c for c in self._relations[key] if c.value.lower() == name.lower()), None)
                    listed.append(Candidate(change.renamed_to[-1], old.kind if old else kind, database))
                self._relations[key] = listed
            if change.created and change.columns and not change.replaced:
                keys = [name.lower()] if temporary else [f"{database}.{name}".lower()] + (
                    [name.lower()] if (self.current_database or "").lower() == database else [])
                for key in keys:
                    self._columns[key] = [ColumnInfo(n, t) for n, t in change.columns]
                return
            for key in list(self._columns):
                key_parts = key.split(".")
                if key_parts[-1] != name.lower():
                    continue
                key_database = key_parts[-2] if len(key_parts) > 1 else (
                    "" if temporary else (self.current_database or "").lower())
                if not temporary and key_database != database:
                    continue
                columns = self._columns[key]
                if change.dropped and not temporary:
                    self._columns[key] = None  # no such table now
                elif change.created or change.dropped or change.renamed_to or columns is None:
                    self._columns.pop(key, None)  # known again at first use (or at the refresh)
                else:
                    dropped = {n.lower() for n in change.dropped_columns}
                    renamed = {a.lower(): b for a, b in change.renamed_columns}
                    columns = [ColumnInfo(renamed.get(c.name.lower(), c.name), c.type, c.data_type)
                               for c in columns if c.name.lower() not in dropped]
                    self._columns[key] = columns + [ColumnInfo(n, t) for n, t in change.added_columns]

    def forget_current_database(self) -> None:
        """``USE``: the lists of the current database (and its tables' columns by bare name) no longer hold."""
        with self._lock:
            self._version += 1
            self._relations.pop(None, None)
            for key in [k for k in self._columns if "." not in k]:
                del self._columns[key]
            self.current_database = None

    def invalidate(self) -> None:
        """Forget everything now (the next requests load again): for a catalog changed behind our back."""
        with self._lock:
            self.epoch = WRITES.value
            self.generation += 1
            self._version += 1
            for store in (self._relations, self._databases, self._catalogs, self._user_functions, self._columns,
                          self._tvf):
                store.clear()


def _settle(ended: list, caches: list[SchemaCache]) -> None:
    """Tell every cache that the statements which made ``ended`` [(change, its database)] are over."""
    for change, database in ended:
        for cache in caches:
            cache.settle(change, database)


def _relation_key(change: Change, own_database: Optional[str]) -> tuple[str, str]:
    """(database, name), lower case, of the relation a change names (the session's database for a bare name)."""
    parts = change.relation
    return ((parts[-2] if len(parts) > 1 else own_database or "").lower(), parts[-1].lower())


def _names(key: str, relation: tuple[str, str]) -> bool:
    """Whether the columns key ``key`` (``t``, ``db.t``, ``catalog.db.t``) may name ``relation``."""
    parts = key.split(".")
    return parts[-1] == relation[1] and (len(parts) == 1 or not relation[0] or parts[-2] == relation[0])


def _no_such_table(exc: BaseException) -> bool:
    """Whether Spark said there is no such table or view (as opposed to a lookup that could not run)."""
    text = f"{type(exc).__name__}: {exc}"
    return any(word in text for word in ("NoSuchTable", "TABLE_OR_VIEW_NOT_FOUND", "NoSuchDatabase",
                                         "SCHEMA_NOT_FOUND", "NoSuchNamespace"))


def _function_detail(functions, name: str) -> str:
    """``upper(str) — Returns str with all characters changed to uppercase.``: arguments and one line."""
    signature = functions.signature(name)
    if not signature:
        return "built-in"
    usage = functions.usage(name)
    line = next((x.strip() for x in usage.strip().splitlines() if " - " in x), "")
    description = line.split(" - ", 1)[1].strip() if line else ""
    description = re.split(r"(?<=\.)\s", description, maxsplit=1)[0].replace("`", "")
    return f"{signature} — {description}" if description else signature


# ---------------------------------------------------------------------------------------------
# Candidates
# ---------------------------------------------------------------------------------------------

def candidates(cache: SchemaCache, statement: str, position: int) -> list[Candidate]:
    """Candidates at ``position`` (a 0-based offset into ``statement``, which may hold a whole
    script: the statement under the cursor counts), best first."""
    if isinstance(position, bool) or not isinstance(position, int) or position < 0 or position > len(statement):
        raise InvalidRequestError(
            f"position {position!r} is outside the statement (0..{len(statement)}): give the cursor offset")
    site = analyze(statement, position)
    cache.prefetch_columns(tables_named(site), latest=True)
    return _rank(_found(cache, site), site.prefix)


_CTE_NAME = re.compile(r"(?:\bWITH\s+(?:RECURSIVE\s+)?|,\s*)(`[^`]+`|[A-Za-z_][A-Za-z0-9_]*)\s*(?:\([^()]*\)\s*)?AS\s*\(",
                       re.I)


def tables_named(site: Site) -> list[str]:
    """The tables the statement reads (FROM, JOIN, and the tables behind its CTEs' and subqueries' ``*``),
    for ``prefetch_columns``. Where the cursor's place needs no parse (a keyword, an alias being typed), the
    words after FROM and JOIN say them; CTE names are not tables."""
    sources = site.sources + site.outer_sources
    if not sources and site.expect not in ("none",):
        sources = _token_sources(site.statement)
    ctes = {c.lower() for c in site.ctes} | {m.group(1).strip("`").lower() for m in _CTE_NAME.finditer(site.statement)}
    names: list[str] = []
    for source in sources:
        if source.table:
            names.append(source.table)
        for name, origin in source.columns or ():
            if name.startswith("*") and origin and not _TVF_NAME.match(origin):
                names.append(origin)
    return [n for n in dict.fromkeys(names) if PLACEHOLDER not in n and n.lower() not in ctes]


def _safe(call: Callable, default=None):
    try:
        return call()
    except SupersededError:
        raise   # not a failed lookup: the request ends here
    except Exception as exc:  # a name that is not a database, a catalog that went away, …
        log.debug("completion lookup failed: %s", exc)
        return default


def _found(cache: SchemaCache, site: Site) -> Iterable[Candidate]:
    expect, qualifier = site.expect, site.qualifier
    if expect == "none":
        return []
    if expect == "keyword":
        return [Candidate(k, "keyword") for k in site.keywords]
    if expect == "catalog":
        return [Candidate(c, "catalog") for c in _safe(cache.catalogs, [])]
    if expect == "database":
        return [Candidate(d, "database") for d in _safe(lambda: cache.databases(".".join(qualifier) or None), [])]
    if expect == "database_or_catalog":
        if qualifier:
            return [Candidate(d, "database") for d in _safe(lambda: cache.databases(".".join(qualifier)), [])]
        return [Candidate(d, "database") for d in _safe(cache.databases, [])] + \
            [Candidate(c, "catalog") for c in _safe(cache.catalogs, [])]
    if expect == "function":
        return _safe(cache.functions, [])
    if expect == "user_function":
        return _safe(cache.user_functions, [])
    if expect == "relation":
        return _relations_at(cache, site)
    if expect == "column_of":
        found = _safe(lambda: cache.column_infos(site.table), None) or []
        return [c.candidate() for c in found if c.name.lower() not in site.exclude]
    if qualifier:
        return _after_qualifier(cache, site)
    return _in_expression(cache, site)


def _relations_at(cache: SchemaCache, site: Site) -> list[Candidate]:
    if site.qualifier:
        name = ".".join(site.qualifier)
        found = [c for c in _safe(lambda: cache.relations(name), []) if c.kind != "temporary view"]
        found += [Candidate(d, "database") for d in _safe(lambda: cache.databases(name), [])]
        return found
    found = [Candidate(c, "cte", "WITH") for c in site.ctes]
    found += _safe(lambda: cache.relations_matching(site.prefix), [])
    found += [Candidate(k, "keyword") for k in site.keywords]  # DESCRIBE |: TABLE, FUNCTION, …
    found += [Candidate(d, "database") for d in _safe(cache.databases, [])]
    if site.tvf:
        found += table_functions(cache)
    return found


def _source_columns(cache: SchemaCache, source: Source, seen: int = 0) -> list[ColumnInfo]:
    """The columns a source offers (a table's from the catalog, a CTE's or subquery's from its select
    list, a table function's from Spark), renamed by an alias column list ``AS e(v)``."""
    if source.columns is not None:
        out: list[ColumnInfo] = []
        for name, origin in source.columns:
            if name.startswith("*"):
                inner = Source(name[1:], table=origin) if not _TVF_NAME.match(origin or "") else \
                    Source(name[1:], function=origin)
                out += _source_columns(cache, inner, seen + 1) if origin and seen < 5 else []
            else:
                out.append(ColumnInfo(name, ""))
        infos = out
    elif source.function:
        infos = _safe(lambda: cache.tvf_columns(source.function), None) or []
    elif source.table:
        infos = _safe(lambda: cache.column_infos(source.table), None) or []
    else:
        infos = []
    if source.column_names:
        infos = [ColumnInfo(n, infos[i].type if i < len(infos) else "", infos[i].data_type if i < len(infos)
                            else None) for i, n in enumerate(source.column_names)]
    return infos


def _fields(data_type) -> Optional[list[ColumnInfo]]:
    """The fields of a struct (or of the structs in an array: ``arr.f`` reads every element's f)."""
    from pyspark.sql.types import ArrayType, StructType
    while isinstance(data_type, ArrayType):
        data_type = data_type.elementType
    if isinstance(data_type, StructType):
        return [ColumnInfo(f.name, f.dataType.simpleString().upper(), f.dataType) for f in data_type.fields]
    return None


def _walk(columns: list[ColumnInfo], path: list[str]) -> Optional[list[ColumnInfo]]:
    """Follow ``path`` through struct fields; the fields at its end, or None."""
    current = columns
    for part in path:
        match = next((c for c in current if c.name.lower() == part.lower()), None)
        if match is None:
            return None
        current = _fields(match.data_type)
        if current is None:
            return None
    return current


def _after_qualifier(cache: SchemaCache, site: Site) -> list[Candidate]:
    head, rest = site.qualifier[0].lower(), site.qualifier[1:]
    for source in site.sources + site.outer_sources:
        if source.alias.lower() == head:
            found = _walk(_source_columns(cache, source), rest)
            if found is not None:
                return [c.candidate("field" if rest else "column") for c in found]
    # A table named with its database (``db.t.``) in scope by its full name.
    joined = ".".join(site.qualifier).lower()
    for source in site.sources:
        if source.table and source.table.lower() == joined:
            return [c.candidate() for c in _source_columns(cache, source)]
    # A struct column without its table's alias (``shipping.city``).
    for source in site.sources + site.outer_sources:
        found = _walk(_source_columns(cache, source), site.qualifier)
        if found is not None:
            return [c.candidate("field") for c in found]
    if not site.parsed and not site.sources:
        name = ".".join(site.qualifier)
        loading = _ANSWER_NOW.get()
        columns = _safe(lambda: cache.column_infos(name), None)
        if columns:
            return [c.candidate() for c in columns]
        if loading is not None and name in loading:
            return []  # its columns are loading, if it is a table: the editor asks again (no catalog call now)
    # A database (its tables) or a catalog (its databases).
    name = ".".join(site.qualifier)
    relations = [c for c in _safe(lambda: cache.relations(name), []) if c.kind != "temporary view"]
    if relations:
        return relations
    return [Candidate(d, "database") for d in _safe(lambda: cache.databases(name), [])]


def _in_expression(cache: SchemaCache, site: Site) -> list[Candidate]:
    found: list[Candidate] = []
    columns = {s.alias: _source_columns(cache, s) for s in site.sources}
    if site.clause == "ON" and site.join_new is not None:
        found += _join_conditions(site, columns)
    if site.clause == "GROUP BY":
        found += [Candidate(text, "suggestion", "select list, not aggregated") for text in site.group_candidates]
    if site.clause in ("ORDER BY", "SORT BY", "HAVING", "GROUP BY"):
        found += [Candidate(a, "alias", "select list") for a in site.select_aliases]
    for source in site.sources:
        found += [c.candidate() for c in columns[source.alias]]
    found += [Candidate(s.alias, "table alias", s.table or s.function or "derived") for s in site.sources]
    for source in site.outer_sources:
        found += [c.candidate() for c in _source_columns(cache, source)]
    found += _safe(cache.functions, [])
    found += [Candidate(k, "keyword") for k in KEYWORDS]
    return found


def _join_conditions(site: Site, columns: dict[str, list[ColumnInfo]]) -> list[Candidate]:
    """``a.customer_id = b.customer_id`` for the columns the new side shares by name with an earlier
    one, and ``o.customer_id = c.id`` where a column names the other table (``<table>_id``)."""
    new = site.join_new
    new_names = {c.name.lower(): c.name for c in columns.get(new.alias, [])}
    shared, keyed, ids = [], [], []
    for source in site.sources:
        if source is new:
            break
        for column in columns.get(source.alias, []):
            lower = column.name.lower()
            if lower in new_names:
                text = f"{source.alias}.{column.name} = {new.alias}.{new_names[lower]}"
                (ids if lower == "id" else shared).append(text)
        for left, right, left_cols, right_names in ((source, new, columns.get(source.alias, []), new_names),
                                                    (new, source, columns.get(new.alias, []),
                                                     {c.name.lower(): c.name for c in columns.get(source.alias, [])})):
            stem = _singular((right.table or right.alias).split(".")[-1].lower())
            for column in left_cols:
                if column.name.lower() in (f"{stem}_id", f"{stem}id") and "id" in right_names:
                    pair = (f"{left.alias}.{column.name}", f"{right.alias}.{right_names['id']}")
                    text = f"{pair[0]} = {pair[1]}" if left is source else f"{pair[1]} = {pair[0]}"
                    keyed.append(text)
    return [Candidate(t, "suggestion", "join condition") for t in dict.fromkeys(keyed + shared + ids)]


def _singular(name: str) -> str:
    if name.endswith("ies"):
        return name[:-3] + "y"
    if name.endswith("s") and not name.endswith("ss"):
        return name[:-1]
    return name


def _rank(found: Iterable[Candidate], prefix: str, limit: int = MAX_CANDIDATES) -> list[Candidate]:
    """The best ``limit`` of those that start with ``prefix`` (a suggestion also by its part after
    ``alias.``), each value once: exact matches first, then by kind, then by name. A partial sort:
    10,000 tables after ``FROM `` cost a filter and a heap of ``limit``, not a sort of them all."""
    lowered = prefix.lower()
    best: dict[str, tuple] = {}
    for index, candidate in enumerate(found):
        value = candidate.value
        if value in best:
            continue
        low = value.lower()
        if lowered and not low.startswith(lowered) and not (
                candidate.kind == "suggestion" and "." in low and low.split(".", 1)[1].startswith(lowered)):
            continue
        best[value] = (low != lowered, _KIND_ORDER.get(candidate.kind, 9),
                       index if candidate.kind == "suggestion" else 0, low, value, candidate)
    return [item[-1] for item in heapq.nsmallest(limit, best.values())]


def table_functions(cache: SchemaCache) -> list[Candidate]:
    known = {c.value.lower(): c.detail for c in _safe(cache.functions, [])}
    return [Candidate(name, "table function", known[name]) for name in TABLE_FUNCTIONS if name in known]


def dictionary(cache: SchemaCache, columns_of=None) -> dict:
    """Everything an editor needs to complete locally (see GatewayContract.completion_dictionary)."""
    if columns_of is not None and (isinstance(columns_of, str) or not all(isinstance(n, str) for n in columns_of)):
        raise InvalidRequestError("columns_of must be a list of table names")
    listing = lambda found: [c.to_json() for c in found]  # noqa: E731
    columns = {}
    for name in dict.fromkeys(columns_of or ()):
        found = cache.columns(name) if name.strip() else None
        columns[name] = listing(found) if found is not None else None
    return {
        "relations": listing(cache.relations()),
        "databases": listing(Candidate(d, "database") for d in cache.databases()),
        "catalogs": listing(Candidate(c, "catalog") for c in cache.catalogs()),
        "functions": listing(cache.functions()),
        "table_functions": listing(table_functions(cache)),
        "keywords": listing(Candidate(k, "keyword") for k in KEYWORDS),
        "columns": columns,
    }


def keyword_dictionary() -> dict:
    """The dictionary an editor can complete from before any session exists (Spark still starting):
    keywords only, in the shape of ``dictionary``; tables and functions come once Spark is up.
    ``offline``: there is no engine to ask yet, so the editor answers every popup from this dictionary."""
    return {"relations": [], "databases": [], "catalogs": [], "functions": [], "table_functions": [],
            "keywords": [Candidate(k, "keyword").to_json() for k in KEYWORDS], "columns": {}, "offline": True}


# ---------------------------------------------------------------------------------------------
# Per-session caches for the service, refreshed in the background
# ---------------------------------------------------------------------------------------------

class Completer:
    """One SchemaCache per session, and one background worker that refreshes them after DDL."""

    def __init__(self) -> None:
        self._caches: dict = {}
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)
        self._stale: dict[int, SchemaCache] = {}
        self._worker: Optional[threading.Thread] = None
        self._busy = False
        self._refreshing: Optional[SchemaCache] = None
        self._making: dict = {}   # session handle -> [(change, its database)]: relations its running statements create
        self.refreshes = 0

    def cache(self, session) -> SchemaCache:
        """The session's cache. When anything was written since it loaded (a statement that did not
        pass the service's hook), a refresh starts in the background; this request answers from it."""
        with self._lock:
            cache = self._caches.get(session.handle)
            if cache is None:
                cache = self._caches[session.handle] = SchemaCache(session.spark, session)
        if cache.epoch != WRITES.value:
            self._schedule([cache])
        return cache

    def invalidate(self, session) -> None:
        """A statement of ``session`` may have changed the catalog: every session's cache refreshes
        (a table one session creates is offered to all), in the background. Told before and after a
        statement: the relations its earlier statements were creating are made by now (``settle``)."""
        with self._lock:
            caches = list(self._caches.values())
            ended = self._making.pop(session.handle, [])
        _settle(ended, caches)
        self._schedule(caches)

    def statement_seen(self, session, text: str) -> None:
        """A statement is about to run in ``session``: what its text says it creates, alters or drops is
        offered (or no longer offered) to every session's next request, before any refresh."""
        with self._lock:
            own = self._caches.get(session.handle)
            caches = list(self._caches.values())
        if own is not None and _USE.match(text):
            own.forget_current_database()  # its tables load at the next request (USE is no DDL)
            return
        change = change_of(text)
        if change is None:
            return
        own_database = own.current_database if own is not None else None
        if own_database is None and len(change.relation or ()) == 1:
            own_database = session.spark.catalog.currentDatabase()
        if change.created and change.relation:
            with self._lock:
                self._making.setdefault(session.handle, []).append((change, own_database))
        for cache in caches:
            cache.apply(change, cache is own, own_database)

    def forget(self, session) -> None:
        with self._lock:
            cache = self._caches.pop(session.handle, None)
            ended = self._making.pop(session.handle, [])
            caches = list(self._caches.values())
            if cache is not None:
                self._stale.pop(id(cache), None)
        _settle(ended, caches)

    def drop(self, session) -> None:
        """Forget what is known of the session's catalog now (changed behind the gateway's back)."""
        with self._lock:
            cache = self._caches.get(session.handle)
        if cache is not None:
            cache.invalidate()

    def _schedule(self, caches: list[SchemaCache]) -> None:
        with self._lock:
            for cache in caches:
                cache.epoch = WRITES.value  # scheduled: requests meanwhile do not schedule it again
                self._stale[id(cache)] = cache
            if self._stale and (self._worker is None or not self._worker.is_alive()):
                self._worker = threading.Thread(target=self._refresh_all, name="completion-refresh", daemon=True)
                self._worker.start()
            self._changed.notify_all()

    def _refresh_all(self) -> None:
        while True:
            with self._lock:
                if not self._stale:
                    self._busy = False
                    self._worker = None
                    self._changed.notify_all()
                    return
                _, cache = self._stale.popitem()
                self._busy = True
                self._refreshing = cache
            try:
                cache.refresh()
            except Exception:  # noqa: BLE001 - a closed session; the next request loads on demand
                log.debug("completion refresh failed", exc_info=True)
            with self._lock:
                self.refreshes += 1
                self._refreshing = None
                self._changed.notify_all()

    def wait_fresh(self, timeout_s: float = 30.0) -> bool:
        """Wait until no refresh is pending or running (tests, benchmarks); True when settled."""
        with self._lock:
            return self._changed.wait_for(lambda: not self._stale and not self._busy, timeout=timeout_s)

    def warm(self, session) -> threading.Thread:
        """Load the session's tables and functions in the background, so the first popup is quick."""
        cache = self.cache(session)

        def load() -> None:
            try:
                cache.relations()
                cache.warm_column_lookup()
                cache.databases()
                cache.functions()
            except Exception:  # the session may close meanwhile; completion loads on demand then
                log.debug("completion: preloading a session's functions failed (it loads on demand)", exc_info=True)
                pass

        thread = threading.Thread(target=load, name=f"completion-warm-{session.handle}", daemon=True)
        thread.start()
        return thread

    def dictionary(self, session, columns_of=None, wait_s: float = 10.0) -> dict:
        """The editor's dictionary, once a pending refresh of the session's cache is done (bounded): the
        editor keeps it until the next change, so it must not be built from a list about to be replaced."""
        cache = self.cache(session)
        with self._lock:
            self._changed.wait_for(lambda: id(cache) not in self._stale and self._refreshing is not cache,
                                   timeout=wait_s)
        found = dictionary(cache, columns_of)
        cache.warm_column_lookup()   # the editor's first dot comes next
        return found

    def prefetch(self, session, names: list[str]) -> list[str]:
        """Start loading the columns of the tables ``names`` in the background (the editor's ``prefetch``: a
        table named after FROM or JOIN, before the dot that asks for its columns); the names not known yet."""
        cache = self.cache(session)
        cache.prefetch_columns(names)
        return cache.columns_not_known(names)

    def complete(self, session, statement: str, position: int) -> list[Candidate]:
        if not isinstance(statement, str):
            raise InvalidRequestError(f"the statement must be text, got {type(statement).__name__}")
        return candidates(self.cache(session), statement, position)
