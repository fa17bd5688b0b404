"""Managed engines (``engine.kind = managed``): Spark Connect servers the workbench starts itself with
pyspark's own ``spark-submit``, one per share-level key, shared by that key's sessions, kept ahead in a pool,
stopped after ``engine.idle_timeout_s`` without sessions, and recorded in the workbench store so that every
workbench process on the store finds, shares and adopts them (Kyuubi's model, on Spark Connect).

A session on a managed engine is exactly a Spark Connect session (gateway/spark/connect.py): the engine's
death ends that engine's sessions' statements with ENGINE_DOWN and nothing else; the web process holds no
Spark driver.
"""
from __future__ import annotations

import datetime as dt
import logging
import os
import random
import re
import secrets
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from gateway.config import WorkbenchConfig, deploy_mode, managed_submit_args, master_ui_url, share_level
from gateway.engines import cluster
from gateway.errors import ConfigurationError, EngineDownError, GatewayError, InvalidRequestError
from gateway.spark.parser_cache import PARSER_CACHE_CONF
from gateway.store.engines import EngineRecord
from gateway.store.workspace import now

log = logging.getLogger(__name__)

SERVER_CLASS = "org.apache.spark.sql.connect.service.SparkConnectServer"
LOG_TAIL_LINES = 20
STOP_TIMEOUT_S = 30.0
ANSWER_TIMEOUT_S = 1.0
MAX_REAP_PERIOD_S = 30.0
# Every process marks the engines its sessions use this often, whatever its own idle timeout: another process's
# reaper (perhaps with a shorter timeout) must see them in use. An engine counts as idle after at least three.
TOUCH_PERIOD_S = 2.0
# A starting engine's port is tried this often: a cold start waits for it, and every period is up to one lost.
LISTEN_POLL_S = 0.05
# A driver that ran out of memory stops its SparkContext and exits (Spark's SparkUncaughtExceptionHandler, exit
# code 52) a few seconds after its statement failed: the next statement waits this long at most for it to go.
DYING_WAIT_S = 30.0
# What a statement's failure says when the engine's driver died of it: its SparkContext stopped, or a task that
# ran in the driver (a local master's "executor driver") ran out of memory. An executor's out-of-memory on a
# cluster fails the task only: Spark's own error, the engine goes on.
_CONTEXT_STOPPED = ("Cannot call methods on a stopped SparkContext", "SparkContext was shut down")
_IN_THE_DRIVER = "executor driver)"
DRIVER_DIED = "the managed engine's driver stopped under this statement"


class EngineStartError(EngineDownError):
    """A managed engine did not start (twice): says which key, the exit code and its log's last lines."""


class EngineNotFoundError(GatewayError):
    http_status = 404


def spark_home() -> Path:
    """pyspark's package folder: its bin/spark-submit and jars (the Connect server class ships there)."""
    import pyspark

    return Path(pyspark.__file__).resolve().parent


def free_port(host: str = "127.0.0.1") -> int:
    """A port free now, below the kernel's ephemeral range: a starting JVM's own ephemeral ports (block
    manager, RPC) can never be handed the one chosen for the engine (measured as a test flake otherwise)."""
    try:
        high = int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0]) - 1
    except (OSError, ValueError, IndexError):
        high = 32767
    for _ in range(200):
        port = random.randint(max(1024, high - 12000), high)
        with socket.socket() as probe:
            try:
                probe.bind((host, port))
            except OSError:
                continue
            return port
    raise EngineDownError(f"no free port on {host} for a managed engine")


def answers(address: str, timeout_s: float = ANSWER_TIMEOUT_S) -> bool:
    """Does the engine at ``sc://host:port`` accept a connection now?"""
    match = re.match(r"sc://([^:/]+):(\d+)", address)
    if not match:
        return False
    with socket.socket() as probe:
        probe.settimeout(timeout_s)
        try:
            return probe.connect_ex((match.group(1), int(match.group(2)))) == 0
        except OSError:  # a host that does not resolve (a cluster engine not placed yet)
            return False


def engine_url(record: EngineRecord) -> str:
    """The address a client connects to: a cluster engine's carries its token as the bearer header Spark
    Connect checks (plain gRPC: pyspark's token= parameter would demand TLS, which the Connect server has not)."""
    return f"{record.address}/;authorization=Bearer {record.token}" if record.token else record.address


def driver_death(error: dict) -> Optional[dict]:
    """The error of a statement that ended its managed engine's driver (out of memory, then its SparkContext
    stopped), as ENGINE_DOWN saying so and what to do; None for any other failure."""
    text = f"{error.get('root_cause') or ''}\n{error.get('exception_stack') or ''}"
    if not any(mark in text for mark in _CONTEXT_STOPPED) and not (
            "java.lang.OutOfMemoryError" in text and _IN_THE_DRIVER in text):
        return None
    cause = next((line.strip() for line in text.splitlines() if "java.lang.OutOfMemoryError" in line), "")
    cause = cause[cause.find("java.lang.OutOfMemoryError"):][:200] if cause else \
        "its SparkContext stopped: Spark stops a driver that runs out of memory; its log says why"
    return {**error, "error_class": "ENGINE_DOWN", "sqlstate": "08006", "message_parameters": None,
            "root_cause": f"{DRIVER_DIED} ({cause}): this statement ended, and this session's temporary views "
                          f"and settings are lost; only your engine stopped, and your next statement starts a "
                          f"fresh one. A result this large needs fewer rows (LIMIT, an aggregate) or engines with "
                          f"more memory (engine.submit_args --driver-memory; docs/engines.md)"}


def _is_engine_process(pid: int, port: str) -> bool:
    """Is ``pid`` still the engine listening on ``port`` (not a reused PID)? Linux's /proc; elsewhere trusted."""
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
    except FileNotFoundError:
        return False
    except OSError:
        return True
    return SERVER_CLASS in cmdline and f"spark.connect.grpc.binding.port={port}" in cmdline


def _slug(key: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]", "_", key)[:100]


@dataclass
class _Local:
    """What this process knows of an engine beyond its store row: its client root and sessions here."""

    record: EngineRecord
    root: object = None
    sessions: set = field(default_factory=set)
    process: Optional[subprocess.Popen] = None  # when this process started it
    phases: dict = field(default_factory=dict)  # its start's phases in seconds, when this process started it


class EngineManager:
    """Finds, starts, shares, pools and reaps this store's managed engines."""

    def __init__(self, config: WorkbenchConfig, store) -> None:
        self.config = config
        self.store = store
        self.share_level = share_level(config)
        self.submit_args = managed_submit_args(config)
        self.idle_timeout_s = float(config["engine.idle_timeout_s"])
        self.pool_size = int(config["engine.pool_size"])
        self.start_timeout_s = float(config["engine.start_timeout_s"])
        self.master = str(config["engine.master"]).strip()
        self.deploy_mode = deploy_mode(config)
        self.master_ui = master_ui_url(config) if self.deploy_mode == "cluster" else ""
        self.cluster_conf = cluster.submit_args_conf(self.submit_args) if self.deploy_mode == "cluster" else {}
        self.host = socket.gethostname()
        self.process_name = f"{self.host}:{config.data_dir}"
        self.base_dir = config.data_dir / "engines"
        self._local: dict[str, _Local] = {}
        self._lock = threading.Lock()
        self._key_locks: dict[str, threading.Lock] = {}
        self._stopped = threading.Event()
        self._filler: Optional[threading.Thread] = None
        self.last_attach: dict = {}
        self._archiving = False
        if self.pool_size and config["metastore.hive_support"] and not (
                config["metastore.jdbc_url"] or config["metastore.uri"]):
            raise ConfigurationError(
                "engine.pool_size > 0 needs a metastore every engine can open (metastore.jdbc_url or metastore.uri) "
                "or metastore.hive_support = false: the embedded Derby metastore admits one JVM, so each key's "
                "engine keeps its own, and a pooled engine starts before its key is known")
        if self.deploy_mode == "cluster" and config["metastore.hive_support"] and not (
                config["metastore.jdbc_url"] or config["metastore.uri"]):
            raise ConfigurationError(
                "engine.deploy_mode = cluster needs a metastore the cluster's workers can reach (metastore.jdbc_url or "
                "metastore.uri) or metastore.hive_support = false: the embedded Derby metastore is a folder of this "
                "host, and the engine's driver runs on a worker")
        if self.deploy_mode == "cluster" and config["engine.proxy_user"]:
            raise ConfigurationError("engine.proxy_user needs engine.deploy_mode = client: a standalone cluster runs "
                                     "drivers as its workers' user and has no proxy users")
        if config["metastore.hive_support"] and config["metastore.jdbc_url"]:
            from gateway.spark.java import java_binary
            from gateway.spark.metastore import ensure_schema

            ensure_schema(config, java_binary())  # once, before any engine opens the metastore
        period = self.idle_timeout_s / 4 if self.idle_timeout_s > 0 else MAX_REAP_PERIOD_S
        self.reap_period_s = min(MAX_REAP_PERIOD_S, max(0.2, period))
        self._reaper = threading.Thread(target=self._reap_loop, name="engine-reaper", daemon=True)
        self._reaper.start()

    # -- keys ------------------------------------------------------------------------------------

    def key_for(self, user: str, session_handle: str) -> tuple[str, str]:
        """The share-level key of a session of ``user`` and the engine's owner (its user, group, or '')."""
        if self.share_level == "connection":
            return f"connection:{session_handle}", user
        if self.share_level == "user":
            return f"user:{user}", user
        if self.share_level == "group":
            group = self.config["engine.groups"].get(user)
            return (f"group:{group}", group) if group else (f"user:{user}", user)  # in no group: alone
        return "server", ""

    # -- sessions --------------------------------------------------------------------------------

    def attach(self, user: str, session_handle: str):
        """A new Spark Connect session on the key's engine (found, adopted, taken from the pool or started);
        returns ``(spark, engine_id)``. Only this key's sessions wait while its engine starts."""
        from gateway.spark.connect import connect_root_at, new_connect_session

        key, owner = self.key_for(user, str(session_handle))
        began = time.perf_counter()
        with self._lock:
            key_lock = self._key_locks.setdefault(key, threading.Lock())
        with key_lock:
            local, how = None, "started"
            while local is None:  # another process claimed the key: _find waits for its engine (bounded)
                local = self._find(key)
                if local is not None:
                    how = "found"
                    break
                local = self._take_pooled(key, owner)
                if local is not None:
                    how = "pooled"
                    break
                local = self._start(key, owner)
            found = time.perf_counter()
            with self._lock:
                if local.root is None:
                    local.root = connect_root_at(engine_url(local.record))
                local.sessions.add(str(session_handle))
        spark = new_connect_session(local.root)
        # the phases of the last attach, in seconds (benchmarks/managed_engines.py prints them)
        self.last_attach = {"engine": how, "find_or_start_s": found - began,
                            **({f"start.{k}": v for k, v in local.phases.items()} if how == "started" else {}),
                            "client_s": time.perf_counter() - found}
        return spark, local.record.engine_id

    def detach(self, engine_id: str, session_handle, spark=None) -> None:
        """A session left the engine: its idle time starts when the last one leaves (every process's). Its
        client (``spark``) is closed: pyspark would otherwise call a stopped engine at the process's exit
        and wait out its retries."""
        if spark is not None:
            try:
                spark.client.close()
            except Exception:  # noqa: BLE001 - a client of a dead engine may fail to close; it is unused now
                log.debug("closing a session's client of engine %s failed", engine_id, exc_info=True)
        with self._lock:
            local = self._local.get(engine_id)
            if local is None:
                return
            local.sessions.discard(str(session_handle))
            idle = not local.sessions
        if idle:
            self.store.engine_touch([engine_id])

    def is_gone(self, engine_id: str) -> bool:
        """Was the engine stopped or found dead here (its sessions move to the key's next engine)?"""
        with self._lock:
            return engine_id not in self._local

    def lost(self, engine_id: str, why: str = "") -> None:
        """A session found its engine gone: forget it when it no longer answers (the next attach starts one).
        An engine whose driver ran out of memory (``why`` says so) may still answer while it exits: it is waited
        for (bounded), and stopped when its process on this host has not ended by then."""
        with self._lock:
            local = self._local.get(engine_id)
        if local is not None and why.startswith(DRIVER_DIED):
            record = local.record
            deadline = time.monotonic() + DYING_WAIT_S
            while answers(record.address) and record.host == self.host and record.pid and running(record.pid) \
                    and time.monotonic() < deadline:
                time.sleep(0.1)
            log.warning("managed engine %s (%s) stopped under a statement (out of memory: its log %s); its next "
                        "session starts a new one", engine_id, record.key, record.log_path)
            self._stop(record, local, "FAILED")
            return
        if local is not None and not answers(local.record.address):
            log.warning("managed engine %s (%s) no longer answers; its next session starts a new one",
                        engine_id, local.record.key)
            self._stop(local.record, local, "FAILED")

    # -- finding and starting ----------------------------------------------------------------------

    def _find(self, key: str) -> Optional[_Local]:
        """The key's running engine: this process's, or one recorded by any process (adopted) that answers.
        One still starting in another process is waited for (bounded)."""
        deadline = time.monotonic() + self.start_timeout_s * 2
        while True:
            starting = False
            for record in self.store.engines_live(key=key):
                if record.state == "STARTING":
                    if record.started_by != self.process_name:
                        starting = True
                    continue
                if answers(record.address):
                    return self._adopt(record)
                self._stop(record, self._local.get(record.engine_id), "FAILED")  # dead: recorded as such
            if not starting:
                return None
            if time.monotonic() > deadline:  # its starter is gone or stuck: the claim lapses
                for record in self.store.engines_live(key=key, state="STARTING"):
                    log.warning("managed engine %s (%s) of %s did not start within %g s; its claim lapses",
                                record.engine_id, key, record.started_by, self.start_timeout_s * 2)
                    self._stop(record, self._local.get(record.engine_id), "FAILED")
                return None
            time.sleep(0.2)

    def _adopt(self, record: EngineRecord) -> _Local:
        with self._lock:
            local = self._local.get(record.engine_id)
            if local is None:
                local = self._local[record.engine_id] = _Local(record)
                log.info("sharing managed engine %s (%s) at %s, started by %s", record.engine_id, record.key,
                         record.address, record.started_by)
            return local

    def _take_pooled(self, key: str, owner: str) -> Optional[_Local]:
        for record in self.store.engines_live(state="POOLED"):
            if not answers(record.address):
                self._stop(record, self._local.get(record.engine_id), "FAILED")
                continue
            if self.store.engine_claim(record.engine_id, key, owner):
                log.info("managed engine %s from the pool now serves %s", record.engine_id, key)
                return self._adopt(self.store.engine_get(record.engine_id))
        return None

    def _start(self, key: str, owner: str, pooled: bool = False) -> Optional[_Local]:
        """Start an engine for ``key`` (or for the pool); a failed start is retried once, then raises. None when
        another process claimed the key first (its engine is waited for)."""
        failure = None
        for attempt in (1, 2):
            if self._stopped.is_set() and failure is not None:
                break  # the workbench is stopping: no second try
            try:
                return self._launch(key, owner, pooled)
            except EngineStartError as exc:
                failure = exc
                if pooled and self._stopped.is_set():
                    break  # stopped on purpose: the workbench is stopping, no failure to report
                log.warning("managed engine for %s failed to start (attempt %d of 2): %s", key or "the pool",
                            attempt, exc.message)
        raise failure

    def command(self, key: str, owner: str, port: int, ui_port: int, engine_dir: Path, app_name: str) -> list[str]:
        """The command line of an engine: spark-submit with its driver here (client deploy mode), or the standalone
        driver client that submits its driver to the cluster (cluster: it listens on every address of its worker,
        with a token, unless engine.conf names spark.connect.grpc.binding.address)."""
        in_cluster = self.deploy_mode == "cluster"
        conf = {"spark.connect.grpc.binding.address": "127.0.0.1", "spark.connect.grpc.binding.port": str(port),
                "spark.ui.port": str(ui_port), "spark.ui.showConsoleProgress": "false",
                "spark.sql.execution.arrow.pyspark.enabled": "true",
                # Spark's metrics servlet (/metrics/json) reports the driver's heap for the engines page.
                "spark.metrics.conf.driver.source.jvm.class": "org.apache.spark.metrics.source.JvmSource",
                # Its sessions share its parser caches too: bounded as the embedded driver's (parser_cache.py).
                **PARSER_CACHE_CONF}
        if self.master.startswith("local"):
            conf.update({"spark.driver.bindAddress": "127.0.0.1", "spark.driver.host": "127.0.0.1"})
        conf.update(self._metastore_conf(key, engine_dir))
        if in_cluster:  # no class archive: it is a file of this host, and the driver's JVM runs on a worker
            del conf["spark.connect.grpc.binding.address"]
            conf.update({"spark.master": self.master, "spark.app.name": app_name, "spark.submit.deployMode": "cluster",
                         **self.cluster_conf, **self.config["engine.conf"]})
            return cluster.launch_command(spark_home(), self.master, conf)
        conf.update(self.config["engine.conf"])
        archive = self.class_archive()
        if archive is not None:  # AppCDS: the archive's classes are mapped, not loaded and verified one by one
            option = f"-XX:SharedArchiveFile={archive}" if archive.exists() else "-XX:+RecordDynamicDumpInfo"
            conf["spark.driver.extraJavaOptions"] = f"{conf.get('spark.driver.extraJavaOptions', '')} {option}".strip()
        command = [str(spark_home() / "bin" / "spark-submit"), "--class", SERVER_CLASS, "--master", self.master,
                   "--name", app_name]
        if self.config["engine.proxy_user"] and owner:
            command += ["--proxy-user", owner]
        command += self.submit_args
        for name, value in conf.items():
            command += ["--conf", f"{name}={value}"]
        return command

    def class_archive(self) -> Optional[Path]:
        """The JVM class-data archive (AppCDS) of this host's engines, named after what decides their classes
        (pyspark, the JVM, engine.submit_args' jars); None when engine.class_archive is off. An archive that does
        not fit a JVM is ignored by it (-Xshare:auto), never fatal."""
        if not self.config["engine.class_archive"]:
            return None
        from gateway.spark.class_archive import archive_name, class_archive_dir

        return class_archive_dir(self.config) / archive_name("classes", self.submit_args)

    def _write_class_archive_later(self, record: EngineRecord) -> None:
        """Once per process, when no archive exists: after a statement has warmed the engine, ``jcmd <pid> VM.cds
        dynamic_dump`` writes its loaded classes to the archive (a pause of that engine of a few seconds, once),
        atomically, for every later engine of this host. In a thread of its own: nobody waits for it."""
        archive = self.class_archive()
        with self._lock:
            if archive is None or archive.exists() or self._archiving or record.host != self.host or not record.pid:
                return
            self._archiving = True
        threading.Thread(target=self._write_class_archive, args=(record, archive), name="engine-class-archive",
                         daemon=True).start()

    def _write_class_archive(self, record: EngineRecord, archive: Path) -> None:
        from gateway.spark.class_archive import dump_class_archive
        from gateway.spark.connect import connect_root_at

        try:
            root = connect_root_at(record.address)
            try:  # a statement's classes (parser, analyzer, code generation, Arrow) belong in the archive
                root.sql("SELECT id, CAST(id AS STRING) AS s FROM range(10) WHERE id % 2 = 0").collect()
            finally:
                root.client.close()
        except Exception:  # noqa: BLE001 - engines start without it, as before
            log.warning("the managed engines' class archive was not written", exc_info=True)
            return
        dump_class_archive(record.pid, archive)

    def _metastore_conf(self, key: str, engine_dir: Path) -> dict[str, str]:
        """A shared metastore (jdbc_url, uri) for every engine; else the embedded Derby, which admits one JVM:
        each key its own catalog and warehouse under the data directory, kept across its engines."""
        config = self.config
        if not config["metastore.hive_support"]:
            return {"spark.sql.catalogImplementation": "in-memory",
                    "spark.sql.warehouse.dir": str(config.data_dir / "warehouse")}
        conf = {"spark.sql.catalogImplementation": "hive"}
        if config["metastore.jdbc_url"]:
            from gateway.spark.metastore import jdbc_conf

            conf.update(jdbc_conf(config))
            conf["spark.sql.warehouse.dir"] = str(config.data_dir / "warehouse")
        elif config["metastore.uri"]:
            conf["spark.hadoop.hive.metastore.uris"] = config["metastore.uri"]
            conf["spark.sql.warehouse.dir"] = str(config.data_dir / "warehouse")
        else:
            home = self.base_dir / "catalogs" / _slug(key or "pool")
            conf["spark.sql.warehouse.dir"] = str(home / "warehouse")
            conf["spark.hadoop.javax.jdo.option.ConnectionURL"] = \
                f"jdbc:derby:;databaseName={home / 'metastore_db'};create=true"
            conf["spark.driver.extraJavaOptions"] = \
                f"-Dderby.system.home={home} -Dderby.stream.error.file={home / 'derby.log'}"
        return conf

    def _launch(self, key: str, owner: str, pooled: bool) -> Optional[_Local]:
        """Start one engine and wait for it to listen; None when another process claimed the key first."""
        engine_id = str(uuid.uuid4())
        engine_dir = self.base_dir / engine_id
        (engine_dir / "tmp").mkdir(parents=True, exist_ok=True)
        log_path = engine_dir / "engine.log"
        port, ui_port = free_port(), free_port()
        while ui_port == port:
            ui_port = free_port()
        app_name = f"workbench engine {key or 'pool'}"
        command = self.command(key, owner, port, ui_port, engine_dir, app_name)
        if self.deploy_mode == "cluster":
            return self._launch_in_cluster(engine_id, key, owner, pooled, command, log_path, port, ui_port, app_name)
        env = dict(os.environ, SPARK_HOME=str(spark_home()), SPARK_LOCAL_DIRS=str(engine_dir / "tmp"),
                   PYSPARK_PYTHON=os.environ.get("PYSPARK_PYTHON", sys.executable))
        for name in ("PYSPARK_GATEWAY_PORT", "PYSPARK_GATEWAY_SECRET"):  # never this process's own Spark
            env.pop(name, None)
        if self.master.startswith("local"):
            env["SPARK_LOCAL_IP"] = "127.0.0.1"  # the engine's web UI on loopback too
        started = now()
        record = EngineRecord(engine_id, key, owner, "STARTING", f"sc://127.0.0.1:{port}", self.host, None,
                              f"http://127.0.0.1:{ui_port}", app_name, self.process_name, started, started,
                              str(log_path))
        claimed = time.perf_counter()
        if not self.store.engine_claim_key(record):  # the row first: it claims the key across processes
            log.info("another workbench process is starting or has started the engine for %s; waiting for it", key)
            return None
        try:
            with open(log_path, "ab") as out:
                # Its own process group: stopping it by PID ends the JVM that spark-submit's script execs.
                process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                           env=env, cwd=engine_dir, start_new_session=True)
        except OSError as exc:
            self.store.engine_update(engine_id, state="FAILED", last_used=now())
            raise EngineStartError(f"the managed engine for {key or 'the pool'} could not be started: {exc}",
                                   error_class="ENGINE_DOWN") from exc
        record = EngineRecord(**{**record.__dict__, "pid": process.pid})
        self.store.engine_update(engine_id, pid=process.pid)
        local = _Local(record, process=process)
        with self._lock:
            self._local[engine_id] = local
        log.info("starting managed engine %s for %s: pid %d, %s, log %s", engine_id, key or "the pool",
                 process.pid, record.address, log_path)
        spawned = time.perf_counter()
        local.phases["claim_and_spawn_s"] = spawned - claimed
        deadline = time.monotonic() + self.start_timeout_s
        while not answers(record.address, 0.5):
            code = process.poll()
            if code is not None or time.monotonic() > deadline or (pooled and self._stopped.is_set()):
                self._stop(record, local, "FAILED")
                why = (f"exited with code {code}" if code is not None
                       else "was stopped: the workbench is stopping" if self._stopped.is_set()
                       else f"did not listen within engine.start_timeout_s = {self.start_timeout_s:g} s")
                raise EngineStartError(f"the managed engine for {key or 'the pool'} {why}; the end of its log "
                                       f"({log_path}):\n{_tail(log_path)}", error_class="ENGINE_DOWN")
            time.sleep(LISTEN_POLL_S)
        local.phases["jvm_to_listening_s"] = time.perf_counter() - spawned
        if pooled:
            warming = time.perf_counter()
            self._warm(record)
            local.phases["warm_s"] = time.perf_counter() - warming
        state = "POOLED" if pooled else "RUNNING"
        recording = time.perf_counter()
        self.store.engine_update(engine_id, state=state, last_used=now())
        local.phases["record_s"] = time.perf_counter() - recording
        local.record = EngineRecord(**{**record.__dict__, "state": state})
        self._write_class_archive_later(local.record)
        log.info("managed engine %s for %s is up after %.1f s", engine_id, key or "the pool",
                 (now() - started).total_seconds())
        return local

    def _launch_in_cluster(self, engine_id: str, key: str, owner: str, pooled: bool, command: list[str],
                           log_path: Path, port: int, ui_port: int, app_name: str) -> Optional[_Local]:
        """Submit the engine's driver to the standalone cluster and wait (engine.start_timeout_s) until the master
        places it on a worker and it listens there; None when another process claimed the key first. Its address
        is that worker's host and the port chosen here; it requires a token of its own (stored with its row)."""
        started = now()
        record = EngineRecord(engine_id, key, owner, "STARTING", f"sc://(not placed yet):{port}", self.host, None,
                              None, app_name, self.process_name, started, started, str(log_path),
                              token=secrets.token_urlsafe(32))
        claimed = time.perf_counter()
        if not self.store.engine_claim_key(record):
            log.info("another workbench process is starting or has started the engine for %s; waiting for it", key)
            return None
        local = _Local(record)
        with self._lock:
            self._local[engine_id] = local
        try:
            with open(log_path, "ab") as out:  # the driver client: it exits once the master has placed the driver
                client = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                          env=cluster.client_env(record.token), cwd=log_path.parent,
                                          start_new_session=True)
        except OSError as exc:
            self._stop(record, local, "FAILED")
            raise EngineStartError(f"the managed engine for {key or 'the pool'} could not be submitted: {exc}",
                                   error_class="ENGINE_DOWN") from exc
        log.info("submitting managed engine %s for %s to %s (driver client pid %d, log %s)", engine_id,
                 key or "the pool", self.master, client.pid, log_path)
        spawned = time.perf_counter()
        local.phases["claim_and_spawn_s"] = spawned - claimed
        deadline = time.monotonic() + self.start_timeout_s
        worker, why = None, None
        while True:
            if record.driver_id is None:
                driver_id = cluster.driver_id_in(log_path)
                if driver_id is not None:
                    record = local.record = EngineRecord(**{**record.__dict__, "driver_id": driver_id})
                    self.store.engine_update(engine_id, driver_id=driver_id)
                    local.phases["submit_s"] = time.perf_counter() - spawned
                elif client.poll() is not None:
                    why = (f"was not accepted by the master {self.master}: its driver client exited with code "
                           f"{client.returncode}; the end of its log ({log_path}):\n{_tail(log_path)}")
            else:
                state, worker = cluster.driver_status(self.master_ui, record.driver_id)
                if state in cluster.DRIVER_ENDED:
                    where = f" on {worker['host']}" if worker else ""
                    why = (f"ended: its driver {record.driver_id} is {state}{where} (the master's web UI "
                           f"{self.master_ui} lists it); the end of its log:\n"
                           f"{cluster.driver_log(worker, record.driver_id)}")
                elif state == "RUNNING" and worker and record.ui_url is None:
                    record = local.record = EngineRecord(**{**record.__dict__, "address": f"sc://{worker['host']}:{port}",
                                                            "ui_url": f"http://{worker['host']}:{ui_port}"})
                    self.store.engine_update(engine_id, address=record.address, ui_url=record.ui_url)
                if why is None and record.ui_url is not None and answers(record.address, 0.5):
                    break
            if why is None and time.monotonic() > deadline:
                why = (f"did not listen within engine.start_timeout_s = {self.start_timeout_s:g} s (driver "
                       f"{record.driver_id or 'not accepted yet'}; the master's web UI {self.master_ui})")
            if why is None and pooled and self._stopped.is_set():
                why = "was stopped: the workbench is stopping"
            if why is not None:
                if client.poll() is None:
                    _end_group(client.pid, client)
                self._stop(record, local, "FAILED")
                raise EngineStartError(f"the managed engine for {key or 'the pool'} {why}", error_class="ENGINE_DOWN")
            time.sleep(0.25)  # the master's JSON: a few requests a second at most
        local.phases["jvm_to_listening_s"] = time.perf_counter() - spawned
        threading.Thread(target=_reap_child, args=(client,), name="engine-driver-client", daemon=True).start()
        if pooled:
            warming = time.perf_counter()
            self._warm(record)
            local.phases["warm_s"] = time.perf_counter() - warming
        state = "POOLED" if pooled else "RUNNING"
        self.store.engine_update(engine_id, state=state, last_used=now())
        local.record = EngineRecord(**{**record.__dict__, "state": state})
        log.info("managed engine %s for %s is up on the cluster (driver %s at %s) after %.1f s", engine_id,
                 key or "the pool", record.driver_id, record.address, (now() - started).total_seconds())
        return local

    def _kill_driver(self, record: EngineRecord) -> None:
        """Kill a cluster engine's driver through the master, unless the master lists it ended already; then wait
        (bounded) until the master lists it ended."""
        state, _ = cluster.driver_status(self.master_ui, record.driver_id)
        if state in cluster.DRIVER_ENDED:
            return
        failure = cluster.kill(spark_home(), self.master, record.driver_id, Path(record.log_path),
                               STOP_TIMEOUT_S * 2)
        # read the master even when the client failed: another process's kill may have ended it this instant
        deadline = time.monotonic() + (STOP_TIMEOUT_S if failure is None else 5.0)
        while time.monotonic() < deadline:
            state, _ = cluster.driver_status(self.master_ui, record.driver_id)
            if state in cluster.DRIVER_ENDED:
                return
            time.sleep(0.25)
        log.error("managed engine %s: its driver %s on %s was not seen ended (%s); kill it from the master's web UI "
                  "%s", record.engine_id, record.driver_id, self.master, failure or f"still {state}", self.master_ui)

    @staticmethod
    def _warm(record: EngineRecord) -> None:
        """A pooled engine's first statement, run before a user comes: a JVM's first query (class loading, code
        generation) takes seconds (8.7 s measured on 2 busy cores), which the pool is there to hide."""
        from gateway.spark.connect import connect_root_at

        root = connect_root_at(engine_url(record))
        try:
            root.sql("SELECT 1").collect()
        except Exception:  # noqa: BLE001 - a cold first statement that fails leaves a usable engine all the same
            log.warning("warming pooled engine %s failed", record.engine_id, exc_info=True)
        finally:
            root.client.close()

    # -- stopping ----------------------------------------------------------------------------------

    def _stop(self, record: EngineRecord, local: Optional[_Local], state: str = "STOPPED") -> None:
        """End the engine's process group by its PID (SIGTERM, then SIGKILL after STOP_TIMEOUT_S) when it runs
        on this host, or its driver on the cluster by its driver id (engine.deploy_mode = cluster), and record it
        as ``state``; its sessions here get ENGINE_DOWN on their next statement."""
        if record.driver_id:
            self._kill_driver(record)
        elif record.host == self.host and record.pid:
            process = local.process if local is not None else None
            port = record.address.rsplit(":", 1)[-1]
            if process is not None or _is_engine_process(record.pid, port):
                _end_group(record.pid, process)
        if state == "FAILED":  # found dead while an admin's stop ended it (the reaper's round): it was stopped
            current = self.store.engine_get(record.engine_id)
            state = "STOPPED" if current is not None and current.state == "STOPPED" else state
        self.store.engine_update(record.engine_id, state=state, last_used=now())
        with self._lock:
            gone = self._local.pop(record.engine_id, None)
        if gone is not None and gone.root is not None:
            try:
                gone.root.client.close()
            except Exception:  # noqa: BLE001 - a dead server's channel may fail to close; it is gone anyway
                log.debug("closing the client of engine %s failed", record.engine_id, exc_info=True)

    def stop(self, engine_id: str) -> None:
        """Stop one engine (the admin's call); its sessions' next statements get ENGINE_DOWN, then a new engine."""
        record = self.store.engine_get(engine_id)
        if record is None or record.state not in ("STARTING", "POOLED", "RUNNING"):
            raise EngineNotFoundError(f"no running managed engine has the id {engine_id!r}; "
                                      f"GET /v2/admin/engines lists them")
        if record.host != self.host and not record.driver_id:
            raise InvalidRequestError(f"engine {engine_id} runs on {record.host}, not on this workbench's host "
                                      f"{self.host}; stop it from a workbench process there")
        self._stop(record, self._local.get(engine_id), "STOPPED")

    def stop_all(self) -> None:
        """Stop every live engine of the store on this host (tests, and an operator's clean shutdown)."""
        for record in self.store.engines_live():
            if record.host == self.host or record.driver_id:
                self._stop(record, self._local.get(record.engine_id), "STOPPED")

    def shutdown(self) -> None:
        """Stop the reaper. The engines keep running: the next workbench process adopts them, and any
        process's reaper stops them after engine.idle_timeout_s without sessions."""
        self._stopped.set()
        self._reaper.join(timeout=STOP_TIMEOUT_S)
        if self._filler is not None:
            self._filler.join(timeout=STOP_TIMEOUT_S)
        with self._lock:
            roots = [local.root for local in self._local.values() if local.root is not None]
        for root in roots:  # no RPC from them at the process's exit
            try:
                root.client.close()
            except Exception:  # noqa: BLE001 - closing a channel of a dead engine; it is unused now
                log.debug("closing an engine's root client failed", exc_info=True)

    # -- the reaper ----------------------------------------------------------------------------------

    def reap_once(self) -> None:
        """Mark engines with sessions here as used; stop those idle past the timeout (any process's, on this
        host); forget dead ones; fill the pool."""
        with self._lock:
            in_use = [engine_id for engine_id, local in self._local.items() if local.sessions]
        self.store.engine_touch(in_use)
        moment = now()
        records = self.store.engines_live()
        for record in records:
            if record.state == "STARTING" or (record.host != self.host and not record.driver_id) \
                    or record.engine_id in in_use:
                continue
            if not answers(record.address):
                self._stop(record, self._local.get(record.engine_id), "FAILED")
            elif (record.state == "RUNNING" and self.idle_timeout_s > 0
                  and (moment - record.last_used).total_seconds() > max(self.idle_timeout_s, 3 * TOUCH_PERIOD_S)):
                log.info("stopping managed engine %s (%s): no sessions for %g s", record.engine_id, record.key,
                         self.idle_timeout_s)
                self._stop(record, self._local.get(record.engine_id), "STOPPED")
        self.store.engines_forget_stopped(moment - dt.timedelta(days=1))
        if self.pool_size and not self._stopped.is_set() and (self._filler is None or not self._filler.is_alive()):
            # in a thread of its own: a start takes long, and the marks above must go on meanwhile
            self._filler = threading.Thread(target=self._fill_pool, name="engine-pool", daemon=True)
            self._filler.start()

    def _fill_pool(self) -> None:
        """Start engines until engine.pool_size wait in the pool (across the processes on the store)."""
        while not self._stopped.is_set():
            pooled = sum(1 for r in self.store.engines_live()
                         if r.state == "POOLED" or (r.state == "STARTING" and not r.key))
            if pooled >= self.pool_size:
                return
            try:
                self._start("", "", pooled=True)
            except Exception:  # noqa: BLE001 - the next reaper round tries again
                if not self._stopped.is_set():  # else: stopped on purpose, the workbench is stopping
                    log.exception("starting an engine for the pool failed")
                else:
                    log.debug("a pooled start ended by the shutdown", exc_info=True)
                return

    def _reap_loop(self) -> None:
        wait = 0.0  # the pool fills at once
        while not self._stopped.wait(wait):
            wait = min(self.reap_period_s, TOUCH_PERIOD_S)
            try:
                self.reap_once()
            except Exception:  # noqa: BLE001 - a store outage or a failed pool start must not end the reaper
                log.exception("the managed engines' reaper failed; trying again in %g s", self.reap_period_s)

    # -- the engines page ------------------------------------------------------------------------------

    def list(self) -> list[dict]:
        """Every live engine of the store: key, state, address, sessions here, uptime, heap, Spark UI."""
        moment = now()
        with self._lock:
            here = {engine_id: len(local.sessions) for engine_id, local in self._local.items()}
        rows = []
        for record in self.store.engines_live():
            rows.append({"engine_id": record.engine_id, "key": record.key or "(pool)", "owner": record.owner,
                         "state": record.state, "address": record.address, "host": record.host, "pid": record.pid,
                         "sessions": here.get(record.engine_id, 0), "app_name": record.app_name,
                         "started_at": record.started_at.isoformat(),
                         "uptime_s": round((moment - record.started_at).total_seconds(), 1),
                         "last_used": record.last_used.isoformat(), "spark_ui": record.ui_url,
                         "log_path": record.log_path, "started_by": record.started_by,
                         "driver_id": record.driver_id,
                         **(driver_heap(record.ui_url) if record.state != "STARTING" else
                            {"heap_used_bytes": None, "heap_max_bytes": None, "heap_note": "starting"})})
        return rows

    def engine_of(self, engine_id: str) -> Optional[dict]:
        return next((row for row in self.list() if row["engine_id"] == engine_id), None)

    def gateway_info(self) -> dict:
        import pyspark

        return {"spark_version": pyspark.__version__,
                "master": f"managed engines on {self.master} (share level {self.share_level})",
                "warehouse": "each engine's (docs/engines.md, Managed engines)",
                "spark_ui": "each engine's (the engines page)"}


def driver_heap(ui_url: Optional[str]) -> dict:
    """The engine driver's heap from its Spark UI's metrics servlet (JvmSource), or None with the reason."""
    import json
    import urllib.request

    if not ui_url:
        return {"heap_used_bytes": None, "heap_max_bytes": None, "heap_note": "the engine has no Spark UI"}
    try:
        with urllib.request.urlopen(f"{ui_url}/metrics/json/", timeout=2) as reply:
            gauges = json.load(reply).get("gauges", {})
    except (OSError, ValueError) as exc:
        return {"heap_used_bytes": None, "heap_max_bytes": None, "heap_note": f"its Spark UI did not answer ({exc})"}
    used = next((g["value"] for name, g in gauges.items() if name.endswith("jvm.heap.used")), None)
    top = next((g["value"] for name, g in gauges.items() if name.endswith("jvm.heap.max")), None)
    return {"heap_used_bytes": used, "heap_max_bytes": top,
            "heap_note": None if used is not None else "its Spark UI reports no JVM metrics"}


def _end_group(pid: int, process: Optional[subprocess.Popen]) -> None:
    try:
        os.killpg(pid, signal.SIGTERM)
    except ProcessLookupError:
        _reap_child(process)
        return
    deadline = time.monotonic() + STOP_TIMEOUT_S
    while time.monotonic() < deadline:
        if process is not None:
            if process.poll() is not None:
                return
        elif not running(pid):
            return
        time.sleep(0.1)
    try:
        os.killpg(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    _reap_child(process)


def running(pid: int) -> bool:
    """Is ``pid`` a live process (not gone, not a zombie waiting for its parent)? Linux's /proc."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[-1].split()[0] != "Z"


def _reap_child(process: Optional[subprocess.Popen]) -> None:
    if process is not None:
        try:
            process.wait(timeout=STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            log.error("managed engine pid %d outlived SIGKILL for %g s", process.pid, STOP_TIMEOUT_S)


def _tail(path: Path) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-LOG_TAIL_LINES:])
    except OSError as exc:
        return f"(its log could not be read: {exc})"
