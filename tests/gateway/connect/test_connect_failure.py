"""Failure contained: the Spark Connect server is killed (by PID) in the middle of a statement. The
workbench process stays up and REST answers; the statement ends with ENGINE_DOWN; once a server is back
on the same port, the session's next statement runs on a fresh Connect session. The run's shared server
is the one killed and started again on its port (a server of its own cost the suite a third JVM start,
about 45 s under load); only when that server is not ours (WORKBENCH_TEST_CONNECT_PORT) is one started here.
The shared gateway's sessions on it end with the server and reconnect as this test shows they do; its
in-memory catalog starts empty again (no later test reads a table made before)."""
from __future__ import annotations

import time

import pytest

from connect_support import connect_config, fetch_all, wait_terminal
from gateway.models import OperationStatus
from rest_support import Http, start


@pytest.fixture
def own_server(connect_server):
    """A server this test may kill: the run's shared one (started again, whatever the test's outcome)."""
    from connect_server import ConnectServer

    if connect_server.process is None:  # a server the developer runs: never ours to kill
        server = ConnectServer().start()
        yield server
        server.stop()
        return
    yield connect_server
    if connect_server.process is None:
        connect_server.start()


def test_a_killed_connect_server_ends_the_statement_with_engine_down_and_the_session_reconnects(
        own_server, tmp_path_factory):
    from gateway import GatewayService

    gateway = GatewayService(connect_config(tmp_path_factory, own_server.url))
    rest = start(gateway)
    try:
        http = Http(rest.url)
        session = http.open_session(sessionName="doomed")
        assert http("GET", "/v1/info").status == 200
        op = gateway.execute_statement(session, "SELECT count(*) FROM range(0, 100000000000)")
        deadline = time.monotonic() + 60
        while gateway.get_operation_info(session, op).status != OperationStatus.RUNNING:
            assert time.monotonic() < deadline
            time.sleep(0.02)
        own_server.kill()

        info = wait_terminal(gateway, session, op, timeout_s=90, finished_counts=False)
        assert info.status == OperationStatus.ERROR
        assert info.exception["error_class"] == "ENGINE_DOWN"
        assert "Spark Connect server is unreachable" in info.exception["root_cause"]
        # the workbench answers: REST, the service's own calls
        assert http("GET", "/v1/info").status == 200
        assert http("GET", "/v1/health").status == 200  # the workbench is up; only the statement's engine is gone
        answer = http("GET", f"/v1/sessions/{session}/operations/{op}/result/0")
        assert answer.status == 503 and "Spark Connect server" in str(answer.body)

        # a statement while the server is still down: ENGINE_DOWN again, in bounded time
        op = gateway.execute_statement(session, "SELECT 1")
        info = wait_terminal(gateway, session, op, timeout_s=90, finished_counts=False)
        assert info.exception["error_class"] == "ENGINE_DOWN"

        own_server.start()
        op = gateway.execute_statement(session, "SELECT 40 + 2")
        info = wait_terminal(gateway, session, op, timeout_s=120)
        assert info.status == OperationStatus.FINISHED, info.exception
        assert fetch_all(gateway, session, op)[0] == [[42]]
    finally:
        rest.stop()
        gateway.shutdown()
