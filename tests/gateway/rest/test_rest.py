"""The REST API over real HTTP on 127.0.0.1: sessions, statements, pages and tokens, cancel,
close, heartbeat and idle expiry, errors as JSON."""
from __future__ import annotations

import time
import uuid

from gateway import GatewayService
from gateway.models import OperationStatus
from rest_support import Http, http, rest_session, server, start  # noqa: F401 - fixtures

# Each row sleeps a second in its task (Thread.sleep answers a cancel). Not a filter like
# rand() > 2: Spark 4.3 folds that to an empty scan and the "long" query ends at once.
LONG_QUERY = "SELECT reflect('java.lang.Thread', 'sleep', CAST(1000 AS BIGINT)) FROM range(0, 100000, 1, 2)"


def test_info_and_api_versions(http, gateway):
    info = http("GET", "/v1/info")
    assert info.status == 200
    assert info.body["productName"] == "Spark SQL Workbench"
    assert info.body["sparkVersion"] == gateway.root.version
    assert http("GET", "/v2/api_versions").body == {"versions": ["V1", "V2", "V3", "V4"]}


def test_session_lifecycle(http, gateway):
    handle = http.open_session(properties={"spark.sql.shuffle.partitions": "3"}, sessionName="lifecycle")
    assert str(uuid.UUID(handle)) == handle  # a random UUID
    assert gateway.session_name(handle) == "lifecycle"
    assert http("GET", f"/v1/sessions/{handle}").body["properties"]["spark.sql.shuffle.partitions"] == "3"
    assert http("POST", f"/v1/sessions/{handle}/heartbeat").body == {}
    assert http("DELETE", f"/v1/sessions/{handle}").body == {"status": "CLOSED"}
    gone = http("GET", f"/v2/sessions/{handle}")
    assert gone.status == 404
    assert "does not exist" in gone.body["root_cause"] and gone.body["errors"]


def test_open_session_without_body(http, gateway):
    answer = http("POST", "/v2/sessions")
    assert answer.status == 200
    gateway.close_session(answer.body["sessionHandle"])


def test_statement_result_types_and_row_json(http, rest_session):
    op = http.execute(rest_session, "SELECT id, CAST(id AS STRING) AS s, DATE'2024-02-29' AS d, "
                                    "TIMESTAMP_NTZ'2024-01-02 03:04:05' AS ts, id * 1.5D AS x, "
                                    "array(id) AS a FROM range(3)")
    assert http.wait_status(rest_session, op) == "FINISHED"
    columns, rows, _ = http.fetch_all(rest_session, op)
    types = {c["name"]: c["type"] for c in columns}
    assert types["id"] == {"type": "BIGINT", "nullable": False}
    assert types["s"]["type"] == "VARCHAR"
    assert types["d"]["type"] == "DATE" and types["ts"] == {"type": "TIMESTAMP", "nullable": False, "precision": 6}
    assert types["a"]["type"] == "ARRAY" and types["a"]["elementType"]["type"] == "BIGINT"
    assert columns[0]["logicalType"] == columns[0]["type"]  # Flink's name for the same JSON
    assert rows[2] == [2, "2", "2024-02-29", "2024-01-02T03:04:05.000000", 3.0, [2]]


def test_pages_follow_next_result_uri_and_end_with_null(http, rest_session):
    op = http.execute(rest_session, "SELECT id FROM range(0, 25, 1, 3)")
    http.wait_status(rest_session, op)
    first = http("GET", f"/v2/sessions/{rest_session}/operations/{op}/result/0?maxRows=10")
    assert first.body["resultType"] == "PAYLOAD" and len(first.body["results"]["data"]) <= 10
    assert first.body["results"]["data"][0] == {"kind": "INSERT", "fields": [0]}
    assert first.body["nextResultUri"] == (f"/v2/sessions/{rest_session}/operations/{op}/result/1"
                                           f"?rowFormat=JSON&maxRows=10")
    rows = [r["fields"][0] for r in first.body["results"]["data"]]
    uri = first.body["nextResultUri"]
    last = None
    while uri is not None:
        last = http("GET", uri).body
        if last["resultType"] != "NOT_READY":
            rows.extend(r["fields"][0] for r in last["results"]["data"])
        uri = last["nextResultUri"]
    assert rows == list(range(25))
    assert last["resultType"] == "EOS" and last["nextResultUri"] is None


def test_same_token_returns_the_same_page_and_other_tokens_fail(http, rest_session):
    op = http.execute(rest_session, "SELECT id FROM range(0, 10, 1, 1)")
    http.wait_status(rest_session, op)
    base = f"/v1/sessions/{rest_session}/operations/{op}/result"
    page0 = http("GET", f"{base}/0?maxRows=3")
    again = http("GET", f"{base}/0?maxRows=3")
    assert page0.status == 200 and again.raw == page0.raw  # a client may retry a page
    page1 = http("GET", f"{base}/1?maxRows=3")
    assert [r["fields"] for r in page1.body["results"]["data"]] == [[3], [4], [5]]
    assert http("GET", f"{base}/1?maxRows=3").raw == page1.raw
    stale = http("GET", f"{base}/0")
    assert stale.status == 400 and "token 0 is not valid" in stale.body["root_cause"]
    assert stale.body["error_class"] == "InvalidTokenError"
    assert http("GET", f"{base}/7").status == 400
    assert http("GET", f"{base}/-1").status == 400
    assert http("GET", f"{base}/abc").status == 400


def test_plain_text_rows(http, rest_session):
    op = http.execute(rest_session, "SELECT 7 AS n, true AS b, CAST(NULL AS STRING) AS z, map('k', 1) AS m")
    http.wait_status(rest_session, op)
    answer = http("GET", f"/v2/sessions/{rest_session}/operations/{op}/result/0?rowFormat=PLAIN_TEXT")
    assert answer.body["results"]["rowFormat"] == "PLAIN_TEXT"
    assert answer.body["results"]["data"][0]["fields"] == ["7", "true", None, '{"k":1}']
    bad = http("GET", f"/v2/sessions/{rest_session}/operations/{op}/result/0?rowFormat=XML")
    assert bad.status == 400 and "rowFormat" in bad.body["root_cause"]


def test_statement_without_rows_is_success(http, rest_session):
    op = http.execute(rest_session, "CREATE TEMPORARY VIEW rest_v AS SELECT 1 AS one")
    http.wait_status(rest_session, op)
    page = http("GET", f"/v1/sessions/{rest_session}/operations/{op}/result/0").body
    assert page["resultType"] == "EOS" and page["resultKind"] == "SUCCESS" and page["isQueryResult"] is False
    _, rows, _ = http.fetch_all(rest_session, http.execute(rest_session, "SELECT one FROM rest_v"))
    assert rows == [[1]]


def test_execution_config_applies_to_that_statement_only(http, rest_session):
    op = http.execute(rest_session, "SET spark.sql.shuffle.partitions",
                      executionConfig={"spark.sql.shuffle.partitions": "5"})
    _, rows, _ = http.fetch_all(rest_session, op)
    assert rows == [["spark.sql.shuffle.partitions", "5"]]
    assert http("GET", f"/v1/sessions/{rest_session}").body["properties"]["spark.sql.shuffle.partitions"] != "5"


def test_execution_timeout(http, rest_session):
    op = http.execute(rest_session, LONG_QUERY, executionTimeout=300)
    assert http.wait_status(rest_session, op, ("TIMEOUT", "ERROR", "FINISHED")) == "TIMEOUT"


def test_cancel_then_close(http, rest_session, gateway):
    op = http.execute(rest_session, LONG_QUERY)
    assert http.wait_status(rest_session, op, ("RUNNING",), 30) == "RUNNING"
    base = f"/v1/sessions/{rest_session}/operations/{op}"
    assert http("POST", f"{base}/cancel").body == {"status": "CANCELED"}
    fetch = http("GET", f"{base}/result/0")
    assert fetch.status == 409 and "canceled" in fetch.body["root_cause"]
    again = http("POST", f"{base}/cancel")
    assert again.status == 409 and again.body["error_class"] == "OperationStateError"
    assert http("DELETE", f"{base}/close").body == {"status": "CLOSED"}
    assert http("GET", f"{base}/status").status == 404
    # the session goes on working
    _, rows, _ = http.fetch_all(rest_session, http.execute(rest_session, "SELECT 41 + 1"))
    assert rows == [[42]]


def test_operation_of_another_session_is_not_found(http, rest_session):
    op = http.execute(rest_session, "SELECT 1")
    other = http.open_session()
    try:
        for method, suffix in (("GET", "status"), ("POST", "cancel"), ("DELETE", "close"), ("GET", "result/0")):
            answer = http(method, f"/v1/sessions/{other}/operations/{op}/{suffix}")
            assert answer.status == 404, (suffix, answer.body)
            assert answer.body["error_class"] == "OperationNotFoundError"
        assert http("GET", f"/v1/sessions/{rest_session}/operations/{op}/status").status == 200
    finally:
        http("DELETE", f"/v1/sessions/{other}")


def test_operation_detail_beyond_flink(http, rest_session):
    op = http.execute(rest_session, "SELECT 1; SELECT 2 AS two")
    http.fetch_all(rest_session, op)
    info = http("GET", f"/v2/sessions/{rest_session}/operations/{op}").body
    assert info["status"] == "FINISHED" and info["type"] == "EXECUTE_STATEMENT" and info["hasResult"] is True
    assert [s["index"] for s in info["statements"]] == [0, 1]


def test_configure_session_and_complete_statement(http, rest_session):
    base = f"/v2/sessions/{rest_session}"
    assert http("POST", f"{base}/configure-session", {"statement": "SET spark.sql.shuffle.partitions=7"}).body == {}
    assert http("GET", base).body["properties"]["spark.sql.shuffle.partitions"] == "7"
    refused = http("POST", f"{base}/configure-session", {"statement": "SELECT 1"})
    assert refused.status == 400 and "does not accept" in refused.body["root_cause"]
    assert "SELECT" in http("GET", f"{base}/complete-statement?statement=SEL&position=3").body["candidates"]
    # Flink's clients send the arguments as a JSON body of the GET
    flink_style = http("GET", f"{base}/complete-statement", {"statement": "SEL", "position": 3})
    assert "SELECT" in flink_style.body["candidates"]
    assert http("GET", f"{base}/complete-statement").status == 400
    assert http("POST", f"/v1/sessions/{rest_session}/configure-session", {"statement": "SET a=1"}).status == 404


# -- errors as JSON -----------------------------------------------------------------------------------

def test_sql_errors_carry_error_class_sqlstate_and_position(http, rest_session):
    op = http.execute(rest_session, "SELECT 1;\nSELEC oops")
    assert http.wait_status(rest_session, op) == "ERROR"
    answer = http("GET", f"/v1/sessions/{rest_session}/operations/{op}/result/0")
    assert answer.status == 400
    body = answer.body
    assert body["error_class"] == "PARSE_SYNTAX_ERROR" and body["sqlstate"] == "42601"
    assert body["line"] == 2 and body["exception_stack"] and body["errors"] == [body["root_cause"]]
    missing = http.execute(rest_session, "SELECT * FROM no_such_table_here")
    http.wait_status(rest_session, missing)
    body = http("GET", f"/v1/sessions/{rest_session}/operations/{missing}/result/0").body
    assert body["error_class"] == "TABLE_OR_VIEW_NOT_FOUND" and body["sqlstate"] == "42P01"
    _, rows, _ = http.fetch_all(rest_session, http.execute(rest_session, "SELECT 'still fine'"))
    assert rows == [["still fine"]]


def test_bad_requests_are_400_json(http, rest_session):
    base = f"/v1/sessions/{rest_session}/statements"
    cases = [
        http("POST", base, raw=b"{not json"),
        http("POST", base, {"executionTimeout": 5}),                       # no statement
        http("POST", base, {"statement": 42}),
        http("POST", base, {"statement": "SELECT 1", "executionTimeout": -1}),
        http("POST", base, {"statement": "SELECT 1", "executionConfig": ["a"]}),
        http("POST", base, {"statement": "   "}),
        http("POST", "/v1/sessions", {"properties": "x"}),
        http("GET", f"/v2/sessions/{rest_session}/tables?kind=SOMETIMES"),
    ]
    for answer in cases:
        assert answer.status == 400, answer.body
        assert answer.body["root_cause"] and answer.body["errors"] and "exception_stack" in answer.body


def test_unknown_handles_and_paths_are_404_json(http):
    for path in ("/v1/sessions/not-a-uuid", f"/v1/sessions/{uuid.uuid4()}",
                 f"/v1/sessions/{uuid.uuid4()}/operations/{uuid.uuid4()}/status", "/v3/nothing"):
        answer = http("GET", path)
        assert answer.status == 404 and answer.body["root_cause"], path
    assert http("PUT", "/v1/sessions").status == 405


def test_a_client_that_stops_fetching_holds_the_buffer_bound(http, rest_session, gateway, config):
    op = http.execute(rest_session, "SELECT id, repeat('x', 20) AS pad FROM range(0, 400000, 1, 8)")
    http.wait_status(rest_session, op)
    first = http("GET", f"/v1/sessions/{rest_session}/operations/{op}/result/0?maxRows=1000")
    assert len(first.body["results"]["data"]) == 1000
    fetcher = gateway.operation_fetcher(rest_session, op)
    assert fetcher.producer_waiting.wait(60), "the producer never reached the buffer's bound"  # held, not ahead
    assert fetcher.peak_rows <= config["result.buffer_max_rows"]
    assert fetcher.rows_produced < 400000
    assert http("DELETE", f"/v1/sessions/{rest_session}/operations/{op}/close").status == 200


def test_heartbeat_keeps_a_session_and_idle_ones_expire(config):
    """A second service over the same root SparkSession, with a short idle timeout and its own server."""
    service = GatewayService(config.with_overrides(session__idle_timeout_s=1.0, session__check_interval_s=0.2))
    handle = start(service)
    try:
        client = Http(handle.url)
        kept, idle = client.open_session(), client.open_session()
        deadline = time.monotonic() + 2.5
        while time.monotonic() < deadline:
            assert client("POST", f"/v1/sessions/{kept}/heartbeat").status == 200
            time.sleep(0.3)
        assert client("GET", f"/v1/sessions/{kept}").status == 200
        expired = client("POST", f"/v1/sessions/{idle}/heartbeat")
        assert expired.status == 404 and "expired" in expired.body["root_cause"]
    finally:
        handle.stop()
        service.shutdown(stop_spark=False)


def test_start_from_config_follows_the_switch(gateway, monkeypatch):
    from gateway.rest import start_from_config
    assert start_from_config(gateway) is None  # rest.enabled is false by default
    monkeypatch.setattr(gateway, "config", gateway.config.with_overrides(rest__enabled=True, rest__port=0))
    handle = start_from_config(gateway)
    try:
        assert Http(handle.url)("GET", "/v1/api_versions").status == 200
    finally:
        handle.stop()
