"""Soak: does the gateway stay healthy and fair under churn, load and results too big for the driver?

Four measurements on one gateway (local[2], its own data directory) with its REST API on 127.0.0.1:

1. Session churn: N open/close cycles (each runs SELECT 1); Python RSS and threads, driver JVM
   heap used and JVM threads before and after (issue 18 asks for 1,000 cycles: --cycles 1000).
2. Long scans: S concurrent long scans, one per session, over REST; meanwhile ``GET /v1/info``
   every 50 ms (p50, p95; target p95 under 200 ms) and another session's ``SELECT 1`` (time until
   it starts, and until its result).
3. The issue's first OOM repro: eight unfetched ``SELECT id, id*2 AS v FROM range(0,100000000,1,8)``
   in one session; what they become, the health endpoint, and another session's SELECT 1.
4. The issue's second OOM repro, last (it may end the driver): one fetched
   ``SELECT id, repeat('x',1000) AS pad FROM range(0,3000000,1,1)``; what the fetch answers, then
   ``/v1/health`` and ``/v1/info``.
5. Mixed load (run before 3 and 4): C REST clients (default 30), each its own session, for T seconds
   (default 180) run a small mix and read every result to the end; HTTP errors, operations in ERROR,
   SELECT 1 p50/p95, and RSS of the process and the JVM before and after.

Run from the project root (the default run is short, about two to three minutes on 2 cores):

    .venv/bin/python benchmarks/soak.py [--cycles 1000] [--scans 30] [--scan-seconds 20]
                                        [--driver-memory 2g] [--skip-oom]

Progress goes to stderr; the figures to stdout.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import threading
import time
from http import client as httpclient
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gateway import GatewayService, load_config  # noqa: E402
from gateway.rest import serve_in_background  # noqa: E402

LONG_SCAN = "SELECT sum(id % 7) FROM range(0, 20000000000, 1, 1000)"  # short tasks; canceled at the end
UNFETCHED_SCAN = "SELECT id, id*2 AS v FROM range(0, 100000000, 1, 8)"
BIG_FETCH = "SELECT id, repeat('x', 1000) AS pad FROM range(0, 3000000, 1, 1)"


def say(*parts) -> None:
    print(*parts, file=sys.stderr, flush=True)


class Rest:
    def __init__(self, port: int) -> None:
        self.port = port

    def __call__(self, method: str, path: str, body=None, timeout: float = 120.0):
        conn = httpclient.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            data = json.dumps(body).encode() if body is not None else None
            conn.request(method, path, body=data, headers={"Content-Type": "application/json"} if data else {})
            response = conn.getresponse()
            payload = response.read()
            try:
                return response.status, json.loads(payload) if payload else None
            except ValueError:
                return response.status, None
        finally:
            conn.close()

    def session(self) -> str:
        return self("POST", "/v1/sessions", {})[1]["sessionHandle"]

    def execute(self, session: str, statement: str) -> str:
        status, body = self("POST", f"/v1/sessions/{session}/statements", {"statement": statement})
        if status != 200:
            raise RuntimeError(f"{status}: {body}")
        return body["operationHandle"]

    def status(self, session: str, op: str) -> str:
        status, body = self("GET", f"/v1/sessions/{session}/operations/{op}/status")
        return (body or {}).get("status") or f"HTTP {status}"  # a 503 after the driver died has no status

    def error(self, session: str, op: str) -> str:
        """The first line of an operation's error, as its result answers it."""
        status, body = self("GET", f"/v1/sessions/{session}/operations/{op}/result/0")
        errors = (body or {}).get("errors") or [str(body)[:300]]
        return str(errors[0]).split("\n", 1)[0][:300]


def rss_mib(pid) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def threads_of(pid) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("Threads:"):
            return int(line.split()[1])
    return -1


def snapshot(gateway) -> dict:
    health = gateway.get_health()
    jvm_pid = health.get("jvm_pid")
    gateway.root.sparkContext._jvm.java.lang.System.gc()  # a benchmark may reach in; the gateway does not
    time.sleep(0.5)
    heap = gateway.health._gauge.read() if gateway.health._gauge else (0, 0, 0)
    return {"python_rss_mib": rss_mib(os.getpid()), "python_threads": threading.active_count(),
            "jvm_heap_used_mib": heap[1] / 2 ** 20, "jvm_rss_mib": rss_mib(jvm_pid) if jvm_pid else float("nan"),
            "jvm_threads": threads_of(jvm_pid) if jvm_pid else -1}


def churn(gateway, cycles: int) -> None:
    from gateway.models import ResultType

    say(f"1. {cycles} session open/close cycles …")
    for _ in range(20):  # warm-up
        handle = gateway.open_session()
        gateway.close_session(handle)
    before, started = snapshot(gateway), time.monotonic()
    for i in range(cycles):
        handle = gateway.open_session()
        op = gateway.execute_statement(handle, "SELECT 1")
        for page in gateway.iter_results(handle, op):
            assert page.result_type is not ResultType.ERROR
        gateway.close_session(handle)
    took = time.monotonic() - started
    after = snapshot(gateway)
    print(f"\n## 1. {cycles} session open/close cycles (each runs SELECT 1): {took:.1f} s, "
          f"{took / cycles * 1000:.1f} ms per cycle")
    print("| measure | before | after | change |\n|---|---|---|---|")
    for key in before:
        print(f"| {key} | {before[key]:.1f} | {after[key]:.1f} | {after[key] - before[key]:+.1f} |")


def percentile(values, p) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def long_scans(rest: Rest, scans: int, seconds: float) -> None:
    say(f"2. {scans} concurrent long scans for {seconds:g} s …")
    sessions = [rest.session() for _ in range(scans)]
    ops = [(s, rest.execute(s, LONG_SCAN)) for s in sessions]
    time.sleep(2)
    latencies, starts, results = [], [], []
    stop = time.monotonic() + seconds

    def poll_info():
        while time.monotonic() < stop:
            t = time.monotonic()
            status, _ = rest("GET", "/v1/info")
            latencies.append((time.monotonic() - t) * 1000)
            assert status == 200
            time.sleep(0.05)

    poller = threading.Thread(target=poll_info)
    poller.start()
    other = rest.session()
    while time.monotonic() < stop - 1:
        t = time.monotonic()
        op = rest.execute(other, "SELECT 1")
        started = None
        while time.monotonic() - t < 120:
            status = rest.status(other, op)
            if status != "PENDING" and started is None:
                started = time.monotonic() - t
            if status in ("FINISHED", "ERROR", "CANCELED"):
                break
            time.sleep(0.01)
        done = time.monotonic() - t
        starts.append((started if started is not None else done) * 1000)
        results.append(done * 1000)
        rest("DELETE", f"/v1/sessions/{other}/operations/{op}/close")
        time.sleep(0.5)
    poller.join()
    running = sum(1 for s, op in ops if rest.status(s, op) == "RUNNING")
    for s, op in ops:
        rest("POST", f"/v1/sessions/{s}/operations/{op}/cancel")
    for s in sessions + [other]:
        rest("DELETE", f"/v1/sessions/{s}")
    print(f"\n## 2. {scans} concurrent long scans ({running} running at the end, the others waiting for a pool thread)")
    print("| measure | p50 (ms) | p95 (ms) | max (ms) | n |\n|---|---|---|---|---|")
    for name, values in (("GET /v1/info", latencies), ("another session's SELECT 1: until it starts", starts),
                         ("another session's SELECT 1: until FINISHED", results)):
        if values:
            print(f"| {name} | {statistics.median(values):.1f} | {percentile(values, 95):.1f} | {max(values):.1f} | "
                  f"{len(values)} |")


CLIENT_MIX = (
    "SELECT 1",
    "SELECT id, id * 2 AS twice FROM range(0, 1000)",
    "SELECT count(*) FROM range(0, 5000000, 1, 4)",
    "SHOW DATABASES",
)


def clients(rest: Rest, gateway, count: int, seconds: float) -> None:
    """``count`` REST clients, each its own session, for ``seconds``: every statement of a small mix
    submitted, its result read to the end (every page), the session closed at the end. Counted: HTTP
    errors (5xx apart), operations that ended in ERROR or never ended, and SELECT 1 from submit to the
    last page. RSS of the process and of the driver JVM before and after."""
    say(f"5. {count} clients for {seconds:g} s …")
    sessions = [rest.session() for _ in range(count)]  # the first one waits for Spark: not timed
    before = snapshot(gateway)
    stop = time.monotonic() + seconds
    lock = threading.Lock()
    tally = {"statements": 0, "http_5xx": 0, "http_4xx": 0, "operation_errors": 0, "unfinished": 0}
    select1_ms: list[float] = []
    examples: list[str] = []

    def note(kind: str, detail: str) -> None:
        with lock:
            tally[kind] += 1
            if len(examples) < 5:
                examples.append(f"{kind}: {detail[:200]}")

    def client(index: int) -> None:
        session, i = sessions[index], index
        while time.monotonic() < stop:
            statement = CLIENT_MIX[i % len(CLIENT_MIX)]
            i += 1
            started = time.monotonic()
            status, body = rest("POST", f"/v1/sessions/{session}/statements", {"statement": statement})
            if status != 200:
                note("http_5xx" if status >= 500 else "http_4xx", f"{status} {body}")
                continue
            op = body["operationHandle"]
            uri, ended = f"/v1/sessions/{session}/operations/{op}/result/0", False
            while uri and time.monotonic() - started < 120:
                status, page = rest("GET", uri)
                if status != 200:
                    note("http_5xx" if status >= 500 else "http_4xx", f"{status} {page}")
                    break
                if page.get("resultType") == "ERROR":
                    note("operation_errors", str(page.get("errors")))
                    break
                if page.get("resultType") == "EOS":
                    ended = True
                uri = page.get("nextResultUri")
            else:
                if uri:
                    note("unfinished", statement)
            with lock:
                tally["statements"] += 1
                if ended and statement == "SELECT 1":
                    select1_ms.append((time.monotonic() - started) * 1000)
            rest("DELETE", f"/v1/sessions/{session}/operations/{op}/close")
        rest("DELETE", f"/v1/sessions/{session}")

    threads = [threading.Thread(target=client, args=(i,), daemon=True) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=seconds + 300)
    after = snapshot(gateway)
    health = rest("GET", "/v1/health")
    print(f"\n## 5. {count} REST clients for {seconds:g} s, each its own session, the mix {list(CLIENT_MIX)}")
    print(f"- statements completed: {tally['statements']}; HTTP 5xx: {tally['http_5xx']}; HTTP 4xx: "
          f"{tally['http_4xx']}; operations in ERROR: {tally['operation_errors']}; unfinished: {tally['unfinished']}")
    for example in examples:
        print(f"  - {example}")
    if select1_ms:
        print(f"- SELECT 1, submit to last page: p50 {statistics.median(select1_ms):.0f} ms, "
              f"p95 {percentile(select1_ms, 95):.0f} ms (n={len(select1_ms)})")
    print(f"- /v1/health after: {health[0]} {describe_health(health[1])}")
    print("| measure | before | after | change |\n|---|---|---|---|")
    for key in before:
        print(f"| {key} | {before[key]:.1f} | {after[key]:.1f} | {after[key] - before[key]:+.1f} |")


def describe_health(body) -> str:
    """The health answer in a line, UP (with the heap) or DOWN (with the reason)."""
    body = body or {}
    if body.get("status") != "UP" or not body.get("heap_max_bytes"):
        return f"{body.get('status')} {str(body.get('reason') or body.get('errors') or '')[:200]}"
    return (f"UP, heap used {body['heap_used_bytes'] / 2 ** 20:.0f} of {body['heap_max_bytes'] / 2 ** 20:.0f} MiB, "
            f"{body.get('memory_stops', 0)} statements stopped by the memory guard")


def oom_repros(rest: Rest, gateway, big_fetch: bool, oom_wait_s: float) -> None:
    say("3. eight unfetched scans in one session …")
    hog = rest.session()
    ops = [rest.execute(hog, UNFETCHED_SCAN) for _ in range(8)]
    time.sleep(oom_wait_s)
    statuses = [rest.status(hog, op) for op in ops]
    errors = sorted({rest.error(hog, op) for op, s in zip(ops, statuses) if s == "ERROR"})
    other = rest.session()
    t = time.monotonic()
    op = rest.execute(other, "SELECT 1")
    while rest.status(other, op) not in ("FINISHED", "ERROR"):
        time.sleep(0.01)
    select1 = (time.monotonic() - t) * 1000
    health = rest("GET", "/v1/health")
    print("\n## 3. Eight unfetched `SELECT id, id*2 AS v FROM range(0,100000000,1,8)` in one session")
    print(f"- statuses after {oom_wait_s:g} s: {', '.join(f'{s} x{statuses.count(s)}' for s in sorted(set(statuses)))}")
    for error in errors:
        print(f"- error: {error}")
    print(f"- another session's SELECT 1: {select1:.0f} ms; /v1/health: {health[0]} {describe_health(health[1])}")
    rest("DELETE", f"/v1/sessions/{hog}")
    if not big_fetch:
        return
    say("4. one fetched 3 GB single-partition result …")
    session = rest.session()
    op = rest.execute(session, BIG_FETCH)
    uri, answer, t = f"/v1/sessions/{session}/operations/{op}/result/0", None, time.monotonic()
    rows = 0
    while uri and time.monotonic() - t < 600:
        status, body = rest("GET", uri)
        if status != 200 or body.get("resultType") == "ERROR":
            answer = (status, body)
            break
        rows += len(body["results"]["data"])
        uri = body.get("nextResultUri")
    took = time.monotonic() - t
    time.sleep(2)
    health, info = rest("GET", "/v1/health"), rest("GET", "/v1/info")
    print("\n## 4. One fetched `SELECT id, repeat('x',1000) AS pad FROM range(0,3000000,1,1)`")
    if answer is None:
        print(f"- all {rows:,} rows fetched in {took:.1f} s")
    else:
        body = answer[1] or {}
        print(f"- after {rows:,} rows and {took:.1f} s: HTTP {answer[0]} {body.get('error_class')}: "
              f"{(body.get('errors') or [''])[0][:300]}")
    print(f"- then /v1/health: {health[0]} {describe_health(health[1])}; /v1/info: {info[0]}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cycles", type=int, default=200)
    parser.add_argument("--scans", type=int, default=30)
    parser.add_argument("--scan-seconds", type=float, default=20.0)
    parser.add_argument("--driver-memory", default="2g")
    parser.add_argument("--oom-wait", type=float, default=75.0,
                        help="seconds the unfetched scans stand before their statuses are read (past operation.wait_timeout_s)")
    parser.add_argument("--clients", type=int, default=30, help="REST clients of the mixed-load phase (0: skip)")
    parser.add_argument("--client-seconds", type=float, default=180.0)
    parser.add_argument("--skip-oom", action="store_true", help="skip the two OOM repros")
    parser.add_argument("--skip-big-fetch", action="store_true", help="skip the second OOM repro (it may end the driver)")
    args = parser.parse_args()
    data = tempfile.mkdtemp(prefix="workbench-soak-")
    config = load_config(ROOT / "workbench.toml", environ={}).with_overrides(
        data_dir=data, spark__master="local[2]", session__idle_timeout_s=0, session__max_sessions=max(64, args.scans + 8, args.clients + 8),
        spark__conf={"spark.driver.memory": args.driver_memory, "spark.sql.shuffle.partitions": "2"},
        health__exit_after_s=0.0)
    say(f"starting the gateway (data in {data}) …")
    gateway = GatewayService(config)
    server = serve_in_background(gateway, "127.0.0.1", 0, None)
    rest = Rest(int(server.url.rsplit(":", 1)[1]))
    with open("/proc/loadavg") as f:
        load = f.read().split()[:3]
    print(f"# soak: local[2], driver {args.driver_memory}, load average at start {' '.join(load)}")
    try:
        if args.cycles > 0:
            churn(gateway, args.cycles)
        if args.scans > 0:
            long_scans(rest, args.scans, args.scan_seconds)
        if args.clients > 0:
            clients(rest, gateway, args.clients, args.client_seconds)
        if not args.skip_oom:
            oom_repros(rest, gateway, not args.skip_big_fetch, args.oom_wait)
    finally:
        with open("/proc/loadavg") as f:
            print(f"\nload average at the end: {' '.join(f.read().split()[:3])}")
        server.stop()
        gateway.shutdown(stop_spark=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
