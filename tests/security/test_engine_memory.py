"""Issue 27, item 3: one client cannot run the shared driver out of memory (the run's 2 GB driver).

The issue's two repros end in clear errors at once, before Spark builds a partition, and the driver
stays alive and healthy: a result whose partitions the driver cannot hold (Spark's estimate counts a
string as 20 bytes; the stream corrects it from a sample of rows) is refused, while a result of the
same shape with small partitions streams whole.
"""
from __future__ import annotations

from conftest import run_all, wait_for
from gateway.models import OperationStatus

FAST_READ = "SELECT id, repeat('x', 1000) AS pad FROM range(0, 3000000, 1, 2)"  # 1.5 GB partitions
UNFETCHED = "SELECT id, repeat(cast(id AS string), 200) AS pad FROM range(0, 300000000)"


def _error(gateway, session, op, timeout_s=120):
    assert wait_for(lambda: gateway.get_operation_info(session, op).status.is_terminal, timeout_s)
    info = gateway.get_operation_info(session, op)
    assert info.status is OperationStatus.ERROR, info
    return info.exception


def test_a_result_of_partitions_too_big_for_the_driver_is_refused_before_spark_builds_one(gateway, session):
    error = _error(gateway, session, gateway.execute_statement(session, FAST_READ))
    assert error["error_class"] == "RESULT_PARTITIONS_TOO_BIG", error
    assert "2 partition(s) of about" in error["root_cause"] and "REPARTITION" in error["root_cause"], error
    assert gateway.get_health()["status"] == "UP"
    assert run_all(gateway, session, "SELECT 1")[1] == [[1]]


def test_unfetched_huge_scans_are_refused_and_the_driver_stays_up(gateway):
    handles = [gateway.open_session(name=f"scan-{n}") for n in range(4)]
    try:
        ops = [(handle, gateway.execute_statement(handle, UNFETCHED)) for handle in handles]
        for handle, op in ops:
            assert _error(gateway, handle, op)["error_class"] == "RESULT_PARTITIONS_TOO_BIG"
        assert gateway.get_health()["status"] == "UP"
        assert gateway.runner.streams.open_now == 0 and gateway.runner.streams.reserved == 0
    finally:
        for handle in handles:
            gateway.close_session(handle)


def test_the_same_shape_in_small_partitions_streams_whole(gateway, session):
    columns, rows, last = run_all(gateway, session, "SELECT id, repeat('x', 1000) AS pad FROM range(0, 60000, 1, 6)",
                                  max_rows=10_000)
    assert len(rows) == 60000 and rows[-1][0] == 59999 and len(rows[0][1]) == 1000


def test_a_result_whose_size_spark_does_not_know_is_not_refused(gateway, session):
    """After a shuffle, or for rows from Python, Spark's estimate is its "unknown" (Long.MaxValue): such a
    result streams (alone if need be) instead of being refused as too big (a two-row GROUP BY was)."""
    _, rows, page = run_all(gateway, session, "SELECT id % 2 AS k, max(repeat('x', 10)) AS pad, count(*) AS n "
                                              "FROM range(0, 1000, 1, 4) GROUP BY id % 2 ORDER BY k")
    assert page.exception is None and rows == [[0, "x" * 10, 500], [1, "x" * 10, 500]], page.exception
    _, rows, page = run_all(gateway, session, "SELECT k, count(DISTINCT v) AS n FROM VALUES ('a', 1), ('a', 2), "
                                              "('b', 1) AS t(k, v) GROUP BY k ORDER BY k")
    assert page.exception is None and rows == [["a", 2], ["b", 1]], page.exception
