"""Issue 27, items 2-4 after the fact: a dead driver comes back, a frozen one is not called UP.

- the supervisor of ./workbench and ``python -m gateway serve`` (gateway/supervisor.py) restarts a
  process that exits with code 75, gives up after ``health.max_restarts`` quick deaths in a row, and
  starts counting again after a healthy period (real child processes);
- ``python -m gateway serve`` (supervised, its default) comes back with a new driver after its JVM is
  killed by PID;
- a driver JVM that does not answer (stopped with SIGSTOP) makes the health call say DEGRADED, then
  UP again once it answers.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from conftest import ROOT, wait_for
from gateway import GatewayService
from gateway.supervisor import ENGINE_DIED_EXIT, supervise
from ports import free_port
from rest_support import Http


def _dying_child(tmp_path, deaths: int, runs_s: float = 0.0) -> list[str]:
    """A real process that exits with code 75 ``deaths`` times (after ``runs_s``), then with 0."""
    count = tmp_path / "starts"
    script = tmp_path / "child.py"
    script.write_text(textwrap.dedent(f"""
        import pathlib, sys, time
        count = pathlib.Path({str(count)!r})
        starts = len(count.read_text()) if count.exists() else 0
        count.write_text("x" * (starts + 1))
        time.sleep({runs_s})
        sys.exit({ENGINE_DIED_EXIT} if starts < {deaths} else 0)
    """))
    return [sys.executable, str(script)]


def _starts(tmp_path) -> int:
    return len((tmp_path / "starts").read_text())


def test_quick_deaths_in_a_row_end_in_giving_up(tmp_path):
    said = []
    code = supervise(_dying_child(tmp_path, deaths=10), max_restarts=3, reset_after_s=60, pause_s=0, say=said.append)
    assert code == ENGINE_DIED_EXIT and _starts(tmp_path) == 4  # the first run and three restarts
    assert "not restarting again" in said[-1] and "health.max_restarts = 3" in said[-1]


def test_the_restart_count_starts_again_after_a_healthy_period(tmp_path):
    said = []
    # Each run lives 0.3 s, longer than the healthy period: ten deaths, never five in a row.
    code = supervise(_dying_child(tmp_path, deaths=10, runs_s=0.3), max_restarts=3, reset_after_s=0.2, pause_s=0,
                     say=said.append)
    assert code == 0 and _starts(tmp_path) == 11, said
    assert all("(1 of 3 in a row)" in line for line in said), said


def test_another_exit_code_is_passed_on_without_a_restart(tmp_path):
    script = tmp_path / "fails.py"
    script.write_text("import sys; sys.exit(2)\n")
    assert supervise([sys.executable, str(script)], max_restarts=3, reset_after_s=60, pause_s=0) == 2


@pytest.fixture
def served(tmp_path):
    """``python -m gateway serve`` as a user starts it (supervised), on its own data directory."""
    port = free_port()
    env = dict(os.environ, WORKBENCH_DATA_DIR=str(tmp_path / "data"), WORKBENCH_SPARK_MASTER="local[1]",
               WORKBENCH_SPARK_CONF='{"spark.driver.memory": "512m", "spark.ui.enabled": "false"}',
               WORKBENCH_SPARK_UI_ENABLED="false", WORKBENCH_HEALTH_EXIT_AFTER_S="0.5",
               WORKBENCH_SESSION_IDLE_TIMEOUT_S="0", WORKBENCH_SESSION_RESTORE="false")
    log = (tmp_path / "serve.log").open("w")
    proc = subprocess.Popen([sys.executable, "-m", "gateway", "serve", "--host", "127.0.0.1", "--port", str(port)],
                            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    yield proc, Http(f"http://127.0.0.1:{port}"), tmp_path / "serve.log"
    if proc.poll() is None:
        proc.terminate()  # the supervisor passes it on to the server, which ends, and so does the supervisor
        try:
            proc.wait(60)
        except subprocess.TimeoutExpired:
            proc.kill()
    log.close()


def _health(client):
    try:
        answer = client("GET", "/v1/health")
    except OSError:
        return None
    return answer.body if answer.status == 200 else None


def test_serve_starts_a_new_driver_after_its_jvm_is_killed(served):
    proc, client, log = served
    first = wait_for(lambda: _health(client), 240, 0.5)
    assert first and first["status"] == "UP", log.read_text()[-3000:]
    os.kill(first["jvm_pid"], signal.SIGKILL)
    second = wait_for(lambda: (_health(client) or {}).get("jvm_pid") not in (None, first["jvm_pid"])
                      and _health(client), 300, 0.5)
    assert second and second["status"] == "UP", log.read_text()[-3000:]
    assert proc.poll() is None  # the supervisor lives on
    session = client.open_session()
    assert client.fetch_all(session, client.execute(session, "SELECT 1 + 1"))[1] == [[2]]
    assert "restarting (1 of 5 in a row)" in log.read_text()


def test_a_driver_that_does_not_answer_is_degraded_not_up(config, gateway):
    service = GatewayService(config.with_overrides(health__probe_timeout_s=1.0, health__check_interval_s=0.2))
    try:
        assert wait_for(lambda: service.get_health()["jvm_pid"] and service.get_health()["heap_max_bytes"], 30)
        assert service.get_health()["status"] == "UP"
        pid = service.get_health()["jvm_pid"]
        os.kill(pid, signal.SIGSTOP)
        try:
            degraded = wait_for(lambda: service.get_health()["status"] == "DEGRADED" and service.get_health(), 15)
        finally:
            os.kill(pid, signal.SIGCONT)
        assert degraded, service.get_health()
        assert "has not answered the health probe" in degraded["reason"], degraded
        assert wait_for(lambda: service.get_health()["status"] == "UP", 30), service.get_health()
    finally:
        service.shutdown(stop_spark=False)


def test_statements_stuck_waiting_for_a_thread_make_the_health_degraded(config, gateway):
    service = GatewayService(config.with_overrides(health__probe_timeout_s=1.0, operation__pool_size=1))
    long_scan = "SELECT count(*) FROM range(0, 20000000000, 1, 2) WHERE id % 7 = 3"
    try:
        busy, waiting = service.open_session(name="busy"), service.open_session(name="waiting")
        scan = service.execute_statement(busy, long_scan)
        assert wait_for(lambda: service.get_operation_info(busy, scan).status.value == "RUNNING", 60)
        service.execute_statement(waiting, "SELECT 1")  # no thread for it: the only one runs the scan
        degraded = wait_for(lambda: service.get_health()["status"] == "DEGRADED" and service.get_health(), 30)
        assert degraded and "waited more than 1 s for a thread" in degraded["reason"], service.get_health()
        service.cancel_operation(busy, scan)
        assert wait_for(lambda: service.get_health()["status"] == "UP", 60), service.get_health()
    finally:
        service.shutdown(stop_spark=False)
