"""engine.deploy_mode = cluster: a managed engine's driver (its Spark Connect server) runs on a worker of a
standalone cluster, not on the workbench's host.

Spark 4's ``spark-submit`` refuses ``--deploy-mode cluster`` for the Connect server class on anything but YARN
("Launching Spark Connect server in cluster deploy mode is supported only for YARN"), so the engine is submitted
with the standalone cluster's own driver client (``org.apache.spark.deploy.Client launch``, what spark-submit runs
for a standalone cluster-mode submission without the master's REST server) and killed with it (``Client kill``:
``spark-submit --kill`` needs the master's REST server, off by default). The master's web UI JSON says where a
driver runs (``activedrivers``: its ``worker``; ``workers``: their ``host``) and how it ended.

Spark forwards the submitting client's environment to the driver, so the client gets a small one: the engine's
Spark Connect token (``SPARK_CONNECT_AUTHENTICATE_TOKEN``, never on a command line) and the few variables that
place a JVM, never the workbench's own settings.
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Optional

from gateway.errors import ConfigurationError
from gateway.spark.java import java_binary

SUBMIT_CLIENT = "org.apache.spark.deploy.Client"
TOKEN_ENV = "SPARK_CONNECT_AUTHENTICATE_TOKEN"
DRIVER_ID = re.compile(r"\b(driver-\d{14}-\d{4,})\b")
DRIVER_ENDED = ("FAILED", "ERROR", "KILLED", "FINISHED")
# What of the workbench's environment the driver client (and through it the driver) may see: what finds Java
# and places a JVM on the network. SPARK_LOCAL_IP reaches the driver too: set it only for a one-host cluster.
_PASSED_ENV = ("PATH", "JAVA_HOME", "HOME", "USER", "LANG", "TZ", "SPARK_LOCAL_IP", "SPARK_LOCAL_HOSTNAME")
# engine.submit_args the standalone driver client can carry, and the Spark setting each one is
_SUBMIT_ARG_CONF = {"--driver-memory": "spark.driver.memory", "--driver-cores": "spark.driver.cores",
                    "--jars": "spark.jars", "--packages": "spark.jars.packages",
                    "--repositories": "spark.jars.repositories", "--files": "spark.files",
                    "--driver-java-options": "spark.driver.extraJavaOptions",
                    "--driver-class-path": "spark.driver.extraClassPath"}


def submit_args_conf(args: list[str]) -> dict[str, str]:
    """engine.submit_args as Spark settings for a cluster-mode engine (``--conf k=v``, ``--driver-memory 2g``…);
    an option the standalone driver client cannot carry is refused with what to use instead."""
    conf: dict[str, str] = {}
    rest = list(args)
    while rest:
        arg = rest.pop(0)
        option, _, value = arg.partition("=")
        if option not in _SUBMIT_ARG_CONF and option != "--conf":
            raise ConfigurationError(
                f"engine.submit_args has {arg!r}, which engine.deploy_mode = cluster cannot pass to the engine's "
                f"driver on the cluster; use one of --conf, {', '.join(_SUBMIT_ARG_CONF)}, or set the Spark setting "
                f"in engine.conf")
        if not _:
            if not rest:
                raise ConfigurationError(f"engine.submit_args ends with {option} and no value; give it one")
            value = rest.pop(0)
        if option == "--conf":
            name, equals, setting = value.partition("=")
            if not equals or not name:
                raise ConfigurationError(f"engine.submit_args has --conf {value!r}; write it --conf name=value")
            conf[name] = setting
        else:
            conf[_SUBMIT_ARG_CONF[option]] = value
    return conf


def memory_mb(value: str) -> int:
    """A JVM memory size (512m, 2g, 1024k) in megabytes (the driver client reads a bare number as bytes)."""
    match = re.fullmatch(r"\s*(\d+)\s*([kmgt]?)b?\s*", str(value).lower())
    if not match:
        raise ConfigurationError(f"spark.driver.memory is {value!r}; give a size such as 512m or 2g")
    number, unit = int(match.group(1)), match.group(2) or "m"
    return max(1, {"k": number // 1024, "m": number, "g": number * 1024, "t": number * 1024 * 1024}[unit])


def connect_jar(spark_home: Path) -> Path:
    """The Spark Connect server's jar shipped in pyspark's jars/ (the driver's user jar on the worker)."""
    found = sorted((spark_home / "jars").glob("spark-connect_*.jar"))
    if not found:
        raise ConfigurationError(f"no spark-connect_*.jar in {spark_home / 'jars'}: engine.deploy_mode = cluster "
                                 f"submits it as the engine's jar; install a pyspark that ships it")
    return found[0]


def launch_command(spark_home: Path, master: str, conf: dict[str, str]) -> list[str]:
    """The standalone driver client's command line that submits an engine's driver (its settings as -D)."""
    cores = str(conf.get("spark.driver.cores", "1"))
    memory = memory_mb(conf.get("spark.driver.memory", "1g"))
    return [java_binary(), "-cp", f"{spark_home / 'jars'}/*",
            *(f"-D{name}={value}" for name, value in conf.items()),
            SUBMIT_CLIENT, "--cores", cores, "--memory", f"{memory}m", "launch", master,
            connect_jar(spark_home).as_uri(), "org.apache.spark.sql.connect.service.SparkConnectServer"]


def kill_command(spark_home: Path, master: str, driver_id: str) -> list[str]:
    return [java_binary(), "-cp", f"{spark_home / 'jars'}/*", SUBMIT_CLIENT, "kill", master, driver_id]


def client_env(token: Optional[str] = None) -> dict[str, str]:
    """The driver client's environment (Spark forwards it to the driver): the token, and what places a JVM."""
    env = {name: os.environ[name] for name in _PASSED_ENV if name in os.environ}
    if token is not None:
        env[TOKEN_ENV] = token
    return env


def driver_id_in(log_path: Path) -> Optional[str]:
    """The driver id the client printed once the master accepted the submission ("submitted as driver-…")."""
    try:
        text = log_path.read_text(errors="replace")
    except OSError:
        return None
    for line in text.splitlines():
        if "submitted as" in line:
            match = DRIVER_ID.search(line)
            if match:
                return match.group(1)
    return None


def master_json(ui_url: str, timeout_s: float = 5.0) -> Optional[dict]:
    try:
        with urllib.request.urlopen(f"{ui_url}/json/", timeout=timeout_s) as reply:
            return json.load(reply)
    except (OSError, ValueError):
        return None


def driver_status(ui_url: str, driver_id: str) -> tuple[Optional[str], Optional[dict]]:
    """The driver's state on the master (SUBMITTED, RUNNING, FAILED, ERROR, KILLED, FINISHED; None when the
    master did not answer or does not know it) and its worker's entry (host, webuiaddress), when placed."""
    state = master_json(ui_url)
    if state is None:
        return None, None
    driver = next((d for d in state.get("activedrivers", []) + state.get("completeddrivers", [])
                   if d.get("id") == driver_id), None)
    if driver is None:
        return None, None
    worker = next((w for w in state.get("workers", []) if w.get("id") == driver.get("worker")), None)
    return driver.get("state"), worker


def driver_log(worker: Optional[dict], driver_id: str, chars: int = 3000) -> str:
    """The end of the driver's stderr from its worker's web UI (which names its path on the worker)."""
    if not worker or not worker.get("webuiaddress"):
        return "(its worker is not known: the master's web UI lists the driver)"
    query = urllib.parse.urlencode({"driverId": driver_id, "logType": "stderr", "byteLength": chars})
    url = f"{worker['webuiaddress']}/log/?{query}"
    try:
        with urllib.request.urlopen(url, timeout=5) as reply:
            return reply.read().decode(errors="replace")
    except OSError as exc:
        return f"(its log at {url} could not be read: {exc})"


def kill(spark_home: Path, master: str, driver_id: str, log_path: Path, timeout_s: float) -> Optional[str]:
    """Ask the master to kill the driver (the standalone driver client); None when asked, else why not."""
    try:
        with open(log_path, "ab") as out:
            done = subprocess.run(kill_command(spark_home, master, driver_id), stdout=out, stderr=subprocess.STDOUT,
                                  stdin=subprocess.DEVNULL, env=client_env(), timeout=timeout_s)
    except (OSError, subprocess.TimeoutExpired, ConfigurationError) as exc:
        return str(exc)
    return None if done.returncode == 0 else f"the driver client exited with code {done.returncode}"
