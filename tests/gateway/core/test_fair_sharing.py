"""Fair sharing (issue 18, item 4): one session cannot hold the pool, the HTTP workers or a session.

Real Spark, the contract and real HTTP on 127.0.0.1. The tests assert what happens in which order
(another session's statement finishes while the scans still run); how long it waits is measured by
benchmarks/responsiveness.py.
"""
from __future__ import annotations

import http.server as httpserver
import threading
import time

import pytest

from conftest import run_all, wait_for
from gateway.errors import BusyError
from gateway.models import OperationStatus, ResultType
from rest_support import http, server  # noqa: F401 - fixtures

SCAN = "SELECT id, id*2 AS v FROM range(0, 100000000, 1, 8)"


def status(gateway, session, op):
    return gateway.get_operation_info(session, op).status


def has_tasks_to_do(gateway, session, op) -> bool:
    """The operation's Spark job has a stage with tasks running or waiting (Spark's status tracker)."""
    return bool(gateway.get_operation_progress(session, op).active_stages)


@pytest.fixture
def hog(gateway):
    """A session with eight unfetched long scans (the issue's repro)."""
    handle = gateway.open_session(name="hog")
    ops = [gateway.execute_statement(handle, SCAN) for _ in range(8)]
    yield handle, ops
    try:
        gateway.close_session(handle)
    except Exception:  # a test closed it
        pass


def test_one_sessions_scans_hold_only_its_share_of_the_pool(gateway, hog):
    handle, ops = hog
    per_session = gateway.operations.per_session
    assert per_session < gateway.operations.pool_size
    assert wait_for(lambda: gateway.operations.running_and_waiting(handle) == (per_session, 8 - per_session), 30)
    other = gateway.open_session(name="other")
    try:
        columns, rows, page = run_all(gateway, other, "SELECT 1 AS one", timeout_s=30)
        assert rows == [[1]]
        # it did not wait for the hog: the hog still holds its share and its other scans still wait
        assert gateway.operations.running_and_waiting(handle) == (per_session, 8 - per_session)
        # The waiting scans are PENDING and need no thread; a cancel ends one at once. (SELECT 1 needs
        # no Spark job and may answer before the second running scan took the session's run lock:
        # until then that one reads PENDING too.)
        def pending():
            return [op for op in ops if status(gateway, handle, op) == OperationStatus.PENDING]

        assert wait_for(lambda: len(pending()) == 8 - per_session, 30), len(pending())
        waiting = pending()
        gateway.cancel_operation(handle, waiting[0])
        assert status(gateway, handle, waiting[0]) == OperationStatus.CANCELED
        # Closing a running scan lets the next waiting one start.
        running = [op for op in ops if status(gateway, handle, op) in (OperationStatus.RUNNING,
                                                                        OperationStatus.FINISHED)]
        gateway.close_operation(handle, running[0])
        assert wait_for(lambda: gateway.operations.running_and_waiting(handle)[1] == 8 - per_session - 2, 30)
    finally:
        gateway.close_session(other)


def test_a_session_with_too_many_waiting_statements_gets_429(gateway, hog, monkeypatch):
    handle, _ = hog
    assert wait_for(lambda: gateway.operations.running_and_waiting(handle)[1] == 8 - gateway.operations.per_session)
    monkeypatch.setattr(gateway.operations, "max_queued_per_session", 8 - gateway.operations.per_session)
    with pytest.raises(BusyError, match="fetch or close the results") as refused:
        gateway.execute_statement(handle, "SELECT 1")
    assert refused.value.http_status == 429


def test_fair_scheduler_gives_each_session_its_pool(gateway):
    assert gateway.root.sparkContext.getConf().get("spark.scheduler.mode") == "FAIR"
    a, b = gateway.open_session(name="long"), gateway.open_session(name="short")
    try:
        # One job of many short tasks that keeps both cores busy for a long time.
        long_op = gateway.execute_statement(a, "SELECT sum(id % 7) FROM range(0, 20000000000, 1, 2000)")
        assert wait_for(lambda: gateway.get_operation_info(a, long_op).job_ids, 30)
        _, rows, _ = run_all(gateway, b, "SELECT sum(id) FROM range(0, 1000, 1, 2)", timeout_s=60)
        assert rows == [[499500]]
        assert status(gateway, a, long_op) == OperationStatus.RUNNING  # the short job did not wait for it
        gateway.cancel_operation(a, long_op)
    finally:
        gateway.close_session(a)
        gateway.close_session(b)


LONG_SCAN = "SELECT sum(id % 7) FROM range(0, 20000000000, 1, 2000)"  # many short tasks, minutes in all


def test_statements_with_inputs_spark_proves_tiny_take_the_small_lane(gateway):
    from gateway.spark.scheduler import SMALL_POOL, SMALL_POOL_MIN_SHARE, pool_for

    context = gateway.root.sparkContext
    allocation = context.getConf().get("spark.scheduler.allocation.file")
    assert allocation and SMALL_POOL in open(allocation, encoding="utf-8").read()
    pool = context._jsc.sc().getPoolForName(SMALL_POOL)  # Spark read the file: the pool is needy at 0 tasks
    assert pool.isDefined() and pool.get().minShare() == SMALL_POOL_MIN_SHARE
    handle = gateway.open_session(name="lanes")
    spark = gateway.sessions.get(handle).spark
    try:
        spark.sql("DROP TABLE IF EXISTS lane_ten")
        spark.sql("CREATE TABLE lane_ten USING parquet AS SELECT id FROM range(10)")
        small = ["SELECT 1", "SELECT count(*), sum(id) FROM lane_ten", "SELECT * FROM range(100) WHERE id > 5",
                 "SELECT a.id FROM range(10) a JOIN range(10) b ON a.id = b.id"]
        session_pool = ["SELECT sum(id) FROM range(0, 100000000)",        # 800 MB of input
                        "SELECT count(*) FROM range(1000) a CROSS JOIN range(1000) b",  # tiny inputs, 10^6 rows
                        "SELECT count(*) FROM (SELECT explode(sequence(1, 10000000)))"]  # a generator multiplies
        assert [pool_for(spark.sql(q), "mine") for q in small] == [SMALL_POOL] * len(small)
        assert [pool_for(spark.sql(q), "mine") for q in session_pool] == ["mine"] * len(session_pool)
        assert pool_for(spark.sql("SHOW DATABASES"), "mine") == "mine"  # rows in the driver: no job at all
    finally:
        spark.sql("DROP TABLE IF EXISTS lane_ten")
        gateway.close_session(handle)


def test_a_short_statement_finishes_beside_more_long_scans_than_cores(gateway):
    """Six sessions' long scans on local[2]: another session's short statements finish within seconds.

    Before the small lane, the other session's pool (its name sorting after the six busy ones)
    lost every tie for a free core and waited for the scans to end (minutes).
    """
    scanners = [gateway.open_session(name=f"scan-{n}") for n in range(6)]
    other = gateway.open_session(name="short")  # opened last: its pool's name sorts after theirs
    ops = []
    try:
        run_all(gateway, other, "DROP TABLE IF EXISTS fair_ten")
        run_all(gateway, other, "CREATE TABLE fair_ten USING parquet AS SELECT id, id % 3 AS k FROM range(10)")
        cases = [("SELECT 1 AS one", [[1]]),
                 ("SELECT k, count(*), sum(id) FROM fair_ten GROUP BY k ORDER BY k", [[0, 4, 18], [1, 3, 12], [2, 3, 15]])]
        for statement, expected in cases:  # once alone: the first planning and code generation are done
            assert run_all(gateway, other, statement, timeout_s=60)[1] == expected
        ops = [gateway.execute_statement(s, LONG_SCAN) for s in scanners]
        assert wait_for(lambda: all(has_tasks_to_do(gateway, s, op) for s, op in zip(scanners, ops)), 60), \
            "not every scan has tasks running or waiting"
        for statement, expected in cases:
            _, rows, _ = run_all(gateway, other, statement, timeout_s=60)
            assert rows == expected
            # Without the small lane the short statement waits for the scans (minutes): here they still run.
            assert [status(gateway, s, op) for s, op in zip(scanners, ops)] == [OperationStatus.RUNNING] * 6
    finally:
        for s, op in zip(scanners, ops):
            gateway.cancel_operation(s, op)
        for s in scanners:
            gateway.close_session(s)
        run_all(gateway, other, "DROP TABLE IF EXISTS fair_ten")
        gateway.close_session(other)


def test_configure_session_waits_at_most_its_timeout_over_http(http, gateway, hog, monkeypatch):  # noqa: F811
    handle, _ = hog
    assert wait_for(lambda: gateway.operations.running_and_waiting(handle)[1] > 0, 30)
    monkeypatch.setitem(gateway.config.values, "operation.wait_timeout_s", 6.0)
    monkeypatch.setattr(gateway, "_waiting_calls", threading.BoundedSemaphore(3))
    answers, lock = [], threading.Lock()

    def configure():
        answer = http("POST", f"/v2/sessions/{handle}/configure-session", {"statement": "SET a.b = 1"})
        with lock:
            answers.append(answer)

    threads = [threading.Thread(target=configure) for _ in range(20)]
    for thread in threads:
        thread.start()
    # 17 are turned away at once, so the other 3 hold every waiting slot
    assert wait_for(lambda: len(answers) >= 17, 30), len(answers)
    info = http("GET", "/v1/info")
    with lock:
        answered_before_info = len(answers)
    for thread in threads:
        thread.join(60)
    assert info.status == 200
    assert answered_before_info < 20  # /v1/info answered while configure calls still waited on their HTTP workers
    assert not any(thread.is_alive() for thread in threads), "a configure call never answered"
    statuses = sorted(answer.status for answer in answers)
    assert statuses == [503] * 20, statuses
    timed_out = [a for a in answers if "operation.wait_timeout_s" in a.body["errors"][0]]
    turned_away = [a for a in answers if "operation.max_waiting_calls" in a.body["errors"][0]]
    assert len(timed_out) >= 3 and len(timed_out) + len(turned_away) == 20
    assert "cancel them" in timed_out[0].body["errors"][0]
    assert http("DELETE", f"/v1/sessions/{handle}").status == 200
    with pytest.raises(Exception):
        gateway.heartbeat(handle)


class _Dribble(httpserver.BaseHTTPRequestHandler):
    """Answers a jar with a Content-Length and then one byte every 0.5 s (a workload: it must be slow)."""

    bytes_sent = 0  # tests wait on it to know a download is under way

    def do_GET(self):  # noqa: N802
        self.send_response(200)
        self.send_header("Content-Length", "100000")
        self.end_headers()
        try:
            for _ in range(200):
                self.wfile.write(b"P")
                self.wfile.flush()
                type(self).bytes_sent += 1
                time.sleep(0.5)
        except OSError:
            pass

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def dribble():
    httpd = httpserver.ThreadingHTTPServer(("127.0.0.1", 0), _Dribble)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/slow.jar"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture
def jar_store(gateway):
    return gateway.feature("jars").resources.store


def test_add_jar_download_has_a_total_deadline(gateway, session, dribble, jar_store, monkeypatch):
    monkeypatch.setattr(jar_store, "download_timeout_s", 2.0)
    _, _, page = run_all(gateway, session, f"ADD JAR '{dribble}'", timeout_s=30)
    assert page.result_type is ResultType.ERROR
    # the total deadline, not a per-read timeout (a byte comes every 0.5 s: the server would dribble on for 100 s)
    assert "did not finish within 2 s" in page.exception["root_cause"]


def test_cancel_stops_a_download_and_frees_the_session(gateway, session, dribble, jar_store, monkeypatch):
    monkeypatch.setattr(jar_store, "download_timeout_s", 120.0)
    sent_before = _Dribble.bytes_sent
    op = gateway.execute_statement(session, f"ADD JAR '{dribble}'")
    # the download runs before the session's lock (issue 27 item 11): the operation may still be PENDING
    assert wait_for(lambda: _Dribble.bytes_sent > sent_before, 30), "the download never started"
    gateway.cancel_operation(session, op)
    _, rows, _ = run_all(gateway, session, "SELECT 2", timeout_s=30)
    assert rows == [[2]]  # the session is free although the download had about 100 s to go
    assert status(gateway, session, op) == OperationStatus.CANCELED


def test_a_users_own_allocation_file_must_give_the_small_lane_its_share(tmp_path):
    from gateway.errors import ConfigurationError
    from gateway.spark.scheduler import allocation_xml, check_allocation_file

    own = tmp_path / "pools.xml"
    own.write_text('<?xml version="1.0"?><allocations><pool name="etl"><weight>2</weight></pool></allocations>')
    with pytest.raises(ConfigurationError, match="must define the pool 'workbench-small' with minShare 1") as refused:
        check_allocation_file(own)
    assert "<minShare>1</minShare>" in str(refused.value)  # what to add, spelled out
    own.write_text(allocation_xml().replace("</allocations>", '<pool name="etl"><weight>2</weight></pool></allocations>'))
    check_allocation_file(own)  # the lane and the user's pools together
    with pytest.raises(ConfigurationError, match="cannot be read"):
        check_allocation_file(tmp_path / "missing.xml")
