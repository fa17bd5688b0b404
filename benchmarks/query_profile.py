"""How soon a query profile is ready after its statement ends (issue 31 item 3; goal: 2 s or less),
and what building it costs. Prints figures with the machine's load; asserts nothing.

For each statement: run it, read every row, then time from the client's last page (the end of the
result; a streamed result's operation is FINISHED from its first page on, so ``ended_at`` is earlier)
to ``get_operation_profile`` answering a ready profile.

    .venv/bin/python benchmarks/query_profile.py [--rounds 5] [--data-dir DIR]
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
from gateway.identity import LOCAL_PRINCIPAL, acting_as  # noqa: E402

STATEMENTS = {
    "join + aggregation, streamed (1M facts)":
        "SELECT d.name, count(*) AS n, sum(f.id) AS s FROM (SELECT id, id % 7 AS k FROM range(0, 1000000, 1, 4)) f "
        "JOIN (SELECT id AS k, concat('n', id) AS name FROM range(0, 5)) d ON f.k = d.k GROUP BY d.name",
    "aggregation, collected (LIMIT)":
        "SELECT id % 100 AS k, count(*) AS n FROM range(0, 1000000, 1, 4) GROUP BY id % 100 ORDER BY n DESC LIMIT 10",
    "no job (SELECT 1)": "SELECT 1 AS one",
}


def _figures(samples: list[float]) -> str:
    samples = sorted(samples)
    return (f"median {statistics.median(samples) * 1000:.0f} ms, max {samples[-1] * 1000:.0f} ms "
            f"({len(samples)} runs)")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--data-dir", default=None)
    args = parser.parse_args()
    root = Path(__file__).resolve().parent.parent
    data_dir = args.data_dir or tempfile.mkdtemp(prefix="bench-profile-")
    config = load_config(root / "workbench.toml", environ={}).with_overrides(
        data_dir=data_dir, spark__master="local[2]", session__idle_timeout_s=0, session__restore=False)
    with acting_as(LOCAL_PRINCIPAL):
        gateway = GatewayService(config)
        try:
            session = gateway.open_session(name="bench-profile")
            for name, statement in STATEMENTS.items():
                ready_after, sizes = [], []
                for _ in range(args.rounds + 1):  # the first round warms the JVM up and is not counted
                    op = gateway.execute_statement(session, statement)
                    for _page in gateway.iter_results(session, op, None, 600):
                        pass
                    ended = time.time()
                    while True:
                        profile = gateway.get_operation_profile(session, op, timeout_s=0.01)
                        if profile["ready"]:
                            break
                    ready_after.append(time.time() - ended)
                    sizes.append(sum(len(e["operators"]) for e in profile["executions"]))
                    gateway.close_operation(session, op)
                print(f"{name}: profile ready {_figures(ready_after[1:])} after the statement ended; "
                      f"{statistics.median(sizes[1:]):.0f} operators, available={profile['available']}")
        finally:
            gateway.shutdown()
    load = os.getloadavg()
    print(f"load average {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
