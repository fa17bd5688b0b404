"""How fast the gateway reacts where the tests only check the order of events (issue 25: timings
belong here, not in test assertions). Each figure names the test that checks the behaviour.

1. cancel: from cancel_operation to no running Spark job of the operation
   (tests/gateway/core/test_operations.py::test_cancel_stops_the_spark_job).
2. fair sharing: SELECT 1 of another session beside 8 unfetched scans; a short job beside a long scan
   (FAIR pools); short statements beside 6 long scans on local[2] (the small lane), each also alone
   (tests/gateway/core/test_fair_sharing.py).
3. jars: a 2 GiB local jar refused (tests/gateway/features/jars/test_jar_local_size.py); an ADD JAR from a
   server that sends a byte every 0.5 s, against a 2 s total deadline; the next statement after
   canceling such a download (test_fair_sharing.py).
4. refusals before Spark: launch.py on a non-loopback address without auth (tests/gateway/test_users.py).

Run from the project root (progress on stderr, figures on stdout):

    .venv/bin/python benchmarks/responsiveness.py [--data-dir DIR] [--skip-startup]
"""
from __future__ import annotations

import argparse
import http.server as httpserver
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gateway import GatewayService, load_config  # noqa: E402
from gateway.identity import LOCAL_PRINCIPAL, acting_as  # noqa: E402
from gateway.models import OperationStatus, ResultType  # noqa: E402

SCAN = "SELECT id, id*2 AS v FROM range(0, 100000000, 1, 8)"
LONG_SCAN = "SELECT sum(id % 7) FROM range(0, 20000000000, 1, 2000)"


def log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def ms(seconds: float) -> str:
    return f"{seconds * 1000:,.0f} ms"


def wait_for(predicate, timeout_s: float = 60.0, interval: float = 0.02):
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if value := predicate():
            return value
        time.sleep(interval)
    raise TimeoutError("the condition did not hold within %s s" % timeout_s)


def run_all(g, session, statement, timeout_s=120):
    op = g.execute_statement(session, statement)
    rows = []
    try:
        for page in g.iter_results(session, op, None, timeout_s):
            rows.extend(page.rows)
    finally:
        g.close_operation(session, op)
    return rows, page


def timed_run(g, session, statement) -> float:
    started = time.perf_counter()
    run_all(g, session, statement)
    return time.perf_counter() - started


def running_jobs(g, op) -> list:
    tracker = g.root.sparkContext.statusTracker()
    return [j for j in tracker.getJobIdsForGroup(f"workbench-op-{op}")
            if tracker.getJobInfo(j) and tracker.getJobInfo(j).status == "RUNNING"]


def cancel(g, figures) -> None:
    s = g.open_session(name="bench-cancel")
    try:
        op = g.execute_statement(s, LONG_SCAN)
        wait_for(lambda: running_jobs(g, op))
        started = time.perf_counter()
        g.cancel_operation(s, op)
        wait_for(lambda: not running_jobs(g, op), interval=0.005)
        figures.append(("cancel_operation to no running job", ms(time.perf_counter() - started)))
    finally:
        g.close_session(s)


def fair_sharing(g, figures) -> None:
    hog, other = g.open_session(name="bench-hog"), g.open_session(name="bench-other")
    try:
        ops = [g.execute_statement(hog, SCAN) for _ in range(8)]
        per_session = g.operations.per_session
        wait_for(lambda: g.operations.running_and_waiting(hog) == (per_session, 8 - per_session))
        figures.append(("SELECT 1 beside 8 unfetched scans of another session",
                        ms(timed_run(g, other, "SELECT 1 AS one"))))
        for op in ops:
            g.cancel_operation(hog, op)
        long_op = g.execute_statement(hog, LONG_SCAN)
        wait_for(lambda: g.get_operation_info(hog, long_op).job_ids)
        figures.append(("short job beside a long scan (FAIR pools)",
                        ms(timed_run(g, other, "SELECT sum(id) FROM range(0, 1000, 1, 2)"))))
        g.cancel_operation(hog, long_op)
    finally:
        g.close_session(hog)
    scanners = [g.open_session(name=f"bench-scan-{n}") for n in range(6)]
    ops = []
    try:
        run_all(g, other, "DROP TABLE IF EXISTS bench_fair_ten")
        run_all(g, other, "CREATE TABLE bench_fair_ten USING parquet AS SELECT id, id % 3 AS k FROM range(10)")
        cases = ["SELECT 1 AS one", "SELECT k, count(*), sum(id) FROM bench_fair_ten GROUP BY k ORDER BY k"]
        alone = {q: timed_run(g, other, q) for q in cases}
        ops = [g.execute_statement(s, LONG_SCAN) for s in scanners]
        wait_for(lambda: all(g.get_operation_progress(s, op).active_stages for s, op in zip(scanners, ops)))
        for q in cases:
            figures.append((f"{q[:40]!r} beside 6 long scans (alone)",
                            f"{ms(timed_run(g, other, q))} ({ms(alone[q])})"))
    finally:
        for s, op in zip(scanners, ops):
            g.cancel_operation(s, op)
        for s in scanners:
            g.close_session(s)
        run_all(g, other, "DROP TABLE IF EXISTS bench_fair_ten")
        g.close_session(other)


class _Dribble(httpserver.BaseHTTPRequestHandler):
    """One byte every 0.5 s of a 100,000-byte jar."""

    def do_GET(self):  # noqa: N802
        self.send_response(200)
        self.send_header("Content-Length", "100000")
        self.end_headers()
        try:
            for _ in range(200):
                self.wfile.write(b"P")
                self.wfile.flush()
                time.sleep(0.5)
        except OSError:
            pass

    def log_message(self, *args):
        pass


def jars(g, figures, scratch: Path) -> None:
    s = g.open_session(name="bench-jars")
    httpd = httpserver.ThreadingHTTPServer(("127.0.0.1", 0), _Dribble)
    httpd.daemon_threads = True
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{httpd.server_address[1]}/slow.jar"
    store = g.feature("jars").resources.store
    saved = store.download_timeout_s
    try:
        huge = scratch / "huge.jar"
        with huge.open("wb") as f:
            f.truncate(2 * 1024 ** 3)
        started = time.perf_counter()
        _, page = run_all(g, s, f"ADD JAR '{huge}'")
        assert page.result_type is ResultType.ERROR
        figures.append(("2 GiB local jar refused", ms(time.perf_counter() - started)))
        store.download_timeout_s = 2.0
        started = time.perf_counter()
        _, page = run_all(g, s, f"ADD JAR '{url}'")
        assert page.result_type is ResultType.ERROR
        figures.append(("ADD JAR of a dribbling server, 2 s total deadline", ms(time.perf_counter() - started)))
        store.download_timeout_s = 120.0
        op = g.execute_statement(s, f"ADD JAR '{url}'")
        wait_for(lambda: g.get_operation_info(s, op).status == OperationStatus.RUNNING)
        time.sleep(0.5)  # a workload step: let the download get under way
        started = time.perf_counter()
        g.cancel_operation(s, op)
        run_all(g, s, "SELECT 2")
        figures.append(("cancel of a stalled download to the next statement's result",
                        ms(time.perf_counter() - started)))
    finally:
        store.download_timeout_s = saved
        httpd.shutdown()
        httpd.server_close()
        g.close_session(s)


def startup_refusal(figures, scratch: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("WORKBENCH_")}
    env.update(WORKBENCH_DATA_DIR=str(scratch / "refused"), WORKBENCH_REST_ENABLED="true")
    started = time.perf_counter()
    result = subprocess.run([sys.executable, "launch.py", "--server.address", "0.0.0.0", "--server.port", "1"],
                            cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    figures.append((f"launch.py refuses 0.0.0.0 without auth (exit {result.returncode})",
                    ms(time.perf_counter() - started)))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data-dir", help="workbench data_dir (default: a new temporary directory)")
    parser.add_argument("--skip-startup", action="store_true", help="skip the subprocess refusal figure")
    args = parser.parse_args(argv)
    scratch = Path(tempfile.mkdtemp(prefix="bench-responsiveness-"))
    figures: list[tuple[str, str]] = []
    if not args.skip_startup:
        log("startup refusal")
        startup_refusal(figures, scratch)
    cfg = load_config().with_overrides(data_dir=args.data_dir or str(scratch / "data"))
    log(f"starting the gateway (data_dir {cfg.data_dir})")
    g = GatewayService(cfg)
    try:
        with acting_as(LOCAL_PRINCIPAL):
            for step, run in (("cancel", lambda: cancel(g, figures)), ("fair sharing", lambda: fair_sharing(g, figures)),
                              ("jars", lambda: jars(g, figures, scratch))):
                log(step)
                run()
    finally:
        g.shutdown()
    print(f"Responsiveness: Spark {g.root.version}, {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}")
    width = max(len(name) for name, _ in figures)
    for name, value in figures:
        print(f"{name.ljust(width)}  {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
