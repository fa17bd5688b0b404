"""What compiled plans cost: COMPILE PLAN, EXPLAIN PLAN (the checks), EXECUTE PLAN against a plain run.

For each golden query (tests/golden/plans) over empty tables, the median of N runs of:
compile (analyze + optimize + tables + function versions + write the file), explain (load the
file and run every check, including re-analysis), execute (checks plus the run) and the plain
statement through the gateway. Also the plan file's size.

    .venv/bin/python benchmarks/plan_costs.py [--quick] [--data-dir DIR]
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
sys.path.insert(0, str(ROOT / "tests"))

from gateway import GatewayService, load_config  # noqa: E402
from plan_goldens import GOLDEN_DIR, setup_statements  # noqa: E402


def run(gateway, session, statement) -> float:
    started = time.perf_counter()
    op = gateway.execute_statement(session, statement)
    for page in gateway.iter_results(session, op):
        if page.exception:
            raise RuntimeError(page.exception["root_cause"])
    gateway.close_operation(session, op)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="3 runs instead of 7")
    parser.add_argument("--data-dir", default=None)
    args = parser.parse_args()
    repeats = 3 if args.quick else 7
    data_dir = args.data_dir or tempfile.mkdtemp(prefix="plan-bench-")
    config = load_config(ROOT / "workbench.toml", environ={}).with_overrides(
        data_dir=data_dir, spark__master="local[2]", session__idle_timeout_s=0,
        spark__conf={"spark.sql.shuffle.partitions": "2"})
    gateway = GatewayService(config)
    try:
        session = gateway.open_session(name="bench")
        for statement in setup_statements():
            run(gateway, session, statement)
        print(f"{'query':<16}{'compile s':>11}{'explain s':>11}{'execute s':>11}{'plain s':>10}{'file KB':>9}")
        for sql_file in sorted(GOLDEN_DIR.glob("*.sql")):
            if sql_file.name.startswith("_") or sql_file.stem in ("insert", "ctas"):
                continue  # writes: their plain run changes the tables
            text = sql_file.read_text()
            name = f"bench-{sql_file.stem}.json"
            run(gateway, session, f"COMPILE PLAN '{name}' IF NOT EXISTS FOR {text}")  # warm-up
            run(gateway, session, text)
            timings = {"compile": [], "explain": [], "execute": [], "plain": []}
            for _ in range(repeats):
                run(gateway, session, "SET workbench.plan.force_recompile = true")
                timings["compile"].append(run(gateway, session, f"COMPILE PLAN '{name}' FOR {text}"))
                timings["explain"].append(run(gateway, session, f"EXPLAIN PLAN '{name}'"))
                timings["execute"].append(run(gateway, session, f"EXECUTE PLAN '{name}'"))
                timings["plain"].append(run(gateway, session, text))
            size = (config.data_dir / "plans" / name).stat().st_size / 1024
            medians = {key: statistics.median(values) for key, values in timings.items()}
            print(f"{sql_file.stem:<16}{medians['compile']:>11.3f}{medians['explain']:>11.3f}"
                  f"{medians['execute']:>11.3f}{medians['plain']:>10.3f}{size:>9.1f}")
    finally:
        gateway.shutdown()


if __name__ == "__main__":
    main()
