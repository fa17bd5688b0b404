"""Where a Spark Connect server's JVM spends its CPU on a 1M-row fetch, by the way the rows are fetched.

One Connect server (started here, or --connect-url with --connect-pid), one workbench serving REST from its own
process on it, and this process as the client. Each round runs every variant once, in a rotating order, so that
load and the JVM's JIT warm-up fall on all of them alike:

- ``gateway``: ``fetch_pandas`` of benchmarks/engines.py's 1M x 5 query through the workbench's REST API;
- ``toArrow``: pyspark's own client, ``spark.sql(q).toArrow()`` (Spark's default session conf);
- ``toArrow-65536``: the same on a session with the gateway's ``spark.sql.execution.arrow.maxRecordsPerBatch``;
- ``gateway-arrow``: the gateway's fetch as an Arrow table (``fetch_arrow_table``: no pandas conversion).

For each fetch: wall time; when the JVM's task threads last used CPU (the job's end, sampled every 5 ms) and when the
first and last page of rows reached the client; the JVM's CPU seconds from /proc, in all and per thread name (numbers
taken out, so "Executor task launch worker for task 12" and "... 13" add up): which of the server's threads did the
work (the C2 compiler threads' share falls fetch after fetch: compare variants within a round, never across a run).

    .venv/bin/python benchmarks/connect_fetch_cpu.py [--rounds 7] [--warmup 2] [--variants gateway,toArrow]
"""
from __future__ import annotations

import argparse
import collections
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from benchmarks.engines import BIG, cpu_s  # noqa: E402

_TICKS = os.sysconf("SC_CLK_TCK")


def thread_cpu(pid: int) -> dict[str, float]:
    """CPU seconds per thread name (digits folded) of a process, from /proc/<pid>/task/*/stat."""
    found: dict[str, float] = collections.defaultdict(float)
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/stat") as stat:
                text = stat.read()
        except OSError:
            continue
        name = text[text.index("(") + 1:text.rindex(")")]
        fields = text.rsplit(")", 1)[1].split()
        found[re.sub(r"\d+", "#", name)] += (int(fields[11]) + int(fields[12])) / _TICKS
    return found


def delta(after: dict, before: dict) -> dict:
    return {name: after[name] - before.get(name, 0.0) for name in after if after[name] - before.get(name, 0.0) > 0}


class TaskWatch:
    """When the JVM's task threads last used CPU (the job's end, near enough), sampled every 5 ms."""

    def __init__(self, pid: int) -> None:
        import threading

        self.pid, self.origin, self.last_busy, self.stop = pid, time.perf_counter(), 0.0, threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _tasks(self) -> float:
        return sum(v for k, v in thread_cpu(self.pid).items() if k.startswith("Executor task"))

    def _run(self) -> None:
        seen = self._tasks()
        while not self.stop.wait(0.005):
            now = self._tasks()
            if now > seen:
                self.last_busy, seen = time.perf_counter() - self.origin, now

    def end(self) -> float:
        self.stop.set()
        self.thread.join()
        return self.last_busy


class Variants:
    def __init__(self, connect_url: str, rest_url: str) -> None:
        from pyspark.sql.connect.session import SparkSession as ConnectSession

        import workbench_client as dbapi

        self.conn = dbapi.connect(rest_url, timeout_s=600)
        self.cur = self.conn.cursor()
        self.raw = ConnectSession.builder.remote(connect_url).create()
        self.raw_big = self.raw.newSession()
        self.raw_big.conf.set("spark.sql.execution.arrow.maxRecordsPerBatch", "65536")

    def gateway(self) -> int:
        self.cur.execute(BIG)
        return len(self.cur.fetch_pandas())

    def gateway_arrow(self) -> int:
        self.cur.execute(BIG)
        return self.cur.fetch_arrow_table().num_rows

    def toArrow(self) -> int:
        return self.raw.sql(BIG).toArrow().num_rows

    def toArrow_65536(self) -> int:
        return self.raw_big.sql(BIG).toArrow().num_rows

    def close(self) -> None:
        self.conn.close()


VARIANTS = {"gateway": "gateway", "gateway-arrow": "gateway_arrow", "toArrow": "toArrow",
            "toArrow-65536": "toArrow_65536"}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--warmup", type=int, default=2, help="untimed rounds first (the JVM's JIT)")
    parser.add_argument("--variants", default="gateway,toArrow,toArrow-65536")
    parser.add_argument("--connect-url", default="")
    parser.add_argument("--connect-pid", type=int, default=0)
    parser.add_argument("--top", type=int, default=8, help="thread names shown per variant")
    args = parser.parse_args(argv)
    names = args.variants.split(",")
    print(f"load average before: {' '.join(f'{x:.1f}' for x in os.getloadavg())}", flush=True)
    server = None
    url, jvm = args.connect_url, args.connect_pid
    if not url:
        from connect_server import ConnectServer

        server = ConnectServer().start()
        url, jvm = server.url, server.pid
    from benchmarks.rest_vs_thrift import stop_process, wait_for_port
    from ports import free_port

    port = free_port()
    data_dir = tempfile.mkdtemp(prefix="bench-connect-cpu-")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "WORKBENCH_DATA_DIR": data_dir,
           "WORKBENCH_SESSION_IDLE_TIMEOUT_S": "0", "WORKBENCH_SESSION_RESTORE": "false",
           "WORKBENCH_ENGINE_KIND": "connect", "WORKBENCH_ENGINE_URL": url}
    log = open(Path(data_dir) / "server.log", "wb")
    rest = subprocess.Popen([sys.executable, "-m", "gateway", "serve", "--once", "--host", "127.0.0.1",
                             "--port", str(port)], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
                            start_new_session=True)
    results: dict[str, list] = {name: [] for name in names}
    try:
        wait_for_port(port, rest)
        variants = Variants(url, f"http://127.0.0.1:{port}")
        from benchmarks.engines import FetchCounter

        counter = FetchCounter()
        for number in range(args.warmup + args.rounds):
            order = names[number % len(names):] + names[:number % len(names)]
            for name in order:
                before, threads_before, gw_before = cpu_s(jvm), thread_cpu(jvm), cpu_s(rest.pid)
                client_before = time.process_time()
                counter.reset()
                watch = TaskWatch(jvm)
                start = time.perf_counter()
                rows = getattr(variants, VARIANTS[name])()
                seconds = time.perf_counter() - start
                job_end = watch.end() - (start - watch.origin)
                assert rows == 1_000_000
                if number < args.warmup:
                    continue
                results[name].append({"wall": seconds, "jvm": cpu_s(jvm) - before,
                                      "gateway": cpu_s(rest.pid) - gw_before if name.startswith("gateway") else 0.0,
                                      "client": time.process_time() - client_before, "job_end": job_end,
                                      "first_page": counter.arrivals[0] if counter.arrivals else 0.0,
                                      "last_page": counter.arrivals[-1] if counter.arrivals else 0.0,
                                      "threads": delta(thread_cpu(jvm), threads_before)})
            if number < args.warmup:
                print(f"round {number}: warm-up", flush=True)
                continue
            print(f"round {number}: " + ", ".join(
                f"{name} {results[name][-1]['wall']:.2f} s (job end {results[name][-1]['job_end']:.2f}, pages "
                f"{results[name][-1]['first_page']:.2f}-{results[name][-1]['last_page']:.2f}) "
                f"jvm {results[name][-1]['jvm']:.2f} (JIT "
                f"{sum(v for k, v in results[name][-1]['threads'].items() if 'Compiler' in k):.2f}, tasks "
                f"{sum(v for k, v in results[name][-1]['threads'].items() if k.startswith('Executor task')):.2f})"
                for name in names), flush=True)
        variants.close()
    finally:
        stop_process(rest)
        log.close()
        if server is not None:
            server.stop()
    print(f"load average after: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    for name in names:
        runs = results[name]
        med = lambda key: statistics.median(r[key] for r in runs)  # noqa: E731
        print(f"{name}: wall median {med('wall'):.2f} s ({1e6 / med('wall'):,.0f} rows/s), JVM CPU median "
              f"{med('jvm'):.2f} s (min {min(r['jvm'] for r in runs):.2f}), gateway {med('gateway'):.2f}, "
              f"client {med('client'):.2f}; job end {med('job_end'):.2f} s, pages {med('first_page'):.2f}-"
              f"{med('last_page'):.2f} s")
        threads = collections.defaultdict(list)
        for run in runs:
            for thread, seconds in run["threads"].items():
                threads[thread].append(seconds)
        total = {thread: sum(values) / len(runs) for thread, values in threads.items()}
        for thread, seconds in sorted(total.items(), key=lambda item: -item[1])[:args.top]:
            print(f"    {thread:<18} {seconds:.3f} s/fetch (mean)")
    return 0


if __name__ == "__main__":
    code = main()
    sys.stdout.flush()
    # pyspark's Connect sessions close their gRPC channels when collected at exit, and that close waited for ever
    # here (as in benchmarks/engines.py): the figures are out, the process ends now
    os._exit(code)
