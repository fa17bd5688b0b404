"""Atomic CTAS, RTAS and INSERT OVERWRITE (FLIP-305) against real Spark and real files.

Faults are injected for real: a query that fails on its last partition (raise_error), a
cancel and a timeout while the write's tasks run, and (in a child process with its own data
directory) SIGKILL in the middle of the write or of its publishing, followed by a restart.
After each fault: a CTAS left no table, an RTAS or INSERT OVERWRITE left exactly the old
rows, the warehouse holds exactly the files it held before, and the statement then succeeds.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

import pytest

from gateway import InvalidStatementError, OperationStatus, SqlExecutionError
from gateway.atomic import WriteAction, install_atomic_writes, parse_write
from gateway.executor import StatementRunner
from gateway.statements import StatementKind
from tests.conftest import ROOT, run_all, wait_for

OLD = "SELECT id, id % 2 AS k FROM range(6)"
GOOD = "SELECT id, id % 2 AS k FROM range(100, 104)"
# The last partition (ids 30-39) fails on its last row, after the other partitions wrote files.
FAILING = ("SELECT CASE WHEN id = 39 THEN CAST(raise_error('injected fault') AS BIGINT) ELSE id END AS id, "
           "id % 2 AS k FROM range(0, 40, 1, 4)")
# Each partition writes its first row, then sleeps in the task (Thread.sleep answers the interrupt).
SLOW = ("SELECT id, id % 2 AS k FROM range(0, 8, 1, 4) "
        "WHERE id % 2 = 0 OR length(reflect('java.lang.Thread', 'sleep', CAST(20000 AS BIGINT))) > 0")
OLD_ROWS = sorted([i, i % 2] for i in range(6))
GOOD_ROWS = sorted([i, i % 2] for i in range(100, 104))


@dataclass(frozen=True)
class Scenario:
    name: str
    write: str                    # with {t} for the table and {q} for the query (columns id, k)
    setup: Optional[str] = None   # creates the table with the old rows; None for a CTAS

    def statement(self, table: str, query: str) -> str:
        return self.write.format(t=table, q=query)

    def rows_after(self, old: list, new_query_rows: list) -> list:
        if self.setup is None or "PARTITION (k=1)" not in self.write:
            return sorted(new_query_rows)
        return sorted([r for r in old if r[1] != 1] + [[r[0], 1] for r in new_query_rows])


SCENARIOS = [
    Scenario("ctas_parquet", "CREATE TABLE {t} USING parquet AS {q}"),
    Scenario("rtas_orc_to_json", "CREATE OR REPLACE TABLE {t} USING json AS {q}",
             "CREATE TABLE {t} USING orc PARTITIONED BY (k) AS " + OLD),
    Scenario("overwrite_csv_partition", "INSERT OVERWRITE TABLE {t} PARTITION (k=1) SELECT id FROM ({q}) q",
             "CREATE TABLE {t} USING csv PARTITIONED BY (k) AS " + OLD),
    Scenario("overwrite_hive_parquet", "INSERT OVERWRITE TABLE {t} {q}", "CREATE TABLE {t} STORED AS PARQUET AS " + OLD),
    Scenario("replace_as_hive_orc", "REPLACE TABLE {t} STORED AS ORC AS {q}", "CREATE TABLE {t} USING parquet AS " + OLD),
    Scenario("overwrite_json", "INSERT OVERWRITE {t} {q}", "CREATE TABLE {t} USING json AS " + OLD),
]


# -- helpers ----------------------------------------------------------------------------------

def warehouse_files(gateway) -> set[str]:
    warehouse = gateway.config.data_dir / "warehouse"
    return {str(p.relative_to(warehouse)) for p in warehouse.rglob("*")}


def journal(gateway) -> list[str]:
    return sorted(os.listdir(gateway.config.data_dir / "atomic"))


def table_rows(gateway, session, table) -> Optional[list]:
    tables = {r[1] for r in run_all(gateway, session, "SHOW TABLES IN default")[1]}
    if table not in tables:
        return None
    return sorted(run_all(gateway, session, f"SELECT id, k FROM default.{table}")[1])


def staging_tables(gateway, session) -> list[str]:
    return [r[1] for r in run_all(gateway, session, "SHOW TABLES IN default")[1] if r[1].startswith("__wb_")]


def operation(gateway, session, handle):
    return gateway.operations.get(gateway.sessions.get(session).handle, handle)


def mid_write(gateway) -> bool:
    """A task has an output file open: some file lies under a _temporary directory."""
    warehouse = gateway.config.data_dir / "warehouse"
    return any(p.is_file() for p in warehouse.rglob("_temporary/**/*"))


def run_fault(gateway, session, fault, table: str, iterations: int = 10) -> dict:
    """Inject ``fault`` ``iterations`` times over the scenarios; check the state after each."""
    outcomes = {}
    for i in range(iterations):
        scenario = SCENARIOS[i % len(SCENARIOS)]
        name = f"{table}_{scenario.name}"
        if scenario.setup and table_rows(gateway, session, name) is None:
            run_all(gateway, session, scenario.setup.format(t=name))
        before_rows = table_rows(gateway, session, name)
        before_files = warehouse_files(gateway)

        status = fault(scenario.statement(name, "{q}"))
        outcomes[status] = outcomes.get(status, 0) + 1

        assert table_rows(gateway, session, name) == before_rows, (scenario.name, i)
        assert warehouse_files(gateway) == before_files, (scenario.name, i)
        assert journal(gateway) == [] and staging_tables(gateway, session) == []

        columns, rows, page = run_all(gateway, session, scenario.statement(name, GOOD))
        assert page.exception is None
        assert table_rows(gateway, session, name) == scenario.rows_after(before_rows or [], GOOD_ROWS)
        if scenario.setup is None:
            run_all(gateway, session, f"DROP TABLE {name}")
    for scenario in SCENARIOS:
        run_all(gateway, session, f"DROP TABLE IF EXISTS {table}_{scenario.name}")
    return outcomes


# -- statement parsing (no Spark) ---------------------------------------------------------------

def test_parse_finds_action_target_and_staged_statement():
    ctas = parse_write("CREATE TABLE IF NOT EXISTS db.t USING parquet PARTITIONED BY (k) AS SELECT 1 AS id, 2 AS k")
    assert ctas.action is WriteAction.CREATE and ctas.name_parts == ("db", "t") and ctas.if_not_exists
    assert ctas.against("`d`.`s`") == "CREATE TABLE `d`.`s` USING parquet PARTITIONED BY (k) AS SELECT 1 AS id, 2 AS k"
    rtas = parse_write("REPLACE TABLE spark_catalog.`my db`.t STORED AS ORC AS WITH q AS (SELECT 1) SELECT * FROM q")
    assert rtas.action is WriteAction.REPLACE and rtas.name_parts == ("spark_catalog", "my db", "t")
    assert parse_write("create or replace table t as select 1").action is WriteAction.CREATE_OR_REPLACE
    overwrite = parse_write("INSERT OVERWRITE TABLE t PARTITION (k=1) SELECT 1")
    assert overwrite.action is WriteAction.INSERT_OVERWRITE
    assert overwrite.against("`s`") == "INSERT OVERWRITE TABLE `s` PARTITION (k=1) SELECT 1"
    assert parse_write("CREATE TABLE t USING parquet LOCATION '/x' AS SELECT 1").has_location


def test_parse_leaves_other_statements_to_spark():
    assert parse_write("INSERT OVERWRITE DIRECTORY '/tmp/x' USING parquet SELECT 1") is None
    assert parse_write("CREATE TABLE t (a INT) USING parquet") is None
    assert parse_write("INSERT INTO t SELECT 1") is None
    assert parse_write("CREATE TABLE t AS SELECT FROM WHERE (") is None


# -- the happy path and bad input ---------------------------------------------------------------

def test_commit_reports_table_rows_and_location(gateway, session):
    op = gateway.execute_statement(
        session, "CREATE TABLE aw_report USING parquet PARTITIONED BY (k) AS " + OLD + ";\n"
                 "INSERT OVERWRITE aw_report PARTITION (k=1) SELECT id FROM range(50, 53)")
    operation(gateway, session, op).done.wait(120)
    info = gateway.get_operation_info(session, op)
    assert info.status is OperationStatus.FINISHED, info.exception
    create, overwrite = info.committed
    assert create["table"] == "spark_catalog.default.aw_report" and create["action"] == "CREATE"
    assert create["rows"] == 6 and create["atomic"] and create["location"].endswith("/aw_report")
    assert overwrite["action"] == "INSERT_OVERWRITE" and overwrite["rows"] == 3
    assert table_rows(gateway, session, "aw_report") == sorted([[i, 0] for i in (0, 2, 4)] + [[i, 1] for i in (50, 51, 52)])
    assert run_all(gateway, session, "SHOW PARTITIONS aw_report")[1] == [["k=0"], ["k=1"]]
    run_all(gateway, session, "DROP TABLE aw_report")
    assert journal(gateway) == []


def test_bad_input_gets_a_clear_error_and_leaves_tables_alone(gateway, session):
    run_all(gateway, session, "CREATE TABLE aw_exists USING parquet AS " + OLD)
    files = warehouse_files(gateway)
    _, _, page = run_all(gateway, session, "CREATE TABLE aw_exists USING parquet AS " + GOOD)
    assert "already exists" in page.exception["root_cause"] and "CREATE OR REPLACE" in page.exception["root_cause"]
    _, _, page = run_all(gateway, session, "REPLACE TABLE aw_missing USING parquet AS " + GOOD)
    assert "does not exist" in page.exception["root_cause"]
    _, _, page = run_all(gateway, session, "CREATE TABLE IF NOT EXISTS aw_exists USING parquet AS " + GOOD)
    assert page.exception is None
    _, _, page = run_all(gateway, session, "INSERT OVERWRITE aw_exists SELECT 'not a number', 1, 2")
    assert page.exception is not None  # Spark's own error: three columns into two
    assert table_rows(gateway, session, "aw_exists") == OLD_ROWS and warehouse_files(gateway) == files
    assert run_all(gateway, session, "SELECT 1")[1] == [[1]]  # the session is healthy
    run_all(gateway, session, "DROP TABLE aw_exists")


def test_the_setting_turns_atomic_writes_off(gateway):
    class Service:  # what install_atomic_writes uses of the GatewayService
        config = gateway.config.with_overrides(atomic_writes__enabled=False)
        root = gateway.root
        runner = StatementRunner(1000)

    off = Service()
    install_atomic_writes(off)
    assert StatementKind.CREATE_TABLE_AS not in off.runner.handlers and off.atomic_recovered == []
    assert gateway.runner.handlers[StatementKind.CREATE_TABLE_AS]  # on by default


def test_a_location_runs_through_spark_and_says_it_is_not_atomic(gateway, session, tmp_path):
    op = gateway.execute_statement(session, f"CREATE TABLE aw_located USING parquet LOCATION '{tmp_path / 'x'}' AS " + OLD)
    operation(gateway, session, op).done.wait(120)
    info = gateway.get_operation_info(session, op)
    assert info.status is OperationStatus.FINISHED and info.committed[0]["atomic"] is False
    assert "LOCATION" in info.committed[0]["note"]
    run_all(gateway, session, "DROP TABLE aw_located")


# -- faults -------------------------------------------------------------------------------------

def test_a_query_failing_on_its_last_partition_publishes_nothing(gateway, session):
    def fail(statement: str) -> str:
        _, _, page = run_all(gateway, session, statement.format(q=FAILING))
        assert "injected fault" in page.exception["root_cause"]
        return "ERROR"

    assert run_fault(gateway, session, fail, "aw_err") == {"ERROR": 10}


def test_a_cancel_in_the_middle_of_the_write_publishes_nothing(gateway, session):
    def cancel(statement: str) -> str:
        handle = gateway.execute_statement(session, statement.format(q=SLOW))
        assert wait_for(lambda: mid_write(gateway), timeout_s=60), "the write never started"
        gateway.cancel_operation(session, handle)
        assert operation(gateway, session, handle).done.wait(60)
        status = gateway.get_operation_info(session, handle).status
        gateway.close_operation(session, handle)
        assert status is OperationStatus.CANCELED
        return status.value

    assert run_fault(gateway, session, cancel, "aw_cancel") == {"CANCELED": 10}


def test_a_timeout_in_the_middle_of_the_write_publishes_nothing(gateway, session):
    writing_when_timed_out = []

    def time_out(statement: str) -> str:
        handle = gateway.execute_statement(session, statement.format(q=SLOW), timeout_ms=2500)
        op = operation(gateway, session, handle)
        seen = wait_for(lambda: mid_write(gateway) or op.status is OperationStatus.TIMEOUT, timeout_s=60)
        writing_when_timed_out.append(bool(seen) and op.status is not OperationStatus.TIMEOUT)
        assert op.done.wait(60)
        status = gateway.get_operation_info(session, handle).status
        gateway.close_operation(session, handle)
        assert status is OperationStatus.TIMEOUT
        return status.value

    assert run_fault(gateway, session, time_out, "aw_timeout") == {"TIMEOUT": 10}
    print(f"timeouts that hit a running write task: {sum(writing_when_timed_out)} of 10")
