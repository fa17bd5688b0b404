"""What splitting and reading statements costs on the hot path (issue 26: one analysis per statement).

Three figures:

1. ``split_script`` of one small statement (``SELECT <i>``, a new text each time so no cache helps):
   median microseconds per call.
2. ``split_script`` of a large script (N statements with strings, comments and quoted names):
   milliseconds, and statements per second.
3. The gateway's ``SELECT 1``: execute_statement + every page + close_operation, median and p95
   milliseconds over R runs after a warm-up, on the embedded engine.

Run from the project root (works on the code before and after the change, to compare):

    .venv/bin/python benchmarks/statement_split_cost.py [--runs R] [--statements N] [--data-dir DIR]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gateway.core.statements import split_script  # noqa: E402


def small_statement_us(count: int = 20_000) -> float:
    samples = []
    for i in range(count):
        text = f"SELECT {i}"
        start = time.perf_counter()
        split_script(text)
        samples.append(time.perf_counter() - start)
    return statistics.median(samples) * 1e6


def large_script_ms(statements: int) -> tuple[float, int]:
    piece = ("SELECT 'a;b' AS s, `c;d`, /* x ; y */ t.v -- tail ;\n FROM db.t{i} AS t "
             "WHERE t.k = \"q\\\";\" AND t.n IN (1, 2, 3);\n")
    script = "".join(piece.format(i=i) for i in range(statements))
    start = time.perf_counter()
    parts = split_script(script, max_chars=None)
    elapsed = time.perf_counter() - start
    assert len(parts) == statements, len(parts)
    return elapsed * 1000, len(script)


def gateway_select_1_ms(runs: int, data_dir: str) -> tuple[float, float]:
    from gateway import GatewayService, load_config

    root = Path(__file__).resolve().parent.parent
    config = load_config(root / "workbench.toml", environ={}).with_overrides(
        data_dir=data_dir, spark__master="local[2]", session__restore=False, session__idle_timeout_s=0)
    service = GatewayService(config)
    try:
        session = service.open_session(name="bench")

        def once() -> float:
            start = time.perf_counter()
            op = service.execute_statement(session, "SELECT 1")
            for _ in service.iter_results(session, op, None, 60):
                pass
            service.close_operation(session, op)
            return time.perf_counter() - start

        for _ in range(50):
            once()
        samples = sorted(once() for _ in range(runs))
        return statistics.median(samples) * 1000, samples[int(len(samples) * 0.95) - 1] * 1000
    finally:
        service.shutdown()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--runs", type=int, default=300)
    parser.add_argument("--statements", type=int, default=10_000)
    parser.add_argument("--data-dir", default=None)
    args = parser.parse_args()
    print(f"split_script, one small statement: {small_statement_us():.1f} us (median)")
    ms, chars = large_script_ms(args.statements)
    print(f"split_script, {args.statements:,} statements ({chars / 1e6:.2f} MB): {ms:.0f} ms "
          f"({args.statements / ms * 1000:,.0f} statements/s)")
    with tempfile.TemporaryDirectory() as scratch:
        median, p95 = gateway_select_1_ms(args.runs, args.data_dir or scratch)
    print(f"gateway SELECT 1 (execute + fetch + close), {args.runs} runs: median {median:.2f} ms, p95 {p95:.2f} ms")


if __name__ == "__main__":
    main()
