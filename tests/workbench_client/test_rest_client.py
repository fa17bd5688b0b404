"""workbench_client over real HTTP: sessions, rows, pages, cancel, errors, the DB-API cursor, tokens."""
from __future__ import annotations

import datetime as dt
import json
from decimal import Decimal

import pyarrow as pa

import pytest

import workbench_client as dbapi
from workbench_client import GatewayClient, InterfaceError, NotSupportedError, OperationalError, ProgrammingError
from conftest import wait_for
from rest_support import server, start  # noqa: F401 - fixtures


@pytest.fixture
def client(server):
    with GatewayClient(server.url) as c:
        yield c


def test_session_statement_rows(client, gateway):
    assert client.api_versions() == ["V1", "V2", "V3", "V4"]
    with client.open_session({"spark.sql.shuffle.partitions": "4"}, name="client") as session:
        assert gateway.session_name(session.handle) == "client"
        assert session.properties()["spark.sql.shuffle.partitions"] == "4"
        rows = session.sql("SELECT id, id % 2 = 0 AS even FROM range(5)")
        assert rows == [(0, True), (1, False), (2, True), (3, False), (4, True)]
        with session.execute("SELECT id FROM range(0, 2500, 1, 3)") as op:
            pages = list(op.pages(max_rows=1000))
            assert [p["table"].num_rows <= 1000 for p in pages] == [True] * len(pages)
            assert sum(p["table"].num_rows for p in pages) == 2500
            assert pages[-1]["resultType"] == "EOS" and op.columns[0]["name"] == "id"
        session.configure("SET spark.sql.shuffle.partitions=6")
        assert session.properties()["spark.sql.shuffle.partitions"] == "6"
        assert "SELECT" in session.complete("SEL")
        session.heartbeat()
    with pytest.raises(OperationalError) as info:
        session.heartbeat()
    assert info.value.status == 404


def test_waits_through_not_ready(client):
    with client.open_session() as session:
        rows = session.sql("SELECT count(*) FROM range(0, 30000000, 1, 2) WHERE id % 7 = 0")
        assert rows == [(4285715,)]


def test_shares_a_session_opened_in_python(client, gateway):
    handle = gateway.open_session(name="from-the-ui")
    try:
        gateway.configure_session(handle, "CREATE TEMPORARY VIEW shared_v AS SELECT 'ui' AS who")
        assert client.session(str(handle)).sql("SELECT who FROM shared_v") == [("ui",)]
    finally:
        gateway.close_session(handle)


def test_cancel_and_errors(client):
    with client.open_session() as session:
        op = session.execute("SELECT reflect('java.lang.Thread', 'sleep', CAST(1000 AS BIGINT)) FROM range(0, 100000, 1, 2)")
        assert wait_for(lambda: op.status() == "RUNNING", 30)
        assert op.cancel() == "CANCELED"
        with pytest.raises(OperationalError) as info:
            list(op.rows())
        assert info.value.status == 409
        op.close()
        with pytest.raises(ProgrammingError) as info:
            session.sql("SELECT * FROM no_such_table_client")
        assert info.value.sqlstate == "42P01" and info.value.error_class == "TABLE_OR_VIEW_NOT_FOUND"
        assert session.sql("SELECT 1") == [(1,)]


@pytest.mark.parametrize("row_format", ["ARROW", "JSON"])
def test_dbapi_cursor(server, gateway, row_format):
    assert dbapi.apilevel == "2.0"
    with dbapi.connect(server.url, session_name="dbapi", row_format=row_format, page_rows=2) as conn:
        cur = conn.cursor()
        cur.execute("SELECT id, CAST(id AS DECIMAL(6,2)) AS price, DATE'2024-03-01' AS day FROM range(0, 5)")
        assert [d[0] for d in cur.description] == ["id", "price", "day"]
        assert cur.description[0][1] == "BIGINT" and cur.description[1][4:6] == (6, 2)
        day = dt.date(2024, 3, 1)
        first = cur.fetchone()
        assert first == (0, Decimal("0.00"), day) and str(first[1]) == "0.00"
        assert cur.fetchmany(2) == [(1, Decimal("1.00"), day), (2, Decimal("2.00"), day)]  # across pages of 2
        assert cur.fetchall() == [(3, Decimal("3.00"), day), (4, Decimal("4.00"), day)]
        assert cur.fetchone() is None and cur.rowcount == -1
        cur.execute("CREATE TEMPORARY VIEW dbapi_v AS SELECT 1 AS x")
        assert cur.description is None and cur.fetchall() == []
        assert [row for row in cur.execute("SELECT x FROM dbapi_v")] == [(1,)]
        with pytest.raises(ProgrammingError):
            cur.execute("SELEC 1")
        bound = cur.execute("SELECT :text AS t, :day AS d, :n AS n, ':text' AS kept",
                            {"text": "it's a \\ test", "day": day, "n": None}).fetchall()
        assert bound == [("it's a \\ test", day, None, ":text")]  # named parameters, bound as literals
        with pytest.raises(ProgrammingError, match="mapping"):
            cur.execute("SELECT ?", (1,))
        with pytest.raises(ProgrammingError, match=":missing"):
            cur.execute("SELECT :missing", {"other": 1})
        with pytest.raises(NotSupportedError):
            conn.rollback()
        conn.commit()
        handle = conn.session.handle
        assert gateway.session_name(handle) == "dbapi"
    with pytest.raises(Exception):
        gateway.heartbeat(handle)  # closing the connection closed its session
    with pytest.raises(InterfaceError):
        conn.cursor()


NATIVE_QUERY = """SELECT DATE'2024-02-29' AS d, TIMESTAMP_NTZ'2024-01-02 03:04:05.123456' AS ts,
    TIMESTAMP'2024-01-02 03:04:05' AS ltz, CAST(12345678901234.5678 AS DECIMAL(20, 4)) AS big,
    CAST(-1.5 AS DECIMAL(6, 2)) AS small, X'00FF10' AS bin, array(1, 2) AS arr, map('k', 1.5D) AS m,
    named_struct('a', 1, 'b', DATE'2020-01-01') AS st, CAST(NULL AS DATE) AS nothing, 2.5D AS x, 'é' AS s"""


def test_native_values_are_the_same_over_arrow_and_json(server):
    """Per DB-API, as impyla gives them from the Thrift Server: dates, datetimes, Decimals, bytes."""
    answers = {}
    for row_format in ("ARROW", "JSON"):
        with dbapi.connect(server.url, row_format=row_format, properties={"spark.sql.session.timeZone": "UTC"}) as conn:
            answers[row_format] = conn.cursor().execute(NATIVE_QUERY).fetchall()
    arrow_row, json_row = answers["ARROW"][0], answers["JSON"][0]
    assert arrow_row[:7] == (dt.date(2024, 2, 29), dt.datetime(2024, 1, 2, 3, 4, 5, 123456),
                             dt.datetime(2024, 1, 2, 3, 4, 5, tzinfo=dt.timezone.utc),
                             Decimal("12345678901234.5678"), Decimal("-1.50"), b"\x00\xff\x10", [1, 2])
    assert arrow_row[7:] == ({"k": 1.5}, {"a": 1, "b": dt.date(2020, 1, 1)}, None, 2.5, "é")
    assert json_row[:7] == arrow_row[:7] and json_row[9:] == arrow_row[9:]
    assert json_row[7] == {"k": 1.5} and json_row[8] == {"a": 1, "b": "2020-01-01"}  # nested JSON stays JSON


def test_fetch_arrow_table_and_pandas(server):
    with dbapi.connect(server.url, page_rows=7000) as conn:
        cur = conn.cursor()
        cur.execute("SELECT id, concat('r', id) AS s, date_add(DATE'2020-01-01', CAST(id % 10 AS INT)) AS d "
                    "FROM range(0, 30000, 1, 3)")
        assert cur.fetchmany(5) == [(i, f"r{i}", dt.date(2020, 1, 1 + i)) for i in range(5)]
        table = cur.fetch_arrow_table()  # what was not fetched yet, across pages
        assert table.num_rows == 29995 and table.column("id")[0].as_py() == 5
        assert table.schema.field("d").type == pa.date32() and table.column("id").to_pylist() == list(range(5, 30000))
        frame = cur.execute("SELECT id, id * 0.5D AS x FROM range(0, 20000, 1, 2) ORDER BY id").fetch_pandas()
        assert list(frame.columns) == ["id", "x"] and len(frame) == 20000
        assert str(frame["id"].dtype) == "int64" and frame["x"].iloc[-1] == 9999.5
        empty = cur.execute("SELECT id, CAST(id AS STRING) AS s FROM range(10) WHERE id < 0").fetch_arrow_table()
        assert empty.num_rows == 0 and empty.schema.names == ["id", "s"]
        assert empty.schema.field("id").type == pa.int64()
        with pytest.raises(InterfaceError, match="fetched already"):
            cur.fetch_arrow_table()
    with dbapi.connect(server.url, row_format="json") as conn:
        with pytest.raises(NotSupportedError, match="row_format='ARROW'"):
            conn.cursor().execute("SELECT 1").fetch_arrow_table()
    with pytest.raises(InterfaceError, match="row_format 'XML'"):
        dbapi.connect(server.url, row_format="XML")


def test_arrow_page_over_raw_http(server, gateway):
    """An Arrow page is an IPC stream; the other fields ride in its schema's metadata; the last rows come with EOS."""
    session = gateway.open_session(name="raw-arrow")
    try:
        op = gateway.execute_statement(session, "SELECT id, DATE'2024-01-01' AS d FROM range(3)")
        with GatewayClient(server.url) as c:
            path = f"/v1/sessions/{session}/operations/{op}/result/0?rowFormat=arrow"
            content_type, payload = c.exchange("GET", path)
            while True:
                with pa.ipc.open_stream(payload) as reader:
                    table = reader.read_all()
                fields = json.loads(table.schema.metadata[b"workbench.page"])
                if fields["resultType"] != "NOT_READY":
                    break
                content_type, payload = c.exchange("GET", fields["nextResultUri"])
        assert content_type == "application/vnd.apache.arrow.stream"
        assert fields["resultType"] == "EOS" and fields["nextResultUri"] is None and fields["isQueryResult"] is True
        assert [c["name"] for c in fields["results"]["columns"]] == ["id", "d"]
        assert fields["results"]["rowFormat"] == "ARROW"
        assert table.column("id").to_pylist() == [0, 1, 2] and table.schema.field("d").type == pa.date32()
    finally:
        gateway.close_session(session)


def test_client_with_token(gateway):
    handle = start(gateway, token="client-secret")
    try:
        with pytest.raises(InterfaceError) as info:
            GatewayClient(handle.url).info()
        assert info.value.status == 401
        with GatewayClient(handle.url, token="client-secret") as c:
            assert c.info()["productName"] == "Spark SQL Workbench"
    finally:
        handle.stop()


def test_bad_url():
    with pytest.raises(InterfaceError, match="not an http"):
        GatewayClient("ftp://x")
    with pytest.raises(OperationalError):
        GatewayClient("http://127.0.0.1:1", retries=0).info()


def test_arrow_rows_give_what_to_pylist_gives():
    """Dates and timestamps are built by numpy (~20x faster), with the same values, types and time
    zone objects as pyarrow's to_pylist(), nulls included; what numpy cannot hold takes to_pylist()."""
    from workbench_client.client import arrow_rows

    micros = [0, 1, None, 1_600_000_000_123_456, -62_135_596_800_000_000 + 86_400_000_000, -1,
              253_402_300_799_999_999 - 86_400_000_000, 1_699_999_999_999_999]
    columns = {}
    for unit, per in (("s", 1_000_000), ("ms", 1000), ("us", 1)):
        for tz in (None, "UTC", "Etc/UTC", "+02:00", "-05:00", "Europe/Paris"):
            values = [None if v is None else v // per for v in micros]
            columns[f"{unit}-{tz}"] = pa.array(values, pa.int64()).cast(pa.timestamp(unit, tz=tz))
    columns["date32"] = pa.array([0, 1, None, -719_162, 2_932_896, 18_262, -5, 20_000], pa.int32()).cast(pa.date32())
    columns["date64"] = pa.array([0, 86_400_000, None, -86_400_000, 0, 0, 0, 0], pa.int64()).cast(pa.date64())
    columns["ns"] = pa.array([1, 2, None, 3, 4, 5, 6, 7], pa.int64()).cast(pa.timestamp("ns"))
    table = pa.table(columns)
    expected = list(zip(*(table.column(i).to_pylist() for i in range(table.num_columns))))
    rows = arrow_rows(table)
    assert rows == expected
    assert [[type(v) for v in row] for row in rows] == [[type(v) for v in row] for row in expected]
    assert [[getattr(v, "tzinfo", None) for v in row] for row in rows] == \
        [[getattr(v, "tzinfo", None) for v in row] for row in expected]
    assert rows[3][table.column_names.index("us-Europe/Paris")].isoformat() == "2020-09-13T14:26:40.123456+02:00"
    all_null = pa.table({"t": pa.array([None, None], pa.timestamp("us", tz="UTC")), "d": pa.array([None, None], pa.date32())})
    assert arrow_rows(all_null) == [(None, None), (None, None)]
    # past what Python's datetime holds (year 10000 here): to_pylist() fails; the client gives Spark's text
    for beyond, text in ((pa.array([2_932_897], pa.int32()).cast(pa.date32()), "+10000-01-01"),
                         (pa.array([253_402_300_799_999_999], pa.int64()).cast(pa.timestamp("us", tz="+02:00")),
                          "9999-12-31T23:59:59.999999Z")):
        with pytest.raises(OverflowError):
            beyond.to_pylist()
        assert arrow_rows(pa.table({"v": beyond})) == [(text,)]


def test_fetch_pandas_page_by_page_equals_the_whole_table(server):
    """fetch_pandas converts each page as it comes and concatenates: the frame must be the one the
    whole table gives, also when only some pages hold nulls (int64 in one page, float64 in another)."""
    import pandas as pd

    query = ("SELECT id, IF(id >= 9000, NULL, id) AS n, IF(id % 4000 = 1, NULL, id % 2 = 0) AS b, "
             "concat('r', id) AS s, IF(id = 5, NULL, date_add(DATE'2020-01-01', CAST(id % 10 AS INT))) AS d, "
             "timestamp_seconds(1600000000 + id) AS ts, CAST(id AS DECIMAL(20, 2)) AS dec FROM range(0, 12000, 1, 3)")
    with dbapi.connect(server.url, page_rows=2500, properties={"spark.sql.session.timeZone": "UTC"}) as conn:
        cur = conn.cursor()
        whole = cur.execute(query).fetch_arrow_table().to_pandas(date_as_object=True)
        paged = cur.execute(query).fetch_pandas()
        pd.testing.assert_frame_equal(paged, whole)
        assert str(paged["n"].dtype) == "float64" and paged["b"].dtype == object
        cur.execute(query)
        first = cur.fetchmany(3)
        rest = cur.fetch_pandas()  # from the read position on
        assert [r[0] for r in first] == [0, 1, 2] and rest["id"].tolist() == list(range(3, 12000))
        pd.testing.assert_frame_equal(rest, whole.iloc[3:].reset_index(drop=True))
        empty = cur.execute("SELECT id, CAST(id AS STRING) AS s FROM range(10) WHERE id < 0").fetch_pandas()
        assert len(empty) == 0 and list(empty.columns) == ["id", "s"]
        twice = cur.execute("SELECT id AS a, id * 2 AS a FROM range(0, 6000, 1, 2)").fetch_pandas()
        assert list(twice.columns) == ["a", "a"] and twice.iloc[-1].tolist() == [5999, 11998]
