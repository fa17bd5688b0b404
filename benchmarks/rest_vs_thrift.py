"""REST API (this gateway, workbench_client) versus the Spark Thrift Server shipped in pyspark (HiveServer2
protocol, impyla) and in-process PySpark, in one run: SELECT 1 latency through each DB-API cursor, and
N rows x 5 columns (bigint, double, string, date, timestamp) fetched over REST as Arrow into pandas
(``fetch_pandas``), as Arrow into Python rows, and as JSON into Python rows; through the Thrift Server
into Python rows; and in-process with ``toPandas()``.

    .venv/bin/python benchmarks/rest_vs_thrift.py [--rows 1000000] [--select1 100] [--skip-thrift]
                                                 [--warmup 2] [--repeat 5]

Each server runs alone in its own process (the other is not started yet or already stopped), with its
own data directory, on the same master and driver memory; this process is only the client. The Thrift
Server runs with its defaults. The in-process Spark starts in this process after both servers stopped.

Every big-result measure is treated alike: ``--warmup`` full-size runs first (not counted; the JVM
compiles the path's hot loops over the first runs, which is not the path's speed), then ``--repeat``
timed runs, of which the median counts. The first run of each server and of the in-process Spark (its
first big result, cold JVM) is printed beside it.
"""
from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Optional

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

QUERY = ("SELECT id, CAST(id AS DOUBLE) * 0.5 AS x, concat('row-', id) AS s, "
         "date_add(DATE'2020-01-01', CAST(id % 3650 AS INT)) AS day, "
         "timestamp_seconds(1600000000 + id) AS ts FROM range({rows})")
MASTER = "local[2]"
DRIVER_MEMORY = "4g"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def summarize(latencies: list[float]) -> tuple[float, float]:
    ordered = sorted(latencies)
    return statistics.median(ordered) * 1000, ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))] * 1000


# -- REST -------------------------------------------------------------------------------------------

def start_rest(data_dir: Path, port: int) -> subprocess.Popen:
    """``python -m gateway serve`` in its own process, like the Thrift Server (no shared GIL with the client)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("WORKBENCH_")}
    env.update(WORKBENCH_DATA_DIR=str(data_dir), WORKBENCH_SPARK_MASTER=MASTER,
               WORKBENCH_SPARK_CONF=json.dumps({"spark.driver.memory": DRIVER_MEMORY, "spark.ui.enabled": "false"}))
    log = open(data_dir / "gateway.log", "wb")
    return subprocess.Popen([sys.executable, "-m", "gateway", "serve", "--host", "127.0.0.1", "--port", str(port)],
                            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)


class Runs:
    """How many times each big-result measure runs: ``warmup`` uncounted runs, then ``repeat`` timed ones."""

    def __init__(self, warmup: int, repeat: int) -> None:
        self.warmup = max(0, warmup)
        self.repeat = max(1, repeat)

    def measure(self, run) -> dict:
        """Seconds of ``run()`` (which fetches a result and checks it): the median and best of the timed
        runs, and the very first run (cold when it is its server's first big result)."""
        runs = []
        for _ in range(self.warmup + self.repeat):
            started = time.perf_counter()
            run()
            runs.append(time.perf_counter() - started)
        timed = runs[self.warmup:]
        return {"first": runs[0], "median": statistics.median(timed), "best": min(timed)}


def bench_rest(data_dir: Path, rows: int, select1_runs: int, page_rows: int, runs: Runs) -> dict:
    from workbench_client import GatewayClient, connect

    port = free_port()
    started = time.perf_counter()
    process = start_rest(data_dir, port)
    result = {}
    try:
        wait_for_port(port, process)
        result["startup_s"] = time.perf_counter() - started
        url = f"http://127.0.0.1:{port}"
        with connect(url, timeout_s=600) as conn:  # the DB-API cursor, Arrow pages (the default)
            cursor = conn.cursor()
            for _ in range(5):  # warm up
                cursor.execute("SELECT 1").fetchall()
            latencies = []
            for _ in range(select1_runs):
                t = time.perf_counter()
                cursor.execute("SELECT 1")
                assert cursor.fetchall() == [(1,)]
                latencies.append(time.perf_counter() - t)
            result["select1_median_ms"], result["select1_p95_ms"] = summarize(latencies)

            def arrow_pandas() -> None:
                frame = cursor.execute(QUERY.format(rows=rows)).fetch_pandas()
                assert len(frame) == rows, len(frame)
                result["last_row"] = tuple(frame.iloc[-1])

            def arrow_rows() -> None:
                fetched = cursor.execute(QUERY.format(rows=rows)).fetchall()
                assert len(fetched) == rows and fetched[-1][4].year >= 2020, fetched[-1]  # native datetimes

            result["arrow_pandas"] = runs.measure(arrow_pandas)  # the server's first big result
            result["arrow_rows"] = runs.measure(arrow_rows)
        with GatewayClient(url, timeout_s=600) as client:
            session = client.open_session()

            def json_rows() -> None:
                with session.execute(QUERY.format(rows=rows)) as op:
                    count = sum(1 for _ in op.rows(max_rows=page_rows, row_format="JSON"))
                assert count == rows, count

            result["json_rows"] = runs.measure(json_rows)
            session.close()
    finally:
        stop_process(process)
    return result


def bench_in_process(data_dir: Path, rows: int, runs: Runs) -> dict:
    """``toPandas()`` (with Arrow) in this process: the bar REST with Arrow is held to."""
    from pyspark.sql import SparkSession

    spark = (SparkSession.builder.master(MASTER).config("spark.driver.memory", DRIVER_MEMORY)
             .config("spark.ui.enabled", "false").config("spark.sql.execution.arrow.pyspark.enabled", "true")
             .config("spark.sql.warehouse.dir", str(data_dir / "warehouse"))
             .config("spark.local.dir", str(data_dir / "tmp")).getOrCreate())
    try:
        def to_pandas() -> None:
            assert len(spark.sql(QUERY.format(rows=rows)).toPandas()) == rows

        measured = runs.measure(to_pandas)
    finally:
        spark.stop()
    return {"to_pandas": measured}


# -- Spark Thrift Server ----------------------------------------------------------------------------

def start_thrift(data_dir: Path, port: int) -> subprocess.Popen:
    import pyspark
    spark_home = Path(pyspark.__file__).resolve().parent
    derby = data_dir / "metastore_db"
    command = [
        str(spark_home / "bin" / "spark-submit"), "--master", MASTER, "--driver-memory", DRIVER_MEMORY,
        "--class", "org.apache.spark.sql.hive.thriftserver.HiveThriftServer2",
        "--conf", f"spark.sql.warehouse.dir={data_dir / 'warehouse'}",
        "--conf", f"spark.hadoop.javax.jdo.option.ConnectionURL=jdbc:derby:;databaseName={derby};create=true",
        "--conf", "spark.ui.enabled=false", "--conf", f"spark.local.dir={data_dir / 'tmp'}",
        "--conf", f"spark.driver.extraJavaOptions=-Dderby.system.home={data_dir}",
        "--hiveconf", f"hive.server2.thrift.port={port}", "--hiveconf", "hive.server2.thrift.bind.host=127.0.0.1",
        "--hiveconf", "hive.server2.authentication=NOSASL", "spark-internal",
    ]
    env = dict(os.environ, SPARK_HOME=str(spark_home), SPARK_LOG_DIR=str(data_dir / "logs"),
               SPARK_PID_DIR=str(data_dir), SPARK_LOCAL_IP="127.0.0.1")
    log = open(data_dir / "thriftserver.log", "wb")
    return subprocess.Popen(command, cwd=data_dir, env=env, stdout=log, stderr=subprocess.STDOUT,
                            start_new_session=True)


def wait_for_port(port: int, process: subprocess.Popen, timeout_s: float = 300.0) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited with {process.returncode}; see its log in the data directory")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.5)
    raise RuntimeError(f"the server did not open port {port} in {timeout_s:g} s")


def stop_process(process: subprocess.Popen) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)  # its own process group, started above
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(10)


def bench_thrift(data_dir: Path, rows: int, select1_runs: int, page_rows: int, runs: Runs) -> dict:
    from impala.dbapi import connect

    port = free_port()
    started = time.perf_counter()
    process = start_thrift(data_dir, port)
    try:
        wait_for_port(port, process)
        conn = connect(host="127.0.0.1", port=port, auth_mechanism="NOSASL", timeout=600)
        startup = time.perf_counter() - started
        cursor = conn.cursor()
        cursor.arraysize = page_rows
        for _ in range(5):  # warm up, as for REST
            cursor.execute("SELECT 1")
            cursor.fetchall()
        latencies = []
        for _ in range(select1_runs):
            t = time.perf_counter()
            cursor.execute("SELECT 1")
            assert cursor.fetchall() == [(1,)]
            latencies.append(time.perf_counter() - t)
        last = None

        def thrift_rows() -> None:
            nonlocal last
            cursor.execute(QUERY.format(rows=rows))
            count = 0
            while True:
                batch = cursor.fetchmany(page_rows)
                if not batch:
                    break
                count += len(batch)
                last = batch[-1]
            assert count == rows, count

        measured = runs.measure(thrift_rows)  # the server's first big result
        cursor.close()
        conn.close()
    finally:
        stop_process(process)
    median, p95 = summarize(latencies)
    return {"startup_s": startup, "select1_median_ms": median, "select1_p95_ms": p95,
            "thrift_rows": measured, "last_row": last}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--select1", type=int, default=100, help="SELECT 1 round trips to time")
    parser.add_argument("--page-rows", type=int, default=20_000,
                        help="rows per page / fetch size for the JSON and Thrift Server runs (Arrow: the client's 50,000)")
    parser.add_argument("--skip-thrift", action="store_true")
    parser.add_argument("--warmup", type=int, default=2,
                        help="full-size runs of each big-result measure before the timed ones (not counted)")
    parser.add_argument("--repeat", type=int, default=5, help="timed runs of each big-result measure (the median counts)")
    args = parser.parse_args()
    runs = Runs(args.warmup, args.repeat)
    with tempfile.TemporaryDirectory(prefix="rest-vs-thrift-") as tmp:
        dirs = {name: Path(tmp) / name for name in ("rest", "thrift", "inprocess")}
        for path in dirs.values():
            (path / "tmp").mkdir(parents=True)
        print("running REST (this gateway) ...", flush=True)
        rest = bench_rest(dirs["rest"], args.rows, args.select1, args.page_rows, runs)
        thrift = None
        if not args.skip_thrift:
            print("running the Spark Thrift Server ...", flush=True)
            thrift = bench_thrift(dirs["thrift"], args.rows, args.select1, args.page_rows, runs)
        print("running in-process toPandas() ...", flush=True)
        local = bench_in_process(dirs["inprocess"], args.rows, runs)
    report(args, rest, thrift, local)


def report(args, rest: dict, thrift: Optional[dict], local: dict) -> None:
    n = args.rows
    print(f"\n{n:,} rows x 5 columns (bigint, double, string, date, timestamp); master {MASTER}; "
          f"{args.select1} SELECT 1 round trips through each DB-API cursor; big results: median of "
          f"{runs_text(args.repeat)} after {runs_text(args.warmup)} not counted; first run: the server's first "
          f"big result (cold JVM)\n")
    print("| measure | median (s) | rows per second | best (s) | first run (s) |")
    print("|---|---|---|---|---|")
    lines = [("REST, Arrow pages into pandas (fetch_pandas)", rest["arrow_pandas"], True),
             ("REST, Arrow pages into Python rows (fetchall)", rest["arrow_rows"], False),
             ("REST, JSON pages into Python rows", rest["json_rows"], False),
             ("in-process toPandas()", local["to_pandas"], True)]
    if thrift:
        lines.append(("Spark Thrift Server into Python rows (impyla)", thrift["thrift_rows"], True))
    for label, measured, cold in lines:
        first = f"{measured['first']:.2f}" if cold else "-"
        print(f"| {label} | {measured['median']:.2f} | {n / measured['median']:,.0f} | {measured['best']:.2f} | {first} |")
    pandas, to_pandas = rest["arrow_pandas"], local["to_pandas"]
    print(f"\nREST Arrow into pandas vs in-process toPandas(): {to_pandas['median'] / pandas['median']:.2f}x "
          f"(target >= 0.9x; first runs {to_pandas['first'] / pandas['first']:.2f}x); rows per second "
          f"{n / pandas['median']:,.0f} (target >= 1,000,000; first run {n / pandas['first']:,.0f})")
    if thrift:
        thrift_rows = thrift["thrift_rows"]
        print(f"REST Arrow into pandas vs the Thrift Server: {thrift_rows['median'] / pandas['median']:.1f}x "
              f"(target >= 15x; first runs {thrift_rows['first'] / pandas['first']:.1f}x); REST Arrow into Python "
              f"rows vs the Thrift Server: {thrift_rows['median'] / rest['arrow_rows']['median']:.1f}x")
    print("\n| SELECT 1 | REST (workbench_client) | Spark Thrift Server (impyla) |")
    print("|---|---|---|")
    for key, label in (("select1_median_ms", "median (ms)"), ("select1_p95_ms", "p95 (ms)")):
        print(f"| {label} | {rest[key]:.1f} | {thrift[key]:.1f} |" if thrift else f"| {label} | {rest[key]:.1f} | - |")
    print(f"\nserver start (s): REST {rest['startup_s']:.1f}" + (f", Thrift Server {thrift['startup_s']:.1f}" if thrift else ""))
    print("last row:", {"REST": rest["last_row"], **({"Thrift Server": thrift["last_row"]} if thrift else {})})


def runs_text(count: int) -> str:
    return f"{count} run" + ("" if count == 1 else "s")


if __name__ == "__main__":
    main()
