"""Completion candidates, the per-session cache and its refresh after DDL, job progress, sample data."""
import time

import pytest

from conftest import wait_for
from gateway import InvalidRequestError, OperationStatus
from gateway.core.functions import builtin_functions, signature_of


@pytest.fixture(scope="module")
def sample_session(gateway):
    handle = gateway.open_session(name="sample")
    tables = gateway.create_sample_database(handle)
    assert tables == ["customers", "products", "orders", "order_items"]
    yield handle
    gateway.close_session(handle)


def values(candidates):
    return [c.value for c in candidates]


def test_sample_database_is_related_and_current(gateway, sample_session):
    from conftest import run_all
    assert gateway.get_current_database(sample_session) == "sample"
    _, rows, _ = run_all(gateway, sample_session,
                         "SELECT count(*), count(DISTINCT c.id) FROM orders o JOIN customers c ON o.customer_id = c.id")
    assert rows == [[500, 50]]
    _, rows, _ = run_all(gateway, sample_session,
                         "SELECT count(*) FROM order_items i LEFT ANTI JOIN products p ON i.product_id = p.id")
    assert rows == [[0]]


def test_tables_after_from_and_columns_after_alias(gateway, sample_session):
    after_from = gateway.complete_candidates(sample_session, "SELECT * FROM ", 14)
    kinds = {c.value: c.kind for c in after_from}
    assert {"customers", "orders", "order_items", "products"} <= set(kinds) and kinds["orders"] == "table"
    assert kinds["sample"] == "database"
    text = "SELECT o. FROM orders o JOIN customers AS c ON o.customer_id = c.id"
    columns = gateway.complete_candidates(sample_session, text, 9)
    assert values(columns) == ["customer_id", "id", "order_date", "status"]
    assert {c.detail for c in columns} >= {"BIGINT", "DATE", "STRING"}
    assert values(gateway.complete_candidates(sample_session, text.replace("o.", "c.na", 1), 11)) == ["name"]
    # Columns of every referenced table are offered in the select list, before functions.
    plain = values(gateway.complete_candidates(sample_session, "SELECT coun FROM customers, orders", 11))
    assert plain[0] == "country" and "count" in plain
    assert values(gateway.complete_candidates(sample_session, "SELECT * FROM sample.ord", 24)) == \
        ["order_items", "orders"]


def test_functions_carry_signatures_and_keywords_complete(gateway, sample_session):
    gateway.complete_candidates(sample_session, "SELECT up", 9)
    assert builtin_functions().wait_details(120)
    upper = [c for c in gateway.complete_candidates(sample_session, "SELECT uppe", 11) if c.value == "upper"]
    assert upper and upper[0].kind == "function" and upper[0].detail.startswith("upper(str) — Returns")
    assert "SELECT" in gateway.complete_statement(sample_session, "sel", 3)
    assert signature_of("\n    substr(str, pos[, len]) - Returns …", "substr") == "substr(str, pos[, len])"


def test_cache_refreshes_after_ddl_and_sees_temporary_views(gateway, sample_session):
    before = gateway.complete_candidates(sample_session, "SELECT * FROM fresh", 19)
    assert values(before) == []
    gateway.configure_session(sample_session, "CREATE OR REPLACE TEMPORARY VIEW fresh_view AS SELECT 1 AS fresh_col")
    after = gateway.complete_candidates(sample_session, "SELECT * FROM fresh", 19)
    assert [(c.value, c.kind) for c in after] == [("fresh_view", "temporary view")]
    assert values(gateway.complete_candidates(sample_session, "SELECT fresh_c FROM fresh_view", 14)) == ["fresh_col"]
    # Another session has its own cache and catalog view: no temporary view of ours there.
    other = gateway.open_session(name="other")
    try:
        assert values(gateway.complete_candidates(other, "SELECT * FROM fresh", 19)) == []
    finally:
        gateway.close_session(other)


def test_bad_positions_are_clear_errors_and_the_session_stays_usable(gateway, sample_session):
    for position in (-1, 99, "3", True):
        with pytest.raises(InvalidRequestError, match="position"):
            gateway.complete_candidates(sample_session, "SELECT", position)
    # An unterminated string or unknown alias gives no candidates rather than an error.
    assert gateway.complete_candidates(sample_session, "SELECT 'abc", 11) is not None
    assert values(gateway.complete_candidates(sample_session, "SELECT zz. FROM orders", 10)) == []
    assert "orders" in gateway.complete_statement(sample_session, "SELECT * FROM ord", 17)


def test_progress_reports_jobs_and_stages_of_a_running_operation(gateway, session):
    op = gateway.execute_statement(
        session, "SELECT count(*) FROM range(0, 4000000000, 1, 4) a WHERE a.id % 7 = 3 AND reflect("
                 "'java.lang.Thread', 'sleep', CAST(0 AS BIGINT)) IS NULL")
    try:
        progress = wait_for(lambda: (lambda p: p if p.running_tasks else None)(
            gateway.get_operation_progress(session, op)), timeout_s=60)
        assert progress and progress.jobs[0].status == "RUNNING"
        assert progress.tasks >= 1 and 0 <= progress.completed <= progress.tasks
        assert "job" in progress.summary() and progress.active_stages
        gateway.cancel_operation(session, op)
        assert wait_for(lambda: gateway.get_operation_info(session, op).status == OperationStatus.CANCELED)
        assert wait_for(lambda: all(j.status != "RUNNING" for j in gateway.get_operation_progress(session, op).jobs),
                        timeout_s=30)
    finally:
        gateway.close_operation(session, op)


def test_the_dictionary_holds_what_the_editor_completes_locally(gateway, sample_session):
    """The editor completes in the browser from this: tables, databases, functions with signatures,
    table functions after FROM, keywords, and the columns of the tables it asks for."""
    found = gateway.completion_dictionary(sample_session, ["orders", "sample.customers", "no_such_table"])
    relations = {c["value"]: c["kind"] for c in found["relations"]}
    assert {"customers", "orders", "order_items", "products"} <= set(relations) and relations["orders"] == "table"
    assert "sample" in [c["value"] for c in found["databases"]] and found["catalogs"]
    assert "upper" in [c["value"] for c in found["functions"]] and "SELECT" in [c["value"] for c in found["keywords"]]
    assert "range" in [c["value"] for c in found["table_functions"]]
    assert [c["value"] for c in found["columns"]["orders"]] == ["id", "customer_id", "order_date", "status"]
    assert "signup_date" in [c["value"] for c in found["columns"]["sample.customers"]]
    assert found["columns"]["no_such_table"] is None
    # A function created in the session is in the next dictionary at once (known from the statement).
    gateway.configure_session(sample_session, "CREATE TEMPORARY FUNCTION dict_twice(x INT) RETURNS INT RETURN x * 2")
    assert "dict_twice" in [c["value"] for c in gateway.completion_dictionary(sample_session)["functions"]]
    assert "range" in [c.value for c in gateway.complete_candidates(sample_session, "SELECT * FROM ", 14)]
    with pytest.raises(InvalidRequestError, match="columns_of must be a list"):
        gateway.completion_dictionary(sample_session, "orders")
