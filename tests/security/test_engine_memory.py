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
