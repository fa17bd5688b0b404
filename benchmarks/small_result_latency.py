"""Latency of small results through the gateway: execute_statement, every page, close_operation.

Small results are converted to Arrow in the driver JVM (``gateway/spark/arrow_stream.py``,
``small_result``); this prints the median and p95 per statement so that a change to that path
can be compared with the code before it (run this script from each checkout, on the same machine,
one after the other). A browser click-to-row adds ~180 ms of Streamlit on top of these figures.

    .venv/bin/python benchmarks/small_result_latency.py [--runs N] [--data-dir DIR]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gateway import GatewayService, load_config  # noqa: E402

STATEMENTS = (
    "SELECT 1",
    "VALUES (1, 'a'), (2, 'b'), (3, 'c')",
    "SHOW DATABASES",
    "SELECT id FROM range(10)",
    "SELECT current_timestamp(), DATE'2020-01-01', 2.5D",
)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=200, help="timed runs per statement (default 200)")
    parser.add_argument("--data-dir", default="/tmp/bench-small-results")
    args = parser.parse_args(argv)
    root = Path(__file__).resolve().parent.parent
    config = load_config(root / "workbench.toml", environ={}).with_overrides(
        data_dir=args.data_dir, spark__master="local[2]", session__idle_timeout_s=0, session__restore=False)
    gateway = GatewayService(config)
    try:
        session = gateway.open_session(name="bench")
        print(f"{'statement':<52} {'median ms':>10} {'p95 ms':>8}")
        for statement in STATEMENTS:
            timings = []
            for run in range(args.runs + 20):  # the first 20 warm up
                start = time.perf_counter()
                operation = gateway.execute_statement(session, statement)
                rows = sum(len(page.rows) for page in gateway.iter_results(session, operation, timeout_s=60))
                gateway.close_operation(session, operation)
                if run >= 20:
                    timings.append((time.perf_counter() - start) * 1000)
            assert rows > 0, statement
            timings.sort()
            print(f"{statement[:52]:<52} {statistics.median(timings):>10.2f} "
                  f"{timings[int(len(timings) * 0.95) - 1]:>8.2f}", flush=True)
    finally:
        gateway.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
