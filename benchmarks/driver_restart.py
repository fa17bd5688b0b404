"""The issue's second OOM repro through ./workbench, as a user meets it: one fetched
``SELECT id, repeat('x',1000) AS pad FROM range(0,3000000,1,1)`` (a 3 GB partition in a 2 GB driver;
in local mode the task builds it in the driver's heap, which ends the JVM). Prints what the fetch
answered, and how long until ``/v1/health`` is UP again in the process ./workbench restarts
(exit code 75), and that a new session's SELECT 1 runs there.

    .venv/bin/python benchmarks/driver_restart.py
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from ports import free_port  # noqa: E402
from soak import BIG_FETCH, Rest  # noqa: E402


def wait_until(predicate, timeout_s: float, what: str, interval_s: float = 0.5) -> float:
    """Seconds until ``predicate()`` held; exits saying ``what`` did not happen within ``timeout_s``."""
    started = time.monotonic()
    while not predicate():
        if time.monotonic() - started > timeout_s:
            raise SystemExit(f"{what} not within {timeout_s:g} s")
        time.sleep(interval_s)
    return time.monotonic() - started


def healthy(rest: Rest) -> bool:
    try:
        return rest("GET", "/v1/health", timeout=5)[0] == 200
    except OSError:
        return False


def fetch_until_error(rest: Rest, session: str, op: str) -> str:
    """Fetch the result page by page; what ended it (an error, a refused connection, or the end)."""
    uri, started = f"/v1/sessions/{session}/operations/{op}/result/0", time.monotonic()
    while uri:
        try:
            status, body = rest("GET", uri)
        except OSError as exc:
            return f"the fetch failed: {exc}"
        if status != 200 or body.get("resultType") == "ERROR":
            return f"the fetch answered {status} after {time.monotonic() - started:.1f} s: {str(body)[:200]}"
        uri = body.get("nextResultUri")
    return "every row was fetched"


def first_rows(rest: Rest, session: str, op: str, timeout_s: float) -> list:
    """The first page's rows, asked again while the result is not ready."""
    deadline = time.monotonic() + timeout_s
    while True:
        rows = rest("GET", f"/v1/sessions/{session}/operations/{op}/result/0")[1]["results"]["data"]
        if rows or time.monotonic() > deadline:
            return rows
        time.sleep(0.1)


def main() -> int:
    data = tempfile.mkdtemp(prefix="restart-")
    rest = Rest(free_port())
    env = dict(os.environ, WORKBENCH_DATA_DIR=data, WORKBENCH_PORT=str(free_port()), WORKBENCH_REST_ENABLED="true",
               WORKBENCH_REST_PORT=str(rest.port), WORKBENCH_SPARK_CONF='{"spark.driver.memory": "2g"}')
    log = open(os.path.join(data, "workbench.log"), "w")
    proc = subprocess.Popen([str(ROOT / "workbench")], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
                            start_new_session=True)  # its own process group: stopped with its children below
    try:
        print(f"first start: healthy after {wait_until(lambda: healthy(rest), 180, 'a healthy start'):.1f} s")
        session = rest.session()
        print(fetch_until_error(rest, session, rest.execute(session, BIG_FETCH)))
        wait_until(lambda: not healthy(rest), 60, "the driver's end", interval_s=0.2)
        back = wait_until(lambda: healthy(rest), 240, "a healthy restart")
        print(f"healthy again {back:.1f} s after the error")
        other = rest.session()
        op = rest.execute(other, "SELECT 1")
        print("SELECT 1 after the restart:", first_rows(rest, other, op, 60))
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
        log.close()
        print(Path(data, "workbench.log").read_text().count("restarting"), "restart line(s) in the log")
    return 0


if __name__ == "__main__":
    sys.exit(main())
