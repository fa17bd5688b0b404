"""The editor's tools over real HTTP on 127.0.0.1 (/v2/sessions/{session}/…): SET/RESET one option,
a table's preview statement and preview run, ANALYZE, split and format."""
from __future__ import annotations

from urllib.parse import quote

from rest_support import http, rest_session, server  # noqa: F401 - fixtures

UNKNOWN = "6f1c2d3e-0000-4000-8000-000000000000"


def test_set_and_reset_one_option_then_all(http, rest_session):
    base = f"/v2/sessions/{rest_session}/config"
    answer = http("PUT", f"{base}/spark.sql.shuffle.partitions", {"value": "9"})
    assert answer.status == 200 and answer.body["properties"]["spark.sql.shuffle.partitions"] == "9"
    http("PUT", f"{base}/spark.sql.ansi.enabled", {"value": "false"})
    answer = http("DELETE", f"{base}/spark.sql.shuffle.partitions")
    assert answer.status == 200
    assert answer.body["properties"].get("spark.sql.shuffle.partitions") != "9"
    assert answer.body["properties"]["spark.sql.ansi.enabled"] == "false"
    answer = http("DELETE", base)
    assert answer.status == 200 and answer.body["properties"].get("spark.sql.ansi.enabled") != "false"


def test_a_bad_key_or_value_is_a_400_that_says_why(http, rest_session):
    base = f"/v2/sessions/{rest_session}/config"
    bad_key = http("PUT", f"{base}/{quote('bad key; DROP TABLE x')}", {"value": "1"})
    assert bad_key.status == 400 and "is not a setting name" in bad_key.body["root_cause"]
    assert bad_key.body["error_class"] == "InvalidRequestError"
    bad_value = http("PUT", f"{base}/spark.sql.shuffle.partitions", {"value": "1; DROP TABLE x"})
    assert bad_value.status == 400 and "cannot contain ';'" in bad_value.body["root_cause"]
    no_value = http("PUT", f"{base}/spark.sql.shuffle.partitions", {})
    assert no_value.status == 400 and "value" in no_value.body["root_cause"]
    assert http("DELETE", f"/v2/sessions/{UNKNOWN}/config").status == 404


def test_preview_statement_and_preview_run(http, rest_session):
    http.fetch_all(rest_session, http.execute(
        rest_session, "CREATE OR REPLACE TEMPORARY VIEW `rest odd` AS SELECT id FROM range(40)"))
    table = quote("`rest odd`")
    text = http("GET", f"/v2/sessions/{rest_session}/tables/{table}/preview-statement?limit=4")
    assert text.status == 200 and text.body == {"statement": "SELECT * FROM `rest odd` LIMIT 4"}
    default = http("GET", f"/v2/sessions/{rest_session}/tables/db.t/preview-statement").body
    assert default == {"statement": "SELECT * FROM `db`.`t` LIMIT 100"}
    run = http("POST", f"/v2/sessions/{rest_session}/tables/{table}/preview?limit=3")
    assert run.status == 200
    _, rows, _ = http.fetch_all(rest_session, run.body["operationHandle"])
    assert rows == [[0], [1], [2]]
    bad = http("GET", f"/v2/sessions/{rest_session}/tables/t/preview-statement?limit=0")
    assert bad.status == 400 and "limit must be a whole number" in bad.body["root_cause"]


def test_analyze_a_table_and_a_missing_one(http, rest_session, gateway):
    http.fetch_all(rest_session, http.execute(
        rest_session, "CREATE DATABASE IF NOT EXISTS rest_tools_db; "
                      "CREATE OR REPLACE TABLE rest_tools_db.stats USING parquet AS SELECT id FROM range(12)"))
    answer = http("POST", f"/v2/sessions/{rest_session}/tables/rest_tools_db.stats/analyze")
    assert answer.status == 200 and answer.body == {}
    assert "12 rows" in gateway.get_table(rest_session, "rest_tools_db.stats").statistics
    missing = http("POST", f"/v2/sessions/{rest_session}/tables/rest_tools_db.nothing/analyze")
    assert missing.status == 400 and missing.body["error_class"] == "TABLE_OR_VIEW_NOT_FOUND"


def test_split_and_format_a_script(http, rest_session):
    script = "select 1; -- one\n/* two */ select a,b from t"
    split = http("POST", f"/v2/sessions/{rest_session}/split", {"statement": script})
    assert split.status == 200
    assert split.body["statements"] == [
        {"text": "select 1", "kind": "QUERY", "index": 0, "line": 1, "offset": 0},
        {"text": "select a,b from t", "kind": "QUERY", "index": 1, "line": 2, "offset": script.index("select a")}]
    formatted = http("POST", f"/v2/sessions/{rest_session}/format", {"statement": script})
    assert formatted.status == 200
    assert formatted.body == {"statement": "SELECT\n  1; -- one\n\n/* two */\nSELECT\n  a,\n  b\nFROM t;"}
    broken = http("POST", f"/v2/sessions/{rest_session}/format", {"statement": "SELECT ((("})
    assert broken.status == 400 and "cannot be formatted" in broken.body["root_cause"]
    assert http("POST", f"/v2/sessions/{UNKNOWN}/split", {"statement": "SELECT 1"}).status == 404


def test_execute_a_plan_file_and_fetch_its_rows(http, rest_session):
    name = f"rest-exec-{rest_session}.json"
    compiled = http("POST", f"/v2/sessions/{rest_session}/plans/compile",
                    {"statement": "SELECT id * 3 AS x FROM range(3)", "path": name})
    assert compiled.status == 200, compiled.body
    run = http("POST", f"/v2/sessions/{rest_session}/plans/execute", {"plan": name})
    assert run.status == 200, run.body
    _, rows, _ = http.fetch_all(rest_session, run.body["operationHandle"])
    assert rows == [[0], [3], [6]]
    missing = http("POST", f"/v2/sessions/{rest_session}/plans/execute", {"plan": "no-such-plan.json"})
    assert missing.status in (400, 404) and "no-such-plan.json" in missing.body["root_cause"]
    empty = http("POST", f"/v2/sessions/{rest_session}/plans/execute", {"plan": ""})
    assert empty.status == 400 and "plan file" in empty.body["root_cause"]
