"""Sessions survive a real restart of the workbench process: `python -m gateway serve` with users, a
session with a SET, a temporary view, a temporary function and a module; the process is stopped and
started again on the same data directory; the same handle, with the same token, finds its state. With
spark.class_archive on, the first process's driver starts without an archive and writes it when the process stops
(SIGTERM: the gateway's shutdown); the second process's driver starts from it."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from gateway.store import WorkbenchStore, default_url
from jvm_support import jvms_under, maps_file
from rest_support import Http
from postgres_server import free_port

ROOT = Path(__file__).resolve().parents[3]
START_TIMEOUT_S = 240
DUMP_STOP_TIMEOUT_S = 360  # the stop that writes the class archive: jcmd's dump is bounded at 300 s


def _env(data_dir: Path, archive_dir: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("WORKBENCH_")}
    env.update(WORKBENCH_DATA_DIR=str(data_dir), WORKBENCH_SPARK_MASTER="local[1]", WORKBENCH_AUTH_MODE="builtin",
               WORKBENCH_SPARK_CLASS_ARCHIVE="true", WORKBENCH_ENGINE_CLASS_ARCHIVE_DIR=str(archive_dir),
               WORKBENCH_SPARK_CONF=json.dumps({"spark.driver.memory": "1g", "spark.ui.enabled": "false",
                                                "spark.sql.shuffle.partitions": "2"}))
    return env


def _serve(data_dir: Path, archive_dir: Path, port: int, log_name: str) -> tuple[subprocess.Popen, Http]:
    log = open(data_dir / log_name, "wb")
    process = subprocess.Popen([sys.executable, "-m", "gateway", "serve", "--port", str(port)], cwd=ROOT,
                               env=_env(data_dir, archive_dir), stdout=log, stderr=subprocess.STDOUT)
    http = Http(f"http://127.0.0.1:{port}")
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline and process.poll() is None:
        try:
            if http("GET", "/openapi.json").status == 200:
                return process, http
        except OSError:
            pass
        time.sleep(0.1)  # a start or an exit is seen 0.1 s after it, not up to 0.5 s
    process.kill()
    raise AssertionError((data_dir / log_name).read_text(errors="replace")[-3000:])


def _stop(process: subprocess.Popen, timeout_s: float = 60) -> None:
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout_s)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(10)


def _one_row(http, token, session, sql):
    operation = http("POST", f"/v1/sessions/{session}/statements", {"statement": sql}, token=token)
    assert operation.status == 200, operation.body
    uri = f"/v1/sessions/{session}/operations/{operation.body['operationHandle']}/result/0"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        page = http("GET", uri, token=token)
        assert page.status == 200, page.body
        if page.body["resultType"] != "NOT_READY":
            return page.body["results"]["data"][0]["fields"]
        time.sleep(0.05)
    raise AssertionError(f"{sql} did not end")


def test_a_session_is_back_with_its_state_after_the_process_restarts(tmp_path):
    class_archive_dir = tmp_path / "class-archives"
    # the user and token in the store the processes open (the commands that do it: tests/gateway/test_users.py)
    store = WorkbenchStore(default_url(tmp_path))
    try:
        store.add_user("ana", "ana-password", admin=True)
        token = store.create_token("ana")[0]
    finally:
        store.close()
    port = free_port()
    process, http = _serve(tmp_path, class_archive_dir, port, "first.log")
    try:
        session = http("POST", "/v1/sessions", {"sessionName": "tab 1"}, token=token).body["sessionHandle"]
        for statement in ("SET spark.sql.session.timeZone = Asia/Tokyo",
                          "CREATE TEMPORARY VIEW answer AS SELECT 42 AS x",
                          "CREATE TEMPORARY FUNCTION plus1(x INT) RETURNS INT RETURN x + 1", "LOAD MODULE geo"):
            answer = http("POST", f"/v2/sessions/{session}/configure-session", {"statement": statement}, token=token)
            assert answer.status == 200, (statement, answer.body)
        assert _one_row(http, token, session, "SELECT plus1(x) FROM answer") == [43]
        driver = jvms_under(process.pid)
        assert len(driver) == 1 and not list(class_archive_dir.glob("*.jsa"))  # started without an archive
    finally:
        _stop(process, DUMP_STOP_TIMEOUT_S)
    archives = list(class_archive_dir.glob("embedded-*.jsa"))  # written by that stop
    assert len(archives) == 1 and archives[0].stat().st_size > 1 << 20, archives  # a JVM's classes, not empty
    assert not list(class_archive_dir.glob("*.partial"))  # renamed whole, nothing left behind
    process, http = _serve(tmp_path, class_archive_dir, port, "second.log")
    try:
        properties = http("GET", f"/v1/sessions/{session}", token=token)
        assert properties.status == 200, properties.body
        assert properties.body["properties"]["spark.sql.session.timeZone"] == "Asia/Tokyo"
        assert _one_row(http, token, session, "SELECT plus1(x) FROM answer") == [43]
        assert _one_row(http, token, session, "SELECT round(haversine_km(0, 0, 0, 1), 1)") == [111.2]
        modules = http("GET", f"/v2/sessions/{session}/modules", token=token).body["modules"]
        assert [m["name"] for m in modules] == ["core", "geo"]
        driver = jvms_under(process.pid)
        assert len(driver) == 1 and maps_file(driver[0], archives[0])  # started from the archive
    finally:
        _stop(process)
