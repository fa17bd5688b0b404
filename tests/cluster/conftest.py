"""A real Spark standalone cluster for the whole cluster suite (issue 17 item 1).

One master and one worker from pyspark's own ``bin/spark-class`` on 127.0.0.1 and free ports (the
worker with 1 core and 1 GB), and one workbench gateway process (``python -m gateway serve``) whose
Spark master is that cluster, with its own data directory. The tests drive the gateway's contract
through its REST API, so the suite runs beside the local Spark of the rest of the run (one
SparkContext per process). Every process leads its own process group and is stopped by its PID;
every wait is bounded.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
import pyspark

from rest_support import Http
from ports import free_port

ROOT = Path(__file__).resolve().parents[2]
SPARK_HOME = Path(pyspark.__file__).resolve().parent
START_TIMEOUT_S = 240  # a cold JVM under a loaded 2-core machine
# What leaks from this test process (its local Spark) and must not reach the cluster's processes.
_DROPPED = ("PYSPARK_PYTHON", "PYSPARK_DRIVER_PYTHON", "SPARK_LOCAL_IP", "SPARK_LOCAL_DIRS", "SPARK_HOME",
            "PYSPARK_GATEWAY_PORT", "PYSPARK_GATEWAY_SECRET")


def _env(**extra: str) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("WORKBENCH_") and k not in _DROPPED}
    env.update(extra)
    return env


def _json(url: str):
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return json.loads(response.read())
    except (OSError, ValueError):
        return None


class Process:
    """A child in its own process group, its output in a log file; stop() ends the group by its PID."""

    def __init__(self, name: str, command: list[str], log_dir: Path, **popen) -> None:
        self.name = name
        self.log = log_dir / f"{name}.log"
        self._log = open(self.log, "wb")
        self.process = subprocess.Popen(command, stdout=self._log, stderr=subprocess.STDOUT,
                                        start_new_session=True, **popen)
        self.pid = self.process.pid

    def alive(self) -> bool:
        return self.process.poll() is None

    def tail(self, chars: int = 3000) -> str:
        return self.log.read_text(errors="replace")[-chars:]

    def stop(self) -> None:
        if self.alive():
            os.killpg(self.pid, signal.SIGTERM)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(self.pid, signal.SIGKILL)
                self.process.wait(10)
        self._log.close()


def wait_until(what: str, predicate, processes: list[Process], timeout_s: float = START_TIMEOUT_S):
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        for process in processes:
            if not process.alive():
                raise AssertionError(f"{process.name} exited while waiting for {what}:\n{process.tail()}")
        time.sleep(0.1)  # a start or an exit is seen 0.1 s after it, not up to 0.5 s
    raise AssertionError(f"no {what} within {timeout_s} s:\n" + "\n".join(p.tail(1500) for p in processes))


class Cluster:
    def __init__(self, base: Path) -> None:
        self.base = base
        self.data_dir = base / "workbench"
        self.data_dir.mkdir()
        self.port, self.ui_port, self.worker_ui_port, self.rest_port = (free_port() for _ in range(4))
        self.master_url = f"spark://127.0.0.1:{self.port}"
        self.processes: list[Process] = []
        self.started_s = 0.0

    def start(self) -> "Cluster":
        started = time.monotonic()
        spark_class = str(SPARK_HOME / "bin" / "spark-class")
        env = _env(SPARK_HOME=str(SPARK_HOME), SPARK_LOCAL_IP="127.0.0.1", SPARK_LOG_DIR=str(self.base),
                   SPARK_WORKER_DIR=str(self.base / "work"), SPARK_LOCAL_DIRS=str(self.base / "tmp"))
        master = Process("master", [spark_class, "org.apache.spark.deploy.master.Master", "--host", "127.0.0.1",
                                    "--port", str(self.port), "--webui-port", str(self.ui_port)],
                         self.base, env=env, cwd=self.base)
        self.processes.append(master)
        wait_until("master", lambda: (_json(f"http://127.0.0.1:{self.ui_port}/json/") or {}).get("status") == "ALIVE",
                   [master])
        worker = Process("worker", [spark_class, "org.apache.spark.deploy.worker.Worker", self.master_url,
                                    "--host", "127.0.0.1", "--cores", "1", "--memory", "1g",
                                    "--webui-port", str(self.worker_ui_port), "--work-dir", str(self.base / "work")],
                         self.base, env=env, cwd=self.base)
        self.processes.append(worker)
        wait_until("an alive worker", lambda: any(
            w.get("state") == "ALIVE" for w in (_json(f"http://127.0.0.1:{self.ui_port}/json/") or {}).get("workers", [])),
            [master, worker])
        conf = {"spark.executor.memory": "512m", "spark.cores.max": "1", "spark.driver.memory": "1g",
                "spark.sql.shuffle.partitions": "2", "spark.executor.cores": "1"}
        gateway = Process("gateway", [sys.executable, "-m", "gateway", "serve", "--port", str(self.rest_port)],
                          self.base, cwd=ROOT,
                          env=_env(PYTHONPATH=str(ROOT), WORKBENCH_DATA_DIR=str(self.data_dir),
                                   WORKBENCH_SPARK_MASTER=self.master_url, WORKBENCH_SPARK_CONF=json.dumps(conf),
                                   WORKBENCH_SESSION_IDLE_TIMEOUT_S="0"))
        self.processes.append(gateway)
        wait_until("the gateway's REST API", lambda: _json(f"http://127.0.0.1:{self.rest_port}/v1/info"),
                   [master, worker, gateway])
        self.started_s = time.monotonic() - started
        return self

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.rest_port}"

    def applications(self) -> list[dict]:
        return (_json(f"http://127.0.0.1:{self.ui_port}/json/") or {}).get("activeapps", [])

    def stop(self) -> None:
        for process in reversed(self.processes):  # the gateway (the application) first, then worker, master
            process.stop()


@pytest.fixture(scope="package")
def cluster(tmp_path_factory):
    started = Cluster(tmp_path_factory.mktemp("spark-cluster"))
    try:
        started.start()
        yield started
    finally:
        started.stop()


@pytest.fixture(scope="package")
def cluster_http(cluster) -> Http:
    return Http(cluster.url)
