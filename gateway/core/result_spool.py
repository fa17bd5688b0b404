"""The result spool: every row of an operation in Parquet files, so that sort, filter, search, chart and export
act on the whole result with pyarrow (``pyarrow.compute``, ``pyarrow.dataset``), never on the shown page.

A thread reads the operation's pages through ``fetch_results`` (as the operation's owner) and appends their
Arrow tables, typed as Spark returned them, to numbered Parquet files in the data directory
(``result-spool/<session>/<operation>/``). The first page is written at once so that a first sorted page
answers quickly; after that pages are gathered into files of about ``_FILE_ROWS`` rows. Each file is complete
when it appears, so a call while the spool fills reads the files so far and says so (``complete`` is False).

Bounds: ``result.spool_max_rows`` and ``result.spool_max_bytes``; beyond either the spool stops reading, stops
the operation's Spark jobs, and says which bound it reached. Closing the operation or its session removes the
spool and its files. ``ResultSpoolCalls`` is a mixin of ``GatewayService`` (the calls of ``ResultsApi``).
"""
from __future__ import annotations

import csv
import io
import json
import logging
import os
import shutil
import threading
import time
from typing import Any, Iterator, Optional

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.dataset as ds
import pyarrow.parquet as pq

from gateway.api.results import (CHART_AGGREGATES, DATE_BUCKETS, EXPORT_FORMATS, FILTER_OPS, ChartData, ChartSpec,
                                 ResultPage, RowFilter, SortKey, SpoolInfo)
from gateway.core.serialization import arrow_rows
from gateway.errors import GatewayError, InvalidRequestError, OperationStateError
from gateway.handles import OperationHandle, SessionHandle
from gateway.identity import acting_as, current_principal
from gateway.models import Column, ResultType

log = logging.getLogger(__name__)

_FILE_ROWS = 200_000          # rows gathered before a Parquet file is written (after the first page's file)
_EXPORT_BATCH_ROWS = 50_000
_MAX_PAGE_ROWS = 100_000
_COLOR_LIMIT = 20             # a colour for a column of at most this many values (more says nothing)
_SPOOL_READ_TIMEOUT_S = 6 * 3600.0
_SPOOL_PAGE_ROWS = 50_000     # rows per fetched page (result.page_rows' 1,000 would make a million rows 1,000 calls)
_REGISTRY_LOCK = threading.Lock()


# ---------------------------------------------------------------------------------------------
# Arrow helpers (Parquet's rules for Spark's Arrow)
# ---------------------------------------------------------------------------------------------

def unique_names(columns) -> list[str]:
    """Column names made unique (Spark allows duplicates, a file's readers do not): ``x``, ``x_2``."""
    names, seen = [], {}
    for column in columns:
        count = seen.get(column.name, 0)
        seen[column.name] = count + 1
        names.append(column.name if count == 0 else f"{column.name}_{count + 1}")
    return names


def _nullable_nulls(kind: pa.DataType) -> pa.DataType:
    """``kind`` with every null-typed child nullable: Spark's Arrow marks the elements of
    ``array_compact(array(null))`` as a non-nullable null type, which Parquet refuses."""
    def field(f: pa.Field) -> pa.Field:
        return pa.field(f.name, _nullable_nulls(f.type), f.nullable or pa.types.is_null(f.type), f.metadata)

    if pa.types.is_map(kind):
        return pa.map_(field(kind.key_field), field(kind.item_field))
    if pa.types.is_list(kind):
        return pa.list_(field(kind.value_field))
    if pa.types.is_large_list(kind):
        return pa.large_list(field(kind.value_field))
    if pa.types.is_struct(kind):
        return pa.struct([field(kind.field(i)) for i in range(kind.num_fields)])
    return kind


def parquet_ready(table: pa.Table) -> pa.Table:
    """``table`` as Parquet can store it (see ``_nullable_nulls``); the same table when it already can.
    A column whose type changes is built again from its values (Arrow's cast of a list of null
    type to a nullable one leaves its children short)."""
    schema = pa.schema([pa.field(f.name, _nullable_nulls(f.type), f.nullable or pa.types.is_null(f.type), f.metadata)
                        for f in table.schema], metadata=table.schema.metadata)
    if schema.equals(table.schema):
        return table
    columns = [column if column.type.equals(target.type) else
               pa.chunked_array([pa.array(column.to_pylist(), type=target.type)], type=target.type)
               for column, target in zip(table.columns, schema)]
    return pa.Table.from_arrays(columns, schema=schema)


def _page_table(page, names: list[str]) -> pa.Table:
    """A page as Arrow: Spark's own table, or one built from the JSON rows of a statement the gateway answers."""
    if page.arrow is not None:
        return parquet_ready(page.arrow.rename_columns(names))
    return pa.table({name: pa.array([row[i] for row in page.rows]) for i, name in enumerate(names)})


def _kind(data_type: pa.DataType) -> str:
    if pa.types.is_temporal(data_type) and not pa.types.is_duration(data_type) and not pa.types.is_time(data_type):
        return "temporal"
    if pa.types.is_integer(data_type) or pa.types.is_floating(data_type) or pa.types.is_decimal(data_type):
        return "quantitative"
    return "nominal"


def _searchable(data_type: pa.DataType) -> bool:
    return not (pa.types.is_nested(data_type) or pa.types.is_binary(data_type) or pa.types.is_large_binary(data_type)
                or pa.types.is_null(data_type))


class _Chunks(io.RawIOBase):
    """A write-only file whose bytes are taken out as they come (an export streams, never builds the file)."""

    def __init__(self) -> None:
        super().__init__()
        self._parts: list[bytes] = []

    def writable(self) -> bool:
        return True

    def write(self, data) -> int:
        self._parts.append(bytes(data))
        return len(data)

    def take(self) -> bytes:
        data, self._parts = b"".join(self._parts), []
        return data


class _TableCache:
    """The last whole spools read into memory, process-wide, bounded by their Arrow bytes (oldest out first)."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self._tables: "dict[int, tuple[Any, pa.Table]]" = {}
        self._lock = threading.Lock()

    def get(self, spool) -> Optional[pa.Table]:
        with self._lock:
            entry = self._tables.pop(id(spool), None)
            if entry is None or entry[0] is not spool:
                return None
            self._tables[id(spool)] = entry  # most recent last
            return entry[1]

    def put(self, spool, table: pa.Table) -> None:
        if table.nbytes > self.max_bytes:
            return
        with self._lock:
            self._tables[id(spool)] = (spool, table)
            while sum(t.nbytes for _, t in self._tables.values()) > self.max_bytes:
                self._tables.pop(next(iter(self._tables)))

    def drop(self, spool) -> None:
        with self._lock:
            self._tables.pop(id(spool), None)


_TABLES = _TableCache(256 * 1024 * 1024)


# ---------------------------------------------------------------------------------------------
# One operation's spool
# ---------------------------------------------------------------------------------------------

class ResultSpool:
    """The Parquet files of one operation's result, filled by a thread; its state read under a lock."""

    def __init__(self, operation: OperationHandle, directory: str, max_rows: int, max_bytes: int) -> None:
        self.operation = operation
        self.directory = directory
        self.max_rows, self.max_bytes = max_rows, max_bytes
        self.columns: list[Column] = []
        self.names: list[str] = []
        self.schema: Optional[pa.Schema] = None
        self.files: list[str] = []
        self.file_rows: list[int] = []
        self.rows = 0
        self.bytes = 0
        self.error: Optional[dict] = None
        self.capped = False
        self.note: Optional[str] = None
        self.started = time.monotonic()
        self.ended: Optional[float] = None
        self.first_rows = threading.Event()
        self.done = threading.Event()
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._pending: list[pa.Table] = []
        self._pending_rows = 0
        os.makedirs(directory, exist_ok=True)

    # -- filling ---------------------------------------------------------------------------------

    def fill(self, pages: Iterator, on_cap) -> None:
        """Read ``pages`` to the end (or a bound); every row to Parquet. Runs in the spool's thread."""
        try:
            for page in pages:
                if page.columns and not self.columns:
                    with self._lock:
                        self.columns = list(page.columns)
                        self.names = unique_names(self.columns)
                if page.result_type is ResultType.ERROR:
                    self.error = page.exception or {"root_cause": "the statement failed"}
                    break
                if self.columns and (page.arrow is not None or page.rows):  # Arrow first: rows stay unconverted
                    self._add(_page_table(page, self.names), force=not self.files)
                self.first_rows.set()
                if self._stop.is_set():
                    break
                if self.rows + self._pending_rows >= self.max_rows or self.bytes >= self.max_bytes:
                    if page.next_token is not None:
                        bound = (f"result.spool_max_rows ({self.max_rows:,} rows)" if self.rows + self._pending_rows
                                 >= self.max_rows else f"result.spool_max_bytes ({self.max_bytes:,} bytes)")
                        self.capped = True
                        self.note = (f"the result is larger than {bound}: the spool holds its first "
                                     f"{self.rows + self._pending_rows:,} rows and its Spark jobs were stopped; sort, "
                                     f"filter, chart and export cover those rows. Raise {bound.split()[0]} or add a "
                                     f"LIMIT or a WHERE clause")
                        on_cap()
                    break
            self._flush()
        except GatewayError as exc:
            self.error = exc.to_json()
        except Exception as exc:  # noqa: BLE001 - reported to the caller, never lost in a thread
            log.exception("result spool of operation %s failed", self.operation)
            self.error = {"root_cause": f"spooling the result failed: {type(exc).__name__}: {exc}",
                          "error_class": type(exc).__name__}
        finally:
            self.ended = time.monotonic()
            self.first_rows.set()
            self.done.set()

    def _add(self, table: pa.Table, force: bool) -> None:
        if self.schema is not None and not table.schema.equals(self.schema):
            table = table.cast(self.schema)
        elif self.schema is None:
            self.schema = table.schema
        room = self.max_rows - self.rows - self._pending_rows
        if table.num_rows > room:
            table = table.slice(0, max(0, room))
        self._pending.append(table)
        self._pending_rows += table.num_rows
        if force or self._pending_rows >= _FILE_ROWS:
            self._flush()

    def _flush(self) -> None:
        if not self._pending:
            return
        table = pa.concat_tables(self._pending)
        path = os.path.join(self.directory, f"part-{len(self.files):05d}.parquet")
        pq.write_table(table, path)
        size = os.path.getsize(path)
        with self._lock:
            self.files.append(path)
            self.file_rows.append(table.num_rows)
            self.rows += table.num_rows
            self.bytes += size
        self._pending, self._pending_rows = [], 0

    def stop(self) -> None:
        self._stop.set()

    def remove(self) -> None:
        self.stop()
        _TABLES.drop(self)
        self.done.wait(5)
        shutil.rmtree(self.directory, ignore_errors=True)

    # -- reading ---------------------------------------------------------------------------------

    def info(self) -> SpoolInfo:
        with self._lock:
            return SpoolInfo(str(self.operation), list(self.columns), self.rows, self.bytes, self.done.is_set(),
                             self.capped, self.note, self.error, (self.ended or time.monotonic()) - self.started)

    def _files(self) -> tuple[list[str], list[int], pa.Schema, bool]:
        complete = self.done.is_set()  # read first: files listed after it are at least as many
        with self._lock:
            files, counts, schema = list(self.files), list(self.file_rows), self.schema
        if schema is None:
            schema = pa.schema([pa.field(n, pa.null()) for n in self.names])
        return files, counts, schema, complete

    def snapshot(self) -> tuple[pa.Table, bool]:
        """Every spooled row as one Arrow table, and whether that is the whole spool. A whole spool stays in
        ``_TABLES`` for the next call (paging a sorted result, another sort): reading 1,000,000 rows of Parquet
        costs about as much as sorting them."""
        files, _, schema, complete = self._files()
        if not files:
            return schema.empty_table(), complete
        if complete:
            cached = _TABLES.get(self)
            if cached is not None:
                return cached, True
        table = ds.dataset(files, format="parquet", schema=schema).to_table()
        if complete:
            _TABLES.put(self, table)
        return table, complete

    def rows_between(self, offset: int, limit: int) -> tuple[pa.Table, int, bool]:
        """Rows ``offset`` … in spool order, reading only the files that hold them; and the rows spooled."""
        files, counts, schema, complete = self._files()
        parts, start = [], 0
        for path, count in zip(files, counts):
            end = start + count
            if end > offset and start < offset + limit:
                table = pq.read_table(path, schema=schema)
                parts.append(table.slice(max(0, offset - start), offset + limit - max(start, offset)))
            start = end
        return (pa.concat_tables(parts) if parts else schema.empty_table()), sum(counts), complete

    def batches(self) -> Iterator[pa.RecordBatch]:
        with self._lock:
            files, schema = list(self.files), self.schema
        if files:
            yield from ds.dataset(files, format="parquet", schema=schema).to_batches(batch_size=_EXPORT_BATCH_ROWS)


# ---------------------------------------------------------------------------------------------
# Whole-result operations (pure functions of an Arrow table; the calls below validate and call them)
# ---------------------------------------------------------------------------------------------

def _column(table: pa.Table, name: Any, names: list[str], what: str) -> str:
    if not isinstance(name, str) or name not in names:
        raise InvalidRequestError(f"{what}: there is no result column {str(name)[:80]!r}; the columns are "
                                  f"{', '.join(names[:30])}")
    return name


def _typed(value: Any, column: str, data_type: pa.DataType) -> pa.Scalar:
    """``value`` as a scalar of the column's type: a filter compares values, it never runs text as SQL."""
    if isinstance(value, (dict, list)) or value is None:
        raise InvalidRequestError(f"filter on {column}: give one value of type {data_type} (or use is_null)")
    try:
        if pa.types.is_boolean(data_type) and isinstance(value, str):
            lowered = value.strip().lower()
            if lowered not in ("true", "false"):
                raise ValueError(value)
            return pa.scalar(lowered == "true")
        scalar = pa.scalar(value.strip() if isinstance(value, str) else value)
        return scalar if scalar.type.equals(data_type) else pc.cast(scalar, data_type)
    except (pa.ArrowException, ValueError, TypeError, OverflowError):
        hint = {"quantitative": "a number", "temporal": "a date or timestamp such as 2024-01-31"}.get(_kind(data_type),
                                                                                                     "a value")
        raise InvalidRequestError(f"filter on {column}: {str(value)[:80]!r} is not a value of its type {data_type}; "
                                  f"give {hint}") from None


def _as_text(array) -> pa.ChunkedArray:
    return array if pa.types.is_string(array.type) or pa.types.is_large_string(array.type) else pc.cast(array, pa.string())


def filter_mask(table: pa.Table, filters: list[RowFilter], names: list[str]) -> Optional[pa.ChunkedArray]:
    mask = None
    for item in filters:
        column = _column(table, item.column, names, "filter")
        if item.op not in FILTER_OPS:
            raise InvalidRequestError(f"filter on {column}: unknown operator {str(item.op)[:20]!r}; use one of "
                                      f"{', '.join(FILTER_OPS)}")
        data = table.column(column)
        if item.op == "is_null":
            this = pc.is_null(data)
        elif item.op == "is_not_null":
            this = pc.is_valid(data)
        elif item.op in ("contains", "starts_with"):
            if not _searchable(data.type):
                raise InvalidRequestError(f"filter on {column}: {item.op} needs a column of text, numbers or dates, "
                                          f"not {data.type}")
            text = str(item.value if item.value is not None else "")
            this = (pc.match_substring(_as_text(data), text, ignore_case=True) if item.op == "contains"
                    else pc.starts_with(_as_text(data), text, ignore_case=True))
        else:
            if pa.types.is_nested(data.type):
                raise InvalidRequestError(f"filter on {column}: {data.type} values cannot be compared; filter "
                                          f"another column, or use is_null")
            value = _typed(item.value, column, data.type)
            compare = {"=": pc.equal, "!=": pc.not_equal, "<": pc.less, "<=": pc.less_equal, ">": pc.greater,
                       ">=": pc.greater_equal}[item.op]
            this = compare(data, value)
        this = pc.fill_null(this, False)
        mask = this if mask is None else pc.and_(mask, this)
    return mask


def search_mask(table: pa.Table, text: str) -> Optional[pa.ChunkedArray]:
    """Rows where any column's text contains ``text``, ignoring case (nested and binary columns are skipped)."""
    mask = None
    for name in table.column_names:
        data = table.column(name)
        if not _searchable(data.type):
            continue
        this = pc.fill_null(pc.match_substring(_as_text(data), text, ignore_case=True), False)
        mask = this if mask is None else pc.or_(mask, this)
    return mask if mask is not None else pa.chunked_array([pa.array([False] * table.num_rows, pa.bool_())])


def page_of(table: pa.Table, names: list[str], offset: int, limit: int, sort: list[SortKey],
            filters: list[RowFilter], search: Optional[str]) -> tuple[pa.Table, int]:
    """The rows ``offset`` … ``offset + limit`` of ``table`` after filters, search and sort; and the matching count."""
    mask = filter_mask(table, filters, names) if filters else None
    if search:
        found = search_mask(table, search)
        mask = found if mask is None else pc.and_(mask, found)
    if mask is not None:
        table = table.filter(mask)
    total = table.num_rows
    if sort:
        keys = []
        for key in sort:
            column = _column(table, key.column, names, "sort")
            if pa.types.is_nested(table.schema.field(column).type):
                raise InvalidRequestError(f"sort: {column} holds {table.schema.field(column).type} values, which have "
                                          f"no order; sort by another column")
            keys.append((column, "descending" if key.descending else "ascending"))
        order = pc.sort_indices(table.select([k for k, _ in keys]), sort_keys=keys)  # nulls last (Arrow's default)
        return table.take(order.slice(offset, limit)), total
    return table.slice(offset, limit), total


def _bucket_unit(low, high, max_points: int) -> Optional[str]:
    """The finest of hour/day/week/month/quarter/year that gives at most ``max_points`` buckets."""
    if low is None or high is None:
        return None
    seconds = (high - low).total_seconds() if hasattr(high - low, "total_seconds") else 0
    for unit, length in (("hour", 3600), ("day", 86400), ("week", 7 * 86400), ("month", 31 * 86400),
                         ("quarter", 92 * 86400), ("year", 366 * 86400)):
        if seconds / length <= max_points:
            return unit
    return "year"


def chart_of(table: pa.Table, names: list[str], spec: ChartSpec, max_points: int, top: int) -> tuple[list, list, int, list]:
    """Aggregated points: (columns, rows, groups before the cap, notes)."""
    x = _column(table, spec.x, names, "chart x")
    color = _column(table, spec.color, names, "chart colour") if spec.color else None
    if spec.aggregate not in CHART_AGGREGATES:
        raise InvalidRequestError(f"chart: unknown aggregate {str(spec.aggregate)[:20]!r}; use one of "
                                  f"{', '.join(CHART_AGGREGATES)}")
    if spec.bucket not in DATE_BUCKETS:
        raise InvalidRequestError(f"chart: unknown date bucket {str(spec.bucket)[:20]!r}; use one of "
                                  f"{', '.join(DATE_BUCKETS)}")
    notes: list[str] = []
    xs = table.column(x)
    if pa.types.is_nested(xs.type):
        raise InvalidRequestError(f"chart: x = {x} holds {xs.type} values; choose a category, date or number column")
    if spec.y is None or spec.aggregate == "count":
        measure, how = (pa.chunked_array([pa.array([1] * table.num_rows, pa.int64())]) if spec.y is None
                        else table.column(_column(table, spec.y, names, "chart y"))), "count"
        value_name = "count" if spec.y is None else f"count of {spec.y}"
    else:
        y = _column(table, spec.y, names, "chart y")
        measure = table.column(y)
        if _kind(measure.type) != "quantitative":
            raise InvalidRequestError(f"chart: {spec.aggregate} needs a number column on y; {y} holds {measure.type} "
                                      f"(use count, or choose a number column)")
        if pa.types.is_decimal(measure.type):
            measure = pc.cast(measure, pa.float64())
        how = "mean" if spec.aggregate == "avg" else spec.aggregate
        value_name = f"{spec.aggregate} of {y}"
    kind = _kind(xs.type)
    if kind == "temporal" and spec.bucket != "none":
        unit = spec.bucket if spec.bucket != "auto" else _bucket_unit(pc.min(xs).as_py(), pc.max(xs).as_py(),
                                                                       max(1, max_points // max(1, top if color else 1)))
        if unit is not None:
            if pa.types.is_date(xs.type) and unit == "hour":
                unit = "day"
            xs = pc.floor_temporal(xs, unit=unit, week_starts_monday=True)
            notes.append(f"{x} by {unit}")
    elif kind == "quantitative":
        distinct = pc.count_distinct(xs).as_py()
        if distinct > max_points:
            low, high = pc.min(xs).as_py(), pc.max(xs).as_py()
            width = (float(high) - float(low)) / max_points or 1.0
            floats = pc.cast(xs, pa.float64())
            xs = pc.add(pc.multiply(pc.floor(pc.divide(pc.subtract(floats, float(low)), width)), width), float(low))
            notes.append(f"{x} in {max_points:,} bins of {width:g}")
    keys = ["x"] + (["color"] if color else [])
    data = {"x": xs, "v": measure}
    if color:
        data["color"] = table.column(color)
    grouped = pa.table(data).group_by(keys, use_threads=False).aggregate([("v", how)])
    grouped = grouped.rename_columns([c if c != f"v_{how}" else "value" for c in grouped.column_names])
    groups = grouped.num_rows
    if kind == "nominal":
        by_x = pa.table({"x": grouped.column("x"), "value": pc.cast(grouped.column("value"), pa.float64())}) \
            .group_by(["x"]).aggregate([("value", "sum")])
        if by_x.num_rows > top:
            kept = by_x.take(pc.sort_indices(by_x, sort_keys=[("value_sum", "descending")]).slice(0, top)).column("x")
            grouped = grouped.filter(pc.is_in(grouped.column("x"), value_set=kept.combine_chunks()))
            notes.append(f"the top {top} of {by_x.num_rows:,} {x} values by {value_name}")
    if color:
        by_color = pa.table({"c": grouped.column("color"), "value": pc.cast(grouped.column("value"), pa.float64())}) \
            .group_by(["c"]).aggregate([("value", "sum")])
        if by_color.num_rows > top:
            kept = by_color.take(pc.sort_indices(by_color, sort_keys=[("value_sum", "descending")])
                                 .slice(0, top)).column("c")
            grouped = grouped.filter(pc.is_in(grouped.column("color"), value_set=kept.combine_chunks()))
            notes.append(f"the top {top} of {by_color.num_rows:,} {color} values")
    order = [("x", "ascending")] if kind != "nominal" else [("value", "descending")]
    grouped = grouped.take(pc.sort_indices(grouped, sort_keys=order + ([("color", "ascending")] if color else [])))
    if grouped.num_rows > max_points:
        notes.append(f"the first {max_points:,} of {grouped.num_rows:,} points")
        grouped = grouped.slice(0, max_points)
    columns = [x] + ([color] if color else []) + [value_name]
    ordered = grouped.select(["x"] + (["color"] if color else []) + ["value"])
    return columns, arrow_rows(ordered), groups, notes


def suggested_chart(table: pa.Table, names: list[str]) -> ChartSpec:
    """A category or a date on x, a measure on y (summed), a colour only for a column of at most 20 values.

    x: a date; else a text column of at most 1,000 values; else a whole-number column of at most 50 values
    (a code, a bucket); else any text column (its top categories); else the first number."""
    kinds = {n: _kind(table.schema.field(n).type) for n in names}
    temporal = [n for n in names if kinds[n] == "temporal"]
    nominal = [n for n in names if kinds[n] == "nominal" and _searchable(table.schema.field(n).type)]
    numeric = [n for n in names if kinds[n] == "quantitative"]
    codes = [n for n in numeric if pa.types.is_integer(table.schema.field(n).type)]
    distinct = {n: pc.count_distinct(table.column(n)).as_py() for n in nominal + codes} if table.num_rows else {}
    few = [n for n in nominal if 1 < distinct.get(n, 0) <= 1000]
    small_codes = [n for n in codes if 1 < distinct.get(n, 0) <= 50]
    if temporal:
        x, mark = temporal[0], "line"
    elif few or small_codes or nominal:
        x, mark = (few or small_codes or nominal)[0], "bar"
    elif numeric:
        x, mark = numeric[0], "bar"
    else:
        x, mark = names[0], "bar"
    measures = [n for n in numeric if n != x and n not in small_codes] or [n for n in numeric if n != x]
    y = measures[0] if measures else None
    color = None
    if kinds[x] == "temporal":
        colours = [n for n in few if distinct[n] <= _COLOR_LIMIT]
        color = colours[0] if colours else None
    return ChartSpec(x=x, y=y, aggregate="sum" if y else "count", color=color, bucket="auto", mark=mark)


# ---------------------------------------------------------------------------------------------
# The calls (a mixin of GatewayService)
# ---------------------------------------------------------------------------------------------

def _keys(items: Optional[list], cls: type, what: str) -> list:
    if not items:
        return []
    if not isinstance(items, (list, tuple)):
        raise InvalidRequestError(f"{what} must be a list")
    keys = []
    for item in items:
        if isinstance(item, cls):
            keys.append(item)
        elif isinstance(item, dict):
            try:
                keys.append(cls(**item))
            except TypeError:
                fields = ", ".join(cls.__dataclass_fields__)
                raise InvalidRequestError(f"{what}: each item has the fields {fields}, got {sorted(item)}") from None
        else:
            raise InvalidRequestError(f"{what}: each item is an object with the fields "
                                      f"{', '.join(cls.__dataclass_fields__)}")
    return keys


class ResultSpoolCalls:
    """The calls of ``ResultsApi``; spools live in ``self._spools`` by operation handle."""

    def _spool_registry(self) -> dict:
        with _REGISTRY_LOCK:
            registry = self.__dict__.get("_spools")
            if registry is None:
                # Spools a stopped process left behind: one process owns the data directory (data_lock).
                shutil.rmtree(os.path.join(self.config.data_dir, "result-spool"), ignore_errors=True)
                registry = self.__dict__["_spools"] = {}
            return registry

    def _spool(self, session: SessionHandle, operation: OperationHandle) -> ResultSpool:
        op = self._operation(session, operation)  # another user's session or operation: not found
        spool = self._spool_registry().get(op.handle)
        if spool is None:
            raise OperationStateError(f"operation {op.handle} has no result spool: call spool_result first "
                                      f"(POST …/operations/{op.handle}/spool)")
        return spool

    def spool_result(self, session: SessionHandle, operation: OperationHandle) -> SpoolInfo:
        op = self._operation(session, operation)
        registry = self._spool_registry()
        with _REGISTRY_LOCK:
            spool = registry.get(op.handle)
            if spool is None:
                directory = os.path.join(self.config.data_dir, "result-spool", str(op.session.handle), str(op.handle))
                spool = ResultSpool(op.handle, directory, int(self.config["result.spool_max_rows"]),
                                    int(self.config["result.spool_max_bytes"]))
                registry[op.handle] = spool
                pages = self.iter_results(session, operation, _SPOOL_PAGE_ROWS, timeout_s=_SPOOL_READ_TIMEOUT_S)
                principal = current_principal()

                def on_cap() -> None:  # the rest of the result is not wanted: stop producing it
                    op.fetcher.close("the result spool reached its bound")
                    self.operations._cancel_until_done(op)

                def run() -> None:
                    with acting_as(principal):
                        spool.fill(pages, on_cap)

                threading.Thread(target=run, name=f"gateway-spool-{op.handle}", daemon=True).start()
        return spool.info()

    def get_result_spool(self, session: SessionHandle, operation: OperationHandle, wait_s: float = 0.0,
                         until: str = "done") -> SpoolInfo:
        if until not in ("done", "rows"):
            raise InvalidRequestError(f"until must be done or rows, got {str(until)[:20]!r}")
        if isinstance(wait_s, bool) or not isinstance(wait_s, (int, float)) or not 0 <= wait_s <= 3600:
            raise InvalidRequestError("wait_s must be a number of seconds from 0 to 3600")
        spool = self._spool(session, operation)
        (spool.done if until == "done" else spool.first_rows).wait(wait_s)
        return spool.info()

    def result_page(self, session: SessionHandle, operation: OperationHandle, offset: int = 0, limit: int = 1000,
                    sort: Optional[list] = None, filters: Optional[list] = None,
                    search: Optional[str] = None) -> ResultPage:
        for name, value, high in (("offset", offset, 1 << 62), ("limit", limit, _MAX_PAGE_ROWS)):
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= high:
                raise InvalidRequestError(f"{name} must be a whole number from 0 to {high:,}, got {str(value)[:40]}")
        if search is not None and not isinstance(search, str):
            raise InvalidRequestError("search must be text")
        sort_keys, row_filters = _keys(sort, SortKey, "sort"), _keys(filters, RowFilter, "filters")
        spool = self._spool(session, operation)
        if not sort_keys and not row_filters and not search:
            page, spooled, complete = spool.rows_between(offset, limit)  # the files that hold the page only
            return ResultPage(list(spool.columns), arrow_rows(page), offset, spooled, spooled, complete)
        table, complete = spool.snapshot()
        page, total = page_of(table, spool.names, offset, limit, sort_keys, row_filters, search or None)
        return ResultPage(list(spool.columns), arrow_rows(page), offset, total, table.num_rows, complete)

    def result_chart(self, session: SessionHandle, operation: OperationHandle, spec: ChartSpec,
                     max_points: int = 1000, top: int = 20) -> ChartData:
        if isinstance(spec, dict):
            try:
                spec = ChartSpec(**spec)
            except TypeError:
                raise InvalidRequestError(f"spec has the fields {', '.join(ChartSpec.__dataclass_fields__)}") from None
        if not isinstance(spec, ChartSpec):
            raise InvalidRequestError("spec must be a ChartSpec")
        for name, value, high in (("max_points", max_points, 10_000), ("top", top, 1_000)):
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= high:
                raise InvalidRequestError(f"{name} must be a whole number from 1 to {high:,}")
        spool = self._spool(session, operation)
        table, complete = spool.snapshot()
        columns, rows, groups, notes = chart_of(table, spool.names, spec, max_points, top)
        return ChartData(spec, columns, rows, groups, table.num_rows, complete, "; ".join(notes) or None)

    def suggest_chart(self, session: SessionHandle, operation: OperationHandle) -> ChartSpec:
        spool = self._spool(session, operation)
        table, _ = spool.snapshot()
        if not spool.names:
            raise OperationStateError(f"operation {operation} has no result columns (yet) to chart")
        return suggested_chart(table, spool.names)

    def export_result(self, session: SessionHandle, operation: OperationHandle, format: str = "csv",
                      wait_s: float = 600.0) -> Iterator[bytes]:
        if format not in EXPORT_FORMATS:
            raise InvalidRequestError(f"format must be one of {', '.join(EXPORT_FORMATS)}, got {str(format)[:20]!r}")
        if isinstance(wait_s, bool) or not isinstance(wait_s, (int, float)) or not 0 <= wait_s <= 6 * 3600:
            raise InvalidRequestError("wait_s must be a number of seconds from 0 to 21600")
        op = self._operation(session, operation)
        if op.handle not in self._spool_registry():
            self.spool_result(session, operation)
        spool = self._spool(session, operation)
        if not spool.done.wait(wait_s):
            raise OperationStateError(f"the result of operation {op.handle} is still being spooled ({spool.rows:,} "
                                      f"rows so far); ask again when get_result_spool says done")
        if spool.error is not None and not spool.files:
            raise OperationStateError(f"operation {op.handle} has no result to export: "
                                      f"{spool.error.get('root_cause', 'it failed')}")
        return _export(spool, format)

    def _discard_spool(self, operation_handle) -> None:
        """Remove an operation's spool and its files (the operation or its session closed)."""
        with _REGISTRY_LOCK:
            spool = self.__dict__.get("_spools", {}).pop(operation_handle, None)
        if spool is not None:
            threading.Thread(target=spool.remove, name=f"gateway-spool-remove-{operation_handle}", daemon=True).start()


def _export(spool: ResultSpool, format: str) -> Iterator[bytes]:
    names = [c.name for c in spool.columns]
    if format == "parquet":
        sink = _Chunks()
        schema = spool.schema if spool.schema is not None else pa.schema([pa.field(n, pa.null()) for n in spool.names])
        with pq.ParquetWriter(sink, schema) as writer:
            for batch in spool.batches():
                writer.write_batch(batch)
                chunk = sink.take()
                if chunk:
                    yield chunk
        yield sink.take()
        return
    if format == "csv":
        text = io.StringIO()
        writer = csv.writer(text)
        writer.writerow(names)
        for batch in spool.batches():
            writer.writerows([json.dumps(v, ensure_ascii=False) if isinstance(v, (dict, list)) else v for v in row]
                             for row in arrow_rows(batch))
            yield text.getvalue().encode("utf-8")
            text.seek(0)
            text.truncate()
        yield text.getvalue().encode("utf-8")
        return
    for batch in spool.batches():
        yield "".join(json.dumps(dict(zip(spool.names, row)), ensure_ascii=False) + "\n"
                      for row in arrow_rows(batch)).encode("utf-8")
