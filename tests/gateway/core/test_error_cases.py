"""Errors that name what happened (issue 18, item 6): the contract and real HTTP on 127.0.0.1."""
from __future__ import annotations

import logging

import pytest

from conftest import run_all
from gateway.errors import InvalidRequestError, InvalidStatementError
from gateway.models import MAX_TIMEOUT_MS, ResultType
from gateway.spark.errors import _java_class_in
from rest_support import http, rest_session, server  # noqa: F401 - fixtures

DEEP = "SELECT " + "(" * 5000 + "1" + ")" * 5000


def post_statement(http, session, raw: bytes):  # noqa: F811
    return http("POST", f"/v1/sessions/{session}/statements", raw=raw)


def test_a_lone_surrogate_is_a_400_that_says_so(http, rest_session):  # noqa: F811
    answer = post_statement(http, rest_session, b'{"statement": "SELECT \'\\ud800\' AS s"}')
    assert answer.status == 400, answer.body
    assert "lone UTF-16 surrogate (U+D800) at line 1, position 8" in answer.body["errors"][0]
    # configure-session too; and the session still works
    answer = http("POST", f"/v2/sessions/{rest_session}/configure-session", raw=b'{"statement": "SET a=\\udc00"}')
    assert answer.status == 400 and "surrogate" in answer.body["errors"][0]
    ok = http.execute(rest_session, "SELECT '\U0001F600' AS smile")  # a real pair is fine
    assert http.fetch_all(rest_session, ok)[1] == [["\U0001F600"]]


def test_a_lone_surrogate_through_the_contract(gateway, session):
    """Said in the words REST's body check uses (one helper, gateway.models.lone_surrogate), with where."""
    with pytest.raises(InvalidStatementError, match=r"lone UTF-16 surrogate \(U\+D83D\) at line 2, position 3") as caught:
        gateway.execute_statement(session, "SELECT 1\n-- \ud83d")
    assert caught.value.details == {"line": 2, "position": 3}


@pytest.mark.parametrize("statement", [
    DEEP,
    "CREATE TABLE deep_ctas USING parquet AS SELECT " + "(" * 3000 + "1" + ")" * 3000 + " AS x",
    "SELECT * FROM " + "(SELECT * FROM " * 400 + "range(1)" + ") AS t" * 400,
], ids=["parentheses", "ctas", "subqueries"])
def test_deep_nesting_is_refused_before_spark_over_http(http, rest_session, statement):  # noqa: F811
    answer = http("POST", f"/v1/sessions/{rest_session}/statements", {"statement": statement})
    assert answer.status == 400, answer.body
    assert answer.body["error_class"] == "STATEMENT_TOO_DEEPLY_NESTED"
    assert "too deeply nested" in answer.body["errors"][0] and "statement.max_nesting" in answer.body["errors"][0]


def test_a_stack_overflow_in_spark_reads_as_too_deeply_nested(gateway, session, monkeypatch):
    monkeypatch.setattr(gateway.runner, "max_nesting", 1_000_000)  # let it reach Spark's parser
    _, _, page = run_all(gateway, session, DEEP, timeout_s=120)
    assert page.result_type is ResultType.ERROR
    assert page.exception["error_class"] == "STATEMENT_TOO_DEEPLY_NESTED"
    assert "too deeply nested for Spark" in page.exception["root_cause"]
    assert run_all(gateway, session, "SELECT 1")[1] == [[1]]  # the session and the driver are fine


@pytest.mark.parametrize("value", ["1000000000000000000000000000000", "true", "-5", "1.5", '"10"',
                                   str(MAX_TIMEOUT_MS + 1)])
def test_execution_timeout_is_validated(http, rest_session, value):  # noqa: F811
    for path in (f"/v1/sessions/{rest_session}/statements", f"/v2/sessions/{rest_session}/configure-session"):
        answer = http("POST", path, raw=f'{{"statement": "SET a=1", "executionTimeout": {value}}}'.encode())
        assert answer.status == 400, (path, value, answer.body)
        assert "executionTimeout" in answer.body["errors"][0]


def test_execution_timeout_within_bounds_still_works(http, rest_session):  # noqa: F811
    op = http.execute(rest_session, "SELECT reflect('java.lang.Thread', 'sleep', CAST(5000 AS BIGINT))",
                      executionTimeout=300)
    assert http.wait_status(rest_session, op) == "TIMEOUT"


@pytest.mark.parametrize("timeout_ms", [10 ** 30, float("inf"), float("nan"), -1, True])
def test_the_contract_refuses_bad_timeouts(gateway, session, timeout_ms):
    with pytest.raises(InvalidRequestError, match="milliseconds from 0"):
        gateway.execute_statement(session, "SELECT 1", timeout_ms=timeout_ms)


def test_a_java_failure_names_the_java_class_not_py4j(gateway, session):
    _, _, page = run_all(gateway, session, "SELECT reflect('java.lang.Integer', 'parseInt', 'x')")
    assert page.exception["error_class"] == "NumberFormatException"
    assert _java_class_in("An error occurred while calling o12.x.\n: java.lang.OutOfMemoryError: Java heap") \
        == "OutOfMemoryError"
    assert _java_class_in("py4j says nothing useful") == "JavaError"


def test_user_sql_errors_log_one_info_line_and_bugs_log_an_error(gateway, session, caplog):
    caplog.set_level(logging.INFO)
    _, _, page = run_all(gateway, session, "SELECT * FROM no_such_table_anywhere")
    assert page.exception["error_class"] == "TABLE_OR_VIEW_NOT_FOUND"
    ours = [r for r in caplog.records if r.name == "gateway.core.executor"]
    assert [r.levelno for r in ours] == [logging.INFO] and ours[0].exc_info is None
    assert "TABLE_OR_VIEW_NOT_FOUND" in ours[0].getMessage()
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], "a user error logged at ERROR"

    def buggy_guard(session, statement):
        if "bug_marker" in statement.text:
            raise ZeroDivisionError("a bug of ours")

    caplog.clear()
    gateway.runner.guards.append(buggy_guard)
    try:
        _, _, page = run_all(gateway, session, "SELECT 1 AS bug_marker")
    finally:
        gateway.runner.guards.remove(buggy_guard)
    assert page.result_type is ResultType.ERROR
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert errors and errors[0].exc_info is not None and "internal error" in errors[0].getMessage()
