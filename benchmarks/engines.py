"""The two engines side by side over REST: ``embedded`` (the driver in this process) and ``connect``
(a Spark Connect server started here from pyspark's own spark-submit, or one given with --connect-url).

Prints, for each engine: ``SELECT 1`` through the project's client (execute, every page, close) median
and p95, and 1,000,000 rows x 5 columns (bigint, double, string, date, timestamp) through
``fetch_pandas`` (Arrow pages) in rows/s, best of the runs; and the machine's load average before and
after, since the figures mean little without it.

    .venv/bin/python benchmarks/engines.py [--runs N] [--big-runs N] [--connect-url sc://127.0.0.1:15002]
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))  # connect_server.py, ports.py

import workbench_client as dbapi  # noqa: E402
from gateway import GatewayService, load_config  # noqa: E402
from gateway.identity import LOCAL_PRINCIPAL, acting_as  # noqa: E402
from gateway.rest import serve_in_background  # noqa: E402

BIG = ("SELECT id, id * 1.5 AS d, CAST(id AS STRING) AS s, date_add(DATE'2020-01-01', CAST(id % 1000 AS INT)) AS day, "
       "TIMESTAMP'2020-01-01 00:00:00' + make_interval(0, 0, 0, 0, 0, 0, id % 86400) AS ts FROM range(1000000)")


def measure(url: str, runs: int, big_runs: int) -> dict:
    with dbapi.connect(url, timeout_s=600) as conn:  # a cold engine on a loaded machine: minutes
        cur = conn.cursor()
        timings = []
        for run in range(runs + 10):  # the first 10 warm up
            start = time.perf_counter()
            cur.execute("SELECT 1")
            assert cur.fetchall() == [(1,)]
            if run >= 10:
                timings.append((time.perf_counter() - start) * 1000)
        timings.sort()
        rates = []
        for _ in range(big_runs):
            start = time.perf_counter()
            cur.execute(BIG)
            frame = cur.fetch_pandas()
            seconds = time.perf_counter() - start
            assert len(frame) == 1_000_000 and len(frame.columns) == 5
            rates.append(len(frame) / seconds)
    return {"median": statistics.median(timings), "p95": timings[max(0, int(len(timings) * 0.95) - 1)],
            "rows_per_s": max(rates)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=50, help="timed SELECT 1 runs per engine (default 50)")
    parser.add_argument("--big-runs", type=int, default=2, help="1M-row fetches per engine (default 2)")
    parser.add_argument("--connect-url", default="", help="an existing Spark Connect server (default: start one)")
    args = parser.parse_args(argv)
    print(f"load average before: {' '.join(f'{x:.1f}' for x in os.getloadavg())} ({os.cpu_count()} cores)", flush=True)
    server = None
    url = args.connect_url
    if not url:
        from connect_server import ConnectServer

        started = time.perf_counter()
        server = ConnectServer().start()
        url = server.url
        print(f"Spark Connect server up in {time.perf_counter() - started:.1f} s at {url}", flush=True)
    base = load_config(ROOT / "workbench.toml", environ={})
    engines = {
        "embedded": dict(spark__master="local[2]"),
        "connect": dict(engine__kind="connect", engine__url=url),
    }
    results = {}
    try:
        with acting_as(LOCAL_PRINCIPAL):
            for name, overrides in engines.items():
                config = base.with_overrides(data_dir=tempfile.mkdtemp(prefix=f"bench-engines-{name}-"),
                                             session__idle_timeout_s=0, session__restore=False, **overrides)
                gateway = GatewayService(config)
                rest = serve_in_background(gateway, "127.0.0.1", 0)
                try:
                    results[name] = measure(rest.url, args.runs, args.big_runs)
                finally:
                    rest.stop()
                    gateway.shutdown()
                print(f"{name}: done", flush=True)
    finally:
        if server is not None:
            server.stop()
    print(f"{'engine':<10} {'SELECT 1 median ms':>19} {'p95 ms':>8} {'1M x 5 fetch_pandas rows/s':>27}")
    for name, figures in results.items():
        print(f"{name:<10} {figures['median']:>19.1f} {figures['p95']:>8.1f} {figures['rows_per_s']:>27,.0f}")
    if len(results) == 2:
        print(f"connect / embedded SELECT 1 median: {results['connect']['median'] / results['embedded']['median']:.2f}x")
    print(f"load average after: {' '.join(f'{x:.1f}' for x in os.getloadavg())}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
