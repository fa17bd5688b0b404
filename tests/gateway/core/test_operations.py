"""Operations against a real local Spark: paging, scripts, cancel, timeout, bounds, bad input."""
import time

import pytest

from gateway import (InvalidStatementError, InvalidTokenError, OperationHandle, OperationNotFoundError,
                     OperationStateError, OperationStatus, OperationType, ResultType)
from gateway.spark.arrow_stream import is_small
from tests.conftest import run_all, wait_for

# Each row sleeps a second in the task; Thread.sleep answers the interrupt that a cancel sends.
SLOW_QUERY = "SELECT reflect('java.lang.Thread', 'sleep', CAST(1000 AS BIGINT)) FROM range(0, 100000, 1, 2)"


def why_no_job(gateway, session, operation) -> str:
    """What the gateway and Spark say when an operation's job did not start: for the failure's message."""
    info = gateway.get_operation_info(session, operation)
    tracker = gateway.root.sparkContext.statusTracker()
    return (f"operation {info.status.value} {info.exception or ''}; pool threads in use "
            f"{sum(gateway.operations.running_and_waiting(s.handle)[0] for s in gateway.sessions.list())}; "
            f"Spark active jobs {list(tracker.getActiveJobsIds())}; health {gateway.get_health()}")


def running_jobs(gateway, operation):
    sc = gateway.root.sparkContext
    tracker = sc.statusTracker()
    jobs = tracker.getJobIdsForGroup(f"workbench-op-{operation}")
    return [j for j in jobs if (tracker.getJobInfo(j) and tracker.getJobInfo(j).status == "RUNNING")]


def test_execute_fetch_types_and_status(gateway, session):
    op = gateway.execute_statement(session, "SELECT CAST(1 AS BIGINT) AS id, 'Jay' AS name")
    assert wait_for(lambda: gateway.get_operation_info(session, op).status == OperationStatus.FINISHED, 60)
    info = gateway.get_operation_info(session, op)
    assert info.type == OperationType.EXECUTE_STATEMENT and info.has_result
    schema = gateway.get_operation_result_schema(session, op)
    assert [c.to_json() for c in schema] == [
        {"name": "id", "type": {"type": "BIGINT", "nullable": False}},
        {"name": "name", "type": {"type": "VARCHAR", "nullable": False, "length": 2147483647}}]
    page = gateway.fetch_results(session, op, 0)
    assert page.result_type == ResultType.EOS and page.next_token is None
    assert page.rows == [[1, "Jay"]]
    assert page.row_json() == [{"kind": "INSERT", "fields": [1, "Jay"]}]


def test_token_retry_returns_the_same_page(gateway, session):
    op = gateway.execute_statement(session, "SELECT id FROM range(0, 2500, 1, 3) ORDER BY id")
    token, pages = 0, []
    while True:
        page = gateway.fetch_results(session, op, token, max_rows=1000)
        if page.result_type == ResultType.NOT_READY:
            continue
        again = gateway.fetch_results(session, op, token, max_rows=1000)
        assert again.rows == page.rows and again.next_token == page.next_token
        pages.append(page)
        if page.next_token is None:
            break
        token = page.next_token
    rows = [r[0] for p in pages for r in p.rows]
    assert rows == list(range(2500))
    assert all(len(p.rows) <= 1000 for p in pages) and len(pages) >= 3
    with pytest.raises(InvalidTokenError, match="ended at token"):
        gateway.fetch_results(session, op, token + 1)


def test_script_runs_in_order_and_returns_the_last_result(gateway, session):
    script = """
        CREATE TEMPORARY VIEW s1 AS SELECT 1 AS a;
        SET spark.sql.shuffle.partitions = 3;
        SELECT * FROM s1;   -- an intermediate query runs too
        CREATE TEMPORARY VIEW s2 AS SELECT a + 1 AS b FROM s1;
        SELECT b, current_database() AS db FROM s2
    """
    columns, rows, page = run_all(gateway, session, script)
    assert rows == [[2, "default"]] and [c.name for c in columns] == ["b", "db"]
    assert gateway.get_session_config(session)["spark.sql.shuffle.partitions"] == "3"


def test_script_stops_at_the_first_error_and_names_it(gateway, session):
    op = gateway.execute_statement(session, "CREATE TEMPORARY VIEW e1 AS SELECT 1 AS a;\n"
                                            "SELECT nope FROM e1;\nCREATE TEMPORARY VIEW e2 AS SELECT 2")
    wait_for(lambda: gateway.get_operation_info(session, op).status == OperationStatus.ERROR)
    info = gateway.get_operation_info(session, op)
    assert info.status == OperationStatus.ERROR
    assert info.exception["root_cause"].startswith("statement 2 of 3 (line 2) failed")
    assert info.exception["error_class"] == "UNRESOLVED_COLUMN.WITH_SUGGESTION"
    assert info.exception["sqlstate"] == "42703"
    assert [s.status for s in info.statements] == ["FINISHED", "ERROR"]
    page = gateway.fetch_results(session, op, 0)
    assert page.result_type == ResultType.ERROR
    assert "e2" not in [t.name for t in gateway.list_tables(session)]


def test_syntax_error_carries_line_and_position_in_the_script(gateway, session):
    page = run_all(gateway, session, "SELECT 1;\nSELECT\n  1 +")[2]
    error = page.exception
    assert error["error_class"] == "PARSE_SYNTAX_ERROR" and error["sqlstate"] == "42601"
    assert (error["line"], error["position"]) == (3, 5)
    assert error["statement_index"] == 1
    assert "root_cause" in error and "exception_stack" in error


def test_operation_level_config_applies_to_that_operation_only(gateway, session):
    rows = run_all(gateway, session, "SELECT 1/0", config={"spark.sql.ansi.enabled": "false"})[1]
    assert rows == [[None]]
    assert run_all(gateway, session, "SELECT 1/0")[2].exception["error_class"] == "DIVIDE_BY_ZERO"


@pytest.mark.parametrize("statement, rows", [
    ("SELECT 1 AS x", [[1]]),
    ("SHOW DATABASES LIKE 'default'", [["default"]]),
    ("SELECT id FROM range(0, 100000000, 1, 4) LIMIT 3", [[0], [1], [2]]),
    ("SELECT count(*) FROM range(0, 1000, 1, 3)", [[1000]]),
])
def test_a_small_result_comes_whole_in_one_fetch(gateway, session, statement, rows):
    op = gateway.execute_statement(session, statement)
    pages = list(gateway.iter_results(session, op, timeout_s=60))
    assert [p.result_type for p in pages] == [ResultType.EOS] and pages[0].rows == rows
    gateway.close_operation(session, op)


@pytest.mark.parametrize("statement, rows", [
    ("VALUES (1, 'a'), (2, 'b')", [[1, "a"], [2, "b"]]),
    # A projection of one row and no table: Spark's ConvertToLocalRelation computes it in the driver.
    ("SELECT 1", [[1]]),
    ("SELECT 1 AS a, 'x' AS b, array(1, 2) AS c, named_struct('k', 2) AS d, 7 / 2 AS e",
     [[1, "x", [1, 2], {"k": 2}, 3.5]]),
])
def test_driver_side_rows_run_no_spark_job(gateway, session, statement, rows):
    op = gateway.execute_statement(session, statement)
    assert [p.rows for p in gateway.iter_results(session, op, timeout_s=60)] == [rows]
    assert list(gateway.root.sparkContext.statusTracker().getJobIdsForGroup(f"workbench-op-{op}")) == []
    gateway.close_operation(session, op)


def test_a_one_row_projection_in_the_driver_keeps_spark_semantics(gateway, session):
    """Errors, per-row functions and a UDF behave as in Spark's own job (the driver path only swaps the leaf)."""
    assert run_all(gateway, session, "SELECT 1/0")[2].exception["error_class"] == "DIVIDE_BY_ZERO"
    failed = run_all(gateway, session, "SELECT raise_error('boom')")[2].exception
    assert failed["error_class"] == "USER_RAISED_EXCEPTION" and "boom" in failed["root_cause"]
    first, second = (run_all(gateway, session, "SELECT rand(7) AS r, uuid() AS u")[1][0] for _ in range(2))
    assert first[0] == second[0] and first[1] != second[1]   # the seed's value; a new uuid per run
    spark = gateway.sessions.get(session).spark
    assert run_all(gateway, session, "SELECT rand(7)")[1] == [[spark.sql("SELECT rand(7)").collect()[0][0]]]


ALL_TYPES = """
    SELECT id, id * 1.5D AS d, CAST(id AS DECIMAL(10,2)) AS dec, CAST(id AS DECIMAL(30,0)) AS big,
           concat('r', id) AS s, CAST(concat('b', id) AS BINARY) AS bin, id % 2 = 0 AS flag,
           date_add(DATE'2020-01-01', CAST(id AS INT)) AS dt,
           TIMESTAMP'2020-01-01 10:00:00.5' + make_interval(0, 0, 0, 0, 0, 0, id) AS ts,
           TIMESTAMP_NTZ'2020-01-01 10:00:00' AS ntz, array(TIMESTAMP'2020-01-01 10:00:00', NULL) AS arr,
           map('k', id) AS m, named_struct('t', TIMESTAMP_NTZ'2021-01-01 00:00:00', 'n', CAST(NULL AS STRING)) AS st,
           CAST(NULL AS DOUBLE) AS nothing, CAST('NaN' AS DOUBLE) AS nan
    FROM {source}"""


def test_same_rows_whether_collected_or_streamed(gateway, session):
    gateway.configure_session(session, "SET spark.sql.session.timeZone = America/Los_Angeles")
    collected = ALL_TYPES.format(source="range(3)")
    streamed = ALL_TYPES.format(source="(SELECT explode(sequence(0L, 2L)) AS id)")
    spark = gateway.sessions.get(session).spark
    assert is_small(spark.sql(collected)) and not is_small(spark.sql(streamed))
    fast, slow = run_all(gateway, session, collected)[1], run_all(gateway, session, streamed)[1]
    assert fast == slow and len(fast) == 3
    assert fast[1] == [1, 1.5, 1.0, "1", "r1", "YjE=", False, "2020-01-02", "2020-01-01T18:00:01.500000Z",
                       "2020-01-01T10:00:00.000000", ["2020-01-01T18:00:00.000000Z", None], {"k": 1},
                       {"t": "2021-01-01T00:00:00.000000", "n": None}, None, "nan"]


def test_cancel_stops_a_collected_query(gateway, session):
    # One row (collected, not streamed) from one job of many short tasks that runs for minutes. Not
    # SLOW_QUERY under count(*): in one CI run that finished at once with no job seen running.
    statement = "SELECT sum(id % 7) FROM range(0, 20000000000, 1, 2000)"
    assert is_small(gateway.sessions.get(session).spark.sql(statement))
    op = gateway.execute_statement(session, statement)
    assert wait_for(lambda: running_jobs(gateway, op), timeout_s=30), \
        f"the slow query never started a job: {why_no_job(gateway, session, op)}"
    gateway.cancel_operation(session, op)
    assert wait_for(lambda: not running_jobs(gateway, op), timeout_s=2.0)
    assert run_all(gateway, session, "SELECT 7")[1] == [[7]]


def test_cancel_stops_the_spark_job(gateway, session):
    op = gateway.execute_statement(session, SLOW_QUERY)
    assert wait_for(lambda: running_jobs(gateway, op), timeout_s=30), "the slow query never started a job"
    started = time.monotonic()
    gateway.cancel_operation(session, op)
    assert gateway.get_operation_info(session, op).status == OperationStatus.CANCELED
    assert wait_for(lambda: not running_jobs(gateway, op), timeout_s=2.0)
    assert time.monotonic() - started < 2.0
    with pytest.raises(OperationStateError, match="canceled"):
        gateway.fetch_results(session, op, 0)
    assert run_all(gateway, session, "SELECT 5")[1] == [[5]]  # the session goes on


def test_timeout_stops_the_job(gateway, session):
    op = gateway.execute_statement(session, SLOW_QUERY, timeout_ms=1500)
    assert wait_for(lambda: gateway.get_operation_info(session, op).status == OperationStatus.TIMEOUT, 30)
    assert wait_for(lambda: not running_jobs(gateway, op), timeout_s=2.0)
    with pytest.raises(OperationStateError, match="timed out after 1500 ms"):
        gateway.fetch_results(session, op, 0)
    assert run_all(gateway, session, "SELECT 6")[1] == [[6]]


def test_large_result_stays_within_the_buffer_bound_and_close_stops_it(gateway, session, config):
    # 200 partitions of 250,000 rows: the driver holds one partition at a time (see docs/python-api.md).
    op = gateway.execute_statement(session, "SELECT id, id * 2 AS twice FROM range(0, 50000000, 1, 200)")
    fetcher = gateway.operation_fetcher(session, op)
    token = 0
    for _ in range(3):
        page = gateway.fetch_results(session, op, token, max_rows=5000)
        deadline = time.monotonic() + 60
        while page.result_type == ResultType.NOT_READY and time.monotonic() < deadline:
            page = gateway.fetch_results(session, op, token, max_rows=5000)
        assert page.result_type == ResultType.PAYLOAD and len(page.rows) == 5000
        token = page.next_token
    assert fetcher.producer_waiting.wait(60), "the producer must stop at the bound and wait for the client"
    produced = fetcher.rows_produced
    assert fetcher.peak_rows <= config["result.buffer_max_rows"] + 10_000  # bound, or one Arrow batch
    assert fetcher.buffered_bytes <= config["result.buffer_max_bytes"]
    assert produced < 100_000
    gateway.close_operation(session, op)
    assert fetcher.buffered_rows == 0 and fetcher.buffered_bytes == 0
    assert wait_for(lambda: not running_jobs(gateway, op), timeout_s=2.0)
    with pytest.raises(OperationNotFoundError):
        gateway.get_operation_info(session, op)


def test_statements_of_one_session_run_in_order(gateway, session):
    first = gateway.execute_statement(session, "CREATE TEMPORARY VIEW ord AS SELECT 41 AS v")
    second = gateway.execute_statement(session, "SELECT v + 1 FROM ord")
    assert run_all(gateway, session, "SELECT 0")[1] == [[0]]
    wait_for(lambda: gateway.get_operation_info(session, second).status.is_terminal)
    assert gateway.fetch_results(session, second, 0).rows == [[42]]
    gateway.close_operation(session, first)


# -- negative cases ---------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["", "   ", ";"])
def test_empty_text(gateway, session, text):
    with pytest.raises(InvalidStatementError, match="empty|only comments"):
        gateway.execute_statement(session, text)
    assert run_all(gateway, session, "SELECT 1")[1] == [[1]]


def test_garbage_text_is_a_spark_syntax_error(gateway, session):
    page = run_all(gateway, session, "%%% garbage ^^^")[2]
    assert page.result_type == ResultType.ERROR and page.exception["error_class"] == "PARSE_SYNTAX_ERROR"
    assert run_all(gateway, session, "SELECT 1")[1] == [[1]]


def test_one_megabyte_statement_is_refused_clearly(gateway, session):
    huge = "SELECT '" + "x" * (1024 * 1024) + "'"
    with pytest.raises(InvalidStatementError, match="characters long; the limit is"):
        gateway.execute_statement(session, huge)
    assert run_all(gateway, session, "SELECT 1")[1] == [[1]]


def test_unknown_and_foreign_operation_handles(gateway, session):
    with pytest.raises(OperationNotFoundError):
        gateway.fetch_results(session, OperationHandle(), 0)
    with pytest.raises(OperationNotFoundError):
        gateway.get_operation_info(session, "garbage")
    other = gateway.open_session()
    try:
        op = gateway.execute_statement(other, "SELECT 1")
        with pytest.raises(OperationNotFoundError):  # another session's operation looks unknown
            gateway.fetch_results(session, op, 0)
        assert run_all(gateway, other, "SELECT 1")[1] == [[1]]
    finally:
        gateway.close_session(other)


def test_wrong_token_and_closed_operation(gateway, session):
    op = gateway.execute_statement(session, "SELECT id FROM range(10)")
    with pytest.raises(InvalidTokenError, match="expected 0"):
        gateway.fetch_results(session, op, 3)
    gateway.fetch_results(session, op, 0)
    gateway.close_operation(session, op)
    with pytest.raises(OperationNotFoundError, match="closed"):
        gateway.fetch_results(session, op, 0)
    with pytest.raises(OperationNotFoundError):
        gateway.close_operation(session, op)
    assert run_all(gateway, session, "SELECT 1")[1] == [[1]]


def test_cancel_of_a_finished_operation_is_refused(gateway, session):
    op = gateway.execute_statement(session, "SELECT 1")
    wait_for(lambda: gateway.get_operation_info(session, op).status == OperationStatus.FINISHED)
    gateway.fetch_results(session, op, 0)
    with pytest.raises(OperationStateError, match="FINISHED"):
        gateway.cancel_operation(session, op)


def test_bad_timeout_and_config(gateway, session):
    from gateway import InvalidRequestError
    with pytest.raises(InvalidRequestError, match="timeout_ms"):
        gateway.execute_statement(session, "SELECT 1", timeout_ms=-5)
    with pytest.raises(InvalidRequestError, match="mapping"):
        gateway.execute_statement(session, "SELECT 1", config=["a"])
