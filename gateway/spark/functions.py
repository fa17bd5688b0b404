"""Spark's built-in function registry, read through the driver JVM.

``FunctionRegistry.builtin`` answers from memory: each built-in's expression class and usage
text in about a second, without the catalog (``catalog.listFunctions`` took 6-19 s and
contended with every other catalog call). Only classic PySpark has it: callers ask
``supports(spark, Capability.JVM)`` first and otherwise take the public path
(``SHOW SYSTEM FUNCTIONS``, ``DESCRIBE FUNCTION``) in ``gateway.core.functions``.
"""
from __future__ import annotations

from dataclasses import dataclass

from gateway.spark.backend import jvm


@dataclass(frozen=True)
class RegisteredFunction:
    """One name of a built-in function: the expression class behind it and its usage text."""

    name: str
    class_name: str
    usage: str


def builtin_registry(spark) -> list[RegisteredFunction]:
    """Every name in Spark's built-in function registry (aliases are separate entries).

    Raises NotAvailableOnBackend when ``spark`` has no driver JVM.
    """
    registry = jvm(spark).org.apache.spark.sql.catalyst.analysis.FunctionRegistry.builtin()
    found = []
    iterator = registry.listFunction().iterator()
    while iterator.hasNext():
        identifier = iterator.next()
        info = registry.lookupFunction(identifier)
        if info.isDefined():  # listed names are registered; a miss would be a registry race
            expression = info.get()
            found.append(RegisteredFunction(identifier.funcName(), expression.getClassName(),
                                            expression.getUsage() or ""))
    return found
