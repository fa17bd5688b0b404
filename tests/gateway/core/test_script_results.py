"""One result per statement of a script, and :name parameters bound through Spark's args (issue 31, items 1-2).

Real Spark through the service: every statement's rows are fetched by index; a failing statement has its
own error at its line while the others keep theirs; parameter markers come from the lexer's code regions.
"""
import datetime as dt
from decimal import Decimal

import pytest

from gateway import InvalidRequestError, OperationStatus, ResultType
from gateway.core.parameters import check_parameters, marker_names
from tests.conftest import wait_for


def rows_of(gateway, session, op, statement):
    rows, last = [], None
    for page in gateway.iter_results(session, op, None, 60, statement=statement):
        last = page
        if page.result_type is ResultType.ERROR:
            return rows, page
        rows.extend(page.rows)
    return rows, last


def ended(gateway, session, op):
    return wait_for(lambda: gateway.get_operation_info(session, op).status.is_terminal
                    and gateway.operations.get(gateway.sessions.get(session).handle, op).done.is_set(), 60)


def test_three_statements_give_three_results_in_order(gateway, session):
    script = ("SELECT id FROM range(3);\n"
              "SELECT 'b' AS letter UNION ALL SELECT 'c';\n"
              "SELECT id * 10 AS tens FROM range(2)")
    op = gateway.execute_statement(session, script)
    try:
        first, _ = rows_of(gateway, session, op, 0)
        second, _ = rows_of(gateway, session, op, 1)
        third, end = rows_of(gateway, session, op, 2)
        assert first == [[0], [1], [2]]
        assert sorted(second) == [["b"], ["c"]]
        assert third == [[0], [10]] and end.result_type is ResultType.EOS
        assert [c.name for c in gateway.get_operation_result_schema(session, op, statement=1)] == ["letter"]
        assert ended(gateway, session, op)
        info = gateway.get_operation_info(session, op)
        assert [(s.index, s.status, s.rows, s.has_result) for s in info.statements] == [
            (0, "FINISHED", 3, True), (1, "FINISHED", 2, True), (2, "FINISHED", 2, True)]
        assert all(isinstance(s.elapsed_ms, int) for s in info.statements)
    finally:
        gateway.close_operation(session, op)


def test_the_operations_own_result_is_still_the_last_statements(gateway, session):
    op = gateway.execute_statement(session, "SELECT 1 AS a; SELECT 2 AS b")
    try:
        pages = list(gateway.iter_results(session, op))
        assert [r for p in pages for r in p.rows] == [[2]] and pages[-1].columns[0].name == "b"
    finally:
        gateway.close_operation(session, op)


def test_a_failing_middle_statement_has_its_error_at_its_line_and_the_others_keep_theirs(gateway, session):
    script = "SELECT 1 AS ok;\nSELECT no_such_column FROM range(1);\nSELECT 3 AS never"
    op = gateway.execute_statement(session, script)
    try:
        assert ended(gateway, session, op)
        info = gateway.get_operation_info(session, op)
        assert info.status == OperationStatus.ERROR
        first, _ = rows_of(gateway, session, op, 0)
        assert first == [[1]]
        _, failed = rows_of(gateway, session, op, 1)
        assert failed.result_type is ResultType.ERROR and failed.exception["line"] == 2
        assert "no_such_column" in failed.exception["root_cause"]
        assert [(s.index, s.status) for s in info.statements] == [(0, "FINISHED"), (1, "ERROR")]
        assert info.statements[1].error["line"] == 2
        _, skipped = rows_of(gateway, session, op, 2)
        assert skipped.result_type is ResultType.ERROR
    finally:
        gateway.close_operation(session, op)


def test_a_statement_without_rows_gives_an_empty_end_and_a_bad_index_is_refused(gateway, session):
    op = gateway.execute_statement(session, "CREATE TEMPORARY VIEW v31 AS SELECT 1 AS x; SELECT * FROM v31")
    try:
        assert ended(gateway, session, op)
        page = gateway.fetch_results(session, op, 0, statement=0)
        assert page.result_type is ResultType.EOS and page.rows == [] and page.columns == []
        with pytest.raises(InvalidRequestError, match="0 to 1"):
            gateway.fetch_results(session, op, 0, statement=2)
    finally:
        gateway.close_operation(session, op)


def test_a_kept_result_is_bounded_and_counts_every_row(gateway, session):
    handle = gateway.sessions.get(session).handle
    op = gateway.execute_statement(session, "SELECT id FROM range(0, 50000, 1, 4); SELECT 1")
    try:
        assert ended(gateway, session, op)
        operation = gateway.operations.get(handle, op)
        kept = operation.statement_results[0]
        info = gateway.get_operation_info(session, op)
        assert info.statements[0].rows == 50000
        assert kept.rows_produced <= kept.max_rows
        assert info.statements[0].truncated == (kept.rows_produced < 50000)
    finally:
        gateway.close_operation(session, op)


# -- parameters -----------------------------------------------------------------------------------

def test_markers_come_from_code_only():
    text = ("SELECT :id, ':x' AS s, `:y` AS n, a::INT, v:path -- :z\n"
            "/* :w */ FROM t WHERE d BETWEEN :from AND :to AND id = :id")
    assert marker_names(text) == ["id", "from", "to"]


def test_id_is_bound_through_spark_args(gateway, session):
    op = gateway.execute_statement(session, "SELECT id FROM range(10) WHERE id = :id", parameters={"id": 7})
    try:
        assert [r for p in gateway.iter_results(session, op) for r in p.rows] == [[7]]
    finally:
        gateway.close_operation(session, op)


def test_typed_values_and_a_marker_in_a_string_is_text(gateway, session):
    op = gateway.execute_statement(
        session, "SELECT :d AS d, :n AS n, ':d' AS literal, :price AS price",
        parameters={"d": {"type": "DATE", "value": "2024-02-29"}, "n": None, "price": {"type": "DECIMAL", "value": "12.50"}})
    try:
        rows = [r for p in gateway.iter_results(session, op) for r in p.rows]
        assert rows == [["2024-02-29", None, ":d", "12.50"]] or rows == [["2024-02-29", None, ":d", 12.5]]
    finally:
        gateway.close_operation(session, op)


def test_a_missing_parameter_is_a_clear_error_before_anything_runs(gateway, session):
    with pytest.raises(InvalidRequestError, match=r":id in statement 2 of 2 \(line 2\)") as caught:
        gateway.execute_statement(session, "CREATE TEMPORARY VIEW never31 AS SELECT 1;\nSELECT :id, :other",
                                  parameters={"other": 1})
    assert caught.value.details["parameters"] == ["id"]
    assert "never31" not in [t.name for t in gateway.list_tables(session)]


def test_an_injected_value_is_only_a_value(gateway, session):
    gateway.configure_session(session, "CREATE TEMPORARY VIEW t31 AS SELECT 'a' AS name")
    evil = "'; DROP VIEW t31; --"
    op = gateway.execute_statement(session, "SELECT :name AS name, count(*) AS n FROM t31 WHERE name = :name",
                                   parameters={"name": evil})
    try:
        assert [r for p in gateway.iter_results(session, op) for r in p.rows] == [[evil, 0]]
    finally:
        gateway.close_operation(session, op)
    op = gateway.execute_statement(session, "SELECT count(*) FROM t31")
    try:
        assert [r for p in gateway.iter_results(session, op) for r in p.rows] == [[1]]
    finally:
        gateway.close_operation(session, op)


def test_bad_parameter_values_are_clear_errors():
    assert check_parameters({"d": {"type": "date", "value": "2024-01-31"}}) == {"d": dt.date(2024, 1, 31)}
    assert check_parameters({"p": {"type": "DECIMAL", "value": "1.5"}}) == {"p": Decimal("1.5")}
    with pytest.raises(InvalidRequestError, match="not a DATE value"):
        check_parameters({"d": {"type": "DATE", "value": "31/01/2024"}})
    with pytest.raises(InvalidRequestError, match="without the colon"):
        check_parameters({":id": 1})
    with pytest.raises(InvalidRequestError, match="mapping"):
        check_parameters([1, 2])
    with pytest.raises(InvalidRequestError, match="cannot be bound"):
        check_parameters({"x": object()})


def test_the_form_fields_follow_comment_hints_and_from_to_pairs(gateway):
    text = ("-- :country list from \"Countries\"\n-- :n number\n/* :day date */\n"
            "SELECT * FROM t WHERE c = :country AND n > :n AND d = :day AND s BETWEEN :from AND :to "
            "AND x = :x AND y = ':not_a_marker' AND t BETWEEN :a_from AND :a_to")
    fields = gateway.statement_parameters(text)
    assert [(f["name"], f["kind"], f["source"], f["pair"]) for f in fields] == [
        ("country", "list", "Countries", ["country"]), ("n", "number", None, ["n"]), ("day", "date", None, ["day"]),
        ("from", "date range", None, ["from", "to"]), ("x", "text", None, ["x"]),
        ("a_from", "date range", None, ["a_from", "a_to"])]
    assert gateway.statement_parameters("SELECT 1") == []
