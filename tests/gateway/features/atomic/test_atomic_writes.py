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
from pyspark.errors import ParseException

from gateway import InvalidStatementError, OperationStatus, SqlExecutionError
from gateway.features.atomic import WriteAction, parse_write
from gateway.features.atomic.plugin import AtomicWritesFeature
from gateway.core.executor import StatementRunner
from gateway.core.statements import StatementKind
from tests.conftest import ROOT, run_all, wait_for
from tests.jvm_support import short_lived_jvm

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
    Scenario("overwrite_hive_text_partition", "INSERT OVERWRITE TABLE {t} PARTITION (k=1) SELECT id FROM ({q}) q",
             "CREATE TABLE {t} (id BIGINT) PARTITIONED BY (k BIGINT) STORED AS TEXTFILE; "
             "INSERT INTO {t} PARTITION (k=0) SELECT id FROM range(0, 6, 2); "
             "INSERT INTO {t} PARTITION (k=1) SELECT id FROM range(1, 6, 2)"),
]


# -- helpers ----------------------------------------------------------------------------------

def run(gateway, session, statement: str):
    """Execute and fetch everything; a generous bound, for a machine shared by many Spark runs."""
    return run_all(gateway, session, statement, timeout_s=600)


def warehouse_files(gateway) -> set[str]:
    warehouse = gateway.config.data_dir / "warehouse"
    return {str(p.relative_to(warehouse)) for p in warehouse.rglob("*")}


def journal(gateway) -> list[str]:
    return sorted(os.listdir(gateway.config.data_dir / "atomic"))


def table_names(gateway, session) -> set[str]:
    return {t.name for t in gateway.list_tables(session, database="default")}


def table_rows(gateway, session, table) -> Optional[list]:
    if table not in table_names(gateway, session):
        return None
    return sorted(run(gateway, session, f"SELECT id, k FROM default.{table}")[1])


def operation(gateway, session, handle):
    return gateway.operations.get(gateway.sessions.get(session).handle, handle)


def task_output_exists(warehouse: Path) -> bool:
    """A task has an output file open: some file lies under a _temporary directory."""
    try:
        return any(p.is_file() for p in warehouse.rglob("_temporary/**/*"))
    except FileNotFoundError:  # Spark removed a task directory while we walked it: not yet, look again
        return False


def mid_write(gateway) -> bool:
    return task_output_exists(gateway.config.data_dir / "warehouse")


def run_faults(gateway, session, faults: dict, table: str, only: Optional[dict] = None) -> dict:
    """Inject each of ``faults`` (name -> fault) into each scenario's write, one after the other; check the
    state after each, then run the statement without a fault. ``only`` (fault name -> scenario names) limits a
    fault to those scenarios.

    After a fault the table must hold exactly the rows it held before it (the next fault of the round finds
    them again, and its write runs again up to its fault); after the statement is run without the fault, its
    new rows.
    """
    outcomes: dict[str, int] = {}
    only = only or {}
    for scenario in SCENARIOS:
        name = f"{table}_{scenario.name}"
        if scenario.setup:
            run(gateway, session, scenario.setup.format(t=name))
        expected = OLD_ROWS if scenario.setup else None
        for kind, fault in faults.items():
            if kind in only and scenario.name not in only[kind]:
                continue
            before_files = warehouse_files(gateway)
            status = fault(scenario.statement(name, "{q}"))
            outcomes[status] = outcomes.get(status, 0) + 1
            where = (scenario.name, kind)
            assert table_rows(gateway, session, name) == expected, where
            assert warehouse_files(gateway) == before_files, where
            assert journal(gateway) == [], where
            assert not [t for t in table_names(gateway, session) if t.startswith("__wb_")], where

        _, _, page = run(gateway, session, scenario.statement(name, GOOD))
        assert page.exception is None, page.exception
        assert table_rows(gateway, session, name) == scenario.rows_after(expected or [], GOOD_ROWS), scenario.name
        run(gateway, session, f"DROP TABLE {name}")
    return outcomes


# -- statement parsing (Spark's own parser; nothing runs) -------------------------------------------

def test_parse_finds_action_target_and_staged_statement(gateway, session):
    spark = gateway.sessions.get(session).spark
    ctas = parse_write(spark, "CREATE TABLE IF NOT EXISTS db.t USING parquet PARTITIONED BY (k) AS SELECT 1 AS id, 2 AS k")
    assert ctas.action is WriteAction.CREATE and ctas.name_parts == ("db", "t") and ctas.if_not_exists
    assert ctas.against("`d`.`s`") == "CREATE TABLE `d`.`s` USING parquet PARTITIONED BY (k) AS SELECT 1 AS id, 2 AS k"
    rtas = parse_write(spark, "REPLACE TABLE spark_catalog.`my db`.t STORED AS ORC AS WITH q AS (SELECT 1) SELECT * FROM q")
    assert rtas.action is WriteAction.REPLACE and rtas.name_parts == ("spark_catalog", "my db", "t")
    assert parse_write(spark, "create or replace table t as select 1").action is WriteAction.CREATE_OR_REPLACE
    overwrite = parse_write(spark, "INSERT OVERWRITE TABLE t PARTITION (k=1) SELECT 1")
    assert overwrite.action is WriteAction.INSERT_OVERWRITE
    assert overwrite.against("`s`") == "INSERT OVERWRITE TABLE `s` PARTITION (k=1) SELECT 1"
    assert parse_write(spark, "CREATE TABLE t USING parquet LOCATION '/x' AS SELECT 1").has_location
    keyword = parse_write(spark, "INSERT OVERWRITE TABLE db.date SELECT 1")  # sqlglot read only `db`
    assert keyword.name_parts == ("db", "date") and keyword.against("`s`") == "INSERT OVERWRITE TABLE `s` SELECT 1"
    spark.sql("DECLARE OR REPLACE VARIABLE aw_name STRING DEFAULT 't'")
    computed = parse_write(spark, "INSERT OVERWRITE IDENTIFIER(aw_name) SELECT 1")
    assert computed.name_parts is None and "IDENTIFIER" in computed.unstageable  # refused, never run silently


def test_parse_leaves_other_statements_to_spark(gateway, session):
    spark = gateway.sessions.get(session).spark
    assert parse_write(spark, "INSERT OVERWRITE DIRECTORY '/tmp/x' USING parquet SELECT 1") is None
    assert parse_write(spark, "CREATE TABLE t (a INT) USING parquet") is None
    assert parse_write(spark, "INSERT INTO t SELECT 1") is None
    with pytest.raises(ParseException):  # Spark's own message, with the position
        parse_write(spark, "CREATE TABLE t AS SELECT FROM WHERE (")


# -- the happy path and bad input ---------------------------------------------------------------

def test_commit_reports_table_rows_and_location(gateway, session):
    op = gateway.execute_statement(
        session, "CREATE TABLE aw_report USING parquet PARTITIONED BY (k) AS " + OLD + ";\n"
                 "INSERT OVERWRITE aw_report PARTITION (k=1) SELECT id FROM range(50, 53)")
    operation(gateway, session, op).done.wait(600)
    info = gateway.get_operation_info(session, op)
    assert info.status is OperationStatus.FINISHED, info.exception
    create, overwrite = info.committed
    assert create["table"] == "spark_catalog.default.aw_report" and create["action"] == "CREATE"
    assert create["rows"] == 6 and create["atomic"] and create["location"].endswith("/aw_report")
    assert overwrite["action"] == "INSERT_OVERWRITE" and overwrite["rows"] == 3
    assert table_rows(gateway, session, "aw_report") == sorted([[i, 0] for i in (0, 2, 4)] + [[i, 1] for i in (50, 51, 52)])
    assert run(gateway, session, "SHOW PARTITIONS aw_report")[1] == [["k=0"], ["k=1"]]
    run(gateway, session, "DROP TABLE aw_report")
    assert journal(gateway) == []


def test_bad_input_gets_a_clear_error_and_leaves_tables_alone(gateway, session):
    run(gateway, session, "CREATE TABLE aw_exists USING parquet AS " + OLD)
    files = warehouse_files(gateway)
    _, _, page = run(gateway, session, "CREATE TABLE aw_exists USING parquet AS " + GOOD)
    assert "already exists" in page.exception["root_cause"] and "CREATE OR REPLACE" in page.exception["root_cause"]
    _, _, page = run(gateway, session, "REPLACE TABLE aw_missing USING parquet AS " + GOOD)
    assert "does not exist" in page.exception["root_cause"]
    _, _, page = run(gateway, session, "CREATE TABLE IF NOT EXISTS aw_exists USING parquet AS " + GOOD)
    assert page.exception is None
    _, _, page = run(gateway, session, "INSERT OVERWRITE aw_exists SELECT 'not a number', 1, 2")
    assert page.exception is not None  # Spark's own error: three columns into two
    assert table_rows(gateway, session, "aw_exists") == OLD_ROWS and warehouse_files(gateway) == files
    assert run(gateway, session, "SELECT 1")[1] == [[1]]  # the session is healthy
    run(gateway, session, "DROP TABLE aw_exists")


def test_the_setting_turns_atomic_writes_off(gateway):
    class Host:  # what the atomic writes feature uses of its FeatureHost
        config = gateway.config.with_overrides(atomic_writes__enabled=False)
        root = gateway.root
        split = StatementRunner(1000).split

    off = AtomicWritesFeature()
    off.start(Host())
    assert StatementKind.CREATE_TABLE_AS not in off.handlers() and off.recovered == []
    assert gateway.runner.handlers[StatementKind.CREATE_TABLE_AS]  # on by default


def test_a_location_runs_through_spark_and_says_it_is_not_atomic(gateway, session, tmp_path):
    op = gateway.execute_statement(session, f"CREATE TABLE aw_located USING parquet LOCATION '{tmp_path / 'x'}' AS " + OLD)
    operation(gateway, session, op).done.wait(600)
    info = gateway.get_operation_info(session, op)
    assert info.status is OperationStatus.FINISHED and info.committed[0]["atomic"] is False
    assert "LOCATION" in info.committed[0]["note"]
    run(gateway, session, "DROP TABLE aw_located")


# -- faults -------------------------------------------------------------------------------------

# A timeout stops a write as a cancel does (OperationManager.stop, the same point of the write): it runs on one
# scenario of each write action (CREATE, CREATE OR REPLACE, INSERT OVERWRITE); the cancel runs on every table kind.
TIMED_OUT_SCENARIOS = ("ctas_parquet", "rtas_orc_to_json", "overwrite_csv_partition")


def test_a_failure_a_cancel_or_a_timeout_in_the_middle_of_a_write_publishes_nothing(gateway, session):
    """Each scenario's write meets the faults in turn, each checked on its own: the query fails on its last
    partition after the others wrote files; a cancel while its tasks write; for TIMED_OUT_SCENARIOS, a timeout
    while they write."""
    def fail(statement: str) -> str:
        _, _, page = run(gateway, session, statement.format(q=FAILING))
        assert "injected fault" in page.exception["root_cause"]
        return "ERROR"

    def cancel(statement: str) -> str:
        handle = gateway.execute_statement(session, statement.format(q=SLOW))
        assert wait_for(lambda: mid_write(gateway), timeout_s=300), "the write never started"
        gateway.cancel_operation(session, handle)
        assert operation(gateway, session, handle).done.wait(600)
        status = gateway.get_operation_info(session, handle).status
        gateway.close_operation(session, handle)
        assert status is OperationStatus.CANCELED
        return status.value

    writing_when_timed_out = []

    def time_out(statement: str) -> str:
        handle = gateway.execute_statement(session, statement.format(q=SLOW), timeout_ms=2500)
        op = operation(gateway, session, handle)
        seen = wait_for(lambda: mid_write(gateway) or op.status is OperationStatus.TIMEOUT, timeout_s=300)
        writing_when_timed_out.append(bool(seen) and op.status is not OperationStatus.TIMEOUT)
        assert op.done.wait(600)
        status = gateway.get_operation_info(session, handle).status
        gateway.close_operation(session, handle)
        assert status is OperationStatus.TIMEOUT
        return status.value

    outcomes = run_faults(gateway, session, {"error": fail, "cancel": cancel, "timeout": time_out}, "aw_fault",
                          only={"timeout": TIMED_OUT_SCENARIOS})
    assert outcomes == {"ERROR": len(SCENARIOS), "CANCELED": len(SCENARIOS), "TIMEOUT": len(TIMED_OUT_SCENARIOS)}
    print(f"timeouts that hit a running write task: {sum(writing_when_timed_out)} of {len(TIMED_OUT_SCENARIOS)}")


# -- SIGKILL and restart (child processes with their own data directory and Spark) ----------------

CHILD = Path(__file__).resolve().parents[3] / "atomic_child.py"
LEFTOVER_MARKS = ("__wb_", ".wb-backup", "_temporary", ".hive-staging")
# In the child: one partition that writes its first row, then sleeps in the task until the process dies.
CHILD_SLOW = ("SELECT id, id % 2 AS k FROM range(0, 2, 1, 1) "
              "WHERE id % 2 = 0 OR length(reflect('java.lang.Thread', 'sleep', CAST(600000 AS BIGINT))) > 0")
CT_GOOD = "CREATE TABLE ct USING parquet AS " + GOOD
CT_SLOW = "CREATE TABLE ct USING parquet AS " + CHILD_SLOW
IO_NEW_ROWS = sorted([r for r in OLD_ROWS if r[1] == 0] + [[r[0], 1] for r in GOOD_ROWS])
TABLES = ("ct", "rt", "io", "rt2", "io2")  # tests/atomic_child.py reads the rows of these


def rt_good(table: str) -> str:
    return f"CREATE OR REPLACE TABLE {table} USING orc AS " + GOOD


def io_write(table: str, query: str = GOOD) -> str:
    return f"INSERT OVERWRITE TABLE {table} PARTITION (k=1) SELECT id FROM ({query}) q"


@dataclass(frozen=True)
class Crash:
    """One child's death: ``write`` dies at ``death`` (``step@table``) while each ``held`` write (statement,
    ``step@table``) is stopped at its own publishing step and each companion (a slow write) is in the middle of
    its tasks, every one in a session of its own. One restart must repair them all; ``committed`` names the
    tables whose write had passed its commit point (the restart completes it; the others are rolled back)."""
    write: str
    death: str
    held: tuple = ()
    companions: tuple = ()
    committed: tuple = ()


def target_of(statement: str) -> str:
    return next(t for t in TABLES if f"TABLE {t} " in statement)


# Every publishing step of each kind of write, and each kind in the middle of its tasks, over two crashes (three
# starts): a kill per step with a start each took seven kills and eight starts, the file's most time by far.
# The second crash meets the tables the first restart repaired.
CRASHES = [
    Crash(rt_good("rt"), "replace:after_backup@rt",
          held=((io_write("io"), "overwrite:after_swap@io"), (rt_good("rt2"), "replace:committed@rt2"),
                (io_write("io2"), "overwrite:committed@io2")),
          companions=(CT_SLOW,), committed=("rt2", "io2")),
    Crash(io_write("io"), "overwrite:after_backup@io",
          held=((rt_good("rt"), "replace:after_swap@rt"), (CT_GOOD, "create:before_publish@ct")),
          companions=(io_write("io2", CHILD_SLOW), "CREATE OR REPLACE TABLE rt2 USING json AS " + CHILD_SLOW)),
]
NEW_ROWS = {"ct": GOOD_ROWS, "rt": GOOD_ROWS, "rt2": GOOD_ROWS, "io": IO_NEW_ROWS, "io2": IO_NEW_ROWS}


class Child:
    """One workbench process on ``data_dir``; it leads its own process group (Python and its JVM)."""

    def __init__(self, data_dir: Path, log, **plan) -> None:
        plan.update(data_dir=str(data_dir))
        self.data_dir = data_dir
        self.process = subprocess.Popen([sys.executable, str(CHILD), json.dumps(plan)], cwd=ROOT,
                                        env=short_lived_jvm(os.environ),
                                        stdout=subprocess.PIPE, stderr=log, text=True, start_new_session=True)
        self.events: list[dict] = []

    def stop(self) -> None:
        """Kill a child a failed test left running (by its process group, which we started)."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(60)

    def next_event(self, timeout_s: float = 240) -> Optional[dict]:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            line = self.process.stdout.readline()
            if not line:
                return None  # the process is gone
            if line.startswith("{"):
                self.events.append(json.loads(line))
                return self.events[-1]
        raise AssertionError("the child process sent nothing in time")

    def wait_gone(self) -> int:
        code = self.process.wait(120)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:  # its JVM, in the same process group, must be gone too
            try:
                os.killpg(self.process.pid, 0)
            except ProcessLookupError:
                break
            time.sleep(0.05)
        self.process.stdout.close()
        return code


@pytest.mark.timeout(1200)  # three Spark starts; on a shared, loaded machine each can take a minute
def test_sigkill_in_the_middle_of_a_write_is_repaired_on_restart(tmp_path):
    children: list[Child] = []
    try:  # three cold starts: an archive written for them cost more than it saved (benchmarks/suite_class_archive.py)
        sigkill_and_restart(tmp_path, children)
    finally:
        for child in children:
            child.stop()


def sigkill_and_restart(tmp_path: Path, children: list) -> None:
    data_dir = tmp_path / "workbench"
    started = time.monotonic()
    expected = {t: OLD_ROWS for t in ("rt", "io", "rt2", "io2")}
    setup = ["CREATE TABLE rt USING parquet AS " + OLD, "CREATE TABLE io USING csv PARTITIONED BY (k) AS " + OLD,
             "CREATE TABLE rt2 USING parquet AS " + OLD, "CREATE TABLE io2 USING csv PARTITIONED BY (k) AS " + OLD]
    known_files: Optional[list] = None
    with open(tmp_path / "children.log", "w") as log:
        for cycle, crash in enumerate(CRASHES):
            child = Child(data_dir, log, setup=setup if cycle == 0 else [], write=crash.write, crash_at=crash.death,
                          held=[statement for statement, _ in crash.held], hold_at=[at for _, at in crash.held],
                          companions=list(crash.companions))
            children.append(child)
            recovered = child.next_event()
            state = child.next_event()
            assert recovered["event"] == "recovered" and state["event"] == "state"
            print(f"cycle {cycle} ({crash.death}): restarted after {time.monotonic() - started:.0f} s", flush=True)
            if cycle > 0:  # what the restart repaired from the previous cycle's crash
                check_repaired(recovered, state, CRASHES[cycle - 1], known_files, expected)
            if cycle == 0:
                state = child.next_event()  # after the setup
            known_files = state["files"]
            writing = child.next_event()
            assert writing["event"] == "writing"
            assert writing["companions_writing"] == len(crash.companions), "a companion never started writing"
            assert writing["held"] == sorted(at for _, at in crash.held), "a held write never reached its step"
            assert child.next_event() is None, "the child survived its crash"
            assert child.wait_gone() == -signal.SIGKILL
            print(f"  child {cycle}: recovered at {recovered['at_s']} s, writing at {writing['at_s']} s, "
                  f"gone after {time.monotonic() - started:.0f} s", flush=True)
            for table in crash.committed:  # killed after the commit point: the restart completes the write
                expected[table] = NEW_ROWS[table]

        # The last restart repairs the last crash, then every statement runs again and succeeds.
        final = Child(data_dir, log, write=";\n".join([CT_GOOD, rt_good("rt"), io_write("io")]))
        children.append(final)
        recovered, state = final.next_event(), final.next_event()
        check_repaired(recovered, state, CRASHES[-1], known_files, expected)
        assert final.next_event()["event"] == "writing"
        done = final.next_event()
        assert final.wait_gone() == 0
    assert done["status"] == "FINISHED", done["error"]
    assert [c["table"] for c in done["committed"]] == [f"spark_catalog.default.{t}" for t in ("ct", "rt", "io")]
    assert done["rows"] == {**expected, "ct": GOOD_ROWS, "rt": GOOD_ROWS, "io": IO_NEW_ROWS}
    assert done["journal"] == [] and not [f for f in done["files"] if any(m in f for m in LEFTOVER_MARKS)]
    print(f"{len(CRASHES)} crashes ({sum(1 + len(c.held) for c in CRASHES)} publishing steps, "
          f"{sum(len(c.companions) for c in CRASHES)} writes mid-task) and {len(CRASHES) + 1} starts took "
          f"{time.monotonic() - started:.1f} s")


def outside(files: list, tables) -> list:
    """The warehouse's files but those of ``tables`` (directories named after them in ``default``)."""
    return [f for f in files if f.split("/")[0] not in tables]


def check_repaired(recovered: dict, state: dict, crash: Crash, known_files: list, expected: dict) -> None:
    death = crash.death
    outcomes = {entry["table"]: entry["outcome"] for entry in recovered["report"]}
    writes = [crash.write] + [statement for statement, _ in crash.held] + list(crash.companions)
    wanted = {f"default.{target_of(w)}": "completed" if target_of(w) in crash.committed else "rolled back"
              for w in writes}
    assert len(recovered["report"]) == len(writes) and outcomes == wanted, (death, recovered["report"])
    assert state["journal"] == [], death
    assert "ct" not in state["tables"] and not [t for t in state["tables"] if t.startswith("__wb_")], death
    assert state["rows"] == expected, death
    assert not [f for f in state["files"] if any(m in f for m in LEFTOVER_MARKS)], (death, state["files"])
    # rolled back: exactly the files from before the writes (a completed write's table has its new files)
    assert outside(state["files"], crash.committed) == outside(known_files, crash.committed), death
