"""Clients written for Apache Flink's SQL Gateway, installed from PyPI, against the workbench over real
HTTP: py-flink-sql-gateway (a DB-API 2.0 driver) over every API version it offers, and
flink-sql-gateway-api (generated from Flink's OpenAPI document). A failure of theirs is a failure of ours.
"""
from __future__ import annotations

import datetime as dt
import time
from decimal import Decimal

import httpx
import pytest

import flink_gateway
from flink_gateway import FlinkSqlGatewayError
from flink_gateway.models import CompleteStatementRequest, ConfigureSessionRequest, ExecuteStatementRequest
from flink_gateway_api import Client
from flink_gateway_api.api.default import (cancel_operation, close_operation, close_session, complete_statement,
                                           configure_session, execute_statement, fetch_results, get_api_version,
                                           get_info, get_operation_status, get_session_config, open_session,
                                           refresh_materialized_table, trigger_session)
from flink_gateway_api.errors import UnexpectedStatus
from flink_gateway_api.models import (CompleteStatementRequestBody, ConfigureSessionRequestBody,
                                      ExecuteStatementRequestBody, OpenSessionRequestBody,
                                      OpenSessionRequestBodyProperties, RefreshMaterializedTableRequestBody)
from flink_gateway_api.models.row_format import RowFormat
from rest_support import server  # noqa: F401 - fixture

TYPED_QUERY = ("SELECT id, CAST(id * 1.25 AS DECIMAL(10, 2)) AS price, date_add(DATE'2024-02-28', CAST(id AS INT)) "
               "AS day, TIMESTAMP_NTZ'2024-01-02 03:04:05.250' AS ts, concat('r', id) AS s, id % 2 = 0 AS even "
               "FROM range(3)")
LONG_QUERY = "SELECT reflect('java.lang.Thread', 'sleep', CAST(1000 AS BIGINT)) FROM range(0, 100000, 1, 2)"


@pytest.fixture(scope="module", autouse=True)
def warm_metastore(gateway):
    """The drivers' own 30 s timeouts must not meet the embedded metastore's cold start."""
    handle = gateway.open_session(name="warm-up")
    try:
        gateway.list_databases(handle)
    finally:
        gateway.close_session(handle)


# -- py-flink-sql-gateway: the DB-API driver -----------------------------------------------------------

@pytest.mark.parametrize("api_version", ["v1", "v2", "v3"])
def test_dbapi_driver_typed_rows_pages_and_errors(server, api_version):
    with flink_gateway.connect(server.url, api_version=api_version,
                               properties={"spark.sql.shuffle.partitions": "3"}) as conn:
        assert conn.client.get_api_versions() == ["V1", "V2", "V3", "V4"]
        assert conn.client.get_session_config(conn.session_handle)["spark.sql.shuffle.partitions"] == "3"
        cur = conn.cursor()
        cur.execute(TYPED_QUERY)
        assert [d[0] for d in cur.description] == ["id", "price", "day", "ts", "s", "even"]
        assert cur.description[1][1] == "DECIMAL" and cur.description[1][4:6] == (10, 2)
        assert cur.fetchall() == [
            (0, Decimal("0.00"), dt.date(2024, 2, 28), dt.datetime(2024, 1, 2, 3, 4, 5, 250000), "r0", True),
            (1, Decimal("1.25"), dt.date(2024, 2, 29), dt.datetime(2024, 1, 2, 3, 4, 5, 250000), "r1", False),
            (2, Decimal("2.50"), dt.date(2024, 3, 1), dt.datetime(2024, 1, 2, 3, 4, 5, 250000), "r2", True)]
        # Several pages (result.page_rows is 1000): the driver drops an EOS page's rows, so none may carry any.
        cur.execute("SELECT id FROM range(0, 2500, 1, 3)")
        assert [row[0] for row in cur.fetchall()] == list(range(2500))
        cur.execute("CREATE TEMPORARY VIEW flink_v AS SELECT 1 AS one")
        assert cur.description is None
        cur.execute("SELECT one FROM flink_v")
        assert cur.fetchone() == (1,) and cur.fetchone() is None
        with pytest.raises(FlinkSqlGatewayError, match="TABLE_OR_VIEW_NOT_FOUND|no_such_flink_table"):
            cur.execute("SELECT * FROM no_such_flink_table")
        cur.execute("SELECT 42")  # the session goes on
        assert cur.fetchall() == [(42,)]


def test_dbapi_driver_low_level_calls(server):
    with flink_gateway.connect(server.url) as conn:  # the driver's default: v3
        client, handle = conn.client, conn.session_handle
        assert client.get_info().product_name == "Spark SQL Workbench"
        client.configure_session(handle, ConfigureSessionRequest(statement="SET spark.sql.shuffle.partitions=7"))
        assert client.get_session_config(handle)["spark.sql.shuffle.partitions"] == "7"
        assert "SELECT" in client.complete_statement(handle, CompleteStatementRequest(statement="SEL", position=3))
        client.heartbeat(handle)
        operation = client.execute_statement(handle, ExecuteStatementRequest(statement=LONG_QUERY))
        deadline = time.monotonic() + 60
        while client.get_operation_status(handle, operation) != "RUNNING" and time.monotonic() < deadline:
            time.sleep(0.05)
        assert client.cancel_operation(handle, operation) == "CANCELED"
        assert client.close_operation(handle, operation) == "CLOSED"
        with pytest.raises(FlinkSqlGatewayError, match="501.*materialized table"):
            client.refresh_materialized_table(handle, "cat.db.mt")


def test_flink_sql_client_call_order_over_raw_http(server):
    """What Flink's SQL Client sends, in its order: unprefixed /api_versions, then the highest version it
    knows; rowFormat as given; complete-statement as a GET with a body; errors as {"errors": [...]}."""
    with httpx.Client(base_url=server.url, timeout=60) as http:
        versions = http.get("/api_versions").json()["versions"]
        version = "/" + versions[-1].lower()
        assert version == "/v4"
        handle = http.post(f"{version}/sessions", json={"properties": {"spark.sql.ansi.enabled": "true"},
                                                         "sessionName": "sql-client"}).json()["sessionHandle"]
        op = http.post(f"{version}/sessions/{handle}/statements",
                       json={"statement": "SELECT 1 AS one, 'a' AS s", "executionConfig": {}}).json()["operationHandle"]
        page = http.get(f"{version}/sessions/{handle}/operations/{op}/result/0", params={"rowFormat": "json"}).json()
        while page["resultType"] == "NOT_READY":
            page = http.get(page["nextResultUri"]).json()
        assert page["resultType"] == "PAYLOAD" and page["isQueryResult"] is True and page["queryResult"] is True
        assert page["resultKind"] == "SUCCESS_WITH_CONTENT" and len(page["jobID"]) == 32
        assert page["results"]["rowFormat"] == "JSON" and page["results"]["data"] == [
            {"kind": "INSERT", "fields": [1, "a"]}]
        assert page["nextResultUri"] == f"{version}/sessions/{handle}/operations/{op}/result/1?rowFormat=JSON"
        end = http.get(page["nextResultUri"]).json()
        assert end["resultType"] == "EOS" and end["results"]["data"] == [] and end["nextResultUri"] is None
        assert http.get(page["nextResultUri"]).json() == end  # the end again, as a retry gets it
        show = http.post(f"{version}/sessions/{handle}/statements", json={"statement": "SHOW DATABASES"}).json()
        shown = http.get(f"{version}/sessions/{handle}/operations/{show['operationHandle']}/result/0",
                         params={"rowFormat": "PLAIN_TEXT"}).json()
        while shown["resultType"] == "NOT_READY":
            shown = http.get(shown["nextResultUri"]).json()
        assert shown["isQueryResult"] is False and shown["resultKind"] == "SUCCESS_WITH_CONTENT"
        assert shown["jobID"] is None
        completion = http.request("GET", f"{version}/sessions/{handle}/complete-statement",
                                  json={"statement": "SELECT * FR", "position": 11}).json()
        assert "FROM" in completion["candidates"]
        assert http.post(f"{version}/sessions/{handle}/heartbeat", json={}).status_code == 200
        wrong = http.post(f"{version}/sessions/{handle}/statements", json={"statement": "SELEC 1"})
        failed = http.get(f"{version}/sessions/{handle}/operations/{wrong.json()['operationHandle']}/result/0",
                          params={"rowFormat": "JSON"})
        while failed.status_code == 200 and failed.json()["resultType"] == "NOT_READY":
            failed = http.get(failed.json()["nextResultUri"])
        assert failed.status_code == 400 and failed.json()["errors"] and "SELEC" in failed.json()["errors"][0]
        assert failed.json()["error_class"] and failed.json()["sqlstate"] == "42601"  # ours beside Flink's
        bad_format = http.get(f"{version}/sessions/{handle}/operations/{op}/result/1", params={"rowFormat": "xml"})
        assert bad_format.status_code == 400 and "JSON, PLAIN_TEXT or ARROW" in bad_format.json()["errors"][0]
        script = http.post(f"{version}/sessions/{handle}/scripts", json={"script": "SELECT 1"})
        assert script.status_code == 501 and "not supported" in script.json()["errors"][0]
        assert http.post(f"/v2/sessions/{handle}/scripts", json={}).status_code == 404  # not a v2 endpoint
        assert http.delete(f"{version}/sessions/{handle}").json() == {"status": "CLOSED"}
        gone = http.get(f"{version}/sessions/{handle}")
        assert gone.status_code == 404 and gone.json()["errors"]


# -- flink-sql-gateway-api: generated from Flink's OpenAPI document -------------------------------------

@pytest.mark.parametrize("prefix", ["", "/v3"])
def test_generated_openapi_client(server, prefix):
    with Client(base_url=server.url + prefix, raise_on_unexpected_status=True,
                timeout=httpx.Timeout(60.0)) as client:
        assert get_api_version.sync(client=client).versions == ["V1", "V2", "V3", "V4"]
        assert get_info.sync(client=client).product_name == "Spark SQL Workbench"
        properties = OpenSessionRequestBodyProperties.from_dict({"spark.sql.shuffle.partitions": "5"})
        handle = open_session.sync(client=client, body=OpenSessionRequestBody(
            properties=properties, session_name="generated")).session_handle
        config = get_session_config.sync(handle, client=client).properties
        assert config["spark.sql.shuffle.partitions"] == "5"
        configure_session.sync_detailed(handle, client=client, body=ConfigureSessionRequestBody(
            statement="CREATE TEMPORARY VIEW gen_v AS SELECT id FROM range(4)"))
        trigger_session.sync_detailed(handle, client=client)
        assert "gen_v" in complete_statement.sync(handle, client=client, body=CompleteStatementRequestBody(
            statement="SELECT * FROM gen", position=17)).candidates
        op = execute_statement.sync(handle, client=client, body=ExecuteStatementRequestBody(
            statement="SELECT id, DATE'2024-01-01' AS d FROM gen_v")).operation_handle
        rows, token = [], 0
        for _ in range(200):
            page = fetch_results.sync(handle, op, token, client=client, row_format=RowFormat.JSON)
            if page.result_type.value != "NOT_READY":
                rows += [item.additional_properties["fields"] for item in page.results.data]
                assert page.query_result is True and page.results.row_format == RowFormat.JSON
            if not page.next_result_uri:
                break
            token = int(page.next_result_uri.split("?")[0].rsplit("/", 1)[1])
        assert page.result_type.value == "EOS"
        assert rows == [[0, "2024-01-01"], [1, "2024-01-01"], [2, "2024-01-01"], [3, "2024-01-01"]]
        assert get_operation_status.sync(handle, op, client=client).status == "FINISHED"
        assert close_operation.sync(handle, op, client=client).status == "CLOSED"
        long_op = execute_statement.sync(handle, client=client, body=ExecuteStatementRequestBody(
            statement=LONG_QUERY)).operation_handle
        assert cancel_operation.sync(handle, long_op, client=client).status == "CANCELED"
        with pytest.raises(UnexpectedStatus) as refused:
            refresh_materialized_table.sync(handle, "db.mt", client=client, body=RefreshMaterializedTableRequestBody())
        assert refused.value.status_code == 501 and b"materialized tables" in refused.value.content
        assert close_session.sync(handle, client=client).status == "CLOSED"
        with pytest.raises(UnexpectedStatus) as gone:
            get_session_config.sync(handle, client=client)
        assert gone.value.status_code == 404 and b'"errors"' in gone.value.content
