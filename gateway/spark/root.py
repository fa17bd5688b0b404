"""The only place that builds the root SparkSession (one per process)."""
from __future__ import annotations

import logging
import os
import re
import socket
import sys
import threading
from pathlib import Path

from gateway.config import WorkbenchConfig, engine_kind
from gateway.spark.connect import connect_root, connect_root_at, new_connect_session
from gateway.errors import ConfigurationError
from gateway.spark.class_archive import archive_name, class_archive_dir, dump_class_archive, java_option
from gateway.spark.backend import Capability, is_connect, jcontext, jvm, supports
from gateway.spark.java import java_binary, java_version
from gateway.spark.metastore import ensure_schema, jdbc_conf
from gateway.spark.parser_cache import PARSER_CACHE_CONF
from gateway.spark.scheduler import ALLOCATION_FILE, check_allocation_file, write_allocation_file

_lock = threading.Lock()
# The root client of engine.kind = managed: no server listens on port 1 (a privileged port), so a call that
# reached it by mistake fails as ENGINE_DOWN instead of talking to some server.
NO_SERVER = "sc://127.0.0.1:1"
# The class archive this process's embedded driver started without (spark.class_archive): written at its stop.
_archive_at_stop: Path | None = None


def spark_conf(config: WorkbenchConfig) -> dict[str, str]:
    """Spark settings for the configured master and metastore, data kept under data_dir."""
    data = config.data_dir
    conf = {
        "spark.ui.showConsoleProgress": "false",
        # Progress reads each stage's running tasks from the status store, which by default writes a
        # count at most every 100 ms and then only on the next event: tasks that start right after
        # their stage showed "0 running" until one ended (gateway/core/progress.py). 0 writes each.
        "spark.ui.liveUpdate.period": "0",
        "spark.ui.enabled": str(bool(config["spark.ui.enabled"])).lower(),
        "spark.ui.port": str(config["spark.ui.port"]),
        "spark.sql.warehouse.dir": str(data / "warehouse"),
        "spark.sql.execution.arrow.pyspark.enabled": "true",
        "spark.driver.bindAddress": "127.0.0.1",
        "spark.driver.host": "127.0.0.1",
        # Each session's jobs run in their own pool (gateway/core/executor.py): one session's long
        # scans share the cores with another's short statement instead of queueing it behind them.
        "spark.scheduler.mode": "FAIR",
        # Its pools (gateway/spark/scheduler.py): the lane of proven-small statements wins free cores.
        "spark.scheduler.allocation.file": str(data / ALLOCATION_FILE),
        # Spark's parser caches bounded: every session shares them, for the driver's life (parser_cache.py).
        **PARSER_CACHE_CONF,
    }
    if not config["spark.master"].startswith("local"):  # executors on other hosts must reach the driver
        conf.pop("spark.driver.bindAddress")
        # Named, not left to Spark: SPARK_LOCAL_IP (which binds the web UI) would otherwise pick it.
        conf["spark.driver.host"] = config["spark.conf"].get("spark.driver.host") or driver_address(
            config["spark.master"])
    if config["metastore.hive_support"]:
        conf["spark.sql.catalogImplementation"] = "hive"
        if config["metastore.jdbc_url"]:  # a database several processes share (gateway/spark/metastore.py)
            conf.update(jdbc_conf(config))
        elif config["metastore.uri"]:
            conf["spark.hadoop.hive.metastore.uris"] = config["metastore.uri"]
        else:
            derby = data / "metastore"
            conf["spark.hadoop.javax.jdo.option.ConnectionURL"] = (
                f"jdbc:derby:;databaseName={derby / 'metastore_db'};create=true")
            conf["spark.driver.extraJavaOptions"] = (
                f"-Dderby.system.home={derby} -Dderby.stream.error.file={derby / 'derby.log'}")
    else:
        conf["spark.sql.catalogImplementation"] = "in-memory"
    # A job's results bigger than this fail with Spark's own error instead of filling the driver heap.
    conf["spark.driver.maxResultSize"] = max_result_size(config["spark.conf"].get("spark.driver.memory", "1g"))
    conf.update(config["spark.conf"])
    if config["metastore.hive_support"] and config["metastore.jdbc_url"]:  # keep the JDBC driver on the class path
        jar = jdbc_conf(config)["spark.driver.extraClassPath"]
        paths = conf["spark.driver.extraClassPath"].split(os.pathsep)
        if jar not in paths:
            conf["spark.driver.extraClassPath"] = os.pathsep.join(paths + [jar])
    archive = embedded_class_archive(config, conf)
    if archive is not None:  # AppCDS: the archive's classes are mapped, not loaded and verified one by one
        conf["spark.driver.extraJavaOptions"] = (
            f"{conf.get('spark.driver.extraJavaOptions', '')} {java_option(archive)}".strip())
    return conf


def embedded_class_archive(config: WorkbenchConfig, conf: dict) -> Path | None:
    """The class archive of this host's embedded drivers with this class path (spark.class_archive), or None."""
    if not config["spark.class_archive"]:
        return None
    return class_archive_dir(config) / archive_name("embedded", conf.get("spark.driver.extraClassPath", ""))


def write_class_archive_at_stop(root) -> None:
    """Before the root stops (the gateway's shutdown): when this driver started without its archive, dump the
    classes its statements loaded (jcmd pauses the JVM a few seconds; at the stop that pauses nobody's work)."""
    global _archive_at_stop
    archive, _archive_at_stop = _archive_at_stop, None
    if archive is None or archive.exists():
        return
    try:
        dump_class_archive(int(root._jvm.java.lang.ProcessHandle.current().pid()), archive)
    except Exception:  # noqa: BLE001 - the next start goes without it, as before
        logging.getLogger(__name__).warning("the embedded driver's class archive was not written", exc_info=True)


def driver_address(master: str) -> str:
    """The address of this host that executors reach the driver on: the one that routes to the master.

    A UDP socket "connected" to the master sends nothing; it only asks the kernel for the route.
    """
    match = re.match(r"^(?:spark|mesos)://([^:/,]+)(?::(\d+))?|^k8s://(?:https?://)?([^:/]+)(?::(\d+))?", master)
    host, port = ((match.group(1) or match.group(3)), int(match.group(2) or match.group(4) or 7077)) if match \
        else ("192.0.2.1", 7077)  # yarn: no host in the URL; the default route (a TEST-NET address, never sent to)
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect((socket.gethostbyname(host), port))
            return probe.getsockname()[0]
    except OSError as exc:
        raise ConfigurationError(
            f"could not find this host's address towards the Spark master {master} ({exc}); set "
            f"spark.driver.host in [spark.conf] (WORKBENCH_SPARK_CONF) to an address the executors can reach") from None


_UNITS = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}


def max_result_size(driver_memory: str) -> str:
    """A quarter of the driver's memory (Spark's default is 1g whatever the heap), at least 64m."""
    match = re.fullmatch(r"\s*(\d+)\s*([kmgt]?)b?\s*", str(driver_memory).lower())
    size = int(match.group(1)) * _UNITS.get(match.group(2), 1 << 20 if not match.group(2) else 1) if match else 1 << 30
    return f"{max(64, size // 4 >> 20)}m"


def get_or_create_root(config: WorkbenchConfig):
    """Start (or reuse) this process's root SparkSession; sessions are made from it with newSession().

    With ``engine.kind = connect`` the root is a Spark Connect client (gateway/spark/connect.py): no JVM
    starts here, and neither Java nor the spark.* settings are needed."""
    from pyspark.sql import SparkSession

    kind = engine_kind(config)
    if kind in ("connect", "managed"):
        # managed: each session takes its engine's client (gateway/engines/); this root names no server
        root = connect_root(config) if kind == "connect" else connect_root_at(NO_SERVER)
        quiet_user_errors(root, config["spark.log_level"])
        return root
    with _lock:
        active = SparkSession.getActiveSession() or SparkSession._instantiatedSession
        if active is not None and not _stopped(active):
            return active
        java_version()
        if config["metastore.hive_support"] and config["metastore.jdbc_url"]:
            ensure_schema(config, java_binary())  # once, on purpose, before Spark: never lazily (deadlocks)
        for sub in ("warehouse", "metastore", "tmp"):
            (config.data_dir / sub).mkdir(parents=True, exist_ok=True)
        conf = spark_conf(config)
        if conf["spark.scheduler.allocation.file"] == str(config.data_dir / ALLOCATION_FILE):
            write_allocation_file(config.data_dir / ALLOCATION_FILE)  # not the user's own file
        else:
            check_allocation_file(Path(conf["spark.scheduler.allocation.file"]))
        builder = SparkSession.builder.master(config["spark.master"]).appName(config["spark.app_name"])
        for key, value in conf.items():
            builder = builder.config(key, value)
        if config["metastore.hive_support"]:
            builder = builder.enableHiveSupport()
        # Spark's web UI binds the driver's SPARK_LOCAL_IP (0.0.0.0 without it); the driver's own
        # address is named by spark.driver.host above, so this moves the UI alone.
        os.environ["SPARK_LOCAL_IP"] = config["spark.ui.host"]
        # Keep Spark's scratch files under the data directory, not the current directory.
        os.environ.setdefault("SPARK_LOCAL_DIRS", str(config.data_dir / "tmp"))
        if config["spark.master"].startswith("local"):
            # Python UDF workers must run this interpreter (with pandas and pyarrow), not `python3`.
            os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
        root = builder.getOrCreate()
        root.sparkContext.setLogLevel(config["spark.log_level"])
        archive = embedded_class_archive(config, conf)
        if archive is not None and not archive.exists():  # written when the gateway stops (service.shutdown)
            global _archive_at_stop
            _archive_at_stop = archive
        quiet_user_errors(root, config["spark.log_level"])
        return root


# Spark logs every failed user statement at ERROR, with its stack: the analysis error with its query
# context, and each failed task (an assert_true, a bad cast, a missing file) in the executor and the
# task set. The gateway reports those to the client and logs one INFO line for each; these loggers
# keep only FATAL unless spark.log_level asks for INFO, DEBUG or TRACE.
# pyspark's own (Python) loggers log each analysis error with its stack, the JVM's each failed task.
USER_ERROR_LOGGERS_PYTHON = ("SQLQueryContextLogger", "DataFrameQueryContextLogger")
USER_ERROR_LOGGERS_JVM = ("org.apache.spark.executor.Executor", "org.apache.spark.scheduler.TaskSetManager")


def quiet_user_errors(root, level: str) -> None:
    if str(level).upper() in ("INFO", "DEBUG", "TRACE", "ALL"):
        return
    from pyspark.logger import PySparkLogger

    for name in USER_ERROR_LOGGERS_PYTHON:
        PySparkLogger.getLogger(name).setLevel(logging.CRITICAL)
    if supports(root, Capability.JVM):
        log4j = jvm(root, what="setting the level of Spark's loggers").org.apache.logging.log4j
        for name in USER_ERROR_LOGGERS_JVM:
            log4j.core.config.Configurator.setLevel(name, log4j.Level.FATAL)


def new_session(root):
    """A new isolated session of the root: ``newSession()`` (classic: same JVM; Spark Connect: a fresh
    server-side session with the gateway's bounded retries)."""
    if is_connect(root):
        return new_connect_session(root)
    return root.newSession()


def _stopped(spark) -> bool:
    """Was the root's SparkContext stopped in the JVM (where pyspark may not have noticed)?"""
    return bool(jcontext(spark, what="checking whether the root SparkSession was stopped").sc().isStopped())
