"""Get a DataFrame's result into Python as Arrow: small results at once, others streamed.

One conversion on every path: the driver JVM writes Spark's rows as Arrow (``ArrowConverters``),
and Python reads that Arrow; PySpark's row conversion (``collect()``) is never used, since it
fails on values Spark returns (year-month and calendar intervals, timestamps in year 1, some
null-typed arrays). Where Arrow cannot carry a type into Python (``CalendarIntervalType``,
``YearMonthIntervalType``: PySpark reads neither from Arrow; ``VARIANT``: Arrow has only its
two binary buffers), ``carry_as_strings`` casts it to Spark's own string form in the plan, so
its values are exactly what ``CAST(x AS STRING)`` gives (the type JSON says so, see
``gateway.core.serialization.type_json``).

Small results (``small_result``): rows already in the driver (a command's output, a VALUES
list, a projection of constants Spark computes in the driver: ``constant_projection``) are
turned into Arrow there, without a Spark job; a plan that Spark proves small (a global LIMIT,
one aggregate row, a short range) is collected as Arrow in one job (``collectAsArrowToPython``,
as ``toArrow()`` does).

Everything else streams (``ArrowBatchStream``), through the JVM (``Capability.PARTITION_STREAM``):
``Dataset.toArrowBatchRdd`` served by ``PythonRDD.toLocalIteratorAndServe`` runs one Spark
job per partition, the next one computed while the client reads the current one (unless its
caller says the partitions are too big for that), so the driver holds at most two partitions and
the producer waits for the client. A backend without it
(e.g. Spark Connect) takes the public ``toArrow()`` for small results and ``toLocalIterator()``
for streams, rows packed into Arrow batches.
"""
from __future__ import annotations

import re
from typing import Iterator, NamedTuple, Optional

import pyarrow as pa

from pyspark.sql import types as T

from gateway.spark.backend import Capability, is_connect, jdataframe, jvm, supports
from gateway.spark.connect import arrow_batches
from gateway.spark.errors import ENGINE_ERRORS
from gateway.spark.plans import estimated_result_bytes, in_driver, proven_max_rows
from gateway.spark.sql_metrics import StreamExecution

FALLBACK_BATCH_ROWS = 10_000
_WHAT = "streaming a result partition by partition"
# Results Spark proves to have at most this many rows are collected in one go (one job for
# every partition, as direct collect() does) instead of streamed partition by partition.
SMALL_RESULT_ROWS = 1000


def arrow_schema(schema, timezone: str) -> pa.Schema:
    """The Arrow schema of a Spark ``StructType`` (zoned timestamps in ``timezone``), as PySpark
    builds it; for the fallback of a backend without the JVM (see ``jvm_arrow_schema``)."""
    from pyspark.sql.pandas.types import to_arrow_schema

    return to_arrow_schema(_null_types_nullable(schema), timezone=timezone)


def _null_types_nullable(data_type):
    """``data_type`` with every null-typed field, element and value nullable: Arrow refuses a
    non-nullable null type in Python (``array_compact(array(null))`` is ``array<void>`` with
    ``containsNull=false``), and a null-typed value is always null anyway."""
    if isinstance(data_type, T.StructType):
        return T.StructType([T.StructField(f.name, _null_types_nullable(f.dataType),
                                           f.nullable or isinstance(f.dataType, T.NullType), f.metadata)
                             for f in data_type.fields])
    if isinstance(data_type, T.ArrayType):
        return T.ArrayType(_null_types_nullable(data_type.elementType),
                           data_type.containsNull or isinstance(data_type.elementType, T.NullType))
    if isinstance(data_type, T.MapType):
        return T.MapType(_null_types_nullable(data_type.keyType), _null_types_nullable(data_type.valueType),
                         data_type.valueContainsNull or isinstance(data_type.valueType, T.NullType))
    return data_type


def session_zone(df) -> str:
    """The session time zone Spark labels zoned timestamps with in its Arrow batches."""
    return df.sparkSession.conf.get("spark.sql.session.timeZone")


def jvm_arrow_schema(df, timezone: Optional[str] = None) -> pa.Schema:
    """The Arrow schema the driver JVM writes ``df``'s rows with (``ArrowConverters``: the same
    ``ArrowUtils.toArrowSchema`` as its batches), read from an empty Arrow stream it makes."""
    raw = _converters(df.sparkSession).createEmptyArrowBatch(
        jdataframe(df, Capability.PARTITION_STREAM, _WHAT).schema(), timezone or session_zone(df), False, False)
    with pa.ipc.open_stream(pa.py_buffer(raw)) as reader:
        return reader.schema


def _converters(spark):
    """Spark's ``ArrowConverters`` object (a Scala object: its ``MODULE$``)."""
    package = jvm(spark, Capability.PARTITION_STREAM, _WHAT).org.apache.spark.sql.execution.arrow
    return getattr(getattr(package, "ArrowConverters$"), "MODULE$")


# ---------------------------------------------------------------------------------------------
# Types Arrow cannot carry into Python: Spark's string form
# ---------------------------------------------------------------------------------------------

_CARRIED_AS_STRING = (T.CalendarIntervalType, T.YearMonthIntervalType, T.VariantType)


def carried_as_string(data_type) -> bool:
    """Values of this Spark type reach every client as Spark's string form (``CAST(x AS STRING)``)."""
    return isinstance(data_type, _CARRIED_AS_STRING)


def _holds_carried(data_type) -> bool:
    if carried_as_string(data_type):
        return True
    if isinstance(data_type, T.ArrayType):
        return _holds_carried(data_type.elementType)
    if isinstance(data_type, T.MapType):
        return _holds_carried(data_type.keyType) or _holds_carried(data_type.valueType)
    if isinstance(data_type, T.StructType):
        return any(_holds_carried(f.dataType) for f in data_type.fields)
    return False


def _as_strings(column, data_type, nested: bool = False, F=None):
    """``column`` with every value of a type Arrow cannot carry turned into its string, at any
    depth: ``CAST`` at the leaves, ``transform`` through arrays and maps, a rebuilt struct
    (Spark refuses to cast ``ARRAY<VARIANT>`` to ``ARRAY<STRING>`` in one step). A VARIANT inside
    another value is its JSON text (``to_json``), as Spark writes it in the string of the whole
    (``[1, "s"]``); at the top level its ``CAST`` (a string variant without quotes)."""
    if F is None:
        from pyspark.sql import functions as F

    if not _holds_carried(data_type):
        return column
    if carried_as_string(data_type):
        return F.to_json(column) if nested and isinstance(data_type, T.VariantType) else column.cast("string")
    if isinstance(data_type, T.ArrayType):
        return F.transform(column, lambda element: _as_strings(element, data_type.elementType, True, F))
    if isinstance(data_type, T.MapType):
        if _holds_carried(data_type.keyType):
            column = F.transform_keys(column, lambda key, _: _as_strings(key, data_type.keyType, True, F))
        if _holds_carried(data_type.valueType):
            column = F.transform_values(column, lambda _, value: _as_strings(value, data_type.valueType, True, F))
        return column
    fields = [_as_strings(column.getField(f.name), f.dataType, True, F).alias(f.name) for f in data_type.fields]
    return F.when(column.isNull(), F.lit(None)).otherwise(F.struct(*fields))


def carry_as_strings(df, schema):
    """``df`` with each column whose type holds a calendar or year-month interval or a VARIANT
    turned, in the plan, into the same shape with those values as Spark's own strings; ``df``
    itself when there is none (the common case costs nothing). Columns keep their names, duplicates too."""
    if not any(_holds_carried(f.dataType) for f in schema.fields):
        return df
    if is_connect(df.sparkSession):  # pyspark's functions build classic columns unless Connect is the process's mode
        from pyspark.sql.connect import functions as F
    else:
        from pyspark.sql import functions as F

    names = [f.name for f in schema.fields]
    positional = [f"_c{i}" for i in range(len(names))]
    columns = [_as_strings(F.col(p), f.dataType, F=F).alias(p) for p, f in zip(positional, schema.fields)]
    return df.toDF(*positional).select(*columns).toDF(*names)


# ---------------------------------------------------------------------------------------------
# Small results
# ---------------------------------------------------------------------------------------------

def is_small(df) -> bool:
    """True when collecting the result at once is bounded: its rows are already in the driver
    (``isLocal``: command output, VALUES) or Spark proves at most ``SMALL_RESULT_ROWS``."""
    if df.isLocal():
        return True
    if not supports(df.sparkSession, Capability.PLAN_INTERNALS):
        return False  # nothing is proven without Catalyst's plan: the result streams
    bound = proven_max_rows(df)
    return bound is not None and bound <= SMALL_RESULT_ROWS


def small_result(df, schema=None) -> pa.Table:
    """Collect a small result (see ``is_small``) as one Arrow table, written by the driver JVM
    (zoned timestamps labelled with the session's time zone, as the stream gives them).

    Rows Spark already holds in the driver (a ``LocalTableScan``, a command's ``CommandResult``)
    are converted there without a job (~4 ms for ``SELECT 1``, less than ``collect()``); any other
    plan is collected as Arrow in one job, as ``toArrow()`` does. ``schema`` is not needed (the
    JVM writes the Arrow schema with the rows); callers may still pass it.
    """
    if not supports(df.sparkSession, Capability.PARTITION_STREAM):
        return df.toArrow()  # the public API (Spark Connect): Arrow all the way
    plan = jdataframe(df, Capability.PARTITION_STREAM, _WHAT).queryExecution().executedPlan()
    if plan.nodeName() in _DRIVER_ROWS:
        return _driver_rows_arrow(df, plan, session_zone(df))
    batches = df._collect_as_arrow()
    if not batches:
        return jvm_arrow_schema(df).empty_table()
    return pa.Table.from_batches(batches)


# Physical plans whose rows are already in the driver: executeCollect returns them, no job.
_DRIVER_ROWS = frozenset({"LocalTableScan", "CommandResult"})
_DRIVER_BATCH_ROWS = 10_000
_DRIVER_BATCH_BYTES = 64 << 20


def _driver_rows_arrow(df, plan, timezone: str) -> pa.Table:
    """Rows held by the driver's plan as Arrow, converted in the JVM (``toBatchWithSchemaIterator``:
    one Arrow stream per batch, each with its schema)."""
    wrap_array, converters = _driver_pieces(df.sparkSession)
    rows = wrap_array(plan.executeCollect()).iterator()
    streams = converters.toBatchWithSchemaIterator(
        rows, plan.schema(), _DRIVER_BATCH_ROWS, _DRIVER_BATCH_BYTES, timezone, False, False)
    tables = []
    while streams.hasNext():
        with pa.ipc.open_stream(pa.py_buffer(streams.next())) as reader:
            tables.append(reader.read_all())
    if not tables:
        return jvm_arrow_schema(df, timezone).empty_table()
    return pa.concat_tables(tables) if len(tables) > 1 else tables[0]


_DRIVER_PIECES: list = [None, None]   # [the JVM view, (ArraySeq.unsafeWrapArray, ArrowConverters)]


def _driver_pieces(spark) -> tuple:
    """``ArraySeq.unsafeWrapArray`` and Spark's ``ArrowConverters``, looked up once per JVM: py4j finds a
    class one package name at a time, 13 of a ``SELECT 1``'s 52 calls into the JVM (tests/gateway/spark/
    test_small_result_calls.py counts them)."""
    view = jvm(spark, Capability.PARTITION_STREAM, _WHAT)
    if _DRIVER_PIECES[0] is not view:
        _DRIVER_PIECES[:] = [view, (view.scala.collection.immutable.ArraySeq.unsafeWrapArray, _converters(spark))]
    return _DRIVER_PIECES[1]


def constant_projection(df):
    """``df`` as a DataFrame Spark computes in the driver, without a job, when it is a projection
    of constants (``SELECT 1``: see ``plans.in_driver``); else None. Its rows are converted to
    Arrow in the driver by ``small_result``."""
    if not supports(df.sparkSession, Capability.PLAN_INTERNALS) or df.isLocal():
        return None
    return in_driver(df)


def rows_to_arrow(rows: list, schema) -> pa.Table:
    """Spark ``Row`` objects (from ``toLocalIterator()``, the fallback of a backend without the
    partition stream) as an Arrow table of ``schema``.

    PySpark's own converter: it turns a naive local ``datetime`` of a zoned timestamp back into
    its UTC instant, so both paths give the same values.
    """
    if not rows:
        return arrow_schema(schema, "UTC").empty_table()
    from pyspark.sql.conversion import LocalDataToArrowConversion

    return LocalDataToArrowConversion.convert(rows, schema, use_large_var_types=False)


# ---------------------------------------------------------------------------------------------
# Streamed results
# ---------------------------------------------------------------------------------------------

class ArrowBatchStream:
    """Iterator of ``(pyarrow.RecordBatch, is_last)`` over a DataFrame; ``close()`` stops early.

    Made in two steps: the constructor plans the partitions and reads Spark's estimate of their
    size (``partition_bytes``) without running anything; ``start`` begins serving them. Between
    the two, a caller may wait for driver memory (``gateway.core.stream_budget``) without holding
    its session. ``is_last`` marks the result's final batch as soon as it is read (one batch of
    look-ahead inside the last partition), so the client gets the end with the last rows.
    """

    def __init__(self, df, schema, timezone: str) -> None:
        self._sockfile = self._sock = self._server = None
        self._rows = None
        self._df = df
        self._spark_schema = schema
        self._jrdd = None
        self.partitions = 0
        self.partition_bytes: Optional[int] = None  # Spark's estimate of one partition (None: unknown)
        self.partition_bytes_measured = False  # partition_bytes corrected from a sample of real rows
        self.used_fallback = not supports(df.sparkSession, Capability.PARTITION_STREAM)
        self._batches = None  # Spark Connect's Arrow batches (Capability.ARROW_BATCHES)
        if self.used_fallback:
            self.schema = arrow_schema(schema, timezone)
            return
        self.schema = jvm_arrow_schema(df)  # the batches' own schema, as the JVM writes them
        # Spark's SQL tab and the query profile see the stream as an execution (sql_metrics.StreamExecution)
        self.execution = StreamExecution(df)
        try:
            self._plan(df, schema)
        except BaseException:
            self.execution.end()  # nothing will run under it
            raise

    def _plan(self, df, schema) -> None:
        self._jrdd = jdataframe(df, Capability.PARTITION_STREAM, _WHAT).toArrowBatchRdd()
        self.partitions = self._jrdd.getNumPartitions()
        if supports(df.sparkSession, Capability.PLAN_INTERNALS):
            total = estimated_result_bytes(df)
            measured = None if total is None else measured_result_bytes(df, schema, total)
            # only real rows (known rows times the sampled width) may refuse a result outright (stream_budget):
            # Spark's estimate alone is often its "unknown" (Long.MaxValue), for a two-row GROUP BY or a
            # DataFrame of a few Python rows (SHOW JARS) as for a huge scan
            self.partition_bytes_measured = measured is not None and measured.rows_known
            if measured is not None:
                total = max(total, measured.bytes)
            self.partition_bytes = None if total is None else total // max(1, self.partitions)

    def start(self, prefetch: bool = True) -> "ArrowBatchStream":
        """Begin serving partitions; with ``prefetch`` Spark computes the next while the client reads one."""
        if supports(self._df.sparkSession, Capability.ARROW_BATCHES):
            self._batches = arrow_batches(self._df)
            return self
        if self.used_fallback:
            self._rows = self._df.toLocalIterator()
            return self
        serve = jvm(self._df.sparkSession, Capability.PARTITION_STREAM, _WHAT).org.apache.spark.api.python.PythonRDD
        port, secret, self._server = serve.toLocalIteratorAndServe(self._jrdd, prefetch)
        from pyspark.util import local_connect_and_auth

        self.execution.detach()  # the serving thread has its copy of the execution id
        self._sockfile, self._sock = local_connect_and_auth(port, secret)
        self._sock.settimeout(None)
        return self

    def __iter__(self) -> Iterator[tuple[pa.RecordBatch, bool]]:
        if self._batches is not None:
            yield from _mark_last(batch if batch.schema.equals(self.schema) else batch.cast(self.schema)
                                  for batch in self._batches)
            return
        if self.used_fallback:
            yield from _mark_last(self._fallback_batches())
            return
        from pyspark.serializers import NoOpSerializer, read_int, write_int

        frames = NoOpSerializer()
        for index in range(self.partitions):
            if self._sockfile is None:
                return
            write_int(1, self._sockfile)  # ask for the next partition
            self._sockfile.flush()
            status = read_int(self._sockfile)
            if status == 1:
                batches = (pa.ipc.read_record_batch(pa.py_buffer(raw), self.schema)
                           for raw in frames.load_stream(self._sockfile))
                if index < self.partitions - 1:
                    yield from ((batch, False) for batch in batches)
                else:
                    yield from _mark_last(batches)
            elif status == 0:
                break
            else:  # the JVM failed: raise its exception
                server, self._server = self._server, None
                self._release()
                server.getResult()
                return
        self.close()

    def _fallback_batches(self) -> Iterator[pa.RecordBatch]:
        chunk: list = []
        for row in self._rows:
            chunk.append(row)
            if len(chunk) >= FALLBACK_BATCH_ROWS:
                yield from rows_to_arrow(chunk, self._spark_schema).to_batches()
                chunk = []
        if chunk:
            yield from rows_to_arrow(chunk, self._spark_schema).to_batches()

    def close(self) -> None:
        """Tell Spark to stop serving partitions and drop the connection."""
        if self._batches is not None:
            self._batches.close()  # ends the gRPC stream; the server's operation ends with it
        if self._sockfile is not None:
            try:
                from pyspark.serializers import write_int

                write_int(0, self._sockfile)
                self._sockfile.flush()
            except OSError:  # the JVM side already closed the connection
                pass
        self._release()

    def _release(self) -> None:
        execution = getattr(self, "execution", None)
        if execution is not None:
            execution.end()
        for resource in (self._sockfile, self._sock):
            try:
                if resource is not None:
                    resource.close()
            except OSError:  # flushing into a connection the JVM already closed
                pass
        self._sockfile = self._sock = None


# Plans whose first rows cost a whole shuffle stage: no sample of them (Spark's estimate stands).
_WIDE = frozenset({"Aggregate", "Join", "Sort", "Window", "Repartition", "RepartitionByExpression",
                   "RebalancePartitions", "Deduplicate", "Distinct", "Expand", "Offset"})
SAMPLE_ROWS = 256


# Catalyst's size of a plan it knows nothing about (spark.sql.defaultSizeInBytes, Long.MaxValue): a DataFrame of
# Python rows, a shuffle's output. Rows derived from it mean nothing.
UNKNOWN_SIZE = 1 << 62


class MeasuredSize(NamedTuple):
    """A result's bytes from a sample of its rows; ``rows_known``: the rows come from a row count Spark knows
    (a range, a LIMIT, an analysed table) or from a real size estimate, not from its "unknown"."""

    bytes: int
    rows_known: bool


def measured_result_bytes(df, schema, estimate: int) -> Optional[MeasuredSize]:
    """Spark's estimate of a result's bytes corrected by the Arrow width of a few of its rows, or None.

    Catalyst counts every string as 20 bytes: ``repeat('x', 1000)`` over 3,000,000 rows in two
    partitions was estimated at 42 MB a partition and was 1.5 GB, which a 2 GB driver could not hold
    (issue 27). For a result with strings, binaries or nested values whose plan needs no shuffle,
    ``SAMPLE_ROWS`` rows (a LIMIT: the first partition's first rows) give the real width; the rows
    Spark expects (its row count, else its size over its width of a row) times that width is the
    corrected size.
    """
    from pyspark.sql.types import ArrayType, BinaryType, MapType, StringType, StructType

    variable = (StringType, BinaryType, ArrayType, MapType, StructType)
    if not any(isinstance(field.dataType, variable) for field in schema.fields):
        return None
    try:
        plan = jdataframe(df, Capability.PLAN_INTERNALS, _WHAT).queryExecution().optimizedPlan()
        names = set(re.findall(r'"class":"[\w.$]*\.(\w+)\$?"', plan.toJSON()))
        if names & _WIDE:
            return None
        counted = plan.stats().rowCount()  # known for a range, a LIMIT, analysed tables
        rows = int(counted.get().toString()) if counted.isDefined() else \
            estimate / (8 + int(plan.schema().defaultSize()))  # Catalyst's width of a row (EstimationUtils)
        sample = _first_rows_arrow(df, SAMPLE_ROWS)
    except ENGINE_ERRORS:
        return None
    if sample.num_rows == 0:
        return None
    return MeasuredSize(int(rows * sample.nbytes / sample.num_rows), counted.isDefined() or estimate < UNKNOWN_SIZE)


def _first_rows_arrow(df, rows: int) -> pa.Table:
    """The first ``rows`` rows of ``df`` as the JVM's Arrow (``toArrow()`` refuses some types), taken by
    ``executeTake`` (a job over the first partition, more only when it holds fewer rows) and converted in
    the driver. ``small_result(df.limit(rows))`` collected the limit as Arrow through ``CollectLimitExec``'s
    ``execute``: a local limit in every partition, a shuffle into one, a second stage (3 tasks for the
    benchmarks' two-partition range, on the critical path of every big streamed result)."""
    limited = df.limit(rows)
    plan = jdataframe(limited, Capability.PARTITION_STREAM, _WHAT).queryExecution().executedPlan()
    return _driver_rows_arrow(limited, plan, session_zone(df))


def _mark_last(batches: Iterator[pa.RecordBatch]) -> Iterator[tuple[pa.RecordBatch, bool]]:
    """Pair each batch with whether it is the last one, reading one batch ahead."""
    held = None
    for batch in batches:
        if held is not None:
            yield held, False
        held = batch
    if held is not None:
        yield held, True
