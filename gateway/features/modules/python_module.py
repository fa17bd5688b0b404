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
from typing import Callable, Optional

from gateway.errors import InvalidRequestError
from gateway.features.modules.base import FunctionDefinition, Module, ModuleFactory, PropertySpec

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
        return PythonModule(name, import_python_module(properties["module"]), "python", properties)


class GeoModuleFactory(ModuleFactory):
    type = "geo"
    description = ("Geographic functions: haversine_km, initial_bearing, geohash_encode, geohash_decode, "
                   "in_bbox (vectorized pandas UDFs).")
    properties = ()

    def create_module(self, name, properties, spark) -> PythonModule:
        from gateway.features.modules import geo

        return PythonModule(name, geo, "geo", properties)
