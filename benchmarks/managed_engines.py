"""Managed engines (engine.kind = managed) measured in process, through the gateway's own calls (execute,
every page, close), each engine a Spark Connect server started by the gateway with pyspark's spark-submit:

- cold start to first row: a user's first session starts their engine, then ``SELECT 1``'s row;
- pooled attach to first row: the same with ``engine.pool_size = 1`` and the pooled engine up;
- ``SELECT 1`` median and p95 on a managed engine and on ``embedded`` (the driver in this process), and its phases:
  the same managed engine through the plain ``connect`` path (``engine.kind = connect`` at its address) and the
  gateway's one round trip (the ExecutePlan it sends) through pyspark's client alone, interleaved;
- the cold session's start: the seconds of each feature's session hook (``--skip-users`` to stop there);
- U users x 2 sessions on share level ``server`` and on ``user``: memory per engine (RSS of its JVM) and
  ``SELECT 1`` p95 while each user's other session runs a background scan.

With ``--cluster`` it measures instead a cold start to first row of an engine whose driver runs on a worker of a
standalone cluster (``engine.deploy_mode = cluster``): it starts a master and a worker (2 cores, 2 GB) of its own
on 127.0.0.1 and free ports, and stops them by their PIDs at the end.

Prints the machine's load average before and after: the figures mean little without it. Every engine it
starts is stopped by its PID at the end.

    .venv/bin/python benchmarks/managed_engines.py [--runs N] [--users U] [--user-engines N] [--skip-users]
    .venv/bin/python benchmarks/managed_engines.py --cluster [--runs N]
"""
from __future__ import annotations

import argparse
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gateway import GatewayService, load_config  # noqa: E402
from gateway.api.identity import Principal  # noqa: E402
from gateway.identity import LOCAL_PRINCIPAL, acting_as  # noqa: E402
from gateway.errors import OperationStateError  # noqa: E402
from gateway.models import ResultType  # noqa: E402

SCAN = "SELECT sum(id % 7) FROM range(0, 20000000000)"  # long enough to outlast the measurement


ARCHIVES: list = []  # the class archive the first managed gateway's first engine wrote (engine.class_archive)


def config(kind: str, store: str, **overrides):
    data = tempfile.mkdtemp(prefix=f"bench-{kind}-")
    for archive in ARCHIVES:
        if archive is not None:  # a data directory of its own: the archive is copied there (it is per host)
            (Path(data) / "engines").mkdir(exist_ok=True)
            shutil.copy(archive, Path(data) / "engines" / archive.name)
    settings = dict(data_dir=data, session__idle_timeout_s=0, session__restore=False, store__url=store,
                    metastore__hive_support=False)
    if kind == "managed":
        settings.update(engine__kind="managed", engine__master="local[2]", engine__share_level="user",
                        engine__start_timeout_s=600.0, engine__submit_args=["--driver-memory", "512m"],
                        engine__conf={"spark.sql.shuffle.partitions": "2"})
    else:
        settings.update(spark__master="local[2]", spark__conf={"spark.sql.shuffle.partitions": "2"})
    settings.update(overrides)
    return load_config(ROOT / "workbench.toml", environ={}).with_overrides(**settings)


def first_row(gateway, handle, statement="SELECT 1", timeout_s=600.0):
    """Run ``statement`` and read every page; the rows."""
    op = gateway.execute_statement(handle, statement)
    rows, token, deadline = [], 0, time.monotonic() + timeout_s
    while token is not None:
        if time.monotonic() > deadline:
            raise TimeoutError(statement)
        page = gateway.fetch_results(handle, op, token)
        if page.result_type == ResultType.NOT_READY:
            time.sleep(0.002)
            continue
        if page.result_type == ResultType.ERROR:
            raise RuntimeError(page.exception)
        rows.extend(page.rows or [])
        token = page.next_token
    gateway.close_operation(handle, op)
    return rows


def select_one(gateway, handle, runs: int) -> tuple[float, float]:
    timings = []
    for run in range(runs + 10):  # 10 warm up
        start = time.perf_counter()
        assert first_row(gateway, handle) == [[1]]
        if run >= 10:
            timings.append((time.perf_counter() - start) * 1000)
    timings.sort()
    return statistics.median(timings), timings[max(0, int(len(timings) * 0.95) - 1)]


def timed_hooks(gateway) -> dict:
    """Wrap each feature's session hook to record its seconds (the cold session's start, by feature)."""
    seconds: dict = {}
    for name, feature in gateway.features.items():
        def hook(session, _name=name, _open=feature.open_session):
            began = time.perf_counter()
            try:
                _open(session)
            finally:
                seconds[_name] = seconds.get(_name, 0.0) + time.perf_counter() - began
        feature.open_session = hook
    return seconds


def select_one_phases(managed, handle, principal, runs: int, embedded=None, embedded_handle=None) -> None:
    """Where a managed SELECT 1 goes, interleaved on one engine: the managed gateway; the plain connect path (a
    gateway with engine.kind = connect at the engine's address); the gateway's one ExecutePlan through pyspark's
    client alone (the server and gRPC); and ``embedded`` under the same load. Managed minus connect is what managing
    adds per statement."""
    from gateway.spark.connect import StatementResult, connect_root_at, new_connect_session, query_dataframe

    with acting_as(principal):
        engine_id = managed.sessions.get(handle).engine_id
    address = next(e["address"] for e in managed.engines.list() if e["engine_id"] == engine_id)
    connect = GatewayService(config("connect", f"sqlite:///{tempfile.mkdtemp(prefix='bench-store-')}/wb.db",
                                    engine__kind="connect", engine__url=address))
    client = new_connect_session(connect_root_at(address))

    def round_trip():
        result = StatementResult.of(query_dataframe(client, "SELECT 1"))
        try:
            assert [batch.num_rows for batch, _ in result] == [1]
        finally:
            result.close()

    try:
        with acting_as(LOCAL_PRINCIPAL):
            connect_handle = connect.open_session(name="connect-path")
        calls = {"managed gateway": lambda: first_row(managed, handle),
                 "connect gateway, same engine": lambda: first_row(connect, connect_handle),
                 "pyspark's client, one ExecutePlan": round_trip}
        if embedded is not None:
            calls["embedded gateway"] = lambda: first_row(embedded, embedded_handle)
        principals = {"managed gateway": principal}
        timings: dict = {name: [] for name in calls}
        for run in range(runs + 10):  # 10 warm up
            for name, call in calls.items():
                with acting_as(principals.get(name, LOCAL_PRINCIPAL)):
                    start = time.perf_counter()
                    call()
                    if run >= 10:
                        timings[name].append((time.perf_counter() - start) * 1000)
        print("SELECT 1 phases, interleaved on one managed engine (median / p95 ms): " + "; ".join(
            f"{name} {statistics.median(values):.1f} / {sorted(values)[max(0, int(len(values) * 0.95) - 1)]:.1f}"
            for name, values in timings.items()))
        if embedded is not None:
            print(f"  interleaved managed/embedded median "
                  f"{statistics.median(timings['managed gateway']) / statistics.median(timings['embedded gateway']):.2f}x"
                  f" (goal within 1.3x)")
    finally:
        client.client.close()
        with acting_as(LOCAL_PRINCIPAL):
            connect.shutdown()


def rss_mib(pid: int) -> float:
    """Resident memory of an engine's JVM (spark-submit execs it: the engine's PID is the JVM)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def users_run(store: str, level: str, users: int, runs: int) -> dict:
    # no bound on streamed results: every user's background scan streams at once (result.max_streams is 4)
    gateway = GatewayService(config("managed", store, engine__share_level=level, result__max_streams=0))
    principals = [Principal(f"u{n}", admin=True) for n in range(users)]
    handles: dict[str, list] = {}
    started = time.perf_counter()

    def open_two(principal):
        with acting_as(principal):
            handles[principal.name] = [gateway.open_session(name=f"{principal.name}-{i}") for i in range(2)]

    threads = [threading.Thread(target=open_two, args=(p,)) for p in principals]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=1800)
    open_s = time.perf_counter() - started
    try:
        scans = []
        for principal in principals:  # each user's first session scans in the background
            with acting_as(principal):
                scans.append((principal, gateway.execute_statement(handles[principal.name][0], SCAN)))
        timings = []
        for run in range(runs):
            for principal in principals:
                with acting_as(principal):
                    start = time.perf_counter()
                    assert first_row(gateway, handles[principal.name][1]) == [[1]]
                    timings.append((time.perf_counter() - start) * 1000)
        for principal, op in scans:
            with acting_as(principal):
                try:
                    gateway.cancel_operation(handles[principal.name][0], op)
                except OperationStateError:  # it ended before the measurement did: say how
                    info = gateway.get_operation_info(handles[principal.name][0], op)
                    why = (info.exception or {}).get("root_cause", "") if info.exception else ""
                    print(f"note: {principal.name}'s background scan ended early: {info.status.value} {why[:300]}")
        timings.sort()
        with acting_as(LOCAL_PRINCIPAL):
            engines = gateway.admin_list_engines()
        memory = [rss_mib(e["pid"]) for e in engines if e["pid"]]
        return {"engines": len(engines), "open_s": open_s, "rss_per_engine_mib": statistics.mean(memory),
                "rss_total_mib": sum(memory), "p95_ms": timings[max(0, int(len(timings) * 0.95) - 1)],
                "median_ms": statistics.median(timings)}
    finally:
        gateway.engines.stop_all()
        with acting_as(LOCAL_PRINCIPAL):
            gateway.shutdown()


def print_phases(what: str, opened_s: float, first_row_s: float, attach: dict) -> None:
    """Where an attach's time went: the manager's phases (finding or claiming the key in the store, the
    engine's spawn, its JVM until it listens, the store's record, the Spark Connect client and session), the
    rest of opening the gateway session, and the first statement (on a cold engine: the JVM's first query)."""
    parts = {k: v for k, v in attach.items() if k != "engine"}
    in_manager = attach.get("find_or_start_s", 0.0) + attach.get("client_s", 0.0)
    parts["session_rest_s"] = max(0.0, opened_s - in_manager)
    parts["first_statement_s"] = first_row_s
    print(f"  {what} phases ({attach.get('engine', '?')} engine): "
          + ", ".join(f"{name} {value:.2f}" for name, value in parts.items()))


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for(what: str, predicate, timeout_s: float = 300.0):
    deadline = time.monotonic() + timeout_s
    while not predicate():
        if time.monotonic() > deadline:
            raise TimeoutError(what)
        time.sleep(0.2)


def cluster_run(runs: int) -> None:
    """A cluster-mode engine's cold start to first row on a standalone cluster of its own (master, one worker)."""
    import json
    import urllib.request

    from gateway.engines.manager import spark_home

    base = Path(tempfile.mkdtemp(prefix="bench-cluster-"))
    port, ui_port, worker_ui = free_port(), free_port(), free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("WORKBENCH_", "PYSPARK_"))}
    env.update(SPARK_HOME=str(spark_home()), SPARK_LOCAL_IP="127.0.0.1", SPARK_LOG_DIR=str(base),
               SPARK_WORKER_DIR=str(base / "work"), SPARK_LOCAL_DIRS=str(base / "tmp"))
    spark_class = str(spark_home() / "bin" / "spark-class")
    master_url, master_ui = f"spark://127.0.0.1:{port}", f"http://127.0.0.1:{ui_port}"

    def master_json():
        try:
            with urllib.request.urlopen(f"{master_ui}/json/", timeout=5) as reply:
                return json.load(reply)
        except (OSError, ValueError):
            return {}

    processes = []
    previous_ip = os.environ.get("SPARK_LOCAL_IP")
    os.environ["SPARK_LOCAL_IP"] = "127.0.0.1"  # the driver client's, and through it the driver's (one host)
    gateway = None
    try:
        for name, command in (("master", [spark_class, "org.apache.spark.deploy.master.Master", "--host",
                                          "127.0.0.1", "--port", str(port), "--webui-port", str(ui_port)]),
                              ("worker", [spark_class, "org.apache.spark.deploy.worker.Worker", master_url, "--host",
                                          "127.0.0.1", "--cores", "2", "--memory", "2g", "--webui-port",
                                          str(worker_ui), "--work-dir", str(base / "work")])):
            with open(base / f"{name}.log", "wb") as out:
                processes.append(subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env, cwd=base,
                                                  start_new_session=True))
            wait_for(f"the {name}", (lambda: master_json().get("status") == "ALIVE") if name == "master" else
                     (lambda: master_json().get("aliveworkers", 0) >= 1))
        gateway = GatewayService(config(
            "managed", f"sqlite:///{base}/wb.db", engine__master=master_url, engine__deploy_mode="cluster",
            engine__master_ui_url=master_ui,
            engine__conf={"spark.connect.grpc.binding.address": "127.0.0.1", "spark.cores.max": "1",
                          "spark.executor.memory": "512m", "spark.sql.shuffle.partitions": "2"}))
        with acting_as(Principal("alice", admin=True)):
            start = time.perf_counter()
            handle = gateway.open_session(name="cold-cluster")
            opened = time.perf_counter() - start
            phases = dict(gateway.engines.last_attach)
            assert first_row(gateway, handle) == [[1]]
            print(f"cluster deploy mode: cold engine start to first row: {time.perf_counter() - start:.1f} s "
                  f"(goal <= 20 s)")
            print_phases("cluster cold", opened, time.perf_counter() - start - opened, phases)
            median, p95 = select_one(gateway, handle, runs)
            print(f"SELECT 1 on the cluster-mode engine: median {median:.1f} ms, p95 {p95:.1f} ms")
    finally:
        if gateway is not None:
            gateway.engines.stop_all()  # through the master: the driver client's kill
            with acting_as(LOCAL_PRINCIPAL):
                gateway.shutdown()
        if previous_ip is None:
            os.environ.pop("SPARK_LOCAL_IP", None)
        else:
            os.environ["SPARK_LOCAL_IP"] = previous_ip
        for process in reversed(processes):
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(10)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=40, help="timed SELECT 1 runs (default 40)")
    parser.add_argument("--users", type=int, default=20, help="users of the share-level comparison (default 20)")
    parser.add_argument("--user-engines", type=int, default=None,
                        help="users of share level user, one engine (~600 MB) each (default: --users)")
    parser.add_argument("--skip-users", action="store_true", help="skip the share-level comparison")
    parser.add_argument("--cluster", action="store_true",
                        help="only a cluster-mode engine's cold start (engine.deploy_mode = cluster) on a standalone "
                             "cluster the script starts")
    args = parser.parse_args(argv)
    print(f"load average before: {os.getloadavg()}")
    if args.cluster:
        cluster_run(args.runs)
        print(f"load average after: {os.getloadavg()}")
        return 0
    store = f"sqlite:///{tempfile.mkdtemp(prefix='bench-store-')}/workbench.db"

    # started first, measured with the managed engine (interleaved) and after it: its JVM idles meanwhile
    embedded = GatewayService(config("embedded", f"sqlite:///{tempfile.mkdtemp(prefix='bench-store-')}/wb.db"))
    with acting_as(LOCAL_PRINCIPAL):
        embedded_handle = embedded.open_session(name="embedded")
    managed, pooling = GatewayService(config("managed", store)), None
    hooks = timed_hooks(managed)
    try:
        alice = Principal("alice", admin=True)
        with acting_as(alice):
            start = time.perf_counter()
            handle = managed.open_session(name="cold")
            opened = time.perf_counter() - start
            phases = dict(managed.engines.last_attach)
            assert first_row(managed, handle) == [[1]]
            print(f"cold engine start to first row: {time.perf_counter() - start:.1f} s (goal <= 20 s)")
            print_phases("cold", opened, time.perf_counter() - start - opened, phases)
            print("  cold session's feature hooks (s): " + ", ".join(f"{k} {v:.2f}" for k, v in hooks.items()))
        archive = managed.engines.class_archive()
        if archive is not None:  # the first engine writes the class archive; a later cold start maps it
            deadline = time.monotonic() + 900
            while not archive.exists():
                assert time.monotonic() < deadline, "no class archive was written"
                time.sleep(0.2)
            with acting_as(Principal("carol", admin=True)):
                hooks.clear()
                start = time.perf_counter()
                handle = managed.open_session(name="cold-archived")
                opened = time.perf_counter() - start
                phases = dict(managed.engines.last_attach)
                assert first_row(managed, handle) == [[1]]
                print(f"cold engine start to first row, from the class archive: "
                      f"{time.perf_counter() - start:.1f} s (goal <= 20 s)")
                print_phases("cold, archived", opened, time.perf_counter() - start - opened, phases)
                print("  its feature hooks (s): " + ", ".join(f"{k} {v:.2f}" for k, v in hooks.items()))
                engine_id = managed.sessions.get(handle).engine_id
                managed.close_session(handle)
                managed.engines.stop(engine_id)  # not running while the rest is measured
        with acting_as(alice):
            handle = managed.open_session(name="timed")
            median, p95 = select_one(managed, handle, args.runs)
        print(f"SELECT 1 managed: median {median:.1f} ms, p95 {p95:.1f} ms")
        select_one_phases(managed, handle, alice, args.runs, embedded, embedded_handle)

        ARCHIVES.append(archive)  # every later gateway's engines start from it too
        pooling = GatewayService(config("managed", store, engine__pool_size=1))
        deadline = time.monotonic() + 900
        while not [r for r in managed.store.engines_live(state="POOLED")]:
            assert time.monotonic() < deadline, "no pooled engine"
            time.sleep(0.2)
        with acting_as(Principal("bob", admin=True)):
            start = time.perf_counter()
            handle = pooling.open_session(name="pooled")
            opened = time.perf_counter() - start
            phases = dict(pooling.engines.last_attach)
            assert first_row(pooling, handle) == [[1]]
            print(f"pooled engine attach to first row: {time.perf_counter() - start:.2f} s (goal <= 1 s; "
                  f"the session {opened:.2f} s of it)")
            print_phases("pooled", opened, time.perf_counter() - start - opened, phases)
        pooling.engines.shutdown()  # no refill while the rest is measured
    finally:
        managed.engines.stop_all()
        with acting_as(LOCAL_PRINCIPAL):
            managed.shutdown()
            if pooling is not None:
                pooling.shutdown()
        managed.engines.stop_all()  # the refill the pooling gateway may have begun

    try:
        with acting_as(LOCAL_PRINCIPAL):
            handle = embedded_handle
            e_median, e_p95 = select_one(embedded, handle, args.runs)
        print(f"SELECT 1 embedded: median {e_median:.1f} ms, p95 {e_p95:.1f} ms; managed/embedded median "
              f"{median / e_median:.2f}x, p95 {p95 / e_p95:.2f}x (goal within 1.3x)")
    finally:
        with acting_as(LOCAL_PRINCIPAL):
            embedded.shutdown(stop_spark=True)

    if not args.skip_users:
        for level, users in (("server", args.users), ("user", args.user_engines or args.users)):
            figures = users_run(f"sqlite:///{tempfile.mkdtemp(prefix='bench-store-')}/wb.db", level, users,
                                max(1, args.runs // 10))
            print(f"{users} users x 2 sessions, share level {level}: {figures['engines']} engines, all open after "
                  f"{figures['open_s']:.0f} s, RSS {figures['rss_per_engine_mib']:.0f} MiB per engine "
                  f"({figures['rss_total_mib']:.0f} MiB in all), SELECT 1 under a scan per user median "
                  f"{figures['median_ms']:.0f} ms, p95 {figures['p95_ms']:.0f} ms")
    print(f"load average after: {os.getloadavg()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
