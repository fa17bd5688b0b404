"""A REST round trip on the connect engine: the project's client (DB-API cursor, Arrow pages, pandas)
over a real uvicorn server over the gateway whose sessions are Spark Connect sessions."""
from __future__ import annotations

import datetime as dt

import pytest

import workbench_client as dbapi
from rest_support import Http, start


@pytest.fixture(scope="module")
def connect_rest(connect_gateway):
    handle = start(connect_gateway)
    yield handle
    handle.stop()


def test_dbapi_cursor_and_arrow_pages_into_pandas(connect_rest):
    with dbapi.connect(connect_rest.url) as conn:
        cur = conn.cursor()
        cur.execute("SELECT 1 AS one, DATE'2024-02-29' AS day, 'x' AS s")
        assert [d[0] for d in cur.description] == ["one", "day", "s"]
        assert cur.fetchall() == [(1, dt.date(2024, 2, 29), "x")]
        cur.execute("SELECT id, id * 2.5 AS d, CAST(id AS STRING) AS s FROM range(50000)")
        frame = cur.fetch_pandas()
        assert len(frame) == 50000 and list(frame.columns) == ["id", "d", "s"]
        assert frame["id"].tolist() == list(range(50000)) and frame["d"].iloc[-1] == 49999 * 2.5


def test_a_sql_error_over_rest_carries_sparks_condition(connect_rest):
    http = Http(connect_rest.url)
    session = http.open_session(sessionName="connect-rest")
    operation = http.execute(session, "SELECT * FROM no_such_table_anywhere")
    assert http.wait_status(session, operation) == "ERROR"
    answer = http("GET", f"/v1/sessions/{session}/operations/{operation}/result/0")
    assert "TABLE_OR_VIEW_NOT_FOUND" in str(answer.body)
    assert http("GET", "/v1/info").body["sparkVersion"].startswith("4.")
