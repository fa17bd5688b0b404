"""workbench_client over real HTTP: sessions, rows, pages, cancel, errors, the DB-API cursor, tokens."""
from __future__ import annotations

import datetime as dt
import time

import pytest

import workbench_client as dbapi
from workbench_client import GatewayClient, InterfaceError, NotSupportedError, OperationalError, ProgrammingError
from rest_support import server, start  # noqa: F401 - fixtures


@pytest.fixture
def client(server):
    with GatewayClient(server.url) as c:
        yield c


def test_session_statement_rows(client, gateway):
    assert client.api_versions() == ["V1", "V2"]
    with client.open_session({"spark.sql.shuffle.partitions": "4"}, name="client") as session:
        assert gateway.session_name(session.handle) == "client"
        assert session.properties()["spark.sql.shuffle.partitions"] == "4"
        rows = session.sql("SELECT id, id % 2 = 0 AS even FROM range(5)")
        assert rows == [(0, True), (1, False), (2, True), (3, False), (4, True)]
        with session.execute("SELECT id FROM range(0, 2500, 1, 3)") as op:
            pages = list(op.pages(max_rows=1000))
            assert [len(p["results"]["data"]) <= 1000 for p in pages] == [True] * len(pages)
            assert sum(len(p["results"]["data"]) for p in pages) == 2500
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
        deadline = time.monotonic() + 30
        while op.status() != "RUNNING" and time.monotonic() < deadline:
            time.sleep(0.02)
        assert op.cancel() == "CANCELED"
        with pytest.raises(OperationalError) as info:
            list(op.rows())
        assert info.value.status == 409
        op.close()
        with pytest.raises(ProgrammingError) as info:
            session.sql("SELECT * FROM no_such_table_client")
        assert info.value.sqlstate == "42P01" and info.value.error_class == "TABLE_OR_VIEW_NOT_FOUND"
        assert session.sql("SELECT 1") == [(1,)]


def test_dbapi_cursor(server, gateway):
    assert dbapi.apilevel == "2.0"
    with dbapi.connect(server.url, session_name="dbapi") as conn:
        cur = conn.cursor()
        cur.execute("SELECT id, CAST(id AS DECIMAL(6,2)) AS price, DATE'2024-03-01' AS day FROM range(0, 5)")
        assert [d[0] for d in cur.description] == ["id", "price", "day"]
        assert cur.description[0][1] == "BIGINT" and cur.description[1][4:6] == (6, 2)
        assert cur.fetchone() == (0, 0.0, "2024-03-01")
        assert cur.fetchmany(2) == [(1, 1.0, "2024-03-01"), (2, 2.0, "2024-03-01")]
        assert cur.fetchall() == [(3, 3.0, "2024-03-01"), (4, 4.0, "2024-03-01")]
        assert cur.fetchone() is None and cur.rowcount == -1
        cur.execute("CREATE TEMPORARY VIEW dbapi_v AS SELECT 1 AS x")
        assert cur.description is None and cur.fetchall() == []
        assert [row for row in cur.execute("SELECT x FROM dbapi_v")] == [(1,)]
        assert dt.date.fromisoformat("2024-03-01")  # dates arrive as ISO text, per the seed
        with pytest.raises(ProgrammingError):
            cur.execute("SELEC 1")
        with pytest.raises(NotSupportedError):
            cur.execute("SELECT ?", (1,))
        with pytest.raises(NotSupportedError):
            conn.rollback()
        conn.commit()
        handle = conn.session.handle
        assert gateway.session_name(handle) == "dbapi"
    with pytest.raises(Exception):
        gateway.heartbeat(handle)  # closing the connection closed its session
    with pytest.raises(InterfaceError):
        conn.cursor()


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
