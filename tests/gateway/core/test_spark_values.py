"""Every value Spark can return reaches every path, and each path agrees with Spark's own string cast.

For each expression below, in several session time zones, the result goes through the gateway's
rows (what the grid shows), REST JSON, REST Arrow, the DB-API client (Arrow and JSON pages) and
the CSV and Parquet exports of the gateway's result spool (``export_result``); each value is rendered as Spark would
cast it (``tests/spark_strings.py``) and compared with ``CAST(expr AS STRING)`` run in the same
session. Three plan shapes per expression: a projection of constants (computed in the driver), a
small result (one job) and a streamed one (partition by partition).
"""
from __future__ import annotations

import csv
import io
import datetime as dt
import json

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from conftest import run_all
from rest_support import Http, server  # noqa: F401 - fixture
from spark_strings import day_time_string, java_double, spark_string
from workbench_client import GatewayClient, connect

EXPRESSIONS = [
    # intervals: year-month, day-time, calendar
    "interval '2' year / null",
    "interval '1-2' year to month",
    "-interval '10' month",
    "interval '1 2:03:04.5' day to second",
    "interval '-3' hour",
    "interval '26:05' hour to minute",
    "interval '1 2' day to hour",
    "CAST('interval 3 month 1 hour' AS interval)",
    "make_interval(1, 2, 3, 4, 5, 6, 7.008)",
    # dates and timestamps from year 1 to 9999
    "to_timestamp('1', 'y')",
    "timestamp'0001-01-01 00:00:00'",
    "timestamp'9999-12-31 23:59:59.999999'",
    "timestamp'2020-06-01 12:34:56.5'",
    "date'0001-01-01'",
    "date'9999-12-31'",
    "timestamp_ntz'0001-01-01 00:00:00'",
    "timestamp_ntz'9999-12-31 23:59:59.999999'",
    # VARIANT, null-typed values, binary, numbers
    "parse_json('{\"a\":1,\"b\":[true,null,\"x\"]}')",
    "null",
    "array_compact(array(null))",
    "array(null, null)",
    "X'48656C6C6F'",
    "1.5D / 3",
    "CAST(-0.000123 AS FLOAT)",
    "CAST(12345.678 AS DECIMAL(10, 3))",
    "CAST(1e30 AS DECIMAL(38, 2))",
    # nested arrays, maps and structs of all of these
    "array(interval '1' year, null)",
    "map('k', interval '1' day, 'n', null)",
    "named_struct('t', to_timestamp('1', 'y'), 'c', CAST('interval 1 day' AS interval), "
    "'v', parse_json('[1]'), 'd', date'0001-01-01', 'n', null)",
    "array(array(timestamp'0001-01-01 00:00:00', null), null)",
    "map(1, named_struct('ntz', timestamp_ntz'9999-12-31 23:59:59', 'ym', interval '3' month))",
    "array(parse_json('1'), parse_json('\"s\"'))",
    "map(interval '1' year, 1)",
]
ZONES = ["UTC", "America/Los_Angeles", "Pacific/Kiritimati", "Asia/Kolkata"]
# A projection of constants (computed in the driver), a small result (one job), a streamed one.
SHAPES = {
    "constants": "SELECT {columns}",
    "small": "SELECT {columns} FROM range(2)",
    "streamed": "SELECT {columns} FROM range(1500)",
}


def _select(shape: str) -> str:
    columns = ", ".join(f"{e} AS c{i}" for i, e in enumerate(EXPRESSIONS))
    return SHAPES[shape].format(columns=columns)


def _cast_select(shape: str) -> str:
    columns = ", ".join(f"CAST({e} AS STRING) AS c{i}" for i, e in enumerate(EXPRESSIONS))
    return SHAPES[shape].format(columns=columns) + " LIMIT 1"


def _first_row_strings(rows, types, zone):
    return [spark_string(v, t, zone) for v, t in zip(rows[0], types)]


def _arrow_values(column) -> list:
    """Arrow values as plain numbers and texts (no Python datetimes, which stop at year 1): the
    raw Arrow a REST client or a Parquet reader gets."""
    if isinstance(column, pa.ChunkedArray):
        column = column.combine_chunks()
    kind = column.type
    if pa.types.is_timestamp(kind) or pa.types.is_duration(kind):
        return column.cast(pa.int64()).to_pylist()
    if pa.types.is_date(kind):
        return column.cast(pa.int32()).to_pylist()
    valid = column.is_valid().to_pylist()
    if pa.types.is_struct(kind):
        names = [kind.field(i).name for i in range(kind.num_fields)]
        children = [_arrow_values(child) for child in column.flatten()]
        return [dict(zip(names, values)) if ok else None for ok, values in zip(valid, zip(*children))]
    if pa.types.is_list(kind) or pa.types.is_map(kind):
        offsets = column.offsets.to_pylist()
        if pa.types.is_map(kind):
            keys, items = _arrow_values(column.values.field(0)), _arrow_values(column.values.field(1))
            return [list(zip(keys[a:b], items[a:b])) if ok else None for ok, a, b in zip(valid, offsets, offsets[1:])]
        values = _arrow_values(column.values)
        return [values[a:b] if ok else None for ok, a, b in zip(valid, offsets, offsets[1:])]
    return column.to_pylist()


def _csv_value(text: str, type_json: dict):
    """A CSV cell back to the JSON form it was written from."""
    if text == "":
        return None
    name = type_json["type"]
    if type_json.get("serialized_as") == "STRING" or name in ("VARCHAR", "CHAR"):
        return text
    if name in ("ARRAY", "MAP", "ROW"):
        return json.loads(text)
    if name == "BOOLEAN":
        return text == "True"
    if name in ("INTERVAL", "DOUBLE", "FLOAT") or name == "DECIMAL" and "." in text and type_json["precision"] <= 15:
        return float(text)
    return text


@pytest.fixture(scope="module")
def expected(gateway):
    """Spark's own string cast of every expression, per zone and shape, in a gateway session."""
    session = gateway.open_session(name="cast")
    answers = {}
    try:
        for zone in ZONES:
            run_all(gateway, session, f"SET spark.sql.session.timeZone={zone}")
            for shape in SHAPES:
                _, rows, page = run_all(gateway, session, _cast_select(shape))
                assert page.exception is None, page.exception
                answers[zone, shape] = rows[0]
    finally:
        gateway.close_session(session)
    return answers


def _assert_same(got, wanted, path):
    mismatches = [(EXPRESSIONS[i], g, w) for i, (g, w) in enumerate(zip(got, wanted)) if g != wanted[i]]
    assert not mismatches, f"{path}: (expression, got, Spark's CAST AS STRING):\n" + \
        "\n".join(map(repr, mismatches))


@pytest.mark.parametrize("zone", ZONES)
def test_gateway_rows_rest_and_downloads_agree_with_spark_string_cast(gateway, server, expected, zone,  # noqa: F811
                                                                      tmp_path):
    http = Http(server.url)
    session = gateway.open_session(name=f"values-{zone}")
    rest = http.open_session(sessionName=f"values-rest-{zone}")
    try:
        run_all(gateway, session, f"SET spark.sql.session.timeZone={zone}")
        http.fetch_all(rest, http.execute(rest, f"SET spark.sql.session.timeZone={zone}"))
        for shape in SHAPES:
            wanted = expected[zone, shape]
            query = _select(shape)
            columns, rows, page = run_all(gateway, session, query)
            assert page.exception is None, page.exception
            types = [c.type for c in columns]
            _assert_same(_first_row_strings(rows, types, zone), wanted, f"gateway rows ({shape}, {zone})")

            json_columns, json_rows, _ = http.fetch_all(rest, http.execute(rest, query), "?rowFormat=JSON")
            assert [c["type"] for c in json_columns] == types
            _assert_same(_first_row_strings(json_rows, types, zone), wanted, f"REST JSON ({shape}, {zone})")

            with GatewayClient(server.url) as client:
                remote = client.session(rest)
                table = remote.execute(query).arrow_table()
            arrow_first = [_arrow_values(table.column(i).slice(0, 1))[0] for i in range(table.num_columns)]
            _assert_same([spark_string(v, t, zone) for v, t in zip(arrow_first, types)], wanted,
                         f"REST Arrow ({shape}, {zone})")

            operation = gateway.execute_statement(session, query)
            gateway.spool_result(session, operation)
            spooled = gateway.get_result_spool(session, operation, wait_s=120)
            assert spooled.done and spooled.error is None, spooled
            grid = gateway.result_page(session, operation, 0, 10).rows
            _assert_same(_first_row_strings(grid, types, zone), wanted, f"grid rows ({shape}, {zone})")
            reader = csv.reader(io.StringIO(b"".join(gateway.export_result(session, operation, "csv")).decode()))
            next(reader)
            first = next(reader)
            _assert_same([spark_string(_csv_value(v, t), t, zone) for v, t in zip(first, types)], wanted,
                         f"CSV download ({shape}, {zone})")
            parquet = pq.read_table(io.BytesIO(b"".join(gateway.export_result(session, operation, "parquet"))))
            assert parquet.num_rows == len(rows)
            parquet_first = [_arrow_values(parquet.column(i).slice(0, 1))[0] for i in range(parquet.num_columns)]
            _assert_same([spark_string(v, t, zone) for v, t in zip(parquet_first, types)], wanted,
                         f"Parquet download ({shape}, {zone})")
            gateway.close_operation(session, operation)
    finally:
        gateway.close_session(session)
        gateway.close_session(rest)


@pytest.fixture(scope="module")
def column_types(gateway):
    """The columns' type JSON (the DB-API description has type codes only)."""
    session = gateway.open_session(name="types")
    try:
        columns, _, _ = run_all(gateway, session, _select("constants"))
    finally:
        gateway.close_session(session)
    return [c.type for c in columns]


@pytest.mark.parametrize("row_format", ["ARROW", "JSON"])
@pytest.mark.parametrize("zone", ["UTC", "Asia/Kolkata"])  # Kolkata: year 1 there is year 0 in UTC
def test_dbapi_client_agrees_with_spark_string_cast(server, expected, column_types, zone, row_format):  # noqa: F811
    with connect(server.url, row_format=row_format, properties={"spark.sql.session.timeZone": zone}) as conn:
        cursor = conn.cursor()
        for shape in SHAPES:
            cursor.execute(_select(shape))
            assert [d[0] for d in cursor.description] == [f"c{i}" for i in range(len(EXPRESSIONS))]
            row = cursor.fetchone()
            cursor.fetchall()
            for value, type_json in zip(row, column_types):
                if type_json["type"] == "TIMESTAMP_LTZ" and isinstance(value, str):
                    # JSON pages carry no zone: a UTC instant before year 1 stays ISO text (documented)
                    assert row_format == "JSON" and value.startswith("0000-"), value
            got = [spark_string(v, t, zone) for v, t in zip(row, column_types)]
            _assert_same(got, expected[zone, shape], f"DB-API {row_format} ({shape}, {zone})")


def test_types_arrow_cannot_carry_are_marked_and_nested_casts_keep_names(gateway, session):
    columns, rows, _ = run_all(gateway, session, "SELECT interval '1' year AS `a b`, interval '1' year AS `a b`, "
                                                 "named_struct('x y', parse_json('[1]')) AS s")
    assert [c.name for c in columns] == ["a b", "a b", "s"]
    assert columns[0].type == {"type": "INTERVAL", "nullable": False, "spark_type": "interval year",
                               "serialized_as": "STRING"}
    assert columns[2].type["fields"][0]["fieldType"]["type"] == "VARIANT"
    assert rows == [["INTERVAL '1' YEAR", "INTERVAL '1' YEAR", {"x y": "[1]"}]]


def test_a_failing_value_of_a_small_result_keeps_spark_error_class(gateway, session):
    _, _, page = run_all(gateway, session, "SELECT 1 / 0")
    assert page.exception["error_class"] == "DIVIDE_BY_ZERO"


def test_a_statement_before_the_last_with_year_one_values_runs(gateway, session):
    _, rows, page = run_all(gateway, session, "SELECT to_timestamp('1', 'y'), interval '1' year; SELECT 2")
    assert page.exception is None and rows == [[2]]


def test_renderers_match_spark_for_doubles_and_day_time_intervals(gateway, session):
    values = [1.0, 0.1, 1e7, 1e-3, 9.999e-4, 123456789.123, -2.5e-10, 1e21, 3.0e-320]
    _, rows, _ = run_all(gateway, session, "SELECT " + ", ".join(f"CAST({v!r}D AS STRING)" for v in values))
    assert [java_double(v) for v in values] == rows[0]
    intervals = ["interval '1 2:03:04.5' day to second", "interval '-0.000001' second", "interval '100' minute",
                 "interval '7 0' day to hour", "interval '-10000' day", "interval '0 0:0:0' day to second"]
    columns, rows, _ = run_all(gateway, session, "SELECT " + ", ".join(intervals) + ", " +
                               ", ".join(f"CAST({i} AS STRING)" for i in intervals))
    micros = [round(v * 1_000_000) for v in rows[0][:len(intervals)]]
    assert [day_time_string(m, c.type["spark_type"]) for m, c in zip(micros, columns)] == rows[0][len(intervals):]
    assert dt.timedelta(microseconds=micros[0]) == dt.timedelta(days=1, hours=2, minutes=3, seconds=4.5)
