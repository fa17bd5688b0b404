"""The gateway's contract on a real Spark standalone cluster (issue 17 item 1), through its REST API:
queries and a large fetch, cancel, timeout, atomic CTAS / RTAS / INSERT OVERWRITE with an injected
failure, jar UDFs (ADD JAR and USING JAR), every built-in module type, compiled plans, Spark's UI links.
The cluster (tests/cluster/conftest.py) is started once for the whole package."""
from __future__ import annotations

import pytest

from conftest import wait_for
from jarbuild import build_jar, hive_udf_source, javac_available

LONG_QUERY = "SELECT reflect('java.lang.Thread', 'sleep', CAST(1000 AS BIGINT)) FROM range(0, 100000, 1, 2)"
OLD = "SELECT id, id % 2 AS k FROM range(6)"
GOOD = "SELECT id, id % 2 AS k FROM range(100, 104)"
# The last partition fails on its last row, after the other partitions wrote their files.
FAILING = ("SELECT CASE WHEN id = 39 THEN CAST(raise_error('injected fault') AS BIGINT) ELSE id END AS id, "
           "id % 2 AS k FROM range(0, 40, 1, 4)")


def run(http, session: str, sql: str, timeout_s: float = 120.0, **extra):
    """Execute, wait, and fetch: (status, rows, error body or None)."""
    op = http.execute(session, sql, **extra)
    status = http.wait_status(session, op, timeout_s=timeout_s)
    if status != "FINISHED":
        answer = http("GET", f"/v1/sessions/{session}/operations/{op}/result/0")
        return status, [], answer.body
    _, rows, _ = http.fetch_all(session, op, timeout_s=timeout_s)
    return status, rows, None


def ok(http, session: str, sql: str, **extra):
    status, rows, error = run(http, session, sql, **extra)
    assert status == "FINISHED", (sql, error)
    return rows


@pytest.fixture(scope="module")
def s(cluster_http):
    return cluster_http.open_session(sessionName="cluster")


def test_the_gateway_runs_on_the_cluster(cluster, cluster_http, s):
    details = cluster_http("GET", "/v2/info/details").body
    assert details["master"] == cluster.master_url
    assert ok(cluster_http, s, "SELECT k, count(*) FROM (SELECT id % 3 AS k FROM range(0, 3000, 1, 3)) GROUP BY k "
                               "ORDER BY k") == [[0, 1000], [1, 1000], [2, 1000]]
    apps = cluster.applications()  # the master sees the workbench as its application, with an executor
    assert [a["name"] for a in apps] == ["spark-sql-workbench"] and apps[0]["cores"] == 1


def test_a_large_fetch_from_the_executors(cluster_http, s):
    op = cluster_http.execute(s, "SELECT id, id * 2 AS v, repeat('x', 20) AS pad FROM range(0, 200000, 1, 4)")
    _, rows, pages = cluster_http.fetch_all(s, op, "?maxRows=20000", timeout_s=180)
    assert len(rows) == 200000 and pages >= 10
    assert sum(r[0] for r in rows) == 199999 * 200000 // 2 and rows[-1][1] == 2 * rows[-1][0]


def test_cancel_stops_the_executors_tasks(cluster_http, s):
    op = cluster_http.execute(s, LONG_QUERY)
    assert cluster_http.wait_status(s, op, ("RUNNING",), 30) == "RUNNING"
    progress = f"/v2/sessions/{s}/operations/{op}/progress"
    assert wait_for(lambda: cluster_http("GET", progress).body.get("runningTasks"), 60), "no task on the executor"
    assert cluster_http("POST", f"/v1/sessions/{s}/operations/{op}/cancel").body == {"status": "CANCELED"}
    assert wait_for(lambda: not cluster_http("GET", progress).body.get("runningTasks"), 60), \
        "the executor's tasks still run after the cancel"
    assert ok(cluster_http, s, "SELECT 41 + 1") == [[42]]  # the session (and the one executor core) go on


def test_a_timeout_stops_the_statement(cluster_http, s):
    status, _, _ = run(cluster_http, s, LONG_QUERY, executionTimeout=1500, timeout_s=60)
    assert status == "TIMEOUT"
    assert ok(cluster_http, s, "SELECT 1") == [[1]]


def test_atomic_writes_keep_the_old_rows_when_the_query_fails(cluster, cluster_http, s):
    ok(cluster_http, s, "CREATE DATABASE IF NOT EXISTS cl")
    ok(cluster_http, s, f"CREATE TABLE cl.t USING parquet AS {OLD}")
    status, _, error = run(cluster_http, s, f"INSERT OVERWRITE TABLE cl.t {FAILING}")
    assert status == "ERROR" and "injected fault" in error["root_cause"]
    assert sorted(ok(cluster_http, s, "SELECT id, k FROM cl.t")) == sorted([i, i % 2] for i in range(6))
    status, _, error = run(cluster_http, s, f"CREATE OR REPLACE TABLE cl.t USING parquet AS {FAILING}")
    assert status == "ERROR" and "injected fault" in error["root_cause"]
    assert len(ok(cluster_http, s, "SELECT * FROM cl.t")) == 6
    status, _, _ = run(cluster_http, s, f"CREATE TABLE cl.never USING parquet AS {FAILING}")
    assert status == "ERROR"
    assert "never" not in [r[1] for r in ok(cluster_http, s, "SHOW TABLES IN cl")]
    assert not (cluster.data_dir / "warehouse" / "cl.db" / "never").exists()  # no folder blocks the name
    ok(cluster_http, s, f"CREATE OR REPLACE TABLE cl.t USING parquet AS {GOOD}")
    ok(cluster_http, s, f"INSERT OVERWRITE TABLE cl.t {GOOD}")
    assert sorted(ok(cluster_http, s, "SELECT id, k FROM cl.t")) == sorted([i, i % 2] for i in range(100, 104))
    ok(cluster_http, s, f"CREATE TABLE cl.never USING parquet AS {GOOD}")  # the name was free


@pytest.mark.skipif(not javac_available(), reason="javac (a JDK) is needed to build the UDF jar")
def test_jar_udfs_run_on_the_executors(cluster, cluster_http, s):
    jars = cluster.data_dir / "test-jars"
    added = build_jar(jars, "cl-upper", {"cl.Upper": hive_udf_source("cl.Upper")})
    using = build_jar(jars, "cl-rev", {"cl.Rev": hive_udf_source(
        "cl.Rev", 'return s == null ? null : new Text(new StringBuilder(s.toString()).reverse().toString());')})
    ok(cluster_http, s, f"ADD JAR '{added}'")
    ok(cluster_http, s, "CREATE TEMPORARY FUNCTION cl_upper AS 'cl.Upper'")
    ok(cluster_http, s, f"CREATE TEMPORARY FUNCTION cl_rev AS 'cl.Rev' USING JAR '{using}'")
    rows = ok(cluster_http, s, "SELECT cl_upper(CAST(id AS STRING) || 'ab'), cl_rev('ab' || CAST(id AS STRING)) "
                               "FROM range(0, 4, 1, 2) ORDER BY id")
    assert rows == [["0AB", "0ba"], ["1AB", "1ba"], ["2AB", "2ba"], ["3AB", "3ba"]]


def test_every_built_in_module_type(cluster, cluster_http, s):
    ok(cluster_http, s, "LOAD MODULE geo")  # Spark SQL functions: run on the executor, no Python there
    rows = ok(cluster_http, s, "SELECT round(sum(haversine_km(0, 0, 0, id / 1000.0)), 3), "
                               "max(geohash_encode(57.64911, 10.40744, 11)), "
                               "count_if(in_bbox(0, id / 10.0, -1, 0, 1, 50)) FROM range(0, 1000, 1, 2)")
    assert rows == [[round(sum(i / 1000.0 for i in range(1000)) * 3.141592653589793 / 180 * 6371.0088, 3),
                     "u4pruydqqvj", 501]]
    sql_file = cluster.data_dir / "mine.sql"
    sql_file.write_text("-- version: 3\nCREATE FUNCTION twice(x BIGINT) RETURNS BIGINT RETURN x * 2;\n")
    ok(cluster_http, s, f"LOAD MODULE mine WITH ('type'='sql', 'path'='{sql_file}')")
    assert ok(cluster_http, s, "SELECT sum(twice(id)) FROM range(0, 100, 1, 2)") == [[9900]]
    assert ok(cluster_http, s, "SELECT upper('core')") == [["CORE"]]  # core: Spark's built-ins
    # A python module: the executors' Python (Debian's python3, started by the worker) has no pandas.
    status, _, error = run(cluster_http, s, "LOAD MODULE geo_pandas WITH ('type'='python', "
                                            "'module'='gateway.features.modules.geo')")
    assert status == "ERROR"
    message = error["root_cause"]
    assert "LOAD MODULE geo_pandas" in message and "lacks the package(s)" in message and "pandas" in message
    assert "spark.archives" in message and "spark.pyspark.python" in message
    names = [r[0] for r in ok(cluster_http, s, "SHOW MODULES")]
    assert "geo_pandas" not in names and "geo" in names  # refused: nothing changed


@pytest.mark.skipif(not javac_available(), reason="javac (a JDK) is needed to build the UDF jar")
def test_a_jar_module(cluster, cluster_http, s):
    jar = build_jar(cluster.data_dir / "test-jars", "cl-module", {"clm.Shout": hive_udf_source(
        "clm.Shout", 'return s == null ? null : new Text(s.toString().toUpperCase() + "!");')},
        resources={"META-INF/workbench-functions.properties": "module.version=1.2\nshout=clm.Shout\n"})
    ok(cluster_http, s, f"LOAD MODULE loud WITH ('type'='jar', 'path'='{jar}')")
    assert ok(cluster_http, s, "SELECT shout(CAST(id AS STRING)) FROM range(0, 2, 1, 2) ORDER BY id") == [["0!"], ["1!"]]


def test_compiled_plans_on_the_cluster(cluster, cluster_http, s):
    ok(cluster_http, s, "CREATE TABLE IF NOT EXISTS cl.totals (k BIGINT, n BIGINT) USING parquet")
    plan = cluster.data_dir / "plans" / "cl_totals.json"
    ok(cluster_http, s, f"COMPILE PLAN '{plan.name}' FOR INSERT INTO cl.totals "
                        "SELECT id % 2, count(*) FROM range(0, 10, 1, 2) GROUP BY 1")
    ok(cluster_http, s, f"EXECUTE PLAN '{plan.name}'")
    assert sorted(ok(cluster_http, s, "SELECT k, n FROM cl.totals")) == [[0, 5], [1, 5]]


def test_statements_link_to_their_jobs_in_sparks_ui(cluster_http, s):
    op = cluster_http.execute(s, "SELECT count(*) FROM range(0, 1000, 1, 2)")
    cluster_http.fetch_all(s, op)
    info = cluster_http("GET", f"/v2/sessions/{s}/operations/{op}").body
    assert info["jobGroup"] == f"workbench-op-{op}" and info["jobUrls"]
    assert info["sparkUiUrl"].startswith("http://127.0.0.1:")
