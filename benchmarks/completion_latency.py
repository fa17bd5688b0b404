"""Completion latency with many tables: 10,000 tables of 20 columns each (target: p95 < 20 ms).

Creates the tables as temporary views of one session (the fastest way to a catalog of 10,000
relations: creating them in the embedded Hive metastore takes far longer; completion lists both
with the same SHOW TABLES call), then measures ``complete_candidates`` in typical contexts: the
first request (cold cache: the session's tables and functions load), repeated requests with a warm
cache (plain and statement-aware contexts: CTE columns, struct fields, join conditions), requests
right after DDL in another session (answered from what is known while the caches refresh in the
background), and the catalog page's list and search.

Run from the project root:

    .venv/bin/python benchmarks/completion_latency.py [--tables 10000] [--columns 20] [--repeat 200]

Progress goes to stderr; the figures go to stdout.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gateway import GatewayService, load_config  # noqa: E402


def timed(call, repeat: int) -> list[float]:
    samples = []
    for _ in range(repeat):
        started = time.perf_counter()
        call()
        samples.append((time.perf_counter() - started) * 1000)
    return samples


def row(label: str, samples: list[float]) -> str:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return f"| {label} | {statistics.median(ordered):.2f} | {p95:.2f} | {ordered[-1]:.2f} | {len(ordered)} |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=10000)
    parser.add_argument("--columns", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args()

    data_dir = tempfile.mkdtemp(prefix="completion-bench-")
    config = load_config(environ={}).with_overrides(data_dir=data_dir, spark__master="local[2]",
                                                    session__idle_timeout_s=0)
    gateway = GatewayService(config)
    session = gateway.open_session(name="bench")
    spark = gateway.sessions.get(session).spark
    columns = ", ".join(f"CAST({i} AS BIGINT) AS col_{i:02d}" for i in range(args.columns - 1))
    columns += ", named_struct('city', 'x', 'geo', named_struct('lat', 1.0D)) AS addr"
    print(f"creating {args.tables} views of {args.columns} columns…", file=sys.stderr)
    started = time.perf_counter()
    for i in range(args.tables):
        spark.sql(f"CREATE TEMPORARY VIEW table_{i:05d} AS SELECT {columns}")
    print(f"created in {time.perf_counter() - started:.1f} s", file=sys.stderr)

    after_from = "SELECT * FROM table_01"
    cold = timed(lambda: gateway.complete_candidates(session, after_from, len(after_from)), 1)
    statement = "SELECT t. FROM table_00042 t JOIN table_01999 u ON t.col_00 = u.col_00"
    first_columns = timed(lambda: gateway.complete_candidates(session, statement, 9), 1)
    select_list = "SELECT col_0 FROM table_00042 t JOIN table_01999 u ON t.col_00 = u.col_00"
    cte = "WITH s AS (SELECT col_01, sum(col_02) AS total FROM table_00042 GROUP BY col_01) SELECT s.to FROM s"
    struct = "SELECT t.addr.geo.la FROM table_00042 t"
    join_on = "SELECT * FROM table_00042 t JOIN table_01999 u ON "
    cases = [
        ("tables after FROM, prefix 'table_01' (warm)", lambda: gateway.complete_candidates(
            session, after_from, len(after_from))),
        ("all tables after FROM, no prefix (warm)", lambda: gateway.complete_candidates(
            session, "SELECT * FROM ", 14)),
        ("columns after alias 't.' (warm)", lambda: gateway.complete_candidates(session, statement, 9)),
        ("select list: columns of 2 tables + functions + keywords", lambda: gateway.complete_candidates(
            session, select_list, 12)),
        ("functions, prefix 'date_'", lambda: gateway.complete_candidates(session, "SELECT date_", 12)),
        ("CTE column through its alias 's.to'", lambda: gateway.complete_candidates(
            session, cte, cte.index("s.to") + 4)),
        ("struct field at depth 2 't.addr.geo.la'", lambda: gateway.complete_candidates(
            session, struct, struct.index("la") + 2)),
        ("join conditions after 'ON '", lambda: gateway.complete_candidates(session, join_on, len(join_on))),
    ]
    print("| completion | median ms | p95 ms | max ms | runs |")
    print("|---|---|---|---|---|")
    print(row("first request, cold cache (lists tables and functions)", cold))
    print(row("first 't.' request, loads the table's columns", first_columns))
    for label, call in cases:
        call()
        print(row(label, timed(call, args.repeat)))
    # Right after DDL in another session: the caches refresh in the background, the request answers at once.
    other = gateway.open_session(name="bench-ddl")
    after_ddl = []
    for i in range(min(args.repeat, 40)):
        gateway.configure_session(other, f"CREATE OR REPLACE TEMPORARY VIEW ddl_{i} AS SELECT 1 AS x")
        after_ddl += timed(lambda: gateway.complete_candidates(session, statement, 9), 1)
        after_ddl += timed(lambda: gateway.complete_candidates(session, after_from, len(after_from)), 1)
    print(row("request right after DDL in another session (refresh in the background)", after_ddl))
    completion = gateway.feature("completion")
    started = time.perf_counter()
    completion.wait_fresh(600)
    print(f"(the background refreshes settled {time.perf_counter() - started:.1f} s after the last DDL)",
          file=sys.stderr)
    listed = timed(lambda: gateway.list_tables(session), 3)
    print(row(f"catalog page: list_tables of {args.tables} (SHOW TABLES + SHOW VIEWS)", listed))
    infos = gateway.list_tables(session)
    search = timed(lambda: [t for t in infos if "99" in t.name.lower()], args.repeat)
    print(row("catalog page: search filter over the listed tables", search))
    count = len(gateway.complete_candidates(session, "SELECT * FROM ", 14))
    print(f"\n{args.tables} tables x {args.columns} columns; {count} candidates after FROM; "
          f"data dir {data_dir}; cpu count {os.cpu_count()}")
    gateway.shutdown()


if __name__ == "__main__":
    from gateway.identity import LOCAL_PRINCIPAL, acting_as

    with acting_as(LOCAL_PRINCIPAL):  # it reaches past the API to a session: as the local user
        main()
