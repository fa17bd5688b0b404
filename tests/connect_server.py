"""A real Spark Connect server for tests: pyspark's own ``bin/spark-submit`` with the server class
that ships in the pip install, on 127.0.0.1 and a free port, stopped by its PID.

SPARK_HOME is the pyspark package folder. Shared by the tests through the session fixture
``connect_server`` (tests/conftest.py); the failure test kills that one and starts it again on its port.
"""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Optional

from ports import free_port

SERVER_CLASS = "org.apache.spark.sql.connect.service.SparkConnectServer"
START_TIMEOUT_S = 180  # about 20 s on a quiet machine, much more with seven test runs on 2 cores
STOP_TIMEOUT_S = 30


def spark_home() -> Path:
    import pyspark

    return Path(pyspark.__file__).resolve().parent


class ConnectServer:
    """One Spark Connect server: ``start()``, ``url``, ``stop()`` (SIGTERM then SIGKILL, by PID)."""

    def __init__(self, port: Optional[int] = None, base_dir: Optional[Path] = None) -> None:
        self.port = port or free_port()
        self.base_dir = Path(base_dir) if base_dir else Path(tempfile.mkdtemp(prefix="workbench-connect-"))
        self.log_file = self.base_dir / "server.log"
        self.process: Optional[subprocess.Popen] = None

    @property
    def url(self) -> str:
        return f"sc://127.0.0.1:{self.port}"

    @property
    def pid(self) -> Optional[int]:
        return self.process.pid if self.process is not None else None

    def start(self) -> "ConnectServer":
        home = spark_home()
        env = dict(os.environ, SPARK_HOME=str(home), SPARK_LOCAL_IP="127.0.0.1",
                   SPARK_LOCAL_DIRS=str(self.base_dir / "tmp"))
        env.pop("PYSPARK_GATEWAY_PORT", None)
        env.pop("PYSPARK_GATEWAY_SECRET", None)
        command = [str(home / "bin" / "spark-submit"), "--class", SERVER_CLASS, "--master", "local[2]",
                   "--conf", "spark.connect.grpc.binding.address=127.0.0.1",
                   "--conf", f"spark.connect.grpc.binding.port={self.port}",
                   "--conf", "spark.ui.enabled=false",
                   "--conf", "spark.sql.shuffle.partitions=2",
                   "--conf", "spark.driver.bindAddress=127.0.0.1", "--conf", "spark.driver.host=127.0.0.1",
                   "--conf", f"spark.sql.warehouse.dir={self.base_dir / 'warehouse'}",
                   "--conf", f"spark.driver.extraJavaOptions=-Dderby.system.home={self.base_dir}",
                   "--driver-memory", "1g"]
        self.base_dir.mkdir(parents=True, exist_ok=True)
        with open(self.log_file, "ab") as log:
            # its own process group: stop() ends the JVM that spark-submit's script starts, by that group's PID
            self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env,
                                            cwd=self.base_dir, start_new_session=True)
        self._wait_for_port()
        return self

    def _wait_for_port(self) -> None:
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the Spark Connect server exited ({self.process.returncode}) before it "
                                   f"listened on 127.0.0.1:{self.port}\n{self._log_tail()}")
            with socket.socket() as probe:
                probe.settimeout(1)
                if probe.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"the Spark Connect server did not listen on 127.0.0.1:{self.port} within "
                           f"{START_TIMEOUT_S} s\n{self._log_tail()}")

    def _log_tail(self) -> str:
        try:
            return "server log:\n" + "\n".join(self.log_file.read_text().splitlines()[-30:])
        except OSError:
            return ""

    def kill(self) -> None:
        """End the server at once (SIGKILL to its process group, by PID): a crash, not a shutdown."""
        if self.process is None:
            return
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.process.wait(timeout=STOP_TIMEOUT_S)
        self.process = None

    def stop(self) -> None:
        """SIGTERM to the server's process group (by its PID); SIGKILL if it outlives the timeout."""
        if self.process is None:
            return
        try:
            os.killpg(self.process.pid, signal.SIGTERM)
        except ProcessLookupError:
            self.process = None
            return
        try:
            self.process.wait(timeout=STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            self.kill()
        self.process = None
