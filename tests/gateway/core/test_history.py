"""The gateway records every statement run through execute_statement in the store's history, on a
real local Spark, with the store on SQLite (the default, in the data directory) and on PostgreSQL:
RUNNING while it runs, then FINISHED with rows, ERROR with Spark's error class, CANCELED; and a
store that cannot be written never fails a statement."""
from __future__ import annotations

import datetime as dt
import itertools

import pytest

from conftest import run_all, wait_for
from gateway import LOCAL_USER, GatewayContract, OperationStatus
from gateway.core.history import StatementHistory
from gateway.store import WorkbenchStore
from postgres_server import free_port

_databases = itertools.count()
SLOW_QUERY = "SELECT reflect('java.lang.Thread', 'sleep', CAST(1000 AS BIGINT)) FROM range(0, 100000, 1, 2)"


def _use_store(gateway, store):
    """Point the gateway's workspace calls and its history at ``store``; returns how to undo it."""
    saved = gateway.store, gateway.operations.observers
    gateway.store = store
    gateway.operations.observers = (StatementHistory(store.recorder),)

    def restore():
        gateway.store, gateway.operations.observers = saved
    return restore


@pytest.fixture(params=["sqlite", "postgresql"])
def history_gateway(request, gateway):
    """The run's gateway, its history on the default SQLite store or on a PostgreSQL one."""
    if request.param == "sqlite":
        yield gateway
        return
    url = request.getfixturevalue("postgres_server").create_database(f"history_{next(_databases)}")
    store = WorkbenchStore(url)
    restore = _use_store(gateway, store)
    try:
        yield gateway
    finally:
        restore()
        store.close()


def _entry(gateway: GatewayContract, operation, wanted=None, timeout_s=30.0, complete=False):
    """The history entry of ``operation`` (once its status is one of ``wanted``; with ``complete``,
    once its worker is through too, which may come a moment after the client read the end)."""
    def found():
        gateway.store.recorder.flush(timeout_s)
        for entry in gateway.list_history(LOCAL_USER, limit=50):
            if entry.operation_handle == str(operation) and (wanted is None or entry.status in wanted) \
                    and (not complete or entry.rows is not None):
                return entry
        return None
    return wait_for(found, timeout_s)


def test_a_finished_statement_is_recorded_with_its_rows_and_duration(history_gateway, session):
    gateway = history_gateway
    before = dt.datetime.now(dt.timezone.utc)
    op = gateway.execute_statement(session, "SELECT id FROM range(0, 7) -- seven rows")
    rows = []
    for page in gateway.iter_results(session, op, timeout_s=60):
        rows += page.rows
    assert len(rows) == 7
    entry = _entry(gateway, op, wanted={"FINISHED"}, complete=True)
    assert entry is not None
    assert (entry.user, entry.session_handle, entry.statement, entry.rows, entry.error_class) == \
        (LOCAL_USER, str(session), "SELECT id FROM range(0, 7) -- seven rows", 7, None)
    assert before - dt.timedelta(seconds=1) <= entry.started_at <= dt.datetime.now(dt.timezone.utc)
    assert 0 <= entry.duration_ms < 60_000
    gateway.close_operation(session, op)
    # the newest first, found by its text in any case
    assert gateway.list_history(LOCAL_USER, search="SEVEN ROWS", limit=1)[0].entry_id == entry.entry_id


def test_a_failed_statement_is_recorded_with_sparks_error_class(history_gateway, session):
    gateway = history_gateway
    op = gateway.execute_statement(session, "SELECT * FROM no_such_table_for_history")
    assert wait_for(lambda: gateway.get_operation_info(session, op).status == OperationStatus.ERROR, 60)
    entry = _entry(gateway, op, wanted={"ERROR"})
    assert entry is not None
    assert (entry.status, entry.error_class, entry.rows) == ("ERROR", "TABLE_OR_VIEW_NOT_FOUND", None)
    assert entry.duration_ms is not None
    gateway.close_operation(session, op)


def test_a_running_statement_shows_running_then_canceled(history_gateway, session):
    gateway = history_gateway
    op = gateway.execute_statement(session, SLOW_QUERY)
    assert wait_for(lambda: gateway.get_operation_info(session, op).status == OperationStatus.RUNNING, 60)
    running = _entry(gateway, op)
    assert running is not None and running.status == "RUNNING" and running.duration_ms is None
    gateway.cancel_operation(session, op)
    entry = _entry(gateway, op, wanted={"CANCELED"})
    assert entry is not None and entry.entry_id == running.entry_id
    assert entry.duration_ms is not None and entry.rows is None and entry.error_class is None
    gateway.close_operation(session, op)


def test_configuring_a_session_is_not_a_statement_of_the_history(gateway, session):
    # only this session's entries: other tests of the run (in any order) may have run SET statements
    gateway.set_session_option(session, "spark.sql.shuffle.partitions", "3")
    run_all(gateway, session, "SELECT 'after the option' AS marker")
    gateway.store.recorder.flush(30)
    mine = [e.statement for e in gateway.list_history(LOCAL_USER, limit=200) if e.session_handle == str(session)]
    assert mine == ["SELECT 'after the option' AS marker"]


def test_a_store_that_cannot_be_written_never_fails_a_statement(gateway, session, caplog):
    broken = WorkbenchStore(f"postgresql+psycopg://nobody@127.0.0.1:{free_port()}/nothing")
    saved_observers = gateway.operations.observers
    gateway.operations.observers = (StatementHistory(broken.recorder),)
    try:
        with caplog.at_level("ERROR", logger="gateway.store.history"):
            _, rows, page = run_all(gateway, session, "SELECT 41 + 1 AS answer")
            assert rows == [[42]] and page.next_token is None
            assert broken.recorder.flush(60)
        assert broken.recorder.lost >= 1
        assert any("cannot be written" in r.getMessage() for r in caplog.records)
    finally:
        gateway.operations.observers = saved_observers
        broken.close()


def test_an_observer_that_raises_is_logged_and_the_statement_runs_on(gateway, session, caplog):
    class Broken:
        def operation_submitted(self, operation):
            raise RuntimeError("a bug in an observer")

        operation_ended = operation_done = operation_submitted

    saved = gateway.operations.observers
    gateway.operations.observers = (Broken(),)
    try:
        with caplog.at_level("ERROR", logger="gateway.core.operations"):
            _, rows, _ = run_all(gateway, session, "SELECT 'still' AS answer")
        assert rows == [["still"]]
        failures = [r for r in caplog.records if "observer Broken failed" in r.getMessage()]
        assert {r.getMessage().rsplit(" ", 1)[-1] for r in failures} >= {"operation_submitted", "operation_ended"}
    finally:
        gateway.operations.observers = saved


def test_gateway_info_names_the_store_and_its_state(gateway):
    info = gateway.get_gateway_info()
    assert info["store"].startswith("sqlite:///") and info["store"].endswith("workbench.db")
    assert info["store_status"] == "available" and info["history_not_recorded"] == "0"


@pytest.mark.parametrize("script, kinds, status", [
    # a comment between the keywords: the first words say OTHER and QUERY, the analysis says what runs
    ("ADD /*x*/ JAR '/nonexistent/history_kind.jar'", ("ADD_JAR",), "ERROR"),
    ("CREATE TABLE history_kind_t (a INT) USING parquet;\n"
     "WITH q AS (SELECT 1 AS a) INSERT/**/INTO history_kind_t SELECT * FROM q;\n"
     "FROM history_kind_t INSERT -- c\n OVERWRITE TABLE history_kind_t SELECT a + 1;\n"
     "/* lead */ select a FROM history_kind_t;\nDROP TABLE history_kind_t",
     ("CREATE", "INSERT", "INSERT_OVERWRITE", "QUERY", "DROP"), "FINISHED"),
    ("BEGIN\n  DECLARE x INT DEFAULT 1;\n  SELECT x;\nEND", ("SCRIPT",), "FINISHED"),
])
def test_each_statement_is_recorded_with_the_kind_its_analysis_reads(history_gateway, session, script, kinds,
                                                                      status):
    gateway = history_gateway
    op = gateway.execute_statement(session, script)
    pages = list(gateway.iter_results(session, op, timeout_s=120))
    assert (pages[-1].result_type.value == "ERROR") == (status == "ERROR"), pages[-1].exception
    entry = _entry(gateway, op, wanted={status})
    assert entry is not None and entry.kinds == kinds, entry
    gateway.close_operation(session, op)


def test_the_parameter_values_a_run_bound_are_recorded_with_it(history_gateway, session):
    gateway = history_gateway
    op = gateway.execute_statement(session, "SELECT :n + 1 AS m, :day AS d, :who AS w",
                                   parameters={"n": 41, "day": dt.date(2024, 2, 29), "who": "Zoë"})
    pages = list(gateway.iter_results(session, op, timeout_s=60))
    assert pages[0].rows[0][0] == 42
    entry = _entry(gateway, op, wanted={"FINISHED"})
    assert entry is not None and entry.parameters == {"n": 41, "day": "2024-02-29", "who": "Zoë"}, entry
    plain = gateway.execute_statement(session, "SELECT 1 AS no_markers")
    list(gateway.iter_results(session, plain, timeout_s=60))
    assert _entry(gateway, plain, wanted={"FINISHED"}).parameters is None
    gateway.close_operation(session, op)
    gateway.close_operation(session, plain)
