"""``python`` modules: functions from an importable Python module, registered as Spark UDFs.

A Python module offers functions by marking them with :func:`module_function`; functions with
pandas type hints (``pd.Series`` in and out, or ``pd.DataFrame`` out for a struct) become
vectorized Arrow UDFs (``pandas_udf``), the rest row-at-a-time UDFs. The module's
``__version__`` is its version. Functions are shipped to Spark's Python workers by value, so the
module itself need not be importable there (what it imports must be).
"""
from __future__ import annotations

import importlib
import inspect
import sys
import types
from typing import Callable, Optional

from gateway.errors import InvalidRequestError
from gateway.features.modules.base import FunctionDefinition, Module, ModuleFactory, PropertySpec
from gateway.spark.executors import is_local, missing_on_executors

MARK = "__workbench_function__"


def module_function(returns: str, vectorized: bool = True, description: str = "") -> Callable:
    """Mark a Python function as one that a ``python`` module offers to SQL.

    ``returns`` is a Spark DDL type ("double", "struct<lat: double, lon: double>"). The mark is a
    plain dict because it travels with the function to the Python workers.
    """

    def mark(fn):
        setattr(fn, MARK, {"returns": returns, "vectorized": vectorized,
                           "description": description or (fn.__doc__ or "").strip().split("\n")[0]})
        return fn

    return mark


class PythonModule(Module):
    type = "python"

    def __init__(self, name: str, python_module, type_name: str = "python",
                 properties: Optional[dict] = None) -> None:
        super().__init__(name, getattr(python_module, "__version__", "unversioned"), properties)
        self.type = type_name
        self.python_module = python_module
        self._functions: dict[str, Callable] = {}
        for attr, value in vars(python_module).items():
            if callable(value) and hasattr(value, MARK):
                self._functions[attr.lower()] = value
        if not self._functions:
            raise InvalidRequestError(
                f"Python module {python_module.__name__} offers no functions: mark them with "
                f"@gateway.features.modules.module_function(returns='double')")

    def list_functions(self) -> list[str]:
        return sorted(self._functions)

    def _definition(self, name: str) -> FunctionDefinition:
        fn = self._functions[name]
        spec = getattr(fn, MARK)
        params = ", ".join(inspect.signature(fn).parameters)
        return FunctionDefinition(
            name=name, module=self.name, module_type=self.type, version=self.version, kind="python",
            implementation=f"python:{_implementation_name(self.python_module)}.{fn.__name__}",
            description=spec["description"], signature=f"{name}({params}) -> {spec['returns']}",
            register=lambda spark: _register(spark, name, fn, spec, self.python_module))


def _implementation_name(python_module) -> str:
    """The name compiled plans record for a Python module's functions: ``__implementation__`` when the
    module sets one (so a plan survives moving the code), else the module's import name."""
    return getattr(python_module, "__implementation__", python_module.__name__)


def _register(spark, name: str, fn: Callable, spec: dict, python_module) -> None:
    from pyspark import cloudpickle
    from pyspark.sql.functions import pandas_udf, udf

    cloudpickle.register_pickle_by_value(python_module)  # workers need not import it
    returns = spec["returns"]
    wrapped = pandas_udf(fn, returnType=returns) if spec["vectorized"] else udf(fn, returnType=returns)
    spark.udf.register(name, wrapped)


def import_python_module(dotted: str):
    try:
        return importlib.import_module(dotted)
    except Exception as exc:  # noqa: BLE001 - any import failure is the user's to fix
        raise InvalidRequestError(f"the Python module {dotted!r} cannot be imported: "
                                  f"{type(exc).__name__}: {exc}. Install it, or check the name") from None


class PythonModuleFactory(ModuleFactory):
    type = "python"
    description = "Functions from an importable Python module, marked with @module_function."
    properties = (PropertySpec("module", "dotted name of the Python module, e.g. my_pkg.geo_udfs", True),)

    def create_module(self, name, properties, spark) -> PythonModule:
        module = PythonModule(name, import_python_module(properties["module"]), "python", properties)
        check_executors(module, spark)
        return module


def executor_packages(module: PythonModule) -> list[str]:
    """The packages a Python module's functions import on the executors: pandas and pyarrow for
    vectorized ones, every package the module refers to at its top level (``import numpy as np``),
    and those it names in ``__executor_packages__``. Not the standard library, nor the module itself
    (its functions travel by value)."""
    python_module = module.python_module
    needed = set(getattr(python_module, "__executor_packages__", ()))
    if any(getattr(fn, MARK)["vectorized"] for fn in module._functions.values()):
        needed |= {"pandas", "pyarrow"}
    for value in vars(python_module).values():
        if isinstance(value, types.ModuleType) and value.__name__ != python_module.__name__:
            needed.add(value.__name__.split(".")[0])
    return sorted(n for n in needed if n not in sys.stdlib_module_names and n not in ("pyspark", "py4j"))


def check_executors(module: PythonModule, spark) -> None:
    """Refuse the module when the executors' Python lacks what its functions import (a cluster master
    only: with a local master the workers run the workbench's own interpreter)."""
    if is_local(spark):
        return
    packages = executor_packages(module)
    if not packages:
        return
    try:
        answer = missing_on_executors(spark, packages)
    except Exception as exc:  # noqa: BLE001 - say what failed and what the module needs
        raise InvalidRequestError(
            f"LOAD MODULE {module.name}: its functions run in Python on the executors, and asking an executor's "
            f"Python for {', '.join(packages)} failed: {str(exc).splitlines()[0][:300]}. Check that the executors "
            f"have a Python (spark.pyspark.python in [spark.conf])") from None
    if answer["missing"]:
        missing = ", ".join(answer["missing"])
        raise InvalidRequestError(
            f"LOAD MODULE {module.name}: its functions run in Python on the executors, and the executors' Python "
            f"({answer['python']} {answer['version']} on {answer['host']}) lacks the package(s) {missing} "
            f"(it needs {', '.join(packages)}). Ship them with the application: pack a virtual environment that "
            f"has them (python -m venv env; env/bin/pip install {' '.join(packages)} venv-pack; "
            f"env/bin/venv-pack -o env.tar.gz) and set in [spark.conf] \"spark.archives\" = \"env.tar.gz#env\" and "
            f"\"spark.pyspark.python\" = \"./env/bin/python\", then restart the workbench; or install them in "
            f"that Python on every worker. Functions that need no Python run anywhere: a sql module, or geo "
            f"(Spark SQL functions). See docs/modules.md")
