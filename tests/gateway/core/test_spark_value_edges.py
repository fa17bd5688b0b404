"""Dates and timestamps beyond year 9999 and before year 1, on every path, as Spark's string cast shows them.

Spark computes them (``make_date(-1, 1, 1)``, ``timestamp'+10000-01-01'``, ``timestamp_micros`` of the
extreme longs) and casts them to ``-0001-01-01``, ``+10000-01-01 00:00:00``; Arrow writes
``10000-01-01`` or ``<value out of range: …>`` and Python's ``datetime`` holds none of them. Each
expression goes through the gateway's rows (the grid), REST JSON and Arrow, the DB-API client (Arrow
and JSON pages) and the CSV and Parquet downloads, in four zones, and is compared with
``CAST(expr AS STRING)`` in the same session (``tests/spark_strings.py`` renders each path's value).
"""
from __future__ import annotations

import csv
import io

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from conftest import run_all
from rest_support import Http, server  # noqa: F401 - fixture
from spark_strings import spark_string
from tests.gateway.core.test_spark_values import _arrow_values
from workbench_client import GatewayClient, connect

EXPRESSIONS = [
    "make_date(-1, 1, 1)",
    "make_date(10000, 1, 1)",
    "make_date(-44, 3, 15)",
    "date_add(date'0001-01-01', -1)",  # year 0
    "date_from_unix_date(2147483647)",
    "date_from_unix_date(-2147483648)",
    "timestamp'+10000-01-01 00:00:00.5'",
    "timestamp'-0001-01-01 00:00:00'",
    "to_timestamp('1', 'y') - interval 1 day",  # year 0
    "timestamp_micros(9223372036854775807)",
    "timestamp_micros(-9223372036854775808)",
    "timestamp_ntz'+10000-01-01 00:00:00'",
    "timestamp_ntz'-0001-12-31 23:59:59.999999'",
    "array(make_date(10000, 1, 1), date'2020-01-01', null)",
    "named_struct('d', make_date(-1, 1, 1), 't', timestamp'+10000-01-01 00:00:00', "
    "'n', timestamp_ntz'-0001-01-01 00:00:00')",
    "map(make_date(-1, 1, 1), timestamp_micros(9223372036854775807))",
    "timestamp'2020-06-01 12:34:56.5'",  # an ordinary value in the same columns
]
ZONES = ["UTC", "America/Los_Angeles", "Pacific/Kiritimati", "Asia/Kolkata"]
SHAPES = {"constants": "SELECT {columns}", "streamed": "SELECT {columns} FROM range(1500)"}


def _select(shape: str, cast: bool = False) -> str:
    columns = ", ".join((f"CAST({e} AS STRING)" if cast else e) + f" AS c{i}" for i, e in enumerate(EXPRESSIONS))
    return SHAPES[shape].format(columns=columns) + (" LIMIT 1" if cast else "")


def _arrow_first(table: pa.Table) -> list:
    """The first row as raw Arrow numbers (days, micros) and texts: what a REST client or a Parquet reader gets."""
    return [_arrow_values(table.column(i).slice(0, 1))[0] for i in range(table.num_columns)]


def _csv_value(text: str, type_json: dict):
    import json

    if text == "":
        return None
    return json.loads(text) if type_json["type"] in ("ARRAY", "MAP", "ROW") else text


@pytest.fixture(scope="module")
def expected(gateway):
    """Spark's own string cast of every expression, per zone and shape."""
    session = gateway.open_session(name="edge-cast")
    answers = {}
    try:
        for zone in ZONES:
            run_all(gateway, session, f"SET spark.sql.session.timeZone={zone}")
            for shape in SHAPES:
                _, rows, page = run_all(gateway, session, _select(shape, cast=True))
                assert page.exception is None, page.exception
                answers[zone, shape] = rows[0]
    finally:
        gateway.close_session(session)
    return answers


def _assert_same(got, wanted, path):
    mismatches = [(EXPRESSIONS[i], g, w) for i, (g, w) in enumerate(zip(got, wanted)) if g != w]
    assert not mismatches, f"{path}: (expression, got, Spark's CAST AS STRING):\n" + "\n".join(map(repr, mismatches))


def test_spark_casts_these_values_with_signed_years(expected):
    """The reference itself: Spark writes ``+`` past 9999 and ``-`` before year 0, four digits at least."""
    utc = expected["UTC", "constants"]
    assert utc[:6] == ["-0001-01-01", "+10000-01-01", "-0044-03-15", "0000-12-31", "+5881580-07-11", "-5877641-06-23"]
    assert utc[6:11] == ["+10000-01-01 00:00:00.5", "-0001-01-01 00:00:00", "0000-12-31 00:00:00",
                         "+294247-01-10 04:00:54.775807", "-290308-12-21 19:59:05.224192"]


@pytest.mark.parametrize("zone", ZONES)
def test_gateway_rest_and_downloads_show_years_out_of_datetime_range_as_spark(gateway, server, expected,  # noqa: F811
                                                                              zone):
    http = Http(server.url)
    session = gateway.open_session(name=f"edges-{zone}")
    rest = http.open_session(sessionName=f"edges-rest-{zone}")
    try:
        run_all(gateway, session, f"SET spark.sql.session.timeZone={zone}")
        http.fetch_all(rest, http.execute(rest, f"SET spark.sql.session.timeZone={zone}"))
        for shape in SHAPES:
            wanted, query = expected[zone, shape], _select(shape)
            columns, rows, page = run_all(gateway, session, query)
            assert page.exception is None, page.exception
            types = [c.type for c in columns]
            _assert_same([spark_string(v, t, zone) for v, t in zip(rows[0], types)], wanted,
                         f"gateway rows ({shape}, {zone})")

            json_columns, json_rows, _ = http.fetch_all(rest, http.execute(rest, query), "?rowFormat=JSON")
            assert [c["type"] for c in json_columns] == types
            _assert_same([spark_string(v, t, zone) for v, t in zip(json_rows[0], types)], wanted,
                         f"REST JSON ({shape}, {zone})")

            with GatewayClient(server.url) as client:
                table = client.session(rest).execute(query).arrow_table()
            _assert_same([spark_string(v, t, zone) for v, t in zip(_arrow_first(table), types)], wanted,
                         f"REST Arrow ({shape}, {zone})")

            operation = gateway.execute_statement(session, query)
            gateway.spool_result(session, operation)
            spooled = gateway.get_result_spool(session, operation, wait_s=120)
            assert spooled.done and spooled.error is None, spooled
            grid = gateway.result_page(session, operation, 0, 10).rows
            _assert_same([spark_string(v, t, zone) for v, t in zip(grid[0], types)], wanted,
                         f"grid rows ({shape}, {zone})")
            reader = csv.reader(io.StringIO(b"".join(gateway.export_result(session, operation, "csv")).decode()))
            next(reader)
            _assert_same([spark_string(_csv_value(v, t), t, zone) for v, t in zip(next(reader), types)], wanted,
                         f"CSV download ({shape}, {zone})")
            parquet = pq.read_table(io.BytesIO(b"".join(gateway.export_result(session, operation, "parquet"))))
            _assert_same([spark_string(v, t, zone) for v, t in zip(_arrow_first(parquet), types)], wanted,
                         f"Parquet download ({shape}, {zone})")
            gateway.close_operation(session, operation)
    finally:
        gateway.close_session(session)
        gateway.close_session(rest)


@pytest.mark.parametrize("row_format", ["ARROW", "JSON"])
@pytest.mark.parametrize("zone", ["UTC", "Asia/Kolkata"])
def test_dbapi_client_gives_spark_text_where_datetime_cannot_hold_the_value(server, expected, zone,  # noqa: F811
                                                                            row_format):
    """Python's ``date``/``datetime`` hold years 1-9999: beyond, the client gives the ISO text a JSON
    page carries (signed years, zoned timestamps in UTC with ``Z``) instead of failing the fetch."""
    with connect(server.url, row_format=row_format, properties={"spark.sql.session.timeZone": zone}) as conn:
        cursor = conn.cursor()
        cursor.execute("SELECT " + ", ".join(f"typeof({e})" for e in EXPRESSIONS))
        types = cursor.fetchone()
        for shape in SHAPES:
            cursor.execute(_select(shape))
            row = cursor.fetchone()
            cursor.fetchall()
            assert row[1] == "+10000-01-01" and row[0] == "-0001-01-01"
            type_json = [_type_json(t) for t in types]
            _assert_same([spark_string(v, t, zone) for v, t in zip(row, type_json)], expected[zone, shape],
                         f"DB-API {row_format} ({shape}, {zone})")


def _type_json(spark_type: str) -> dict:
    """The type JSON ``spark_string`` needs, from ``typeof`` (only the types of ``EXPRESSIONS``)."""
    simple = {"date": "DATE", "timestamp": "TIMESTAMP_LTZ", "timestamp_ntz": "TIMESTAMP"}
    if spark_type in simple:
        return {"type": simple[spark_type]}
    if spark_type.startswith("array<"):
        return {"type": "ARRAY", "elementType": _type_json(spark_type[6:-1])}
    if spark_type.startswith("map<"):
        key, value = spark_type[4:-1].split(",", 1)
        return {"type": "MAP", "keyType": _type_json(key), "valueType": _type_json(value)}
    if spark_type.startswith("struct<"):
        fields = [f.split(":", 1) for f in spark_type[7:-1].split(",")]
        return {"type": "ROW", "fields": [{"name": n, "fieldType": _type_json(t)} for n, t in fields]}
    raise AssertionError(f"no type JSON for {spark_type}")
