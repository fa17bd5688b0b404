"""Result pages into native Python values, as DB-API drivers give them: Arrow IPC pages (pyarrow) and
JSON pages (orjson when present); the wire formats' constants."""
from __future__ import annotations

import base64
import datetime as dt
import sys
from decimal import MAX_EMAX, MIN_EMIN, Context, Decimal, Inexact, InvalidOperation, Rounded
from itertools import chain, repeat
from typing import Any, Iterator, Optional


try:
    import orjson as _json

    def _dumps(value) -> bytes:
        return _json.dumps(value)
except ImportError:  # pragma: no cover - the workbench installs orjson
    import json as _json

    def _dumps(value) -> bytes:
        return _json.dumps(value).encode()


ARROW_MEDIA_TYPE = "application/vnd.apache.arrow.stream"
ARROW_PAGE_KEY = b"workbench.page"


def page_rows(page: dict) -> list[tuple]:
    """A page's rows as tuples of native Python values (converted from Arrow on first use)."""
    if "rows" not in page:
        page["rows"] = arrow_rows(page["table"]) if "table" in page else []
    return page["rows"]


def _arrow_page(payload: bytes) -> dict:
    import pyarrow as pa

    with pa.ipc.open_stream(pa.py_buffer(payload)) as reader:
        table = reader.read_all()
    page = _json.loads(table.schema.metadata[ARROW_PAGE_KEY])
    page["table"] = table.replace_schema_metadata(None)
    return page


def arrow_rows(table) -> list[tuple]:
    """Rows of an Arrow table as tuples of native values, column by column (far faster than by row)."""
    if table.num_rows == 0:
        return []
    columns = [_native_column(table.column(i)) for i in range(table.num_columns)]
    return list(zip(*columns)) if columns else [() for _ in range(table.num_rows)]


def _native_column(column) -> list:
    import pyarrow as pa

    kind = column.type
    if pa.types.is_timestamp(kind) or pa.types.is_date(kind):
        values = _temporal_values(column)
        if values is not None:
            return values
    try:
        values = column.to_pylist()
    except (OverflowError, ValueError):  # a datetime out of Python's range (UTC year 0 of a zoned timestamp)
        return _native_by_parts(column)
    if pa.types.is_map(kind) or pa.types.is_nested(kind):
        return [_native_nested(v, kind) for v in values]
    return values


def _native_by_parts(column) -> list:
    """``to_pylist()`` by child columns, for values it cannot convert at once: a zoned timestamp
    whose UTC instant is before year 1 (year 1 in a zone east of UTC) becomes an aware datetime
    in its own zone (Arrow's ``local_timestamp``), at any depth. A value out of datetime's range
    in its zone too raises ``to_pylist()``'s error, as before."""
    import pyarrow as pa
    import pyarrow.compute as pc

    if isinstance(column, pa.ChunkedArray):
        column = column.combine_chunks()
    kind = column.type
    valid = column.is_valid().to_pylist()
    if pa.types.is_timestamp(kind) and kind.tz:
        tzinfo = pa.lib.string_to_tzinfo(kind.tz)
        try:
            local = pc.local_timestamp(column).to_pylist()
        except (OverflowError, ValueError):  # out of datetime's range in its zone too
            return _temporal_or_text(column)
        return [None if v is None else v.replace(tzinfo=tzinfo) for v in local]
    if pa.types.is_timestamp(kind) or pa.types.is_date(kind):
        return _temporal_or_text(column)
    if pa.types.is_struct(kind):
        names = [kind.field(i).name for i in range(kind.num_fields)]
        children = [_native_column(child) for child in column.flatten()]
        return [dict(zip(names, values)) if ok else None for ok, values in zip(valid, zip(*children))]
    if pa.types.is_list(kind) or pa.types.is_large_list(kind) or pa.types.is_map(kind):
        offsets = column.offsets.to_pylist()
        if pa.types.is_map(kind):
            keys, items = _native_column(column.values.field(0)), _native_column(column.values.field(1))
            return [dict(zip(keys[a:b], items[a:b])) if ok else None for ok, a, b in zip(valid, offsets, offsets[1:])]
        values = _native_column(column.values)
        return [values[a:b] if ok else None for ok, a, b in zip(valid, offsets, offsets[1:])]
    return column.to_pylist()


def _temporal_or_text(column) -> list:
    """Dates and timestamps one by one: a ``date``/``datetime`` where Python holds it, else the
    text a JSON page carries (``+10000-01-01``, ``-0044-03-15T00:00:00.000000Z``: Spark's signed
    years, timestamps in UTC with ``Z`` when zoned), never an error for a value Spark returned."""
    import pyarrow as pa
    import pyarrow.compute as pc

    kind = column.type
    values = []
    for index in range(len(column)):
        piece = column.slice(index, 1)
        try:
            if pa.types.is_timestamp(kind) and kind.tz:
                local = pc.local_timestamp(piece).to_pylist()[0]
                value = None if local is None else local.replace(tzinfo=pa.lib.string_to_tzinfo(kind.tz))
            else:
                value = piece.to_pylist()[0]
        except (OverflowError, ValueError):
            value = _temporal_text(piece)
        values.append(value)
    return values


def _temporal_text(piece) -> str:
    """ISO text of one date or timestamp out of Python's years 1-9999, as the server writes it."""
    import pyarrow as pa

    kind = piece.type
    if pa.types.is_date(kind):
        return date_text(piece.cast(pa.date32()).cast(pa.int32())[0].as_py())
    micros = piece.cast(pa.int64())[0].as_py() * {"s": 1_000_000, "ms": 1000, "us": 1, "ns": 1}[kind.unit]
    if kind.unit == "ns":
        micros //= 1000
    days, rest = divmod(micros, 86_400_000_000)
    seconds, fraction = divmod(rest, 1_000_000)
    return (f"{date_text(days)}T{seconds // 3600:02d}:{seconds // 60 % 60:02d}:{seconds % 60:02d}."
            f"{fraction:06d}" + ("Z" if kind.tz else ""))


def date_text(days: int) -> str:
    """``[+-]yyyy-MM-dd`` of days since 1970-01-01, proleptic Gregorian, any year, signed as Spark's cast
    writes it (``+10000-01-01``, ``-0044-03-15``): Hinnant's civil_from_days. The server's JSON text of
    dates and timestamps (gateway/core/serialization.py) uses this one too."""
    days += 719468  # days from 0000-03-01 to 1970-01-01
    era = days // 146097  # floor division (Hinnant's C code adjusts truncating division for this)
    doe = days - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    day, month = doy - (153 * mp + 2) // 5 + 1, mp + (3 if mp < 10 else -9)
    year = yoe + era * 400 + (month <= 2)
    return ("+" if year > 9999 else "-" if year < 0 else "") + f"{abs(year):04d}-{month:02d}-{day:02d}"


# datetime.datetime's range (years 1 to 9999) in microseconds since the epoch.
_MIN_US = -62_135_596_800_000_000


_MAX_US = 253_402_300_799_999_999
_MIN_DAY, _MAX_DAY = -719_162, 2_932_896  # 0001-01-01 and 9999-12-31 in days since the epoch
_UTC_NAMES = frozenset({"UTC", "Etc/UTC", "Etc/UCT", "UCT", "Etc/Universal", "Universal", "Etc/Zulu", "Zulu",
                        "GMT", "Etc/GMT", "GMT0", "Etc/GMT0", "GMT+0", "GMT-0", "Etc/GMT+0", "Etc/GMT-0",
                        "Greenwich", "Etc/Greenwich", "Z", "+00:00", "-00:00"})


def _temporal_values(column) -> Optional[list]:
    """Dates and timestamps (units s, ms, us) as ``date``/``datetime`` objects made by numpy in C:
    ``to_pylist()`` builds them one by one in Python, ~20x slower (2.4 s for a million zoned
    timestamps, measured). The same values and time zone objects as ``to_pylist()``; None when
    this path does not apply (nanoseconds, values outside datetime's years 1-9999): then the caller
    takes ``to_pylist()``."""
    import pyarrow as pa
    import pyarrow.compute as pc

    kind = column.type
    if len(column) == 0:
        return []
    if pa.types.is_date(kind):
        days = column.cast(pa.date32()).cast(pa.int32()) if pa.types.is_date64(kind) else column.cast(pa.int32())
        ints = days.to_numpy(zero_copy_only=False) if days.null_count == 0 else \
            days.fill_null(0).to_numpy(zero_copy_only=False)
        if ints.min() < _MIN_DAY or ints.max() > _MAX_DAY:
            return None
        values = ints.astype("datetime64[D]").astype(object).tolist()  # datetime.date
        return _with_nulls(values, column)
    if kind.unit == "ns":
        return None
    micros = column.cast(pa.int64())
    if kind.unit != "us":
        micros = pc.multiply(micros, {"s": 1_000_000, "ms": 1000}[kind.unit])
    ints = micros.fill_null(0).to_numpy(zero_copy_only=False) if micros.null_count else \
        micros.to_numpy(zero_copy_only=False)
    if ints.min() < _MIN_US or ints.max() > _MAX_US:
        return None
    if not kind.tz:
        return _with_nulls(ints.astype("datetime64[us]").astype(object).tolist(), column)
    tzinfo = pa.lib.string_to_tzinfo(kind.tz)  # what to_pylist() attaches
    deltas = ints.astype("timedelta64[us]").astype(object).tolist()
    try:
        if kind.tz in _UTC_NAMES or isinstance(tzinfo, dt.timezone):
            # A fixed offset: the epoch in that zone plus a timedelta is the zoned value (C-level adds).
            epoch = dt.datetime(1970, 1, 1, tzinfo=dt.timezone.utc).astimezone(tzinfo)
            values = list(map(epoch.__add__, deltas))
        else:  # a zone with daylight saving time: each instant converted on its own
            epoch = dt.datetime(1970, 1, 1, tzinfo=dt.timezone.utc)
            values = [(epoch + d).astimezone(tzinfo) for d in deltas]
    except OverflowError:  # the local time falls outside years 1-9999: as to_pylist() does it
        return None
    return _with_nulls(values, column)


def _with_nulls(values: list, column) -> list:
    """``values`` with None where ``column`` is null (the filled-in placeholders replaced)."""
    if column.null_count:
        import numpy as np

        for index in np.flatnonzero(column.is_null().to_numpy(zero_copy_only=False)).tolist():
            values[index] = None
    return values


def _native_nested(value, kind):
    """Maps as dicts, also inside lists and structs (Arrow gives a map as a list of pairs)."""
    import pyarrow as pa

    if value is None:
        return None
    if pa.types.is_map(kind):
        return {_native_nested(k, kind.key_type): _native_nested(v, kind.item_type) for k, v in value}
    if pa.types.is_list(kind) or pa.types.is_large_list(kind) or pa.types.is_fixed_size_list(kind):
        return [_native_nested(v, kind.value_type) for v in value]
    if pa.types.is_struct(kind):
        return {kind.field(i).name: _native_nested(value.get(kind.field(i).name), kind.field(i).type)
                for i in range(kind.num_fields)}
    return value


def to_pandas(table):
    """A DataFrame of an Arrow table, as Spark's ``toPandas()`` gives it (dates as objects, not timestamps).

    pyarrow can share one Python object between equal values (``deduplicate_objects``) by hashing every
    value. Where values are mostly distinct that hashing is most of the conversion (a million ids as text:
    1.3 s with it, 0.14 s without, measured under load) and saves nothing; where they repeat it saves both
    time and memory (a million dates over 1,000 days: 0.015 s with it, 0.1-0.2 s without). So each column
    is converted the way that suits it (``_repetitive``): with one kind of column, in one call; with both,
    in two calls whose columns are joined in the table's order. ``split_blocks``: each column its own block,
    so that no column is copied into a 2-D block of its type (0.2 s against 0.3 s for 1M x 5, measured under
    load). Decimal columns are converted here (``decimal_objects``), not by pyarrow, which formats each
    value as text and parses it back. The values are the same either way."""
    return _frame(table, {index: decimal_objects(column) for index, column in enumerate(table.columns)
                          if _decimal_fast(column.type)})


def _frame(table, converted: dict) -> Any:
    """``to_pandas`` of ``table`` whose columns at the indices of ``converted`` are converted already
    (object arrays): the others by pyarrow, each as suits it."""
    import pandas as pd

    groups = {"shared": [], "distinct": []}
    for index, column in enumerate(table.columns):
        if index not in converted:
            groups["shared" if _repetitive(column) else "distinct"].append(index)
    if not converted and (not groups["shared"] or not groups["distinct"]):
        return table.to_pandas(date_as_object=True, deduplicate_objects=bool(groups["shared"]), split_blocks=True)
    columns = {index: pd.Series(values, copy=False) for index, values in converted.items()}
    for indices, deduplicate in ((groups["shared"], True), (groups["distinct"], False)):
        if not indices:
            continue
        part = table.select(indices).to_pandas(date_as_object=True, deduplicate_objects=deduplicate,
                                               split_blocks=True)
        for position, index in enumerate(indices):
            columns[index] = part.iloc[:, position]
    frame = pd.DataFrame({index: columns[index] for index in range(table.num_columns)}, copy=False)
    frame.columns = pd.Index(table.column_names, dtype=object)
    return frame


def _decimal_fast(kind) -> bool:
    """Whether ``decimal_objects`` converts this type: decimal128 (Spark's decimals) on a little-endian machine
    (the byte order its 64-bit words are read in)."""
    import pyarrow as pa

    return pa.types.is_decimal128(kind) and sys.byteorder == "little"


# Exact for any decimal128 (38 digits) at any scale: the unscaled integer times 10**-scale, never rounded
# (a thread's own decimal context, perhaps of fewer digits, plays no part).
_DECIMAL_CONTEXT = Context(prec=80, Emax=MAX_EMAX, Emin=MIN_EMIN, traps=[InvalidOperation, Inexact, Rounded])


def decimal_objects(column) -> "numpy.ndarray":
    """A decimal128 column as an object array of ``Decimal`` (None where null), equal value for value,
    exponent included, to pyarrow's ``to_pandas``: built from each value's unscaled integer (the 16 bytes,
    read by numpy as two 64-bit words) times ``10**-scale``. pyarrow formats every value as text and
    parses the text (0.28 s for a million DECIMAL(23, 1), measured; this way 0.2 s)."""
    import numpy as np
    import pyarrow as pa

    step = Decimal(1).scaleb(-column.type.scale, _DECIMAL_CONTEXT)
    chunks = [chunk for chunk in (column.chunks if isinstance(column, pa.ChunkedArray) else [column]) if len(chunk)]
    integers = []
    for chunk in chunks:
        count = len(chunk)
        words = np.frombuffer(chunk.buffers()[1], dtype="<i8")[2 * chunk.offset:2 * (chunk.offset + count)]
        low, high = words[0::2], words[1::2]
        if np.array_equal(high, low >> 63):  # every value within 64 bits (up to 18 digits)
            integers.append(low.tolist())
        else:
            integers.append([h << 64 | u for h, u in zip(high.tolist(), low.view("<u8").tolist())])
    # fromiter: numpy takes each object as it is (assigning a list looks into every item: 3x slower)
    values = np.fromiter(map(_DECIMAL_CONTEXT.multiply, chain.from_iterable(integers), repeat(step)),
                         dtype=object, count=len(column))
    if column.null_count:
        values[np.asarray(column.is_null().to_numpy(zero_copy_only=False), dtype=bool)] = None
    return values


# Rows of each text column looked at to tell repeated values (categories, flags) from distinct ones (ids).
DEDUPLICATE_SAMPLE_ROWS = 2048
# A date column is deduplicated when the days between its first and last date (the most distinct values it
# can have) are at most this share of its values: hashing pays where values repeat many times (measured:
# 1,000 days in a million rows 13x faster; a tenth of the values distinct, about even).
DEDUPLICATE_DATE_SPAN = 0.05


def _repetitive(column) -> bool:
    """True when pyarrow's deduplication pays for this column: a string or binary column with fewer distinct
    values than half its first rows, or a date column whose span of days is small beside its values (a bound
    of its distinct values, not a guess from a sample); never for other types (no Python object per value,
    or nothing measured)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    kind = column.type
    valid = len(column) - column.null_count
    if valid == 0:
        return False
    if pa.types.is_date(kind):
        bounds = pc.min_max(column.cast(pa.date32()).cast(pa.int32()) if pa.types.is_date64(kind)
                            else column.cast(pa.int32()))
        span = bounds["max"].as_py() - bounds["min"].as_py() + 1
        return span <= valid * DEDUPLICATE_DATE_SPAN
    if not (pa.types.is_string(kind) or pa.types.is_large_string(kind) or pa.types.is_binary(kind)
            or pa.types.is_large_binary(kind) or pa.types.is_string_view(kind)):
        return False
    sample = column.slice(0, DEDUPLICATE_SAMPLE_ROWS)
    sampled = len(sample) - sample.null_count
    return bool(sampled) and pc.count_distinct(sample).as_py() * 2 < sampled


DTYPE_BACKENDS = (None, "pyarrow")


def check_dtype_backend(dtype_backend: Optional[str]) -> None:
    """Fail before any page is fetched for a ``dtype_backend`` this client has not (as pandas' readers name it)."""
    if dtype_backend not in DTYPE_BACKENDS:
        raise ValueError(f"dtype_backend={dtype_backend!r} is not one this client converts to: leave it None (the "
                         "types Spark's toPandas() gives: Decimal, str, date objects) or pass 'pyarrow' (pandas.ArrowDtype "
                         "columns, no Python object per value)")


def pages_to_pandas(tables: Iterator, dtype_backend: Optional[str] = None) -> Any:
    """One DataFrame of a result's page tables; ``dtype_backend="pyarrow"``: every column a
    ``pandas.ArrowDtype`` over the pages' own Arrow data (no Python object per value, values as pyarrow
    holds them, nulls as ``pd.NA``), not Spark's ``toPandas()`` types. Otherwise: decimal columns (most of the conversion: a Python object
    made per value) are converted page by page as each page arrives, while the client's prefetch thread
    fetches the next one (its socket reads release the GIL); the other columns once after the last page:
    the pages are joined without a copy (``concat_tables`` keeps them as chunks) and ``to_pandas`` fills
    each column once. Converting whole pages as they came, then ``pandas.concat``, took about twice the
    CPU (1M rows x 5 columns in 50,000-row pages: 0.14 s against 0.08 s, measured) and held the result
    twice during the concat; the decimals' object arrays are only joined (pointers). Decimals page by page:
    fetch_pandas of benchmarks/engines.py's query 20% faster (median of 10 alternated runs over Connect,
    under load). None without any page."""
    import numpy as np
    import pyarrow as pa

    check_dtype_backend(dtype_backend)
    if dtype_backend == "pyarrow":
        import pandas as pd

        held = list(tables)
        return (pa.concat_tables(held) if len(held) > 1 else held[0]).to_pandas(types_mapper=pd.ArrowDtype) \
            if held else None
    held, decimals = [], None
    for table in tables:
        if decimals is None:
            decimals = {index: [] for index, field in enumerate(table.schema) if _decimal_fast(field.type)}
        for index, parts in decimals.items():
            parts.append(decimal_objects(table.column(index)))
        held.append(table)
    if not held:
        return None
    table = pa.concat_tables(held) if len(held) > 1 else held[0]
    return _frame(table, {index: np.concatenate(parts) if len(parts) > 1 else parts[0]
                          for index, parts in decimals.items()})


def json_rows(columns: list[dict], data: list[dict]) -> list[tuple]:
    """A JSON page's rows as tuples of native values, decoded column by column: a converter mapped
    over a column (``map`` calls it from C) instead of a Python loop over every value of every row."""
    if not data:
        return []
    fields = [row["fields"] for row in data]
    decoders = [_json_decoder(c["type"]) for c in columns]
    if not any(decoders):
        return list(map(tuple, fields))
    values = list(zip(*fields))
    return list(zip(*(column if decode is None else _decode_column(decode, column)
                      for decode, column in zip(decoders, values))))


def _decode_column(decode, column: tuple) -> list:
    if None in column:
        return [None if value is None else decode(value) for value in column]
    return list(map(decode, column))


def _json_decoder(type_json: dict):
    """How a non-null JSON value of this type becomes a native one; None when it is one already."""
    name = type_json.get("type")
    if name == "DECIMAL":
        return _decimal_decoder(type_json.get("scale", 0))
    return _JSON_DECODERS.get(name)


def _decimal_decoder(scale: int):
    """DECIMAL(p, s) comes as text, or as a JSON number when p <= 15 (then exact to its s digits)."""
    step = Decimal(1).scaleb(-scale)
    return lambda value: Decimal(value) if isinstance(value, str) else Decimal(repr(value)).quantize(step)


def _iso_or_text(parse):
    """``parse``, or the text itself for a date or time out of Python's years 1-9999 (a zoned
    timestamp of year 1 east of UTC is in year 0 in UTC): JSON pages carry no zone to show it in."""
    def decode(value):
        try:
            return parse(value)
        except ValueError:
            return value
    return decode


_JSON_DECODERS = {
    "DATE": _iso_or_text(dt.date.fromisoformat),
    "TIMESTAMP": _iso_or_text(dt.datetime.fromisoformat),
    "TIMESTAMP_LTZ": _iso_or_text(dt.datetime.fromisoformat),  # "…Z": aware, in UTC
    "VARBINARY": base64.b64decode,
}
