"""What the executors' Python has: one small Spark job that asks an executor, for modules whose
functions run in Python workers there (issue 17: on a cluster pandas UDFs failed with only
"Exception thrown in awaitResult" because the workers' Python had no pandas)."""
from __future__ import annotations

import sys
import threading

_known_present: set[tuple[int, str]] = set()  # (SparkContext id, package) found on an executor
_lock = threading.Lock()


def is_local(spark) -> bool:
    """Do Python workers run on this machine with the driver's interpreter (a local master)?"""
    return spark.sparkContext.master.startswith("local")


def _probe(packages):
    """Runs on an executor: which of ``packages`` its Python cannot import, and which Python it is."""
    import importlib.util
    import socket
    import sys

    missing = []
    for name in packages:
        try:
            found = importlib.util.find_spec(name) is not None
        except (ImportError, ValueError):
            found = False
        if not found:
            missing.append(name)
    yield {"missing": missing, "python": sys.executable, "version": sys.version.split()[0],
           "host": socket.gethostname()}


def missing_on_executors(spark, packages: list[str]) -> dict:
    """Ask one executor which of ``packages`` its Python lacks: {"missing", "python", "version", "host"}.

    One task on one partition (so on one executor; a cluster's executors share one environment,
    shipped by spark.archives or installed alike). Packages found once are not asked again.
    """
    from pyspark import cloudpickle

    cloudpickle.register_pickle_by_value(sys.modules[__name__])  # the executors have no `gateway` package
    context = spark.sparkContext
    wanted = [p for p in dict.fromkeys(packages) if (id(context), p) not in _known_present]
    if not wanted:
        return {"missing": [], "python": "", "version": "", "host": ""}
    (answer,) = context.parallelize([0], 1).mapPartitions(lambda _: _probe(wanted)).collect()
    with _lock:
        _known_present.update((id(context), p) for p in wanted if p not in answer["missing"])
    return answer
