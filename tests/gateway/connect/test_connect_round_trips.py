"""Round trips to the Spark Connect server per statement, counted on the gRPC channel (an interceptor on the
gateway's own client, real server): a query is sent once and its schema and rows come back in that one
ExecutePlan; a command's rows come with spark.sql's answer. ReleaseExecute (the reattachable execution's
acknowledgements, sent asynchronously) is not a round trip on the statement's path and is not counted."""
from __future__ import annotations

import collections

import grpc
import pytest

from connect_support import fetch_all, wait_terminal
from gateway.identity import LOCAL_PRINCIPAL, acting_as
from gateway.models import OperationStatus

_ON_THE_PATH = ("ExecutePlan", "AnalyzePlan", "Config", "ReattachExecute", "AddArtifacts", "ArtifactStatus")


class _CountingInterceptor(grpc.UnaryUnaryClientInterceptor, grpc.UnaryStreamClientInterceptor):
    """Counts the calls of the sessions opened after it was added, by method name, for the current thread's
    session only when ``session_id`` is set (the completion cache of another session may call meanwhile)."""

    def __init__(self) -> None:
        self.calls: collections.Counter = collections.Counter()

    def __deepcopy__(self, memo):  # pyspark copies the channel builder for each new session: count in one place
        return self

    def _count(self, details, request) -> None:
        method = details.method.rsplit("/", 1)[-1]
        if method in _ON_THE_PATH and getattr(request, "session_id", None) == self.session_id:
            self.calls[method] += 1

    session_id = None

    def intercept_unary_unary(self, continuation, details, request):
        self._count(details, request)
        return continuation(details, request)

    def intercept_unary_stream(self, continuation, details, request):
        self._count(details, request)
        return continuation(details, request)


@pytest.fixture(scope="module")
def counted(connect_gateway):
    """A gateway session whose channel counts its calls (the interceptor applies to channels made after it)."""
    counter = _CountingInterceptor()
    connect_gateway.root.client._builder.add_interceptor(counter)
    with acting_as(LOCAL_PRINCIPAL):
        handle = connect_gateway.open_session(name="counted")
        counter.session_id = connect_gateway.sessions.get(handle).spark.session_id
    yield connect_gateway, handle, counter
    with acting_as(LOCAL_PRINCIPAL):
        connect_gateway.close_session(handle)


def _round_trips(gateway, handle, counter, sql):
    op = gateway.execute_statement(handle, sql)
    info = wait_terminal(gateway, handle, op)
    assert info.status == OperationStatus.FINISHED, info.exception
    rows, _ = fetch_all(gateway, handle, op)
    gateway.close_operation(handle, op)
    calls = dict(counter.calls)
    counter.calls.clear()
    return rows, calls


def test_select_1_is_one_execute_plan(counted):
    gateway, handle, counter = counted
    _round_trips(gateway, handle, counter, "SELECT 1")  # the session's first statement may set things up
    rows, calls = _round_trips(gateway, handle, counter, "SELECT 1")
    assert rows == [[1]]
    assert calls == {"ExecutePlan": 1}


def test_a_query_with_markers_and_a_command_are_one_execute_plan_each(counted):
    gateway, handle, counter = counted
    op = gateway.execute_statement(handle, "SELECT :n + 1 AS m", parameters={"n": 41})
    info = wait_terminal(gateway, handle, op)
    assert info.status == OperationStatus.FINISHED, info.exception
    assert fetch_all(gateway, handle, op)[0] == [[42]]
    assert dict(counter.calls) == {"ExecutePlan": 1}
    counter.calls.clear()
    rows, calls = _round_trips(gateway, handle, counter, "SHOW DATABASES")
    assert ["default"] in rows
    assert calls == {"ExecutePlan": 1}


def test_intervals_and_variant_reach_the_client_as_sparks_strings_on_connect(counted):
    """The rewrite into strings needs Connect's own column functions (pyspark's build classic columns unless
    Connect is the process's mode): it failed with an AssertionError before."""
    gateway, handle, counter = counted
    rows, calls = _round_trips(gateway, handle, counter,
                               "SELECT INTERVAL '1' MONTH AS m, array(INTERVAL '2' YEAR) AS a, parse_json('[1]') AS v")
    assert rows == [["INTERVAL '1' MONTH", ["INTERVAL '2' YEAR"], "[1]"]]
    assert calls == {"ExecutePlan": 2}  # the schema says strings are needed: the query runs again, rewritten


def test_the_builtins_usage_texts_load_in_a_few_calls_not_one_per_name(counted):
    """Without a JVM the ~600 usage texts come from the catalog's function list in one call (they were one
    DESCRIBE FUNCTION each: ~600 ExecutePlans in the background of a process's first Connect session)."""
    from gateway.core.functions import BuiltinFunctions

    gateway, _, counter = counted
    with acting_as(LOCAL_PRINCIPAL):
        handle = gateway.open_session(name="counted-usages")
    kept, counter.session_id = counter.session_id, gateway.sessions.get(handle).spark.session_id
    try:
        spark = gateway.sessions.get(handle).spark
        fresh = BuiltinFunctions()
        assert len(fresh.names(spark)) > 400
        counter.calls.clear()
        fresh.load_details_in_background(spark)
        assert fresh.wait_details(120)
        assert sum(counter.calls.values()) <= 2, dict(counter.calls)
        assert fresh.usage("abs").startswith("abs(expr)") and fresh.signature("substr") == "substr(str, pos[, len])"
        assert fresh.usage("+").startswith("expr1 + expr2")  # operators are listed too
    finally:
        counter.session_id = kept
        counter.calls.clear()
        with acting_as(LOCAL_PRINCIPAL):
            gateway.close_session(handle)


def test_a_builtins_usage_text_is_one_execute_plan(counted):
    """The built-ins' usage texts load in the background by DESCRIBE FUNCTION, ~600 of them on Connect: each
    must be one round trip (collect() sent spark.sql's rows back to the server: two, and ~1,700 calls that
    slowed every other test running meanwhile)."""
    from gateway.core.functions import described_usage

    gateway, _, counter = counted
    with acting_as(LOCAL_PRINCIPAL):
        handle = gateway.open_session(name="counted-describe")
    kept, counter.session_id = counter.session_id, gateway.sessions.get(handle).spark.session_id
    try:
        described_usage(gateway.sessions.get(handle).spark, "concat")  # a new session's first call may set up
        counter.calls.clear()
        assert described_usage(gateway.sessions.get(handle).spark, "abs").startswith("abs(expr)")
        assert dict(counter.calls) == {"ExecutePlan": 1}
    finally:
        counter.session_id = kept
        counter.calls.clear()
        with acting_as(LOCAL_PRINCIPAL):
            gateway.close_session(handle)
