"""REST API (this gateway, workbench_client) versus the Spark Thrift Server shipped in pyspark (HiveServer2
protocol, impyla), both on 127.0.0.1, in one run: SELECT 1 latency and N rows x 5 columns
(bigint, double, string, date, timestamp) fetched to Python values.

    .venv/bin/python benchmarks/rest_vs_thrift.py [--rows 1000000] [--select1 30] [--skip-thrift]

Each server runs alone in its own process (the other is not started yet or already stopped), with its
own data directory, on the same master and driver memory; this process is only the client. The Thrift
Server runs with its defaults.
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


def bench_rest(data_dir: Path, rows: int, select1_runs: int, page_rows: int) -> dict:
    from workbench_client import GatewayClient

    port = free_port()
    started = time.perf_counter()
    process = start_rest(data_dir, port)
    try:
        wait_for_port(port, process)
        startup = time.perf_counter() - started
        with GatewayClient(f"http://127.0.0.1:{port}", timeout_s=600) as client:
            session = client.open_session()
            for _ in range(3):  # warm up
                session.sql("SELECT 1")
            latencies = []
            for _ in range(select1_runs):
                t = time.perf_counter()
                assert session.sql("SELECT 1") == [(1,)]
                latencies.append(time.perf_counter() - t)
            session.sql(QUERY.format(rows=1000))  # warm up the plan path
            t = time.perf_counter()
            first_row = None
            count = 0
            with session.execute(QUERY.format(rows=rows)) as op:
                for row in op.rows(max_rows=page_rows):
                    if first_row is None:
                        first_row = time.perf_counter() - t
                    count += 1
                    last = row
            total = time.perf_counter() - t
            assert count == rows, count
            session.close()
    finally:
        stop_process(process)
    median, p95 = summarize(latencies)
    return {"startup_s": startup, "select1_median_ms": median, "select1_p95_ms": p95,
            "rows_total_s": total, "rows_first_s": first_row, "rows_per_s": rows / total, "last_row": last}


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


def bench_thrift(data_dir: Path, rows: int, select1_runs: int, page_rows: int) -> dict:
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
        for _ in range(3):
            cursor.execute("SELECT 1")
            cursor.fetchall()
        latencies = []
        for _ in range(select1_runs):
            t = time.perf_counter()
            cursor.execute("SELECT 1")
            assert cursor.fetchall() == [(1,)]
            latencies.append(time.perf_counter() - t)
        cursor.execute(QUERY.format(rows=1000))
        cursor.fetchall()
        t = time.perf_counter()
        cursor.execute(QUERY.format(rows=rows))
        first_row = None
        count = 0
        while True:
            batch = cursor.fetchmany(page_rows)
            if not batch:
                break
            if first_row is None:
                first_row = time.perf_counter() - t
            count += len(batch)
            last = batch[-1]
        total = time.perf_counter() - t
        assert count == rows, count
        cursor.close()
        conn.close()
    finally:
        stop_process(process)
    median, p95 = summarize(latencies)
    return {"startup_s": startup, "select1_median_ms": median, "select1_p95_ms": p95,
            "rows_total_s": total, "rows_first_s": first_row, "rows_per_s": rows / total, "last_row": last}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--select1", type=int, default=30, help="SELECT 1 round trips to time")
    parser.add_argument("--page-rows", type=int, default=20_000, help="rows per page / fetch size, both sides")
    parser.add_argument("--skip-thrift", action="store_true")
    args = parser.parse_args()
    results = {}
    with tempfile.TemporaryDirectory(prefix="rest-vs-thrift-") as tmp:
        for name, bench in (("REST (this gateway)", bench_rest), ("Spark Thrift Server", bench_thrift)):
            if name.startswith("Spark") and args.skip_thrift:
                continue
            data_dir = Path(tmp) / name.split()[0].lower()
            (data_dir / "tmp").mkdir(parents=True)
            print(f"running {name} ...", flush=True)
            results[name] = bench(data_dir, args.rows, args.select1, args.page_rows)
    names = list(results)
    print(f"\n{args.rows:,} rows x 5 columns (bigint, double, string, date, timestamp); master {MASTER}; "
          f"page/fetch size {args.page_rows:,}; {args.select1} SELECT 1 round trips\n")
    print(f"| measure | {' | '.join(names)} |")
    print(f"|---|{'---|' * len(names)}")
    for key, label, fmt in (("select1_median_ms", "SELECT 1, median (ms)", "{:.1f}"),
                            ("select1_p95_ms", "SELECT 1, p95 (ms)", "{:.1f}"),
                            ("rows_first_s", "big result: first row (s)", "{:.2f}"),
                            ("rows_total_s", "big result: all rows (s)", "{:.2f}"),
                            ("rows_per_s", "big result: rows per second", "{:,.0f}"),
                            ("startup_s", "server start (s)", "{:.1f}")):
        print(f"| {label} | {' | '.join(fmt.format(results[n][key]) for n in names)} |")
    print("\nlast row:", {n: results[n]["last_row"] for n in names})


if __name__ == "__main__":
    main()
