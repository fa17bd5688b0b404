"""The embedded engine's width sample before a big streamed result (``arrow_stream.measured_result_bytes``),
alone: the first 256 rows of benchmarks/engines.py's query taken by ``executeTake`` (now: one job over the first
partition) against the limit collected as Arrow (before: a local limit in each partition, a shuffle, a second
stage), in alternated pairs on one local[2] session with adaptive execution off (as ``prepare_stream`` plans).
Prints each pair, the medians and the machine's load.

    .venv/bin/python benchmarks/width_sample.py [--pairs 20]
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.engines import BIG  # noqa: E402
from gateway.spark import arrow_stream  # noqa: E402


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=20)
    args = parser.parse_args(argv)
    from pyspark.sql import SparkSession

    print(f"load average before: {' '.join(f'{x:.1f}' for x in os.getloadavg())} ({os.cpu_count()} cores)", flush=True)
    spark = (SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false")
             .config("spark.ui.showConsoleProgress", "false").config("spark.sql.adaptive.enabled", "false").getOrCreate())
    df = spark.sql(BIG)
    ways = {"before": lambda: arrow_stream.small_result(df.limit(arrow_stream.SAMPLE_ROWS)),
            "now": lambda: arrow_stream._first_rows_arrow(df, arrow_stream.SAMPLE_ROWS)}
    assert ways["before"]().equals(ways["now"]())  # the same rows (and a warm-up of both)
    timings: dict[str, list[float]] = {"before": [], "now": []}
    for pair in range(args.pairs):
        for name in (("before", "now") if pair % 2 == 0 else ("now", "before")):
            start = time.perf_counter()
            ways[name]()
            timings[name].append(time.perf_counter() - start)
    before, now = statistics.median(timings["before"]), statistics.median(timings["now"])
    wins = sum(n < b for b, n in zip(timings["before"], timings["now"]))
    print(f"width sample, medians of {args.pairs} pairs: before (collected limit) {before * 1000:.1f} ms, "
          f"now (executeTake) {now * 1000:.1f} ms; now faster in {wins} of {args.pairs} pairs")
    print(f"load average after: {' '.join(f'{x:.1f}' for x in os.getloadavg())}", flush=True)
    spark.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
