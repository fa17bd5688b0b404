"""The two engines side by side over REST: ``embedded`` (the driver in this process) and ``connect``
(a Spark Connect server started here from pyspark's own spark-submit, or one given with --connect-url).

Prints, for each engine: ``SELECT 1`` through the project's client (execute, every page, close) median
and p95, and 1,000,000 rows x 5 columns (bigint, decimal, string, date, timestamp) through
``fetch_pandas`` (Arrow pages) in rows/s, best of the runs (and their median and least, after ``--big-warmup``
untimed fetches whose rates are shown as "cold"), with the CPU seconds each fetch cost the client, the workbench's
server process and the engine's JVM (/proc's counts: load does not inflate them as it does wall time), the REST
exchanges and bytes, and when the first and last page arrived; on ``connect`` the same ``SELECT 1`` and 1M rows
read by pyspark's own client (``toArrow()``, no gateway) for reference: what the server gives at best; the
memory (RSS) of the workbench process with 20 sessions open, each having run a statement (on
``embedded`` also with its driver JVM, a child process); and the machine's load average before and
after, since the figures mean little without it. Each engine runs in a process of its own, so that
one's memory does not count in the other's.

The workbench serves REST from its own process (``python -m gateway serve --once``, as a deployment runs it) and
the client reads from this one, as a user's notebook does (``--server separate``, the default): the client's
pandas conversion and the server's page work do not share one interpreter lock. ``--server in-process`` serves
REST from a thread of the measuring process instead (the figures of stops 33-36).

    .venv/bin/python benchmarks/engines.py [--runs N] [--big-runs N] [--big-warmup N] [--sessions N]
        [--connect-url sc://127.0.0.1:15002 [--connect-pid PID]]
        [--pyarrow-backend] [--server separate|in-process]
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Optional

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))  # connect_server.py, ports.py

import workbench_client as dbapi  # noqa: E402
from gateway import GatewayService, load_config  # noqa: E402
from gateway.identity import LOCAL_PRINCIPAL, acting_as  # noqa: E402
from gateway.rest import serve_in_background  # noqa: E402

BIG = ("SELECT id, id * 1.5 AS d, CAST(id AS STRING) AS s, date_add(DATE'2020-01-01', CAST(id % 1000 AS INT)) AS day, "
       "TIMESTAMP'2020-01-01 00:00:00' + make_interval(0, 0, 0, 0, 0, 0, id % 86400) AS ts FROM range(1000000)")


def rss_kib(pid: int) -> int:
    """Resident memory of a process in KiB (/proc/<pid>/status VmRSS)."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def descendants(pid: int) -> list[int]:
    """Every process under ``pid`` (its driver JVM on embedded), from /proc's children lists."""
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        for task in os.listdir(f"/proc/{current}/task"):
            try:
                with open(f"/proc/{current}/task/{task}/children") as children:
                    kids = [int(k) for k in children.read().split()]
            except OSError:
                continue
            found.extend(kids)
            todo.extend(kids)
    return found


_TICKS = os.sysconf("SC_CLK_TCK")


def cpu_s(pid: int) -> float:
    """CPU seconds (user + system, every thread) a process has used: /proc/<pid>/stat's utime and stime."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / _TICKS


class FetchCounter:
    """What one fetch moved: REST exchanges and their bytes, counted on the client's own calls (a wrapper that
    calls the real ``exchange``), and when each page of rows arrived (seconds since ``reset``)."""

    def __init__(self) -> None:
        from workbench_client.http import GatewayClient

        self.exchanges = self.bytes = 0
        self.arrivals: list[float] = []
        self.origin = time.perf_counter()
        real = GatewayClient.exchange
        counter = self

        def counted(client, *args, **kwargs):
            content_type, payload = real(client, *args, **kwargs)
            counter.exchanges += 1
            counter.bytes += len(payload)
            if len(payload) > 65_536:  # a page of the big result's rows (not a NOT_READY, a status, the submit)
                counter.arrivals.append(time.perf_counter() - counter.origin)
            return content_type, payload

        GatewayClient.exchange = counted

    def reset(self) -> None:
        self.exchanges = self.bytes = 0
        self.arrivals = []
        self.origin = time.perf_counter()


def _command(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/comm") as comm:
            return comm.read().strip()
    except OSError:
        return ""


def memory_with_sessions(url: str, sessions: int, server_pid: int) -> dict:
    """RSS of the workbench process (``server_pid``) and of it with its children, with ``sessions`` connections
    open, each having run a statement (its session exists on the engine, its temporary view too)."""
    connections = [dbapi.connect(url, timeout_s=600) for _ in range(sessions)]
    try:
        for number, conn in enumerate(connections):
            cur = conn.cursor()
            cur.execute(f"CREATE OR REPLACE TEMPORARY VIEW bench_view_{number} AS SELECT {number} AS n")
            cur.execute(f"SELECT * FROM bench_view_{number}")
            assert cur.fetchall() == [(number,)]
        own = rss_kib(server_pid)
        children = sum(rss_kib(child) for child in descendants(server_pid) if os.path.exists(f"/proc/{child}"))
        return {"rss_mib": own / 1024, "rss_with_children_mib": (own + children) / 1024}
    finally:
        for conn in connections:
            conn.close()


def raw_connect(url: str, runs: int, big_runs: int, big_warmup: int = 1, engine_pid: int = 0) -> dict:
    """pyspark's own Spark Connect client, no gateway, on the same server: ``spark.sql("SELECT 1").toArrow()``
    median (ms) and 1M x 5 ``toArrow()`` (rows/s, best; CPU seconds of this process and of the server's JVM,
    median): what the server gives at best."""
    from pyspark.sql.connect.session import SparkSession as ConnectSession

    spark = ConnectSession.builder.remote(url).create()
    rates, timings, cpu = [], [], []
    try:
        for run in range(runs + 10):  # the first 10 warm up
            start = time.perf_counter()
            assert spark.sql("SELECT 1").toArrow().num_rows == 1
            if run >= 10:
                timings.append((time.perf_counter() - start) * 1000)
        for run in range(big_warmup + big_runs):
            engine_before, client_before = cpu_s(engine_pid) if engine_pid else None, time.process_time()
            start = time.perf_counter()
            table = spark.sql(BIG).toArrow()
            if run >= big_warmup:
                rates.append(table.num_rows / (time.perf_counter() - start))
                engine = cpu_s(engine_pid) - engine_before if engine_pid else None
                cpu.append((time.process_time() - client_before, engine))
    finally:
        spark.stop()
    return {"raw_rows_per_s": max(rates), "raw_select1_median": statistics.median(timings),
            "raw_cpu_s": [statistics.median(c[0] for c in cpu),
                          statistics.median(c[1] for c in cpu) if engine_pid else None]}


def measure(url: str, runs: int, big_runs: int, settle_s: float = 0.0, pyarrow_backend: bool = False,
            big_warmup: int = 1, processes: Optional[dict] = None) -> dict:
    """``processes``: name -> pid of the processes whose CPU seconds each big fetch is charged (the workbench's
    server process, the engine's JVM); the client's own is this process's (every thread: its prefetch too)."""
    processes = processes or {}
    counter = FetchCounter()
    with dbapi.connect(url, timeout_s=600) as conn:  # a cold engine on a loaded machine: minutes
        cur = conn.cursor()
        timings = []
        for run in range(runs + 10):  # the first 10 warm up
            if run == 10 and settle_s:
                time.sleep(settle_s)  # a fresh process's one-time background loads end first (see --settle-s)
            start = time.perf_counter()
            cur.execute("SELECT 1")
            assert cur.fetchall() == [(1,)]
            if run >= 10:
                timings.append((time.perf_counter() - start) * 1000)
        timings.sort()
        rates, cold, cpu, moved = [], [], [], []
        for run in range(big_warmup + big_runs):
            before = {name: cpu_s(pid) for name, pid in processes.items()}
            client_before = time.process_time()
            counter.reset()
            start = time.perf_counter()
            cur.execute(BIG)
            frame = cur.fetch_pandas()
            seconds = time.perf_counter() - start
            assert len(frame) == 1_000_000 and len(frame.columns) == 5
            if run < big_warmup:  # the engine's first big fetches (JIT, first allocations): shown, not counted
                cold.append(len(frame) / seconds)
                continue
            rates.append(len(frame) / seconds)
            cpu.append({"client": time.process_time() - client_before,
                        **{name: cpu_s(pid) - before[name] for name, pid in processes.items()}})
            moved.append({"exchanges": counter.exchanges, "mb": counter.bytes / 1e6,
                          "pages": len(counter.arrivals), "first_s": counter.arrivals[0],
                          "last_s": counter.arrivals[-1], "total_s": seconds})
        arrow_rates = []
        for _ in range(big_runs if pyarrow_backend else 0):  # after the default runs: the same warm engine
            start = time.perf_counter()
            cur.execute(BIG)
            frame = cur.fetch_pandas(dtype_backend="pyarrow")
            seconds = time.perf_counter() - start
            assert len(frame) == 1_000_000 and len(frame.columns) == 5
            arrow_rates.append(len(frame) / seconds)
    figures = {"median": statistics.median(timings), "p95": timings[max(0, int(len(timings) * 0.95) - 1)],
               "rows_per_s": max(rates), "rows_per_s_median": statistics.median(rates),
               "rows_per_s_min": min(rates), "rows_per_s_cold": cold,
               "cpu_s": {name: statistics.median(c[name] for c in cpu) for name in cpu[0]},
               "moved": {key: statistics.median(m[key] for m in moved) for key in moved[0]}}
    if arrow_rates:
        figures["rows_per_s_pyarrow_backend"] = max(arrow_rates)
    return figures


def run_engine(name: str, url: str, args) -> dict:
    """One engine's figures: the workbench serving REST in a process of its own (or in this one, --server
    in-process), measured through the project's client from this process."""
    data_dir = tempfile.mkdtemp(prefix=f"bench-engines-{name}-")
    if args.server == "in-process":
        base = load_config(ROOT / "workbench.toml", environ={})
        overrides = dict(spark__master="local[2]") if name == "embedded" else dict(engine__kind="connect",
                                                                                   engine__url=url)
        config = base.with_overrides(data_dir=data_dir, session__idle_timeout_s=0, session__restore=False,
                                     **overrides)
        with acting_as(LOCAL_PRINCIPAL):
            gateway = GatewayService(config)
            rest = serve_in_background(gateway, "127.0.0.1", 0)
            try:
                figures = measure(rest.url, args.runs, args.big_runs, args.settle_s, args.pyarrow_backend,
                                  args.big_warmup)
                figures.update(memory_with_sessions(rest.url, args.sessions, os.getpid()))
            finally:
                rest.stop()
                gateway.shutdown()
    else:
        from benchmarks.rest_vs_thrift import stop_process, wait_for_port
        from ports import free_port

        port = free_port()
        env = {**os.environ, "PYTHONPATH": str(ROOT), "WORKBENCH_DATA_DIR": data_dir,
               "WORKBENCH_SESSION_IDLE_TIMEOUT_S": "0", "WORKBENCH_SESSION_RESTORE": "false"}
        env.update({"WORKBENCH_SPARK_MASTER": "local[2]"} if name == "embedded" else
                   {"WORKBENCH_ENGINE_KIND": "connect", "WORKBENCH_ENGINE_URL": url})
        log = open(Path(data_dir) / "server.log", "wb")
        server = subprocess.Popen([sys.executable, "-m", "gateway", "serve", "--once", "--host", "127.0.0.1",
                                   "--port", str(port)], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
                                  start_new_session=True)
        rest_url = f"http://127.0.0.1:{port}"
        try:
            wait_for_port(port, server)
            processes = {"gateway": server.pid}
            if name == "connect" and args.connect_pid:
                processes["engine"] = args.connect_pid
            elif name == "embedded":  # its driver JVM, a child of the server process: charged apart
                processes.update({"engine": pid for pid in descendants(server.pid) if _command(pid) == "java"})
            figures = measure(rest_url, args.runs, args.big_runs, args.settle_s, args.pyarrow_backend,
                              args.big_warmup, processes)
            figures.update(memory_with_sessions(rest_url, args.sessions, server.pid))
        finally:
            stop_process(server)
            log.close()
    if name == "connect":
        figures.update(raw_connect(url, args.runs, args.big_runs, args.big_warmup, args.connect_pid))
    return figures


def _seconds(value: Optional[float]) -> str:
    """CPU seconds, or '-' where the process was not counted apart (--server in-process: the client's count holds the
    server's; a --connect-url server without --connect-pid)."""
    return "-" if value is None else f"{value:.2f}"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=50, help="timed SELECT 1 runs per engine (default 50)")
    parser.add_argument("--settle-s", type=float, default=8.0,
                        help="seconds to wait after the warm-up runs before the timed ones (default 8): a fresh "
                             "process loads Spark's built-in function names once, in the background, 2 s after "
                             "its first session opens, and SELECT 1s timed during that load measure it instead "
                             "(about 75 against 40 ms embedded); 0 times them at once")
    parser.add_argument("--big-runs", type=int, default=2, help="1M-row fetches per engine (default 2)")
    parser.add_argument("--big-warmup", type=int, default=2,
                        help="1M-row fetches per engine before the timed ones (default 2): a fresh engine's first big "
                             "fetch pays its JIT compilation (the Connect server's JVM used 2-6 CPU s for it against "
                             "1-1.5 later, measured); their rates are printed apart as 'cold'")
    parser.add_argument("--connect-pid", type=int, default=0,
                        help="the PID of --connect-url's server JVM on this machine, for its CPU seconds (a server "
                             "started here: its own)")
    parser.add_argument("--sessions", type=int, default=20, help="open sessions for the memory figure (default 20)")
    parser.add_argument("--pyarrow-backend", action="store_true",
                        help="also time fetch_pandas(dtype_backend='pyarrow') (pandas.ArrowDtype columns, not Spark's "
                             "toPandas() types), reported on its own line")
    parser.add_argument("--connect-url", default="", help="an existing Spark Connect server (default: start one)")
    parser.add_argument("--server", choices=("separate", "in-process"), default="separate",
                        help="where the workbench serves REST: its own process, as deployed (default), or a thread "
                             "of the measuring process")
    parser.add_argument("--engine", choices=("embedded", "connect"), help=argparse.SUPPRESS)  # one engine, as JSON
    args = parser.parse_args(argv)
    if args.engine:
        print("FIGURES " + json.dumps(run_engine(args.engine, args.connect_url, args)), flush=True)
        sys.stderr.flush()
        # pyspark's Connect sessions close their gRPC channels when collected at exit, and that close waited
        # for ever here (seen in grpc's channel close): the figures are out, the process ends now
        os._exit(0)
    print(f"load average before: {' '.join(f'{x:.1f}' for x in os.getloadavg())} ({os.cpu_count()} cores); "
          f"the workbench serves REST {'from its own process' if args.server == 'separate' else 'in this process'}",
          flush=True)
    server = None
    url = args.connect_url
    if not url:
        from connect_server import ConnectServer

        started = time.perf_counter()
        server = ConnectServer().start()
        url = server.url
        print(f"Spark Connect server up in {time.perf_counter() - started:.1f} s at {url}", flush=True)
    results = {}
    try:
        for name in ("embedded", "connect"):
            command = [sys.executable, __file__, "--engine", name, "--connect-url", url, "--runs", str(args.runs),
                       "--big-runs", str(args.big_runs), "--sessions", str(args.sessions), "--settle-s", str(args.settle_s),
                       "--server", args.server, "--big-warmup", str(args.big_warmup),
                       "--connect-pid", str(server.pid if server is not None else args.connect_pid)]
            command += ["--pyarrow-backend"] if args.pyarrow_backend else []
            done = subprocess.run(command, capture_output=True, text=True, timeout=3600)
            lines = [line for line in done.stdout.splitlines() if line.startswith("FIGURES ")]
            if done.returncode != 0 or not lines:
                print(f"{name} failed ({done.returncode}):\n{done.stderr[-3000:]}", flush=True)
                continue
            results[name] = json.loads(lines[-1][len("FIGURES "):])
            print(f"{name}: done", flush=True)
    finally:
        if server is not None:
            server.stop()
    print(f"{'engine':<10} {'SELECT 1 median ms':>19} {'p95 ms':>8} {'1M x 5 fetch_pandas rows/s':>27} "
          f"{'RSS MiB, ' + str(args.sessions) + ' sessions':>22} {'with children':>14}")
    for name, figures in results.items():
        print(f"{name:<10} {figures['median']:>19.1f} {figures['p95']:>8.1f} {figures['rows_per_s']:>27,.0f} "
              f"{figures['rss_mib']:>22.0f} {figures['rss_with_children_mib']:>14.0f}")
    for name, figures in results.items():
        cpu, moved = figures["cpu_s"], figures["moved"]
        print(f"{name}: 1M x 5 fetch_pandas rows/s median {figures['rows_per_s_median']:,.0f} (min "
              f"{figures['rows_per_s_min']:,.0f}, best {figures['rows_per_s']:,.0f}) of {args.big_runs}; cold first "
              f"{', '.join(f'{r:,.0f}' for r in figures['rows_per_s_cold']) or '-'}")
        print(f"{name}: CPU s per fetch (median): client {cpu['client']:.2f}, workbench server process "
              f"{_seconds(cpu.get('gateway'))}, engine JVM {_seconds(cpu.get('engine'))}; "
              f"{moved['exchanges']:.0f} REST exchanges ({moved['pages']:.0f} pages of rows), {moved['mb']:.1f} MB; "
              f"first page at {moved['first_s']:.2f} s, "
              f"last at {moved['last_s']:.2f} s of {moved['total_s']:.2f} s")
    for name, figures in results.items():
        if "rows_per_s_pyarrow_backend" in figures:
            print(f"{name}: 1M x 5 fetch_pandas(dtype_backend='pyarrow') {figures['rows_per_s_pyarrow_backend']:,.0f} "
                  "rows/s (ArrowDtype columns: not the issue's figure, which is Spark's toPandas() types)")
    if "connect" in results:
        print(f"connect, pyspark's own client (no gateway): SELECT 1 toArrow() median "
              f"{results['connect']['raw_select1_median']:.1f} ms; 1M x 5 toArrow() "
              f"{results['connect']['raw_rows_per_s']:,.0f} rows/s (CPU s per fetch: client "
              f"{results['connect']['raw_cpu_s'][0]:.2f}, engine JVM {_seconds(results['connect']['raw_cpu_s'][1])})")
    if len(results) == 2:
        print(f"connect / embedded SELECT 1 median: {results['connect']['median'] / results['embedded']['median']:.2f}x")
    print(f"load average after: {' '.join(f'{x:.1f}' for x in os.getloadavg())}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
