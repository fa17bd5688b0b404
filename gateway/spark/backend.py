"""What the Spark behind a session can do, and the one fallback policy.

Every reach into the JVM (``_jvm``, ``_jsparkSession``, ``_jsc``, ``_jdf``) lives in
``gateway/spark/``, and only the accessors below touch those handles. Classic PySpark has a
Py4J gateway to the driver JVM; Spark Connect has none. The policy:

- a named call in this package either works, or raises ``NotAvailableOnBackend`` saying what
  is not available (``require``);
- a caller that has a public-API path (EXPLAIN instead of Catalyst's trees, ``os`` for local
  files, ``toLocalIterator`` instead of the partition stream) asks ``supports`` first and takes
  that path; nothing catches an exception to find out what the backend can do;
- failures are caught narrowly (``gateway.spark.errors.ENGINE_ERRORS``), never by a catch-all
  that would hide a bug.

A new backend (Spark Connect, a cluster client) implements the capabilities it can here.
"""
from __future__ import annotations

import enum

from gateway.errors import GatewayError


class Capability(str, enum.Enum):
    """Things a feature may need from the Spark backend beyond the public DataFrame API."""

    JVM = "jvm"                              # a Py4J gateway into the driver JVM
    PARTITION_STREAM = "partition_stream"    # results served a partition at a time (toArrowBatchRdd)
    PLAN_INTERNALS = "plan_internals"        # Catalyst plans: JSON trees, maxRows, metrics, optimize now
    SESSION_STATE = "session_state"          # session/shared state: catalog plugins, jar class loader, metastore
    HADOOP_FILESYSTEM = "hadoop_filesystem"  # Hadoop's FileSystem with Spark's Hadoop configuration
    JOB_CONTROL = "job_control"              # clearing a thread's job group in one call
    SPARK_CONTEXT = "spark_context"          # the driver's SparkContext: job groups, status tracker, FAIR pools, web UI
    OPERATION_TAGS = "operation_tags"        # Spark Connect: an operation tagged (addTag) and interrupted by tag
    SESSION_ARTIFACTS = "session_artifacts"  # Spark Connect: jars and files added to one session (addArtifacts)
    ARROW_BATCHES = "arrow_batches"          # Spark Connect: a result streamed as the Arrow batches the server sends


# Classic PySpark offers each of these through the driver JVM, and only through it.
_THROUGH_THE_JVM = frozenset({Capability.JVM, Capability.PARTITION_STREAM, Capability.PLAN_INTERNALS,
                              Capability.SESSION_STATE, Capability.HADOOP_FILESYSTEM, Capability.JOB_CONTROL,
                              Capability.SPARK_CONTEXT})
# A Spark Connect session offers these through its server (the gateway uses them only there: classic keeps
# its job groups and its own jar bookkeeping).
_THROUGH_CONNECT = frozenset({Capability.OPERATION_TAGS, Capability.SESSION_ARTIFACTS, Capability.ARROW_BATCHES})


class NotAvailableOnBackend(GatewayError):
    """The call needs something this Spark backend does not offer (e.g. the JVM under Spark Connect)."""

    http_status = 501


def _has_jvm(spark) -> bool:
    # ``_jsparkSession`` first: a Spark Connect session raises (not AttributeError) on ``sparkContext``.
    return getattr(spark, "_jsparkSession", None) is not None and \
        getattr(getattr(spark, "sparkContext", None), "_jvm", None) is not None


def is_connect(spark) -> bool:
    """Is ``spark`` a Spark Connect session (pyspark.sql.connect), whose engine is a server elsewhere?"""
    return type(spark).__module__.startswith("pyspark.sql.connect.")


def backend_name(spark) -> str:
    """The backend's name as users know it, for refusals: Spark Connect, classic Spark, or (a session without
    its JVM handles, in tests) this Spark backend."""
    if is_connect(spark):
        return "Spark Connect (engine.kind = connect)"
    return "classic Spark (engine.kind = embedded)" if _has_jvm(spark) else "this Spark backend"


def supports(spark, capability: Capability) -> bool:
    """Can ``spark`` (a SparkSession) do ``capability``?"""
    if is_connect(spark):
        return capability in _THROUGH_CONNECT
    if capability in _THROUGH_THE_JVM:
        return _has_jvm(spark)
    return False


def require(spark, capability: Capability, what: str) -> None:
    """Raise NotAvailableOnBackend naming ``what`` unless ``spark`` supports ``capability``."""
    if not supports(spark, capability):
        raise NotAvailableOnBackend(
            f"{what} is not available on {backend_name(spark)}: it needs {capability.value!r}, which "
            f"{type(spark).__module__}.{type(spark).__name__} does not offer")


# -- the accessors: the only code that touches the Py4J handles --------------------------------

def jvm(spark, capability: Capability = Capability.JVM, what: str = "the driver JVM"):
    """The driver JVM's Py4J view (``spark.sparkContext._jvm``); only for code in gateway/spark/."""
    require(spark, capability, what)
    return spark.sparkContext._jvm


def jsession(spark, capability: Capability = Capability.JVM, what: str = "the driver JVM"):
    """The JVM SparkSession behind ``spark``; only for code in gateway/spark/."""
    require(spark, capability, what)
    return spark._jsparkSession


def jcontext(spark, capability: Capability = Capability.JVM, what: str = "the driver JVM"):
    """The JavaSparkContext behind ``spark``; only for code in gateway/spark/."""
    require(spark, capability, what)
    return spark.sparkContext._jsc


def jdataframe(df, capability: Capability = Capability.JVM, what: str = "the driver JVM"):
    """The JVM Dataset behind a DataFrame; only for code in gateway/spark/."""
    require(df.sparkSession, capability, what)
    return df._jdf
