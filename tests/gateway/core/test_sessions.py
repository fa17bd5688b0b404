"""Sessions against a real local Spark: isolation, configuration, lifecycle, expiry."""
import time

import pytest

from gateway import (GatewayService, InvalidStatementError, SessionHandle, SessionLimitError,
                     SessionNotFoundError, SqlExecutionError)
from tests.conftest import run_all, wait_for


def test_two_sessions_are_isolated(gateway):
    a, b = gateway.open_session(name="a"), gateway.open_session(name="b")
    try:
        gateway.configure_session(a, "CREATE DATABASE IF NOT EXISTS iso_db")
        gateway.configure_session(a, "CREATE TEMPORARY VIEW only_a AS SELECT 1 AS x")
        gateway.configure_session(a, "SET spark.sql.shuffle.partitions = 7")
        gateway.configure_session(a, "USE iso_db")
        gateway.configure_session(a, "CREATE TEMPORARY FUNCTION only_a_fn AS 'org.apache.hadoop.hive.ql.udf.UDFPI'")

        assert run_all(gateway, a, "SELECT x FROM only_a")[1] == [[1]]
        assert gateway.get_current_database(a) == "iso_db"
        assert gateway.get_session_config(a)["spark.sql.shuffle.partitions"] == "7"
        assert run_all(gateway, a, "SELECT round(only_a_fn(), 2)")[1] == [[3.14]]

        assert gateway.get_current_database(b) == "default"
        assert gateway.get_session_config(b).get("spark.sql.shuffle.partitions") != "7"
        page = run_all(gateway, b, "SELECT x FROM only_a")[2]
        assert page.exception["error_class"] == "TABLE_OR_VIEW_NOT_FOUND"
        page = run_all(gateway, b, "SELECT only_a_fn()")[2]
        assert page.exception["error_class"] == "UNRESOLVED_ROUTINE"
        assert "only_a" not in [t.name for t in gateway.list_tables(b)]
    finally:
        gateway.close_session(a)
        gateway.close_session(b)


def test_open_with_config_and_name(gateway):
    handle = gateway.open_session(config={"spark.sql.ansi.enabled": "false"}, name="named")
    try:
        assert gateway.get_session_config(handle)["spark.sql.ansi.enabled"] == "false"
        assert gateway.session_name(handle) == "named"
        assert run_all(gateway, handle, "SELECT 1/0")[1] == [[None]]
    finally:
        gateway.close_session(handle)


def test_handle_round_trips_through_its_string(gateway, session):
    again = SessionHandle.from_string(str(session))
    assert again == session
    gateway.heartbeat(again)


def test_close_makes_the_handle_unknown(gateway):
    handle = gateway.open_session()
    gateway.close_session(handle)
    with pytest.raises(SessionNotFoundError, match="open a new session"):
        gateway.heartbeat(handle)


def test_idle_sessions_expire_and_heartbeat_keeps_them(gateway, config):
    short = GatewayService(config.with_overrides(session__idle_timeout_s=0.6, session__check_interval_s=0.1))
    try:
        idle, kept = short.open_session(), short.open_session()
        deadline = time.monotonic() + 1.5
        while time.monotonic() < deadline:
            short.heartbeat(kept)
            time.sleep(0.1)
        with pytest.raises(SessionNotFoundError):
            short.heartbeat(idle)
        short.heartbeat(kept)
        assert run_all(short, kept, "SELECT 2")[1] == [[2]]
    finally:
        short.shutdown(stop_spark=False)


def test_session_cap(gateway, config):
    capped = GatewayService(config.with_overrides(session__max_sessions=2))
    try:
        first = capped.open_session()
        capped.open_session()
        with pytest.raises(SessionLimitError, match="session.max_sessions"):
            capped.open_session()
        capped.close_session(first)
        capped.open_session()  # room again
    finally:
        capped.shutdown(stop_spark=False)


# -- negative cases ---------------------------------------------------------------------------

@pytest.mark.parametrize("statement", ["SELECT 1", "INSERT INTO t VALUES (1)", "SHOW TABLES"])
def test_configure_refuses_other_statements(gateway, session, statement):
    with pytest.raises(InvalidStatementError, match="does not accept .* use execute_statement|Use execute_statement"):
        gateway.configure_session(session, statement)


def test_configure_takes_one_statement(gateway, session):
    with pytest.raises(InvalidStatementError, match="exactly one statement, got 2"):
        gateway.configure_session(session, "SET a=1; SET b=2")


def test_configure_error_keeps_the_session_usable(gateway, session):
    with pytest.raises(SqlExecutionError) as info:
        gateway.configure_session(session, "USE no_such_database_xyz")
    assert info.value.error["error_class"] == "SCHEMA_NOT_FOUND"
    assert run_all(gateway, session, "SELECT 3")[1] == [[3]]


@pytest.mark.parametrize("bad", ["not-a-uuid", "00000000-0000-0000-0000-000000000000", None])
def test_unknown_session_handles(gateway, bad):
    with pytest.raises(SessionNotFoundError):
        gateway.execute_statement(bad, "SELECT 1")


def test_bad_session_config_is_refused_and_nothing_is_left_open(gateway):
    before = len(gateway.sessions.list())
    with pytest.raises(SqlExecutionError, match="could not be applied"):
        gateway.open_session(config={"spark.sql.warehouse.dir": "/elsewhere"})
    assert len(gateway.sessions.list()) == before
    wait_for(lambda: True)
