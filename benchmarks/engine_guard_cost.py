"""What the engine guard (gateway/core/engine_guard.py) costs a non-admin's statement.

A non-admin's statement is parsed and analysed once more before Spark runs it (issue 27, items 1-2).
One gateway (local[2], auth.mode builtin, its own data directory) runs the same statements as an
admin (no plan check) and as a non-admin (checked), alternating, and prints median and p95 per kind.

    .venv/bin/python benchmarks/engine_guard_cost.py [--runs 100]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gateway import GatewayService, load_config  # noqa: E402
from gateway.identity import Principal, acting_as  # noqa: E402

STATEMENTS = {
    "SELECT 1": "SELECT 1",
    "a filter with a subquery and a lambda": "SELECT id, transform(array(id, id + 1), x -> x * 2) FROM range(100) "
                                             "WHERE id IN (SELECT id FROM range(50)) ORDER BY id LIMIT 5",
}


def timed(service, principal, statement) -> float:
    with acting_as(principal):
        handle = service.open_session()
        try:
            started = time.perf_counter()
            for page in service.iter_results(handle, service.execute_statement(handle, statement), None, 120):
                assert page.result_type.value != "ERROR", page.exception
            return (time.perf_counter() - started) * 1000
        finally:
            service.close_session(handle)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=100)
    args = parser.parse_args()
    data = tempfile.mkdtemp(prefix="workbench-guard-")
    config = load_config(ROOT / "workbench.toml", environ={}).with_overrides(
        data_dir=data, spark__master="local[2]", auth__mode="builtin", session__idle_timeout_s=0,
        spark__conf={"spark.sql.shuffle.partitions": "2", "spark.driver.memory": "2g"}, spark__ui__enabled=False)
    service = GatewayService(config)
    admin, user = Principal("root", True), Principal("alice", False)
    with open("/proc/loadavg") as f:
        print(f"# engine guard cost: local[2], load average at start {' '.join(f.read().split()[:3])}, "
              f"{args.runs} runs each")
    print("| statement | admin p50 (ms) | admin p95 | non-admin p50 (ms) | non-admin p95 |")
    print("|---|---|---|---|---|")
    try:
        for name, statement in STATEMENTS.items():
            for _ in range(5):  # warm up both paths
                timed(service, admin, statement), timed(service, user, statement)
            times = {admin: [], user: []}
            for _ in range(args.runs):
                for who in (admin, user):
                    times[who].append(timed(service, who, statement))
            cells = []
            for who in (admin, user):
                ordered = sorted(times[who])
                cells += [f"{statistics.median(ordered):.1f}", f"{ordered[int(0.95 * (len(ordered) - 1))]:.1f}"]
            print(f"| {name} | {' | '.join(cells)} |", flush=True)
    finally:
        service.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
