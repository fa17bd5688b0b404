"""Pluggable modules with a per-session function resolution order (FLIP-68).

``core`` (Spark's built-ins), ``python``, ``sql``, ``jar`` and the shipped ``geo`` are ordinary
module types of one registry; other packages add types through the ``spark_sql_workbench.modules``
entry point group. Each session has a ModuleManager (``ModulesFeature.manager(session)``).
"""
from gateway.features.modules.base import (FunctionDefinition, FunctionOrigin, Module, ModuleFactory,  # noqa: F401
                                           ModuleInfo, ModuleTypeInfo, PropertySpec)
from gateway.features.modules.manager import ModuleManager  # noqa: F401
from gateway.features.modules.python_module import module_function  # noqa: F401
from gateway.features.modules.registry import ENTRY_POINT_GROUP, FactoryRegistry  # noqa: F401

__all__ = [
    "Module", "ModuleFactory", "ModuleManager", "ModuleInfo", "ModuleTypeInfo", "PropertySpec",
    "FunctionDefinition", "FunctionOrigin", "FactoryRegistry", "ENTRY_POINT_GROUP", "module_function",
]
