"""Every session sees every write (issue 18, item 2).

Session A reads a table, so that Spark caches its relation and file list in A; session B then
writes it. A's next read must return B's data: no REFRESH TABLE, no FILE_NOT_EXIST, no old rows.
Through the contract, over real HTTP, for SQL writes, atomic writes and the sample database.
"""
from __future__ import annotations

import pytest

from conftest import run_all
from gateway.core.freshness import WRITES
from gateway.core.sample_data import SAMPLE_DATABASE
from gateway.models import ResultType
from rest_support import http, server  # noqa: F401 - fixtures

DB = "shared_sessions"


@pytest.fixture(scope="module")
def pair(gateway):
    a = gateway.open_session(name="reader")
    b = gateway.open_session(name="writer")
    run_all(gateway, b, f"CREATE DATABASE IF NOT EXISTS {DB}")
    yield a, b
    for handle in (a, b):
        gateway.close_session(handle)


def rows_of(gateway, session, statement):
    _, rows, page = run_all(gateway, session, statement)
    assert page.result_type is not ResultType.ERROR, page.exception
    return rows


def count(gateway, session, table):
    return rows_of(gateway, session, f"SELECT count(*), sum(id) FROM {table}")[0]


def seed(gateway, b, table, rows=1000, extra=""):
    rows_of(gateway, b, f"DROP TABLE IF EXISTS {table}")
    rows_of(gateway, b, f"CREATE TABLE {table} (id BIGINT{extra}) USING parquet")
    rows_of(gateway, b, f"INSERT INTO {table} SELECT id FROM range({rows})" if not extra
            else f"INSERT INTO {table} SELECT id, 'x' FROM range({rows})")


def test_insert_into_is_seen_by_a_session_that_read_before(gateway, pair):
    a, b = pair
    table = f"{DB}.appended"
    seed(gateway, b, table)
    assert count(gateway, a, table) == [1000, 499500]
    rows_of(gateway, b, f"INSERT INTO {table} SELECT id FROM range(1000, 1500)")
    assert count(gateway, a, table) == [1500, sum(range(1500))]  # was 1,000: the old file list


@pytest.mark.parametrize("write", [
    "INSERT OVERWRITE TABLE {t} SELECT id FROM range(10, 20)",
    "CREATE OR REPLACE TABLE {t} USING parquet AS SELECT id FROM range(10, 20)",
    "WITH q AS (SELECT id FROM range(10, 20)) INSERT OVERWRITE TABLE {t} SELECT id FROM q",
], ids=["insert-overwrite", "rtas", "with-insert-overwrite"])
def test_overwrite_and_replace_are_seen_without_refresh(gateway, pair, write):
    a, b = pair
    table = f"{DB}.replaced"
    seed(gateway, b, table)
    assert count(gateway, a, table) == [1000, 499500]
    rows_of(gateway, b, write.format(t=table))
    assert count(gateway, a, table) == [10, sum(range(10, 20))]  # was FILE_NOT_EXIST


def test_drop_and_create_is_seen_with_the_new_columns(gateway, pair):
    a, b = pair
    table = f"{DB}.recreated"
    seed(gateway, b, table)
    assert count(gateway, a, table) == [1000, 499500]
    assert [c.name for c in gateway.get_table(a, table).columns] == ["id"]
    rows_of(gateway, b, f"DROP TABLE {table}")
    rows_of(gateway, b, f"CREATE TABLE {table} (id BIGINT, label STRING) USING parquet")
    rows_of(gateway, b, f"INSERT INTO {table} VALUES (7, 'seven')")
    assert [c.name for c in gateway.get_table(a, table).columns] == ["id", "label"]
    assert rows_of(gateway, a, f"SELECT * FROM {table}") == [[7, "seven"]]


def test_partitioned_table_overwrite_is_seen(gateway, pair):
    a, b = pair
    table = f"{DB}.parts"
    rows_of(gateway, b, f"DROP TABLE IF EXISTS {table}")
    rows_of(gateway, b, f"CREATE TABLE {table} (id BIGINT, p INT) USING parquet PARTITIONED BY (p)")
    rows_of(gateway, b, f"INSERT INTO {table} SELECT id, CAST(id % 3 AS INT) FROM range(300)")
    assert count(gateway, a, table) == [300, sum(range(300))]
    rows_of(gateway, b, f"INSERT OVERWRITE TABLE {table} SELECT id, CAST(id % 3 AS INT) FROM range(30)")
    assert count(gateway, a, table) == [30, sum(range(30))]
    rows_of(gateway, b, f"INSERT INTO {table} SELECT id, 9 FROM range(30, 40)")
    assert count(gateway, a, table) == [40, sum(range(40))]


def test_a_failed_write_still_makes_other_sessions_look_again(gateway, pair):
    a, b = pair
    before = WRITES.value
    _, _, page = run_all(gateway, b, f"INSERT INTO {DB}.no_such_table SELECT 1")
    assert page.result_type is ResultType.ERROR
    assert WRITES.value > before


def test_reads_and_settings_do_not_move_the_epoch(gateway, pair):
    a, _ = pair
    rows_of(gateway, a, "SELECT 1")  # catch up first
    before, catch_ups = WRITES.value, WRITES.catch_ups
    for statement in ("SELECT 1", "SHOW DATABASES", f"DESCRIBE DATABASE {DB}", "SET spark.sql.ansi.enabled=true",
                      f"USE {DB}", "USE default", "EXPLAIN SELECT 1",
                      # the session's own objects: other sessions keep their cached tables
                      "CREATE OR REPLACE TEMPORARY VIEW own_view AS SELECT 1",
                      "DECLARE OR REPLACE VARIABLE own_variable INT DEFAULT 1", "DROP TEMPORARY VARIABLE own_variable"):
        rows_of(gateway, a, statement)
    assert WRITES.value == before and WRITES.catch_ups == catch_ups


def test_the_sample_database_does_not_break_other_tabs(gateway, pair):
    a, b = pair
    gateway.create_sample_database(b)
    first = rows_of(gateway, a, f"SELECT count(*) FROM {SAMPLE_DATABASE}.orders")
    gateway.create_sample_database(b)  # drops and recreates every table A has read
    assert rows_of(gateway, a, f"SELECT count(*) FROM {SAMPLE_DATABASE}.orders") == first
    assert rows_of(gateway, a, f"SELECT count(*) FROM {SAMPLE_DATABASE}.customers")[0][0] > 0


def test_rest_sessions_see_each_others_writes(http, gateway):  # noqa: F811
    a, b = http.open_session(), http.open_session()
    table = f"{DB}.over_http"
    try:
        for statement in (f"CREATE DATABASE IF NOT EXISTS {DB}", f"DROP TABLE IF EXISTS {table}",
                          f"CREATE TABLE {table} USING parquet AS SELECT id FROM range(100)"):
            assert http.wait_status(b, http.execute(b, statement)) == "FINISHED"
        _, rows, _ = http.fetch_all(a, http.execute(a, f"SELECT count(*) FROM {table}"))
        assert rows == [[100]]
        op = http.execute(b, f"INSERT OVERWRITE TABLE {table} SELECT id FROM range(5)")
        assert http.wait_status(b, op) == "FINISHED"
        op = http.execute(a, f"SELECT count(*) FROM {table}")
        assert http.wait_status(a, op) == "FINISHED"
        _, rows, _ = http.fetch_all(a, op)
        assert rows == [[5]]
    finally:
        for handle in (a, b):
            http("DELETE", f"/v1/sessions/{handle}")


def test_another_sessions_new_table_and_columns_complete_at_once(gateway, pair):
    a, b = pair
    table = f"{DB}.completed_later"
    rows_of(gateway, b, f"DROP TABLE IF EXISTS {table}")
    before = [c.value for c in gateway.complete_candidates(a, f"SELECT * FROM {DB}.", len(f"SELECT * FROM {DB}."))]
    assert "completed_later" not in before  # A's completion has loaded the database's tables now
    rows_of(gateway, b, f"CREATE TABLE {table} (id BIGINT, fresh_column STRING) USING parquet")
    statement = f"SELECT * FROM {DB}."
    assert "completed_later" in [c.value for c in gateway.complete_candidates(a, statement, len(statement))]
    statement = f"SELECT fresh FROM {table}"
    assert "fresh_column" in [c.value for c in gateway.complete_candidates(a, statement, len("SELECT fresh"))]
