"""A Hive metastore on PostgreSQL shared by two workbench processes (issue 17 item 3): the schema is
created once, on purpose, by the first process (no lazy DataNucleus creation, which deadlocks on
PostgreSQL); one process creates a table, the other sees and queries it; an atomic write that fails in
one leaves the other's reads whole, and a successful one is seen there. Real processes, a real
PostgreSQL (the postgres_server fixture), a real JDBC driver (/usr/share/java/postgresql.jar)."""
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

from jvm_support import short_lived_jvm
from rest_support import Http
from ports import free_port

ROOT = Path(__file__).resolve().parents[3]
JDBC_JAR = Path("/usr/share/java/postgresql.jar")
START_TIMEOUT_S = 240
FAILING = ("SELECT CASE WHEN id = 39 THEN CAST(raise_error('injected fault') AS BIGINT) ELSE id END AS id "
           "FROM range(0, 40, 1, 4)")
_DROPPED = ("PYSPARK_PYTHON", "SPARK_LOCAL_IP", "SPARK_LOCAL_DIRS", "PYSPARK_GATEWAY_PORT", "PYSPARK_GATEWAY_SECRET")


class Workbench:
    """``python -m gateway serve`` on its own data directory, in its own process group."""

    def __init__(self, name: str, base: Path, jdbc_url: str, warehouse: Path) -> None:
        self.name, self.port = name, free_port()
        self.data_dir = base / name
        self.data_dir.mkdir()
        env = {k: v for k, v in os.environ.items() if not k.startswith("WORKBENCH_") and k not in _DROPPED}
        env.update(PYTHONPATH=str(ROOT), WORKBENCH_DATA_DIR=str(self.data_dir), WORKBENCH_SPARK_MASTER="local[1]",
                   WORKBENCH_METASTORE_JDBC_URL=jdbc_url, WORKBENCH_SESSION_IDLE_TIMEOUT_S="0",
                   WORKBENCH_SPARK_UI_ENABLED="false",
                   WORKBENCH_SPARK_CONF=json.dumps({"spark.driver.memory": "1g", "spark.sql.shuffle.partitions": "2",
                                                    "spark.sql.warehouse.dir": str(warehouse)}))
        self.log = open(base / f"{name}.log", "wb")
        self.process = subprocess.Popen([sys.executable, "-m", "gateway", "serve", "--port", str(self.port)],
                                        cwd=ROOT, env=short_lived_jvm(env), stdout=self.log, stderr=subprocess.STDOUT,
                                        start_new_session=True)
        self.http = Http(f"http://127.0.0.1:{self.port}")
        self.session = None

    def tail(self) -> str:
        return Path(self.log.name).read_text(errors="replace")[-3000:]

    def wait_for(self, what: str, predicate) -> None:
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            if predicate():
                return
            assert self.process.poll() is None, f"{self.name} exited waiting for {what}:\n{self.tail()}"
            time.sleep(0.1)  # a start or an exit is seen 0.1 s after it, not up to 0.5 s
        raise AssertionError(f"{self.name}: no {what} in {START_TIMEOUT_S} s:\n{self.tail()}")

    def ready(self) -> bool:
        try:
            with urllib.request.urlopen(f"{self.http.url}/v1/info", timeout=5) as response:
                return response.status == 200
        except OSError:
            return False

    def sql(self, statement: str):
        if self.session is None:
            self.session = self.http.open_session(sessionName=self.name)
        op = self.http.execute(self.session, statement)
        status = self.http.wait_status(self.session, op, timeout_s=120)
        if status != "FINISHED":
            return status, self.http("GET", f"/v1/sessions/{self.session}/operations/{op}/result/0").body
        return status, self.http.fetch_all(self.session, op)[1]

    def ok(self, statement: str):
        status, rows = self.sql(statement)
        assert status == "FINISHED", (self.name, statement, rows)
        return rows

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(10)
        self.log.close()


@pytest.fixture(scope="module")
def pair(postgres_server, tmp_path_factory):
    assert JDBC_JAR.is_file(), "install Debian's libpostgresql-jdbc-java (/usr/share/java/postgresql.jar)"
    postgres_server.create_database("shared_metastore")
    jdbc_url = postgres_server.jdbc_url("shared_metastore")
    base = tmp_path_factory.mktemp("shared-metastore")
    warehouse = base / "warehouse"
    first = Workbench("first", base, jdbc_url, warehouse)
    second = None
    try:
        # The first process creates the schema before its Spark starts; the second starts once it is there.
        first.wait_for("the metastore schema", (first.data_dir / "metastore" / "jdbc-schema-created").is_file)
        second = Workbench("second", base, jdbc_url, warehouse)
        first.wait_for("its REST API", first.ready)
        second.wait_for("its REST API", second.ready)
        yield first, second
    finally:
        for workbench in (second, first):
            if workbench is not None:
                workbench.stop()


def test_the_schema_is_created_once_in_postgresql(pair, postgres_server):
    first, second = pair
    details = first.http("GET", "/v2/info/details").body
    assert details["metastore"] == "database " + postgres_server.jdbc_url("shared_metastore").split("?")[0]
    tables = subprocess.run(
        postgres_server._command("psql", "-h", "127.0.0.1", "-p", str(postgres_server.port), "-U", "postgres",
                                 "-d", "shared_metastore", "-Atc",
                                 "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'"),
        capture_output=True, text=True, timeout=60).stdout.split()
    assert {"DBS", "TBLS", "SDS", "COLUMNS_V2", "PARTITIONS", "FUNCS"} <= set(tables)
    assert not (first.data_dir / "metastore" / "metastore_db").exists()  # no Derby


def test_a_table_created_in_one_process_is_queried_in_the_other(pair):
    first, second = pair
    first.ok("CREATE DATABASE IF NOT EXISTS shared")
    first.ok("CREATE TABLE shared.t USING parquet AS SELECT id, id * 10 AS v FROM range(10)")
    assert ["t"] in [[r[1]] for r in second.ok("SHOW TABLES IN shared")]
    assert second.ok("SELECT count(*), sum(v) FROM shared.t") == [[10, 450]]


def test_an_atomic_write_in_one_process_is_safe_for_readers_in_the_other(pair):
    first, second = pair
    first.ok("CREATE TABLE IF NOT EXISTS shared.w USING parquet AS SELECT id FROM range(10)")
    assert second.ok("SELECT count(*), sum(id) FROM shared.w") == [[10, 45]]
    status, error = first.sql(f"INSERT OVERWRITE TABLE shared.w {FAILING}")
    assert status == "ERROR" and "injected fault" in error["root_cause"]
    assert second.ok("SELECT count(*), sum(id) FROM shared.w") == [[10, 45]]  # whole: no error, the old rows
    first.ok("INSERT OVERWRITE TABLE shared.w SELECT id FROM range(100, 120)")
    # Another Spark application's write: the reader drops its cached file list (docs/cluster.md).
    second.ok("REFRESH TABLE shared.w")
    assert second.ok("SELECT count(*), sum(id) FROM shared.w") == [[20, sum(range(100, 120))]]
    status, error = second.sql("CREATE TABLE shared.w2 USING parquet AS " + FAILING)
    assert status == "ERROR"
    assert "w2" not in [r[1] for r in first.ok("SHOW TABLES IN shared")]  # a failed CTAS leaves no table
