"""A memory budget for the driver, and a clear answer when the driver dies (issue 18, item 3).

The shared gateway: the health endpoint, spark.driver.maxResultSize, the memory guard (with its
threshold lowered so that real heap readings trip it). A child ``python -m gateway serve`` with a
1 GB driver: the issue's fetched 3 GB result, then (if the driver survived) a killed JVM: every
call answers 503, the health endpoint says DOWN, and the process exits with code 75.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import ROOT, run_all, wait_for
from gateway.core.health import ENGINE_DIED_EXIT
from gateway.spark.liveness import driver_heap_max
from gateway.models import OperationStatus, ResultType
from rest_support import Http, http, server  # noqa: F401 - fixtures
from ports import free_port

SCAN = "SELECT id, id*2 AS v FROM range(0, 100000000, 1, 8)"
BIG_FETCH = "SELECT id, repeat('x', 1000) AS pad FROM range(0, 3000000, 1, 1)"


def test_the_health_endpoint_says_up_with_the_heap(http, gateway):  # noqa: F811
    assert wait_for(lambda: gateway.get_health()["heap_max_bytes"], 10)
    answer = http("GET", "/v1/health")
    assert answer.status == 200 and answer.body["status"] == "UP", answer.body
    assert answer.body["heap_max_bytes"] > answer.body["heap_used_bytes"] > 0
    assert answer.body["jvm_pid"] and os.path.exists(f"/proc/{answer.body['jvm_pid']}")


def test_max_result_size_is_a_quarter_of_the_driver_memory(gateway):
    assert gateway.root.sparkContext.getConf().get("spark.driver.maxResultSize") == "512m"  # of 2g


def test_the_memory_guard_stops_the_newest_producing_statement(gateway, session, monkeypatch):
    small_scan = "SELECT id, id*2 AS v FROM range(0, 4000000, 1, 8)"  # partitions of 8 MB
    older = gateway.execute_statement(session, small_scan)
    newer = gateway.execute_statement(session, small_scan)
    assert wait_for(lambda: all(gateway.get_operation_info(session, op).status == OperationStatus.FINISHED
                                for op in (older, newer)), 60)
    before = gateway.get_health()["memory_stops"]
    monkeypatch.setattr(gateway.health, "memory_fraction", 1e-9)  # any live heap is "too much" now
    assert wait_for(lambda: gateway.get_health()["memory_stops"] > before, 10)
    monkeypatch.setattr(gateway.health, "memory_fraction", 0.85)
    page = gateway.fetch_results(session, newer, 0)
    assert page.result_type is ResultType.ERROR
    assert page.exception["error_class"] == "DRIVER_MEMORY_EXHAUSTED"
    cause = page.exception["root_cause"]
    assert "spark.driver.memory" in cause and "LIMIT" in cause
    # What is full (the shared heap, and what Spark's parser caches hold of it) and that nothing else is lost.
    assert "heap every session shares" in cause and "parser caches held" in cause and "Nothing else is lost" in cause
    assert gateway.fetch_results(session, older, 0).result_type is ResultType.PAYLOAD  # the older one goes on
    assert gateway.get_health()["status"] == "UP"
    gateway.close_operation(session, older)  # a session runs one statement at a time: the older one is done
    assert run_all(gateway, session, "SELECT 2")[1] == [[2]]  # the session goes on too
    other = gateway.open_session()
    assert run_all(gateway, other, "SELECT 3")[1] == [[3]]  # and another session
    gateway.close_session(other)


def test_a_stale_full_reading_is_checked_by_a_collection_before_a_statement_is_stopped(gateway, session,
                                                                                        monkeypatch):
    """The old generation's reading dates from its last collection: after a big result is freed it
    can say "full" for as long as the JVM does not collect it again. The guard collects before it
    believes that, so the statement that happens to be newest is not stopped for garbage."""
    op = gateway.execute_statement(session, "SELECT id, id*2 AS v FROM range(0, 4000000, 1, 8)")
    assert wait_for(lambda: gateway.get_operation_info(session, op).status == OperationStatus.FINISHED, 60)
    watchdog = gateway.health
    assert wait_for(lambda: watchdog._gauge is not None, 10)
    gauge, collections, reads_after_collection = watchdog._gauge, [], []
    real_read, real_collect = gauge.read, gauge.collect

    def read():  # the old generation as it was before a big result was freed, until a collection
        live, in_use, maximum = real_read()
        if collections:
            reads_after_collection.append(live)
        return (live if collections else int(0.95 * maximum)), in_use, maximum

    def collect():
        collections.append(True)
        return real_collect()

    monkeypatch.setattr(gauge, "read", read)
    monkeypatch.setattr(gauge, "collect", collect)
    before = gateway.get_health()["memory_stops"]
    assert wait_for(lambda: collections, 60), "the guard never collected to check a full reading"
    assert wait_for(lambda: len(reads_after_collection) >= 2, 60), "the watchdog stopped checking"  # checks went on
    assert gateway.get_health()["memory_stops"] == before
    assert gateway.fetch_results(session, op, 0).result_type is ResultType.PAYLOAD


def test_unfetched_scans_share_the_drivers_stream_budget_and_one_that_does_not_fit_says_why(gateway, monkeypatch):
    """The issue's first OOM repro: scans of 200 MB partitions (Spark estimates 150 MB), unfetched. Each
    stream reserves four times Spark's estimate of a partition (no prefetch at that size) within half
    the 2 GB heap, so one streams; the next waits, then fails naming the budget; the driver stays healthy."""
    budget = gateway.runner.streams
    assert budget.budget_bytes == int(0.5 * driver_heap_max(gateway.root))  # result.stream_memory_fraction
    monkeypatch.setattr(budget, "wait_s", 3.0)
    handle = gateway.open_session(name="scans")
    try:
        first, second = (gateway.execute_statement(handle, SCAN) for _ in range(2))
        assert wait_for(lambda: gateway.get_operation_info(handle, second).status == OperationStatus.ERROR, 60)
        error = gateway.get_operation_info(handle, second).exception
        assert "result.stream_memory_fraction" in error["root_cause"] and "fetch or close" in error["root_cause"], error
        assert gateway.get_operation_info(handle, first).status in (OperationStatus.RUNNING,  # it streams
                                                                    OperationStatus.FINISHED)
        assert budget.open_now == 1 and budget.reserved <= budget.budget_bytes
        assert gateway.get_health()["status"] == "UP"
        gateway.close_operation(handle, first)
        assert wait_for(lambda: budget.open_now == 0 and budget.reserved == 0, 30)  # closing gives it back
    finally:
        gateway.close_session(handle)


def test_small_partitions_stream_with_prefetch_and_big_ones_without():
    from gateway.core.stream_budget import PARTITION_COPIES, reservation_for

    assert reservation_for(10 * 2 ** 20) == (2 * PARTITION_COPIES * 10 * 2 ** 20, True)
    assert reservation_for(300 * 2 ** 20) == (PARTITION_COPIES * 300 * 2 ** 20, False)
    assert reservation_for(None)[0] > 0 and reservation_for(0)[0] > 0  # unknown or empty still counts


@pytest.fixture(scope="module")
def child(tmp_path_factory):
    port = free_port()
    data = tmp_path_factory.mktemp("child-data")
    env = dict(os.environ, WORKBENCH_DATA_DIR=str(data), WORKBENCH_SPARK_MASTER="local[2]",
               WORKBENCH_SPARK_CONF='{"spark.driver.memory": "1g", "spark.sql.shuffle.partitions": "2"}',
               WORKBENCH_HEALTH_EXIT_AFTER_S="2", WORKBENCH_SESSION_IDLE_TIMEOUT_S="0")
    log = (data / "child.log").open("w")
    proc = subprocess.Popen([sys.executable, "-m", "gateway", "serve", "--once", "--host", "127.0.0.1", "--port", str(port)],
                            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    client = Http(f"http://127.0.0.1:{port}")
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            if client("GET", "/v1/health").status == 200:
                break
        except OSError:
            time.sleep(0.5)
    yield proc, client, Path(log.name)
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
    log.close()


def test_a_result_too_big_for_the_driver_is_a_clear_error_and_a_dead_driver_says_so(child):
    proc, client, log = child
    assert proc.poll() is None, log.read_text()[-3000:]
    jvm_pid = client("GET", "/v1/health").body["jvm_pid"]
    session = client.open_session()
    op = client.execute(session, BIG_FETCH)
    uri, error, started = f"/v1/sessions/{session}/operations/{op}/result/0", None, time.monotonic()
    while uri and time.monotonic() - started < 240:
        answer = client("GET", uri)
        if answer.status != 200 or answer.body.get("resultType") == "ERROR":
            error = answer
            break
        uri = answer.body.get("nextResultUri")
    assert error is not None, "3 GB through a 1 GB driver gave no error"
    text = str(error.body)
    print(f"\nthe 3 GB fetch answered {error.status} after {time.monotonic() - started:.1f} s: {text[:300]}")
    if error.status != 503:  # the guard or Spark refused it in time: the server goes on
        assert "DRIVER_MEMORY_EXHAUSTED" in text or "maxResultSize" in text or "RESULT_PARTITIONS_TOO_BIG" in text, \
            text[:2000]
        assert client("GET", "/v1/health").status == 200
        other = client.open_session()
        assert client.fetch_all(other, client.execute(other, "SELECT 1"))[1] == [[1]]
        os.kill(jvm_pid, signal.SIGKILL)  # then the driver dies anyway
        assert wait_for(lambda: client("GET", "/v1/health").status == 503, 10)
    else:  # the driver died building the partition: the fetch answers 503 like every other call
        assert "the Spark driver" in error.body["errors"][0], text[:2000]
    health = client("GET", "/v1/health")
    assert health.status == 503 and health.body["status"] == "DOWN"
    assert "exit code" in health.body["reason"] or "stopped" in health.body["reason"]
    for method, path in (("GET", "/v1/info"), ("POST", "/v1/sessions"),
                         ("GET", f"/v1/sessions/{session}/operations/{op}/status")):
        answer = client(method, path, {} if method == "POST" else None)
        assert answer.status == 503, (path, answer.status, answer.body)
        assert "driver" in answer.body["errors"][0] and "new session" in answer.body["errors"][0]
    assert proc.wait(30) == ENGINE_DIED_EXIT  # for ./workbench to restart it
