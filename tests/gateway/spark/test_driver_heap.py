"""What the workbench's statements leave in the shared driver's heap (benchmarks/driver_heap.py measures it).

- Spark's parser caches stay bounded (gateway/spark/parser_cache.py): ANTLR's DFA cache grows with every new
  shape of statement parsed and, unmanaged, lives as long as the JVM that every session shares. The workbench
  starts the driver with Spark's managed caches: hostile statements (deeply nested, wide, generated) are
  parsed into caches Spark drops past a bound, never into the static ones.
- A streamed result's jobs are forgotten by the DAG scheduler when the stream ends (gateway/spark/sql_metrics.py):
  they held the partitions' Arrow batches for the driver's life.

Real local Spark, statements through the gateway; states and jobs are counted in the driver.
"""
from __future__ import annotations

import random

from conftest import run_all, wait_for
from gateway.spark.sql_metrics import STREAM_EXECUTION_BASE
from gateway.spark.parser_cache import MANAGE, dfa_states, managed_bytes

_OPS = ("+", "-", "*", "%", "AND", "OR", "=", "<", "||")


def _expression(rnd: random.Random, depth: int) -> str:
    if depth == 0:
        return rnd.choice(("a", "1", "'x'", "b.c", "f(a)", "NULL", "2.5"))
    left, right = _expression(rnd, depth - 1), _expression(rnd, depth - 1)
    return rnd.choice((f"({left} {rnd.choice(_OPS)} {right})", f"CASE WHEN {left} THEN {right} ELSE 0 END",
                       f"coalesce({left}, {right})", f"CAST({left} AS DECIMAL(10,2))", f"{left} IN (1, {right})"))


def _hostile(seed: int, count: int) -> list[str]:
    """Statements of shapes Spark's parser has not seen: nested, then wide random expression trees."""
    rnd = random.Random(seed)
    texts = ["SELECT " + "(" * 200 + "1" + ")" * 200,
             "SELECT * FROM " + "(SELECT * FROM " * 100 + "range(1)" + ") AS t" * 100]
    texts += ["SELECT " + ", ".join(_expression(rnd, rnd.randrange(2, 5)) for _ in range(12))
              + " FROM no_such_table WHERE " + _expression(rnd, 4) for _ in range(count)]
    return texts


def test_hostile_statements_leave_nothing_in_the_parser_caches_of_the_jvms_life(gateway, session):
    before = dfa_states(gateway.root)
    managed = []
    for text in _hostile(seed=391, count=8):
        run_all(gateway, session, text, timeout_s=120)  # most fail (no such table): they are parsed all the same
        managed.append(managed_bytes(gateway.root)[0])
    after = dfa_states(gateway.root)
    # Unmanaged, these statements add thousands of states to SqlBaseParser's static DFA; managed, none.
    assert after.static_parser - before.static_parser < 100, (before, after)
    assert any(states != before.managed for states in managed), (before, managed)  # parsed into the managed caches
    assert run_all(gateway, session, "SELECT 1")[1] == [[1]]


def test_the_managed_caches_are_dropped_past_their_bound(gateway, session):
    """The bound is a session setting (Spark reads it at each parse): a low one here, so that a few statements
    pass it."""
    bound = 300
    run_all(gateway, session, f"SET spark.sql.parser.parserDfaCacheFlushThreshold = {bound}")
    assert run_all(gateway, session, f"SET {MANAGE}")[1] == [[MANAGE, "true"]]  # the workbench's default
    readings = []
    for text in _hostile(seed=392, count=10):
        run_all(gateway, session, text, timeout_s=120)
        readings.append(dfa_states(gateway.root).managed)
    assert max(readings) > 0, readings  # parsed into the managed caches
    assert any(later < earlier for earlier, later in zip(readings, readings[1:])), readings  # and dropped
    assert max(readings) <= bound * 4, readings  # past the bound after a parse, the caches are dropped
    run_all(gateway, session, "RESET spark.sql.parser.parserDfaCacheFlushThreshold")
    assert run_all(gateway, session, "SELECT 1")[1] == [[1]]


def _stream_jobs_kept(gateway) -> list[int]:
    """The execution ids of streamed results (sql_metrics.StreamExecution) whose jobs Spark's DAG scheduler keeps."""
    kept = gateway.root.sparkContext._jsc.sc().dagScheduler().activeQueryToJobs().keySet().toArray()
    return [int(ident) for ident in kept if int(ident) >= STREAM_EXECUTION_BASE]


def test_a_streamed_results_jobs_are_not_kept_after_it_ends(gateway, session):
    for _ in range(3):
        columns, rows, _ = run_all(gateway, session, "SELECT id, repeat('x', 50) AS s FROM range(0, 20000, 1, 4)")
        assert len(rows) == 20000
    # Spark forgets them on its scheduler's thread, soon after the stream's end: wait for that, bounded.
    assert wait_for(lambda: not _stream_jobs_kept(gateway), 30), _stream_jobs_kept(gateway)
