"""The workbench process as ./workbench starts it (launch.py): with rest.enabled the REST API answers
before any browser has opened the UI, and Streamlit serves from the same process."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from workbench_client import connect
from ports import free_port

ROOT = Path(__file__).resolve().parent.parent
START_TIMEOUT_S = 300  # a cold Spark and metastore on a loaded 2-core machine


def _get(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.read()
    except OSError:
        return 0, b""


def _stop(process: subprocess.Popen) -> None:
    """SIGTERM to the process group the test started (SIGKILL after 30 s)."""
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(10)


def test_rest_answers_with_the_process_before_any_browser(tmp_path):
    rest_port, ui_port = free_port(), free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("WORKBENCH_")}
    env.update(WORKBENCH_REST_ENABLED="true", WORKBENCH_REST_PORT=str(rest_port), WORKBENCH_DATA_DIR=str(tmp_path),
               WORKBENCH_SPARK_MASTER="local[1]",
               WORKBENCH_SPARK_CONF=json.dumps({"spark.driver.memory": "1g", "spark.ui.enabled": "false"}))
    log = open(tmp_path / "launch.log", "wb")
    process = subprocess.Popen([sys.executable, "launch.py", "--server.address", "127.0.0.1", "--server.port",
                                str(ui_port), "--server.headless", "true", "--browser.gatherUsageStats", "false"],
                               cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        status, ui_first = 0, False
        while status != 200 and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.5)
            status, body = _get(f"http://127.0.0.1:{rest_port}/api_versions")
            ui_first = ui_first or (status != 200 and _get(f"http://127.0.0.1:{ui_port}/_stcore/health")[0] == 200)
        assert status == 200, (tmp_path / "launch.log").read_text(errors="replace")[-3000:]
        # Spark starts in the background: the UI (and its start-up editor) answered while it started.
        assert ui_first, "the UI did not answer before Spark and the REST API were up"
        assert json.loads(body)["versions"][-1] == "V4"
        with connect(f"http://127.0.0.1:{rest_port}") as conn:  # no browser has opened the UI
            assert conn.cursor().execute("SELECT 40 + 2").fetchall() == [(42,)]
        health = 0
        while health != 200 and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.5)
            health, _ = _get(f"http://127.0.0.1:{ui_port}/_stcore/health")
        assert health == 200 and process.poll() is None  # Streamlit in the same process, which goes on
    finally:
        _stop(process)
        log.close()


def test_a_rest_port_in_use_ends_the_process_saying_so(tmp_path):
    import socket

    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    env = {k: v for k, v in os.environ.items() if not k.startswith("WORKBENCH_")}
    env.update(WORKBENCH_REST_ENABLED="true", WORKBENCH_REST_PORT=str(taken.getsockname()[1]),
               WORKBENCH_DATA_DIR=str(tmp_path), WORKBENCH_SPARK_MASTER="local[1]",
               WORKBENCH_SPARK_CONF=json.dumps({"spark.driver.memory": "1g", "spark.ui.enabled": "false"}))
    try:
        done = subprocess.run([sys.executable, "launch.py", "--server.port", str(free_port()), "--server.headless",
                               "true", "--browser.gatherUsageStats", "false"],
                              cwd=ROOT, env=env, capture_output=True, text=True, timeout=START_TIMEOUT_S)
    finally:
        taken.close()
    assert done.returncode == 2, done.stderr[-3000:]
    assert "the REST API did not start" in done.stderr and "port in use" in done.stderr
    assert not (tmp_path / "metastore").exists() and "SparkContext" not in done.stderr  # refused before Spark


def _websocket_status(port: int, host: str) -> bytes:
    """The status line Streamlit answers a WebSocket upgrade of its app stream sent with ``host`` as Host."""
    import base64
    import socket

    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        key = base64.b64encode(os.urandom(16)).decode()
        sock.sendall((f"GET /_stcore/stream HTTP/1.1\r\nHost: {host}\r\nOrigin: http://{host}\r\n"
                      f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                      f"Sec-WebSocket-Version: 13\r\n\r\n").encode())
        return sock.recv(4096).split(b"\r\n", 1)[0]


def test_on_loopback_the_ui_refuses_a_foreign_host_header(tmp_path):
    """DNS rebinding: a page of another site whose name resolves to 127.0.0.1 must not reach the UI's app
    stream (the REST API refuses such a Host header too: tests/gateway/rest/test_rest_users.py)."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("WORKBENCH_", "STREAMLIT_"))}
    env.update(WORKBENCH_DATA_DIR=str(tmp_path))
    log = open(tmp_path / "launch.log", "wb")
    process = subprocess.Popen([sys.executable, "launch.py", "--server.port", str(port), "--server.headless", "true",
                                "--browser.gatherUsageStats", "false"],
                               cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        while _get(f"http://127.0.0.1:{port}/_stcore/health")[0] != 200:
            assert process.poll() is None and time.monotonic() < deadline, \
                (tmp_path / "launch.log").read_text(errors="replace")[-3000:]
            time.sleep(0.3)
        for name in ("127.0.0.1", "localhost", "[::1]"):
            assert _websocket_status(port, f"{name}:{port}") == b"HTTP/1.1 101 Switching Protocols", name
        assert _websocket_status(port, f"rebound.example:{port}") == b"HTTP/1.1 403 Forbidden"
    finally:
        _stop(process)
        log.close()


def test_allowed_hosts_are_left_to_the_user_and_to_non_loopback_binds():
    from launch import loopback_hosts_only

    assert loopback_hosts_only("127.0.0.1", []) == ["--server.allowedHosts", "127.0.0.1", "--server.allowedHosts",
                                                    "::1", "--server.allowedHosts", "localhost"]
    assert loopback_hosts_only("127.0.0.1", ["--server.allowedHosts=wb.example"]) == []
    assert loopback_hosts_only("0.0.0.0", []) == []
