"""The one Spark adapter: no JVM reach outside gateway/spark/, and one fallback policy.

A backend without a JVM (Spark Connect) is stood in for by ``WithoutJvm``: the real session's
public API with the Py4J handles taken away. That is a capability probe, not a mock of Spark:
every call it lets through runs on the real local Spark.
"""
from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from gateway.errors import ResourceError
from gateway.features.atomic.files import TableFiles
from gateway.features.jars.resources import metastore_function_resources, use_jar_class_loader
from gateway.features.jars.store import hadoop_fetcher
from gateway.features.plans.spark_planning import force_optimized, planned
from gateway.spark import backend
from gateway.spark.arrow_stream import ArrowBatchStream, is_small
from gateway.spark.backend import Capability, NotAvailableOnBackend, supports
from gateway.spark.catalog import function_resources
from gateway.spark.classloader import use_added_jars_on_this_thread
from gateway.spark.files import HadoopFileSystem
from gateway.spark.jobs import clear_job_group
from gateway.spark.parser import parse_write_target
from gateway.spark.plans import catalyst_plans, optimize_now, proven_max_rows
from gateway.spark.writes import catalog_stages_writes, written_rows

ROOT = Path(__file__).resolve().parents[3]
JVM_HANDLES = {"_jvm", "_jsparkSession", "_jsc", "_jdf", "_jconf"}


# -- no JVM reach outside gateway/spark/ ---------------------------------------------------------

def jvm_reaches(path: Path) -> list[str]:
    """``file:line what`` for each JVM handle or py4j import in the code of ``path`` (not its
    comments or docstrings: the file is parsed)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    found = []
    for node in ast.walk(tree):
        what = None
        if isinstance(node, ast.Attribute) and node.attr in JVM_HANDLES:
            what = "." + node.attr
        elif isinstance(node, ast.Name) and node.id in JVM_HANDLES:
            what = node.id
        elif isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("getattr", "hasattr") \
                and len(node.args) > 1 and isinstance(node.args[1], ast.Constant) and node.args[1].value in JVM_HANDLES:
            what = f"{node.func.id}(…, {node.args[1].value!r})"
        elif isinstance(node, ast.Import) and any(a.name.split(".")[0] == "py4j" for a in node.names):
            what = "import py4j"
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "py4j":
            what = f"from {node.module} import"
        if what:
            found.append((node.lineno, what))
    return [f"{path.relative_to(ROOT)}:{line} {what}" for line, what in sorted(found)]


def front_and_gateway_files() -> list[Path]:
    files = [ROOT / "app.py"]
    for folder in ("gateway", "ui", "pages"):
        files += sorted((ROOT / folder).rglob("*.py"))
    return [f for f in files if f.is_file()]


def test_the_scanner_finds_a_jvm_reach(tmp_path, monkeypatch):
    monkeypatch.setattr(f"{__name__}.ROOT", tmp_path)
    probe = tmp_path / "probe.py"
    probe.write_text('"""spark._jvm in a docstring is not code."""\n'
                     "# nor is spark._jsc in a comment\n"
                     "from py4j.protocol import Py4JError\n"
                     "x = df._jdf.queryExecution()\n"
                     "y = getattr(spark, '_jsparkSession', None)\n"
                     "z = spark.sparkContext._on_jvm\n")
    assert jvm_reaches(probe) == ["probe.py:3 from py4j.protocol import", "probe.py:4 ._jdf",
                                  "probe.py:5 getattr(…, '_jsparkSession')"]


def test_no_jvm_reach_outside_the_spark_adapter():
    adapter = ROOT / "gateway" / "spark"
    files = front_and_gateway_files()
    assert len(files) > 50  # the scan really walks the code
    outside = [reach for f in files if adapter not in f.parents for reach in jvm_reaches(f)]
    assert outside == [], "JVM reaches outside gateway/spark/ (move them behind a named call there):\n" \
                          + "\n".join(outside)


# -- capabilities on the real local Spark ---------------------------------------------------------

class WithoutJvm:
    """A SparkSession's public API without its Py4J handles: what a Spark Connect session offers."""

    def __init__(self, spark) -> None:
        self._spark = spark

    def __getattr__(self, name):
        if name.startswith("_j"):
            raise AttributeError(name)
        return getattr(self._spark, name)


class FrameWithoutJvm:
    """A DataFrame's public API, whose session has no JVM and which has no ``_jdf``."""

    def __init__(self, df) -> None:
        self._df = df
        self.sparkSession = WithoutJvm(df.sparkSession)

    def __getattr__(self, name):
        if name.startswith("_j"):
            raise AttributeError(name)
        return getattr(self._df, name)


@pytest.fixture
def spark(gateway, session):
    return gateway.sessions.get(session).spark


def test_every_jvm_capability_is_supported_on_classic_local_spark(gateway, spark):
    for capability in backend._THROUGH_THE_JVM:
        assert supports(gateway.root, capability), capability
        assert supports(spark, capability), capability
        assert not supports(WithoutJvm(spark), capability), capability
    # Spark Connect's own (operation tags, session artifacts, Arrow batches): classic takes its JVM paths instead
    for capability in set(Capability) - backend._THROUGH_THE_JVM:
        assert not supports(spark, capability), capability


def test_named_calls_say_what_is_not_available_without_a_jvm(spark, tmp_path):
    no_jvm = WithoutJvm(spark)
    frame = FrameWithoutJvm(spark.range(3))
    calls = {
        "the driver JVM": lambda: backend.jvm(no_jvm),
        "Catalyst's analyzed and optimized plans": lambda: catalyst_plans(no_jvm, "SELECT 1"),
        "optimizing a plan before it runs": lambda: optimize_now(frame),
        "the row bound Spark proves for a plan": lambda: proven_max_rows(frame),
        "the rows a write command wrote": lambda: written_rows(frame),
        "asking whether a catalog stages its writes": lambda: catalog_stages_writes(no_jvm, "spark_catalog"),
        "Hadoop's FileSystem with Spark's Hadoop configuration": lambda: HadoopFileSystem(no_jvm),
        "the class loader of the jars ADD JAR added": lambda: use_added_jars_on_this_thread(no_jvm),
        "the resources the metastore holds for a function": lambda: function_resources(no_jvm, "default", "f"),
        "recognising a write statement with Spark's parser": lambda: parse_write_target(no_jvm, "SELECT 1"),
    }
    for what, call in calls.items():
        with pytest.raises(NotAvailableOnBackend) as info:
            call()
        message = info.value.message
        assert message.startswith(f"{what} is not available on this Spark backend"), message
        assert "WithoutJvm" in message and info.value.http_status == 501


def test_callers_with_a_public_path_take_it_without_a_jvm(spark, tmp_path):
    no_jvm = WithoutJvm(spark)
    text = "SELECT id * 2 AS twice FROM range(5) WHERE id > 1"

    explained, through_jvm = planned(no_jvm, text), planned(spark, text)
    assert (explained.source, through_jvm.source) == ("explain", "jvm")
    assert explained.analyzed_json is None and through_jvm.analyzed_json
    assert "Filter (id#" in explained.analyzed_text and "Filter (id#" in through_jvm.analyzed_text

    df = spark.sql("SELECT id FROM range(2500)")
    frame = FrameWithoutJvm(df)
    force_optimized(frame)  # no JVM: nothing to do before the run, and no error
    assert not is_small(frame) and proven_max_rows(df) == 2500
    stream = ArrowBatchStream(frame, df.schema, "UTC").start()
    assert stream.used_fallback
    assert [v for batch, _ in stream for v in batch.column(0).to_pylist()] == list(range(2500))

    spark.sparkContext.setJobGroup("probe-group", "probe", interruptOnCancel=True)
    clear_job_group(no_jvm)  # through setLocalProperty
    assert spark.sparkContext.getLocalProperty("spark.jobGroup.id") is None
    spark.sparkContext.setJobGroup("probe-group", "probe", interruptOnCancel=True)
    clear_job_group(spark)  # one Py4J call
    assert spark.sparkContext.getLocalProperty("spark.jobGroup.id") is None

    use_jar_class_loader(no_jvm)  # Spark's own class loading applies
    assert metastore_function_resources(no_jvm, "default", "nope") == []

    with pytest.raises(ResourceError, match="does not expose"):
        hadoop_fetcher(no_jvm)("hdfs://namenode/udfs.jar", tmp_path / "copy.jar")


@pytest.mark.parametrize("through_jvm", [True, False], ids=["hadoop", "local"])
def test_table_files_move_directories_with_and_without_the_jvm(spark, tmp_path, through_jvm):
    files = TableFiles(spark if through_jvm else WithoutJvm(spark))
    source, target = (tmp_path / "a" / "table").as_uri(), (tmp_path / "b" / "moved").as_uri()
    files.mkdirs(source)
    (tmp_path / "a" / "table" / "part-0").write_text("rows")
    assert files.exists(source) and not files.exists(target)
    files.rename(source, target)
    assert (tmp_path / "b" / "moved" / "part-0").read_text() == "rows" and not files.exists(source)
    files.mkdirs(source)
    with pytest.raises(OSError, match="the target exists"):
        files.rename(source, target)
    files.delete(target)
    assert not (tmp_path / "b" / "moved").exists()


def test_hadoop_failures_read_as_os_errors_naming_the_java_cause(spark, tmp_path):
    with pytest.raises(OSError, match="nosuchfs"):
        HadoopFileSystem(spark).exists("nosuchfs://x/y")
    (tmp_path / "a.jar").write_bytes(b"PK")
    copy = tmp_path / "copy.jar"
    HadoopFileSystem(spark).copy_to_local((tmp_path / "a.jar").as_uri(), copy)
    assert copy.read_bytes() == b"PK"


def test_plan_internals_on_the_real_spark(spark):
    plans = catalyst_plans(spark, "SELECT id FROM range(10) WHERE id < 3")
    assert plans.output_schema == json.loads(spark.sql("SELECT id FROM range(1)").schema.json())
    assert plans.analyzed_json[0]["class"].endswith("Project")
    assert "Filter" in plans.optimized_text
    assert proven_max_rows(spark.sql("SELECT * FROM range(100) LIMIT 7")) == 7
    assert proven_max_rows(spark.sql("SELECT count(*) FROM range(100)")) == 1
    assert catalog_stages_writes(spark, "spark_catalog") is False
    assert catalog_stages_writes(spark, "no_such_catalog") is False


def test_written_rows_come_from_the_write_commands_metric(spark, tmp_path):
    name = "adapter_written_rows"
    try:
        created = spark.sql(f"CREATE TABLE {name} USING parquet LOCATION '{tmp_path / 't'}' AS "
                            f"SELECT id FROM range(42)")
        assert written_rows(created) is None  # the CTAS command keeps no metric: unknown, not 0
        assert written_rows(spark.sql(f"INSERT INTO {name} SELECT id FROM range(5)")) == 5
    finally:
        spark.sql(f"DROP TABLE IF EXISTS {name}")


CONSTANTS = ("SELECT 1 AS one, 'x' AS s, DATE'2024-02-29' AS d, TIMESTAMP'2024-01-02 03:04:05.123456' AS ts, "
             "TIMESTAMP_NTZ'2024-01-02 03:04:05' AS ntz, CAST(1.50 AS DECIMAL(6, 2)) AS dec, array(1, 2) AS arr, "
             "map('k', 1.5D) AS m, named_struct('a', 1, 'b', 'y') AS st, CAST(NULL AS INT) AS nothing, X'00FF' AS bin, "
             "upper('abc') || 1 AS expr")


def test_a_projection_of_constants_is_computed_in_the_driver_without_a_job(gateway, session, spark):
    """SELECT 1 (and any projection of constants) gives the rows the one-task job gave, without the job."""
    from gateway.spark.arrow_stream import constant_projection, small_result

    df = spark.sql(CONSTANTS)
    local = constant_projection(df)
    assert local is not None and local.schema == df.schema
    assert small_result(local, df.schema).equals(small_result(spark.sql(CONSTANTS), df.schema))
    assert constant_projection(FrameWithoutJvm(df)) is None  # no Catalyst plans: the job it is
    for query in ("SELECT id FROM range(1)", "SELECT * FROM VALUES (1), (2) AS t(a)", "SELECT 1 AS a WHERE rand() < 0.5"):
        assert constant_projection(spark.sql(query)) is None, query

    def run(statement):
        op = gateway.execute_statement(session, statement)
        try:
            pages = list(gateway.iter_results(session, op, timeout_s=60))
            return pages[-1], gateway.get_operation_info(session, op).job_ids
        finally:
            gateway.close_operation(session, op)

    page, jobs = run("SELECT 1 AS one, current_date() = current_date() AS today")
    assert page.rows == [[1, True]] and jobs == []
    page, jobs = run("SELECT id FROM range(1)")
    assert page.rows == [[0]] and jobs  # a real input still runs its job
    page, jobs = run("SELECT (SELECT max(id) FROM range(3)) AS m")  # a subquery still runs its job
    assert page.rows == [[2]] and jobs
    for statement, error_class in (("SELECT raise_error('boom') AS r", "USER_RAISED_EXCEPTION"),
                                   ("SELECT 1 / 0 AS q", "DIVIDE_BY_ZERO")):
        page, _ = run(statement)
        assert page.result_type.value == "ERROR" and page.exception["error_class"] == error_class, page.exception
