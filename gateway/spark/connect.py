"""The Spark Connect engine (``engine.kind = connect``): the gateway's sessions are sessions of a Spark
Connect server elsewhere; nothing of Spark (no JVM, no Py4J gateway) runs in the workbench process.

One root client per process (``connect_root``) holds the connection settings; each gateway session is
``root.newSession()``: its own server-side session (SQL conf, temporary views and functions, artifacts)
on its own gRPC channel. pyspark's client retries an unreachable server for about ten minutes by
default; the gateway bounds that (``_RETRY``) so that a dead server ends a statement with ENGINE_DOWN in
seconds, while a short drop of a long result is still bridged by Connect's reattachable execution.
"""
from __future__ import annotations

import re
from typing import Iterator, Optional
from urllib.parse import urlparse

from gateway.config import WorkbenchConfig, connect_url

# 50 ms, 0.2 s, 0.8 s, 3.2 s, 4 s: about 8 s of retries before a call gives up on an unreachable server.
_RETRY = dict(max_retries=5, backoff_multiplier=4.0, initial_backoff=50, max_backoff=4000, jitter=100,
              min_jitter_threshold=2000)
# Each session's channel connects on its own (gRPC otherwise shares subchannels between channels to the same
# address: a new session after a server restart inherited the dead one's reconnect backoff, tens of seconds
# that outlast the retries above), and waits at most 2 s between connection attempts.
_CHANNEL_OPTIONS = [("grpc.use_local_subchannel_pool", 1), ("grpc.initial_reconnect_backoff_ms", 200),
                    ("grpc.min_reconnect_backoff_ms", 200), ("grpc.max_reconnect_backoff_ms", 2000)]
# gRPC's words for a server that is gone (killed, restarted, unreachable) and Connect's for a session the
# server no longer knows (it restarted: the session's state is lost).
_LOST_CODES = ("UNAVAILABLE",)
_LOST_CONDITIONS = ("RETRIES_EXCEEDED", "INVALID_HANDLE.SESSION_CHANGED", "INVALID_HANDLE.SESSION_NOT_FOUND", "INVALID_HANDLE.SESSION_CLOSED")


def endpoint(url: str) -> str:
    """``host:port`` of an sc:// URL, for messages: never its parameters (the token)."""
    parsed = urlparse("http" + url[2:])
    return f"{parsed.hostname}:{parsed.port or 15002}"


def _bounded(spark):
    from pyspark.sql.connect.client.retries import DefaultPolicy

    spark.client.set_retry_policies([DefaultPolicy(**_RETRY)])
    return spark


def connect_root(config: WorkbenchConfig):
    """The process's root Spark Connect client at ``engine.url`` (checked); no RPC is made yet."""
    return connect_root_at(connect_url(config))


def connect_root_at(url: str):
    """A root Spark Connect client at ``url`` (a managed engine's address, gateway/engines/); no RPC yet."""
    from pyspark.sql.connect.session import SparkSession as ConnectSession

    from pyspark.sql.connect.client import DefaultChannelBuilder

    channel = DefaultChannelBuilder(url, channelOptions=_CHANNEL_OPTIONS)
    return _bounded(ConnectSession.builder.channelBuilder(channel).create())


def new_connect_session(root):
    """A fresh server-side session (empty state) on the root's connection settings, retries bounded."""
    return _bounded(root.newSession())


def connection_lost(exc: BaseException) -> Optional[str]:
    """What in this failure says the Spark Connect server is gone or restarted (its session lost); None
    for any other failure (a SQL error, an interrupted operation)."""
    from pyspark.errors import PySparkException

    if not isinstance(exc, PySparkException):
        return None
    import grpc

    cause = exc
    for _ in range(5):  # the gRPC error itself, or the one pyspark wrapped
        if isinstance(cause, grpc.RpcError) and hasattr(cause, "code"):
            if cause.code().name in _LOST_CODES:
                return f"gRPC {cause.code().name}"
        cause = cause.__cause__ or cause.__context__
        if cause is None:
            break
    condition = exc.getCondition() if hasattr(exc, "getCondition") else None
    if condition in _LOST_CONDITIONS:
        return condition
    text = str(exc)[:2000]
    if "StatusCode.UNAVAILABLE" in text or "failed to connect to all addresses" in text.lower():
        return "gRPC UNAVAILABLE"
    return None


def arrow_batches(df) -> Iterator:
    """``df``'s result as the Arrow record batches the server sends, read as the caller consumes them:
    never turned into rows (``toLocalIterator`` would), never collected whole (``toArrow`` would). The
    client's reattachable execution carries the stream over a dropped connection."""
    import pyarrow as pa

    client = df.sparkSession.client
    stream = client.to_table_as_iterator(df._plan.to_proto(client), df._plan.observations)
    try:
        for item in stream:
            if isinstance(item, pa.Table):
                yield from item.to_batches()
    finally:
        stream.close()


# -- one round trip for a statement's result -------------------------------------------------------------
#
# ``spark.sql(text)`` on Connect sends the text in an ExecutePlan (a SqlCommand) only to learn whether it is a
# command (run there, its rows sent back) or a query (sent back unrun, as a relation); the gateway then asked
# the result's schema (AnalyzePlan), ``isLocal`` (AnalyzePlan), the session time zone (Config) and the rows
# (ExecutePlan): five calls for ``SELECT 1`` (measured). A plain query (the statement analysis says so) is
# sent once, as the relation of the ExecutePlan that fetches it: the server's first message is the
# result's schema, then its Arrow batches. A command's rows are already in ``spark.sql``'s answer.

# Batches smaller than this are combined before they reach the result buffer: the server sends 10,000-row
# batches (its spark.connect.grpc.arrow.maxBatchSize of 4 MB bounds them too), and each batch costs the
# buffer, the pages and the client a fixed overhead. The executor lowers both to the result buffer's bounds
# (``StatementResult.combine_within``): a combined batch larger than the buffer went in whole when it was
# empty (70,000 rows in a 50,000-row buffer) and came out as two uneven pages (50,000 then 20,000 rows,
# twice the requests for a big fetch; seen in benchmarks/fetch_phases.py).
COMBINE_ROWS = 65_536
COMBINE_BYTES = 8 << 20

# Rows per Arrow batch the server makes (a SQL conf of the session, 10,000 by default), set when a gateway session
# opens: as many as the result buffer holds, so that each page the client takes is one batch the server sent, not
# five combined (a copy) and each Connect response is one ReleaseExecute RPC of the reattachable stream fewer.
# Measured for 1M rows x 5 columns (benchmarks/engines.py's query, 46 MB): 20 gRPC responses instead of 100; CPU per
# fetch, medians of 19 alternated pairs under load: the gateway's 0.24 s against 0.27, the server JVM's 0.87 against
# 1.03 (wall time even under that load; docs/engines.md). The server still bounds a batch by bytes
# (spark.connect.grpc.arrow.maxBatchSize, 4 MB: wide rows come in smaller batches, combined as before), and a
# task holds its partition's batches whole either way: the server's memory is unchanged, the buffer's bounds too.
BATCH_ROWS_CONF = "spark.sql.execution.arrow.maxRecordsPerBatch"


def session_defaults(buffer_rows: int) -> dict[str, str]:
    """The SQL conf a gateway session on Connect starts with (properties given at its open override it)."""
    return {BATCH_ROWS_CONF: str(max(1, min(COMBINE_ROWS, buffer_rows)))}


def query_dataframe(spark, text: str, args: Optional[dict] = None):
    """The DataFrame of a query's text, nothing sent yet: the ExecutePlan that fetches its rows carries it.

    Only for statements that are queries (a command in it would run again at each call that analyses the
    plan): the caller checks the statement analysis. ``args`` are bound by Spark (named markers). A
    projection of constants is sent over a one-row VALUES (``in_driver_text``); ``StatementResult.run``
    sends the text as written when that fails, so errors stay the statement's own."""
    from pyspark.sql.connect import functions as F
    from pyspark.sql.connect.dataframe import DataFrame
    from pyspark.sql.connect.plan import SQL

    named = {name: F.lit(value) for name, value in (args or {}).items()}
    df = DataFrame(SQL(text, [], named, []), spark)
    rewritten = in_driver_text(text)
    if rewritten is None:
        return df
    fast = DataFrame(SQL(rewritten, [], named, []), spark)
    fast._workbench_as_written = df  # noqa: SLF001 - read by StatementResult.run
    return fast


# -- a projection of constants without a job ---------------------------------------------------------------
#
# ``SELECT 1`` is planned as a Project over OneRowRelation, which the Connect server runs as a one-task Spark
# job (100-150 ms under load, most of a SELECT 1; measured). Over a one-row VALUES list the optimizer folds it
# into a LocalRelation (ConvertToLocalRelation), which the server answers from the driver, as the embedded
# engine does with ``plans.in_driver``. The statement's text is kept unchanged and given a FROM of that one row on
# a line of its own (after a trailing line comment too): it names no column, so the same columns, names, types
# and values; its markers still bound by Spark. A LATERAL subquery over the row did the same at twice the
# server's time (its decorrelation in the optimizer: 40 against 18 ms at best, 261 against 141 ms median under
# load 30, interleaved on one managed engine).

_ONE_ROW_QUERY = "{}\nFROM VALUES (0) AS __workbench_one_row(__workbench_unused)"
_IN_DRIVER_MAX_CHARS = 2000
_FROM = re.compile(r"\bFROM\b", re.IGNORECASE)


def in_driver_text(text: str) -> Optional[str]:
    """``text`` over a one-row VALUES when it is a projection of constants (``SELECT 1``, ``SELECT
    current_date() AS d, :n + 1``): a SELECT without FROM, WHERE, GROUP BY, hints, DISTINCT, LIMIT and the
    like, naming no column (nothing to resolve against the VALUES), with no subquery, no star, no generator
    and no function sqlglot does not know (a session's own function may not fold); else None."""
    if len(text) > _IN_DRIVER_MAX_CHARS or not text.lstrip()[:6].upper() == "SELECT" or _FROM.search(text):
        return None  # most queries: no parse (a FROM in a string or comment only costs the rewrite)
    import sqlglot
    from sqlglot import exp

    try:
        tree = sqlglot.parse_one(text, read="spark")
    except (sqlglot.errors.SqlglotError, RecursionError):
        return None
    if type(tree) is not exp.Select or any(value for key, value in tree.args.items() if key != "expressions"):
        return None
    refused = (exp.Column, exp.Star, exp.Subquery, exp.Select, exp.Anonymous, exp.UDTF, exp.Explode, exp.Inline,
               exp.Stack, exp.Table)
    if any(isinstance(node, refused) for node in tree.walk() if node is not tree):
        return None
    return _ONE_ROW_QUERY.format(text)


def _is_query_relation(df) -> bool:
    """A query's SQL text not yet run: ours (``query_dataframe``), or the relation ``spark.sql`` answers for
    a text the server found to be a query (nothing ran: running it is its one execution)."""
    from pyspark.sql.connect.plan import SQL, CachedRelation

    if type(df._plan) is SQL:
        return True
    return type(df._plan) is CachedRelation and df._plan._plan.WhichOneof("rel_type") == "sql"


def command_rows(df):
    """The Arrow table a command's answer to ``spark.sql`` carries (its LocalRelation), or None when the
    DataFrame is not such an answer."""
    import pyarrow as pa
    from pyspark.sql.connect.plan import CachedRelation

    if type(df._plan) is not CachedRelation:
        return None
    relation = df._plan._plan
    if relation.WhichOneof("rel_type") != "local_relation" or relation.local_relation.HasField("schema"):
        return None  # a relation to run, or rows whose Spark schema is given apart: the general path
    data = relation.local_relation.data
    if not data:
        return pa.table({})
    with pa.ipc.open_stream(pa.py_buffer(data)) as reader:
        return reader.read_all()


class StatementResult:
    """A statement's result on Connect in at most one round trip: ``declared`` (Spark's schema), then
    ``(batch, is_last)`` pairs as the server sends them (tiny batches combined); ``close()`` ends the stream.

    ``StatementResult.of(df)`` is None for a DataFrame that is neither a query sent by ``query_dataframe``
    nor a command's answer: the caller takes the general path."""

    def __init__(self, declared, batches: Iterator, stream=None) -> None:
        self.declared = declared
        self._batches = batches
        self._stream = stream
        self.combine_rows = COMBINE_ROWS
        self.combine_bytes = COMBINE_BYTES

    def combine_within(self, max_rows: int, max_bytes: int) -> "StatementResult":
        """Combine batches up to these bounds at most (the result buffer's): each page the client takes is
        then one combined batch, and the buffer never holds more than its bounds (a single batch of the
        server larger than them still goes alone)."""
        self.combine_rows = max(1, min(COMBINE_ROWS, max_rows))
        self.combine_bytes = max(1, min(COMBINE_BYTES, max_bytes))
        return self

    @classmethod
    def of(cls, df) -> Optional["StatementResult"]:
        from pyspark.sql.pandas.types import from_arrow_schema
        from pyspark.sql.types import StructType

        if df is None or not type(df).__module__.startswith("pyspark.sql.connect."):
            return None
        if _is_query_relation(df):
            return cls.run(df)
        table = command_rows(df)
        if table is None:
            return None
        declared = from_arrow_schema(table.schema) if table.num_columns else StructType([])
        return cls(declared, iter(table.combine_chunks().to_batches() if table.num_rows else []))

    @classmethod
    def run(cls, df) -> "StatementResult":
        """Send ``df``'s plan (one ExecutePlan, reattachable) and read the schema the server sends first.

        A projection of constants sent over one row (``query_dataframe``) is read up to its first rows: if
        that fails for any reason but a lost server, the statement as written runs instead, so that its
        error (condition, message, position) is the one the text itself gives."""
        as_written = vars(df).get("_workbench_as_written")  # (getattr would answer a Column: df.name is one)
        if as_written is not None:
            try:
                return cls._run(df, until_rows=True)
            except Exception as exc:  # noqa: BLE001 - any failure: the text as written decides
                if connection_lost(exc):
                    raise
                df = as_written
        return cls._run(df)

    @classmethod
    def _run(cls, df, until_rows: bool = False) -> "StatementResult":
        import pyarrow as pa
        from pyspark.sql.types import StructType

        client = df.sparkSession.client
        stream = client.to_table_as_iterator(df._plan.to_proto(client), df._plan.observations)
        first: list = []
        declared = None
        try:
            for item in stream:
                if isinstance(item, StructType):
                    declared = item
                    if not until_rows:
                        break
                elif isinstance(item, pa.Table):
                    first.append(item)
                    if declared is not None:
                        break
        except BaseException:
            stream.close()
            raise
        if declared is None:  # no schema message (not seen on Spark 4.3): the general path's AnalyzePlan
            declared = df.schema

        def batches():
            for table in first:
                yield from table.to_batches()
            for item in stream:
                if isinstance(item, pa.Table):
                    yield from item.to_batches()

        return cls(declared, batches(), stream)

    def __iter__(self):
        pending = None
        for batch in _combined(self._batches, self.combine_rows, self.combine_bytes):
            if pending is not None:
                yield pending, False
            pending = batch
        if pending is not None:
            yield pending, True

    def close(self) -> None:
        if self._stream is not None:
            self._stream.close()  # ends the gRPC stream; the server's operation ends with it


def _combined(batches: Iterator, max_rows: int = COMBINE_ROWS, max_bytes: int = COMBINE_BYTES) -> Iterator:
    """Consecutive small batches as one, copied once: as many as fit in ``max_rows`` and ``max_bytes``. A batch
    that would pass ``max_rows`` fills the group up with its first rows (a slice, no copy) and its other rows
    start the next one, so that pages stay whole where a partition's last batch is short (the server's batches
    are as long as the buffer's bound: ``session_defaults``); one that would pass ``max_bytes`` starts the next
    group; one larger than the bounds goes alone."""
    import pyarrow as pa

    group: list = []
    rows = size = 0
    for batch in batches:
        if batch.num_rows == 0:
            continue
        if group and size + batch.nbytes > max_bytes:
            yield _one(group, pa)
            group, rows, size = [], 0, 0
        if group and rows + batch.num_rows > max_rows:
            head, batch = batch.slice(0, max_rows - rows), batch.slice(max_rows - rows)
            group.append(head)
            yield _one(group, pa)
            group, rows, size = [], 0, 0
        group.append(batch)
        rows += batch.num_rows
        size += batch.nbytes
        if rows >= max_rows or size >= max_bytes:
            yield _one(group, pa)
            group, rows, size = [], 0, 0
    if group:
        yield _one(group, pa)


def _one(group: list, pa):
    if len(group) == 1:
        return group[0]
    return pa.Table.from_batches(group).combine_chunks().to_batches()[0]
