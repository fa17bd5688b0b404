"""A projection of constants (SELECT 1) on Spark Connect is answered from the server's driver, without a Spark
job: sent over a one-row VALUES (gateway.spark.connect.in_driver_text), with the same columns, types and values
as the text as written, and the text's own error when it fails."""
from __future__ import annotations

import pytest

from connect_support import fetch_all, wait_terminal
from gateway.models import OperationStatus
from gateway.spark.connect import in_driver_text, query_dataframe

CONSTANTS = ("SELECT 1", "SELECT 1 AS a, 'x' AS s, DATE'2024-02-29' AS day, 2.5 AS d, NULL AS n, "
             "array(1, 2) AS xs, map('k', 1) AS m, named_struct('f', 1) AS st -- a comment at the end",
             "SELECT 1 AS a, 2 AS a", "SELECT current_catalog(), upper('x'), 1 + 1")


def _run(gateway, session, sql, **kwargs):
    op = gateway.execute_statement(session, sql, **kwargs)
    info = wait_terminal(gateway, session, op)
    return op, info


@pytest.mark.parametrize("sql", CONSTANTS)
def test_constants_are_planned_in_the_driver_with_the_texts_own_columns_and_values(connect_gateway, connect_session,
                                                                                  sql):
    spark = connect_gateway.sessions.get(connect_session).spark
    fast = query_dataframe(spark, sql)
    assert "LocalTableScan" in fast._explain_string()  # no job: the driver answers (a job's plan scans OneRowRelation)
    assert "OneRowRelation" in spark.sql(sql)._explain_string()
    assert "LateralJoin" not in fast._explain_string(extended=True)  # no subquery to decorrelate: half the time
    written = spark.sql(sql).toArrow()
    assert fast.toArrow().equals(written) and fast.schema == spark.sql(sql).schema
    op, info = _run(connect_gateway, connect_session, sql)
    assert info.status == OperationStatus.FINISHED, info.exception
    rows, _ = fetch_all(connect_gateway, connect_session, op)
    assert [c.name for c in connect_gateway.fetch_results(connect_session, op, 0).columns] == written.column_names
    assert len(rows) == 1 and len(rows[0]) == written.num_columns


def test_markers_are_bound_and_a_failing_constant_reports_the_text_as_written(connect_gateway, connect_session):
    op, info = _run(connect_gateway, connect_session, "SELECT :n + 1 AS m", parameters={"n": 41})
    assert info.status == OperationStatus.FINISHED, info.exception
    assert fetch_all(connect_gateway, connect_session, op)[0] == [[42]]
    _, info = _run(connect_gateway, connect_session, "SELECT 1, 1 / 0 AS boom")
    assert info.status == OperationStatus.ERROR
    assert info.exception["error_class"] == "DIVIDE_BY_ZERO"
    assert "__workbench" not in str(info.exception)  # the error of the text as written, not of the rewrite
    _, info = _run(connect_gateway, connect_session, "SELECT raise_error('no')")
    assert info.status == OperationStatus.ERROR and "__workbench" not in str(info.exception)
    _, info = _run(connect_gateway, connect_session, "SELECT id / 0 FROM range(3)")  # not rewritten: its error
    assert info.status == OperationStatus.ERROR and info.exception["error_class"] == "DIVIDE_BY_ZERO"


@pytest.mark.parametrize("sql", ["SELECT x", "SELECT *", "SELECT 1 FROM range(3)", "SELECT (SELECT 1)",
                                 "SELECT explode(array(1, 2))", "SELECT stack(2, 1, 2)", "SELECT DISTINCT 1",
                                 "SELECT 1 LIMIT 0", "SELECT /*+ COALESCE(1) */ 1", "WITH t AS (SELECT 1) SELECT 1",
                                 "SELECT 1 UNION ALL SELECT 2", "SELECT my_own_function(1)", "SELEC 1"])
def test_other_queries_are_sent_as_written(sql):
    assert in_driver_text(sql) is None
