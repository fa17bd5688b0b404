"""Managed engines (engine.kind = managed) on the standalone cluster the suite starts (tests/cluster/conftest.py):
a user's engine is a Spark application of that cluster, named after its key, and its statements run on an
executor the cluster's worker started. The suite's worker gives its one core to the suite's gateway, so the
test adds a worker of its own (2 cores, 1 GB: a cluster-mode engine's driver takes one, its executor the other) to
the same master and stops it by its PID at the end."""
from __future__ import annotations

import os
import signal
import subprocess
import time

import pytest

from cluster.conftest import _json
from conftest import ROOT
from ports import free_port

START_S = 600  # an engine JVM and its executor on a loaded 2-core machine


def _wait(what: str, predicate, timeout_s: float, log=None):
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.1)  # a start or an exit is seen 0.1 s after it, not up to 0.5 s
    raise AssertionError(f"no {what} within {timeout_s} s" + (f":\n{log.read_text(errors='replace')[-3000:]}"
                                                               if log is not None and log.exists() else ""))


@pytest.fixture(scope="module")
def engines_worker(cluster, tmp_path_factory):
    """A second worker of the suite's cluster for the managed engine's executor, stopped by its PID."""

    base = tmp_path_factory.mktemp("engines-worker")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("WORKBENCH_", "PYSPARK_GATEWAY"))}
    env.update(SPARK_HOME=str(cluster_spark_home()), SPARK_LOCAL_IP="127.0.0.1", SPARK_LOG_DIR=str(base),
               SPARK_WORKER_DIR=str(base / "work"), SPARK_LOCAL_DIRS=str(base / "tmp"))
    env.pop("PYSPARK_PYTHON", None)
    log, ui_port = base / "worker.log", free_port()
    with open(log, "wb") as out:
        worker = subprocess.Popen(
            [str(cluster_spark_home() / "bin" / "spark-class"), "org.apache.spark.deploy.worker.Worker",
             cluster.master_url, "--host", "127.0.0.1", "--cores", "2", "--memory", "1g",
             "--webui-port", str(ui_port), "--work-dir", str(base / "work")],
            stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env, cwd=base,
            start_new_session=True)
    try:
        master_json = f"http://127.0.0.1:{cluster.ui_port}/json/"
        _wait("second alive worker", lambda: sum(
            w.get("state") == "ALIVE" for w in (_json(master_json) or {}).get("workers", [])) >= 2, 240, log)
        worker.ui_port = ui_port
        yield worker
    finally:
        os.killpg(worker.pid, signal.SIGTERM)
        try:
            worker.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(worker.pid, signal.SIGKILL)
            worker.wait(10)


def cluster_spark_home():
    from gateway.engines.manager import spark_home

    return spark_home()


def test_a_users_managed_engine_is_an_application_of_the_cluster_and_runs_on_its_executor(
        cluster, engines_worker, tmp_path):
    from gateway import load_config
    from gateway.engines import EngineManager
    from gateway.store import WorkbenchStore

    config = load_config(ROOT / "workbench.toml", environ={}).with_overrides(
        data_dir=str(tmp_path / "workbench"), engine__kind="managed", engine__share_level="user",
        engine__master=cluster.master_url, engine__start_timeout_s=float(START_S), metastore__hive_support=False,
        engine__submit_args=["--driver-memory", "512m"],
        # the driver on loopback (the cluster's executors reach it there); one core of the second worker
        engine__conf={"spark.driver.host": "127.0.0.1", "spark.driver.bindAddress": "127.0.0.1",
                      "spark.executor.memory": "512m", "spark.cores.max": "1", "spark.executor.cores": "1",
                      "spark.sql.shuffle.partitions": "2"})
    store = WorkbenchStore(f"sqlite:///{tmp_path / 'workbench.db'}")
    manager = EngineManager(config, store)
    spark = engine_id = None
    try:
        spark, engine_id = manager.attach("cara", "cara-1")
        record = store.engine_get(engine_id)
        assert record.key == "user:cara" and record.state == "RUNNING"
        assert f"--master {cluster.master_url}" in _cmdline(record.pid)
        # the cluster's own UI shows whose application it is
        apps = _wait("the engine's application on the master", lambda: [
            a for a in cluster.applications() if a.get("name") == "workbench engine user:cara"], 120)
        assert apps[0]["state"] in ("RUNNING", "WAITING")
        # the engine's first statement on a loaded machine: its gRPC may not answer within the client's bounded
        # retries yet (measured under a load average of 37); tried again until it answers, bounded
        assert _wait("the engine's first statement", lambda: _count(spark), START_S) == 100000
        # the job's tasks ran on an executor of the cluster (127.0.0.1:<its port>), not in the driver
        app_id = apps[0]["id"]  # the master's id of the application is the engine's Spark UI's too
        executors = _wait("the engine's executors in its Spark UI", lambda: _json(
            f"{record.ui_url}/api/v1/applications/{app_id}/executors"), 120)
        workers = [e for e in executors if e["id"] != "driver"]
        assert workers and sum(e["totalTasks"] for e in workers) >= 4, executors
        assert all(e["hostPort"].startswith("127.0.0.1:") for e in workers)
        worker_json = f"http://127.0.0.1:{engines_worker.ui_port}/json/"  # the cluster's worker runs it
        assert [e for e in (_json(worker_json) or {}).get("executors", []) if e.get("appid") == app_id], \
            _json(worker_json)
    finally:
        if spark is not None:
            manager.detach(engine_id, "cara-1", spark)
        manager.stop_all()  # by PID: the engine's driver; the cluster ends its executor
        manager.shutdown()
        store.close()
    assert _wait("the application's end on the master", lambda: not [
        a for a in cluster.applications() if a.get("name") == "workbench engine user:cara"], 120)


def _count(spark):
    from pyspark.errors.exceptions.connect import SparkConnectGrpcException

    try:
        return spark.sql("SELECT count(*) FROM range(0, 100000, 1, 4)").collect()[0][0]
    except SparkConnectGrpcException as exc:
        if "UNAVAILABLE" not in str(exc):
            raise
        return None


def _cmdline(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as source:
            return source.read().replace(b"\0", b" ").decode()
    except OSError:  # gone meanwhile
        return ""


@pytest.mark.timeout(1500)  # a driver JVM on a worker, then its reaping, on a loaded 2-core machine
def test_a_cluster_mode_engines_driver_runs_on_a_worker_requires_its_token_and_is_killed_there_when_idle(
        cluster, engines_worker, tmp_path, monkeypatch):
    """engine.deploy_mode = cluster: the engine's driver is a driver of the standalone master, run by its worker
    (no JVM of it under the workbench), reached at the worker's host with its token only, and the idle reaper
    kills it through the master."""
    from pyspark.errors.exceptions.connect import SparkConnectGrpcException

    from gateway import load_config
    from gateway.engines import EngineManager
    from gateway.engines.cluster import SUBMIT_CLIENT
    from gateway.engines.manager import SERVER_CLASS
    from gateway.spark.connect import connect_root_at
    from gateway.store import WorkbenchStore

    # Spark forwards the driver client's environment to the driver: both bind loopback on this one-host cluster
    monkeypatch.setenv("SPARK_LOCAL_IP", "127.0.0.1")
    config = load_config(ROOT / "workbench.toml", environ={}).with_overrides(
        data_dir=str(tmp_path / "workbench"), engine__kind="managed", engine__share_level="user",
        engine__master=cluster.master_url, engine__deploy_mode="cluster",
        engine__master_ui_url=f"http://127.0.0.1:{cluster.ui_port}", engine__idle_timeout_s=1.0,
        engine__start_timeout_s=float(START_S), metastore__hive_support=False,
        engine__submit_args=["--driver-memory", "512m"],
        engine__conf={"spark.connect.grpc.binding.address": "127.0.0.1", "spark.executor.memory": "512m",
                      "spark.cores.max": "1", "spark.sql.shuffle.partitions": "2"})
    store = WorkbenchStore(f"sqlite:///{tmp_path / 'workbench.db'}")
    manager = EngineManager(config, store)
    spark = engine_id = None
    try:
        spark, engine_id = manager.attach("dana", "dana-1")
        record = store.engine_get(engine_id)
        assert record.state == "RUNNING" and record.pid is None and record.driver_id.startswith("driver-")
        assert record.token and record.address.startswith("sc://127.0.0.1:")
        assert _wait("SELECT 1 on the cluster-mode engine", lambda: _select_1(spark), START_S) == 1
        # the master runs it as a driver on the second worker (the suite's worker has no free core)
        master = _json(f"http://127.0.0.1:{cluster.ui_port}/json/")
        driver = next(d for d in master["activedrivers"] if d["id"] == record.driver_id)
        assert driver["state"] == "RUNNING" and driver["mainclass"] == SERVER_CLASS
        port = record.address.rsplit(":", 1)[1]
        engine_pids = [pid for pid in _pids() if SERVER_CLASS in _cmdline(pid)
                       and f"spark.connect.grpc.binding.port={port}" in _cmdline(pid)]
        assert len(engine_pids) == 1, engine_pids
        # the worker's child (this test started the worker, so the worker sits between it and this process)
        assert _ancestors(engine_pids[0])[0] == engines_worker.pid
        # nothing of it stays under the workbench but through the worker: the driver client exits once the driver
        # is placed (this engine's processes only, by its port: other tests' engines may still be ending)
        _wait("the driver client's exit", lambda: not [
            pid for pid in _pids() if os.getpid() in _ancestors(pid) and engines_worker.pid not in _ancestors(pid)
            and pid != engines_worker.pid and (SUBMIT_CLIENT in _cmdline(pid) or SERVER_CLASS in _cmdline(pid))
            and f"spark.connect.grpc.binding.port={port}" in _cmdline(pid)], 120)
        # it listens beyond the workbench's process: without its token a client is refused
        stranger = connect_root_at(record.address)
        try:
            with pytest.raises(SparkConnectGrpcException, match="UNAUTHENTICATED|authentication token"):
                stranger.sql("SELECT 1").collect()
        finally:
            stranger.client.close()
        row = manager.engine_of(engine_id)
        assert row["driver_id"] == record.driver_id and record.token not in repr(row)
        manager.detach(engine_id, "dana-1", spark)
        spark = None
        # idle past engine.idle_timeout_s: the reaper kills the driver through the master
        _wait("the idle engine's end", lambda: store.engine_get(engine_id).state == "STOPPED", 180)
        ended = _json(f"http://127.0.0.1:{cluster.ui_port}/json/")
        assert record.driver_id not in [d["id"] for d in ended["activedrivers"]]
        assert [d["state"] for d in ended["completeddrivers"] if d["id"] == record.driver_id] in (
            ["KILLED"], ["FINISHED"])
        _wait("the engine's JVM's exit", lambda: not os.path.exists(f"/proc/{engine_pids[0]}"), 120)
    finally:
        if spark is not None:
            manager.detach(engine_id, "dana-1", spark)
        manager.stop_all()  # by driver id, through the master
        manager.shutdown()
        store.close()


def _select_1(spark):
    from pyspark.errors.exceptions.connect import SparkConnectGrpcException

    try:
        return spark.sql("SELECT 1").collect()[0][0]
    except SparkConnectGrpcException as exc:
        if "UNAVAILABLE" not in str(exc):
            raise
        return None


def _pids() -> list[int]:
    return [int(name) for name in os.listdir("/proc") if name.isdigit()]


def _ancestors(pid: int) -> list[int]:
    found = []
    while pid > 1:
        try:
            with open(f"/proc/{pid}/stat") as source:
                pid = int(source.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            break
        found.append(pid)
    return found
