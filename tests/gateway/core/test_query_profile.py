"""The query profile (issue 31 item 3): Spark's own SQL execution metrics of an operation, on real Spark.

A join of 10,000 facts with 5 of their 7 keys, grouped: the operators' row counts are the data's.
Both ways a result leaves Spark are covered: a result Spark proves small (collected in one action,
which Spark records as a SQL execution itself) and a streamed one (partition by partition, which the
gateway records as an execution of its own so that Spark's SQL tab and the profile see it).
"""
from __future__ import annotations

import urllib.request

import pytest

from gateway import Principal
from gateway.errors import OperationNotFoundError, SessionNotFoundError
from conftest import run_all

FACTS, KEYS, MATCHED_KEYS = 10_000, 7, 5
JOINED = sum(1 for i in range(FACTS) if i % KEYS < MATCHED_KEYS)  # 7,144
QUERY = ("SELECT d.name, count(*) AS n FROM profile_facts f JOIN profile_dims d ON f.k = d.k "
         "GROUP BY d.name")


@pytest.fixture
def views(gateway, session):
    run_all(gateway, session, f"CREATE TEMPORARY VIEW profile_facts AS "
                              f"SELECT id, id % {KEYS} AS k FROM range(0, {FACTS}, 1, 4)")
    run_all(gateway, session, f"CREATE TEMPORARY VIEW profile_dims AS "
                              f"SELECT id AS k, concat('n', id) AS name FROM range(0, {MATCHED_KEYS}, 1, 2)")
    return session


def _run(gateway, session, statement):
    op = gateway.execute_statement(session, statement)
    rows = [row for page in gateway.iter_results(session, op, None, 120) for row in page.rows]
    return op, rows


def _operators(profile, name):
    return [o for e in profile["executions"] for o in e["operators"] if o["name"] == name]


@pytest.mark.parametrize("suffix, streamed", [("", True), (" ORDER BY n LIMIT 10", False)],
                         ids=["streamed", "collected"])
def test_a_join_and_aggregation_gives_the_datas_row_counts(gateway, views, suffix, streamed):
    op, rows = _run(gateway, views, QUERY + suffix)
    assert len(rows) == MATCHED_KEYS
    profile = gateway.get_operation_profile(views, op, timeout_s=60)
    assert profile["available"] and profile["ready"], profile.get("reason")
    assert profile["job_ids"] and profile["executions"]
    assert any(e["streamed"] for e in profile["executions"]) == streamed
    assert all(e["status"] == "COMPLETED" for e in profile["executions"])
    ranges = sorted(o["rows"] for o in _operators(profile, "Range") if o["rows"] is not None)
    assert ranges == [MATCHED_KEYS, FACTS]
    joins = [o for o in _operators(profile, "BroadcastHashJoin") + _operators(profile, "SortMergeJoin")]
    assert [o["rows"] for o in joins] == [JOINED]
    aggregates = [o["rows"] for o in _operators(profile, "HashAggregate")]
    assert MATCHED_KEYS in aggregates  # the final aggregate: one row per matched key
    # the graph: every edge joins two known nodes, and the join reads from both sides
    for execution in profile["executions"]:
        ids = {o["id"] for o in execution["operators"]}
        assert all(a in ids and b in ids for a, b in execution["edges"])
    join = joins[0]
    execution = next(e for e in profile["executions"] if any(o is join for o in e["operators"]))
    assert len([a for a, b in execution["edges"] if b == join["id"]]) == 2
    # the slowest operators are called out, slowest first; stages carry the tasks' spread
    times = [o["time_ms"] for o in profile["slowest"]]
    assert times and times == sorted(times, reverse=True)
    # (a stage whose shuffle output an earlier job of the statement already wrote is SKIPPED)
    assert {s["status"] for s in profile["stages"]} <= {"COMPLETE", "SKIPPED"}
    assert any(s["status"] == "COMPLETE" and s["completed_tasks"] == s["tasks"] >= 1 for s in profile["stages"])
    spread = [s["task_time_ms"] for s in profile["stages"] if s["task_time_ms"]]
    assert spread and all(t["min"] <= t["median"] <= t["max"] for t in spread)
    assert any(o["peak_memory_bytes"] for o in _operators(profile, "HashAggregate"))


def test_a_statement_without_a_job_says_so(gateway, session):
    op, rows = _run(gateway, session, "SELECT 1 AS one")
    assert rows
    profile = gateway.get_operation_profile(session, op, timeout_s=60)
    assert profile["ready"] and not profile["available"]
    assert "no Spark job" in profile["reason"]
    assert profile["executions"] == [] and profile["stages"] == []


def test_another_users_or_sessions_operation_is_refused(gateway, views):
    op, _ = _run(gateway, views, QUERY)
    assert gateway.get_operation_profile(views, op, timeout_s=60)["available"]
    other = gateway.open_session(name="other")
    try:
        with pytest.raises(OperationNotFoundError, match="no profile"):
            gateway.get_operation_profile(other, op, timeout_s=1)
    finally:
        gateway.close_session(other)
    stranger = gateway.as_user(Principal("profile-stranger"))
    with pytest.raises(SessionNotFoundError):
        stranger.get_operation_profile(views, op)


def test_the_profile_survives_the_operations_end(gateway, views):
    op, _ = _run(gateway, views, QUERY)
    gateway.close_operation(views, op)
    with pytest.raises(OperationNotFoundError):
        gateway.get_operation_info(views, op)
    profile = gateway.get_operation_profile(views, op, timeout_s=60)
    assert profile["available"] and _operators(profile, "HashAggregate")


def test_only_the_last_profiles_of_a_session_are_kept(gateway, session):
    kept = gateway.profiles.kept
    ops = [_run(gateway, session, f"SELECT {i} AS i")[0] for i in range(kept + 1)]
    assert gateway.get_operation_profile(session, ops[-1], timeout_s=60)["ready"]
    with pytest.raises(OperationNotFoundError, match="older than the last"):
        gateway.get_operation_profile(session, ops[0], timeout_s=0)


def test_the_spark_ui_link_is_the_statements_own_sql_execution(gateway, views):
    op, _ = _run(gateway, views, QUERY)
    profile = gateway.get_operation_profile(views, op, timeout_s=60)
    execution = profile["executions"][-1]
    base = gateway.get_gateway_info()["spark_ui"]
    assert profile["spark_ui_url"] == execution["url"] == f"{base}/SQL/execution/?id={execution['id']}"
    with urllib.request.urlopen(profile["spark_ui_url"], timeout=30) as response:
        page = response.read().decode("utf-8", "replace")
    assert f"Details for Query {execution['id']}" in page
    assert "BroadcastHashJoin" in page or "SortMergeJoin" in page
