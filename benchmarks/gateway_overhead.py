"""What the embedded SQL gateway costs over using PySpark directly, measured in one run.

Three measurements, each after a warm-up of every path:

1. Small statements: median and p95 latency of execute_statement + every page through
   ``GatewayService.iter_results`` (fetch_results in token order, as the UI and tests read) +
   close_operation, versus ``spark.sql(q).collect()`` on the same session's SparkSession
   (target: gateway/direct at most 1.2x).
2. Throughput: rows/s of a 5-column result (bigint, double, string, date, timestamp) paged
   through iter_results / fetch_results as JSON-ready rows, versus ``toPandas()`` with Arrow and plain
   ``collect()`` (target: gateway/toPandas at least 0.5).
3. Peak memory of a large fetch whose rows are discarded page by page: growth of the Python
   process's RSS, the result buffer's peak rows and bytes against its configured bounds, and
   the JVM driver's heap and RSS.

Run from the project root:

    .venv/bin/python benchmarks/gateway_overhead.py [--quick] [--rows N] [--memory-rows N]
                                                    [--data-dir DIR]

Progress goes to stderr; the table of results goes to stdout.
"""
from __future__ import annotations

import argparse
import math
import os
import resource
import statistics
import sys
import threading
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable, Optional

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gateway import GatewayService, ResultType, load_config  # noqa: E402

SMALL_STATEMENTS = (
    "SELECT 1",
    "SELECT 1 + 1 AS x",
    "SELECT current_date()",
    "SELECT 'a' AS s, 2.5 AS d, true AS b",
    "SHOW DATABASES",
    "SET spark.sql.shuffle.partitions",
    "VALUES (1, 'a'), (2, 'b'), (3, 'c')",
    "SELECT id FROM range(10)",
)

WIDE_QUERY = (
    "SELECT id, id * 1.5D AS d, concat('row', id) AS s, "
    "date_add(DATE'2020-01-01', CAST(id % 1000 AS INT)) AS dt, "
    "TIMESTAMP'2020-01-01 00:00:00' + make_interval(0, 0, 0, 0, 0, 0, id % 100000) AS ts "
    "FROM range({rows})"
)
NARROW_QUERY = "SELECT id, concat('row', id) AS s FROM range({rows})"

LATENCY_TARGET = 1.2      # gateway / direct, at most
THROUGHPUT_TARGET = 0.5   # gateway / toPandas, at least
FETCH_DEADLINE_S = 1800.0  # no single result may take longer than this to drain
SAMPLE_INTERVAL_S = 0.02
MB = 1024 * 1024


@dataclass(frozen=True)
class Plan:
    """Sizes and repetitions of one run."""

    small_warmup: int
    small_reps: int
    rows: int
    large_reps: int
    memory_rows: int
    page_rows: int


def parse_args(argv=None) -> tuple[argparse.Namespace, Plan]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions and smaller results")
    parser.add_argument("--rows", type=int, help="rows of the throughput query (default 1,000,000; quick 100,000)")
    parser.add_argument("--memory-rows", type=int,
                        help="rows of the peak-memory query (default 20,000,000; quick 2,000,000)")
    parser.add_argument("--page-rows", type=int, default=10_000, help="max_rows of each fetch (default 10,000)")
    parser.add_argument("--data-dir", default="/tmp/bench-data",
                        help="workbench data_dir: warehouse, metastore, scratch (default /tmp/bench-data)")
    args = parser.parse_args(argv)
    if args.quick:
        plan = Plan(2, 10, 100_000, 2, 2_000_000, args.page_rows)
    else:
        plan = Plan(5, 40, 1_000_000, 3, 20_000_000, args.page_rows)
    if args.rows is not None:
        plan = replace(plan, rows=args.rows)
    if args.memory_rows is not None:
        plan = replace(plan, memory_rows=args.memory_rows)
    if min(plan.rows, plan.memory_rows, plan.page_rows) <= 0:
        parser.error("--rows, --memory-rows and --page-rows must be positive")
    return args, plan


# ---------------------------------------------------------------------------------------------
# Small helpers
# ---------------------------------------------------------------------------------------------

def log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def percentile(values: list[float], p: float) -> float:
    """Nearest-rank percentile (p in 0..100)."""
    ordered = sorted(values)
    rank = max(1, math.ceil(p / 100.0 * len(ordered)))
    return ordered[rank - 1]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def rate(rows: int, seconds: float) -> str:
    return f"{rows / seconds:,.0f} rows/s"


def verdict(ok: bool) -> str:
    return "ok" if ok else "MISSED"


def vm_rss_bytes(pid: str = "self") -> Optional[int]:
    """Current resident set size of a process, from /proc/<pid>/status."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        return None
    return None


def max_rss_bytes() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # kilobytes on Linux


# ---------------------------------------------------------------------------------------------
# The two ways to run a statement
# ---------------------------------------------------------------------------------------------

@dataclass
class Drained:
    rows: int = 0
    pages: int = 0  # pages with rows or the end; NOT_READY answers are retried inside iter_results


def drain(g: GatewayService, session, op, page_rows: int) -> Drained:
    """Fetch every page of an operation the way the UI and tests do (``iter_results``), discarding rows."""
    got = Drained()
    for page in g.iter_results(session, op, max_rows=page_rows, timeout_s=FETCH_DEADLINE_S):
        if page.result_type is ResultType.ERROR:
            raise RuntimeError(f"the gateway returned ERROR: {page.exception.get('root_cause')}")
        got.pages += 1
        got.rows += len(page.rows)
    return got


def via_gateway(g: GatewayService, session, sql: str, page_rows: int) -> Drained:
    op = g.execute_statement(session, sql)
    try:
        return drain(g, session, op, page_rows)
    finally:
        g.close_operation(session, op)


# ---------------------------------------------------------------------------------------------
# 1. Small statements
# ---------------------------------------------------------------------------------------------

def small_statement_latency(g: GatewayService, session, spark, plan: Plan) -> list[tuple]:
    """Interleave gateway and direct runs of each statement so drift hits both alike."""
    rows, ratios = [], []
    for sql in SMALL_STATEMENTS:
        pages: list[int] = []
        gateway_run = lambda: pages.append(via_gateway(g, session, sql, plan.page_rows).pages)  # noqa: E731
        direct_run = lambda: spark.sql(sql).collect()  # noqa: E731
        for _ in range(plan.small_warmup):
            gateway_run()
            direct_run()
        pages.clear()  # count only the timed runs
        gateway_s, direct_s = [], []
        for rep in range(plan.small_reps):
            # Alternate which goes first: a run pays for the JVM clean-up its predecessor left.
            if rep % 2 == 0:
                gateway_s.append(timed(gateway_run))
                direct_s.append(timed(direct_run))
            else:
                direct_s.append(timed(direct_run))
                gateway_s.append(timed(gateway_run))
        ratio = statistics.median(gateway_s) / statistics.median(direct_s)
        ratios.append(ratio)
        rows.append((sql, ms(statistics.median(gateway_s)), ms(percentile(gateway_s, 95)),
                     ms(statistics.median(direct_s)), ms(percentile(direct_s, 95)),
                     f"{statistics.mean(pages):.1f}", f"{ratio:.2f}x", f"<= {LATENCY_TARGET}x",
                     verdict(ratio <= LATENCY_TARGET)))
        log(f"small: {sql!r}: gateway/direct {ratio:.2f}x")
    overall = statistics.geometric_mean(ratios)
    rows.append(("all (geometric mean of ratios)", "", "", "", "", "", f"{overall:.2f}x",
                 f"<= {LATENCY_TARGET}x", verdict(overall <= LATENCY_TARGET)))
    return rows


# ---------------------------------------------------------------------------------------------
# 2. Throughput
# ---------------------------------------------------------------------------------------------

def median_time(run: Callable[[], int], expected_rows: int, reps: int) -> float:
    """One warm-up, then the median of ``reps`` timed runs; checks the row count each time."""
    times = []
    for attempt in range(reps + 1):
        start = time.perf_counter()
        got = run()
        elapsed = time.perf_counter() - start
        if got != expected_rows:
            raise RuntimeError(f"expected {expected_rows:,} rows, got {got:,}")
        if attempt > 0:
            times.append(elapsed)
    return statistics.median(times)


def column_types(spark, sql: str) -> str:
    return ", ".join(field.dataType.simpleString() for field in spark.sql(sql).schema.fields)


def throughput(g: GatewayService, session, spark, plan: Plan) -> list[tuple]:
    sql = WIDE_QUERY.format(rows=plan.rows)
    spark.conf.set("spark.sql.execution.arrow.pyspark.enabled", "true")
    spark.conf.set("spark.sql.execution.arrow.pyspark.fallback.enabled", "false")
    paths = {
        f"gateway (pages of {plan.page_rows:,}, JSON-ready rows)":
            lambda: via_gateway(g, session, sql, plan.page_rows).rows,
        "toPandas() with Arrow": lambda: len(spark.sql(sql).toPandas()),
        "toArrow() (reference)": lambda: spark.sql(sql).toArrow().num_rows,
        "collect() (reference)": lambda: len(spark.sql(sql).collect()),
    }
    seconds = {}
    for name, run in paths.items():
        seconds[name] = median_time(run, plan.rows, plan.large_reps)
        log(f"throughput: {name}: {rate(plan.rows, seconds[name])}")
    gateway_name, pandas_name = list(paths)[:2]
    rows = [(name, f"{s:.2f} s", rate(plan.rows, s)) for name, s in seconds.items()]
    ratio = seconds[pandas_name] / seconds[gateway_name]  # rows/s ratio
    rows.append(("gateway / toPandas (rows/s)", "", f"{ratio:.2f}x",
                 f">= {THROUGHPUT_TARGET}x", verdict(ratio >= THROUGHPUT_TARGET)))
    ratio_collect = seconds["collect() (reference)"] / seconds[gateway_name]
    rows.append(("gateway / collect (rows/s)", "", f"{ratio_collect:.2f}x", "", ""))
    return rows


# ---------------------------------------------------------------------------------------------
# 3. Peak memory
# ---------------------------------------------------------------------------------------------

class PeakSampler:
    """Samples named probes in a background thread and keeps each one's first and peak value."""

    def __init__(self, probes: dict[str, Callable[[], Optional[int]]], interval_s: float) -> None:
        self.probes = probes
        self.interval_s = interval_s
        self.first: dict[str, Optional[int]] = {}
        self.peak: dict[str, Optional[int]] = {}
        self.samples = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="bench-memory-sampler", daemon=True)

    def _sample(self) -> None:
        for name, probe in self.probes.items():
            try:
                value = probe()
            except Exception:  # a probe that fails (JVM busy, no /proc) just stops reporting
                value = None
            self.first.setdefault(name, value)
            if value is not None:
                self.peak[name] = max(value, self.peak.get(name) or value)
        self.samples += 1

    def _loop(self) -> None:
        while not self._stop.wait(self.interval_s):
            self._sample()

    def __enter__(self) -> "PeakSampler":
        self._sample()
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join(timeout=10)
        self._sample()

    def growth(self, name: str) -> Optional[int]:
        first, peak = self.first.get(name), self.peak.get(name)
        return None if first is None or peak is None else peak - first


def jvm_probes(spark) -> dict[str, Callable[[], Optional[int]]]:
    """Heap in use and resident size of the driver JVM (local mode: the only JVM)."""
    jvm = spark.sparkContext._jvm
    runtime = jvm.java.lang.Runtime.getRuntime()
    probes: dict[str, Callable[[], Optional[int]]] = {
        "jvm_heap_used": lambda: runtime.totalMemory() - runtime.freeMemory()}
    try:
        pid = str(jvm.java.lang.ProcessHandle.current().pid())
        probes["jvm_rss"] = lambda: vm_rss_bytes(pid)
    except Exception:
        pass
    return probes


def fmt_mb(value: Optional[int]) -> str:
    return "n/a" if value is None else f"{value / MB:,.1f} MB"


def peak_memory(g: GatewayService, session, spark, plan: Plan) -> list[tuple]:
    sql = NARROW_QUERY.format(rows=plan.memory_rows)
    via_gateway(g, session, NARROW_QUERY.format(rows=min(plan.memory_rows, 200_000)), plan.page_rows)  # warm-up
    probes = {"python_rss": vm_rss_bytes, **jvm_probes(spark)}
    heap_max = spark.sparkContext._jvm.java.lang.Runtime.getRuntime().maxMemory()
    partitions = spark.sql(sql).rdd.getNumPartitions()
    max_rss_before = max_rss_bytes()
    op = g.execute_statement(session, sql)
    fetcher = g.operation_fetcher(session, op)
    try:
        with PeakSampler(probes, SAMPLE_INTERVAL_S) as sampler:
            start = time.perf_counter()
            got = drain(g, session, op, plan.page_rows).rows
            elapsed = time.perf_counter() - start
    finally:
        g.close_operation(session, op)
    if got != plan.memory_rows:
        raise RuntimeError(f"expected {plan.memory_rows:,} rows, got {got:,}")
    log(f"memory: {got:,} rows in {elapsed:.1f} s, {sampler.samples} samples")
    cfg = g.config
    return [
        ("rows fetched", f"{got:,} in {elapsed:.1f} s ({rate(got, elapsed)})"),
        ("Spark partitions of the query", f"{partitions:,}"),
        ("Python RSS at start", fmt_mb(sampler.first.get("python_rss"))),
        ("Python RSS peak growth (VmRSS sampled)", fmt_mb(sampler.growth("python_rss"))),
        ("Python ru_maxrss growth", fmt_mb(max_rss_bytes() - max_rss_before)),
        ("result buffer peak rows", f"{fetcher.peak_rows:,} (bound {cfg['result.buffer_max_rows']:,})"),
        ("result buffer peak bytes",
         f"{fmt_mb(fetcher.peak_bytes)} (bound {fmt_mb(cfg['result.buffer_max_bytes'])})"),
        ("JVM heap used at start / peak",
         f"{fmt_mb(sampler.first.get('jvm_heap_used'))} / {fmt_mb(sampler.peak.get('jvm_heap_used'))} "
         f"(max heap {fmt_mb(heap_max)})"),
        ("JVM RSS peak growth", fmt_mb(sampler.growth("jvm_rss"))),
    ]


# ---------------------------------------------------------------------------------------------
# Output
# ---------------------------------------------------------------------------------------------

def print_table(title: str, header: tuple, rows: list[tuple]) -> None:
    rows = [tuple(row) + ("",) * (len(header) - len(row)) for row in rows]
    widths = [max(len(str(cell)) for cell in column) for column in zip(header, *rows)]
    line = "  ".join("-" * w for w in widths)
    print(f"\n{title}")
    print("  ".join(str(h).ljust(w) for h, w in zip(header, widths)))
    print(line)
    for row in rows:
        print("  ".join(str(cell).ljust(w) for cell, w in zip(row, widths)).rstrip())
    sys.stdout.flush()


def main(argv=None) -> int:
    args, plan = parse_args(argv)
    cfg = load_config().with_overrides(data_dir=args.data_dir)
    log(f"starting the gateway (data_dir {cfg.data_dir}, master {cfg['spark.master']})")
    g = GatewayService(cfg)
    try:
        session = g.open_session(name="benchmark")
        spark = g.sessions.get(session).spark
        print(f"Gateway overhead benchmark: Spark {g.root.version}, master {g.root.sparkContext.master}, "
              f"{os.cpu_count()} CPUs, {'quick' if args.quick else 'full'} run")
        print(f"page size {plan.page_rows:,} rows; result.buffer_max_rows {cfg['result.buffer_max_rows']:,}, "
              f"result.buffer_max_bytes {cfg['result.buffer_max_bytes']:,}")

        tables = {}
        log("1/3 small statements")
        tables[1] = (f"1. Small statements ({plan.small_warmup} warm-up, {plan.small_reps} timed runs each; "
                     f"gateway = execute + iter_results to EOS + close, direct = spark.sql(q).collect())",
                     ("statement", "gateway p50", "gateway p95", "direct p50", "direct p95",
                      "pages", "ratio p50", "target", ""),
                     small_statement_latency(g, session, spark, plan))
        # Before the throughput runs, so their garbage does not hide this fetch's RSS growth.
        log("2/3 peak memory")
        tables[3] = (f"3. Peak memory: {plan.memory_rows:,} rows x 2 columns (bigint, string), "
                     f"every page fetched and discarded",
                     ("measure", "value"), peak_memory(g, session, spark, plan))
        log("3/3 throughput")
        tables[2] = (f"2. Throughput: {plan.rows:,} rows x ({column_types(spark, WIDE_QUERY.format(rows=1))}); "
                     f"median of {plan.large_reps} after 1 warm-up",
                     ("path", "time", "rows/s", "target", ""), throughput(g, session, spark, plan))
        for number in sorted(tables):
            print_table(*tables[number])
        g.close_session(session)
    finally:
        g.shutdown()
    return 0


if __name__ == "__main__":
    from gateway.identity import LOCAL_PRINCIPAL, acting_as

    with acting_as(LOCAL_PRINCIPAL):  # it reaches past the API to a session: as the local user
        sys.exit(main())
