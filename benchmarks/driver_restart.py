"""The issue's second OOM repro through ./workbench, as a user meets it: one fetched
``SELECT id, repeat('x',1000) AS pad FROM range(0,3000000,1,1)`` (a 3 GB partition in a 2 GB driver;
in local mode the task builds it in the driver's heap, which ends the JVM). Prints what the fetch
answered, and how long until ``/v1/health`` is UP again in the process ./workbench restarts
(exit code 75), and that a new session's SELECT 1 runs there.

    .venv/bin/python benchmarks/driver_restart.py
"""
import http.client
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests"))
from ports import free_port
port, rest = free_port(), free_port()
data = tempfile.mkdtemp(prefix="restart-")
env = dict(os.environ, WORKBENCH_DATA_DIR=data, WORKBENCH_PORT=str(port), WORKBENCH_REST_ENABLED="true",
           WORKBENCH_REST_PORT=str(rest), WORKBENCH_SPARK_CONF='{"spark.driver.memory": "2g"}')
log = open(data + "/wb.log", "w")
proc = subprocess.Popen([os.path.join(ROOT, "workbench")], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
                        start_new_session=True)
def call(method, path, body=None, timeout=120):
    c = http.client.HTTPConnection("127.0.0.1", rest, timeout=timeout)
    try:
        c.request(method, path, body=json.dumps(body).encode() if body is not None else None,
                  headers={"Content-Type": "application/json"} if body is not None else {})
        r = c.getresponse(); p = r.read()
        return r.status, (json.loads(p) if p else None)
    finally:
        c.close()
def healthy():
    try:
        return call("GET", "/v1/health", timeout=5)[0] == 200
    except OSError:
        return False
try:
    t = time.monotonic()
    while not healthy():
        if time.monotonic() - t > 180: raise SystemExit("never healthy")
        time.sleep(0.5)
    print(f"first start: healthy after {time.monotonic() - t:.1f} s")
    s = call("POST", "/v1/sessions", {})[1]["sessionHandle"]
    op = call("POST", f"/v1/sessions/{s}/statements", {"statement": "SELECT id, repeat('x', 1000) AS pad FROM range(0, 3000000, 1, 1)"})[1]["operationHandle"]
    uri, t = f"/v1/sessions/{s}/operations/{op}/result/0", time.monotonic()
    while uri:
        try:
            st, body = call("GET", uri)
        except OSError as e:
            print("fetch failed:", e); break
        if st != 200 or body.get("resultType") == "ERROR":
            print(f"fetch answered {st} after {time.monotonic() - t:.1f} s: {str(body)[:200]}"); break
        uri = body.get("nextResultUri")
    died = time.monotonic()
    while healthy():
        time.sleep(0.2)
    while not healthy():
        if time.monotonic() - died > 240: raise SystemExit("never came back")
        time.sleep(0.5)
    print(f"healthy again {time.monotonic() - died:.1f} s after the error")
    s2 = call("POST", "/v1/sessions", {})[1]["sessionHandle"]
    op2 = call("POST", f"/v1/sessions/{s2}/statements", {"statement": "SELECT 1"})[1]["operationHandle"]
    deadline, rows = time.monotonic() + 60, []
    while not rows and time.monotonic() < deadline:
        rows = call("GET", f"/v1/sessions/{s2}/operations/{op2}/result/0")[1]["results"]["data"]
        time.sleep(0.1)
    print("SELECT 1 after the restart:", rows)
finally:
    os.killpg(proc.pid, signal.SIGTERM)
    try: proc.wait(30)
    except subprocess.TimeoutExpired: os.killpg(proc.pid, signal.SIGKILL)
    print(open(data + "/wb.log").read().count("restarting"), "restart line(s) in the log")
