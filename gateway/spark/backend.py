"""What the Spark behind a session can do, and the one fallback policy.

Every reach into the JVM (``_jvm``, ``_jsparkSession``, ``_jsc``, ``_jdf``) lives in
``gateway/spark/``. Classic PySpark has a Py4J gateway to the driver JVM; Spark Connect has
none. A named call in this package either works, or (when ``supports`` says the backend
cannot) raises ``NotAvailableOnBackend`` with what is missing. Callers that have a
public-API path ask ``supports`` first and take it; nothing swallows a failure silently.
"""
from __future__ import annotations

import enum

from gateway.errors import GatewayError


class Capability(str, enum.Enum):
    """Things a feature may need from the Spark backend beyond the public DataFrame API."""

    JVM = "jvm"  # classic PySpark: a Py4J gateway into the driver JVM


class NotAvailableOnBackend(GatewayError):
    """The call needs something this Spark backend does not offer (e.g. the JVM under Spark Connect)."""

    http_status = 501


def supports(spark, capability: Capability) -> bool:
    """Can ``spark`` (a SparkSession) do ``capability``?"""
    if capability is Capability.JVM:
        return getattr(spark, "_jsparkSession", None) is not None and \
            getattr(getattr(spark, "sparkContext", None), "_jvm", None) is not None
    return False


def require(spark, capability: Capability, what: str) -> None:
    """Raise NotAvailableOnBackend naming ``what`` unless ``spark`` supports ``capability``."""
    if not supports(spark, capability):
        raise NotAvailableOnBackend(
            f"{what} is not available on this Spark backend: it needs {capability.value!r}, which "
            f"{type(spark).__module__}.{type(spark).__name__} does not offer (classic PySpark does)")


def jvm(spark):
    """The driver JVM's Py4J view (``spark.sparkContext._jvm``); only for code in gateway/spark/."""
    require(spark, Capability.JVM, "the driver JVM")
    return spark.sparkContext._jvm


def jsession(spark):
    """The JVM SparkSession behind ``spark``; only for code in gateway/spark/."""
    require(spark, Capability.JVM, "the driver JVM")
    return spark._jsparkSession
