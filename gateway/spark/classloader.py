"""The class loader that sees the jars ADD JAR added, on the thread that runs a statement."""
from __future__ import annotations

from gateway.spark.backend import Capability, jsession, jvm


def use_added_jars_on_this_thread(spark) -> None:
    """Make the shared state's jar class loader this thread's context class loader in the JVM.

    Spark sets it only on the thread that ran ADD JAR, while statements run on pool threads.
    """
    what = "the class loader of the jars ADD JAR added"
    loader = jsession(spark, Capability.SESSION_STATE, what).sharedState().jarClassLoader()
    jvm(spark, Capability.SESSION_STATE, what).java.lang.Thread.currentThread().setContextClassLoader(loader)
