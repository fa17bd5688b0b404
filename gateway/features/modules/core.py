"""``core``: Spark's built-in functions, an ordinary module in the order (FLIP-68's CoreModule).

Spark cannot remove or reorder its built-ins, so ``core`` only decides clashes: a module that stands
before ``core`` shadows built-ins of the same name; one after it does not. Built-ins themselves
always answer, also by their qualified name ``system.builtin.f`` (docs/modules.md).
"""
from __future__ import annotations

from gateway.core.catalog import _builtin_names
from gateway.features.modules.base import FunctionDefinition, Module, ModuleFactory


class CoreModule(Module):
    type = "core"
    provides_builtins = True  # nothing to register: Spark answers these names itself

    def __init__(self, name: str, spark) -> None:
        super().__init__(name, spark.version)
        self.spark = spark  # the session's (ModuleManager.rebind follows a new one)

    def list_functions(self) -> list[str]:
        # asked when needed, not at the session's start: the process's one cache of them (gateway/core/functions.py)
        return sorted(_builtin_names(self.spark))

    def _definition(self, name: str) -> FunctionDefinition:
        return FunctionDefinition(name=name, module=self.name, module_type=self.type, version=self.version,
                                  kind="builtin", implementation="builtin",
                                  description=f"Spark built-in, also callable as system.builtin.{name}")


class CoreModuleFactory(ModuleFactory):
    type = "core"
    description = "Spark's built-in functions (always callable as system.builtin.f)."
    properties = ()

    def create_module(self, name, properties, spark) -> CoreModule:
        return CoreModule(name, spark)
