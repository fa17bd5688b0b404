"""The gateway on a real Spark Connect server (engine.kind = connect): sessions, SQL, paging, the Arrow
stream, cancel and timeout through Connect's interrupt, the catalog, and the refusals that name the backend."""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import time

import pytest

from connect_support import ROOT, fetch_all, wait_terminal
from gateway.models import OperationStatus
from gateway.spark.connect import StatementResult
from gateway.spark.backend import Capability, is_connect, supports


def run(gateway, session, sql, **kwargs):
    op = gateway.execute_statement(session, sql, **kwargs)
    info = wait_terminal(gateway, session, op)
    return op, info


def test_each_gateway_session_is_its_own_connect_session(connect_gateway):
    first, second = connect_gateway.open_session(), connect_gateway.open_session()
    try:
        spark_a = connect_gateway.sessions.get(first).spark
        spark_b = connect_gateway.sessions.get(second).spark
        assert is_connect(spark_a) and spark_a.session_id != spark_b.session_id
        _, info = run(connect_gateway, first, "CREATE TEMPORARY VIEW only_in_a AS SELECT 1 AS x")
        assert info.status == OperationStatus.FINISHED, info.exception
        op, info = run(connect_gateway, second, "SELECT * FROM only_in_a")
        assert info.status == OperationStatus.ERROR
        assert info.exception["error_class"] == "TABLE_OR_VIEW_NOT_FOUND"
        op, _ = run(connect_gateway, first, "SELECT * FROM only_in_a")
        assert fetch_all(connect_gateway, first, op)[0] == [[1]]
    finally:
        connect_gateway.close_session(first)
        connect_gateway.close_session(second)


def test_sql_error_carries_sparks_condition_and_position(connect_gateway, connect_session):
    _, info = run(connect_gateway, connect_session, "SELEC 1")
    assert info.status == OperationStatus.ERROR
    assert info.exception["error_class"] == "PARSE_SYNTAX_ERROR"
    assert info.exception["sqlstate"] == "42601"


def test_a_large_result_pages_by_token_as_connects_arrow_batches(connect_gateway, connect_session, monkeypatch):
    used = []
    original = StatementResult.run.__func__

    def recording_run(cls, df):
        used.append(type(df._plan).__name__)
        return original(cls, df)

    monkeypatch.setattr(StatementResult, "run", classmethod(recording_run))
    # Year 1 timestamps: pyspark's row conversion (toLocalIterator, collect) cannot read them; Arrow can.
    op, info = run(connect_gateway, connect_session,
                   "SELECT id, CAST(id AS STRING) AS s, TIMESTAMP'0001-01-01 00:00:00' + make_interval(0,0,0,0,0,0,id) "
                   "AS ts FROM range(30000)")
    assert info.status == OperationStatus.FINISHED, info.exception
    rows, pages = fetch_all(connect_gateway, connect_session, op, max_rows=4000)
    assert used == ["SQL"]  # the query sent once, streamed as the server's Arrow batches, not rows
    assert len(rows) == 30000 and pages >= 8
    assert [r[0] for r in rows] == list(range(30000))
    assert rows[0][1] == "0" and rows[1][2].startswith("0001-01-01T00:00:01")


def test_a_page_can_be_fetched_again_and_a_wrong_token_is_refused(connect_gateway, connect_session):
    op, _ = run(connect_gateway, connect_session, "SELECT id FROM range(5000)")
    first = connect_gateway.fetch_results(connect_session, op, 0, max_rows=100)
    while first.result_type.name == "NOT_READY":
        first = connect_gateway.fetch_results(connect_session, op, 0, max_rows=100)
    again = connect_gateway.fetch_results(connect_session, op, 0, max_rows=100)
    assert again.rows == first.rows
    with pytest.raises(Exception, match="token"):
        connect_gateway.fetch_results(connect_session, op, 7)


def test_cancel_interrupts_the_operation_on_the_server(connect_gateway, connect_session):
    op = connect_gateway.execute_statement(connect_session, "SELECT count(*) FROM range(0, 100000000000)")
    deadline = time.monotonic() + 60
    while connect_gateway.get_operation_info(connect_session, op).status != OperationStatus.RUNNING:
        assert time.monotonic() < deadline
        time.sleep(0.02)
    connect_gateway.cancel_operation(connect_session, op)
    operation = connect_gateway.operations.get(connect_session, op) if hasattr(connect_gateway.operations, "get") \
        else None
    assert connect_gateway.get_operation_info(connect_session, op).status == OperationStatus.CANCELED
    # the worker ends because the server interrupted the statement, not because it finished
    worker_done = [o for o in connect_gateway.operations.all() if str(o.handle) == str(op)][0].done
    assert worker_done.wait(60), "the Connect server did not interrupt the statement"
    # the session runs its next statement at once
    op2, info = run(connect_gateway, connect_session, "SELECT 42")
    assert fetch_all(connect_gateway, connect_session, op2)[0] == [[42]]


def test_statement_timeout_interrupts_through_connect(connect_gateway, connect_session):
    op, info = run(connect_gateway, connect_session, "SELECT count(*) FROM range(0, 100000000000)", timeout_ms=1500)
    assert info.status == OperationStatus.TIMEOUT
    worker_done = [o for o in connect_gateway.operations.all() if str(o.handle) == str(op)][0].done
    assert worker_done.wait(60)


def test_catalog_and_function_browser_over_connect(connect_gateway, connect_session):
    run(connect_gateway, connect_session, "CREATE DATABASE IF NOT EXISTS connect_db")
    _, info = run(connect_gateway, connect_session, "CREATE TABLE IF NOT EXISTS connect_db.people (id INT, name STRING) "
                                                    "USING parquet")
    assert info.status == OperationStatus.FINISHED, info.exception
    assert "connect_db" in connect_gateway.list_databases(connect_session, "spark_catalog")
    tables = connect_gateway.list_tables(connect_session, "spark_catalog", "connect_db")
    assert [t.name for t in tables] == ["people"]
    detail = connect_gateway.get_table(connect_session, "connect_db.people")
    assert [c.name for c in detail.columns] == ["id", "name"]
    functions = {f.name for f in connect_gateway.list_functions(connect_session)}
    assert {"abs", "concat"} <= functions


def test_completion_over_connect(connect_gateway, connect_session):
    run(connect_gateway, connect_session, "CREATE OR REPLACE TEMPORARY VIEW completion_view AS SELECT 1 AS alpha")
    text = "SELECT  FROM completion_view"
    candidates = connect_gateway.complete_statement(connect_session, text, len("SELECT "))
    assert any(getattr(c, "text", c) == "alpha" or "alpha" in str(c) for c in candidates)


@pytest.mark.parametrize("ctas", ["CREATE TABLE refused_ctas AS SELECT 1 AS a",
                                  "CREATE TABLE refused_ctas USING parquet SELECT 1 AS a"])  # no AS: still a CTAS
def test_atomic_ctas_is_refused_naming_the_backend_and_nothing_is_written(connect_gateway, connect_session, ctas):
    _, info = run(connect_gateway, connect_session, ctas)
    assert info.status == OperationStatus.ERROR
    assert "Spark Connect" in info.exception["root_cause"] and "Nothing was written" in info.exception["root_cause"]
    op, _ = run(connect_gateway, connect_session, "SHOW TABLES LIKE 'refused_ctas'")
    assert fetch_all(connect_gateway, connect_session, op)[0] == []


def test_compiled_plans_work_through_the_public_api(connect_gateway, connect_session):
    op, info = run(connect_gateway, connect_session, "COMPILE PLAN 'connect-plan.json' FOR SELECT 7 AS seven")
    assert info.status == OperationStatus.FINISHED, info.exception
    op, info = run(connect_gateway, connect_session, "EXECUTE PLAN 'connect-plan.json'")
    assert info.status == OperationStatus.FINISHED, info.exception
    assert fetch_all(connect_gateway, connect_session, op)[0] == [[7]]


def test_an_embedded_plan_pins_operators_after_a_connect_session_loaded_the_builtins(
        gateway, session, connect_gateway, connect_session, monkeypatch):
    """One process, both engines: the connect session's JVM-less load of the built-ins (no expression
    classes) must not leave the embedded session's compiled plans without their operators (a CI failure:
    the golden plans lost ``>``, ``=`` and gained ``decimal`` once a connect test ran first in the process).

    The embedded gateway comes first: forking its JVM after gRPC's threads start aborted once."""
    from gateway.core import functions as functions_module
    from gateway.core.functions import BuiltinFunctions

    fresh = BuiltinFunctions(describe=lambda spark, name: "", load_usages=lambda spark: {})  # usage text not at issue
    monkeypatch.setattr(functions_module, "BUILTINS", fresh)
    connect_spark = connect_gateway.sessions.get(connect_session).spark
    assert fresh.classes(connect_spark) == {}  # no JVM behind Spark Connect
    fresh.load_details_in_background(connect_spark)  # as completion and the function browser start it
    assert fresh.wait_details(120) and fresh.usage("upper") == ""
    plan = gateway.compile_plan(session, "SELECT upper('a') AS u FROM range(3) WHERE id > 1")
    pinned = {f["name"] for f in plan["functions"]}
    assert {">", "upper"} <= pinned and "decimal" not in pinned, pinned
    assert "org.apache.spark.sql.catalyst.expressions.Upper" in fresh.classes(gateway.sessions.get(session).spark)


@pytest.mark.parametrize("overwrite", [
    "INSERT OVERWRITE kept_rows SELECT 2",
    # the leading words do not show the write: without Catalyst the analysis must (a silent unstaged write else)
    "WITH q AS (SELECT 2 AS a) INSERT OVERWRITE kept_rows SELECT a FROM q",
    "FROM (SELECT 2 AS a) s INSERT /* x */ OVERWRITE TABLE kept_rows SELECT a"])
def test_insert_overwrite_is_refused_and_the_table_keeps_its_rows(connect_gateway, connect_session, overwrite):
    run(connect_gateway, connect_session, "DROP TABLE IF EXISTS kept_rows")
    run(connect_gateway, connect_session, "CREATE TABLE kept_rows (a INT) USING parquet")
    run(connect_gateway, connect_session, "INSERT INTO kept_rows VALUES (1)")
    _, info = run(connect_gateway, connect_session, overwrite)
    assert info.status == OperationStatus.ERROR
    assert "Spark Connect" in info.exception["root_cause"] and "allow_non_atomic" in info.exception["root_cause"]
    op, _ = run(connect_gateway, connect_session, "SELECT a FROM kept_rows")
    assert fetch_all(connect_gateway, connect_session, op)[0] == [[1]]


def test_the_engine_shows_in_the_gateway_info(connect_gateway, connect_server):
    info = connect_gateway.get_gateway_info()
    assert info["master"] == f"Spark Connect sc://127.0.0.1:{connect_server.port}"
    assert info["spark_version"].startswith("4.")


def test_capabilities_of_a_connect_session(connect_gateway, connect_session):
    spark = connect_gateway.sessions.get(connect_session).spark
    assert supports(spark, Capability.OPERATION_TAGS) and supports(spark, Capability.ARROW_BATCHES)
    assert not supports(spark, Capability.JVM) and not supports(spark, Capability.SPARK_CONTEXT)


def test_a_connect_only_gateway_starts_no_jvm(connect_server, tmp_path):
    """In a fresh process (this one may hold the embedded tests' JVM): the gateway runs statements and
    neither a Py4J gateway nor any child process (a JVM) exists."""
    script = textwrap.dedent(f"""
        import json, os, sys, time
        sys.path.insert(0, {str(ROOT)!r})
        from gateway import GatewayService, load_config
        from gateway.identity import LOCAL_PRINCIPAL, acting_as
        cfg = load_config({str(ROOT / 'workbench.toml')!r}, environ={{}}).with_overrides(
            data_dir={str(tmp_path)!r}, engine__kind="connect", engine__url={connect_server.url!r},
            session__restore=False, session__idle_timeout_s=0)
        with acting_as(LOCAL_PRINCIPAL):
            g = GatewayService(cfg)
            h = g.open_session()
            op = g.execute_statement(h, "SELECT 41 + 1")
            deadline = time.monotonic() + 120
            while not g.get_operation_info(h, op).status.name in ("FINISHED", "ERROR") and time.monotonic() < deadline:
                time.sleep(0.02)
            page = g.fetch_results(h, op, 0)
            from pyspark import SparkContext
            children = open(f"/proc/{{os.getpid()}}/task/{{os.getpid()}}/children").read().split()
            print(json.dumps({{"rows": page.rows, "py4j": SparkContext._gateway is not None,
                              "children": children}}))
            g.shutdown()
    """)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=240)
    assert out.returncode == 0, out.stderr[-3000:]
    answer = json.loads(out.stdout.strip().splitlines()[-1])
    assert answer == {"rows": [[42]], "py4j": False, "children": []}


def test_add_jar_goes_into_the_sessions_artifacts_and_a_hive_udf_from_it_is_refused(connect_gateway, tmp_path):
    from jarbuild import build_jar, hive_udf_source

    jar = build_jar(tmp_path, "connect_upper", {"com.example.ConnectUpper": hive_udf_source("com.example.ConnectUpper")})
    mine, other = connect_gateway.open_session(), connect_gateway.open_session()
    try:
        _, info = run(connect_gateway, mine, f"ADD JAR '{jar}'")
        assert info.status == OperationStatus.FINISHED, info.exception
        op, _ = run(connect_gateway, mine, "SHOW JARS")
        assert [row[0] for row in fetch_all(connect_gateway, mine, op)[0]] == [str(jar)]
        op, _ = run(connect_gateway, other, "SHOW JARS")
        assert fetch_all(connect_gateway, other, op)[0] == []
        _, info = run(connect_gateway, mine, "CREATE TEMPORARY FUNCTION connect_upper AS 'com.example.ConnectUpper'")
        assert info.status == OperationStatus.ERROR
        assert "Spark Connect" in info.exception["root_cause"] and "SPARK-49249" in info.exception["root_cause"]
    finally:
        connect_gateway.close_session(mine)
        connect_gateway.close_session(other)


def test_history_records_a_connect_statement_with_its_rows(connect_gateway, connect_session):
    from gateway.models import LOCAL_USER

    op, _ = run(connect_gateway, connect_session, "SELECT id FROM range(0, 7) -- connect history")
    assert len(fetch_all(connect_gateway, connect_session, op)[0]) == 7
    deadline = time.monotonic() + 60
    entry = None
    while entry is None and time.monotonic() < deadline:
        connect_gateway.store.recorder.flush(30)
        entry = next((e for e in connect_gateway.list_history(LOCAL_USER, limit=50)
                      if e.operation_handle == str(op) and e.rows is not None), None)
        if entry is None:
            time.sleep(0.05)
    assert entry is not None and (entry.status, entry.rows) == ("FINISHED", 7)


def test_modules_work_over_connect(connect_gateway, connect_session):
    _, info = run(connect_gateway, connect_session, "LOAD MODULE geo")
    assert info.status == OperationStatus.FINISHED, info.exception
    op, _ = run(connect_gateway, connect_session, "SHOW MODULES")
    assert [row[0] for row in fetch_all(connect_gateway, connect_session, op)[0]] == ["core", "geo"]
