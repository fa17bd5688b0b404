"""Serialization per the FLIP-91 appendix: type JSON, row values, and errors.

Rows stay Arrow until the last step: columns are converted column by column inside
Arrow (dates and timestamps cast to ISO strings there; nested columns through their child
columns), which is ~10x faster than ``Table.to_pylist()`` (see ARCHITECTURE.md) and never makes
a Python ``datetime``, so every date and timestamp Spark returns (years 1 to 9999 in any zone)
has its text. Timestamps have one text form everywhere, top
level or nested: ``2020-01-01T10:00:00.000000`` (TIMESTAMP) and ``2020-01-01T10:00:00.000000Z``
(TIMESTAMP_LTZ, in UTC).
"""
from __future__ import annotations

import base64
import decimal
import gc
import threading
from contextlib import contextmanager
from typing import Iterator, Optional

import pyarrow as pa
import pyarrow.compute as pc
from pyspark.sql import types as T

from gateway.models import type_name  # noqa: F401  (a value helper of the contract, kept importable here)
from gateway.spark.errors import describe_failure
from workbench_client.decode import date_text  # one civil-from-days for the server and the client

# ---------------------------------------------------------------------------------------------
# Types
# ---------------------------------------------------------------------------------------------

_SIMPLE = {
    T.BooleanType: "BOOLEAN", T.ByteType: "TINYINT", T.ShortType: "SMALLINT", T.IntegerType: "INTEGER",
    T.LongType: "BIGINT", T.FloatType: "FLOAT", T.DoubleType: "DOUBLE", T.DateType: "DATE",
    T.NullType: "NULL",
}


def type_json(data_type: T.DataType, nullable: bool = True) -> dict:
    """The seed's type JSON for a Spark type (recursive for ARRAY, MAP and ROW).

    ``"serialized_as": "STRING"`` marks a type whose values every client gets as Spark's own
    string form (``CAST(x AS STRING)``: year-month and calendar intervals, VARIANT as JSON text),
    since Arrow cannot carry them into Python (``gateway.spark.arrow_stream.carry_as_strings``).
    """
    for cls, name in _SIMPLE.items():
        if isinstance(data_type, cls):
            return {"type": name, "nullable": nullable}
    if isinstance(data_type, T.CharType):
        return {"type": "CHAR", "nullable": nullable, "length": data_type.length}
    if isinstance(data_type, T.VarcharType):
        return {"type": "VARCHAR", "nullable": nullable, "length": data_type.length}
    if isinstance(data_type, T.StringType):
        return {"type": "VARCHAR", "nullable": nullable, "length": 2147483647}
    if isinstance(data_type, T.BinaryType):
        return {"type": "VARBINARY", "nullable": nullable, "length": 2147483647}
    if isinstance(data_type, T.DecimalType):
        return {"type": "DECIMAL", "nullable": nullable, "precision": data_type.precision,
                "scale": data_type.scale}
    if isinstance(data_type, T.TimestampNTZType):
        return {"type": "TIMESTAMP", "nullable": nullable, "precision": 6}
    if isinstance(data_type, T.TimestampType):
        return {"type": "TIMESTAMP_LTZ", "nullable": nullable, "precision": 6}
    if isinstance(data_type, T.ArrayType):
        return {"type": "ARRAY", "nullable": nullable,
                "elementType": type_json(data_type.elementType, data_type.containsNull)}
    if isinstance(data_type, T.MapType):
        return {"type": "MAP", "nullable": nullable, "keyType": type_json(data_type.keyType, False),
                "valueType": type_json(data_type.valueType, data_type.valueContainsNull)}
    if isinstance(data_type, T.StructType):
        return {"type": "ROW", "nullable": nullable,
                "fields": [{"name": f.name, "fieldType": type_json(f.dataType, f.nullable)}
                           for f in data_type.fields]}
    if isinstance(data_type, T.DayTimeIntervalType):  # values: seconds (JSON), a duration (Arrow)
        return {"type": "INTERVAL", "nullable": nullable, "spark_type": data_type.simpleString()}
    if isinstance(data_type, (T.YearMonthIntervalType, T.CalendarIntervalType)):
        return {"type": "INTERVAL", "nullable": nullable, "spark_type": data_type.simpleString(),
                "serialized_as": "STRING"}
    if isinstance(data_type, T.VariantType):
        return {"type": "VARIANT", "nullable": nullable, "serialized_as": "STRING"}
    return {"type": "RAW", "nullable": nullable, "class": type(data_type).__name__,
            "spark_type": data_type.simpleString()}


# ---------------------------------------------------------------------------------------------
# Rows
# ---------------------------------------------------------------------------------------------

def _nested_values(array: pa.Array) -> list:
    """A list, map or struct column to JSON-ready values, built from its child columns, each
    converted by ``_column_values`` like a top-level column: the same text for a timestamp at
    any depth, and no Python ``datetime`` (which cannot hold a UTC instant of year 0, e.g.
    year 1 in a zone east of UTC). Offsets index the unsliced child (``values``)."""
    kind = array.type
    valid = array.is_valid().to_pylist()
    if pa.types.is_struct(kind):
        names = [kind.field(i).name for i in range(kind.num_fields)]
        children = [_column_values(child) for child in array.flatten()]  # sliced as the array is
        return [dict(zip(names, values)) if ok else None for ok, values in zip(valid, zip(*children))] \
            if children else [{} if ok else None for ok in valid]
    offsets = array.offsets.to_pylist()
    if pa.types.is_map(kind):
        entries = array.values
        keys = _column_values(entries.field(0))
        items = _column_values(entries.field(1))
        return [{str(k): v for k, v in zip(keys[a:b], items[a:b])} if ok else None
                for ok, a, b in zip(valid, offsets, offsets[1:])]
    if pa.types.is_null(kind.value_type):  # Spark writes fewer null children than its offsets span
        return [[None] * (b - a) if ok else None for ok, a, b in zip(valid, offsets, offsets[1:])]
    values = _column_values(array.values)
    return [values[a:b] if ok else None for ok, a, b in zip(valid, offsets, offsets[1:])]


def _timestamp_text(array: pa.Array) -> pa.Array:
    """ISO text of a timestamp column, formatted inside Arrow: ``2020-01-01T10:00:00.000000[Z]``.

    A zoned timestamp stores UTC instants, so it is cast to a plain timestamp (the same numbers,
    read as UTC wall time) before formatting: Arrow formats a zoned one ~10x slower, looking up
    the zone for every value.
    """
    zoned = bool(array.type.tz)
    plain = array.cast(pa.timestamp("us"))
    text = plain.cast(pa.string())  # "2020-01-01 10:00:00.000000"
    micros = plain.cast(pa.int64())
    wide = pc.or_(pc.less(micros, _YEAR_0_US), pc.greater(micros, _YEAR_9999_END_US))
    if pc.any(wide).as_py():  # Arrow writes "10000-01-01 …" or "<value out of range: …>" there
        texts = [_spark_timestamp(m) if w else t for t, m, w in
                 zip(text.to_pylist(), micros.to_pylist(), wide.to_pylist())]
        text = pa.array(texts, pa.string())
    text = pc.replace_substring(text, " ", "T", max_replacements=1)
    return pc.binary_join_element_wise(text, "Z", "") if zoned else text


_YEAR_0_US = -62_167_219_200_000_000  # 0000-01-01T00:00:00 in micros since the epoch
_YEAR_9999_END_US = 253_402_300_799_999_999  # 9999-12-31T23:59:59.999999


def _spark_timestamp(micros: Optional[int]) -> Optional[str]:
    """``[+-]yyyy-MM-dd HH:mm:ss.ffffff`` of micros since the epoch, any year: the sign as Spark's cast
    writes it (``+10000-01-01 00:00:00``, ``-0044-03-15 …``) and as ISO 8601 writes expanded years."""
    if micros is None:
        return None
    days, rest = divmod(micros, 86_400_000_000)
    seconds, fraction = divmod(rest, 1_000_000)
    return f"{date_text(days)} {seconds // 3600:02d}:{seconds // 60 % 60:02d}:{seconds % 60:02d}.{fraction:06d}"


def _all_finite(array: pa.Array) -> bool:
    return pc.all(pc.is_finite(array)).as_py() is not False  # None: every value is null


def _date_texts(array: pa.Array) -> list:
    """Dates as Spark casts them: past year 9999 Arrow writes ``10000-01-01`` or ``<value out of range:
    …>``, where Spark writes ``+10000-01-01`` and ``+5874897-12-31`` (and ``-…`` before year -9999)."""
    texts = array.cast(pa.string()).to_pylist()
    wide = [t is not None and (t.startswith("<") or len(t) > 10 and t[0].isdigit()) for t in texts]
    if not any(wide):
        return texts
    days = array.cast(pa.int32()).to_pylist()
    return [date_text(d) if w else t for t, d, w in zip(texts, days, wide)]


def _plain_decimals(texts: list) -> list:
    """Decimal text as Spark casts it (``toPlainString``): Arrow writes a zero or a small value at a
    large scale in exponent form (``0E-17``, ``1.0E-7``), which Spark never shows."""
    return [t if t is None or "E" not in t else format(decimal.Decimal(t), "f") for t in texts]


def _column_values(array: pa.Array) -> list:
    """One Arrow column to a list of JSON-ready values, vectorized where Arrow can."""
    if isinstance(array, pa.ChunkedArray):
        array = array.combine_chunks()
    kind = array.type
    if pa.types.is_timestamp(kind):
        return _timestamp_text(array).to_pylist()
    if pa.types.is_date(kind):
        return _date_texts(array)
    if pa.types.is_decimal(kind):
        if kind.precision <= 15:
            return array.cast(pa.float64()).to_pylist()
        return _plain_decimals(array.cast(pa.string()).to_pylist())
    if pa.types.is_null(kind):
        return [None] * len(array)
    if pa.types.is_binary(kind) or pa.types.is_large_binary(kind):
        return [None if v is None else base64.b64encode(v).decode("ascii") for v in array.to_pylist()]
    if pa.types.is_list(kind) or pa.types.is_large_list(kind) or pa.types.is_map(kind) or pa.types.is_struct(kind):
        return _nested_values(array)
    if pa.types.is_duration(kind):  # a day-time interval: seconds
        return [None if v is None else v.total_seconds() for v in array.to_pylist()]
    if pa.types.is_time(kind):
        return [None if v is None else v.isoformat() for v in array.to_pylist()]
    if pa.types.is_floating(kind) and not _all_finite(array):
        # NaN and infinities are not JSON numbers.
        return [v if v is None or v == v and v not in (float("inf"), float("-inf")) else str(v)
                for v in array.to_pylist()]
    return array.to_pylist()


_gc_pauses = 0
_gc_lock = threading.Lock()


@contextmanager
def _gc_paused() -> Iterator[None]:
    """Hold off Python's cycle collector while building rows.

    Every row is a new list, and each few hundred new lists start a collection that walks
    them: that made up ~80% of turning a page into rows (measured). Rows of plain values
    hold no cycles, so the collector finds nothing in them; it runs again afterwards. The
    count lets threads that build pages at once share the pause.
    """
    global _gc_pauses
    with _gc_lock:
        ours = _gc_pauses > 0 or gc.isenabled()  # if someone else turned it off, leave it off
        if ours:
            _gc_pauses += 1
            gc.disable()
    try:
        yield
    finally:
        if ours:
            with _gc_lock:
                _gc_pauses -= 1
                if _gc_pauses == 0:
                    gc.enable()


def arrow_rows(batch: pa.RecordBatch | pa.Table) -> list[list]:
    """Rows of a batch as lists of JSON-ready values."""
    if batch.num_rows == 0:
        return []
    columns = [_column_values(batch.column(i)) for i in range(batch.num_columns)]
    if not columns:
        return [[] for _ in range(batch.num_rows)]
    with _gc_paused():
        return list(map(list, zip(*columns)))


# ---------------------------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------------------------

def error_json(exc: BaseException, statement: Optional[str] = None, line_offset: int = 0,
               statement_index: Optional[int] = None) -> dict:
    """A GatewayError's own JSON; anything else as ``gateway.spark.errors.describe_failure`` reads it
    (Spark's error class, SQLSTATE, position and root cause)."""
    from gateway.errors import GatewayError

    if isinstance(exc, GatewayError):
        return exc.to_json()
    return describe_failure(exc, statement, line_offset, statement_index)
